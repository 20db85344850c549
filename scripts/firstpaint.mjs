// `make dist`, after `toolscope prerender` put the first example's panes into dist/index.html:
// make those first HTML bytes enough to paint them. The stylesheets Trunk links are put inline
// (a linked stylesheet blocks the paint for a round trip, over half a second on a 3G phone),
// and so is js/boot.js (saved theme before the paint, service worker, update notice); the
// manifest is linked. scripts/csp.mjs runs next and hashes the inline script.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'dist';
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');
if (!html.includes('id="prerender"')) throw new Error(`${file}: no first paint (run toolscope prerender first)`);

const css = [];
html = html.replace(/[ \t]*<link rel="stylesheet" href="\.\/([^"]+)"[^>]*>\n?/g, (_, href) => {
  css.push(fs.readFileSync(path.join(dir, href), 'utf8'));
  return '';
});
if (css.length === 0 && !html.includes('<style data-inline>')) throw new Error(`${file}: no stylesheet to inline`);
const boot = fs.readFileSync(new URL('../js/boot.js', import.meta.url), 'utf8');
const head = [
  css.length ? `<style data-inline>\n${css.join('\n')}</style>` : '',
  `<script data-boot>\n${boot}</script>`,
  '<link rel="manifest" href="manifest.webmanifest" />',
  '<meta name="theme-color" content="#3355dd" />',
]
  .filter(Boolean)
  .join('\n    ');
html = html.replace(/<script data-boot>[\s\S]*?<\/script>\s*/, '');
html = html.replace(/<link rel="manifest"[^>]*>\s*/, '').replace(/<meta name="theme-color"[^>]*>\s*/, '');
html = html.replace('</title>', `</title>\n    ${head}`);
html = html.replace(
  /<noscript>[\s\S]*?<\/noscript>/,
  '<noscript><p class="notice">This is the first example, written when the page was built. Toolscope is a WebAssembly app: enable JavaScript to edit it.</p></noscript>',
);
fs.writeFileSync(file, html);
