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
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Read by hand rather than derived: serde's `flatten` reads the object through its buffered
/// form and its `extra` through a second deserialiser, which is a large part of reading a long
/// conversation. Same results and errors as the derived reader: known fields read as their
/// types (a repeated one is an error), the others kept in `extra` in document order.
impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MessageVisitor)
    }
}

struct MessageVisitor;

impl<'de> serde::de::Visitor<'de> for MessageVisitor {
    type Value = Message;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("struct Message")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Message, A::Error> {
        /// A known field seen twice is an error, as in a derived reader.
        fn once<T, E: serde::de::Error>(slot: &Option<T>, name: &'static str) -> Result<(), E> {
            match slot {
                Some(_) => Err(E::duplicate_field(name)),
                None => Ok(()),
            }
        }
        let mut role = None;
        let mut tool_call_id: Option<Option<String>> = None;
        let mut content = None;
        let mut tool_calls = None;
        let mut function_call = None;
        let mut extra = Fields::new();
        while let Some(Key(key)) = map.next_key()? {
            match &*key {
                "role" => {
                    once(&role, "role")?;
                    role = Some(map.next_value::<Role>()?);
                }
                "tool_call_id" => {
                    once(&tool_call_id, "tool_call_id")?;
                    tool_call_id = Some(map.next_value()?);
                }
                "content" => {
                    once(&content, "content")?;
                    content = Some(map.next_value()?);
                }
                "tool_calls" => {
                    once(&tool_calls, "tool_calls")?;
                    tool_calls = Some(map.next_value()?);
                }
                "function_call" => {
                    once(&function_call, "function_call")?;
                    function_call = Some(map.next_value()?);
                }
                _ => {
                    let v = map.next_value::<Value>()?;
                    extra.insert(key.into_owned(), v);
                }
            }
        }
        Ok(Message {
            role: role.ok_or_else(|| A::Error::missing_field("role"))?,
            tool_call_id: tool_call_id.flatten(),
            content: content.unwrap_or_default(),
            tool_calls: tool_calls.unwrap_or_default(),
            function_call: function_call.unwrap_or_default(),
            extra,
        })
    }
}

/// An object key, borrowed from the text when it has no escapes (a known field's name then
/// costs no copy).
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> serde::de::Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a field name")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key(std::borrow::Cow::Owned(v)))
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
        d.deserialize_any(ToolCallVisitor)
    }
}

impl ToolCall {
    /// The entry from its members (in document order): a plain function call is built from
    /// them directly; anything else goes through the value as before, for the same results and
    /// errors.
    fn from_members<E: serde::de::Error>(members: Vec<(String, Value)>) -> Result<Self, E> {
        let member = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let function = match member("type") {
            Some(t) => t.as_str() == Some("function"),
            None => member("function").is_some(),
        };
        if !function {
            return Ok(ToolCall::Other(Value::Object(
                members.into_iter().collect(),
            )));
        }
        let plain = matches!(member("id"), None | Some(Value::String(_) | Value::Null))
            && member("function").is_some_and(|f| f.get("name").is_some_and(Value::is_string));
        if !plain {
            return serde_json::from_value(Value::Object(members.into_iter().collect()))
                .map(ToolCall::Function)
                .map_err(|e| E::custom(format!("function tool call: {e}")));
        }
        let mut call = FunctionToolCall {
            id: None,
            kind: None,
            function: FunctionCall {
                name: String::new(),
                arguments: Value::Null,
                extra: Fields::new(),
            },
            extra: Fields::new(),
        };
        for (k, v) in members {
            match (k.as_str(), v) {
                ("id", Value::String(id)) => call.id = Some(id),
                ("id", _) => {}
                ("type", _) => call.kind = Some(FunctionTag::Function),
                ("function", Value::Object(f)) => {
                    for (fk, fv) in f {
                        match (fk.as_str(), fv) {
                            ("name", Value::String(name)) => call.function.name = name,
                            ("arguments", arguments) => call.function.arguments = arguments,
                            (_, fv) => {
                                call.function.extra.insert(fk, fv);
                            }
                        }
                    }
                }
                (_, v) => {
                    call.extra.insert(k, v);
                }
            }
        }
        Ok(ToolCall::Function(call))
    }
}

/// Reads a `tool_calls` entry's members without building an object first (any other JSON
/// value is kept as it is).
struct ToolCallVisitor;

