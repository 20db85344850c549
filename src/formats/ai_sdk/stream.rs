//! The AI SDK's UI message stream (`toUIMessageStreamResponse()`, read by `useChat`): SSE
//! `data:` lines of JSON chunks (`uiMessageChunkSchema` of npm `ai` 5), ending `data: [DONE]`.
//!
//! `start` (`messageId`), then per step `start-step` … `finish-step`; text as `text-start` /
//! `text-delta` (`delta`) / `text-end` by `id`; reasoning likewise; a call as
//! `tool-input-start` (`toolCallId`, `toolName`), `tool-input-delta` (`inputTextDelta`) and
//! `tool-input-available` with the whole `input` (a mismatch with the fragments is reported);
//! the server's tool results as `tool-output-available` (`output`) or `tool-output-error`
//! (`errorText`); `finish` (`finishReason` since 5.0.x); `error` (`errorText`) and `abort`.
//! Usage is no chunk of its own: apps attach it as `messageMetadata` (`usage` or
//! `totalUsage`, as the docs' example does), which is read when present and written so.
//! Sources, files, `data-*` parts and metadata are shown in the timeline and not assembled.
//!
//! The equivalent response is `{finishReason, response: {messages}}`: per step an assistant
//! message (text, reasoning, calls) and a tool message with the outputs that arrived.

use crate::stream::{
    arguments_value, fragments, get_str, AnomalyKind, Assembler, Event, Tracker, Update,
};
use serde_json::{json, Map, Value};

/// One piece of an assistant step.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text {
        id: String,
        text: String,
        meta: Map<String, Value>,
    },
    Reasoning {
        id: String,
        text: String,
        meta: Map<String, Value>,
    },
    Call {
        call: usize,
    },
    /// The output of a tool the provider executed: a `tool-result` in the assistant message.
    Output {
        id: String,
        name: String,
        output: Value,
    },
}

/// Merge a chunk's `providerMetadata` into what a part has gathered (provider by provider).
fn merge_meta(into: &mut Map<String, Value>, v: &Value) {
    let Some(Value::Object(m)) = v.get("providerMetadata") else {
        return;
    };
    for (k, val) in m {
        match (into.get_mut(k), val) {
            (Some(Value::Object(have)), Value::Object(add)) => {
                for (f, x) in add {
                    have.insert(f.clone(), x.clone());
                }
            }
            _ => {
                into.insert(k.clone(), val.clone());
            }
        }
    }
}

/// One step: what the model said and the outputs of the tools it called.
#[derive(Debug, Clone, PartialEq, Default)]
struct Step {
    pieces: Vec<Piece>,
    /// `(toolCallId, toolName, output)` in arrival order.
    outputs: Vec<(String, String, Value)>,
}

/// Assembler for the UI message stream.
#[derive(Debug, Clone, PartialEq)]
pub struct AiSdkAssembler {
    t: Tracker,
    steps: Vec<Step>,
    finish_reason: Option<String>,
    message_id: Option<String>,
    /// Token counts from message metadata (`usage` or `totalUsage`), as apps attach them.
    usage: Option<Value>,
    /// Calls the provider executed, and each call's provider metadata, by call index.
    executed: Vec<usize>,
    call_meta: Vec<(usize, Map<String, Value>)>,
}

impl Default for AiSdkAssembler {
    fn default() -> Self {
        AiSdkAssembler {
            t: Tracker::new(true),
            steps: vec![Step::default()],
            finish_reason: None,
            message_id: None,
            usage: None,
            executed: Vec::new(),
            call_meta: Vec::new(),
        }
    }
}

