//! `toolscope lint`: findings as lines, exit status, `--target`, `--fix` in the source format.

use crate::common;

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::Exchange;

use common::run_cli as run;

fn fixture(name: &str) -> String {
    common::fixture_text("schema", name)
}

/// A realistic OpenAI Chat request whose strict tool breaks strict mode and whose name has a
/// space.
fn openai_doc() -> Value {
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get weather", "arguments": "{\"city\":\"Paris\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_1", "content": "18C"}
        ],
        "tools": [{"type": "function", "function": {
            "name": "get weather",
            "description": "Current weather",
            "strict": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}
        }}]
    })
}

#[test]
fn cli_lint_prints_findings_and_exits_1_on_errors() {
    let (code, out, err) = run(&["lint", "-"], &fixture("bad_args.json"));
    assert_eq!(code, 1, "{err}");
    let first = out.lines().next().expect("a finding");
    assert_eq!(
        first,
        "error /messages/1/parts/0/arguments/items/1/qty: `order` arguments at /items/1/qty: 0 is less than the minimum of 1 (schema /properties/items/items/properties/qty/minimum) [args.schema]"
    );
    for rule in [
        "[args.invalid-json]",
        "[args.unknown-tool]",
        "[args.orphan-result]",
    ] {
        assert!(out.contains(rule), "{rule}: {out}");
    }
    // Every line has the documented shape.
    for line in out.lines() {
        let (sev, rest) = line.split_once(' ').unwrap();
        assert!(["error", "warning", "info"].contains(&sev), "{line}");
        assert!(
            rest.starts_with('/') && rest.contains(": ") && line.ends_with(']'),
            "{line}"
        );
    }
}

