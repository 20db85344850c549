// What the main wasm is made of, by module: `twiggy top` (cargo install twiggy) over the release
// wasm before wasm-bindgen and wasm-opt (target/wasm32-unknown-unknown/release/toolscope.wasm,
// which still has function names), every function's own size summed by the module it belongs
// to (the Toolscope module in its name, else its crate). Custom sections (names, wasm-bindgen's
// descriptors) are left out: they are not in the shipped file. The shares are of the code and
// data that remain; wasm-opt -Oz shrinks all of them by roughly the same factor.
// Usage: node scripts/wasm-composition.mjs [file.wasm] [--top N]
import { execFileSync } from 'node:child_process';

const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith('.wasm')) ?? 'target/wasm32-unknown-unknown/release/toolscope.wasm';
const top = Number(args.includes('--top') ? args[args.indexOf('--top') + 1] : 30);

const rows = JSON.parse(execFileSync('twiggy', ['top', '-n', '1000000', '--format', 'json', file], { maxBuffer: 1 << 30 }));

/** The group of an item: the most specific Toolscope module its name mentions, else its crate. */
function group(raw) {
  const name = raw.replace(/\[[0-9a-f]{16}\]/g, '');
  if (name.startsWith('data segment') || name.startsWith('data[')) return 'data (.rodata: strings, tables)';
  const own = [...name.matchAll(/toolscope::((?:[a-z_0-9]+::)*)/g)].map((m) => m[1].split('::').filter(Boolean));
  if (own.length) {
    // The longest path wins: `<toolscope::formats::gemini::Codec as toolscope::formats::Codec>`
    // is Gemini's.
    const p = own.sort((a, b) => b.length - a.length)[0].filter((s) => s !== '_' && !/^h[0-9a-f]{16}$/.test(s));
    if (p[0] === 'formats' && p[1] && !['mod', 'json', 'field', 'limits', 'notes', 'registry'].includes(p[1])) return `toolscope formats::${p[1]}`;
    if (p[0] === 'ui' && p[1]) return `toolscope ui::${p[1].replace(/^__component_/, '')}`;
    if (p[0] === 'stream' && p[1]) return `toolscope stream::${p[1]}`;
    return `toolscope ${p[0] ?? '(root)'}`;
  }
  const crates = [...name.matchAll(/([a-z_][a-z0-9_]*)::/g)].map((m) => m[1]);
  const has = (list) => crates.some((c) => list.includes(c));
  if (has(['leptos', 'leptos_dom', 'tachys', 'reactive_graph', 'any_spawner', 'or_poisoned', 'throw_error', 'next_tuple', 'oco_ref', 'server_fn', 'leptos_macro'])) return 'leptos (leptos, tachys, reactive_graph…)';
  if (has(['serde', 'serde_core', 'serde_json', 'serde_path_to_error'])) return 'serde, serde_json';
  if (has(['wasm_bindgen', 'js_sys', 'web_sys', 'wasm_bindgen_futures', 'gloo_net', 'gloo_utils', 'wasm_streams', 'console_error_panic_hook'])) return 'wasm-bindgen, js-sys, web-sys';
  if (crates.length === 0) return 'unnamed';
  if (['core', 'alloc', 'std', 'compiler_builtins', 'dlmalloc', 'hashbrown'].includes(crates[0])) return 'Rust std (core, alloc, hashbrown…)';
  return crates[0];
}

const sizes = new Map();
let total = 0;
for (const r of rows) {
  const name = r.name;
  // Not shipped: names and wasm-bindgen's descriptors (wasm-bindgen removes them).
  if (/subsection|custom section|__wbindgen_describe/.test(name)) continue;
  const g = group(name);
  sizes.set(g, (sizes.get(g) ?? 0) + r.shallow_size);
  total += r.shallow_size;
}
const sorted = [...sizes].sort((a, b) => b[1] - a[1]);
console.log(`${file}: ${(total / 1000).toFixed(0)} kB of code and data (custom sections left out)`);
for (const [g, n] of sorted.slice(0, top)) {
  console.log(`${(n / 1000).toFixed(1).padStart(8)} kB ${((100 * n) / total).toFixed(1).padStart(5)} %  ${g}`);
}
const rest = sorted.slice(top).reduce((a, [, n]) => a + n, 0);
if (rest) console.log(`${(rest / 1000).toFixed(1).padStart(8)} kB ${((100 * rest) / total).toFixed(1).padStart(5)} %  ${sorted.length - top} more groups`);
