// Trunk pre_build hook: build the lazy wasm module (lazy/, the cost engine and what the page
// needs only on use) next to the main one. Writes target/lazy/ (wasm-bindgen's --target web
// output, wasm-opt -Oz in release) and target/vocab/ (the tokenizer vocabularies, fetched by the
// Cost view on first use); index.html copies both into dist/.
//
// Same size settings as the main wasm: Cargo.toml's `wasm-release` profile (opt-level z, LTO; the
// plain `release` profile is the native speed profile) and wasm-opt -Oz.
// `node scripts/build-lazy.mjs` alone builds release; Trunk says debug or release in TRUNK_PROFILE.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const release = (process.env.TRUNK_PROFILE ?? 'release') === 'release';
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const cargoProfile = process.env.WASM_PROFILE ?? 'wasm-release';
const profile = release ? ['--profile', cargoProfile] : [];
run('cargo', ['build', ...profile, '--target', 'wasm32-unknown-unknown', '-p', 'toolscope-lazy']);
const built = path.join(root, 'target/wasm32-unknown-unknown', release ? cargoProfile : 'debug', 'toolscope_lazy.wasm');
const out = path.join(root, 'target/lazy');
fs.rmSync(out, { recursive: true, force: true });
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', out, built]);
if (release) {
  const wasm = path.join(out, 'toolscope_lazy_bg.wasm');
  const opt = path.join(root, 'node_modules/.bin/wasm-opt');
  run(fs.existsSync(opt) ? opt : 'wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', wasm, '-o', wasm]);
}

const vocab = path.join(root, 'target/vocab');
fs.rmSync(vocab, { recursive: true, force: true });
fs.mkdirSync(vocab, { recursive: true });
for (const f of fs.readdirSync(path.join(root, 'assets/vocab'))) {
  if (f.endsWith('.bin') || f === 'NOTICE') fs.copyFileSync(path.join(root, 'assets/vocab', f), path.join(vocab, f));
}
