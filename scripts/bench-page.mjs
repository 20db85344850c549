// Page benchmark in headless Chromium (the release build in dist/, served on loopback like the
// end-to-end tests serve it). `make bench-page` builds dist/ and prints the page's figures,
// each as median / worst over several runs (a fresh browser per run):
//   gallery key→frame   a keystroke in the largest gallery example (multi-turn booking), in
//                       the first message's text, until the next frame is painted
//   paste → panes       the 1,000-message, 50-tool OpenAI Chat request pasted into the OpenAI
//                       pane, until every pane in view shows its last message, and until every
//                       pane does (those out of view are handed their text later)
//   key→frame (pane)    then keystrokes in that pane, in the last message's text, until the
//                       next frame; (field): the same in the structured editor's last message
//   key→panes           those keystrokes until every pane in view shows them
//   wasm memory         the wasm memory's size after the paste and the typing
//   renderer peak       the peak resident memory (VmHWM) of the page's renderer process
// `--links` runs the large share links instead (first row, usable, longest task, keystroke to
// frame and to pane, the last row, scrolling; `--quick`: the 1,000-message one only, `--only
// <text>`: the cases whose name holds <text>). `--runs <n>`: runs per row (default 3);
// `--dist <dir>`: another build than dist/ (to compare two).
// `--profile`: where the time goes instead, through the DevTools protocol: CPU profiles of the
// paste, of typing in the pane and of typing in the field (each function's self and total
// time; saved as target/*.cpuprofile), `--stretches`: what each busy stretch over 25 ms spent
// its time in, `--trace`: a trace of typing in the pane, task by task from each key to its
// frame, `--gallery`: that trace for the gallery example (environment: AFTER_MS=<n> lists the
// tasks until n ms after the frame too, MIN_US=<µs> the shorter tasks, SAVE_TRACE=<file> keeps
// the trace). Rust names show when the build's wasm keeps its name section (wasm-opt -g).
// `--gallery` alone: the gallery rows only; SPLIT=1 prints each key's time until its handler,
// until the frame's callbacks and until the first task after the frame.
// Figures are printed; nothing is asserted.
import { serveDist, launch } from '../e2e/serve.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { bigExchange, linkFragment, openaiChatDocument, FORMATS } from '../e2e/big.mjs';

const quick = process.argv.includes('--quick');
const links = process.argv.includes('--links') || quick || process.argv.includes('--only');
const dist = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : null;
const RUNS = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 3;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const LIMIT = 300_000;
// `--gallery` without `--profile`: the gallery rows only.
const galleryOnly = process.argv.includes('--gallery');

/** Pad texts until the state is just under the 4 MiB a link may expand to. */
function atTheLimit(messages, tools) {
  for (let pad = 1200; pad > 0; pad -= 20) {
    const x = bigExchange({ messages, tools, pad });
    const size = JSON.stringify({ toolscope: 'state', version: 1, kind: 'request', exchange: x }).length;
    if (size < 4 * 1024 * 1024 - 64 * 1024) return { x, size };
  }
  return { x: bigExchange({ messages, tools }), size: 0 };
}

const CASES = [
  { name: '1,000 messages, 50 tools', make: () => bigExchange({ messages: 1000, tools: 50 }) },
  { name: '2,000 messages, 10 tools', make: () => bigExchange({ messages: 2000, tools: 10 }) },
  { name: '5,000 messages, 10 tools', make: () => bigExchange({ messages: 5000, tools: 10 }), revisit: true },
  { name: '1,000 tools, 8 messages', make: () => bigExchange({ messages: 8, tools: 1000 }), tools: true },
  {
    name: '5,000 messages + 1,000 tools at 4 MiB',
    make: () => {
      const { x, size } = atTheLimit(5000, 1000);
      console.log(`  (state of ${(size / 1048576).toFixed(2)} MiB)`);
      return x;
    },
  },
];

