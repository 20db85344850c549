//! Serde types of the Chat Completions bodies: `POST /v1/chat/completions` request and the
//! `chat.completion` response object, as the `openai` Python SDK types them
//! (`CompletionCreateParamsNonStreaming`, `ChatCompletion`).
//!
//! Every object keeps the fields it does not know in `extra`, and every element of an open set
//! (content parts, tool calls, tools, tool_choice forms) has a fallback holding the JSON as it
//! was, so a pasted document survives decode → encode. Known fields that may be `null` are
//! [`Field`]s, so `null` and absent stay apart.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// Unknown fields of an object, in document order.
pub type Fields = Map<String, Value>;

pub use crate::formats::field::Field;

/// `"type": "function"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FunctionTag {
    /// The only value.
    #[default]
    Function,
}

/// `"type": "text"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextTag {
    /// The only value.
    #[default]
    Text,
}

/// `"type": "allowed_tools"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllowedToolsTag {
    /// The only value.
    #[default]
    AllowedTools,
}

/// The request body.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Request {
    /// Model id.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub model: Field<String>,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Tool definitions (function tools; other kinds kept verbatim).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tools: Field<Vec<ToolDef>>,
    /// `none` | `auto` | `required` | a named function | allowed tools.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tool_choice: Field<ToolChoice>,
    /// Whether several calls may come in one turn.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub parallel_tool_calls: Field<bool>,
    /// Output token limit (current name).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub max_completion_tokens: Field<u64>,
    /// Output token limit (deprecated name, still what most compatible APIs read).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub max_tokens: Field<u64>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub temperature: Field<f64>,
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub top_p: Field<f64>,
    /// Stop sequences: one string or a list.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub stop: Field<Stop>,
    /// Deprecated tool definitions (read only).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub functions: Field<Vec<FunctionDef>>,
    /// Deprecated tool choice (read only).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub function_call: Field<FunctionCallChoice>,
    /// Every other field (`n`, `seed`, `store`, `response_format`, …).
    #[serde(flatten)]
    pub extra: Fields,
}

/// Who speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Instructions (older models).
    System,
    /// Instructions (o1 and newer).
    Developer,
    /// The person.
    User,
    /// The model.
    Assistant,
    /// A tool result.
    Tool,
    /// A deprecated function result.
    Function,
}

/// One message. A single struct rather than one type per role, so shape errors point at the
/// exact field; which fields a role may carry is checked when decoding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// Call answered (tool messages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Text or parts; `null` allowed for assistant messages.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub content: Field<Content>,
    /// Calls (assistant messages).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tool_calls: Field<Vec<ToolCall>>,
    /// Deprecated single call (assistant messages, read only).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub function_call: Field<FunctionCall>,
    /// `name`, `refusal`, `audio`, `annotations`, … as they were.
    #[serde(flatten)]
    pub extra: Fields,
}

impl Message {
    /// A message with this role and content and nothing else.
    pub fn new(role: Role, content: Field<Content>) -> Self {
        Message {
            role,
            tool_call_id: None,
            content,
            tool_calls: Field::Absent,
            function_call: Field::Absent,
            extra: Fields::new(),
        }
    }
}

/// Message content: a string or an array of parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Content parts.
    Parts(Vec<ContentPart>),
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Content::Text(s)),
            Value::Array(items) => Ok(Content::Parts(
                items.into_iter().map(ContentPart::from_value).collect(),
            )),
            _ => Err(D::Error::custom(
                "expected a string or an array of content parts",
            )),
        }
    }
}

/// One content part: text, or anything else (image, audio, file, refusal) kept verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ContentPart {
    /// `{"type": "text", "text": …}`.
    Text(TextPart),
    /// Any other part, as it was.
    Other(Value),
}

impl ContentPart {
    fn from_value(v: Value) -> Self {
        let is_text = v.get("type").and_then(Value::as_str) == Some("text")
            && v.get("text").is_some_and(Value::is_string);
        if is_text {
            // Read from the borrowed value: the fallback keeps `v` as it is.
            if let Ok(t) = TextPart::deserialize(&v) {
                return ContentPart::Text(t);
            }
        }
        ContentPart::Other(v)
    }
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ContentPart::from_value(Value::deserialize(d)?))
    }
}

/// A text part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextPart {
    /// `text`.
    #[serde(rename = "type")]
    pub kind: TextTag,
    /// The text.
    pub text: String,
    /// `prompt_cache_breakpoint`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// One entry of `tool_calls`: a function call, or another kind (custom tools) kept verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ToolCall {
    /// `{"id", "type": "function", "function": {"name", "arguments"}}`.
    Function(FunctionToolCall),
    /// Any other kind, as it was.
    Other(Value),
}

impl<'de> Deserialize<'de> for ToolCall {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let function = match v.get("type") {
            Some(t) => t.as_str() == Some("function"),
            None => v.get("function").is_some(),
        };
        if function {
            serde_json::from_value(v)
                .map(ToolCall::Function)
                .map_err(|e| D::Error::custom(format!("function tool call: {e}")))
        } else {
            Ok(ToolCall::Other(v))
        }
    }
}

