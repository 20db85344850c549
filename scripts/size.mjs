// Print the size of the release wasm in dist/, of what loads on first use (the code editor
// editor.js, the lazy wasm module in lazy/) and of index.html, which carries the first paint:
// raw, gzip -9 and brotli (quality 11).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const lazy = fs.existsSync(path.join(dir, 'lazy')) ? fs.readdirSync(path.join(dir, 'lazy')).filter((f) => f.endsWith('.wasm')).map((f) => `lazy/${f}`) : [];
const files = [...fs.readdirSync(dir).filter((f) => f.endsWith('.wasm') || f === 'editor.js' || f === 'index.html'), ...lazy];
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
  const what = f === 'index.html' ? 'first paint' : f.endsWith('.wasm') && !f.startsWith('lazy/') ? 'wasm' : 'lazy';
  console.log(`${what} size ${f}: raw ${fmt(raw.length)} B, gzip ${fmt(gzip)} B, brotli ${fmt(brotli)} B`);
}
