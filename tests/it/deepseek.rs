//! Hard cases of the DeepSeek dialect (Chat Completions as DeepSeek serves it):
//! `reasoning_content`, no `parallel_tool_calls`, `strict` only on the beta endpoint, its
//! tool_choice values, plus every hard case of the protocol (parallel results, ids, arguments,
//! errors, empty text, pasted documents, decode errors, detection).

use serde_json::{json, Value};
use toolscope::formats::openai_chat::dialects::DeepSeek;
use toolscope::formats::{Codec, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::dialect::{self, Dialect};
use common::{assert_loss, assistant, call, has_loss, tool_msg, user};

format_kit!(Format::DeepSeek, "deepseek-chat");

const D: Dialect = Dialect {
    format: F,
    model: "deepseek-chat",
    id: "c1",
};

#[test]
fn deepseek_conforms() {
    dialect::conforms(&D).unwrap_or_else(|e| panic!("{e}"));
}

fn weather_round() -> Exchange {
    exchange(common::weather_round("call_0_a", "call_1_b"))
}

#[test]
fn deepseek_parallel_results_are_one_tool_message_each_in_order() {
    common::assert_chat_results_in_order(F, &weather_round(), "call_0_a", "call_1_b");
}

#[test]
fn deepseek_missing_ids_are_assigned_and_results_paired() {
    let mut r = ToolResult::new(None, ResultContent::Text("sunny".into()));
    r.name = Some("weather".into());
    let x = exchange(vec![
        user("weather?"),
        assistant(vec![call(None, "weather", json!({}))]),
        tool_msg(vec![Part::ToolResult(r)]),
    ]);
    let (doc, losses) = dialect::missing_ids_are_assigned_and_paired(&D, &x);
    assert_eq!(doc["messages"][1]["tool_calls"][0]["id"], "call_1");
    assert_eq!(doc["messages"][2]["tool_call_id"], "call_1");
    assert_losses!(&losses; Dropped "/messages/2/parts/0/name");
}

#[test]
fn deepseek_invalid_and_empty_arguments() {
    let losses = dialect::invalid_arguments_are_sent_as_written(&D, "{\"city\": \"Par");
    assert!(losses.is_empty(), "{losses:#?}");
    dialect::empty_arguments_read_as_an_empty_object(
        &D,
        json!({"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "now", "arguments": ""}}]}),
    );
}

#[test]
fn deepseek_error_results_fold_into_text() {
    dialect::error_results_fold_into_text(&D, "no city");
}

#[test]
fn deepseek_every_tool_choice() {
    let base = || {
        let mut x = exchange(vec![user("go")]);
        x.tools = vec![common::bare_tool("a"); 2];
        x.tools[1].name = "b".into();
        x
    };
    for (choice, wire) in [
        (ToolChoice::mode(ChoiceMode::Auto), json!("auto")),
        (ToolChoice::mode(ChoiceMode::None), json!("none")),
        (ToolChoice::mode(ChoiceMode::Required), json!("required")),
        (
            ToolChoice::force("a"),
            json!({"type": "function", "function": {"name": "a"}}),
        ),
    ] {
        let mut x = base();
        x.tool_choice = Some(choice);
        let (doc, losses) = encode(&x, Kind::Request);
        assert_eq!(doc["tool_choice"], wire);
        assert!(losses.is_empty(), "{losses:#?}");
    }
    // No allowed_tools: a restriction to several tools is reported.
    let mut x = base();
    x.tool_choice = Some(ToolChoice {
        mode: ChoiceMode::Required,
        tools: vec!["a".into(), "b".into()],
    });
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["tool_choice"], "required");
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice/tools"));
    // Validated has no word.
    let mut x = base();
    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Validated));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["tool_choice"], "auto");
    assert!(has_loss(&losses, LossKind::Rewritten, "/tool_choice/mode"));
    // A pasted allowed_tools form is not DeepSeek's: kept as it was, reported.
    let doc = json!({"model": "deepseek-chat", "messages": [{"role": "user", "content": "x"}],
        "tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}});
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.tool_choice, None);
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice"));
}

#[test]
fn deepseek_parallel_tool_calls_and_strict_are_reported() {
    let mut x = weather_round();
    x.parallel_tool_calls = Some(false);
    x.tools = vec![Tool {
        name: "get_weather".into(),
        description: None,
        input_schema: json!({"type": "object", "properties": {}, "additionalProperties": false}),
        strict: Some(true),
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Extra::new(),
    }];
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(doc.get("parallel_tool_calls").is_none());
    assert!(has_loss(&losses, LossKind::Dropped, "/parallel_tool_calls"));
    // Kept (right for the beta endpoint), with a note.
    assert_eq!(doc["tools"][0]["function"]["strict"], true);
    assert!(has_loss(&losses, LossKind::Rewritten, "/tools/0/strict"));
    assert_eq!(doc["max_tokens"], Value::Null);
}

#[test]
fn deepseek_empty_text_next_to_tool_calls() {
    let x = exchange(common::empty_text_then_call("c1"));
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][1]["content"], "");
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages[1].parts.len(), 2);
}

