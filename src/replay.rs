//! The replay driver: load any input (SSE text as captured, one JSON event per line, a HAR
//! export, a plain non-streamed response), detect or take the protocol, run its assembler
//! and answer "what was the state after step n" for a timeline with seek. It sits above
//! `stream` (framing, the assembler trait) and `formats` (the assemblers, detection of a
//! plain response).
//!
//! Seeking is cheap recomputation: the driver keeps checkpoints (clones of the assembler) and
//! replays from the nearest one. A checkpoint is taken when the input consumed since the last
//! one is at least as large as the state being cloned, so checkpoints never hold more memory
//! than the input itself and a seek replays at most about as many bytes as it clones.

use crate::formats::{read_any, Assemblers, DecodeError, Format, Kind, Protocol};
use crate::model::Exchange;
use crate::stream::har::{self, HarError};
use crate::stream::{
    ndjson, sse, Anomaly, Assembled, Assembler, Decoding, Event, State, Tracker, Update,
};
use serde_json::Value;
use std::fmt;

/// Largest input accepted, in bytes.
pub const MAX_INPUT: usize = 64 * 1024 * 1024;
/// Most events accepted in one replay: 20 times a long real stream (10,000 events load in
/// well under a second), so a replay never freezes the page for long.
pub const MAX_EVENTS: usize = 200_000;

/// Why an input cannot be replayed.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError {
    /// Over [`MAX_INPUT`] bytes or [`MAX_EVENTS`] events.
    TooLarge {
        /// What is too large (`bytes`, `events`).
        what: &'static str,
        /// How many there are.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// Nothing to replay.
    Empty,
    /// The protocol could not be recognised from the events.
    Undetected {
        /// The first event's label, for the message.
        first: String,
    },
    /// A document of a format that does not stream (the legacy XML).
    NotStreaming {
        /// The format id.
        format: &'static str,
    },
    /// A plain response that does not decode.
    Decode(DecodeError),
    /// A HAR file that cannot be used.
    Har(HarError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::TooLarge { what, found, limit } => {
                write!(f, "input too large: {found} {what}, the limit is {limit}")
            }
            ReplayError::Empty => f.write_str("no events: the input is empty"),
            ReplayError::Undetected { first } => write!(
                f,
                "cannot tell the protocol from the events (first event: {first}); \
                 name it with --format"
            ),
            ReplayError::NotStreaming { format } => {
                write!(f, "{format} has no streaming protocol to replay")
            }
            ReplayError::Decode(e) => write!(f, "{e}"),
            ReplayError::Har(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// How the input was framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `data:` lines.
    Sse,
    /// One JSON event per line.
    JsonLines,
    /// A plain non-streamed response: one step.
    Response,
}

/// Any protocol's assembler, or a whole response, as one type the driver can clone and store.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum AnyAssembler {
    /// A stream, assembled by its protocol's assembler.
    Stream(Assemblers),
    /// A plain response, decoded whole in one step.
    Whole(WholeResponse),
}

macro_rules! each {
    ($self:expr, $a:ident => $body:expr) => {
        match $self {
            AnyAssembler::Stream($a) => $body,
            AnyAssembler::Whole($a) => $body,
        }
    };
}

impl AnyAssembler {
    /// A fresh assembler for a protocol.
    pub fn new(p: Protocol) -> Self {
        AnyAssembler::Stream(Assemblers::new(p))
    }

    /// The protocol assembled.
    pub fn protocol(&self) -> Protocol {
        match self {
            AnyAssembler::Stream(a) => a.protocol(),
            AnyAssembler::Whole(a) => a.protocol,
        }
    }
}

impl Assembler for AnyAssembler {
    fn push(&mut self, event: &Event) -> Vec<Update> {
        each!(self, a => a.push(event))
    }
    fn tracker(&self) -> &Tracker {
        each!(self, a => a.tracker())
    }
    fn response(&self) -> Value {
        each!(self, a => a.response())
    }
    fn decode(&self, response: &Value) -> Decoding {
        each!(self, a => a.decode(response))
    }
    fn state(&self) -> State {
        each!(self, a => a.state())
    }
    fn message_so_far(&self) -> Assembled {
        each!(self, a => a.message_so_far())
    }
    fn finish(self) -> Assembled {
        each!(self, a => a.finish())
    }
}

/// A non-streamed response replayed as one step: decoded by its format.
#[derive(Debug, Clone, PartialEq)]
pub struct WholeResponse {
    protocol: Protocol,
    t: Tracker,
    doc: Value,
}

impl WholeResponse {
    /// An assembler that takes one whole response of this protocol's format.
    pub fn new(protocol: Protocol) -> Self {
        WholeResponse {
            protocol,
            t: Tracker::new(false),
            doc: Value::Null,
        }
    }
}

impl Assembler for WholeResponse {
    fn tracker(&self) -> &Tracker {
        &self.t
    }
    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin();
        match event.json() {
            Ok(v) => {
                self.doc = v;
                let decoded = self.protocol.decode_response(&self.doc);
                let x = crate::stream::assemble(self.doc.clone(), decoded, &self.t, false);
                if let Some(m) = x.exchange.messages.last() {
                    for p in &m.parts {
                        match p {
                            crate::model::Part::Text { text, .. } => self.t.text(text),
                            crate::model::Part::ToolCall(c) => {
                                if let Some(i) = self.t.open_call(c.id.clone(), &c.name) {
                                    self.t.set_args(i, &c.arguments_text());
                                    self.t.close_call(i);
                                }
                            }
                            _ => {}
                        }
                    }
                    self.t.stop_reason = m
                        .stop_reason
                        .as_ref()
                        .and_then(|r| serde_json::to_value(r).ok())
                        .and_then(|v| v.as_str().map(str::to_string));
                }
                self.t.end();
            }
            Err(e) => self.t.malformed(&e.to_string()),
        }
        self.t.take_updates()
    }
    fn response(&self) -> Value {
        self.doc.clone()
    }
    fn decode(&self, response: &Value) -> Decoding {
        self.protocol.decode_response(response)
    }
}

