//! Serde types of the Responses API bodies, as the `openai` SDK declares them
//! (`ResponseCreateParamsNonStreaming`, `Response`, `ResponseInputItemParam`, …).
//!
//! Only what the canonical model reads is typed; everything else stays in `extra` maps or
//! `Other(Value)` variants so a pasted document comes back unchanged. Fields that may be absent
//! *or* `null` use [`Field`], so the two stay apart.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};

pub use crate::formats::field::Field;

/// The body of `POST /v1/responses`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Request {
    /// Model name.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub model: Field<String>,
    /// System prompt.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub instructions: Field<String>,
    /// The conversation: one string or a list of items.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub input: Field<Input>,
    /// Tool definitions.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tools: Field<Vec<ToolDef>>,
    /// `"none"`, `"auto"`, `"required"`, `{type: "function", name}`, `{type: "allowed_tools", …}`
    /// or a built-in tool's choice; read by the converter.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tool_choice: Field<Value>,
    /// Whether several calls may come in one turn.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub parallel_tool_calls: Field<bool>,
    /// Output token limit.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub max_output_tokens: Field<u64>,
    /// Sampling temperature (a `Number`, so `0` and `0.0` both survive).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub temperature: Field<Number>,
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub top_p: Field<Number>,
    /// Everything else (`store`, `previous_response_id`, `reasoning`, `text`, `metadata`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `input`: a string (one user message) or a list of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Input {
    /// One user message.
    Text(String),
    /// Items, oldest first.
    Items(Vec<Item>),
}

/// One input or output item. Dispatched on `type` (a message may omit it: the "easy" form
/// `{role, content}`); unknown types are kept verbatim, and a known type with the wrong shape is
/// kept as [`Item::Invalid`] so the converter can report exactly where it is wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `{type?: "message", role, content, …}`.
    Message(MessageItem),
    /// `{type: "function_call", call_id, name, arguments, …}`.
    FunctionCall(FunctionCall),
    /// `{type: "function_call_output", call_id, output, …}`, and the output of a custom tool
    /// (`custom_tool_call_output`, the same shape: `kind` says which).
    FunctionCallOutput(FunctionCallOutput),
    /// `{type: "custom_tool_call", call_id, name, input, …}`: a call of a `custom` tool, whose
    /// input is free text.
    CustomToolCall(CustomToolCall),
    /// Any other item (reasoning, item_reference, built-in tool calls…), verbatim.
    Other(Value),
    /// An item of a known type that does not fit its shape.
    Invalid {
        /// The item as it was.
        value: Value,
        /// JSON pointer of the offending element, relative to the item.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

/// Deserialise `v` as `T`, reporting the pointer (relative to `v`) of the element that does not
/// fit.
pub fn typed<T: DeserializeOwned>(v: Value) -> Result<T, (String, String)> {
    crate::formats::json::typed(v)
}

impl Item {
    /// Classify a JSON value as an item.
    pub fn from_value(v: Value) -> Item {
        if !v.is_object() {
            return Item::Invalid {
                value: v,
                pointer: String::new(),
                message: "expected an item object".into(),
            };
        }
        let kind = v.get("type").and_then(Value::as_str).map(str::to_string);
        let is_message = match kind.as_deref() {
            Some("message") => true,
            None => v.get("role").is_some(),
            _ => false,
        };
        let checked = |r: Result<Item, (String, String)>, v: Value| {
            r.unwrap_or_else(|(pointer, message)| Item::Invalid {
                value: v,
                pointer,
                message,
            })
        };
        if is_message {
            checked(typed(v.clone()).map(Item::Message), v)
        } else {
            match kind.as_deref() {
                Some("function_call") => checked(typed(v.clone()).map(Item::FunctionCall), v),
                Some("function_call_output" | "custom_tool_call_output") => {
                    checked(typed(v.clone()).map(Item::FunctionCallOutput), v)
                }
                Some("custom_tool_call") => checked(typed(v.clone()).map(Item::CustomToolCall), v),
                _ => Item::Other(v),
            }
        }
    }
}

impl Serialize for Item {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Item::Message(m) => m.serialize(s),
            Item::FunctionCall(c) => c.serialize(s),
            Item::FunctionCallOutput(o) => o.serialize(s),
            Item::CustomToolCall(c) => c.serialize(s),
            Item::Other(v) | Item::Invalid { value: v, .. } => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Item::from_value(Value::deserialize(d)?))
    }
}

