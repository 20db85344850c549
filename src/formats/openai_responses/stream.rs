//! Streamed OpenAI Responses: `response.created` (the response with empty output), per output
//! item `response.output_item.added`, its content (`response.content_part.added`,
//! `response.output_text.delta`/`.done`, `response.function_call_arguments.delta`/`.done`,
//! reasoning text and summary deltas) and `response.output_item.done` (the final item, which
//! wins), then `response.completed` (or `.incomplete`/`.failed`) with usage.
//!
//! The SDK accumulator this follows is `openai.lib.streaming.responses.ResponseStreamState`.
//! Items are assembled from their events; the `output` of the final `response.completed`
//! is not needed (some servers send it empty). Final values that differ from the fragments are
//! reported as a mismatch; arguments sent only in `.done` (LM Studio) are fine.

use crate::stream::{fields, fragments};
use crate::stream::{get_str, get_u64, AnomalyKind, Assembler, Event, Tracker, Update};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq)]
struct Item {
    index: Option<u64>,
    value: Value,
    call: Option<usize>,
    /// A `custom_tool_call`: its input is free text, kept in `value`; the tracker follows it
    /// as the canonical arguments `{"input": <text>}`.
    custom: bool,
}

/// `text` as the inside of a JSON string (no quotes).
fn json_inner(text: &str) -> String {
    let s = serde_json::to_string(text).unwrap_or_default();
    s.get(1..s.len().saturating_sub(1))
        .unwrap_or_default()
        .to_string()
}

/// The canonical arguments of a custom call with this input, as the tracker holds them.
fn custom_args(input: &str) -> String {
    json!({ "input": input }).to_string()
}

/// Assembler for OpenAI Responses stream events.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponsesAssembler {
    t: Tracker,
    response: Option<Map<String, Value>>,
    items: Vec<Item>,
}

impl Default for ResponsesAssembler {
    fn default() -> Self {
        ResponsesAssembler {
            t: Tracker::new(false),
            response: None,
            items: Vec::new(),
        }
    }
}

/// Events that carry nothing the assembled response needs.
const PASSIVE: [&str; 9] = [
    "response.in_progress",
    "response.queued",
    "response.content_part.done",
    "response.output_text.annotation.added",
    "response.reasoning_text.done",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.done",
    "response.refusal.done",
    "keepalive",
];

