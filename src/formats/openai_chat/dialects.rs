//! The OpenAI-compatible dialects: small variations of the Chat Completions codec, each a
//! [`Codec`](crate::formats::Codec) of its own.
//!
//! - [`DeepSeek`] (`deepseek`): <https://api-docs.deepseek.com/api/create-chat-completion>.
//!   Wire-identical to OpenAI but for `reasoning_content` on assistant messages (kept as a
//!   message field), no `parallel_tool_calls` (dropped, reported), `strict` honoured only on
//!   the beta endpoint (kept, reported), `max_tokens` as the token limit, tool_choice
//!   `none`/`auto`/`required`/named (no `allowed_tools`: a restriction to several tools is
//!   reported).
//! - [`Mistral`] (`mistral`): <https://docs.mistral.ai/api/#tag/chat>, the `mistralai` SDK.
//!   Call ids are exactly 9 alphanumerics (rewritten consistently in calls and results,
//!   reported); tool messages carry `name` (taken from the call when the model has none,
//!   reported); tool_choice `auto`/`none`/`any`/`required`/named (`any` is sent for required);
//!   `random_seed`, `safe_prompt`, `prompt_mode` are kept fields; finish reasons `stop`,
//!   `length`, `model_length`, `error`, `tool_calls`; arguments may arrive as a JSON object
//!   (read, and sent back so).
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

use super::convert::{self, Dialect};
use super::wire;
use crate::formats::{DecodeError, Kind};
use crate::model::{Exchange, Loss};
use serde_json::Value;

pub use super::cohere::Cohere;
pub use super::ollama::Ollama;

/// DeepSeek Chat Completions.
pub struct DeepSeek;

impl crate::formats::Codec for DeepSeek {
    const ID: &'static str = "deepseek";
    type Request = wire::Request;
    type Response = wire::Response;

    fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
        convert::encode_request(x, Dialect::DeepSeek)
    }

    fn decode_request(doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_request(doc, Dialect::DeepSeek)
    }

    fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
        convert::encode_response(x, Dialect::DeepSeek)
    }

    fn decode_response(doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_response(doc, Dialect::DeepSeek)
    }

    fn sniff(v: &Value) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        let model = o
            .get("model")
            .and_then(Value::as_str)
            .is_some_and(|m| m.starts_with("deepseek"));
        if o.contains_key("choices") {
            let reasoning = choice_messages(v).any(|m| m.get("reasoning_content").is_some());
            return (model || reasoning).then_some((Kind::Response, 97));
        }
        let reasoning = messages(v).any(|m| m.get("reasoning_content").is_some());
        (model || reasoning).then_some((Kind::Request, 97))
    }
}

/// Mistral Chat Completions.
pub struct Mistral;

impl crate::formats::Codec for Mistral {
    const ID: &'static str = "mistral";
    type Request = wire::Request;
    type Response = wire::Response;

    fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
        convert::encode_request(x, Dialect::Mistral)
    }

    fn decode_request(doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_request(doc, Dialect::Mistral)
    }

    fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
        convert::encode_response(x, Dialect::Mistral)
    }

    fn decode_response(doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_response(doc, Dialect::Mistral)
    }

    fn sniff(v: &Value) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        const MODELS: [&str; 6] = [
            "mistral",
            "magistral",
            "codestral",
            "ministral",
            "pixtral",
            "devstral",
        ];
        let model = o
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
            .is_some_and(|m| MODELS.iter().any(|name| m.contains(name)));
        if o.contains_key("choices") {
            return model.then_some((Kind::Response, 97));
        }
        o.get("messages")?;
        let marker = model
            || o.get("tool_choice").and_then(Value::as_str) == Some("any")
            || o.contains_key("random_seed")
            || o.contains_key("safe_prompt")
            || untyped_tools(v);
        marker.then_some((Kind::Request, 97))
    }
}

/// True when some tool is `{"function": {…}}` without `type`: the Mistral SDK and docs spell
/// tools so (Cohere and Ollama accept it too; OpenAI does not).
fn untyped_tools(v: &Value) -> bool {
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
fn choice_messages(v: &Value) -> impl Iterator<Item = &Value> {
    v.get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("message"))
}

/// `v` as a `T`; a shape error points at the element (under `prefix`, where `v` sits in the
/// document).
pub(crate) fn from_value<T: serde::de::DeserializeOwned>(
    id: &'static str,
    v: Value,
    prefix: &str,
) -> Result<T, DecodeError> {
    crate::formats::json::typed(v)
        .map_err(|(pointer, message)| DecodeError::at(id, format!("{prefix}{pointer}"), message))
}
