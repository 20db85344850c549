//! Google Gemini `generateContent` (Gemini API and Vertex AI), request and response bodies.
//!
//! Spec: <https://ai.google.dev/api/generate-content>,
//! <https://ai.google.dev/gemini-api/docs/function-calling>, the `Schema` subset at
//! <https://ai.google.dev/api/caching#Schema>; the wire shape follows the `google-genai` SDK
//! types (`Content`, `Part`, `FunctionCall`, `FunctionResponse`, `Tool`, `FunctionDeclaration`,
//! `ToolConfig`, `GenerationConfig`, `GenerateContentResponse`), camelCase as the SDK sends it.
//! snake_case field names (used by the docs' curl examples, accepted by the API) are read too,
//! and a document that used them is written back with them.
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
//! - parts Toolscope has no type for (images, files) are kept as raw parts for Gemini only.
//!
//! Reasoning and hosted tools (<https://ai.google.dev/gemini-api/docs/thinking>,
//! <https://ai.google.dev/gemini-api/docs/thought-signatures>):
//! - a `thought: true` part is a reasoning part (its text, its own `thoughtSignature`); a
//!   `thoughtSignature` on a text or `functionCall` part is an *attached* reasoning part right
//!   before it, put back on that part when encoding (a part holding only a signature is a
//!   reasoning part of its own). Signatures record Gemini (and the response's model) as issuer:
//!   other providers' opaque state is dropped with a reasoning loss, thought text is kept;
//! - a Gemini 3 request (the model Gemini is sent starts `gemini-3`) whose step of the current
//!   turn (the model turns after the last user text) has no Gemini signature on its first call
//!   gets Google's documented `skip_thought_signature_validator` there, reported as added;
//! - `generationConfig.thinkingConfig` `thinkingBudget`, `thinkingLevel` and
//!   `includeThoughts: true` are the reasoning options (budget, effort, summary `auto`);
//! - `tools` entries other than `functionDeclarations` (`googleSearch`, `codeExecution`,
//!   `urlContext`, `googleSearchRetrieval`, …) are hosted tools, and `executableCode`,
//!   `codeExecutionResult`, `toolCall` and `toolResponse` parts hosted steps, kept verbatim;
//!   `groundingMetadata` stays in the candidate's fields.
//!
//! A document written with snake_case field names is written back with the same names.
//!
//! Schemas: a tool's JSON Schema is sent as the classic OpenAPI-subset `parameters` when it fits
//! exactly (upper-case types, `nullable`), else as `parametersJsonSchema`; a paste's own choice
//! and spelling are remembered so it round-trips (see [`schema`]).

mod convert;
pub mod parameters;
pub mod prompt;
pub mod rules;
pub mod schema;
pub mod stream;
pub mod wire;

pub use convert::{ID, PLACEHOLDER_RESPONSE_ID};

/// The documented stand-in Gemini accepts in place of a thought signature it did not issue
/// (for calls made by another model or written by hand): it skips the check. The provider
/// table's placeholder.
pub const SKIP_SIGNATURE: &str = match crate::providers::Provider::Gemini
    .row()
    .reasoning
    .placeholder
{
    Some(s) => s,
    None => "",
};

use crate::formats::spec::{Header, Http, ModelIn, Send};
use crate::formats::{json, DecodeError};
use crate::model::ModelFamily;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The Gemini codec.
pub struct Codec;

/// A document parsed, its snake_case names normalised, and typed; shape errors keep their
/// pointer, spelled as the user wrote it (line and column are added by the dispatcher), and
/// the document keeps what was renamed (in the field `renamed` returns).
fn parse<T: DeserializeOwned>(
    text: &str,
    normalize: fn(&mut Value) -> Vec<wire::Renamed>,
    renamed: fn(&mut T) -> &mut Vec<wire::Renamed>,
) -> Result<T, DecodeError> {
    let mut v: Value = json::parse(ID, text)?;
    let names = normalize(&mut v);
    let mut doc: T = json::typed(v).map_err(|(pointer, message)| {
        DecodeError::at(ID, wire::original_pointer(&names, &pointer), message)
    })?;
    *renamed(&mut doc) = names;
    Ok(doc)
}

impl crate::formats::Codec for Codec {
    const ID: &'static str = ID;
    const WRITES_CUSTOM_TOOLS: bool = false;
    crate::formats::by_convert!(wire::Request, wire::Response);

    fn parse_request(text: &str) -> Result<wire::Request, DecodeError> {
        parse(text, wire::normalize_request, |doc| &mut doc.renamed)
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

    fn render_request(doc: &wire::Request) -> String {
        if doc.renamed.is_empty() {
            return json::pretty(doc);
        }
        let mut v = serde_json::to_value(doc).unwrap_or(Value::Null);
        wire::restore_request(&mut v, &original_names(&doc.renamed));
        json::pretty(&v)
    }

    fn render_response(doc: &wire::Response) -> String {
        if doc.renamed.is_empty() {
            return json::pretty(doc);
        }
        let mut v = serde_json::to_value(doc).unwrap_or(Value::Null);
        wire::restore_response(&mut v, &original_names(&doc.renamed));
        json::pretty(&v)
    }

    fn parse_response(text: &str) -> Result<wire::Response, DecodeError> {
        parse(text, wire::normalize_response, |doc| &mut doc.renamed)
    }
}

/// An encoded document's `renamed`: the snake_case names to write back.
fn original_names(renamed: &[wire::Renamed]) -> Vec<String> {
    renamed.iter().map(|r| r.original.clone()).collect()
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post(
    "Google Gemini generateContent ({model})",
    "https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
)
.headers(&[Header::env("x-goog-api-key", "GEMINI_API_KEY")])
.model(ModelIn::Url);

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Gemini);
    const SEND: Send = Send::Http(API);
    const PARAMETERS: Option<crate::formats::spec::Subset> = Some(crate::formats::spec::Subset {
        what: "OpenAPI `parameters`",
        check: parameters::check,
        fit: parameters::fit,
    });
}
