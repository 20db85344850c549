//! Ollama's native `/api/chat`: a tool call's `arguments` is a JSON object. (Its
//! OpenAI-compatible `/v1/chat/completions` wants a string, as OpenAI does: that document is
//! checked by the OpenAI Chat rules.)

use super::arguments;
use crate::rules::{Finding, Rule, Severity, Source};
use serde_json::Value;

/// The rules.
pub const RULES: &[Rule] = &[Rule {
    id: "ollama/arguments-object",
    provider: "Ollama",
    severity: Severity::Error,
    error: Some("json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments"),
    matches: &["cannot unmarshal", "of type api.ToolCallFunctionArguments"],
    source: Source::Reported("https://github.com/aliasrobotics/cai/issues/76"),
    advice: "fix: send the arguments as a JSON object (the native API's spelling)",
    check: |d| {
        arguments(
            d,
            "ollama/arguments-object",
            |a| !a.is_object(),
            "the native API wants the arguments as a JSON object, not a string",
        )
    },
    fix: Some(parse_arguments),
}];

fn parse_arguments(doc: &mut Value, f: &Finding) -> bool {
    let Some(a) = doc.pointer_mut(&f.pointer) else {
        return false;
    };
    let parsed = match &*a {
        Value::String(s) if s.trim().is_empty() => Value::Object(Default::default()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => v,
            _ => return false,
        },
        Value::Null => Value::Object(Default::default()),
        _ => return false,
    };
    *a = parsed;
    true
}
