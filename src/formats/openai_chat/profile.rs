//! The OpenAI-compatible dialects as profiles: [`Profile`] says, method by method, how an API
//! differs from OpenAI's Chat Completions, with OpenAI's answer as the default. Each dialect is
//! a file of its own (`deepseek.rs`, `mistral.rs`, `cohere.rs`, `ollama.rs`) that overrides
//! what its API does otherwise; the converter (`convert.rs`) asks the profile and never names a
//! dialect.

use crate::model::{ChoiceMode, IdRule, ModelFamily, StopReason};

/// `max_tokens`: the token limit of the compatible APIs (and OpenAI's deprecated one).
pub const MAX_TOKENS: &str = "max_tokens";
/// `max_completion_tokens`: OpenAI's token limit.
pub const MAX_COMPLETION_TOKENS: &str = "max_completion_tokens";

/// How strict mode on a tool is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strict {
    /// Honoured.
    Yes,
    /// Honoured only on the beta endpoint (DeepSeek): kept, reported.
    BetaOnly,
    /// No strict mode: dropped, reported.
    No,
}

/// How call arguments may travel besides JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectArguments {
    /// Always JSON text; an object is read and sent back as text (reported).
    Never,
    /// Some responses send an object: read, and sent back so (Mistral).
    Kept,
    /// Always a JSON object (Ollama).
    Always,
}

/// One API speaking Chat Completions: every method has OpenAI's answer as its default.
pub trait Profile: Sync {
    /// Format id: the key of this dialect's fields in `extra` maps.
    fn id(&self) -> &'static str;
    /// Provider name, for loss messages.
    fn provider(&self) -> &'static str;
    /// The provider family whose model names this API takes.
    fn family(&self) -> ModelFamily;

    /// What call ids must look like, if anything (OpenAI takes any string).
    fn id_rule(&self) -> Option<IdRule> {
        None
    }
    /// Whether calls and results carry ids at all (Ollama pairs by order and `tool_name`).
    fn has_ids(&self) -> bool {
        true
    }
    /// The request field the output token limit goes to unless a pasted document used the
    /// other one.
    fn max_tokens_field(&self) -> &'static str {
        MAX_COMPLETION_TOKENS
    }
    /// Whether the request has `tool_choice` at all.
    fn has_tool_choice(&self) -> bool {
        true
    }
    /// A `tool_choice` word → mode.
    fn mode_from_wire(&self, word: &str) -> Option<ChoiceMode> {
        openai_mode(word)
    }
    /// Mode → `tool_choice` word (`Validated` has none: sent as auto; `None` when the API has
    /// no word for the mode).
    fn mode_to_wire(&self, mode: ChoiceMode) -> Option<&'static str> {
        Some(match mode {
            ChoiceMode::None => "none",
            ChoiceMode::Required => "required",
            ChoiceMode::Auto | ChoiceMode::Validated => "auto",
        })
    }
    /// Whether `required` is a second word for the required mode, kept as a form marker when
    /// a paste used it (Mistral sends `any`).
    fn required_alias(&self) -> bool {
        false
    }
    /// Whether a function tool may leave out `"type": "function"` (the Mistral, Cohere and
    /// Ollama APIs and SDKs take `{"function": {…}}`; OpenAI and DeepSeek require the type).
    fn tool_type_optional(&self) -> bool {
        false
    }
    /// Whether tool calls carry `"type": "function"` (Ollama's are `{function}` alone).
    fn typed_calls(&self) -> bool {
        true
    }
    /// Whether tool_choice can restrict the model to several tools (`allowed_tools`).
    fn has_allowed_tools(&self) -> bool {
        true
    }
    /// Whether tool_choice can name one function.
    fn has_named_choice(&self) -> bool {
        true
    }
    /// Whether the request has `parallel_tool_calls`.
    fn has_parallel_tool_calls(&self) -> bool {
        true
    }
    /// How a tool's `strict` flag is taken.
    fn strict(&self) -> Strict {
        Strict::Yes
    }
    /// How call arguments may travel besides JSON text.
    fn object_arguments(&self) -> ObjectArguments {
        ObjectArguments::Never
    }
    /// The field of a tool message that names the tool, when the dialect always sends one.
    fn result_name_field(&self) -> Option<&'static str> {
        None
    }
    /// Whether a JSON object result travels as a document (`{"type": "document", …}`:
    /// Cohere) rather than as text.
    fn document_results(&self) -> bool {
        false
    }
    /// Whether message content is one string only (no content parts).
    fn string_content(&self) -> bool {
        false
    }
    /// Whether an assistant message without text leaves `content` out (Cohere) rather than
    /// sending `null`.
    fn omits_empty_content(&self) -> bool {
        false
    }
    /// Whether the text before calls travels as `tool_plan` (Cohere).
    fn tool_plan(&self) -> bool {
        false
    }
    /// Response fields emitted with their default value unless a pasted document left them
    /// out (remembered as omitted).
    fn emits_default(&self, _field: &str) -> bool {
        true
    }
    /// Whether a response must carry `usage` (the SDK's type requires it).
    fn requires_usage(&self) -> bool {
        false
    }
    /// Whether the response names the model.
    fn response_has_model(&self) -> bool {
        true
    }
    /// finish_reason → stop reason.
    fn finish_from_wire(&self, word: &str, _has_calls: bool) -> StopReason {
        openai_finish(word, self.content_filter())
    }
    /// Stop reason → finish_reason, or `None` when the dialect has no word for it.
    fn finish_to_wire(&self, reason: &StopReason, _has_calls: bool) -> Option<String> {
        let word = match reason {
            StopReason::EndTurn => "stop",
            StopReason::ToolUse => "tool_calls",
            StopReason::MaxTokens => "length",
            StopReason::ContentFilter if self.content_filter() => "content_filter",
            StopReason::Other(s) if self.own_finish(s) => s,
            _ => return None,
        };
        Some(word.to_string())
    }
    /// Whether `content_filter` is a finish reason of this API.
    fn content_filter(&self) -> bool {
        true
    }
    /// Finish reasons of this API beyond stop, tool calls, length and content filter (OpenAI:
    /// the deprecated `function_call`, read as tool use).
    fn own_finish(&self, word: &str) -> bool {
        word == "function_call"
    }
    /// The finish_reason derived from the message when it has no stop reason.
    fn derived_finish(&self, has_calls: bool) -> &'static str {
        if has_calls {
            "tool_calls"
        } else {
            "stop"
        }
    }
}

/// OpenAI's `tool_choice` words.
pub fn openai_mode(word: &str) -> Option<ChoiceMode> {
    match word {
        "none" => Some(ChoiceMode::None),
        "auto" => Some(ChoiceMode::Auto),
        "required" => Some(ChoiceMode::Required),
        _ => None,
    }
}

/// OpenAI's finish reasons (`content_filter` where the API has it).
pub fn openai_finish(word: &str, content_filter: bool) -> StopReason {
    match word {
        "stop" => StopReason::EndTurn,
        "tool_calls" => StopReason::ToolUse,
        "length" => StopReason::MaxTokens,
        "content_filter" if content_filter => StopReason::ContentFilter,
        _ => StopReason::Other(word.to_string()),
    }
}

/// OpenAI itself: every default.
pub struct OpenAi;

impl Profile for OpenAi {
    fn id(&self) -> &'static str {
        <super::Codec as crate::formats::Codec>::ID
    }
    fn provider(&self) -> &'static str {
        "OpenAI"
    }
    fn family(&self) -> ModelFamily {
        ModelFamily::OpenAi
    }
}
