#!/usr/bin/env python3
"""Writes tests/fixtures/rules/<provider>/<rule>.{rejected,accepted}.json: for each provider
rule, the smallest request the provider rejects and its accepted twin, in the provider's own
format. The rule's error text and source are in src/formats/<format>/rules.rs (and listed by
tests/it/rules.rs)."""
import json, os, copy

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "rules")

def tc(id, name="get_weather", args='{"city":"Paris"}'):
    return {"id": id, "type": "function", "function": {"name": name, "arguments": args}}

def chat(model, msgs, **kw):
    d = {"model": model, "messages": msgs,
         "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}
    d.update(kw)
    return d

U = {"role": "user", "content": "Weather in Paris?"}
cases = {}

# OpenAI Chat
cases["openai-chat/tool-call-answered"] = (
    chat("gpt-4o", [U, {"role": "assistant", "content": None, "tool_calls": [tc("call_1")]}, {"role": "user", "content": "And now?"}]),
    chat("gpt-4o", [U, {"role": "assistant", "content": None, "tool_calls": [tc("call_1")]}, {"role": "tool", "tool_call_id": "call_1", "content": "18C"}, {"role": "user", "content": "And now?"}]))
cases["openai-chat/tool-result-has-call"] = (
    chat("gpt-4o", [U, {"role": "tool", "tool_call_id": "call_9", "content": "18C"}]),
    chat("gpt-4o", [U, {"role": "assistant", "content": None, "tool_calls": [tc("call_9")]}, {"role": "tool", "tool_call_id": "call_9", "content": "18C"}]))
cases["openai-chat/arguments-string"] = (
    chat("gpt-4o", [U, {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "18C"}]),
    chat("gpt-4o", [U, {"role": "assistant", "content": None, "tool_calls": [tc("call_1")]}, {"role": "tool", "tool_call_id": "call_1", "content": "18C"}]))

# Mistral
cases["mistral/tool-call-id"] = (
    chat("mistral-large-latest", [U, {"role": "assistant", "content": "", "tool_calls": [tc("call_0fypS1hVX")]}, {"role": "tool", "tool_call_id": "call_0fypS1hVX", "name": "get_weather", "content": "18C"}]),
    chat("mistral-large-latest", [U, {"role": "assistant", "content": "", "tool_calls": [tc("D681PevKs")]}, {"role": "tool", "tool_call_id": "D681PevKs", "name": "get_weather", "content": "18C"}]))
cases["mistral/user-after-tool"] = (
    chat("mistral-large-latest", [U, {"role": "assistant", "content": "", "tool_calls": [tc("D681PevKs")]}, {"role": "tool", "tool_call_id": "D681PevKs", "name": "get_weather", "content": "18C"}, {"role": "user", "content": "And Rome?"}]),
    chat("mistral-large-latest", [U, {"role": "assistant", "content": "", "tool_calls": [tc("D681PevKs")]}, {"role": "tool", "tool_call_id": "D681PevKs", "name": "get_weather", "content": "18C"}, {"role": "assistant", "content": "18C in Paris."}, {"role": "user", "content": "And Rome?"}]))

# DeepSeek
cases["deepseek/reasoning-content-on-tool-calls"] = (
    chat("deepseek-reasoner", [U, {"role": "assistant", "content": "", "tool_calls": [tc("call_00_x")]}, {"role": "tool", "tool_call_id": "call_00_x", "content": "18C"}]),
    chat("deepseek-reasoner", [U, {"role": "assistant", "content": "", "reasoning_content": "The user wants the weather; call the tool.", "tool_calls": [tc("call_00_x")]}, {"role": "tool", "tool_call_id": "call_00_x", "content": "18C"}]))

# Cohere (chat v2)
cases["cohere/tool-call-answered"] = (
    chat("command-a-03-2025", [U, {"role": "assistant", "tool_plan": "I will look it up.", "tool_calls": [tc("get_weather_1")]}, {"role": "user", "content": "Hurry"}]),
    chat("command-a-03-2025", [U, {"role": "assistant", "tool_plan": "I will look it up.", "tool_calls": [tc("get_weather_1")]}, {"role": "tool", "tool_call_id": "get_weather_1", "content": [{"type": "document", "document": {"data": "18C"}}]}, {"role": "user", "content": "Hurry"}]))
cases["cohere/tool-result-has-call"] = (
    chat("command-a-03-2025", [U, {"role": "tool", "tool_call_id": "get_weather_1", "content": "18C"}]),
    chat("command-a-03-2025", [U, {"role": "assistant", "tool_plan": "I will look it up.", "tool_calls": [tc("get_weather_1")]}, {"role": "tool", "tool_call_id": "get_weather_1", "content": "18C"}]))

# Ollama native
cases["ollama/arguments-object"] = (
    chat("llama3.2", [U, {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}, {"role": "tool", "tool_name": "get_weather", "content": "18C"}], stream=False),
    chat("llama3.2", [U, {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, {"role": "tool", "tool_name": "get_weather", "content": "18C"}], stream=False))

# Anthropic
def ant(msgs, **kw):
    d = {"model": "claude-sonnet-4-5", "max_tokens": 2048, "messages": msgs,
         "tools": [{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
    d.update(kw)
    return d
def tu(id): return {"type": "tool_use", "id": id, "name": "get_weather", "input": {"city": "Paris"}}
def tr(id): return {"type": "tool_result", "tool_use_id": id, "content": "18C"}
AU = {"role": "user", "content": "Weather in Paris and Rome?"}
TH = {"type": "thinking", "thinking": "Call the tool.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}
TH_ON = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
cases["anthropic/tool-use-id-unique"] = (
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A"), tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A"), tr("toolu_01A")]}]),
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A"), tu("toolu_01B")]}, {"role": "user", "content": [tr("toolu_01A"), tr("toolu_01B")]}]))
cases["anthropic/tool-result-first"] = (
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A")]}, {"role": "user", "content": [{"type": "text", "text": "Here it is:"}, tr("toolu_01A")]}]),
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A"), {"type": "text", "text": "Here it is."}]}]))
cases["anthropic/tool-use-answered"] = (
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A"), tu("toolu_01B")]}, {"role": "user", "content": [tr("toolu_01A")]}]),
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A"), tu("toolu_01B")]}, {"role": "user", "content": [tr("toolu_01A"), tr("toolu_01B")]}]))
cases["anthropic/tool-result-has-call"] = (
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A"), tr("toolu_01Z")]}]),
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A")]}]))
cases["anthropic/thinking-first"] = (
    ant([AU, {"role": "assistant", "content": [tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A")]}], **TH_ON),
    ant([AU, {"role": "assistant", "content": [TH, tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A")]}], **TH_ON))
cases["anthropic/thinking-signature"] = (
    ant([AU, {"role": "assistant", "content": [{"type": "thinking", "thinking": "Call the tool."}, tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A")]}], **TH_ON),
    ant([AU, {"role": "assistant", "content": [TH, tu("toolu_01A")]}, {"role": "user", "content": [tr("toolu_01A")]}], **TH_ON))
cases["anthropic/thinking-disabled-final"] = (
    ant([AU, {"role": "assistant", "content": [TH, {"type": "text", "text": "Let me"}]}]),
    ant([AU, {"role": "assistant", "content": [{"type": "text", "text": "Let me"}]}]))
cases["anthropic/thinking-forced-tool-choice"] = (
    ant([AU], tool_choice={"type": "any"}, **TH_ON),
    ant([AU], tool_choice={"type": "auto"}, **TH_ON))

# Bedrock
def br(msgs, tools=True, **kw):
    d = {"modelId": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "messages": msgs}
    if tools:
        d["toolConfig"] = {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather", "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}}}}}]}
    for k, v in kw.items():
        if k == "choice":
            d.setdefault("toolConfig", {})["toolChoice"] = v
        else:
            d[k] = v
    return d
def bu(id): return {"toolUse": {"toolUseId": id, "name": "get_weather", "input": {"city": "Paris"}}}
def bres(id): return {"toolResult": {"toolUseId": id, "content": [{"text": "18C"}]}}
BU = {"role": "user", "content": [{"text": "Weather in Paris and Rome?"}]}
BTH = {"additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}}}
BRC = {"reasoningContent": {"reasoningText": {"text": "Call the tool.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}}
cases["bedrock/tool-config"] = (
    br([BU, {"role": "assistant", "content": [bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}], tools=False),
    br([BU, {"role": "assistant", "content": [bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}]))
cases["bedrock/tool-use-answered"] = (
    br([BU, {"role": "assistant", "content": [bu("tooluse_1"), bu("tooluse_2")]}, {"role": "user", "content": [bres("tooluse_1")]}]),
    br([BU, {"role": "assistant", "content": [bu("tooluse_1"), bu("tooluse_2")]}, {"role": "user", "content": [bres("tooluse_1"), bres("tooluse_2")]}]))
cases["bedrock/tool-result-has-call"] = (
    br([BU, {"role": "assistant", "content": [bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1"), bres("tooluse_9")]}]),
    br([BU, {"role": "assistant", "content": [bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}]))
cases["bedrock/thinking-first"] = (
    br([BU, {"role": "assistant", "content": [bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}], **BTH),
    br([BU, {"role": "assistant", "content": [BRC, bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}], **BTH))
cases["bedrock/thinking-signature"] = (
    br([BU, {"role": "assistant", "content": [{"reasoningContent": {"reasoningText": {"text": "Call the tool."}}}, bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}], **BTH),
    br([BU, {"role": "assistant", "content": [BRC, bu("tooluse_1")]}, {"role": "user", "content": [bres("tooluse_1")]}], **BTH))
cases["bedrock/thinking-forced-tool-choice"] = (
    br([BU], choice={"any": {}}, **BTH),
    br([BU], choice={"auto": {}}, **BTH))

# Gemini
def gm(contents, decls=None, **kw):
    d = {"contents": contents, "tools": [{"functionDeclarations": decls or [{"name": "get_weather", "description": "Weather", "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": ["city"]}}]}]}
    d.update(kw)
    return d
def fc(name="get_weather", sig=None, id=None):
    p = {"functionCall": {"name": name, "args": {"city": "Paris"}}}
    if id: p["functionCall"]["id"] = id
    if sig: p["thoughtSignature"] = sig
    return p
def fr(name="get_weather", id=None):
    p = {"functionResponse": {"name": name, "response": {"output": "18C"}}}
    if id: p["functionResponse"]["id"] = id
    return p
GU = {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]}
G3 = {"generationConfig": {"thinkingConfig": {"thinkingLevel": "high"}}}
SIG = "CiQBcsjafBmHb7mJ0m2H7VwqZs0wYmq8m3m8G0z1y2mQ="
cases["gemini/response-count"] = (
    gm([GU, {"role": "model", "parts": [fc(id="a"), fc(id="b")]}, {"role": "user", "parts": [fr(id="a")]}]),
    gm([GU, {"role": "model", "parts": [fc(id="a"), fc(id="b")]}, {"role": "user", "parts": [fr(id="a"), fr(id="b")]}]))
cases["gemini/call-turn-order"] = (
    gm([{"role": "model", "parts": [fc()]}, {"role": "user", "parts": [fr()]}]),
    gm([GU, {"role": "model", "parts": [fc()]}, {"role": "user", "parts": [fr()]}]))
cases["gemini/response-turn-order"] = (
    gm([GU, {"role": "model", "parts": [{"text": "Let me check."}]}, {"role": "user", "parts": [fr()]}]),
    gm([GU, {"role": "model", "parts": [fc()]}, {"role": "user", "parts": [fr()]}]))
cases["gemini/thought-signature"] = (
    gm([GU, {"role": "model", "parts": [fc()]}, {"role": "user", "parts": [fr()]}], **G3),
    gm([GU, {"role": "model", "parts": [fc(sig=SIG)]}, {"role": "user", "parts": [fr()]}], **G3))
cases["gemini/thought-signature-history"] = (
    gm([GU, {"role": "model", "parts": [fc()]}, {"role": "user", "parts": [fr()]}, {"role": "model", "parts": [{"text": "18C."}]}, {"role": "user", "parts": [{"text": "Thanks. And Rome?"}]}], **G3),
    gm([GU, {"role": "model", "parts": [fc(sig=SIG)]}, {"role": "user", "parts": [fr()]}, {"role": "model", "parts": [{"text": "18C."}]}, {"role": "user", "parts": [{"text": "Thanks. And Rome?"}]}], **G3))
cases["gemini/parameters-const"] = (
    gm([GU], [{"name": "set_mode", "description": "Mode", "parameters": {"type": "OBJECT", "properties": {"mode": {"anyOf": [{"type": "STRING", "const": "fast"}, {"type": "STRING", "const": "slow"}]}}}}]),
    gm([GU], [{"name": "set_mode", "description": "Mode", "parameters": {"type": "OBJECT", "properties": {"mode": {"type": "STRING", "enum": ["fast", "slow"]}}}}]))
cases["gemini/parameters-exclusive-bounds"] = (
    gm([GU], [{"name": "read_file", "description": "Read", "parameters": {"type": "OBJECT", "properties": {"limit": {"type": "INTEGER", "exclusiveMinimum": 0}}}}]),
    gm([GU], [{"name": "read_file", "description": "Read", "parameters": {"type": "OBJECT", "properties": {"limit": {"type": "INTEGER", "minimum": 1}}}}]))
cases["gemini/function-name"] = (
    gm([GU], [{"name": "3d_render", "description": "Render", "parameters": {"type": "OBJECT", "properties": {}}}]),
    gm([GU], [{"name": "render_3d", "description": "Render", "parameters": {"type": "OBJECT", "properties": {}}}]))

# OpenAI Responses
def rs(inp, **kw):
    d = {"model": "o4-mini", "input": inp, "tools": [{"type": "function", "name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "strict": False}]}
    d.update(kw)
    return d
RU = {"role": "user", "content": "Weather in Paris?"}
RR = {"type": "reasoning", "id": "rs_0c3876fcd4da19ef00692a14046bc8819eba6941c05c5ab7e7", "summary": []}
FC = {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}
FO = {"type": "function_call_output", "call_id": "call_1", "output": "18C"}
cases["openai-responses/reasoning-followed"] = (
    rs([RU, RR, {"role": "user", "content": "Hurry"}]),
    rs([RU, RR, FC, FO, {"role": "user", "content": "Hurry"}]))
cases["openai-responses/reasoning-not-stored"] = (
    rs([RU, RR, FC, FO], store=False),
    rs([RU, dict(RR, encrypted_content="gAAAAABoQ3x5Yz..."), FC, FO], store=False, include=["reasoning.encrypted_content"]))
cases["openai-responses/function-call-answered"] = (
    rs([RU, FC, {"role": "user", "content": "Hurry"}]),
    rs([RU, FC, FO, {"role": "user", "content": "Hurry"}]))
cases["openai-responses/output-has-call"] = (
    rs([RU, FO]),
    rs([RU, FC, FO]))

# MCP
def mcp(result):
    return [
        {"jsonrpc": "2.0", "id": 0, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 0, "result": {"tools": [{"name": "get_weather", "description": "Weather",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
            "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}}]}},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris"}}},
        {"jsonrpc": "2.0", "id": 1, "result": result},
    ]
cases["mcp/structured-content-present"] = (
    mcp({"content": [{"type": "text", "text": "18C"}]}),
    mcp({"content": [{"type": "text", "text": "{\"temperature\": 18}"}], "structuredContent": {"temperature": 18}}))
cases["mcp/structured-content-matches"] = (
    mcp({"content": [{"type": "text", "text": "{\"temp\": 18}"}], "structuredContent": {"temp": 18}}),
    mcp({"content": [{"type": "text", "text": "{\"temperature\": 18}"}], "structuredContent": {"temperature": 18}}))

# AI SDK
def ai(msgs):
    return {"model": "gpt-4o", "messages": msgs, "tools": {"get_weather": {"description": "Weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}}}
ACALL = {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather", "input": {"city": "Paris"}}]}
cases["ai-sdk/tool-result-present"] = (
    ai([{"role": "user", "content": "Weather in Paris?"}, ACALL, {"role": "user", "content": "Hurry"}]),
    ai([{"role": "user", "content": "Weather in Paris?"}, ACALL, {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "call_1", "toolName": "get_weather", "output": {"type": "text", "value": "18C"}}]}, {"role": "user", "content": "Hurry"}]))

for rule, (rej, acc) in cases.items():
    prov, name = rule.split("/")
    d = os.path.join(OUT, prov)
    os.makedirs(d, exist_ok=True)
    for kind, doc in (("rejected", rej), ("accepted", acc)):
        with open(os.path.join(d, f"{name}.{kind}.json"), "w") as f:
            json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")
print(len(cases), "rules")