/// A message item. Item-level fields other than `role` and `content` (`type`, `id`, `status`,
/// `phase`, …) live in `extra`, which comes first so `type` leads as in the API's own output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageItem {
    /// `type`, `id`, `status`, `phase` and unknown fields, in document order.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// `user`, `assistant`, `system` or `developer`.
    pub role: String,
    /// A string or content parts.
    pub content: Content,
}

/// Message content: a string or a list of parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Parts (`input_text`, `output_text`, `input_image`, `refusal`, …).
    Parts(Vec<ContentPart>),
}

/// One content part: text parts are typed, every other part is kept verbatim.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentPart {
    /// `input_text` or `output_text`.
    Text {
        /// `input_text` or `output_text`.
        kind: String,
        /// The text.
        text: String,
        /// `annotations`, `logprobs`, `prompt_cache_breakpoint`, unknown fields.
        extra: Map<String, Value>,
    },
    /// Any other part (images, files, refusals), verbatim.
    Other(Value),
}

impl ContentPart {
    /// Classify a JSON value as a content part.
    pub fn from_value(v: Value) -> ContentPart {
        if let Value::Object(mut map) = v {
            let kind = map.get("type").and_then(Value::as_str).map(str::to_string);
            let text_ok = map.get("text").is_some_and(Value::is_string);
            if let (Some(kind @ ("input_text" | "output_text")), true) = (kind.as_deref(), text_ok)
            {
                let kind = kind.to_string();
                map.remove("type");
                let text = match map.remove("text") {
                    Some(Value::String(t)) => t,
                    _ => String::new(),
                };
                return ContentPart::Text {
                    kind,
                    text,
                    extra: map,
                };
            }
            return ContentPart::Other(Value::Object(map));
        }
        ContentPart::Other(v)
    }
}

/// Serialisation shape of a text part.
#[derive(Serialize)]
struct TextPartOut<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    text: &'a str,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl Serialize for ContentPart {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentPart::Text { kind, text, extra } => {
                TextPartOut { kind, text, extra }.serialize(s)
            }
            ContentPart::Other(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ContentPart::from_value(Value::deserialize(d)?))
    }
}

/// `{type: "input_image", image_url}`: an inline image in a function call output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputImage {
    /// Always `input_image`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A `data:` URL.
    pub image_url: String,
}

/// A function call item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// Always `function_call`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Item id (`fc_…`), not the pairing id.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub id: Field<String>,
    /// Pairing id, echoed by the `function_call_output`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub call_id: Field<String>,
    /// Function name.
    pub name: String,
    /// Arguments as JSON text.
    pub arguments: String,
    /// `in_progress`, `completed` or `incomplete`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub status: Field<String>,
    /// `namespace`, `caller`, `async`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A call of a `custom` tool (`ResponseCustomToolCall`): the model's input is free text,
