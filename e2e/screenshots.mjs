// Screenshots of the release build (light and dark, desktop 1440 px and phone 390 px, plus the
// main views), and the time to re-render every pane, measured in the page.
// Usage: node e2e/screenshots.mjs [OUT_DIR] (default target/screenshots); SHOTS=newcomer takes
// only the newcomer views (images and blocks, the big-link notice, a blank start, skip link, help).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { serveDist, launch, openApp } from './serve.mjs';
import { startStandin, KEY } from './standin.mjs';

const out = process.argv[2] ?? 'target/screenshots';
fs.mkdirSync(out, { recursive: true });
const { server, url } = await serveDist();
const browser = await launch();
const standin = await startStandin({ delayMs: 20 });

/** The Live tab against the stand-in: paused on a tool call, then answered, then a 401. */
async function liveShots(page, name, errors) {
  const live = page.getByTestId('live');
  await page.getByRole('tab', { name: 'Live' }).click();
  await live.getByLabel('Provider', { exact: true }).selectOption('openai-chat');
  await live.getByLabel('Base URL', { exact: true }).fill(`${standin.url}/v1`);
  await live.getByLabel('Model', { exact: true }).fill('deepseek-reasoner');
  await live.getByLabel('API key', { exact: true }).fill(KEY);
  // The recording calls `weather`: a conversation with that tool.
  await page.getByTestId('tab-json').click();
  await page.locator('[data-testid="canonical-editor"] .cm-editor').waitFor();
  await page.$eval('[data-testid="canonical-editor"]', (el, t) => {
    const v = el.toolscopeEditor.view;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t }, userEvent: 'input.paste' });
  }, JSON.stringify({
    system: 'Answer with the weather tool.',
    tools: [{ name: 'weather', description: 'Current weather for a place', input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } }],
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'What is the weather in San Francisco?' }] }],
  }, null, 2));
  await page.getByTestId('tab-edit').click();
  await live.getByRole('button', { name: 'Send', exact: true }).click();
  const result = live.getByLabel(/^Result of weather/);
  await result.waitFor();
  await result.fill('{"temperature": 58, "conditions": "sunny"}');
  await shot(page, `${name}-live-paused`, errors);
  await live.getByRole('button', { name: 'Continue' }).click();
  await live.getByTestId('live-status').filter({ hasText: 'the model answered' }).waitFor();
  await shot(page, `${name}-live-done`, errors);
  await live.getByLabel('API key', { exact: true }).fill('sk-wrong-key-000000000000');
  await live.getByRole('button', { name: 'Send', exact: true }).click();
  await live.getByTestId('live-error').waitFor();
  await live.getByTestId('live-error').scrollIntoViewIfNeeded();
  await shot(page, `${name}-live-401`, errors);
}

/** The newcomer views: a tool result with two images and a user's image, an opaque block (open),
 * the transcript, the big-link notice, the skip link focused, New exchange, the help dialog. */
