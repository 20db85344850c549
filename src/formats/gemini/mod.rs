//! Google Gemini `generateContent` (Gemini API and Vertex AI), request and response bodies.
//!
//! Spec: <https://ai.google.dev/api/generate-content>,
//! <https://ai.google.dev/gemini-api/docs/function-calling>, the `Schema` subset at
//! <https://ai.google.dev/api/caching#Schema>; the wire shape follows the `google-genai` SDK
//! types (`Content`, `Part`, `FunctionCall`, `FunctionResponse`, `Tool`, `FunctionDeclaration`,
//! `ToolConfig`, `GenerationConfig`, `GenerateContentResponse`), camelCase as the SDK sends it.
//! snake_case field names (used by the docs' curl examples, accepted by the API) are read too.
//!
//! Shape: `contents` alternate `user` and `model` turns; the model's `functionCall` parts are
//! answered by `functionResponse` parts in the next user content (tool results and the user
//! message after them travel together, results first, and are split again on the way in).
//! Calls pair with results by optional `id`, else by order and `name`.
//!
//! What is lossy:
//! - the model name lives in the URL, not the body (dropped in requests);
//! - no `strict` flag, no parallel-calls switch, no tool annotations;
//! - `allowedFunctionNames` only with `ANY`/`VALIDATED` (a restriction of `AUTO`/`NONE` drops);
//! - a result is one JSON object: text becomes `{"output": …}`, errors `{"error": …}`, content
//!   blocks are joined into text (images go in the response's inline `parts`), a JSON string
//!   reads back as text;
//! - `functionResponse.name` is required: taken from the paired call when the result has none;
//! - argument text is not kept as written (`args` is an object; invalid JSON becomes `{}`);
//! - empty text parts next to other parts are left out (the API rejects them);
//! - no stop-sequence finish reason (`STOP`), and `STOP` also for calls (derived back from them);
//! - parts Toolscope has no type for (thoughts, images, code execution) are kept as raw parts
//!   for Gemini only; `thoughtSignature` rides in the part's extras and survives Gemini → Gemini.
//!
//! Schemas: a tool's JSON Schema is sent as the classic OpenAPI-subset `parameters` when it fits
//! exactly (upper-case types, `nullable`), else as `parametersJsonSchema`; a paste's own choice
//! and spelling are remembered so it round-trips (see [`schema`]).

mod convert;
pub mod schema;
pub mod stream;
pub mod wire;

pub use convert::{ID, PLACEHOLDER_RESPONSE_ID};

use crate::formats::{json, DecodeError, Kind};
use crate::model::{Exchange, Loss};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The Gemini codec.
pub struct Codec;

/// Typed parse of an already normalised document; shape errors keep their pointer, spelled as
/// the user wrote it (line and column are added by the dispatcher).
fn typed<T: DeserializeOwned>(v: Value, renamed: &[wire::Renamed]) -> Result<T, DecodeError> {
    json::typed(v).map_err(|(pointer, message)| {
        DecodeError::at(ID, wire::original_pointer(renamed, &pointer), message)
    })
}

impl crate::formats::Codec for Codec {
    const ID: &'static str = ID;
    type Request = wire::Request;
    type Response = wire::Response;

    fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
        convert::encode_request(x)
    }

    fn decode_request(doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_request(doc)
    }

    fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
        convert::encode_response(x)
    }

    fn decode_response(doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_response(doc)
    }

    fn sniff(v: &Value) -> Option<(Kind, u8)> {
        let m = v.as_object()?;
        if m.contains_key("contents") {
            Some((Kind::Request, 95))
        } else if m.contains_key("candidates") {
            Some((Kind::Response, 95))
        } else if m.contains_key("promptFeedback")
            || (m.contains_key("usageMetadata") && m.contains_key("modelVersion"))
        {
            // A response whose prompt was blocked has no candidates.
            Some((Kind::Response, 60))
        } else {
            None
        }
    }

    fn parse_request(text: &str) -> Result<wire::Request, DecodeError> {
        let mut v: Value = json::parse(ID, text)?;
        let renamed = wire::normalize_request(&mut v);
        let mut doc: wire::Request = typed(v, &renamed)?;
        doc.renamed = renamed;
        Ok(doc)
    }

    fn request_from_json(mut v: Value) -> Option<wire::Request> {
        let renamed = wire::normalize_request(&mut v);
        let mut doc: wire::Request = json::from_value(v)?;
        doc.renamed = renamed;
        Some(doc)
    }

    fn response_from_json(mut v: Value) -> Option<wire::Response> {
        let renamed = wire::normalize_response(&mut v);
        let mut doc: wire::Response = json::from_value(v)?;
        doc.renamed = renamed;
        Some(doc)
    }

    fn parse_response(text: &str) -> Result<wire::Response, DecodeError> {
        let mut v: Value = json::parse(ID, text)?;
        let renamed = wire::normalize_response(&mut v);
        let mut doc: wire::Response = typed(v, &renamed)?;
        doc.renamed = renamed;
        Ok(doc)
    }
}
