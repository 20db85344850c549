//! Reasoning state and provider-run (hosted) tools in the canonical model.
//!
//! A reasoning part holds what a model showed of its thinking (text, summaries) and the opaque
//! state that lets its provider verify that thinking when it is sent back (Anthropic and
//! Bedrock signatures and redacted data, Responses `encrypted_content`, Gemini thought
//! signatures). Opaque state records who issued it: it goes back only to that provider
//! ([`Opaque::replayable_to`]), and crossing providers drops it with a
//! [`LossKind::Reasoning`](super::LossKind::Reasoning) loss whose words come from
//! [`Opaque::why_dropped`].
//!
//! A hosted step is a call or result of a tool the provider ran itself (web search, code
//! execution, a remote MCP server): kept field for field for its own format, shown everywhere,
//! and dropped with a named loss elsewhere.

use super::Extra;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a model showed of its reasoning, and the state only its provider can verify.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reasoning {
    /// Visible reasoning text (Anthropic `thinking`, `reasoning_content`, Responses
    /// `reasoning_text`, a Gemini `thought` part's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Summaries of the reasoning, in order (Responses `summary` parts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<String>,
    /// Opaque state: a signature, encrypted content, redacted data or a thought signature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opaque: Option<Opaque>,
    /// The state rides on the part after this one rather than standing alone: a Gemini
    /// `thoughtSignature` on a `functionCall` or text part, Gemini's OpenAI-compatible
    /// `extra_content.google.thought_signature` on a tool call.
    #[serde(default, skip_serializing_if = "is_false")]
    pub attached: bool,
    /// Provider-only fields (a Responses item `id` and `status`, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: Extra,
}

impl Reasoning {
    /// Visible reasoning with no state.
    pub fn text(text: impl Into<String>) -> Self {
        Reasoning {
            text: Some(text.into()),
            ..Reasoning::default()
        }
    }

    /// True when there is nothing a person can read (only opaque state).
    pub fn is_opaque_only(&self) -> bool {
        self.text.as_deref().is_none_or(str::is_empty) && self.summary.iter().all(String::is_empty)
    }

    /// The readable text: the reasoning text, else the summaries joined by blank lines.
    pub fn readable(&self) -> String {
        match &self.text {
            Some(t) if !t.is_empty() => t.clone(),
            _ => self.summary.join("\n\n"),
        }
    }
}

/// What kind of opaque state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpaqueKind {
    /// A signature over visible thinking (Anthropic `thinking.signature`, Bedrock
    /// `reasoningText.signature`).
    Signature,
    /// Thinking the provider encrypted (Anthropic `redacted_thinking.data`, Bedrock
    /// `redactedContent`).
    Redacted,
    /// Reasoning kept by the provider, encrypted (Responses `encrypted_content`, OpenRouter
    /// `reasoning.encrypted`).
    Encrypted,
    /// Gemini `thoughtSignature`.
    ThoughtSignature,
}

impl OpaqueKind {
    /// For people: `thinking signature`, `redacted thinking`, …
    pub fn label(self) -> &'static str {
        match self {
            OpaqueKind::Signature => "thinking signature",
            OpaqueKind::Redacted => "redacted thinking",
            OpaqueKind::Encrypted => "encrypted reasoning",
            OpaqueKind::ThoughtSignature => "thought signature",
        }
    }

    /// The provider family that issues state of this kind, when only one does (a thought
    /// signature is its issuer's, whichever API carries it: the provider table says whose).
    pub fn sole_issuer(self) -> Option<&'static str> {
        match self {
            OpaqueKind::ThoughtSignature => {
                let mut issuers = crate::providers::Provider::ALL
                    .into_iter()
                    .filter(|p| p.row().reasoning.thought_signatures);
                match (issuers.next(), issuers.next()) {
                    (Some(p), None) => Some(p.id()),
                    _ => None,
                }
            }
            OpaqueKind::Signature | OpaqueKind::Redacted | OpaqueKind::Encrypted => None,
        }
    }
}

/// Opaque reasoning state and who issued it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opaque {
    /// What it is.
    pub kind: OpaqueKind,
    /// The state exactly as issued (base64 or the provider's token).
    pub data: String,
    /// The provider that issued it, by provider family id (`anthropic`, `openai`, `gemini`,
    /// `bedrock`, `openrouter`, …).
    pub provider: String,
    /// The model that issued it, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl Opaque {
    /// State issued by `provider`.
    pub fn new(kind: OpaqueKind, data: impl Into<String>, provider: impl Into<String>) -> Self {
        Opaque {
            kind,
            data: data.into(),
            provider: provider.into(),
            model: None,
        }
    }

    /// True for a thought signature that is a provider's documented stand-in (its table row's
    /// placeholder), which any of its models accepts.
    pub fn is_placeholder(&self) -> bool {
        self.kind == OpaqueKind::ThoughtSignature
            && crate::providers::Provider::ALL
                .iter()
                .any(|p| p.row().reasoning.placeholder == Some(self.data.as_str()))
    }

    /// Whether this state may be sent to `provider` (a provider family id): only the provider
    /// that issued it can verify it. Model families are not compared here: a provider verifies
    /// its own state across its models or rejects it with its own error, which the rules name.
    pub fn replayable_to(&self, provider: &str) -> bool {
        self.provider == provider
    }

    /// What a loss line calls this state: `Anthropic thinking signature`.
    pub fn what(&self) -> String {
        format!("{} {}", provider_name(&self.provider), self.kind.label())
    }

    /// Why it cannot go to another provider: `only Anthropic can verify it`.
    pub fn why_dropped(&self) -> String {
        format!("only {} can verify it", provider_name(&self.provider))
    }
}

