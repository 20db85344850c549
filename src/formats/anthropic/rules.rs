//! Anthropic Messages: `tool_use` ids unique; the message after a `tool_use` begins with one
//! `tool_result` per call; no `tool_result` without its `tool_use` in the message before; with
//! thinking on, the current tool loop's assistant turn starts with its (signed) thinking, every
//! thinking block carries its signature, and `tool_choice` does not force a tool.

use crate::rules::thinking::{self, Shape};
use crate::rules::{
    arr, blocks_mut, drop_block, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT,
};
use serde_json::{json, Value};
use std::collections::HashSet;

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "anthropic/tool-use-id-unique",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.1.content.2: `tool_use` ids must be unique"),
        matches: &["ids must be unique"],
        source: Source::Reported("https://github.com/anomalyco/opencode/issues/1279"),
        advice: "no mechanical fix: give each call its own id, and its result the same id (which result answers which call only you can tell)",
        check: unique_ids,
        fix: None,
    },
    Rule {
        id: "anthropic/tool-result-first",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.27: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks."),
        matches: &["block(s) at the beginning of this message"],
        source: Source::Reported("https://github.com/apify/tester-mcp-client/issues/12"),
        advice: "fix: move the tool results first (answering any call left without one with an error result)",
        check: |d| pairing(d).0,
        fix: Some(results_first),
    },
    Rule {
        id: "anthropic/tool-use-answered",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.6: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01AbmHJypDhKqBF7NKdRPJ6d. Each `tool_use` block must have a corresponding `tool_result` block in the next message."),
        matches: &["ids were found without `tool_result` blocks immediately after"],
        source: Source::Reported("https://github.com/anthropics/claude-code/issues/5060"),
        advice: "fix: answer the call with an error result",
        check: |d| pairing(d).1,
        fix: Some(answer),
    },
    Rule {
        id: "anthropic/tool-result-has-call",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_015cqXRmSf7tsfMgJ9ibV1z3. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."),
        matches: &["unexpected `tool_use_id` found in `tool_result` blocks"],
        source: Source::Reported("https://github.com/decocms/studio/issues/1803"),
        advice: "fix: drop the result that answers no call",
        check: orphans,
        fix: Some(drop_block),
    },
    Rule {
        id: "anthropic/thinking-first",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"),
        matches: &["a final `assistant` message must start with a thinking block"],
        source: Source::Reported("https://github.com/deepset-ai/haystack-core-integrations/issues/2146"),
        advice: "no mechanical fix: only Anthropic can sign thinking; send back the thinking blocks (with their signatures) its response carried in this turn, unchanged, or turn thinking off",
        check: |d| thinking::first::<Blocks>(d, "anthropic/thinking-first"),
        fix: None,
    },
    Rule {
        id: "anthropic/thinking-signature",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("messages.1.content.0.thinking.signature: Field required"),
        matches: &["thinking.signature: Field required"],
        source: Source::Reported("https://github.com/lbjlaq/Antigravity-Manager/issues/1650"),
        advice: "no mechanical fix: the signature is Anthropic's; send the block back with the signature its response carried, or drop the block (and, in a tool loop, turn thinking off)",
        check: |d| thinking::signatures::<Blocks>(d, "anthropic/thinking-signature"),
        fix: None,
    },
    Rule {
        id: "anthropic/thinking-forced-tool-choice",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("Thinking may not be enabled when tool_choice forces tool use."),
        matches: &["Thinking may not be enabled when tool_choice forces tool use"],
        source: Source::Reported("https://github.com/mastra-ai/mastra/issues/7507"),
        advice: "fix: let the model choose (tool_choice auto), or turn thinking off",
        check: |d| thinking::forced_choice::<Blocks>(d, "anthropic/thinking-forced-tool-choice"),
        fix: Some(thinking::choice_auto::<Blocks>),
    },
    Rule {
        id: "anthropic/thinking-disabled-final",
        provider: "Anthropic",
        severity: Severity::Error,
        error: Some("When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."),
        matches: &["When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`"],
        source: Source::Reported("https://github.com/tailcallhq/forgecode/issues/1853"),
        advice: "fix: drop the thinking blocks of the final assistant message, or turn thinking on",
        check: |d| thinking::in_final::<Blocks>(d, "anthropic/thinking-disabled-final"),
        fix: Some(thinking::drop_final::<Blocks>),
    },
];

