//! Anthropic Messages API (`POST /v1/messages`).
//!
//! Spec: <https://docs.anthropic.com/en/api/messages>, tool use:
//! <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use>.
//! Ground truth for the shapes is the Python SDK 2.12.0 (`MessageCreateParamsNonStreaming`,
//! `Message`), which sends API version 2026-10-21.
//!
//! What is lossy, encoding the model as Anthropic:
//! - `temperature` and `top_p`: the current API version rejects sampling parameters (the SDK
//!   has none); dropped. Legacy documents that carry them are still read.
//! - Tool results live in the user message after the call: a Tool message and the User message
//!   after it become one user message (results first); several Tool messages in a row become
//!   one, and other groupings that read back differently are reported at `/messages`.
//! - Call ids: missing ones are assigned, ids outside `^[a-zA-Z0-9_-]{1,64}$` rewritten.
//! - `input` is a JSON object: invalid argument text and non-object values become `{}`; the
//!   spelling of valid argument text is not kept.
//! - Empty text blocks (rejected by the API) are dropped; JSON results are sent as JSON text;
//!   result `name`s and tool `output_schema`/`annotations` have no place. (The stop reason
//!   and usage of past turns are response data, outside `Exchange::request_view`.)
//! - tool_choice: a restriction to several tools becomes `any`, `validated` becomes `auto`,
//!   restrictions under `auto`/`none` are dropped. `parallel_tool_calls` lives inside
//!   tool_choice as `disable_parallel_tool_use`: `false` with no tool_choice adds `auto`; `true`
//!   with no tool_choice (the default) and anything under `none` cannot be stated.
//! - `model` and `max_tokens` are required: placeholders are added when missing.
//! - Reasoning: `thinking {thinking, signature}` and `redacted_thinking {data}` are reasoning
//!   parts whose state Anthropic issued (with the document's model); only Anthropic's own is
//!   written back. Another provider's state (a Bedrock signature over the same Claude model,
//!   Responses encrypted content) and reasoning text without Anthropic's signature (DeepSeek
//!   `reasoning_content`, Responses summaries) are dropped with reasoning losses: the API
//!   rejects unsigned thinking. Settings: `thinking` (`enabled` with `budget_tokens`,
//!   `adaptive`, `disabled`) and `output_config.effort` are the reasoning options; effort
//!   `minimal` is sent as `low`, summary and encrypted-content switches have no place.
//! - Provider-run tools: server tools (`web_search_*`, `web_fetch_*`, `code_execution_*`,
//!   `tool_search_tool_*`, `mcp_toolset`, any typed tool) are hosted tools; `server_tool_use`,
//!   `*_tool_result`, `mcp_tool_use` and `mcp_tool_result` blocks hosted steps, verbatim.
//!   Other providers' hosted tools and steps are dropped by name, never sent as functions. A
//!   custom (free-text) tool becomes a function with one string `input`, its grammar in the
//!   description.
//! - Responses: a missing stop reason is derived, missing usage is written as zeros (and read
//!   back as none), a missing id is `msg_toolscope` (read back as none).
//!
//! Kept for a pasted document, in `extra.anthropic` (so it is written back unchanged):
//! unknown fields at every level; `system` as blocks (`extra.anthropic.system`, used while its
//! text matches); unknown `tool_choice` fields; system messages inside the
//! conversation (a user message with `extra.anthropic.role = "system"`); an explicit
//! `is_error: false`; a single text block written as an array (an empty `extra.anthropic` on the
//! text part); `mcp_servers`, `thinking.display` and `output_config.format` as request fields;
//! image, document and other blocks as `Part::Raw`.

mod convert;
pub mod rules;
pub mod stream;
pub mod wire;

pub use convert::{PLACEHOLDER_ID, PLACEHOLDER_MAX_TOKENS, PLACEHOLDER_MODEL};

use crate::formats::spec::{Header, Http, Sdk, Send};
use crate::model::ModelFamily;

/// The Messages API, as snippets call it (the legacy XML prompt is sent to it too).
pub const API: Http = Http::post(
    "Anthropic Messages",
    "https://api.anthropic.com/v1/messages",
)
.headers(&[
    Header::env("x-api-key", "ANTHROPIC_API_KEY"),
    Header::literal("anthropic-version", "2023-06-01"),
])
.sdk(Sdk::new(
    "anthropic",
    "anthropic.Anthropic(api_key=os.environ[\"ANTHROPIC_API_KEY\"])",
    "messages.create",
));

/// The Anthropic Messages codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = convert::ID;
    crate::formats::by_convert!(wire::Request<'static>, wire::Response<'static>);

    fn write_request(x: &crate::model::Exchange) -> crate::formats::Encoded {
        convert::write_request(x)
    }
}

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Anthropic);
    const SEND: Send = Send::Http(API);
}