/// shaped by the tool's grammar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomToolCall {
    /// Always `custom_tool_call`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Item id (`ctc_…`), not the pairing id.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub id: Field<String>,
    /// Pairing id, echoed by the `custom_tool_call_output`.
    pub call_id: String,
    /// Tool name.
    pub name: String,
    /// The input text.
    pub input: String,
    /// `in_progress`, `completed` or `incomplete`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub status: Field<String>,
    /// `namespace`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A function call output item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCallOutput {
    /// `function_call_output` (or `custom_tool_call_output`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Item id, when the API returned it.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub id: Field<String>,
    /// The call answered.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub call_id: Field<String>,
    /// The tool that produced the output.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// A string or `input_text`/`input_image`/`input_file` parts.
    pub output: Content,
    /// `in_progress`, `completed` or `incomplete`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub status: Field<String>,
    /// `caller`, `namespace`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool definition: function tools are typed, built-in tools kept verbatim.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolDef {
    /// `{type: "function", name, parameters, strict, …}`.
    Function(FunctionTool),
    /// `web_search`, `file_search`, `mcp`, `custom`, …
    Other(Value),
    /// A function tool that does not fit its shape.
    Invalid {
        /// The tool as it was.
        value: Value,
        /// JSON pointer of the offending element, relative to the tool.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

impl Serialize for ToolDef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolDef::Function(f) => f.serialize(s),
            ToolDef::Other(v) | ToolDef::Invalid { value: v, .. } => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ToolDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        if v.get("type").and_then(Value::as_str) == Some("function") {
            Ok(typed(v.clone())
                .map(ToolDef::Function)
                .unwrap_or_else(|(pointer, message)| ToolDef::Invalid {
                    value: v,
                    pointer,
                    message,
                }))
        } else {
            Ok(ToolDef::Other(v))
        }
    }
}

/// A function tool (flat: not nested under `function` as in Chat Completions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionTool {
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Function name.
    pub name: String,
    /// What it does.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub description: Field<String>,
    /// JSON Schema of the arguments (required by the SDK, may be `null`).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub parameters: Field<Value>,
    /// Strict mode (required by the SDK, may be `null`: the API's default, which is strict).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub strict: Field<bool>,
    /// JSON Schema of the output.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub output_schema: Field<Value>,
    /// `defer_loading`, `allowed_callers`, `async`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `{type: "function", name}` or `{type: "allowed_tools", mode, tools}` as written by the encoder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolChoiceObject {
    /// `function` or `allowed_tools`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `auto` or `required` (allowed_tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The function to call (function).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The allowed tools (allowed_tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolChoiceObject>>,
}

/// The `Response` object.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Response {
    /// `resp_…`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub id: Field<Value>,
    /// Always `response`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub object: Field<Value>,
    /// Unix seconds.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub created_at: Field<Value>,
    /// `completed`, `incomplete`, `failed`, …
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub status: Field<Value>,
    /// Error object or `null`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub error: Field<Value>,
    /// `{reason}` when incomplete, else `null`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub incomplete_details: Field<Value>,
    /// Model name.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub model: Field<String>,
    /// Output items, in order.
    #[serde(default)]
    pub output: Vec<Item>,
    /// Echo of the request setting.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub parallel_tool_calls: Field<Value>,
    /// Echo of the request setting.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tool_choice: Field<Value>,
    /// Echo of the request's tools.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub tools: Field<Value>,
    /// Token counts.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub usage: Field<Usage>,
    /// `instructions`, `metadata`, `temperature`, `store`, `reasoning`, unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `usage` of a response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// `{cached_tokens, cache_write_tokens}`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub input_tokens_details: Field<Value>,
    /// Completion tokens.
    pub output_tokens: u64,
    /// `{reasoning_tokens}`.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub output_tokens_details: Field<Value>,
    /// Sum of both.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub total_tokens: Field<Value>,
    /// Unknown fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `incomplete_details` as written by the encoder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IncompleteDetails {
    /// `max_output_tokens`, `content_filter`, `max_messages`, `steered`.
    pub reason: String,
}

/// `usage.input_tokens_details` placeholder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputTokensDetails {
    /// Tokens read from the prompt cache.
    pub cached_tokens: u64,
    /// Tokens written to the prompt cache (required by the SDK).
    pub cache_write_tokens: u64,
}

/// `usage.output_tokens_details` placeholder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputTokensDetails {
    /// Reasoning tokens.
    pub reasoning_tokens: u64,
}
