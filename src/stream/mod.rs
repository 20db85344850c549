//! Streaming: framing shared by every provider (SSE, NDJSON, HAR import), the [`Assembler`]
//! trait the per-protocol assemblers implement (`formats/<dir>/stream.rs`), the bookkeeping
//! they share ([`Tracker`]) and partial-JSON parsing and repair. This module knows no format:
//! each assembler supplies its format's decoder ([`Assembler::decode`]). The replay driver
//! (`crate::replay`) and synthesised streams (`crate::synth`) sit above it and the formats.
//!
//! Everything here is sans-IO: bytes go into a framer, [`Event`]s come out; events go into an
//! assembler, [`Update`]s come out; `finish` returns the [`Assembled`] message. No clocks, no
//! IO, no panics on hostile input: what is odd about a stream is reported as an [`Anomaly`].
//!
//! Every assembler builds the *equivalent non-streamed response body* of its protocol and
//! decodes it with the format's own response decoder ([`assemble`]), so "assemble the stream" and "decode the
//! response the provider would have sent without streaming" are the same code path.

pub mod har;
pub mod ndjson;
pub mod partial;
pub mod sse;

use crate::model::{Exchange, Loss, Message, Part, Role};
use serde::Serialize;
use serde_json::Value;

/// One framed event: the SSE `event:` name when there was one, and the payload text (for
/// JSON-lines input, the line).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Event {
    /// SSE `event:` field (Anthropic and Responses repeat the `type` there; Bedrock's binary
    /// event stream has its event type in a header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The payload: JSON for every protocol, or the `[DONE]` sentinel of OpenAI Chat.
    pub data: String,
}

impl Event {
    /// An event with a payload and no name.
    pub fn data(data: impl Into<String>) -> Self {
        Event {
            name: None,
            data: data.into(),
        }
    }

    /// The payload parsed as JSON.
    pub fn json(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_str(&self.data)
    }

    /// True for OpenAI's end-of-stream sentinel.
    pub fn is_done(&self) -> bool {
        self.data.trim() == "[DONE]"
    }

    /// A short label for timelines: the event's `type`, a JSON-RPC message's method (or
    /// `result` / `error`), its SSE name, its single key (Bedrock), `object` (chat chunks) or
    /// `chunk`.
    pub fn label(&self) -> String {
        if self.is_done() {
            return "[DONE]".into();
        }
        let v = match self.json() {
            Ok(v) => v,
            Err(_) => return self.name.clone().unwrap_or_else(|| "(not JSON)".into()),
        };
        if let Some(t) = v.get("type").and_then(Value::as_str) {
            return t.to_string();
        }
        // A JSON-RPC message (MCP): its method, or which kind of response it is.
        if v.get("jsonrpc").is_some() {
            if let Some(m) = v.get("method").and_then(Value::as_str) {
                return m.to_string();
            }
            for kind in ["result", "error"] {
                if v.get(kind).is_some() {
                    return kind.to_string();
                }
            }
        }
        if let Some(n) = &self.name {
            return n.clone();
        }
        if let Some(o) = v.get("object").and_then(Value::as_str) {
            return o.to_string();
        }
        match v.as_object() {
            Some(o) if o.len() == 1 => o.keys().next().cloned().unwrap_or_default(),
            Some(o) if o.contains_key("candidates") => "candidates".into(),
            Some(o) if o.get("done") == Some(&Value::Bool(true)) => "done".into(),
            _ => "chunk".into(),
        }
    }
}

/// Something odd about a stream, at the step (0-based event index) where it showed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Anomaly {
    /// Event index; anomalies found at the end carry the index of the last event.
    pub step: usize,
    /// What kind.
    pub kind: AnomalyKind,
    /// For a person.
    pub message: String,
}

