//! Serde types of the Bedrock Converse bodies (`POST /model/{modelId}/converse`), as botocore's
//! service model for `bedrock-runtime` 1.43.11 declares them (`ConverseRequest`,
//! `ConverseResponse`).
//!
//! Bedrock's content blocks, tool entries and tool choices are *unions*: objects with exactly
//! one member (`{"text": …}`, `{"toolUse": {…}}`, `{"cachePoint": {…}}`). The members Toolscope
//! reads are typed; a union of any other member is kept verbatim as `Raw`, and every unknown
//! field of a typed structure lands in a flattened `extra` map, so a paste is emitted back
//! unchanged. An object with no member or several members is not a union and is rejected.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// The request: the body of `POST /model/{modelId}/converse` plus the `modelId` of the URL —
/// exactly the keyword arguments of boto3's `bedrock-runtime` `converse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Model id or ARN (travels in the URL; boto3 takes it as a parameter).
    #[serde(rename = "modelId", default, skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    /// The conversation (optional in the service model: prompt-management ARNs bring their own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<Message>>,
    /// System prompt blocks: `{text}`, `{cachePoint}`, `{guardContent}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<Vec<Block>>,
    /// `maxTokens`, `temperature`, `topP`, `stopSequences`.
    #[serde(
        rename = "inferenceConfig",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub inference_config: Option<InferenceConfig>,
    /// Tools and the tool choice.
    #[serde(
        rename = "toolConfig",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_config: Option<ToolConfig>,
    /// `guardrailConfig`, `additionalModelRequestFields`, `promptVariables`,
    /// `requestMetadata`, `performanceConfig`, `serviceTier`, `outputConfig`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `inferenceConfig`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct InferenceConfig {
    /// Output token limit (at least 1).
    #[serde(rename = "maxTokens", default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Sampling temperature, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling, 0 to 1.
    #[serde(rename = "topP", default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Stop sequences (non-empty strings).
    #[serde(
        rename = "stopSequences",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub stop_sequences: Option<Vec<String>>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `toolConfig`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolConfig {
    /// At least one entry: `{toolSpec}`, `{systemTool}`, `{cachePoint}`.
    pub tools: Vec<ToolEntry>,
    /// `{auto: {}}`, `{any: {}}`, `{tool: {name}}`.
    #[serde(
        rename = "toolChoice",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_choice: Option<Value>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry of `toolConfig.tools`.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolEntry {
    /// `{"toolSpec": {…}}`: a client tool.
    Spec(ToolSpec),
    /// Any other member (`cachePoint`, `systemTool`, …), verbatim.
    Raw(Value),
}

/// `toolSpec`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name, `[a-zA-Z0-9_-]{1,64}`.
    pub name: String,
    /// What the tool does (non-empty when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `{"json": schema}`.
    #[serde(rename = "inputSchema")]
    pub input_schema: InputSchema,
    /// Strict schema adherence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `inputSchema`: a union whose only member is `json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSchema {
    /// The JSON Schema.
    pub json: Value,
}

/// Who speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireRole {
    /// The person, and tool results.
    User,
    /// The model.
    Assistant,
}

/// One message (request `messages[]` and response `output.message`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: WireRole,
    /// Content blocks.
    pub content: Vec<Block>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A content block (a union of one member).
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `{"text": "…"}`.
    Text(String),
    /// `{"toolUse": {…}}`.
    ToolUse(ToolUse),
    /// `{"toolResult": {…}}` (user messages only).
    ToolResult(ToolResultBlock),
    /// Any other member (`image`, `document`, `reasoningContent`, `cachePoint`, …), verbatim.
    Raw(Value),
}

/// `toolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolUse {
    /// Call id, `[a-zA-Z0-9_-]{1,64}` (botocore also allows `.` and `:`).
    #[serde(rename = "toolUseId")]
    pub tool_use_id: String,
    /// Tool name.
    pub name: String,
    /// Arguments: a JSON object.
    pub input: Value,
    /// `type: "server_tool_use"`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `toolResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResultBlock {
    /// The `toolUse` answered.
    #[serde(rename = "toolUseId")]
    pub tool_use_id: String,
    /// `{text}`, `{json}`, `{image}`, `{document}`, `{video}`, `{searchResult}` blocks.
    pub content: Vec<ResultBlock>,
    /// `success` or `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// `type`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A block of `toolResult.content` (a union of one member).
#[derive(Debug, Clone, PartialEq)]
pub enum ResultBlock {
    /// `{"text": "…"}`.
    Text(String),
    /// `{"json": value}`.
    Json(Value),
    /// `{"image": {"format": "png", "source": {"bytes": "<base64>"}}}`.
    Image(ImageBlock),
    /// Any other member or image form, verbatim.
    Raw(Value),
}

