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

use serde_json::Value;

pub use super::cohere::Cohere;
pub use super::deepseek::DeepSeek;
pub use super::mistral::Mistral;
pub use super::ollama::Ollama;

/// True when some tool is `{"function": {…}}` without `type`: the Mistral SDK and docs spell
/// tools so (Cohere and Ollama accept it too; OpenAI does not).
pub(crate) fn untyped_tools(v: &Value) -> bool {
    v.get("tools").and_then(Value::as_array).is_some_and(|ts| {
        ts.iter()
            .any(|t| t.get("type").is_none() && t.get("function").is_some_and(Value::is_object))
    })
}

/// The messages of a request, if any.
pub(crate) fn messages(v: &Value) -> impl Iterator<Item = &Value> {
    v.get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The messages of a Chat Completions response's choices.
pub(crate) fn choice_messages(v: &Value) -> impl Iterator<Item = &Value> {
    v.get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("message"))
}
