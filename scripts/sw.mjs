// `make dist`, once every file of the build is final: write dist/sw.js from js/sw.js with the
// list of files to cache (all of the build, paths relative to the page) and a VERSION that is
// the hash of their contents, so each build that changes a byte is a new worker.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'dist';
const skip = (f) => f === 'sw.js' || f === '_headers' || /\.(br|gz)$/.test(f) || f.endsWith('LICENSES.txt');
const list = (d) =>
  fs.readdirSync(path.join(dir, d), { withFileTypes: true }).flatMap((e) => {
    const rel = d ? `${d}/${e.name}` : e.name;
    return e.isDirectory() ? list(rel) : skip(rel) ? [] : [rel];
  });
const assets = list('').sort();
if (!assets.includes('index.html')) throw new Error(`${dir}: no index.html`);
const hash = crypto.createHash('sha256');
for (const a of assets) hash.update(a).update(fs.readFileSync(path.join(dir, a)));
const version = hash.digest('hex').slice(0, 16);
const template = fs.readFileSync(new URL('../js/sw.js', import.meta.url), 'utf8');
fs.writeFileSync(
  path.join(dir, 'sw.js'),
  template.replace("'__VERSION__'", JSON.stringify(version)).replace('__ASSETS__', JSON.stringify(assets)),
);
console.log(`sw.js: version ${version}, ${assets.length} files cached`);
