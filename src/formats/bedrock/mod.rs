//! Amazon Bedrock Converse API (`POST /model/{modelId}/converse`).
//!
//! Spec: <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>,
//! tool use: <https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html>.
//! Ground truth for the shapes is botocore 1.43.11's service model for `bedrock-runtime`
//! (`ConverseRequest`, `ConverseResponse`).
//!
//! The request document is what boto3's `converse(**doc)` takes: the JSON body plus `modelId`,
//! which travels in the URL. A pasted REST body without `modelId` is read too (the model is
//! then unknown) and written back without one. The response document is the JSON body.
//!
//! What is lossy, encoding the model as Bedrock:
//! - Tool results live in the user message after the call: a Tool message and the User message
//!   after it become one user message (results first); several Tool messages in a row become
//!   one, and other groupings that read back differently are reported at `/messages`.
//! - Tool names outside `[a-zA-Z0-9_-]{1,64}` (MCP's `server.tool`, …) are rewritten the same
//!   way in tool specs, calls and the tool choice.
//! - Call ids: missing ones are assigned, ids outside `^[a-zA-Z0-9_-]{1,64}$` rewritten
//!   (botocore also allows `.` and `:`; the stricter documented rule is used).
//! - `input` is a JSON object: invalid argument text and non-object values become `{}`; the
//!   spelling of valid argument text is not kept.
//! - Empty text blocks (in messages and results) and an empty system prompt (rejected by
//!   Bedrock) are dropped; so are
//!   empty tool descriptions and empty stop sequences (`NonEmptyString`); `temperature` and
//!   `topP` are clamped to 0–1, `maxTokens` 0 is dropped.
//! - Results: an error is `status: "error"`; JSON objects are `{json}` blocks, other JSON
//!   values are sent as text; empty text is an empty content list; content blocks that read
//!   back as plain text (one text block, none) are reported; result `name`s and tool
//!   `output_schema`/`annotations` have no place. Images must be PNG, JPEG, GIF or WebP.
//! - tool_choice: no `none` (dropped: the model decides), a restriction to several tools
//!   becomes `any`, `validated` becomes `auto`, restrictions under `auto` are dropped; with no
//!   tools at all there is no `toolConfig` to hold it. No `parallel_tool_calls` switch.
//! - A request whose messages have toolUse/toolResult blocks but no tools gets tool specs with
//!   an empty object schema for the called names (Bedrock rejects it otherwise): reported.
//! - `modelId` is required: a placeholder is added when missing.
//! - Reasoning: `reasoningContent` (`reasoningText {text, signature}` or `redactedContent`)
//!   is a reasoning part whose state Bedrock issued; only Bedrock's own is written back (an
//!   Anthropic signature, even over the same Claude model, or another provider's reasoning
//!   text is dropped with a reasoning loss naming it). Reasoning settings are
//!   `additionalModelRequestFields.thinking` (or `reasoning_config`) for Claude and
//!   `reasoningConfig` for Nova, in the spelling the document had; an effort has no place in
//!   Claude's settings, a budget none in Nova's.
//! - Provider-run tools: `systemTool` entries are hosted tools, a `toolUse` of type
//!   `server_tool_use` and the `toolResult` answering it in the same assistant turn (Nova's
//!   code interpreter) hosted steps; other providers' hosted tools and steps are dropped by
//!   name.
//! - Responses: no model name (dropped); a missing stop reason is derived, missing usage is
//!   written as zeros (read back as none), missing `metrics` as `{"latencyMs": 0}` (read back
//!   as none).
//!
//! Kept for a pasted document, in `extra.bedrock` (so it is written back unchanged): unknown
//! fields at every level; `guardrailConfig`, `additionalModelRequestFields`,
//! `promptVariables`, `requestMetadata`, … as they are; `system` as blocks (used while its text
//! matches); `cachePoint`/`systemTool` tool entries at their places (`toolConfig.tools`, tool
//! specs named by strings); a `toolChoice` the model reads differently; `status: "success"`;
//! image, document, reasoning and cache-point blocks as `Part::Raw`; response `metrics`,
//! `trace`, `additionalModelResponseFields`, usage details, a `totalTokens` that is not the sum.

mod convert;
pub mod rules;
pub mod stream;
pub mod wire;

pub use convert::{tool_name_ok, PLACEHOLDER_MODEL, PLACEHOLDER_TOOL, UNPAIRED_ID};

use crate::formats::spec::{Http, ModelIn, Print, Sdk, Send};
use crate::model::ModelFamily;

/// The boto3 client a Python snippet makes (region from the environment).
const BOTO3_CLIENT: &str =
    "boto3.client(\"bedrock-runtime\", region_name=os.environ.get(\"AWS_REGION\", \"us-east-1\"))";

/// The Bedrock Converse codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = convert::ID;
    crate::formats::by_convert!(wire::Request, wire::Response);
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post(
    "Amazon Bedrock Converse",
    "https://bedrock-runtime.$REGION.amazonaws.com/model/{model}/converse",
)
.model(ModelIn::BodyAndUrl("modelId"))
.sdk(Sdk::new("boto3", BOTO3_CLIENT, "converse").print(Print::Dict))
.aws();

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Bedrock);
    const SEND: Send = Send::Http(API);
}
