// End-to-end: what a newcomer trips over, at a desktop and a phone width: focus after each
// "add", shortcuts that stay quiet on controls, skip links, the help as a modal dialog, the
// ARIA tabs and menu keys, images and opaque blocks in the editor and the transcript, a blank
// start, notices that go when superseded, big links, and the dev server's reload script
// under the page's own policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openApp, linkText } from './serve.mjs';
import { startApp, stopApp } from './suite.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AXE = path.join(root, 'node_modules', 'axe-core', 'axe.min.js');
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

/** A fresh page at `width`; `body(page)` runs, then the page must have logged no error. */
async function at(width, body, options = {}) {
  const { name, ...contextOptions } = width;
  const { context, page, errors } = await openApp(browser, url, { ...contextOptions, ...options });
  try {
    await body(page);
    assert.deepEqual(errors, [], name);
  } finally {
    await context.close();
  }
}

/** Each test once per width. */
function both(title, body, options) {
  for (const w of WIDTHS) test(`${title} (${w.name})`, () => at(w, body, options));
}

const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.id ?? document.activeElement?.tagName);
const selectedTab = (page, list) => page.$eval(`[role=tablist][aria-label="${list}"] [aria-selected=true]`, (t) => t.dataset.testid);

/** Paste `text` on the page (outside any editor), as Ctrl+V on the page body does. */
async function pasteOnPage(page, text) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, text);
}

/** Serious and critical axe-core violations (the context must bypass the CSP for axe). */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

// A 1x1 PNG, and one large enough to make a link far over 8,000 characters (random bytes do
// not compress).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const BIG = Buffer.concat([Buffer.from(PNG, 'base64'), crypto.randomBytes(30_000)]).toString('base64');
const SIGNATURE = 'S'.repeat(4_297);

/** An Anthropic request: a user's image, a thinking block with a long signature, and a tool
 * result holding two images (base64 and URL) next to its text. */
function withImages(png = PNG) {
  return JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools: [{ name: 'get_chart', description: 'Draw a chart.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
    messages: [
      { role: 'user', content: [
        { type: 'text', text: 'Chart Oslo like this one.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      ] },
      { role: 'assistant', content: [
        { type: 'thinking', thinking: 'A chart is needed.', signature: SIGNATURE },
        { type: 'tool_use', id: 'toolu_1', name: 'get_chart', input: { city: 'Oslo' } },
      ] },
      { role: 'user', content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [
          { type: 'text', text: 'Two charts.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://charts.example.com/oslo.png' } },
        ] },
      ] },
    ],
  });
}

both('typing after "+ User" goes into the new message and runs no shortcut; every add focuses its first field', async (page) => {
  const count = () => page.locator('[data-testid=messages] > li.message').count();
  const n = await count();
  await page.getByTestId('add-user').click();
  assert.equal(await focused(page), `text-${n}-0`);
  await page.keyboard.type('hello l g f');
  assert.equal(await page.getByTestId(`text-${n}-0`).inputValue(), 'hello l g f');
  assert.equal(await count(), n + 1, 'no space added another message');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats', 'l did not open Live');
  await page.getByTestId('add-assistant').click();
  assert.equal(await focused(page), `text-${n + 1}-0`);
  await page.getByTestId('add-call').click();
  assert.match(await focused(page), new RegExp(`^call-${n + 1}-1-name$`));
  await page.getByTestId('add-result').click();
  assert.equal(await focused(page), `result-${n + 2}-0-content`);
  await page.keyboard.type('sunny');
  assert.equal(await page.getByTestId(`result-${n + 2}-0-content`).inputValue(), 'sunny');
  const tools = await page.locator('[data-testid^=tool-][data-testid$=-name]').count();
  await page.getByTestId('add-tool').click();
  assert.equal(await focused(page), `tool-${tools}-name`);
});

both('a letter on a button is the button\'s; from the page, a shortcut moves the focus into its view', async (page) => {
  await page.getByTestId('share').focus();
  await page.keyboard.press('l');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats');
  await page.getByTestId('tab-cost').focus();
  await page.keyboard.press('f');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats');
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('l');
  assert.equal(await selectedTab(page, 'View'), 'tab-live');
  await page.waitForFunction(() => document.activeElement?.closest('#views [data-testid=live]'));
  // From inside the view (not a control), the next shortcut still works.
  await page.evaluate(() => document.getElementById('views').focus());
  await page.keyboard.press('f');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats');
  await page.waitForFunction(() => document.activeElement?.id === 'views');
  await page.keyboard.press('t');
  assert.equal(await selectedTab(page, 'Editor'), 'tab-transcript');
  await page.waitForFunction(() => document.activeElement?.id === 'editor-panel');
});

