// `make dist`, after the first paint is in index.html: split the main wasm in two by what the
// page runs before it is interactive, so a first visit fetches only that part before the app
// runs. Trunk cannot split a wasm (its issue #1022), so this works on the built files:
//
//  1. instrument: Binaryen's `wasm-split --instrument` (Debian's `binaryen` package) writes a
//     copy of the wasm that records which functions ran;
//  2. profile: that copy is served in place of the wasm and opened in headless Chromium (a first
//     visit: the first example, no saved work) until the app has mounted and the page has
//     settled; the page's own loader hands the profile out;
//  3. split: the functions that ran stay in the primary module (the file index.html already
//     loads); every other function moves to `<name>_bg.rest.wasm`, and the primary calls it
//     through a table slot that holds a placeholder until the rest arrives;
//  4. load: the wasm-bindgen glue gets the placeholders and a loader (js/split-loader.js). The
//     rest is fetched and instantiated as soon as the app has mounted; a placeholder called
//     before that (a function the profile did not see) loads the rest synchronously and then
//     calls the real function, so nothing can fail for want of it, only wait.
//
// What binaryen 108 gets wrong is mended here: it writes the export of a module's second table
// (wasm-bindgen's `__wbindgen_externrefs`) as an export of the first.
//
// Usage: node scripts/split.mjs [dist] — prints the sizes (raw, brotli) of both parts.
// SPLIT=0 skips it (the page then loads one whole wasm, as before).
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { serveDist, launch } from '../e2e/serve.mjs';
import { sizes } from './size.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? 'dist');
if (process.env.SPLIT === '0') {
  console.log('split: skipped (SPLIT=0)');
  process.exit(0);
}

// The features rustc's wasm32 target and wasm-opt emit; binaryen 108 needs them named.
const FEATURES = ['--enable-reference-types', '--enable-bulk-memory', '--enable-sign-ext', '--enable-mutable-globals', '--enable-multivalue', '--enable-nontrapping-float-to-int'];

const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const wasmName = html.match(/module_or_path: '\.\/([^']+_bg\.wasm)'/)?.[1];
const glueName = html.match(/from '\.\/([^']+\.js)'/)?.[1];
if (!wasmName || !glueName) throw new Error(`${dir}/index.html: no wasm-bindgen loader found`);
const wasmFile = path.join(dir, wasmName);
const glueFile = path.join(dir, glueName);
const restName = wasmName.replace(/_bg\.wasm$/, '_bg.rest.wasm');
let glue = fs.readFileSync(glueFile, 'utf8');
if (glue.includes(restName)) throw new Error(`${glueFile} is split already: build again (make dist)`);

