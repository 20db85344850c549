//! Every stream anomaly we know of is detected and shown, never a crash: hand-written
//! streams in `tests/fixtures/streams/` plus inline ones, replayed through the driver.

use crate::common;

use serde_json::json;
use toolscope::formats::Protocol;
use toolscope::model::{Part, StopReason, ToolCall};
use toolscope::replay::{Framing, LoadOptions, Replay, ReplayError, MAX_INPUT};
use toolscope::stream::{AnomalyKind, Assembled};

fn load(name: &str) -> Replay {
    let path = common::fixtures().join("streams").join(name);
    let text = std::fs::read_to_string(&path).expect("stream fixture");
    Replay::load(&text, LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn calls(a: &Assembled) -> Vec<ToolCall> {
    a.message()
        .map(|m| m.tool_calls().cloned().collect())
        .unwrap_or_default()
}

fn ids(a: &Assembled) -> Vec<&'static str> {
    a.anomalies.iter().map(|x| x.kind.id()).collect()
}

#[test]
fn anomaly_interleaved_parallel_calls_assemble_by_index() {
    let r = load("chat-interleaved.sse");
    assert_eq!(r.protocol, Protocol::OpenAiChat);
    assert_eq!(r.framing, Framing::Sse);
    let a = &r.assembled;
    let cs = calls(a);
    assert_eq!(cs.len(), 2);
    assert_eq!(cs[0].id.as_deref(), Some("call_a"));
    assert_eq!(cs[0].arguments, json!({"city": "Oslo"}));
    assert_eq!(cs[1].name, "time");
    assert_eq!(cs[1].arguments, json!({"tz": "CET"}));
    assert_eq!(ids(a), ["interleaved"]);
    assert_eq!(a.anomalies[0].step, 4);
    assert!(a.complete);
}

#[test]
fn anomaly_missing_index_continues_the_last_call() {
    let r = load("chat-missing-index.sse");
    let cs = calls(&r.assembled);
    assert_eq!(cs.len(), 1);
    assert_eq!(cs[0].arguments, json!({"city": "Oslo"}));
    assert_eq!(ids(&r.assembled), ["missing_index"]);
}

#[test]
fn anomaly_zero_index_reused_for_different_calls_splits_them() {
    let r = load("chat-zero-index.jsonl");
    let cs = calls(&r.assembled);
    assert_eq!(cs.len(), 2, "{cs:?}");
    assert_eq!(cs[1].id.as_deref(), Some("call_b"));
    assert_eq!(cs[1].arguments, json!({"city": "Rome"}));
    assert_eq!(ids(&r.assembled), ["index_reused"]);
    assert!(
        r.assembled.complete,
        "finish_reason ends a stream without [DONE]"
    );
}

#[test]
fn anomaly_arguments_before_name() {
    let r = load("chat-args-before-name.jsonl");
    let cs = calls(&r.assembled);
    assert_eq!(cs.len(), 1);
    assert_eq!(cs[0].name, "weather");
    assert_eq!(cs[0].id.as_deref(), Some("call_a"));
    assert_eq!(cs[0].arguments, json!({"city": "Oslo"}));
    assert_eq!(ids(&r.assembled), ["arguments_before_name"]);
    assert_eq!(r.assembled.anomalies[0].step, 0);
}

#[test]
fn anomaly_spliced_message_start_keeps_the_first() {
    let r = load("anthropic-spliced.jsonl");
    assert_eq!(ids(&r.assembled), ["spliced_start"]);
    let m = r.assembled.message().expect("message");
    assert_eq!(m.parts, vec![Part::text("Hello")]);
    assert_eq!(m.extra["anthropic"]["id"], json!("msg_a"));
}

#[test]
fn anomaly_invalid_final_json_offers_a_repair_never_applied() {
    let r = load("anthropic-invalid-args.sse");
    assert_eq!(r.protocol, Protocol::Anthropic);
    let a = &r.assembled;
    assert_eq!(ids(a), ["unknown_event", "invalid_arguments"]);
    assert!(
        r.labels.contains(&"future_event".to_string()),
        "kept in the timeline"
    );
    let bad = a
        .anomalies
        .iter()
        .find_map(|x| match &x.kind {
            AnomalyKind::InvalidArguments {
                line,
                column,
                repair,
            } => Some((*line, *column, repair.clone())),
            _ => None,
        })
        .expect("invalid arguments");
    assert_eq!((bad.0, bad.1), (1, 10), "position of the first error");
    let repair = bad.2.expect("a repair is proposed");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&repair.text).unwrap(),
        json!({"city": "Oslo", "days": [1, 2]})
    );
    let whats: Vec<&str> = repair.changes.iter().map(|c| c.what.as_str()).collect();
    assert_eq!(
        whats,
        [
            "single quotes replaced by double quotes",
            "removed trailing comma"
        ]
    );
    // Not applied: the call keeps the text as received, with from_text semantics.
    let cs = calls(a);
    assert!(cs[0].arguments_invalid());
    assert_eq!(
        cs[0].arguments_raw.as_deref(),
        Some("{\"city\": 'Oslo',\n \"days\": [1, 2,]}")
    );
    assert_eq!(a.message().unwrap().stop_reason, Some(StopReason::ToolUse));
}

