// End-to-end: the main wasm in two parts (scripts/split.mjs). A first visit runs the primary
// part alone: the app mounts with the first example's panes from the build's first view
// (<html data-engine="loading">), the rest arrives after and the panes follow edits again. A
// function of the rest called before it arrived (a paste into a pane) loads it at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, pasteInto } from './serve.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const REST = /_bg\.rest\.wasm$/;

let server;
let url;
let browser;

before(async () => {
  ({ server, url } = await serveDist());
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A first visit (no service worker) with the rest's fetch ahead of use held until
 * `release()`; a synchronous load (XHR) passes. `seen`: the rest's requests, by type. */
async function firstVisit() {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const seen = [];
  await context.route(REST, async (route) => {
    seen.push(route.request().resourceType());
    if (route.request().resourceType() !== 'xhr') await held;
    await route.continue().catch(() => {});
  });
  const page = await context.newPage();
  const errors = [];
  const debug = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => (m.type() === 'error' ? errors : m.type() === 'debug' ? debug : []).push(m.text()));
  await page.goto(url);
  await page.waitForSelector('.pane-grid .pane');
  await page.waitForFunction(() => !document.getElementById('prerender'));
  return { context, page, errors, debug, release, seen };
}

/** The text of format `id`'s editor once it says `wanted`. */
function paneSays(page, id, wanted) {
  return page.waitForFunction(
    ([id, wanted]) => document.querySelector(`[data-testid="editor-${id}"]`)?.toolscopeEditor?.getDoc().includes(wanted),
    [id, wanted],
  );
}

test('the build is split: index.html loads the primary part, the rest is its own file', () => {
  const files = fs.readdirSync(dist);
  const rest = files.filter((f) => REST.test(f));
  assert.equal(rest.length, 1, files.join(' '));
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  assert.ok(!html.includes(rest[0]), 'index.html should not fetch the rest itself');
  const glue = files.find((f) => /^toolscope-[0-9a-f]+\.js$/.test(f));
  assert.match(fs.readFileSync(path.join(dist, glue), 'utf8'), new RegExp(rest[0].replace(/\./g, '\\.')));
  // The build's first view sits next to the static shell for the app to start from.
  assert.match(html, /<script type="application\/json" id="first-view">\{"panes":\[/);
});

test('a first visit runs before the rest arrives, then the panes follow edits', async () => {
  const { context, page, errors, release, seen } = await firstVisit();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.engine), 'loading');
  // The panes show the first example as the build encoded it, with their badges.
  await paneSays(page, 'openai-chat', 'get_weather');
  assert.match(await page.$eval('.pane[data-format="gemini"] .badge', (b) => b.textContent), /loss/);
  // The rest was asked for once the app had mounted, and only that once.
  assert.deepEqual(seen, ['fetch']);
  release();
  await page.waitForFunction(() => document.documentElement.dataset.engine === 'ready');
  await page.getByTestId('system').fill('AFTER THE REST');
  await paneSays(page, 'anthropic', 'AFTER THE REST');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a function of the rest called before it arrived loads it at once (a paste into a pane)', async () => {
  const { context, page, errors, debug, seen } = await firstVisit();
  const anthropic = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'PASTED BEFORE THE REST' }],
  });
  await pasteInto(page, 'editor-anthropic', anthropic);
  await page.waitForFunction(() => document.documentElement.dataset.engine === 'ready');
  await paneSays(page, 'openai-chat', 'PASTED BEFORE THE REST');
  // The fetch ahead of use is held: the rest came by the synchronous load (the paste's, or an
  // earlier call's on a slow machine).
  assert.ok(seen.includes('xhr'), seen.join(' '));
  assert.ok(debug.some((d) => /called before .* arrived/.test(d)), debug.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});