/// A function tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionToolCall {
    /// Call id (required by OpenAI; missing ids are read as none and assigned on encode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `function` (missing is tolerated on read).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<FunctionTag>,
    /// Name and arguments.
    pub function: FunctionCall,
    /// `index` (left over from streams), …
    #[serde(flatten)]
    pub extra: Fields,
}

/// A function name and its arguments as JSON text (the deprecated `function_call` too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// Function name.
    pub name: String,
    /// JSON text; some compatible servers send an object, which is read too. `null` when
    /// missing.
    #[serde(default)]
    pub arguments: Value,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Fields,
}

/// One entry of `tools`: a function tool, or another kind (custom tools) kept verbatim.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
// A tools list is short and read once per document: boxing the common variant buys nothing.
#[allow(clippy::large_enum_variant)]
pub enum ToolDef {
    /// `{"type": "function", "function": {…}}`.
    Function(FunctionTool),
    /// Any other kind, as it was.
    Other(Value),
}

impl<'de> Deserialize<'de> for ToolDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        // Mistral, Cohere and Ollama take `{"function": {…}}` without `type`: still a function.
        let untyped = v.get("type").is_none() && v.get("function").is_some_and(Value::is_object);
        if untyped || v.get("type").and_then(Value::as_str) == Some("function") {
            serde_json::from_value(v)
                .map(ToolDef::Function)
                .map_err(|e| D::Error::custom(format!("function tool: {e}")))
        } else {
            Ok(ToolDef::Other(v))
        }
    }
}

/// A function tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionTool {
    /// `function`; `None` when left out (Mistral, Cohere and Ollama accept that).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<FunctionTag>,
    /// The definition.
    pub function: FunctionDef,
    /// Unknown fields next to `function`.
    #[serde(flatten)]
    pub extra: Fields,
}

/// A function definition (also the deprecated `functions` entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionDef {
    /// Function name.
    pub name: String,
    /// What it does.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub description: Field<String>,
    /// JSON Schema of the arguments; absent means no arguments.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub parameters: Field<Value>,
    /// Structured-outputs strict mode.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub strict: Field<bool>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Fields,
}

/// `tool_choice`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolChoice {
    /// `"none"`, `"auto"`, `"required"` (or a dialect's own word).
    Mode(String),
    /// `{"type": "function", "function": {"name"}}`.
    Named(NamedToolChoice),
    /// `{"type": "allowed_tools", "allowed_tools": {"mode", "tools"}}`.
    Allowed(AllowedToolChoice),
    /// Any other form (custom tools, unknown fields), as it was.
    Other(Value),
}

/// A forced function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedToolChoice {
    /// `function`.
    #[serde(rename = "type")]
    pub kind: FunctionTag,
    /// The function.
    pub function: NamedFunction,
}

impl NamedToolChoice {
    /// `{"type": "function", "function": {"name": name}}`.
    pub fn new(name: impl Into<String>) -> Self {
        NamedToolChoice {
            kind: FunctionTag::Function,
            function: NamedFunction { name: name.into() },
        }
    }
}

/// `{"name": …}` (also the deprecated `function_call` choice).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedFunction {
    /// Function name.
    pub name: String,
}

/// A restriction to several tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowedToolChoice {
    /// `allowed_tools`.
    #[serde(rename = "type")]
    pub kind: AllowedToolsTag,
    /// Mode and tools.
    pub allowed_tools: AllowedTools,
}

/// `allowed_tools`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllowedTools {
    /// `auto` or `required`.
    pub mode: String,
    /// The allowed functions.
    pub tools: Vec<NamedToolChoice>,
}

/// Deprecated `function_call` choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FunctionCallChoice {
    /// `"none"` or `"auto"`.
    Mode(String),
    /// `{"name": …}`.
    Named(NamedFunction),
    /// Anything else, as it was.
    Other(Value),
}

/// `stop`: one sequence or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Stop {
    /// One sequence.
    One(String),
    /// Several.
    Many(Vec<String>),
}

/// The response body (`chat.completion`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// `chatcmpl-…`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `chat.completion`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<u64>,
    /// Model that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The answers (one unless `n` > 1).
    pub choices: Vec<Choice>,
    /// Token counts.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub usage: Field<Usage>,
    /// `system_fingerprint`, `service_tier`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// One answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// Position among the choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// The assistant message.
    pub message: Message,
    /// Log probabilities (`null` unless requested).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub logprobs: Field<Value>,
    /// `stop`, `length`, `tool_calls`, `content_filter`, `function_call`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub finish_reason: Field<String>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Fields,
}

/// Token counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Their sum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// `prompt_tokens_details`, `completion_tokens_details`, …
    #[serde(flatten)]
    pub extra: Fields,
}
