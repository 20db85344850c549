// The provider stand-in, checked with Node's fetch: CORS as a browser needs it, each provider's
// auth errors, the recorded streams served line for line, round 2 answered in text, non-streamed
// bodies the providers' own SDK types accept, scripted answers, aborts and a prompt close().
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startStandin, readFixture, KEY } from './standin.mjs';

let s;
before(async () => {
  s = await startStandin({ delayMs: 1 });
});
after(() => s?.close());
beforeEach(() => s.reset());

const RESULT = 'Sunny, 18 °C, light wind from the west; humidity 60 percent; visibility 10 km; UV index 5.';
const FIRST60 = RESULT.slice(0, 60);
const GEMINI = '/v1beta/models/gemini-2.5-flash';

const auth = {
  chat: { authorization: `Bearer ${KEY}` },
  responses: { authorization: `Bearer ${KEY}` },
  anthropic: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
  gemini: { 'x-goog-api-key': KEY },
};

const paths = {
  chat: () => '/v1/chat/completions',
  responses: () => '/v1/responses',
  anthropic: () => '/v1/messages',
  gemini: (stream) => (stream ? `${GEMINI}:streamGenerateContent?alt=sse` : `${GEMINI}:generateContent`),
};

/** A request body per provider: round 1 (a user question) or round 2 (a tool result last). */
function bodyFor(kind, round, stream) {
  const q = 'What is the weather in San Francisco?';
  if (kind === 'chat') {
    const messages = [{ role: 'user', content: q }];
    if (round === 2)
      messages.push(
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: RESULT },
      );
    return { model: 'deepseek-chat', messages, stream };
  }
  if (kind === 'responses') {
    const input = [{ role: 'user', content: q }];
    if (round === 2)
      input.push(
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: RESULT },
      );
    return { model: 'gpt-5-mini', input, stream };
  }
  if (kind === 'anthropic') {
    const messages = [{ role: 'user', content: q }];
    if (round === 2)
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'json', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: RESULT }] }] },
      );
    return { model: 'claude-haiku-4-5', max_tokens: 512, messages, stream };
  }
  const contents = [{ role: 'user', parts: [{ text: q }] }];
  if (round === 2)
    contents.push(
      { role: 'model', parts: [{ functionCall: { name: 'weather', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { result: RESULT } } }] },
    );
  return { contents };
}

function call(kind, { round = 1, stream = false, headers = {}, body, base = s, prefix = '', signal } = {}) {
  return fetch(`${base.url}${prefix}${paths[kind](stream)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth[kind], ...headers },
    body: body ?? JSON.stringify(bodyFor(kind, round, stream)),
    signal,
  });
}

/** Server-sent events of a whole body: [{event, data}], any of the three line endings. */
function parseSse(text) {
  const events = [];
  for (const block of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    if (block.trim() === '') continue;
    let event;
    const data = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

const until = async (cond, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
};

test('standin_preflight_per_provider_and_none_without_cors', async () => {
  const preflight = (p) =>
    fetch(`${s.url}${p}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:8080',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-api-key',
      },
    });
  for (const p of ['/v1/chat/completions', '/v1/responses', '/v1/messages', `${GEMINI}:streamGenerateContent`]) {
    const r = await preflight(p);
    assert.equal(r.status, 204, p);
    assert.equal(r.headers.get('access-control-allow-origin'), 'http://127.0.0.1:8080', p);
    assert.equal(r.headers.get('access-control-allow-methods'), 'POST, OPTIONS', p);
    assert.equal(r.headers.get('access-control-allow-headers'), 'authorization,content-type,x-api-key', p);
    assert.equal(r.headers.get('access-control-max-age'), '0', p);
  }
  const nocors = await preflight('/nocors/v1/chat/completions');
  assert.equal(nocors.headers.get('access-control-allow-origin'), null);
  assert.equal(nocors.headers.get('access-control-allow-methods'), null);
  const geminiOpenai = await preflight('/v1beta/openai/chat/completions');
  assert.equal(geminiOpenai.status, 404);
  assert.equal(geminiOpenai.headers.get('access-control-allow-origin'), null);
  assert.deepEqual(
    s.log.map((e) => [e.method, e.status]),
    [...Array(4).fill(['OPTIONS', 204]), ['OPTIONS', 204], ['OPTIONS', 404]],
    'every preflight is logged',
  );
});

