// End-to-end: the Cost view. Its rows equal `toolscope tokens --json --model <id>` (the debug CLI
// binary, run here) for the exchange the page holds; an edit of a tool description changes the
// count; "Count exactly" asks the stand-in's counting endpoints and shows their figure; a chat
// template and tokenizer served by the stand-in (tests/fixtures/hf) render and count the exchange.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, openApp, pasteInto } from './serve.mjs';
import { startStandin, KEY } from './standin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The served page, the browser and the provider stand-in, for every test of this file. */
const env = {};
before(async () => Object.assign(env, await serveDist(), { browser: await launch(), standin: await startStandin({ delayMs: 0 }) }));
after(() => Promise.all([env.browser?.close(), env.server?.close(), env.standin?.close()]));
const open = () => openApp(env.browser, env.url);

/** The debug CLI, built if missing. */
function cli() {
  const bin = path.join(root, 'target', 'debug', 'toolscope');
  if (!fs.existsSync(bin)) execFileSync('cargo', ['build', '--bin', 'toolscope'], { cwd: root, stdio: 'inherit' });
  return bin;
}

/** Open the Cost view and wait for figures counted with the vocabularies. */
async function openCost(page) {
  await page.getByRole('tab', { name: 'Cost' }).click();
  await page.waitForSelector('[data-testid="cost-view"][data-vocab="ready"][data-computed="true"]');
  await page.waitForSelector('[data-testid="cost-row"]');
}

/** The rows as the page shows them. */
const rows = (page) =>
  page.$$eval('[data-testid="cost-row"]', (trs) =>
    trs.map((r) => ({
      model: r.dataset.model,
      tools: Number(r.dataset.tools),
      messages: Number(r.dataset.messages),
      total: Number(r.dataset.total),
      exact: r.dataset.exact === 'true',
    })),
  );

