//! Gemini reasoning and hosted tools: `thought` parts and `thoughtSignature` as reasoning,
//! the rules of replaying them, the Gemini 3 placeholder signature, `thinkingConfig`, built-in
//! tools and code execution, and Gemini documents kept field for field.
//!
//! Recorded traffic: `tests/fixtures/recorded/gemini/google-*gemini3*` and
//! `google-reasoning.jsonl`, from github.com/vercel/ai @ ed857f50f112e23930b0c2dd8d532cc8bebbc911,
//! `packages/google/src/__fixtures__/` (see `tests/fixtures/recorded/NOTICE.md`).

use serde_json::{json, Value};
use toolscope::formats::gemini::SKIP_SIGNATURE as GEMINI_SKIP_SIGNATURE;
use toolscope::formats::{Format, Kind};
use toolscope::model::*;
use toolscope::replay::{LoadOptions, Replay};

use crate::common;
use common::reasoning::{own_round_trip, reasoning};
use common::{assistant, call, has_loss, tool_msg, user};

const G: Format = Format::Gemini;

fn recorded(name: &str) -> String {
    std::fs::read_to_string(common::recorded_dir().join("gemini").join(name)).expect(name)
}

fn sig(data: &str, model: Option<&str>) -> Opaque {
    Opaque {
        kind: OpaqueKind::ThoughtSignature,
        data: data.into(),
        provider: "gemini".into(),
        model: model.map(Into::into),
    }
}

#[test]
fn recorded_gemini3_call_signature_is_attached_reasoning() {
    let x = own_round_trip(
        G,
        &recorded("google-tool-call-gemini3.response.json"),
        Kind::Response,
    );
    let m = &x.messages[0];
    let r = reasoning(&m.parts[0]);
    assert!(r.attached);
    let o = r.opaque.as_ref().unwrap();
    assert_eq!(o.kind, OpaqueKind::ThoughtSignature);
    assert_eq!(o.provider, "gemini");
    assert_eq!(o.model.as_deref(), Some("gemini-3-pro-preview"));
    assert!(o.data.starts_with("Eqo+Cqc+"));
    assert!(matches!(&m.parts[1], Part::ToolCall(c) if c.name == "weather"));
}

#[test]
fn recorded_gemini3_text_signature_round_trips() {
    let x = own_round_trip(
        G,
        &recorded("google-reasoning-gemini3.response.json"),
        Kind::Response,
    );
    let m = &x.messages[0];
    assert!(reasoning(&m.parts[0]).attached);
    assert!(matches!(&m.parts[1], Part::Text { text, .. } if text.contains("strawberry")));
}

#[test]
fn every_gemini_fixture_converts_to_itself_field_for_field() {
    // Every Gemini document in the repository: golden cases, equivalent responses, recorded
    // whole responses.
    let mut seen = 0;
    let dirs = [
        common::fixtures().join("gemini"),
        common::recorded_dir().join("gemini"),
    ];
    for dir in dirs {
        for f in std::fs::read_dir(&dir).expect("dir") {
            let p = f.expect("entry").path();
            let name = p.to_string_lossy().to_string();
            let kind = if name.ends_with(".request.json") {
                Kind::Request
            } else if name.ends_with(".response.json") {
                Kind::Response
            } else {
                continue;
            };
            let text = std::fs::read_to_string(&p).expect("read");
            let doc: Value = serde_json::from_str(&text).expect("json");
            let dec = G
                .decode(&text, kind)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let enc = G.encode(&dec.exchange, kind);
            let back: Value = serde_json::from_str(&enc.text).expect("json");
            assert_eq!(back, doc, "{name}: {:#?}", enc.losses);
            seen += 1;
        }
    }
    for f in std::fs::read_dir(common::fixtures().join("streams")).expect("streams") {
        let p = f.expect("entry").path();
        let name = p.to_string_lossy().to_string();
        if !name.contains("google") || !name.ends_with(".response.json") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read");
        own_round_trip(G, &text, Kind::Response);
        seen += 1;
    }
    assert!(seen >= 16, "{seen} Gemini documents");
}

