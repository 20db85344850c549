// A stand-in for the LLM providers, for the "Live" end-to-end tests: a Node http server on
// 127.0.0.1 (port 0: the OS picks) that speaks OpenAI Chat, OpenAI Responses, Anthropic Messages
// and Gemini as a browser sees them (CORS, preflights, auth errors, SSE framing) and streams the
// real recorded events of tests/fixtures/recorded (see NOTICE.md there), one JSON line per event,
// unchanged.
//
//   import { startStandin, KEY } from './standin.mjs';
//   const s = await startStandin({ delayMs: 5 });
//   fetch(`${s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, ... })
//
// By hand: `node e2e/standin.mjs [--port N] [--delay MS]` prints the base URL of each provider.
//
// What the model "says": round 1 (the last message is the user's) is a tool call, round 2+ (the
// last message carries a tool result) a text answer. Responses and Gemini have no recorded text
// stream, so theirs is synthesized and quotes the tool result ("The result was: …").
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The only API key the stand-in accepts, for every provider. */
export const KEY = 'sk-standin-test-key-0123456789';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The recorded provider streams kept in the repository (see NOTICE.md there). */
export const RECORDED_DIR = path.resolve(repoRoot, 'tests', 'fixtures', 'recorded');

/**
 * What each provider answers: `tool` in round 1, `text` in round 2+ (null: synthesized).
 * Keys are the fixture folder names; `opts.fixtures` overrides them per provider.
 */
export const DEFAULT_FIXTURES = Object.freeze({
  'openai-chat': { tool: 'openai-chat/deepseek-tool-call.jsonl', text: 'openai-chat/deepseek-text.jsonl' },
  'openai-responses': { tool: 'openai-responses/lmstudio-tool-call.1.jsonl', text: null },
  anthropic: { tool: 'anthropic/anthropic-json-tool.1.jsonl', text: 'anthropic/anthropic-text.jsonl' },
  gemini: { tool: 'gemini/google-tool-call.jsonl', text: null },
});

const fixtureCache = new Map();

/** The lines of a recorded fixture ('<folder>/<file>'), unchanged, without empty lines. */
export function readFixture(rel) {
  if (!fixtureCache.has(rel)) {
    const file = path.resolve(RECORDED_DIR, rel);
    if (!file.startsWith(RECORDED_DIR + path.sep)) throw new Error(`fixture outside ${RECORDED_DIR}: ${rel}`);
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    fixtureCache.set(rel, lines);
  }
  return fixtureCache.get(rel);
}

// ---------------------------------------------------------------------------------------------
// Routes

const EXPOSE = 'retry-after, x-request-id, request-id';

/**
 * Which endpoint a path is. `family` picks the error shape even for unknown paths;
 * `cors: false` for the Gemini OpenAI-compatible endpoint, which refuses browsers.
 */
function route(pathname) {
  // Token counting (the Cost view's "Count exactly") and Hugging Face files (open-weight models).
  if (pathname === '/v1/responses/input_tokens') return { family: 'openai', kind: 'count', counter: 'openai' };
  if (pathname === '/v1/messages/count_tokens') return { family: 'anthropic', kind: 'count', counter: 'anthropic' };
  const c = /^\/v1beta\/models\/([^/:]+):countTokens$/.exec(pathname);
  if (c) return { family: 'gemini', kind: 'count', counter: 'gemini', model: safeDecode(c[1]) };
  if (pathname.startsWith('/hf/')) return { family: 'hf', kind: 'hf' };
  if (pathname === '/v1/chat/completions') return { family: 'openai', kind: 'chat' };
  if (pathname === '/v1/responses') return { family: 'openai', kind: 'responses' };
  if (pathname === '/v1/messages') return { family: 'anthropic', kind: 'anthropic' };
  if (pathname === '/v1beta/openai/chat/completions') return { family: 'openai', kind: 'chat', cors: false, geminiOpenai: true };
  const m = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(pathname);
  if (m) return { family: 'gemini', kind: 'gemini', model: safeDecode(m[1]), method: m[2] };
  if (pathname.startsWith('/v1beta/openai/')) return { family: 'openai', cors: false, geminiOpenai: true };
  if (pathname.startsWith('/v1beta')) return { family: 'gemini' };
  if (pathname.startsWith('/v1/messages')) return { family: 'anthropic' };
  return { family: 'openai' };
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const rid = (prefix) => `${prefix}${crypto.randomBytes(12).toString('hex')}`;

// ---------------------------------------------------------------------------------------------
// Error bodies, as each provider sends them

/** OpenAI shows a wrong key masked: long keys keep 8 + 4 characters, short ones 5 + 2. */
export function maskKey(key) {
  if (key.length >= 20) return `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;
  if (key.length >= 8) return `${key.slice(0, 5)}***${key.slice(-2)}`;
  return '***';
}

const openaiError = (message, type = 'invalid_request_error', code = null, param = null) => ({
  error: { message, type, param, code },
});
const anthropicError = (type, message) => ({ type: 'error', error: { type, message }, request_id: rid('req_') });
const geminiError = (code, status, message, details) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

const ERR = {
  openaiNoKey: () =>
    openaiError(
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    ),
  openaiBadKey: (key) =>
    openaiError(
      `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_request_error',
      'invalid_api_key',
    ),
  openaiBadJson: () =>
    openaiError(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    ),
  anthropicCors: () => ({
    type: 'error',
    error: {
      type: 'authentication_error',
      message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
    },
  }),
  geminiNoKey: () =>
    geminiError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
  geminiBadKey: () =>
    geminiError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
    ]),
};

