//! Serde types of the Anthropic Messages API bodies (`POST /v1/messages`), as the Python SDK
//! 2.12.0 declares them (`MessageCreateParamsNonStreaming`, `Message`).
//!
//! Only what Toolscope reads is typed; every unknown field lands in a flattened `extra` map and
//! every unknown block or tool type is kept verbatim as a `Raw` value, so a pasted document is
//! emitted back unchanged.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// The request body of `POST /v1/messages`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Model name (required by the API; a placeholder is emitted when the model has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Output token limit (required by the API).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// System prompt: a string or an array of text blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<System>,
    /// Client tools (`input_schema`) and server tools (`type: "web_search_…"`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolDef>>,
    /// How the model uses the tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Legacy sampling temperature: API versions before 2026-10-21 only; read, never written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Legacy nucleus sampling: API versions before 2026-10-21 only; read, never written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Custom stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// The conversation.
    pub messages: Vec<MessageParam>,
    /// Everything else (`metadata`, `thinking`, `stream`, `top_k`, `service_tier`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Top-level `system`: a string or text blocks (which may carry `cache_control`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum System {
    /// `"system": "…"`.
    Text(String),
    /// `"system": [{"type": "text", "text": "…", "cache_control": …}]`.
    Blocks(Vec<Block>),
}

/// A tool definition: a client tool with a schema, or a server tool named by its `type`.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolDef {
    /// A client tool (`type` absent or `"custom"`).
    Custom(CustomTool),
    /// A server or Anthropic-defined tool (`web_search_20250305`, `bash_20250124`, …), verbatim.
    Server(Value),
}

/// A client tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomTool {
    /// Tool name.
    pub name: String,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of `input`.
    pub input_schema: Value,
    /// Strict schema adherence (structured outputs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// `cache_control`, `type: "custom"`, `input_examples`, `defer_loading`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Serialize for ToolDef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolDef::Custom(t) => t.serialize(s),
            ToolDef::Server(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ToolDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match v.get("type").and_then(Value::as_str) {
            None | Some("custom") => CustomTool::deserialize(v)
                .map(ToolDef::Custom)
                .map_err(|e| de::Error::custom(format!("tool: {e}"))),
            Some(_) => Ok(ToolDef::Server(v)),
        }
    }
}

/// `tool_choice`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolChoice {
    /// The model decides.
    Auto {
        /// At most one tool call per turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disable_parallel_tool_use: Option<bool>,
        /// Unknown fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// At least one call, any tool.
    Any {
        /// At most one tool call per turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disable_parallel_tool_use: Option<bool>,
        /// Unknown fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// This one tool.
    Tool {
        /// The tool to call.
        name: String,
        /// At most one tool call per turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disable_parallel_tool_use: Option<bool>,
        /// Unknown fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    /// No tool calls.
    None {
        /// Not in the SDK for `none`; read when present.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        disable_parallel_tool_use: Option<bool>,
        /// Unknown fields.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
}

/// Who speaks in a request message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireRole {
    /// The person, and tool results.
    User,
    /// The model.
    Assistant,
    /// Instructions inside the conversation (`SystemMessageParam`).
    System,
}

/// One request message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageParam {
    /// Who speaks.
    pub role: WireRole,
    /// A string or content blocks.
    pub content: Content,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Message content: `"text"` is shorthand for one text block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Content {
    /// The string shorthand.
    Text(String),
    /// Content blocks.
    Blocks(Vec<Block>),
}

/// A content block of a message (request or response).
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `text`.
    Text(TextBlock),
    /// `tool_use`.
    ToolUse(ToolUseBlock),
    /// `tool_result` (user messages only).
    ToolResult(ToolResultBlock),
    /// Any other block (`image`, `document`, `thinking`, `server_tool_use`, …), verbatim.
    Raw(Value),
}

/// `{"type": "text", "text": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextBlock {
    /// The text.
    pub text: String,
    /// `cache_control`, `citations`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{"type": "tool_use", "id": …, "name": …, "input": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUseBlock {
    /// Call id, `^[a-zA-Z0-9_-]+$`.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments: a JSON object.
    pub input: Value,
    /// `cache_control`, `caller`, `toolset_name`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{"type": "tool_result", "tool_use_id": …, "content": …, "is_error": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResultBlock {
    /// The `tool_use` answered.
    pub tool_use_id: String,
    /// A string or text/image/document blocks; absent means empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ResultContent>,
    /// The tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `cache_control`, `toolset_name`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `tool_result.content`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ResultContent {
    /// A string.
    Text(String),
    /// Blocks: `text`, `image`, `document`, `search_result`, … (all but text kept verbatim).
    Blocks(Vec<Block>),
}

