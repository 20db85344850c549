//! The Vercel AI SDK: before a user or system message (and at the end), every `tool-call` part
//! of the assistant messages before has its `tool-result` in a `tool` message
//! (`convertToLanguageModelPrompt` throws `AI_MissingToolResultsError` otherwise). Calls the
//! provider ran itself (`providerExecuted`) are exempt, as in the SDK.

use crate::rules::{arr, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The rules.
pub const RULES: &[Rule] = &[Rule {
    id: "ai-sdk/tool-result-present",
    provider: "AI SDK",
    severity: Severity::Error,
    error: Some("Tool result is missing for tool call call_weather_1."),
    matches: &["missing for tool call"],
    source: Source::Docs("https://ai-sdk.dev/docs/troubleshooting/missing-tool-results-error"),
    advice: "fix: answer the call with an error result",
    check: missing,
    fix: Some(answer),
}];

fn missing(doc: &Value) -> Vec<Finding> {
    let mut open: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut out = Vec::new();
    let flush = |open: &mut HashMap<&str, (usize, usize)>, out: &mut Vec<Finding>| {
        let mut left: Vec<(&str, (usize, usize))> = open.drain().collect();
        left.sort_by_key(|a| a.1);
        for (id, (i, j)) in left {
            out.push(
                Finding::new(
                    "ai-sdk/tool-result-present",
                    format!("/messages/{i}/content/{j}"),
                    format!(
                        "the call {id} has no tool-result before the next user or system message"
                    ),
                )
                .about(id),
            );
        }
    };
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        match str_at(m, "role").unwrap_or("") {
            "assistant" => {
                for (j, p) in arr(m, "content").iter().enumerate() {
                    let exempt = p.get("providerExecuted") == Some(&Value::Bool(true));
                    if str_at(p, "type") == Some("tool-call") && !exempt {
                        if let Some(id) = str_at(p, "toolCallId") {
                            open.insert(id, (i, j));
                        }
                    }
                }
            }
            "tool" => {
                for p in arr(m, "content") {
                    if str_at(p, "type") == Some("tool-result") {
                        if let Some(id) = str_at(p, "toolCallId") {
                            open.remove(id);
                        }
                    }
                }
            }
            _ => flush(&mut open, &mut out),
        }
    }
    flush(&mut open, &mut out);
    out
}

fn answer(doc: &mut Value, f: &Finding) -> bool {
    let (Some(i), Some(id)) = (seg(&f.pointer, 1), f.subject.clone()) else {
        return false;
    };
    let name = doc
        .pointer(&f.pointer)
        .and_then(|p| str_at(p, "toolName"))
        .unwrap_or("")
        .to_string();
    let part = json!({"type": "tool-result", "toolCallId": id, "toolName": name,
        "output": {"type": "error-text", "value": NO_RESULT}});
    let Some(msgs) = doc.get_mut("messages").and_then(Value::as_array_mut) else {
        return false;
    };
    match msgs.get_mut(i + 1) {
        Some(next) if str_at(next, "role") == Some("tool") => {
            match next.get_mut("content").and_then(Value::as_array_mut) {
                Some(c) => c.push(part),
                None => return false,
            }
        }
        _ => msgs.insert(i + 1, json!({"role": "tool", "content": [part]})),
    }
    true
}
