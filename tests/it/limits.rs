//! Limits and large inputs: what is too large, too deep or too many fails fast with a message
//! naming the limit; what is large but legal (a 2,000-message exchange in every format, a
//! 10,000-event stream, a 5 MB HAR) goes through. Timings are printed (`--nocapture`), never
//! asserted: the machine is shared.

use crate::common;

use serde_json::{json, Value};
use std::time::Instant;
use toolscope::formats::limits::{MAX_INPUT, MAX_MESSAGES, MAX_TOOLS};
use toolscope::formats::Protocol;
use toolscope::formats::{json::MAX_DEPTH, read_any, Format, Kind};
use toolscope::model::{Exchange, Message, Part, ResultContent, Role, ToolCall, ToolResult};
use toolscope::replay::{LoadOptions, Replay, ReplayError, MAX_EVENTS};
use toolscope::stream::har::HarError;
use toolscope::synth;

const KINDS: [Kind; 2] = [Kind::Request, Kind::Response];

/// The weather case with its conversation repeated to `n` messages (user, call, result,
/// answer), every call id unique.
fn long_exchange(n: usize) -> Exchange {
    let (_, mut x) = common::cases()
        .into_iter()
        .find(|(name, _)| name == "weather")
        .expect("weather case");
    let tool = x.tools.first().map(|t| t.name.clone()).expect("a tool");
    x.messages = (0..n)
        .map(|i| {
            let id = format!("call_{}", i / 4);
            match i % 4 {
                0 => Message::new(
                    Role::User,
                    vec![Part::text(format!("Weather #{i} in Paris?"))],
                ),
                1 => Message::new(
                    Role::Assistant,
                    vec![Part::ToolCall(ToolCall::new(
                        Some(id),
                        tool.clone(),
                        json!({"location": "Paris", "unit": "celsius"}),
                    ))],
                ),
                2 => Message::new(
                    Role::Tool,
                    vec![Part::ToolResult(ToolResult::new(
                        Some(id),
                        ResultContent::Text(format!("{{\"temperature\": {}}}", i % 30)),
                    ))],
                ),
                _ => Message::new(Role::Assistant, vec![Part::text("It is mild.")]),
            }
        })
        .collect();
    x
}

#[test]
fn limits_two_thousand_messages_encode_and_decode_in_every_format() {
    let x = long_exchange(2_000);
    for f in Format::ALL {
        for kind in KINDS {
            let start = Instant::now();
            let enc = f.encode(&x, kind);
            let encoded = start.elapsed();
            let start = Instant::now();
            let dec = f
                .decode(&enc.text, kind)
                .unwrap_or_else(|e| panic!("{} {}: {e}", f.id(), kind.as_str()));
            let decoded = start.elapsed();
            let n = dec.exchange.messages.len();
            match kind {
                // Every format keeps one message per cycle at least (some merge a result
                // into the user turn that follows).
                Kind::Request => assert!(n >= 1_000, "{} request: {n} messages", f.id()),
                Kind::Response => assert!(n >= 1, "{} response: no message", f.id()),
            }
            println!(
                "{:17} {:8}: {:>9} bytes, encode {encoded:>10.2?}, decode {decoded:>10.2?}, \
                 {n} messages",
                f.id(),
                kind.as_str(),
                enc.text.len(),
            );
        }
    }
}

/// [`long_exchange`] of three rounds, then this answer.
fn long_exchange_answered(answer: &str) -> Exchange {
    let mut x = long_exchange(3);
    x.messages.push(common::assistant(vec![Part::text(answer)]));
    x
}

#[test]
fn limits_ten_thousand_event_streams_replay() {
    // One long answer after the call: text fragments are the events.
    let x = long_exchange_answered(&"rain, ".repeat(10_000));
    for p in Protocol::ALL {
        if p == Protocol::Mcp {
            // MCP streams whole JSON-RPC messages and carries no assistant text: the answer
            // is not an MCP stream. Its long captures are checked in `mcp_replay`.
            continue;
        }
        let text = synth::synthesize_with(&x, p, 6).text();
        let start = Instant::now();
        let r = Replay::load(
            &text,
            LoadOptions {
                protocol: Some(p),
                har_entry: None,
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", p.id()));
        let loaded = start.elapsed();
        assert!(r.len() >= 10_000, "{}: {} events", p.id(), r.len());
        let start = Instant::now();
        let mid = r.snapshot(r.len() / 2).expect("a middle step");
        let seek = start.elapsed();
        assert_eq!(mid.step, r.len() / 2);
        let text_len = match r.assembled.message().and_then(|m| m.parts.first()) {
            Some(Part::Text { text, .. }) => text.len(),
            _ => 0,
        };
        assert_eq!(text_len, 60_000, "{}: the answer is whole", p.id());
        println!(
            "{:17}: {} events, {:>8} bytes, load {loaded:>10.2?}, seek to the middle {seek:>9.2?}",
            p.id(),
            r.len(),
            text.len()
        );
    }
}

/// A HAR file of one streamed entry whose response body is `body`.
fn har_of(body: &str) -> String {
    json!({"log": {"version": "1.2", "entries": [{
        "request": {
            "method": "POST",
            "url": "https://api.openai.com/v1/chat/completions",
            "postData": {"mimeType": "application/json", "text": "{\"model\": \"gpt-4o\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"}
        },
        "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": body}}
    }]}})
    .to_string()
}