const PROBE = () => {
  const b = { longtasks: [], keys: [], firstRow: null };
  window.__bench = b;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const mo = new MutationObserver(() => {
    if (document.querySelector('[data-testid="message-0"], [data-testid="tool-0"]')) {
      b.firstRow = performance.now();
      mo.disconnect();
    }
  });
  mo.observe(document, { childList: true, subtree: true });
  // The wasm instance's memory, whoever loads it.
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const orig = WebAssembly[name];
    WebAssembly[name] = async (...args) => {
      const r = await orig.apply(WebAssembly, args);
      if (r?.instance?.exports?.memory) b.memory = r.instance.exports.memory;
      return r;
    };
  }
  document.addEventListener('keydown', (e) => {
    const rec = { t0: e.timeStamp, at: performance.now(), raf: null, frame: null };
    b.keys.push(rec);
    requestAnimationFrame(() => {
      rec.raf = performance.now();
      setTimeout(() => { rec.frame = performance.now(); }, 0);
    });
  }, true);
};

/** In-page time at which the OpenAI pane's text first contains `needle`. */
function paneHas(page, needle) {
  return page.waitForFunction((n) => {
    const el = document.querySelector('[data-testid="editor-openai-chat"]');
    const t = el?.toolscopeEditor ? el.toolscopeEditor.getDoc() : el?.querySelector('textarea')?.value;
    return t?.includes(n) ? performance.now() : false;
  }, needle, { polling: 'raf', timeout: LIMIT }).then((h) => h.jsonValue());
}

const longest = (tasks, from = 0, to = Infinity) =>
  tasks.filter(([s]) => s >= from && s <= to).reduce((m, [, d]) => Math.max(m, d), 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v) => (v === null || v === undefined ? '—' : `${Math.round(v)}`);

async function scrollToEnd(page, testid, list) {
  const t0 = await page.evaluate(() => performance.now());
  for (let i = 0; i < 100; i++) {
    if (await page.getByTestId(testid).count()) break;
    await page.evaluate((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      window.scrollTo(0, window.scrollY + r.bottom - window.innerHeight);
    }, list);
    await page.waitForTimeout(50);
  }
  const t1 = await page.evaluate(() => performance.now());
  return [t0, t1];
}

async function runCase(browser, url, c) {
  const x = c.make();
  const fragment = linkFragment(x);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url + fragment, { timeout: LIMIT });
  await page.waitForFunction(() => window.__bench.firstRow, null, { timeout: LIMIT });
  const firstRow = await page.evaluate(() => window.__bench.firstRow);

  // Usable: type into the first field (the first tool's description) as soon as it is there.
  await page.getByTestId('tool-0-description').click({ timeout: LIMIT });
  await page.keyboard.press('Control+End');
  await page.keyboard.type('Z');
  const described = await page.getByTestId('tool-0-description').inputValue();
  const usable = await paneHas(page, described);
  const openTasks = await page.evaluate(() => window.__bench.longtasks);
  const openLongest = longest(openTasks, 0, usable);

  // Keystrokes in the first message (or the first tool's name), once settled.
  await page.waitForTimeout(1500);
  if (!c.tools) {
    await page.evaluate(() =>
      document.querySelector('[data-testid="conversation-editor"]').scrollIntoView({ block: 'start' }));
  }
  const field = c.tools ? 'tool-0-name' : 'text-0-0';
  await page.getByTestId(field).click({ timeout: LIMIT });
  await page.keyboard.press('Control+End');
  await page.waitForTimeout(500);
  const startKeys = await page.evaluate(() => window.__bench.keys.length);
  const toPane = [];
  let typed = await page.getByTestId(field).inputValue();
  for (let i = 0; i < 10; i++) {
    const ch = String.fromCharCode(97 + i);
    typed += ch;
    await page.keyboard.type(ch);
    const shown = await paneHas(page, typed);
    const rec = await page.evaluate((k) => window.__bench.keys[k], startKeys + i);
    toPane.push(shown - rec.t0);
    await page.waitForTimeout(120);
  }
  const keys = (await page.evaluate(() => window.__bench.keys)).slice(startKeys);
  const toFrame = keys.filter((k) => k.frame !== null).map((k) => k.frame - k.t0);

  // Scroll to the end and type there.
  const last = c.tools ? `tool-${x.tools.length - 1}-name` : `text-${x.messages.length - 1}-0`;
  const [s0, s1] = await scrollToEnd(page, last, c.tools ? '.tool-list' : '.messages');
  const scrollTasks = await page.evaluate(() => window.__bench.longtasks);
  const scrollLongest = longest(scrollTasks, s0, s1);
  await page.getByTestId(last).click({ timeout: LIMIT });
  await page.keyboard.press('Control+End');
  const before = await page.evaluate(() => window.__bench.keys.length);
  await page.keyboard.type('Y');
  const lastText = await page.getByTestId(last).inputValue();
  const endShown = await paneHas(page, lastText);
  const endKey = await page.evaluate((k) => window.__bench.keys[k], before);
  const allTasks = await page.evaluate(() => window.__bench.longtasks);

  const row = {
    case: c.name,
    'first row': ms(firstRow),
    usable: ms(usable),
    'longest (open)': ms(openLongest),
    'key→frame med/max': `${ms(median(toFrame))}/${ms(Math.max(...toFrame))}`,
    'key→pane med/max': `${ms(median(toPane))}/${ms(Math.max(...toPane))}`,
    'end key→pane': ms(endShown - endKey.t0),
    'longest (scroll)': ms(scrollLongest),
    'longest (all)': ms(longest(allTasks)),
  };

  if (c.revisit) {
    // The state is autosaved; a visit without the link opens it from localStorage.
    await page.waitForTimeout(1500);
    const fresh = await context.newPage();
    await fresh.addInitScript(PROBE);
    await fresh.goto(url, { timeout: LIMIT });
    await fresh.waitForFunction(() => window.__bench.firstRow, null, { timeout: LIMIT });
    const first = await fresh.evaluate(() => window.__bench.firstRow);
    const panes = await paneHas(fresh, lastText);
    const tasks = await fresh.evaluate(() => window.__bench.longtasks);
    row.revisit = `first row ${ms(first)}, panes ${ms(panes)}, longest ${ms(longest(tasks))}`;
  }
  if (errors.length) row.errors = errors.join('; ');
  await context.close();
  return row;
}


