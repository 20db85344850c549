// End-to-end: the Live tab against the provider stand-in (e2e/standin.mjs) on 127.0.0.1. Per
// provider a whole loop (ask → streamed tool call → the user types the result → final answer),
// a stream stopped midway, a 401, a CORS failure, and the key nowhere it must not be: the URL,
// localStorage (unless opted in), the export, the share link, the console.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { linkText, openApp, pasteInto } from './serve.mjs';
import { startApp, stopApp } from './suite.mjs';
import { KEY } from './standin.mjs';

let server, url, browser, standin;
before(async () => ({ server, url, browser, standin } = await startApp({ standin: { delayMs: 30 } })));
after(() => stopApp({ server, browser, standin }));

/** A conversation whose tool is the one the provider's recording calls. */
function conversation(tool) {
  return JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
    tools: [{
      type: 'function',
      function: {
        name: tool,
        description: 'Weather for a place',
        parameters: { type: 'object', properties: { location: { type: 'string' } } },
      },
    }],
  }, null, 2);
}

/** Open the page, load a conversation for `tool`, fill the Live form. */
async function setup(provider, base, tool, { key = KEY, stream = true } = {}) {
  const opened = await openApp(browser, url);
  const { page } = opened;
  const consoleText = [];
  page.on('console', (m) => consoleText.push(m.text()));
  await pasteInto(page, 'editor-openai-chat', conversation(tool));
  await page.waitForFunction((t) => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes(t), tool);
  await page.getByRole('tab', { name: 'Live' }).click();
  await live(page).getByLabel('Provider', { exact: true }).selectOption(provider);
  await live(page).getByLabel('Base URL', { exact: true }).fill(base);
  await live(page).getByLabel('Model', { exact: true }).fill('test-model');
  await live(page).getByLabel('API key', { exact: true }).fill(key);
  const box = live(page).getByLabel('Stream the answer');
  if ((await box.isChecked()) !== stream) await box.click();
  return { ...opened, consoleText };
}

/** The Live view, where its labels are unique. */
const live = (page) => page.getByTestId('live');

const BASES = (s) => ({
  'openai-chat': `${s}/v1`,
  'openai-responses': `${s}/v1`,
  anthropic: s,
  gemini: `${s}/v1beta`,
});

/** The key must not be in the URL, storage, the console or the page's visible text. */
async function assertNoKey(page, consoleText) {
  assert.ok(!page.url().includes(KEY), 'key in the URL');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.ok(!stored.includes(KEY), 'key in localStorage');
  assert.ok(!consoleText.join('\n').includes(KEY), 'key in the console');
  const text = await page.evaluate(() => document.body.innerText);
  assert.ok(!text.includes(KEY), 'key shown in the page');
}