/// Guess the protocol of a stream from its first events.
pub fn detect(events: &[Event]) -> Option<Protocol> {
    events
        .iter()
        .take(32)
        .find_map(detect_event)
        .map(|p| p.dialect(events))
}

/// The protocol one event belongs to, when it says.
pub fn detect_event(e: &Event) -> Option<Protocol> {
    let v = e.json().ok();
    Protocol::claiming(e.name.as_deref(), v.as_ref().and_then(Value::as_object))
}

/// A loaded replay: the events, the protocol, checkpoints for seeking, the final result.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The protocol assembled.
    pub protocol: Protocol,
    /// How the input was framed.
    pub framing: Framing,
    /// The events, in order.
    pub events: Vec<Event>,
    /// One label per event (its type), for the timeline.
    pub labels: Vec<String>,
    /// The conversation of the request, when the input was a HAR entry.
    pub request: Option<Exchange>,
    /// When each event arrived (ms after the request), for a recording that kept it (a live
    /// run's HAR); empty otherwise, or when the counts disagree.
    pub times: Vec<f64>,
    /// The assembled result at the end.
    pub assembled: Assembled,
    checkpoints: Vec<(usize, AnyAssembler)>,
}

/// The state after one step, for the replay view.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Step (0-based event index).
    pub step: usize,
    /// The event of this step.
    pub event: Event,
    /// Its label.
    pub label: String,
    /// What the event changed.
    pub updates: Vec<Update>,
    /// The assembler state after it.
    pub state: State,
    /// The message so far, decoded.
    pub so_far: Assembled,
    /// Which document of the protocol's format it is ([`Protocol::kind_of`]).
    pub kind: Kind,
}

impl Snapshot {
    /// The turn assembled so far as `format`'s response body. A response must state why the
    /// model stopped, so an encoder derives a stop reason the stream has not sent yet; until
    /// the stream sends one, that field is shown as `null` instead of the derived guess.
    pub fn so_far_as(&self, format: Format) -> String {
        if self.kind == Kind::Request {
            // A transcript (MCP) is a conversation, not a turn: no stop reason to hold back.
            return format.encode(&self.so_far.exchange, Kind::Request).text;
        }
        render_so_far(
            format,
            &self.so_far.exchange,
            self.state.stop_reason.is_some(),
        )
    }
}

/// [`Snapshot::so_far_as`] of an exchange: `stop_sent` says whether the stream sent its stop
/// reason.
pub fn render_so_far(format: Format, x: &Exchange, stop_sent: bool) -> String {
    let enc = format.encode(x, Kind::Response);
    if stop_sent || format.is_text() {
        return enc.text;
    }
    let derived: Vec<&str> = enc
        .losses
        .iter()
        .filter(|l| l.kind == crate::model::LossKind::Added && l.pointer.ends_with("/stop_reason"))
        .filter_map(|l| l.target.as_deref())
        .collect();
    if derived.is_empty() {
        return enc.text;
    }
    let Ok(mut doc) = serde_json::from_str::<Value>(&enc.text) else {
        return enc.text;
    };
    for at in derived {
        if let Some(slot) = doc.pointer_mut(at) {
            *slot = Value::Null;
        }
    }
    crate::formats::json::pretty(&doc)
}

