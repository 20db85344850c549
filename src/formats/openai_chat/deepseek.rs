//! DeepSeek (`deepseek`): <https://api-docs.deepseek.com/api/create-chat-completion>.
//! Wire-identical to OpenAI but for `reasoning_content` on assistant messages (a reasoning
//! part, see [`super::reasoning`]) and `thinking` on requests, no `parallel_tool_calls` (dropped, reported), `strict` honoured only on the
//! beta endpoint (kept, reported), `max_tokens` as the token limit, tool_choice
//! `none`/`auto`/`required`/named (no `allowed_tools`: a restriction to several tools is
//! reported).

use super::dialects::{choice_messages, messages};
use super::profile::{Choices, Finish, Profile, Strict, MAX_TOKENS};
use super::reasoning::{OptionSpelling, Spelling};
use crate::formats::sniff::Node;
use crate::formats::spec::{Header, Http, Send};
use crate::formats::{Format, Kind};
use crate::model::ModelFamily;

/// DeepSeek Chat Completions.
pub struct DeepSeek;

impl crate::formats::Codec for DeepSeek {
    super::chat_codec!(DeepSeek, "deepseek");

    fn sniff_view(v: &Node) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        let model = o
            .get("model")
            .and_then(Node::as_str)
            .is_some_and(|m| m.starts_with("deepseek"));
        if o.contains_key("choices") {
            let reasoning = choice_messages(v).any(|m| m.get("reasoning_content").is_some());
            return (model || reasoning).then_some((Kind::Response, 97));
        }
        let reasoning = messages(v).any(|m| m.get("reasoning_content").is_some());
        (model || reasoning).then_some((Kind::Request, 97))
    }
}

impl Profile for DeepSeek {
    fn reasoning_option(&self, _model: &str) -> Option<OptionSpelling> {
        Some(OptionSpelling::Thinking { budget: false })
    }
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[Spelling::ReasoningContent]
    }
    fn reasoning_spelling(&self, _model: &str) -> Option<Spelling> {
        Some(Spelling::ReasoningContent)
    }
    fn reasoning_issuer(&self, _model: &str) -> Option<&'static str> {
        None
    }
    fn choices(&self) -> Choices {
        Choices {
            allowed_tools: false,
            named: true,
            parallel: false,
        }
    }
    fn max_tokens_field(&self) -> &'static str {
        MAX_TOKENS
    }
    fn strict(&self) -> Strict {
        Strict::BetaOnly
    }
    fn emits_default(&self, field: &str) -> bool {
        field != "refusal"
    }
    fn finish(&self) -> Finish {
        Finish {
            others: &["insufficient_system_resource"],
            ..Finish::OPENAI
        }
    }
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post(
    "DeepSeek (OpenAI-compatible Chat Completions)",
    "https://api.deepseek.com/chat/completions",
)
.headers(&[Header::bearer("DEEPSEEK_API_KEY")])
.openai("chat.completions.create", Some("https://api.deepseek.com"));

impl crate::formats::spec::Spec for DeepSeek {
    const NOTE: &'static str = include_str!("notes/deepseek.md");
    const RULES: crate::rules::RuleSet =
        crate::rules::RuleSet(&[super::rules::RULES, super::rules::deepseek::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::DeepSeek);
    const SEND: Send = Send::Http(API);
    const SPEAKS: Option<Format> = Some(Format::OpenAiChat);
    const HOST: Option<&'static str> = Some("deepseek");
}
