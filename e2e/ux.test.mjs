// End-to-end: the playground as a newcomer drives it: the keyboard leaves every
// editor, menus close, pastes say what they were read as, the transcript, Compare two, the
// replay's event labels, the first-visit hint, and axe-core on the main views.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp, pasteInto } from './serve.mjs';
import { onPage, startApp, stopApp } from './suite.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AXE = path.join(root, 'node_modules', 'axe-core', 'axe.min.js');

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

/** A code editor's text, once the editor exists (editors are created in turn). */
async function editorText(page, testid) {
  await page.waitForFunction((t) => document.querySelector(`[data-testid="${t}"]`)?.toolscopeEditor, testid);
  return page.$eval(`[data-testid="${testid}"]`, (el) => el.toolscopeEditor.getDoc());
}

/** Serious and critical axe-core violations of the page as it is. */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.addScriptTag({ path: AXE });
  }
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('Tab leaves the schema editor in one press and indents nothing; the help names the keys', () => onPage(browser, url, async (page) => {
  const schema = page.getByTestId('tool-0-schema');
  const before = await editorText(page, 'tool-0-schema');
  await schema.locator('.cm-content').click();
  assert.ok(await page.evaluate(() => document.activeElement.closest('[data-testid="tool-0-schema"]') !== null));
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.closest('[data-testid="tool-0-schema"]') === null),
    'focus left the editor');
  assert.equal(await editorText(page, 'tool-0-schema'), before, 'Tab indented nothing');
  // Shift+Tab comes back into it, and leaves again backwards.
  await page.keyboard.press('Shift+Tab');
  assert.ok(await page.evaluate(() => document.activeElement.closest('[data-testid="tool-0-schema"]') !== null));
  await page.keyboard.press('Shift+Tab');
  assert.ok(await page.evaluate(() => document.activeElement.closest('[data-testid="tool-0-schema"]') === null));
  // Ctrl+] indents (the documented key).
  await schema.locator('.cm-content').click();
  await page.keyboard.press('Control+]');
  assert.notEqual(await editorText(page, 'tool-0-schema'), before);
  await page.keyboard.press('Control+[');
  assert.equal(await editorText(page, 'tool-0-schema'), before);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  assert.match(await help.textContent(), /Tab leaves a code editor/);
  assert.match(await help.textContent(), /Ctrl\+\] \/ Ctrl\+\[/);
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
}));

test('Import shows a focus ring when reached by keyboard', async () => {
  const { context, page } = await openApp(browser, url);
  await page.getByTestId('import').focus();
  const outline = await page.$eval('[data-testid="import"]', (el) => getComputedStyle(el.closest('label')).outlineStyle);
  assert.equal(outline, 'solid');
  await context.close();
});

test('the As code menu closes on Esc (focus back on its button), an outside click and a choice', async () => {
  const { context, page, errors } = await openApp(browser, url, { permissions: ['clipboard-read', 'clipboard-write'] });
  const menu = page.locator('[data-format="openai-chat"] details.menu');
  const open = () => menu.evaluate((d) => d.open);
  await page.getByTestId('copy-as-openai-chat').click();
  assert.equal(await open(), true);
  await page.keyboard.press('Escape');
  assert.equal(await open(), false);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'copy-as-openai-chat');
  await page.getByTestId('copy-as-openai-chat').click();
  assert.equal(await open(), true);
  await page.getByRole('heading', { name: 'Wire formats' }).click();
  assert.equal(await open(), false);
  await page.getByTestId('copy-as-openai-chat').click();
  await page.getByTestId('copy-curl-openai-chat').click();
  assert.equal(await open(), false);
  await page.getByTestId('notice').filter({ hasText: 'curl snippet' }).waitFor();
  // The panes picker too.
  await page.getByTestId('pane-picker').locator('summary').click();
  assert.equal(await page.getByTestId('pane-picker').evaluate((d) => d.open), true);
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('pane-picker').evaluate((d) => d.open), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a foreign paste says what it was read as, with Undo; the pane says it holds a foreign document', () => onPage(browser, url, async (page) => {
  const gemini = { contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }] };
  await pasteInto(page, 'editor-openai-chat', JSON.stringify(gemini, null, 2));
  const notice = page.getByTestId('notice');
  await notice.filter({ hasText: /Read the text in the OpenAI Chat.* pane as a .*Gemini request: it replaced the tools and conversation/ }).waitFor();
  assert.equal(await page.getByTestId('notice-undo').count(), 1);
  assert.match(await page.getByTestId('pane-foreign-openai-chat').textContent(), /Read as .*Gemini request: this pane holds a foreign document/);
  await page.getByTestId('show-own-openai-chat').click();
  await page.waitForFunction(() => /"messages"/.test(document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc() ?? ''));
  assert.equal(await page.getByTestId('pane-foreign-openai-chat').count(), 0);
  // An Anthropic response in the Request view: says it replaced the last answer and switched.
  const response = {
    id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: 'It is sunny.' }], stop_reason: 'end_turn',
    usage: { input_tokens: 3, output_tokens: 4 },
  };
  await pasteInto(page, 'editor-openai-chat', JSON.stringify(response, null, 2));
  await notice.filter({ hasText: /as an Anthropic.* response: it replaced the conversation's last answer; the view switched to response/ }).waitFor();
  assert.equal(await page.getByTestId('view-response').getAttribute('aria-pressed'), 'true');
  // Undo brings the request back.
  await page.getByTestId('notice-undo').click();
  await notice.filter({ hasText: 'Undone' }).waitFor();
}));