impl AiSdkAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        AiSdkAssembler::default()
    }

    fn step(&mut self) -> &mut Step {
        if self.steps.is_empty() {
            self.steps.push(Step::default());
        }
        let last = self.steps.len() - 1;
        &mut self.steps[last]
    }

    fn call_index(&self, id: &str) -> Option<usize> {
        self.t
            .calls
            .iter()
            .rposition(|c| c.id.as_deref() == Some(id))
    }

    fn call_name(&self, id: &str) -> String {
        self.call_index(id)
            .and_then(|i| self.t.calls.get(i))
            .map(|c| c.name.clone())
            .unwrap_or_default()
    }

    /// Record that call `i` was executed by the provider, and its provider metadata.
    fn note_call(&mut self, i: usize, v: &Value) {
        if v.get("providerExecuted") == Some(&Value::Bool(true)) && !self.executed.contains(&i) {
            self.executed.push(i);
        }
        if v.get("providerMetadata").is_some() {
            match self.call_meta.iter_mut().find(|(c, _)| *c == i) {
                Some((_, m)) => merge_meta(m, v),
                None => {
                    let mut m = Map::new();
                    merge_meta(&mut m, v);
                    self.call_meta.push((i, m));
                }
            }
        }
    }

    fn open(&mut self, id: &str, name: &str) -> Option<usize> {
        let i = self.t.open_call(Some(id.to_string()), name)?;
        self.step().pieces.push(Piece::Call { call: i });
        Some(i)
    }

    fn text_piece(&mut self, id: &str, delta: &str, reasoning: bool, chunk: &Value) {
        let step = self.step();
        let found = step
            .pieces
            .iter_mut()
            .rev()
            .find_map(|p| match (p, reasoning) {
                (
                    Piece::Text {
                        id: pid,
                        text,
                        meta,
                    },
                    false,
                )
                | (
                    Piece::Reasoning {
                        id: pid,
                        text,
                        meta,
                    },
                    true,
                ) if pid == id => Some((text, meta)),
                _ => None,
            });
        match found {
            Some((text, meta)) => {
                text.push_str(delta);
                merge_meta(meta, chunk);
            }
            None => {
                let (id, text) = (id.to_string(), delta.to_string());
                let mut meta = Map::new();
                merge_meta(&mut meta, chunk);
                step.pieces.push(if reasoning {
                    Piece::Reasoning { id, text, meta }
                } else {
                    Piece::Text { id, text, meta }
                });
            }
        }
        if reasoning {
            self.t.reasoning(delta);
        } else {
            self.t.text(delta);
        }
    }

    fn chunk(&mut self, o: &Map<String, Value>) {
        let v = Value::Object(o.clone());
        let ty = get_str(&v, "type").unwrap_or("");
        let call_id = get_str(&v, "toolCallId").unwrap_or("").to_string();
        if let Some(meta) = v.get("messageMetadata") {
            if let Some(u) = meta.get("usage").or_else(|| meta.get("totalUsage")) {
                self.usage = Some(u.clone());
            }
        }
        match ty {
            "start" => {
                if let Some(id) = get_str(&v, "messageId") {
                    self.message_id = Some(id.to_string());
                }
            }
            "start-step" => {
                let empty = self
                    .steps
                    .last()
                    .is_some_and(|s| s.pieces.is_empty() && s.outputs.is_empty());
                if !empty {
                    self.steps.push(Step::default());
                }
            }
            "finish-step" => {}
            "text-start" | "text-end" | "reasoning-start" | "reasoning-end" => {
                let id = get_str(&v, "id").unwrap_or("").to_string();
                // An end adds its metadata (a signature) to the part it closes.
                self.text_piece(&id, "", ty.starts_with("reasoning"), &v);
            }
            "text-delta" | "reasoning-delta" => {
                let id = get_str(&v, "id").unwrap_or("").to_string();
                let delta = get_str(&v, "delta").unwrap_or("").to_string();
                self.text_piece(&id, &delta, ty == "reasoning-delta", &v);
            }
            "tool-input-start" => {
                let name = get_str(&v, "toolName").unwrap_or("");
                if let Some(i) = self.open(&call_id, name) {
                    self.note_call(i, &v);
                }
            }
            "tool-input-delta" => {
                let delta = get_str(&v, "inputTextDelta").unwrap_or("");
                match self.call_index(&call_id) {
                    Some(i) => self.t.append_args(i, delta),
                    None => self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        format!("input fragment for {call_id:?}, which never started"),
                    ),
                }
            }
            "tool-input-available" | "tool-input-error" => {
                let name = get_str(&v, "toolName").unwrap_or("").to_string();
                let i = match self.call_index(&call_id) {
                    Some(i) => Some(i),
                    None => self.open(&call_id, &name),
                };
                let Some(i) = i else { return };
                self.note_call(i, &v);
                let input = v.get("input").cloned().unwrap_or(json!({}));
                let whole = serde_json::to_string(&input).unwrap_or_default();
                let so_far = self.t.calls.get(i).map(|c| c.arguments.clone());
                if let Some(text) = so_far.filter(|s| !s.trim().is_empty()) {
                    let same = serde_json::from_str::<Value>(&text).ok() == Some(input.clone());
                    if !same {
                        self.t.anomaly(
                            AnomalyKind::Mismatch,
                            format!(
                                "the input of {call_id:?} differs from its fragments: the whole value is kept"
                            ),
                        );
                        self.t.set_args(i, &whole);
                    }
                } else {
                    self.t.set_args(i, &whole);
                }
                self.t.close_call(i);
                if ty == "tool-input-error" {
                    let e = get_str(&v, "errorText").unwrap_or("");
                    self.t.anomaly(
                        AnomalyKind::StreamError,
                        format!("the input of {call_id:?} was rejected: {e}"),
                    );
                }
            }
            "tool-output-available" | "tool-output-error" => {
                if v.get("preliminary").and_then(Value::as_bool) == Some(true) {
                    return;
                }
                let name = self.call_name(&call_id);
                if self.call_index(&call_id).is_none() {
                    self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        format!("an output for {call_id:?}, which was never called"),
                    );
                }
                let output = if ty == "tool-output-error" {
                    json!({"type": "error-text", "value": get_str(&v, "errorText").unwrap_or("")})
                } else {
                    match v.get("output") {
                        Some(Value::String(s)) => json!({"type": "text", "value": s}),
                        Some(o) => json!({"type": "json", "value": o}),
                        None => json!({"type": "json", "value": null}),
                    }
                };
                let by_provider = v.get("providerExecuted") == Some(&Value::Bool(true))
                    || self
                        .call_index(&call_id)
                        .is_some_and(|i| self.executed.contains(&i));
                if by_provider {
                    let id = call_id;
                    self.step().pieces.push(Piece::Output { id, name, output });
                } else {
                    self.step().outputs.push((call_id, name, output));
                }
            }
            "finish" => {
                if let Some(r) = get_str(&v, "finishReason") {
                    self.finish_reason = Some(r.to_string());
                    self.t.stop_reason = Some(r.to_string());
                }
                self.t.end();
            }
            "abort" => {
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    "the stream was aborted".to_string(),
                );
                self.t.end();
            }
            "error" => {
                let e = get_str(&v, "errorText").unwrap_or("");
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    format!("the server sent an error: {e}"),
                );
            }
            "message-metadata" | "source-url" | "source-document" | "file" => {}
            t if t.starts_with("data-") => {}
            t => self.t.unknown(t),
        }
    }
}

