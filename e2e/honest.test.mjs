// End-to-end, at 1440 px and 390 px: loss lists that are true (the default example shows
// losses only in the panes that cannot carry something), a pane that reads its own format
// first and says what a pasted document replaced, a replay whose event list follows the
// cursor and keeps text blocks apart, with the stop reason only once sent, the empty streams
// saying why, and a Cost view whose bars add up to the Tools column.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, stopApp } from './suite.mjs';
import { pasteInto } from './serve.mjs';

const AXE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'axe-core', 'axe.min.js');

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

const WIDTHS = [1440, 390];

/** A fresh page at `width` px (`options`: more context options). */
async function at(width, body, options = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await page.waitForSelector('.pane-grid .pane');
    await page.waitForFunction(() => !document.getElementById('prerender'));
    await body(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}

/** An Anthropic stream of two text blocks over 28 events, its stop reason near the end. */
function twoBlocks() {
  const ev = (o) => JSON.stringify(o);
  const out = [
    ev({ type: 'message_start', message: { model: 'claude-sonnet-4-5', id: 'msg_1', type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
    ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (const w of 'I will look that up right away!'.split(/(?= )/)) out.push(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } }));
  out.push(ev({ type: 'content_block_stop', index: 0 }));
  out.push(ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }));
  for (const w of 'Following up with the forecast for Paris and the days ahead of us now.'.split(/(?= )/)) out.push(ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: w } }));
  out.push(ev({ type: 'content_block_stop', index: 1 }));
  out.push(ev({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } }));
  out.push(ev({ type: 'message_stop' }));
  return out.join('\n');
}