/// The kinds of anomaly.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AnomalyKind {
    /// Fragments of two calls alternate (legal with `index`, but worth seeing).
    Interleaved,
    /// A tool-call fragment without `index` (Mistral, some compatible servers).
    MissingIndex,
    /// One index used for calls with different ids (servers that send every call at index 0).
    IndexReused,
    /// Argument text arrived for a call before its name.
    ArgumentsBeforeName,
    /// The stream started twice with the same message (duplicated `message_start`).
    DuplicateStart,
    /// A second, different start: two streams spliced together.
    SplicedStart,
    /// A call ended with no argument text; read as `{}`.
    EmptyArguments,
    /// A call's final argument text is not valid JSON.
    InvalidArguments {
        /// 1-based line of the parse error in the argument text.
        line: usize,
        /// 1-based column of the parse error.
        column: usize,
        /// A proposed repair, never applied silently.
        repair: Option<partial::Repair>,
    },
    /// No terminal event: the stream stopped early; what was assembled is shown.
    Cut,
    /// An event type the assembler does not know; kept in the timeline, otherwise ignored.
    UnknownEvent,
    /// An event whose payload is not JSON (or not an object).
    Malformed,
    /// An event that does not fit where it came (a delta for a block never started, …).
    OutOfOrder,
    /// Events after the terminal one.
    AfterEnd,
    /// The provider reported an error inside the stream.
    StreamError,
    /// Several choices/candidates: only the first is assembled.
    ExtraChoice,
    /// The final value sent at the end of a call or text differs from the fragments.
    Mismatch,
    /// The assembled response could not be decoded by its format (shown as built).
    Undecodable,
}

impl AnomalyKind {
    /// Short id (`interleaved`, `invalid_arguments`, …).
    pub fn id(&self) -> &'static str {
        match self {
            AnomalyKind::Interleaved => "interleaved",
            AnomalyKind::MissingIndex => "missing_index",
            AnomalyKind::IndexReused => "index_reused",
            AnomalyKind::ArgumentsBeforeName => "arguments_before_name",
            AnomalyKind::DuplicateStart => "duplicate_start",
            AnomalyKind::SplicedStart => "spliced_start",
            AnomalyKind::EmptyArguments => "empty_arguments",
            AnomalyKind::InvalidArguments { .. } => "invalid_arguments",
            AnomalyKind::Cut => "cut",
            AnomalyKind::UnknownEvent => "unknown_event",
            AnomalyKind::Malformed => "malformed",
            AnomalyKind::OutOfOrder => "out_of_order",
            AnomalyKind::AfterEnd => "after_end",
            AnomalyKind::StreamError => "stream_error",
            AnomalyKind::ExtraChoice => "extra_choice",
            AnomalyKind::Mismatch => "mismatch",
            AnomalyKind::Undecodable => "undecodable",
        }
    }
}

/// What one event changed, for live views.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "update", rename_all = "snake_case")]
pub enum Update {
    /// Text appended.
    Text {
        /// The fragment.
        delta: String,
    },
    /// Reasoning text appended.
    Reasoning {
        /// The fragment.
        delta: String,
    },
    /// A call appeared (index into [`State::calls`]).
    CallStarted {
        /// Which call.
        call: usize,
    },
    /// Argument text of a call grew (or was replaced, for protocols that send whole values).
    Arguments {
        /// Which call.
        call: usize,
        /// The fragment.
        delta: String,
    },
    /// The terminal event.
    Ended,
    /// Only metadata (ids, usage, stop reason) or nothing changed.
    Meta,
    /// Something odd.
    Anomaly(Anomaly),
}

/// One call as assembled so far.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CallState {
    /// Call id, once known.
    pub id: Option<String>,
    /// Tool name so far.
    pub name: String,
    /// Argument text so far, as received.
    pub arguments: String,
    /// Step where the call started.
    pub started: usize,
    /// The protocol closed the call (block stop, item done, whole call).
    pub closed: bool,
}

/// The assembler's state after a step, for the replay view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    /// Calls so far, with the partial JSON of their arguments parsed as far as it goes.
    pub calls: Vec<CallView>,
    /// Visible text so far.
    pub text: String,
    /// Byte offsets in `text` where a new text block began (a second text content block):
    /// shown apart, not run together.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub text_breaks: Vec<usize>,
    /// Reasoning / thinking text so far.
    pub reasoning: String,
    /// Stop reason as the provider spelled it, once sent.
    pub stop_reason: Option<String>,
    /// The terminal event was seen.
    pub ended: bool,
    /// Anomalies so far.
    pub anomalies: Vec<Anomaly>,
}

