// `make dist`, once every file of the build is final: write dist/sw.js from js/sw.js with the
// list of files to cache (all of the build, paths relative to the page: the lazy module and the
// vocabularies when first used, the rest at once) and a VERSION that is the hash of their
// contents, so each build that changes a byte is a new worker.
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
const all = list('').sort();
// The lazy module and the vocabularies (megabytes) are cached when first used, not up front.
const onUse = (f) => f.startsWith('lazy/') || f.startsWith('vocab/');
const assets = all.filter((f) => !onUse(f));
const later = all.filter(onUse);
if (!assets.includes('index.html')) throw new Error(`${dir}: no index.html`);
const template = fs.readFileSync(new URL('../js/sw.js', import.meta.url), 'utf8');
// The worker's own code counts too: a new worker is a new version even when the page is not.
const hash = crypto.createHash('sha256').update(template);
for (const a of all) hash.update(a).update(fs.readFileSync(path.join(dir, a)));
const version = hash.digest('hex').slice(0, 16);
fs.writeFileSync(
  path.join(dir, 'sw.js'),
  template
    .replace("'__VERSION__'", JSON.stringify(version))
    .replace('__ASSETS__', JSON.stringify(assets))
    .replace('__ON_USE__', JSON.stringify(later)),
);
console.log(`sw.js: version ${version}, ${assets.length} files cached at once, ${later.length} on first use`);
