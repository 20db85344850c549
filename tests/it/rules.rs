//! Provider conversation rules (each format's `rules.rs`, run by `toolscope::rules`): for each
//! rule the smallest request its provider rejects and the accepted twin
//! (`tests/fixtures/rules/<provider>/<rule>.*.json`, written by `scripts/rules-fixtures.py`).
//! The rejected one is flagged with that rule at the element; the twin is clean; a fixable one
//! is clean after the fix. Each rule carries the provider's own error text and its source
//! (printed by `every_rule_cites_its_source`).
//!
//! Then the engine against its own rules: every document it emits for a target, from every
//! gallery example and from generated exchanges, passes that target's rules, but for the
//! (format, rule) pairs listed in `ENGINE_CANNOT` with the reason.

use crate::common;

use common::run_cli as run;
use proptest::prelude::*;
use serde_json::Value;
use toolscope::formats::{Format, Kind};
use toolscope::rules::{self, Severity};

/// (rule, format id, pointer of the flagged element, has a mechanical fix).
const CASES: &[(&str, &str, &str, bool)] = &[
    (
        "openai-chat/tool-call-answered",
        "openai-chat",
        "/messages/1/tool_calls/0",
        true,
    ),
    (
        "openai-chat/tool-result-has-call",
        "openai-chat",
        "/messages/1",
        true,
    ),
    (
        "openai-chat/arguments-string",
        "openai-chat",
        "/messages/1/tool_calls/0/function/arguments",
        true,
    ),
    (
        "mistral/tool-call-id",
        "mistral",
        "/messages/1/tool_calls/0/id",
        true,
    ),
    ("mistral/user-after-tool", "mistral", "/messages/3", false),
    (
        "deepseek/reasoning-content-on-tool-calls",
        "deepseek",
        "/messages/1",
        false,
    ),
    (
        "cohere/tool-call-answered",
        "cohere",
        "/messages/1/tool_calls/0",
        true,
    ),
    ("cohere/tool-result-has-call", "cohere", "/messages/1", true),
    (
        "ollama/arguments-object",
        "ollama",
        "/messages/1/tool_calls/0/function/arguments",
        true,
    ),
    (
        "anthropic/tool-use-id-unique",
        "anthropic",
        "/messages/1/content/1",
        false,
    ),
    (
        "anthropic/tool-result-first",
        "anthropic",
        "/messages/2/content/0",
        true,
    ),
    (
        "anthropic/tool-use-answered",
        "anthropic",
        "/messages/1/content/1",
        true,
    ),
    (
        "anthropic/tool-result-has-call",
        "anthropic",
        "/messages/2/content/1",
        true,
    ),
    (
        "anthropic/thinking-first",
        "anthropic",
        "/messages/1/content/0",
        false,
    ),
    (
        "anthropic/thinking-signature",
        "anthropic",
        "/messages/1/content/0",
        false,
    ),
    (
        "anthropic/thinking-forced-tool-choice",
        "anthropic",
        "/tool_choice",
        true,
    ),
    (
        "anthropic/thinking-disabled-final",
        "anthropic",
        "/messages/1/content/0",
        true,
    ),
    (
        "bedrock/tool-config",
        "bedrock",
        "/messages/1/content/0",
        true,
    ),
    (
        "bedrock/tool-use-answered",
        "bedrock",
        "/messages/1/content/1",
        true,
    ),
    (
        "bedrock/tool-result-has-call",
        "bedrock",
        "/messages/2/content/1",
        true,
    ),
    (
        "bedrock/thinking-first",
        "bedrock",
        "/messages/1/content/0",
        false,
    ),
    (
        "bedrock/thinking-signature",
        "bedrock",
        "/messages/1/content/0/reasoningContent/reasoningText",
        false,
    ),
    (
        "bedrock/thinking-forced-tool-choice",
        "bedrock",
        "/toolConfig/toolChoice",
        true,
    ),
    ("gemini/response-count", "gemini", "/contents/2", true),
    ("gemini/call-turn-order", "gemini", "/contents/0", false),
    ("gemini/response-turn-order", "gemini", "/contents/2", true),
    (
        "gemini/thought-signature",
        "gemini",
        "/contents/1/parts/0",
        true,
    ),
    (
        "gemini/thought-signature-history",
        "gemini",
        "/contents/1/parts/0",
        true,
    ),
    (
        "gemini/parameters-const",
        "gemini",
        "/tools/0/functionDeclarations/0/parameters/properties/mode/anyOf/0/const",
        true,
    ),
    (
        "gemini/parameters-exclusive-bounds",
        "gemini",
        "/tools/0/functionDeclarations/0/parameters/properties/limit/exclusiveMinimum",
        true,
    ),
    (
        "gemini/function-name",
        "gemini",
        "/tools/0/functionDeclarations/0/name",
        true,
    ),
    (
        "openai-responses/reasoning-followed",
        "openai-responses",
        "/input/1",
        true,
    ),
    (
        "openai-responses/reasoning-not-stored",
        "openai-responses",
        "/input/1",
        true,
    ),
    (
        "openai-responses/function-call-answered",
        "openai-responses",
        "/input/1",
        true,
    ),
    (
        "openai-responses/output-has-call",
        "openai-responses",
        "/input/1",
        true,
    ),
    ("mcp/structured-content-present", "mcp", "/3/result", false),
    (
        "mcp/structured-content-matches",
        "mcp",
        "/3/result/structuredContent",
        false,
    ),
    (
        "ai-sdk/tool-result-present",
        "ai-sdk",
        "/messages/1/content/0",
        true,
    ),
];

