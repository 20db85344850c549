// Checks the TypeScript snippets of tests/snippets.rs (plain JavaScript ES modules), all cases
// in one process.
//
// Usage: node check.mjs MANIFEST.json DIR — a list of {"id", "snippet"}. Each snippet is written
// to DIR/<n>.mjs and imported: that parses it as a module (what `node --check` does) and runs
// it, with `fetch` and the AWS SDK replaced by stubs that record what would be sent; nothing
// leaves the machine. Prints one JSON object {id: {"calls": […], "error": …}}.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [manifest, dir] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(manifest, "utf8"));

// A stub @aws-sdk/client-bedrock-runtime, found by the snippets' bare import.
const pkg = join(dir, "node_modules", "@aws-sdk", "client-bedrock-runtime");
mkdirSync(pkg, { recursive: true });
writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@aws-sdk/client-bedrock-runtime", type: "module", main: "index.js" }));
writeFileSync(
  join(pkg, "index.js"),
  `export class BedrockRuntimeClient {
     constructor(config) { this.config = config; }
     async send(command) {
       globalThis.__calls.push({ kind: "bedrock", config: this.config, command: command.constructor.name, input: command.input });
       return {};
     }
   }
   export class ConverseCommand { constructor(input) { this.input = input; } }
`,
);

globalThis.fetch = async (url, init) => {
  globalThis.__calls.push({ kind: "fetch", url: String(url), method: init.method, headers: init.headers, body: JSON.parse(init.body) });
  return { ok: true, status: 200, text: async () => "{}", json: async () => ({}) };
};

const out = {};
const log = console.log;
let n = 0;
for (const c of cases) {
  const file = join(dir, `case_${n++}.mjs`);
  writeFileSync(file, c.snippet);
  globalThis.__calls = [];
  const result = { calls: [], error: null };
  console.log = () => {};
  try {
    await import(pathToFileURL(file).href);
    result.calls = globalThis.__calls;
  } catch (e) {
    result.error = `${e.name}: ${e.message}`;
  }
  console.log = log;
  out[c.id] = result;
}
process.stdout.write(JSON.stringify(out));
