//! AI SDK reasoning and provider-executed tools: `reasoning` parts with their providers'
//! opaque state in `providerOptions`, `providerExecuted` calls and assistant-message results as
//! hosted steps, UI message tool parts in `output-error` keeping `rawInput`, and UI message
//! streams replaying to the whole turn with reasoning and server-executed outputs.
//!
//! Stream chunk sequences are those of the AI SDK's own tests of `processUIMessageStream`
//! (github.com/vercel/ai @ ed857f50f112e23930b0c2dd8d532cc8bebbc911,
//! `packages/ai/src/ui/process-ui-message-stream.test.ts`: "provider-executed static tools",
//! "server-side tool roundtrip with multiple assistant reasoning").

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::*;
use toolscope::replay::{LoadOptions, Replay};

use crate::common;
use common::reasoning::{own_round_trip, reasoning};

const A: Format = Format::AiSdk;

fn sse(chunks: &[Value]) -> String {
    let mut s: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    s.push_str("data: [DONE]\n\n");
    s
}

#[test]
fn reasoning_parts_carry_each_providers_state() {
    let doc = json!({
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": [
                {"type": "reasoning", "text": "Let me think.", "providerOptions": {"anthropic": {"signature": "EqQB"}}},
                {"type": "reasoning", "text": "", "providerOptions": {"anthropic": {"redactedData": "RED"}}},
                {"type": "reasoning", "text": "Summary", "providerOptions": {"openai": {"itemId": "rs_1", "reasoningEncryptedContent": "gAAA"}}},
                {"type": "text", "text": "Checking.", "providerOptions": {"google": {"thoughtSignature": "GSIG"}}},
                {"type": "tool-call", "toolCallId": "c1", "toolName": "weather", "input": {"city": "Paris"}}
            ]},
            {"role": "tool", "content": [
                {"type": "tool-result", "toolCallId": "c1", "toolName": "weather", "output": {"type": "text", "value": "18"}}
            ]}
        ],
        "tools": {"weather": {"inputSchema": {"type": "object"}}}
    });
    let x = own_round_trip(A, &doc.to_string(), Kind::Request);
    let m = &x.messages[1];
    let sig = reasoning(&m.parts[0]).opaque.clone().unwrap();
    assert_eq!(
        (sig.kind, sig.provider.as_str(), sig.data.as_str()),
        (OpaqueKind::Signature, "anthropic", "EqQB")
    );
    let red = reasoning(&m.parts[1]);
    assert_eq!(red.opaque.as_ref().unwrap().kind, OpaqueKind::Redacted);
    assert!(red.text.is_none());
    let enc = reasoning(&m.parts[2]);
    assert_eq!(enc.opaque.as_ref().unwrap().provider, "openai");
    assert_eq!(enc.text.as_deref(), Some("Summary"));
    // The item id stays in the part's options.
    assert_eq!(
        enc.extra["ai-sdk"]["providerOptions"],
        json!({"openai": {"itemId": "rs_1"}})
    );
    let g = reasoning(&m.parts[3]);
    assert!(g.attached);
    assert_eq!(g.opaque.as_ref().unwrap().provider, "gemini");
    assert!(matches!(&m.parts[4], Part::Text { extra, .. } if extra.is_empty()));
    common::checked_trip(A, &x, Kind::Request);
}

#[test]
fn reasoning_goes_to_its_provider_and_is_reported_elsewhere() {
    let doc = json!({
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": [
                {"type": "reasoning", "text": "Let me think.", "providerOptions": {"anthropic": {"signature": "EqQB"}}},
                {"type": "tool-call", "toolCallId": "toolu_1", "toolName": "weather", "input": {"city": "Paris"}}
            ]},
            {"role": "tool", "content": [
                {"type": "tool-result", "toolCallId": "toolu_1", "toolName": "weather", "output": {"type": "text", "value": "18"}}
            ]}
        ],
        "tools": {"weather": {"inputSchema": {"type": "object"}}}
    });
    let x = own_round_trip(A, &doc.to_string(), Kind::Request);
    let to_gemini = Format::Gemini.encode(&x, Kind::Request);
    let l = to_gemini
        .losses
        .iter()
        .find(|l| l.kind == LossKind::Reasoning)
        .expect("reasoning loss");
    assert_eq!(l.what, "Anthropic thinking signature");
    // A Gemini-issued signature read from a Gemini response reaches the AI SDK's Google slot.
    let gem = Format::Gemini
        .decode(
            &std::fs::read_to_string(
                common::recorded_dir().join("gemini/google-tool-call-gemini3.response.json"),
            )
            .unwrap(),
            Kind::Response,
        )
        .unwrap()
        .exchange;
    let enc = A.encode(&gem, Kind::Response);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    let call = &doc["response"]["messages"][0]["content"][0];
    assert_eq!(call["type"], "tool-call");
    assert!(call["providerOptions"]["google"]["thoughtSignature"]
        .as_str()
        .unwrap()
        .starts_with("Eqo+Cqc+"));
}

