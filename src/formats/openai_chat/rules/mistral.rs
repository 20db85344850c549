//! Mistral: tool call ids of exactly nine letters and digits, and no `user` turn straight after
//! a `tool` result (the model answers the results first).

use crate::rules::{arr, str_at, Finding, Rule, Severity, Source};
use serde_json::Value;
use std::collections::HashMap;

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "mistral/tool-call-id",
        provider: "Mistral",
        severity: Severity::Error,
        error: Some("Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9."),
        matches: &["but must be a-z, A-Z, 0-9, with a length of 9"],
        source: Source::Reported("https://github.com/karthink/gptel/issues/1203"),
        advice: "fix: rewrite the ids to nine letters and digits, calls and results alike",
        check: ids,
        fix: Some(rewrite_ids),
    },
    Rule {
        id: "mistral/user-after-tool",
        provider: "Mistral",
        severity: Severity::Error,
        error: Some("Unexpected role 'user' after role 'tool'"),
        matches: &["Unexpected role 'user' after role 'tool'"],
        source: Source::Reported("https://github.com/datapizza-labs/datapizza-ai/issues/98"),
        advice: "no mechanical fix: put the model's answer to the tool results (an assistant message) before the next user message",
        check: user_after_tool,
        fix: None,
    },
];

/// Nine ASCII letters or digits.
pub fn valid_id(id: &str) -> bool {
    id.len() == 9 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn ids(doc: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        for (j, c) in arr(m, "tool_calls").iter().enumerate() {
            if let Some(id) = str_at(c, "id").filter(|id| !valid_id(id)) {
                out.push(
                    Finding::new(
                        "mistral/tool-call-id",
                        format!("/messages/{i}/tool_calls/{j}/id"),
                        format!("the call id {id:?} is not nine letters and digits"),
                    )
                    .about(id),
                );
            }
        }
        if let Some(id) = str_at(m, "tool_call_id").filter(|id| !valid_id(id)) {
            out.push(
                Finding::new(
                    "mistral/tool-call-id",
                    format!("/messages/{i}/tool_call_id"),
                    format!("the result's call id {id:?} is not nine letters and digits"),
                )
                .about(id),
            );
        }
    }
    out
}

/// A nine-character id for `id`, stable (a hash of it), not among `taken`.
fn nine(id: &str, taken: &mut std::collections::HashSet<String>) -> String {
    const ALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    loop {
        let mut x = h;
        let s: String = (0..9)
            .map(|_| {
                let c = ALPHA[(x % 62) as usize] as char;
                x /= 62;
                c
            })
            .collect();
        if taken.insert(s.clone()) {
            return s;
        }
        h = h.wrapping_mul(0x0100_0000_01b3).wrapping_add(1);
    }
}

/// Rewrite every invalid id (calls and the results naming them) to a valid one.
fn rewrite_ids(doc: &mut Value, _f: &Finding) -> bool {
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut map: HashMap<String, String> = HashMap::new();
    for m in arr(doc, "messages") {
        for c in arr(m, "tool_calls") {
            if let Some(id) = str_at(c, "id").filter(|id| valid_id(id)) {
                taken.insert(id.to_string());
            }
        }
    }
    let Some(msgs) = doc.get_mut("messages").and_then(Value::as_array_mut) else {
        return false;
    };
    let mut changed = false;
    let mut fresh = |id: &str, map: &mut HashMap<String, String>| -> String {
        map.entry(id.to_string())
            .or_insert_with(|| nine(id, &mut taken))
            .clone()
    };
    for m in msgs.iter_mut() {
        if let Some(calls) = m.get_mut("tool_calls").and_then(Value::as_array_mut) {
            for c in calls {
                if let Some(id) = str_at(c, "id")
                    .filter(|id| !valid_id(id))
                    .map(str::to_string)
                {
                    c["id"] = Value::String(fresh(&id, &mut map));
                    changed = true;
                }
            }
        }
        if let Some(id) = str_at(m, "tool_call_id")
            .filter(|id| !valid_id(id))
            .map(str::to_string)
        {
            m["tool_call_id"] = Value::String(fresh(&id, &mut map));
            changed = true;
        }
    }
    changed
}

fn user_after_tool(doc: &Value) -> Vec<Finding> {
    let msgs = arr(doc, "messages");
    msgs.windows(2)
        .enumerate()
        .filter(|(_, w)| str_at(&w[0], "role") == Some("tool") && str_at(&w[1], "role") == Some("user"))
        .map(|(i, _)| {
            Finding::new(
                "mistral/user-after-tool",
                format!("/messages/{}", i + 1),
                "a user message follows a tool result; Mistral wants the assistant's answer to the results first",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_character_ids_are_valid_and_distinct() {
        let mut taken = std::collections::HashSet::new();
        let a = nine("call_abc", &mut taken);
        let b = nine("call_abc", &mut taken);
        assert!(valid_id(&a) && valid_id(&b));
        assert_ne!(a, b);
        assert!(!valid_id("call_0fypS1hVX"));
    }
}