impl ResponsesAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        ResponsesAssembler::default()
    }

    fn item_pos(&self, index: Option<u64>) -> Option<usize> {
        match index {
            Some(_) => self.items.iter().rposition(|i| i.index == index),
            None => self.items.len().checked_sub(1),
        }
    }

    /// The item an event refers to; reported and created when it never was added.
    fn item(&mut self, o: &Value, kind: &str) -> Option<usize> {
        let index = get_u64(o, "output_index");
        if let Some(p) = self.item_pos(index) {
            return Some(p);
        }
        self.t.anomaly(
            AnomalyKind::OutOfOrder,
            format!(
                "{} for output item {} that was never added: an item is assumed",
                get_str(o, "type").unwrap_or(""),
                index.unwrap_or(0)
            ),
        );
        let (value, call) = if kind == "function_call" {
            let v = json!({"type": "function_call", "id": get_str(o, "item_id"),
                           "call_id": Value::Null, "name": "", "arguments": ""});
            (v, self.t.open_call(None, ""))
        } else {
            let v = json!({"type": "message", "id": get_str(o, "item_id"),
                           "role": "assistant", "status": "in_progress", "content": []});
            (v, None)
        };
        self.items.push(Item {
            index,
            value,
            call,
            custom: false,
        });
        self.items.len().checked_sub(1)
    }

    fn added(&mut self, o: &Value) {
        let Some(item) = o.get("item").cloned() else {
            return;
        };
        let index = get_u64(o, "output_index");
        if index.is_some() && self.items.iter().any(|i| i.index == index) {
            self.t.anomaly(
                AnomalyKind::OutOfOrder,
                format!("output index {} added twice", index.unwrap_or(0)),
            );
        }
        let mut call = None;
        let custom = get_str(&item, "type") == Some("custom_tool_call");
        if custom || get_str(&item, "type") == Some("function_call") {
            let id = get_str(&item, "call_id").map(str::to_string);
            let name = get_str(&item, "name").unwrap_or("");
            call = self.t.open_call(id, name);
            if let (Some(c), true) = (call, custom) {
                // Open JSON text that each input delta extends: the live view parses it.
                let input = get_str(&item, "input").unwrap_or("");
                self.t
                    .append_args(c, &format!("{{\"input\":\"{}", json_inner(input)));
            } else if let (Some(c), Some(args)) = (call, get_str(&item, "arguments")) {
                self.t.set_args(c, args);
            }
        }
        self.items.push(Item {
            index,
            value: item,
            call,
            custom,
        });
    }

    /// Append to `content[content_index].<field>` (or `summary[…]`) of an item.
    fn append_part(&mut self, pos: usize, list: &str, o: &Value, field: &str, delta: &str) {
        let ci = get_u64(
            o,
            if list == "summary" {
                "summary_index"
            } else {
                "content_index"
            },
        )
        .unwrap_or(0);
        let Some(Value::Object(item)) = self.items.get_mut(pos).map(|i| &mut i.value) else {
            return;
        };
        let reasoning = item.get("type").and_then(Value::as_str) == Some("reasoning");
        let parts = item
            .entry(list.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(parts) = parts else { return };
        let ci = usize::try_from(ci).unwrap_or(usize::MAX);
        if ci >= parts.len() {
            if ci > parts.len() + 64 {
                return;
            }
            let kind = match (list, field) {
                ("summary", _) => "summary_text",
                (_, "refusal") => "refusal",
                _ if reasoning => "reasoning_text",
                _ => "output_text",
            };
            while parts.len() <= ci {
                parts.push(json!({"type": kind, field: ""}));
            }
        }
        if let Some(Value::Object(p)) = parts.get_mut(ci) {
            match p.get_mut(field) {
                Some(Value::String(s)) => s.push_str(delta),
                _ => {
                    p.insert(field.to_string(), json!(delta));
                }
            }
        }
    }

    fn part_text(&self, pos: usize, list: &str, ci: u64, field: &str) -> Option<String> {
        let item = self.items.get(pos)?;
        let part = item.value.get(list)?.get(usize::try_from(ci).ok()?)?;
        get_str(part, field).map(str::to_string)
    }

    fn text_done(&mut self, o: &Value, field: &str, key: &str) {
        let Some(pos) = self.item(o, "message") else {
            return;
        };
        let ci = get_u64(o, "content_index").unwrap_or(0);
        let Some(fin) = get_str(o, key) else { return };
        let so_far = self
            .part_text(pos, "content", ci, field)
            .unwrap_or_default();
        if so_far != fin {
            if !so_far.is_empty() {
                self.t.anomaly(
                    AnomalyKind::Mismatch,
                    format!("final {field} differs from its deltas: the final text is kept"),
                );
            }
            let missing = fin.strip_prefix(so_far.as_str()).unwrap_or(fin).to_string();
            if fin.starts_with(so_far.as_str()) {
                self.append_part(pos, "content", o, field, &missing);
                if field == "text" {
                    self.t.text(&missing);
                }
            } else if let Some(Value::Object(p)) = self
                .items
                .get_mut(pos)
                .and_then(|i| i.value.get_mut("content"))
                .and_then(|c| c.get_mut(usize::try_from(ci).unwrap_or(usize::MAX)))
            {
                p.insert(field.to_string(), json!(fin));
            }
        }
    }

    fn item_done(&mut self, o: &Value) {
        let Some(item) = o.get("item").cloned() else {
            return;
        };
        let index = get_u64(o, "output_index");
        let pos = match self.item_pos(index) {
            Some(p) => p,
            None => {
                // Done without added: the final item alone is enough.
                self.added(o);
                match self.items.len().checked_sub(1) {
                    Some(p) => p,
                    None => return,
                }
            }
        };
        let call = self.items.get(pos).and_then(|i| i.call);
        let custom = self.items.get(pos).is_some_and(|i| i.custom);
        if let (Some(c), true) = (call, custom) {
            let so_far = self.items.get(pos).and_then(|i| get_str(&i.value, "input"));
            let so_far = so_far.unwrap_or_default().to_string();
            if let Some(input) = get_str(&item, "input") {
                if !so_far.is_empty() && so_far != input {
                    self.t.anomaly(
                        AnomalyKind::Mismatch,
                        "the final input differs from its deltas: the final text is kept".into(),
                    );
                }
                self.t.set_args(c, &custom_args(input));
            } else {
                self.t.set_args(c, &custom_args(&so_far));
            }
        } else if let Some(c) = call {
            if let Some(args) = get_str(&item, "arguments") {
                let so_far = self
                    .t
                    .calls
                    .get(c)
                    .map(|c| c.arguments.clone())
                    .unwrap_or_default();
                if !so_far.is_empty() && so_far != args {
                    self.t.anomaly(
                        AnomalyKind::Mismatch,
                        "the final arguments differ from their deltas: the final text is kept"
                            .into(),
                    );
                }
                self.t.set_args(c, args);
            }
            if let Some(id) = get_str(&item, "call_id") {
                if let Some(cs) = self.t.calls.get_mut(c) {
                    cs.id.get_or_insert_with(|| id.to_string());
                }
            }
            if let Some(name) = get_str(&item, "name") {
                self.t.name_call(c, name);
            }
        }
        if let Some(c) = call {
            self.t.close_call(c);
        }
        if let Some(i) = self.items.get_mut(pos) {
            i.value = item;
        }
    }

    /// A custom call's input delta (or, `done`, its final text).
    fn custom_input(&mut self, o: &Value, delta: &str, done: bool) {
        let Some(pos) = self.item(o, "function_call") else {
            return;
        };
        let Some(c) = self
            .items
            .get(pos)
            .filter(|i| i.custom)
            .and_then(|i| i.call)
        else {
            self.t.anomaly(
                AnomalyKind::OutOfOrder,
                "custom tool input for an item that is not a custom tool call".into(),
            );
            return;
        };
        let Some(Value::Object(m)) = self.items.get_mut(pos).map(|i| &mut i.value) else {
            return;
        };
        let so_far = m.get("input").and_then(Value::as_str).unwrap_or("");
        if done {
            let Some(fin) = get_str(o, "input") else {
                return;
            };
            if fin != so_far {
                if !so_far.is_empty() {
                    self.t.anomaly(
                        AnomalyKind::Mismatch,
                        "the final input differs from its deltas: the final text is kept".into(),
                    );
                }
                m.insert("input".into(), json!(fin));
                self.t.set_args(c, &custom_args(fin));
            }
            return;
        }
        let text = format!("{so_far}{delta}");
        m.insert("input".into(), json!(text));
        self.t.append_args(c, &json_inner(delta));
    }

    /// Append a delta to a string field of a provider-defined tool's item (code interpreter
    /// `code`, MCP `arguments`), so the item grows as it streams.
    fn append_field(&mut self, o: &Value, field: &str, delta: &str) {
        let Some(pos) = self.item(o, "hosted") else {
            return;
        };
        if let Some(Value::Object(m)) = self.items.get_mut(pos).map(|i| &mut i.value) {
            match m.get_mut(field) {
                Some(Value::String(s)) => s.push_str(delta),
                _ => {
                    m.insert(field.to_string(), json!(delta));
                }
            }
        }
    }

    fn lifecycle(&mut self, o: &Value, end: bool) {
        let Some(r) = o.get("response").and_then(Value::as_object) else {
            return;
        };
        match &mut self.response {
            None => {
                let mut m = r.clone();
                m.remove("output");
                self.response = Some(m);
            }
            Some(m) => {
                if r.get("id").is_some() && r.get("id") != m.get("id") {
                    self.t.anomaly(
                        AnomalyKind::SplicedStart,
                        "the response id changed mid-stream: two streams spliced together".into(),
                    );
                } else if !end && get_str(o, "type") == Some("response.created") {
                    self.t.anomaly(
                        AnomalyKind::DuplicateStart,
                        "response.created repeated".into(),
                    );
                }
                for (k, v) in r {
                    if k != "output" {
                        m.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        if end {
            if let Some(s) = self
                .response
                .as_ref()
                .and_then(|m| m.get("status"))
                .and_then(Value::as_str)
            {
                self.t.stop_reason = Some(s.to_string());
            }
            self.t.end();
        }
    }
}

impl Assembler for ResponsesAssembler {
    crate::formats::assembler_basics!(crate::formats::Protocol::OpenAiResponses);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin();
        let Some(o) = self.t.read_or_report(event).map(Value::Object) else {
            return self.t.take_updates();
        };
        let ty = get_str(&o, "type").unwrap_or("").to_string();
        let delta = get_str(&o, "delta").unwrap_or("").to_string();
        match ty.as_str() {
            "response.created" => self.lifecycle(&o, false),
            "response.completed" | "response.incomplete" => self.lifecycle(&o, true),
            "response.failed" => {
                let err = o
                    .get("response")
                    .and_then(|r| r.get("error"))
                    .map(Value::to_string)
                    .unwrap_or_default();
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    format!("the response failed: {err}"),
                );
                self.lifecycle(&o, true);
            }
            "error" => {
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    format!(
                        "the provider sent an error: {}",
                        get_str(&o, "message").unwrap_or("")
                    ),
                );
                self.t.end();
            }
            "response.output_item.added" => self.added(&o),
            "response.output_item.done" => self.item_done(&o),
            "response.content_part.added" | "response.reasoning_summary_part.added" => {
                let list = if ty.contains("summary") {
                    "summary"
                } else {
                    "content"
                };
                if list == "content" {
                    self.t.text_block();
                } else if get_u64(&o, "summary_index").is_some_and(|k| k > 0) {
                    // Summaries read as paragraphs in the live view, as in the part.
                    self.t.reasoning("\n\n");
                }
                if let Some(pos) = self.item(&o, "message") {
                    let part = o.get("part").cloned().unwrap_or(Value::Null);
                    let key = if list == "summary" {
                        "summary_index"
                    } else {
                        "content_index"
                    };
                    let ci = get_u64(&o, key).unwrap_or(0);
                    if let Some(Value::Object(item)) = self.items.get_mut(pos).map(|i| &mut i.value)
                    {
                        let parts = item
                            .entry(list.to_string())
                            .or_insert_with(|| Value::Array(Vec::new()));
                        if let Value::Array(parts) = parts {
                            if usize::try_from(ci).is_ok_and(|c| c < parts.len()) {
                                // Already created by an early delta: keep its text.
                            } else {
                                parts.push(part);
                            }
                        }
                    }
                }
            }
            "response.output_text.delta" => {
                if let Some(pos) = self.item(&o, "message") {
                    self.append_part(pos, "content", &o, "text", &delta);
                    self.t.text(&delta);
                }
            }
            "response.output_text.done" => self.text_done(&o, "text", "text"),
            "response.refusal.delta" => {
                if let Some(pos) = self.item(&o, "message") {
                    self.append_part(pos, "content", &o, "refusal", &delta);
                }
            }
            "response.reasoning_text.delta" => {
                if let Some(pos) = self.item(&o, "reasoning") {
                    self.append_part(pos, "content", &o, "text", &delta);
                    self.t.reasoning(&delta);
                }
            }
            "response.reasoning_summary_text.delta" => {
                if let Some(pos) = self.item(&o, "reasoning") {
                    self.append_part(pos, "summary", &o, "text", &delta);
                    self.t.reasoning(&delta);
                }
            }
            "response.custom_tool_call_input.delta" | "response.custom_tool_call_input.done" => {
                self.custom_input(&o, &delta, ty.ends_with(".done"));
            }
            "response.code_interpreter_call_code.delta" => self.append_field(&o, "code", &delta),
            "response.mcp_call_arguments.delta" => self.append_field(&o, "arguments", &delta),
            "response.function_call_arguments.delta" => {
                if let Some(pos) = self.item(&o, "function_call") {
                    match self.items.get(pos).and_then(|i| i.call) {
                        Some(c) => self.t.append_args(c, &delta),
                        None => self.t.anomaly(
                            AnomalyKind::OutOfOrder,
                            "argument delta for an item that is not a call".into(),
                        ),
                    }
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(pos) = self.item(&o, "function_call") {
                    if let (Some(c), Some(args)) = (
                        self.items.get(pos).and_then(|i| i.call),
                        get_str(&o, "arguments"),
                    ) {
                        let so_far = self.t.calls.get(c).map(|c| c.arguments.clone());
                        let so_far = so_far.unwrap_or_default();
                        if !so_far.is_empty() && so_far != args {
                            self.t.anomaly(
                                AnomalyKind::Mismatch,
                                "the final arguments differ from their deltas: the final text \
                                 is kept"
                                    .into(),
                            );
                        }
                        self.t.set_args(c, args);
                    }
                }
            }
            t if PASSIVE.contains(&t) => {}
            t if t.starts_with("response.")
                && (t.contains("_call") || t.contains("mcp_") || t.contains("audio")) =>
            {
                // Progress of provider-defined tools (web search, file search, code
                // interpreter's `.done`, MCP, image generation, shell and apply_patch deltas):
                // their items arrive whole in output_item.done.
            }
            other => self.t.unknown(other),
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut doc = self.response.clone().unwrap_or_default();
        doc.entry("object".to_string()).or_insert(json!("response"));
        let output: Vec<Value> = self
            .items
            .iter()
            .map(|i| {
                let mut v = i.value.clone();
                if let (Some(c), Value::Object(m)) = (i.call, &mut v) {
                    if let Some(call) = self.t.calls.get(c) {
                        if !i.custom {
                            m.insert("arguments".into(), json!(call.arguments));
                        }
                        m.insert("name".into(), json!(call.name));
                        if let Some(id) = &call.id {
                            m.insert("call_id".into(), json!(id));
                        }
                    }
                }
                v
            })
            .collect();
        doc.insert("output".into(), Value::Array(output));
        Value::Object(doc)
    }
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = ResponsesAssembler;
    const SSE: bool = true;
    const NAMED_EVENTS: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        o.and_then(|o| o.get("type"))
            .and_then(Value::as_str)
            .is_some_and(|t| t.starts_with("response."))
    }

    fn whole_response(o: &Map<String, Value>) -> bool {
        o.get("object").and_then(Value::as_str) == Some("response")
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        responses(doc, n)
    }
}

/// Responses events for a response: each output item added, its text or argument deltas, done.
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
    let mut start = fields(doc);
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
                let mut added = fields(item);
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
                    let mut empty = fields(part);
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
                let mut added = fields(item);
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
    let mut done = fields(doc);
    done.insert("status".into(), json!("completed"));
    ev(json!({"type": "response.completed", "response": done}));
    out
}
