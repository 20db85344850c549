//! The Vercel AI SDK format: `ModelMessage`s as apps store them, `UIMessage`s from `useChat`,
//! documents of AI SDK 4, the UI message stream, every other format and back, and what it
//! writes checked by the `ai` package's own zod schemas (`tests/sdk/ai_sdk.mjs`, node).

use crate::common;

use common::{assistant, tool_msg};

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use toolscope::formats::Protocol;
use toolscope::formats::{Format, Kind};
use toolscope::model::*;
use toolscope::replay::{LoadOptions, Replay};
use toolscope::stream::Assembler;
use toolscope::synth::synthesize;

const F: Format = Format::AiSdk;

/// A conversation as an app stores it and passes it to `generateText`.
fn stored() -> Value {
    json!({
        "system": "You are a weather bot.",
        "messages": [
            {"role": "user", "content": "Weather in Paris and Rome?"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Checking both."},
                {"type": "tool-call", "toolCallId": "call_1", "toolName": "get_weather",
                 "input": {"city": "Paris"}},
                {"type": "tool-call", "toolCallId": "call_2", "toolName": "get_weather",
                 "input": {"city": "Rome"}}
            ]},
            {"role": "tool", "content": [
                {"type": "tool-result", "toolCallId": "call_1", "toolName": "get_weather",
                 "output": {"type": "json", "value": {"temp": 18}}},
                {"type": "tool-result", "toolCallId": "call_2", "toolName": "get_weather",
                 "output": {"type": "error-text", "value": "station offline"}}
            ]},
            {"role": "assistant", "content": "Paris is 18 °C; Rome is unknown."}
        ],
        "tools": {
            "get_weather": {
                "description": "Current weather.",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                                "required": ["city"]}
            }
        },
        "toolChoice": "auto"
    })
}

/// A document detected as the AI SDK's, of `kind`, then decoded.
fn detected(v: &Value, kind: Kind) -> toolscope::formats::Decoded {
    let text = v.to_string();
    assert_eq!(Format::detect(&text).ok(), Some((F, kind)));
    F.decode(&text, kind).expect("decodes")
}

fn calls(x: &Exchange) -> Vec<(Option<String>, String, Value)> {
    x.messages
        .iter()
        .flat_map(Message::tool_calls)
        .map(|c| (c.id.clone(), c.name.clone(), c.arguments.clone()))
        .collect()
}

fn results(x: &Exchange) -> Vec<(Option<String>, String, bool)> {
    x.messages
        .iter()
        .flat_map(Message::tool_results)
        .map(|r| (r.call_id.clone(), r.content.to_text(), r.is_error))
        .collect()
}

#[test]
fn stored_messages_read_and_survive_their_own_round_trip() {
    let (x, _) = common::paste_survives(F, stored(), Kind::Request);
    assert_eq!(x.system.as_deref(), Some("You are a weather bot."));
    assert_eq!(x.tools.len(), 1);
    assert_eq!(x.tools[0].name, "get_weather");
    assert_eq!(
        calls(&x),
        vec![
            (
                Some("call_1".into()),
                "get_weather".into(),
                json!({"city": "Paris"})
            ),
            (
                Some("call_2".into()),
                "get_weather".into(),
                json!({"city": "Rome"})
            ),
        ]
    );
    assert_eq!(
        results(&x),
        vec![
            (Some("call_1".into()), "{\"temp\":18}".into(), false),
            (Some("call_2".into()), "station offline".into(), true),
        ]
    );
    assert_eq!(
        Format::detect(&stored().to_string()).ok(),
        Some((F, Kind::Request))
    );
}

