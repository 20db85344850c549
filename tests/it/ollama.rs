//! Hard cases of Ollama's native `/api/chat`: no call ids (results pair by order and
//! `tool_name`), arguments as objects, string content, `options`, no tool_choice, the
//! response shape (`{model, created_at, message, done, done_reason, …}`), plus every hard case
//! of the protocol.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::dialects::Ollama;
use toolscope::formats::{Codec, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{assert_loss, assistant, call, error_result, has_loss, result, tool_msg, user};

format_kit!(Format::Ollama, "llama3.2");

fn weather_round() -> Exchange {
    exchange(vec![
        user("Weather in Tokyo, time in Oslo?"),
        assistant(vec![
            call(Some("c1"), "get_weather", json!({"city": "Tokyo"})),
            call(Some("c2"), "get_time", json!({"city": "Oslo"})),
        ]),
        tool_msg(vec![
            result(Some("c1"), "24 °C"),
            result(Some("c2"), "09:00"),
        ]),
    ])
}

#[test]
fn ollama_parallel_calls_pair_by_order_and_tool_name() {
    let (doc, losses) = encode(&weather_round(), Kind::Request);
    let m = &doc["messages"];
    assert_eq!(
        m[1],
        json!({"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}},
            {"function": {"name": "get_time", "arguments": {"city": "Oslo"}}}]})
    );
    assert_eq!(
        m[2],
        json!({"role": "tool", "content": "24 °C", "tool_name": "get_weather"})
    );
    assert_eq!(
        m[3],
        json!({"role": "tool", "content": "09:00", "tool_name": "get_time"})
    );
    // Ids dropped, names taken from the calls: all reported.
    assert_losses!(&losses; Dropped "/messages/1/parts/0/id", Dropped "/messages/1/parts/1/id");
    assert_losses!(&losses; Dropped "/messages/2/parts/0/call_id", Dropped "/messages/2/parts/1/call_id");
    assert_loss(&losses, LossKind::Note, "/messages/2/parts/1/name");
    let (back, _) = decode(&doc, Kind::Request);
    let r: Vec<_> = back.messages[2].tool_results().collect();
    assert_eq!(r[1].name.as_deref(), Some("get_time"));
    assert_eq!(r[1].call_id, None);
}