#[test]
fn anomaly_cut_stream_shows_what_was_assembled() {
    let r = load("anthropic-cut.sse");
    let a = &r.assembled;
    assert!(!a.complete);
    let kinds = ids(a);
    assert!(kinds.contains(&"cut"), "{kinds:?}");
    assert!(kinds.contains(&"malformed"), "{kinds:?}");
    assert!(kinds.contains(&"invalid_arguments"), "{kinds:?}");
    let m = a.message().expect("message");
    assert_eq!(m.parts.first(), Some(&Part::text("Let me check")));
    let cs = calls(a);
    assert_eq!(cs[0].arguments_raw.as_deref(), Some("{\"city\": \"Os"));
    // The state shows the partial arguments parsed as far as they go.
    let last = r.snapshot(r.len() - 1).expect("snapshot");
    assert_eq!(last.state.calls[0].partial, Some(json!({"city": "Os"})));
}

#[test]
fn anomaly_duplicate_message_start_recorded_form() {
    let text = concat!(
        "{\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"c\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n",
        "{\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"c\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n",
        "{\"type\":\"message_stop\"}\n"
    );
    let r = Replay::load(text, LoadOptions::default()).unwrap();
    assert_eq!(ids(&r.assembled), ["duplicate_start"]);
}

#[test]
fn anomaly_events_after_the_end_and_malformed_payloads() {
    let text = "data: {\"type\":\"message_stop\"}\n\ndata: [1,2]\n\ndata: {\"type\":\"ping\"}\n\n";
    let r = Replay::load(
        text,
        LoadOptions {
            protocol: Some(Protocol::Anthropic),
            har_entry: None,
        },
    )
    .unwrap();
    assert_eq!(
        ids(&r.assembled),
        ["after_end", "malformed", "after_end"],
        "{:?}",
        r.assembled.anomalies
    );
}

