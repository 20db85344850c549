// End-to-end: the page as a static host serves it. dist/_headers (scripts/csp.mjs) carries the
// CSP with frame-ancestors 'none' (a <meta> policy cannot), nosniff and no-referrer, and the
// test server sends exactly those: a cross-origin frame does not render the app. On a host that
// sends no headers, the framed app renders but its Live tab refuses keys. And editor.js ships
// with the licence of every npm package esbuild bundled into it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serveDist, launch } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let server;
let url;
let bare;
let bareUrl;
let framer;
let framerUrl;
let browser;

before(async () => {
  ({ server, url } = await serveDist());
  ({ server: bare, url: bareUrl } = await serveDist({ headers: false }));
  // Another origin (another port) whose page frames whatever ?src= names.
  framer = http.createServer((req, res) => {
    const src = new URL(req.url, 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>framer</title><iframe id="f" src="${src.replaceAll('"', '&quot;')}" width="1200" height="800"></iframe>`);
  });
  await new Promise((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerUrl = `http://127.0.0.1:${framer.address().port}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  bare?.close();
  framer?.close();
});

/** GET a path of the served page: status, headers, body. */
function get(base, rel) {
  return new Promise((resolve, reject) => {
    http.get(new URL(rel, base), (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    }).on('error', reject);
  });
}

test('dist/_headers holds the CSP with frame-ancestors, nosniff and no-referrer, and they are sent', async () => {
  const file = fs.readFileSync(path.join(root, 'dist', '_headers'), 'utf8');
  assert.match(file, /^\/\*$/m);
  const { status, headers, body } = await get(url, '/');
  assert.equal(status, 200);
  const csp = headers['content-security-policy'];
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /default-src 'none'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['x-frame-options'], 'DENY');
  // The header policy is the page's <meta> policy plus what only a header can say.
  const meta = body.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)[1];
  assert.equal(csp, `${meta}; frame-ancestors 'none'`);
  assert.ok(file.includes(csp), 'the server sends what _headers says');
  // Every file gets them (the wasm and editor.js too).
  const js = await get(url, '/editor.js');
  assert.equal(js.headers['x-content-type-options'], 'nosniff');
});

test('a cross-origin frame does not render the app', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const refused = new Promise((resolve) => page.on('console', (m) => {
    if (/frame-ancestors|Refused to (display|frame)/i.test(m.text())) resolve(m.text());
  }));
  await page.goto(`${framerUrl}?src=${encodeURIComponent(url)}`);
  // The browser says why it refused (bounded wait: without the headers no message comes).
  const said = await Promise.race([refused, new Promise((resolve) => setTimeout(() => resolve(''), 15000))]);
  assert.match(said, /frame-ancestors/);
  const child = page.frames().find((f) => f !== page.mainFrame());
  const rendered = child ? await child.evaluate(() => !!document.querySelector('.pane-grid')).catch(() => false) : false;
  assert.equal(rendered, false, 'the app rendered inside a foreign frame');
  await context.close();
});

test('framed anyway (a host without the headers): the app renders, its Live tab refuses keys', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${framerUrl}?src=${encodeURIComponent(bareUrl)}`);
  const frame = page.frameLocator('#f');
  await frame.locator('.pane-grid .pane').first().waitFor();
  await frame.getByRole('tab', { name: 'Live' }).click();
  await frame.getByTestId('live-framed').waitFor();
  assert.match(await frame.getByTestId('live-framed').textContent(), /keys are refused/);
  assert.equal(await frame.getByTestId('live-key').isDisabled(), true);
  await context.close();
  // Not framed: the same host's page takes keys.
  const own = await browser.newContext();
  const p2 = await own.newPage();
  await p2.goto(bareUrl);
  await p2.getByRole('tab', { name: 'Live' }).click();
  await p2.getByTestId('live-key').waitFor();
  assert.equal(await p2.getByTestId('live-key').isDisabled(), false);
  assert.equal(await p2.getByTestId('live-framed').count(), 0);
  await own.close();
});

test('editor.js ships the licence of every npm package bundled into it', async () => {
  // Ask esbuild itself what goes in (the same entry and options as scripts/bundle-editor.mjs).
  const { metafile } = await build({
    entryPoints: [path.join(root, 'js/editor.js')],
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const parts = input.split('/');
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const n = parts[at + 1].startsWith('@') ? 2 : 1;
    packages.set(parts.slice(at + 1, at + 1 + n).join('/'), path.join(root, ...parts.slice(0, at + 1 + n)));
  }
  assert.ok(packages.size >= 10, `${packages.size} packages`);
  const editor = await get(url, '/editor.js');
  assert.match(editor.body.slice(0, 300), /Their licences: editor\.js\.LICENSES\.txt/);
  const notices = await get(url, '/editor.js.LICENSES.txt');
  assert.equal(notices.status, 200);
  const pkgJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const [name, dir] of packages) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    assert.ok(notices.body.includes(`${name} ${pkg.version} (`), `${name} ${pkg.version} not in the notices`);
    const licence = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    assert.ok(licence, `${name} has no LICENSE file`);
    const text = fs.readFileSync(path.join(dir, licence), 'utf8').trim();
    assert.ok(notices.body.includes(text), `${name}'s licence text is not in the notices`);
    // What ships is a production dependency, so `npm audit --omit=dev` sees it.
    assert.ok(!pkgJson.devDependencies?.[name], `${name} ships but is a dev dependency`);
  }
  for (const name of Object.keys(pkgJson.dependencies)) {
    assert.ok(name.startsWith('@codemirror/') || name.startsWith('@lezer/'), `${name} is a dependency but does not ship`);
  }
});