both('skip links come first in the tab order and land in the wire formats and the Live form', async (page) => {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'skip-formats');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to wire formats');
  assert.ok(await page.getByTestId('skip-formats').isVisible(), 'shown when focused');
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'skip-live');
  await page.keyboard.press('Enter');
  assert.equal(await selectedTab(page, 'View'), 'tab-live');
  await page.waitForFunction(() => document.activeElement?.matches('#views [data-testid=live] :is(input, select, textarea)'));
  await page.getByTestId('skip-formats').focus();
  await page.keyboard.press('Enter');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats');
  await page.waitForFunction(() => document.activeElement?.id === 'views');
});

both('the help is a modal dialog: focus moves in, Tab stays inside, Esc gives the focus back', async (page) => {
  await page.getByTestId('help-open').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('aria-modal'), 'true');
  await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]'));
  for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')), `${key} stayed inside`);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await focused(page), 'help-open');
  // Opened with ? from the page: Esc leaves the focus on the page.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('?');
  await dialog.waitFor();
  await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]'));
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
});

both('tabs follow the ARIA tabs pattern; the As code menu the menu pattern', async (page) => {
  const tabstops = () => page.$$eval('[role=tablist][aria-label=View] [role=tab]', (ts) => ts.filter((t) => t.tabIndex === 0).map((t) => t.dataset.testid));
  assert.deepEqual(await tabstops(), ['tab-formats']);
  await page.getByTestId('tab-formats').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(page, 'View'), 'tab-replay');
  assert.equal(await focused(page), 'tab-replay');
  assert.deepEqual(await tabstops(), ['tab-replay']);
  await page.keyboard.press('End');
  assert.equal(await selectedTab(page, 'View'), 'tab-cost');
  await page.keyboard.press('Home');
  assert.equal(await selectedTab(page, 'View'), 'tab-formats');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selectedTab(page, 'View'), 'tab-cost', 'wraps around');
  await page.getByTestId('tab-cost').click();
  await page.getByTestId('tab-formats').click();
  const tab = page.getByTestId('tab-edit');
  await tab.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(page, 'Editor'), 'tab-json');
  assert.equal(await page.getByTestId('tab-json').getAttribute('aria-controls'), 'editor-panel');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selectedTab(page, 'Editor'), 'tab-edit');
  // The menu: ArrowDown on its button opens it on the first item, arrows move, Esc closes.
  const menu = page.locator('[data-format="openai-chat"] details.menu');
  await page.getByTestId('copy-as-openai-chat').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await menu.evaluate((d) => d.open), true);
  assert.equal(await focused(page), 'copy-curl-openai-chat');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), 'copy-python-openai-chat');
  await page.keyboard.press('End');
  assert.equal(await focused(page), 'copy-typescript-openai-chat');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), 'copy-curl-openai-chat', 'wraps around');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(page), 'copy-typescript-openai-chat');
  await page.keyboard.press('Escape');
  assert.equal(await menu.evaluate((d) => d.open), false);
  assert.equal(await focused(page), 'copy-as-openai-chat');
});

