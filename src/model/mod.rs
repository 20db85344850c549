//! The canonical model: one tool-calling exchange, independent of any provider.
//!
//! Every wire format is a view of an [`Exchange`]. Formats decode into it and encode out of it;
//! nothing converts format-to-format directly. What a format cannot carry is reported as a
//! [`Loss`] whose `pointer` is a JSON pointer into the serialised `Exchange`, so a test (or the UI)
//! can check that `decode(encode(x))` differs from `x` only under reported pointers.
//!
//! Provider-only details (Gemini `thoughtSignature`, Responses item ids, unknown fields) live in the
//! `extra` maps, keyed by format id, so a paste survives a round trip through its own format.

pub mod diff;
mod ids;
mod loss;
mod media;
mod models;
mod reasoning;

pub use ids::{assign_missing_ids, rewrite_ids, settle_ids, IdRule};
pub use loss::{count_losses, Loss, LossKind, Losses};
pub use media::{media_label, raw_why};
pub use models::{encoder_model, ChosenModel, ModelFamily, ModelOrigin};
pub use reasoning::{
    provider_name, HostedKind, HostedStep, HostedTool, Opaque, OpaqueKind, Reasoning,
    ReasoningOptions,
};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Provider-only fields, keyed by format id (`"gemini"`, `"openai-responses"`, …), each a JSON
/// object of that format's own field names. An encoder reads only its own key.
///
/// Inside a format's map, the key [`FORM_KEY`] is reserved for form markers: how a pasted
/// document was spelled (a string `input` rather than an item list, a `developer` message
/// rather than `instructions`). They keep a paste byte-faithful in its own format but carry no
/// meaning, so other formats neither emit nor report them.
pub type Extra = BTreeMap<String, Map<String, Value>>;

/// The reserved key for form markers inside a format's `extra` map (see [`Extra`]).
pub const FORM_KEY: &str = "_toolscope";

/// True for a form-marker key: [`FORM_KEY`] itself or a key spelled `_toolscope:<name>`.
pub fn is_form_key(key: &str) -> bool {
    key.strip_prefix(FORM_KEY)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

/// Pointer of an option the encoder adds or drops: when the exchange has no options at all,
/// the serialised exchange has no `/options` object, so the difference is at `/options`.
pub(crate) fn option_pointer(x: &Exchange, field: &str) -> String {
    if x.options.is_empty() {
        "/options".to_string()
    } else {
        format!("/options/{field}")
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One tool-calling exchange: the request so far (system, tools, choice, messages) and, for a
/// response, the model's last turn as the final assistant message.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    /// Top-level system prompt (OpenAI `system`/`developer` message, Anthropic `system`,
    /// Gemini `systemInstruction`, Responses `instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Tools the model may call, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// Which tools the model may or must call; `None` means the provider's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Whether several calls may come in one turn; `None` means the provider's default (yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_tool_calls: Option<bool>,
    /// Model and sampling settings shared by every provider.
    #[serde(default, skip_serializing_if = "Options::is_empty")]
    pub options: Options,
    /// The conversation, oldest first.
    #[serde(default)]
    pub messages: Vec<Message>,
    /// Provider-only top-level fields (`top_k`, `metadata`, `store`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

/// Settings every provider has under some name.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Model name as the provider spells it: the exchange's own model (a decoded document's),
    /// sent to the providers whose API takes that name (see [`Exchange::model_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The model to send to each provider family, keyed by [`ModelFamily::id`] (`openai`,
    /// `anthropic`, …), where the user chose one; it wins over `model` for that family.
    /// Playground settings rather than request content: no request carries the others', and
    /// the round-trip contract does not compare them (old links without it keep loading).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<String, String>,
    /// Output token limit (`max_tokens`, `max_completion_tokens`, `max_output_tokens`,
    /// `maxOutputTokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<String>,
    /// Reasoning settings (thinking on, effort, budget, encrypted content).
    #[serde(default, skip_serializing_if = "ReasoningOptions::is_empty")]
    pub reasoning: ReasoningOptions,
}

impl Options {
    /// True when no option is set (then it is left out of the serialised exchange).
    pub fn is_empty(&self) -> bool {
        *self == Options::default()
    }

    /// The request parameters that are set, by field name (`model`, `max_tokens`,
    /// `temperature`, `top_p`, `stop`): what a format without such parameters drops.
    pub fn set_parameters(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.model.is_some(), "model"),
            (self.max_tokens.is_some(), "max_tokens"),
            (self.temperature.is_some(), "temperature"),
            (self.top_p.is_some(), "top_p"),
            (!self.stop.is_empty(), "stop"),
            (!self.reasoning.is_empty(), "reasoning"),
        ]
        .into_iter()
        .filter_map(|(set, field)| set.then_some(field))
    }
}