fn doc(rule: &str, kind: &str) -> (String, Value) {
    let (provider, name) = rule.split_once('/').expect("provider/rule");
    let text = common::fixture_text("rules", &format!("{provider}/{name}.{kind}.json"));
    let v = serde_json::from_str(&text).expect("fixture JSON");
    (text, v)
}

fn format(id: &str) -> Format {
    Format::from_id(id).expect("format id")
}

#[test]
fn every_rule_has_its_twin_fixtures() {
    for r in toolscope::formats::all_rules() {
        assert!(
            CASES.iter().any(|c| c.0 == r.id),
            "{} has no rejected/accepted fixtures",
            r.id
        );
    }
    assert_eq!(CASES.len(), toolscope::formats::all_rules().len());
}

#[test]
fn every_rule_cites_its_source() {
    for r in toolscope::formats::all_rules() {
        // The provider's words, or a plain statement that they were not found.
        match r.error {
            Some(e) => assert!(!e.is_empty(), "{}", r.id),
            None => assert!(
                r.advice.contains("not found") || r.severity == Severity::Warning,
                "{}",
                r.id
            ),
        }
        assert!(r.source.url().starts_with("https://"), "{}", r.id);
        println!(
            "{} [{}] {}: {}",
            r.id,
            r.severity.as_str(),
            r.source.label(),
            r.source.url()
        );
    }
}

#[test]
fn each_rejected_request_is_flagged_at_its_element() {
    for (rule, fmt, pointer, _) in CASES {
        let (_, v) = doc(rule, "rejected");
        let found = format(fmt).rules().check(&v);
        assert!(
            found
                .iter()
                .any(|f| f.rule == *rule && f.pointer == *pointer),
            "{rule}: not flagged at {pointer}; found {found:#?}"
        );
        let r = toolscope::formats::rule(rule).expect("rule");
        if r.severity == Severity::Error {
            assert!(rules::has_errors(&found), "{rule}");
        }
    }
}

#[test]
fn each_accepted_twin_is_clean() {
    for (rule, fmt, _, _) in CASES {
        let (_, v) = doc(rule, "accepted");
        let found = format(fmt).rules().check(&v);
        assert!(found.is_empty(), "{rule}: the accepted twin has {found:#?}");
    }
}

#[test]
fn fixable_ones_are_clean_after_the_fix_and_fixing_again_changes_nothing() {
    for (rule, fmt, _, fixable) in CASES {
        let r = toolscope::formats::rule(rule).expect("rule");
        assert_eq!(r.fix.is_some(), *fixable, "{rule}");
        if !fixable {
            continue;
        }
        let (_, mut v) = doc(rule, "rejected");
        let applied = format(fmt).rules().fix_all(&mut v);
        assert!(applied.contains(rule), "{rule}: {applied:?}");
        let left = format(fmt).rules().check(&v);
        assert!(
            left.is_empty(),
            "{rule}: left after the fix {left:#?}\n{v:#}"
        );
        let again = v.clone();
        assert!(format(fmt).rules().fix_all(&mut v).is_empty(), "{rule}");
        assert_eq!(v, again);
    }
}

