// Trunk post_build hook (and `make dist` again after scripts/firstpaint.mjs): give the built page
// a Content-Security-Policy. Its inline scripts (Trunk's wasm loader, js/boot.js) are allowed by
// their SHA-256 hashes, so no inline script the page did not ship can run. WebAssembly needs 'wasm-unsafe-eval' (not 'unsafe-eval'); CodeMirror and
// Leptos set inline styles, hence style-src 'unsafe-inline'. Scripts come only from the page;
// fetch may reach the providers (see connect-src).
//
// A <meta> policy cannot say who may frame the page (frame-ancestors is ignored there), so the
// same policy plus frame-ancestors 'none' and the other headers a static host should send go to
// dist/_headers (Netlify / Cloudflare Pages format; `node scripts/headers.mjs nginx|caddy` turns
// it into a server snippet, and e2e/serve.mjs sends exactly these).
//
// `trunk serve` (make serve) injects its reload script before this hook runs, then fills in two
// placeholders of it while serving, which would change the script after it was hashed: they
// are filled in here instead (the address is the page's own host, the socket's path the public
// URL), so the served script is the hashed one; its socket to the dev server is allowed only in
// that build's policy.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');
const devServer = html.includes('{{__TRUNK_ADDRESS__}}');
if (devServer) {
  let base = process.env.TRUNK_PUBLIC_URL ?? '/';
  if (!base.startsWith('/')) base = '/';
  if (!base.endsWith('/')) base += '/';
  html = html
    .replaceAll("'{{__TRUNK_ADDRESS__}}'", 'window.location.host')
    .replaceAll('`{{__TRUNK_ADDRESS__}}`', 'window.location.host')
    .replaceAll('{{__TRUNK_WS_BASE__}}', base);
}
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
);
const policy = [
  "default-src 'none'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The web app manifest and the service worker (offline use, second visits from the cache).
  "manifest-src 'self'",
  "worker-src 'self'",
  // Live calls go to any https API and, over plain http, only to this machine (Ollama, vLLM,
  // LM Studio); src/live/mod.rs (Url::is_loopback) refuses the rest before sending.
  `connect-src 'self' https: http://localhost:* http://127.0.0.1:*${devServer ? ' ws://localhost:* ws://127.0.0.1:*' : ''}`,
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '');
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
if (!html.includes('Content-Security-Policy')) throw new Error(`${file}: no <meta charset> to put the CSP after`);
fs.writeFileSync(file, html);

const headers = {
  'Content-Security-Policy': `${policy}; frame-ancestors 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
fs.writeFileSync(
  path.join(dir, '_headers'),
  `# Response headers for every file of the page (Netlify, Cloudflare Pages). Written by\n# scripts/csp.mjs at build time: the CSP carries the hash of this build's loader script.\n/*\n${Object.entries(headers)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')}\n`,
);
