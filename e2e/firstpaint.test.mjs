// End-to-end: the first load. dist/index.html carries the first example's panes as static text
// (`toolscope prerender`, run by `make dist`), so the page shows them without JavaScript and
// before the wasm; the wasm replaces that shell without leaving a second one. Every file has
// .br/.gz twins, sent with Content-Encoding. A service worker caches the build on the first
// visit, so a second visit works offline, and a new build is announced, not swapped in. What
// the first view does not need (the lazy module: snippets, cost) loads on first use.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, openApp } from './serve.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

let server;
let url;
let overrides;
let browser;

before(async () => {
  ({ server, url, overrides } = await serveDist());
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** GET a path with the given Accept-Encoding: status, headers, body bytes. */
function get(rel, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(rel, url), { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The pane texts of the static shell or of the app (plain text areas or CodeMirror). */
const paneTexts = (page, root) =>
  page.$$eval(`${root} .pane-grid .pane`, (panes) =>
    panes.map((p) => {
      const code = p.querySelector('.code');
      const text = code.toolscopeEditor ? code.toolscopeEditor.getDoc() : code.querySelector('textarea')?.value;
      return [p.dataset.format, text];
    }),
  );

test('with JavaScript disabled, the page shows the first example in every pane', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  const panes = await paneTexts(page, '#prerender');
  assert.ok(panes.length >= 10, `${panes.length} panes`);
  const byFormat = Object.fromEntries(panes);
  assert.match(byFormat['openai-chat'], /"tool_calls"/);
  assert.match(byFormat['openai-chat'], /get_weather/);
  assert.match(byFormat.anthropic, /"tool_use"/);
  assert.match(byFormat.gemini, /"functionCall"/);
  for (const [f, text] of panes) assert.ok(text.length > 50, `${f} is empty`);
  // Visible, not only present: the grid lays out and the first pane's text area has a size.
  const box = await page.locator('#prerender [data-format="openai-chat"] textarea').boundingBox();
  assert.ok(box && box.width > 100 && box.height > 50, JSON.stringify(box));
  assert.match(await page.locator('#prerender .left').textContent(), /get_weather/);
  assert.match(await page.locator('noscript').textContent(), /enable JavaScript to edit/);
  await context.close();
});

test('the first HTML bytes hold the panes; the wasm takes over with no second shell, and editing works', async () => {
  // What a browser gets before any script or stylesheet: the pane text and the styles inline.
  const html = (await get('/', 'identity')).body.toString('utf8');
  assert.match(html, /<div id="prerender"/);
  assert.match(html, /<style data-inline>/);
  assert.doesNotMatch(html, /<link rel="stylesheet"/);
  const { context, page, errors } = await openApp(browser, url);
  assert.equal(await page.locator('#prerender').count(), 0);
  assert.equal(await page.locator('header.topbar').count(), 1);
  assert.equal(await page.locator('.pane-grid').count(), 1);
  assert.equal(await page.locator('main.workspace').count(), 1);
  // The app shows the same texts the shell showed (nothing jumps but the editor chrome).
  const shell = new Map();
  for (const m of html.matchAll(/data-format="([^"]+)"[\s\S]*?<textarea class="code-fallback"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    shell.set(m[1], m[2].replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  }
  const app = await paneTexts(page, 'main');
  assert.equal(app.length, shell.size);
  for (const [f, text] of app) assert.equal(text, shell.get(f), `${f} differs from its first paint`);
  // It is the app: an edit reaches the panes.
  await page.getByTestId('system').fill('FIRST PAINT SYSTEM');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="editor-anthropic"]')?.toolscopeEditor?.getDoc().includes('FIRST PAINT SYSTEM'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('with saved work or a link, the static first example is not shown as the reader\'s', async () => {
  // Work saved by a first visit (no service worker, so every request below is the network's).
  const { context, page } = await openApp(browser, url, { serviceWorkers: 'block' });
  await page.getByTestId('system').fill('MY SAVED SYSTEM PROMPT');
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('toolscope.work.') && localStorage.getItem(k).length > 0));
  // A reload with the wasm held back: the static paint is what the reader sees meanwhile.
  let release;
  const held = new Promise((r) => (release = r));
  await page.route(/toolscope[^/]*\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  const visible = (sel) => page.locator(sel).isVisible();
  await page.reload({ waitUntil: 'domcontentloaded' });
  assert.equal(await page.locator('#prerender').count(), 1);
  assert.ok(await visible('#prerender .opening-note .for-saved'));
  assert.equal(await visible('#prerender .opening-note .for-link'), false);
  assert.equal(await visible('#prerender [data-format="openai-chat"] textarea'), false);
  // The top bar stays, so nothing but the workspace changes when the app arrives.
  assert.ok(await visible('#prerender header.topbar'));
  release();
  await page.waitForFunction(() => !document.getElementById('prerender'));
  assert.equal(await page.getByTestId('system').inputValue(), 'MY SAVED SYSTEM PROMPT');
  await context.close();

  // A link's first reader (nothing saved): told the link is opening.
  const fresh = await browser.newContext({ serviceWorkers: 'block' });
  const reader = await fresh.newPage();
  await reader.route(/toolscope[^/]*\.wasm$/, () => new Promise(() => {}));
  await reader.goto(`${url}#v2.AAAA`, { waitUntil: 'domcontentloaded' });
  assert.ok(await reader.locator('#prerender .opening-note .for-link').isVisible());
  assert.equal(await reader.locator('#prerender .opening-note .for-saved').isVisible(), false);
  assert.equal(await reader.locator('#prerender [data-format="openai-chat"] textarea').isVisible(), false);
  await fresh.close();

  // A first visit sees the example's panes and no note.
  const first = await browser.newContext({ serviceWorkers: 'block' });
  const newcomer = await first.newPage();
  await newcomer.route(/toolscope[^/]*\.wasm$/, () => new Promise(() => {}));
  await newcomer.goto(url, { waitUntil: 'domcontentloaded' });
  assert.equal(await newcomer.locator('#prerender .opening-note').isVisible(), false);
  assert.ok(await newcomer.locator('#prerender [data-format="openai-chat"] textarea').isVisible());
  await first.close();
});

test('precompressed files are sent with Content-Encoding when accepted', async () => {
  const wasm = fs.readdirSync(dist).find((f) => f.endsWith('.wasm'));
  const raw = fs.readFileSync(path.join(dist, wasm));
  for (const [encoding, decode] of [['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]]) {
    const r = await get(`/${wasm}`, `${encoding}`);
    assert.equal(r.headers['content-encoding'], encoding);
    assert.equal(r.headers.vary, 'accept-encoding');
    assert.ok(r.body.length < raw.length / 2, `${encoding}: ${r.body.length} of ${raw.length}`);
    assert.ok(decode(r.body).equals(raw));
  }
  const plain = await get(`/${wasm}`);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(raw));
  for (const f of ['index.html', 'editor.js', 'sw.js']) {
    assert.ok(fs.existsSync(path.join(dist, `${f}.br`)), `${f}.br`);
    assert.ok(fs.existsSync(path.join(dist, `${f}.gz`)), `${f}.gz`);
  }
});

/** Open the app and wait until the service worker runs the page (its cache is full). */
async function controlled(options = {}) {
  const opened = await openApp(browser, url, options);
  await opened.page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return opened;
}

test('a second visit works offline, from the service worker', async () => {
  const { context, page, errors } = await controlled();
  // The cache holds this build's files only: no API call, nothing from another origin.
  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const c = await caches.open(keys[0]);
    return { keys, urls: (await c.keys()).map((r) => r.url) };
  });
  assert.equal(cached.keys.length, 1);
  assert.ok(cached.urls.every((u) => u.startsWith(url)), cached.urls.join(' '));
  assert.ok(cached.urls.some((u) => u.endsWith('.wasm')));
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('.pane .cm-editor');
  await page.waitForFunction(() => !document.getElementById('prerender'));
  await page.getByTestId('system').fill('OFFLINE EDIT');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="editor-gemini"]')?.toolscopeEditor?.getDoc().includes('OFFLINE EDIT'));
  assert.deepEqual(errors, []);
  // Something the build does not have is not made up by the worker: it goes to the network.
  const missing = await page.evaluate(() => fetch('not-in-the-build.json').then((r) => r.status, () => 'failed'));
  assert.equal(missing, 'failed');
  await context.close();
});

