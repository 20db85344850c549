// Page benchmark: large share links opened in headless Chromium (the release build in dist/,
// served like the end-to-end tests serve it). For each case it reports
//   first row   ms from navigation start until the first message (or tool) row is drawn
//   usable      ms from navigation start until a key typed into the first field (the first
//               tool's description), as soon as that field exists, shows in the OpenAI pane
//   longest     the longest main-thread task while opening (PerformanceObserver longtask)
//   key→frame   a keystroke in the first message (first tool name for the tools case) until
//               the next frame is painted
//               (median and worst of 10)
//   key→pane    the same keystroke until the OpenAI pane shows it (median and worst)
//   end         scrolling to the last row, then a key typed there until the pane shows it
//   scroll      the longest task while scrolling to the end
// Usage: make dist && node scripts/bench-page.mjs [--quick]   (--quick: the 1,000-message
// case only). Figures are printed; nothing is asserted.
import { serveDist, launch } from '../e2e/serve.mjs';
import { bigExchange, linkFragment } from '../e2e/big.mjs';

const quick = process.argv.includes('--quick');
const LIMIT = 300_000;

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
  document.addEventListener('keydown', (e) => {
    const rec = { t0: e.timeStamp, frame: null };
    b.keys.push(rec);
    requestAnimationFrame(() => setTimeout(() => { rec.frame = performance.now(); }, 0));
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
  await page.keyboard.press('End');
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
  await page.keyboard.press('End');
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
  await page.keyboard.press('End');
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

const { server, url } = await serveDist();
const browser = await launch();
try {
  for (const c of quick ? CASES.slice(0, 1) : CASES) {
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
  server.close();
}
