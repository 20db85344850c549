//! Detection reads a borrowed view of the text (`formats::sniff`) instead of a parsed
//! `serde_json::Value`, and the detected format decodes the text itself: these tests hold that
//! every answer is the one the value gave (formats, kinds, scores, decoded exchanges, errors
//! with their pointer, line and column), on every fixture and on tricky inputs, and that the
//! word-at-a-time depth scan finds what a byte-by-byte one does.

// Native only: the fixtures are read from disk, and proptest is a native dev-dependency.

use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;
use toolscope::formats::json::{self, MAX_DEPTH};
use toolscope::formats::openai_chat::dialects::{Cohere, DeepSeek, Mistral, Ollama};
use toolscope::formats::sniff::{self, Node};
use toolscope::formats::{
    ai_sdk, anthropic, anthropic_xml, bedrock, gemini, mcp, openai_chat, openai_responses,
    read_any, Codec, Format, Kind,
};

/// A sniffer's answer.
type Score = Option<(Kind, u8)>;

/// Every codec's answer for the value and for the view, in registry order.
fn scores(value: &Value, view: &Node) -> Vec<(Score, Score)> {
    fn both<C: Codec>(value: &Value, view: &Node) -> (Score, Score) {
        (C::sniff(value), C::sniff_view(view))
    }
    vec![
        both::<openai_chat::Codec>(value, view),
        both::<openai_responses::Codec>(value, view),
        both::<anthropic::Codec>(value, view),
        both::<gemini::Codec>(value, view),
        both::<bedrock::Codec>(value, view),
        both::<mcp::Codec>(value, view),
        both::<anthropic_xml::Codec>(value, view),
        both::<DeepSeek>(value, view),
        both::<Mistral>(value, view),
        both::<Cohere>(value, view),
        both::<Ollama>(value, view),
        both::<ai_sdk::Codec>(value, view),
    ]
}

/// What detection answered when it sniffed the parsed value: the highest score above 0, the
/// last of equal ones (`max_by_key`), in registry order.
fn detect_by_value(value: &Value) -> Option<(Format, Kind)> {
    let views = Node::of(value);
    scores(value, &views)
        .into_iter()
        .zip(Format::ALL)
        .filter_map(|((by_value, _), f)| by_value.map(|(k, s)| (f, k, s)))
        .filter(|(_, _, s)| *s > 0)
        .max_by_key(|(_, _, s)| *s)
        .map(|(f, k, _)| (f, k))
}

/// The view of `text` answers as its value does, and detection says what the value said.
fn check(text: &str) {
    let value = json::parse_value("t", text);
    let view = sniff::parse(text, MAX_DEPTH);
    assert_eq!(
        view.is_some(),
        value.is_ok(),
        "view and value agree on {text:?}"
    );
    if let (Ok(value), Some(view)) = (&value, &view) {
        for (i, (by_value, by_view)) in scores(value, view).into_iter().enumerate() {
            assert_eq!(by_value, by_view, "{} on {text:?}", Format::ALL[i].id());
        }
        if let Some(expected) = detect_by_value(value) {
            assert_eq!(Format::detect(text).ok(), Some(expected), "{text:?}");
        }
    }
}

fn fixtures(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("fixtures dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            fixtures(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "txt" | "jsonl")
        ) {
            out.push(path);
        }
    }
}

#[test]
fn detect_view_answers_as_the_value_on_every_fixture() {
    let mut paths = Vec::new();
    fixtures(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut paths,
    );
    assert!(paths.len() > 200, "fixtures found: {}", paths.len());
    let mut json_docs = 0;
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        check(&text);
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            json_docs += 1;
            // Without keys written twice, the view is the value's, member for member.
            let view = sniff::parse(&text, usize::MAX);
            assert_eq!(view, Some(Node::of(&value)), "{}", path.display());
        }
    }
    assert!(json_docs > 150, "JSON fixtures: {json_docs}");
}