/// A base64 image block, as Toolscope writes one (`Block::Image` of the model).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageBlock {
    /// Always `image`.
    #[serde(rename = "type")]
    pub kind: ImageTag,
    /// Where the bytes are.
    pub source: Base64Source,
}

/// The `type` of [`ImageBlock`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageTag {
    /// `image`.
    Image,
}

/// `{"type": "base64", "media_type": …, "data": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Base64Source {
    /// Always `base64`.
    #[serde(rename = "type")]
    pub kind: Base64Tag,
    /// `image/jpeg`, `image/png`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// Base64 data.
    pub data: String,
}

/// The `type` of [`Base64Source`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Base64Tag {
    /// `base64`.
    Base64,
}

/// Serialises the typed blocks with their `type` first.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Tagged<'a> {
    Text(&'a TextBlock),
    ToolUse(&'a ToolUseBlock),
    ToolResult(&'a ToolResultBlock),
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Block::Text(b) => Tagged::Text(b).serialize(s),
            Block::ToolUse(b) => Tagged::ToolUse(b).serialize(s),
            Block::ToolResult(b) => Tagged::ToolResult(b).serialize(s),
            Block::Raw(v) => v.serialize(s),
        }
    }
}

/// Deserialise a known block from its value without the `type` key (which would otherwise land
/// in `extra`).
fn typed<T: serde::de::DeserializeOwned, E: de::Error>(mut v: Value, what: &str) -> Result<T, E> {
    if let Value::Object(m) = &mut v {
        m.remove("type");
    }
    serde_json::from_value(v).map_err(|e| E::custom(format!("{what} block: {e}")))
}

impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match v.get("type").and_then(Value::as_str) {
            Some("text") => typed(v, "text").map(Block::Text),
            Some("tool_use") => typed(v, "tool_use").map(Block::ToolUse),
            Some("tool_result") => typed(v, "tool_result").map(Block::ToolResult),
            _ => Ok(Block::Raw(v)),
        }
    }
}

/// A string or an array of blocks, read with a visitor so a bad block is reported at its index.
struct StringOrBlocks;

impl<'de> Visitor<'de> for StringOrBlocks {
    type Value = Result<String, Vec<Block>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or an array of content blocks")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Ok(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Ok(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(b) = seq.next_element::<Block>()? {
            out.push(b);
        }
        Ok(Err(out))
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => Content::Text(s),
            Err(b) => Content::Blocks(b),
        })
    }
}

impl<'de> Deserialize<'de> for System {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => System::Text(s),
            Err(b) => System::Blocks(b),
        })
    }
}

impl<'de> Deserialize<'de> for ResultContent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => ResultContent::Text(s),
            Err(b) => ResultContent::Blocks(b),
        })
    }
}

/// The response body: `Message`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// `msg_…` (a placeholder when the model has none).
    #[serde(default)]
    pub id: String,
    /// Always `message`.
    #[serde(rename = "type")]
    pub kind: MessageTag,
    /// Always `assistant`.
    pub role: AssistantTag,
    /// Model that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The answer.
    pub content: Vec<Block>,
    /// `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `pause_turn`, `refusal`, …
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// The stop sequence matched, else `null`.
    #[serde(default)]
    pub stop_sequence: Option<String>,
    /// Token counts (required by the SDK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// `container`, `stop_details`, `diagnostics`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `type` of a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageTag {
    /// `message`.
    Message,
}

/// The `role` of a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssistantTag {
    /// `assistant`.
    Assistant,
}

/// `usage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens (not counting cache reads and writes).
    pub input_tokens: u64,
    /// Generated tokens.
    pub output_tokens: u64,
    /// `cache_creation_input_tokens`, `cache_read_input_tokens`, `service_tier`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