#[test]
fn thought_parts_and_signatures_decode_and_encode_both_ways() {
    let doc = json!({
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            {"role": "model", "parts": [
                {"text": "**Planning** look it up", "thought": true, "thoughtSignature": "T1"},
                {"text": "Let me check."},
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "S1"},
                {"thoughtSignature": "BARE"}
            ]},
            {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"output": "18"}}}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather"}]}]
    });
    let x = own_round_trip(G, &doc.to_string(), Kind::Request);
    let m = &x.messages[1];
    let t = reasoning(&m.parts[0]);
    assert_eq!(t.text.as_deref(), Some("**Planning** look it up"));
    assert_eq!(t.opaque, Some(sig("T1", None)));
    assert!(!t.attached);
    assert!(matches!(&m.parts[1], Part::Text { .. }));
    let s = reasoning(&m.parts[2]);
    assert!(s.attached && s.text.is_none());
    assert_eq!(s.opaque, Some(sig("S1", None)));
    assert!(matches!(&m.parts[3], Part::ToolCall(_)));
    let bare = reasoning(&m.parts[4]);
    assert_eq!(bare.opaque, Some(sig("BARE", None)));
    // The canonical round trip holds too.
    common::checked_trip(G, &x, Kind::Request);
}

#[test]
fn snake_case_parts_and_parameters_json_schema_keep_their_spelling() {
    let doc = json!({
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {"role": "model", "parts": [
                {"function_call": {"name": "get_weather", "args": {"city_name": "Paris"}}, "thought_signature": "S1"}
            ]},
            {"role": "user", "parts": [
                {"function_response": {"name": "get_weather", "response": {"temp_c": 18}}}
            ]}
        ],
        "tools": [{"function_declarations": [{
            "name": "get_weather",
            "parameters_json_schema": {"type": "object", "properties": {"city_name": {"type": "string"}}, "additionalProperties": false}
        }]}],
        "generation_config": {"thinking_config": {"thinking_budget": 512, "include_thoughts": true}}
    });
    let x = own_round_trip(G, &doc.to_string(), Kind::Request);
    assert_eq!(x.options.reasoning.budget, Some(512));
    assert_eq!(x.options.reasoning.summary.as_deref(), Some("auto"));
    assert!(reasoning(&x.messages[1].parts[0]).attached);
    // User data is never renamed.
    assert!(x.tools[0].input_schema["properties"]["city_name"].is_object());
}

#[test]
fn thinking_config_maps_to_reasoning_options() {
    let doc = json!({
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"temperature": 1, "thinkingConfig": {"thinkingLevel": "high", "includeThoughts": false, "thinkingBudget": -1}}
    });
    let x = own_round_trip(G, &doc.to_string(), Kind::Request);
    assert_eq!(x.options.reasoning.effort.as_deref(), Some("high"));
    // Dynamic budget (-1) and includeThoughts: false are Gemini's own: kept, not modelled.
    assert_eq!(x.options.reasoning.budget, None);
    // From another format: effort and budget are written, what Gemini lacks is reported.
    let mut y = Exchange {
        messages: vec![user("hi")],
        ..Exchange::default()
    };
    y.options.reasoning = ReasoningOptions {
        effort: Some("xhigh".into()),
        budget: Some(2048),
        include_encrypted: Some(true),
        ..ReasoningOptions::default()
    };
    let t = common::checked_trip(G, &y, Kind::Request);
    assert_eq!(
        t.doc["generationConfig"]["thinkingConfig"],
        json!({"thinkingBudget": 2048, "thinkingLevel": "high"})
    );
    assert!(has_loss(
        &t.all,
        LossKind::Rewritten,
        "/options/reasoning/effort"
    ));
    assert!(has_loss(
        &t.all,
        LossKind::Dropped,
        "/options/reasoning/include_encrypted"
    ));
}

fn anthropic_thinking() -> Part {
    Part::Reasoning(Reasoning {
        text: Some("I should call the tool.".into()),
        opaque: Some(Opaque::new(OpaqueKind::Signature, "EqQB", "anthropic")),
        ..Reasoning::default()
    })
}

#[test]
fn foreign_signatures_are_dropped_with_a_reasoning_loss_and_text_is_kept() {
    let x = Exchange {
        messages: vec![
            user("Weather?"),
            assistant(vec![
                anthropic_thinking(),
                call(Some("c1"), "get_weather", json!({})),
            ]),
            tool_msg(vec![common::result(Some("c1"), "18")]),
        ],
        ..Exchange::default()
    };
    let t = common::checked_trip(G, &x, Kind::Request);
    let l = t
        .all
        .iter()
        .find(|l| l.pointer == "/messages/1/parts/0/opaque")
        .expect("signature loss");
    assert_eq!(l.kind, LossKind::Reasoning);
    assert_eq!(l.what, "Anthropic thinking signature");
    assert_eq!(l.why, "only Anthropic can verify it");
    let part = &t.doc["contents"][1]["parts"][0];
    assert_eq!(
        part,
        &json!({"text": "I should call the tool.", "thought": true})
    );
    // Not Gemini 3: no placeholder.
    assert!(t.doc["contents"][1]["parts"][1]
        .get("thoughtSignature")
        .is_none());
}

