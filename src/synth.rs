//! The reverse of assembling: the stream each protocol would send for an exchange's last
//! assistant turn. The turn is first encoded as the protocol's non-streamed response (so ids,
//! names and losses are exactly the encoder's), then cut into that protocol's events the way
//! the provider streams it: Chat chunks with argument fragments by `index` (Mistral: whole
//! calls without index), Responses item events, Anthropic content blocks with
//! `input_json_delta`s, Gemini chunks with whole calls, Bedrock `contentBlockDelta` input
//! strings, Cohere `tool-call-delta`s, Ollama lines.

use crate::formats::Kind;
use crate::model::{Exchange, Loss};
use crate::stream::{ndjson, sse, Event, Protocol};
use serde_json::{json, Map, Value};

/// A synthesised stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Synth {
    /// The protocol.
    pub protocol: Protocol,
    /// The events, in order.
    pub events: Vec<Event>,
    /// What the protocol's response cannot carry (from the encoder).
    pub losses: Vec<Loss>,
}

impl Synth {
    /// The stream as the wire carries it: SSE text, or JSON lines for Ollama and Bedrock
    /// (whose binary event stream boto3 yields as one object per event).
    pub fn text(&self) -> String {
        if self.protocol.is_sse() {
            sse::render(&self.events)
        } else {
            ndjson::render(&self.events)
        }
    }
}

/// Default fragment length, in characters: about what providers send per chunk.
pub const FRAGMENT: usize = 12;

/// The stream `protocol` would send for the last assistant message of `x`.
pub fn synthesize(x: &Exchange, protocol: Protocol) -> Synth {
    synthesize_with(x, protocol, FRAGMENT)
}

/// [`synthesize`] with fragments of `fragment` characters (at least 1).
pub fn synthesize_with(x: &Exchange, protocol: Protocol, fragment: usize) -> Synth {
    let enc = protocol.format().encode(x, Kind::Response);
    let doc: Value = serde_json::from_str(&enc.text).unwrap_or(Value::Null);
    let n = fragment.max(1);
    let values = match protocol {
        Protocol::OpenAiChat | Protocol::DeepSeek | Protocol::Mistral => {
            chat(&doc, n, protocol == Protocol::Mistral)
        }
        Protocol::OpenAiResponses => responses(&doc, n),
        Protocol::Anthropic => anthropic(&doc, n),
        Protocol::Gemini => gemini(&doc, n),
        Protocol::Bedrock => bedrock(&doc, n),
        Protocol::Cohere => cohere(&doc, n),
        Protocol::Ollama => ollama(&doc, n),
        Protocol::AiSdk => crate::formats::ai_sdk::stream::synthesize(&doc, n),
    };
    let named = matches!(protocol, Protocol::Anthropic | Protocol::OpenAiResponses);
    let events = values
        .into_iter()
        .map(|v| match v {
            Value::String(s) => Event::data(s),
            v => Event {
                name: named
                    .then(|| v.get("type").and_then(Value::as_str).map(str::to_string))
                    .flatten(),
                data: serde_json::to_string(&v).unwrap_or_default(),
            },
        })
        .collect();
    Synth {
        protocol,
        events,
        losses: enc.losses,
    }
}