#[test]
fn every_other_format_and_back_keeps_tools_calls_and_results() {
    let x = F
        .decode(&stored().to_string(), Kind::Request)
        .expect("decodes")
        .exchange;
    for other in Format::ALL {
        if matches!(other, Format::Mcp | Format::AnthropicXml) {
            continue; // no user text (MCP) or flattened XML parameters: their own tests
        }
        let there = other.encode(&x, Kind::Request);
        let y = other
            .decode(&there.text, Kind::Request)
            .unwrap_or_else(|e| panic!("{} does not read its own output: {e}", other.id()))
            .exchange;
        let back = F.encode(&y, Kind::Request);
        let z = F
            .decode(&back.text, Kind::Request)
            .expect("decodes")
            .exchange;
        assert_eq!(z.tools.len(), 1, "{}", other.id());
        let names: Vec<String> = calls(&z).into_iter().map(|c| c.1).collect();
        assert_eq!(names, ["get_weather", "get_weather"], "{}", other.id());
        let args: Vec<Value> = calls(&z).into_iter().map(|c| c.2).collect();
        assert_eq!(
            args,
            [json!({"city": "Paris"}), json!({"city": "Rome"})],
            "{}",
            other.id()
        );
        let texts: Vec<String> = results(&z).into_iter().map(|r| r.1).collect();
        assert_eq!(texts.len(), 2, "{}", other.id());
        assert!(texts[0].contains("18"), "{}: {texts:?}", other.id());
        assert!(
            texts[1].contains("station offline"),
            "{}: {texts:?}",
            other.id()
        );
        // Every call is answered by a result with its id.
        let ids: Vec<_> = calls(&z).into_iter().map(|c| c.0).collect();
        let answered: Vec<_> = results(&z).into_iter().map(|r| r.0).collect();
        assert_eq!(ids, answered, "{}", other.id());
    }
}

#[test]
fn ui_messages_from_use_chat_split_into_steps() {
    let ui = json!([
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather in Paris?"}]},
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "tool-get_weather", "toolCallId": "call_1", "state": "output-available",
             "input": {"city": "Paris"}, "output": {"temp": 18}},
            {"type": "dynamic-tool", "toolName": "lookup", "toolCallId": "call_2",
             "state": "output-error", "input": {"q": "x"}, "errorText": "boom"},
            {"type": "step-start"},
            {"type": "text", "text": "It is 18 °C.", "state": "done"}
        ]}
    ]);
    let d = detected(&ui, Kind::Request);
    let roles: Vec<Role> = d.exchange.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::Tool, Role::Assistant]
    );
    assert_eq!(
        calls(&d.exchange),
        vec![
            (
                Some("call_1".into()),
                "get_weather".into(),
                json!({"city": "Paris"})
            ),
            (Some("call_2".into()), "lookup".into(), json!({"q": "x"})),
        ]
    );
    assert_eq!(
        results(&d.exchange),
        vec![
            (Some("call_1".into()), "{\"temp\":18}".into(), false),
            (Some("call_2".into()), "boom".into(), true),
        ]
    );
    assert!(!d.losses.is_empty(), "UI ids and states are reported");
    // Written back as ModelMessages the SDK accepts.
    let enc = F.encode(&d.exchange, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert!(doc.is_array(), "a bare array stays a bare array");
    assert_eq!(node(&[("request", doc)]), vec![Vec::<String>::new()]);
}

#[test]
fn ai_sdk_4_messages_are_read() {
    let v4 = json!({"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": "c1", "toolName": "f", "args": {"a": 1}}]},
        {"role": "tool", "content": [
            {"type": "tool-result", "toolCallId": "c1", "toolName": "f", "result": {"ok": true}}]}
    ], "tools": {"f": {"parameters": {"type": "object"}}}});
    let x = F
        .decode(&v4.to_string(), Kind::Request)
        .expect("decodes")
        .exchange;
    assert_eq!(
        calls(&x),
        vec![(Some("c1".into()), "f".into(), json!({"a": 1}))]
    );
    assert_eq!(
        results(&x),
        vec![(Some("c1".into()), "{\"ok\":true}".into(), false)]
    );
    assert_eq!(x.tools[0].input_schema, json!({"type": "object"}));
}

