//! Tool names per rule family, and object root schemas.
//!
//! Name rules (sources):
//! - OpenAI `^[a-zA-Z0-9_-]{1,64}$`: `FunctionDefinition.name` in the `openai` SDK ("a-z, A-Z,
//!   0-9, or contain underscores and dashes, with a maximum length of 64").
//! - Anthropic `^[a-zA-Z0-9_-]{1,128}$`: the Messages API reference (`tools[].name`, 1–128).
//! - Gemini: starts with a letter or underscore, then letters, digits, `_ . : -`, at most 128:
//!   `FunctionDeclaration.name` in google-genai 3.4 (older docs said 64).
//! - Bedrock `[a-zA-Z0-9_-]+`, 1–64: botocore's bedrock-runtime `ToolName` shape; MCP follows
//!   the spec's recommendation `[A-Za-z0-9_.-]`, 1–128.
//!
//! The fix is a deterministic sanitised name (disallowed characters → `_`, a leading `_` where a
//! letter is needed, cut to the limit), made unique among the tools with `_2`, `_3`…; every
//! call, result and `tool_choice` entry naming the tool is renamed with it.

use super::{Finding, Fix, Severity, Target};
use crate::model::{Exchange, Part};
use serde_json::Value;

/// One provider's name rule: the rule data lives in the provider table.
pub use crate::providers::NameRule;

/// The name rule of a target.
pub fn rule_for(target: Target) -> NameRule {
    target.family().names()
}

/// `tool.duplicate-name`: two tools with one name (every provider rejects it; no fix, since
/// which calls belong to which tool cannot be known).
pub fn duplicates(x: &Exchange) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, t) in x.tools.iter().enumerate() {
        if x.tools[..i].iter().any(|o| o.name == t.name) {
            out.push(Finding::new(
                format!("/tools/{i}/name"),
                Severity::Error,
                "tool.duplicate-name",
                format!("another tool is already named `{}`", t.name),
            ));
        }
    }
    out
}

/// Name findings of a target, with unique renames as fixes.
pub fn names(x: &Exchange, target: Target) -> Vec<Finding> {
    let rule = rule_for(target);
    let mut taken: Vec<String> = x
        .tools
        .iter()
        .filter(|t| rule.ok(&t.name))
        .map(|t| t.name.clone())
        .collect();
    let mut out = Vec::new();
    for (i, t) in x.tools.iter().enumerate() {
        if rule.ok(&t.name) {
            continue;
        }
        let name = rule.unique(&t.name, &taken);
        taken.push(name.clone());
        out.push(
            Finding::new(
                format!("/tools/{i}/name"),
                Severity::Error,
                rule.rule,
                format!(
                    "tool name `{}` breaks {}; fix: rename to `{name}`",
                    t.name, rule.text
                ),
            )
            .with_fix(Some(Fix::Rename { tool: i, to: name })),
        );
    }
    out
}

/// Rename every use of a tool name: calls, results that name their tool, `tool_choice`.
pub fn rename_uses(x: &mut Exchange, from: &str, to: &str) {
    for m in &mut x.messages {
        for p in &mut m.parts {
            match p {
                Part::ToolCall(c) if c.name == from => c.name = to.to_string(),
                Part::ToolResult(r) if r.name.as_deref() == Some(from) => {
                    r.name = Some(to.to_string())
                }
                _ => {}
            }
        }
    }
    if let Some(choice) = &mut x.tool_choice {
        for n in &mut choice.tools {
            if n == from {
                *n = to.to_string();
            }
        }
    }
}

/// `<family>.root-object` (the dialect's rule id): the input schema must be an object schema
/// (Anthropic `input_schema` requires `type: "object"`; Gemini `parameters`, Bedrock
/// `inputSchema.json` and MCP `inputSchema` likewise). Fix only when the intent is clear:
/// `properties` without a type.
pub fn root_object(rule: &'static str, s: &Value, tool: usize, at: &str) -> Vec<Finding> {
    if s.get("type").and_then(Value::as_str) == Some("object") {
        return Vec::new();
    }
    let fix = match s {
        Value::Object(m)
            if !m.contains_key("type") && m.get("properties").is_some_and(Value::is_object) =>
        {
            let mut m = m.clone();
            m.insert("type".into(), Value::String("object".into()));
            Some(Fix::Schema {
                tool,
                schema: Value::Object(m),
            })
        }
        _ => None,
    };
    vec![Finding::new(
        at,
        Severity::Error,
        rule,
        "the input schema needs `\"type\": \"object\"` at the root",
    )
    .with_fix(fix)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sanitise_obeys_each_rule() {
        let gemini = rule_for(Target::from_id("gemini").unwrap());
        assert_eq!(gemini.sanitise("9 lives"), "_9_lives");
        assert!(gemini.ok(&gemini.sanitise("")));
        let openai = rule_for(Target::from_id("openai-chat").unwrap());
        assert_eq!(openai.sanitise("ns.get:wéather"), "ns_get_w_ather");
        assert_eq!(openai.sanitise(&"x".repeat(70)).len(), 64);
        assert!(openai.ok("a-b_C9"));
        assert!(!openai.ok(""));
    }
}
