//! The Vercel AI SDK's own message format (npm `ai` 5): what apps store in their databases and
//! pass to `generateText` / `streamText`, and the UI message stream its servers send to
//! `useChat`.
//!
//! Docs: <https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message>,
//! <https://ai-sdk.dev/docs/reference/ai-sdk-ui/ui-message>,
//! <https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol>. Ground truth for the shapes is the
//! package's own zod schemas (`modelMessageSchema`, `uiMessageChunkSchema`), which
//! `tests/sdk/ai_sdk.mjs` runs over what this module writes.
//!
//! The documents:
//! - **Request** = the arguments of `generateText` as JSON: `{model?, system?, messages:
//!   ModelMessage[], tools: {name: {description?, inputSchema, outputSchema?}}, toolChoice?,
//!   activeTools?, maxOutputTokens?, temperature?, topP?, stopSequences?}`. `ModelMessage`s
//!   are `system` (a string), `user` and `assistant` (a string or parts: `text`, `tool-call`
//!   with `toolCallId`/`toolName`/`input`), and `tool` (`tool-result` parts with `toolCallId`,
//!   `toolName` and a typed `output`: `text`, `json`, `error-text`, `error-json`, `content`).
//!   Also read: a bare `ModelMessage[]` (written back as one) and a `UIMessage[]` from
//!   `useChat` (see [`ui`]; written back as `ModelMessage`s), and AI SDK 4's `args`/`result`/
//!   `parameters`.
//! - **Response** = the parts of a `generateText` result apps keep: `{finishReason, usage,
//!   response: {modelId, messages}}`, where `response.messages` is what gets appended to the
//!   conversation. Also read: that array alone, or one message.
//!
//! What is lossy, encoding the model as the AI SDK:
//! - `parallel_tool_calls` and the `validated` tool choice (no such settings: provider
//!   options), the `strict` flag and MCP annotations of tools.
//! - Tools are a record keyed by name: a second tool of the same name is dropped.
//! - A restriction to several tools is `activeTools` next to `toolChoice`.
//! - Call ids are required: missing ones are assigned. Tool results name their tool (taken
//!   from the call when the result has none).
//! - `input` is a JSON value: invalid argument text becomes `{}`, its spelling is not kept.
//! - An error result with content blocks is sent as `error-text`.
//! - Finish reasons: a stop sequence is reported as `stop`.
//! - Built-in tools of a provider (they are declared in the provider's package, not in
//!   `tools`); opaque reasoning state no provider of the SDK keeps in a part's options.
//!
//! Reasoning and provider-run tools (see `reasoning.rs`): `reasoning` parts are reasoning
//! parts, their opaque state read from `providerOptions` (`providerMetadata` in UI messages)
//! with its issuer; a Google `thoughtSignature` on a text or tool-call part is an attached
//! reasoning part before it; `providerExecuted` calls and the `tool-result` parts of an
//! assistant message are hosted steps, kept verbatim. A response whose turn ends with tool
//! outputs (run on the server, as a UI message stream delivers them) is written as the whole
//! turn: `response.messages` holds every step.
//!
//! Kept for a pasted document, in `extra["ai-sdk"]`: unknown fields at every level
//! (`providerOptions` beyond the opaque state, other `generateText` settings), system messages
//! inside the conversation, image and file parts as `Part::Raw`.

mod convert;
mod reasoning;
pub mod rules;
pub mod stream;
pub mod ui;

pub use convert::ID;

use crate::formats::spec::Send;
use crate::model::ModelFamily;
use serde_json::Value;

/// The AI SDK codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = convert::ID;
    crate::formats::by_convert!(Value, Value);
}

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    // The AI SDK names the model of any provider.
    const MODELS: Option<ModelFamily> = None;
    const SEND: Send = Send::Nothing(
        "AI SDK messages are passed to generateText in a TypeScript app, not sent over HTTP",
    );
}
