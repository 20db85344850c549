// End-to-end: the Live tab's MCP servers against real MCP servers on the official Python SDK
// (tests/mcp/server.py, `mcp` 2.3.0) on 127.0.0.1: both protocol generations, a bearer token,
// OAuth against a local authorization server (e2e/oauth-as.mjs), tools by hand (read-only with
// structured output, destructive, failing, every block kind), a CORS refusal, and a Live loop
// in Auto mode against the provider stand-in: the read-only tool runs unasked, the destructive
// one waits for Approve, the server sees exactly the model's arguments, the final turn holds its
// answer. No token in storage, links, exports or requests to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { linkText, openApp, pasteInto } from './serve.mjs';
import { startApp, stopApp } from './suite.mjs';
import { KEY } from './standin.mjs';
import { startOAuth } from './oauth-as.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = 'mcp-e2e-token-7f3a9c0b5d1e2f4a';
const UPSTREAM = 'mcp-upstream-token-0a1b2c3d4e5f6a7b';

let server, url, browser, standin, origin, oauth;
const children = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-mcp-'));
const record = path.join(tmp, 'deleted.jsonl');
const srv = {};

/** Start tests/mcp/server.py with `args`; resolves to its /mcp URL (its first line). */
function startServer(args) {
  const child = spawn('python3', [path.join(root, 'tests/mcp/server.py'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(line.trim());
    });
    child.on('exit', (code) => reject(new Error(`server.py ${args.join(' ')} exited ${code}: ${err}`)));
  });
}

before(async () => {
  ({ server, url, browser, standin } = await startApp({ standin: { delayMs: 5 } }));
  origin = new URL(url).origin;
  const cors = ['--cors-origin', origin];
  [srv.both, srv.legacy, srv.stateless, srv.nocors, srv.upstream] = await Promise.all([
    startServer([...cors, '--token', TOKEN, '--record', record]),
    startServer([...cors, '--protocol', 'legacy']),
    startServer([...cors, '--protocol', 'stateless']),
    startServer([]),
    startServer([...cors, '--token', UPSTREAM]),
  ]);
  oauth = await startOAuth({ upstream: srv.upstream, upstreamToken: UPSTREAM, pageOrigin: origin });
});

after(async () => {
  for (const c of children) c.kill();
  await oauth?.close();
  await stopApp({ server, browser, standin });
  fs.rmSync(tmp, { recursive: true, force: true });
});

const section = (page) => page.getByTestId('mcp');
const serverCard = (page, u) => section(page).getByLabel(`MCP server ${u}`, { exact: true });

/** Open the page on the Live tab, with `conversation` (Chat Completions JSON) loaded. */
async function open(conversation) {
  const opened = await openApp(browser, url);
  const { page } = opened;
  if (conversation) {
    await pasteInto(page, 'editor-openai-chat', JSON.stringify(conversation));
    const said = conversation.messages[0].content;
    await page.waitForFunction((t) => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes(t), said);
  }
  await page.getByRole('tab', { name: 'Live' }).click();
  return opened;
}

/** Connect to `u` (with `token`, if any) and wait until it is ready or refused. */
async function connect(page, u, token) {
  await section(page).getByLabel('Server URL').fill(u);
  if (token) await section(page).getByLabel('Bearer token (optional)').fill(token);
  await section(page).getByTestId('mcp-connect').click();
  const card = serverCard(page, u);
  await card.waitFor();
  await page.waitForFunction(
    (u) => {
      const el = [...document.querySelectorAll('[data-testid="mcp-server"]')].find((e) => e.getAttribute('aria-label') === `MCP server ${u}`);
      const p = el?.querySelector('[data-testid="mcp-protocol"]')?.textContent ?? '';
      return el && (p.startsWith('Protocol') || el.querySelector('[data-testid="mcp-error"], [data-testid="mcp-needs-auth"]'));
    },
    u,
  );
  return card;
}

/** The page's errors, without the browser's own line for an HTTP error status the test
 * provoked (a 401 asking for a token, a legacy server's 400 to `server/discover`). */
const unexpected = (errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (400|401)/.test(e));

