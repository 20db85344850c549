//! OpenAI Chat Completions: every `tool_calls` entry answered by a `tool` message right after
//! its assistant message, no `tool` message without its call, `arguments` a JSON string.
//! DeepSeek and Mistral speak the same protocol and are held to these rules too, with their
//! own next to them ([`deepseek`], [`mistral`]); Cohere's chat v2 pairs the same way
//! ([`dangling`], [`orphans`] are shared, see [`cohere`]); Ollama has its own ([`ollama`]).

pub mod cohere;
pub mod deepseek;
pub mod mistral;
pub mod ollama;

use crate::rules::{arr, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT};
use serde_json::{json, Value};
use std::collections::HashSet;

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "openai-chat/tool-call-answered",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_DAZJkqyYW8JTJdkO76E5MoPH"),
        matches: &["must be followed by tool messages responding to each 'tool_call_id'"],
        source: Source::Reported("https://github.com/BerriAI/litellm/issues/10083"),
        advice: "fix: answer the call with an error result",
        check: |d| dangling(d, "openai-chat/tool-call-answered", true),
        fix: Some(answer),
    },
    Rule {
        id: "openai-chat/tool-result-has-call",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."),
        matches: &["with role 'tool' must be a response to a"],
        source: Source::Reported("https://github.com/miurla/morphic/issues/136"),
        advice: "fix: drop the result that answers no call",
        check: |d| orphans(d, "openai-chat/tool-result-has-call"),
        fix: Some(drop_message),
    },
    Rule {
        id: "openai-chat/arguments-string",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("Invalid type for 'messages[2].tool_calls[0].function.arguments': expected a string, but got an object instead."),
        matches: &["function.arguments': expected a string"],
        source: Source::Reported("https://github.com/aaif-goose/goose-mobile/pull/20"),
        advice: "fix: send the arguments as a JSON string",
        check: |d| {
            arguments(
                d,
                "openai-chat/arguments-string",
                |a| !a.is_string(),
                "the arguments are a JSON value; this endpoint wants them as a string of JSON",
            )
        },
        fix: Some(stringify_arguments),
    },
];

/// The tool calls of an assistant message: (index in `tool_calls`, id).
fn calls(m: &Value) -> impl Iterator<Item = (usize, &str)> {
    arr(m, "tool_calls")
        .iter()
        .enumerate()
        .filter_map(|(j, c)| str_at(c, "id").map(|id| (j, id)))
}

fn role(m: &Value) -> &str {
    str_at(m, "role").unwrap_or("")
}

/// Calls of an assistant message not answered by the `tool` messages right after it. A call
/// of the last assistant message with nothing after it is flagged only when `trailing`.
pub(crate) fn dangling(doc: &Value, rule: &'static str, trailing: bool) -> Vec<Finding> {
    let msgs = arr(doc, "messages");
    let mut out = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        if role(m) != "assistant" || arr(m, "tool_calls").is_empty() {
            continue;
        }
        let mut k = i + 1;
        let mut answered: HashSet<&str> = HashSet::new();
        while let Some(t) = msgs.get(k).filter(|t| role(t) == "tool") {
            if let Some(id) = str_at(t, "tool_call_id") {
                answered.insert(id);
            }
            k += 1;
        }
        if k >= msgs.len() && !trailing && answered.is_empty() {
            continue;
        }
        for (j, id) in calls(m) {
            if !answered.contains(id) {
                out.push(
                    Finding::new(
                        rule,
                        format!("/messages/{i}/tool_calls/{j}"),
                        format!(
                            "the call {id} has no tool message answering it before the next turn"
                        ),
                    )
                    .about(id),
                );
            }
        }
    }
    out
}

/// `tool` messages that answer no call of the assistant message they follow.
pub(crate) fn orphans(doc: &Value, rule: &'static str) -> Vec<Finding> {
    let msgs = arr(doc, "messages");
    let mut out = Vec::new();
    let mut open: HashSet<&str> = HashSet::new();
    let mut in_block = false;
    for (i, m) in msgs.iter().enumerate() {
        match role(m) {
            "tool" => {
                let id = str_at(m, "tool_call_id").unwrap_or("");
                if !in_block || !open.contains(id) {
                    out.push(
                        Finding::new(
                            rule,
                            format!("/messages/{i}"),
                            format!("this tool message answers {id:?}, which no call of the assistant message before it has"),
                        )
                        .about(id),
                    );
                }
            }
            "assistant" if !arr(m, "tool_calls").is_empty() => {
                open = calls(m).map(|(_, id)| id).collect();
                in_block = true;
            }
            _ => {
                open.clear();
                in_block = false;
            }
        }
    }
    out
}

/// Answer the call a finding points at (`/messages/i/tool_calls/j`) with an error result,
/// after the tool messages already there.
pub(crate) fn answer(doc: &mut Value, f: &Finding) -> bool {
    let (Some(i), Some(id)) = (seg(&f.pointer, 1), f.subject.clone()) else {
        return false;
    };
    let Some(msgs) = doc.get_mut("messages").and_then(Value::as_array_mut) else {
        return false;
    };
    let mut k = i + 1;
    while msgs.get(k).is_some_and(|t| role(t) == "tool") {
        k += 1;
    }
    msgs.insert(
        k,
        json!({"role": "tool", "tool_call_id": id, "content": NO_RESULT}),
    );
    true
}

/// Drop the message a finding points at (`/messages/i`).
pub(crate) fn drop_message(doc: &mut Value, f: &Finding) -> bool {
    let Some(i) = seg(&f.pointer, 1) else {
        return false;
    };
    match doc.get_mut("messages").and_then(Value::as_array_mut) {
        Some(m) if i < m.len() => {
            m.remove(i);
            true
        }
        _ => false,
    }
}

/// Every call's `function.arguments` for which `wrong` holds, flagged as `rule` with `message`.
pub(crate) fn arguments(
    doc: &Value,
    rule: &'static str,
    wrong: fn(&Value) -> bool,
    message: &str,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        for (j, c) in arr(m, "tool_calls").iter().enumerate() {
            if let Some(a) = c.get("function").and_then(|f| f.get("arguments")) {
                if wrong(a) {
                    out.push(Finding::new(
                        rule,
                        format!("/messages/{i}/tool_calls/{j}/function/arguments"),
                        message,
                    ));
                }
            }
        }
    }
    out
}

fn stringify_arguments(doc: &mut Value, f: &Finding) -> bool {
    match doc.pointer_mut(&f.pointer) {
        Some(a) if !a.is_string() => {
            *a = Value::String(a.to_string());
            true
        }
        _ => false,
    }
}