#[test]
fn results_without_a_name_take_the_calls_and_say_so() {
    let x = Exchange {
        messages: vec![
            common::user("go"),
            assistant(vec![common::call(Some("c1"), "f", json!({}))]),
            tool_msg(vec![common::result(Some("c1"), "done")]),
        ],
        ..Exchange::default()
    };
    let enc = F.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(doc["messages"][2]["content"][0]["toolName"], "f");
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Note,
        "/messages/2/parts/0/name"
    ));
}

const UI_STREAM: &str = r#"data: {"type":"start","messageId":"msg_1"}

data: {"type":"start-step"}

data: {"type":"text-start","id":"t0"}

data: {"type":"text-delta","id":"t0","delta":"Let me "}

data: {"type":"text-delta","id":"t0","delta":"check."}

data: {"type":"text-end","id":"t0"}

data: {"type":"tool-input-start","toolCallId":"call_1","toolName":"get_weather"}

data: {"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"{\"city\":"}

data: {"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"\"Paris\"}"}

data: {"type":"tool-input-available","toolCallId":"call_1","toolName":"get_weather","input":{"city":"Paris"}}

data: {"type":"tool-output-available","toolCallId":"call_1","output":{"temp":18}}

data: {"type":"finish-step"}

data: {"type":"start-step"}

data: {"type":"text-start","id":"t1"}

data: {"type":"text-delta","id":"t1","delta":"18 °C."}

data: {"type":"text-end","id":"t1"}

data: {"type":"finish-step"}

data: {"type":"finish","finishReason":"stop"}

data: [DONE]

"#;

#[test]
fn the_ui_message_stream_replays() {
    let r = Replay::load(UI_STREAM, LoadOptions::default()).expect("loads");
    assert_eq!(r.protocol, Protocol::AiSdk);
    let a = &r.assembled;
    assert!(a.complete);
    assert!(a.anomalies.is_empty(), "{:?}", a.anomalies);
    let x = &a.exchange;
    assert_eq!(
        calls(x),
        vec![(
            Some("call_1".into()),
            "get_weather".into(),
            json!({"city": "Paris"})
        )]
    );
    assert_eq!(
        results(x),
        vec![(Some("call_1".into()), "{\"temp\":18}".into(), false)]
    );
    let last = a.message().expect("a message");
    assert_eq!(last.role, Role::Assistant);
    assert_eq!(common::text_of(last), "18 °C.");
    assert_eq!(last.stop_reason, Some(StopReason::EndTurn));
    // Halfway, the call's arguments are a fragment.
    let state = r.assembler_after(8).state();
    assert_eq!(state.calls[0].arguments, "{\"city\":");
}

#[test]
fn a_cut_stream_and_a_mismatched_input_are_reported() {
    let cut: String = UI_STREAM
        .split("data: {\"type\":\"tool-input-available\"")
        .next()
        .unwrap_or("")
        .into();
    let r = Replay::load(&cut, LoadOptions::default()).expect("loads");
    assert!(r.assembled.has("cut"));
    let odd = UI_STREAM.replace(
        r#""input":{"city":"Paris"}}"#,
        r#""input":{"city":"Rome"}}"#,
    );
    let r = Replay::load(&odd, LoadOptions::default()).expect("loads");
    assert!(r.assembled.has("mismatch"));
}

#[test]
fn synthesised_streams_replay_and_pass_the_sdk_chunk_schema() {
    let mut docs = Vec::new();
    for (case, x) in common::cases() {
        let s = synthesize(&x, Protocol::AiSdk);
        let r = Replay::load(&s.text(), LoadOptions::default()).expect("loads");
        assert_eq!(r.protocol, Protocol::AiSdk, "{case}");
        let want = x.response_view();
        let got = r.assembled.exchange.clone();
        let wc: Vec<_> = want
            .messages
            .iter()
            .flat_map(Message::tool_calls)
            .map(|c| (&c.name, &c.arguments))
            .collect();
        let gc: Vec<_> = got
            .messages
            .iter()
            .flat_map(Message::tool_calls)
            .map(|c| (&c.name, &c.arguments))
            .collect();
        assert_eq!(wc, gc, "{case}");
        let chunks: Vec<Value> = s
            .events
            .iter()
            .filter(|e| !e.is_done())
            .map(|e| e.json().expect("json"))
            .collect();
        docs.push(("stream", Value::Array(chunks)));
    }
    for errors in node(&docs) {
        assert!(errors.is_empty(), "{errors:?}");
    }
}

#[test]
fn the_assembler_reads_the_recorded_chunks_one_by_one() {
    let mut a = toolscope::formats::ai_sdk::stream::AiSdkAssembler::new();
    for line in UI_STREAM.lines().filter_map(|l| l.strip_prefix("data: ")) {
        a.push(&toolscope::stream::Event::data(line));
    }
    let done = a.finish();
    assert!(done.complete);
    assert_eq!(done.response["finishReason"], "stop");
    assert_eq!(
        done.response["response"]["messages"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
}

/// Run `tests/sdk/ai_sdk.mjs` over `(kind, doc)` pairs; the errors of each.
fn node(docs: &[(&str, Value)]) -> Vec<Vec<String>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/ai_sdk.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node is needed for the AI SDK checks (npm ci installs `ai`)");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for (kind, doc) in docs {
            writeln!(stdin, "{}", json!({"kind": kind, "doc": doc})).expect("write");
        }
    }
    let out = child.wait_with_output().expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<Vec<String>> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json line");
            serde_json::from_value(v["errors"].clone()).expect("errors")
        })
        .collect();
    assert_eq!(
        answers.len(),
        docs.len(),
        "node answered every document: {text}"
    );
    answers
}

