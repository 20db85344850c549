//! Serde types of the Anthropic Messages API bodies (`POST /v1/messages`), as the Python SDK
//! 2.12.0 declares them (`MessageCreateParamsNonStreaming`, `Message`).
//!
//! Only what Toolscope reads is typed; every unknown field lands in a flattened `extra` map and
//! every unknown block or tool type is kept verbatim as a `Raw` value, so a pasted document is
//! emitted back unchanged.
//!
//! The texts and JSON values that come from the model are `Cow`s: the encoder writes a body
//! that borrows them from the exchange (no copy to make and free), the decoder reads owned ones
//! (`Request<'static>`).

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// The request body of `POST /v1/messages`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request<'a> {
    /// Model name (required by the API; a placeholder is emitted when the model has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Output token limit (required by the API).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// System prompt: a string or an array of text blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<System<'a>>,
    /// Client tools (`input_schema`) and server tools (`type: "web_search_…"`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolDef<'a>>>,
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
    pub messages: Vec<MessageParam<'a>>,
    /// Everything else (`metadata`, `thinking`, `stream`, `top_k`, `service_tier`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Top-level `system`: a string or text blocks (which may carry `cache_control`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum System<'a> {
    /// `"system": "…"`.
    Text(Cow<'a, str>),
    /// `"system": [{"type": "text", "text": "…", "cache_control": …}]`.
    Blocks(Vec<Block<'a>>),
}

/// A tool definition: a client tool with a schema, or a server tool named by its `type`.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolDef<'a> {
    /// A client tool (`type` absent or `"custom"`).
    Custom(CustomTool<'a>),
    /// A server or Anthropic-defined tool (`web_search_20250305`, `bash_20250124`, …), verbatim.
    Server(Cow<'a, Value>),
}

/// A client tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomTool<'a> {
    /// Tool name.
    pub name: Cow<'a, str>,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'a, str>>,
    /// JSON Schema of `input`.
    pub input_schema: Cow<'a, Value>,
    /// Strict schema adherence (structured outputs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// `cache_control`, `type: "custom"`, `input_examples`, `defer_loading`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Serialize for ToolDef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolDef::Custom(t) => t.serialize(s),
            ToolDef::Server(v) => v.serialize(s),
        }
    }
}

impl<'de, 'a> Deserialize<'de> for ToolDef<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match v.get("type").and_then(Value::as_str) {
            None | Some("custom") => CustomTool::deserialize(v)
                .map(ToolDef::Custom)
                .map_err(|e| de::Error::custom(format!("tool: {e}"))),
            Some(_) => Ok(ToolDef::Server(Cow::Owned(v))),
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
pub struct MessageParam<'a> {
    /// Who speaks.
    pub role: WireRole,
    /// A string or content blocks.
    pub content: Content<'a>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Message content: `"text"` is shorthand for one text block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Content<'a> {
    /// The string shorthand.
    Text(Cow<'a, str>),
    /// Content blocks.
    Blocks(Vec<Block<'a>>),
}

/// A content block of a message (request or response).
#[derive(Debug, Clone, PartialEq)]
pub enum Block<'a> {
    /// `text`.
    Text(TextBlock<'a>),
    /// `tool_use`.
    ToolUse(ToolUseBlock<'a>),
    /// `tool_result` (user messages only).
    ToolResult(ToolResultBlock<'a>),
    /// Any other block (`image`, `document`, `thinking`, `server_tool_use`, …), verbatim.
    Raw(Cow<'a, Value>),
}

/// `{"type": "text", "text": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextBlock<'a> {
    /// The text.
    pub text: Cow<'a, str>,
    /// `cache_control`, `citations`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{"type": "tool_use", "id": …, "name": …, "input": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUseBlock<'a> {
    /// Call id, `^[a-zA-Z0-9_-]+$`.
    pub id: Cow<'a, str>,
    /// Tool name.
    pub name: Cow<'a, str>,
    /// Arguments: a JSON object.
    pub input: Cow<'a, Value>,
    /// `cache_control`, `caller`, `toolset_name`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{"type": "tool_result", "tool_use_id": …, "content": …, "is_error": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResultBlock<'a> {
    /// The `tool_use` answered.
    pub tool_use_id: Cow<'a, str>,
    /// A string or text/image/document blocks; absent means empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ResultContent<'a>>,
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
pub enum ResultContent<'a> {
    /// A string.
    Text(Cow<'a, str>),
    /// Blocks: `text`, `image`, `document`, `search_result`, … (all but text kept verbatim).
    Blocks(Vec<Block<'a>>),
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
enum Tagged<'b, 'a> {
    Text(&'b TextBlock<'a>),
    ToolUse(&'b ToolUseBlock<'a>),
    ToolResult(&'b ToolResultBlock<'a>),
}

impl Serialize for Block<'_> {
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

impl<'de, 'a> Deserialize<'de> for Block<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match v.get("type").and_then(Value::as_str) {
            Some("text") => typed(v, "text").map(Block::Text),
            Some("tool_use") => typed(v, "tool_use").map(Block::ToolUse),
            Some("tool_result") => typed(v, "tool_result").map(Block::ToolResult),
            _ => Ok(Block::Raw(Cow::Owned(v))),
        }
    }
}

/// A string or an array of blocks, read with a visitor so a bad block is reported at its index.
struct StringOrBlocks;

impl<'de> Visitor<'de> for StringOrBlocks {
    type Value = Result<String, Vec<Block<'static>>>;

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

impl<'de, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => Content::Text(Cow::Owned(s)),
            Err(b) => Content::Blocks(b),
        })
    }
}

impl<'de, 'a> Deserialize<'de> for System<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => System::Text(Cow::Owned(s)),
            Err(b) => System::Blocks(b),
        })
    }
}