/// Cut text into pieces of `n` characters.
pub fn fragments(s: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut count = 0;
    for ch in s.chars() {
        cur.push(ch);
        count += 1;
        if count == n {
            out.push(std::mem::take(&mut cur));
            count = 0;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn obj(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn chat(doc: &Value, n: usize, mistral: bool) -> Vec<Value> {
    let mut base = obj(doc);
    let choices = base.remove("choices");
    let usage = base.remove("usage");
    base.insert("object".into(), json!("chat.completion.chunk"));
    let choice = choices
        .as_ref()
        .and_then(|c| c.get(0))
        .cloned()
        .unwrap_or(Value::Null);
    let message = obj(choice.get("message").unwrap_or(&Value::Null));
    let chunk = |delta: Value, finish: Value| {
        let mut ch = Map::new();
        ch.insert("index".into(), json!(0));
        ch.insert("delta".into(), delta);
        // Choice fields of the response (`logprobs`) travel on every chunk.
        for (k, v) in obj(&choice) {
            if !matches!(k.as_str(), "index" | "message" | "finish_reason") {
                ch.insert(k, v);
            }
        }
        ch.insert("finish_reason".into(), finish);
        let mut c = base.clone();
        c.insert("choices".into(), json!([ch]));
        Value::Object(c)
    };
    // The first delta names the role and starts the content (`""` for text, `null` for
    // calls only, as OpenAI sends it), with the fields that are null (`refusal`).
    let mut first = Map::new();
    first.insert("role".into(), json!("assistant"));
    let text = message.get("content").is_some_and(Value::is_string);
    first.insert("content".into(), if text { json!("") } else { Value::Null });
    for (k, v) in &message {
        if v.is_null() {
            first.insert(k.clone(), Value::Null);
        }
    }
    let mut out = vec![chunk(Value::Object(first), Value::Null)];
    for (k, v) in &message {
        match (k.as_str(), v) {
            ("role" | "tool_calls", _) | (_, Value::Null) => {}
            (_, Value::String(s)) => {
                for f in fragments(s, n) {
                    out.push(chunk(json!({ k.as_str(): f }), Value::Null));
                }
            }
            (_, v) => out.push(chunk(json!({ k.as_str(): v }), Value::Null)),
        }
    }
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for (i, call) in calls.into_iter().flatten().enumerate() {
        let f = call.get("function");
        let name = f.and_then(|f| f.get("name")).cloned().unwrap_or(json!(""));
        let args = match f.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => serde_json::to_string(v).unwrap_or_default(),
            None => String::new(),
        };
        if mistral {
            // Mistral sends each call whole, without index.
            let mut c = obj(call);
            c.insert("function".into(), json!({"name": name, "arguments": args}));
            out.push(chunk(json!({"tool_calls": [c]}), Value::Null));
            continue;
        }
        let mut first = obj(call);
        first.insert("index".into(), json!(i));
        first.insert("function".into(), json!({"name": name, "arguments": ""}));
        out.push(chunk(json!({"tool_calls": [first]}), Value::Null));
        for frag in fragments(&args, n) {
            out.push(chunk(
                json!({"tool_calls": [{"index": i, "function": {"arguments": frag}}]}),
                Value::Null,
            ));
        }
    }
    let finish = choice
        .get("finish_reason")
        .cloned()
        .unwrap_or(json!("stop"));
    out.push(chunk(json!({}), finish));
    if let Some(u) = usage.filter(|u| !u.is_null()) {
        let mut c = base.clone();
        c.insert("choices".into(), json!([]));
        c.insert("usage".into(), u);
        out.push(Value::Object(c));
    }
    out.push(Value::String("[DONE]".into()));
    out
}

fn responses(doc: &Value, n: usize) -> Vec<Value> {
    let mut seq = 0u64;
    let mut out = Vec::new();
    let mut ev = |mut v: Value| {
        if let Value::Object(m) = &mut v {
            m.insert("sequence_number".into(), json!(seq));
        }
        seq += 1;
        out.push(v);
    };
    let mut start = obj(doc);
    let output = start.remove("output");
    start.insert("output".into(), json!([]));
    start.insert("status".into(), json!("in_progress"));
    start.remove("usage");
    ev(json!({"type": "response.created", "response": start}));
    for (i, item) in output
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let id = item.get("id").cloned().unwrap_or(Value::Null);
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                let mut added = obj(item);
                added.insert("content".into(), json!([]));
                added.insert("status".into(), json!("in_progress"));
                ev(json!({"type": "response.output_item.added", "output_index": i, "item": added}));
                let parts = item.get("content").and_then(Value::as_array);
                for (ci, part) in parts.into_iter().flatten().enumerate() {
                    let text = part.get("text").and_then(Value::as_str);
                    let Some(text) = text.filter(|_| {
                        part.get("type").and_then(Value::as_str) == Some("output_text")
                    }) else {
                        ev(json!({"type": "response.content_part.added", "item_id": id,
                                  "output_index": i, "content_index": ci, "part": part}));
                        continue;
                    };
                    let mut empty = obj(part);
                    empty.insert("text".into(), json!(""));
                    ev(json!({"type": "response.content_part.added", "item_id": id,
                              "output_index": i, "content_index": ci, "part": empty}));
                    for f in fragments(text, n) {
                        ev(json!({"type": "response.output_text.delta", "item_id": id,
                                  "output_index": i, "content_index": ci, "delta": f}));
                    }
                    ev(json!({"type": "response.output_text.done", "item_id": id,
                              "output_index": i, "content_index": ci, "text": text}));
                    ev(json!({"type": "response.content_part.done", "item_id": id,
                              "output_index": i, "content_index": ci, "part": part}));
                }
            }
            Some("function_call") => {
                let args = item
                    .get("arguments")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let mut added = obj(item);
                added.insert("arguments".into(), json!(""));
                added.insert("status".into(), json!("in_progress"));
                ev(json!({"type": "response.output_item.added", "output_index": i, "item": added}));
                for f in fragments(&args, n) {
                    ev(json!({"type": "response.function_call_arguments.delta",
                              "item_id": id, "output_index": i, "delta": f}));
                }
                ev(json!({"type": "response.function_call_arguments.done",
                          "item_id": id, "output_index": i, "arguments": args}));
            }
            _ => {
                ev(json!({"type": "response.output_item.added", "output_index": i, "item": item}));
            }
        }
        ev(json!({"type": "response.output_item.done", "output_index": i, "item": item}));
    }
    let mut done = obj(doc);
    done.insert("status".into(), json!("completed"));
    ev(json!({"type": "response.completed", "response": done}));
    out
}

