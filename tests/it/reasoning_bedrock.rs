//! Reasoning and provider-run tools in Bedrock Converse, checked on recorded traffic
//! (`tests/fixtures/bedrock/recorded/`, `tests/fixtures/recorded/bedrock/`; sources in
//! `tests/fixtures/recorded/NOTICE.md`): `reasoningContent` reads as a reasoning part whose
//! state Bedrock issued, a Nova server tool's `toolUse` and `toolResult` in the assistant turn
//! as hosted parts, system tools as hosted tools; a document comes back field for field; other
//! providers get neither, and each drop is named; streams assemble to what their events say.

use serde_json::{json, Value};
use std::process::Command;
use toolscope::formats::{Format, Kind, Protocol};
use toolscope::model::*;
use toolscope::replay::{AnyAssembler, LoadOptions, Replay};
use toolscope::stream::{Assembler, Event, Update};

use crate::common;
use common::reasoning::{decode_fixture, fixture_json, providers, reasoning_losses};

const B: Format = Format::Bedrock;

fn doc(name: &str) -> Value {
    fixture_json(&format!("bedrock/recorded/{name}"))
}

const RECORDED: [(&str, Kind); 4] = [
    ("amazon-bedrock-reasoning.response.json", Kind::Response),
    ("reasoning-follow-up.request.json", Kind::Request),
    ("nova-code-interpreter.request.json", Kind::Request),
    ("nova-code-interpreter.response.json", Kind::Response),
];

#[test]
fn recorded_documents_are_detected_and_come_back_field_for_field() {
    for (name, kind) in RECORDED {
        let d = doc(name);
        let text = serde_json::to_string_pretty(&d).unwrap();
        assert_eq!(Format::detect(&text).unwrap(), (B, kind), "{name}");
        let (_, losses) = common::paste_survives(B, d, kind);
        assert!(losses.is_empty(), "{name}: {losses:#?}");
        let enc = B.encode(&B.decode(&text, kind).unwrap().exchange, kind);
        assert!(enc.losses.is_empty(), "{name}: {:#?}", enc.losses);
    }
}

#[test]
fn reasoning_content_is_a_reasoning_part_signed_by_bedrock() {
    let d = doc("amazon-bedrock-reasoning.response.json");
    let x = common::decode_doc(B, &d, Kind::Response).0;
    let Part::Reasoning(r) = &x.messages[0].parts[0] else {
        panic!("{:?}", x.messages[0].parts)
    };
    let rt = &d["output"]["message"]["content"][0]["reasoningContent"]["reasoningText"];
    assert_eq!(r.text.as_deref(), rt["text"].as_str());
    let o = r.opaque.as_ref().unwrap();
    assert_eq!(
        (o.kind, o.provider.as_str()),
        (OpaqueKind::Signature, "bedrock")
    );
    assert_eq!(Some(o.data.as_str()), rt["signature"].as_str());

    let x = decode_fixture(
        B,
        "bedrock/recorded/reasoning-follow-up.request.json",
        Kind::Request,
    );
    assert_eq!(x.options.reasoning.enabled, Some(true));
    assert_eq!(x.options.reasoning.budget, Some(2000));
    let Part::Reasoning(r) = &x.messages[1].parts[0] else {
        panic!()
    };
    assert_eq!(
        r.opaque.as_ref().unwrap().model.as_deref(),
        Some("us.anthropic.claude-3-7-sonnet-20250219-v1:0")
    );
}

#[test]
fn nova_server_tool_turn_reads_as_hosted_steps() {
    let d = doc("nova-code-interpreter.response.json");
    let x = common::decode_doc(B, &d, Kind::Response).0;
    let m = &x.messages[0];
    let content = &d["output"]["message"]["content"];
    let (Part::Hosted(call), Part::Hosted(result)) = (&m.parts[0], &m.parts[1]) else {
        panic!("{:?}", m.parts)
    };
    assert_eq!(
        (call.kind, call.tool.as_str()),
        (HostedKind::Call, "nova_code_interpreter")
    );
    assert_eq!(
        (result.kind, result.tool.as_str()),
        (HostedKind::Result, "nova_code_interpreter")
    );
    assert_eq!(call.id, result.id);
    assert_eq!(call.value, content[0]);
    assert_eq!(result.value, content[1]);
    assert_eq!(m.tool_calls().count(), 0);

    let x = decode_fixture(
        B,
        "bedrock/recorded/nova-code-interpreter.request.json",
        Kind::Request,
    );
    let h = x.tools[0].hosted.as_ref().expect("system tool");
    assert_eq!(
        (h.provider.as_str(), h.kind.as_str()),
        ("bedrock", "nova_code_interpreter")
    );
    assert_eq!(x.options.reasoning.effort.as_deref(), Some("low"));
    assert_eq!(x.options.reasoning.enabled, Some(true));

    // A toolResult in an assistant turn that answers no server tool is still refused.
    let bad = json!({"modelId": "m", "messages": [
        {"role": "user", "content": [{"text": "hi"}]},
        {"role": "assistant", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}]}}]}
    ]});
    assert!(B.decode(&bad.to_string(), Kind::Request).is_err());
}

