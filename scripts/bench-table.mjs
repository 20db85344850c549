// The table `make bench` ends with: the figures the benches and competitor scripts left in
// target/bench/, one row per figure (its target in the last column). Prints; asserts nothing.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import os from "node:os";

const bench = join(dirname(fileURLToPath(import.meta.url)), "..", "target", "bench");
const read = (name) => {
  const p = join(bench, name);
  return existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null;
};
const x = (n) => (n == null || !isFinite(n) ? "n/a" : `${n.toFixed(n < 10 ? 2 : 0)}×`);
const convert = read("convert.json");
const litellm = read("litellm.json");
const stream = read("stream.json");
const sdk = read("sdk.json");
const links = read("links-ratio.json");

const rows = [];
if (convert) {
  const vsLitellm = litellm ? litellm.best_ms / convert.convert_ms : null;
  rows.push([
    "OpenAI Chat → Anthropic, 1,000 messages + 50 tools, in process",
    `${convert.convert_ms.toFixed(2)} ms = ${x(convert.ratio)} the floor (${convert.floor_ms.toFixed(2)} ms); LiteLLM ${litellm ? litellm.best_ms.toFixed(1) + " ms = " + x(vsLitellm) + " slower" : "not run"}`,
    "≤ 2× the floor; ≥ 5× faster than LiteLLM",
  ]);
}
if (stream) {
  const ratio = (id) =>
    sdk && stream[id] ? `${x(sdk[id].best_ms / stream[id].best_ms)} (${stream[id].best_ms.toFixed(2)} vs ${sdk[id].best_ms.toFixed(0)} ms)` : "SDK not run";
  rows.push([
    "stream assembly, 10,000 events, vs openai / anthropic SDK accumulators",
    `openai-chat ${ratio("openai-chat")}; anthropic ${ratio("anthropic")}`,
    "≥ 100× both",
  ]);
}
if (links) {
  rows.push([
    "share link length vs lz-string on the same state",
    `v2: worst ${links.worst_v2.toFixed(2)}×, all together ${links.total_v2.toFixed(2)}× (v1 was ${links.total_v1.toFixed(2)}×, worst ${Math.max(...links.rows.map((r) => r.v1_ratio)).toFixed(2)}×)`,
    "≤ 0.6×",
  ]);
}
console.log(`\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} (best runs)`);
for (const [what, measured, target] of rows) {
  console.log(`| ${what} | ${measured} | ${target} |`);
}