fn blocks(m: &Value) -> &[Value] {
    arr(m, "content")
}

fn kind(b: &Value) -> &str {
    str_at(b, "type").unwrap_or("")
}

fn role(m: &Value) -> &str {
    str_at(m, "role").unwrap_or("")
}

/// The `tool_use` ids of a message, with their block index.
fn uses(m: &Value) -> Vec<(usize, &str)> {
    blocks(m)
        .iter()
        .enumerate()
        .filter(|(_, b)| kind(b) == "tool_use")
        .filter_map(|(j, b)| str_at(b, "id").map(|id| (j, id)))
        .collect()
}

fn unique_ids(doc: &Value) -> Vec<Finding> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        for (j, id) in uses(m) {
            if !seen.insert(id) {
                out.push(
                    Finding::new(
                        "anthropic/tool-use-id-unique",
                        format!("/messages/{i}/content/{j}"),
                        format!("the id {id} is used by an earlier tool_use too"),
                    )
                    .about(id),
                );
            }
        }
    }
    out
}

/// (results not first, calls not answered) after each assistant message with calls.
fn pairing(doc: &Value) -> (Vec<Finding>, Vec<Finding>) {
    let msgs = arr(doc, "messages");
    let (mut first, mut answered) = (Vec::new(), Vec::new());
    for (i, m) in msgs.iter().enumerate() {
        if role(m) != "assistant" {
            continue;
        }
        let u = uses(m);
        if u.is_empty() {
            continue;
        }
        let Some(next) = msgs.get(i + 1) else {
            continue;
        };
        let unanswered = |out: &mut Vec<Finding>, ids: &mut dyn Iterator<Item = &(usize, &str)>| {
            for (j, id) in ids {
                out.push(
                    Finding::new(
                        "anthropic/tool-use-answered",
                        format!("/messages/{i}/content/{j}"),
                        format!("the call {id} has no tool_result in the next message"),
                    )
                    .about(*id),
                );
            }
        };
        if role(next) != "user" {
            unanswered(&mut answered, &mut u.iter());
            continue;
        }
        let content = blocks(next);
        let lead = content
            .iter()
            .take_while(|b| kind(b) == "tool_result")
            .count();
        let leading: HashSet<&str> = content[..lead]
            .iter()
            .filter_map(|b| str_at(b, "tool_use_id"))
            .collect();
        let later: HashSet<&str> = content[lead..]
            .iter()
            .filter(|b| kind(b) == "tool_result")
            .filter_map(|b| str_at(b, "tool_use_id"))
            .collect();
        let missing: Vec<&(usize, &str)> =
            u.iter().filter(|(_, id)| !leading.contains(id)).collect();
        if missing.is_empty() {
            continue;
        }
        if lead == 0 || missing.iter().any(|(_, id)| later.contains(id)) {
            let at = if content.is_empty() {
                format!("/messages/{}", i + 1)
            } else {
                format!("/messages/{}/content/{lead}", i + 1)
            };
            first.push(Finding::new(
                "anthropic/tool-result-first",
                at,
                format!(
                    "this message must begin with {} tool_result block(s), one per call of the message before",
                    u.len()
                ),
            ));
        } else {
            unanswered(&mut answered, &mut missing.into_iter());
        }
    }
    (first, answered)
}

fn error_result(id: &str) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": NO_RESULT, "is_error": true})
}

fn text_block(s: String) -> Value {
    json!({"type": "text", "text": s})
}