impl State {
    /// The visible text so far, one piece per text block.
    pub fn text_blocks(&self) -> Vec<&str> {
        let mut out = Vec::with_capacity(self.text_breaks.len() + 1);
        let mut from = 0;
        for &at in &self.text_breaks {
            if let Some(piece) = self.text.get(from..at) {
                out.push(piece);
                from = at;
            }
        }
        out.push(self.text.get(from..).unwrap_or_default());
        out
    }
}

/// A call in a [`State`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallView {
    /// Call id, once known.
    pub id: Option<String>,
    /// Tool name so far.
    pub name: String,
    /// Argument text so far.
    pub arguments: String,
    /// The argument text parsed as far as it goes (`None` while nothing parses).
    pub partial: Option<Value>,
    /// The protocol closed the call.
    pub closed: bool,
}

/// The result of assembling a stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembled {
    /// The response as an exchange (model name, one assistant message): encode it with
    /// [`Kind::Response`] to render it in any format.
    pub exchange: Exchange,
    /// The equivalent non-streamed response body of the protocol, as built.
    pub response: Value,
    /// Everything odd, in step order.
    pub anomalies: Vec<Anomaly>,
    /// What the format's response decoder normalised.
    pub losses: Vec<Loss>,
    /// The terminal event was seen.
    pub complete: bool,
}

impl Assembled {
    /// The assembled assistant message.
    pub fn message(&self) -> Option<&Message> {
        self.exchange.messages.last()
    }

    /// True when an anomaly of this id was reported.
    pub fn has(&self, id: &str) -> bool {
        self.anomalies.iter().any(|a| a.kind.id() == id)
    }
}

/// A response body decoded by its format: the exchange and what the decoder normalised, or
/// why it does not decode.
pub type Decoding = Result<(Exchange, Vec<Loss>), String>;

/// A sans-IO stream assembler: push events in order, read the state at any time, finish.
pub trait Assembler: Clone {
    /// Feed one event.
    fn push(&mut self, event: &Event) -> Vec<Update>;
    /// The shared bookkeeping (calls, text, anomalies).
    fn tracker(&self) -> &Tracker;
    /// The equivalent non-streamed response body assembled so far, with argument values as
    /// this protocol's response carries them.
    fn response(&self) -> Value;
    /// Decode a response body of this protocol with its format's response decoder (each
    /// format's assembler supplies it, so this module knows no format).
    fn decode(&self, response: &Value) -> Decoding;

    /// The state after the last event, with partial arguments parsed.
    fn state(&self) -> State {
        self.tracker().state()
    }

    /// The message so far (no end-of-stream checks).
    fn message_so_far(&self) -> Assembled {
        let response = self.response();
        let decoded = self.decode(&response);
        assemble(response, decoded, self.tracker(), false)
    }

    /// End of input: end-of-stream checks (cut, empty or invalid arguments) and the message.
    fn finish(self) -> Assembled {
        let response = self.response();
        let decoded = self.decode(&response);
        assemble(response, decoded, self.tracker(), true)
    }
}

/// Upper bound on the calls one stream may open (hostile input cannot grow memory without
/// bound through fragment indexes).
pub const MAX_CALLS: usize = 4096;

/// The bookkeeping every assembler shares: step counter, calls, text, anomalies, updates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tracker {
    /// Index of the event being processed (events seen − 1).
    pub step: usize,
    /// Events seen.
    pub events: usize,
    /// Calls, in order of appearance.
    pub calls: Vec<CallState>,
    /// Visible text.
    pub text: String,
    /// Where in `text` each text block after the first began.
    pub text_breaks: Vec<usize>,
    /// Reasoning text.
    pub reasoning: String,
    /// Stop reason as spelled on the wire.
    pub stop_reason: Option<String>,
    /// Terminal event seen.
    pub ended: bool,
    /// Anomalies so far.
    pub anomalies: Vec<Anomaly>,
    updates: Vec<Update>,
    last_args: Option<usize>,
    interleave_reported: bool,
    /// Calls whose argument values are objects on the wire (Anthropic `input`, Gemini `args`):
    /// invalid text cannot be carried by the response body and is patched in afterwards.
    pub object_arguments: bool,
}

impl Tracker {
    /// A tracker for a protocol whose response carries arguments as objects (`true`) or text.
    pub fn new(object_arguments: bool) -> Self {
        Tracker {
            object_arguments,
            ..Tracker::default()
        }
    }

