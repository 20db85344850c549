//! Cohere chat v2: tool calls and `tool` results pair as in Chat Completions. No exact error
//! text of Cohere's for these was found; the rules cite Cohere's tool-use docs, which describe
//! the pairing (each `tool` message answers a `tool_call_id` of the assistant message before it).

use super::{answer, dangling, drop_message, orphans};
use crate::rules::{Rule, Severity, Source};

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "cohere/tool-call-answered",
        provider: "Cohere",
        severity: Severity::Error,
        error: None,
        matches: &[],
        source: Source::Docs("https://docs.cohere.com/v2/docs/tool-use-overview"),
        advice: "fix: answer the call with an error result (Cohere's exact error text for this was not found)",
        check: |d| dangling(d, "cohere/tool-call-answered", false),
        fix: Some(answer),
    },
    Rule {
        id: "cohere/tool-result-has-call",
        provider: "Cohere",
        severity: Severity::Error,
        error: None,
        matches: &[],
        source: Source::Docs("https://docs.cohere.com/v2/docs/tool-use-overview"),
        advice: "fix: drop the result that answers no call (Cohere's exact error text for this was not found)",
        check: |d| orphans(d, "cohere/tool-result-has-call"),
        fix: Some(drop_message),
    },
];
