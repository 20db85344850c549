//! `toolscope replay`, through `cli::run_with` (no processes).

use crate::common;

use serde_json::Value;

use common::run_cli as run;

fn stream(name: &str) -> String {
    common::fixtures()
        .join("streams")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn cli_replay_prints_the_response_in_the_stream_format() {
    let (code, out, err) = run(&["replay", &stream("chat-interleaved.sse")], "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["object"], "chat.completion");
    let calls = &v["choices"][0]["message"]["tool_calls"];
    assert_eq!(calls[1]["function"]["arguments"], "{\"tz\":\"CET\"}");
    assert!(err.contains("replayed 8 events as openai-chat"), "{err}");
    assert!(err.contains("anomaly #4 interleaved:"), "{err}");
}

#[test]
fn cli_replay_to_another_format_and_from_stdin() {
    let text = std::fs::read_to_string(stream("chat-zero-index.jsonl")).unwrap();
    let (code, out, err) = run(&["replay", "--to", "anthropic", "-"], &text);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["type"], "message");
    assert_eq!(v["content"][1]["input"]["city"], "Rome");
    assert!(err.contains("index_reused"), "{err}");
    let (code, out, _) = run(&["replay", "--to", "canonical", "-"], &text);
    assert_eq!(code, 0);
    assert!(out.contains("\"messages\""));
}

#[test]
fn cli_replay_steps_one_line_per_event() {
    let (code, out, err) = run(
        &["replay", "--steps", &stream("chat-args-before-name.jsonl")],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "#0 chat.completion.chunk | calls: ({\"city\":)");
    assert_eq!(
        lines[1],
        "#1 chat.completion.chunk | calls: weather({\"city\":\"Oslo\"})"
    );
    assert!(err.contains("anomaly #0 arguments_before_name"), "{err}");
}

#[test]
fn cli_replay_format_override_and_errors() {
    for (args, stdin, code, needle) in [
        (
            &["replay", "--format", "anthropic-xml", "x"][..],
            "",
            2,
            "not a streaming protocol",
        ),
        (
            &["replay", "-"],
            "{\"a\": 1}\n{\"b\": 2}\n",
            1,
            "name it with --format",
        ),
        (&["replay", "-"], "{\"choices\": 5}", 1, "line 1"),
        (&["replay", "/nonexistent/file.sse"], "", 1, "cannot read"),
    ] {
        common::assert_cli_fails(args, stdin, code, needle);
    }
    // The same bytes read as another protocol: the override wins.
    let text = std::fs::read_to_string(stream("anthropic-spliced.jsonl")).unwrap();
    let (code, _, err) = run(&["replay", "--format", "anthropic", "-"], &text);
    assert_eq!(code, 0);
    assert!(err.contains("spliced_start"), "{err}");
}

#[test]
fn cli_replay_cut_stream_says_incomplete() {
    let (code, out, err) = run(&["replay", &stream("anthropic-cut.sse")], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Let me check"));
    assert!(err.contains("(incomplete)"), "{err}");
    assert!(err.contains(" cut: "), "{err}");
}

/// An OpenAI stream of one call whose arguments arrive in `n` fragments of `frag` bytes.
fn long_call_stream(n: usize, frag: usize) -> String {
    let mut s = String::new();
    let first = serde_json::json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
        "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
        "function": {"name": "write", "arguments": "{\"text\":\""}}]}}]});
    s.push_str(&format!("data: {first}\n\n"));
    let piece = serde_json::json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
        "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "a".repeat(frag)}}]}}]});
    for _ in 0..n {
        s.push_str(&format!("data: {piece}\n\n"));
    }
    s.push_str("data: [DONE]\n\n");
    s
}

#[test]
fn cli_replay_steps_output_grows_with_events_not_arguments() {
    // 2,000 events growing one call to 600 KB: the old output reprinted the whole argument
    // text at every event (≈ 600 MB); each line is now bounded.
    let input = long_call_stream(2_000, 300);
    let (code, out, err) = run(&["replay", "--steps", "-"], &input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2_002, "one line per event");
    let longest = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    assert!(longest < 400, "a line of {longest} bytes");
    assert!(out.len() < 2_002 * 400, "{} bytes", out.len());
    // The end of the arguments and their whole size are shown.
    let last_call = lines[2_000];
    assert!(last_call.contains("write(…aaaa"), "{last_call}");
    assert!(
        last_call.contains(&format!("[{} bytes]", 9 + 2_000 * 300)),
        "{last_call}"
    );
}

#[test]
fn cli_replay_steps_many_calls_show_the_changed_ones() {
    // 50 parallel calls, each event touching one: a line lists that call, not all fifty.
    let mut s = String::new();
    for i in 0..50 {
        let ev = serde_json::json!({"object": "chat.completion.chunk", "choices": [{"index": 0,
            "delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function",
            "function": {"name": format!("tool_{i}"), "arguments": "{}"}}]}}]});
        s.push_str(&format!("data: {ev}\n\n"));
    }
    s.push_str("data: [DONE]\n\n");
    let (code, out, err) = run(&["replay", "--steps", "-"], &s);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().nth(49).expect("line 50");
    assert!(line.ends_with("| calls: tool_49({})"), "{line}");
    assert!(out.lines().all(|l| l.len() < 400));
}
