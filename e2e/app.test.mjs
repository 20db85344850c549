// End-to-end: the release build in dist/, served on loopback, driven in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { openApp, pasteInto } from './serve.mjs';
import { onPage, startApp, stopApp } from './suite.mjs';
import { FORMATS } from './formats.mjs';

let server, url, browser;
before(async () => ({ server, url, browser } = await startApp()));
after(() => stopApp({ server, browser }));

/** The text of an editor (CodeMirror, or its textarea before it loads). */
function editorText(page, testid) {
  return page.$eval(`[data-testid="${testid}"]`, (el) =>
    el.toolscopeEditor ? el.toolscopeEditor.getDoc() : el.querySelector('textarea').value);
}

const paneText = (page, format) => editorText(page, `editor-${format}`);

/** Wait until `fn(text)` holds for a pane's text. */
async function waitPane(page, format, pattern) {
  await page.waitForFunction(([id, src]) => {
    const el = document.querySelector(`[data-testid="editor-${id}"]`);
    const t = el?.toolscopeEditor ? el.toolscopeEditor.getDoc() : el?.querySelector('textarea')?.value;
    return t !== undefined && new RegExp(src).test(t);
  }, [format, pattern.source]);
}

test('the page loads without errors, with every format pane and the first example', async () => {
  const { context, page, errors } = await openApp(browser, url);
  assert.equal(await page.locator('h1').textContent(), 'Toolscope');
  const formats = await page.locator('.pane').evaluateAll((ps) => ps.map((p) => p.dataset.format));
  assert.deepEqual(formats, FORMATS);
  for (const f of FORMATS) {
    assert.equal(await page.locator(`[data-testid="pane-${f}"]`).count(), 1, f);
    assert.match(await paneText(page, f), /get_weather/, f);
  }
  // CodeMirror is in every pane: line numbers and folding.
  assert.ok(await page.locator('[data-format="gemini"] .cm-lineNumbers').count());
  assert.ok(await page.locator('[data-format="gemini"] .cm-foldGutter').count());
  // A strict Content-Security-Policy is in force (and nothing it blocks was needed: no errors).
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.doesNotMatch(csp, /'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('editing a tool call argument updates every pane', () => onPage(browser, url, async (page) => {
  const args = page.getByTestId('call-1-0-args');
  const before = await args.inputValue();
  assert.match(before, /Paris/);
  await args.fill(before.replace('Paris, France', 'Lyon, France'));
  for (const f of FORMATS) await waitPane(page, f, /Lyon, France/);
}));

test('pasting an Anthropic document into its pane updates the OpenAI pane', () => onPage(browser, url, async (page) => {
  const anthropic = {
    model: 'claude-sonnet-4-5',
    max_tokens: 512,
    tools: [{ name: 'get_time', description: 'Current time in a zone.', input_schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } }],
    messages: [
      { role: 'user', content: 'What time is it in Tokyo?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01Tk', name: 'get_time', input: { zone: 'Asia/Tokyo' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Tk', content: '21:04' }] },
    ],
  };
  await pasteInto(page, 'editor-anthropic', JSON.stringify(anthropic, null, 2));
  await waitPane(page, 'openai-chat', /"tool_call_id": "toolu_01Tk"/);
  const openai = JSON.parse(await paneText(page, 'openai-chat'));
  const call = openai.messages.find((m) => m.tool_calls).tool_calls[0];
  assert.equal(call.function.name, 'get_time');
  assert.equal(call.function.arguments, '{"zone":"Asia/Tokyo"}');
  // The structured editor followed too.
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), 'get_time');
}));

test('typing into a pane with the keyboard works like a paste', () => onPage(browser, url, async (page) => {
  const gemini = await paneText(page, 'gemini');
  await page.locator('[data-testid="editor-gemini"] .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(gemini.replace("What's the weather in Paris?", 'Is it windy in Bergen?'));
  await waitPane(page, 'bedrock', /windy in Bergen/);
}));

test('a broken paste shows the error at its spot and keeps the other panes', () => onPage(browser, url, async (page) => {
  const good = await paneText(page, 'anthropic');
  await pasteInto(page, 'editor-openai-chat', '{\n  "messages": [\n    {"role": "user",, }\n  ]\n}');
  const alert = page.getByTestId('pane-error-openai-chat');
  await alert.waitFor();
  assert.match(await alert.textContent(), /line 3, column \d+/);
  // Marked in the text itself, and nothing else moved.
  await page.locator('[data-testid="editor-openai-chat"] .cm-lintRange-error').waitFor();
  assert.equal(await paneText(page, 'anthropic'), good);
  assert.match(await paneText(page, 'openai-chat'), /"user",, }/);
  // Discarding brings the last good document back.
  await page.getByTestId('pane-error-openai-chat').getByRole('button', { name: 'Discard my text' }).click();
  await waitPane(page, 'openai-chat', /get_weather/);
}));

