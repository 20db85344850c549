//! Streamed Anthropic Messages: `message_start` (the message with empty content), then per
//! content block `content_block_start` / `content_block_delta` (`text_delta`,
//! `input_json_delta`, `thinking_delta`, `signature_delta`, `citations_delta`) /
//! `content_block_stop`, then `message_delta` (stop reason, cumulative usage) and
//! `message_stop`; `ping` anywhere, `error` ends the stream.
//!
//! The SDK accumulator this follows is `anthropic.lib.streaming._messages.accumulate_event`:
//! a duplicated `message_start` is ignored (reported here; a different id is a spliced
//! stream), usage fields of `message_delta` overwrite those of the start.

use crate::stream::{
    arguments_value, get_str, get_u64, AnomalyKind, Assembler, Event, Tracker, Update,
};
use crate::stream::{fields, fragments};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

thread_local! {
    /// Whether the typed fast path runs (always, except in the test that compares it with the
    /// general path).
    static FAST: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// The event most of a stream is: a `content_block_delta` of text, argument or thinking text,
/// read without building a `Value` (the typed parse borrows the text when it has no escapes).
/// Anything else (another field, another delta type) fails this parse and takes the general
/// path, which reads every event the same way.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastDelta<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    index: u64,
    #[serde(borrow)]
    delta: FastDeltaBody<'a>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastDeltaBody<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
}

/// A JSON string read borrowed when it has no escapes.
#[derive(Deserialize)]
struct Str<'a>(#[serde(borrow)] Cow<'a, str>);

