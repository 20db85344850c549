//! Loss lists are promises: every line true. A field the target has (under its name or
//! another) is carried, not lost; content carried is never reported as dropped; the model sent
//! to each provider is a note, not a loss; and a pane reads a document valid in its own format
//! as that format.

use crate::common;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolscope::edit::read_into;
use toolscope::formats::{read_any, Format, Kind, Source};
use toolscope::model::{count_losses, Exchange, Loss, LossKind};

fn read(doc: &Value) -> Exchange {
    read_any(&doc.to_string()).expect("reads").0.exchange
}

fn lines_about(losses: &[Loss], word: &str) -> Vec<String> {
    losses
        .iter()
        .filter(|l| l.is_loss())
        .filter(|l| l.pointer.contains(word) || l.what.contains(word) || l.why.contains(word))
        .map(|l| format!("{:?} {}: {} ({})", l.kind, l.pointer, l.what, l.why))
        .collect()
}

/// An Anthropic request with `stream: true`: OpenAI has `stream` too (Chat Completions and
/// Responses, https://platform.openai.com/docs/api-reference/chat/create), as do the
/// OpenAI-compatible APIs. It is written there, not reported as "anthropic-only".
#[test]
fn stream_is_carried_where_the_target_has_it() {
    let x = read(&json!({
        "model": "claude-sonnet-4-5", "max_tokens": 100, "stream": true,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}]
    }));
    for f in [
        Format::OpenAiChat,
        Format::OpenAiResponses,
        Format::DeepSeek,
        Format::Mistral,
        Format::Ollama,
    ] {
        let enc = f.encode(&x, Kind::Request);
        assert_eq!(
            lines_about(&enc.losses, "stream"),
            Vec::<String>::new(),
            "{f:?}"
        );
        let doc: Value = serde_json::from_str(&enc.text).unwrap();
        assert_eq!(doc["stream"], true, "{f:?}: {}", enc.text);
    }
    // Where the body has no such field, the line says why, truthfully (not "only anthropic").
    // Cohere's SDK refuses `stream` in `chat` (tests/sdk/cohere.py): streaming is chat_stream.
    for f in [Format::Gemini, Format::Bedrock, Format::Cohere] {
        let enc = f.encode(&x, Kind::Request);
        let lines = lines_about(&enc.losses, "stream");
        assert_eq!(lines.len(), 1, "{f:?}: {lines:?}");
        assert!(lines[0].contains("endpoint"), "{lines:?}");
        assert!(!lines[0].contains("only anthropic"), "{lines:?}");
    }
    // And back: an OpenAI request's stream flag reaches the Anthropic pane.
    let x = read(&json!({"model": "gpt-4o", "stream": true,
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]}));
    let enc = Format::Anthropic.encode(&x, Kind::Request);
    assert_eq!(lines_about(&enc.losses, "stream"), Vec::<String>::new());
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["stream"], true);
}

/// `is_error: false` (Anthropic) and `status: "success"` (Bedrock) say "not an error", which
/// every format says in its own way (MCP `isError`, Bedrock `status`, the model's flag).
#[test]
fn an_explicit_no_error_flag_is_not_lost() {
    let x = read(&json!({
        "model": "claude-sonnet-4-5", "max_tokens": 100,
        "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny", "is_error": false}]}
        ]
    }));
    for f in Format::ALL {
        let enc = f.encode(&x, Kind::Request);
        assert_eq!(
            lines_about(&enc.losses, "is_error"),
            Vec::<String>::new(),
            "{f:?}"
        );
    }
    // Written back as pasted in its own format.
    let enc = Format::Anthropic.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["messages"][2]["content"][0]["is_error"], false);

    let x = read(&json!({
        "modelId": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}]},
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_weather", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "sunny"}], "status": "success"}}]}
        ]
    }));
    for f in Format::ALL {
        let enc = f.encode(&x, Kind::Request);
        assert_eq!(
            lines_about(&enc.losses, "status"),
            Vec::<String>::new(),
            "{f:?}"
        );
    }
    let enc = Format::Bedrock.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(
        doc["messages"][2]["content"][0]["toolResult"]["status"],
        "success"
    );
}

