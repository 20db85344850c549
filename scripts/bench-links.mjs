// Share-link length against lz-string's compressToEncodedURIComponent (npm `lz-string`, what
// most playgrounds put in their URLs) on the same state JSON, per gallery example and for a
// 1,000-message, 50-tool exchange. Reads target/bench/links.json (written by
// `cargo bench --bench links`), prints a table, writes target/bench/links-ratio.json.
// No assertion: `make bench` prints the figures.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import LZString from "lz-string";

const bench = join(dirname(fileURLToPath(import.meta.url)), "..", "target", "bench");
const rows = JSON.parse(readFileSync(join(bench, "links.json"), "utf8"));
const pad = (s, n) => String(s).padStart(n);
console.log(`${"state".padEnd(34)} ${pad("JSON", 7)} ${pad("lz-string", 9)} ${pad("v1", 7)} ${pad("v2", 7)} ${pad("v1/lz", 6)} ${pad("v2/lz", 6)}`);
const out = [];
for (const r of rows) {
  const lz = LZString.compressToEncodedURIComponent(r.json).length;
  const v1 = r.v1.length / lz;
  const v2 = r.v2.length / lz;
  out.push({ name: r.name, json: r.json.length, lz, v1: r.v1.length, v2: r.v2.length, v1_ratio: v1, v2_ratio: v2 });
  console.log(`${r.name.padEnd(34)} ${pad(r.json.length, 7)} ${pad(lz, 9)} ${pad(r.v1.length, 7)} ${pad(r.v2.length, 7)} ${pad(v1.toFixed(2), 6)} ${pad(v2.toFixed(2), 6)}`);
}
const worst = Math.max(...out.map((r) => r.v2_ratio));
const total = (k) => out.reduce((a, r) => a + r[k], 0);
console.log(`worst v2/lz ${worst.toFixed(2)}; all together v1/lz ${(total("v1") / total("lz")).toFixed(2)}, v2/lz ${(total("v2") / total("lz")).toFixed(2)}`);
writeFileSync(join(bench, "links-ratio.json"), JSON.stringify({ rows: out, worst_v2: worst, total_v1: total("v1") / total("lz"), total_v2: total("v2") / total("lz") }));