impl Assembler for AiSdkAssembler {
    crate::formats::assembler_basics!(crate::formats::Protocol::AiSdk);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        if event.is_done() {
            // `[DONE]` follows `finish`: the end, not an event after it.
            self.t.begin_quiet();
            self.t.end();
            return self.t.take_updates();
        }
        self.t.begin();
        if let Some(o) = self.t.read_or_report(event) {
            self.chunk(&o);
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut messages = Vec::new();
        for s in &self.steps {
            let content: Vec<Value> = s
                .pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Text { text, meta, .. } if text.is_empty() && meta.is_empty() => None,
                    Piece::Text { text, meta, .. } => {
                        Some(with_options(json!({"type": "text", "text": text}), meta))
                    }
                    Piece::Reasoning { text, meta, .. } => Some(with_options(
                        json!({"type": "reasoning", "text": text}),
                        meta,
                    )),
                    Piece::Call { call } => self.t.calls.get(*call).map(|c| {
                        let mut o = json!({
                            "type": "tool-call",
                            "toolCallId": c.id.clone().unwrap_or_default(),
                            "toolName": c.name,
                            "input": arguments_value(&c.arguments),
                        });
                        if self.executed.contains(call) {
                            o["providerExecuted"] = Value::Bool(true);
                        }
                        match self.call_meta.iter().find(|(i, _)| i == call) {
                            Some((_, m)) => with_options(o, m),
                            None => o,
                        }
                    }),
                    Piece::Output { id, name, output } => Some(json!({
                        "type": "tool-result",
                        "toolCallId": id,
                        "toolName": name,
                        "output": output,
                    })),
                })
                .collect();
            if !content.is_empty() {
                messages.push(json!({"role": "assistant", "content": content}));
            }
            if !s.outputs.is_empty() {
                let results: Vec<Value> = s
                    .outputs
                    .iter()
                    .map(|(id, name, output)| {
                        json!({"type": "tool-result", "toolCallId": id, "toolName": name, "output": output})
                    })
                    .collect();
                messages.push(json!({"role": "tool", "content": results}));
            }
        }
        if messages.is_empty() {
            messages.push(json!({"role": "assistant", "content": []}));
        }
        let mut o = Map::new();
        if let Some(r) = &self.finish_reason {
            o.insert("finishReason".into(), json!(r));
        }
        if let Some(u) = &self.usage {
            o.insert("usage".into(), u.clone());
        }
        let mut response = Map::new();
        if let Some(id) = &self.message_id {
            response.insert("id".into(), json!(id));
        }
        response.insert("messages".into(), Value::Array(messages));
        o.insert("response".into(), Value::Object(response));
        Value::Object(o)
    }
}

/// A ModelMessage part with the provider metadata its chunks carried as `providerOptions`
/// (what `convertToModelMessages` passes back to the provider).
fn with_options(mut part: Value, meta: &Map<String, Value>) -> Value {
    if !meta.is_empty() {
        part["providerOptions"] = Value::Object(meta.clone());
    }
    part
}