impl<'de, 'a> Deserialize<'de> for ResultContent<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(StringOrBlocks)? {
            Ok(s) => ResultContent::Text(Cow::Owned(s)),
            Err(b) => ResultContent::Blocks(b),
        })
    }
}

/// The response body: `Message`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response<'a> {
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
    pub content: Vec<Block<'a>>,
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

/// `c` owning its text or value.
fn owned<T: ToOwned + ?Sized + 'static>(c: Cow<'_, T>) -> Cow<'static, T> {
    Cow::Owned(c.into_owned())
}

/// Blocks owning their texts and values.
fn owned_blocks(blocks: Vec<Block>) -> Vec<Block<'static>> {
    blocks.into_iter().map(Block::into_owned).collect()
}

impl Block<'_> {
    /// The block owning its texts and values (a body that outlives the exchange it was written
    /// from).
    pub fn into_owned(self) -> Block<'static> {
        match self {
            Block::Text(t) => Block::Text(TextBlock {
                text: owned(t.text),
                extra: t.extra,
            }),
            Block::ToolUse(u) => Block::ToolUse(ToolUseBlock {
                id: owned(u.id),
                name: owned(u.name),
                input: owned(u.input),
                extra: u.extra,
            }),
            Block::ToolResult(r) => Block::ToolResult(ToolResultBlock {
                tool_use_id: owned(r.tool_use_id),
                content: r.content.map(|c| match c {
                    ResultContent::Text(t) => ResultContent::Text(owned(t)),
                    ResultContent::Blocks(b) => ResultContent::Blocks(owned_blocks(b)),
                }),
                is_error: r.is_error,
                extra: r.extra,
            }),
            Block::Raw(v) => Block::Raw(owned(v)),
        }
    }
}

impl Request<'_> {
    /// The body owning its texts and values (see [`Block::into_owned`]).
    pub fn into_owned(self) -> Request<'static> {
        Request {
            model: self.model,
            max_tokens: self.max_tokens,
            system: self.system.map(|s| match s {
                System::Text(t) => System::Text(owned(t)),
                System::Blocks(b) => System::Blocks(owned_blocks(b)),
            }),
            tools: self.tools.map(|ts| {
                ts.into_iter()
                    .map(|t| match t {
                        ToolDef::Custom(t) => ToolDef::Custom(CustomTool {
                            name: owned(t.name),
                            description: t.description.map(owned),
                            input_schema: owned(t.input_schema),
                            strict: t.strict,
                            extra: t.extra,
                        }),
                        ToolDef::Server(v) => ToolDef::Server(owned(v)),
                    })
                    .collect()
            }),
            tool_choice: self.tool_choice,
            temperature: self.temperature,
            top_p: self.top_p,
            stop_sequences: self.stop_sequences,
            messages: self
                .messages
                .into_iter()
                .map(|m| MessageParam {
                    role: m.role,
                    content: match m.content {
                        Content::Text(t) => Content::Text(owned(t)),
                        Content::Blocks(b) => Content::Blocks(owned_blocks(b)),
                    },
                    extra: m.extra,
                })
                .collect(),
            extra: self.extra,
        }
    }
}