/// A tool definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// Function name.
    pub name: String,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments (normally `{"type": "object", …}`).
    #[serde(default = "empty_object_schema")]
    pub input_schema: Value,
    /// OpenAI strict mode; `None` when not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// JSON Schema of the structured result (MCP `outputSchema`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// MCP tool annotations (`readOnlyHint`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// Set for a tool the provider runs itself (web search, code execution, an MCP
    /// connector): the definition as that provider spells it. Other formats drop it with a
    /// loss; `name`, `description` and `input_schema` are for people only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosted: Option<HostedTool>,
    /// Set for a custom tool whose input is free text rather than JSON (Responses `custom`):
    /// its `format` (a grammar, or `{"type": "text"}`). Elsewhere it becomes a function with
    /// one string parameter `input`, the grammar in its description, and a loss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<Value>,
    /// Provider-only fields of the tool.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

impl Tool {
    /// A function tool named `name` taking `input_schema`, nothing else stated.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Tool {
        Tool {
            name: name.into(),
            description: None,
            input_schema,
            strict: None,
            output_schema: None,
            annotations: None,
            hosted: None,
            custom: None,
            extra: Extra::new(),
        }
    }

    /// A tool the provider runs itself, named `name` for people (see [`Tool::hosted`]).
    pub fn of_hosted(name: impl Into<String>, hosted: HostedTool) -> Tool {
        Tool {
            hosted: Some(hosted),
            ..Tool::new(name, empty_object_schema())
        }
    }
}

/// `{"type": "object", "properties": {}}`: the schema of a tool without arguments.
pub fn empty_object_schema() -> Value {
    serde_json::json!({"type": "object", "properties": {}})
}

/// Which tools the model may or must call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolChoice {
    /// How the model uses tools.
    pub mode: ChoiceMode,
    /// Restrict the model to these tools (one name = "this tool"); empty means all tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
}

impl ToolChoice {
    /// `mode` with no restriction.
    pub fn mode(mode: ChoiceMode) -> Self {
        ToolChoice {
            mode,
            tools: Vec::new(),
        }
    }
    /// Force one named tool.
    pub fn force(name: impl Into<String>) -> Self {
        ToolChoice {
            mode: ChoiceMode::Required,
            tools: vec![name.into()],
        }
    }
}

/// Tool use mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceMode {
    /// The model decides (OpenAI `auto`, Anthropic `auto`, Gemini `AUTO`).
    Auto,
    /// No tool calls (OpenAI `none`, Anthropic `none`, Gemini `NONE`).
    None,
    /// At least one call (OpenAI `required`, Anthropic `any`/`tool`, Gemini `ANY`).
    Required,
    /// Gemini `VALIDATED`: calls or text, calls constrained to the schemas.
    Validated,
}

/// Who speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The person (text and other content).
    User,
    /// The model (text and tool calls).
    Assistant,
    /// Tool results handed back to the model; holds only [`Part::ToolResult`] parts. Formats that
    /// put results in a user message (Anthropic, Gemini) merge it with a following user message.
    Tool,
}

/// One turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// Content, in order.
    #[serde(default)]
    pub parts: Vec<Part>,
    /// Why the model stopped (assistant messages of a response).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// Token usage reported with a response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Provider-only fields of the message (response ids, `created`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

impl Message {
    /// A message with these parts and nothing else.
    pub fn new(role: Role, parts: Vec<Part>) -> Self {
        Message {
            role,
            parts,
            stop_reason: None,
            usage: None,
            extra: Extra::new(),
        }
    }
    /// The tool calls of this message, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|p| match p {
            Part::ToolCall(c) => Some(c),
            _ => None,
        })
    }
    /// The tool results of this message, in order.
    pub fn tool_results(&self) -> impl Iterator<Item = &ToolResult> {
        self.parts.iter().filter_map(|p| match p {
            Part::ToolResult(r) => Some(r),
            _ => None,
        })
    }
}

/// Why generation ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Natural end (`stop`, `end_turn`, `STOP`).
    EndTurn,
    /// The model wants tool results (`tool_calls`, `tool_use`).
    ToolUse,
    /// Token limit (`length`, `max_tokens`, `MAX_TOKENS`).
    MaxTokens,
    /// A stop sequence matched.
    StopSequence,
    /// Filtered or refused (`content_filter`, `refusal`, `SAFETY`).
    ContentFilter,
    /// Anything else, as the provider spelled it.
    #[serde(untagged)]
    Other(String),
}