test('standin_wrong_or_missing_key_answers_each_providers_error', async () => {
  for (const kind of ['chat', 'responses']) {
    const r = await call(kind, { headers: { authorization: 'Bearer sk-wrong-key' } });
    assert.equal(r.status, 401);
    assert.match(r.headers.get('x-request-id'), /^req_/);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await r.json(), {
      error: {
        message: 'Incorrect API key provided: sk-wr***ey. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  }
  const long = await call('chat', { headers: { authorization: 'Bearer sk-proj-abcdefghijklmnopqrstuvwxyz' } });
  assert.match((await long.json()).error.message, /provided: sk-proj-\*{22}wxyz\./);
  const none = await call('chat', { headers: { authorization: '' } });
  assert.equal(none.status, 401);
  assert.match((await none.json()).error.message, /^You didn't provide an API key/);

  const a = await call('anthropic', { headers: { 'x-api-key': 'sk-ant-wrong' } });
  assert.equal(a.status, 401);
  assert.match(a.headers.get('request-id'), /^req_/);
  const ab = await a.json();
  assert.deepEqual({ ...ab, request_id: undefined }, {
    type: 'error',
    error: { type: 'authentication_error', message: 'invalid x-api-key' },
    request_id: undefined,
  });
  assert.match(ab.request_id, /^req_/);

  const g = await call('gemini', { headers: { 'x-goog-api-key': 'AIza-wrong' } });
  assert.equal(g.status, 400);
  const gb = await g.json();
  assert.equal(gb.error.status, 'INVALID_ARGUMENT');
  assert.equal(gb.error.message, 'API key not valid. Please pass a valid API key.');
  assert.equal(gb.error.details[0].reason, 'API_KEY_INVALID');
  const gNone = await call('gemini', { headers: { 'x-goog-api-key': '' } });
  assert.equal(gNone.status, 403);
  assert.equal((await gNone.json()).error.status, 'PERMISSION_DENIED');
});

test('standin_anthropic_needs_the_browser_header_and_a_version', async () => {
  const origin = 'http://127.0.0.1:8080';
  const r = await call('anthropic', { headers: { origin } });
  assert.equal(r.status, 401);
  assert.deepEqual(await r.json(), {
    type: 'error',
    error: {
      type: 'authentication_error',
      message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
    },
  });
  // Like the real API, that refusal carries no CORS header: a browser only sees a failed fetch.
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  const ok = await call('anthropic', { headers: { origin, 'anthropic-dangerous-direct-browser-access': 'true' } });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('access-control-allow-origin'), origin);
  assert.equal((await ok.json()).type, 'message');
  const noVersion = await call('anthropic', { headers: { 'anthropic-version': '' } });
  assert.equal(noVersion.status, 400);
  assert.equal((await noVersion.json()).error.message, 'anthropic-version: header is required');
  const noMax = await call('anthropic', { body: JSON.stringify({ model: 'm', messages: [] }) });
  assert.equal(noMax.status, 400);
  assert.equal((await noMax.json()).error.message, 'max_tokens: Field required');
});

test('standin_streamed_round_1_is_the_fixture_line_for_line', async () => {
  const cases = [
    ['chat', 'openai-chat/deepseek-tool-call.jsonl', 'x-request-id'],
    ['responses', 'openai-responses/lmstudio-tool-call.1.jsonl', 'x-request-id'],
    ['anthropic', 'anthropic/anthropic-json-tool.1.jsonl', 'request-id'],
    ['gemini', 'gemini/google-tool-call.jsonl', null],
  ];
  for (const [kind, fixture, idHeader] of cases) {
    const r = await call(kind, { stream: true });
    assert.equal(r.status, 200, kind);
    assert.equal(r.headers.get('content-type'), 'text/event-stream', kind);
    assert.equal(r.headers.get('cache-control'), 'no-cache', kind);
    assert.equal(r.headers.get('content-length'), null, kind);
    assert.equal(r.headers.get('access-control-expose-headers'), 'retry-after, x-request-id, request-id', kind);
    if (idHeader) assert.match(r.headers.get(idHeader), /^req_/, kind);
    const text = await r.text();
    const events = parseSse(text);
    const lines = readFixture(fixture);
    const data = events.map((e) => e.data);
    if (kind === 'chat') assert.equal(data.pop(), '[DONE]');
    assert.deepEqual(data, lines, `${kind}: data payloads are the fixture lines in order`);
    if (kind === 'anthropic' || kind === 'responses') {
      for (const e of events) assert.equal(e.event, JSON.parse(e.data).type, `${kind}: event name`);
    } else {
      assert.ok(events.every((e) => e.event === undefined), `${kind}: no event names`);
    }
    // Gemini frames events with CRLF like the real endpoint; the others with LF.
    if (kind === 'gemini') assert.ok(text.endsWith('}\r\n\r\n') && !text.includes('}\n\n'));
    else assert.ok(!text.includes('\r'), kind);
    assert.equal(s.log.at(-1).events, lines.length, kind);
    assert.equal(s.log.at(-1).round, 1, kind);
  }
});

test('standin_round_2_answers_in_text', async () => {
  // Recorded text streams for Chat and Anthropic.
  const chat = parseSse(await (await call('chat', { round: 2, stream: true })).text()).map((e) => e.data);
  assert.equal(chat.pop(), '[DONE]');
  assert.deepEqual(chat, readFixture('openai-chat/deepseek-text.jsonl'));
  const chatText = chat.map((d) => JSON.parse(d).choices[0].delta.content ?? '').join('');
  assert.ok(chatText.length > 200 && !chat.some((d) => d.includes('tool_calls')));
  const anth = parseSse(await (await call('anthropic', { round: 2, stream: true })).text());
  assert.deepEqual(anth.map((e) => e.data), readFixture('anthropic/anthropic-text.jsonl'));

  // Synthesized for Responses: the usual event sequence, quoting the tool result.
  const resp = parseSse(await (await call('responses', { round: 2, stream: true })).text());
  const types = resp.map((e) => e.event);
  assert.deepEqual(
    types.filter((t, i) => t !== types[i - 1]),
    [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ],
  );
  const rEvents = resp.map((e) => JSON.parse(e.data));
  assert.ok(types.filter((t) => t === 'response.output_text.delta').length >= 3, 'several deltas');
  assert.deepEqual(rEvents.map((e) => e.sequence_number), rEvents.map((_, i) => i));
  const streamed = rEvents.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
  assert.equal(streamed, `The result was: ${FIRST60}`);
  const completed = rEvents.at(-1).response;
  assert.equal(completed.status, 'completed');
  assert.equal(completed.output[0].content[0].text, streamed);
  assert.ok(completed.usage.output_tokens > 0 && completed.usage.total_tokens > completed.usage.output_tokens);

  // Synthesized for Gemini: three chunks, the last one finished with usage.
  const gem = parseSse(await (await call('gemini', { round: 2, stream: true })).text()).map((e) => JSON.parse(e.data));
  assert.equal(gem.length, 3);
  const gText = gem.map((c) => c.candidates[0].content.parts[0].text).join('');
  assert.ok(gText.startsWith('The result was: ') && gText.includes(JSON.stringify({ result: RESULT }).slice(0, 60)), gText);
  assert.equal(gem[2].candidates[0].finishReason, 'STOP');
  assert.ok(gem[2].usageMetadata.totalTokenCount > 0);
  assert.ok(!('finishReason' in gem[0].candidates[0]));
  assert.deepEqual(s.log.map((e) => e.round), [2, 2, 2, 2]);
});

test('standin_non_streamed_bodies_carry_the_tool_call', async () => {
  const chat = await (await call('chat')).json();
  assert.equal(chat.object, 'chat.completion');
  const tc = chat.choices[0].message.tool_calls[0];
  assert.equal(tc.function.name, 'weather');
  assert.equal(typeof tc.function.arguments, 'string');
  assert.deepEqual(JSON.parse(tc.function.arguments), { location: 'San Francisco' });
  assert.equal(chat.choices[0].finish_reason, 'tool_calls');
  assert.equal(chat.usage.total_tokens, 422);

  const resp = await (await call('responses')).json();
  assert.equal(resp.object, 'response');
  const fc = resp.output.find((o) => o.type === 'function_call');
  assert.equal(fc.name, 'weather');
  assert.deepEqual(JSON.parse(fc.arguments), { location: 'San Francisco' });
  assert.ok(resp.usage.total_tokens > 0);

  const msg = await (await call('anthropic')).json();
  assert.equal(msg.type, 'message');
  assert.deepEqual(msg.content.map((b) => b.type), ['tool_use']);
  assert.equal(msg.content[0].name, 'json');
  assert.deepEqual(msg.content[0].input.elements[0], { location: 'San Francisco', temperature: 58, condition: 'sunny' });
  assert.equal(msg.stop_reason, 'tool_use');
  assert.equal(msg.usage.output_tokens, 47);

  const gem = await (await call('gemini')).json();
  const parts = gem.candidates[0].content.parts;
  assert.equal(parts.length, 1, 'the empty closing text part is not kept');
  assert.deepEqual(parts[0].functionCall, { name: 'weather', args: { location: 'San Francisco' } });
  assert.equal(gem.candidates[0].finishReason, 'STOP');
  assert.equal(gem.usageMetadata.totalTokenCount, 89);

  // Without alt=sse Gemini streams one JSON array of the chunks.
  const arr = await (await fetch(`${s.url}${GEMINI}:streamGenerateContent`, {
    method: 'POST',
    headers: auth.gemini,
    body: JSON.stringify(bodyFor('gemini', 1)),
  })).json();
  assert.deepEqual(arr, readFixture('gemini/google-tool-call.jsonl').map((l) => JSON.parse(l)));
});

test('standin_bodies_are_what_the_provider_sdks_parse', async (t) => {
  const items = [];
  for (const round of [1, 2]) {
    items.push(['chat', await (await call('chat', { round })).json()]);
    items.push(['response', await (await call('responses', { round })).json()]);
    items.push(['message', await (await call('anthropic', { round })).json()]);
    items.push(['gemini', await (await call('gemini', { round })).json()]);
  }
  for (const e of parseSse(await (await call('responses', { round: 2, stream: true })).text()))
    items.push(['response-event', JSON.parse(e.data)]);
  for (const e of parseSse(await (await call('gemini', { round: 2, stream: true })).text()))
    items.push(['gemini', JSON.parse(e.data)]);
  // Controls: the checker must reject these, or it checks nothing.
  items.push(['chat', { id: 'x', object: 'chat.completion', created: 1, model: 'm' }]);
  items.push(['gemini', { candidates: [{ content: { parts: [{ text: 'x' }] }, notAField: 1 }] }]);
  const script = `
import json, sys
from pydantic import TypeAdapter
from openai.types.chat import ChatCompletion
from openai.types.responses import Response, ResponseStreamEvent
from anthropic.types import Message
from google.genai import types as g
event = TypeAdapter(ResponseStreamEvent)
check = {
    'chat': ChatCompletion.model_validate,
    'response': Response.model_validate,
    'response-event': event.validate_python,
    'message': Message.model_validate,
    'gemini': g.GenerateContentResponse.model_validate,
}
out = []
for kind, obj in json.load(sys.stdin):
    try:
        check[kind](obj)
        out.append(None)
    except Exception as e:
        out.append(f'{kind}: {e}'[:400])
print(json.dumps(out))
`;
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(items), encoding: 'utf8' });
  if (run.error || /ModuleNotFoundError/.test(run.stderr)) {
    t.skip('python3 with the openai, anthropic and google-genai SDKs is not installed');
    return;
  }
  assert.equal(run.status, 0, run.stderr);
  const verdicts = JSON.parse(run.stdout);
  assert.equal(verdicts.length, items.length);
  const controls = verdicts.splice(-2);
  assert.ok(controls.every((v) => v !== null), 'the malformed controls are rejected');
  // The round-1 Responses body is LM Studio's recorded one, unchanged: it lacks the
  // usage.input_tokens_details.cache_write_tokens that the current OpenAI SDK requires.
  assert.match(verdicts[1] ?? '', /^response: 1 validation error[^]*cache_write_tokens\s+Field required/);
  verdicts[1] = null;
  assert.deepEqual(verdicts.filter((v) => v !== null), []);
});

test('standin_scripted_429_is_served_once_then_normal', async () => {
  const body = { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
  s.script({ status: 429, headers: { 'retry-after': '7' }, body });
  const r = await call('chat', { stream: true });
  assert.equal(r.status, 429);
  assert.equal(r.headers.get('retry-after'), '7');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  assert.match(r.headers.get('access-control-expose-headers'), /retry-after/);
  assert.deepEqual(await r.json(), body);
  const again = await call('chat', { stream: true });
  assert.equal(again.status, 200);
  assert.equal(parseSse(await again.text()).at(-1).data, '[DONE]');

  // A scripted fixture replaces the round's answer once; OPTIONS does not use up a script.
  s.script({ fixture: 'anthropic/anthropic-tool-no-args.jsonl' });
  await fetch(`${s.url}/v1/messages`, { method: 'OPTIONS' });
  const swapped = parseSse(await (await call('anthropic', { stream: true })).text()).map((e) => e.data);
  assert.deepEqual(swapped, readFixture('anthropic/anthropic-tool-no-args.jsonl'));
  const back = parseSse(await (await call('anthropic', { stream: true })).text()).map((e) => e.data);
  assert.deepEqual(back, readFixture('anthropic/anthropic-json-tool.1.jsonl'));

  // cutAfter ends the stream early, without [DONE].
  s.script({ cutAfter: 3 });
  const cut = parseSse(await (await call('chat', { stream: true })).text()).map((e) => e.data);
  assert.deepEqual(cut, readFixture('openai-chat/deepseek-tool-call.jsonl').slice(0, 3));
});

test('standin_events_are_flushed_one_by_one_and_an_abort_is_recorded', async () => {
  s.script({ delayMs: 150 });
  const ctl = new AbortController();
  const r = await call('anthropic', { stream: true, signal: ctl.signal });
  const reader = r.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.equal(parseSse(first).length, 1, 'the first read holds exactly one event');
  assert.equal(JSON.parse(parseSse(first)[0].data).type, 'message_start');
  ctl.abort();
  const entry = s.log.at(-1);
  assert.ok(await until(() => entry.aborted === true), 'the log entry says aborted');
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(entry.events < 3, `writing stopped after the abort (${entry.events} events)`);
});

test('standin_close_is_prompt_with_a_stream_in_flight', async () => {
  const own = await startStandin({ delayMs: 1 });
  try {
    own.script({ delayMs: 5000 });
    const asked = Date.now();
    const r = await call('gemini', { stream: true, base: own });
    assert.equal(r.status, 200);
    assert.ok(Date.now() - asked < 1000, 'the headers come before the first (slow) event');
    const reading = r.text();
    const t0 = Date.now();
    await own.close();
    assert.ok(Date.now() - t0 < 500, `close took ${Date.now() - t0} ms`);
    await assert.rejects(reading, 'the client sees the stream cut');
    assert.equal(own.log[0].aborted, true);
    await assert.rejects(fetch(`${own.url}/v1/responses`, { method: 'OPTIONS' }), 'nothing listens any more');
  } finally {
    await own.close();
  }
});

test('standin_nocors_and_gemini_openai_answer_without_cors_headers', async () => {
  const nocors = await call('chat', { prefix: '/nocors', stream: true, headers: { origin: 'http://127.0.0.1:8080' } });
  assert.equal(nocors.status, 200);
  assert.equal(nocors.headers.get('access-control-allow-origin'), null);
  assert.equal(parseSse(await nocors.text()).length, readFixture('openai-chat/deepseek-tool-call.jsonl').length + 1);
  s.script({ status: 400, body: { error: { message: 'bad' } } });
  const scripted = await call('anthropic', { prefix: '/nocors' });
  assert.equal(scripted.status, 400);
  assert.equal(scripted.headers.get('access-control-allow-origin'), null);

  const g = await fetch(`${s.url}/v1beta/openai/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, origin: 'http://127.0.0.1:8080' },
    body: JSON.stringify(bodyFor('chat', 1, false)),
  });
  assert.equal(g.status, 200);
  assert.equal(g.headers.get('access-control-allow-origin'), null);
  assert.equal((await g.json()).choices[0].message.tool_calls[0].function.name, 'weather');
  assert.deepEqual(s.log.map((e) => e.path), ['/nocors/v1/chat/completions', '/nocors/v1/messages', '/v1beta/openai/chat/completions']);
});

test('standin_gemini_key_in_the_query_works_and_is_logged', async () => {
  const r = await fetch(`${s.url}${GEMINI}:generateContent?key=${KEY}`, {
    method: 'POST',
    body: JSON.stringify(bodyFor('gemini', 1)),
  });
  assert.equal(r.status, 200);
  await call('gemini');
  assert.equal(s.log[0].query.key, KEY);
  assert.equal(s.log[1].query.key, undefined);
  assert.equal(s.log[1].headers['x-goog-api-key'], KEY);
  assert.equal(JSON.parse(s.log[1].body).contents[0].parts[0].text, 'What is the weather in San Francisco?');
});

test('standin_malformed_json_and_unknown_paths_answer_in_the_providers_shape', async () => {
  const chat = await call('chat', { body: '{"model": ' });
  assert.equal(chat.status, 400);
  assert.match((await chat.json()).error.message, /^We could not parse the JSON body/);
  const anth = await call('anthropic', { body: 'nope' });
  assert.equal(anth.status, 400);
  assert.equal((await anth.json()).error.type, 'invalid_request_error');
  const gem = await call('gemini', { body: '[' });
  assert.equal(gem.status, 400);
  assert.equal((await gem.json()).error.status, 'INVALID_ARGUMENT');

  const unknown = await fetch(`${s.url}/v1/embeddingz`, { method: 'POST', headers: auth.chat, body: '{}' });
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.message, 'Invalid URL (POST /v1/embeddingz)');
  assert.equal(unknown.headers.get('access-control-allow-origin'), '*');
  const gUnknown = await fetch(`${s.url}/v1beta/models/x:embedContent`, { method: 'POST', headers: auth.gemini, body: '{}' });
  assert.equal(gUnknown.status, 404);
  assert.equal((await gUnknown.json()).error.status, 'NOT_FOUND');
  // countTokens is known (the Cost view's "Count exactly"): an empty request is refused as Gemini does.
  const gCount = await fetch(`${s.url}/v1beta/models/x:countTokens`, { method: 'POST', headers: auth.gemini, body: '{}' });
  assert.equal(gCount.status, 400);
  assert.equal((await gCount.json()).error.status, 'INVALID_ARGUMENT');
});

test('standin_fixture_overrides_and_the_stream_length_cap', async () => {
  const own = await startStandin({
    delayMs: 40,
    maxStreamMs: 300,
    fixtures: { 'openai-chat': 'openai-chat/groq-tool-call.jsonl' },
  });
  try {
    const tool = parseSse(await (await call('chat', { base: own, stream: true })).text()).map((e) => e.data);
    assert.equal(tool.pop(), '[DONE]');
    assert.deepEqual(tool, readFixture('openai-chat/groq-tool-call.jsonl'));
    // 401 recorded events at 40 ms would take 16 s; the cap keeps the stream near 300 ms.
    const t0 = Date.now();
    const text = parseSse(await (await call('chat', { base: own, round: 2, stream: true })).text());
    const took = Date.now() - t0;
    assert.equal(text.length, readFixture('openai-chat/deepseek-text.jsonl').length + 1);
    assert.ok(text.length > 400);
    assert.ok(took >= 250 && took < 2000, `stream took ${took} ms`);
  } finally {
    await own.close();
  }
});