/// A Gemini `systemInstruction` laid out its own way (a role, text in two parts) is the system
/// prompt, which every format carries: no pane reports it dropped.
#[test]
fn a_carried_system_instruction_is_not_dropped() {
    let x = read(&json!({
        "systemInstruction": {"role": "system", "parts": [{"text": "Be brief."}, {"text": "Use metric units."}]},
        "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": {"type": "object"}}]}]
    }));
    assert_eq!(x.system.as_deref(), Some("Be brief.\nUse metric units."));
    for f in Format::ALL {
        let enc = f.encode(&x, Kind::Request);
        assert_eq!(
            lines_about(&enc.losses, "systemInstruction"),
            Vec::<String>::new(),
            "{f:?}"
        );
    }
    // Its own pane writes it back as pasted.
    let enc = Format::Gemini.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["systemInstruction"]["role"], "system");
    assert_eq!(
        doc["systemInstruction"]["parts"][1]["text"],
        "Use metric units."
    );
    // A Google Search tool is Gemini's own: that one is a true loss elsewhere.
    let x = read(&json!({
        "contents": [{"role": "user", "parts": [{"text": "News?"}]}],
        "tools": [{"googleSearch": {}}, {"functionDeclarations": [{"name": "f", "parameters": {"type": "object"}}]}]
    }));
    let enc = Format::OpenAiChat.encode(&x, Kind::Request);
    assert_eq!(
        lines_about(&enc.losses, "Gemini").len(),
        1,
        "{:?}",
        enc.losses
    );
}

/// The model each provider is sent is a note: the exchange names gpt-4o, Anthropic is sent
/// its own model. Nothing is lost.
#[test]
fn the_model_sent_to_another_provider_is_a_note() {
    let x = read(&json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}));
    let enc = Format::Anthropic.encode(&x, Kind::Request);
    let model: Vec<&Loss> = enc
        .losses
        .iter()
        .filter(|l| l.pointer == "/options/model")
        .collect();
    assert_eq!(model.len(), 1);
    assert_eq!(model[0].kind, LossKind::Note);
    assert!(!model[0].is_loss());
    // max_tokens is a true addition (the exchange sets none; the Messages API requires one).
    assert_eq!(count_losses(&enc.losses), 1, "{:?}", enc.losses);
    // Gemini sends its model in the URL: a note too.
    let enc = Format::Gemini.encode(&x, Kind::Request);
    assert_eq!(count_losses(&enc.losses), 0, "{:?}", enc.losses);
}

/// The default example shows losses only where a format cannot carry something. Which panes
/// show what is printed (`--nocapture`) and pinned here.
#[test]
fn the_default_example_shows_only_true_losses() {
    let x = read_any(toolscope::examples::EXAMPLES[0].source)
        .expect("example reads")
        .0
        .exchange;
    let mut lossy = Vec::new();
    for f in Format::ALL {
        let enc = f.encode(&x, Kind::Request);
        let losses: Vec<&Loss> = enc.losses.iter().filter(|l| l.is_loss()).collect();
        for l in &losses {
            println!(
                "{}: {:?} {} — {} ({})",
                f.id(),
                l.kind,
                l.pointer,
                l.what,
                l.why
            );
        }
        // No model line is a loss where the format sends a model (MCP has none at all).
        // (The legacy XML prompt is text: its API parameters are not part of it.)
        let sends_model = toolscope::model::ModelFamily::of_format(f).is_some() && !f.is_text();
        assert!(
            !sends_model
                || losses
                    .iter()
                    .all(|l| !l.pointer.starts_with("/options/model")),
            "{}: {losses:?}",
            f.id()
        );
        if !losses.is_empty() {
            lossy.push(f.id());
        }
    }
    println!("panes with losses: {lossy:?}");
    // MCP has no model, system prompt or conversation text; the legacy XML prompt has no
    // call ids, API parameters or `required`; Mistral's ids must be 9 alphanumerics; Ollama has
    // no call ids. The others carry the weather lookup whole.
    assert_eq!(lossy, ["mcp", "anthropic-xml", "mistral", "ollama"]);
}