/// Token counts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    /// Plain text.
    Text {
        /// The text (may be empty: some providers send empty text next to tool calls).
        text: String,
        /// Provider-only fields (Gemini `thoughtSignature`, …).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        extra: Extra,
    },
    /// The model asks for a tool.
    ToolCall(ToolCall),
    /// A tool's answer.
    ToolResult(ToolResult),
    /// The model's reasoning: visible text and/or opaque state bound to its provider.
    Reasoning(Reasoning),
    /// A step of a tool the provider ran itself (web search, code execution, remote MCP).
    Hosted(HostedStep),
    /// A block this model has no type for (images, citations…), kept verbatim for the
    /// format it came from and reported as a loss elsewhere.
    Raw {
        /// Format id of the source.
        format: String,
        /// The block as it was.
        value: Value,
    },
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text {
            text: text.into(),
            extra: Extra::new(),
        }
    }
}

/// A tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// Call id pairing the call with its result; `None` when the source had none (Gemini).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tool name.
    pub name: String,
    /// Parsed arguments; `null` when `arguments_raw` is not valid JSON.
    #[serde(default = "empty_object")]
    pub arguments: Value,
    /// The argument text exactly as received, when it is not the compact serialisation of
    /// `arguments`: invalid JSON, or JSON spelled differently (spaces, key order). Formats that
    /// send arguments as a string emit it verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments_raw: Option<String>,
    /// Provider-only fields (Gemini `thoughtSignature`, Responses item `id`/`status`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

impl ToolCall {
    /// A call with parsed arguments.
    pub fn new(id: Option<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id,
            name: name.into(),
            arguments,
            arguments_raw: None,
            extra: Extra::new(),
        }
    }

    /// A call whose arguments arrived as JSON text (OpenAI `arguments`, streamed fragments).
    /// Empty or blank text becomes `{}`; text that is not valid JSON is kept in `arguments_raw`
    /// with `arguments` set to `null`; valid JSON spelled other than compactly is kept verbatim
    /// in `arguments_raw` as well, so it is re-emitted byte for byte.
    pub fn from_text(id: Option<String>, name: impl Into<String>, text: &str) -> Self {
        let mut call = ToolCall::new(id, name, empty_object());
        call.set_arguments_text(text);
        call
    }

    /// Replace the arguments by JSON text, with the rules of [`ToolCall::from_text`].
    pub fn set_arguments_text(&mut self, text: &str) {
        if text.trim().is_empty() {
            self.arguments = empty_object();
            self.arguments_raw = None;
            return;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v) => {
                self.arguments_raw = (!is_compact_of(&v, text)).then(|| text.to_string());
                self.arguments = v;
            }
            Err(_) => {
                self.arguments = Value::Null;
                self.arguments_raw = Some(text.to_string());
            }
        }
    }

    /// The argument text to send to string-argument formats: the raw text if any, else the
    /// compact serialisation.
    pub fn arguments_text(&self) -> String {
        match &self.arguments_raw {
            Some(raw) => raw.clone(),
            None => serde_json::to_string(&self.arguments).unwrap_or_else(|_| "{}".into()),
        }
    }

    /// True when the arguments are not valid JSON.
    pub fn arguments_invalid(&self) -> bool {
        self.arguments_raw.is_some() && self.arguments.is_null()
    }
}

/// True when `text` is exactly the compact serialisation of `v`: compared as it is written,
/// without building the compact text (every decoded call's arguments go through this).
fn is_compact_of(v: &Value, text: &str) -> bool {
    /// Consumes the expected bytes while they match what serde writes.
    struct Same<'a> {
        rest: &'a [u8],
        same: bool,
    }
    impl std::io::Write for Same<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            match self.rest.strip_prefix(buf) {
                Some(rest) if self.same => self.rest = rest,
                _ => self.same = false,
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Same {
        rest: text.as_bytes(),
        same: true,
    };
    serde_json::to_writer(&mut w, v).is_ok() && w.same && w.rest.is_empty()
}

/// A tool's answer to one call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolResult {
    /// Id of the call answered; `None` when the source pairs by order (Gemini, legacy XML).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Name of the tool answered, where the format carries it (Gemini, legacy OpenAI
    /// `role: "function"`, legacy XML).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the tool returned.
    pub content: ResultContent,
    /// The tool failed; `content` is the error.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// Provider-only fields.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

