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

use super::wire::Fields;
use crate::formats::sniff::Node;
use crate::formats::DecodeError;
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
