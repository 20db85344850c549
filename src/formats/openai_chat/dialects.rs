//! The OpenAI-compatible dialects: small variations of the Chat Completions codec, each a
//! [`Codec`](crate::formats::Codec) of its own and a [`Profile`](super::profile::Profile) (what
//! it does otherwise than OpenAI) in a file of its own; this module names them and holds what
//! their detection shares.
//!
//! - [`DeepSeek`] (`deepseek`): see [`super::deepseek`].
//! - [`Mistral`] (`mistral`): see [`super::mistral`].
//! - [`Cohere`] (`cohere`): Chat API v2, see [`super::cohere`].
//! - [`Ollama`] (`ollama`): native `/api/chat`, see [`super::ollama`].
//!
//! Tools written `{"function": {…}}` without `"type": "function"` (as the Mistral docs do;
//! the `mistralai`, `cohere` and `ollama` SDKs default the type) are function tools in every
//! dialect. Mistral, Cohere and Ollama keep that spelling on the way back (a form marker);
//! OpenAI and DeepSeek, whose APIs require the type, read them with a reported rewrite and send
//! the type.
//!
//! Detection: a dialect document that carries no dialect marker is byte-identical to an
//! OpenAI one and is detected as `openai-chat` (scores never exceed openai-chat's 95 on a
//! plain OpenAI document).
//!
//! [`Dialect`] is a dialect as a value: a profile and how its documents are recognised, with
//! the conversions, the text in and out and stream assembly. The dialects that speak the wire
//! types unchanged go through it, and a dialect the registry does not list (a test's) is
//! declared the same way: a profile, its [`FromSpec`](super::profile::FromSpec) naming its
//! provider row, and one `Dialect` value.

use super::profile::Profile;
use super::stream::ChatAssembler;
use super::wire::{self, Fields};
use crate::formats::sniff::{self, Node};
use crate::formats::spec::Streams;
use crate::formats::{json, limits, DecodeError, Decoding, Encoded, Encoding, Kind, Protocol};
use crate::model::Exchange;
use crate::providers::Row;
use crate::stream::{Assembled, Assembler, Event};
use serde_json::Value;

pub use super::cohere::Cohere;
pub use super::deepseek::DeepSeek;
pub use super::mistral::Mistral;
pub use super::ollama::Ollama;

/// True when some tool is `{"function": {…}}` without `type`: the Mistral SDK and docs spell
/// tools so (Cohere and Ollama accept it too; OpenAI does not).
pub(crate) fn untyped_tools(v: &Node) -> bool {
    v.get("tools").and_then(Node::as_array).is_some_and(|ts| {
        ts.iter()
            .any(|t| t.get("type").is_none() && t.get("function").is_some_and(Node::is_object))
    })
}

/// The messages of a request, if any.
pub(crate) fn messages<'v, 'a>(v: &'v Node<'a>) -> impl Iterator<Item = &'v Node<'a>> {
    v.get("messages")
        .and_then(Node::as_array)
        .into_iter()
        .flatten()
}

/// The messages of a Chat Completions response's choices.
pub(crate) fn choice_messages<'v, 'a>(v: &'v Node<'a>) -> impl Iterator<Item = &'v Node<'a>> {
    v.get("choices")
        .and_then(Node::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("message"))
}

/// Moves a sampling setting a dialect keeps under its own key (Cohere's `p`, Ollama's
/// `options.num_predict`, …) into the canonical `slot`, when the slot is unset and the value
/// reads: what a decoded request's kept fields say back.
pub(crate) fn lift<T>(
    slot: &mut Option<T>,
    fields: &mut Fields,
    key: &str,
    read: fn(&Value) -> Option<T>,
) {
    if slot.is_none() {
        if let Some(v) = fields.get(key).and_then(read) {
            *slot = Some(v);
            fields.remove(key);
        }
    }
}

/// [`lift`] for the stop sequences: a non-empty array of strings under `key`.
pub(crate) fn lift_stop(stop: &mut Vec<String>, fields: &mut Fields, key: &str) {
    if stop.is_empty() {
        let lifted: Option<Vec<String>> = fields
            .get(key)
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
            .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect());
        if let Some(lifted) = lifted {
            *stop = lifted;
            fields.remove(key);
        }
    }
}