// ---- The figures ----

const LAST = 999; // the last message of the pasted exchange: "Answer 249"
/** Per pane, a text only its rendering of the last message holds. */
const lastNeedle = (id) => (id === 'mcp' ? 'result 249' : 'Answer 249');

/** The peak and current resident memory (MiB) of the browser's renderer processes. */
async function rendererMemory(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  let peak = 0;
  let now = 0;
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      const status = fs.readFileSync(`/proc/${p.id}/status`, 'utf8');
      const kb = (k) => Number((status.match(new RegExp(`${k}:\\s+(\\d+)`)) ?? [0, 0])[1]);
      peak = Math.max(peak, kb('VmHWM') / 1024);
      now = Math.max(now, kb('VmRSS') / 1024);
    } catch {
      // Gone already.
    }
  }
  return { peak, now };
}

/** Until every pane (`visibleOnly`: every pane in the viewport) holds its last message; the
 * in-page time. */
function panesShowLast(page, visibleOnly) {
  return page.waitForFunction(([ids, only]) => {
    for (const id of ids) {
      const el = document.querySelector(`[data-testid="editor-${id}"]`);
      if (!el) return false;
      if (only) {
        const r = el.getBoundingClientRect();
        if (r.bottom < 0 || r.top > innerHeight) continue;
      }
      const t = el.toolscopeEditor ? el.toolscopeEditor.getDoc() : el.querySelector('textarea')?.value;
      if (!t || !t.includes(id === 'mcp' ? 'result 249' : 'Answer 249')) return false;
    }
    return performance.now();
  }, [FORMATS, visibleOnly], { polling: 'raf', timeout: LIMIT }).then((h) => h.jsonValue());
}

/** Until every pane in view contains `needle`. */
function visiblePanesHave(page, needle) {
  return page.waitForFunction((n) => {
    for (const el of document.querySelectorAll('[data-testid^="editor-"]')) {
      const r = el.getBoundingClientRect();
      if (r.bottom < 0 || r.top > innerHeight || r.height === 0) continue;
      const t = el.toolscopeEditor ? el.toolscopeEditor.getDoc() : el.querySelector('textarea')?.value;
      if (!t?.includes(n)) return false;
    }
    return performance.now();
  }, needle, { polling: 'raf', timeout: LIMIT }).then((h) => h.jsonValue());
}