async function newcomerShots(width, height, scheme) {
  const name = `${width < 800 ? 'phone' : 'desktop'}-${scheme}`;
  const { context, page, errors } = await openApp(browser, url, { viewport: { width, height }, colorScheme: scheme, deviceScaleFactor: 1, permissions: ['clipboard-read', 'clipboard-write'] });
  const png = 'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAEFklEQVR4nA3Moe52UADA4e9yRFH6TxBMOsnsN8Gkk0wQTDrJBMGkk0wQTDrJBMGkE0XRpXzvcwHPPwfrcDucDruDcdgcFofJQTuMDr1D66AcGofKoXCQDrlD6hA7CIfIIXD4++diXW6X02V3MS6by+IyuWiX0aV3aV2US+NSuRQu0iV3SV1iF+ESuQTuL/KwHrfH6bF7GI/NY/GYPLTH6NF7tB7Ko/GoPAoP6ZF7pB6xh/CIPALvF/lYn9vn9Nl9jM/ms/hMPtpn9Ol9Wh/l0/hUPoWP9Ml9Up/YR/hEPoH/i0JsyB1yhuwhJmQLWUKmEB0yhvQhbYgKaUKqkCJEhuQhaUgcIkKikCD8RQIruAWnYBcYwSZYBJNAC0ZBL2gFStAIKkEhkIJckApigRBEgkD8ogSbcCecCXuCSdgSloQpQSeMCX1Cm6ASmoQqoUiQCXlCmhAniIQoIUh+UYbNuDPOjD3DZGwZS8aUoTPGjD6jzVAZTUaVUWTIjDwjzYgzREaUEWS/SGIlt+SU7BIj2SSLZJJoySjpJa1ESRpJJSkkUpJLUkksEZJIEshfVGJL7pKzZC8xJVvJUjKV6JKxpC9pS1RJU1KVFCWyJC9JS+ISURKVBOUvqrE1d81Zs9eYmq1mqZlqdM1Y09e0NaqmqalqihpZk9ekNXGNqIlqgvoXKaziVpyKXWEUm2JRTAqtGBW9olUoRaOoFIVCKnJFqogVQhEpAvWLOmzH3XF27B2mY+tYOqYO3TF29B1th+poOqqOokN25B1pR9whOqKOoPtFA3bgHjgH9gEzsA0sA9OAHhgH+oF2QA00A9VAMSAH8oF0IB4QA9FAMPwijdXcmlOza4xm0yyaSaM1o6bXtBqlaTSVptBITa5JNbFGaCJNoH/RjJ25Z86ZfcbMbDPLzDSjZ8aZfqadUTPNTDVTzMiZfCadiWfETDQTzL9oxa7cK+fKvmJWtpVlZVrRK+NKv9KuqJVmpVopVuRKvpKuxCtiJVoJ1l9ksIbbcBp2gzFshsUwGbRhNPSG1qAMjaEyFAZpyA2pITYIQ2QIzC86sAf3wXmwH5iD7WA5mA70wXjQH7QH6qA5qA6KA3mQH6QH8YE4iA6C4xdd2Iv74rzYL8zFdrFcTBf6YrzoL9oLddFcVBfFhbzIL9KL+EJcRBfB9Yss1nJbTstuMZbNslgmi7aMlt7SWpSlsVSWwiItuSW1xBZhiSyB/UUP9uF+OB/2B/OwPSwP04N+GB/6h/ZBPTQP1UPxIB/yh/QhfhAP0UPw/KIX+3K/nC/7i3nZXpaX6UW/jC/9S/uiXpqX6qV4kS/5S/oSv4iX6CV4f9GH/bg/zo/9w3xsH8vH9KE/xo/+o/1QH81H9VF8yI/8I/2IP8RH9BF8/P0HD4gabu0XLDgAAAAASUVORK5CYII=';
  const doc = {
    model: 'claude-sonnet-4-5', max_tokens: 1024,
    tools: [{ name: 'get_chart', description: 'Draw a chart.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Chart Oslo like this one.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'A chart is needed.', signature: 'S'.repeat(4297) }, { type: 'tool_use', id: 'toolu_1', name: 'get_chart', input: { city: 'Oslo' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Two charts.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.concat([Buffer.from(png, 'base64'), crypto.randomBytes(9000)]).toString('base64') } }, { type: 'image', source: { type: 'url', url: 'https://charts.example.com/oslo.png' } }] }] },
    ],
  };
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, JSON.stringify(doc));
  await page.locator('.part.raw .raw-chip summary').click();
  await page.locator('.part.result .media-chip').first().scrollIntoViewIfNeeded();
  await shot(page, `${name}-media-editor`, errors);
  await page.getByTestId('share').click();
  await page.getByTestId('notice').filter({ hasText: 'characters long' }).waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, `${name}-big-link`, errors);
  await page.getByTestId('tab-transcript').click();
  await page.getByTestId('transcript').scrollIntoViewIfNeeded();
  await shot(page, `${name}-media-transcript`, errors);
  await page.getByTestId('tab-edit').click();
  await page.getByTestId('new-exchange').click();
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'tool-0-name');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, `${name}-new-exchange`, errors);
  await page.getByTestId('skip-formats').focus();
  await shot(page, `${name}-skip-link`, errors);
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('?');
  await page.getByTestId('help').waitFor();
  await shot(page, `${name}-help-dialog`, errors);
  await context.close();
}

async function shot(page, name, errors) {
  const file = `${out}/${name}.png`;
  await page.screenshot({ path: file, fullPage: false });
  console.log(file, errors.length ? errors : 'no errors');
}

