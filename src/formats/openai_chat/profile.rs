//! The OpenAI-compatible dialects as profiles: [`Profile`] says, method by method, how an API
//! differs from OpenAI's Chat Completions, with OpenAI's answer as the default. Each dialect is
//! a file of its own (`deepseek.rs`, `mistral.rs`, `cohere.rs`, `ollama.rs`) that overrides
//! what its API does otherwise; the converter (`convert.rs`) asks the profile and never names a
//! dialect.

use super::reasoning::{self, OptionSpelling, Spelling};
use crate::formats::spec::Spec;
use crate::model::{ChoiceMode, IdRule, ModelFamily, StopReason};
use crate::providers::Row;

/// `max_tokens`: the token limit of the compatible APIs (and OpenAI's deprecated one).
pub const MAX_TOKENS: &str = "max_tokens";
/// `max_completion_tokens`: OpenAI's token limit.
pub const MAX_COMPLETION_TOKENS: &str = "max_completion_tokens";

/// The switches in which compatible APIs differ from OpenAI's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quirks {
    /// True when calls and results carry ids at all (Ollama pairs by order and `tool_name`).
    pub has_ids: bool,
    /// True when the request has `tool_choice` at all.
    pub has_tool_choice: bool,
    /// True when `required` is a second word for the required mode, kept as a form marker when
    /// a paste used it (Mistral sends `any`).
    pub required_alias: bool,
    /// True when a function tool may leave out `"type": "function"` (the Mistral, Cohere and
    /// Ollama APIs and SDKs take `{"function": {…}}`; OpenAI and DeepSeek require the type).
    pub tool_type_optional: bool,
    /// True when tool calls carry `"type": "function"` (Ollama's are `{function}` alone).
    pub typed_calls: bool,
    /// True when a JSON object result travels as a document (`{"type": "document", …}`:
    /// Cohere) rather than as text.
    pub document_results: bool,
    /// True when message content is one string only (no content parts).
    pub string_content: bool,
    /// True when an assistant message without text leaves `content` out (Cohere) rather than
    /// sending `null`.
    pub omits_empty_content: bool,
    /// True when the text before calls travels as `tool_plan` (Cohere).
    pub tool_plan: bool,
    /// True when a response must carry `usage` (the SDK's type requires it).
    pub requires_usage: bool,
    /// True when the response names the model.
    pub response_has_model: bool,
}

impl Quirks {
    /// OpenAI's answers.
    pub const OPENAI: Quirks = Quirks {
        has_ids: true,
        has_tool_choice: true,
        required_alias: false,
        tool_type_optional: false,
        typed_calls: true,
        document_results: false,
        string_content: false,
        omits_empty_content: false,
        tool_plan: false,
        requires_usage: false,
        response_has_model: true,
    };
}

/// What a request can say about tool choice beyond the modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choices {
    /// tool_choice can restrict the model to several tools (`allowed_tools`).
    pub allowed_tools: bool,
    /// tool_choice can name one function.
    pub named: bool,
    /// The request has `parallel_tool_calls`.
    pub parallel: bool,
}

impl Choices {
    /// OpenAI: all of it.
    pub const ALL: Choices = Choices {
        allowed_tools: true,
        named: true,
        parallel: true,
    };
    /// Modes only.
    pub const MODES: Choices = Choices {
        allowed_tools: false,
        named: false,
        parallel: false,
    };
}

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

/// Who a profile is: its format id, the family whose model names its API takes, and the
/// provider row it speaks for. A format of the registry takes them from its [`Spec`]; a
/// dialect the registry does not list implements this itself.
pub trait FromSpec {
    /// Format id: the key of this dialect's fields in `extra` maps.
    fn id(&self) -> &'static str;
    /// The provider family whose model names this API takes.
    fn family(&self) -> ModelFamily;
    /// The provider the API belongs to: its name is the one loss messages give.
    fn row(&self) -> &'static Row;
}

impl<T: Spec> FromSpec for T {
    fn id(&self) -> &'static str {
        T::ID
    }
    fn family(&self) -> ModelFamily {
        T::MODELS.unwrap_or(ModelFamily::OpenAi)
    }
    fn row(&self) -> &'static Row {
        self.family().row()
    }
}

/// One API speaking Chat Completions: every method has OpenAI's answer as its default.
pub trait Profile: FromSpec + Sync {
    /// Provider name, for loss messages: its row's.
    fn provider(&self) -> &'static str {
        self.row().name
    }
    /// What the API does otherwise than OpenAI, switch by switch.
    fn quirks(&self) -> Quirks {
        Quirks::OPENAI
    }

    /// What call ids must look like, if anything (OpenAI takes any string).
    fn id_rule(&self) -> Option<IdRule> {
        None
    }
    /// The request field the output token limit goes to unless a pasted document used the
    /// other one.
    fn max_tokens_field(&self) -> &'static str {
        MAX_COMPLETION_TOKENS
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
    /// What tool_choice and the parallel switch can say beyond the modes.
    fn choices(&self) -> Choices {
        Choices::ALL
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
    /// Response fields emitted with their default value unless a pasted document left them
    /// out (remembered as omitted).
    fn emits_default(&self, _field: &str) -> bool {
        true
    }
    /// The API's finish reasons.
    fn finish(&self) -> Finish {
        Finish::OPENAI
    }
    /// finish_reason → stop reason.
    fn finish_from_wire(&self, word: &str, _has_calls: bool) -> StopReason {
        self.finish().read(word)
    }
    /// Stop reason → finish_reason, or `None` when the dialect has no word for it.
    fn finish_to_wire(&self, reason: &StopReason, _has_calls: bool) -> Option<String> {
        self.finish().write(reason).map(str::to_string)
    }
    /// Where the finish reason is in the API's response body.
    fn finish_pointer(&self) -> &'static str {
        "/choices/0/finish_reason"
    }
    /// The spellings of reasoning the API reads and writes (a part decoded in one of them goes
    /// back in it): the fields and content items of [`super::reasoning`].
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[
            Spelling::ReasoningContent,
            Spelling::Reasoning,
            Spelling::Details,
        ]
    }
    /// Where visible reasoning from elsewhere goes for `model`, or `None` when the API has no
    /// place for it.
    fn reasoning_spelling(&self, model: &str) -> Option<Spelling> {
        reasoning::compatible_spelling(model)
    }
    /// The provider whose opaque reasoning state the API takes back for `model`, if any.
    fn reasoning_issuer(&self, model: &str) -> Option<&'static str> {
        reasoning::compatible_issuer(model)
    }
    /// How the API takes reasoning settings for `model`, if at all: OpenRouter's object for
    /// `vendor/model` names, `reasoning_effort` otherwise.
    fn reasoning_option(&self, model: &str) -> Option<OptionSpelling> {
        Some(if model.contains('/') {
            OptionSpelling::OpenRouter
        } else {
            OptionSpelling::Effort
        })
    }
    /// The finish_reason derived from the message when it has no stop reason.
    fn derived_finish(&self, has_calls: bool) -> &'static str {
        let f = self.finish();
        if has_calls {
            f.tool_use
        } else {
            f.end_turn
        }
    }
}

pub use crate::formats::shared::Finish;

impl Finish {
    /// OpenAI's finish reasons (`function_call` is deprecated, read as tool use).
    pub const OPENAI: Finish = Finish {
        end_turn: "stop",
        tool_use: "tool_calls",
        max_tokens: "length",
        stop_sequence: None,
        content_filter: Some("content_filter"),
        others: &["function_call"],
    };
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

/// OpenAI itself: every default.
impl Profile for super::Codec {}