impl ToolResult {
    /// A result with this content.
    pub fn new(call_id: Option<String>, content: ResultContent) -> Self {
        ToolResult {
            call_id,
            name: None,
            content,
            is_error: false,
            extra: Extra::new(),
        }
    }
}

/// The content of a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultContent {
    /// Plain text.
    Text(String),
    /// A JSON value (Gemini `response`, MCP `structuredContent`).
    Json(Value),
    /// Content blocks (text, images, …).
    Blocks(Vec<Block>),
}

impl ResultContent {
    /// The content as one string: text as is, JSON compact, blocks' texts joined by newlines.
    pub fn to_text(&self) -> String {
        match self {
            ResultContent::Text(t) => t.clone(),
            ResultContent::Json(v) => serde_json::to_string(v).unwrap_or_default(),
            ResultContent::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// A content block inside a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An inline image.
    Image {
        /// MIME type (`image/png`).
        media_type: String,
        /// Base64 data.
        data: String,
    },
    /// A block of a format-specific type, kept verbatim.
    Raw {
        /// Format id of the source.
        format: String,
        /// The block as it was.
        value: Value,
    },
}

impl Exchange {
    /// What a request body carries: everything but the response metadata of past turns
    /// (`stop_reason`, `usage`), which no request format has a place for. Request encoders
    /// leave those out without reporting them, and request decoders return this view.
    pub fn request_view(&self) -> Exchange {
        self.as_request().into_owned()
    }

    /// [`Exchange::request_view`], borrowing the exchange when no past turn has response
    /// metadata (then there is nothing to leave out, and no copy is made).
    pub fn as_request(&self) -> std::borrow::Cow<'_, Exchange> {
        if !self
            .messages
            .iter()
            .any(|m| m.stop_reason.is_some() || m.usage.is_some())
        {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut x = self.clone();
        for m in &mut x.messages {
            m.stop_reason = None;
            m.usage = None;
        }
        std::borrow::Cow::Owned(x)
    }

    /// What a response body carries: the model name and the last message when the model spoke
    /// last. Response encoders encode this view and response decoders return it, so the two
    /// compare directly.
    pub fn response_view(&self) -> Exchange {
        Exchange {
            options: Options {
                model: self.options.model.clone(),
                models: self.options.models.clone(),
                ..Options::default()
            },
            messages: self
                .messages
                .last()
                .filter(|m| m.role == Role::Assistant)
                .cloned()
                .into_iter()
                .collect(),
            ..Exchange::default()
        }
    }

    /// This exchange with `response` (a decoded response body: see [`Exchange::response_view`])
    /// as its model's last turn: the final assistant message is replaced (or appended when the
    /// conversation does not end with one) and the model name taken when the response names
    /// one. Editing a response pane edits this turn and keeps the conversation before it.
    pub fn with_response(&self, response: &Exchange) -> Exchange {
        let mut x = self.clone();
        if let Some(model) = &response.options.model {
            x.options.model = Some(model.clone());
            // The response's provider answered with its model; the others keep theirs.
            x.keep_models_from(self);
        }
        if let Some(turn) = response
            .messages
            .iter()
            .rev()
            .find(|m| m.role == Role::Assistant)
        {
            if x.messages.last().is_some_and(|m| m.role == Role::Assistant) {
                x.messages.pop();
            }
            x.messages.push(turn.clone());
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_argument_text_is_kept_only_when_not_compact() {
        let kept = |text: &str| ToolCall::from_text(None, "f", text).arguments_raw;
        assert_eq!(kept(r#"{"a":1,"b":[true,null]}"#), None);
        assert_eq!(
            kept(r#"{"b":"x","a":{}}"#),
            None,
            "document order is compact"
        );
        assert_eq!(kept(r#"{"a": 1}"#).as_deref(), Some(r#"{"a": 1}"#));
        assert_eq!(kept(r#"{"a":1} "#).as_deref(), Some(r#"{"a":1} "#));
        assert_eq!(kept(r#"{"a":1.0}"#), None, "serde writes 1.0");
        assert_eq!(kept(r#"{"a":1e2}"#).as_deref(), Some(r#"{"a":1e2}"#));
        assert_eq!(
            kept(r#"{"a":"\u00e9"}"#).as_deref(),
            Some(r#"{"a":"\u00e9"}"#)
        );
        assert_eq!(kept(r#"{"a":"é"}"#), None);
        assert_eq!(kept("[1,2"), Some("[1,2".into()));
        assert_eq!(kept("  "), None);
    }
}