impl<'de> serde::de::Visitor<'de> for ToolCallVisitor {
    type Value = ToolCall;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a tool call")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ToolCall, A::Error> {
        let mut members: Vec<(String, Value)> = Vec::with_capacity(4);
        while let Some(k) = map.next_key::<String>()? {
            let v: Value = map.next_value()?;
            // A repeated key keeps its first place and its last value, as in an object.
            match members.iter_mut().find(|(m, _)| *m == k) {
                Some(slot) => slot.1 = v,
                None => members.push((k, v)),
            }
        }
        ToolCall::from_members(members)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<ToolCall, A::Error> {
        let v = Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
        Ok(ToolCall::Other(v))
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::Bool(v)))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::from(v)))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::from(v)))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::from(v)))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::String(v.to_string())))
    }
    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::String(v)))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::Null))
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<ToolCall, E> {
        Ok(ToolCall::Other(Value::Null))
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
            match FunctionTool::from_plain(v) {
                Ok(tool) => Ok(ToolDef::Function(tool)),
                Err(v) => serde_json::from_value(v)
                    .map(ToolDef::Function)
                    .map_err(|e| D::Error::custom(format!("function tool: {e}"))),
            }
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

impl FunctionTool {
    /// The tool from its object when every known field has its plain form (what the derived
    /// reader makes of it, without reading the schema a second time); the object back
    /// otherwise, for the derived reader and its errors.
    fn from_plain(v: Value) -> Result<Self, Value> {
        let plain = |o: &Fields| {
            matches!(o.get("type"), None | Some(Value::String(_)))
                && o.get("function")
                    .and_then(Value::as_object)
                    .is_some_and(|f| {
                        f.get("name").is_some_and(Value::is_string)
                            && matches!(
                                f.get("description"),
                                None | Some(Value::String(_) | Value::Null)
                            )
                            && matches!(f.get("strict"), None | Some(Value::Bool(_) | Value::Null))
                    })
        };
        let o = match v {
            // `type` is `function` or absent here (the caller checked).
            Value::Object(o) if plain(&o) => o,
            v => return Err(v),
        };
        let mut tool = FunctionTool {
            kind: None,
            function: FunctionDef {
                name: String::new(),
                description: Field::Absent,
                parameters: Field::Absent,
                strict: Field::Absent,
                extra: Fields::new(),
            },
            extra: Fields::new(),
        };
        for (k, v) in o {
            match (k.as_str(), v) {
                ("type", _) => tool.kind = Some(FunctionTag::Function),
                ("function", Value::Object(f)) => {
                    let def = &mut tool.function;
                    for (fk, fv) in f {
                        match (fk.as_str(), fv) {
                            ("name", Value::String(name)) => def.name = name,
                            ("description", Value::String(d)) => def.description = Field::Value(d),
                            ("strict", Value::Bool(b)) => def.strict = Field::Value(b),
                            ("description", Value::Null) => def.description = Field::Null,
                            ("strict", Value::Null) => def.strict = Field::Null,
                            ("parameters", Value::Null) => def.parameters = Field::Null,
                            ("parameters", p) => def.parameters = Field::Value(p),
                            (_, fv) => {
                                def.extra.insert(fk, fv);
                            }
                        }
                    }
                }
                (_, v) => {
                    tool.extra.insert(k, v);
                }
            }
        }
        Ok(tool)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// How entries were read before the members were read directly: through a value.
    fn through_value(v: Value) -> Result<ToolCall, String> {
        let function = match v.get("type") {
            Some(t) => t.as_str() == Some("function"),
            None => v.get("function").is_some(),
        };
        if function {
            serde_json::from_value(v)
                .map(ToolCall::Function)
                .map_err(|e| format!("function tool call: {e}"))
        } else {
            Ok(ToolCall::Other(v))
        }
    }

    /// The derived reader `Message` had before it was read by hand (named alike, for the same
    /// messages).
    mod derived {
        use super::super::{Content, Field, Fields, FunctionCall, Role, ToolCall};
        use serde::Deserialize;

        #[derive(Deserialize, Debug)]
        pub struct Message {
            role: Role,
            #[serde(default)]
            tool_call_id: Option<String>,
            #[serde(default)]
            content: Field<Content>,
            #[serde(default)]
            tool_calls: Field<Vec<ToolCall>>,
            #[serde(default)]
            function_call: Field<FunctionCall>,
            #[serde(flatten)]
            extra: Fields,
        }

        impl From<Message> for super::Message {
            fn from(m: Message) -> super::Message {
                super::Message {
                    role: m.role,
                    tool_call_id: m.tool_call_id,
                    content: m.content,
                    tool_calls: m.tool_calls,
                    function_call: m.function_call,
                    extra: m.extra,
                }
            }
        }
    }
    use derived::Message as DerivedMessage;

    #[test]
    fn openai_messages_read_as_the_derived_reader_did() {
        let texts = [
            r#"{"role": "user", "content": "hi"}"#,
            r#"{"content": null, "role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}], "refusal": null}"#,
            r#"{"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "x"}], "name": "f", "z": {"a": [1, 2.5, -3]}, "a": true}"#,
            r#"{"role": "tool", "tool_call_id": null, "function_call": {"name": "f", "arguments": "{}"}}"#,
            r#"{"role": "user", "content": "escaped keys", "x	y": 1}"#,
            r#"{"role": "user", "x": 1, "x": 2, "y": 3}"#,
            r#"{"role": "user", "role": "user"}"#,
            r#"{"content": "no role"}"#,
            r#"{"role": "robot"}"#,
            r#"{"role": "user", "content": 5}"#,
            r#"{"role": "user", "tool_call_id": 5}"#,
            r#"{"role": "assistant", "tool_calls": {"id": "c"}}"#,
            r#"{"role": "assistant", "tool_calls": [{"function": {"name": 1}}]}"#,
            r#"{"role": "user", "content": "x", "extra": [1,]}"#,
            r#"["user", "hi"]"#,
            r#""user""#,
            r#"null"#,
        ];
        let show = |r: Result<Message, String>| format!("{r:?}");
        for text in texts {
            let ours = serde_json::from_str::<Message>(text).map_err(|e| e.to_string());
            let derived = serde_json::from_str::<DerivedMessage>(text)
                .map(Message::from)
                .map_err(|e| e.to_string());
            assert_eq!(show(ours), show(derived), "{text}");
            // With the error's pointer, line and column, as every document is read.
            let ours = crate::formats::json::parse::<Vec<Message>>("t", &format!("[{text}]"));
            let derived =
                crate::formats::json::parse::<Vec<DerivedMessage>>("t", &format!("[{text}]"))
                    .map(|ms| ms.into_iter().map(Message::from).collect());
            assert_eq!(ours, derived, "{text}");
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            let ours = Message::deserialize(v.clone()).map_err(|e| e.to_string());
            let derived = DerivedMessage::deserialize(v)
                .map(Message::from)
                .map_err(|e| e.to_string());
            assert_eq!(show(ours), show(derived), "{text}");
        }
    }

    #[test]
    fn openai_function_tools_read_as_the_derived_reader_did() {
        for v in [
            json!({"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": true}}),
            json!({"function": {"parameters": null, "name": "f", "description": null, "strict": null, "x": 1}, "y": [2]}),
            json!({"type": "function", "function": {"name": "f"}, "type": "function"}),
            json!({"type": "function", "function": {"name": "f", "strict": "yes"}}),
            json!({"type": "function", "function": {"name": "f", "description": 3}}),
            json!({"type": "function", "function": {"description": "no name"}}),
            json!({"type": "function", "function": {"name": 2}}),
            json!({"type": "function", "function": "f"}),
            json!({"type": "function"}),
            json!({"type": "web_search"}),
        ] {
            let untyped =
                v.get("type").is_none() && v.get("function").is_some_and(Value::is_object);
            let expected = if untyped || v.get("type").and_then(Value::as_str) == Some("function") {
                serde_json::from_value::<FunctionTool>(v.clone())
                    .map(ToolDef::Function)
                    .map_err(|e| format!("function tool: {e}"))
            } else {
                Ok(ToolDef::Other(v.clone()))
            };
            let from_value = ToolDef::deserialize(v.clone()).map_err(|e| e.to_string());
            assert_eq!(from_value, expected, "{v}");
            let from_text =
                serde_json::from_str::<ToolDef>(&v.to_string()).map_err(|e| e.to_string());
            assert_eq!(from_text.is_ok(), expected.is_ok(), "{v}");
            if let Ok(tool) = from_text {
                assert_eq!(Ok(tool), expected, "{v}");
            }
        }
    }

    #[test]
    fn openai_tool_call_entries_read_as_through_a_value() {
        for v in [
            json!({"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}),
            json!({"function": {"arguments": {"a": 1}, "x": [1], "name": "f"}, "index": 0, "id": null}),
            json!({"type": "function", "function": {"name": "f"}}),
            json!({"type": "custom", "custom": {"name": "f", "input": "x"}, "id": "c"}),
            json!({"type": null, "function": {"name": "f"}}),
            json!({"id": 7, "function": {"name": "f"}}),
            json!({"function": {"name": 1}}),
            json!({"function": "f"}),
            json!({}),
            json!("text"),
            json!([1, {"a": null}]),
            json!(1.5),
            json!(null),
        ] {
            let text = v.to_string();
            let expected = through_value(v.clone());
            let from_value = ToolCall::deserialize(v.clone()).map_err(|e| e.to_string());
            assert_eq!(from_value, expected, "{text}");
            let from_text = serde_json::from_str::<ToolCall>(&text).map_err(|e| e.to_string());
            assert_eq!(from_text.is_ok(), expected.is_ok(), "{text}");
            if let Ok(call) = from_text {
                assert_eq!(Ok(call), expected, "{text}");
            }
        }
        // A repeated key keeps its place and its last value, as in an object.
        let text = r#"{"id": "a", "function": {"name": "f"}, "id": "b"}"#;
        let call = serde_json::from_str::<ToolCall>(text).unwrap();
        let ToolCall::Function(call) = call else {
            panic!("a function call")
        };
        assert_eq!(call.id.as_deref(), Some("b"));
    }
}
