//! Amazon Bedrock Converse: `toolConfig` present whenever the conversation holds `toolUse` or
//! `toolResult` blocks; calls and results paired turn by turn; and, for Claude with thinking
//! on (`additionalModelRequestFields.thinking`), the Anthropic thinking rules in Bedrock's
//! spelling (`reasoningContent`, `toolChoice`).

use crate::rules::thinking::{self, Shape};
use crate::rules::{arr, drop_block, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT};
use serde_json::{json, Value};
use std::collections::HashSet;

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "bedrock/tool-config",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: Some("The toolConfig field must be defined when using toolUse and toolResult content blocks."),
        matches: &["toolConfig field must be defined when using toolUse and toolResult"],
        source: Source::Reported("https://github.com/langgenius/dify/issues/16421"),
        advice: "fix: add toolConfig with a tool spec for each tool the conversation calls",
        check: tool_config,
        fix: Some(add_tool_config),
    },
    Rule {
        id: "bedrock/tool-use-answered",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: None,
        matches: &[],
        source: Source::Docs("https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html"),
        advice: "fix: answer the call with an error toolResult (Bedrock's exact error text for this was not found)",
        check: |d| pairing(d).0,
        fix: Some(answer),
    },
    Rule {
        id: "bedrock/tool-result-has-call",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: None,
        matches: &[],
        source: Source::Docs("https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html"),
        advice: "fix: drop the toolResult that answers no call (Bedrock's exact error text for this was not found)",
        check: |d| pairing(d).1,
        fix: Some(drop_block),
    },
    Rule {
        id: "bedrock/thinking-first",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: Some("The model returned the following errors: messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"),
        matches: &["a final `assistant` message must start with a thinking block"],
        source: Source::Reported("https://github.com/anomalyco/opencode/issues/3077"),
        advice: "no mechanical fix: only the model can sign its reasoning; send back the reasoningContent blocks (with their signatures) the response carried in this turn, unchanged, or turn thinking off",
        check: |d| thinking::first::<Blocks>(d, "bedrock/thinking-first"),
        fix: None,
    },
    Rule {
        id: "bedrock/thinking-signature",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: None,
        matches: &[],
        source: Source::Docs("https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html"),
        advice: "no mechanical fix: send the reasoningText back with the signature the response carried (Bedrock's exact error text for a missing one was not found)",
        check: |d| thinking::signatures::<Blocks>(d, "bedrock/thinking-signature"),
        fix: None,
    },
    Rule {
        id: "bedrock/thinking-forced-tool-choice",
        provider: "Amazon Bedrock",
        severity: Severity::Error,
        error: Some("The model returned the following errors: Thinking may not be enabled when tool_choice forces tool use."),
        matches: &["Thinking may not be enabled when tool_choice forces tool use"],
        source: Source::Reported("https://github.com/can1357/oh-my-pi/issues/341"),
        advice: "fix: let the model choose (toolChoice auto), or turn thinking off",
        check: |d| thinking::forced_choice::<Blocks>(d, "bedrock/thinking-forced-tool-choice"),
        fix: Some(thinking::choice_auto::<Blocks>),
    },
];

fn role(m: &Value) -> &str {
    str_at(m, "role").unwrap_or("")
}

fn content(m: &Value) -> &[Value] {
    arr(m, "content")
}

fn use_id(b: &Value) -> Option<&str> {
    b.get("toolUse").and_then(|u| str_at(u, "toolUseId"))
}

fn result_id(b: &Value) -> Option<&str> {
    b.get("toolResult").and_then(|u| str_at(u, "toolUseId"))
}

fn tool_config(doc: &Value) -> Vec<Finding> {
    let has_tools = doc
        .get("toolConfig")
        .is_some_and(|c| !arr(c, "tools").is_empty());
    if has_tools {
        return Vec::new();
    }
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        for (j, b) in content(m).iter().enumerate() {
            if b.get("toolUse").is_some() || b.get("toolResult").is_some() {
                return vec![Finding::new(
                    "bedrock/tool-config",
                    format!("/messages/{i}/content/{j}"),
                    "the conversation holds tool calls or results but the request has no toolConfig tools",
                )];
            }
        }
    }
    Vec::new()
}