function notFound(family, method, pathname) {
  if (family === 'anthropic') return anthropicError('not_found_error', 'Not Found');
  if (family === 'gemini') return geminiError(404, 'NOT_FOUND', `Method not found: ${method} ${pathname}`);
  return openaiError(`Invalid URL (${method} ${pathname})`);
}

// ---------------------------------------------------------------------------------------------
// Reading the request: round 1 or 2, and the tool result to quote

/** Text of a content value: a string, or an array of parts carrying `text`. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('');
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}

/** The tool result carried by the request's last message, or null (round 1). */
export function toolResultOf(kind, body) {
  if (kind === 'chat') {
    const last = Array.isArray(body.messages) ? body.messages.at(-1) : undefined;
    return last?.role === 'tool' ? textOf(last.content) : null;
  }
  if (kind === 'responses') {
    const last = Array.isArray(body.input) ? body.input.at(-1) : undefined;
    return last?.type === 'function_call_output' ? textOf(last.output) : null;
  }
  if (kind === 'anthropic') {
    const last = Array.isArray(body.messages) ? body.messages.at(-1) : undefined;
    if (last?.role !== 'user' || !Array.isArray(last.content)) return null;
    const block = last.content.find((b) => b?.type === 'tool_result');
    return block ? textOf(block.content) : null;
  }
  if (kind === 'gemini') {
    const last = Array.isArray(body.contents) ? body.contents.at(-1) : undefined;
    const part = Array.isArray(last?.parts) ? last.parts.find((p) => p?.functionResponse) : undefined;
    return part ? JSON.stringify(part.functionResponse.response ?? {}) : null;
  }
  return null;
}