#[test]
fn cli_lint_clean_document_exits_0() {
    let doc = json!({
        "tools": [{"name": "add", "description": "Add", "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}],
        "messages": [{"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "add", "arguments": {"a": 1}}]}]
    });
    let (code, out, err) = run(&["lint", "--target", "anthropic", "-"], &doc.to_string());
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    // Gemini sends this as parametersJsonSchema, which takes `additionalProperties`: nothing to
    // say about the Gemini document; what `parameters` would need is listed on request.
    let doc = json!({"tools": [{"name": "add", "description": "Add", "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}}], "messages": []});
    let (code, out, _) = run(&["lint", "--target", "gemini", "-"], &doc.to_string());
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = run(
        &["lint", "--target", "gemini", "--gemini-parameters", "-"],
        &doc.to_string(),
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "info /tools/0/input_schema/additionalProperties: sent as `parametersJsonSchema`"
        ),
        "{out}"
    );
    let (_, fixed, _) = run(
        &[
            "lint",
            "--target",
            "gemini",
            "--gemini-parameters",
            "--fix",
            "-",
        ],
        &doc.to_string(),
    );
    assert!(!fixed.contains("additionalProperties"), "{fixed}");
}

#[test]
fn cli_lint_uses_the_source_format_without_target() {
    let (code, out, _) = run(&["lint", "-"], &openai_doc().to_string());
    assert_eq!(code, 1);
    assert!(out.contains("[openai.name]"), "{out}");
    assert!(
        out.contains("error /tools/0/input_schema/properties/unit: "),
        "{out}"
    );
    assert!(
        !out.contains("[gemini."),
        "only the source format's rules: {out}"
    );
    // Canonical input: every target.
    let (_, out, _) = run(&["lint", "-"], &fixture("tools.json"));
    for rule in [
        "[openai.name]",
        "[bedrock.description]",
        "[anthropic.root-object]",
        "[mcp.name]",
    ] {
        assert!(out.contains(rule), "{rule}");
    }
    // Same rule at the same spot from two OpenAI-family formats: once.
    assert_eq!(
        out.matches("error /tools/0/name:").filter(|_| true).count(),
        5,
        "{out}"
    );
}

#[test]
fn cli_lint_fix_reencodes_the_source_format() {
    let (code, out, err) = run(&["lint", "--fix", "-"], &openai_doc().to_string());
    // The earlier call left `unit` out, which the strict schema now requires: an error remains.
    assert_eq!(code, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).expect("json");
    let f = &doc["tools"][0]["function"];
    assert_eq!(f["name"], "get_weather");
    assert_eq!(f["parameters"]["additionalProperties"], false);
    assert_eq!(f["parameters"]["required"], json!(["city", "unit"]));
    assert_eq!(
        f["parameters"]["properties"]["unit"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        doc["messages"][1]["tool_calls"][0]["function"]["name"],
        "get_weather"
    );
    // The fixed document is still an OpenAI Chat request, and lints clean but for the arguments
    // the stricter schema now rejects.
    let (fmt, kind) = Format::detect(&out).unwrap();
    assert_eq!((fmt, kind), (Format::OpenAiChat, Kind::Request));
    let (code, again, _) = run(&["lint", "-"], &out);
    assert_eq!(code, 1);
    assert_eq!(again.lines().count(), 1, "{again}");
    assert!(again.contains("\"unit\" is a required property"), "{again}");
    assert!(
        err.contains("\"unit\" is a required property"),
        "remaining findings on stderr: {err}"
    );
}

#[test]
fn cli_lint_fix_canonical_needs_a_target() {
    let (code, _, err) = run(&["lint", "--fix", "-"], &fixture("tools.json"));
    assert_eq!(code, 2);
    assert!(err.contains("needs --target"), "{err}");
    let (_, out, _) = run(
        &["lint", "--fix", "--target", "gemini", "-"],
        &fixture("tools.json"),
    );
    let fixed: Exchange = serde_json::from_str(&out).expect("canonical out");
    assert_eq!(fixed.tools[2].name, "_9lives.and:colons");
    // Fixing the fixed document changes nothing.
    let (_, twice, _) = run(&["lint", "--fix", "--target", "gemini", "-"], &out);
    assert_eq!(out, twice);
}

#[test]
fn cli_lint_strict_offers_strict_mode() {
    let doc = json!({"tools": [{"name": "t", "input_schema": {"type": "object", "properties": {"a": {"type": "string"}}}}], "messages": []});
    let text = doc.to_string();
    let (code, out, _) = run(&["lint", "--target", "openai-chat", "--strict", "-"], &text);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "info /tools/0/input_schema: this tool can use strict mode; fix: make the schema strict and set `strict: true` [openai.make-strict]");
    let (_, out, _) = run(
        &["lint", "--target", "openai-chat", "--strict", "--fix", "-"],
        &text,
    );
    let fixed: Exchange = serde_json::from_str(&out).unwrap();
    assert_eq!(fixed.tools[0].strict, Some(true));
    // Responses: `strict` left unset means strict mode, so its rules come as warnings.
    let (code, out, _) = run(&["lint", "--target", "openai-responses", "-"], &text);
    assert_eq!(code, 0);
    assert!(
        out.contains("warning /tools/0/input_schema/properties/a: "),
        "{out}"
    );
    assert!(out.contains("applies strict mode by default"), "{out}");
}

#[test]
fn cli_lint_usage_and_input_errors() {
    assert_eq!(run(&["lint", "--target", "klingon", "-"], "{}").0, 2);
    assert_eq!(run(&["lint", "--target"], "").0, 2);
    assert_eq!(run(&["lint", "--bogus"], "").0, 2);
    assert_eq!(run(&["lint", "a", "b"], "").0, 2);
    common::assert_cli_fails(&["lint", "-"], "{\"tools\": [", 1, "line 1");
    common::assert_cli_fails(&["lint", "/nonexistent/x.json"], "", 1, "cannot read");
}

#[test]
fn cli_lint_binary_reads_a_file() {
    let path = common::fixtures().join("schema/bad_args.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolscope"))
        .arg("lint")
        .arg(&path)
        .output()
        .expect("run toolscope");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[args.orphan-result]"));
}

/// An OpenAI Responses request as users write it: an optional parameter, no `strict` (the
/// Responses API applies strict mode by default).
fn responses_doc() -> Value {
    json!({
        "model": "gpt-4.1",
        "input": "Forecast for Paris?",
        "tools": [{"type": "function", "name": "get_forecast", "description": "Forecast",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}}]
    })
}

#[test]
fn cli_lint_fix_for_several_targets_settles_in_one_step() {
    let text = responses_doc().to_string();
    let args = [
        "lint",
        "--fix",
        "--target",
        "openai-responses",
        "--target",
        "gemini",
        "-",
    ];
    let (code, out, err) = run(&args, &text);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("conflict:"), "{err}");
    let doc: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["tools"][0]["parameters"]["additionalProperties"], false);
    // Both targets lint without a warning or an error, and fixing again changes nothing.
    let (code, lints, _) = run(
        &[
            "lint",
            "--target",
            "openai-responses",
            "--target",
            "gemini",
            "-",
        ],
        &out,
    );
    assert_eq!(code, 0);
    assert!(lints.lines().all(|l| l.starts_with("info ")), "{lints}");
    let (_, twice, _) = run(&args, &out);
    assert_eq!(out, twice);
    // Canonical input with several targets works too.
    let (code, _, err) = run(
        &[
            "lint",
            "--fix",
            "--target",
            "bedrock",
            "--target",
            "openai-chat",
            "-",
        ],
        &fixture("tools.json"),
    );
    assert!(!err.contains("needs --target"), "{err}");
    assert!(code == 0 || code == 1);
}
