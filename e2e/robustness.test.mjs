// End-to-end: large and hostile inputs thrown at the page. Nothing may crash (a panic in wasm
// kills the page) and the page must keep answering. Timings are printed, not asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { onPage, startApp, stopApp } from './suite.mjs';

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

async function paste(page, testid, text) {
  return page.$eval(`[data-testid="${testid}"]`, (el, t) => {
    const v = el.toolscopeEditor.view;
    const t0 = performance.now();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
    return performance.now() - t0;
  }, text);
}

function bigExchange(n) {
  const messages = [];
  for (let i = 0; i < n / 2; i++) {
    messages.push({ role: 'user', parts: [{ type: 'text', text: `Question ${i}` }] });
    messages.push({ role: 'assistant', parts: [{ type: 'text', text: `Answer ${i}` }] });
  }
  return { tools: [{ name: 'noop', input_schema: { type: 'object', properties: {} } }], messages };
}

test('a 2,000-message exchange pasted into the canonical editor reaches every pane', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tab-json').click();
  await page.locator('[data-testid="canonical-editor"] .cm-editor').waitFor();
  const ms = await paste(page, 'canonical-editor', JSON.stringify(bigExchange(2000)));
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="editor-openai-chat"]').toolscopeEditor.getDoc().includes('Answer 999'));
  console.log(`2,000 messages: paste handled in ${ms.toFixed(0)} ms`);
}));

test('hostile pastes are refused at their spot and the page keeps working', () => onPage(browser, url, async (page) => {
  const hostile = [
    ['[' .repeat(50000), /deeper|nest|line 1/i],
    ['{"messages": [' + '{"role":"user","content":"x"},'.repeat(3) + ']}', /line 1/],
    ['\u0000\u0001\u0002 not json', /line 1|column/],
  ];
  for (const [text, message] of hostile) {
    await paste(page, 'editor-openai-chat', text);
    const alert = page.getByTestId('pane-error-openai-chat');
    await alert.waitFor();
    assert.match(await alert.textContent(), message);
    await page.getByTestId('discard-openai-chat').click();
  }
  assert.match(await page.$eval('[data-testid="editor-anthropic"]', (el) => el.toolscopeEditor.getDoc()), /get_weather/);
}));

test('a 10,000-event stream replays and seeks', () => onPage(browser, url, async (page) => {
  const lines = [
    JSON.stringify({ type: 'message_start', message: { id: 'msg_big', type: 'message', role: 'assistant', content: [], model: 'claude-x', stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
    JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_big', name: 'noop', input: {} } }),
    JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"items": [' } }),
  ];
  for (let i = 0; i < 9994; i++) {
    lines.push(JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `${i},` } }));
  }
  lines.push(JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '0]}' } }));
  lines.push(JSON.stringify({ type: 'content_block_stop', index: 0 }));
  lines.push(JSON.stringify({ type: 'message_stop' }));
  await page.getByTestId('tab-replay').click();
  await page.locator('[data-testid="stream-input"] .cm-editor').waitFor();
  const t0 = Date.now();
  await paste(page, 'stream-input', lines.join('\n'));
  await page.getByTestId('replay-summary').filter({ hasText: '10000 events' }).waitFor();
  console.log(`10,000 events: loaded in ${Date.now() - t0} ms`);
  await page.getByTestId('step-last').click();
  await page.getByTestId('step-label').filter({ hasText: 'event 10000 of 10000' }).waitFor();
  assert.match(await page.getByTestId('call-parsed-0').textContent(), /9993/);
}));