/** A required-field check the real APIs make, as [status, body] or null. */
function missingField(kind, body) {
  if (kind === 'chat') {
    if (!body.model) return openaiError('you must provide a model parameter');
    if (!Array.isArray(body.messages))
      return openaiError("Missing required parameter: 'messages'.", 'invalid_request_error', 'missing_required_parameter', 'messages');
  }
  if (kind === 'responses' && !body.model) return openaiError('Missing required parameter: \'model\'.', 'invalid_request_error', 'missing_required_parameter', 'model');
  if (kind === 'anthropic') {
    for (const f of ['model', 'max_tokens', 'messages']) {
      if (body[f] === undefined) return anthropicError('invalid_request_error', `${f}: Field required`);
    }
  }
  if (kind === 'gemini' && !(Array.isArray(body.contents) && body.contents.length))
    return geminiError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Token counting and Hugging Face files

/** The stand-in's "count": a quarter of the request's tools, messages and system text, in
 *  characters (deterministic, so a test can compare it with what the page shows). */
export function standinCount(body) {
  const inner = body.generateContentRequest ?? body;
  const parts = [inner.tools, inner.messages ?? inner.input ?? inner.contents, inner.system ?? inner.instructions ?? inner.systemInstruction];
  return Math.ceil(parts.reduce((n, p) => n + (p === undefined ? 0 : JSON.stringify(p).length), 0) / 4);
}

/** What the real counting endpoints refuse (fields they do not take, what they require). */
function countRefusal(counter, body) {
  if (counter === 'anthropic') {
    for (const f of ['model', 'messages']) if (body[f] === undefined) return anthropicError('invalid_request_error', `${f}: Field required`);
    for (const f of ['max_tokens', 'stream', 'temperature']) if (body[f] !== undefined) return anthropicError('invalid_request_error', `${f}: Extra inputs are not permitted`);
  } else if (counter === 'openai') {
    for (const f of ['stream', 'max_output_tokens', 'store', 'temperature'])
      if (body[f] !== undefined) return openaiError(`Unknown parameter: '${f}'.`, 'invalid_request_error', 'unknown_parameter', f);
  } else {
    const g = body.generateContentRequest;
    if (!g) return geminiError(400, 'INVALID_ARGUMENT', 'Request contains neither contents nor generateContentRequest.');
    if (!/^models\//.test(g.model ?? '')) return geminiError(400, 'INVALID_ARGUMENT', '* CountTokensRequest.generate_content_request.model: unexpected model name format\n');
    if (!(Array.isArray(g.contents) && g.contents.length)) return geminiError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n');
  }
  return null;
}

function countAnswer(counter, n) {
  if (counter === 'openai') return { object: 'response.input_tokens', input_tokens: n };
  if (counter === 'anthropic') return { input_tokens: n };
  return { totalTokens: n, promptTokensDetails: [{ modality: 'TEXT', tokenCount: n }] };
}

/** The Hugging Face files of tests/fixtures/hf, as `/hf/<org>/<name>/resolve/main/<file>`
 *  serves them: `<name>/<file>` when the fixtures have that folder (tiny-bpe/tokenizer.json),
 *  else `<file>` (the shared tokenizer_config.json); a missing file is the Hub's 404. */
export const HF_DIR = path.resolve(repoRoot, 'tests', 'fixtures', 'hf');
function serveHf(pathname, method, send) {
  const m = /^\/hf\/(?:[^/]+\/)?([^/]+)\/resolve\/[^/]+\/([^/]+)$/.exec(pathname);
  const own = m && path.resolve(HF_DIR, safeDecode(m[1]), safeDecode(m[2]));
  const file = m && (own.startsWith(HF_DIR + path.sep) && fs.existsSync(own) ? own : path.resolve(HF_DIR, safeDecode(m[2])));
  if (method !== 'GET' || !file || !file.startsWith(HF_DIR + path.sep) || !fs.existsSync(file))
    return send(404, 'Entry not found', { 'content-type': 'text/plain; charset=utf-8', 'x-error-code': 'EntryNotFound' });
  return send(200, fs.readFileSync(file, 'utf8'), { 'content-type': 'text/plain; charset=utf-8' });
}

// ---------------------------------------------------------------------------------------------
// Synthesized text answers (Responses and Gemini have no recorded text stream)

const answerText = (result) => `The result was: ${result.slice(0, 60)}`;

/** Split text into n roughly equal pieces on word boundaries (at least one piece). */
function pieces(text, n) {
  const words = text.split(/(?<= )/);
  const out = [];
  const per = Math.max(1, Math.ceil(words.length / n));
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(''));
  return out.length ? out : [text];
}

const approxTokens = (s) => Math.max(1, Math.ceil(s.length / 4));

function responsesTextEvents(body, result) {
  const text = answerText(result);
  const id = rid('resp_');
  const msgId = rid('msg_');
  const created = Math.floor(Date.now() / 1000);
  const base = {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model ?? 'standin-model',
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: null,
    metadata: {},
  };
  const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
  const done = { ...part, text };
  const item = { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
  const itemDone = { ...item, status: 'completed', content: [done] };
  const inputTokens = approxTokens(JSON.stringify(body));
  const outputTokens = approxTokens(text);
  const events = [
    { type: 'response.created', response: base },
    { type: 'response.in_progress', response: base },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.content_part.added', item_id: msgId, output_index: 0, content_index: 0, part },
    ...pieces(text, 4).map((delta) => ({
      type: 'response.output_text.delta',
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      delta,
      logprobs: [],
    })),
    { type: 'response.output_text.done', item_id: msgId, output_index: 0, content_index: 0, text, logprobs: [] },
    { type: 'response.content_part.done', item_id: msgId, output_index: 0, content_index: 0, part: done },
    { type: 'response.output_item.done', output_index: 0, item: itemDone },
    {
      type: 'response.completed',
      response: {
        ...base,
        status: 'completed',
        completed_at: created,
        output: [itemDone],
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + outputTokens,
        },
      },
    },
  ];
  return events.map((e, i) => JSON.stringify({ ...e, sequence_number: i }));
}

function geminiTextChunks(body, model, result) {
  const text = answerText(result);
  const responseId = crypto.randomBytes(12).toString('base64url');
  const parts = pieces(text, 3);
  const prompt = approxTokens(JSON.stringify(body.contents ?? []));
  const out = approxTokens(text);
  return parts.map((t, i) => {
    const last = i === parts.length - 1;
    const candidate = { content: { parts: [{ text: t }], role: 'model' }, index: 0 };
    if (last) candidate.finishReason = 'STOP';
    const chunk = { candidates: [candidate] };
    if (last) chunk.usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out };
    chunk.modelVersion = model;
    chunk.responseId = responseId;
    return JSON.stringify(chunk);
  });
}

