//! Reasoning and provider-run tools in Anthropic Messages, checked on recorded traffic
//! (`tests/fixtures/anthropic/recorded/`, `tests/fixtures/recorded/anthropic/`; sources in
//! `tests/fixtures/recorded/NOTICE.md`): thinking and redacted thinking read as reasoning parts
//! whose state Anthropic issued, server and MCP tool steps as hosted parts, server tools as
//! hosted tools; a document comes back field for field; other providers get neither the
//! signature nor the steps, and each drop is reported by name; streams assemble to what their
//! events say.

use serde_json::{json, Value};
use std::process::Command;
use toolscope::formats::{Format, Kind, Protocol};
use toolscope::model::*;
use toolscope::replay::{AnyAssembler, LoadOptions, Replay};
use toolscope::stream::{Assembler, Event, Update};

use crate::common;
use common::reasoning::{decode_fixture, fixture_json, providers, reasoning_losses};

const A: Format = Format::Anthropic;

/// Every recorded Anthropic document, as (file name, kind, JSON).
fn recorded() -> Vec<(String, Kind, Value)> {
    let dir = common::fixtures().join("anthropic/recorded");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).expect("recorded dir") {
        let path = e.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let kind = if name.ends_with(".request.json") {
            Kind::Request
        } else if name.ends_with(".response.json") {
            Kind::Response
        } else {
            continue;
        };
        let doc = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        out.push((name, kind, doc));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 12, "{} recorded documents", out.len());
    out
}

fn doc(name: &str) -> Value {
    fixture_json(&format!("anthropic/recorded/{name}"))
}

fn decode(name: &str, kind: Kind) -> Exchange {
    decode_fixture(A, &format!("anthropic/recorded/{name}"), kind)
}

#[test]
fn recorded_documents_are_detected_and_come_back_field_for_field() {
    for (name, kind, doc) in recorded() {
        let text = serde_json::to_string_pretty(&doc).unwrap();
        assert_eq!(Format::detect(&text).unwrap(), (A, kind), "{name}");
        let (_, losses) = common::paste_survives(A, doc.clone(), kind);
        assert!(losses.is_empty(), "{name}: {losses:#?}");
        let enc = A.encode(&A.decode(&text, kind).unwrap().exchange, kind);
        assert!(enc.losses.is_empty(), "{name}: {:#?}", enc.losses);
    }
}

#[test]
fn thinking_is_a_reasoning_part_signed_by_anthropic_for_its_model() {
    let x = decode("anthropic-clear-thinking.1.response.json", Kind::Response);
    let want = doc("anthropic-clear-thinking.1.response.json");
    let m = &x.messages[0];
    let Part::Reasoning(r) = &m.parts[0] else {
        panic!("{:?}", m.parts[0])
    };
    assert_eq!(r.text.as_deref(), want["content"][0]["thinking"].as_str());
    let o = r.opaque.as_ref().expect("signature");
    assert_eq!(o.kind, OpaqueKind::Signature);
    assert_eq!(o.provider, "anthropic");
    assert_eq!(o.model.as_deref(), Some("claude-sonnet-4-5-20250929"));
    assert_eq!(
        Some(o.data.as_str()),
        want["content"][0]["signature"].as_str()
    );
    assert!(matches!(&m.parts[1], Part::Text { .. }));

    // In a request: the thinking settings are reasoning options, the block a reasoning part.
    let x = decode("thinking-follow-up.request.json", Kind::Request);
    assert_eq!(x.options.reasoning.enabled, Some(true));
    assert_eq!(x.options.reasoning.budget, Some(1024));
    assert!(matches!(&x.messages[1].parts[0], Part::Reasoning(r) if r.opaque.is_some()));
}