/// A provider family id for people (`anthropic` → `Anthropic`); ids without a known name are
/// shown as they are.
pub fn provider_name(id: &str) -> String {
    match super::ModelFamily::from_id(id) {
        Some(f) => f.name().to_string(),
        None => match id {
            "openrouter" => "OpenRouter".into(),
            "groq" => "Groq".into(),
            "xai" => "xAI".into(),
            _ => id.to_string(),
        },
    }
}

/// Whether a hosted step is the provider's call, its result, or a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostedKind {
    /// The provider called one of its tools (Anthropic `server_tool_use`, `mcp_tool_use`,
    /// Responses `web_search_call`, Gemini `executableCode`, Bedrock server `toolUse`).
    Call,
    /// What the tool returned (Anthropic `web_search_tool_result`, `mcp_tool_result`, Gemini
    /// `codeExecutionResult`, Bedrock server `toolResult`). Responses items that hold call and
    /// result together (`mcp_call`, `web_search_call`) are one `Call` step.
    Result,
    /// The provider listed a server's tools (Responses `mcp_list_tools`).
    List,
}

/// One step of a tool the provider ran itself, kept verbatim in its own format's spelling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedStep {
    /// Provider family id that ran it (`anthropic`, `openai`, `gemini`, `bedrock`).
    pub provider: String,
    /// Format id whose spelling `value` is.
    pub format: String,
    /// Call, result or listing.
    pub kind: HostedKind,
    /// The tool, for people and pairing: `web_search`, `code_execution`, `mcp:<server>/<tool>`.
    pub tool: String,
    /// Id pairing a call with its result, where the provider gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The item or block exactly as the provider sent it.
    pub value: Value,
}

impl HostedStep {
    /// What a loss line calls this step: `Anthropic web_search call`.
    pub fn what(&self) -> String {
        let kind = match self.kind {
            HostedKind::Call => "call",
            HostedKind::Result => "result",
            HostedKind::List => "tool listing",
        };
        format!("{} {} {kind}", provider_name(&self.provider), self.tool)
    }

    /// Why another provider cannot take it.
    pub fn why_dropped(&self) -> String {
        format!(
            "run by {} on its servers; other providers have no such step",
            provider_name(&self.provider)
        )
    }
}

/// A tool the provider runs itself, as declared in a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedTool {
    /// Provider family id that runs it.
    pub provider: String,
    /// Format id whose spelling `value` is.
    pub format: String,
    /// The kind, for people and mapping: `web_search`, `web_fetch`, `code_execution`,
    /// `file_search`, `mcp`, `tool_search`, `url_context`, …
    pub kind: String,
    /// The definition exactly as the provider spells it.
    pub value: Value,
}

impl HostedTool {
    /// What is dropped, for a loss: "OpenAI web_search tool".
    pub fn what(&self) -> String {
        format!("{} {} tool", provider_name(&self.provider), self.kind)
    }

    /// Why a target cannot take it: its provider runs it, and `here` says what the target
    /// has instead.
    pub fn why_dropped(&self, here: &str) -> String {
        format!(
            "run by {} on its servers; {here}",
            provider_name(&self.provider)
        )
    }
}

/// Reasoning settings of a request, mapped per provider (Anthropic `thinking`, Responses
/// `reasoning`, Gemini `thinkingConfig`, Bedrock `additionalModelRequestFields.thinking`,
/// chat `reasoning_effort`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReasoningOptions {
    /// Thinking on or off, where stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Effort (`minimal`, `low`, `medium`, `high`, …) as the request spelled it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<String>,
    /// Thinking token budget (Anthropic `budget_tokens`, Gemini `thinkingBudget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// Ask for the reasoning's summary (Responses `reasoning.summary`, Gemini
    /// `includeThoughts`), as spelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Ask for encrypted reasoning back (Responses `include: ["reasoning.encrypted_content"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_encrypted: Option<bool>,
}

impl ReasoningOptions {
    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == ReasoningOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_state_goes_back_only_to_its_issuer() {
        let sig = Opaque::new(OpaqueKind::Signature, "EqQB", "anthropic");
        assert!(sig.replayable_to("anthropic"));
        assert!(!sig.replayable_to("bedrock"));
        assert_eq!(sig.what(), "Anthropic thinking signature");
        assert_eq!(sig.why_dropped(), "only Anthropic can verify it");
        let skip = Opaque::new(
            OpaqueKind::ThoughtSignature,
            "skip_thought_signature_validator",
            "gemini",
        );
        assert!(skip.is_placeholder());
    }
}
