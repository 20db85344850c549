//! Replay that tells the stream as it came: text blocks kept apart, the stop reason only once
//! the stream sent it, an empty synthesised stream that says why; and a pasted document told
//! apart from an edit.

use serde_json::json;
use toolscope::edit::is_replacement;
use toolscope::formats::{read_any, Format};
use toolscope::replay::{LoadOptions, Replay};

/// An Anthropic stream of two text blocks, its stop reason in the second to last event.
fn two_blocks() -> String {
    let mut out = vec![
        json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "id": "msg_1",
            "type": "message", "role": "assistant", "content": [], "stop_reason": null,
            "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    ];
    for w in ["I will look", " that up", " right away!"] {
        out.push(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": w}}));
    }
    out.push(json!({"type": "content_block_stop", "index": 0}));
    out.push(json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}));
    for w in ["Following", " up."] {
        out.push(json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": w}}));
    }
    out.push(json!({"type": "content_block_stop", "index": 1}));
    out.push(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 9}}));
    out.push(json!({"type": "message_stop"}));
    out.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn text_blocks_stay_apart_and_the_stop_reason_waits_for_the_stream() {
    let r = Replay::load(&two_blocks(), LoadOptions::default()).expect("loads");
    assert_eq!(r.len(), 12);
    let early = r.snapshot(3).unwrap();
    assert_eq!(early.state.text_blocks(), ["I will look that up"]);
    assert!(early.state.stop_reason.is_none());
    let doc = early.so_far_as(Format::Anthropic);
    assert!(doc.contains("\"stop_reason\": null"), "{doc}");
    // Every format's so-far body leaves the derived stop reason out until it is sent.
    for f in [Format::OpenAiChat, Format::Bedrock, Format::Gemini] {
        let doc = early.so_far_as(f);
        assert!(
            !doc.contains("end_turn") && !doc.contains("\"stop\""),
            "{f:?}: {doc}"
        );
    }
    let before_stop = r.snapshot(9).unwrap();
    assert_eq!(
        before_stop.state.text_blocks(),
        ["I will look that up right away!", "Following up."]
    );
    assert!(before_stop
        .so_far_as(Format::Anthropic)
        .contains("\"stop_reason\": null"));
    let sent = r.snapshot(10).unwrap();
    assert_eq!(sent.state.stop_reason.as_deref(), Some("end_turn"));
    assert!(sent
        .so_far_as(Format::Anthropic)
        .contains("\"stop_reason\": \"end_turn\""));
}

#[test]
fn an_empty_stream_says_why() {
    let ends_on_user =
        read_any(r#"{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello?"}]}"#)
            .unwrap()
            .0
            .exchange;
    let why = toolscope::synth::why_empty(&ends_on_user).expect("says why");
    assert!(why.contains("ends on a user message"), "{why}");
    let x = read_any(toolscope::examples::EXAMPLES[0].source)
        .unwrap()
        .0
        .exchange;
    assert_eq!(toolscope::synth::why_empty(&x), None);
    let mut ends_on_tool = x.clone();
    ends_on_tool.messages.pop();
    let why = toolscope::synth::why_empty(&ends_on_tool).expect("says why");
    assert!(why.contains("a tool result"), "{why}");
}

#[test]
fn a_paste_over_the_whole_text_is_a_new_document_typing_is_an_edit() {
    let before = Format::Anthropic.encode(
        &read_any(toolscope::examples::EXAMPLES[0].source)
            .unwrap()
            .0
            .exchange,
        toolscope::formats::Kind::Request,
    );
    let before = before.text;
    let typed = before.replacen("Paris", "Pariss", 1);
    assert!(!is_replacement(&before, &typed));
    let cut = before.replacen("\"get_weather\"", "", 1);
    assert!(!is_replacement(&before, &cut));
    let pasted = r#"{"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "Hi"}]}"#;
    assert!(is_replacement(&before, pasted));
    // Emptying the editor is not a document.
    assert!(!is_replacement(&before, ""));
}