// ---------------------------------------------------------------------------------------------
// Calls to named tools (the MCP loop tests): `callTools: [{name, arguments}]` makes the model
// call each listed tool the request offers, one per round in list order, until each has been
// called once in the conversation; then it answers with text quoting the last tool result.

/** Names of the request's tools, as the format spells them. */
function offeredTools(kind, body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools.map((t) => (kind === 'chat' ? t?.function?.name : t?.name)).filter((n) => typeof n === 'string');
}

/** Names the conversation's assistant turns already called. */
function calledTools(kind, body) {
  const names = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (m?.role !== 'assistant') continue;
    if (kind === 'chat') for (const c of m.tool_calls ?? []) names.push(c?.function?.name);
    else if (Array.isArray(m.content)) for (const b of m.content) if (b?.type === 'tool_use') names.push(b.name);
  }
  return names;
}

/** The next listed call the model makes for this request, or null. */
export function nextCall(kind, body, list) {
  if (!Array.isArray(list) || !['chat', 'anthropic'].includes(kind)) return null;
  const offered = offeredTools(kind, body);
  const called = calledTools(kind, body);
  return list.find((c) => offered.includes(c.name) && !called.includes(c.name)) ?? null;
}

/** Chat Completions chunks calling `call`, as OpenAI streams a tool call. */
function chatCallChunks(body, call) {
  const id = rid('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'standin-model';
  const chunk = (delta, finish = null, usage = null) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage });
  const args = JSON.stringify(call.arguments ?? {});
  const half = Math.ceil(args.length / 2);
  return [
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: rid('call_'), type: 'function', function: { name: call.name, arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
    chunk({}, 'tool_calls', { prompt_tokens: approxTokens(JSON.stringify(body)), completion_tokens: approxTokens(args), total_tokens: 0 }),
  ];
}

/** Chat Completions chunks answering `text`. */
function chatTextChunks(body, text) {
  const id = rid('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'standin-model';
  const chunk = (delta, finish = null) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  return [chunk({ role: 'assistant', content: '' }), ...pieces(text, 3).map((t) => chunk({ content: t })), chunk({}, 'stop')];
}

/** Anthropic Messages events calling `call`. */
function anthropicCallEvents(body, call) {
  const args = JSON.stringify(call.arguments ?? {});
  const message = { id: rid('msg_'), type: 'message', role: 'assistant', model: body.model ?? 'standin-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: approxTokens(JSON.stringify(body)), output_tokens: 1 } };
  return [
    { type: 'message_start', message },
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: rid('toolu_'), name: call.name, input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: args } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: approxTokens(args) } },
    { type: 'message_stop' },
  ].map((e) => JSON.stringify(e));
}

/** Anthropic Messages events answering `text`. */
function anthropicTextEvents(body, text) {
  const message = { id: rid('msg_'), type: 'message', role: 'assistant', model: body.model ?? 'standin-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: approxTokens(JSON.stringify(body)), output_tokens: 1 } };
  return [
    { type: 'message_start', message },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ...pieces(text, 3).map((t) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: approxTokens(text) } },
    { type: 'message_stop' },
  ].map((e) => JSON.stringify(e));
}

// ---------------------------------------------------------------------------------------------
// Non-streamed bodies, assembled from the events (simple accumulation of the deltas)