test('a share link opened in a new page restores the same state and panes', async () => {
  const { context, page, errors } = await openApp(browser, url);
  await page.getByTestId('gallery').selectOption('parallel_calls');
  await waitPane(page, 'openai-chat', /Oslo/);
  await page.getByTestId('pane-picker').locator('summary').click();
  await page.getByTestId('show-mcp').uncheck();
  await page.getByTestId('show-cohere').uncheck();
  await page.getByTestId('view-response').click();
  // Panes re-encode after the click's frame: wait for the response bodies before reading them.
  await waitPane(page, 'anthropic', /stop_reason/);
  await page.getByTestId('share').click();
  await page.getByTestId('notice').filter({ hasText: 'Link copied' }).waitFor();
  const link = await page.evaluate(() => location.href);
  assert.match(link, /#v2\./);
  const shown = await page.locator('.pane').evaluateAll((ps) => ps.map((p) => p.dataset.format));
  // Every pane settled (out-of-view panes are encoded in later tasks): the same texts twice.
  let texts = {};
  for (let i = 0; i < 40; i++) {
    const now = {};
    for (const f of shown) now[f] = await paneText(page, f);
    if (JSON.stringify(now) === JSON.stringify(texts)) break;
    texts = now;
    await page.waitForTimeout(250);
  }

  const other = await browser.newContext();
  const fresh = await other.newPage();
  const freshErrors = [];
  fresh.on('pageerror', (e) => freshErrors.push(e.message));
  await fresh.goto(link);
  await fresh.waitForSelector('.pane .cm-editor');
  const restored = await fresh.locator('.pane').evaluateAll((ps) => ps.map((p) => p.dataset.format));
  assert.deepEqual(restored, shown);
  assert.ok(!restored.includes('mcp') && !restored.includes('cohere'));
  assert.equal(await fresh.getByTestId('view-response').getAttribute('aria-pressed'), 'true');
  for (const f of restored) assert.equal(await paneText(fresh, f), texts[f], f);
  assert.deepEqual(freshErrors, []);
  assert.deepEqual(errors, []);
  await other.close();
  await context.close();
});

test('hostile links are refused with a message and the page still works', async () => {
  const bomb = zlib.deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 }).toString('base64url');
  const cases = [
    ['#v1.' + bomb, /4 MiB|too large|expands/i],
    ['#v1.!!!not-base64!!!', /damaged|base64/i],
    ['#v1.' + Buffer.from('not deflate at all').toString('base64url'), /damaged|corrupt/i],
    ['#v9.AAAA', /newer/i],
    ['#hello', /not a Toolscope link/i],
  ];
  for (const [fragment, message] of cases) {
    const { context, page, errors } = await openApp(browser, url + fragment);
    const notice = page.getByTestId('notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), message, fragment.slice(0, 20));
    assert.match(await paneText(page, 'openai-chat'), /get_weather/);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('reload keeps the state (localStorage)', async () => {
  const { context, page, errors } = await openApp(browser, url);
  await page.getByTestId('system').fill('Answer like a pirate.');
  await waitPane(page, 'anthropic', /like a pirate/);
  await page.waitForTimeout(500); // the autosave is debounced
  await page.reload();
  await page.waitForSelector('.pane .cm-editor');
  assert.equal(await page.getByTestId('system').inputValue(), 'Answer like a pirate.');
  assert.match(await paneText(page, 'gemini'), /like a pirate/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lint fix makes a schema strict-compatible', () => onPage(browser, url, async (page) => {
  await page.getByTestId('tool-0-strict').check();
  const badge = page.getByTestId('lint-badge-openai-chat');
  await page.waitForFunction(() => /finding/.test(document.querySelector('[data-testid="lint-badge-openai-chat"]').textContent));
  const lints = page.getByTestId('lints-openai-chat');
  await lints.locator('summary').click();
  // The list is built when the details open (the toggle event comes a task later).
  await lints.locator('li.finding').first().waitFor();
  assert.match(await lints.textContent(), /strict/);
  await lints.getByTestId('lint-fix').first().click();
  await page.waitForFunction(() => /checks pass/.test(document.querySelector('[data-testid="lint-badge-openai-chat"]').textContent));
  const openai = JSON.parse(await paneText(page, 'openai-chat'));
  const params = openai.tools[0].function.parameters;
  assert.equal(openai.tools[0].function.strict, true);
  assert.equal(params.additionalProperties, false);
  assert.deepEqual([...params.required].sort(), Object.keys(params.properties).sort());
  assert.match(await badge.textContent(), /checks pass/);
}));

test('fix for every visible format settles OpenAI Responses and Gemini at once', () => onPage(browser, url, async (page) => {
  // A Responses request as users write it: an optional parameter and no `strict`, which the
  // Responses API's default strict mode flags.
  const responses = {
    model: 'gpt-4.1',
    input: 'Forecast for Paris?',
    tools: [{ type: 'function', name: 'get_forecast', description: 'Forecast',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } }],
  };
  await pasteInto(page, 'editor-openai-responses', JSON.stringify(responses, null, 2));
  await page.getByTestId('compare-open').click();
  await page.getByTestId('compare-left').selectOption('openai-responses');
  await page.getByTestId('compare-right').selectOption('gemini');
  await page.waitForFunction(() => /finding/.test(document.querySelector('[data-testid="lint-badge-openai-responses"]')?.textContent ?? ''));
  await page.getByTestId('fix-all').click();
  await page.getByTestId('notice').filter({ hasText: "every shown format's checks pass" }).waitFor();
  for (const id of ['openai-responses', 'gemini']) {
    await page.waitForFunction((i) => /checks pass/.test(document.querySelector(`[data-testid="lint-badge-${i}"]`).textContent), id);
  }
  // Gemini sends the strict schema as parametersJsonSchema, which takes it.
  const gemini = JSON.parse(await paneText(page, 'gemini'));
  const decl = gemini.tools[0].functionDeclarations[0];
  assert.equal(decl.parametersJsonSchema.additionalProperties, false);
  // One step: a second click changes nothing.
  const before = await paneText(page, 'openai-responses');
  await page.getByTestId('fix-all').click();
  await page.getByTestId('notice').filter({ hasText: 'Nothing to fix' }).waitFor();
  assert.equal(await paneText(page, 'openai-responses'), before);
}));

test('each provider pane names a model its API serves, editable per provider', () => onPage(browser, url, async (page) => {
  await page.getByTestId('model').fill('gpt-4o');
  await waitPane(page, 'openai-chat', /"model": "gpt-4o"/);
  await waitPane(page, 'anthropic', /"model": "claude-sonnet-4-5"/);
  await waitPane(page, 'bedrock', /"modelId": "us\.anthropic\./);
  assert.doesNotMatch(await paneText(page, 'anthropic'), /gpt-4o/);
  await page.getByTestId('models').locator('summary').click();
  assert.equal(await page.getByTestId('model-anthropic').getAttribute('placeholder'), 'claude-sonnet-4-5 (default)');
  await page.getByTestId('model-anthropic').fill('claude-opus-4-1');
  await waitPane(page, 'anthropic', /"model": "claude-opus-4-1"/);
  assert.match(await paneText(page, 'openai-chat'), /"model": "gpt-4o"/);
}));

test('selecting a call highlights it in every pane, and hovering a pane finds it in the editor', () => onPage(browser, url, async (page) => {
  await page.getByTestId('call-1-0').click();
  await page.mouse.move(0, 0);
  for (const f of FORMATS) {
    // Panes off screen draw the highlight when they scroll into view.
    await page.getByTestId(`pane-${f}`).scrollIntoViewIfNeeded();
    await page.locator(`[data-testid="editor-${f}"] .cm-linked-line`).first().waitFor();
    const lit = await page.locator(`[data-testid="editor-${f}"] .cm-linked-line`).allTextContents();
    assert.match(lit.join('\n'), /get_weather|Paris/, f);
  }
  // The reverse: the pointer over the result in the Anthropic pane lights the result's row.
  await page.keyboard.press('Escape');
  await page.getByTestId('pane-anthropic').scrollIntoViewIfNeeded();
  await page.$eval('[data-testid="editor-anthropic"]', (el) => {
    const v = el.toolscopeEditor.view;
    v.scrollDOM.scrollTop = v.lineBlockAt(v.state.doc.toString().indexOf('"tool_use_id"')).top - 40;
  });
  const target = page.locator('[data-testid="editor-anthropic"] .cm-line', { hasText: '"tool_use_id"' }).first();
  await target.hover();
  await page.locator('[data-testid="result-2-0"].linked').waitFor();
}));

test('every gallery example opens, and the switches and help work', () => onPage(browser, url, async (page) => {
  const ids = await page.getByTestId('gallery').locator('option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(ids.length >= 8);
  for (const id of ids) {
    await page.getByTestId('gallery').selectOption(id);
    await page.getByTestId('notice').waitFor();
    assert.doesNotMatch(await page.getByTestId('notice').getAttribute('class'), /error/, id);
  }
  await page.getByTestId('gallery').selectOption('stock_chain');
  await waitPane(page, 'openai-chat', /get_ticker_symbol/);
  await page.getByTestId('view-response').click();
  await waitPane(page, 'openai-chat', /"choices"/);
  await page.getByTestId('compare-open').click();
  assert.deepEqual(await page.locator('.pane').evaluateAll((ps) => ps.map((p) => p.dataset.format)), ['openai-chat', 'anthropic']);
  await page.getByTestId('compare-right').selectOption('gemini');
  await page.locator('[data-format="gemini"]').waitFor();
  await page.getByTestId('compare-close').click();
  await page.locator('body').press('?');
  await page.getByTestId('help').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('help').count(), 0);
}));

test('copy as curl gives a runnable request without a key', async () => {
  const { context, page, errors } = await openApp(browser, url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  await page.getByTestId('copy-as-anthropic').click();
  await page.locator('[data-format="anthropic"] .menu-items').getByRole('menuitem', { name: 'curl' }).click();
  await page.getByTestId('notice').filter({ hasText: 'snippet' }).waitFor();
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(clip, /^curl /m);
  assert.match(clip, /api\.anthropic\.com\/v1\/messages/);
  assert.match(clip, /\$ANTHROPIC_API_KEY/);
  assert.match(clip, /get_weather/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a dropped provider document replaces the exchange', () => onPage(browser, url, async (page) => {
  const doc = JSON.stringify({
    contents: [{ role: 'user', parts: [{ text: 'Translate hello to Norwegian' }] }],
    tools: [{ functionDeclarations: [{ name: 'translate', description: 'Translate text.', parameters: { type: 'OBJECT', properties: { text: { type: 'STRING' } } } }] }],
  });
  const dt = await page.evaluateHandle((text) => {
    const d = new DataTransfer();
    d.items.add(new File([text], 'gemini.json', { type: 'application/json' }));
    return d;
  }, doc);
  await page.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await waitPane(page, 'anthropic', /"name": "translate"/);
  assert.match(await page.getByTestId('notice').textContent(), /gemini request/i); // The notice names the format (Google Gemini request).
}));

test('the structured editor: tools, a parallel call, its result with the error flag, reorder and delete', () => onPage(browser, url, async (page) => {
  await page.getByTestId('add-tool').click();
  await page.getByTestId('tool-1-name').fill('get_time');
  await waitPane(page, 'gemini', /"name": "get_time"/);
  await page.getByTestId('tool-1-up').click();
  assert.equal(await page.getByTestId('tool-0-name').inputValue(), 'get_time');
  // A parallel call in the assistant turn, then its result marked as an error.
  await page.getByTestId('add-call-1').click();
  await page.getByTestId('call-1-1-name').fill('get_time');
  await page.getByTestId('call-1-1-args').fill('{"zone": "Europe/Paris"}');
  await waitPane(page, 'anthropic', /Europe\/Paris/);
  await page.getByTestId('add-result').click();
  const last = await page.locator('[data-testid^="result-"][data-testid$="-content"]').last();
  await last.fill('zone database unavailable');
  const errorBox = page.locator('[data-testid^="result-"][data-testid$="-error"]').last();
  await errorBox.check();
  await waitPane(page, 'anthropic', /"is_error": true/);
  await waitPane(page, 'openai-chat', /Error: zone database unavailable/);
  const anthropic = JSON.parse(await paneText(page, 'anthropic'));
  const block = anthropic.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.is_error);
  assert.equal(block.type, 'tool_result');
  const call = anthropic.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_use' && b.name === 'get_time');
  assert.equal(block.tool_use_id, call.id);
  // Arguments that break the schema are flagged on the call.
  await page.getByTestId('call-1-0-args').fill('{"unit": "kelvin"}');
  await page.getByTestId('call-1-0-problems').locator('li').first().waitFor();
  assert.match(await page.getByTestId('call-1-0-problems').textContent(), /location|kelvin/);
  // Remove the tool again.
  await page.getByTestId('tool-0-remove').click();
  assert.equal(await page.getByTestId('tool-1-name').count(), 0);
}));
