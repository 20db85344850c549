//! OpenAI Responses API (`POST /v1/responses`).
//!
//! Spec: <https://platform.openai.com/docs/api-reference/responses/create>,
//! <https://platform.openai.com/docs/guides/function-calling>; wire truth: the `openai` Python
//! SDK (`ResponseCreateParamsNonStreaming`, `Response`), which `tests/sdk/openai_responses.py`
//! validates against.
//!
//! Shape: `instructions` is the system prompt; `input` is a string or a flat list of items —
//! messages (`{role, content}`, with or without `type: "message"`), `function_call`
//! (`call_id` pairs it with its `function_call_output`; the item `id` `fc_…` and `status` are
//! provider-only and kept in the call's `extra`), `function_call_output`, `reasoning` items
//! (`Part::Reasoning`), the items of provider-defined tools (`Part::Hosted`), `custom_tool_call`
//! and its output (a call whose arguments are `{"input": <text>}`), and other items (item
//! references, compaction) kept verbatim as `Part::Raw`; see `items.rs`. Consecutive
//! assistant-side items form one assistant turn, consecutive outputs one tool turn. Tools are
//! flat (`{type: "function", name, parameters, strict}`); provider-defined tools (`web_search`,
//! `mcp`, …) are tools with `hosted`, `custom` tools have `custom` (their `format`).
//!
//! What is lossy:
//! - stop sequences (no `stop` parameter);
//! - the error flag of a tool result (folded into the output as `Error: …`), JSON results
//!   (sent as compact text), blocks of other formats;
//! - `tool_choice` `validated` (sent as `auto`) and a tool restriction with mode `none`;
//! - two adjacent assistant (or tool) turns: their items read back as one turn;
//! - response stop reasons other than end of turn, tool use, max tokens (`incomplete` with
//!   `max_output_tokens`), content filter and the API's own statuses — `stop_sequence` is sent
//!   as `completed`; tool use is derived from `function_call` items, not stated;
//! - `call_id` longer than 64 characters (rewritten, pairs kept); `function_call` item ids not
//!   starting with `fc` (dropped: the API rejects them);
//! - tool `annotations` (MCP);
//! - reasoning state another provider issued, and reasoning text without state (a request
//!   carries only reasoning items its endpoint issued); a reasoning token budget and the
//!   thinking switch (only `reasoning.effort`);
//! - provider-defined tool steps of another provider or format.
//!
//! The document's own model is kept when it was read from a Responses document (DeepSeek's
//! and xAI's Responses-compatible endpoints, Ollama's `gpt-oss:20b`), even where OpenAI would
//! not serve it.
//!
//! Canonical `strict: None` is sent as `"strict": null` (the SDK requires the key; the API then
//! applies its default, which for Responses is strict mode). Response fields the model has no
//! place for (`id`, `created_at`, …) come from the assistant message's `extra`, else from
//! placeholders (`resp_toolscope`, `0`, `msg_toolscope_<n>`, `fc_<call_id>`) that decoding
//! recognises and does not store.

mod convert;
mod items;
pub mod rules;
pub mod stream;
pub mod wire;

pub use convert::{CALL_ID_RULE, ID, PRIVATE, RESPONSE_ID};
pub use items::custom_schema;

use crate::formats::spec::{Http, Send};
use crate::model::ModelFamily;

/// The OpenAI Responses codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = ID;
    crate::formats::by_convert!(wire::Request, wire::Response);
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::openai_api(
    "OpenAI Responses",
    "https://api.openai.com/v1/responses",
    "responses.create",
);

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::OpenAi);
    const SEND: Send = Send::Http(API);
}