#[test]
fn provider_executed_calls_and_results_are_hosted() {
    let doc = json!({
        "finishReason": "stop",
        "response": {"messages": [
            {"role": "assistant", "content": [
                {"type": "tool-call", "toolCallId": "srvtoolu_1", "toolName": "web_search", "input": {"query": "news"}, "providerExecuted": true, "providerOptions": {"anthropic": {"caller": "direct"}}},
                {"type": "tool-result", "toolCallId": "srvtoolu_1", "toolName": "web_search", "output": {"type": "json", "value": [{"url": "https://example.com"}]}},
                {"type": "text", "text": "Here is the news."}
            ]}
        ]}
    });
    let x = own_round_trip(A, &doc.to_string(), Kind::Response);
    let m = &x.messages[0];
    let Part::Hosted(call) = &m.parts[0] else {
        panic!("hosted call")
    };
    assert_eq!(
        (call.kind, call.provider.as_str(), call.tool.as_str()),
        (HostedKind::Call, "anthropic", "web_search")
    );
    assert!(matches!(&m.parts[1], Part::Hosted(h) if h.kind == HostedKind::Result));
    let enc = Format::Gemini.encode(&x, Kind::Response);
    assert!(enc
        .losses
        .iter()
        .any(|l| l.what == "Anthropic web_search call"));
}

#[test]
fn a_failed_ui_tool_part_keeps_its_raw_input() {
    let doc = json!([
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]},
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "tool-weather", "toolCallId": "c1", "state": "output-error", "rawInput": {"city": 42}, "errorText": "Invalid input"}
        ]}
    ]);
    let dec = A.decode(&doc.to_string(), Kind::Request).unwrap();
    let x = dec.exchange;
    let call = x.messages[1].tool_calls().next().unwrap();
    assert_eq!(call.arguments, json!({"city": 42}));
    let r = x.messages[2].tool_results().next().unwrap();
    assert!(r.is_error);
}

#[test]
fn ui_messages_read_reasoning_and_provider_executed_tools() {
    let doc = json!([
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "News?"}]},
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"},
            {"type": "reasoning", "text": "Search first.", "state": "done", "providerMetadata": {"anthropic": {"signature": "SIG"}}},
            {"type": "tool-web_search", "toolCallId": "s1", "state": "output-available", "input": {"query": "news"}, "output": {"hits": 1}, "providerExecuted": true},
            {"type": "text", "text": "One hit.", "state": "done"}
        ]}
    ]);
    let dec = A.decode(&doc.to_string(), Kind::Request).unwrap();
    let m = &dec.exchange.messages[1];
    let r = reasoning(&m.parts[0]);
    assert_eq!(r.text.as_deref(), Some("Search first."));
    assert_eq!(r.opaque.as_ref().unwrap().data, "SIG");
    assert!(matches!(&m.parts[1], Part::Hosted(h) if h.kind == HostedKind::Call));
    assert!(matches!(&m.parts[2], Part::Hosted(h) if h.kind == HostedKind::Result));
    assert_eq!(
        dec.exchange.messages.len(),
        2,
        "no tool message for the server's output"
    );
    // Written back as ModelMessages the SDK reads: the signature in the reasoning part's options.
    let enc = A.encode(&dec.exchange, Kind::Request);
    let out: Value = serde_json::from_str(&enc.text).unwrap();
    let content = &out[1]["content"];
    assert_eq!(
        content[0],
        json!({"type": "reasoning", "text": "Search first.", "providerOptions": {"anthropic": {"signature": "SIG"}}})
    );
    assert_eq!(content[1]["providerExecuted"], true);
    assert_eq!(content[2]["type"], "tool-result");
}

