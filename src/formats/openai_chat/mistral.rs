//! Mistral (`mistral`): <https://docs.mistral.ai/api/#tag/chat>, the `mistralai` SDK. Call ids
//! are exactly 9 alphanumerics (rewritten consistently in calls and results, reported); tool
//! messages carry `name` (taken from the call when the model has none, reported); tool_choice
//! `auto`/`none`/`any`/`required`/named (`any` is sent for required); `random_seed`,
//! `safe_prompt`, `prompt_mode` are kept fields; finish reasons `stop`, `length`,
//! `model_length`, `error`, `tool_calls`; arguments may arrive as a JSON object (read, and sent
//! back so).

use super::dialects::{choice_messages, messages, untyped_tools};
use super::profile::{openai_mode, Choices, Finish, ObjectArguments, Profile, Quirks, MAX_TOKENS};
use super::reasoning::{OptionSpelling, Spelling};
use crate::formats::sniff::Node;
use crate::formats::spec::{Header, Http, Sdk, Send};
use crate::formats::{Format, Kind};
use crate::model::{ChoiceMode, IdRule, ModelFamily};

/// Words of Mistral's model names (`mistral-large-latest`, `codestral-2501`, …).
pub(crate) const MISTRAL_MODELS: [&str; 6] = [
    "mistral",
    "magistral",
    "codestral",
    "ministral",
    "pixtral",
    "devstral",
];

/// Mistral Chat Completions.
pub struct Mistral;

/// True when a message's content has a Mistral thinking chunk (`thinking` is a list of
/// chunks; Cohere's thinking item holds a string).
fn thinking_chunks(m: &Node) -> bool {
    m.get("content")
        .and_then(Node::as_array)
        .is_some_and(|items| {
            items.iter().any(|i| {
                i.get("type").and_then(Node::as_str) == Some("thinking")
                    && i.get("thinking").and_then(Node::as_array).is_some()
            })
        })
}

impl crate::formats::Codec for Mistral {
    super::chat_codec!(Mistral, "mistral");

    fn sniff_view(v: &Node) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        let model = o
            .get("model")
            .and_then(Node::as_str)
            .map(str::to_ascii_lowercase)
            .is_some_and(|m| MISTRAL_MODELS.iter().any(|name| m.contains(name)));
        if o.contains_key("choices") {
            let thinking = choice_messages(v).any(thinking_chunks);
            return (model || thinking).then_some((Kind::Response, 97));
        }
        o.get("messages")?;
        let marker = model
            || messages(v).any(thinking_chunks)
            || o.get("tool_choice").and_then(Node::as_str) == Some("any")
            || o.contains_key("random_seed")
            || o.contains_key("safe_prompt")
            || untyped_tools(v);
        marker.then_some((Kind::Request, 97))
    }
}

impl Profile for Mistral {
    /// Magistral models always reason; the API has no reasoning settings.
    fn reasoning_option(&self, _model: &str) -> Option<OptionSpelling> {
        None
    }
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[Spelling::MistralChunk]
    }
    fn reasoning_spelling(&self, _model: &str) -> Option<Spelling> {
        Some(Spelling::MistralChunk)
    }
    fn reasoning_issuer(&self, _model: &str) -> Option<&'static str> {
        None
    }
    fn quirks(&self) -> Quirks {
        Quirks {
            required_alias: true,
            tool_type_optional: true,
            requires_usage: true,
            ..Quirks::OPENAI
        }
    }
    fn choices(&self) -> Choices {
        Choices {
            allowed_tools: false,
            named: true,
            parallel: true,
        }
    }
    fn id_rule(&self) -> Option<IdRule> {
        Some(IdRule::MISTRAL)
    }
    fn max_tokens_field(&self) -> &'static str {
        MAX_TOKENS
    }
    fn mode_from_wire(&self, word: &str) -> Option<ChoiceMode> {
        match word {
            "any" => Some(ChoiceMode::Required),
            _ => openai_mode(word),
        }
    }
    fn mode_to_wire(&self, mode: ChoiceMode) -> Option<&'static str> {
        Some(match mode {
            ChoiceMode::None => "none",
            ChoiceMode::Required => "any",
            ChoiceMode::Auto | ChoiceMode::Validated => "auto",
        })
    }
    fn object_arguments(&self) -> ObjectArguments {
        ObjectArguments::Kept
    }
    fn result_name_field(&self) -> Option<&'static str> {
        Some("name")
    }
    fn emits_default(&self, field: &str) -> bool {
        matches!(field, "id" | "object" | "created" | "index")
    }
    fn finish(&self) -> Finish {
        Finish {
            content_filter: None,
            others: &["model_length", "error"],
            ..Finish::OPENAI
        }
    }
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post(
    "Mistral Chat Completions",
    "https://api.mistral.ai/v1/chat/completions",
)
.headers(&[Header::bearer("MISTRAL_API_KEY")])
.sdk(
    Sdk::new(
        "mistralai",
        "Mistral(api_key=os.environ[\"MISTRAL_API_KEY\"])",
        "chat.complete",
    )
    .import("from mistralai.client import Mistral"),
);

impl crate::formats::spec::Spec for Mistral {
    const NOTE: &'static str = include_str!("notes/mistral.md");
    const RULES: crate::rules::RuleSet =
        crate::rules::RuleSet(&[super::rules::RULES, super::rules::mistral::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Mistral);
    const SEND: Send = Send::Http(API);
    const SPEAKS: Option<Format> = Some(Format::OpenAiChat);
    const HOST: Option<&'static str> = Some("mistral");
}