#[test]
fn limits_five_megabyte_har_loads() {
    let x = long_exchange_answered(&"drizzle and sun, ".repeat(16_000));
    let body = synth::synthesize_with(&x, Protocol::OpenAiChat, 12).text();
    let har = har_of(&body);
    assert!(har.len() >= 5_000_000, "{} bytes", har.len());
    let start = Instant::now();
    let r = Replay::load(&har, LoadOptions::default()).expect("HAR loads");
    let loaded = start.elapsed();
    assert_eq!(r.protocol, Protocol::OpenAiChat);
    assert!(r.request.is_some(), "the request's conversation is read");
    assert!(r.len() > 20_000);
    println!(
        "HAR: {} bytes, {} events, load {loaded:.2?}",
        har.len(),
        r.len()
    );
}

#[test]
fn limits_har_inside_a_har_is_refused() {
    let inner = har_of("data: {\"choices\": []}\n\n");
    let outer = har_of(&inner);
    match Replay::load(&outer, LoadOptions::default()) {
        Err(ReplayError::Har(HarError::Nested { index: 0 })) => {}
        other => panic!("expected a nested-HAR error, got {other:?}"),
    }
    let e = Replay::load(&outer, LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "HAR: entry 0's response is itself a HAR file; open that file instead"
    );
}

#[test]
fn limits_input_size_is_refused_before_parsing() {
    let huge = format!("{{\"messages\": [], \"x\": \"{}\"}}", "a".repeat(MAX_INPUT));
    let e = read_any(&huge).unwrap_err();
    assert!(e.message.contains("at most 16 MiB"), "{e}");
    for f in Format::ALL {
        let e = f.decode(&huge, Kind::Request).unwrap_err();
        assert_eq!(e.format, Some(f.id()));
        assert!(e.message.contains("at most 16 MiB"), "{}: {e}", f.id());
    }
    assert!(Format::detect(&huge).is_err());
}

/// `levels` arrays nested in a tool's parameters, in a Chat Completions request.
fn deep_chat_request(levels: usize) -> String {
    format!(
        "{{\"model\": \"m\", \"messages\": [{{\"role\": \"user\", \"content\": \"hi\"}}],\n\
         \"tools\": [{{\"type\": \"function\", \"function\": {{\"name\": \"f\", \"parameters\": \
         {{\"type\": \"object\", \"default\": {}{}}}}}}}]}}",
        "[".repeat(levels),
        "]".repeat(levels)
    )
}

#[test]
fn limits_nesting_depth_is_refused_with_a_position() {
    // The `default` value starts at level 5 (root, tools, tool, function, parameters).
    let ok = deep_chat_request(MAX_DEPTH - 5);
    assert!(Format::OpenAiChat.decode(&ok, Kind::Request).is_ok());
    assert!(read_any(&ok).is_ok());
    let deep = deep_chat_request(MAX_DEPTH - 4);
    let e = Format::OpenAiChat.decode(&deep, Kind::Request).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(
        e.to_string()
            .contains("nested deeper than 100 levels of arrays and objects; refused"),
        "{e}"
    );
    let e = read_any(&deep).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("deeper than 100 levels"), "{e}");
    // Far deeper than serde_json's own limit: still our message, no stack used.
    let abyss = "[".repeat(1_000_000);
    let e = read_any(&abyss).unwrap_err();
    assert_eq!((e.line, e.column), (Some(1), Some(MAX_DEPTH + 1)));
    for f in Format::ALL.into_iter().filter(|f| !f.is_text()) {
        let e = f.decode(&abyss, Kind::Response).unwrap_err();
        assert!(e.message.contains("deeper than 100"), "{}: {e}", f.id());
    }
}

/// A Chat Completions request of `messages` user messages and `tools` tools.
fn chat_request(messages: usize, tools: usize) -> String {
    let msgs: Vec<Value> = (0..messages)
        .map(|i| json!({"role": "user", "content": format!("m{i}")}))
        .collect();
    let tools: Vec<Value> = (0..tools)
        .map(|i| json!({"type": "function", "function": {"name": format!("t{i}"), "parameters": {"type": "object"}}}))
        .collect();
    json!({"model": "m", "messages": msgs, "tools": tools}).to_string()
}

#[test]
fn limits_message_and_tool_counts_name_the_limit() {
    assert!(Format::OpenAiChat
        .decode(&chat_request(MAX_MESSAGES, MAX_TOOLS), Kind::Request)
        .is_ok());
    let e = Format::OpenAiChat
        .decode(&chat_request(MAX_MESSAGES + 1, 1), Kind::Request)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "openai-chat: the document holds 10001 messages; at most 10000 are read"
    );
    let e = read_any(&chat_request(1, MAX_TOOLS + 1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "openai-chat: the document holds 1001 tools; at most 1000 are read"
    );
    // The canonical model's own JSON: the error points at the array.
    let mut x = long_exchange(4);
    x.messages = x
        .messages
        .iter()
        .cycle()
        .take(MAX_MESSAGES + 1)
        .cloned()
        .collect();
    let text = serde_json::to_string(&x).expect("serialise");
    let e = read_any(&text).unwrap_err();
    assert_eq!(e.pointer.as_deref(), Some("/messages"));
    assert!(e.line.is_some(), "located: {e}");
    assert!(e.message.contains("at most 10000"), "{e}");
}

#[test]
fn limits_replay_length_is_refused_before_assembling() {
    let text = "data: {\"choices\": []}\n\n".repeat(MAX_EVENTS + 1);
    let start = Instant::now();
    let e = Replay::load(&text, LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "input too large: 200001 events, the limit is 200000"
    );
    println!(
        "{} events refused in {:.2?}",
        MAX_EVENTS + 1,
        start.elapsed()
    );
}