#[test]
fn detect_view_answers_as_the_value_on_tricky_documents() {
    let deep = |n: usize| {
        format!(
            "{{\"messages\": {}{}}}",
            "[".repeat(n - 1),
            "]".repeat(n - 1)
        )
    };
    let texts = [
        // A key written twice: the last value counts, as in a map.
        r#"{"messages": [{"role": "user"}], "messages": [{"role": "tool"}]}"#,
        r#"{"type": "message", "type": "x", "content": []}"#,
        r#"{"choices": [], "model": "deepseek-chat", "model": "gpt-4o"}"#,
        // Escaped keys and values read as their text.
        r#"{"messa\u0067es": [{"r\u006fle": "syst\u0065m"}]}"#,
        r#"{"jsonrpc": "2\u002e0", "method": "tools\/call", "id": 1}"#,
        r#"{"contents": [], "\u0063andidates": []}"#,
        // Shapes at the sniffers' deepest reach.
        r#"{"messages": [{"role": "assistant", "tool_calls": [{"function": {"arguments": {"a": [1]}}}]}]}"#,
        r#"[{"role": "user", "parts": [{"type": "tool-invocation", "toolInvocation": {"toolName": "x"}}]}]"#,
        r#"[{"role": "user", "parts": [{"type": "tool-invocation", "toolInvocation": {"toolName": 1}}], "id": null}]"#,
        r#"[{"role": "user", "parts": [{"type": "dynamic-tool", "toolCallId": "c", "toolName": "t"}]}]"#,
        r#"{"messages": [{"role": "user", "parts": [{"type": "tool-x", "toolCallId": "c"}]}]}"#,
        r#"{"messages": [{"role": "user", "content": [{"type": "document"}]}]}"#,
        r#"{"messages": [{"content": [{"toolUse": {}}]}], "toolConfig": {"toolChoice": {}}}"#,
        r#"{"tools": [{"function": {}}], "messages": []}"#,
        r#"{"tools": [{"type": "function", "function": 1}], "messages": [], "model": "Mistral-Large"}"#,
        r#"{"tool_choice": {"type": "any"}, "messages": [{"content": [{"type": "tool_result"}]}]}"#,
        r#"{"output": {"message": {}}, "object": "response"}"#,
        r#"{"response": {"messages": []}}"#,
        r#"{"role": "assistant", "content": [{"type": "tool-call"}]}"#,
        r#"{"message": {}, "done": true}"#,
        r#"{"message": {}, "finish_reason": "COMPLETE"}"#,
        r#"{"instructions": "x"}"#,
        r#"{"promptFeedback": {}}"#,
        r#"[{"jsonrpc": "2.0", "method": "tools/call", "id": 1}, {"jsonrpc": "2.0", "method": "tools/list", "id": 2}]"#,
        // Not a document of any format.
        "[]",
        "[1, 2]",
        "{}",
        "\"messages\"",
        "42",
        "null",
        " \n{\"messages\": []}\n ",
        // Numbers serde reads in every form.
        r#"{"messages": [], "temperature": -0.0, "max_tokens": 18446744073709551615, "n": -9223372036854775808, "x": 1e300}"#,
    ];
    for text in texts {
        check(text);
    }
    // As deep as allowed, and one level more.
    check(&deep(MAX_DEPTH));
    check(&deep(MAX_DEPTH + 1));
    assert!(sniff::parse(&deep(MAX_DEPTH), MAX_DEPTH).is_some());
    assert!(sniff::parse(&deep(MAX_DEPTH + 1), MAX_DEPTH).is_none());
}

#[test]
fn detect_view_refuses_what_the_value_refuses() {
    let texts = [
        "",
        " ",
        "{",
        "{\"messages\": [}",
        "{\"messages\": []} x",
        "{\"messages\": []}{}",
        "{\"a\": 1e400}",
        "{\"a\": \"\\ud800\"}",
        "{\"a\": \"\\x\"}",
        "{\"a\": \"tab\there\"}",
        "[1,]",
        "{\"a\" 1}",
        "{'a': 1}",
        "nul",
        "\u{feff}{}",
        "Human: hi\n\nAssistant:",
    ];
    for text in texts {
        check(text);
        let value = serde_json::from_str::<Value>(text);
        assert_eq!(
            sniff::parse(text, MAX_DEPTH).is_some(),
            value.is_ok(),
            "{text:?}"
        );
    }
}