both('images in messages and tool results show in the editor and the transcript, each removable with Undo; an opaque block is a chip', async (page) => {
  await pasteOnPage(page, withImages());
  await page.getByTestId('notice').filter({ hasText: 'Anthropic' }).waitFor();
  // The tool result: its text, and both images (a thumbnail for base64, a chip naming the host).
  const result = page.locator('[data-testid^=result-][data-testid$=-content]');
  assert.equal(await result.inputValue(), 'Two charts.');
  const chips = page.locator('.part.result .media-chip');
  assert.equal(await chips.count(), 2);
  assert.equal(await chips.nth(0).locator('img.thumb').count(), 1);
  assert.ok(await chips.nth(0).locator('img.thumb').evaluate((i) => i.complete && i.naturalWidth === 1), 'the thumbnail loads under the CSP');
  assert.match(await chips.nth(1).textContent(), /image · charts\.example\.com/);
  assert.equal(await chips.nth(1).locator('img').count(), 0, 'no remote image under the page\'s CSP');
  // The user's image.
  const userImage = page.locator('.part.raw .media-chip');
  assert.equal(await userImage.count(), 1);
  assert.match(await userImage.textContent(), /image · image\/png · 70 B/);
  // The thinking block, a reasoning part: a compact chip naming its issuer, with its size,
  // never wider than its box; it opens.
  const raw = page.locator('.part.raw .raw-chip');
  assert.equal(await raw.count(), 1);
  assert.match(await raw.locator('summary').textContent(), /anthropic reasoning · 4\.\d kB/);
  const inside = () => raw.evaluate((r) => {
    const box = r.closest('.part').getBoundingClientRect();
    const me = r.getBoundingClientRect();
    return me.right <= box.right + 0.5 && r.scrollWidth <= r.clientWidth + 1;
  });
  assert.ok(await inside(), 'closed chip inside its part');
  await raw.locator('summary').click();
  await raw.locator('pre.raw-json').waitFor();
  assert.ok(await inside(), 'open chip inside its part');
  // Typing in the result keeps its images.
  await result.fill('Two charts, redrawn.');
  assert.equal(await chips.count(), 2);
  // Remove the URL image: the notice offers Undo, which brings it back.
  await chips.nth(1).getByRole('button', { name: 'Remove image' }).click();
  assert.equal(await chips.count(), 1);
  await page.getByTestId('notice').filter({ hasText: 'Removed the image' }).waitFor();
  await page.getByTestId('notice-undo').click();
  assert.equal(await chips.count(), 2);
  // The transcript shows them too, removable.
  await page.getByTestId('tab-transcript').click();
  const t = page.getByTestId('transcript');
  await t.waitFor();
  assert.equal(await t.locator('.result .media-chip').count(), 2);
  assert.equal(await t.locator('.result .media-chip img.thumb').count(), 1);
  assert.equal(await t.locator('.bubble.user .media-chip img.thumb').count(), 1);
  // The transcript folds the reasoning under its turn.
  assert.equal(await t.getByTestId('transcript-reasoning').count(), 1);
  await t.locator('.bubble.user .media-chip').getByRole('button', { name: 'Remove image' }).click();
  assert.equal(await t.locator('.bubble.user .media-chip').count(), 0);
  await page.getByTestId('notice-undo').click();
  assert.equal(await t.locator('.bubble.user .media-chip').count(), 1);
});

both('New exchange gives one empty tool and one empty user message, focus in the first field, with Undo', async (page) => {
  await page.getByTestId('new-exchange').click();
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'tool-0-name');
  assert.equal(await page.locator('[data-testid^=tool-][data-testid$=-name]').count(), 1);
  assert.equal(await page.locator('[data-testid=messages] > li.message').count(), 1);
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), '');
  assert.equal(await page.getByTestId('text-0-0').inputValue(), '');
  assert.match(await page.getByTestId('gallery-current').textContent(), /Open an example/);
  await page.keyboard.type('lookup');
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), 'lookup');
  await page.getByTestId('text-0-0').fill('Look up Oslo.');
  // The notice of the replacement went with the next edit; History still has the example.
  assert.equal(await page.getByTestId('notice').count(), 0);
  await page.getByTestId('history-open').click();
  await page.getByTestId('history').filter({ hasText: 'before: started a new exchange' }).waitFor();
  await page.getByTestId('history-entry').filter({ hasText: 'before: started a new exchange' }).getByRole('button', { name: 'Restore' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=tool-0-name]').value === 'get_weather');
});

both('New exchange then Undo brings the work back at once', async (page) => {
  const before = await page.locator('[data-testid=messages] > li.message').count();
  await page.getByTestId('new-exchange').click();
  await page.getByTestId('notice').filter({ hasText: 'Started a new exchange' }).waitFor();
  await page.getByTestId('notice-undo').click();
  assert.equal(await page.locator('[data-testid=messages] > li.message').count(), before);
  await page.waitForFunction(() => document.querySelector('[data-testid=tool-0-name]').value === 'get_weather');
});

both('a notice goes when a later action supersedes it', async (page) => {
  await page.getByTestId('export').click();
  await page.getByTestId('notice').filter({ hasText: 'Exported' }).waitFor();
  await page.getByTestId('add-user').click();
  assert.equal(await page.getByTestId('notice').count(), 0);
});