/// The compact spelling the API sends, matched byte for byte, so only the delta's string is
/// parsed: `{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}`,
/// and the same with `input_json_delta`/`partial_json` or `thinking_delta`/`thinking`. Any
/// other spelling (spaces, another key order, more fields) is `None` and takes the typed parse,
/// which reads these the same way.
fn compact_delta(data: &str) -> Option<FastDelta<'_>> {
    let rest = data.strip_prefix(r#"{"type":"content_block_delta","index":"#)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    // JSON has no leading zeros.
    if digits == 0 || (digits > 1 && rest.starts_with('0')) {
        return None;
    }
    let index: u64 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(r#","delta":{"type":""#)?;
    let (kind, field, rest) = [
        ("text_delta", "text"),
        ("input_json_delta", "partial_json"),
        ("thinking_delta", "thinking"),
    ]
    .into_iter()
    .find_map(|(kind, field)| {
        let r = rest.strip_prefix(kind)?.strip_prefix(r#"",""#)?;
        let r = r.strip_prefix(field)?.strip_prefix(r#"":"#)?;
        Some((kind, field, r))
    })?;
    // Exactly one string before the closing braces (a trailing member fails the parse).
    let Str(text) = serde_json::from_str(rest.strip_suffix("}}")?).ok()?;
    let text = Some(text);
    let (text, partial_json, thinking) = match field {
        "text" => (text, None, None),
        "partial_json" => (None, text, None),
        _ => (None, None, text),
    };
    Some(FastDelta {
        kind: Cow::Borrowed("content_block_delta"),
        index,
        delta: FastDeltaBody {
            kind: Cow::Borrowed(kind),
            text,
            partial_json,
            thinking,
        },
    })
}

/// One content block: its wire index, the block as started, and for tool blocks the tracker
/// slot whose argument text replaces `input`.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    index: Option<u64>,
    value: Value,
    call: Option<usize>,
}

/// Assembler for Anthropic Messages stream events.
#[derive(Debug, Clone, PartialEq)]
pub struct AnthropicAssembler {
    t: Tracker,
    message: Option<Map<String, Value>>,
    blocks: Vec<Block>,
}

impl Default for AnthropicAssembler {
    fn default() -> Self {
        AnthropicAssembler {
            t: Tracker::new(true),
            message: None,
            blocks: Vec::new(),
        }
    }
}

impl AnthropicAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        AnthropicAssembler::default()
    }

    fn block_mut(&mut self, index: Option<u64>) -> Option<&mut Block> {
        self.blocks.iter_mut().rev().find(|b| b.index == index)
    }

    fn start(&mut self, o: &Value) {
        let msg = o.get("message").and_then(Value::as_object).cloned();
        match &self.message {
            Some(first) => {
                let same = msg.as_ref().and_then(|m| m.get("id")) == first.get("id");
                let (kind, what) = if same {
                    (AnomalyKind::DuplicateStart, "repeated")
                } else {
                    (
                        AnomalyKind::SplicedStart,
                        "with another id: two streams spliced together",
                    )
                };
                self.t.anomaly(
                    kind,
                    format!("message_start {what}; the first start is kept"),
                );
            }
            None => {
                let mut m = msg.unwrap_or_default();
                // Content arrives as blocks; a start that already carries some keeps it.
                if let Some(Value::Array(content)) = m.remove("content") {
                    for v in content {
                        self.blocks.push(Block {
                            index: None,
                            value: v,
                            call: None,
                        });
                    }
                }
                self.message = Some(m);
            }
        }
    }

    fn block_start(&mut self, o: &Value) {
        let index = get_u64(o, "index");
        let value = o.get("content_block").cloned().unwrap_or(Value::Null);
        if self.message.is_none() {
            self.t.anomaly_once(
                AnomalyKind::OutOfOrder,
                "content before message_start".into(),
            );
        }
        if index.is_some() && self.blocks.iter().any(|b| b.index == index) {
            self.t.anomaly(
                AnomalyKind::OutOfOrder,
                format!("content block {} started twice", index.unwrap_or(0)),
            );
        }
        let kind = get_str(&value, "type").unwrap_or("");
        let mut call = None;
        if matches!(kind, "tool_use" | "server_tool_use" | "mcp_tool_use") {
            let id = get_str(&value, "id").map(str::to_string);
            let name = get_str(&value, "name").unwrap_or("");
            call = self.t.open_call(id, name);
            // A start that carries a non-empty input (some proxies) counts as its text.
            if let (Some(c), Some(input)) = (call, value.get("input")) {
                if input.as_object().is_some_and(|m| !m.is_empty()) {
                    let text = serde_json::to_string(input).unwrap_or_default();
                    self.t.set_args(c, &text);
                }
            }
        } else if kind == "text" {
            self.t.text_block();
            if let Some(s) = get_str(&value, "text") {
                self.t.text(s);
            }
        }
        self.blocks.push(Block { index, value, call });
    }

    fn block_delta(&mut self, o: &Value) {
        let index = get_u64(o, "index");
        let Some(delta) = o.get("delta") else {
            self.t.anomaly(
                AnomalyKind::Malformed,
                "content_block_delta without delta".into(),
            );
            return;
        };
        let dtype = get_str(delta, "type").unwrap_or("").to_string();
        if self.block_mut(index).is_none() {
            self.t.anomaly(
                AnomalyKind::OutOfOrder,
                format!(
                    "{dtype} for block {} that never started: a block is assumed",
                    index.unwrap_or(0)
                ),
            );
            let value = match dtype.as_str() {
                "input_json_delta" => json!({"type": "tool_use", "name": "", "input": {}}),
                "thinking_delta" | "signature_delta" => {
                    json!({"type": "thinking", "thinking": "", "signature": ""})
                }
                _ => json!({"type": "text", "text": ""}),
            };
            let call = if dtype == "input_json_delta" {
                self.t.open_call(None, "")
            } else {
                None
            };
            self.blocks.push(Block { index, value, call });
        }
        match dtype.as_str() {
            // Text and thinking grow their block's field alike; only the tracker's channel differs.
            "text_delta" | "thinking_delta" => {
                let key = if dtype == "text_delta" {
                    "text"
                } else {
                    "thinking"
                };
                let s = get_str(delta, key).unwrap_or("").to_string();
                if let Some(b) = self.block_mut(index) {
                    append(&mut b.value, key, &s);
                }
                if key == "text" {
                    self.t.text(&s);
                } else {
                    self.t.reasoning(&s);
                }
            }
            "input_json_delta" => {
                let s = get_str(delta, "partial_json").unwrap_or("").to_string();
                let call = self.block_mut(index).and_then(|b| b.call);
                match call {
                    Some(c) => self.t.append_args(c, &s),
                    None => self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        "input_json_delta for a block that is not a tool call".into(),
                    ),
                }
            }
            "signature_delta" => {
                let s = delta.get("signature").cloned().unwrap_or(Value::Null);
                if let Some(Value::Object(m)) = self.block_mut(index).map(|b| &mut b.value) {
                    m.insert("signature".into(), s);
                }
            }
            "citations_delta" => {
                let c = delta.get("citation").cloned().unwrap_or(Value::Null);
                if let Some(Value::Object(m)) = self.block_mut(index).map(|b| &mut b.value) {
                    match m.get_mut("citations") {
                        Some(Value::Array(a)) => a.push(c),
                        _ => {
                            m.insert("citations".into(), json!([c]));
                        }
                    }
                }
            }
            other => self.t.unknown(&format!("content_block_delta/{other}")),
        }
    }

    fn message_delta(&mut self, o: &Value) {
        let m = self.message.get_or_insert_with(Map::new);
        if let Some(d) = o.get("delta").and_then(Value::as_object) {
            for (k, v) in d {
                m.insert(k.clone(), v.clone());
            }
        }
        if let Some(u) = o.get("usage").and_then(Value::as_object) {
            let usage = m
                .entry("usage".to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !usage.is_object() {
                *usage = Value::Object(Map::new());
            }
            if let Value::Object(um) = usage {
                for (k, v) in u {
                    if !v.is_null() {
                        um.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        if let Some(r) = m.get("stop_reason").and_then(Value::as_str) {
            self.t.stop_reason = Some(r.to_string());
        }
    }
}

impl AnthropicAssembler {
    /// A text, argument or thinking delta for a block that started, read typed: what
    /// [`AnthropicAssembler::block_delta`] does with it, without the `Value`. False (nothing
    /// done) for any other event.
    fn fast_delta(&mut self, event: &Event) -> bool {
        let d = match compact_delta(&event.data) {
            Some(d) => d,
            None => match serde_json::from_str::<FastDelta>(&event.data) {
                Ok(d) => d,
                Err(_) => return false,
            },
        };
        if d.kind != "content_block_delta" {
            return false;
        }
        let index = Some(d.index);
        let body = d.delta;
        let Some(block) = self.blocks.iter_mut().rev().find(|b| b.index == index) else {
            return false;
        };
        // Only the field the type reads may be there (the general path ignores others, but
        // then it also reads them as a `Value`: keep to the common shape).
        match (&*body.kind, body.text, body.partial_json, body.thinking) {
            ("text_delta", Some(s), None, None) => {
                append(&mut block.value, "text", &s);
                self.t.text(&s);
            }
            ("input_json_delta", None, Some(s), None) => match block.call {
                Some(c) => self.t.append_args(c, &s),
                None => return false,
            },
            ("thinking_delta", None, None, Some(s)) => {
                append(&mut block.value, "thinking", &s);
                self.t.reasoning(&s);
            }
            _ => return false,
        }
        true
    }
}

fn append(v: &mut Value, key: &str, s: &str) {
    if let Value::Object(m) = v {
        match m.get_mut(key) {
            Some(Value::String(t)) => t.push_str(s),
            _ => {
                m.insert(key.into(), Value::String(s.to_string()));
            }
        }
    }
}

impl Assembler for AnthropicAssembler {
    crate::formats::assembler_basics!(crate::formats::Protocol::Anthropic);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin();
        if FAST.with(|f| f.get()) && self.fast_delta(event) {
            return self.t.take_updates();
        }
        let o = match self.t.read(event) {
            Ok(o) => Value::Object(o),
            Err(e) => {
                self.t.malformed(&e);
                return self.t.take_updates();
            }
        };
        match get_str(&o, "type").unwrap_or("") {
            "message_start" => self.start(&o),
            "content_block_start" => self.block_start(&o),
            "content_block_delta" => self.block_delta(&o),
            "content_block_stop" => {
                let index = get_u64(&o, "index");
                match self.block_mut(index).map(|b| b.call) {
                    Some(Some(c)) => self.t.close_call(c),
                    Some(None) => {}
                    None => self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        format!(
                            "content_block_stop for block {} that never started",
                            index.unwrap_or(0)
                        ),
                    ),
                }
            }
            "message_delta" => self.message_delta(&o),
            "message_stop" => self.t.end(),
            "ping" => {}
            "error" => {
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    format!(
                        "the provider sent an error: {}",
                        o.get("error").map(Value::to_string).unwrap_or_default()
                    ),
                );
                self.t.end();
            }
            other => self.t.unknown(other),
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut doc = self.message.clone().unwrap_or_default();
        doc.entry("type".to_string()).or_insert(json!("message"));
        doc.entry("role".to_string()).or_insert(json!("assistant"));
        let content: Vec<Value> = self
            .blocks
            .iter()
            .map(|b| {
                let mut v = b.value.clone();
                if let (Some(c), Value::Object(m)) = (b.call, &mut v) {
                    let text = self.t.calls.get(c).map_or("", |c| c.arguments.as_str());
                    m.insert("input".into(), arguments_value(text));
                    if let Some(call) = self.t.calls.get(c) {
                        m.insert("name".into(), json!(call.name));
                    }
                }
                v
            })
            .collect();
        doc.insert("content".into(), Value::Array(content));
        Value::Object(doc)
    }
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = AnthropicAssembler;
    const SSE: bool = true;
    const NAMED_EVENTS: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        const TYPES: [&str; 6] = [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ];
        crate::stream::type_in(o, &TYPES)
    }

    fn whole_response(o: &Map<String, Value>) -> bool {
        o.get("type").and_then(Value::as_str) == Some("message")
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        anthropic(doc, n)
    }
}

/// Anthropic events for a message: `message_start`, each content block with its deltas, `message_delta`, `message_stop`.
fn anthropic(doc: &Value, n: usize) -> Vec<Value> {
    let mut start = fields(doc);
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
        let mut b = fields(block);
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

#[cfg(test)]
#[test]
fn stream_fast_path_matches_the_general_path() {
    crate::synth::check_fast_path(
        &[crate::formats::Protocol::Anthropic],
        |_| AnthropicAssembler::new(),
        |on| FAST.with(|f| f.set(on)),
    );
}

#[cfg(test)]
#[test]
fn stream_compact_delta_reads_what_the_typed_parse_reads() {
    let read = |d: &FastDelta| {
        (
            d.kind.to_string(),
            d.index,
            d.delta.kind.to_string(),
            d.delta.text.as_deref().map(str::to_string),
            d.delta.partial_json.as_deref().map(str::to_string),
            d.delta.thinking.as_deref().map(str::to_string),
        )
    };
    let matched = [
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}"#,
        r#"{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"a \"q\" \\ \n é \u00e9 😀"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":""}}"#,
    ];
    for s in matched {
        let fast = compact_delta(s).unwrap_or_else(|| panic!("not matched: {s}"));
        let typed: FastDelta = serde_json::from_str(s).expect("typed");
        assert_eq!(read(&fast), read(&typed), "{s}");
    }
    // Everything else is left to the typed parse (which reads, or refuses, it as before).
    let left = [
        r#"{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}"#,
        r#"{"type":"content_block_delta","index":99999999999999999999,"delta":{"type":"text_delta","text":"x"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":1}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"more":1}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x", "y":"z"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":null}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}} "#,
        r#"{"type": "content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","partial_json":"x"}}"#,
        "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"bad\u{1}\"}}",
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}"#,
    ];
    for s in left {
        assert!(compact_delta(s).is_none(), "matched: {s}");
    }
}