#[test]
fn gemini_signatures_do_not_cross_to_other_providers() {
    let x = own_round_trip(
        G,
        &recorded("google-tool-call-gemini3.response.json"),
        Kind::Response,
    );
    for f in [Format::Anthropic, Format::OpenAiChat, Format::Bedrock] {
        let enc = f.encode(&x, Kind::Response);
        assert!(
            enc.losses.iter().any(|l| l.kind == LossKind::Reasoning
                && l.what == "Gemini thought signature"
                && l.why == "only Gemini can verify it"),
            "{}: {:#?}",
            f.id(),
            enc.losses
        );
        assert!(!enc.text.contains("Eqo+Cqc+"), "{}", f.id());
    }
}

#[test]
fn gemini3_gets_the_placeholder_on_the_first_call_of_each_step_of_the_current_turn() {
    let mut x = Exchange {
        messages: vec![
            user("Old question"),
            assistant(vec![call(Some("a"), "f", json!({}))]),
            tool_msg(vec![common::result(Some("a"), "1")]),
            user("Book a flight and a taxi"),
            assistant(vec![
                call(Some("b"), "check_flight", json!({})),
                call(Some("c"), "check_weather", json!({})),
            ]),
            tool_msg(vec![
                common::result(Some("b"), "delayed"),
                common::result(Some("c"), "sunny"),
            ]),
            assistant(vec![
                Part::Reasoning(Reasoning {
                    opaque: Some(sig("REAL", Some("gemini-3-pro-preview"))),
                    attached: true,
                    ..Reasoning::default()
                }),
                call(Some("d"), "book_taxi", json!({})),
            ]),
            tool_msg(vec![common::result(Some("d"), "booked")]),
            assistant(vec![
                anthropic_thinking(),
                call(Some("e"), "pay", json!({})),
            ]),
            tool_msg(vec![common::result(Some("e"), "paid")]),
        ],
        ..Exchange::default()
    };
    x.options.model = Some("gemini-3-pro-preview".into());
    let t = common::checked_trip(G, &x, Kind::Request);
    // Contents: the results and the next user text travel together.
    let parts = |c: usize| t.doc["contents"][c]["parts"].clone();
    // Before the current turn: untouched.
    assert!(parts(1)[0].get("thoughtSignature").is_none());
    // First step: the first call only.
    assert_eq!(
        parts(3)[0]["thoughtSignature"],
        GEMINI_SKIP_SIGNATURE,
        "{}",
        t.doc
    );
    assert!(parts(3)[1].get("thoughtSignature").is_none());
    // Signed by Gemini: its own signature.
    assert_eq!(parts(5)[0]["thoughtSignature"], "REAL");
    // Another provider's thinking: the signature is dropped, the call gets the placeholder.
    assert_eq!(parts(7)[0]["thought"], true);
    assert_eq!(parts(7)[1]["thoughtSignature"], GEMINI_SKIP_SIGNATURE);
    let added: Vec<&str> = t
        .all
        .iter()
        .filter(|l| l.kind == LossKind::Added && l.what == "placeholder thought signature")
        .map(|l| l.pointer.as_str())
        .collect();
    assert_eq!(added, ["/messages/4/parts/0", "/messages/8/parts/1"]);
    // Gemini 2.5 checks no signature: nothing added.
    x.options.model = Some("gemini-2.5-flash".into());
    let t = common::checked_trip(G, &x, Kind::Request);
    assert!(!t
        .all
        .iter()
        .any(|l| l.kind == LossKind::Added && l.what == "placeholder thought signature"));
}

#[test]
fn older_documents_with_the_signature_in_the_call_extras_still_encode() {
    let mut c = ToolCall::new(Some("c1".into()), "f", json!({}));
    let mut fields = serde_json::Map::new();
    fields.insert("thoughtSignature".into(), json!("OLD"));
    c.extra.insert("gemini".into(), fields);
    let mut x = Exchange {
        messages: vec![
            user("q"),
            assistant(vec![Part::ToolCall(c)]),
            tool_msg(vec![common::result(Some("c1"), "r")]),
        ],
        ..Exchange::default()
    };
    x.options.model = Some("gemini-3-flash-preview".into());
    let enc = G.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["contents"][1]["parts"][0]["thoughtSignature"], "OLD");
    assert!(!enc.losses.iter().any(|l| l.kind == LossKind::Added));
}

