//! Streamed Chat Completions and its dialects: assemblers for `chat.completion.chunk`s
//! (OpenAI, DeepSeek, Mistral and every compatible server), Cohere v2 chat stream events and
//! Ollama's NDJSON lines.
//!
//! Chat chunks: `choices[0].delta` carries `content` (and `reasoning_content`, `refusal`, …)
//! fragments, and `tool_calls[]` fragments keyed by `index`: the first fragment of a call has
//! `id` and `function.name`, later ones `function.arguments` text. `finish_reason` ends the
//! choice, `[DONE]` the stream; `usage` comes on the last chunk. Deviations handled and
//! reported: fragments without `index` (Mistral sends whole calls that way), one index reused
//! for calls with different ids, ids repeated on every fragment, arguments sent as an object.
//! The SDK accumulator this follows is `openai.lib.streaming.chat.ChatCompletionStreamState`.

use super::dialects::{DeepSeek, Mistral};
use super::mistral::MISTRAL_MODELS;
use crate::formats::field::Field;
use crate::formats::spec::Streams;
use crate::formats::{Format, Protocol};
use crate::stream::{
    accumulate, fields, fragments, get_str, get_u64, AnomalyKind, Assembler, Event, Tracker, Update,
};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::borrow::Cow;

thread_local! {
    /// Whether the typed fast path runs (always, except in the test that compares it with the
    /// general path).
    static FAST: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

const DEPTH: usize = 32;

/// A chunk after the first in its common shape, read typed (no `Value`; text borrowed when it
/// has no escapes): top-level fields the first chunk already brought, one choice whose delta
/// has text or call fragments. Anything else fails this parse and takes the general path,
/// which reads every chunk the same way.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastChunk<'a> {
    #[serde(default)]
    id: Option<IgnoredAny>,
    #[serde(default, borrow)]
    object: Option<Cow<'a, str>>,
    #[serde(default)]
    created: Option<IgnoredAny>,
    #[serde(default)]
    model: Option<IgnoredAny>,
    #[serde(default)]
    system_fingerprint: Option<IgnoredAny>,
    #[serde(default)]
    service_tier: Option<IgnoredAny>,
    #[serde(default)]
    usage: Option<Value>,
    #[serde(borrow)]
    choices: Vec<FastChoice<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastChoice<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow)]
    delta: FastDelta<'a>,
    #[serde(default)]
    logprobs: Field<Value>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastDelta<'a> {
    #[serde(default, borrow)]
    content: Field<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning_content: Field<Cow<'a, str>>,
    #[serde(default, borrow)]
    reasoning: Field<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Option<Vec<FastFragment<'a>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastFragment<'a> {
    index: u64,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, rename = "type")]
    _kind: Option<IgnoredAny>,
    #[serde(default, borrow)]
    function: Option<FastFunction<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FastFunction<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}

/// One call of a chat stream: the wire index it was keyed by and its tracker slot.
#[derive(Debug, Clone, PartialEq)]
struct Slot {
    index: Option<u64>,
    call: usize,
}

/// Assembler for Chat Completions chunks (OpenAI, DeepSeek, Mistral).
#[derive(Debug, Clone, PartialEq)]
pub struct ChatAssembler {
    protocol: Protocol,
    t: Tracker,
    /// Top-level fields of the first chunk (id, created, model, system_fingerprint, …).
    top: Map<String, Value>,
    /// Message fields other than `tool_calls`, accumulated (`role`, `content`, …).
    message: Map<String, Value>,
    /// Choice fields other than `delta` (`logprobs`, …).
    choice: Map<String, Value>,
    finish_reason: Option<String>,
    usage: Option<Value>,
    slots: Vec<Slot>,
    started: bool,
    done: bool,
}

impl ChatAssembler {
    /// An assembler for OpenAI Chat chunks or one of the dialects that stream them
    /// (`DeepSeek`, `Mistral`).
    pub fn new(protocol: Protocol) -> Self {
        ChatAssembler {
            protocol,
            t: Tracker::new(false),
            top: Map::new(),
            message: Map::new(),
            choice: Map::new(),
            finish_reason: None,
            usage: None,
            slots: Vec::new(),
            started: false,
            done: false,
        }
    }