    /// Start processing an event; an event after the terminal one is still processed, and
    /// reported as after the end.
    pub fn begin(&mut self) {
        let ended = self.ended;
        self.begin_quiet();
        if ended {
            self.anomaly(
                AnomalyKind::AfterEnd,
                "event after the end of the stream".to_string(),
            );
        }
    }

    /// Start processing an event without the after-the-end check (protocols whose terminal
    /// marker may be followed by metadata events).
    pub fn begin_quiet(&mut self) {
        self.step = self.events;
        self.events += 1;
    }

    /// The updates of the current event.
    pub fn take_updates(&mut self) -> Vec<Update> {
        let mut u = std::mem::take(&mut self.updates);
        if u.is_empty() {
            u.push(Update::Meta);
        }
        u
    }

    /// Report an anomaly at the current step.
    pub fn anomaly(&mut self, kind: AnomalyKind, message: String) {
        let a = Anomaly {
            step: self.step,
            kind,
            message,
        };
        self.updates.push(Update::Anomaly(a.clone()));
        self.anomalies.push(a);
    }

    /// Report an anomaly once per stream.
    pub fn anomaly_once(&mut self, kind: AnomalyKind, message: String) {
        if !self.anomalies.iter().any(|a| a.kind.id() == kind.id()) {
            self.anomaly(kind, message);
        }
    }

    /// The payload as a JSON object. A payload that is not valid JSON but repairs (an event
    /// missing its last brace, as some recorders write them) is read as repaired and reported;
    /// otherwise the error is returned for [`Tracker::malformed`].
    pub fn read(&mut self, event: &Event) -> Result<serde_json::Map<String, Value>, String> {
        match object(event) {
            Ok(o) => Ok(o),
            Err(e) => {
                let repaired =
                    partial::repair(&event.data).and_then(|r| {
                        match serde_json::from_str::<Value>(&r.text) {
                            Ok(Value::Object(o)) => Some((o, r)),
                            _ => None,
                        }
                    });
                match repaired {
                    Some((o, r)) => {
                        self.anomaly(
                            AnomalyKind::Malformed,
                            format!(
                                "event is not valid JSON ({e}); read as repaired: {}",
                                r.summary()
                            ),
                        );
                        Ok(o)
                    }
                    None => Err(e),
                }
            }
        }
    }

    /// Report a payload that is not JSON.
    pub fn malformed(&mut self, error: &str) {
        self.anomaly(
            AnomalyKind::Malformed,
            format!("event is not a JSON object: {error}"),
        );
    }

    /// [`Tracker::read`], a payload that does not read reported as [`Tracker::malformed`]
    /// (`None` then: the assembler returns the updates so far).
    pub fn read_or_report(&mut self, event: &Event) -> Option<serde_json::Map<String, Value>> {
        match self.read(event) {
            Ok(o) => Some(o),
            Err(e) => {
                self.malformed(&e);
                None
            }
        }
    }

    /// Report an unknown event type (kept in the timeline, otherwise ignored).
    pub fn unknown(&mut self, what: &str) {
        self.anomaly(
            AnomalyKind::UnknownEvent,
            format!("unknown event {what:?}: kept, not assembled"),
        );
    }

    /// Append visible text.
    pub fn text(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        self.text.push_str(delta);
        self.updates.push(Update::Text {
            delta: delta.to_string(),
        });
    }

    /// A new text block begins (the text after it is not the previous block's continuation).
    pub fn text_block(&mut self) {
        let at = self.text.len();
        if at > 0 && self.text_breaks.last() != Some(&at) {
            self.text_breaks.push(at);
        }
    }

    /// Append reasoning text.
    pub fn reasoning(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        self.reasoning.push_str(delta);
        self.updates.push(Update::Reasoning {
            delta: delta.to_string(),
        });
    }

    /// Open a call; `None` when the stream already opened [`MAX_CALLS`].
    pub fn open_call(&mut self, id: Option<String>, name: &str) -> Option<usize> {
        if self.calls.len() >= MAX_CALLS {
            self.anomaly_once(
                AnomalyKind::OutOfOrder,
                format!("more than {MAX_CALLS} calls: the rest are ignored"),
            );
            return None;
        }
        self.calls.push(CallState {
            id: id.filter(|s| !s.is_empty()),
            name: name.to_string(),
            arguments: String::new(),
            started: self.step,
            closed: false,
        });
        let i = self.calls.len() - 1;
        self.updates.push(Update::CallStarted { call: i });
        Some(i)
    }