#[test]
fn ollama_results_without_ids_keep_their_names() {
    let mut r = ToolResult::new(None, ResultContent::Text("ok".into()));
    r.name = Some("f".into());
    let x = exchange(vec![
        user("go"),
        assistant(vec![call(None, "f", json!({}))]),
        tool_msg(vec![Part::ToolResult(r)]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(losses.is_empty(), "nothing to invent or drop: {losses:#?}");
    assert_eq!(doc["messages"][2]["tool_name"], "f");
}

#[test]
fn ollama_arguments_are_objects() {
    let mut broken = ToolCall::new(None, "f", Value::Null);
    broken.arguments_raw = Some("{\"a\": ".into());
    let list = ToolCall::new(None, "g", json!([1, 2]));
    let spaced = ToolCall::from_text(None, "h", "{ \"a\" : 1 }");
    let x = exchange(vec![
        user("go"),
        assistant(vec![
            Part::ToolCall(broken),
            Part::ToolCall(list),
            Part::ToolCall(spaced),
        ]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    let calls = &doc["messages"][1]["tool_calls"];
    assert_eq!(calls[0]["function"]["arguments"], json!({}));
    assert_losses!(&losses; Dropped "/messages/1/parts/0/arguments_raw");
    assert_losses!(&losses; Rewritten "/messages/1/parts/0/arguments");
    assert_eq!(calls[1]["function"]["arguments"], json!({}));
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/1/parts/1/arguments",
    );
    assert_eq!(calls[2]["function"]["arguments"], json!({"a": 1}));
    assert_loss(
        &losses,
        LossKind::Dropped,
        "/messages/1/parts/2/arguments_raw",
    );
    // Empty arguments: {} (text arguments from a non-native paste read too).
    let doc = json!({"model": "qwen3", "messages": [
        {"role": "user", "content": "time?"},
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "now", "arguments": {}}}]}]});
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(
        x.messages[1].tool_calls().next().unwrap().arguments,
        json!({})
    );
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn ollama_error_json_and_image_results_are_text() {
    let failed = error_result(Some("c1"), "boom");
    let json_result = ToolResult::new(Some("c2".into()), ResultContent::Json(json!({"t": 1})));
    let blocks = ToolResult::new(
        Some("c3".into()),
        ResultContent::Blocks(vec![
            Block::Text { text: "see".into() },
            Block::Image {
                media_type: "image/png".into(),
                data: "iVBORw0KGgo=".into(),
            },
        ]),
    );
    let x = exchange(common::calls_answered(
        "go",
        &[("c1", "f"), ("c2", "g"), ("c3", "h")],
        vec![failed, json_result, blocks],
    ));
    let (doc, losses) = encode(&x, Kind::Request);
    let m = &doc["messages"];
    assert_eq!(m[2]["content"], "Error: boom");
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/0");
    assert_eq!(m[3]["content"], "{\"t\":1}");
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/1/content");
    assert_eq!(m[4]["content"], "see");
    assert_loss(&losses, LossKind::Dropped, "/messages/2/parts/2/content");
}

#[test]
fn ollama_has_no_tool_choice_nor_parallel_setting() {
    for choice in common::every_choice("f") {
        let mut x = weather_round();
        x.tool_choice = Some(choice);
        x.parallel_tool_calls = Some(false);
        let (doc, losses) = encode(&x, Kind::Request);
        assert!(doc.get("tool_choice").is_none());
        assert!(doc.get("parallel_tool_calls").is_none());
        assert_losses!(&losses; Dropped "/tool_choice", Dropped "/parallel_tool_calls");
    }
    // A pasted tool_choice is kept for Ollama only, reported.
    let doc = json!({"model": "llama3.2", "messages": [{"role": "user", "content": "x"}], "tool_choice": "auto"});
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.tool_choice, None);
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice"));
}

#[test]
fn ollama_content_is_one_string() {
    let x = exchange(vec![
        Message::new(Role::User, vec![Part::text("a"), Part::text("b")]),
        assistant(vec![Part::text(""), call(Some("c1"), "f", json!({}))]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][0]["content"], "a\nb");
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/0/parts"));
    // Empty text next to calls: Ollama's "" reads back as no text.
    assert_eq!(doc["messages"][1]["content"], "");
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/1/parts/0"));
}

#[test]
fn ollama_sampling_options_go_in_options() {
    let mut x = weather_round();
    x.options.temperature = Some(0.2);
    x.options.top_p = Some(0.9);
    x.options.max_tokens = Some(256);
    x.options.stop = vec!["END".into()];
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(
        doc["options"],
        json!({"temperature": 0.2, "top_p": 0.9, "num_predict": 256, "stop": ["END"]})
    );
    for k in ["temperature", "top_p", "max_tokens", "stop"] {
        assert!(doc.get(k).is_none(), "{k}");
    }
}

#[test]
fn ollama_pasted_request_survives() {
    let (x, _) = survives(
        json!({
            "model": "qwen3",
            "messages": [
                {"role": "system", "content": "You are a weather bot."},
                {"role": "user", "content": "What is the temperature in New York?", "images": ["iVBORw0KGgoAAAANSUhEUg=="]},
                {"role": "assistant", "content": "", "thinking": "I should call the tool.",
                 "tool_calls": [{"function": {"name": "get_temperature", "arguments": {"city": "New York"}}}]},
                {"role": "tool", "content": "22°C", "tool_name": "get_temperature"}
            ],
            "tools": [{"type": "function", "function": {"name": "get_temperature",
                "description": "Get the current temperature for a city",
                "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "The name of the city"}}}}}],
            "stream": false,
            "think": true,
            "keep_alive": "5m",
            "format": "json",
            "options": {"temperature": 0.7, "num_ctx": 8192, "seed": 42, "num_predict": 128}
        }),
        Kind::Request,
    );
    assert_eq!(x.options.temperature, Some(0.7));
    assert_eq!(x.options.max_tokens, Some(128));
    assert_eq!(
        x.extra["ollama"]["options"],
        json!({"num_ctx": 8192, "seed": 42})
    );
    let r = x.messages[2].tool_results().next().unwrap();
    assert_eq!(r.name.as_deref(), Some("get_temperature"));
}

#[test]
fn ollama_pasted_response_survives() {
    let (x, _) = survives(
        json!({
            "model": "qwen3",
            "created_at": "2025-05-27T22:54:57.641643Z",
            "message": {"role": "assistant", "content": "", "thinking": "Need the tool.",
                "tool_calls": [{"function": {"name": "get_temperature", "arguments": {"city": "New York"}}}]},
            "done_reason": "stop",
            "done": true,
            "total_duration": 3249130291u64,
            "load_duration": 27452833,
            "prompt_eval_count": 156,
            "prompt_eval_duration": 112148542,
            "eval_count": 83,
            "eval_duration": 3108419375u64
        }),
        Kind::Response,
    );
    let m = &x.messages[0];
    // "stop" after tool calls is tool use.
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(m.usage, common::usage(156, 83));
    // `thinking` is the turn's reasoning, before its call.
    assert_eq!(m.parts.len(), 2);
    assert!(
        matches!(&m.parts[0], Part::Reasoning(r) if r.text.as_deref() == Some("Need the tool."))
    );
    let (x, _) = survives(
        json!({"model": "llama3.2", "created_at": "2025-05-27T22:55:00Z",
            "message": {"role": "assistant", "content": "It is 22°C."}, "done": true, "done_reason": "length"}),
        Kind::Response,
    );
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::MaxTokens));
}

#[test]
fn ollama_response_shape_and_reasons() {
    let mut msg = assistant(vec![call(Some("c1"), "f", json!({"a": 1}))]);
    msg.stop_reason = Some(StopReason::EndTurn);
    msg.usage = common::usage(3, 4);
    let (doc, losses) = encode(&exchange(vec![user("go"), msg]), Kind::Response);
    assert_eq!(doc["done"], true);
    assert_eq!(doc["done_reason"], "stop");
    assert_eq!(doc["created_at"], "1970-01-01T00:00:00Z");
    assert_eq!(doc["prompt_eval_count"], 3);
    assert_eq!(doc["eval_count"], 4);
    assert_eq!(doc["message"]["content"], "");
    // End of turn with calls reads back as tool use: reported.
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
    let mut m = assistant(vec![Part::text("x")]);
    m.stop_reason = Some(StopReason::StopSequence);
    let (doc, losses) = encode(&exchange(vec![m]), Kind::Response);
    assert_eq!(doc["done_reason"], "stop");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
}

#[test]
fn ollama_decode_errors_point_at_the_spot() {
    let text = "{\"model\": \"llama3.2\",\n \"done\": true,\n \"message\": {\"role\": \"assistant\",\n  \"content\": 5}}";
    common::assert_error_at(F, text, Kind::Response, "/message/content", 4);
    let e = F
        .decode("{\"model\": \"llama3.2\", \"done\": true}", Kind::Response)
        .unwrap_err();
    assert_eq!(e.pointer.as_deref(), Some(""));
    let text = "{\"model\": \"llama3.2\",\n \"messages\": [\n  {\"role\": \"tool\", \"content\": \"x\", \"tool_name\": \"f\"}]}";
    common::assert_error_at(F, text, Kind::Request, "/messages/0", 3);
}

#[test]
fn ollama_detects_its_documents() {
    let args = json!({"model": "x", "messages": [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]}]});
    let tool_name =
        json!({"model": "x", "messages": [{"role": "tool", "content": "1", "tool_name": "f"}]});
    let options = json!({"model": "x", "messages": [{"role": "user", "content": "hi"}], "options": {"temperature": 0.1}});
    let response =
        json!({"model": "x", "message": {"role": "assistant", "content": "hi"}, "done": true});
    for doc in [&args, &tool_name, &options] {
        assert_eq!(Ollama::sniff(doc), Some((Kind::Request, 97)));
        assert_eq!(Format::detect(&doc.to_string()), Ok((F, Kind::Request)));
    }
    assert_eq!(Ollama::sniff(&response), Some((Kind::Response, 97)));
    assert_eq!(
        Format::detect(&response.to_string()),
        Ok((F, Kind::Response))
    );
    let plain = json!({"model": "gpt-4.1", "messages": [{"role": "system", "content": "x"}]});
    assert_eq!(Ollama::sniff(&plain), None);
    let enc = F.encode(&weather_round(), Kind::Request);
    assert_eq!(Format::detect(&enc.text), Ok((F, Kind::Request)));
}

/// Found by the round-trip property: a kept field the wire type declares with another type
/// (`"id": false` on a call) made the whole document unreadable. It is dropped, and reported.
#[test]
fn ollama_kept_field_that_would_not_read_back_is_dropped() {
    let mut c = ToolCall::new(None, "get_weather", json!({}));
    c.extra.insert(
        "ollama".into(),
        serde_json::Map::from_iter([("id".to_string(), json!(false))]),
    );
    let x = exchange(vec![user("hi"), assistant(vec![Part::ToolCall(c)])]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(
        doc["messages"][1]["tool_calls"][0].get("id").is_none(),
        "{doc:#}"
    );
    assert!(
        losses.iter().any(|l| l.what.contains("kept field id")),
        "{losses:#?}"
    );
}

#[test]
fn ollama_conforms() {
    let d = common::dialect::Dialect {
        format: F,
        model: "llama3.2",
        id: "c1",
    };
    common::dialect::conforms(&d).unwrap_or_else(|e| panic!("{e}"));
}