test('an error tooltip in an editor is readable, not squashed at the pane\'s edge', async () => {
  const { context, page } = await openApp(browser, url);
  await pasteInto(page, 'editor-openai-chat', '{\n  "model": "gpt-4o",\n  "messages": [\n    {"role": "user",, }\n  ]\n}');
  await page.getByTestId('pane-error-openai-chat').waitFor();
  await page.locator('[data-testid="editor-openai-chat"] .cm-lintRange-error').first().hover();
  const tip = page.locator('.cm-tooltip-lint, .cm-tooltip-hover').first();
  await tip.waitFor();
  const box = await tip.boundingBox();
  assert.ok(box.width > 120 && box.height > 14, JSON.stringify(box));
  assert.match(await tip.textContent(), /\S{3,}/);
  await context.close();
});

test('the example picker names the loaded example, then says edited', () => onPage(browser, url, async (page) => {
  await page.getByTestId('gallery').selectOption('parallel_calls');
  await page.getByTestId('notice').filter({ hasText: 'Opened the example Two cities in parallel' }).waitFor();
  const current = page.getByTestId('gallery-current');
  await page.waitForFunction(() => document.querySelector('[data-testid="gallery-current"]').textContent === 'Example: Two cities in parallel');
  assert.equal(await page.getByTestId('gallery').inputValue(), '');
  await page.getByTestId('tool-0-description').fill('Changed by the test');
  await page.waitForFunction(() => /\(edited\)$/.test(document.querySelector('[data-testid="gallery-current"]').textContent));
  assert.match(await current.textContent(), /Two cities in parallel \(edited\)/);
}));

test('Compare two marks what differs between two formats, and diffs two of one protocol line by line', () => onPage(browser, url, async (page) => {
  await page.getByTestId('compare-open').click();
  const diff = page.getByTestId('compare-diff');
  await diff.waitFor();
  assert.ok(await diff.getByTestId('compare-row').count() > 0);
  const differences = await diff.getByTestId('compare-difference').allTextContents();
  assert.ok(differences.some((d) => /input_schema/.test(d)), differences.join('\n'));
  assert.match(await page.getByTestId('compare-summary').textContent(), /\d+ elements, [1-9]\d* differ/);
  await page.getByTestId('compare-right').selectOption('deepseek');
  await page.getByTestId('line-diff').waitFor();
  assert.ok(await page.getByTestId('line-diff').locator('ins, del').count() > 0);
}));

