// A static server for dist/ on 127.0.0.1 (port 0: the OS picks a free one), and a Chromium
// launcher with the flags this machine needs. Shared by the end-to-end tests and screenshots.
// It sends the response headers of dist/_headers (written by scripts/csp.mjs for static hosts),
// read from that file so the tests see what a host configured from it sends, and the .br / .gz
// files `make dist` writes, with Content-Encoding, to a browser that accepts them (as nginx's
// brotli_static / gzip_static do), so tests and measurements see real transfer sizes.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { readHeaders } from '../scripts/headers.mjs';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const types = {
  '.mjs': 'text/javascript',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serve dist/ with the headers of dist/_headers (`{ headers: false }`: a host that sends
 * none); resolves to { server, url, overrides }: a path put in `overrides` (`'/sw.js'` →
 * text) is served with that body instead of the file, as a new deployment would. `root`:
 * another built page (scripts/bench-load.mjs compares two builds). */
export async function serveDist({ headers = true, root = distDir } = {}) {
  const overrides = new Map();
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`${root}/index.html missing: run \`make dist\` first`);
  }
  const file = path.join(root, '_headers');
  const extra = headers && fs.existsSync(file) ? Object.fromEntries(readHeaders(file)) : {};
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    const type = { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' };
    const override = overrides.get(url.pathname);
    if (override !== undefined) {
      res.writeHead(200, { ...extra, ...type, 'cache-control': 'no-cache' });
      res.end(override);
      return;
    }
    const accepts = (req.headers['accept-encoding'] ?? '').split(',').map((e) => e.trim().split(';')[0]);
    const encoding = [['br', '.br'], ['gzip', '.gz']].find(([e, ext]) => accepts.includes(e) && fs.existsSync(file + ext));
    fs.readFile(encoding ? file + encoding[1] : file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      const coding = encoding ? { 'content-encoding': encoding[0] } : {};
      res.writeHead(200, { ...extra, ...type, ...coding, vary: 'accept-encoding' });
      res.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/`, overrides };
}

/** Headless Debian Chromium with the flags that keep it off the (closed) network. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that records console errors and page errors into `errors`. */
export async function openApp(browser, url, options = {}) {
  const { noEditor, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  // The app's panes, not the static first paint it replaces (#prerender).
  await page.waitForSelector('.pane-grid .pane');
  await page.waitForFunction(() => !document.getElementById('prerender'));
  // The code editor arrives lazily; wait for it unless the test wants the first paint.
  if (!options.noEditor) {
    await page.waitForSelector('.pane .cm-editor');
    // Every editor upgraded (no fallback text area left), so nothing shifts under a click.
    await page.waitForFunction(() => !document.querySelector('.code-fallback'));
  }
  return { context, page, errors };
}

/** Replace a code editor's whole text as a paste would (one transaction through CodeMirror),
 * once the editor exists: editors are created in turn, so a pane just shown may still be a
 * plain text area. */
export async function pasteInto(page, testid, text) {
  await page.waitForFunction((t) => document.querySelector(`[data-testid="${t}"]`)?.toolscopeEditor, testid);
  await page.$eval(`[data-testid="${testid}"]`, (el, t) => {
    const v = el.toolscopeEditor.view;
    v.focus();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t }, userEvent: 'input.paste' });
  }, text);
}

/** v2 links' preset dictionary, read from the file the Rust source freezes it in
 * (src/share/v2.dictionary.txt), so the tests decode links exactly as the page does. */
function linkDictionary() {
  return fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/share/v2.dictionary.txt'));
}

/** The state JSON a link fragment or a stored state holds (`v1.` or `v2.`, with or without
 * the `#`); any other text is returned as it is (a state file). */
export function linkText(fragment) {
  const t = fragment.replace(/^#/, '');
  const packed = () => Buffer.from(t.slice(3), 'base64url');
  if (t.startsWith('v1.')) return zlib.inflateRawSync(packed()).toString('utf8');
  if (t.startsWith('v2.')) return zlib.inflateRawSync(packed(), { dictionary: linkDictionary() }).toString('utf8');
  return t;
}
