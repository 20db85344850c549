// End-to-end: a pane says, before anything is sent, that its provider will reject the request,
// in the provider's own words, and its one-click fix clears it (with Undo). The example "send_email
// with an array of addresses" ends with the model's call and no result: OpenAI rejects that
// request ("An assistant message with 'tool_calls' must be followed by tool messages…").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, stopApp } from './suite.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

test('a pane shows "will be rejected" with the provider\'s words, and the fix clears it (Undo brings it back)', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url);
    await page.waitForSelector('.pane-grid .pane');
    await page.waitForFunction(() => !document.getElementById('prerender'));
    // The first example is a complete loop: no provider rule is broken.
    await page.getByTestId('lint-badge-openai-chat').waitFor();
    assert.doesNotMatch(await page.getByTestId('lint-badge-openai-chat').textContent(), /will be rejected/);

    await page.getByTestId('gallery').selectOption('nested_schema');
    const badge = page.getByTestId('lint-badge-openai-chat');
    await page.waitForFunction(() => /will be rejected: 1/.test(document.querySelector('[data-testid="lint-badge-openai-chat"]')?.textContent ?? ''));
    assert.match(await badge.textContent(), /will be rejected: 1/);
    const rules = page.getByTestId('rules-openai-chat');
    await rules.waitFor();
    const finding = rules.locator('[data-rule="openai-chat/tool-call-answered"]');
    assert.equal(await finding.count(), 1);
    // The provider's own words, and where the element is in the pane's document.
    assert.match(await finding.getByTestId('rule-words').textContent(), /must be followed by tool messages responding to each 'tool_call_id'/);
    assert.match(await finding.textContent(), /line \d+/);
    // A Mistral pane meets the same rule in its own spelling of the document.
    await page.getByTestId('rules-mistral').waitFor();

    fs.mkdirSync(path.join(root, 'target', 'screenshots'), { recursive: true });
    await page.getByTestId('pane-openai-chat').screenshot({ path: path.join(root, 'target', 'screenshots', 'rules-openai-chat.png') });

    await finding.getByTestId('rule-fix').click();
    await page.waitForFunction(() => !/will be rejected/.test(document.querySelector('[data-testid="lint-badge-openai-chat"]')?.textContent ?? 'will be rejected'));
    assert.equal(await page.getByTestId('rules-openai-chat').count(), 0);
    // The fix answered the call with an error result, in every pane: the exchange changed.
    assert.match(await page.getByTestId('notice').textContent(), /Fixed for OpenAI/);
    await page.getByTestId('pane-openai-chat').screenshot({ path: path.join(root, 'target', 'screenshots', 'rules-openai-chat-fixed.png') });

    await page.getByTestId('notice-undo').click();
    await page.waitForFunction(() => /will be rejected: 1/.test(document.querySelector('[data-testid="lint-badge-openai-chat"]')?.textContent ?? ''));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
