// End-to-end: the largest exchanges a link may carry open, take keystrokes and scroll. Only
// behaviour is asserted (generous timeouts); the timings are measured by
// scripts/bench-page.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, pasteInto } from './serve.mjs';
import { startApp, stopApp } from './suite.mjs';
import { bigExchange, linkFragment, openaiChatDocument, FORMATS } from './big.mjs';

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

const LONG = { timeout: 120_000 };

/** Wait until a pane's text (CodeMirror's, including an update held while off screen) matches. */
async function waitPane(page, format, pattern) {
  await page.waitForFunction(([id, src]) => {
    const el = document.querySelector(`[data-testid="editor-${id}"]`);
    const t = el?.toolscopeEditor ? el.toolscopeEditor.getDoc() : el?.querySelector('textarea')?.value;
    return t !== undefined && new RegExp(src).test(t);
  }, [format, pattern.source], LONG);
}

/** Click the field `testid` and type `text` at its end. */
async function typeAtEnd(page, testid, text) {
  await page.getByTestId(testid).click();
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

/** Bring the top of the conversation into view (the tools come first). */
async function toConversation(page) {
  await page.waitForSelector('[data-testid="conversation-editor"]', { timeout: 60_000 });
  await page.evaluate(() =>
    document.querySelector('[data-testid="conversation-editor"]').scrollIntoView({ block: 'start' }));
}

/**
 * Scroll to the end of the list `list` until `testid` is drawn: rows far down exist only once
 * near the view, and the list's height firms up as rows are measured.
 */
async function scrollUntil(page, testid, list) {
  for (let i = 0; i < 100; i++) {
    if (await page.getByTestId(testid).count()) return;
    await page.evaluate((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      window.scrollTo(0, window.scrollY + r.bottom - window.innerHeight);
    }, list);
    await page.waitForTimeout(100);
  }
  throw new Error(`${testid} never appeared`);
}

test('a 5,000-message link opens, takes keystrokes at both ends, and the panes follow', LONG, async () => {
  const x = bigExchange({ messages: 5000, tools: 10 });
  const { context, page, errors } = await openApp(browser, url + linkFragment(x));
  await waitPane(page, 'openai-chat', /Answer 1249/);
  await toConversation(page);
  await page.getByTestId('message-0').waitFor(LONG);
  // Only the rows near the viewport exist.
  assert.ok(await page.locator('.message').count() < 200);

  await typeAtEnd(page, 'text-0-0', ' typed');
  await waitPane(page, 'openai-chat', /Question 0 typed/);
  await waitPane(page, 'anthropic', /Question 0 typed/);

  await scrollUntil(page, 'text-4999-0', '.messages');
  assert.equal(await page.getByTestId('text-4999-0').inputValue(), 'Answer 1249');
  await typeAtEnd(page, 'text-4999-0', ' at the end');
  await waitPane(page, 'gemini', /Answer 1249 at the end/);
  // A result's call picker lists every call once it is used.
  await scrollUntil(page, 'result-4998-0-call', '.messages');
  const picker = page.getByTestId('result-4998-0-call');
  assert.equal(await picker.inputValue(), 'call_1249');
  await picker.focus();
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="result-4998-0-call"]').options.length > 1000);
  await picker.selectOption('call_7');
  await waitPane(page, 'openai-chat', /"tool_call_id": "call_7",\s*"content": "result 1249"/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 1,000-tool link opens and scrolls to its last tool, which edits like the first', LONG, async () => {
  const x = bigExchange({ messages: 8, tools: 1000 });
  const { context, page, errors } = await openApp(browser, url + linkFragment(x));
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), 'tool_0');
  assert.match(await page.getByTestId('tools-editor').locator('h3').textContent(), /Tools \(1000\)/);
  assert.ok(await page.locator('.card.tool').count() < 100);
  await scrollUntil(page, 'tool-999-name', '.tool-list');
  await page.locator('[data-testid="tool-999-schema"] .cm-editor').waitFor(LONG);
  await page.getByTestId('tool-999-name').fill('the_last_tool');
  await waitPane(page, 'openai-chat', /"name": "the_last_tool"/);
  // Back to the top: the first card is drawn again, as it was.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId('tool-0-name').waitFor(LONG);
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), 'tool_0');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 5,000-message state autosaved opens again from storage on the next visit', LONG, async () => {
  const x = bigExchange({ messages: 5000, tools: 10 });
  const { context, page, errors } = await openApp(browser, url + linkFragment(x));
  const system = page.getByTestId('system');
  const edited = await page.evaluate(() => Date.now());
  await system.fill('Saved and reopened.');
  await waitPane(page, 'openai-chat', /Saved and reopened/);
  // The autosave is debounced; then a visit without a link restores from localStorage.
  // (Each tab saves its own slot, `toolscope.work.<tab>`, in a compact form: wait for a save
  // made after the edit.)
  await page.waitForFunction((t) => Object.entries(localStorage).some(([k, v]) => k.startsWith('toolscope.work.') && JSON.parse(v).at >= t), edited, LONG);
  // The edit took the link out of the address: a reload opens what was saved.
  assert.equal(await page.evaluate(() => location.hash), '');
  await page.reload();
  await toConversation(page);
  await page.getByTestId('message-0').waitFor(LONG);
  await waitPane(page, 'openai-chat', /Saved and reopened/);
  assert.equal(await page.getByTestId('system').inputValue(), 'Saved and reopened.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 1,000-message OpenAI request pasted into its pane reaches every pane; edits land in their message; Undo', LONG, async () => {
  const x = bigExchange({ messages: 1000, tools: 50 });
  const { context, page, errors } = await openApp(browser, url);
  await pasteInto(page, 'editor-openai-chat', openaiChatDocument(x));
  // Every pane, in view or not, ends with the last message (MCP carries the calls and results).
  for (const id of FORMATS) await waitPane(page, id, id === 'mcp' ? /result 249/ : /Answer 249/);
  assert.match(await page.getByTestId('tools-editor').locator('h3').textContent(), /Tools \(50\)/);

  // Keys typed in the pane, right after the last message's text, reach the other panes and
  // the last message of the structured editor (read once per frame, never lost).
  await page.$eval('[data-testid="editor-openai-chat"]', (el) => {
    const v = el.toolscopeEditor.view;
    v.focus();
    v.dispatch({ selection: { anchor: v.state.doc.toString().lastIndexOf('Answer 249') + 10 } });
  });
  await page.keyboard.type(' typed fast');
  await waitPane(page, 'anthropic', /Answer 249 typed fast/);
  await waitPane(page, 'gemini', /Answer 249 typed fast/);
  // Leaving the pane keeps every key.
  await toConversation(page);
  await scrollUntil(page, 'text-999-0', '.messages');
  assert.equal(await page.getByTestId('text-999-0').inputValue(), 'Answer 249 typed fast');

  // A keystroke in message 997 changes that message only.
  await scrollUntil(page, 'text-996-0', '.messages');
  assert.equal(await page.getByTestId('text-996-0').inputValue(), 'Question 249');
  await typeAtEnd(page, 'text-996-0', '?');
  await waitPane(page, 'openai-chat', /"Question 249\?"/);
  const doc = await page.$eval('[data-testid="editor-openai-chat"]', (el) => el.toolscopeEditor.getDoc());
  assert.equal((doc.match(/Question 249\?/g) ?? []).length, 1);
  assert.match(doc, /"Question 248"/);
  assert.match(doc, /"Answer 249 typed fast"/);

  // Removing a message keeps the state before it: Undo brings it back.
  await page.getByTestId('message-996-remove').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="editor-openai-chat"]').toolscopeEditor.getDoc().includes('Question 249'));
  await page.getByTestId('notice-undo').click();
  await waitPane(page, 'openai-chat', /"Question 249\?"/);
  await waitPane(page, 'bedrock', /Question 249\?/);
  await scrollUntil(page, 'text-999-0', '.messages');
  assert.equal(await page.getByTestId('text-999-0').inputValue(), 'Answer 249 typed fast');
  assert.deepEqual(errors, []);
  await context.close();
});