/// What to load.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadOptions {
    /// Use this protocol instead of detecting it.
    pub protocol: Option<Protocol>,
    /// For a HAR file, which entry (index into [`har::entries`]); default: the last
    /// streamed one.
    pub har_entry: Option<usize>,
}

impl Replay {
    /// Load any input: SSE, JSON lines, a HAR file, or a plain response.
    pub fn load(text: &str, opts: LoadOptions) -> Result<Replay, ReplayError> {
        Replay::load_in(text, opts, None)
    }

    /// [`Replay::load`] of a text that is the body of HAR entry `in_har`, if it is one: a HAR
    /// inside a HAR is refused, so loading never recurses more than once.
    fn load_in(
        text: &str,
        opts: LoadOptions,
        in_har: Option<usize>,
    ) -> Result<Replay, ReplayError> {
        if text.len() > MAX_INPUT {
            return Err(ReplayError::TooLarge {
                what: "bytes",
                found: text.len(),
                limit: MAX_INPUT,
            });
        }
        let trimmed = text.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty() {
            return Err(ReplayError::Empty);
        }
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if har::is_har(&v) {
                return match in_har {
                    Some(index) => Err(ReplayError::Har(HarError::Nested { index })),
                    None => Replay::load_har(&v, opts),
                };
            }
            // A JSON array of messages of a protocol whose stream is a transcript (MCP):
            // its events, one per message.
            if let Some(events) = transcript_events(&v) {
                return Replay::load_events(events, Framing::JsonLines, opts.protocol);
            }
            // One JSON document: a single stream event, or a non-streamed response.
            let event = Event::data(trimmed);
            if let Some(p) = detect_event(&event).filter(|_| !looks_like_response(&v)) {
                let p = opts.protocol.unwrap_or(p);
                return Ok(Replay::from_events(vec![event], p, Framing::JsonLines));
            }
            return Replay::load_response(trimmed, opts.protocol);
        }
        let (events, framing) = if sse::looks_like_sse(text) {
            (sse::frame(text), Framing::Sse)
        } else {
            (ndjson::frame(text), Framing::JsonLines)
        };
        Replay::load_events(events, framing, opts.protocol)
    }

    /// Replay framed events, detecting the protocol unless given.
    pub fn load_events(
        events: Vec<Event>,
        framing: Framing,
        protocol: Option<Protocol>,
    ) -> Result<Replay, ReplayError> {
        if events.is_empty() {
            return Err(ReplayError::Empty);
        }
        if events.len() > MAX_EVENTS {
            return Err(ReplayError::TooLarge {
                what: "events",
                found: events.len(),
                limit: MAX_EVENTS,
            });
        }
        let protocol = match protocol.or_else(|| detect(&events)) {
            Some(p) => p,
            None => {
                return Err(ReplayError::Undetected {
                    first: events.first().map(Event::label).unwrap_or_default(),
                })
            }
        };
        Ok(Replay::from_events(events, protocol, framing))
    }

    fn load_response(text: &str, protocol: Option<Protocol>) -> Result<Replay, ReplayError> {
        let format = match protocol {
            Some(p) => p.format(),
            None => {
                let (format, _) = Format::detect(text).map_err(ReplayError::Decode)?;
                format
            }
        };
        let Some(p) = Protocol::of_format(format) else {
            return Err(ReplayError::NotStreaming {
                format: format.id(),
            });
        };
        // Make sure it decodes as a response before calling it one.
        format
            .decode(text, Kind::Response)
            .map_err(ReplayError::Decode)?;
        let events = vec![Event::data(text)];
        let mut a = AnyAssembler::Whole(WholeResponse::new(p));
        let fresh = a.clone();
        a.push(&events[0]);
        let labels = vec!["response".to_string()];
        Ok(Replay {
            protocol: p,
            framing: Framing::Response,
            labels,
            request: None,
            times: Vec::new(),
            assembled: a.finish(),
            checkpoints: vec![(0, fresh)],
            events,
        })
    }

    fn load_har(v: &Value, opts: LoadOptions) -> Result<Replay, ReplayError> {
        let entries = har::entries(v).map_err(ReplayError::Har)?;
        let index = match opts.har_entry {
            Some(i) => i,
            None => har::pick(&entries).ok_or(ReplayError::Har(HarError::NoExchange))?,
        };
        let Some(entry) = entries.get(index) else {
            return Err(ReplayError::Har(HarError::NoEntry {
                index,
                count: entries.len(),
            }));
        };
        let Some(body) = entry.response_text.as_deref() else {
            return Err(ReplayError::Har(HarError::NoResponseBody { index }));
        };
        let mut replay = Replay::load_in(
            body,
            LoadOptions {
                protocol: opts.protocol,
                har_entry: None,
            },
            Some(index),
        )?;
        if entry.event_times.len() == replay.events.len() {
            replay.times = entry.event_times.clone();
        }
        replay.request = entry
            .request_body
            .as_deref()
            .and_then(|b| read_any(b).ok())
            .map(|(d, _)| d.exchange);
        Ok(replay)
    }

    /// Run an assembler over the events, keeping checkpoints.
    pub fn from_events(events: Vec<Event>, protocol: Protocol, framing: Framing) -> Replay {
        let mut a = AnyAssembler::new(protocol);
        let mut checkpoints = vec![(0usize, a.clone())];
        let mut since = 0usize;
        let mut steps_since = 0usize;
        let mut labels = Vec::with_capacity(events.len());
        for (i, e) in events.iter().enumerate() {
            labels.push(e.label());
            a.push(e);
            since += e.data.len();
            steps_since += 1;
            if steps_since >= 16 && since >= state_bytes(a.tracker()) {
                checkpoints.push((i + 1, a.clone()));
                since = 0;
                steps_since = 0;
            }
        }
        Replay {
            protocol,
            framing,
            labels,
            request: None,
            times: Vec::new(),
            assembled: a.finish(),
            checkpoints,
            events,
        }
    }

    /// Number of steps (events).
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// True when there are no events (never, for a loaded replay).
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The assembler after `n` events (0 = fresh), replayed from the nearest checkpoint.
    pub fn assembler_after(&self, n: usize) -> AnyAssembler {
        let n = n.min(self.events.len());
        let at = self.checkpoints.partition_point(|(k, _)| *k <= n);
        let (k, base) = match at.checked_sub(1).and_then(|i| self.checkpoints.get(i)) {
            Some((k, a)) => (*k, a.clone()),
            None => (0, AnyAssembler::new(self.protocol)),
        };
        let mut a = base;
        for e in self.events.get(k..n).unwrap_or(&[]) {
            a.push(e);
        }
        a
    }

    /// The state after step `step` (0-based; clamped to the last step).
    pub fn snapshot(&self, step: usize) -> Option<Snapshot> {
        let step = step.min(self.events.len().checked_sub(1)?);
        let mut a = self.assembler_after(step);
        let event = self.events.get(step)?.clone();
        let updates = a.push(&event);
        Some(Snapshot {
            step,
            label: self.labels.get(step).cloned().unwrap_or_default(),
            event,
            updates,
            state: a.state(),
            so_far: a.message_so_far(),
            kind: Kind::Response,
        })
        .map(|mut s| {
            s.kind = self.protocol.kind_of(&s.so_far.response);
            s
        })
    }

    /// Call `f` with each step's event and the state after it, in order (one pass).
    pub fn walk(&self, mut f: impl FnMut(usize, &Event, &State)) {
        let mut a = self.assembler_after(0);
        for (i, e) in self.events.iter().enumerate() {
            a.push(e);
            f(i, e, &a.state());
        }
    }

    /// Every anomaly of the replay, in step order.
    pub fn anomalies(&self) -> &[Anomaly] {
        &self.assembled.anomalies
    }
}