#[test]
fn server_and_mcp_steps_are_hosted_parts_kept_verbatim() {
    let x = decode("anthropic-mcp.1.response.json", Kind::Response);
    let raw = doc("anthropic-mcp.1.response.json");
    let steps: Vec<&HostedStep> = x.messages[0]
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Hosted(h) => Some(h),
            _ => None,
        })
        .collect();
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].kind, HostedKind::Call);
    assert_eq!(steps[1].kind, HostedKind::Result);
    assert_eq!(steps[0].id, steps[1].id);
    assert_eq!(
        steps[0].tool,
        format!(
            "mcp:{}/{}",
            raw["content"][0]["server_name"].as_str().unwrap(),
            raw["content"][0]["name"].as_str().unwrap()
        )
    );
    assert_eq!(steps[0].value, raw["content"][0]);
    assert_eq!(steps[1].value, raw["content"][1]);
    assert!(steps.iter().all(|h| h.provider == "anthropic"));

    let x = decode(
        "anthropic-code-execution-20250825.1.response.json",
        Kind::Response,
    );
    let tools: Vec<(HostedKind, &str)> = x.messages[0]
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Hosted(h) => Some((h.kind, h.tool.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        tools,
        [
            (HostedKind::Call, "text_editor_code_execution"),
            (HostedKind::Result, "text_editor_code_execution"),
            (HostedKind::Call, "bash_code_execution"),
            (HostedKind::Result, "bash_code_execution"),
        ]
    );

    // Tool search: the search is the provider's, the call it found is the client's.
    let x = decode(
        "anthropic-tool-search-regex.1.response.json",
        Kind::Response,
    );
    assert_eq!(x.messages[0].tool_calls().count(), 1);
    assert!(x.messages[0]
        .parts
        .iter()
        .any(|p| matches!(p, Part::Hosted(h) if h.tool == "tool_search")));
}

#[test]
fn server_tools_are_hosted_tools_and_client_tool_fields_are_kept() {
    let x = decode("tool-search-follow-up.request.json", Kind::Request);
    let h = x.tools[0].hosted.as_ref().expect("hosted");
    assert_eq!(
        (h.provider.as_str(), h.kind.as_str()),
        ("anthropic", "tool_search")
    );
    assert!(x.tools[1].hosted.is_none());
    assert_eq!(x.tools[1].extra["anthropic"]["defer_loading"], json!(true));
    let x = decode("code-execution-follow-up.request.json", Kind::Request);
    assert_eq!(x.tools[0].hosted.as_ref().unwrap().kind, "code_execution");
    // mcp_servers stays a request field of Anthropic's.
    let x = decode("mcp-follow-up.request.json", Kind::Request);
    assert!(x.extra["anthropic"].contains_key("mcp_servers"));
}

#[test]
fn a_thinking_signature_goes_to_no_other_provider_and_each_drop_is_named() {
    let x = decode("thinking-follow-up.request.json", Kind::Request);
    let signature = doc("thinking-follow-up.request.json")["messages"][1]["content"][0]
        ["signature"]
        .as_str()
        .unwrap()
        .to_string();
    for f in providers().filter(|f| *f != A) {
        let enc = f.encode(&x, Kind::Request);
        assert!(!enc.text.contains(&signature), "{}: signature sent", f.id());
        let named = reasoning_losses(&enc.losses);
        assert!(
            named.contains(&(
                "Anthropic thinking signature".into(),
                "only Anthropic can verify it".into()
            )),
            "{}: {named:?}",
            f.id()
        );
    }
    // Bedrock (Claude there too) takes no Anthropic signature, nor unsigned text.
    let enc = Format::Bedrock.encode(&x, Kind::Request);
    let named = reasoning_losses(&enc.losses);
    assert_eq!(named.len(), 2, "{named:?}");
    assert_eq!(named[1].0, "Anthropic reasoning text");
    assert!(named[1]
        .1
        .contains("Claude models on Bedrock reject unsigned reasoning"));
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert!(!enc.text.contains("reasoningContent"), "{doc:#}");
    // The settings are carried: Bedrock's spelling of Claude's thinking.
    assert_eq!(
        doc["additionalModelRequestFields"]["thinking"],
        json!({"type": "enabled", "budget_tokens": 1024})
    );
}