#[test]
fn deepseek_pasted_request_with_reasoning_survives() {
    // Thinking mode with tool calls: the reasoning of the turn with calls is sent back.
    let (x, _) = survives(
        json!({
            "model": "deepseek-reasoner",
            "messages": [
                {"role": "system", "content": "You are a helpful assistant"},
                {"role": "user", "content": "How's the weather in Hangzhou tomorrow?"},
                {"role": "assistant", "content": "", "reasoning_content": "The user wants tomorrow's weather; I need the date first.",
                 "tool_calls": [{"id": "call_00_mVZ7gNW0", "type": "function", "index": 0,
                   "function": {"name": "get_date", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "call_00_mVZ7gNW0", "content": "2025-12-01"}
            ],
            "tools": [{"type": "function", "function": {"name": "get_date", "description": "Get the current date",
                "parameters": {"type": "object", "properties": {}}}}],
            "thinking": {"type": "enabled"},
            "max_tokens": 4096,
            "stream": false,
            "frequency_penalty": 0,
            "response_format": {"type": "text"}
        }),
        Kind::Request,
    );
    assert_eq!(x.options.max_tokens, Some(4096));
    // reasoning_content is the turn's reasoning, first.
    assert!(matches!(&x.messages[1].parts[0], Part::Reasoning(r)
        if r.text.as_deref() == Some("The user wants tomorrow's weather; I need the date first.")));
}

#[test]
fn deepseek_pasted_response_survives() {
    let (x, _) = survives(
        json!({
            "id": "930c60df-bf64-41c9-a88e-3ec75f81e00e",
            "object": "chat.completion",
            "created": 1705651092,
            "model": "deepseek-reasoner",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": null,
                    "reasoning_content": "I should look up the weather.",
                    "tool_calls": [{"index": 0, "id": "call_0_8b6c", "type": "function",
                        "function": {"name": "get_weather", "arguments": "{\"location\":\"Hangzhou\"}"}}]
                },
                "logprobs": null,
                "finish_reason": "tool_calls"
            }],
            "usage": {
                "prompt_tokens": 16, "completion_tokens": 10, "total_tokens": 26,
                "prompt_tokens_details": {"cached_tokens": 0},
                "prompt_cache_hit_tokens": 0, "prompt_cache_miss_tokens": 16,
                "completion_tokens_details": {"reasoning_tokens": 7}
            },
            "system_fingerprint": "fp_a1b2c3d4e5_prod0820_fp8_kvcache"
        }),
        Kind::Response,
    );
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::ToolUse));
    assert!(matches!(&x.messages[0].parts[0], Part::Reasoning(r)
        if r.text.as_deref() == Some("I should look up the weather.")));
}

#[test]
fn deepseek_response_has_no_refusal_and_derives_finish_reason() {
    let x = exchange(vec![user("hi"), assistant(vec![Part::text("hello")])]);
    let (doc, losses) = encode(&x, Kind::Response);
    let c = &doc["choices"][0];
    assert!(c["message"].get("refusal").is_none());
    assert_eq!(c["logprobs"], Value::Null);
    assert_eq!(c["finish_reason"], "stop");
    assert_loss(&losses, LossKind::Added, "/messages/0/stop_reason");
    let mut msg = assistant(vec![Part::text("busy")]);
    msg.stop_reason = Some(StopReason::Other("insufficient_system_resource".into()));
    let (doc, losses) = encode(&exchange(vec![msg]), Kind::Response);
    assert_eq!(
        doc["choices"][0]["finish_reason"],
        "insufficient_system_resource"
    );
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn deepseek_decode_errors_point_at_the_spot() {
    let text = "{\"model\": \"deepseek-chat\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"42\"}]}";
    common::assert_error_at(F, text, Kind::Request, "/messages/1", 4);
    let text =
        "{\"model\": \"deepseek-chat\",\n \"messages\": [{\"role\": \"bot\", \"content\": \"x\"}]}";
    common::assert_error_at(F, text, Kind::Request, "/messages/0/role", 2);
}

#[test]
fn deepseek_detects_its_documents() {
    let by_model =
        json!({"model": "deepseek-chat", "messages": [{"role": "user", "content": "hi"}]});
    let by_reasoning = json!({"model": "x", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "a", "reasoning_content": "r"}]});
    let response = json!({"id": "1", "model": "deepseek-reasoner", "choices": []});
    let plain = json!({"model": "gpt-4.1", "messages": [{"role": "system", "content": "x"}]});
    assert_eq!(DeepSeek::sniff(&by_model), Some((Kind::Request, 97)));
    assert_eq!(DeepSeek::sniff(&by_reasoning), Some((Kind::Request, 97)));
    assert_eq!(DeepSeek::sniff(&response), Some((Kind::Response, 97)));
    assert_eq!(DeepSeek::sniff(&plain), None);
    assert_eq!(
        Format::detect(&by_model.to_string()),
        Ok((F, Kind::Request))
    );
    assert_eq!(
        Format::detect(&response.to_string()),
        Ok((F, Kind::Response))
    );
    assert_eq!(
        Format::detect(&plain.to_string()),
        Ok((Format::OpenAiChat, Kind::Request))
    );
    let enc = F.encode(&weather_round(), Kind::Request);
    assert_eq!(Format::detect(&enc.text), Ok((F, Kind::Request)));
}