#[test]
fn bedrock_state_and_steps_go_to_no_other_provider_and_each_drop_is_named() {
    let x = decode_fixture(
        B,
        "bedrock/recorded/reasoning-follow-up.request.json",
        Kind::Request,
    );
    let sig = doc("reasoning-follow-up.request.json")["messages"][1]["content"][0]
        ["reasoningContent"]["reasoningText"]["signature"]
        .as_str()
        .unwrap()
        .to_string();
    for f in providers().filter(|f| *f != B) {
        let enc = f.encode(&x, Kind::Request);
        assert!(!enc.text.contains(&sig), "{}: signature sent", f.id());
        assert!(
            reasoning_losses(&enc.losses).contains(&(
                "Bedrock thinking signature".into(),
                "only Bedrock can verify it".into()
            )),
            "{}: {:?}",
            f.id(),
            enc.losses
        );
    }
    let enc = Format::Anthropic.encode(&x, Kind::Request);
    let d: Value = serde_json::from_str(&enc.text).unwrap();
    // Claude's thinking settings are carried in Anthropic's spelling.
    assert_eq!(
        d["thinking"],
        json!({"type": "enabled", "budget_tokens": 2000})
    );

    let x = decode_fixture(
        B,
        "bedrock/recorded/nova-code-interpreter.request.json",
        Kind::Request,
    );
    for f in providers().filter(|f| *f != B) {
        let enc = f.encode(&x, Kind::Request);
        assert!(
            !enc.text.contains("tooluse_WytfF0g1S5qUeEPm0ptOdQ"),
            "{}",
            f.id()
        );
        for want in [
            "Bedrock nova_code_interpreter call",
            "Bedrock nova_code_interpreter result",
        ] {
            assert!(
                enc.losses.iter().any(|l| l.what == want),
                "{}: {want}",
                f.id()
            );
        }
    }
    let enc = Format::Anthropic.encode(&x, Kind::Request);
    assert!(enc
        .losses
        .iter()
        .any(|l| l.what == "Bedrock nova_code_interpreter tool" && l.kind == LossKind::Dropped));
    assert!(!enc.text.contains("nova_code_interpreter"), "{}", enc.text);
}

#[test]
fn reasoning_without_bedrock_state_is_not_sent() {
    let mut x = decode_fixture(
        B,
        "bedrock/recorded/reasoning-follow-up.request.json",
        Kind::Request,
    );
    x.messages[1].parts[0] = Part::Reasoning(Reasoning::text("DeepSeek thought."));
    let enc = B.encode(&x, Kind::Request);
    assert!(!enc.text.contains("reasoningContent"));
    assert_eq!(
        reasoning_losses(&enc.losses),
        [(
            "reasoning text".to_string(),
            "Bedrock takes reasoning back only as the model returned it, with its signature: \
             Claude models on Bedrock reject unsigned reasoning"
                .to_string()
        )]
    );
}

#[test]
fn redacted_and_unsigned_reasoning_round_trip() {
    for content in [
        json!([{"reasoningContent": {"redactedContent": "ZW5jcnlwdGVk"}}, {"text": "Done."}]),
        // Nova 2 returns reasoning text without a signature.
        json!([{"reasoningContent": {"reasoningText": {"text": "Thinking."}}}, {"text": "Done."}]),
        // Fields beside the member, and both members, are written back as they were.
        json!([{"reasoningContent": {"reasoningText": {"text": "T.", "signature": "c2ln", "x": 1}, "y": 2}}]),
        json!([{"reasoningContent": {"redactedContent": "ZW5j", "reasoningText": {"text": 3}}}]),
    ] {
        let d = json!({"modelId": "us.amazon.nova-2-lite-v1:0", "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": content},
            {"role": "user", "content": [{"text": "more"}]}
        ]});
        let (x, _) = common::paste_survives(B, d.clone(), Kind::Request);
        assert!(matches!(&x.messages[1].parts[0], Part::Reasoning(_)), "{d}");
    }
}