/** Type `n` keys (one per ~120 ms) where the focus is; key→frame times, and (with `needle`)
 * key→every visible pane. `needle(i)` is the text the panes show after key i. */
async function typeKeys(page, n, needle) {
  const start = await page.evaluate(() => window.__bench.keys.length);
  const toPanes = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    if (needle) {
      const shown = await visiblePanesHave(page, needle(i));
      const rec = await page.evaluate((k) => window.__bench.keys[k], start + i);
      toPanes.push(shown - rec.t0);
    }
    await page.waitForTimeout(120);
  }
  await page.waitForTimeout(200);
  const keys = (await page.evaluate(() => window.__bench.keys)).slice(start);
  const done = keys.filter((k) => k.frame !== null);
  if (process.env.SPLIT) {
    // Where the key→frame time goes: until the key's handler ran, until the frame's
    // callbacks, until the first task after the frame.
    console.log(`    split (event→handler / →rAF / →task): ${done.map((k) => `${Math.round(k.at - k.t0)}/${Math.round(k.raf - k.at)}/${Math.round(k.frame - k.raf)}`).join(' ')}`);
  }
  return { frames: done.map((k) => k.frame - k.t0), toPanes };
}

const wasmMiB = (page) => page.evaluate(() => (window.__bench.memory ? window.__bench.memory.buffer.byteLength / 1048576 : null));

/** A fresh browser and page on the app, settled. */
async function freshPage(url) {
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { timeout: LIMIT });
  await page.waitForSelector('.pane .cm-editor', { timeout: LIMIT });
  await page.waitForFunction(() => !document.querySelector('.code-fallback'), null, { timeout: LIMIT });
  await page.waitForTimeout(500);
  return { browser, page, errors };
}

/** Open the largest gallery example, the cursor at the end of its first message's text. */
async function toGalleryField(page) {
  await page.getByTestId('gallery').selectOption('multi_turn');
  await page.waitForTimeout(800);
  await page.getByTestId('text-0-0').click();
  await page.keyboard.press('Control+End');
  await page.waitForTimeout(300);
}

/** Keystrokes in the largest gallery example. */
async function galleryRun(url) {
  const { browser, page, errors } = await freshPage(url);
  try {
    await toGalleryField(page);
    const typed = await page.getByTestId('text-0-0').inputValue();
    const { frames, toPanes } = await typeKeys(page, 20, (i) => typed + 'abcdefghijklmnopqrstuvwxyz'.slice(0, i + 1));
    return { frames, toPanes, errors };
  } finally {
    await browser.close();
  }
}

/** Paste `doc` into the OpenAI pane as one CodeMirror transaction; the in-page time before. */
function pasteDoc(page, doc) {
  return page.$eval('[data-testid="editor-openai-chat"]', (el, t) => {
    const v = el.toolscopeEditor.view;
    v.focus();
    const at = performance.now();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t }, userEvent: 'input.paste' });
    return at;
  }, doc);
}

/** The cursor in the OpenAI pane, right after the last message's text. */
async function caretAfterLast(page) {
  await page.$eval('[data-testid="editor-openai-chat"]', (el) => {
    const v = el.toolscopeEditor.view;
    const at = v.state.doc.toString().lastIndexOf('Answer 249') + 'Answer 249'.length;
    v.focus();
    v.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  });
  await page.waitForTimeout(300);
}

/** Scroll the structured editor until the last message's field is drawn. */
async function toLastField(page) {
  await page.evaluate(() => document.querySelector('[data-testid="conversation-editor"]').scrollIntoView({ block: 'start' }));
  for (let i = 0; i < 100 && !(await page.getByTestId(`text-${LAST}-0`).count()); i++) {
    await page.evaluate(() => {
      const r = document.querySelector('.messages').getBoundingClientRect();
      window.scrollTo(0, window.scrollY + r.bottom - window.innerHeight);
    });
    await page.waitForTimeout(100);
  }
}