#[test]
fn reasoning_from_other_providers_has_no_place_in_anthropic() {
    let mut x = decode("thinking-follow-up.request.json", Kind::Request);
    // DeepSeek's visible reasoning (no state), a Responses summary with encrypted content.
    let deepseek = Reasoning::text("Let me think about the weather.");
    let responses = Reasoning {
        summary: vec!["Considered the question.".into()],
        opaque: Some(Opaque::new(OpaqueKind::Encrypted, "gAAAAB", "openai")),
        ..Reasoning::default()
    };
    x.messages[1].parts = vec![
        Part::Reasoning(deepseek),
        Part::Reasoning(responses),
        Part::text("Hello!"),
    ];
    let enc = A.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["messages"][1]["content"], json!("Hello!"));
    let named = reasoning_losses(&enc.losses);
    assert_eq!(
        named,
        [
            (
                "reasoning text".to_string(),
                "Anthropic takes thinking back only with the signature Anthropic issued for it: \
                 the API rejects unsigned thinking blocks"
                    .to_string()
            ),
            (
                "OpenAI encrypted reasoning".to_string(),
                "only OpenAI can verify it".to_string()
            ),
            (
                "OpenAI reasoning text".to_string(),
                "Anthropic takes thinking back only with the signature Anthropic issued for it: \
                 the API rejects unsigned thinking blocks"
                    .to_string()
            ),
        ]
    );
    // A Bedrock signature (Claude on Bedrock) is Bedrock's to verify.
    let bx = common::decode_doc(
        Format::Bedrock,
        &serde_json::from_str(&common::fixture_text(
            "bedrock/recorded",
            "reasoning-follow-up.request.json",
        ))
        .unwrap(),
        Kind::Request,
    )
    .0;
    let enc = A.encode(&bx, Kind::Request);
    assert!(!enc.text.contains("\"thinking\": \"Let me count"));
    let named = reasoning_losses(&enc.losses);
    assert!(named.contains(&(
        "Bedrock thinking signature".into(),
        "only Bedrock can verify it".into()
    )));
}

#[test]
fn hosted_steps_and_tools_go_to_no_other_provider_and_each_drop_is_named() {
    let x = decode("code-execution-follow-up.request.json", Kind::Request);
    let enc = Format::Bedrock.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert!(!enc.text.contains("server_tool_use"), "{doc:#}");
    assert!(doc.get("toolConfig").is_none(), "{doc:#}");
    let dropped: Vec<&str> = enc
        .losses
        .iter()
        .filter(|l| l.kind == LossKind::Dropped)
        .map(|l| l.what.as_str())
        .collect();
    for want in [
        "Anthropic code_execution tool",
        "Anthropic text_editor_code_execution call",
        "Anthropic text_editor_code_execution result",
        "Anthropic bash_code_execution call",
        "Anthropic bash_code_execution result",
    ] {
        assert!(dropped.contains(&want), "{want}: {dropped:?}");
    }
    // Every other format drops the steps by name too.
    for f in providers().filter(|f| *f != A) {
        let enc = f.encode(&x, Kind::Request);
        assert!(
            !enc.text.contains("srvtoolu_"),
            "{}: a step id went out",
            f.id()
        );
        assert!(
            enc.losses
                .iter()
                .any(|l| l.what == "Anthropic bash_code_execution call"),
            "{}",
            f.id()
        );
    }
}

