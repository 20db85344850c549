//! DeepSeek: in thinking mode (`thinking: {"type": "enabled"}`, or a model that thinks by
//! default: `deepseek-reasoner`, the V4 models), every assistant message with tool calls must
//! carry back the `reasoning_content` the API returned with it.

use crate::rules::{arr, str_at, Finding, Rule, Severity, Source};
use serde_json::Value;

/// The rules.
pub const RULES: &[Rule] = &[Rule {
    id: "deepseek/reasoning-content-on-tool-calls",
    provider: "DeepSeek",
    severity: Severity::Error,
    error: Some("Missing `reasoning_content` field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"),
    matches: &["reasoning_content` field in the assistant message"],
    source: Source::Reported("https://github.com/abhigyanpatwari/GitNexus/issues/43"),
    advice: "no mechanical fix: only DeepSeek can write reasoning_content; send back the reasoning_content its response carried with this tool call, or turn thinking off (\"thinking\": {\"type\": \"disabled\"})",
    check: reasoning_on_tool_calls,
    fix: None,
}];

/// True when the request runs in thinking mode.
pub fn thinking(doc: &Value) -> bool {
    let kind = doc.get("thinking").and_then(|t| str_at(t, "type"));
    match kind {
        Some("enabled") => true,
        Some("disabled") => false,
        _ => str_at(doc, "model").is_some_and(|m| m.contains("reasoner") || m.contains("v4")),
    }
}

fn reasoning_on_tool_calls(doc: &Value) -> Vec<Finding> {
    if !thinking(doc) {
        return Vec::new();
    }
    arr(doc, "messages")
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            str_at(m, "role") == Some("assistant")
                && !arr(m, "tool_calls").is_empty()
                && !m.get("reasoning_content").is_some_and(Value::is_string)
        })
        .map(|(i, _)| {
            Finding::new(
                "deepseek/reasoning-content-on-tool-calls",
                format!("/messages/{i}"),
                "in thinking mode this tool-call turn must carry its reasoning_content back",
            )
        })
        .collect()
}
