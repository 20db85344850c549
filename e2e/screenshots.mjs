// Screenshots of the release build (light and dark, desktop 1440 px and phone 390 px, plus the
// main views), and the time to re-render every pane, measured in the page.
// Usage: node e2e/screenshots.mjs [OUT_DIR] (default target/screenshots)
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

async function shot(page, name, errors) {
  const file = `${out}/${name}.png`;
  await page.screenshot({ path: file, fullPage: false });
  console.log(file, errors.length ? errors : 'no errors');
}

for (const scheme of ['light', 'dark']) {
  for (const [name, width, height] of [['desktop', 1440, 900], ['phone', 390, 844]]) {
    const { context, page, errors } = await openApp(browser, url, {
      viewport: { width, height },
      colorScheme: scheme,
      deviceScaleFactor: 1,
    });
    await shot(page, `${name}-${scheme}`, errors);
    // The views of issue 19: the transcript, the replay, the compare-two diff.
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
{
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
