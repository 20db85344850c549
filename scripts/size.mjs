// Print the size of the release wasm in dist/ and of the lazily loaded code editor (editor.js):
// raw, gzip -9 and brotli (quality 11).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.wasm') || f === 'editor.js');
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
  console.log(`${f.endsWith('.wasm') ? 'wasm' : 'lazy'} size ${f}: raw ${fmt(raw.length)} B, gzip ${fmt(gzip)} B, brotli ${fmt(brotli)} B`);
}