/** OpenAI `chat.completion` from `chat.completion.chunk`s. */
export function assembleChat(lines) {
  const chunks = lines.map((l) => JSON.parse(l));
  const first = chunks[0] ?? {};
  const choices = [];
  let usage = null;
  for (const c of chunks) {
    if (c.usage) usage = c.usage;
    for (const ch of c.choices ?? []) {
      const acc = (choices[ch.index ?? 0] ??= {
        index: ch.index ?? 0,
        message: { role: 'assistant', content: null },
        logprobs: null,
        finish_reason: null,
        calls: [],
      });
      const d = ch.delta ?? {};
      if (typeof d.content === 'string') acc.message.content = (acc.message.content ?? '') + d.content;
      if (typeof d.reasoning_content === 'string' && d.reasoning_content !== '')
        acc.message.reasoning_content = (acc.message.reasoning_content ?? '') + d.reasoning_content;
      if (typeof d.refusal === 'string') acc.message.refusal = (acc.message.refusal ?? '') + d.refusal;
      for (const t of d.tool_calls ?? []) {
        const call = (acc.calls[t.index ?? 0] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (t.id) call.id = t.id;
        if (t.function?.name && !call.function.name) call.function.name = t.function.name;
        if (typeof t.function?.arguments === 'string') call.function.arguments += t.function.arguments;
      }
      if (ch.finish_reason) acc.finish_reason = ch.finish_reason;
    }
  }
  for (const acc of choices) {
    const calls = acc.calls.filter(Boolean);
    delete acc.calls;
    if (calls.length) {
      acc.message.tool_calls = calls;
      if (acc.message.content === '') acc.message.content = null;
    }
  }
  return {
    id: first.id ?? rid('chatcmpl-'),
    object: 'chat.completion',
    created: first.created ?? Math.floor(Date.now() / 1000),
    model: first.model ?? 'standin-model',
    ...(first.system_fingerprint ? { system_fingerprint: first.system_fingerprint } : {}),
    choices: choices.filter(Boolean),
    usage,
  };
}

/** Responses `response` object: the one the terminal event carries, else built from the done items. */
export function assembleResponses(lines) {
  const events = lines.map((l) => JSON.parse(l));
  const terminal = events.findLast((e) =>
    ['response.completed', 'response.incomplete', 'response.failed'].includes(e.type),
  );
  if (terminal?.response) return terminal.response;
  const created = events.find((e) => e.type === 'response.created')?.response ?? {};
  const output = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
  return { ...created, status: 'completed', output };
}

/** Anthropic `message` from Messages stream events. */
export function assembleAnthropic(lines) {
  let msg = null;
  const json = new Map();
  for (const e of lines.map((l) => JSON.parse(l))) {
    if (e.type === 'message_start') {
      msg = structuredClone(e.message);
      msg.content = [];
    } else if (!msg) {
      continue;
    } else if (e.type === 'content_block_start') {
      msg.content[e.index] = structuredClone(e.content_block);
      if (['tool_use', 'server_tool_use'].includes(e.content_block.type)) json.set(e.index, '');
    } else if (e.type === 'content_block_delta') {
      const b = msg.content[e.index];
      const d = e.delta ?? {};
      if (!b) continue;
      if (d.type === 'text_delta') b.text = (b.text ?? '') + d.text;
      else if (d.type === 'input_json_delta') json.set(e.index, (json.get(e.index) ?? '') + d.partial_json);
      else if (d.type === 'thinking_delta') b.thinking = (b.thinking ?? '') + d.thinking;
      else if (d.type === 'signature_delta') b.signature = d.signature;
    } else if (e.type === 'content_block_stop') {
      const b = msg.content[e.index];
      if (b && json.has(e.index)) {
        const s = json.get(e.index);
        b.input = s.trim() === '' ? {} : JSON.parse(s);
      }
    } else if (e.type === 'message_delta') {
      Object.assign(msg, e.delta ?? {});
      msg.usage = { ...msg.usage, ...(e.usage ?? {}) };
    }
  }
  if (msg) msg.content = msg.content.filter(Boolean);
  return msg;
}

/** Gemini `GenerateContentResponse` from `streamGenerateContent` chunks: parts joined, last metadata kept. */
export function assembleGemini(lines) {
  const chunks = lines.map((l) => JSON.parse(l));
  const parts = [];
  let finishReason;
  let role = 'model';
  const out = {};
  for (const c of chunks) {
    const cand = c.candidates?.[0];
    if (cand?.content?.role) role = cand.content.role;
    for (const p of cand?.content?.parts ?? []) {
      const prev = parts.at(-1);
      const plainText = (x) => typeof x?.text === 'string' && !x.thoughtSignature && Object.keys(x).length === (x.thought ? 2 : 1);
      if (plainText(p) && plainText(prev) && !!prev.thought === !!p.thought) prev.text += p.text;
      else parts.push(structuredClone(p));
    }
    if (cand?.finishReason) finishReason = cand.finishReason;
    for (const k of ['usageMetadata', 'modelVersion', 'responseId', 'promptFeedback']) if (c[k] !== undefined) out[k] = c[k];
  }
  // A trailing empty text part only marks the end of the stream.
  const kept = parts.filter((p) => !(p.text === '' && Object.keys(p).length === 1));
  const candidate = { content: { parts: kept.length ? kept : parts, role }, index: 0 };
  if (finishReason) candidate.finishReason = finishReason;
  return { candidates: [candidate], ...out };
}

// ---------------------------------------------------------------------------------------------
// The server

/**
 * Start the stand-in.
 *
 * opts:
 * - `delayMs` (40): pause before each streamed event; non-streamed answers wait it once. The
 *   whole stream is kept under `maxStreamMs` (3000) by shortening the pause for long fixtures
 *   (deepseek-text has 401 events), unless a `script({delayMs})` asks for an exact pause.
 * - `fixtures`: per provider (`openai-chat`, `openai-responses`, `anthropic`, `gemini`) either a
 *   fixture path (the round-1 answer) or `{ tool, text }` (`text: null` synthesizes).
 * - `port` (0), `verbose` (print one line per request).
 *
 * Resolves to `{ url, port, bases, log, script(next), reset(), close() }`. `log` holds one entry
 * per request, OPTIONS included: `{ method, path, query, headers, body, at, status, provider,
 * fixture, stream, events, aborted }` (`query` an object, `headers` as Node lowercases them, `at`
 * Date.now() on arrival, `events` how many events were written, `aborted` true when the client
 * went away mid-answer). `script(next)` queues a one-shot behaviour for the next non-OPTIONS
 * request: `{status, body, headers}` answers exactly that (CORS added unless the path is a
 * no-CORS one), `{fixture}` serves that fixture instead, `{delayMs}` paces that answer,
 * `{cutAfter: n}` ends the stream after n events without its terminator. `opts.callTools` (or
 * `callTools(list)`): the model calls those tools where offered (see `nextCall`).
 */
export async function startStandin(opts = {}) {
  const delayMs = opts.delayMs ?? 40;
  const maxStreamMs = opts.maxStreamMs ?? 3000;
  const fixtures = {};
  for (const [k, v] of Object.entries(DEFAULT_FIXTURES)) fixtures[k] = { ...v };
  for (const [k, v] of Object.entries(opts.fixtures ?? {})) {
    fixtures[k] = { ...(fixtures[k] ?? { tool: null, text: null }), ...(typeof v === 'string' ? { tool: v } : v) };
  }
  for (const f of Object.values(fixtures)) for (const rel of [f.tool, f.text]) if (rel) readFixture(rel);

  const log = [];
  const queue = [];
  const callTools = [...(opts.callTools ?? [])];
  const closing = new AbortController();

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        if (closing.signal.aborted || res.destroyed) return;
        console.error('standin:', err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err?.message ?? err) } }));
      });
    });
  });

  async function handle(req, res, bodyText) {
    const u = new URL(req.url, 'http://127.0.0.1');
    let pathname = u.pathname;
    let nocors = false;
    if (pathname === '/nocors' || pathname.startsWith('/nocors/')) {
      nocors = true;
      pathname = pathname.slice('/nocors'.length) || '/';
    }
    const entry = {
      method: req.method,
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: { ...req.headers },
      body: bodyText,
      at: Date.now(),
    };
    log.push(entry);
    const r = route(pathname);
    entry.provider = r.kind === 'chat' ? (r.geminiOpenai ? 'gemini-openai' : 'openai-chat') : r.kind === 'responses' ? 'openai-responses' : r.kind;
    const cors = !nocors && r.cors !== false;
    const origin = req.headers.origin;
    const corsHeaders = () =>
      cors
        ? { 'access-control-allow-origin': origin ?? '*', 'access-control-expose-headers': EXPOSE, vary: 'Origin' }
        : {};
    const idHeader = () => (r.family === 'anthropic' ? { 'request-id': rid('req_') } : r.family === 'openai' ? { 'x-request-id': rid('req_') } : {});
    res.on('close', () => {
      if (!res.writableFinished) entry.aborted = true;
    });

    const send = (status, body, extra = {}, withCors = true) => {
      entry.status = status;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const headers = { ...(withCors ? corsHeaders() : {}), ...idHeader(), ...extra };
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      res.writeHead(status, headers);
      res.end(text);
    };

    if (opts.verbose) res.on('finish', () => console.log(`${req.method} ${req.url} → ${entry.status}`));

    if (req.method === 'OPTIONS') {
      if (!cors) {
        entry.status = r.geminiOpenai ? 404 : 204;
        res.writeHead(entry.status, r.geminiOpenai ? { 'content-type': 'text/html; charset=UTF-8' } : {});
        res.end(r.geminiOpenai ? '<!DOCTYPE html><title>Error 404 (Not Found)</title>' : undefined);
        return;
      }
      entry.status = 204;
      const headers = {
        'access-control-allow-origin': origin ?? '*',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-max-age': '0',
        vary: 'Origin',
      };
      const asked = req.headers['access-control-request-headers'];
      if (asked) headers['access-control-allow-headers'] = asked;
      res.writeHead(204, headers);
      res.end();
      return;
    }

    const scripted = queue.shift() ?? {};
    entry.script = Object.keys(scripted).length ? scripted : undefined;
    if (scripted.status !== undefined) {
      send(scripted.status, scripted.body ?? '', scripted.headers ?? {});
      return;
    }

    if (r.kind === 'hf') return serveHf(pathname, req.method, send);

    if (req.method !== 'POST' || !r.kind) {
      send(404, notFound(r.family, req.method, pathname));
      return;
    }

    // Authentication, then the request itself, in the order the real APIs check them.
    if (r.family === 'anthropic') {
      if (origin !== undefined && req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
        // The real API sends this without Access-Control-Allow-Origin: a browser cannot read it.
        send(401, ERR.anthropicCors(), {}, false);
        return;
      }
      const key = req.headers['x-api-key'];
      if (!key) return send(401, anthropicError('authentication_error', 'x-api-key header is required'));
      if (key !== KEY) return send(401, anthropicError('authentication_error', 'invalid x-api-key'));
      if (!req.headers['anthropic-version'])
        return send(400, anthropicError('invalid_request_error', 'anthropic-version: header is required'));
    } else if (r.family === 'gemini') {
      const key = req.headers['x-goog-api-key'] ?? u.searchParams.get('key');
      if (!key) return send(403, ERR.geminiNoKey());
      if (key !== KEY) return send(400, ERR.geminiBadKey());
    } else {
      const auth = req.headers.authorization ?? '';
      const m = /^Bearer\s+(.*)$/i.exec(auth);
      if (!m || m[1].trim() === '') return send(401, ERR.openaiNoKey());
      if (m[1].trim() !== KEY) return send(401, ERR.openaiBadKey(m[1].trim()));
    }

    let body;
    try {
      body = JSON.parse(bodyText);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    } catch (err) {
      if (r.family === 'anthropic') return send(400, anthropicError('invalid_request_error', `invalid JSON in request body: ${err.message}`));
      if (r.family === 'gemini') return send(400, geminiError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${err.message}`));
      return send(400, ERR.openaiBadJson());
    }
    const missing = missingField(r.kind, body);
    if (missing) return send(400, missing);
    if (r.kind === 'count') {
      const refused = countRefusal(r.counter, body);
      if (refused) return send(400, refused);
      entry.count = standinCount(body);
      return send(200, countAnswer(r.counter, entry.count));
    }

    // What the model says.
    const provider = r.kind === 'chat' ? 'openai-chat' : r.kind === 'responses' ? 'openai-responses' : r.kind;
    const result = toolResultOf(r.kind, body);
    entry.round = result === null ? 1 : 2;
    let lines;
    const calling = callTools.length ? nextCall(r.kind, body, callTools) : null;
    if (calling) {
      lines = r.kind === 'chat' ? chatCallChunks(body, calling) : anthropicCallEvents(body, calling);
      entry.fixture = 'synthesized';
      entry.called = calling.name;
      entry.round = calledTools(r.kind, body).length + 1;
    } else if (callTools.length && calledTools(r.kind, body).length && ['chat', 'anthropic'].includes(r.kind)) {
      // Every listed tool was called: the answer quotes the last result in full.
      const text = `The result was: ${result ?? ''}`;
      lines = r.kind === 'chat' ? chatTextChunks(body, text) : anthropicTextEvents(body, text);
      entry.fixture = 'synthesized';
    } else if (scripted.fixture) {
      lines = readFixture(scripted.fixture);
      entry.fixture = scripted.fixture;
    } else {
      const rel = result === null ? fixtures[provider].tool : fixtures[provider].text;
      if (rel) {
        lines = readFixture(rel);
        entry.fixture = rel;
      } else if (r.kind === 'responses') {
        lines = responsesTextEvents(body, result ?? '');
        entry.fixture = 'synthesized';
      } else {
        lines = geminiTextChunks(body, r.model, result ?? '');
        entry.fixture = 'synthesized';
      }
    }

    const stream = r.kind === 'gemini' ? r.method === 'streamGenerateContent' && u.searchParams.get('alt') === 'sse' : body.stream === true;
    entry.stream = stream;
    const pause = scripted.delayMs ?? Math.min(delayMs, lines.length ? maxStreamMs / lines.length : delayMs);

    if (!stream) {
      if (!(await wait(pause, res))) return;
      if (r.kind === 'gemini' && r.method === 'streamGenerateContent') {
        // Without alt=sse, Gemini streams one JSON array of the chunks.
        return send(200, `[${lines.join(',\r\n')}]`);
      }
      const assembled =
        r.kind === 'chat'
          ? assembleChat(lines)
          : r.kind === 'responses'
            ? assembleResponses(lines)
            : r.kind === 'anthropic'
              ? assembleAnthropic(lines)
              : assembleGemini(lines);
      return send(200, assembled);
    }

    entry.status = 200;
    entry.events = 0;
    res.writeHead(200, {
      ...corsHeaders(),
      ...idHeader(),
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
    });
    res.flushHeaders();
    const named = r.kind === 'anthropic' || r.kind === 'responses';
    // Gemini frames its events with CRLF, as the real endpoint does.
    const end = r.kind === 'gemini' ? '\r\n\r\n' : '\n\n';
    const cut = scripted.cutAfter ?? Infinity;
    for (const line of lines) {
      if (entry.events >= cut) break;
      if (!(await wait(pause, res))) return;
      let event = '';
      if (named) {
        try {
          event = `event: ${JSON.parse(line).type}\n`;
        } catch {
          event = '';
        }
      }
      res.write(`${event}data: ${line}${end}`);
      entry.events += 1;
    }
    if (r.kind === 'chat' && entry.events < cut) {
      if (!(await wait(pause, res))) return;
      res.write('data: [DONE]\n\n');
    }
    res.end();
  }

  /** Pause; false when the client went away or the stand-in is closing. */
  async function wait(ms, res) {
    if (ms > 0) {
      try {
        await sleep(ms, undefined, { signal: closing.signal });
      } catch {
        return false;
      }
    }
    return !res.destroyed && !closing.signal.aborted;
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    // Idle keep-alive sockets stay open until close(): a server that drops one just as a client
    // reuses it makes that client's next request fail ("fetch failed") on a loaded machine.
    server.keepAliveTimeout = 10 * 60 * 1000;
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  const url = `http://127.0.0.1:${port}`;
  let closed = null;
  return {
    url,
    port,
    /** Base URLs as the page uses them. */
    bases: {
      'openai-chat': `${url}/v1`,
      'openai-responses': `${url}/v1`,
      anthropic: url,
      gemini: `${url}/v1beta`,
      'gemini-openai': `${url}/v1beta/openai`,
    },
    log,
    script(next) {
      queue.push({ ...next });
    },
    reset() {
      log.length = 0;
      queue.length = 0;
      callTools.length = 0;
    },
    /** The model calls these tools (`[{name, arguments}]`) where a request offers them. */
    callTools(list) {
      callTools.length = 0;
      callTools.push(...list);
    },
    close() {
      closed ??= new Promise((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

// By hand: print the base URLs and serve until interrupted.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const s = await startStandin({ port: arg('--port') ?? 0, delayMs: arg('--delay'), verbose: true });
  console.log(`Provider stand-in on ${s.url}
  key                          ${KEY}
  OpenAI Chat                  ${s.bases['openai-chat']}   (POST /chat/completions)
  OpenAI Responses             ${s.bases['openai-responses']}   (POST /responses)
  Anthropic                    ${s.bases.anthropic}   (POST /v1/messages)
  Gemini                       ${s.bases.gemini}   (POST /models/{model}:generateContent, :streamGenerateContent?alt=sse)
  Gemini OpenAI-compatible     ${s.bases['gemini-openai']}   (no CORS, like the real one)
  Token counts                 POST /v1/responses/input_tokens, /v1/messages/count_tokens, /v1beta/models/{model}:countTokens
  Hugging Face files           ${s.url}/hf   (GET /<id>/resolve/main/<file> from tests/fixtures/hf)
  Without CORS                 prefix any path with /nocors
fixtures: ${RECORDED_DIR}`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