#[test]
fn reasoning_options_map_both_ways() {
    let base = json!({"model": "claude-opus-4-6", "max_tokens": 2048,
                      "messages": [{"role": "user", "content": "Hi"}]});
    let with = |fields: Value| {
        let mut d = base.clone();
        d.as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        d
    };
    for (fields, want) in [
        (
            json!({"thinking": {"type": "enabled", "budget_tokens": 1500}}),
            ReasoningOptions {
                enabled: Some(true),
                budget: Some(1500),
                ..ReasoningOptions::default()
            },
        ),
        (
            json!({"thinking": {"type": "adaptive"}, "output_config": {"effort": "high"}}),
            ReasoningOptions {
                enabled: Some(true),
                effort: Some("high".into()),
                ..ReasoningOptions::default()
            },
        ),
        (
            json!({"thinking": {"type": "disabled"}}),
            ReasoningOptions {
                enabled: Some(false),
                ..ReasoningOptions::default()
            },
        ),
        (
            json!({"thinking": {"type": "adaptive", "display": "omitted"},
                   "output_config": {"effort": "max", "format": {"type": "json_schema", "schema": {"type": "object"}}}}),
            ReasoningOptions {
                enabled: Some(true),
                effort: Some("max".into()),
                ..ReasoningOptions::default()
            },
        ),
    ] {
        let d = with(fields);
        let (x, _) = common::paste_survives(A, d.clone(), Kind::Request);
        assert_eq!(x.options.reasoning, want, "{d}");
    }
    // From another provider's options: effort minimal is Anthropic's low, summaries have no
    // setting.
    let mut x = common::decode_doc(A, &base, Kind::Request).0;
    x.options.reasoning = ReasoningOptions {
        effort: Some("minimal".into()),
        summary: Some("auto".into()),
        ..ReasoningOptions::default()
    };
    let (doc, losses) = common::encode_doc(A, &x, Kind::Request);
    assert_eq!(doc["output_config"], json!({"effort": "low"}));
    common::assert_loss(&losses, LossKind::Rewritten, "/options/reasoning/effort");
    common::assert_loss(&losses, LossKind::Dropped, "/options/reasoning/summary");
}

#[test]
fn detection_reads_thinking_and_mcp_servers_as_anthropic() {
    for doc in [
        json!({"model": "claude-sonnet-4-5", "max_tokens": 2048,
               "thinking": {"type": "enabled", "budget_tokens": 1024},
               "messages": [{"role": "user", "content": "Hello"}]}),
        json!({"model": "claude-sonnet-4-5", "max_tokens": 2048,
               "mcp_servers": [{"type": "url", "name": "echo", "url": "https://echo.example/mcp"}],
               "messages": [{"role": "user", "content": "Hello"}]}),
        json!({"model": "claude-sonnet-4-5", "max_tokens": 2048,
               "tools": [{"type": "web_search_20250305", "name": "web_search"}],
               "messages": [{"role": "user", "content": "Hello"}]}),
    ] {
        let text = serde_json::to_string(&doc).unwrap();
        assert_eq!(Format::detect(&text).unwrap(), (A, Kind::Request), "{doc}");
    }
    // A chat dialect's thinking switch (GLM, DeepSeek) stays chat.
    let chat = json!({"model": "glm-4.6", "thinking": {"type": "enabled"},
                      "messages": [{"role": "user", "content": "Hello"}]});
    let text = serde_json::to_string(&chat).unwrap();
    assert_ne!(Format::detect(&text).unwrap().0, A);
}

// ---------------------------------------------------------------------------------------------
// Streams