/** The page's exchange as canonical JSON (the canonical editor's text). */
async function canonical(page) {
  await page.getByRole('tab', { name: 'Canonical JSON' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="canonical-editor"]')?.toolscopeEditor);
  return page.$eval('[data-testid="canonical-editor"]', (el) => el.toolscopeEditor.getDoc());
}

test('the Cost view shows the numbers of toolscope tokens --json, per model', async () => {
  const { context, page, errors } = await open();
  await openCost(page);
  const shown = await rows(page);
  assert.ok(shown.length >= 9, `rows: ${shown.length}`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cost-')), 'x.json');
  fs.writeFileSync(file, await canonical(page));
  const bin = cli();
  for (const r of shown) {
    const [want] = JSON.parse(execFileSync(bin, ['tokens', '--json', '--model', r.model, file], { encoding: 'utf8' }));
    assert.deepEqual(r, { model: want.model, tools: want.tools, messages: want.messages, total: want.total, exact: want.exact }, r.model);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('editing a tool description changes the count; hovering a tool marks it in the rendering', async () => {
  const { context, page, errors } = await open();
  await openCost(page);
  const before = (await rows(page)).find((r) => r.model === 'gpt-4o');
  const text = await canonical(page);
  const x = JSON.parse(text);
  x.tools[0].description = `${x.tools[0].description ?? ''} Always answer in Celsius, unless the user asks otherwise.`;
  await pasteInto(page, 'canonical-editor', JSON.stringify(x, null, 2));
  await page.getByRole('tab', { name: 'Cost' }).click();
  await page.waitForFunction(
    (t) => Number(document.querySelector('[data-testid="cost-row"][data-model="gpt-4o"]')?.dataset.tools) > t,
    before.tools,
  );
  const after = (await rows(page)).find((r) => r.model === 'gpt-4o');
  assert.ok(after.tools > before.tools && after.total > before.total, JSON.stringify({ before, after }));
  // Per tool: bars, sorted by cost; hovering one highlights it.
  const bars = await page.$$eval('[data-testid="cost-tool"]', (li) => li.map((l) => Number(l.dataset.tokens)));
  assert.ok(bars.length >= 1);
  assert.deepEqual(bars, [...bars].sort((a, b) => b - a));
  await page.hover('[data-testid="cost-tool"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="cost-view"] style')?.textContent.includes('data-tool-index'));
  await page.waitForSelector('[data-testid="cost-reads"] .cm-editor');
  // The chart has one group per round.
  assert.ok((await page.$$('[data-testid="cost-round"]')).length >= 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Count exactly asks the provider (the stand-in) and shows its figure beside the offline one', async () => {
  const { context, page, errors } = await open();
  await page.getByRole('tab', { name: 'Live' }).click();
  const live = page.getByTestId('live');
  await live.getByLabel('Provider', { exact: true }).selectOption('anthropic');
  await live.getByLabel('Base URL', { exact: true }).fill(env.standin.url);
  await live.getByLabel('API key', { exact: true }).fill(KEY);
  await openCost(page);
  env.standin.reset();
  const row = page.locator('[data-testid="cost-row"][data-model="claude-sonnet-4-5"]');
  await row.getByTestId('count-exact').click();
  const got = row.getByTestId('count-exact-result');
  await got.waitFor();
  const sent = env.standin.log.find((e) => e.method === 'POST' && e.path === '/v1/messages/count_tokens');
  assert.ok(sent, 'the stand-in was asked');
  assert.equal(sent.status, 200, sent.body);
  assert.equal(sent.headers['anthropic-dangerous-direct-browser-access'], 'true');
  assert.equal(Number(await got.getAttribute('data-count')), sent.count);
  assert.equal(JSON.parse(sent.body).model, 'claude-sonnet-4-5');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an open-weight model: the stand-in serves its template and tokenizer; the exchange renders and counts', async () => {
  const { context, page, errors } = await open();
  await openCost(page);
  const hf = page.getByTestId('hf');
  await hf.locator('summary').click();
  await hf.getByTestId('hf-base').fill(`${env.standin.url}/hf`);
  await hf.getByTestId('hf-model').fill('toolscope/tiny-bpe');
  await hf.getByTestId('hf-load').click();
  // The example's call ids are not the 9 characters this (Mistral-style) tool template demands:
  // its error is shown at its line.
  const failed = hf.getByTestId('hf-error');
  await failed.waitFor();
  assert.ok(Number(await failed.getAttribute('data-line')) > 0);
  assert.match(await failed.innerText(), /Tool call ids must be 9 characters long/);
  // An exchange it takes: rendered and counted, again on every edit.
  const fixture = fs.readFileSync(path.join(root, 'tests/fixtures/hf/exchange.json'), 'utf8');
  await page.getByRole('tab', { name: 'Canonical JSON' }).click();
  await pasteInto(page, 'canonical-editor', fixture);
  const count = hf.locator('[data-testid="hf-count"][data-tokens]');
  await count.waitFor({ state: 'attached' });
  const tokens = Number(await count.getAttribute('data-tokens'));
  assert.ok(tokens > 0, `tokens: ${tokens}`);
  await page.waitForFunction(() => document.querySelector('[data-testid="hf-rendered"]')?.toolscopeEditor);
  const rendered = await page.$eval('[data-testid="hf-rendered"]', (el) => el.toolscopeEditor.getDoc());
  assert.ok(rendered.includes(JSON.parse(fixture).tools[0].name), 'the tool is in the rendered prompt');
  assert.ok(env.standin.log.some((e) => e.path.endsWith('/tokenizer.json') && e.status === 200));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link carries the Cost view open and the models picked; it opens on the Cost view', async () => {
  const { context, page, errors } = await open();
  await openCost(page);
  await page.getByTestId('cost-add-model').fill('gpt-4.1-mini');
  await page.getByTestId('cost-add-model').press('Enter');
  await page.waitForSelector('[data-testid="cost-row"][data-model="gpt-4.1-mini"].chosen');
  await page.getByTestId('share').click();
  await page.getByTestId('notice').filter({ hasText: 'Link copied' }).waitFor();
  const link = await page.evaluate(() => location.href);
  // A new browser context: nothing of the first page's storage.
  const reopened = await env.browser.newContext();
  const fresh = await reopened.newPage();
  const freshErrors = [];
  fresh.on('pageerror', (e) => freshErrors.push(e.message));
  await fresh.goto(link);
  await fresh.waitForSelector('[data-testid="cost-view"][data-computed="true"]');
  await fresh.waitForSelector('[data-testid="cost-row"][data-model="gpt-4.1-mini"].chosen');
  assert.equal(await fresh.getByTestId('tab-cost').getAttribute('aria-selected'), 'true');
  assert.deepEqual(freshErrors, []);
  assert.deepEqual(errors, []);
  await reopened.close();
  await context.close();
});