#[test]
fn built_in_tools_and_code_execution_are_hosted() {
    // Shaped after the code-execution case of the AI SDK's Google provider tests
    // (github.com/vercel/ai @ ed857f50, packages/google/src/google-language-model.test.ts).
    let doc = json!({
        "candidates": [{
            "content": {"role": "model", "parts": [
                {"executableCode": {"language": "PYTHON", "code": "print(1+1)"}},
                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "2"}},
                {"text": "The answer is 2."}
            ]},
            "finishReason": "STOP",
            "groundingMetadata": {"webSearchQueries": ["1+1"]}
        }],
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1"
    });
    let x = own_round_trip(G, &doc.to_string(), Kind::Response);
    let m = &x.messages[0];
    let Part::Hosted(call) = &m.parts[0] else {
        panic!("hosted call")
    };
    assert_eq!(
        (call.kind, call.tool.as_str(), call.provider.as_str()),
        (HostedKind::Call, "code_execution", "gemini")
    );
    assert!(matches!(&m.parts[1], Part::Hosted(h) if h.kind == HostedKind::Result));
    assert!(m.extra["gemini"]["candidate"]
        .get("groundingMetadata")
        .is_some());
    // Elsewhere: dropped, named.
    let enc = Format::Anthropic.encode(&x, Kind::Response);
    assert!(enc
        .losses
        .iter()
        .any(|l| l.what == "Gemini code_execution call"));

    let req = json!({
        "contents": [{"role": "user", "parts": [{"text": "news?"}]}],
        "tools": [
            {"googleSearch": {}},
            {"functionDeclarations": [{"name": "f"}]},
            {"urlContext": {}},
            {"google_search_retrieval": {"dynamic_retrieval_config": {"mode": "MODE_DYNAMIC"}}},
            {"codeExecution": {}}
        ]
    });
    let x = own_round_trip(G, &req.to_string(), Kind::Request);
    let kinds: Vec<Option<&str>> = x
        .tools
        .iter()
        .map(|t| t.hosted.as_ref().map(|h| h.kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            None,
            Some("web_search"),
            Some("url_context"),
            Some("web_search"),
            Some("code_execution")
        ]
    );
    // The canonical round trip holds.
    common::checked_trip(G, &x, Kind::Request);
}

#[test]
fn other_providers_hosted_tools_are_dropped_by_name() {
    let mut x = Exchange {
        messages: vec![user("q")],
        ..Exchange::default()
    };
    let mut t = common::bare_tool("web_search");
    t.hosted = Some(HostedTool {
        provider: "anthropic".into(),
        format: "anthropic".into(),
        kind: "web_search".into(),
        value: json!({"type": "web_search_20250305", "name": "web_search"}),
    });
    x.tools.push(t);
    let t = common::checked_trip(G, &x, Kind::Request);
    let l = t.all.iter().find(|l| l.pointer == "/tools/0").unwrap();
    assert_eq!(l.what, "Anthropic web_search tool");
    assert!(t.doc.get("tools").is_none());
}

#[test]
fn recorded_reasoning_streams_assemble_signatures() {
    for (file, response) in [
        ("google-reasoning-gemini3.jsonl", None),
        ("google-reasoning.jsonl", None),
        (
            "google-tool-call-gemini3.jsonl",
            Some("google-tool-call-gemini3.response.json"),
        ),
    ] {
        let r = Replay::load(&recorded(file), LoadOptions::default()).unwrap();
        let m = r.assembled.message().expect("message");
        let sigs: Vec<&Reasoning> = m
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Reasoning(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(sigs.len(), 1, "{file}: {:#?}", m.parts);
        let o = sigs[0].opaque.as_ref().expect("signature");
        assert_eq!(o.provider, "gemini");
        assert!(o.model.as_deref().unwrap().starts_with("gemini-"));
        if let Some(resp) = response {
            // The stream's call carries the same kind of state as the whole response.
            let whole = G.decode(&recorded(resp), Kind::Response).unwrap().exchange;
            let kinds = |m: &Message| {
                m.parts
                    .iter()
                    .map(std::mem::discriminant)
                    .collect::<Vec<_>>()
            };
            assert_eq!(kinds(m), kinds(&whole.messages[0]), "{file}");
        }
    }
}

#[test]
fn streamed_thought_text_is_assembled_into_reasoning() {
    let chunks = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Thinking ", "thought": true}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "hard.", "thought": true}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "SIG"}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}], "modelVersion": "gemini-3-flash-preview"}),
    ];
    let text: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    let r = Replay::load(&text, LoadOptions::default()).unwrap();
    let m = r.assembled.message().unwrap();
    assert_eq!(
        reasoning(&m.parts[0]).text.as_deref(),
        Some("Thinking hard.")
    );
    let s = reasoning(&m.parts[1]);
    assert!(s.attached);
    assert_eq!(s.opaque, Some(sig("SIG", Some("gemini-3-flash-preview"))));
    assert!(matches!(&m.parts[2], Part::ToolCall(_)));
}