fn anthropic(doc: &Value, n: usize) -> Vec<Value> {
    let mut start = obj(doc);
    let content = start.remove("content");
    let stop_reason = start.insert("stop_reason".into(), Value::Null);
    let stop_sequence = start.insert("stop_sequence".into(), Value::Null);
    start.insert("content".into(), json!([]));
    let usage = start.get("usage").cloned();
    let mut out = vec![
        json!({"type": "message_start", "message": start}),
        json!({"type": "ping"}),
    ];
    for (i, block) in content
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let mut b = obj(block);
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                b.insert("text".into(), json!(""));
                out.push(json!({"type": "content_block_start", "index": i, "content_block": b}));
                for f in fragments(text, n) {
                    out.push(json!({"type": "content_block_delta", "index": i,
                                    "delta": {"type": "text_delta", "text": f}}));
                }
            }
            Some("tool_use" | "server_tool_use") => {
                let input = block.get("input").cloned().unwrap_or(json!({}));
                let text = serde_json::to_string(&input).unwrap_or_default();
                b.insert("input".into(), json!({}));
                out.push(json!({"type": "content_block_start", "index": i, "content_block": b}));
                out.push(json!({"type": "content_block_delta", "index": i,
                                "delta": {"type": "input_json_delta", "partial_json": ""}}));
                for f in fragments(&text, n) {
                    out.push(json!({"type": "content_block_delta", "index": i,
                                    "delta": {"type": "input_json_delta", "partial_json": f}}));
                }
            }
            Some("thinking") => {
                let text = block.get("thinking").and_then(Value::as_str).unwrap_or("");
                let sig = block.get("signature").cloned();
                b.insert("thinking".into(), json!(""));
                b.insert("signature".into(), json!(""));
                out.push(json!({"type": "content_block_start", "index": i, "content_block": b}));
                for f in fragments(text, n) {
                    out.push(json!({"type": "content_block_delta", "index": i,
                                    "delta": {"type": "thinking_delta", "thinking": f}}));
                }
                if let Some(s) = sig {
                    out.push(json!({"type": "content_block_delta", "index": i,
                                    "delta": {"type": "signature_delta", "signature": s}}));
                }
            }
            _ => out.push(json!({"type": "content_block_start", "index": i, "content_block": b})),
        }
        out.push(json!({"type": "content_block_stop", "index": i}));
    }
    let mut delta = Map::new();
    delta.insert("stop_reason".into(), stop_reason.unwrap_or(Value::Null));
    delta.insert("stop_sequence".into(), stop_sequence.unwrap_or(Value::Null));
    let mut md = json!({"type": "message_delta", "delta": delta});
    if let (Some(u), Value::Object(m)) = (usage, &mut md) {
        m.insert("usage".into(), u);
    }
    out.push(md);
    out.push(json!({"type": "message_stop"}));
    out
}