both('a link over 8,000 characters: Share says so and offers a file or a link without media, which opens with placeholders', async (page) => {
  await pasteOnPage(page, withImages(BIG));
  await page.getByTestId('notice').filter({ hasText: 'Anthropic' }).waitFor();
  await page.getByTestId('share').click();
  const notice = page.getByTestId('notice');
  await notice.filter({ hasText: 'characters long' }).waitFor();
  assert.match(await notice.textContent(), /chat apps cut messages at 2,000–4,000 characters/);
  assert.match(await notice.textContent(), /puts labelled placeholders in place of the 2 images or other media it carries inline/);
  assert.ok(await page.getByTestId('notice-export').isVisible());
  await page.getByTestId('notice-share-without-media').click();
  await notice.filter({ hasText: 'Link without media copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.length < 8_000, `${link.length} characters`);
  const state = JSON.parse(linkText(link.split('#')[1]));
  assert.doesNotMatch(JSON.stringify(state), /iVBORw0KGgo/);
  // The page's own state keeps its images.
  assert.equal(await page.locator('.part.result .media-chip img.thumb').count(), 1);
  // Opened, the link shows the placeholders as such.
  const other = await page.context().newPage();
  await other.goto(link);
  await other.waitForSelector('.pane-grid .pane');
  await other.waitForFunction(() => !document.getElementById('prerender'));
  const held = other.locator('.media-chip.left-out');
  await held.first().waitFor();
  assert.equal(await held.count(), 2);
  assert.match(await held.first().textContent(), /image · image\/png · \d+\.\d kB · left out of the link/);
  // The URL image was a reference, not bytes: it stays.
  assert.match(await other.locator('.part.result').textContent(), /charts\.example\.com/);
  await other.close();
}, { permissions: ['clipboard-read', 'clipboard-write'] });

test('a damaged link on a first visit does not claim to show "your last state"', async () => {
  const { context, page, errors } = await openApp(browser, `${url}#v2.broken!`, { noEditor: true });
  const notice = page.getByTestId('notice');
  await notice.waitFor();
  const text = await notice.textContent();
  assert.doesNotMatch(text, /your last state/);
  assert.match(text, /shows an example/);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource/.test(e)), []);
  await context.close();
});

test('axe-core: no serious or critical violation with images, chips and the big-link notice, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    const { context, page } = await openApp(browser, url, { colorScheme: scheme, bypassCSP: true, permissions: ['clipboard-read', 'clipboard-write'] });
    const found = {};
    const check = async (name) => {
      const v = await axeViolations(page);
      if (v.length) found[name] = v;
    };
    await pasteOnPage(page, withImages(BIG));
    await page.getByTestId('notice').filter({ hasText: 'Anthropic' }).waitFor();
    await page.locator('.part.raw .raw-chip summary').click();
    await check('editor with media');
    await page.getByTestId('share').click();
    await page.getByTestId('notice').filter({ hasText: 'characters long' }).waitFor();
    await check('big-link notice');
    await page.getByTestId('tab-transcript').click();
    await page.getByTestId('transcript').waitFor();
    await check('transcript with media');
    await page.getByTestId('new-exchange').click();
    await page.getByTestId('tab-edit').click();
    await page.getByTestId('tool-0-name').waitFor();
    await check('new exchange');
    await page.keyboard.press('Tab');
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('?');
    await page.getByTestId('help').waitFor();
    await check('help');
    assert.deepEqual(found, {}, `${scheme}: ${JSON.stringify(found, null, 1)}`);
    await context.close();
  }
});

test('the dev server\'s reload script runs under the page\'s own policy (make serve)', () => {
  // Trunk 0.21.14 injects src/autoreload.js with two placeholders, then fills them in while
  // serving; scripts/csp.mjs must fill them in first, so the served script is the hashed one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-csp-'));
  try {
    const reload = "(function () {\n    const address = '{{__TRUNK_ADDRESS__}}';\n    const base = '{{__TRUNK_WS_BASE__}}';\n    const url = 'ws://' + address + base + '.well-known/trunk/ws';\n})()";
    fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8" /></head><body><script>${reload}</script></body></html>`);
    execFileSync('node', [path.join(root, 'scripts/csp.mjs')], { env: { ...process.env, TRUNK_STAGING_DIR: dir, TRUNK_PUBLIC_URL: '/' } });
    let html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    // What trunk serve does to each HTML response (src/serve/mod.rs, html_address_middleware).
    html = html.replace("'{{__TRUNK_ADDRESS__}}'", "'127.0.0.1:8080'").replace('{{__TRUNK_WS_BASE__}}', '/');
    const served = html.match(/<script>([\s\S]*?)<\/script>/)[1];
    assert.match(served, /window\.location\.host/);
    const hash = crypto.createHash('sha256').update(served, 'utf8').digest('base64');
    const policy = html.match(/Content-Security-Policy" content="([^"]*)"/)[1];
    assert.ok(policy.includes(`'sha256-${hash}'`), policy);
    assert.match(policy, /connect-src [^;]*ws:\/\/127\.0\.0\.1:\*/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