/// What the events of a recorded stream say each content block is, read straight from the
/// events: (start block, concatenated text / thinking / partial JSON, last signature).
fn blocks_from_events(text: &str) -> Vec<(Value, String, String, Option<String>)> {
    let mut blocks: Vec<(Value, String, String, Option<String>)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let e: Value = serde_json::from_str(line).unwrap();
        let i = e["index"].as_u64().unwrap_or(0) as usize;
        match e["type"].as_str() {
            Some("content_block_start") => {
                blocks.push((
                    e["content_block"].clone(),
                    String::new(),
                    String::new(),
                    None,
                ));
                let b = &mut blocks[i];
                if let Some(s) = b.0["signature"].as_str().filter(|s| !s.is_empty()) {
                    b.3 = Some(s.to_string());
                }
            }
            Some("content_block_delta") => {
                let d = &e["delta"];
                let b = &mut blocks[i];
                match d["type"].as_str() {
                    Some("text_delta") => b.1.push_str(d["text"].as_str().unwrap()),
                    Some("thinking_delta") => b.1.push_str(d["thinking"].as_str().unwrap()),
                    Some("input_json_delta") => b.2.push_str(d["partial_json"].as_str().unwrap()),
                    Some("signature_delta") => b.3 = d["signature"].as_str().map(str::to_string),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn recorded_streams_assemble_their_reasoning_and_hosted_steps() {
    let mut saw = (0, 0);
    for name in [
        "anthropic-clear-thinking.1.jsonl",
        "anthropic-mcp.1.jsonl",
        "anthropic-code-execution-20250825.1.jsonl",
        "anthropic-web-fetch-tool.1.jsonl",
        "anthropic-web-search-tool.1.jsonl",
    ] {
        let text = common::fixture_text("recorded/anthropic", name);
        let r = Replay::load(&text, LoadOptions::default()).unwrap();
        assert_eq!(r.protocol, Protocol::Anthropic, "{name}");
        assert!(r.assembled.complete, "{name}: {:?}", r.assembled.anomalies);
        let m = r.assembled.message().expect("message");
        let want = blocks_from_events(&text);
        assert_eq!(m.parts.len(), want.len(), "{name}: {:#?}", m.parts);
        for (k, (part, (start, text, json, sig))) in m.parts.iter().zip(&want).enumerate() {
            let at = format!("{name} block {k}");
            let kind = start["type"].as_str().unwrap();
            match (kind, part) {
                ("text", Part::Text { text: t, .. }) => assert_eq!(t, text, "{at}"),
                ("thinking", Part::Reasoning(r)) => {
                    saw.0 += 1;
                    assert_eq!(r.text.as_deref(), Some(text.as_str()), "{at}");
                    let o = r.opaque.as_ref().expect("signature");
                    assert_eq!(Some(&o.data), sig.as_ref(), "{at}");
                    assert_eq!(o.provider, "anthropic");
                }
                ("tool_use", Part::ToolCall(c)) => {
                    assert_eq!(c.id.as_deref(), start["id"].as_str(), "{at}");
                    let args: Value = serde_json::from_str(json).unwrap_or(json!({}));
                    assert_eq!(c.arguments, args, "{at}");
                }
                ("server_tool_use" | "mcp_tool_use", Part::Hosted(h)) if !json.is_empty() => {
                    saw.1 += 1;
                    assert_eq!(h.kind, HostedKind::Call, "{at}");
                    assert_eq!(h.id.as_deref(), start["id"].as_str(), "{at}");
                    let args: Value = serde_json::from_str(json).unwrap();
                    assert_eq!(h.value["input"], args, "{at}");
                }
                (_, Part::Hosted(h)) => {
                    saw.1 += 1;
                    // Started whole: the block as it started.
                    assert_eq!(&h.value, start, "{at}");
                }
                _ => panic!("{at}: {kind} assembled as {part:?}"),
            }
        }
    }
    assert!(saw.0 >= 1 && saw.1 >= 8, "{saw:?}");
}

#[test]
fn live_display_gets_thinking_as_it_arrives() {
    let text = common::fixture_text("recorded/anthropic", "anthropic-clear-thinking.1.jsonl");
    let mut a = AnyAssembler::new(Protocol::Anthropic);
    let mut shown = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        for u in a.push(&Event::data(line)) {
            if let Update::Reasoning { delta } = u {
                shown.push_str(&delta);
            }
        }
    }
    let want = &blocks_from_events(&text)[0].1;
    assert!(!want.is_empty());
    assert_eq!(&shown, want);
}

#[test]
fn redacted_thinking_round_trips_and_is_dropped_elsewhere() {
    let doc = json!({
        "model": "claude-3-7-sonnet-20250219", "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253"},
            {"role": "assistant", "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"},
                {"type": "text", "text": "I can't share that."}
            ]},
            {"role": "user", "content": "OK"}
        ]
    });
    let (x, _) = common::paste_survives(A, doc, Kind::Request);
    let Part::Reasoning(r) = &x.messages[1].parts[0] else {
        panic!()
    };
    assert_eq!(r.opaque.as_ref().unwrap().kind, OpaqueKind::Redacted);
    let enc = Format::Bedrock.encode(&x, Kind::Request);
    assert_eq!(
        reasoning_losses(&enc.losses),
        [(
            "Anthropic redacted thinking".to_string(),
            "only Anthropic can verify it".to_string()
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// SDK

/// The `anthropic` SDK's own types (tests/sdk/validate.py, strict) accept what is emitted:
/// recorded documents written back (those the SDK's non-beta types declare: MCP connector
/// fields are beta, and two recordings carry fields newer than the SDK), and Bedrock's
/// reasoning recording converted to Anthropic.
#[test]
fn sdk_accepts_emitted_documents() {
    let dir =
        std::env::temp_dir().join(format!("toolscope-sdk-reasoning-a-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let beta_or_newer = [
        "anthropic-mcp.1.response.json",
        "mcp-follow-up.request.json",
        "anthropic-clear-thinking.1.response.json",
        "anthropic-tool-search-regex.1.response.json",
    ];
    let mut n = 0;
    for (name, kind, doc) in recorded() {
        if beta_or_newer.contains(&name.as_str()) {
            continue;
        }
        let x = common::decode_doc(A, &doc, kind).0;
        let enc = A.encode(&x, kind);
        std::fs::write(
            dir.join(format!("anthropic.{}.{n:03}.json", kind.as_str())),
            enc.text,
        )
        .unwrap();
        n += 1;
    }
    for (file, kind) in [
        ("reasoning-follow-up.request.json", Kind::Request),
        ("nova-code-interpreter.request.json", Kind::Request),
        ("nova-code-interpreter.response.json", Kind::Response),
        ("amazon-bedrock-reasoning.response.json", Kind::Response),
    ] {
        let doc: Value =
            serde_json::from_str(&common::fixture_text("bedrock/recorded", file)).unwrap();
        let x = common::decode_doc(Format::Bedrock, &doc, kind).0;
        let enc = A.encode(&x, kind);
        std::fs::write(
            dir.join(format!("anthropic.{}.{n:03}.json", kind.as_str())),
            enc.text,
        )
        .unwrap();
        n += 1;
    }
    assert!(n >= 12);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
    let out = common::run_ok(
        Command::new("python3").arg(script).arg("--dir").arg(&dir),
        "python3 with the anthropic SDK",
    );
    assert!(out.contains(&format!("sdk: {n} passed, 0 failed")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Golden conversions

/// Each recorded document as Bedrock, with the losses, in golden files
/// (`tests/fixtures/anthropic/recorded/golden/`; `UPDATE_GOLDEN=1` rewrites them). The
/// converted document decodes as Bedrock and differs from the source only where a loss says.
#[test]
fn recorded_documents_convert_to_bedrock_as_the_golden_files_say() {
    let mut failures = Vec::new();
    let dir = common::fixtures().join("anthropic/recorded/golden");
    for (name, kind, doc) in recorded() {
        let x = common::decode_doc(A, &doc, kind).0;
        let enc = Format::Bedrock.encode(&x, kind);
        let stem = name.trim_end_matches(".json");
        if let Some(f) = common::golden(
            &dir.join(format!("{stem}.bedrock.json")),
            &(enc.text.clone() + "\n"),
        ) {
            failures.push(f);
        }
        let losses: String = enc
            .losses
            .iter()
            .map(|l| toolscope::cli::describe(l) + "\n")
            .collect();
        if let Some(f) = common::golden(&dir.join(format!("{stem}.bedrock.losses.txt")), &losses) {
            failures.push(f);
        }
        let back = Format::Bedrock.decode(&enc.text, kind).expect("decodes");
        let mut all = enc.losses.clone();
        all.extend(back.losses);
        let want = match kind {
            Kind::Request => x.request_view(),
            Kind::Response => x.response_view(),
        };
        let left = without_form_markers(
            toolscope::model::diff::unexplained(&want, &back.exchange, &all),
            &want,
        );
        if !left.is_empty() {
            failures.push(format!("{name}: unreported differences {left:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Differences other than Anthropic's form marker of a text block written as an array (an
/// empty `extra.anthropic`, which only Anthropic reads).
fn without_form_markers(left: Vec<String>, source: &Exchange) -> Vec<String> {
    let source = serde_json::to_value(source).unwrap();
    left.into_iter()
        .filter(|p| !(p.ends_with("/extra/anthropic") && source.pointer(p) == Some(&json!({}))))
        .collect()
}