#[test]
fn reasoning_options_keep_their_spelling() {
    for fields in [
        json!({"thinking": {"type": "enabled", "budget_tokens": 4000}, "top_k": 5}),
        json!({"reasoning_config": {"type": "enabled", "budget_tokens": 4000}}),
        json!({"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "high"}}),
        json!({"thinking": {"type": "adaptive"}}),
    ] {
        let d = json!({"modelId": "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
                       "messages": [{"role": "user", "content": [{"text": "hi"}]}],
                       "additionalModelRequestFields": fields});
        let (x, _) = common::paste_survives(B, d.clone(), Kind::Request);
        assert!(x.options.reasoning.enabled == Some(true), "{d}");
    }
    // From another format's options: an effort alone is Nova's reasoningConfig.
    let mut x = Exchange::default();
    x.options.model = Some("us.amazon.nova-2-lite-v1:0".into());
    x.messages.push(common::user("hi"));
    x.options.reasoning.effort = Some("medium".into());
    let (d, _) = common::encode_doc(B, &x, Kind::Request);
    assert_eq!(
        d["additionalModelRequestFields"],
        json!({"reasoningConfig": {"type": "enabled", "maxReasoningEffort": "medium"}})
    );
}

#[test]
fn recorded_reasoning_stream_assembles_what_its_events_say() {
    let text = common::fixture_text("recorded/bedrock", "amazon-bedrock-reasoning.jsonl");
    let (mut thinking, mut signature, mut answer) = (String::new(), None, String::new());
    let mut a = AnyAssembler::new(Protocol::Bedrock);
    let mut shown = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let e: Value = serde_json::from_str(line).unwrap();
        let d = &e["contentBlockDelta"]["delta"];
        if let Some(t) = d["reasoningContent"]["text"].as_str() {
            thinking.push_str(t);
        }
        if let Some(s) = d["reasoningContent"]["signature"].as_str() {
            signature = Some(s.to_string());
        }
        if let Some(t) = d["text"].as_str() {
            answer.push_str(t);
        }
        for u in a.push(&Event::data(line)) {
            if let Update::Reasoning { delta } = u {
                shown.push_str(&delta);
            }
        }
    }
    assert_eq!(
        shown, thinking,
        "the live view shows the reasoning as it arrives"
    );
    let r = Replay::load(&text, LoadOptions::default()).unwrap();
    assert_eq!(r.protocol, Protocol::Bedrock);
    let m = r.assembled.message().unwrap();
    let Part::Reasoning(got) = &m.parts[0] else {
        panic!("{:?}", m.parts)
    };
    assert_eq!(got.text.as_deref(), Some(thinking.as_str()));
    assert_eq!(got.opaque.as_ref().map(|o| o.data.clone()), signature);
    assert_eq!(common::text_of(m), answer);
}

#[test]
fn nova_server_tool_stream_assembles_its_steps() {
    // ConverseStream shapes of botocore's service model: a toolUse start of type
    // server_tool_use, a toolResult start and toolResult deltas, redacted reasoning.
    let events = [
        json!({"messageStart": {"role": "assistant"}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"redactedContent": "ZW5j"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"redactedContent": "cnlwdGVk"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 0}}),
        json!({"contentBlockStart": {"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "nova_code_interpreter", "type": "server_tool_use"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"code\": \"1+"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "1\"}"}}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 1}}),
        json!({"contentBlockStart": {"contentBlockIndex": 2, "start": {"toolResult": {"toolUseId": "tooluse_1", "type": "nova_code_interpreter_result", "status": "success"}}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"toolResult": [{"text": "{\"stdOut\":"}]}}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"toolResult": [{"text": "\"2\"}"}]}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 2}}),
        json!({"contentBlockDelta": {"contentBlockIndex": 3, "delta": {"text": "It is 2."}}}),
        json!({"contentBlockStop": {"contentBlockIndex": 3}}),
        json!({"messageStop": {"stopReason": "end_turn"}}),
        json!({"metadata": {"usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}, "metrics": {"latencyMs": 100}}}),
    ];
    let text: String = events.iter().map(|e| format!("{e}\n")).collect();
    let r = Replay::load(&text, LoadOptions::default()).unwrap();
    assert_eq!(r.protocol, Protocol::Bedrock);
    let m = r.assembled.message().unwrap();
    assert!(
        matches!(&m.parts[0], Part::Reasoning(r) if r.opaque.as_ref().is_some_and(|o| o.kind == OpaqueKind::Redacted && o.data == "ZW5jcnlwdGVk"))
    );
    let Part::Hosted(call) = &m.parts[1] else {
        panic!("{:?}", m.parts)
    };
    assert_eq!(call.value["toolUse"]["input"], json!({"code": "1+1"}));
    let Part::Hosted(result) = &m.parts[2] else {
        panic!("{:?}", m.parts)
    };
    assert_eq!(
        result.value,
        json!({"toolResult": {"toolUseId": "tooluse_1", "type": "nova_code_interpreter_result",
                              "status": "success", "content": [{"text": "{\"stdOut\":\"2\"}"}]}})
    );
    assert_eq!(common::text_of(m), "It is 2.");
}

/// boto3's Converse shapes (tests/sdk/bedrock.py) accept what is emitted: the recorded
/// documents written back, and Anthropic's recorded thinking and server-tool turns converted.
#[test]
fn sdk_accepts_emitted_documents() {
    let dir =
        std::env::temp_dir().join(format!("toolscope-sdk-reasoning-b-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    // The reasoning recording's usage has fields newer than botocore's model.
    for (name, kind) in RECORDED.into_iter().skip(1) {
        let x = common::decode_doc(B, &doc(name), kind).0;
        let enc = B.encode(&x, kind);
        std::fs::write(
            dir.join(format!("bedrock.{}.{n:03}.json", kind.as_str())),
            enc.text,
        )
        .unwrap();
        n += 1;
    }
    for (file, kind) in [
        ("thinking-follow-up.request.json", Kind::Request),
        ("code-execution-follow-up.request.json", Kind::Request),
        ("mcp-follow-up.request.json", Kind::Request),
        ("anthropic-clear-thinking.1.response.json", Kind::Response),
        (
            "anthropic-code-execution-20250825.1.response.json",
            Kind::Response,
        ),
    ] {
        let d: Value =
            serde_json::from_str(&common::fixture_text("anthropic/recorded", file)).unwrap();
        let x = common::decode_doc(Format::Anthropic, &d, kind).0;
        let enc = B.encode(&x, kind);
        std::fs::write(
            dir.join(format!("bedrock.{}.{n:03}.json", kind.as_str())),
            enc.text,
        )
        .unwrap();
        n += 1;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
    let out = common::run_ok(
        Command::new("python3").arg(script).arg("--dir").arg(&dir),
        "python3 with boto3",
    );
    assert!(out.contains(&format!("sdk: {n} passed, 0 failed")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each recorded document as Anthropic, with the losses, in golden files
/// (`tests/fixtures/bedrock/recorded/golden/`; `UPDATE_GOLDEN=1` rewrites them). The converted
/// document decodes as Anthropic and differs from the source only where a loss says.
#[test]
fn recorded_documents_convert_to_anthropic_as_the_golden_files_say() {
    let mut failures = Vec::new();
    let dir = common::fixtures().join("bedrock/recorded/golden");
    for (name, kind) in RECORDED {
        let x = common::decode_doc(B, &doc(name), kind).0;
        let enc = Format::Anthropic.encode(&x, kind);
        let stem = name.trim_end_matches(".json");
        if let Some(f) = common::golden(
            &dir.join(format!("{stem}.anthropic.json")),
            &(enc.text.clone() + "\n"),
        ) {
            failures.push(f);
        }
        let losses: String = enc
            .losses
            .iter()
            .map(|l| toolscope::cli::describe(l) + "\n")
            .collect();
        if let Some(f) = common::golden(&dir.join(format!("{stem}.anthropic.losses.txt")), &losses)
        {
            failures.push(f);
        }
        let back = Format::Anthropic.decode(&enc.text, kind).expect("decodes");
        let mut all = enc.losses.clone();
        all.extend(back.losses);
        let want = match kind {
            Kind::Request => x.request_view(),
            Kind::Response => x.response_view(),
        };
        let left = toolscope::model::diff::unexplained(&want, &back.exchange, &all);
        if !left.is_empty() {
            failures.push(format!("{name}: unreported differences {left:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
