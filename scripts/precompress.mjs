// `make dist`, last step: a .br (brotli, quality 11) and a .gz (gzip -9) next to every text
// and wasm file of dist/, for hosts that serve precompressed files (nginx gzip_static /
// brotli_static, Caddy precompressed, e2e/serve.mjs). Files that do not shrink get none.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const dir = process.argv[2] ?? 'dist';
const kinds = /\.(html|js|mjs|css|wasm|svg|json|webmanifest|txt)$/;

const walk = (d) =>
  fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
const files = walk(dir);
for (const f of files.filter((f) => /\.(br|gz)$/.test(f))) fs.rmSync(f);
let raw = 0;
let br = 0;
await Promise.all(
  files
    .filter((f) => kinds.test(f))
    .map(async (f) => {
      const data = fs.readFileSync(f);
      const [b, g] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [zlib.constants.BROTLI_PARAM_MODE]: f.endsWith('.wasm') ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(data, { level: 9 }),
      ]);
      raw += data.length;
      if (b.length < data.length) {
        fs.writeFileSync(`${f}.br`, b);
        br += b.length;
      } else br += data.length;
      if (g.length < data.length) fs.writeFileSync(`${f}.gz`, g);
    }),
);
console.log(`precompressed ${dir}: ${raw.toLocaleString('en-US')} B raw, ${br.toLocaleString('en-US')} B brotli`);
