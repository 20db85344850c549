// Print the response headers of a built page (dist/_headers, written by scripts/csp.mjs) as a
// server snippet: `node scripts/headers.mjs nginx` (add_header lines for the page's location
// block) or `node scripts/headers.mjs caddy` (a header directive for the site block).
// `readHeaders` is shared with e2e/serve.mjs, so the test server sends exactly these.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The headers of the `/*` block of a `_headers` file, as [name, value] pairs. */
export function readHeaders(file) {
  const out = [];
  let inBlock = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    if (!/^\s/.test(line)) {
      inBlock = line.trim() === '/*';
      continue;
    }
    const at = line.indexOf(':');
    if (inBlock && at > 0) out.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
  }
  return out;
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const kind = process.argv[2];
  const file = process.argv[3] ?? path.join(path.dirname(self), '..', 'dist', '_headers');
  const headers = readHeaders(file);
  if (kind === 'nginx') {
    for (const [k, v] of headers) console.log(`add_header ${k} "${v.replaceAll('"', '\\"')}" always;`);
  } else if (kind === 'caddy') {
    console.log('header {');
    for (const [k, v] of headers) console.log(`\t${k} "${v.replaceAll('"', '\\"')}"`);
    console.log('}');
  } else {
    console.error('usage: node scripts/headers.mjs nginx|caddy [dist/_headers]');
    process.exit(2);
  }
}
