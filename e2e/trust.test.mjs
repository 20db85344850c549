// End-to-end: the user's keys and work, attacked the way testers did. A key never reaches
// another provider or origin; Stop keeps the conversation; opening a link, pasting or
// removing keeps the previous state with Undo; two tabs keep their own work; a reload right
// after an edit keeps it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, pasteInto } from './serve.mjs';
import { startApp, stopApp } from './suite.mjs';
import { KEY } from './standin.mjs';

let server, url, browser, standin;
before(async () => ({ server, url, browser, standin } = await startApp({ standin: { delayMs: 30 } })));
after(() => stopApp({ server, browser, standin }));

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'weather',
    description: 'Weather for a place',
    parameters: { type: 'object', properties: { location: { type: 'string' } } },
  },
};

/** An OpenAI Chat conversation of `messages`, with the weather tool. */
const conversation = (messages) =>
  JSON.stringify({ model: 'gpt-4o', messages, tools: [WEATHER_TOOL] }, null, 2);

const ASK = [{ role: 'user', content: 'What is the weather in San Francisco?' }];
/** Four messages: the question, a call, its result, and the model's answer. */
const FOUR = [
  ...ASK,
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"SF"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '18 °C and foggy' },
  { role: 'assistant', content: 'It is 18 °C and foggy: MY ORIGINAL ANSWER.' },
];

/** The OpenAI pane's text, once its code editor exists (editors are created in turn). */
async function chatDoc(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor);
  return page.$eval('[data-testid="editor-openai-chat"]', (el) => el.toolscopeEditor.getDoc());
}
const messageCount = async (page) => JSON.parse(await chatDoc(page)).messages.length;
const live = (page) => page.getByTestId('live');

async function loadConversation(page, messages) {
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await pasteInto(page, 'editor-openai-chat', conversation(messages));
  await page.waitForFunction((n) => {
    const doc = document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc() ?? '';
    return (doc.match(/"role":/g) ?? []).length >= n;
  }, Math.min(messages.length, 2));
}

async function fillLive(page, provider, base, key) {
  await page.getByRole('tab', { name: 'Live' }).click();
  await live(page).getByLabel('Provider', { exact: true }).selectOption(provider);
  await live(page).getByLabel('Base URL', { exact: true }).fill(base);
  await live(page).getByLabel('Model', { exact: true }).fill('test-model');
  if (key !== undefined) await live(page).getByLabel('API key', { exact: true }).fill(key);
}

test('a paused run never sends another provider\'s key; switching provider ends the run', async () => {
  standin.reset();
  const { context, page } = await openApp(browser, url);
  await loadConversation(page, ASK);
  await fillLive(page, 'openai-chat', `${standin.url}/v1`, KEY);
  assert.match(await page.getByTestId('live-key-origin').textContent(), new RegExp(`sent only to ${standin.url.replace(/[.]/g, '\\.')}`));
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await live(page).getByLabel(/^Result of weather/).waitFor();
  // The attack: switch the picker to Anthropic and type an Anthropic key while the run waits.
  await live(page).getByLabel('Provider', { exact: true }).selectOption('anthropic');
  await live(page).getByLabel('Base URL', { exact: true }).fill(standin.url);
  await live(page).getByLabel('API key', { exact: true }).fill('sk-ant-e2e-never-to-openai');
  await page.getByTestId('notice').filter({ hasText: 'provider changed' }).waitFor();
  assert.match(await page.getByTestId('live-status').textContent(), /stopped/);
  assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0, 'the run no longer takes results');
  // Switching back does not revive the old run with the new key either.
  await live(page).getByLabel('Provider', { exact: true }).selectOption('openai-chat');
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0);
  const posts = standin.log.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 1, 'only the first round was sent');
  for (const p of standin.log) {
    const seen = JSON.stringify(p.headers) + p.path + (p.query ?? '') + (p.body ?? '');
    assert.ok(!seen.includes('sk-ant-e2e'), `the Anthropic key reached ${p.method} ${p.path}`);
  }
  // A new run sends the OpenAI key, still bound to the stand-in's origin, and only it.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await live(page).getByLabel(/^Result of weather/).waitFor();
  const last = standin.log.filter((r) => r.method === 'POST').at(-1);
  assert.ok(JSON.stringify(last.headers).includes(KEY));
  assert.ok(!JSON.stringify(last.headers).includes('sk-ant-e2e'));
  await context.close();
});