for (const scheme of ['light', 'dark']) {
  for (const [name, width, height] of [['desktop', 1440, 900], ['phone', 390, 844]]) {
    await newcomerShots(width, height, scheme);
    if (process.env.SHOTS === 'newcomer') continue;
    const { context, page, errors } = await openApp(browser, url, {
      viewport: { width, height },
      colorScheme: scheme,
      deviceScaleFactor: 1,
    });
    await shot(page, `${name}-${scheme}`, errors);
    // The views a newcomer walks through: the transcript, the replay, the compare-two diff.
    await page.getByRole('tab', { name: 'Transcript' }).click();
    await page.getByTestId('transcript').scrollIntoViewIfNeeded();
    await shot(page, `${name}-${scheme}-transcript`, errors);
    await page.getByTestId('tab-edit').click();
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-summary').filter({ hasText: /events/ }).waitFor();
    await page.getByTestId('step-forward').click();
    await page.getByTestId('replay').scrollIntoViewIfNeeded();
    await shot(page, `${name}-${scheme}-replay`, errors);
    await page.getByTestId('tab-formats').click();
    await page.getByTestId('compare-open').click();
    await page.getByTestId('compare-diff').scrollIntoViewIfNeeded();
    await shot(page, `${name}-${scheme}-compare-diff`, errors);
    await page.getByTestId('compare-close').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    {
      const live = await openApp(browser, url, { viewport: { width, height }, colorScheme: scheme, deviceScaleFactor: 1 });
      // The browser's own "Failed to load resource: 401" is expected in the last shot.
      await liveShots(live.page, `${name}-${scheme}`, []);
      await live.context.close();
    }
    // The Cost view: rows per model, tools as bars (one hovered), the rounds chart.
    await page.getByTestId('tab-cost').click();
    await page.waitForSelector('[data-testid="cost-view"][data-vocab="ready"][data-computed="true"]');
    await page.getByTestId('cost-view').scrollIntoViewIfNeeded();
    await shot(page, `${name}-${scheme}-cost`, errors);
    await page.getByTestId('cost-tool').first().hover();
    await page.getByTestId('cost-chart').scrollIntoViewIfNeeded();
    await shot(page, `${name}-${scheme}-cost-rounds`, errors);
    await page.mouse.move(0, 0);
    await page.getByTestId('tab-formats').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    if (name === 'desktop') {
      // A call hovered: the same call lit in the editor and every pane.
      await page.getByTestId('call-1-0').hover();
      await page.locator('.cm-linked-line').first().waitFor({ timeout: 5000 }).catch(() => {});
      await shot(page, `desktop-${scheme}-hover`, errors);
      await page.mouse.move(0, 0);
      // Two formats side by side, response bodies.
      await page.getByTestId('gallery').selectOption('parallel_calls');
      await page.getByTestId('view-response').click();
      await page.getByTestId('compare-open').click();
      await shot(page, `desktop-${scheme}-compare`, errors);
      await page.getByTestId('compare-close').click();
      await page.getByTestId('view-request').click();
      // A broken paste: the error marked in the pane, the others unchanged.
      await page.$eval('[data-testid="editor-openai-chat"]', (el) => {
        const v = el.toolscopeEditor.view;
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: '{\n  "model": "gpt-4o",\n  "messages": [\n    {"role": "user",, }\n  ]\n}' } });
      });
      await page.getByTestId('pane-error-openai-chat').waitFor();
      await shot(page, `desktop-${scheme}-broken`, errors);
      await page.locator('body').press('Escape');
      await page.locator('body').press('?');
      await shot(page, `desktop-${scheme}-help`, errors);
    }
    await context.close();
  }
}

// Re-render time: from the change event to the next frame after every pane has updated.
if (process.env.SHOTS !== 'newcomer') {
  const { context, page } = await openApp(browser, url, { viewport: { width: 1440, height: 900 } });
  const times = {};
  for (const id of ['multi_turn', 'weather', 'multi_turn', 'weather', 'multi_turn', 'weather', 'multi_turn']) {
    const ms = await page.evaluate(async (value) => {
      const select = document.querySelector('[data-testid="gallery"]');
      const t0 = performance.now();
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, id);
    (times[id] ??= []).push(ms);
  }
  const edit = [];
  for (let i = 0; i < 7; i++) {
    edit.push(await page.evaluate(async (n) => {
      const area = document.querySelector('[data-testid="system"]');
      const t0 = performance.now();
      area.value = `You are a travel agent (${n}).`;
      area.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, i));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const report = {
    switch_to_multi_turn_ms: median(times.multi_turn),
    switch_to_weather_ms: median(times.weather),
    keystroke_in_multi_turn_ms: median(edit),
  };
  console.log('re-render of all 11 panes (median, includes one frame):', JSON.stringify(report));
  fs.writeFileSync(`${out}/render.json`, JSON.stringify(report, null, 2));
  await context.close();
}

await browser.close();
server.close();
await standin.close();
