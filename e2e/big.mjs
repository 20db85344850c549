// Large exchanges and the share links that carry them, for the scale test and the page
// benchmark (scripts/bench-page.mjs). A link is `#v1.` + base64url(deflate-raw(state JSON)),
// the format src/share writes.
import zlib from 'node:zlib';

export const FORMATS = [
  'openai-chat', 'openai-responses', 'anthropic', 'gemini', 'bedrock', 'mcp',
  'anthropic-xml', 'deepseek', 'mistral', 'cohere', 'ollama',
];

/**
 * A canonical exchange with `messages` messages cycling through a question, a tool call, its
 * result and an answer, and `tools` tools the calls pick from. `pad` adds that many characters
 * to every text, to fill a link up to its size limit.
 */
export function bigExchange({ messages, tools = 1, pad = 0 }) {
  const filler = pad > 0 ? ' ' + 'lorem ipsum dolor sit amet '.repeat(Math.ceil(pad / 27)).slice(0, pad) : '';
  const ts = [];
  for (let t = 0; t < tools; t++) {
    ts.push({
      name: `tool_${t}`,
      description: `Tool number ${t}: looks things up.${filler}`,
      input_schema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to look up' }, limit: { type: 'integer' } },
        required: ['query'],
      },
    });
  }
  const ms = [];
  for (let i = 0; ms.length < messages; i++) {
    const id = `call_${i}`;
    const name = `tool_${i % Math.max(tools, 1)}`;
    ms.push({ role: 'user', parts: [{ type: 'text', text: `Question ${i}${filler}` }] });
    if (tools > 0) {
      ms.push({ role: 'assistant', parts: [{ type: 'tool_call', id, name, arguments: { query: `q${i}`, limit: i % 10 } }] });
      ms.push({ role: 'tool', parts: [{ type: 'tool_result', call_id: id, content: { text: `result ${i}${filler}` } }] });
    }
    ms.push({ role: 'assistant', parts: [{ type: 'text', text: `Answer ${i}${filler}` }] });
  }
  ms.length = messages;
  return { system: 'You are a test.', tools: ts, messages: ms };
}

/** The `#v1.…` fragment of a state holding `exchange` (every pane shown, request view). */
export function linkFragment(exchange, panes = FORMATS) {
  const state = { toolscope: 'state', version: 1, kind: 'request', panes, exchange };
  const packed = zlib.deflateRawSync(Buffer.from(JSON.stringify(state)), { level: 9 });
  return '#v1.' + packed.toString('base64url');
}

/**
 * The OpenAI Chat Completions request (pretty JSON, as a user would paste it) of a canonical
 * exchange made by `bigExchange`: a system message, the messages with `tool_calls` and `tool`
 * results, and the tools as functions.
 */
export function openaiChatDocument(x) {
  const messages = [{ role: 'system', content: x.system }];
  for (const m of x.messages) {
    const p = m.parts[0];
    if (p.type === 'text') messages.push({ role: m.role, content: p.text });
    else if (p.type === 'tool_call') {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: p.id, type: 'function', function: { name: p.name, arguments: JSON.stringify(p.arguments) } }],
      });
    } else messages.push({ role: 'tool', tool_call_id: p.call_id, content: p.content.text });
  }
  const tools = x.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
  return JSON.stringify({ model: 'gpt-4o', messages, tools }, null, 2);
}