#[test]
fn detect_view_read_any_errors_point_where_they_did() {
    // Syntax errors and nesting too deep: the error of a parse into a value, without a format.
    let syntax = "{\n  \"messages\": [\n    {\"role\": \"user\",}\n  ]\n}".to_string();
    let deep = format!(
        "{{\"messages\":\n{}{}}}",
        "[".repeat(MAX_DEPTH),
        "]".repeat(MAX_DEPTH)
    );
    for text in [syntax, deep] {
        let e = read_any(&text).unwrap_err();
        let by_value = json::parse_value("canonical", &text).unwrap_err();
        assert_eq!(
            e,
            toolscope::formats::DecodeError {
                format: None,
                ..by_value.clone()
            }
        );
        assert!(e.line.is_some() && e.column.is_some(), "{e:?}");
        let detected = Format::detect(&text).unwrap_err();
        assert_eq!(
            (detected.line, detected.column),
            (by_value.line, by_value.column)
        );
    }
    // A detected format's shape error: its pointer, line and column.
    let text = "{\n  \"model\": \"gpt-4o\",\n  \"messages\": [\n    {\"role\": \"system\", \"content\": \"s\"},\n    {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c\", \"type\": \"function\", \"function\": {\"name\": 3, \"arguments\": \"{}\"}}]}\n  ]\n}";
    let e = read_any(text).unwrap_err();
    assert_eq!(e.format, Some("openai-chat"));
    assert!(
        e.pointer
            .as_deref()
            .is_some_and(|p| p.starts_with("/messages/1/tool_calls/0")),
        "{e:?}"
    );
    assert_eq!(e.line, Some(5));
    let direct = Format::OpenAiChat.decode(text, Kind::Request).unwrap_err();
    assert_eq!(e, direct);
    // Nothing known: why it is not a canonical exchange.
    for text in ["{\"hello\": 1}", "[1, 2]", "{\"model\": 3}"] {
        let e = read_any(text).unwrap_err();
        let canonical = json::parse::<toolscope::model::Exchange>("canonical", text).unwrap_err();
        assert_eq!(e, canonical, "{text}");
    }
}

#[test]
fn detect_view_read_any_decodes_as_the_format_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut paths = Vec::new();
    fixtures(&dir, &mut paths);
    let mut read = 0;
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok((format, kind)) = Format::detect(&text) else {
            continue;
        };
        let direct = format.decode(&text, kind);
        match read_any(&text) {
            Ok((decoded, toolscope::formats::Source::Wire(f, k))) => {
                assert_eq!((f, k), (format, kind), "{}", path.display());
                assert_eq!(Ok(decoded), direct, "{}", path.display());
                read += 1;
            }
            Ok((_, toolscope::formats::Source::Canonical)) => {}
            Err(e) => assert_eq!(Err(e), direct, "{}", path.display()),
        }
    }
    assert!(read > 100, "read: {read}");
}

/// The depth scan as a byte-by-byte state machine: in a string or not, after a backslash or
/// not (what `json::too_deep` finds, written the plainest way).
fn too_deep_bytewise(text: &[u8], limit: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

proptest! {
    #[test]
    fn detect_view_depth_scan_finds_what_the_bytewise_scan_does(
        text in proptest::collection::vec(
            prop_oneof![
                Just(b'"'), Just(b'\\'), Just(b'{'), Just(b'}'), Just(b'['), Just(b']'),
                Just(b' '), Just(b'a'), Just(b';'), Just(b'{' ^ 0x20), Just(b'}' ^ 0x20),
                Just(0xff), Just(0x80), Just(0x00)
            ],
            0..80,
        ),
        limit in 0usize..6,
    ) {
        prop_assert_eq!(json::too_deep(&text, limit), too_deep_bytewise(&text, limit));
    }
}

#[test]
fn detect_view_depth_scan_on_long_texts() {
    let text = format!(
        "{}\"{}\\\"{}\"{}",
        "[ ".repeat(40),
        "x".repeat(37),
        "[{".repeat(20),
        " ]".repeat(40)
    );
    for limit in [0, 1, 39, 40, 41] {
        assert_eq!(
            json::too_deep(text.as_bytes(), limit),
            too_deep_bytewise(text.as_bytes(), limit),
            "{limit}"
        );
    }
    let big = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/openai-chat/multi_turn.request.json"),
    )
    .expect("fixture");
    for limit in [1, 3, 5, 100] {
        assert_eq!(
            json::too_deep(big.as_bytes(), limit),
            too_deep_bytewise(big.as_bytes(), limit)
        );
    }
}
