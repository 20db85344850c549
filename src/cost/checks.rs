//! Guidance for production tool sets, as findings with reasons (`cost.*` rules).

use super::count::Count;
use crate::schema::{Finding, Severity};
use serde_json::Value;

/// Thresholds of the checks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Warn when the tool definitions are more than this share of the prompt (0.0–1.0).
    pub max_tools_share: f64,
    /// Warn for a tool or parameter description longer than this many characters.
    pub max_description: usize,
    /// Warn when one request carries more tools than this.
    pub max_tools: usize,
}

impl Default for Limits {
    /// 50 % of the prompt; 1,024 characters (Bedrock's and MCP clients' common cap, and several
    /// paragraphs); 20 tools (OpenAI's function-calling guide: "aim for fewer than 20 functions
    /// at any one time").
    fn default() -> Self {
        Limits {
            max_tools_share: 0.5,
            max_description: 1024,
            max_tools: 20,
        }
    }
}

/// The findings for `x`, whose prompt tokens for some model are `c` ([`super::count`]).
pub fn check(x: &crate::model::Exchange, c: &Count, limits: Limits) -> Vec<Finding> {
    let mut out = Vec::new();
    if x.tools.is_empty() {
        return out;
    }
    if c.total > 0 {
        let share = c.tools as f64 / c.total as f64;
        if share > limits.max_tools_share {
            out.push(Finding::new(
                "/tools",
                Severity::Warning,
                "cost.tools-share",
                format!(
                    "the tool definitions are {:.0} % of the prompt ({} of {} tokens for {}, {}), \
                     above {:.0} %; they are resent on every round of a tool loop: shorten \
                     descriptions or send fewer tools",
                    share * 100.0,
                    c.tools,
                    c.total,
                    c.model,
                    if c.exact { "exact" } else { "estimate" },
                    limits.max_tools_share * 100.0
                ),
            ));
        }
    }
    if x.tools.len() > limits.max_tools {
        out.push(Finding::new(
            "/tools",
            Severity::Warning,
            "cost.many-tools",
            format!(
                "{} tools on one request (more than {}): every definition is paid for on every \
                 request and the model chooses less reliably; load the tools each step needs \
                 (by phase, router or tool search) instead of all of them",
                x.tools.len(),
                limits.max_tools
            ),
        ));
    }
    for (i, t) in x.tools.iter().enumerate() {
        if let Some(d) = &t.description {
            long_description(
                d,
                || format!("/tools/{i}/description"),
                &t.name,
                "; keep what the model needs to choose and call it",
                limits,
                &mut out,
            );
        }
        walk(
            &t.input_schema,
            &format!("/tools/{i}/input_schema"),
            &t.name,
            limits,
            &mut out,
        );
    }
    out
}

/// A `cost.long-description` finding when `d` is over the limit: `what` names the described
/// tool or parameter, `advice` follows the figures.
fn long_description(
    d: &str,
    at: impl FnOnce() -> String,
    what: &str,
    advice: &str,
    limits: Limits,
    out: &mut Vec<Finding>,
) {
    let n = d.chars().count();
    if n > limits.max_description {
        out.push(Finding::new(
            at(),
            Severity::Warning,
            "cost.long-description",
            format!(
                "the description of {what} is {n} characters (more than {}): it is paid for on \
                 every request{advice}",
                limits.max_description
            ),
        ));
    }
}

/// Parameters without a type, and long parameter descriptions, at any depth.
fn walk(schema: &Value, at: &str, tool: &str, limits: Limits, out: &mut Vec<Finding>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        if let Some(items) = schema.get("items") {
            walk(items, &format!("{at}/items"), tool, limits, out);
        }
        return;
    };
    for (name, p) in props {
        let here = format!(
            "{at}/properties/{}",
            name.replace('~', "~0").replace('/', "~1")
        );
        let typed = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"]
            .iter()
            .any(|k| p.get(k).is_some());
        if !typed {
            out.push(Finding::new(
                here.clone(),
                Severity::Warning,
                "cost.untyped-parameter",
                format!(
                    "parameter {name} of {tool} has no type: the model reads it as `any` and \
                     guesses; give it a type (and an enum where the values are fixed)"
                ),
            ));
        }
        if let Some(d) = p.get("description").and_then(Value::as_str) {
            long_description(
                d,
                || format!("{here}/description"),
                &format!("parameter {name} of {tool}"),
                "",
                limits,
                out,
            );
        }
        walk(p, &here, tool, limits, out);
    }
}
