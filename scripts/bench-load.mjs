// Load benchmark: the release build in dist/ (or another built page: the first argument),
// served on loopback like the end-to-end tests serve it (precompressed files with
// Content-Encoding), opened in a fresh headless Chromium context under DevTools' "Fast 3G"
// (562.5 ms round trip, 180 kB/s down, 84 kB/s up; Network.emulateNetworkConditions) and a 4×
// slower CPU (Emulation.setCPUThrottlingRate). For each run it reports
//   first text     ms until a format pane's text is painted (the first contentful paint when
//                  the text is in the HTML; else when the app drew it)
//   interactive    ms until the app runs (the wasm mounted: the static shell replaced)
//   bytes → text   bytes on the wire (response bodies as sent: brotli) before the first text
//   bytes → inter. the same, before interactive
// and the median of the runs; then each file of the build, raw and brotli, and what the first
// view fetches. Usage: make dist && node scripts/bench-load.mjs [DIR] [--runs N] [--fast]
// (--fast: no throttling). Figures are printed; nothing is asserted.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serveDist, launch } from '../e2e/serve.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(opt('--runs') ?? 3);
const fast = args.includes('--fast');
const dir = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ?? 'dist');

// DevTools' presets (front_end/core/sdk/NetworkManager.ts): Fast 3G.
const FAST_3G = { offline: false, latency: 150 * 3.75, downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((750 * 1000) / 8) * 0.9 };

/** Runs in the page before its first byte: when the panes first hold text, when the app mounted. */
function probe() {
  const w = window;
  w.__load = { text: null, mounted: null };
  const check = () => {
    const t = performance.now();
    if (w.__load.text === null) {
      const area = document.querySelector('.pane-grid .pane textarea, .pane-grid .pane .cm-content');
      if (area && (area.value || area.textContent)) w.__load.text = t;
    }
    if (w.__load.mounted === null && !document.getElementById('prerender') && document.querySelector('main.workspace .pane-grid .pane')) {
      w.__load.mounted = t;
      // The app encodes the panes as it mounts; their text areas get it as a property, which
      // no mutation reports.
      if (w.__load.text === null) w.__load.text = t;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

async function once(browser, url) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (!fast) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  await page.addInitScript(probe);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__load?.mounted !== null && window.__load?.text !== null, null, { timeout: 120_000, polling: 100 });
  const r = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const nav = performance.getEntriesByType('navigation')[0];
    const files = [nav, ...performance.getEntriesByType('resource')].map((e) => ({
      name: e.name.split('/').pop() || 'index.html',
      end: e.responseEnd,
      wire: e.encodedBodySize,
      raw: e.decodedBodySize,
    }));
    return { fcp, load: window.__load, files };
  });
  await context.close();
  const text = Math.max(r.load.text, r.fcp ?? 0);
  const before = (t) => r.files.filter((f) => f.end <= t).reduce((n, f) => n + f.wire, 0);
  return { text, interactive: r.load.mounted, bytesText: before(text), bytesInteractive: before(r.load.mounted), files: r.files };
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { server, url } = await serveDist({ root: dir });
const browser = await launch();
try {
  console.log(`${dir} — ${fast ? 'no throttling' : 'Fast 3G, CPU 4× slower'}, ${runs} run(s), fresh context each`);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await once(browser, url);
    results.push(r);
    console.log(`  run ${i + 1}: first text ${s(r.text)}, interactive ${s(r.interactive)}, bytes → text ${kb(r.bytesText)}, bytes → interactive ${kb(r.bytesInteractive)}`);
  }
  const m = (k) => median(results.map((r) => r[k]));
  console.log(`median: first text ${s(m('text'))}, interactive ${s(m('interactive'))}, bytes → text ${kb(m('bytesText'))}, bytes → interactive ${kb(m('bytesInteractive'))}`);
  const last = results.at(-1);
  console.log('fetched before interactive (as sent):');
  for (const f of last.files.filter((f) => f.end <= last.interactive)) console.log(`  ${f.name.padEnd(44)} ${kb(f.wire).padStart(10)} (raw ${kb(f.raw)})`);
  console.log('fetched after:');
  for (const f of last.files.filter((f) => f.end > last.interactive)) console.log(`  ${f.name.padEnd(44)} ${kb(f.wire).padStart(10)} (raw ${kb(f.raw)})`);
  // What a host without precompression or Content-Encoding would send, file by file.
  let total = 0;
  let totalBr = 0;
  for (const f of fs.readdirSync(dir).filter((f) => /\.(wasm|js|css|html)$/.test(f))) {
    const raw = fs.readFileSync(path.join(dir, f));
    const br = fs.existsSync(path.join(dir, `${f}.br`))
      ? fs.statSync(path.join(dir, `${f}.br`)).size
      : zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    total += raw.length;
    totalBr += br;
  }
  console.log(`the build's code and styles: ${kb(total)} raw, ${kb(totalBr)} brotli`);
} finally {
  await browser.close();
  server.close();
}