/** The 1,000-message paste, then typing in the pane and in the structured editor. */
async function pasteRun(url, doc) {
  const { browser, page, errors } = await freshPage(url);
  try {
    const before = await rendererMemory(browser);
    const t0 = await pasteDoc(page, doc);
    const seen = await panesShowLast(page, true);
    const all = await panesShowLast(page, false);
    await page.waitForTimeout(1000);
    // Keystrokes in the pane, right after the last message's text.
    await caretAfterLast(page);
    const inPane = await typeKeys(page, 20, (i) => 'Answer 249' + 'abcdefghijklmnopqrstuvwxyz'.slice(0, i + 1));
    // The same in the structured editor's last message.
    await toLastField(page);
    const field = page.getByTestId(`text-${LAST}-0`);
    await field.click();
    await page.keyboard.press('Control+End');
    await page.waitForTimeout(300);
    const inField = await typeKeys(page, 20, null);
    const wasm = await wasmMiB(page);
    const mem = await rendererMemory(browser);
    return { seen: seen - t0, all: all - t0, inPane, inField, wasm, mem, before, errors };
  } finally {
    await browser.close();
  }
}

const fmt = (xs) => (xs.length ? `${ms(median(xs))} / ${ms(Math.max(...xs))}` : '—');
const fmtMiB = (xs) => (xs.length ? `${median(xs).toFixed(0)} / ${Math.max(...xs).toFixed(0)} MiB` : '—');

async function rows(url) {
  const doc = openaiChatDocument(bigExchange({ messages: 1000, tools: 50 }));
  console.log(`${RUNS} runs per row; median / worst (ms unless said)`);
  const g = { frames: [], toPanes: [] };
  const p = { seen: [], all: [], pane: [], panePanes: [], field: [], wasm: [], peak: [], now: [], before: [] };
  const errors = [];
  for (let r = 0; r < RUNS; r++) {
    const a = await galleryRun(url);
    g.frames.push(...a.frames);
    g.toPanes.push(...a.toPanes);
    errors.push(...a.errors);
    if (galleryOnly) continue;
    const b = await pasteRun(url, doc);
    p.seen.push(b.seen);
    p.all.push(b.all);
    p.pane.push(...b.inPane.frames);
    p.panePanes.push(...b.inPane.toPanes);
    p.field.push(...b.inField.frames);
    if (b.wasm !== null) p.wasm.push(b.wasm);
    p.peak.push(b.mem.peak);
    p.now.push(b.mem.now);
    p.before.push(b.before.now);
    errors.push(...b.errors);
  }
  const line = (k, v) => console.log(`  ${k.padEnd(52)} ${v}`);
  line('gallery (multi-turn) key→next frame', fmt(g.frames));
  line('gallery (multi-turn) key→every visible pane', fmt(g.toPanes));
  if (galleryOnly) return;
  line(`paste of ${(doc.length / 1024).toFixed(0)} KiB (1,000 msgs, 50 tools) → panes in view show last`, fmt(p.seen));
  line('paste → every pane shows its last message', fmt(p.all));
  line('after the paste: key in the pane → next frame', fmt(p.pane));
  line('after the paste: key in the pane → every visible pane', fmt(p.panePanes));
  line(`after the paste: key in message ${LAST + 1}'s field → next frame`, fmt(p.field));
  line('wasm memory after the paste and typing', fmtMiB(p.wasm));
  line('renderer resident before the paste (VmRSS)', fmtMiB(p.before));
  line('renderer peak (VmHWM)', fmtMiB(p.peak));
  line('renderer resident at the end (VmRSS)', fmtMiB(p.now));
  if (errors.length) line('page errors', errors.join('; '));
}

// ---- Where the time goes (`--profile`) ----

/** Self and total time per function of a CPU profile (`Profiler.stop`'s), between `from` and
 * `to` (µs, the profile's clock); the rows above `min` ms, by total. */
