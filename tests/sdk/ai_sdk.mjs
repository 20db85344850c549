// Validate AI SDK documents with the `ai` package's own zod schemas (npm `ai` 5, a
// devDependency): `modelMessageSchema` (by role) for every message, `uiMessageChunkSchema`
// for every chunk of a UI message stream, and the shapes `generateText` takes for tools,
// toolChoice and the settings.
//
// Reads JSON lines `{"kind": "request"|"response"|"stream", "doc": …}` on stdin and writes one
// line `{"errors": [...]}` per input line (empty when the document is accepted), so one node
// process serves a whole test run (tests/sdk/ai_sdk.py, tests/it/ai_sdk.rs).

import {
  systemModelMessageSchema,
  userModelMessageSchema,
  assistantModelMessageSchema,
  toolModelMessageSchema,
  uiMessageChunkSchema,
} from "ai";
import { createInterface } from "node:readline";

const byRole = {
  system: systemModelMessageSchema,
  user: userModelMessageSchema,
  assistant: assistantModelMessageSchema,
  tool: toolModelMessageSchema,
};

function issues(result, at) {
  if (result.success) return [];
  return result.error.issues.slice(0, 5).map((i) => `${at}/${i.path.join("/")}: ${i.message}`);
}

function messages(list, at) {
  if (!Array.isArray(list)) return [`${at}: not an array`];
  return list.flatMap((m, i) => {
    const schema = byRole[m?.role];
    if (!schema) return [`${at}/${i}/role: unknown role ${JSON.stringify(m?.role)}`];
    return issues(schema.safeParse(m), `${at}/${i}`);
  });
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const FINISH = ["stop", "length", "content-filter", "tool-calls", "error", "other", "unknown"];

function request(doc) {
  if (Array.isArray(doc)) return messages(doc, "");
  if (!isObject(doc)) return ["request: not an object"];
  const errors = messages(doc.messages, "/messages");
  if (doc.system !== undefined && typeof doc.system !== "string") errors.push("/system: not a string");
  if (doc.tools !== undefined) {
    if (!isObject(doc.tools)) errors.push("/tools: not a record");
    else
      for (const [name, t] of Object.entries(doc.tools)) {
        if (!isObject(t)) errors.push(`/tools/${name}: not an object`);
        else if (!isObject(t.inputSchema)) errors.push(`/tools/${name}/inputSchema: not a JSON Schema object`);
        else if (t.description !== undefined && typeof t.description !== "string")
          errors.push(`/tools/${name}/description: not a string`);
      }
  }
  const c = doc.toolChoice;
  if (
    c !== undefined &&
    !["auto", "none", "required"].includes(c) &&
    !(isObject(c) && c.type === "tool" && typeof c.toolName === "string")
  )
    errors.push(`/toolChoice: ${JSON.stringify(c)}`);
  if (doc.activeTools !== undefined && !(Array.isArray(doc.activeTools) && doc.activeTools.every((n) => typeof n === "string")))
    errors.push("/activeTools: not an array of names");
  for (const k of ["maxOutputTokens", "temperature", "topP"])
    if (doc[k] !== undefined && typeof doc[k] !== "number") errors.push(`/${k}: not a number`);
  return errors;
}

function response(doc) {
  if (Array.isArray(doc)) return messages(doc, "");
  if (!isObject(doc)) return ["response: not an object"];
  const errors = messages(doc.response?.messages, "/response/messages");
  if (doc.finishReason !== undefined && !FINISH.includes(doc.finishReason))
    errors.push(`/finishReason: ${JSON.stringify(doc.finishReason)}`);
  if (doc.usage !== undefined)
    for (const k of ["inputTokens", "outputTokens", "totalTokens"])
      if (!Number.isInteger(doc.usage[k])) errors.push(`/usage/${k}: not an integer`);
  return errors;
}

// A lazy validator in `ai` 5: called once, it gives `validate(value)` (a promise).
const chunkValidator = uiMessageChunkSchema();

async function stream(chunks) {
  if (!Array.isArray(chunks)) return ["stream: not an array of chunks"];
  const errors = [];
  for (const [i, c] of chunks.entries()) {
    const r = await chunkValidator.validate(c);
    if (!r.success) errors.push(`/${i} (${c?.type}): ${String(r.error?.message ?? r.error).slice(0, 300)}`);
  }
  return errors;
}

const check = { request, response, stream };
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let errors;
  try {
    const { kind, doc } = JSON.parse(line);
    errors = check[kind] ? await check[kind](doc) : [`unknown kind ${kind}`];
  } catch (e) {
    errors = [`validator raised ${e}`];
  }
  process.stdout.write(JSON.stringify({ errors }) + "\n");
}