/** Nothing of `secrets` in storage, the address, or the page's text. */
async function assertNowhere(page, secrets) {
  const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href }));
  const text = await page.evaluate(() => document.body.innerText);
  for (const s of secrets) {
    assert.ok(!stored.includes(s), `${s.slice(0, 8)}… in storage or the URL`);
    assert.ok(!text.includes(s), `${s.slice(0, 8)}… shown in the page`);
  }
}

test('both protocol generations: the page negotiates and shows which one the server chose', async () => {
  const { context, page, errors } = await open();
  const legacy = await connect(page, srv.legacy);
  assert.match(await legacy.getByTestId('mcp-protocol').textContent(), /2025-11-25 \(session/);
  const stateless = await connect(page, srv.stateless);
  assert.match(await stateless.getByTestId('mcp-protocol').textContent(), /2026-07-28 \(stateless/);
  // Several servers at once, each with its identity, instructions and tools.
  assert.equal(await section(page).getByTestId('mcp-server').count(), 2);
  for (const card of [legacy, stateless]) {
    assert.match(await card.getByTestId('mcp-server-name').textContent(), /toolscope-test-server 1\.2\.3/);
    assert.match(await card.getByTestId('mcp-instructions').textContent(), /weather is read-only/);
    assert.equal(await card.locator('.mcp-tool').count(), 4);
  }
  const weather = stateless.getByTestId('mcp-tool-get_weather');
  assert.match(await weather.locator('summary').first().textContent(), /Current weather.*read-only/s);
  assert.match(await stateless.getByTestId('mcp-tool-notes.delete').locator('summary').first().textContent(), /destructive.*idempotent/s);
  // The history holds every JSON-RPC message; the export is redacted JSON.
  const [download] = await Promise.all([page.waitForEvent('download'), stateless.getByTestId('mcp-history-export').click()]);
  const history = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.ok(history.messages.some((m) => m.message?.method === 'server/discover'), JSON.stringify(history).slice(0, 400));
  assert.ok(history.messages.some((m) => m.message?.method === 'tools/list'));
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('a bearer token: 401 without it, connected with it, and it goes nowhere else', async () => {
  const { context, page, errors } = await open();
  const refused = await connect(page, srv.both);
  await refused.getByTestId('mcp-needs-auth').waitFor();
  await connect(page, srv.both, TOKEN);
  const card = serverCard(page, srv.both);
  await card.getByTestId('mcp-protocol').filter({ hasText: 'Protocol' }).waitFor();
  assert.equal(await card.locator('.mcp-tool').count(), 4);
  await assertNowhere(page, [TOKEN]);
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('mcp-history-export').click()]);
  assert.ok(!fs.readFileSync(await download.path(), 'utf8').includes(TOKEN), 'token in the exported history');
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('tools by hand: a form from the schema, checked before sending; blocks, structured content, isError', async () => {
  const { context, page, errors } = await open({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather?' }] });
  const card = await connect(page, srv.legacy);
  // Read-only with an output schema.
  const weather = card.getByTestId('mcp-tool-get_weather');
  await weather.locator('summary').first().click();
  await weather.getByRole('button', { name: 'Call' }).click();
  assert.match(await weather.getByTestId('mcp-arg-errors').textContent(), /city/);
  await weather.getByLabel('city (required)').fill('Paris');
  await weather.getByRole('button', { name: 'Call' }).click();
  await weather.getByTestId('mcp-result').waitFor();
  assert.match(await weather.getByTestId('mcp-structured').textContent(), /matches the output schema/);
  assert.match(await weather.getByTestId('mcp-result').textContent(), /sunny/);
  // Failing: isError shown.
  const fails = card.getByTestId('mcp-tool-always_fails');
  await fails.locator('summary').first().click();
  await fails.getByRole('button', { name: 'Call' }).click();
  await fails.getByTestId('mcp-is-error').waitFor();
  // Every block kind.
  const media = card.getByTestId('mcp-tool-media.sample');
  await media.locator('summary').first().click();
  await media.getByRole('button', { name: 'Call' }).click();
  await media.getByTestId('mcp-result').waitFor();
  for (const kind of ['text', 'image', 'audio', 'resource_link', 'resource']) {
    assert.equal(await media.locator(`[data-block="${kind}"]`).count(), 1, kind);
  }
  // The weather call and its result as a turn of the conversation.
  await weather.getByTestId('mcp-add-turn').click();
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('sunny'));
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('a server that does not allow the page origin: the page says so and offers the bridge', async () => {
  const { context, page } = await open();
  const card = await connect(page, srv.nocors);
  const text = await card.getByTestId('mcp-error').textContent();
  assert.match(text, /does not allow this page's origin/);
  assert.match(text, new RegExp(`toolscope mcp bridge --origin ${origin.replace(/[.:/]/g, '\\$&')}`));
  await context.close();
});

test('Live loop in Auto mode: read-only runs unasked, destructive waits for Approve, the answer comes back', async () => {
  standin.reset();
  fs.rmSync(record, { force: true });
  const { context, page, errors } = await open({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris, then delete note n-42.' }] });
  const card = await connect(page, srv.both, TOKEN);
  await card.getByTestId('mcp-protocol').filter({ hasText: 'Protocol' }).waitFor();
  await card.getByTestId('mcp-use').click();
  // The dotted name is renamed for the providers, and the mapping is shown.
  assert.match(await card.getByTestId('mcp-mappings').textContent(), /notes\.delete → notes_delete/);
  await card.getByTestId('mcp-cost').waitFor();
  assert.match(await card.getByTestId('mcp-cost').textContent(), /This server's 4 tools cost \d+ tokens per request on/);
  const args = { note_id: 'n-42', reason: 'cleanup' };
  standin.callTools([
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { name: 'notes_delete', arguments: args },
  ]);
  const live = page.getByTestId('live');
  await live.getByLabel('Provider', { exact: true }).selectOption('openai-chat');
  await live.getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await live.getByLabel('Model', { exact: true }).fill('gpt-4o');
  await live.getByLabel('API key', { exact: true }).fill(KEY);
  await live.getByLabel('Mode', { exact: true }).selectOption('auto');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // Round 1 asked for the weather: it ran by itself; round 2 asks to delete: it waits.
  await page.getByTestId('live-approval').waitFor();
  assert.match(await page.getByTestId('live-results').textContent(), /notes_delete[\s\S]*n-42/);
  fs.mkdirSync(path.join(root, 'target', 'screenshots'), { recursive: true });
  await page.getByTestId('live-results').screenshot({ path: path.join(root, 'target', 'screenshots', 'mcp-approval.png') });
  assert.ok(!fs.existsSync(record), 'the destructive tool ran before approval');
  const posts = () => standin.log.filter((r) => r.method === 'POST');
  assert.equal(posts().length, 2);
  assert.match(posts()[1].body, /sunny/); // the weather result went back to the model
  await page.getByTestId('live-approve').click();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  // The server saw exactly the model's arguments.
  const seen = fs.readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(seen, [args]);
  // The final turn holds the server's answer.
  assert.match(await page.getByTestId('live-answer').last().textContent(), /deleted note n-42/);
  assert.equal(posts().length, 3);
  // The recording holds the MCP traffic, redacted; no token or key anywhere.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .har' }).click()]);
  const har = fs.readFileSync(await download.path(), 'utf8');
  const entries = JSON.parse(har).log.entries;
  assert.ok(entries.some((e) => e._toolscope.mcp && /tools\/call/.test(e.request.postData.text)), 'MCP traffic in the HAR');
  assert.ok(!har.includes(TOKEN) && !har.includes(KEY), 'a secret in the recording');
  await page.getByRole('button', { name: 'Share link with the recording' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#v2.'));
  const state = linkText(await page.evaluate(() => location.hash));
  assert.ok(!state.includes(TOKEN), 'token in the share link');
  await assertNowhere(page, [TOKEN, KEY]);
  // The token went to the MCP server only: never to the provider.
  for (const p of standin.log) assert.ok(!JSON.stringify(p.headers).includes(TOKEN) && !p.body.includes(TOKEN), 'token sent to the provider');
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('Live loop: a denied call is answered with an error saying so, and the run goes on', async () => {
  standin.reset();
  fs.rmSync(record, { force: true });
  const { context, page, errors } = await open({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Delete note n-7.' }] });
  const card = await connect(page, srv.both, TOKEN);
  await card.getByTestId('mcp-use').click();
  standin.callTools([{ name: 'notes_delete', arguments: { note_id: 'n-7' } }]);
  const live = page.getByTestId('live');
  await live.getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await live.getByLabel('Model', { exact: true }).fill('gpt-4o');
  await live.getByLabel('API key', { exact: true }).fill(KEY);
  await live.getByLabel('Mode', { exact: true }).selectOption('auto');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByTestId('live-deny').click();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  assert.ok(!fs.existsSync(record), 'a denied call ran');
  assert.match(standin.log.filter((r) => r.method === 'POST')[1].body, /denied/);
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

test('Live loop: a server that went away answers the model with an error result; the run and conversation are kept', async () => {
  standin.reset();
  const gone = await startServer(['--cors-origin', origin]);
  const { context, page, errors } = await open({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Rome?' }] });
  const card = await connect(page, gone);
  await card.getByTestId('mcp-use').click();
  children.at(-1).kill();
  await new Promise((r) => children.at(-1).once('exit', r));
  standin.callTools([{ name: 'get_weather', arguments: { city: 'Rome' } }]);
  const live = page.getByTestId('live');
  await live.getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await live.getByLabel('Model', { exact: true }).fill('gpt-4o');
  await live.getByLabel('API key', { exact: true }).fill(KEY);
  await live.getByLabel('Mode', { exact: true }).selectOption('auto');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByTestId('notice').filter({ hasText: /did not answer the call of get_weather/ }).waitFor();
  await page.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  const posts = standin.log.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 2);
  assert.match(posts[1].body, /failed to run get_weather/);
  // The conversation holds the whole run: the call, its error result, the answer.
  await page.getByRole('tab', { name: 'Wire formats' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('failed to run get_weather'));
  assert.deepEqual(unexpected(errors).filter((e) => !/ERR_CONNECTION_REFUSED/.test(e)), []);
  await context.close();
});

test('OAuth 2.1: protected resource metadata from the 401, DCR, code + PKCE in a popup, token in memory', async () => {
  const { context, page, errors } = await open();
  const card = await connect(page, oauth.resource);
  await card.getByTestId('mcp-needs-auth').waitFor();
  await card.getByTestId('mcp-oauth').click();
  await card.getByTestId('mcp-protocol').filter({ hasText: 'Protocol' }).waitFor({ timeout: 20000 });
  assert.equal(await card.locator('.mcp-tool').count(), 4);
  const at = (p) => oauth.log.filter((e) => e.server === 'as' && e.path === p && e.method !== 'OPTIONS');
  assert.equal(at('/register').length, 1);
  assert.equal(at('/authorize').length, 1);
  assert.equal(at('/token').length, 1);
  assert.match(at('/token')[0].body, /code_verifier=/);
  const [issued] = [...oauth.tokens];
  assert.ok(issued);
  // The access token went only to the resource, in Authorization.
  for (const e of oauth.log) {
    const has = JSON.stringify(e).includes(issued);
    if (e.server === 'as') assert.ok(!has, `token sent to the authorization server (${e.path})`);
    else if (has) assert.equal(e.headers.authorization, `Bearer ${issued}`);
  }
  await assertNowhere(page, [issued, UPSTREAM]);
  assert.deepEqual(unexpected(errors), []);
  await context.close();
});

/** The native command line, if built (`cargo build --release`, or a debug build). */
function toolscopeBin() {
  const candidates = [process.env.TOOLSCOPE_BIN, 'target/release/toolscope', 'target/debug/toolscope'].filter(Boolean);
  return candidates.map((c) => path.resolve(root, c)).find((c) => fs.existsSync(c));
}

test('the bridge: the page drives a stdio server through it; another origin is refused', { skip: !toolscopeBin() && 'no toolscope binary built' }, async () => {
  const child = spawn(toolscopeBin(), ['mcp', 'bridge', '--origin', origin, '--', 'python3', path.join(root, 'tests/mcp/server.py'), '--stdio'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const [bridge, token] = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const lines = out.split('\n');
      const t = lines.find((l) => l.startsWith('token: '));
      if (t) resolve([lines[0].trim(), t.slice('token: '.length).trim()]);
    });
    child.on('exit', (code) => reject(new Error(`bridge exited ${code}`)));
  });
  // Another website: refused, its preflight too, with or without the token.
  for (const headers of [{ origin: 'https://evil.example', 'content-type': 'application/json' }, { origin: 'https://evil.example', authorization: `Bearer ${token}`, 'content-type': 'application/json' }]) {
    const r = await fetch(bridge, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    assert.ok([401, 403].includes(r.status), `bridge answered ${r.status} to another origin`);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
  }
  const pre = await fetch(bridge, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
  // The page's own origin without the token: refused.
  const bare = await fetch(bridge, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
  assert.equal(bare.status, 401);
  // The page, with the token: connected, and a tool runs through the bridge.
  const { context, page, errors } = await open();
  const card = await connect(page, bridge, token);
  await card.getByTestId('mcp-protocol').filter({ hasText: 'Protocol' }).waitFor();
  const weather = card.getByTestId('mcp-tool-get_weather');
  await weather.locator('summary').first().click();
  await weather.getByLabel('city (required)').fill('Oslo');
  await weather.getByRole('button', { name: 'Call' }).click();
  await weather.getByTestId('mcp-result').waitFor();
  assert.match(await weather.getByTestId('mcp-result').textContent(), /Oslo/);
  await assertNowhere(page, [token]);
  assert.deepEqual(unexpected(errors), []);
  await context.close();
  child.kill();
});

const AXE = path.join(root, 'node_modules', 'axe-core', 'axe.min.js');

test('axe-core: the MCP section has no serious or critical violation, light and dark; screenshots at 1440 and 390 px', async () => {
  const out = path.join(root, 'target', 'screenshots');
  fs.mkdirSync(out, { recursive: true });
  const found = {};
  for (const scheme of ['light', 'dark']) {
    for (const width of [1440, 390]) {
      // The page's CSP refuses injected scripts: the test context bypasses it for axe only.
      const { context, page } = await openApp(browser, url, { colorScheme: scheme, bypassCSP: true, viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      await page.getByRole('tab', { name: 'Live' }).click();
      const card = await connect(page, srv.legacy);
      await card.getByTestId('mcp-use').click();
      await card.getByTestId('mcp-cost').waitFor();
      const weather = card.getByTestId('mcp-tool-get_weather');
      await weather.locator('summary').first().click();
      await weather.getByLabel('city (required)').fill('Paris');
      await weather.getByRole('button', { name: 'Call' }).click();
      await weather.getByTestId('mcp-result').waitFor();
      const media = card.getByTestId('mcp-tool-media.sample');
      await media.locator('summary').first().click();
      await media.getByRole('button', { name: 'Call' }).click();
      await media.getByTestId('mcp-result').waitFor();
      await connect(page, srv.nocors);
      await page.addScriptTag({ path: AXE });
      const v = await page.evaluate(async () => {
        const res = await window.axe.run({ include: [['[data-testid="mcp"]']] }, { resultTypes: ['violations'] });
        return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
      });
      const serious = v.filter((x) => x.impact === 'serious' || x.impact === 'critical');
      if (serious.length) found[`${scheme}-${width}`] = serious;
      // No part of the section wider than the page.
      const overflow = await page.evaluate(() => {
        const s = document.querySelector('[data-testid="mcp"]');
        return s.scrollWidth - s.clientWidth;
      });
      assert.ok(overflow <= 1, `${scheme} ${width}px: the MCP section scrolls sideways by ${overflow}px`);
      await section(page).screenshot({ path: path.join(out, `mcp-${scheme}-${width}.png`) });
      await context.close();
    }
  }
  assert.deepEqual(found, {}, JSON.stringify(found, null, 1));
});
