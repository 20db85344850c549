// End-to-end: secrets never leave through a recording or an imported HAR. A devtools export
// (tests/fixtures/har/chrome-devtools-secrets.har: bearer token, cookies, set-cookie,
// ?api_key=, an X-Password header…) opened in Replay, imported through the header, dropped as
// a paste or pasted into the stream editor: the page says how many values it removed, and
// none of them is in the editor, the share link, localStorage or the exported state. A Live
// run with an `X-Password` extra header: the value is in no HAR export, share link or the
// "as sent" view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkText, openApp } from './serve.mjs';
import { onPage, startApp, stopApp } from './suite.mjs';
import { KEY } from './standin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HAR_FILE = path.join(root, 'tests', 'fixtures', 'har', 'chrome-devtools-secrets.har');
const HAR = fs.readFileSync(HAR_FILE, 'utf8');
const SECRETS = [
  'sk-proj-SECRETbearer',
  'COOKIEsession1234567',
  'SETCOOKIEvalue987654',
  'QUERYkey-5555555555',
  'org-ORGsecret12345678',
  'hunter2hunter2',
  'PAGEtoken-77777777',
  'SIGvalue-88888888',
];

let server, url, browser, standin;
before(async () => ({ server, url, browser, standin } = await startApp({ standin: { delayMs: 10 } })));
after(() => stopApp({ server, browser, standin }));