for (const width of WIDTHS) {
  test(`${width} px: the default example shows losses only where a format cannot carry something`, () => at(width, async (page) => {
    const lossy = await page.$$eval('[data-testid^="losses-badge-"]', (bs) =>
      bs.filter((b) => !b.classList.contains('clean')).map((b) => b.dataset.testid.replace('losses-badge-', '')));
    assert.deepEqual(lossy.sort(), ['anthropic-xml', 'mcp', 'mistral', 'ollama']);
    // The model each provider is sent is a note under the Anthropic pane, not a loss.
    const summary = page.locator('[data-testid="losses-anthropic"] summary');
    assert.match(await summary.textContent(), /carries everything/);
  }));

  test(`${width} px: a valid Anthropic request pasted into its pane is read as Anthropic, and the notice says what it replaced`, () => at(width, async (page) => {
    const doc = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'What is the weather in Paris?' }] }, null, 2);
    await page.getByTestId('editor-anthropic').scrollIntoViewIfNeeded();
    await pasteInto(page, 'editor-anthropic', doc);
    const notice = page.getByTestId('notice');
    await notice.filter({ hasText: /Read the text in the Anthropic Messages pane as an Anthropic Messages request/ }).waitFor();
    assert.match(await notice.textContent(), /replaced the tools and conversation/);
    assert.doesNotMatch(await notice.textContent(), /Your edit/);
    assert.equal(await page.getByTestId('pane-foreign-anthropic').count(), 0);
    // The picker no longer names the example.
    const picker = await page.getByTestId('gallery-current').textContent();
    assert.doesNotMatch(picker, /Weather lookup/);
  }));

  test(`${width} px: the replay follows the cursor, keeps text blocks apart and shows the stop reason once sent`, () => at(width, async (page) => {
    await page.getByTestId('tab-replay').click();
    await page.locator('[data-testid="stream-input"] .cm-editor').waitFor();
    await page.$eval('[data-testid="stream-input"]', (el, t) => {
      const v = el.toolscopeEditor.view;
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
    }, twoBlocks());
    const summary = page.getByTestId('replay-summary').filter({ hasText: /Anthropic.* (\d+) events/ });
    await summary.waitFor();
    const n = Number((await summary.textContent()).match(/(\d+) events/)[1]);
    assert.equal(n, 28);
    // Before the stream's message_delta, no stop reason.
    await page.getByTestId('seek').fill('5');
    await page.getByTestId('step-label').filter({ hasText: new RegExp(`event 6 of ${n}`) }).waitFor();
    assert.match(await page.getByTestId('assembled-doc').textContent(), /"stop_reason": null/);
    // Seek far: the current event is inside the list's visible box.
    await page.getByTestId('seek').fill(String(n - 5));
    await page.getByTestId('step-label').filter({ hasText: new RegExp(`event ${n - 4} of ${n}`) }).waitFor();
    await page.waitForFunction(() => {
      const ol = document.querySelector('[data-testid="events"]');
      const li = ol?.querySelector('li.current');
      if (!ol || !li) return false;
      const a = ol.getBoundingClientRect();
      const b = li.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
    });
    // The list scrolls (it is shorter than its events), so following the cursor is needed.
    assert.ok(await page.$eval('[data-testid="events"]', (ol) => ol.scrollHeight > ol.clientHeight + 10 && ol.scrollTop > 0));
    // Two text blocks, shown apart.
    const blocks = await page.getByTestId('text-block').allTextContents();
    assert.equal(blocks.length, 2, JSON.stringify(blocks));
    assert.ok(blocks[0].endsWith('away!') && blocks[1].startsWith('Following'), JSON.stringify(blocks));
    await page.getByTestId('step-last').click();
    assert.match(await page.getByTestId('assembled-doc').textContent(), /"stop_reason": "end_turn"/);
  }));

  test(`${width} px: an empty stream per provider says why`, () => at(width, async (page) => {
    // A conversation that ends on a user message has no answer to stream.
    const doc = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello?' }] }, null, 2);
    await pasteInto(page, 'editor-openai-chat', doc);
    await page.getByTestId('tab-streams').click();
    const why = page.getByTestId('stream-empty-anthropic');
    await why.waitFor();
    assert.match(await why.textContent(), /ends on a user message/);
  }));

  test(`${width} px: the Cost view's bars and its fixed row add up to the Tools column`, () => at(width, async (page) => {
    await page.getByRole('tab', { name: 'Cost' }).click();
    await page.waitForSelector('[data-testid="cost-view"][data-vocab="ready"][data-computed="true"]');
    const models = await page.$$eval('[data-testid="cost-row"]', (rs) => rs.map((r) => r.dataset.model));
    // The Bedrock row is the model the Bedrock pane sends.
    assert.ok(models.some((m) => m.includes('anthropic.claude')), models.join());
    assert.ok(!models.includes('amazon.nova-pro-v1:0'), models.join());
    // Count exactly without a key says which key and where to enter it.
    await page.locator('[data-testid="cost-row"][data-model="gpt-4o"] [data-testid="count-exact"]').click();
    const notice = page.getByTestId('notice');
    await notice.filter({ hasText: /Count exactly/ }).waitFor();
    assert.match(await notice.textContent(), /needs an OpenAI API key.*Live tab.*OpenAI Responses.*API key field/s);
    for (const m of ['gpt-4o', 'claude-sonnet-4-5']) {
      await page.locator(`[data-pick="${m}"]`).click();
      await page.locator('[data-testid="cost-tools-sum"]').waitFor();
      await page.waitForFunction((m) => document.querySelector('.cost-table tr.chosen')?.dataset.model === m, m);
      const tools = Number(await page.locator(`[data-testid="cost-row"][data-model="${m}"]`).getAttribute('data-tools'));
      const bars = await page.$$eval('[data-testid="cost-tool"]', (ls) => ls.reduce((s, l) => s + Number(l.dataset.tokens), 0));
      const fixed = page.getByTestId('cost-fixed');
      assert.ok(await fixed.isVisible(), 'the fixed row is visible');
      assert.equal(bars + Number(await fixed.getAttribute('data-tokens')), tools, m);
      // What the model reads: that provider's own rendering, said how well it is known.
      const readsOf = () => page.$eval('[data-testid="cost-reads"]', (el) => el.toolscopeEditor?.getDoc() ?? el.querySelector('textarea')?.value ?? el.textContent);
      const marker = m.startsWith('claude') ? '<functions>' : 'namespace functions';
      await page.waitForFunction((mk) => {
        const el = document.querySelector('[data-testid="cost-reads"]');
        const t = el?.toolscopeEditor?.getDoc() ?? el?.querySelector('textarea')?.value ?? el?.textContent ?? '';
        return t.includes(mk);
      }, marker, { timeout: 5000 }).catch(() => {});
      const reads = await readsOf();
      const known = page.getByTestId('cost-reads-known');
      if (m.startsWith('claude')) {
        assert.match(await page.getByTestId('cost-tools-sum').textContent(), /tool-use system prompt/);
        assert.match(reads, /<functions>/);
        assert.doesNotMatch(reads, /namespace functions/);
        assert.match(await known.textContent(), /approximate/);
      } else {
        assert.match(reads, /namespace functions/);
      }
    }
  }));

  test(`${width} px: axe-core finds nothing serious on the Cost, Replay and Streams views, light and dark`, async () => {
    for (const colorScheme of ['light', 'dark']) {
      // The page's CSP refuses injected scripts: the test context bypasses it for axe only.
      await at(width, async (page) => {
        const found = {};
        // Each view's own section (the header's example picker at 390 px is another file's).
        const check = async (name, selector) => {
          if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
          const v = await page.evaluate(async (sel) => {
            const r = await window.axe.run(document.querySelector(sel), { resultTypes: ['violations'] });
            return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
          }, selector);
          if (v.length) found[name] = v;
        };
        await page.getByRole('tab', { name: 'Cost' }).click();
        await page.waitForSelector('[data-testid="cost-view"][data-vocab="ready"][data-computed="true"]');
        await page.locator('[data-pick="claude-sonnet-4-5"]').click();
        await page.getByTestId('cost-fixed').waitFor();
        await check('cost', '[data-testid="cost-view"]');
        await page.getByTestId('tab-replay').click();
        await page.getByTestId('replay-summary').filter({ hasText: /events/ }).waitFor();
        await check('replay', '[data-testid="replay"]');
        await page.getByTestId('tab-streams').click();
        await page.getByTestId('streams').waitFor();
        await check('streams', '[data-testid="streams"]');
        assert.deepEqual(found, {}, `${colorScheme}: ${JSON.stringify(found, null, 1)}`);
      }, { colorScheme, bypassCSP: true });
    }
  });
}