#[test]
fn ui_stream_with_server_executed_tools_replays_to_the_turn() {
    let chunks = [
        json!({"type": "start", "messageId": "msg-123"}),
        json!({"type": "start-step"}),
        json!({"type": "tool-input-start", "toolCallId": "tool-call-1", "toolName": "tool-name", "providerExecuted": true}),
        json!({"type": "tool-input-delta", "toolCallId": "tool-call-1", "inputTextDelta": "{ \"query\": \"test\" }"}),
        json!({"type": "tool-input-available", "toolCallId": "tool-call-1", "toolName": "tool-name", "input": {"query": "test"}, "providerExecuted": true}),
        json!({"type": "tool-output-available", "toolCallId": "tool-call-1", "output": {"result": "provider-result"}, "providerExecuted": true}),
        json!({"type": "tool-input-available", "toolCallId": "tool-call-2", "toolName": "tool-name", "input": {"query": "test"}, "providerExecuted": true}),
        json!({"type": "tool-output-error", "toolCallId": "tool-call-2", "errorText": "error-text", "providerExecuted": true}),
        json!({"type": "finish-step"}),
        json!({"type": "finish"}),
    ];
    let r = Replay::load(&sse(&chunks), LoadOptions::default()).unwrap();
    assert_eq!(r.protocol, toolscope::formats::Protocol::AiSdk);
    let x = &r.assembled.exchange;
    let m = x.messages.last().unwrap();
    let kinds: Vec<HostedKind> = m
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Hosted(h) => Some(h.kind),
            _ => None,
        })
        .collect();
    use HostedKind::*;
    assert_eq!(kinds, [Call, Result, Call, Result]);
    // Its own format shows the turn, not an empty response.
    let own = toolscope::replay::render_so_far(A, x, true);
    let doc: Value = serde_json::from_str(&own).unwrap();
    let content = doc["response"]["messages"][0]["content"]
        .as_array()
        .unwrap();
    assert_eq!(content.len(), 4, "{own}");
    assert_eq!(
        content[1]["output"]["value"],
        json!({"result": "provider-result"})
    );
    assert_eq!(content[3]["output"]["type"], "error-text");
}

#[test]
fn ui_stream_reasoning_and_client_outputs_replay_with_every_step() {
    let chunks = [
        json!({"type": "start", "messageId": "msg-123"}),
        json!({"type": "start-step"}),
        json!({"type": "reasoning-start", "id": "reasoning-1"}),
        json!({"type": "reasoning-delta", "id": "reasoning-1", "delta": "I will ", "providerMetadata": {"anthropic": {"signature": "1234567890"}}}),
        json!({"type": "reasoning-delta", "id": "reasoning-1", "delta": "use a tool to get the weather in London."}),
        json!({"type": "reasoning-end", "id": "reasoning-1"}),
        json!({"type": "tool-input-available", "toolCallId": "tool-call-id", "toolName": "tool-name", "input": {"city": "London"}}),
        json!({"type": "tool-output-available", "toolCallId": "tool-call-id", "output": {"weather": "sunny"}}),
        json!({"type": "finish-step"}),
        json!({"type": "start-step"}),
        json!({"type": "reasoning-start", "id": "reasoning-2"}),
        json!({"type": "reasoning-delta", "id": "reasoning-2", "delta": "I now know the weather in London.", "providerMetadata": {"anthropic": {"signature": "abc123"}}}),
        json!({"type": "reasoning-end", "id": "reasoning-2"}),
        json!({"type": "text-start", "id": "text-1"}),
        json!({"type": "text-delta", "id": "text-1", "delta": "The weather in London is sunny."}),
        json!({"type": "text-end", "id": "text-1"}),
        json!({"type": "finish-step"}),
        json!({"type": "finish"}),
    ];
    let r = Replay::load(&sse(&chunks), LoadOptions::default()).unwrap();
    let x = &r.assembled.exchange;
    let roles: Vec<Role> = x.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::Assistant, Role::Tool, Role::Assistant]);
    let first = reasoning(&x.messages[0].parts[0]);
    assert_eq!(
        first.text.as_deref(),
        Some("I will use a tool to get the weather in London.")
    );
    assert_eq!(first.opaque.as_ref().unwrap().data, "1234567890");
    assert_eq!(first.opaque.as_ref().unwrap().provider, "anthropic");
    let second = reasoning(&x.messages[2].parts[0]);
    assert_eq!(second.opaque.as_ref().unwrap().data, "abc123");
    // The stream's reasoning reached the tracker as it arrived.
    assert!(r
        .assembled
        .message()
        .is_some_and(|m| m.parts.iter().any(|p| matches!(p, Part::Text { .. }))));
}

#[test]
fn synthesised_streams_carry_reasoning_and_server_outputs() {
    let doc = json!({
        "finishReason": "stop",
        "response": {"messages": [
            {"role": "assistant", "content": [
                {"type": "reasoning", "text": "Search first.", "providerOptions": {"anthropic": {"signature": "SIG"}}},
                {"type": "tool-call", "toolCallId": "s1", "toolName": "web_search", "input": {"q": "x"}, "providerExecuted": true},
                {"type": "tool-result", "toolCallId": "s1", "toolName": "web_search", "output": {"type": "json", "value": {"hits": 1}}},
                {"type": "text", "text": "One hit."}
            ]}
        ]}
    });
    let x = own_round_trip(A, &doc.to_string(), Kind::Response);
    let events =
        toolscope::synth::synthesize_with(&x, toolscope::formats::Protocol::AiSdk, 4).text();
    let r = Replay::load(&events, LoadOptions::default()).unwrap();
    assert_eq!(r.assembled.exchange.messages, x.messages, "{events}");
}