fn gemini(doc: &Value, n: usize) -> Vec<Value> {
    let mut top = obj(doc);
    let candidates = top.remove("candidates");
    let usage = top.remove("usageMetadata");
    let cand = candidates
        .as_ref()
        .and_then(|c| c.get(0))
        .map(obj)
        .unwrap_or_default();
    let role = cand
        .get("content")
        .and_then(|c| c.get("role"))
        .cloned()
        .unwrap_or(json!("model"));
    let parts: Vec<Value> = cand
        .get("content")
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let chunk = |parts: Vec<Value>, last: bool| {
        let mut c = Map::new();
        c.insert("content".into(), json!({"role": role, "parts": parts}));
        if last {
            for (k, v) in &cand {
                if k != "content" {
                    c.insert(k.clone(), v.clone());
                }
            }
        }
        let mut d = Map::new();
        d.insert("candidates".into(), json!([c]));
        if let (true, Some(u)) = (last, &usage) {
            d.insert("usageMetadata".into(), u.clone());
        }
        for (k, v) in &top {
            d.insert(k.clone(), v.clone());
        }
        Value::Object(d)
    };
    let mut pieces: Vec<Vec<Value>> = Vec::new();
    for p in &parts {
        match p.get("text").and_then(Value::as_str) {
            Some(text) if p.get("functionCall").is_none() => {
                let frags = fragments(text, n);
                let count = frags.len();
                for (i, f) in frags.into_iter().enumerate() {
                    let mut q = obj(p);
                    q.insert("text".into(), json!(f));
                    if i + 1 < count {
                        // The signature comes with the text's last piece.
                        q.remove("thoughtSignature");
                    }
                    pieces.push(vec![Value::Object(q)]);
                }
                if count == 0 {
                    pieces.push(vec![p.clone()]);
                }
            }
            _ => pieces.push(vec![p.clone()]),
        }
    }
    let count = pieces.len();
    let mut out: Vec<Value> = pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| chunk(p, i + 1 == count))
        .collect();
    if out.is_empty() {
        out.push(chunk(Vec::new(), true));
    }
    out
}

fn bedrock(doc: &Value, n: usize) -> Vec<Value> {
    let message = doc.get("output").and_then(|o| o.get("message"));
    let role = message
        .and_then(|m| m.get("role"))
        .cloned()
        .unwrap_or(json!("assistant"));
    let mut out = vec![json!({"messageStart": {"role": role}})];
    let content = message
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array);
    for (i, block) in content.into_iter().flatten().enumerate() {
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            for f in fragments(text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                                                      "delta": {"text": f}}}));
            }
        } else if let Some(tu) = block.get("toolUse") {
            let mut start = obj(tu);
            let input = start.remove("input").unwrap_or(json!({}));
            out.push(json!({"contentBlockStart": {"contentBlockIndex": i,
                                                  "start": {"toolUse": start}}}));
            let text = serde_json::to_string(&input).unwrap_or_default();
            for f in fragments(&text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                                                      "delta": {"toolUse": {"input": f}}}}));
            }
        } else if let Some(rt) = block
            .get("reasoningContent")
            .and_then(|r| r.get("reasoningText"))
        {
            let text = rt.get("text").and_then(Value::as_str).unwrap_or("");
            for f in fragments(text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                    "delta": {"reasoningContent": {"text": f}}}}));
            }
            if let Some(sig) = rt.get("signature") {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                    "delta": {"reasoningContent": {"signature": sig}}}}));
            }
        } else {
            out.push(json!({"contentBlockDelta": {"contentBlockIndex": i, "delta": block}}));
        }
        out.push(json!({"contentBlockStop": {"contentBlockIndex": i}}));
    }
    let mut stop = Map::new();
    for (k, v) in obj(doc) {
        if k == "stopReason" || k == "additionalModelResponseFields" {
            stop.insert(k, v);
        }
    }
    out.push(json!({ "messageStop": stop }));
    let mut meta = Map::new();
    for (k, v) in obj(doc) {
        if matches!(
            k.as_str(),
            "usage" | "metrics" | "trace" | "performanceConfig"
        ) {
            meta.insert(k, v);
        }
    }
    if !meta.is_empty() {
        out.push(json!({ "metadata": meta }));
    }
    out
}