    /// Set a call's name if it has none (a repeated identical name is ignored; a different
    /// one is appended, as the SDK accumulators do with name fragments).
    pub fn name_call(&mut self, i: usize, name: &str) {
        if let Some(c) = self.calls.get_mut(i) {
            if name.is_empty() || c.name == name {
                return;
            }
            c.name.push_str(name);
        }
    }

    /// Append argument text to a call, noting arguments before the name and interleaving.
    pub fn append_args(&mut self, i: usize, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(c) = self.calls.get(i) else {
            return;
        };
        if c.name.is_empty() {
            self.anomaly(
                AnomalyKind::ArgumentsBeforeName,
                format!("argument text for call #{i} arrived before its name"),
            );
        }
        if let Some(prev) = self.last_args {
            let resumed = self.calls.get(i).is_some_and(|c| !c.arguments.is_empty());
            if prev != i && resumed && !self.interleave_reported {
                self.interleave_reported = true;
                self.anomaly(
                    AnomalyKind::Interleaved,
                    format!("fragments of call #{i} resumed after call #{prev}: calls interleave"),
                );
            }
        }
        self.last_args = Some(i);
        if let Some(c) = self.calls.get_mut(i) {
            c.arguments.push_str(delta);
        }
        self.updates.push(Update::Arguments {
            call: i,
            delta: delta.to_string(),
        });
    }

    /// Replace a call's argument text (protocols that send whole or final values).
    pub fn set_args(&mut self, i: usize, text: &str) {
        if let Some(c) = self.calls.get_mut(i) {
            if c.arguments == text {
                return;
            }
            c.arguments = text.to_string();
            self.updates.push(Update::Arguments {
                call: i,
                delta: text.to_string(),
            });
        }
    }

    /// Mark a call closed.
    pub fn close_call(&mut self, i: usize) {
        if let Some(c) = self.calls.get_mut(i) {
            c.closed = true;
        }
    }

    /// The terminal event.
    pub fn end(&mut self) {
        if !self.ended {
            self.ended = true;
            self.updates.push(Update::Ended);
        }
    }

    /// The state view.
    pub fn state(&self) -> State {
        State {
            calls: self
                .calls
                .iter()
                .map(|c| CallView {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    arguments: c.arguments.clone(),
                    partial: partial::parse_partial(&c.arguments),
                    closed: c.closed,
                })
                .collect(),
            text: self.text.clone(),
            text_breaks: self.text_breaks.clone(),
            reasoning: self.reasoning.clone(),
            stop_reason: self.stop_reason.clone(),
            ended: self.ended,
            anomalies: self.anomalies.clone(),
        }
    }

    /// End-of-stream anomalies: empty and invalid arguments, no terminal event.
    fn end_anomalies(&self) -> Vec<Anomaly> {
        let last = self.events.saturating_sub(1);
        let mut out = Vec::new();
        for (i, c) in self.calls.iter().enumerate() {
            let label = if c.name.is_empty() {
                format!("call #{i}")
            } else {
                format!("call #{i} ({})", c.name)
            };
            if c.arguments.trim().is_empty() {
                out.push(Anomaly {
                    step: last,
                    kind: AnomalyKind::EmptyArguments,
                    message: format!("{label} has no argument text: read as {{}}"),
                });
            } else if let Err(e) = serde_json::from_str::<Value>(&c.arguments) {
                let repair = partial::repair(&c.arguments);
                let offer = match &repair {
                    Some(r) => format!("; a repair is offered ({})", r.summary()),
                    None => String::new(),
                };
                out.push(Anomaly {
                    step: last,
                    kind: AnomalyKind::InvalidArguments {
                        line: e.line(),
                        column: e.column(),
                        repair,
                    },
                    message: format!(
                        "{label}: arguments are not valid JSON at line {}, column {}: {}{offer}",
                        e.line(),
                        e.column(),
                        strip_position(&e.to_string())
                    ),
                });
            }
        }
        if !self.ended {
            out.push(Anomaly {
                step: last,
                kind: AnomalyKind::Cut,
                message: format!(
                    "the stream stopped after {} events without its terminal event: \
                     showing what was assembled",
                    self.events
                ),
            });
        }
        out
    }
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg.get(..i).unwrap_or(msg).to_string(),
        None => msg.to_string(),
    }
}

