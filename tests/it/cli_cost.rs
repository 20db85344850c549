//! `toolscope render` and `toolscope tokens`: the tool text per model, counts per model as a
//! table or JSON, rounds, checks, usage errors.

use crate::common;

use serde_json::Value;

use common::run_cli as run;

fn fixture(name: &str) -> String {
    common::fixture_text("cost", name)
}

fn path(name: &str) -> String {
    common::fixtures()
        .join("cost")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn render_prints_the_harmony_section_byte_exact() {
    for name in common::HARMONY_FIXTURES {
        let want = fixture(&format!("harmony/{name}.txt"));
        // The model comes from the request (gpt-oss-120b) or from --model.
        let (code, out, err) = run(
            &["render", &path(&format!("harmony/{name}.request.json"))],
            "",
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, want);
        assert!(err.contains("exact"), "{err}");
        let (_, out, _) = run(
            &["render", "--model", "gpt-oss-20b", "-"],
            &fixture(&format!("harmony/{name}.request.json")),
        );
        assert_eq!(out, want);
    }
}

#[test]
fn render_other_families_labels_what_is_known() {
    let doc = fixture("weather.request.json");
    let (code, out, err) = run(&["render", "--model", "claude-sonnet-4-5"], &doc);
    assert_eq!(code, 0);
    assert!(
        out.contains("346 tokens") && out.contains("<function>{\"name\":\"get_weather\""),
        "{out}"
    );
    assert!(err.contains("approximate"), "{err}");
    let (_, out, err) = run(&["render", "--model", "mistral-large-latest"], &doc);
    assert!(
        out.starts_with("[AVAILABLE_TOOLS][{\"type\": \"function\""),
        "{out}"
    );
    assert!(err.contains("documented"), "{err}");
    // A forced tool is reported on stderr, not mixed into the text.
    let forced = doc.replacen(
        "\"tools\":",
        "\"tool_choice\": {\"type\": \"function\", \"function\": {\"name\": \"get_weather\"}},\n  \"tools\":",
        1,
    );
    let (code, out, err) = run(&["render", "--model", "gpt-4o"], &forced);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# Tools\n\n## functions\n\nnamespace functions {"));
    assert!(err.contains("forced tool get_weather"), "{err}");
}

/// The cookbook's tools example through the command line: 105 with cl100k models, 101 with
/// o200k models (OpenAI cookbook, How_to_count_tokens_with_tiktoken.ipynb).
#[test]
fn tokens_json_reproduces_the_cookbook() {
    let cases: Vec<Value> = serde_json::from_str(&fixture("recorded_counts.json")).unwrap();
    for c in cases
        .iter()
        .filter(|c| c["source"].as_str().unwrap().contains("cookbook"))
    {
        let model = c["model"].as_str().unwrap();
        let (code, out, err) = run(
            &["tokens", "--json", "--model", model],
            &c["request"].to_string(),
        );
        assert_eq!(code, 0, "{err}");
        let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(r["model"], model);
        assert_eq!(r["total"], c["prompt_tokens"]);
        assert_eq!(
            r["tools"].as_u64().unwrap() + r["messages"].as_u64().unwrap(),
            r["total"].as_u64().unwrap()
        );
        assert_eq!(r["exact"], true);
        assert!(r["method"].as_str().unwrap().starts_with("exact"));
    }
}

/// hmarr's recorded cases include a `function` result with no call before it, which the format
/// decoder refuses; `tokens` still counts them.
#[test]
fn tokens_reads_legacy_function_messages() {
    let body = r#"{"model": "gpt-3.5-turbo", "messages": [
        {"role": "function", "name": "dance_the_tango", "content": "{\"a\": { \"b\" : { \"c\": false}}}"}]}"#;
    let (code, out, err) = run(&["tokens", "--json", "--model", "gpt-3.5-turbo"], body);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    // hmarr/openai-chat-tokens tests/token-counts.test.ts: 24 prompt tokens.
    assert_eq!(rows[0]["total"], 24);
}

#[test]
fn tokens_without_model_lists_every_family() {
    let (code, out, err) = run(&["tokens", "--json", &path("weather.request.json")], "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let models: Vec<&str> = rows.iter().map(|r| r["model"].as_str().unwrap()).collect();
    // The request's own model first, then one per family.
    assert_eq!(models[0], "gpt-4o");
    let families = "gpt-4 claude-sonnet-4-5 gemini-2.5-flash mistral-large-latest";
    common::assert_holds_all(&models, families);
    let families: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["family"].as_str().unwrap()).collect();
    assert_eq!(families.len(), 8, "{families:?}");
    for r in &rows {
        for k in ["tools", "messages", "total"] {
            assert!(r[k].is_u64(), "{r}");
        }
        assert!(r["exact"].is_boolean() && r["method"].is_string());
    }
}

#[test]
fn tokens_table_with_rounds_and_checks() {
    let (code, out, err) = run(
        &["tokens", "--rounds", "--model", "gpt-4o"],
        &fixture("loop.request.json"),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("model") && lines[0].contains("method"));
    assert!(
        lines[1].starts_with("gpt-4o") && lines[1].contains("estimate"),
        "{out}"
    );
    let rounds: Vec<&&str> = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("round"))
        .collect();
    assert_eq!(rounds.len(), 3, "{out}");
    assert!(rounds[2].contains("running total"));
    // JSON rounds carry the same figures.
    let (_, out, _) = run(
        &["tokens", "--json", "--rounds", "--model", "gpt-4o"],
        &fixture("loop.request.json"),
    );
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let rs = rows[0]["rounds"].as_array().unwrap();
    assert_eq!(rs.len(), 3);
    assert_eq!(rs[2]["prompt"], rows[0]["total"]);
    // The cookbook request is mostly tool definitions: the share check speaks.
    let cases: Vec<Value> = serde_json::from_str(&fixture("recorded_counts.json")).unwrap();
    let (_, out, _) = run(
        &["tokens", "--model", "gpt-4o"],
        &cases[22]["request"].to_string(),
    );
    assert!(out.contains("[cost.tools-share]"), "{out}");
}

#[test]
fn usage_and_input_errors() {
    let (code, _, err) = run(&["tokens", "--model"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--model needs a model id"));
    let (code, _, err) = run(&["render", "--rounds"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["tokens"], "{\"messages\": 3");
    assert_eq!(code, 1);
    assert!(err.starts_with("toolscope:"), "{err}");
    let (code, out, _) = run(&["--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("toolscope render") && out.contains("toolscope tokens"));
}
