//! OpenAI Responses: a `reasoning` item comes with the item that followed it in the response;
//! with `store: false` nothing is kept on OpenAI's side, so a reasoning item is sent whole (its
//! `encrypted_content`), not by id; every `function_call` answered by a
//! `function_call_output` with its `call_id`, and no output without its call.

use crate::rules::{arr, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT};
use serde_json::{json, Value};
use std::collections::HashSet;

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "openai-responses/reasoning-followed",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("Item 'rs_0c3876fcd4da19ef00692a14046bc8819eba6941c05c5ab7e7' of type 'reasoning' was provided without its required following item."),
        matches: &["of type 'reasoning' was provided without its required following item"],
        source: Source::Reported("https://github.com/continuedev/continue/issues/8933"),
        advice: "fix: drop the reasoning item (or send it with the message or call that followed it in the response)",
        check: reasoning_followed,
        fix: Some(drop_item),
    },
    Rule {
        id: "openai-responses/reasoning-not-stored",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("Item with id 'rs_04962823ecde01b901698e138042688193a657e07614b238c3' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input."),
        matches: &["Items are not persisted when `store` is set to false"],
        source: Source::Reported("https://github.com/can1357/oh-my-pi/issues/41"),
        advice: "fix: drop the reasoning item; to keep it, ask for include: [\"reasoning.encrypted_content\"] and send back the encrypted_content the response carried",
        check: not_stored,
        fix: Some(drop_item),
    },
    Rule {
        id: "openai-responses/function-call-answered",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("No tool output found for function call call_uqaym698xduZM7eXCT0SUABW."),
        matches: &["No tool output found for function call"],
        source: Source::Reported("https://github.com/Azure/azure-sdk-for-python/issues/46092"),
        advice: "fix: answer the call with an error output",
        check: unanswered,
        fix: Some(answer),
    },
    Rule {
        id: "openai-responses/output-has-call",
        provider: "OpenAI",
        severity: Severity::Error,
        error: Some("No tool call found for function call output with call_id call_uqaym698xduZM7eXCT0SUABW."),
        matches: &["No tool call found for function call output with call_id"],
        source: Source::Reported("https://github.com/james-6-23/codex2api/issues/414"),
        advice: "fix: drop the output that answers no call",
        check: orphans,
        fix: Some(drop_item),
    },
];

fn items(doc: &Value) -> &[Value] {
    arr(doc, "input")
}

fn kind(it: &Value) -> &str {
    str_at(it, "type").unwrap_or(if it.get("role").is_some() {
        "message"
    } else {
        ""
    })
}

/// An item the caller writes (not one the model produced after a reasoning item).
fn is_input(it: &Value) -> bool {
    match kind(it) {
        "message" => !matches!(str_at(it, "role"), Some("assistant")),
        "function_call_output" | "custom_tool_call_output" | "reasoning" | "" => true,
        _ => false,
    }
}

fn reasoning_followed(doc: &Value) -> Vec<Finding> {
    let its = items(doc);
    let mut out = Vec::new();
    for (i, it) in its.iter().enumerate() {
        if kind(it) != "reasoning" {
            continue;
        }
        // Summaries only, sent without an id: nothing to pair.
        if str_at(it, "id").is_none() && it.get("encrypted_content").is_none() {
            continue;
        }
        let followed = its.get(i + 1).is_some_and(|n| !is_input(n));
        if !followed {
            out.push(Finding::new(
                "openai-responses/reasoning-followed",
                format!("/input/{i}"),
                "this reasoning item is not followed by the message or call that came after it in the response",
            ));
        }
    }
    out
}

fn not_stored(doc: &Value) -> Vec<Finding> {
    if doc.get("store") != Some(&Value::Bool(false)) {
        return Vec::new();
    }
    items(doc)
        .iter()
        .enumerate()
        .filter(|(_, it)| {
            kind(it) == "reasoning"
                && str_at(it, "id").is_some()
                && !it.get("encrypted_content").is_some_and(Value::is_string)
        })
        .map(|(i, _)| {
            Finding::new(
                "openai-responses/reasoning-not-stored",
                format!("/input/{i}"),
                "with store: false this reasoning item is sent by id only, and nothing is stored under that id",
            )
        })
        .collect()
}

fn unanswered(doc: &Value) -> Vec<Finding> {
    let its = items(doc);
    let outputs: HashSet<&str> = its
        .iter()
        .filter(|it| kind(it) == "function_call_output")
        .filter_map(|it| str_at(it, "call_id"))
        .collect();
    // A call at the very end (the model's own last step) waits for its output: not yet owed.
    let last_other = its
        .iter()
        .rposition(|it| !matches!(kind(it), "function_call" | "reasoning"));
    its.iter()
        .enumerate()
        .filter(|(i, it)| kind(it) == "function_call" && last_other.is_some_and(|l| l > *i))
        .filter_map(|(i, it)| {
            let id = str_at(it, "call_id")?;
            (!outputs.contains(id)).then(|| {
                Finding::new(
                    "openai-responses/function-call-answered",
                    format!("/input/{i}"),
                    format!("the call {id} has no function_call_output"),
                )
                .about(id)
            })
        })
        .collect()
}

fn orphans(doc: &Value) -> Vec<Finding> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for (i, it) in items(doc).iter().enumerate() {
        match kind(it) {
            "function_call" => {
                if let Some(id) = str_at(it, "call_id") {
                    seen.insert(id);
                }
            }
            "function_call_output" => {
                let id = str_at(it, "call_id").unwrap_or("");
                if !seen.contains(id) {
                    out.push(
                        Finding::new(
                            "openai-responses/output-has-call",
                            format!("/input/{i}"),
                            format!("this output answers {id}, which no earlier function_call has"),
                        )
                        .about(id),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

fn drop_item(doc: &mut Value, f: &Finding) -> bool {
    let Some(i) = seg(&f.pointer, 1) else {
        return false;
    };
    match doc.get_mut("input").and_then(Value::as_array_mut) {
        Some(its) if i < its.len() => {
            its.remove(i);
            true
        }
        _ => false,
    }
}

fn answer(doc: &mut Value, f: &Finding) -> bool {
    let (Some(i), Some(id)) = (seg(&f.pointer, 1), f.subject.clone()) else {
        return false;
    };
    let Some(its) = doc.get_mut("input").and_then(Value::as_array_mut) else {
        return false;
    };
    let mut k = i + 1;
    while its
        .get(k)
        .is_some_and(|it| matches!(kind(it), "function_call" | "function_call_output"))
    {
        k += 1;
    }
    its.insert(
        k,
        json!({"type": "function_call_output", "call_id": id, "output": NO_RESULT}),
    );
    true
}
