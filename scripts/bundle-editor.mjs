// Bundle js/editor.js (CodeMirror 6 from node_modules) into one minified ES module that the
// app imports lazily. Run by Trunk's pre_build hook, so `trunk serve` and `trunk build` both
// have it; writes target/editor/editor.js, which index.html copies into dist/.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [path.join(root, 'js/editor.js')],
  outfile: path.join(root, 'target/editor/editor.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'warning',
});
