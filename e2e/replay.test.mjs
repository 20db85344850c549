// End-to-end: the replay view steps through real recorded streams in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPage, startApp, stopApp } from './suite.mjs';

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

/** tests/fixtures/recorded of the repository (NOTICE.md there says where they come from). */
function recorded(rel) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  return fs.readFileSync(path.join(root, 'tests', 'fixtures', 'recorded', rel), 'utf8');
}

async function loadStream(page, text) {
  await page.getByTestId('tab-replay').click();
  await page.locator('[data-testid="stream-input"] .cm-editor').waitFor();
  await page.$eval('[data-testid="stream-input"]', (el, t) => {
    const v = el.toolscopeEditor.view;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
  }, text);
}

const args = (page, i) => page.getByTestId(`call-args-${i}`).textContent();

test('a recorded Anthropic stream steps forward and the arguments grow', () => onPage(browser, url, async (page) => {
  const text = recorded('anthropic/anthropic-json-tool.1.jsonl');
  await loadStream(page, text);
  await page.getByTestId('replay-summary').filter({ hasText: 'Anthropic' }).waitFor();
  assert.match(await page.getByTestId('replay-summary').textContent(), /9 events · complete/);
  const seen = [];
  for (let i = 0; i < 8; i++) {
    await page.getByTestId('step-forward').click();
    if (await page.getByTestId('call-args-0').count()) seen.push(await args(page, 0));
  }
  assert.ok(seen.length >= 3, `a call appears: ${seen}`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].startsWith(seen[i - 1]), `grows: ${seen[i - 1]} → ${seen[i]}`);
  assert.ok(seen[seen.length - 1].length > seen[0].length);
  // The partial JSON is parsed as far as it goes, and at the end it is the whole value.
  const parsed = JSON.parse(await page.getByTestId('call-parsed-0').textContent());
  assert.equal(parsed.elements[0].location, 'San Francisco');
  assert.match(await page.getByTestId('step-label').textContent(), /event 9 of 9/);
  // Back one step: the state goes back too.
  await page.getByTestId('step-first').click();
  assert.equal(await page.getByTestId('call-args-0').count(), 0);
}));

test('an OpenAI chat stream: seek, play to the end, and append the turn to the conversation', () => onPage(browser, url, async (page) => {
  await loadStream(page, recorded('openai-chat/groq-tool-call.jsonl'));
  await page.getByTestId('replay-summary').filter({ hasText: 'OpenAI Chat' }).waitFor();
  await page.getByTestId('play').click();
  await page.getByTestId('step-label').filter({ hasText: /event 3 of 3/ }).waitFor();
  assert.match(await page.getByTestId('assembled-doc').textContent(), /"name": "weather"/);
  await page.getByTestId('assembled-format').selectOption('anthropic');
  assert.match(await page.getByTestId('assembled-doc').textContent(), /"type": "tool_use"/);
  await page.getByTestId('append-turn').click();
  await page.getByTestId('pane-gemini').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-gemini"]')?.toolscopeEditor?.getDoc().includes('"weather"'));
}));

test('anomalies show: interleaved calls, a cut stream, invalid final arguments with a repair', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tab-replay').click();
  for (const [id, kind] of [['chat-interleaved', 'interleaved'], ['anthropic-cut', 'cut'], ['anthropic-invalid-args', 'invalid']]) {
    await page.getByTestId('stream-gallery').selectOption(id);
    await page.getByTestId('step-last').click();
    const list = await page.getByTestId('assembled').getByTestId('anomalies').textContent();
    assert.match(list, new RegExp(kind), id);
  }
  assert.match(await page.getByTestId('replay-summary').textContent(), /Anthropic/);
  // The repair is offered, visible, and applied only when asked.
  assert.match(await page.getByTestId('assembled').getByTestId('repair').first().textContent(), /Proposed repair/);
  const before = await page.getByTestId('assembled-doc').textContent();
  await page.getByTestId('apply-repair').check();
  const after = await page.getByTestId('assembled-doc').textContent();
  assert.notEqual(after, before);
  assert.ok(JSON.parse(after).content.some((b) => b.type === 'tool_use' && Object.keys(b.input).length > 0), after);
}));

test('garbage input shows an error and keeps the last stream', () => onPage(browser, url, async (page) => {
  await loadStream(page, recorded('bedrock/amazon-bedrock-tool-call.1.jsonl'));
  await page.getByTestId('replay-summary').filter({ hasText: 'Bedrock' }).waitFor();
  await loadStream(page, 'this is { not a stream');
  await page.getByTestId('stream-error').waitFor();
  assert.match(await page.getByTestId('replay-summary').textContent(), /Bedrock/);
}));

test('the streams view shows every protocol for the current turn, and a replay travels in a link', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tab-streams').click();
  for (const p of ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock', 'cohere', 'ollama']) {
    assert.equal(await page.getByTestId(`stream-${p}`).count(), 1, p);
  }
  assert.match(await page.getByTestId('stream-anthropic').textContent(), /content_block_delta/);
  await loadStream(page, recorded('gemini/google-stream-tool-call-arguments.jsonl'));
  await page.getByTestId('replay-summary').filter({ hasText: 'Gemini' }).waitFor();
  await page.getByTestId('share').click();
  await page.getByTestId('notice').filter({ hasText: 'Link copied' }).waitFor();
  const link = await page.evaluate(() => location.href);
  const other = await browser.newContext();
  const fresh = await other.newPage();
  await fresh.goto(link);
  await fresh.getByTestId('replay-summary').filter({ hasText: 'Gemini' }).waitFor();
  await other.close();
}));
