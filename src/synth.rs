//! The reverse of assembling: the stream each protocol would send for an exchange's last
//! assistant turn. The turn is first encoded as the protocol's non-streamed response (so ids,
//! names and losses are exactly the encoder's), then cut into that protocol's events the way
//! the provider streams it (each format's `Streams::synthesize`, in its `stream.rs`: Chat
//! chunks with argument fragments by `index`, Anthropic content blocks with
//! `input_json_delta`s, Gemini chunks with whole calls, …).

use crate::formats::{Kind, Protocol};
use crate::model::{Exchange, Loss};
use crate::stream::{ndjson, sse, Event};
use serde_json::Value;

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

/// Why the stream of `x`'s last turn carries nothing: a stream is the model's answer, and the
/// conversation must end on an assistant turn for there to be one. `None` when it does.
pub fn why_empty(x: &Exchange) -> Option<String> {
    use crate::model::Role;
    let last = match x.messages.last() {
        None => return Some("No stream: the conversation has no messages yet.".into()),
        Some(m) => m,
    };
    let whose = match last.role {
        Role::Assistant => return None,
        Role::User => "a user message",
        Role::Tool => "a tool result",
    };
    Some(format!(
        "No answer to stream: the conversation ends on {whose}, and a stream carries only the \
         model's turn. Add an assistant message (or get one from Live) to see it streamed."
    ))
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
    let values = protocol.events_of(&doc, n);
    let named = protocol.named_events();
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

pub use crate::stream::fragments;

/// For the assemblers' tests: the typed fast path and the general path (`set_fast(false)` around
/// its pushes) give the same updates and the same assembler after every event, over the streams
/// of every example exchange (text, parallel calls, arguments in fragments), whole and cut into
/// small fragments.
#[cfg(test)]
pub(crate) fn check_fast_path<A: crate::stream::Assembler + PartialEq + std::fmt::Debug>(
    protocols: &[crate::formats::Protocol],
    new: impl Fn(crate::formats::Protocol) -> A,
    set_fast: impl Fn(bool),
) {
    let mut streams = 0;
    for e in crate::examples::EXAMPLES {
        let Ok((d, _)) = crate::formats::read_any(e.source) else {
            continue;
        };
        for &p in protocols {
            for fragment in [3, 40] {
                let events = crate::synth::synthesize_with(&d.exchange, p, fragment).events;
                let (mut fast, mut general) = (new(p), new(p));
                for ev in &events {
                    let a = fast.push(ev);
                    set_fast(false);
                    let b = general.push(ev);
                    set_fast(true);
                    assert_eq!(a, b, "{}: {:?}", e.id, ev.data);
                    assert_eq!(fast, general, "{}: {:?}", e.id, ev.data);
                }
                streams += 1;
            }
        }
    }
    assert!(streams > 10, "{streams}");
}