/// `image` with inline bytes, as Toolscope reads and writes it (other forms stay `Raw`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageBlock {
    /// `png`, `jpeg`, `gif` or `webp`.
    pub format: String,
    /// `{"bytes": "<base64>"}`.
    pub source: ImageSource,
}

/// `image.source` with inline bytes (base64 in JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSource {
    /// Base64 data.
    pub bytes: String,
}

/// The one member of a union object, or why it is not one.
fn member(v: &Value) -> Result<&str, String> {
    match v {
        Value::Object(m) if m.len() == 1 => Ok(m.keys().next().map(String::as_str).unwrap_or("")),
        Value::Object(m) if m.is_empty() => Err("a block needs exactly one member; none".into()),
        Value::Object(m) => Err(format!(
            "a block has exactly one member, not {}",
            m.keys().cloned().collect::<Vec<_>>().join(", ")
        )),
        _ => Err("a block is an object".into()),
    }
}

/// The value of the one member.
fn inner(v: Value) -> Value {
    match v {
        Value::Object(m) => m.into_iter().next().map(|(_, v)| v).unwrap_or(Value::Null),
        other => other,
    }
}

fn one<S: Serializer, T: Serialize>(s: S, key: &str, v: &T) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(key, v)?;
    m.end()
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Block::Text(t) => one(s, "text", t),
            Block::ToolUse(u) => one(s, "toolUse", u),
            Block::ToolResult(r) => one(s, "toolResult", r),
            Block::Raw(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let key = member(&v).map_err(de::Error::custom)?.to_string();
        match key.as_str() {
            "text" if v.get("text").is_some_and(Value::is_string) => Ok(Block::Text(
                inner(v).as_str().unwrap_or_default().to_string(),
            )),
            "text" => Err(de::Error::custom("text: a string")),
            "toolUse" => serde_json::from_value(inner(v))
                .map(Block::ToolUse)
                .map_err(|e| de::Error::custom(format!("toolUse: {e}"))),
            "toolResult" => serde_json::from_value(inner(v))
                .map(Block::ToolResult)
                .map_err(|e| de::Error::custom(format!("toolResult: {e}"))),
            _ => Ok(Block::Raw(v)),
        }
    }
}

impl Serialize for ResultBlock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ResultBlock::Text(t) => one(s, "text", t),
            ResultBlock::Json(v) => one(s, "json", v),
            ResultBlock::Image(i) => one(s, "image", i),
            ResultBlock::Raw(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ResultBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let key = member(&v).map_err(de::Error::custom)?.to_string();
        match key.as_str() {
            "text" if v.get("text").is_some_and(Value::is_string) => Ok(ResultBlock::Text(
                inner(v).as_str().unwrap_or_default().to_string(),
            )),
            "text" => Err(de::Error::custom("text: a string")),
            "json" => Ok(ResultBlock::Json(inner(v))),
            "image" => match v
                .get("image")
                .cloned()
                .map(serde_json::from_value::<ImageBlock>)
            {
                Some(Ok(img)) => Ok(ResultBlock::Image(img)),
                _ => Ok(ResultBlock::Raw(v)),
            },
            _ => Ok(ResultBlock::Raw(v)),
        }
    }
}

impl Serialize for ToolEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolEntry::Spec(t) => one(s, "toolSpec", t),
            ToolEntry::Raw(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ToolEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let key = member(&v).map_err(de::Error::custom)?.to_string();
        match key.as_str() {
            "toolSpec" => serde_json::from_value(inner(v))
                .map(ToolEntry::Spec)
                .map_err(|e| de::Error::custom(format!("toolSpec: {e}"))),
            _ => Ok(ToolEntry::Raw(v)),
        }
    }
}

/// The response body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// `{"message": {…}}`.
    pub output: Output,
    /// `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `guardrail_intervened`,
    /// `content_filtered`, `malformed_model_output`, `malformed_tool_use`,
    /// `model_context_window_exceeded`.
    #[serde(rename = "stopReason")]
    pub stop_reason: String,
    /// Token counts.
    pub usage: Usage,
    /// `{"latencyMs": n}`.
    pub metrics: Value,
    /// `additionalModelResponseFields`, `trace`, `performanceConfig`, `serviceTier`, unknown
    /// fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `output`: a union whose only member is `message`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The assistant's message.
    pub message: Message,
}

/// `usage`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    #[serde(rename = "inputTokens")]
    pub input_tokens: u64,
    /// Generated tokens.
    #[serde(rename = "outputTokens")]
    pub output_tokens: u64,
    /// Their sum (as Bedrock reports it).
    #[serde(rename = "totalTokens")]
    pub total_tokens: u64,
    /// `cacheReadInputTokens`, `cacheWriteInputTokens`, `cacheDetails`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