/// Text valid in a pane's own format is read as that format, even when another format would
/// read it too (an Anthropic request of plain user text is also a Chat Completions request).
#[test]
fn a_pane_reads_its_own_format_first() {
    let current = Exchange::default();
    let anthropic = r#"{"model": "claude-sonnet-4-5", "max_tokens": 1024,
        "messages": [{"role": "user", "content": "What is the weather in Paris?"}]}"#;
    let r = read_into(Some(Format::Anthropic), Kind::Request, anthropic, &current).unwrap();
    assert_eq!(r.source, Source::Wire(Format::Anthropic, Kind::Request));
    // Elsewhere the most confident format still wins, and a document with another format's
    // marker is that format's even in this pane.
    let r = read_into(Some(Format::Gemini), Kind::Request, anthropic, &current).unwrap();
    assert_ne!(r.source, Source::Wire(Format::Gemini, Kind::Request));
    let openai = r#"{"model": "gpt-4o", "messages": [{"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"}]}"#;
    let r = read_into(Some(Format::Anthropic), Kind::Request, openai, &current).unwrap();
    assert_eq!(r.source, Source::Wire(Format::OpenAiChat, Kind::Request));
    // A plain-text Chat request in the OpenAI pane stays OpenAI.
    let plain = r#"{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}"#;
    let r = read_into(Some(Format::OpenAiChat), Kind::Request, plain, &current).unwrap();
    assert_eq!(r.source, Source::Wire(Format::OpenAiChat, Kind::Request));
    // Every format's own rendering of an example reads back as that format in its pane.
    for e in toolscope::examples::EXAMPLES {
        let x = read_any(e.source).unwrap().0.exchange;
        for f in Format::ALL {
            let text = f.encode(&x, Kind::Request).text;
            let r = read_into(Some(f), Kind::Request, &text, &x).unwrap();
            match r.source {
                Source::Wire(g, _) => {
                    assert_eq!(g.protocol(), f.protocol(), "{} in {}", e.id, f.id())
                }
                Source::Canonical => panic!("{} in {}: read as canonical", e.id, f.id()),
            }
        }
    }
}

/// The value at `pointer` in the serialised exchange, if any.
fn at(x: &Exchange, pointer: &str) -> Option<Value> {
    serde_json::to_value(x).ok()?.pointer(pointer).cloned()
}

/// Whether a dropped element's content is still there after the round trip.
fn survives(before: &Exchange, after: &Exchange, pointer: &str) -> bool {
    match (at(before, pointer), at(after, pointer)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn no_false_drop(format: Format, kind: Kind, x: &Exchange) -> Result<(), TestCaseError> {
    let view = match kind {
        Kind::Request => x.request_view(),
        Kind::Response => x.response_view(),
    };
    let enc = format.encode(x, kind);
    let Ok(back) = format.decode(&enc.text, kind) else {
        return Ok(());
    };
    for l in enc.losses.iter().filter(|l| l.kind == LossKind::Dropped) {
        prop_assert!(
            !survives(&view, &back.exchange, &l.pointer),
            "{}: reported dropped but carried: {} {} ({})\n{}",
            format.id(),
            l.pointer,
            l.what,
            l.why,
            enc.text
        );
    }
    Ok(())
}

macro_rules! no_false_drop_tests {
    ($($name:ident: $format:expr;)*) => {$(
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(common::gen::config(128))]
                #[test]
                fn requests(x in common::gen::exchange()) {
                    no_false_drop($format, Kind::Request, &x)?;
                }
                #[test]
                fn responses(x in common::gen::response()) {
                    no_false_drop($format, Kind::Response, &x)?;
                }
            }
        }
    )*};
}

no_false_drop_tests! {
    openai_chat: Format::OpenAiChat;
    openai_responses: Format::OpenAiResponses;
    anthropic: Format::Anthropic;
    gemini: Format::Gemini;
    bedrock: Format::Bedrock;
    mcp: Format::Mcp;
    anthropic_xml: Format::AnthropicXml;
    deepseek: Format::DeepSeek;
    mistral: Format::Mistral;
    cohere: Format::Cohere;
    ollama: Format::Ollama;
    ai_sdk: Format::AiSdk;
}

/// A result's tool name that a format leaves out is carried by the call it answers: a note.
/// A name the call does not give is a true loss.
#[test]
fn a_result_name_the_call_carries_is_a_note() {
    let mut x = read(&json!({
        "model": "gpt-4o",
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}
        ]
    }));
    let toolscope::model::Part::ToolResult(r) = &mut x.messages[2].parts[0] else {
        panic!("a result")
    };
    r.name = Some("get_weather".into());
    let at = |f: Format, x: &Exchange| {
        f.encode(x, Kind::Request)
            .losses
            .into_iter()
            .find(|l| l.pointer == "/messages/2/parts/0/name")
            .map(|l| l.kind)
    };
    for f in [
        Format::Anthropic,
        Format::Bedrock,
        Format::OpenAiChat,
        Format::Mcp,
    ] {
        assert_eq!(at(f, &x), Some(LossKind::Note), "{f:?}");
    }
    let toolscope::model::Part::ToolResult(r) = &mut x.messages[2].parts[0] else {
        panic!("a result")
    };
    r.name = Some("another_tool".into());
    assert_eq!(at(Format::Anthropic, &x), Some(LossKind::Dropped));
}