test('the transcript shows the example\'s calls and results, and markdown as elements', () => onPage(browser, url, async (page) => {
  await page.getByTestId('gallery').selectOption('parallel_calls');
  await page.getByRole('tab', { name: 'Transcript' }).click();
  const t = page.getByTestId('transcript');
  await t.waitFor();
  const chat = JSON.parse(await editorText(page, 'editor-openai-chat'));
  const calls = chat.messages.flatMap((m) => m.tool_calls ?? []);
  const results = chat.messages.filter((m) => m.role === 'tool');
  assert.equal(await t.getByTestId('transcript-call').count(), calls.length);
  assert.equal(await t.getByTestId('transcript-result').count(), results.length);
  for (const c of calls) assert.match(await t.textContent(), new RegExp(c.function.name));
  // Assistant markdown renders as elements; raw HTML stays text.
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  const doc = { model: 'gpt-4.1', messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'It is **sunny** in `Oslo`. <img src=x onerror=alert(1)>' },
  ] };
  await pasteInto(page, 'editor-openai-chat', JSON.stringify(doc, null, 2));
  await page.getByRole('tab', { name: 'Transcript' }).click();
  await t.locator('.bubble.assistant strong').filter({ hasText: 'sunny' }).waitFor();
  assert.equal(await t.locator('.bubble.assistant code').first().textContent(), 'Oslo');
  assert.equal(await t.locator('img').count(), 0);
  assert.match(await t.textContent(), /<img src=x/);
}));

test('replay labels each event by what it changed; the assembled turn grows with the step', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tab-replay').click();
  await page.getByTestId('replay-summary').filter({ hasText: /events/ }).waitFor();
  const changes = await page.getByTestId('event-change').allTextContents();
  assert.ok(changes.length > 1);
  assert.ok(changes.some((c) => /call \d+ args \+\d+ chars|text \+\d+/.test(c)), changes.join(' | '));
  assert.ok(changes.some((c) => /finish: /.test(c)), changes.join(' | '));
  assert.match(await page.getByTestId('assembled-heading').textContent(), /so far \(event 1 of \d+\)/);
  const first = await page.getByTestId('assembled-doc').textContent();
  await page.getByTestId('step-last').click();
  assert.match(await page.getByTestId('assembled-heading').textContent(), /at the end/);
  assert.notEqual(await page.getByTestId('assembled-doc').textContent(), first);
  assert.match(await page.getByTestId('append-turn').textContent(), /Replace the last answer/);
  // Unreadable input names the page's control, not the command line's flag.
  await pasteInto(page, 'stream-input', 'data: {"hello": 1}\n\ndata: {"hello": 2}\n\n');
  const error = page.getByTestId('stream-error');
  await error.waitFor();
  assert.match(await error.textContent(), /Protocol menu/);
  assert.doesNotMatch(await error.textContent(), /--format/);
}));

test('the first-visit hint shows once, and stays dismissed', () => onPage(browser, url, async (page) => {
  const hint = page.getByTestId('first-hint');
  assert.match(await hint.textContent(), /paste any provider's request or response into any pane/);
  await page.getByTestId('first-hint-dismiss').click();
  await hint.waitFor({ state: 'detached' });
  await page.reload();
  await page.waitForSelector('.pane-grid .pane');
  await page.waitForFunction(() => !document.getElementById('prerender'));
  assert.equal(await page.getByTestId('first-hint').count(), 0);
}));

test('axe-core: no serious or critical violation on the main views, light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    // The page's CSP refuses injected scripts: the test context bypasses it for axe only.
    const { context, page } = await openApp(browser, url, { colorScheme: scheme, bypassCSP: true });
    const found = {};
    const check = async (name) => {
      const v = await axeViolations(page);
      if (v.length) found[name] = v;
    };
    await check('formats');
    await page.getByTestId('compare-open').click();
    await page.getByTestId('compare-diff').waitFor();
    await check('compare');
    await page.getByTestId('compare-close').click();
    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.getByTestId('transcript').waitFor();
    await check('transcript');
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-summary').filter({ hasText: /events/ }).waitFor();
    await check('replay');
    await page.getByTestId('tab-live').click();
    await page.getByTestId('live').waitFor();
    await check('live');
    await page.getByTestId('help-open').click();
    await page.getByTestId('help').waitFor();
    await check('help');
    assert.deepEqual(found, {}, `${scheme}: ${JSON.stringify(found, null, 1)}`);
    await context.close();
  }
});
