// End-to-end: the release build in dist/, served on loopback, driven in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp } from './serve.mjs';

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

test('shell loads without errors and shows every format pane', async () => {
  const { context, page, errors } = await openApp(browser, url);
  assert.equal(await page.locator('h1').textContent(), 'Toolscope');
  assert.equal(await page.locator('footer').count(), 1);
  const formats = await page.locator('.pane').evaluateAll((ps) => ps.map((p) => p.dataset.format));
  assert.deepEqual(formats, [
    'openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock', 'mcp',
    'anthropic-xml', 'deepseek', 'mistral', 'cohere', 'ollama',
  ]);
  assert.match(await page.locator('.status').textContent(), /Canonical exchange/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('picking an example updates the editor and every pane', async () => {
  const { context, page, errors } = await openApp(browser, url);
  const before = await page.locator('[data-format="openai-chat"] .doc').textContent();
  await page.selectOption('#example', 'parallel_calls');
  await page.waitForFunction(() => document.querySelector('#exchange-input').value.includes('Oslo'));
  const after = await page.locator('[data-format="openai-chat"] .doc').textContent();
  assert.notEqual(after, before);
  assert.match(after, /Oslo/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('broken JSON shows line and column and keeps the last good panes', async () => {
  const { context, page, errors } = await openApp(browser, url);
  const good = await page.locator('[data-format="anthropic"] .doc').textContent();
  await page.fill('#exchange-input', '{\n  "messages": [\n    {"role": "user",, }\n  ]\n}');
  const alert = page.locator('.status.error');
  await alert.waitFor();
  assert.match(await alert.textContent(), /line 3, column \d+/);
  assert.equal(await page.locator('[data-format="anthropic"] .doc').textContent(), good);
  assert.deepEqual(errors, []);
  await context.close();
});

test('request/response switch re-encodes the panes', async () => {
  const { context, page, errors } = await openApp(browser, url);
  const request = await page.locator('[data-format="openai-chat"] .doc').textContent();
  await page.getByRole('button', { name: 'Response' }).click();
  assert.equal(await page.getByRole('button', { name: 'Response' }).getAttribute('aria-pressed'), 'true');
  const response = await page.locator('[data-format="openai-chat"] .doc').textContent();
  assert.notEqual(response, request);
  assert.match(response, /"choices"/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pasted provider document is detected and converted', async () => {
  const { context, page, errors } = await openApp(browser, url);
  const openai = {
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'Weather in Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_rome', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_rome', content: '21 C' },
    ],
  };
  await page.fill('#exchange-input', JSON.stringify(openai, null, 2));
  await page.waitForFunction(() => document.querySelector('.status').textContent.includes('openai-chat request'));
  const anthropic = await page.locator('[data-format="anthropic"] .doc').textContent();
  assert.match(anthropic, /"tool_use_id": "call_rome"/);
  assert.match(anthropic, /"input": \{\s*"city": "Rome"\s*\}/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pasted legacy XML transcript (not JSON) is detected and converted', async () => {
  const { context, page, errors } = await openApp(browser, url);
  const xml = [
    'Use the tools.',
    '',
    'Human: What is Apple trading at?',
    '',
    'Assistant: <function_calls>',
    '<invoke>',
    '<tool_name>get_stock_price</tool_name>',
    '<parameters>',
    '<ticker>AAPL</ticker>',
    '</parameters>',
    '</invoke>',
    '</function_calls>',
  ].join('\n');
  await page.fill('#exchange-input', xml);
  await page.waitForFunction(() => document.querySelector('.status').textContent.includes('anthropic-xml'));
  const openai = await page.locator('[data-format="openai-chat"] .doc').textContent();
  assert.match(openai, /get_stock_price/);
  assert.match(openai, /AAPL/);
  assert.deepEqual(errors, []);
  await context.close();
});