#[test]
fn there_is_no_http_snippet_for_messages_an_app_passes_to_generate_text() {
    let body = F.encode(&common::cases()[0].1, Kind::Request).text;
    let e = toolscope::snippets::snippet(F, toolscope::snippets::Lang::Curl, &body).unwrap_err();
    assert!(e.reason.contains("generateText"), "{}", e.reason);
}

#[test]
fn ai_sdk_4_ui_messages_with_tool_invocations_are_read() {
    let v4 = json!([
        {"id": "1", "role": "user", "content": "Weather?", "parts": [{"type": "text", "text": "Weather?"}]},
        {"id": "2", "role": "assistant", "content": "", "parts": [
            {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c1",
             "toolName": "get_weather", "args": {"city": "Oslo"}, "result": {"temp": -3}}}
        ]}
    ]);
    let x = detected(&v4, Kind::Request).exchange;
    assert_eq!(
        calls(&x),
        vec![(
            Some("c1".into()),
            "get_weather".into(),
            json!({"city": "Oslo"})
        )]
    );
    assert_eq!(
        results(&x),
        vec![(Some("c1".into()), "{\"temp\":-3}".into(), false)]
    );
}

#[test]
fn one_ui_assistant_message_reads_as_a_response() {
    let one = json!({"id": "a1", "role": "assistant", "parts": [
        {"type": "step-start"},
        {"type": "tool-get_weather", "toolCallId": "c1", "state": "input-available",
         "input": {"city": "Oslo"}}
    ]});
    let x = detected(&one, Kind::Response).exchange;
    assert_eq!(
        calls(&x),
        vec![(
            Some("c1".into()),
            "get_weather".into(),
            json!({"city": "Oslo"})
        )]
    );
}

#[test]
fn the_chat_request_use_chat_posts_is_read() {
    let body = json!({"id": "chat_1", "trigger": "submit-message", "messages": [
        {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}
    ]});
    let x = detected(&body, Kind::Request).exchange;
    assert_eq!(common::text_of(&x.messages[0]), "hi");
}