test('a key is not sent to another origin until the user confirms', async () => {
  standin.reset();
  const { context, page } = await openApp(browser, url);
  await loadConversation(page, ASK);
  await fillLive(page, 'openai-chat', `${standin.url}/v1`, KEY);
  // Same server, another origin (localhost instead of 127.0.0.1): the kept key stays behind.
  const other = `http://localhost:${standin.port}`;
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${other}/v1`);
  const warning = page.getByTestId('live-key-elsewhere');
  await warning.waitFor();
  assert.match(await warning.textContent(), new RegExp(`typed for ${standin.url.replace(/[.]/g, '\\.')}`));
  assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled());
  assert.equal(standin.log.filter((r) => r.method === 'POST').length, 0);
  await page.getByTestId('live-key-confirm').click();
  await warning.waitFor({ state: 'detached' });
  assert.match(await page.getByTestId('live-key-origin').textContent(), /sent only to http:\/\/localhost:/);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await live(page).getByLabel(/^Result of weather/).waitFor();
  assert.equal(standin.log.filter((r) => r.method === 'POST').length, 1);
  // Moving the base URL while the run waits ends it, saying so.
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await page.getByTestId('notice').filter({ hasText: 'base URL moved' }).waitFor();
  assert.match(await page.getByTestId('live-status').textContent(), /stopped/);
  await context.close();
});

test('Stop keeps the conversation exactly as before Send, shows what arrived, and appends it on request', async () => {
  standin.reset();
  const { context, page, errors } = await openApp(browser, url);
  await loadConversation(page, FOUR);
  assert.equal(await messageCount(page), 4);
  await fillLive(page, 'openai-chat', `${standin.url}/v1`, KEY);
  standin.script({ delayMs: 120 });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByTestId('live-streaming').waitFor();
  await page.waitForFunction(() => /\d+ events/.test(document.querySelector('[data-testid="live-round-1"] h4')?.textContent ?? ''));
  await page.waitForFunction(() => (document.querySelector('[data-testid="live-streaming"]')?.textContent ?? '').length > 3);
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByTestId('live-aborted').waitFor();
  // What arrived stays visible in the round.
  const partial = page.getByTestId('live-partial');
  await partial.waitFor();
  assert.ok((await partial.textContent()).length > 'Received before the round ended:'.length);
  // The conversation is as it was: four messages, the original answer last.
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  assert.equal(await messageCount(page), 4);
  assert.match(await chatDoc(page), /MY ORIGINAL ANSWER/);
  // On request, the partial answer takes the last turn's place; Undo brings the original back.
  await page.getByRole('tab', { name: 'Live' }).click();
  await page.getByTestId('live-append-partial').click();
  await page.getByTestId('notice').filter({ hasText: 'partial answer' }).waitFor();
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc().includes('MY ORIGINAL ANSWER') === false);
  assert.equal(await messageCount(page), 4);
  await page.getByTestId('notice-undo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc().includes('MY ORIGINAL ANSWER'));
  assert.equal(await messageCount(page), 4);
  assert.deepEqual(errors, []);
  await context.close();
});

test('opening a link keeps the work in History, and Undo (or Ctrl+Z) brings it back', async () => {
  const { context, page, errors } = await openApp(browser, url);
  await page.getByTestId('system').fill('MY OWN WORK');
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('MY OWN WORK'));
  // A link made elsewhere: the first example, shared.
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('.pane .cm-editor');
  await other.getByTestId('gallery').selectOption({ index: 2 });
  await other.getByTestId('share').click();
  await other.waitForFunction(() => location.hash.startsWith('#v2.'));
  const link = other.url();
  await other.close();
  // Opened in this tab: the work is replaced, kept, and one click away.
  await page.goto(link);
  await page.getByTestId('notice').filter({ hasText: 'shared link' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('MY OWN WORK'));
  await page.getByTestId('notice-undo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('MY OWN WORK'));
  assert.equal(await page.getByTestId('system').inputValue(), 'MY OWN WORK');
  // A pasted document replaces it again; Ctrl+Z outside a text field undoes that too.
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, conversation(ASK));
  await page.getByTestId('notice').filter({ hasText: 'Read the pasted text' }).waitFor();
  assert.notEqual(await page.getByTestId('system').inputValue(), 'MY OWN WORK');
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[data-testid="system"]')?.value === 'MY OWN WORK');
  // History lists what was kept, with times and summaries, and restores any of it.
  await page.getByTestId('history-open').click();
  const entries = page.getByTestId('history-entry');
  assert.ok((await entries.count()) >= 2);
  assert.match(await entries.first().textContent(), /\d\d:\d\d:\d\d.*message/);
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('history').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('two tabs keep their own work; a reload right after an edit keeps it', async () => {
  const { context, page: a } = await openApp(browser, url);
  await a.getByTestId('system').fill('WORK OF TAB A');
  await a.waitForTimeout(500);
  // Tab B starts from the work saved last, then goes its own way.
  const b = await context.newPage();
  await b.goto(url);
  await b.waitForSelector('.pane .cm-editor');
  assert.equal(await b.getByTestId('system').inputValue(), 'WORK OF TAB A');
  await b.getByTestId('system').fill('WORK OF TAB B');
  await b.waitForTimeout(500);
  // Tab A learnt that B saved.
  await a.getByTestId('notice').filter({ hasText: 'Another tab saved' }).waitFor();
  // A reload of A brings back A's work, not B's.
  await a.reload();
  await a.waitForSelector('.pane .cm-editor');
  assert.equal(await a.getByTestId('system').inputValue(), 'WORK OF TAB A');
  // B's work is one click away in A's History.
  await a.getByTestId('history-open').click();
  assert.match(await a.getByTestId('history-tab').first().textContent(), /another tab/);
  await a.keyboard.press('Escape');
  // An edit, then a reload 100 ms later: the page saved it as it went away.
  await a.getByTestId('system').fill('EDITED JUST BEFORE RELOAD');
  await a.waitForTimeout(100);
  await a.reload();
  await a.waitForSelector('.pane .cm-editor');
  assert.equal(await a.getByTestId('system').inputValue(), 'EDITED JUST BEFORE RELOAD');
  assert.equal(await b.getByTestId('system').inputValue(), 'WORK OF TAB B');
  await context.close();
});

test('removing a message says so with Undo; unreadable saved work is kept aside and offered', async () => {
  const { context, page } = await openApp(browser, url);
  await loadConversation(page, FOUR);
  await page.getByTestId('system').focus();
  const before = await messageCount(page);
  await page.getByTestId('message-0-remove').click();
  await page.getByTestId('notice').filter({ hasText: 'Removed' }).waitFor();
  await page.waitForFunction((n) => JSON.parse(document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc() ?? '{"messages":[]}').messages.length === n - 1, before);
  await page.getByTestId('notice-undo').click();
  await page.waitForFunction((n) => JSON.parse(document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc() ?? '{"messages":[]}').messages.length === n, before);
  // Saved data that does not restore: said, kept aside, never overwritten, offered as a file.
  await page.waitForTimeout(600); // the pending autosave lands first
  const tab = await page.evaluate(() => sessionStorage.getItem('toolscope.tab'));
  await page.evaluate((key) => localStorage.setItem(key, JSON.stringify({ at: Date.now(), summary: 'x', state: 'v1.@@@not-base64' })), `toolscope.work.${tab}`);
  await page.reload();
  await page.waitForSelector('.pane .cm-editor');
  await page.getByTestId('notice').filter({ hasText: 'could not be restored' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('notice-rescue').click()]);
  assert.ok(download.suggestedFilename().startsWith('toolscope-unrestored'));
  await page.getByTestId('system').fill('a new edit');
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => localStorage.getItem('toolscope.unreadable')), 'v1.@@@not-base64');
  await context.close();
});
