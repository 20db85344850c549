// Print the size of the release wasm in dist/, of index.html (which carries the first paint),
// of the lazily loaded code editor (editor.js), of the lazy wasm module (lazy/) and of the
// vocabularies the Cost view fetches (vocab/): raw, gzip -9 and brotli (quality 11).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
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
  const raw = fs.readFileSync(path.join(dir, f));
  const gzip = zlib.gzipSync(raw, { level: 9 }).length;
  const brotli = zlib.brotliCompressSync(raw, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  const fmt = (n) => n.toLocaleString('en-US');
  const what = f === 'index.html' ? 'first paint' : f.startsWith('lazy') ? 'lazy module' : f.startsWith('vocab') ? 'vocabulary' : f.endsWith('.wasm') ? 'wasm' : 'lazy';
  console.log(`${what} size ${f}: raw ${fmt(raw.length)} B, gzip ${fmt(gzip)} B, brotli ${fmt(brotli)} B`);
}
