// Sizes of the page's files: raw, gzip -9 and brotli (quality 11).
//
//   node scripts/size.mjs [dist]        the built page: the main wasm, index.html (the first
//                                       paint), editor.js, the lazy module (lazy/), the
//                                       vocabularies (vocab/)
//   node scripts/size.mjs --wasm [opts] the size loop without a full dist: the main wasm (and
//                                       with --lazy the lazy one) as Trunk ships it —
//                                       `cargo build --profile wasm-release`, wasm-bindgen
//                                       --target web, wasm-opt with index.html's flags — into
//                                       target/size/; prints raw and brotli of what it wrote.
//     --no-build            take the wasm cargo last built (target/wasm32-unknown-unknown/<profile>)
//     --profile P           the cargo profile (default wasm-release)
//     --opt "-Oz ..."       wasm-opt's flags (default: index.html's data-wasm-opt and
//                           data-wasm-opt-params, as Trunk passes them)
//     --lazy                the lazy module too (scripts/build-lazy.mjs's flags)
// RUSTFLAGS from the environment pass through to cargo (e.g. `--cfg erase_components`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const fmt = (n) => n.toLocaleString('en-US');

/** Raw, gzip -9 and brotli 11 sizes of `bytes`. */
export function sizes(bytes) {
  return {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** index.html's wasm-opt flags for the main wasm, as Trunk 0.21 passes them (`-O<level>` then the params). */
function indexFlags() {
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const link = html.match(/<link data-trunk rel="rust"[^>]*>/)?.[0] ?? '';
  const level = link.match(/data-wasm-opt="([^"]*)"/)?.[1] ?? '0';
  const params = link.match(/data-wasm-opt-params="([^"]*)"/)?.[1] ?? '';
  return level === '0' ? [] : [`-O${level}`, ...params.split(/\s+/).filter(Boolean)];
}

function loop() {
  const profile = opt('--profile') ?? 'wasm-release';
  const run = (cmd, a, env) => execFileSync(cmd, a, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  const crates = [['toolscope', ['--bin', 'toolscope'], opt('--opt')?.split(/\s+/).filter(Boolean) ?? indexFlags()]];
  if (args.includes('--lazy')) crates.push(['toolscope_lazy', ['-p', 'toolscope-lazy'], ['-Oz']]);
  const wasmOpt = fs.existsSync(path.join(root, 'node_modules/.bin/wasm-opt')) ? path.join(root, 'node_modules/.bin/wasm-opt') : 'wasm-opt';
  for (const [name, sel, flags] of crates) {
    if (!args.includes('--no-build')) run('nice', ['-n', '10', 'cargo', 'build', '--locked', '--target', 'wasm32-unknown-unknown', '--profile', profile, ...sel]);
    const built = path.join(root, 'target/wasm32-unknown-unknown', profile, `${name}.wasm`);
    const out = path.join(root, 'target/size', name);
    fs.rmSync(out, { recursive: true, force: true });
    run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', out, built]);
    const wasm = path.join(out, `${name}_bg.wasm`);
    if (flags.length) run(wasmOpt, [...flags, wasm, '-o', wasm]);
    for (const f of [wasm, path.join(out, `${name}.js`)]) {
      const s = sizes(fs.readFileSync(f));
      console.log(`${name} ${path.basename(f)}: raw ${fmt(s.raw)} B, gzip ${fmt(s.gzip)} B, brotli ${fmt(s.brotli)} B  (profile ${profile}, wasm-opt ${f.endsWith('.wasm') ? flags.join(' ') || 'off' : '-'}${process.env.RUSTFLAGS ? `, RUSTFLAGS ${process.env.RUSTFLAGS}` : ''})`);
    }
  }
}

function dist() {
  const dir = args.find((a) => !a.startsWith('--')) ?? 'dist';
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.wasm') || f === 'editor.js' || f === 'index.html');
  for (const sub of ['lazy', 'vocab']) {
    const d = path.join(dir, sub);
    if (fs.existsSync(d)) files.push(...fs.readdirSync(d).filter((f) => /\.(wasm|js|bin)$/.test(f)).map((f) => path.join(sub, f)));
  }
  if (files.length === 0) {
    console.error(`no .wasm in ${dir}: run make dist`);
    process.exit(1);
  }
  for (const f of files) {
    const s = sizes(fs.readFileSync(path.join(dir, f)));
    const what = f === 'index.html' ? 'first paint' : f.startsWith('lazy') ? 'lazy module' : f.startsWith('vocab') ? 'vocabulary' : f.endsWith('.wasm') ? 'wasm' : 'lazy';
    console.log(`${what} size ${f}: raw ${fmt(s.raw)} B, gzip ${fmt(s.gzip)} B, brotli ${fmt(s.brotli)} B`);
  }
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  if (args.includes('--wasm')) loop();
  else dist();
}