for (const [provider, tool] of [['openai-chat', 'weather'], ['openai-responses', 'weather'], ['anthropic', 'json'], ['gemini', 'weather']]) {
  test(`${provider}: ask → streamed tool call → typed result → final answer`, async () => {
    standin.reset();
    const { context, page, errors, consoleText } = await setup(provider, BASES(standin.url)[provider], tool);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // The answer streams in: the in-flight view shows the call while events arrive.
    const result = live(page).getByLabel(new RegExp(`^Result of ${tool}`));
    await result.waitFor();
    const head = await page.getByTestId('live-round-1').locator('h4').textContent();
    assert.match(head, /HTTP 200/);
    if (provider !== 'gemini') assert.match(head, /\d+ events/, head);
    await result.fill('{"temperature": 18, "conditions": "foggy"}');
    // An edit made while the run waits goes with the next round.
    if (provider === 'openai-chat') await page.getByTestId('system').fill('Answer in one short sentence.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
    assert.ok((await page.getByTestId('live-answer').last().textContent()).length > 0);
    // A new run would start before the model's answer, and says so.
    assert.match(await page.getByTestId('live-plan').textContent(), /left out/);
    // The stand-in saw two rounds; the second carried the typed result; the key only in a header.
    const posts = standin.log.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 2, JSON.stringify(posts.map((p) => p.path)));
    assert.match(posts[1].body, /foggy/);
    if (provider === 'openai-chat') assert.match(posts[1].body, /Answer in one short sentence/);
    for (const p of posts) {
      assert.ok(!`${p.path}?${p.query ?? ''}`.includes(KEY), 'key in the request URL');
      assert.ok(Object.values(p.headers).some((v) => String(v).includes(KEY)), 'key sent in a header');
    }
    // The conversation now holds the run: the panes show the typed result.
    await page.getByRole('tab', { name: 'Wire formats' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor?.getDoc().includes('foggy'));
    await assertNoKey(page, consoleText);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a stream stopped midway keeps what arrived and adds nothing', async () => {
  standin.reset();
  const { context, page, errors } = await setup('openai-chat', `${standin.url}/v1`, 'weather');
  standin.script({ delayMs: 150 });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByTestId('live-streaming').waitFor();
  await page.waitForFunction(() => /\d+ events/.test(document.querySelector('[data-testid="live-round-1"] h4')?.textContent ?? ''));
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByTestId('live-aborted').waitFor();
  assert.match(await page.getByTestId('live-status').textContent(), /stopped/);
  // The stand-in saw the client go away.
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(standin.log.some((r) => r.method === 'POST' && r.aborted), 'the request was aborted');
  // Nothing of the partial answer entered the conversation.
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-openai-chat"]')?.toolscopeEditor);
  const chat = await page.$eval('[data-testid="editor-openai-chat"]', (el) => el.toolscopeEditor.getDoc());
  assert.doesNotMatch(chat, /"role": "assistant"/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong key shows the provider\'s 401 with its message', async () => {
  standin.reset();
  const { context, page, consoleText } = await setup('openai-chat', `${standin.url}/v1`, 'weather', { key: 'sk-wrong-key-000000000000' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const err = page.getByTestId('live-error');
  await err.waitFor();
  const text = await err.textContent();
  assert.match(text, /HTTP 401/);
  assert.match(text, /Incorrect API key provided/);
  assert.match(text, /invalid_api_key/);
  assert.ok(!text.includes('sk-wrong-key-000000000000'), 'the wrong key is shown unmasked');
  assert.ok(!consoleText.join('\n').includes('sk-wrong-key-000000000000'));
  // Console errors here are the browser's own "Failed to load resource: 401", not the app's.
  await context.close();
});

test('a failed CORS preflight is explained, and a 429 shows retry-after', async () => {
  standin.reset();
  const { context, page } = await setup('openai-chat', `${standin.url}/nocors/v1`, 'weather');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const err = page.getByTestId('live-error');
  await err.waitFor();
  const text = await err.textContent();
  assert.match(text, /CORS preflight/);
  assert.match(text, /answered, but the browser refused/);
  assert.match(text, /Access-Control-Allow-Headers/);
  assert.ok(standin.log.some((r) => r.method === 'OPTIONS' && r.path.startsWith('/nocors/')));
  // Back to a working base URL; the stand-in answers the next request with a 429.
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  standin.script({ status: 429, headers: { 'retry-after': '7' }, body: JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }) });
  await page.getByRole('button', { name: 'Send this round again' }).click();
  await page.getByTestId('live-round-2').getByTestId('live-error').filter({ hasText: 'retry after 7 s' }).waitFor();
  assert.match(await page.getByTestId('live-round-2').textContent(), /Rate limit reached/);
  await context.close();
});

test('what cannot work from a browser is said before sending', async () => {
  const { context, page } = await setup('bedrock', 'https://bedrock-runtime.us-east-1.amazonaws.com', 'weather');
  assert.match(await page.getByTestId('live-checks').textContent(), /Signature V4/);
  assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled());
  await live(page).getByLabel('Provider', { exact: true }).selectOption('compatible');
  await live(page).getByLabel('Base URL', { exact: true }).fill('https://generativelanguage.googleapis.com/v1beta/openai');
  assert.match(await page.getByTestId('live-checks').textContent(), /refuses cross-origin/);
  assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled());
  await live(page).getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  assert.ok(await page.getByRole('button', { name: 'Send', exact: true }).isEnabled());
  await context.close();
});

test('the recording opens in Replay, exports and shares without the key; remember is opt-in', async () => {
  standin.reset();
  const { context, page, consoleText } = await setup('anthropic', standin.url, 'json', { stream: true });
  // A saved result answers the call by itself in auto mode.
  await live(page).getByLabel('Mode', { exact: true }).selectOption('auto');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const result = live(page).getByLabel(/^Result of json/);
  await result.waitFor();
  await result.fill('58 and sunny');
  await page.getByRole('button', { name: 'Save as mock' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  // Export: a HAR with two entries, no key.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .har' }).click()]);
  const har = fs.readFileSync(await download.path(), 'utf8');
  assert.ok(!har.includes(KEY), 'key in the exported recording');
  const log = JSON.parse(har).log;
  assert.equal(log.entries.length, 2);
  assert.equal(log.entries[0]._toolscope.results[0].content, '58 and sunny');
  assert.ok(log.entries[0]._toolscope.eventTimes.length >= 5);
  assert.ok(log.entries[0].request.headers.some((h) => h.name === 'x-api-key' && h.value === '[redacted]'));
  // Share: the link holds the recording and no key.
  await page.getByRole('button', { name: 'Share link with the recording' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));
  const state = linkText(await page.evaluate(() => location.hash));
  assert.ok(!state.includes(KEY), 'key in the share link');
  assert.match(state, /58 and sunny/);
  assert.match(state, /Toolscope/);
  // The state export (header) and a copy-as-curl snippet hold no key either.
  const [state2] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  const exported = fs.readFileSync(await state2.path(), 'utf8');
  assert.ok(!exported.includes(KEY), 'key in the exported state');
  assert.match(exported, /58 and sunny/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await page.getByTestId('copy-as-anthropic').click();
  await page.locator('[data-format="anthropic"] .menu-items').getByRole('menuitem', { name: 'curl' }).click();
  await page.getByTestId('notice').filter({ hasText: 'snippet' }).waitFor();
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(clip, /\$ANTHROPIC_API_KEY/);
  assert.ok(!clip.includes(KEY), 'key in the curl snippet');
  // Replay opens the recording (the last round: the final answer).
  await page.getByRole('tab', { name: 'Live' }).click();
  await page.getByRole('button', { name: 'Open in Replay' }).click();
  await page.getByTestId('replay-summary').filter({ hasText: 'Anthropic' }).waitFor();
  // Each event with the time it arrived; "as recorded" replays with those gaps.
  assert.match(await page.getByTestId('step-label').textContent(), /event 1 of \d+ · \+\d+ ms/);
  await page.getByTestId('speed').selectOption('0');
  await assertNoKey(page, consoleText);
  // Opt in: the key is stored, with a warning; opting out erases it.
  await page.getByRole('tab', { name: 'Live' }).click();
  await live(page).getByLabel('Remember keys in this browser').check();
  await page.getByTestId('live-remember-warning').waitFor();
  assert.ok((await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(KEY));
  await live(page).getByLabel('Remember keys in this browser').uncheck();
  assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(KEY));
  // Auto mode: a new run answers the call with the saved result and finishes alone.
  standin.reset();
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await pasteInto(page, 'editor-openai-chat', conversation('json'));
  await page.getByRole('tab', { name: 'Live' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  assert.equal(standin.log.filter((r) => r.method === 'POST').length, 2);
  assert.match(standin.log.filter((r) => r.method === 'POST')[1].body, /58 and sunny/);
  await context.close();
});

test('not streamed: one JSON body per round; a 400 shows the provider\'s message', async () => {
  standin.reset();
  const { context, page, errors } = await setup('gemini', `${standin.url}/v1beta`, 'weather', { stream: false });
  standin.script({ status: 400, body: JSON.stringify({ error: { code: 400, message: '* GenerateContentRequest.contents: contents is not specified', status: 'INVALID_ARGUMENT' } }) });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const err = page.getByTestId('live-error');
  await err.waitFor();
  assert.match(await err.textContent(), /HTTP 400 · INVALID_ARGUMENT/);
  assert.match(await err.textContent(), /contents is not specified/);
  await page.getByRole('button', { name: 'Send this round again' }).click();
  const result = live(page).getByLabel(/^Result of weather/);
  await result.waitFor();
  assert.doesNotMatch(await page.getByTestId('live-round-2').locator('h4').textContent(), /events/);
  await result.fill('fog');
  await live(page).getByLabel('Error result').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  const posts = standin.log.filter((r) => r.method === 'POST');
  assert.ok(posts.every((p) => p.path.endsWith(':generateContent')), posts.map((p) => p.path).join());
  assert.match(posts[posts.length - 1].body, /functionResponse/);
  assert.match(await page.getByTestId('live-answer').last().textContent(), /fog/);
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await context.close();
});

test('an OpenAI-compatible base URL with extra headers; credential headers are redacted in the recording', async () => {
  standin.reset();
  const { context, page, errors } = await setup('compatible', `${standin.url}/v1`, 'weather');
  await live(page).getByText('Extra headers').first().click();
  await live(page).getByLabel('Extra headers', { exact: true }).fill('X-Title: Toolscope e2e\nX-Gateway-Token: gw-secret-4242');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await live(page).getByLabel(/^Result of weather/).waitFor();
  const post = standin.log.find((r) => r.method === 'POST');
  assert.equal(post.headers['x-title'], 'Toolscope e2e');
  assert.equal(post.headers['x-gateway-token'], 'gw-secret-4242');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .har' }).click()]);
  const har = fs.readFileSync(await download.path(), 'utf8');
  assert.ok(!har.includes('gw-secret-4242') && !har.includes(KEY), 'a credential in the recording');
  assert.match(har, /Toolscope e2e/);
  // Extra headers are not kept anywhere either.
  assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes('gw-secret-4242'));
  assert.deepEqual(errors, []);
  await context.close();
});