/// Rough size of an assembler's state, for spacing checkpoints.
fn state_bytes(t: &Tracker) -> usize {
    256 + t.text.len()
        + t.reasoning.len()
        + t.calls
            .iter()
            .map(|c| 64 + c.arguments.len() + c.name.len())
            .sum::<usize>()
}

/// A whole non-streamed response rather than a chunk (`chat.completion`, an Anthropic
/// `message`, …; the last line of an Ollama stream looks alike, but a single line is a
/// response): each streaming format says what its whole response looks like.
fn looks_like_response(v: &Value) -> bool {
    v.as_object().is_some_and(Protocol::is_whole_response)
}

/// The events of a pasted transcript: a JSON array whose every item is an event of one
/// protocol that reads the whole array as a conversation (an MCP transcript with results).
fn transcript_events(v: &Value) -> Option<Vec<Event>> {
    let items = v.as_array()?;
    let p = Protocol::claiming(None, items.first()?.as_object())?;
    let all = items
        .iter()
        .all(|m| Protocol::claiming(None, m.as_object()) == Some(p));
    if !all || p.kind_of(v) != Kind::Request {
        return None;
    }
    Some(
        items
            .iter()
            .map(|m| Event::data(serde_json::to_string(m).unwrap_or_default()))
            .collect(),
    )
}