    fn tool_fragment(&mut self, frag: &Value) {
        let index = get_u64(frag, "index");
        let id = get_str(frag, "id").filter(|s| !s.is_empty());
        let function = frag.get("function");
        let name = function.and_then(|f| get_str(f, "name")).unwrap_or("");
        let Some(call) = self.fragment_call(index, id, name) else {
            return;
        };
        match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(s)) => self.t.append_args(call, s),
            Some(v @ (Value::Object(_) | Value::Array(_))) => {
                // Some compatible servers send the arguments as a JSON value, whole.
                let text = serde_json::to_string(v).unwrap_or_default();
                self.t.set_args(call, &text);
            }
            _ => {}
        }
    }

    /// The call a fragment belongs to (opened if new), with its id and name noted.
    fn fragment_call(&mut self, index: Option<u64>, id: Option<&str>, name: &str) -> Option<usize> {
        let slot = match index {
            Some(ix) => {
                let found = self.slots.iter().rposition(|s| s.index == Some(ix));
                match found {
                    Some(p) => {
                        let call = self.slots.get(p).map_or(0, |s| s.call);
                        let other_id = self
                            .t
                            .calls
                            .get(call)
                            .and_then(|c| c.id.as_deref())
                            .is_some_and(|old| id.is_some_and(|new| new != old));
                        if other_id {
                            self.t.anomaly(
                                AnomalyKind::IndexReused,
                                format!(
                                    "index {ix} reused for a call with another id ({}): \
                                     read as a new call",
                                    id.unwrap_or_default()
                                ),
                            );
                            self.open(Some(ix), id, name)
                        } else {
                            Some(call)
                        }
                    }
                    None => self.open(Some(ix), id, name),
                }
            }
            None => {
                self.t.anomaly_once(
                    AnomalyKind::MissingIndex,
                    "tool-call fragments have no index: a fragment with a new id or name \
                     starts a call, others continue the last one"
                        .into(),
                );
                let last = self.slots.last().map(|s| s.call);
                let continues = last.and_then(|c| self.t.calls.get(c)).is_some_and(|c| {
                    let same_id = id.is_none_or(|i| c.id.as_deref() == Some(i));
                    let same_name = name.is_empty() || c.name == name;
                    same_id && same_name
                });
                if continues {
                    last
                } else {
                    self.open(None, id, name)
                }
            }
        };
        let call = slot?;
        if let Some(c) = self.t.calls.get_mut(call) {
            if c.id.is_none() {
                c.id = id.map(str::to_string);
            }
        }
        self.t.name_call(call, name);
        Some(call)
    }

    /// A chunk after the first in its common shape ([`FastChunk`]): what
    /// [`ChatAssembler::chunk`] does with it, without the `Value`. False (nothing done) when
    /// the chunk has another shape, or a field the first chunk did not bring.
    fn fast_chunk(&mut self, data: &str) -> bool {
        if !self.started || self.done {
            return false;
        }
        let Ok(c) = serde_json::from_str::<FastChunk>(data) else {
            return false;
        };
        let top = [
            ("id", c.id.is_some()),
            ("created", c.created.is_some()),
            ("model", c.model.is_some()),
            ("system_fingerprint", c.system_fingerprint.is_some()),
            ("service_tier", c.service_tier.is_some()),
        ];
        // A new non-null top-level field is kept by the general path.
        let known_top = top
            .iter()
            .all(|(k, there)| !there || self.top.contains_key(*k));
        let chunk_object = c
            .object
            .as_deref()
            .is_none_or(|o| o == "chat.completion.chunk");
        // One choice, the first; a delta with text and fragments at once keeps their order on
        // the general path; `logprobs` other than `null` accumulate there.
        let [choice] = c.choices.as_slice() else {
            return false;
        };
        let content = match &choice.delta.content {
            // Text after content items (Mistral) goes into the items: the general path.
            Field::Value(_) if self.message.get("content").is_some_and(Value::is_array) => false,
            Field::Value(_) => choice.delta.tool_calls.is_none(),
            // `null` is a no-op only once the message has `content` (else the general path
            // adds the key, in its place).
            Field::Null => self.message.contains_key("content"),
            Field::Absent => true,
        };
        // Reasoning text continues a string already there (a `null` is a no-op once the key is).
        let reasoning = [
            ("reasoning_content", &choice.delta.reasoning_content),
            ("reasoning", &choice.delta.reasoning),
        ]
        .iter()
        .all(|(k, f)| match f {
            Field::Absent => true,
            Field::Null => self.message.contains_key(*k),
            Field::Value(_) => self.message.get(*k).is_some_and(Value::is_string),
        });
        // Text and reasoning in one delta keep their order on the general path.
        let one_kind = !matches!(choice.delta.content, Field::Value(_))
            || [&choice.delta.reasoning_content, &choice.delta.reasoning]
                .iter()
                .all(|f| !matches!(f, Field::Value(_)));
        let simple = choice.index.unwrap_or(0) == 0
            && content
            && reasoning
            && one_kind
            && match &choice.logprobs {
                Field::Absent => true,
                Field::Null => self.choice.contains_key("logprobs"),
                Field::Value(_) => false,
            };
        if !(known_top && chunk_object && simple) {
            return false;
        }
        let Some(choice) = c.choices.into_iter().next() else {
            return false;
        };
        if let Some(u) = c.usage {
            self.usage = Some(u);
        }
        for (k, f) in [
            ("reasoning_content", &choice.delta.reasoning_content),
            ("reasoning", &choice.delta.reasoning),
        ] {
            if let (Field::Value(text), Some(Value::String(acc))) = (f, self.message.get_mut(k)) {
                self.t.reasoning(text);
                acc.push_str(text);
            }
        }
        if let Field::Value(text) = choice.delta.content {
            self.t.text(&text);
            match self.message.get_mut("content") {
                Some(Value::String(acc)) => acc.push_str(&text),
                _ => merge(
                    &mut self.message,
                    "content",
                    &Value::String(text.into_owned()),
                ),
            }
        }
        for f in choice.delta.tool_calls.into_iter().flatten() {
            let id = f.id.as_deref().filter(|s| !s.is_empty());
            let (name, arguments) = match &f.function {
                Some(func) => (
                    func.name.as_deref().unwrap_or(""),
                    func.arguments.as_deref(),
                ),
                None => ("", None),
            };
            if let Some(call) = self.fragment_call(Some(f.index), id, name) {
                if let Some(a) = arguments {
                    self.t.append_args(call, a);
                }
            }
        }
        if let Some(r) = choice.finish_reason {
            self.finish(r.into_owned());
        }
        true
    }

    /// Content items (Mistral's chunked content): a text or thinking item continues the last
    /// item of its kind, others are added.
    fn content_items(&mut self, items: &[Value]) {
        let content = self
            .message
            .entry("content".to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::String(text) = content {
            // Text before the items becomes the first item.
            let before = std::mem::take(text);
            *content = Value::Array(if before.is_empty() {
                Vec::new()
            } else {
                vec![json!({"type": "text", "text": before})]
            });
        }
        if !content.is_array() {
            *content = Value::Array(Vec::new());
        }
        let Some(acc) = content.as_array_mut() else {
            return;
        };
        for item in items {
            let kind = item.get("type").and_then(Value::as_str);
            let same = acc
                .last()
                .is_some_and(|last| last.get("type").and_then(Value::as_str) == kind);
            match kind {
                Some("text") => {
                    let piece = get_str(item, "text").unwrap_or_default();
                    self.t.text(piece);
                    match acc.last_mut() {
                        Some(last) if same => append(last, item, &["text"]),
                        _ => acc.push(item.clone()),
                    }
                }
                Some("thinking") => {
                    let pieces = item.get("thinking").and_then(Value::as_array);
                    for piece in pieces.into_iter().flatten() {
                        self.t.reasoning(get_str(piece, "text").unwrap_or_default());
                    }
                    let last = acc.last_mut().filter(|_| same);
                    let entries = last
                        .and_then(|l| l.get_mut("thinking"))
                        .and_then(Value::as_array_mut);
                    match (entries, pieces) {
                        (Some(entries), Some(pieces)) => {
                            for piece in pieces {
                                let continues = entries.last().is_some_and(|e| {
                                    e.get("type") == piece.get("type")
                                        && e.get("text").is_some_and(Value::is_string)
                                });
                                match entries.last_mut() {
                                    Some(e) if continues => append(e, piece, &["text"]),
                                    _ => entries.push(piece.clone()),
                                }
                            }
                        }
                        _ => acc.push(item.clone()),
                    }
                }
                _ => acc.push(item.clone()),
            }
        }
    }

    /// One `reasoning_details` fragment (OpenRouter): it continues the entry of its `index`
    /// (else the last entry of its type), or starts one.
    fn reasoning_detail(&mut self, entry: &Value) {
        for key in ["text", "summary"] {
            if let Some(s) = get_str(entry, key) {
                self.t.reasoning(s);
            }
        }
        let details = self
            .message
            .entry("reasoning_details".to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !details.is_array() {
            *details = Value::Array(Vec::new());
        }
        let Some(acc) = details.as_array_mut() else {
            return;
        };
        let index = entry.get("index");
        let found = acc.iter_mut().rev().find(|e| match index {
            Some(ix) => e.get("index") == Some(ix),
            None => e.get("type") == entry.get("type"),
        });
        match found {
            Some(e) if e.get("type") == entry.get("type") => {
                append(e, entry, &["text", "summary", "data", "signature"])
            }
            _ => acc.push(entry.clone()),
        }
    }

    /// `finish_reason`: the choice ends, its calls close.
    fn finish(&mut self, r: String) {
        self.t.stop_reason = Some(r.clone());
        self.finish_reason = Some(r);
        self.t.end();
        for s in &self.slots {
            if let Some(c) = self.t.calls.get_mut(s.call) {
                c.closed = true;
            }
        }
    }

    fn open(&mut self, index: Option<u64>, id: Option<&str>, name: &str) -> Option<usize> {
        let call = self.t.open_call(id.map(str::to_string), name)?;
        self.slots.push(Slot { index, call });
        Some(call)
    }

    fn chunk(&mut self, o: Map<String, Value>) {
        if !self.started {
            self.started = true;
            for (k, v) in &o {
                if !matches!(k.as_str(), "choices" | "usage" | "object") {
                    self.top.insert(k.clone(), v.clone());
                }
            }
        } else {
            for (k, v) in &o {
                let known = matches!(k.as_str(), "choices" | "usage" | "object");
                if !known && !v.is_null() {
                    // Later chunks may bring fields the first one lacked (system_fingerprint).
                    self.top.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        if let Some(u) = o.get("usage").filter(|u| !u.is_null()) {
            self.usage = Some(u.clone());
        }
        let choices = o.get("choices").and_then(Value::as_array);
        for choice in choices.into_iter().flatten() {
            let index = get_u64(choice, "index").unwrap_or(0);
            if index != 0 {
                self.t.anomaly_once(
                    AnomalyKind::ExtraChoice,
                    format!("choice {index}: only the first choice is assembled"),
                );
                continue;
            }
            if let Some(c) = choice.as_object() {
                for (k, v) in c {
                    if !matches!(k.as_str(), "delta" | "finish_reason" | "index") {
                        match self.choice.get_mut(k) {
                            Some(slot) => accumulate(slot, v, DEPTH),
                            None => {
                                self.choice.insert(k.clone(), v.clone());
                            }
                        }
                    }
                }
            }
            if let Some(delta) = choice.get("delta").and_then(Value::as_object) {
                for (k, v) in delta {
                    match k.as_str() {
                        "tool_calls" => {
                            for frag in v.as_array().into_iter().flatten() {
                                self.tool_fragment(frag);
                            }
                        }
                        "content" => match v {
                            Value::Array(items) => self.content_items(items),
                            // Mistral ends a chunked content with `""`: nothing to add.
                            Value::String(s)
                                if s.is_empty()
                                    && self.message.get("content").is_some_and(Value::is_array) => {
                            }
                            _ => {
                                if let Some(s) = v.as_str() {
                                    self.t.text(s);
                                }
                                merge(&mut self.message, k, v);
                            }
                        },
                        "reasoning_content" | "reasoning" | "thinking" => {
                            if let Some(s) = v.as_str() {
                                self.t.reasoning(s);
                            }
                            merge(&mut self.message, k, v);
                        }
                        "reasoning_details" => {
                            for entry in v.as_array().into_iter().flatten() {
                                self.reasoning_detail(entry);
                            }
                        }
                        // Labels of the chunk, not fragments: Groq's `channel` (`analysis`,
                        // `commentary`, `final`) comes on every chunk of gpt-oss models.
                        "role" | "channel" => {
                            if !v.is_null() {
                                self.message.insert(k.clone(), v.clone());
                            }
                        }
                        _ => merge(&mut self.message, k, v),
                    }
                }
            }
            if let Some(r) = get_str(choice, "finish_reason") {
                self.finish(r.to_string());
            }
        }
    }
}

/// Continue an item with a fragment: the `growing` string fields add up; other fields are
/// labels (`type`, `id`, `format`, `index`), taken from the first fragment that has them.
fn append(acc: &mut Value, piece: &Value, growing: &[&str]) {
    let (Some(acc), Some(piece)) = (acc.as_object_mut(), piece.as_object()) else {
        return;
    };
    for (k, v) in piece {
        match (acc.get_mut(k), v) {
            (Some(Value::String(a)), Value::String(d)) if growing.contains(&k.as_str()) => {
                a.push_str(d)
            }
            (Some(slot), v) if slot.is_null() && !v.is_null() => *slot = v.clone(),
            (Some(_), _) => {}
            (None, v) => {
                acc.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Accumulate one message field with the SDK's rules (strings add up; `null` never
/// overwrites).
fn merge(m: &mut Map<String, Value>, k: &str, v: &Value) {
    match m.get_mut(k) {
        Some(slot) if !slot.is_null() => accumulate(slot, v, DEPTH),
        _ => {
            m.insert(k.to_string(), v.clone());
        }
    }
}

impl Assembler for ChatAssembler {
    fn tracker(&self) -> &Tracker {
        &self.t
    }

    fn decode(&self, response: &Value) -> crate::stream::Decoding {
        self.protocol.decode_response(response)
    }

    fn push(&mut self, event: &Event) -> Vec<Update> {
        // A finish reason ends the choice (recorded streams often drop `[DONE]`, and a usage
        // chunk may follow it); only events after `[DONE]` are after the end.
        self.t.begin_quiet();
        if self.done {
            self.t
                .anomaly(AnomalyKind::AfterEnd, "event after [DONE]".into());
        }
        if event.is_done() {
            self.done = true;
            self.t.end();
            return self.t.take_updates();
        }
        if FAST.with(|f| f.get()) && self.fast_chunk(&event.data) {
            return self.t.take_updates();
        }
        match self.t.read(event) {
            Ok(o) => {
                let obj = o.get("object").and_then(Value::as_str);
                if obj.is_some_and(|s| s != "chat.completion.chunk") {
                    // Azure's content-filter events have `object: ""`; others are unknown.
                    self.t.unknown(obj.unwrap_or_default());
                } else if o.contains_key("error") && !o.contains_key("choices") {
                    self.t.anomaly(
                        AnomalyKind::StreamError,
                        format!(
                            "the provider sent an error: {}",
                            o.get("error").map(Value::to_string).unwrap_or_default()
                        ),
                    );
                    self.t.end();
                } else {
                    self.chunk(o);
                }
            }
            Err(e) => self.t.malformed(&e),
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut message = self.message.clone();
        message
            .entry("role".to_string())
            .or_insert_with(|| json!("assistant"));
        message.entry("content".to_string()).or_insert(Value::Null);
        // A first chunk's `content: ""` on a turn of reasoning or calls says no text: an
        // empty string would read as an empty text part (which Anthropic rejects).
        let said_something = !self.slots.is_empty()
            || ["reasoning_content", "reasoning", "reasoning_details"]
                .iter()
                .any(|k| message.contains_key(*k));
        if said_something && message.get("content") == Some(&json!("")) {
            message.insert("content".into(), Value::Null);
        }
        if !self.slots.is_empty() {
            let calls: Vec<Value> = self
                .slots
                .iter()
                .filter_map(|s| self.t.calls.get(s.call))
                .map(|c| {
                    let mut call = Map::new();
                    if let Some(id) = &c.id {
                        call.insert("id".into(), json!(id));
                    }
                    call.insert("type".into(), json!("function"));
                    call.insert(
                        "function".into(),
                        json!({"name": c.name, "arguments": c.arguments}),
                    );
                    Value::Object(call)
                })
                .collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        let mut choice = Map::new();
        choice.insert("index".into(), json!(0));
        choice.insert("message".into(), Value::Object(message));
        for (k, v) in &self.choice {
            choice.insert(k.clone(), v.clone());
        }
        choice.insert(
            "finish_reason".into(),
            self.finish_reason
                .clone()
                .map_or(Value::Null, Value::String),
        );
        let mut doc = Map::new();
        for (k, v) in &self.top {
            doc.insert(k.clone(), v.clone());
        }
        doc.insert("object".into(), json!("chat.completion"));
        doc.insert("choices".into(), json!([choice]));
        if let Some(u) = &self.usage {
            doc.insert("usage".into(), u.clone());
        }
        Value::Object(doc)
    }
}

/// Assembler for Cohere v2 chat stream events (`message-start`, `content-delta`,
/// `tool-plan-delta`, `tool-call-start/delta/end`, `message-end`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct CohereAssembler {
    t: Tracker,
    id: Option<String>,
    plan: String,
    /// Content blocks by index: (type, accumulated text).
    content: Vec<(Option<u64>, Value)>,
    /// Call index on the wire → tracker slot.
    slots: Vec<(Option<u64>, usize)>,
    finish_reason: Option<String>,
    usage: Option<Value>,
    started: bool,
}

impl Default for CohereAssembler {
    fn default() -> Self {
        CohereAssembler {
            t: Tracker::new(false),
            id: None,
            plan: String::new(),
            content: Vec::new(),
            slots: Vec::new(),
            finish_reason: None,
            usage: None,
            started: false,
        }
    }
}

impl CohereAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        CohereAssembler::default()
    }

    fn slot(&self, index: Option<u64>) -> Option<usize> {
        match index {
            Some(_) => self
                .slots
                .iter()
                .rev()
                .find(|(i, _)| *i == index)
                .map(|(_, c)| *c),
            None => self.slots.last().map(|(_, c)| *c),
        }
    }
}

impl Assembler for CohereAssembler {
    crate::formats::assembler_basics!(Protocol::Cohere);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin();
        let o = match self.t.read(event) {
            Ok(o) => Value::Object(o),
            Err(e) => {
                self.t.malformed(&e);
                return self.t.take_updates();
            }
        };
        let index = get_u64(&o, "index");
        let msg = o.get("delta").and_then(|d| d.get("message"));
        match get_str(&o, "type").unwrap_or("") {
            "message-start" => {
                let id = get_str(&o, "id").map(str::to_string);
                if self.started {
                    let (kind, what) = if id == self.id {
                        (AnomalyKind::DuplicateStart, "repeated")
                    } else {
                        (AnomalyKind::SplicedStart, "another message started")
                    };
                    self.t
                        .anomaly(kind, format!("message-start {what}: the first is kept"));
                } else {
                    self.started = true;
                    self.id = id;
                }
            }
            "content-start" => {
                let block = msg
                    .and_then(|m| m.get("content"))
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "text", "text": ""}));
                if let Some(s) = get_str(&block, "text") {
                    self.t.text(s);
                }
                if let Some(s) = get_str(&block, "thinking") {
                    self.t.reasoning(s);
                }
                self.content.push((index, block));
            }
            "content-delta" => {
                let content = msg.and_then(|m| m.get("content"));
                // A thinking item grows by `thinking`, a text item by `text`.
                let (key, delta) = match content.and_then(|c| get_str(c, "thinking")) {
                    Some(d) => ("thinking", d),
                    None => (
                        "text",
                        content.and_then(|c| get_str(c, "text")).unwrap_or(""),
                    ),
                };
                if !self.content.iter().any(|(i, _)| *i == index) {
                    let block = match key {
                        "thinking" => json!({"type": "thinking", "thinking": ""}),
                        _ => json!({"type": "text", "text": ""}),
                    };
                    self.content.push((index, block));
                }
                if let Some((_, b)) = self.content.iter_mut().rev().find(|(i, _)| *i == index) {
                    if let Some(Value::String(t)) = b.get_mut(key) {
                        t.push_str(delta);
                    }
                }
                if key == "thinking" {
                    self.t.reasoning(delta);
                } else {
                    self.t.text(delta);
                }
            }
            "content-end" | "tool-call-end" | "citation-start" | "citation-end" => {
                if get_str(&o, "type") == Some("tool-call-end") {
                    if let Some(c) = self.slot(index) {
                        self.t.close_call(c);
                    }
                }
            }
            "tool-plan-delta" => {
                let d = msg
                    .and_then(|m| get_str(m, "tool_plan"))
                    .unwrap_or_default();
                self.plan.push_str(d);
                self.t.reasoning(d);
            }
            "tool-call-start" => {
                let tc = msg.and_then(|m| m.get("tool_calls"));
                let id = tc.and_then(|c| get_str(c, "id")).map(str::to_string);
                let f = tc.and_then(|c| c.get("function"));
                let name = f.and_then(|f| get_str(f, "name")).unwrap_or("");
                if let Some(c) = self.t.open_call(id, name) {
                    self.slots.push((index, c));
                    if let Some(a) = f.and_then(|f| get_str(f, "arguments")) {
                        self.t.append_args(c, a);
                    }
                }
            }
            "tool-call-delta" => {
                let args = msg
                    .and_then(|m| m.get("tool_calls"))
                    .and_then(|c| c.get("function"))
                    .and_then(|f| get_str(f, "arguments"))
                    .unwrap_or("");
                match self.slot(index) {
                    Some(c) => self.t.append_args(c, args),
                    None => {
                        self.t.anomaly(
                            AnomalyKind::ArgumentsBeforeName,
                            "tool-call-delta before its tool-call-start".into(),
                        );
                        if let Some(c) = self.t.open_call(None, "") {
                            self.slots.push((index, c));
                            self.t.append_args(c, args);
                        }
                    }
                }
            }
            "message-end" => {
                let d = o.get("delta");
                if let Some(r) = d.and_then(|d| get_str(d, "finish_reason")) {
                    self.finish_reason = Some(r.to_string());
                    self.t.stop_reason = Some(r.to_string());
                }
                if let Some(u) = d.and_then(|d| d.get("usage")) {
                    self.usage = Some(u.clone());
                }
                self.t.end();
            }
            "debug" => {}
            other => self.t.unknown(other),
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut message = Map::new();
        message.insert("role".into(), json!("assistant"));
        if !self.plan.is_empty() {
            message.insert("tool_plan".into(), json!(self.plan));
        }
        if !self.content.is_empty() {
            let blocks: Vec<Value> = self.content.iter().map(|(_, b)| b.clone()).collect();
            message.insert("content".into(), Value::Array(blocks));
        }
        if !self.slots.is_empty() {
            let calls: Vec<Value> = self
                .slots
                .iter()
                .filter_map(|(_, c)| self.t.calls.get(*c))
                .map(|c| {
                    let mut call = Map::new();
                    if let Some(id) = &c.id {
                        call.insert("id".into(), json!(id));
                    }
                    call.insert("type".into(), json!("function"));
                    call.insert(
                        "function".into(),
                        json!({"name": c.name, "arguments": c.arguments}),
                    );
                    Value::Object(call)
                })
                .collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        let mut doc = Map::new();
        if let Some(id) = &self.id {
            doc.insert("id".into(), json!(id));
        }
        if let Some(r) = &self.finish_reason {
            doc.insert("finish_reason".into(), json!(r));
        }
        doc.insert("message".into(), Value::Object(message));
        if let Some(u) = &self.usage {
            doc.insert("usage".into(), u.clone());
        }
        Value::Object(doc)
    }
}

/// Assembler for Ollama `/api/chat` NDJSON lines: `message.content` fragments, whole
/// `tool_calls` (arguments as objects), the last line `done: true` with `done_reason` and
/// counts.
#[derive(Debug, Clone, PartialEq)]
pub struct OllamaAssembler {
    t: Tracker,
    top: Map<String, Value>,
    message: Map<String, Value>,
    calls: Vec<(usize, Value)>,
}

impl Default for OllamaAssembler {
    fn default() -> Self {
        OllamaAssembler {
            t: Tracker::new(true),
            top: Map::new(),
            message: Map::new(),
            calls: Vec::new(),
        }
    }
}

impl OllamaAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        OllamaAssembler::default()
    }
}

impl Assembler for OllamaAssembler {
    crate::formats::assembler_basics!(Protocol::Ollama);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin();
        let o = match self.t.read(event) {
            Ok(o) => o,
            Err(e) => {
                self.t.malformed(&e);
                return self.t.take_updates();
            }
        };
        if let Some(err) = o.get("error") {
            self.t.anomaly(
                AnomalyKind::StreamError,
                format!("the server sent an error: {err}"),
            );
            self.t.end();
            return self.t.take_updates();
        }
        for (k, v) in &o {
            if k != "message" {
                self.top.insert(k.clone(), v.clone());
            }
        }
        if let Some(m) = o.get("message").and_then(Value::as_object) {
            for (k, v) in m {
                match k.as_str() {
                    "tool_calls" => {
                        for call in v.as_array().into_iter().flatten() {
                            let f = call.get("function");
                            let name = f.and_then(|f| get_str(f, "name")).unwrap_or("");
                            let id = get_str(call, "id").map(str::to_string);
                            if let Some(c) = self.t.open_call(id, name) {
                                let args = f.and_then(|f| f.get("arguments"));
                                let text = match args {
                                    Some(Value::String(s)) => s.clone(),
                                    Some(v) => serde_json::to_string(v).unwrap_or_default(),
                                    None => String::new(),
                                };
                                self.t.set_args(c, &text);
                                self.t.close_call(c);
                                self.calls.push((c, call.clone()));
                            }
                        }
                    }
                    "content" => {
                        if let Some(s) = v.as_str() {
                            self.t.text(s);
                        }
                        merge(&mut self.message, k, v);
                    }
                    "thinking" => {
                        if let Some(s) = v.as_str() {
                            self.t.reasoning(s);
                        }
                        merge(&mut self.message, k, v);
                    }
                    "role" => {
                        self.message.insert(k.clone(), v.clone());
                    }
                    _ => merge(&mut self.message, k, v),
                }
            }
        }
        if o.get("done") == Some(&Value::Bool(true)) {
            if let Some(r) = o.get("done_reason").and_then(Value::as_str) {
                self.t.stop_reason = Some(r.to_string());
            }
            self.t.end();
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let mut doc = self.top.clone();
        let mut message = self.message.clone();
        message
            .entry("role".to_string())
            .or_insert_with(|| json!("assistant"));
        message
            .entry("content".to_string())
            .or_insert_with(|| json!(""));
        if !self.calls.is_empty() {
            let calls: Vec<Value> = self.calls.iter().map(|(_, v)| v.clone()).collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        doc.insert("message".into(), Value::Object(message));
        doc.insert("done".into(), json!(self.t.ended));
        Value::Object(doc)
    }
}

impl Default for ChatAssembler {
    fn default() -> Self {
        ChatAssembler::new(Protocol::OpenAiChat)
    }
}

impl Streams for super::Codec {
    type Assembler = ChatAssembler;
    const SSE: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        let Some(o) = o else { return false };
        o.get("object").and_then(Value::as_str) == Some("chat.completion.chunk")
            || o.get("choices")
                .and_then(Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| c.get("delta").is_some()))
    }

    /// DeepSeek and Mistral speak Chat chunks; tell them by model name or by DeepSeek's
    /// `reasoning_content`.
    fn dialect(events: &[Event]) -> Option<Format> {
        for e in events.iter().take(8) {
            let Ok(v) = e.json() else { continue };
            let model = v.get("model").and_then(Value::as_str).unwrap_or("");
            if model.starts_with("deepseek") {
                return Some(Format::DeepSeek);
            }
            if MISTRAL_MODELS.iter().any(|m| model.contains(m)) {
                return Some(Format::Mistral);
            }
            let reasoning = v
                .get("choices")
                .and_then(|c| c.get(0))
                .and_then(|c| c.get("delta"))
                .is_some_and(|d| d.get("reasoning_content").is_some());
            if reasoning {
                return Some(Format::DeepSeek);
            }
        }
        None
    }

    fn whole_response(o: &Map<String, Value>) -> bool {
        o.get("object").and_then(Value::as_str) == Some("chat.completion")
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        chat(doc, n, false)
    }
}

/// A dialect that streams Chat chunks: claimed by OpenAI Chat's recognition, told apart by
/// [`Streams::dialect`]; Mistral sends each call whole.
macro_rules! chat_dialect_streams {
    ($dialect:ty, $protocol:expr, $whole_calls:expr) => {
        impl Streams for $dialect {
            type Assembler = ChatAssembler;
            const SSE: bool = true;

            fn assembler() -> ChatAssembler {
                ChatAssembler::new($protocol)
            }
            fn claims(_name: Option<&str>, _o: Option<&Map<String, Value>>) -> bool {
                false
            }
            fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
                chat(doc, n, $whole_calls)
            }
        }
    };
}
chat_dialect_streams!(DeepSeek, Protocol::DeepSeek, false);
chat_dialect_streams!(Mistral, Protocol::Mistral, true);

impl Streams for super::dialects::Cohere {
    type Assembler = CohereAssembler;
    const SSE: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        const TYPES: [&str; 10] = [
            "message-start",
            "content-start",
            "content-delta",
            "content-end",
            "tool-plan-delta",
            "tool-call-start",
            "tool-call-delta",
            "tool-call-end",
            "message-end",
            "citation-start",
        ];
        crate::stream::type_in(o, &TYPES)
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        cohere(doc, n)
    }
}