const tmp = fs.mkdtempSync(path.join(root, 'target', 'split-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
const whole = fs.readFileSync(wasmFile);

/** Walk the export section of a wasm binary: `visit(name, kind, at, index, length)` for each
 * export, `at` the offset of its index, a LEB of `length` bytes. */
function exports(b, visit) {
  let p = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  while (p < b.length) {
    const id = b[p++];
    const end = leb() + p;
    if (id === 7) {
      for (let n = leb(); n > 0; n--) {
        const len = leb();
        const name = b.toString('utf8', p, p + len);
        p += len;
        const kind = b[p++];
        const at = p;
        visit(name, kind, at, leb(), p - at);
      }
    }
    p = end;
  }
}

/** The index of the table exported as `name`. */
function tableExport(bytes, name) {
  let found = null;
  exports(bytes, (n, kind, _at, index) => {
    if (n === name && kind === 1) found = index;
  });
  if (found === null) throw new Error(`no table export ${name}`);
  return found;
}

/** Point the table export `name` of a wasm file at table `index` (binaryen 108's mistake). */
function fixTableExport(file, name, index) {
  const b = fs.readFileSync(file);
  let done = false;
  exports(b, (n, kind, at, _was, len) => {
    if (n !== name || kind !== 1) return;
    // One-byte LEBs on both sides: a module has a handful of tables.
    if (len !== 1 || index > 0x7f) throw new Error(`${file}: table export ${name} is not one byte`);
    b[at] = index;
    done = true;
  });
  if (!done) throw new Error(`${file}: no table export ${name}`);
  fs.writeFileSync(file, b);
}

// SPLIT_NAMES=1 keeps a names section (when the input has one: a diagnosis, not a build).
const run = (args) =>
  execFileSync('wasm-split', [...FEATURES, ...(process.env.SPLIT_NAMES === '1' ? ['-g'] : []), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });

// 1. Instrument.
const instrumented = path.join(tmp, 'instrumented.wasm');
run(['--instrument', wasmFile, '-o', instrumented]);
const tableIndex = tableExport(whole, '__wbindgen_externrefs');
fixTableExport(instrumented, '__wbindgen_externrefs', tableIndex);

// 2. Profile: a first visit, served from dist with the instrumented wasm in place of the real one.
const profileFile = path.join(tmp, 'profile.bin');
{
  const { server, url, overrides } = await serveDist({ root: dir, headers: false });
  overrides.set(`/${wasmName}`, fs.readFileSync(instrumented));
  const browser = await launch();
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    // A slow phone's CPU (as scripts/bench-load.mjs measures): timers and deferred work then
    // fall inside the run as they do where the split matters most.
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // The app as the split page starts it: the engine's part not there yet (src/ui/engine.rs).
    await page.addInitScript(() => {
      const mark = () => document.documentElement && (document.documentElement.dataset.engine = 'loading');
      if (!mark()) document.addEventListener('readystatechange', mark, { once: true });
      addEventListener('TrunkApplicationStarted', (e) => (window.__splitWasm = e.detail.wasm));
    });
    // The code editor arrives late, as on a slow network, so what typing does before it is
    // there is seen too (below).
    let editorArrives;
    const editorHeld = new Promise((resolve) => (editorArrives = resolve));
    await page.route('**/editor.js', async (route) => {
      await editorHeld;
      await route.continue();
    });
    await page.goto(url);
    await page
      .waitForFunction(() => window.__splitWasm && !document.getElementById('prerender') && document.querySelector('main.workspace .pane-grid .pane'), null, { timeout: 60_000 })
      .catch((e) => {
        throw new Error(`the instrumented page did not mount (${errors.join('; ') || e.message})`);
      });
    // The first thing people do: type in the structured editor (the panes then wait for the
    // engine, but the edit itself, the undo history and the autosave must not), before the
    // code editor has arrived and after; each time until the page is quiet again.
    const type = async () => {
      for (const testid of ['system', 'text-0-0']) {
        const field = page.getByTestId(testid);
        if ((await field.count()) === 0) throw new Error(`the profile run found no [data-testid=${testid}]`);
        await field.click();
        await page.keyboard.type('ab', { delay: 30 });
        await page.keyboard.press('Backspace');
      }
      await page.waitForTimeout(1500);
    };
    await type();
    editorArrives();
    await page.waitForFunction(() => document.querySelector('.pane .cm-editor') && !document.querySelector('.code-fallback'), null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    await type();
    if (errors.length) throw new Error(`the instrumented page failed: ${errors.join('; ')}`);
    const bytes = await page.evaluate(() => {
      const w = window.__splitWasm;
      const size = 8 + 4 * 1_000_000;
      const at = w.__wbindgen_malloc(size, 4);
      const n = w.__write_profile(at, size);
      return Array.from(new Uint8Array(w.memory.buffer, at, n));
    });
    fs.writeFileSync(profileFile, Buffer.from(bytes));
  } finally {
    await browser.close();
    server.close();
  }
}

// 3. Split.
const primary = path.join(tmp, 'primary.wasm');
const rest = path.join(tmp, 'rest.wasm');
run([wasmFile, '--profile', profileFile, '-o1', primary, '-o2', rest, '--export-prefix', '%', '--placeholdermap']);
fixTableExport(primary, '__wbindgen_externrefs', tableIndex);
for (const f of [primary, rest]) new WebAssembly.Module(fs.readFileSync(f)); // both must compile
const slots = fs.readFileSync(`${primary}.placeholders`, 'utf8').trim().split('\n').length;

// 4. The glue: placeholders in the imports, the loader after the module has started.
const loader = fs.readFileSync(path.join(root, 'js/split-loader.js'), 'utf8').replace('__REST__', JSON.stringify(restName));
// Each place in wasm-bindgen's glue, and what goes after it.
for (const [at, after] of [
  ['\n    return {\n        __proto__: null,\n', '        placeholder: __split.placeholders,\n'],
  ['    const { instance, module } = await __wbg_load(await module_or_path, imports);\n', '    await __split.beforeStart(instance.exports);\n'],
  ['    wasm.__wbindgen_start();\n', '    __split.mounted();\n'],
]) {
  if (glue.split(at).length !== 2) throw new Error(`${glueFile}: wasm-bindgen's glue changed shape (${at.trim()})`);
  glue = glue.replace(at, at + after);
}
glue = `${glue}\n${loader}`;

fs.copyFileSync(primary, wasmFile);
fs.copyFileSync(rest, path.join(dir, restName));
// Minified (esbuild, already here for the code editor): the glue is fetched before the app
// runs, and its export names and the wasm's import names are kept as they are.
fs.writeFileSync(glueFile, transformSync(glue, { minify: true, format: 'esm', target: 'es2022' }).code);

// index.html's integrity attributes of the two files that changed.
const sri = (file) => `sha384-${crypto.createHash('sha384').update(fs.readFileSync(file)).digest('base64')}`;
let out = html;
for (const [name, file] of [[wasmName, wasmFile], [glueName, glueFile]]) {
  const re = new RegExp(`(href="\\./${name.replace(/[.]/g, '\\.')}"[^>]*integrity=")[^"]*(")`);
  if (!re.test(out)) throw new Error(`index.html: no integrity for ${name}`);
  out = out.replace(re, `$1${sri(file)}$2`);
}
fs.writeFileSync(path.join(dir, 'index.html'), out);
if (process.env.SPLIT_NAMES === '1') fs.copyFileSync(`${primary}.placeholders`, path.join(root, 'target', 'split-placeholders.txt'));

const fmt = (n) => n.toLocaleString('en-US');
const size = (bytes) => {
  const s = sizes(bytes);
  return `${fmt(s.raw)} B (${fmt(s.brotli)} brotli)`;
};
console.log(
  `split: ${wasmName} ${size(whole)} → primary ${size(fs.readFileSync(wasmFile))} + ${restName} ${size(fs.readFileSync(path.join(dir, restName)))}, ${fmt(slots)} placeholders`,
);