/// Takes `key` out of dialect `id`'s response object: absent, or a string (anything else is
/// the error at `/key`).
pub(crate) fn take_str(
    id: &'static str,
    top: &mut Fields,
    key: &str,
) -> Result<Option<String>, DecodeError> {
    match top.remove(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(DecodeError::at(
            id,
            format!("/{key}"),
            format!("{key} is a string"),
        )),
    }
}

/// A Chat Completions dialect as one value: its profile (what its API does otherwise than
/// OpenAI's, and the provider row it speaks for) and how its documents are recognised.
pub struct Dialect<P: Profile + 'static> {
    /// What the API does otherwise than OpenAI's.
    pub profile: &'static P,
    /// How likely a parsed document is a request or response of this dialect, 0 (no) to 100.
    pub sniff: fn(&Node) -> Option<(Kind, u8)>,
}

impl<P: Profile + 'static> Clone for Dialect<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Profile + 'static> Copy for Dialect<P> {}

impl<P: Profile + 'static> Dialect<P> {
    /// The dialect of `profile`, recognised by `sniff`.
    pub const fn new(profile: &'static P, sniff: fn(&Node) -> Option<(Kind, u8)>) -> Self {
        Dialect { profile, sniff }
    }

    /// Format id: the key of the dialect's fields in `extra` maps.
    pub fn id(&self) -> &'static str {
        self.profile.id()
    }

    /// The provider the dialect speaks for.
    pub fn row(&self) -> &'static Row {
        self.profile.row()
    }

    /// Model → request body.
    pub fn encode_request(&self, x: &Exchange) -> Encoding<wire::Request> {
        super::convert::encode_request(x, self.profile)
    }

    /// Request body → model.
    pub fn decode_request(&self, doc: wire::Request) -> Decoding {
        super::convert::decode_request(doc, self.profile)
    }

    /// The exchange's last assistant message → response body.
    pub fn encode_response(&self, x: &Exchange) -> Encoding<wire::Response> {
        super::convert::encode_response(x, self.profile)
    }

    /// Response body → an exchange holding the one assistant message.
    pub fn decode_response(&self, doc: wire::Response) -> Decoding {
        super::convert::decode_response(doc, self.profile)
    }

    /// Model → the request or response document as text.
    pub fn write(&self, x: &Exchange, kind: Kind) -> Encoded {
        let (text, losses) = match kind {
            Kind::Request => {
                let (doc, losses) = self.encode_request(x);
                (json::pretty(&doc), losses)
            }
            Kind::Response => {
                let (doc, losses) = self.encode_response(x);
                (json::pretty(&doc), losses)
            }
        };
        Encoded { text, losses }
    }

    /// A request or response document's text → model; errors point into the text. Text or
    /// an exchange over the limits is refused, as [`Format::decode`](crate::formats::Format)
    /// refuses it.
    pub fn read(&self, text: &str, kind: Kind) -> Decoding {
        limits::check_size(Some(self.id()), text)?;
        let decoded = match kind {
            Kind::Request => json::parse(self.id(), text).and_then(|d| self.decode_request(d)),
            Kind::Response => json::parse(self.id(), text).and_then(|d| self.decode_response(d)),
        };
        decoded
            .and_then(|(x, losses)| limits::check_counts(self.id(), &x).map(|()| (x, losses)))
            .map_err(|e| json::locate_error(e, text))
    }

    /// How likely `text` is a request or response of this dialect (`None` when it is not
    /// JSON, or not the dialect's).
    pub fn sniff_text(&self, text: &str) -> Option<(Kind, u8)> {
        (self.sniff)(&sniff::parse(text, json::MAX_DEPTH)?)
    }

    /// The Chat chunks (JSON values, then `[DONE]`) that stream the response body
    /// `response`, with text and argument fragments of `n` characters.
    pub fn stream(&self, response: &Value, n: usize) -> Vec<Value> {
        <super::Codec as Streams>::synthesize(response, n)
    }

    /// Streamed Chat chunks → the response they carry, read by this dialect, with what the
    /// stream did wrong (cut, malformed, after the end).
    pub fn assemble(&self, events: &[Event]) -> Assembled {
        let mut a = ChatAssembler::new(Protocol::OpenAiChat);
        for e in events {
            a.push(e);
        }
        let response = a.response();
        let decoded = match json::from_value::<wire::Response>(response.clone()) {
            Some(doc) => self.decode_response(doc).map_err(|e| e.to_string()),
            None => self
                .read(&response.to_string(), Kind::Response)
                .map_err(|e| e.to_string()),
        };
        crate::stream::assemble(response, decoded, a.tracker(), true)
    }
}