function assertClean(where, text) {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${s} in ${where}`);
}

/** The state in the share link of the address bar. */
async function linkState(page) {
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));
  return linkText(await page.evaluate(() => location.hash));
}

const stored = (page) => page.evaluate(() => JSON.stringify({ ...localStorage }));
const replayText = (page) => page.$eval('[data-testid="stream-input"]', (el) => el.toolscopeEditor?.getDoc() ?? el.querySelector('textarea')?.value ?? '');

/** Share, the state export and localStorage hold none of the HAR's secrets, and the replay
 * is still the HAR (redacted, not dropped). */
async function assertNowhere(page) {
  assertClean('the replay editor', await replayText(page));
  assertClean('the page text', await page.evaluate(() => document.body.innerText));
  await page.getByTestId('share').click();
  const state = await linkState(page);
  assertClean('the share link', state);
  assert.match(state, /gateway\.example\.com/, 'the link carries the (redacted) HAR');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  assertClean('the exported state', exported);
  assert.match(exported, /\[redacted\]/);
  // Autosave runs after an edit: switch the view (r), wait until the replay is stored.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('r');
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('toolscope.work.')));
  let kept = '';
  for (let i = 0; i < 50 && !kept.includes('gateway.example.com'); i++) {
    kept = storedStates(await page.evaluate(() => ({ ...localStorage })));
    if (!kept.includes('gateway.example.com')) await page.waitForTimeout(100);
  }
  assert.match(kept, /gateway\.example\.com/, 'the autosave keeps the (redacted) HAR');
  assertClean('localStorage', await stored(page));
  assertClean('the states kept in localStorage', kept);
}

/** Every state the page keeps (autosave slots and History), expanded from their compact
 * link form, so the secrets are looked for in what the states hold, not in compressed bytes. */
function storedStates(storage) {
  const out = [];
  const expand = linkText;
  for (const [k, v] of Object.entries(storage)) {
    if (k.startsWith('toolscope.work.')) out.push(expand(JSON.parse(v).state));
    if (k === 'toolscope.history.v1') for (const e of JSON.parse(v).entries) out.push(expand(e.state));
  }
  return out.join('\n');
}

test('a devtools HAR opened in Replay: secrets removed and counted before anything shows or is kept', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tab-replay').click();
  await page.getByTestId('stream-file').setInputFiles(HAR_FILE);
  const notice = page.getByTestId('notice').filter({ hasText: 'secret values were removed' });
  await notice.waitFor();
  const n = Number((await notice.textContent()).match(/(\d+) secret values were removed/)[1]);
  assert.ok(n >= 18, `${n} removed`);
  // It still replays: the gateway's stream with its tool call.
  await page.getByTestId('replay-summary').filter({ hasText: 'OpenAI Chat' }).waitFor();
  assert.match(await page.getByTestId('har-entry').textContent(), /\[redacted\]/);
  await assertNowhere(page);
}));

test('a HAR imported through the header, pasted on the page or into the stream editor is redacted too', () => onPage(browser, url, async (page) => {
  // Import (Ctrl+O): opens in Replay.
  await page.getByTestId('import').setInputFiles(HAR_FILE);
  await page.getByTestId('notice').filter({ hasText: /Replaying chrome-devtools-secrets\.har — \d+ secret values were removed/ }).waitFor();
  await page.getByTestId('replay-summary').filter({ hasText: 'OpenAI Chat' }).waitFor();
  assertClean('the replay editor', await replayText(page));
  // A paste outside any editor.
  await page.getByTestId('tab-formats').click();
  await page.getByTestId('notice-dismiss').click();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, HAR);
  await page.getByTestId('notice').filter({ hasText: /secret values were removed/ }).waitFor();
  assertClean('the replay editor', await replayText(page));
  // Typed or pasted into the stream editor itself.
  await page.getByTestId('notice-dismiss').click();
  await page.getByTestId('tab-replay').click();
  await page.$eval('[data-testid="stream-input"]', (el, t) => {
    const v = el.toolscopeEditor.view;
    v.focus();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t }, userEvent: 'input.paste' });
  }, HAR);
  await page.getByTestId('notice').filter({ hasText: /Pasted stream — \d+ secret values were removed/ }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="stream-input"]')?.toolscopeEditor?.getDoc().includes('COOKIEsession') === false);
  await assertNowhere(page);
}));

// --- Live: an extra header that is a credential by value, not by name ---------------------

function conversation(tool) {
  return JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
    tools: [{ type: 'function', function: { name: tool, description: 'Weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
  }, null, 2);
}

const live = (page) => page.getByTestId('live');

test('an X-Password extra header is sent but is in no export, link or "as sent" view', async () => {
  standin.reset();
  const { context, page, errors } = await openApp(browser, url);
  await page.$eval('[data-testid="editor-openai-chat"]', (el, t) => {
    const v = el.toolscopeEditor.view;
    v.focus();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t }, userEvent: 'input.paste' });
  }, conversation('weather'));
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('weather'));
  await page.getByRole('tab', { name: 'Live' }).click();
  await live(page).getByLabel('Provider', { exact: true }).selectOption('compatible');
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await live(page).getByLabel('Model', { exact: true }).fill('test-model');
  await live(page).getByLabel('API key', { exact: true }).fill(KEY);
  await live(page).getByText('Extra headers').first().click();
  await live(page).getByLabel('Extra headers', { exact: true }).fill('X-Title: Toolscope e2e\nX-Password: hunter2\nX-Custom-Thing: opaque-value-123');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await live(page).getByLabel(/^Result of weather/).waitFor();
  // The provider got it: the header goes where it was typed for.
  const post = standin.log.find((r) => r.method === 'POST');
  assert.equal(post.headers['x-password'], 'hunter2');
  const gone = (where, text) => {
    for (const s of ['hunter2', 'opaque-value-123', KEY]) assert.ok(!text.includes(s), `${s} in ${where}`);
  };
  // The "as sent" view.
  await page.getByTestId('live-round-1').locator('summary', { hasText: 'as sent' }).click();
  const asSent = await page.getByTestId('live-round-1').locator('pre').first().textContent();
  gone('the as-sent view', asSent);
  assert.match(asSent, /x-password: \[redacted\]/);
  assert.match(asSent, /x-title: Toolscope e2e/);
  // The exported HAR.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .har' }).click()]);
  const har = fs.readFileSync(await download.path(), 'utf8');
  gone('the exported recording', har);
  assert.match(har, /Toolscope e2e/);
  // The link with the recording.
  await page.getByRole('button', { name: 'Share link with the recording' }).click();
  gone('the share link', await linkState(page));
  gone('localStorage', await stored(page));
  gone('the page text', await page.evaluate(() => document.body.innerText));
  assert.deepEqual(errors, []);
  await context.close();
});