/// The UI message stream for an encoded AI SDK response: one step, text in fragments of `n`
/// characters, each call's input as `tool-input-delta` fragments of its JSON text, then the
/// whole input, `finish` and `[DONE]`.
fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
    let mut out = vec![json!({"type": "start"}), json!({"type": "start-step"})];
    let messages = doc
        .get("response")
        .and_then(|r| r.get("messages"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut text_n = 0;
    for m in messages
        .iter()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
    {
        let parts = match m.get("content") {
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            Some(Value::Array(ps)) => ps.clone(),
            _ => Vec::new(),
        };
        for p in &parts {
            match p.get("type").and_then(Value::as_str) {
                Some("text") => {
                    let id = format!("text-{text_n}");
                    text_n += 1;
                    out.push(json!({"type": "text-start", "id": id}));
                    let text = p.get("text").and_then(Value::as_str).unwrap_or("");
                    for frag in fragments(text, n) {
                        out.push(json!({"type": "text-delta", "id": id, "delta": frag}));
                    }
                    out.push(json!({"type": "text-end", "id": id}));
                }
                Some("reasoning") => {
                    let id = format!("reasoning-{text_n}");
                    text_n += 1;
                    out.push(json!({"type": "reasoning-start", "id": id}));
                    let text = p.get("text").and_then(Value::as_str).unwrap_or("");
                    for frag in fragments(text, n) {
                        out.push(json!({"type": "reasoning-delta", "id": id, "delta": frag}));
                    }
                    let mut end = json!({"type": "reasoning-end", "id": id});
                    if let Some(m) = p.get("providerOptions") {
                        end["providerMetadata"] = m.clone();
                    }
                    out.push(end);
                }
                Some("tool-call") => {
                    let id = p.get("toolCallId").cloned().unwrap_or(json!(""));
                    let name = p.get("toolName").cloned().unwrap_or(json!(""));
                    let input = p.get("input").cloned().unwrap_or(json!({}));
                    let by_provider = p.get("providerExecuted") == Some(&Value::Bool(true));
                    let mut start =
                        json!({"type": "tool-input-start", "toolCallId": id, "toolName": name});
                    let mut whole = json!({"type": "tool-input-available", "toolCallId": id, "toolName": name, "input": input});
                    if by_provider {
                        start["providerExecuted"] = Value::Bool(true);
                        whole["providerExecuted"] = Value::Bool(true);
                    }
                    if let Some(m) = p.get("providerOptions") {
                        whole["providerMetadata"] = m.clone();
                    }
                    out.push(start);
                    let text = serde_json::to_string(&input).unwrap_or_default();
                    for frag in fragments(&text, n) {
                        out.push(json!({"type": "tool-input-delta", "toolCallId": id, "inputTextDelta": frag}));
                    }
                    out.push(whole);
                }
                Some("tool-result") => {
                    // An output of a tool the provider ran, in the assistant message.
                    let id = p.get("toolCallId").cloned().unwrap_or(json!(""));
                    let output = p.get("output").cloned().unwrap_or(Value::Null);
                    let kind = output.get("type").and_then(Value::as_str).unwrap_or("");
                    let value = output.get("value").cloned().unwrap_or(Value::Null);
                    out.push(if kind.starts_with("error") {
                        let text = match &value {
                            Value::String(s) => s.clone(),
                            v => v.to_string(),
                        };
                        json!({"type": "tool-output-error", "toolCallId": id, "errorText": text, "providerExecuted": true})
                    } else {
                        json!({"type": "tool-output-available", "toolCallId": id, "output": value, "providerExecuted": true})
                    });
                }
                _ => {}
            }
        }
    }
    out.push(json!({"type": "finish-step"}));
    let mut finish = json!({"type": "finish"});
    if let Some(r) = doc.get("finishReason") {
        finish["finishReason"] = r.clone();
    }
    if let Some(u) = doc.get("usage") {
        // What the docs' `messageMetadata` example attaches to `finish`.
        finish["messageMetadata"] = json!({"usage": u});
    }
    out.push(finish);
    out.push(Value::String("[DONE]".into()));
    out
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = AiSdkAssembler;
    const SSE: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        const TYPES: [&str; 9] = [
            "start-step",
            "text-start",
            "tool-input-start",
            "tool-input-delta",
            "tool-input-available",
            "tool-output-available",
            "tool-output-error",
            "finish-step",
            "reasoning-start",
        ];
        let Some(o) = o else { return false };
        let t = o.get("type").and_then(Value::as_str).unwrap_or("");
        TYPES.contains(&t) || (t == "start" && o.contains_key("messageId"))
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        synthesize(doc, n)
    }
}
