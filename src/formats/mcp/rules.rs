//! MCP: a tool that declares an `outputSchema` returns `structuredContent`, and it conforms to
//! that schema. The document is a JSON-RPC transcript (`tools/list`, `tools/call` and their
//! results); the words are the MCP Python SDK client's, which checks both on every call.

use crate::rules::{str_at, Finding, Rule, Severity, Source};
use crate::schema::validate::Validator;
use serde_json::Value;
use std::collections::HashMap;

const SPEC: &str =
    "https://modelcontextprotocol.io/specification/2025-06-18/server/tools#output-schema";

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "mcp/structured-content-present",
        provider: "MCP",
        severity: Severity::Error,
        error: Some("Tool get_weather has an output schema but did not return structured content"),
        matches: &["has an output schema but did not return structured content"],
        source: Source::Docs(SPEC),
        advice: "no mechanical fix: the server must return structuredContent for a tool with an outputSchema (or the tool must not declare one)",
        check: |d| structured(d).0,
        fix: None,
    },
    Rule {
        id: "mcp/structured-content-matches",
        provider: "MCP",
        severity: Severity::Error,
        error: Some("Invalid structured content returned by tool get_weather: 'temperature' is a required property"),
        matches: &["Invalid structured content returned by tool"],
        source: Source::Docs(SPEC),
        advice: "no mechanical fix: the server's structuredContent must conform to the tool's outputSchema (fix the server or the schema)",
        check: |d| structured(d).1,
        fix: None,
    },
];

/// (results without structuredContent, results whose structuredContent does not conform).
fn structured(doc: &Value) -> (Vec<Finding>, Vec<Finding>) {
    let Some(msgs) = doc.as_array() else {
        return (Vec::new(), Vec::new());
    };
    let mut schemas: HashMap<&str, &Value> = HashMap::new();
    let mut asked: HashMap<String, &str> = HashMap::new();
    let (mut missing, mut wrong) = (Vec::new(), Vec::new());
    for (k, m) in msgs.iter().enumerate() {
        let id = m.get("id").map(Value::to_string);
        if let Some(method) = str_at(m, "method") {
            if method == "tools/call" {
                if let (Some(id), Some(name)) =
                    (id, m.get("params").and_then(|p| str_at(p, "name")))
                {
                    asked.insert(id, name);
                }
            }
            continue;
        }
        let Some(result) = m.get("result") else {
            continue;
        };
        if let Some(tools) = result.get("tools").and_then(Value::as_array) {
            for t in tools {
                if let (Some(n), Some(s)) = (str_at(t, "name"), t.get("outputSchema")) {
                    schemas.insert(n, s);
                }
            }
            continue;
        }
        let Some(name) = id.and_then(|id| asked.get(&id).copied()) else {
            continue;
        };
        let Some(schema) = schemas.get(name) else {
            continue;
        };
        if result.get("isError") == Some(&Value::Bool(true)) {
            continue;
        }
        match result.get("structuredContent") {
            None => missing.push(
                Finding::new(
                    "mcp/structured-content-present",
                    format!("/{k}/result"),
                    format!(
                        "{name} declares an outputSchema but this result has no structuredContent"
                    ),
                )
                .about(name),
            ),
            Some(sc) => {
                let Ok(v) = Validator::new(schema) else {
                    continue;
                };
                if let Some(e) = v.errors(sc).first() {
                    wrong.push(
                        Finding::new(
                            "mcp/structured-content-matches",
                            format!("/{k}/result/structuredContent"),
                            format!("does not conform to {name}'s outputSchema: {e}"),
                        )
                        .about(name),
                    );
                }
            }
        }
    }
    (missing, wrong)
}
