//! MCP Streamable HTTP captures (the SSE body of a POST, JSON-RPC messages as `data:` lines)
//! replay as the MCP transcript. The capture is real: `tests/mcp/server.py --protocol legacy`
//! (Python SDK `mcp` 2.3.0) on 127.0.0.1, its SSE answers to `tools/list`, a `tools/call` of
//! `get_weather` and one of `always_fails`, concatenated as curl wrote them.

use crate::common;

use serde_json::{json, Value};
use toolscope::formats::{Kind, Protocol};
use toolscope::model::{Part, Role};
use toolscope::replay::{detect, LoadOptions, Replay};
use toolscope::stream::{sse, Update};

fn capture() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mcp-sse/session.sse"
    );
    std::fs::read_to_string(path).expect("capture")
}

#[test]
fn mcp_capture_replays_to_the_transcript_with_its_tools_and_results() {
    let r = Replay::load(&capture(), LoadOptions::default()).expect("loads");
    assert_eq!(r.protocol, Protocol::Mcp);
    assert_eq!(r.len(), 3);
    assert!(r.assembled.complete);
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(r.protocol.kind_of(&r.assembled.response), Kind::Request);
    let x = &r.assembled.exchange;
    let tools: Vec<&str> = x.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        tools,
        [
            "get_weather",
            "notes.delete",
            "always_fails",
            "media.sample"
        ]
    );
    let results: Vec<_> = x
        .messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .flat_map(|m| &m.parts)
        .filter_map(|p| match p {
            Part::ToolResult(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 2, "{:#?}", x.messages);
    assert_eq!(results[0].call_id.as_deref(), Some("call_1"));
    assert!(!results[0].is_error);
    assert_eq!(results[1].call_id.as_deref(), Some("call_2"));
    assert!(results[1].is_error);
    // Written back in its own format it is the transcript, message for message.
    let text = toolscope::formats::Format::Mcp
        .encode(x, Kind::Request)
        .text;
    let back: Value = serde_json::from_str(&text).expect("json");
    let sent: Vec<Value> = sse::frame(&capture())
        .iter()
        .map(|e| e.json().expect("json"))
        .collect();
    assert_eq!(back, Value::Array(sent));
}

#[test]
fn mcp_cli_replay_prints_the_transcript_and_the_exchange() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mcp-sse/session.sse"
    );
    let (code, out, err) = common::run_cli(&["replay", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("replayed 3 events as mcp"), "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let ids: Vec<&Value> = v
        .as_array()
        .expect("transcript")
        .iter()
        .map(|m| &m["id"])
        .collect();
    assert_eq!(ids, [&json!(1), &json!("call_1"), &json!("call_2")]);
    let (code, out, err) = common::run_cli(&["replay", "--to", "canonical", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"always_fails\"") && out.contains("call_2"),
        "{out}"
    );
}

#[test]
fn mcp_detection_picks_mcp_only_for_json_rpc() {
    let events = sse::frame(&capture());
    assert_eq!(detect(&events), Some(Protocol::Mcp));
    let mut checked = 0;
    for dir in std::fs::read_dir(common::recorded_dir()).expect("recorded") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("dir") {
            let f = f.expect("entry").path();
            let text = std::fs::read_to_string(&f).expect("read");
            let r = Replay::load(&text, LoadOptions::default());
            if let Ok(r) = r {
                assert_ne!(r.protocol, Protocol::Mcp, "{}", f.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} recordings");
}

#[test]
fn mcp_progress_and_log_notifications_show_as_they_arrive() {
    // Shapes of `ProgressNotification` and `LoggingMessageNotification` (schema 2025-11-25).
    let text = [
        json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"total":2,"message":"fetching"}}),
        json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"cache miss"}}),
        json!({"jsonrpc":"2.0","id":"call_1","result":{"content":[{"type":"text","text":"21.5"}],"isError":false}}),
    ]
    .iter()
    .map(|m| format!("event: message\ndata: {m}\n\n"))
    .collect::<String>();
    let r = Replay::load(&text, LoadOptions::default()).expect("loads");
    assert_eq!(r.protocol, Protocol::Mcp);
    assert_eq!(
        r.labels,
        ["notifications/progress", "notifications/message", "result"]
    );
    let first = r.snapshot(0).expect("step");
    assert!(first.updates.contains(&Update::Text {
        delta: "[progress 1/2] fetching\n".into()
    }));
    let second = r.snapshot(1).expect("step");
    assert_eq!(
        second.state.text,
        "[progress 1/2] fetching\n[info] cache miss\n"
    );
    assert!(r.assembled.complete);
    assert!(r
        .snapshot(2)
        .expect("step")
        .so_far_as(toolscope::formats::Format::Mcp)
        .contains("call_1"));
}

#[test]
fn mcp_long_captures_replay_and_seek() {
    // Ten thousand progress notifications before the result: every one a step.
    let mut text = String::new();
    for i in 0..10_000 {
        let m = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":i}});
        text.push_str(&format!("data: {m}\n\n"));
    }
    text.push_str("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n");
    let r = Replay::load(&text, LoadOptions::default()).expect("loads");
    assert_eq!(r.len(), 10_001);
    assert_eq!(r.snapshot(5_000).expect("middle").step, 5_000);
    assert!(r.assembled.complete);
}

#[test]
fn mcp_har_of_a_session_replays_each_exchange_with_its_request() {
    // The capture's three answers as the browser's devtools keep them: one entry per POST,
    // the JSON-RPC request as `postData`, the SSE body as the response content.
    let requests = [
        json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}),
        json!({"jsonrpc":"2.0","id":"call_1","method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}}),
        json!({"jsonrpc":"2.0","id":"call_2","method":"tools/call","params":{"name":"always_fails","arguments":{"reason":"demo"}}}),
    ];
    let entries: Vec<Value> = sse::frame(&capture())
        .iter()
        .zip(&requests)
        .map(|(e, req)| {
            json!({
                "request": {"method": "POST", "url": "http://127.0.0.1:8000/mcp",
                            "postData": {"mimeType": "application/json", "text": req.to_string()}},
                "response": {"status": 200, "content": {"mimeType": "text/event-stream",
                             "text": format!("event: message\ndata: {}\n\n", e.data)}}
            })
        })
        .collect();
    let har = json!({"log": {"version": "1.2", "entries": entries}}).to_string();
    let r = Replay::load(&har, LoadOptions::default()).expect("loads");
    assert_eq!(r.protocol, Protocol::Mcp);
    // The last streamed exchange: the failing call's result, and the call that asked for it.
    let results: Vec<_> = r
        .assembled
        .exchange
        .messages
        .iter()
        .flat_map(|m| &m.parts)
        .filter_map(|p| match p {
            Part::ToolResult(r) => Some((r.call_id.clone(), r.is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(results, [(Some("call_2".to_string()), true)]);
    let request = r.request.as_ref().expect("the request");
    let call = request
        .messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .next()
        .expect("a call");
    assert_eq!(
        (call.name.as_str(), call.id.as_deref()),
        ("always_fails", Some("call_2"))
    );
    assert_eq!(call.arguments, json!({"reason": "demo"}));
    let listed = Replay::load(
        &har,
        LoadOptions {
            protocol: None,
            har_entry: Some(0),
        },
    )
    .expect("entry 0");
    assert_eq!(listed.assembled.exchange.tools.len(), 4);
}