#[test]
fn fixes_keep_calls_and_results_paired() {
    // Mistral: the call and its result get the same new id.
    let (_, mut v) = doc("mistral/tool-call-id", "rejected");
    Format::Mistral.rules().fix_all(&mut v);
    let call = v["messages"][1]["tool_calls"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(v["messages"][2]["tool_call_id"], call.as_str());
    assert!(toolscope::formats::openai_chat::rules::mistral::valid_id(
        &call
    ));
    // Anthropic: the result moved first, the text kept after it.
    let (_, mut v) = doc("anthropic/tool-result-first", "rejected");
    Format::Anthropic.rules().fix_all(&mut v);
    assert_eq!(v["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(v["messages"][2]["content"][1]["text"], "Here it is:");
    // Gemini: the placeholder is the documented one.
    let (_, mut v) = doc("gemini/thought-signature", "rejected");
    Format::Gemini.rules().fix_all(&mut v);
    assert_eq!(
        v["contents"][1]["parts"][0]["thoughtSignature"],
        toolscope::model::GEMINI_SKIP_SIGNATURE
    );
    // Bedrock: toolConfig names the tool the conversation calls.
    let (_, mut v) = doc("bedrock/tool-config", "rejected");
    Format::Bedrock.rules().fix_all(&mut v);
    assert_eq!(
        v["toolConfig"]["tools"][0]["toolSpec"]["name"],
        "get_weather"
    );
}

#[test]
fn cli_lint_prints_rule_findings_and_exits_1() {
    for (rule, fmt, pointer, _) in CASES {
        let (text, _) = doc(rule, "rejected");
        let (code, out, err) = run(&["lint", "-"], &text);
        let r = toolscope::formats::rule(rule).expect("rule");
        let line = format!("{} {pointer}: ", r.severity.as_str());
        // Read as another dialect of the same protocol (a Cohere body is a Chat Completions
        // body), the document meets that dialect's rules instead: say so, do not fail.
        let detected = Format::detect(&text).map(|(f, _)| f.id()).unwrap_or("?");
        if detected != *fmt {
            println!("{rule}: the document is detected as {detected}, not {fmt}");
            continue;
        }
        assert!(
            out.lines()
                .any(|l| l.starts_with(&line) && l.ends_with(&format!("[{rule}]"))),
            "{rule}: {out}\n{err}"
        );
        if r.severity == Severity::Error {
            assert_eq!(code, 1, "{rule}: {out}\n{err}");
            if let Some(e) = r.error {
                assert!(
                    out.contains(e),
                    "{rule}: the provider's words are missing: {out}"
                );
            }
        }
    }
}

#[test]
fn cli_lint_fix_writes_a_document_that_passes() {
    for (rule, fmt, _, fixable) in CASES {
        if !fixable {
            continue;
        }
        let (text, _) = doc(rule, "rejected");
        if Format::detect(&text).map(|(f, _)| f.id()).ok() != Some(*fmt) {
            continue;
        }
        let (_, out, err) = run(&["lint", "--fix", "-"], &text);
        // The document may not decode (an orphan result is refused by some decoders): then
        // the command says why on stderr, and that is a refusal with a reason.
        let Ok(fixed) = serde_json::from_str::<Value>(&out) else {
            assert!(err.contains("toolscope:"), "{rule}: {out}\n{err}");
            continue;
        };
        let left = format(fmt).rules().check(&fixed);
        assert!(
            !left.iter().any(|f| f.rule == *rule),
            "{rule}: still there after --fix: {left:#?}\n{out}"
        );
    }
}

#[test]
fn a_provider_error_names_its_rule() {
    let body = r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages.4: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks."}}"#;
    assert_eq!(
        Format::Anthropic.rules().match_error(body).map(|r| r.id),
        Some("anthropic/tool-result-first")
    );
    let body = r#"{"object":"error","message":"Tool call id was call_abc but must be a-z, A-Z, 0-9, with a length of 9.","type":"invalid_request_error"}"#;
    assert_eq!(
        Format::Mistral.rules().match_error(body).map(|r| r.id),
        Some("mistral/tool-call-id")
    );
    assert!(Format::OpenAiChat
        .rules()
        .match_error("rate limited")
        .is_none());
}

#[test]
fn line_of_points_into_the_text() {
    let (text, _) = doc("anthropic/tool-result-first", "rejected");
    let line = toolscope::formats::json::line_of(&text, "/messages/2/content/0").expect("found");
    assert!(text.lines().nth(line - 1).unwrap().contains('{'));
    assert!(text.lines().nth(line).unwrap().contains("\"text\""));
}

/// What the engine cannot meet, per (format, rule), and why. The pane shows these findings
/// like any other (it runs the rules on the document it shows).
const ENGINE_CANNOT: &[(&str, &str, &str)] = &[
    (
        "anthropic",
        "anthropic/thinking-disabled-final",
        "the Anthropic encoder writes an assistant message's thinking blocks as the exchange \
         has them, whether or not the request turns thinking on: dropping them would change the \
         user's own document; the pane shows the rule and its fix",
    ),
    (
        "bedrock",
        "bedrock/thinking-first",
        "thinking signed by another provider cannot go to Bedrock, and only a Bedrock response \
         can give the tool loop the signed reasoningContent it needs: the pane shows the rule \
         (turn thinking off, or run the turn on Bedrock)",
    ),
    (
        "anthropic",
        "anthropic/thinking-first",
        "thinking signed by another provider cannot go to Anthropic, and only an Anthropic \
         response can give the tool loop the signed thinking it needs: the pane shows the rule \
         (turn thinking off, or run the turn on Anthropic)",
    ),
];

/// Rules a conversation can break in any format (a call left without its result, a
/// conversation that starts with the model's call): the engine carries the conversation as
/// given, so these say something about the exchange, not the encoder.
fn conversation_level(rule: &str) -> bool {
    [
        "tool-call-answered",
        "tool-use-answered",
        "function-call-answered",
        "tool-result-present",
        "tool-result-has-call",
        "output-has-call",
        "response-count",
        "call-turn-order",
        "response-turn-order",
        "user-after-tool",
        "tool-use-id-unique",
        "structured-content-present",
        "structured-content-matches",
        "reasoning-followed",
    ]
    .iter()
    .any(|s| rule.ends_with(s))
}

fn engine_findings(x: &toolscope::model::Exchange, strict: bool) -> Vec<String> {
    let mut bad = Vec::new();
    for f in Format::ALL {
        if f.is_text() {
            continue;
        }
        let enc = f.encode(x, Kind::Request);
        let Ok(v) = serde_json::from_str::<Value>(&enc.text) else {
            continue;
        };
        for found in f.rules().check(&v) {
            if found.severity != Severity::Error {
                continue;
            }
            if ENGINE_CANNOT
                .iter()
                .any(|(fid, r, _)| *fid == f.id() && *r == found.rule)
            {
                continue;
            }
            if !strict && conversation_level(found.rule) {
                continue;
            }
            bad.push(format!("{}: {found}", f.id()));
        }
    }
    bad
}

#[test]
fn the_engine_obeys_its_own_rules_on_every_example() {
    let mut bad = Vec::new();
    for e in toolscope::examples::EXAMPLES {
        let Ok((d, _)) = toolscope::formats::read_any(e.source) else {
            continue;
        };
        for b in engine_findings(&d.exchange, false) {
            bad.push(format!("example {}: {b}", e.id));
        }
        // What the example's conversation itself breaks (it ends with the model's call, or
        // starts without a user turn): shown in the panes as it is.
        for b in engine_findings(&d.exchange, true) {
            println!("example {}: {b}", e.id);
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

proptest! {
    #![proptest_config(common::gen::config(64))]

    /// Generated exchanges (any order of calls and results) may break conversation-level
    /// rules in every format alike; what an encoder adds must not break a rule.
    #[test]
    fn the_engine_obeys_its_own_rules_on_generated_exchanges(x in common::gen::exchange()) {
        let bad = engine_findings(&x, false);
        prop_assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
