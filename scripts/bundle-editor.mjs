// Bundle js/editor.js (CodeMirror 6 from node_modules) into one minified ES module that the
// app imports lazily. Run by Trunk's pre_build hook, so `trunk serve` and `trunk build` both
// have it; writes target/editor/editor.js, which index.html copies into dist/.
//
// What ships must carry its licences: every npm package esbuild actually bundled (read from its
// metafile, so a new transitive dependency cannot slip past) has its name, version, licence id
// and LICENSE file written to target/editor/editor.js.LICENSES.txt (copied into dist/ too), and
// editor.js opens with a banner pointing there. e2e/served.test.mjs checks the two agree.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'target/editor');
const NOTICES = 'editor.js.LICENSES.txt';

/** The npm packages (name → directory) whose files are among a metafile's inputs. */
function bundledPackages(metafile) {
  const found = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const parts = input.split('/');
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const n = parts[at + 1]?.startsWith('@') ? 2 : 1;
    const name = parts.slice(at + 1, at + 1 + n).join('/');
    found.set(name, path.join(root, ...parts.slice(0, at + 1 + n)));
  }
  return [...found.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A package's licence text: its LICENSE/LICENCE/COPYING file (any case, any extension). */
function licenceText(dir) {
  const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  if (!file) throw new Error(`${dir}: no LICENSE file; a shipped package must carry one`);
  return fs.readFileSync(path.join(dir, file), 'utf8').trim();
}

const result = await build({
  entryPoints: [path.join(root, 'js/editor.js')],
  outfile: path.join(outDir, 'editor.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  // Any /*! or @license comment of the sources stays at the end; the packages' LICENSE files
  // (CodeMirror's sources carry none in comments) go to the notices file.
  legalComments: 'eof',
  banner: {
    js: `/*! Toolscope code editor: CodeMirror 6 and its dependencies, bundled. Their licences: ${NOTICES} */`,
  },
  metafile: true,
  logLevel: 'warning',
});

const sections = bundledPackages(result.metafile).map(([name, dir]) => {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return [
    `${name} ${pkg.version} (${pkg.license ?? 'see below'})`,
    pkg.homepage ?? pkg.repository?.url ?? pkg.repository ?? '',
    '',
    licenceText(dir),
  ].join('\n');
});
const rule = `\n\n${'-'.repeat(78)}\n\n`;
fs.writeFileSync(
  path.join(outDir, NOTICES),
  `Third-party software in editor.js (bundled by scripts/bundle-editor.mjs from npm), with\nthe licence each is distributed under. ${sections.length} packages.${rule}${sections.join(rule)}\n`,
);