fn cohere(doc: &Value, n: usize) -> Vec<Value> {
    let message = doc.get("message");
    let mut out = vec![json!({"id": doc.get("id"), "type": "message-start",
        "delta": {"message": {"role": "assistant", "content": [], "tool_plan": "",
                              "tool_calls": [], "citations": []}}})];
    if let Some(plan) = message
        .and_then(|m| m.get("tool_plan"))
        .and_then(Value::as_str)
    {
        for f in fragments(plan, n) {
            out.push(json!({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": f}}}));
        }
    }
    let content = message
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array);
    for (i, block) in content.into_iter().flatten().enumerate() {
        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
        out.push(json!({"type": "content-start", "index": i,
            "delta": {"message": {"content": {"type": "text", "text": ""}}}}));
        for f in fragments(text, n) {
            out.push(json!({"type": "content-delta", "index": i,
                "delta": {"message": {"content": {"text": f}}}}));
        }
        out.push(json!({"type": "content-end", "index": i}));
    }
    let calls = message
        .and_then(|m| m.get("tool_calls"))
        .and_then(Value::as_array);
    for (i, call) in calls.into_iter().flatten().enumerate() {
        let f = call.get("function");
        let name = f.and_then(|f| f.get("name")).cloned().unwrap_or(json!(""));
        let args = match f.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => serde_json::to_string(v).unwrap_or_default(),
            None => String::new(),
        };
        out.push(
            json!({"type": "tool-call-start", "index": i, "delta": {"message": {
            "tool_calls": {"id": call.get("id"), "type": "function",
                           "function": {"name": name, "arguments": ""}}}}}),
        );
        for frag in fragments(&args, n) {
            out.push(
                json!({"type": "tool-call-delta", "index": i, "delta": {"message": {
                "tool_calls": {"function": {"arguments": frag}}}}}),
            );
        }
        out.push(json!({"type": "tool-call-end", "index": i}));
    }
    let mut delta = Map::new();
    if let Some(r) = doc.get("finish_reason") {
        delta.insert("finish_reason".into(), r.clone());
    }
    if let Some(u) = doc.get("usage") {
        delta.insert("usage".into(), u.clone());
    }
    out.push(json!({"type": "message-end", "delta": delta}));
    out
}

fn ollama(doc: &Value, n: usize) -> Vec<Value> {
    let mut top = obj(doc);
    let message = top.remove("message").map(|m| obj(&m)).unwrap_or_default();
    top.remove("done");
    let model = top.get("model").cloned().unwrap_or(Value::Null);
    let created = top.get("created_at").cloned().unwrap_or(Value::Null);
    let role = message.get("role").cloned().unwrap_or(json!("assistant"));
    let line =
        |m: Value| json!({"model": model, "created_at": created, "message": m, "done": false});
    let mut out = Vec::new();
    if let Some(t) = message.get("thinking").and_then(Value::as_str) {
        for f in fragments(t, n) {
            out.push(line(json!({"role": role, "content": "", "thinking": f})));
        }
    }
    let content = message.get("content").and_then(Value::as_str).unwrap_or("");
    for f in fragments(content, n) {
        out.push(line(json!({"role": role, "content": f})));
    }
    if let Some(calls) = message.get("tool_calls") {
        out.push(line(
            json!({"role": role, "content": "", "tool_calls": calls}),
        ));
    }
    let mut last = top;
    last.insert("message".into(), json!({"role": role, "content": ""}));
    last.insert("done".into(), json!(true));
    out.push(Value::Object(last));
    out
}