fn add_tool_config(doc: &mut Value, _f: &Finding) -> bool {
    let mut names: Vec<String> = Vec::new();
    for m in arr(doc, "messages") {
        for b in content(m) {
            if let Some(n) = b.get("toolUse").and_then(|u| str_at(u, "name")) {
                if !names.iter().any(|x| x == n) {
                    names.push(n.to_string());
                }
            }
        }
    }
    if names.is_empty() {
        return false;
    }
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"toolSpec": {"name": n, "inputSchema": {"json": {"type": "object"}}}}))
        .collect();
    let Some(obj) = doc.as_object_mut() else {
        return false;
    };
    let cfg = obj.entry("toolConfig").or_insert_with(|| json!({}));
    if !cfg.is_object() {
        *cfg = json!({});
    }
    cfg["tools"] = Value::Array(tools);
    true
}

/// (calls not answered in the next message, results answering no call of the message before).
fn pairing(doc: &Value) -> (Vec<Finding>, Vec<Finding>) {
    let msgs = arr(doc, "messages");
    let (mut dangling, mut orphans) = (Vec::new(), Vec::new());
    for (i, m) in msgs.iter().enumerate() {
        let prev: HashSet<&str> = i
            .checked_sub(1)
            .and_then(|p| msgs.get(p))
            .filter(|p| role(p) == "assistant")
            .map(|p| content(p).iter().filter_map(use_id).collect())
            .unwrap_or_default();
        if role(m) == "user" {
            for (j, b) in content(m).iter().enumerate() {
                if let Some(id) = result_id(b).filter(|id| !prev.contains(id)) {
                    orphans.push(
                        Finding::new(
                            "bedrock/tool-result-has-call",
                            format!("/messages/{i}/content/{j}"),
                            format!("this toolResult answers {id}, which no toolUse of the message before has"),
                        )
                        .about(id),
                    );
                }
            }
        }
        if role(m) != "assistant" {
            continue;
        }
        let Some(next) = msgs.get(i + 1) else {
            continue;
        };
        let answered: HashSet<&str> = if role(next) == "user" {
            content(next).iter().filter_map(result_id).collect()
        } else {
            HashSet::new()
        };
        for (j, b) in content(m).iter().enumerate() {
            if let Some(id) = use_id(b).filter(|id| !answered.contains(id)) {
                dangling.push(
                    Finding::new(
                        "bedrock/tool-use-answered",
                        format!("/messages/{i}/content/{j}"),
                        format!("the call {id} has no toolResult in the next message"),
                    )
                    .about(id),
                );
            }
        }
    }
    (dangling, orphans)
}

fn answer(doc: &mut Value, f: &Finding) -> bool {
    let (Some(i), Some(id)) = (seg(&f.pointer, 1), f.subject.clone()) else {
        return false;
    };
    let block = json!({"toolResult": {"toolUseId": id, "content": [{"text": NO_RESULT}], "status": "error"}});
    let Some(msgs) = doc.get_mut("messages").and_then(Value::as_array_mut) else {
        return false;
    };
    match msgs.get_mut(i + 1) {
        Some(next) if role(next) == "user" => {
            match next.get_mut("content").and_then(Value::as_array_mut) {
                Some(c) => {
                    let lead = c
                        .iter()
                        .take_while(|b| b.get("toolResult").is_some())
                        .count();
                    c.insert(lead, block);
                }
                None => return false,
            }
        }
        _ => msgs.insert(i + 1, json!({"role": "user", "content": [block]})),
    }
    true
}

/// How Converse spells Claude's signed thinking: `reasoningContent` blocks (the signature in
/// `reasoningText`), thinking on in `additionalModelRequestFields`, the choice in
/// `toolConfig.toolChoice`.
struct Blocks;

impl Shape for Blocks {
    const TEXT_CONTENT: bool = false;
    const BLOCK: &'static str = "reasoningContent";
    const SIGNED: &'static str = "reasoningText";
    const CHOICE: &'static str = "/toolConfig/toolChoice";

    /// Thinking on, in the model's own spelling inside `additionalModelRequestFields`.
    fn enabled(doc: &Value) -> bool {
        let extra = doc.get("additionalModelRequestFields");
        let t = extra
            .and_then(|e| e.get("thinking").or_else(|| e.get("reasoning_config")))
            .and_then(|t| str_at(t, "type"));
        matches!(t, Some("enabled" | "adaptive"))
    }

    fn is_result(b: &Value) -> bool {
        b.get("toolResult").is_some()
    }

    fn is_thinking(b: &Value) -> bool {
        b.get("reasoningContent").is_some()
    }

    fn signed(b: &Value) -> Option<(&Value, &'static str)> {
        b.get("reasoningContent")?
            .get("reasoningText")
            .map(|t| (t, "/reasoningContent/reasoningText"))
    }

    fn forced(choice: &Value) -> bool {
        choice.get("any").is_some() || choice.get("tool").is_some()
    }

    fn auto(_choice: &Value) -> Value {
        json!({"auto": {}})
    }
}