test('a new build is announced, not swapped in, and Reload brings it', async () => {
  const { context, page } = await controlled();
  const before = await page.evaluate(() => caches.keys());
  // A new deployment: another sw.js (its version is what changes with every build).
  const current = fs.readFileSync(path.join(dist, 'sw.js'), 'utf8');
  overrides.set('/sw.js', current.replace(/const VERSION = "([^"]+)"/, 'const VERSION = "$1-next"'));
  try {
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const banner = page.getByTestId('update-banner');
    await banner.waitFor();
    assert.match(await banner.textContent(), /new version/);
    // Still the old version running the page until the reader chooses.
    assert.deepEqual(await page.evaluate(() => caches.keys()).then((k) => k.filter((x) => before.includes(x))), before);
    await page.getByTestId('system').fill('KEPT ACROSS THE UPDATE');
    await page.waitForTimeout(500);
    await Promise.all([page.waitForEvent('load'), page.getByTestId('update-reload').click()]);
    await page.waitForSelector('.pane .cm-editor');
    const after = await page.evaluate(() => caches.keys());
    assert.deepEqual(after, before.map((k) => `${k}-next`));
    assert.equal(await page.getByTestId('update-banner').count(), 0);
    assert.equal(await page.getByTestId('system').inputValue(), 'KEPT ACROSS THE UPDATE');
  } finally {
    overrides.delete('/sw.js');
    await context.close();
  }
});

test('the lazy module loads on first use (Copy as code), not before, and makes the snippet', async () => {
  const { context, page, errors } = await openApp(browser, url, { permissions: ['clipboard-read', 'clipboard-write'] });
  const lazy = [];
  page.on('request', (r) => {
    if (/\/lazy\//.test(r.url())) lazy.push(r.url());
  });
  const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/lazy\/.*\.wasm$/.test(e.name)));
  assert.equal(await loaded(), false, 'the lazy module came with the first view');
  await page.getByTestId('copy-as-gemini').click();
  await page.getByTestId('copy-python-gemini').click();
  await page.getByTestId('notice').filter({ hasText: 'Python snippet' }).waitFor();
  assert.equal(await loaded(), true);
  assert.ok(lazy.some((u) => u.endsWith('.wasm')), lazy.join(' '));
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(clip, /generativelanguage\.googleapis\.com/);
  assert.match(clip, /get_weather/);
  assert.deepEqual(errors, []);
  await context.close();
});