#[test]
fn anomaly_hostile_inputs_do_not_panic_or_grow() {
    // Huge indexes, deep nesting, wrong types everywhere.
    let deep = "[".repeat(50_000);
    let events = [
        json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":u64::MAX,"function":{"name":"x","arguments":deep}}]}}]}),
        json!({"object":"chat.completion.chunk","choices":"nope"}),
        json!({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":"0","function":7}]}}]}),
    ];
    let text: String = events.iter().map(|e| format!("{e}\n")).collect();
    let r = Replay::load(&text, LoadOptions::default()).unwrap();
    // The string index is no index: the fragment continues the last call.
    let cs = calls(&r.assembled);
    assert_eq!(cs.len(), 1);
    assert!(cs[0].arguments_invalid());
    assert!(ids(&r.assembled).contains(&"missing_index"));
    let snap = r.snapshot(0).unwrap();
    assert!(
        snap.state.calls[0].partial.is_some(),
        "deep partial parse is bounded"
    );
    for p in Protocol::ALL {
        for junk in [
            "{}",
            "[]",
            "null",
            "\"x\"",
            "{\"type\":7}",
            "{\"candidates\":{}}",
        ] {
            let r = Replay::load_events(
                vec![toolscope::stream::Event::data(junk)],
                Framing::JsonLines,
                Some(p),
            )
            .unwrap();
            assert!(r.assembled.message().is_some(), "{} {junk}", p.id());
        }
    }
    let responses = json!({"type":"response.output_text.delta","output_index":0,"content_index":u64::MAX,"delta":"x"});
    let r = Replay::load(&format!("{responses}\n"), LoadOptions::default()).unwrap();
    assert!(ids(&r.assembled).contains(&"out_of_order"));
}

#[test]
fn anomaly_errors_are_located_and_clear() {
    assert_eq!(
        Replay::load("  \n", LoadOptions::default()).unwrap_err(),
        ReplayError::Empty
    );
    let e = Replay::load("{\"hello\": 1}\n{\"world\": 2}\n", LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("--format"), "{e}");
    let big = " ".repeat(MAX_INPUT + 1);
    assert!(matches!(
        Replay::load(&big, LoadOptions::default()),
        Err(ReplayError::TooLarge { .. })
    ));
    let e = Replay::load("{\"choices\": 5}", LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
}

#[test]
fn replay_plain_response_is_one_step() {
    let body = json!({"id":"msg_1","type":"message","role":"assistant","model":"claude-x",
        "content":[{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Oslo"}}],
        "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2}});
    let r = Replay::load(&body.to_string(), LoadOptions::default()).unwrap();
    assert_eq!(r.framing, Framing::Response);
    assert_eq!(r.protocol, Protocol::Anthropic);
    assert_eq!(r.len(), 1);
    assert!(r.assembled.complete && r.assembled.anomalies.is_empty());
    assert_eq!(calls(&r.assembled)[0].arguments, json!({"city": "Oslo"}));
    let s = r.snapshot(0).unwrap();
    assert_eq!(s.state.calls[0].name, "weather");
    assert_eq!(s.so_far.message(), r.assembled.message());
}

#[test]
fn replay_har_entry_gives_conversation_and_stream() {
    let sse =
        std::fs::read_to_string(common::fixtures().join("streams/chat-interleaved.sse")).unwrap();
    let b64 = base64(sse.as_bytes());
    let request = json!({"model":"gpt-4.1","stream":true,"messages":[
        {"role":"system","content":"Be brief."},{"role":"user","content":"Weather and time in Oslo?"}],
        "tools":[{"type":"function","function":{"name":"weather","parameters":{"type":"object"}}}]});
    let har = json!({"log":{"version":"1.2","entries":[
        {"request":{"method":"GET","url":"https://api.openai.com/v1/models"},
         "response":{"status":200,"content":{"mimeType":"application/json","text":"{\"data\":[]}"}}},
        {"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions",
                    "postData":{"mimeType":"application/json","text":request.to_string()}},
         "response":{"status":200,"content":{"mimeType":"text/event-stream","encoding":"base64","text":b64}}}
    ]}});
    let r = Replay::load(&har.to_string(), LoadOptions::default()).unwrap();
    assert_eq!(r.protocol, Protocol::OpenAiChat);
    assert_eq!(calls(&r.assembled).len(), 2);
    let req = r.request.expect("conversation from the request body");
    assert_eq!(req.system.as_deref(), Some("Be brief."));
    assert_eq!(req.messages.len(), 1);
    assert_eq!(req.tools[0].name, "weather");
    let e = Replay::load(
        &har.to_string(),
        LoadOptions {
            protocol: None,
            har_entry: Some(7),
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "HAR: no entry 7 (the file has 2)");
}

#[test]
fn replay_seek_equals_sequential_state_at_every_step() {
    let path = common::recorded_dir().join("openai-chat/deepseek-text.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let r = Replay::load(&text, LoadOptions::default()).unwrap();
    let mut sequential = Vec::new();
    r.walk(|_, _, s| sequential.push(s.clone()));
    assert_eq!(sequential.len(), r.len());
    for step in (0..r.len()).rev().step_by(7) {
        let snap = r.snapshot(step).unwrap();
        assert_eq!(snap.state, sequential[step], "step {step}");
        assert_eq!(snap.step, step);
    }
    let last = r.snapshot(usize::MAX).unwrap();
    assert_eq!(last.so_far.message(), r.assembled.message());
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}