/// Move the tool results of the message first, and answer the calls left without one.
fn results_first(doc: &mut Value, f: &Finding) -> bool {
    let Some(n) = seg(&f.pointer, 1) else {
        return false;
    };
    let Some(prev) = n.checked_sub(1) else {
        return false;
    };
    let ids: Vec<String> = arr(doc, "messages")
        .get(prev)
        .map(|m| uses(m).into_iter().map(|(_, id)| id.to_string()).collect())
        .unwrap_or_default();
    let Some(m) = doc.pointer_mut(&format!("/messages/{n}")) else {
        return false;
    };
    let Some(content) = blocks_mut(m, text_block) else {
        return false;
    };
    let (mut results, rest): (Vec<Value>, Vec<Value>) =
        content.drain(..).partition(|b| kind(b) == "tool_result");
    let have: HashSet<String> = results
        .iter()
        .filter_map(|b| str_at(b, "tool_use_id").map(str::to_string))
        .collect();
    results.extend(
        ids.iter()
            .filter(|id| !have.contains(*id))
            .map(|id| error_result(id)),
    );
    results.extend(rest);
    *content = results;
    true
}

/// Answer a call with an error result at the start of the next message (a new user message
/// when the next is not the user's).
fn answer(doc: &mut Value, f: &Finding) -> bool {
    let (Some(i), Some(id)) = (seg(&f.pointer, 1), f.subject.clone()) else {
        return false;
    };
    let Some(msgs) = doc.get_mut("messages").and_then(Value::as_array_mut) else {
        return false;
    };
    match msgs.get_mut(i + 1) {
        Some(next) if role(next) == "user" => {
            let Some(content) = blocks_mut(next, text_block) else {
                return false;
            };
            let lead = content
                .iter()
                .take_while(|b| kind(b) == "tool_result")
                .count();
            content.insert(lead, error_result(&id));
        }
        _ => msgs.insert(
            i + 1,
            json!({"role": "user", "content": [error_result(&id)]}),
        ),
    }
    true
}

fn orphans(doc: &Value) -> Vec<Finding> {
    let msgs = arr(doc, "messages");
    let mut out = Vec::new();
    for (n, m) in msgs.iter().enumerate() {
        if role(m) != "user" {
            continue;
        }
        let calls: HashSet<&str> = n
            .checked_sub(1)
            .and_then(|p| msgs.get(p))
            .filter(|p| role(p) == "assistant")
            .map(|p| uses(p).into_iter().map(|(_, id)| id).collect())
            .unwrap_or_default();
        for (j, b) in blocks(m).iter().enumerate() {
            if kind(b) != "tool_result" {
                continue;
            }
            let id = str_at(b, "tool_use_id").unwrap_or("");
            if !calls.contains(id) {
                out.push(
                    Finding::new(
                        "anthropic/tool-result-has-call",
                        format!("/messages/{n}/content/{j}"),
                        format!("this tool_result answers {id}, which no tool_use of the message before has"),
                    )
                    .about(id),
                );
            }
        }
    }
    out
}

/// How Messages spells signed thinking: `thinking` and `redacted_thinking` blocks, thinking
/// on in `thinking.type`, the choice in `tool_choice`.
struct Blocks;

impl Shape for Blocks {
    const TEXT_CONTENT: bool = true;
    const BLOCK: &'static str = "thinking block";
    const SIGNED: &'static str = "thinking block";
    const CHOICE: &'static str = "/tool_choice";

    /// Thinking on (`enabled` or `adaptive`).
    fn enabled(doc: &Value) -> bool {
        matches!(
            doc.get("thinking").and_then(|t| str_at(t, "type")),
            Some("enabled" | "adaptive")
        )
    }

    fn is_result(b: &Value) -> bool {
        kind(b) == "tool_result"
    }

    fn is_thinking(b: &Value) -> bool {
        matches!(kind(b), "thinking" | "redacted_thinking")
    }

    fn signed(b: &Value) -> Option<(&Value, &'static str)> {
        (kind(b) == "thinking").then_some((b, ""))
    }

    fn forced(choice: &Value) -> bool {
        matches!(str_at(choice, "type"), Some("any" | "tool"))
    }

    /// `auto`, keeping `disable_parallel_tool_use`.
    fn auto(choice: &Value) -> Value {
        let mut c = json!({"type": "auto"});
        if let Some(p) = choice.get("disable_parallel_tool_use") {
            c["disable_parallel_tool_use"] = p.clone();
        }
        c
    }
}