/// The equivalent response as its format decoded it (`decoded`), with what the body cannot
/// carry patched in (invalid argument text of object-argument protocols) and end-of-stream
/// checks.
pub fn assemble(response: Value, decoded: Decoding, t: &Tracker, at_end: bool) -> Assembled {
    let mut anomalies = t.anomalies.clone();
    let (mut exchange, losses) = match decoded {
        Ok(d) => d,
        Err(e) => {
            anomalies.push(Anomaly {
                step: t.events.saturating_sub(1),
                kind: AnomalyKind::Undecodable,
                message: format!("the assembled response does not decode: {e}"),
            });
            (fallback(t), Vec::new())
        }
    };
    if t.object_arguments {
        // The body held `{}` for invalid argument text; put the text back with
        // `ToolCall::from_text` semantics (arguments null, raw text kept).
        if let Some(m) = exchange.messages.last_mut() {
            let mut k = 0;
            for p in &mut m.parts {
                if let Part::ToolCall(call) = p {
                    if let Some(c) = t.calls.get(k) {
                        if serde_json::from_str::<Value>(&c.arguments).is_err()
                            && !c.arguments.trim().is_empty()
                        {
                            call.set_arguments_text(&c.arguments);
                        }
                    }
                    k += 1;
                }
            }
        }
    }
    if at_end {
        anomalies.extend(t.end_anomalies());
    }
    Assembled {
        exchange,
        response,
        anomalies,
        losses,
        complete: t.ended,
    }
}

/// A message built from the tracker alone, when the response body does not decode.
fn fallback(t: &Tracker) -> Exchange {
    let mut parts = Vec::new();
    if !t.text.is_empty() {
        parts.push(Part::text(t.text.clone()));
    }
    for c in &t.calls {
        parts.push(Part::ToolCall(crate::model::ToolCall::from_text(
            c.id.clone(),
            c.name.clone(),
            &c.arguments,
        )));
    }
    Exchange {
        messages: vec![Message::new(Role::Assistant, parts)],
        ..Exchange::default()
    }
}

/// Arguments as the response body of an object-argument protocol carries them: the parsed
/// value, `{}` for empty text, `{}` for invalid text (patched back by [`assemble`]).
pub fn arguments_value(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::Object(Default::default()))
}

/// The payload of an event as a JSON object, or the reason it is not one.
pub fn object(event: &Event) -> Result<serde_json::Map<String, Value>, String> {
    match event.json() {
        Ok(Value::Object(o)) => Ok(o),
        Ok(other) => Err(format!("expected an object, found {}", kind_of(&other))),
        Err(e) => Err(e.to_string()),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Merge `delta` into `acc` the way the SDK accumulators do: strings and numbers add up,
/// objects merge, anything else replaces; `null` never overwrites. Bounded by `depth`.
pub fn accumulate(acc: &mut Value, delta: &Value, depth: usize) {
    match (acc, delta) {
        (_, Value::Null) => {}
        (Value::String(a), Value::String(d)) => a.push_str(d),
        (Value::Object(a), Value::Object(d)) if depth > 0 => {
            for (k, v) in d {
                match a.get_mut(k) {
                    Some(slot) if !slot.is_null() => accumulate(slot, v, depth - 1),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (a, d) => *a = d.clone(),
    }
}

/// True when an event object's `type` is one of `types`.
pub fn type_in(event: Option<&serde_json::Map<String, Value>>, types: &[&str]) -> bool {
    event
        .and_then(|o| o.get("type"))
        .and_then(Value::as_str)
        .is_some_and(|t| types.contains(&t))
}

/// `u64` field of an object.
pub fn get_u64(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// String field of an object.
pub fn get_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Cut text into pieces of `n` characters (what synthesised streams send per event).
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

/// A JSON object's fields (empty for anything else), to build events from.
pub fn fields(v: &Value) -> serde_json::Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}