impl Streams for super::dialects::Ollama {
    type Assembler = OllamaAssembler;
    const SSE: bool = false;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        o.is_some_and(|o| {
            o.contains_key("done") && (o.contains_key("message") || o.contains_key("model"))
        })
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        ollama(doc, n)
    }
}

/// A chat call's `function.name` and its arguments as JSON text (an object argument, as
/// Mistral and Ollama send, written as text).
fn name_and_arguments(call: &Value) -> (Value, String) {
    let f = call.get("function");
    let name = f.and_then(|f| f.get("name")).cloned().unwrap_or(json!(""));
    let args = match f.and_then(|f| f.get("arguments")) {
        Some(Value::String(s)) => s.clone(),
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
        None => String::new(),
    };
    (name, args)
}

/// Chat chunks for a response: the role first, content and argument fragments by `index`
/// (Mistral: each call whole, without index), the finish reason, usage, `[DONE]`.
fn chat(doc: &Value, n: usize, mistral: bool) -> Vec<Value> {
    let mut base = fields(doc);
    let choices = base.remove("choices");
    let usage = base.remove("usage");
    base.insert("object".into(), json!("chat.completion.chunk"));
    let choice = choices
        .as_ref()
        .and_then(|c| c.get(0))
        .cloned()
        .unwrap_or(Value::Null);
    let message = fields(choice.get("message").unwrap_or(&Value::Null));
    let chunk = |delta: Value, finish: Value| {
        let mut ch = Map::new();
        ch.insert("index".into(), json!(0));
        ch.insert("delta".into(), delta);
        // Choice fields of the response (`logprobs`) travel on every chunk.
        for (k, v) in fields(&choice) {
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
        let (name, args) = name_and_arguments(call);
        if mistral {
            // Mistral sends each call whole, without index.
            let mut c = fields(call);
            c.insert("function".into(), json!({"name": name, "arguments": args}));
            out.push(chunk(json!({"tool_calls": [c]}), Value::Null));
            continue;
        }
        let mut first = fields(call);
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
        let (name, args) = name_and_arguments(call);
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
    let mut top = fields(doc);
    let message = top
        .remove("message")
        .map(|m| fields(&m))
        .unwrap_or_default();
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

#[cfg(test)]
#[test]
fn stream_fast_path_matches_the_general_path() {
    crate::synth::check_fast_path(
        &[Protocol::OpenAiChat, Protocol::DeepSeek, Protocol::Mistral],
        ChatAssembler::new,
        |on| FAST.with(|f| f.set(on)),
    );
}

#[cfg(all(test, not(target_arch = "wasm32")))]
#[test]
fn reasoning_streams_take_the_fast_path_as_the_general_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded");
    for (file, p) in [
        ("openai-chat/deepseek-reasoning.jsonl", Protocol::DeepSeek),
        ("openai-chat/groq-reasoning.jsonl", Protocol::OpenAiChat),
        (
            "openai-chat/azure-deepseek-reasoning.1.jsonl",
            Protocol::OpenAiChat,
        ),
        ("mistral/mistral-reasoning.jsonl", Protocol::Mistral),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        let (mut fast, mut general) = (ChatAssembler::new(p), ChatAssembler::new(p));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let ev = Event::data(line);
            let a = fast.push(&ev);
            FAST.with(|f| f.set(false));
            let b = general.push(&ev);
            FAST.with(|f| f.set(true));
            assert_eq!(a, b, "{file}: {line}");
            assert_eq!(fast, general, "{file}: {line}");
        }
    }
}