function profileRows(profile, label) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => {
    const f = n.callFrame;
    const file = f.url ? f.url.split('/').pop().replace(/-[0-9a-f]{16}/, '') : '';
    return `${f.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
  };
  const self = new Map();
  const total = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  let all = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let n = byId.get(profile.samples[i]);
    if (n.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    all += dt;
    add(self, name(n), dt);
    const seen = new Set();
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const k = name(byId.get(id));
      if (!seen.has(k)) {
        seen.add(k);
        add(total, k, dt);
      }
    }
  }
  console.log(`${label}: ${all.toFixed(0)} ms busy, ${idle.toFixed(0)} ms idle`);
  if (process.argv.includes('--stretches')) {
    // Busy stretches (samples between idle ones) over 25 ms: what each spent its time in.
    let from = 0;
    const stretch = (a, b) => {
      let dur = 0;
      const tot = new Map();
      for (let i = a; i < b; i++) {
        const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        dur += dt;
        const seen = new Set();
        for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
          const k = name(byId.get(id)).replace(/::h[0-9a-f]{16}/, '');
          if (!seen.has(k)) {
            seen.add(k);
            add(tot, k, dt);
          }
        }
      }
      if (dur < 25) return;
      const keep = [...tot].filter(([k]) => /toolscope::|editor\.js|\(program\)|\(garbage|getBounding|setDoc|pass/.test(k));
      console.log(`  stretch of ${dur.toFixed(0)} ms: ${keep.sort((x, y) => y[1] - x[1]).slice(0, 24).map(([k, v]) => `${k.replace('toolscope::', '').slice(0, 70)} ${v.toFixed(0)}`).join(' | ')}`);
    };
    for (let i = 0; i < profile.samples.length; i++) {
      if (byId.get(profile.samples[i]).callFrame.functionName === '(idle)') {
        if (i > from) stretch(from, i);
        from = i + 1;
      }
    }
    stretch(from, profile.samples.length);
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('  self time:');
  for (const [k, v] of top(self, 30)) console.log(`    ${v.toFixed(1).padStart(8)}  ${k}`);
  console.log('  total time:');
  for (const [k, v] of top(total, 60)) console.log(`    ${v.toFixed(1).padStart(8)}  ${k}`);
}

/** The renderer main thread's tasks from each keydown to the frame after it, from a
 * Chromium trace: per task its start (ms after the key), length, and what took ≥ 1 ms in it
 * (scripts by function, style, layout, paint, GC). */
function traceKeys(events, label) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain'
    && events.some((k) => k.pid === e.pid && k.tid === e.tid && k.name === 'EventDispatch' && k.args?.data?.type === 'keydown'));
  if (!main) return console.log(`${label}: no renderer main thread with keys in the trace`);
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
  const keys = mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  console.log(`${label}: ${keys.length} keys`);
  const what = (e) => {
    const d = e.args?.data ?? {};
    if (e.name === 'FunctionCall') return `js ${d.functionName || '?'}@${(d.url ?? '').split('/').pop().slice(0, 24)}`;
    if (e.name === 'TimerFire') return 'timer';
    if (e.name === 'EventDispatch') return `event ${d.type}`;
    return e.name;
  };
  for (const k of keys) {
    const frame = mine.find((e) => e.ts > k.ts && (e.name === 'Commit' || e.name === 'Paint'));
    const end = (frame ? frame.ts + frame.dur : k.ts + 100_000) + (process.env.AFTER_MS ?? 0) * 1000;
    const lines = [];
    for (const t of tasks) {
      if (t.ts + t.dur < k.ts - 50_000 || t.ts > end || t.dur < (process.env.MIN_US ?? 1000)) continue;
      const parts = new Map();
      for (const e of mine) {
        if (e === t || e.ts < t.ts || e.ts + e.dur > t.ts + t.dur || e.dur < (process.env.MIN_US ?? 1000)) continue;
        // Only the outermost events of each kind inside the task.
        const n = what(e);
        if (n === 'RunTask' || n === 'ThreadControllerImpl::RunTask') continue;
        parts.set(n, (parts.get(n) ?? 0) + e.dur / 1000);
      }
      const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, d]) => `${n} ${d.toFixed(1)}`).join(', ');
      lines.push(`    ${((t.ts - k.ts) / 1000).toFixed(0).padStart(5)} +${(t.dur / 1000).toFixed(1).padStart(5)}  ${top}`);
    }
    console.log(`  key → frame ${((end - k.ts) / 1000).toFixed(0)} ms`);
    for (const l of lines) console.log(l);
  }
}

/** The trace categories that show tasks, events, style, layout, paint and GC. */
const TRACED = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'];

/** Profile the paste and the typing after it (CPU profiles through the DevTools protocol,
 * saved as target/*.cpuprofile to open in DevTools). A build whose wasm keeps its name
 * section shows Rust function names. */
async function profileRun(url) {
  if (process.argv.includes('--gallery')) {
    const { browser, page } = await freshPage(url);
    try {
      await toGalleryField(page);
      await browser.startTracing(page, { categories: TRACED });
      const { frames } = await typeKeys(page, 20, null);
      const trace = JSON.parse((await browser.stopTracing()).toString());
      if (process.env.SAVE_TRACE) fs.writeFileSync(process.env.SAVE_TRACE, JSON.stringify(trace));
      console.log(`gallery key → frame: ${frames.map(Math.round).join(' ')}`);
      traceKeys(trace.traceEvents, 'trace of typing in the gallery example');
    } finally {
      await browser.close();
    }
    return;
  }
  const doc = openaiChatDocument(bigExchange({ messages: 1000, tools: 50 }));
  const { browser, page } = await freshPage(url);
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const save = (name, p) => fs.writeFileSync(`target/${name}.cpuprofile`, JSON.stringify(p));
    await cdp.send('Profiler.start');
    const t0 = await pasteDoc(page, doc);
    const seen = await panesShowLast(page, true);
    const all = await panesShowLast(page, false);
    let { profile } = await cdp.send('Profiler.stop');
    save('paste', profile);
    console.log(`paste: panes in view ${ms(seen - t0)} ms, every pane ${ms(all - t0)} ms`);
    const tasks = await page.evaluate(() => window.__bench.longtasks);
    console.log(`  long tasks: ${tasks.filter(([s]) => s >= t0).map(([, d]) => Math.round(d)).join(' ')}`);
    profileRows(profile, 'paste');
    await page.waitForTimeout(1000);
    await caretAfterLast(page);
    if (process.argv.includes('--trace')) {
      await browser.startTracing(page, { categories: TRACED });
      await typeKeys(page, 10, null);
      const trace = JSON.parse((await browser.stopTracing()).toString());
      traceKeys(trace.traceEvents, 'trace of typing in the pane');
    }
    await cdp.send('Profiler.start');
    const inPane = await typeKeys(page, 20, null);
    ({ profile } = await cdp.send('Profiler.stop'));
    save('type-pane', profile);
    console.log(`key in the pane → frame: ${fmt(inPane.frames)}`);
    profileRows(profile, 'typing in the pane (20 keys)');
    await toLastField(page);
    await page.getByTestId(`text-${LAST}-0`).click();
    await page.keyboard.press('Control+End');
    await page.waitForTimeout(300);
    await cdp.send('Profiler.start');
    const inField = await typeKeys(page, 20, null);
    ({ profile } = await cdp.send('Profiler.stop'));
    save('type-field', profile);
    console.log(`key in the field → frame: ${fmt(inField.frames)}`);
    profileRows(profile, 'typing in the field (20 keys)');
  } finally {
    await browser.close();
  }
}

const { server, url } = await serveDist(dist ? { root: path.resolve(dist) } : {});
try {
  if (process.argv.includes('--profile')) {
    await profileRun(url);
  } else if (!links) {
    await rows(url);
  } else {
    const browser = await launch();
    try {
      const cases = quick ? CASES.slice(0, 1) : CASES.filter((c) => !only || c.name.includes(only));
      for (const c of cases) {
        console.log(`${c.name}…`);
        try {
          const row = await runCase(browser, url, c);
          for (const [k, v] of Object.entries(row)) console.log(`  ${k.padEnd(18)} ${v}`);
        } catch (e) {
          console.log(`  failed: ${e.message.split('\n')[0]}`);
        }
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
