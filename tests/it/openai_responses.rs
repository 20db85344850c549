//! Hard cases of the OpenAI Responses format: pairing by `call_id`, id rules, arguments, error
//! results, every tool_choice, pasted documents from the API surviving a round trip, decode
//! errors that point at the spot, detection.

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::{
    Block, ChoiceMode, Exchange, Loss, LossKind, Message, Part, ResultContent, Role, StopReason,
    ToolCall, ToolChoice,
};

use crate::common;

use common::{assert_loss, assistant};

use common::has_loss;

const F: Format = Format::OpenAiResponses;

fn exchange(v: Value) -> Exchange {
    serde_json::from_value(v).expect("canonical exchange")
}

fn encode(x: &Exchange, kind: Kind) -> (Value, Vec<Loss>) {
    common::encode_doc(F, x, kind)
}

fn decode(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    common::decode_doc(F, doc, kind)
}

/// decode(encode(x)) differs from x only under the reported losses.
fn assert_round_trip(x: &Exchange, kind: Kind) -> Vec<Loss> {
    common::checked_trip(F, x, kind).all
}

/// A pasted document decodes and re-encodes to the same JSON value.
fn assert_paste_survives(doc: &Value, kind: Kind) -> Exchange {
    let text = serde_json::to_string_pretty(doc).expect("text");
    assert_eq!(Format::detect(&text).expect("detect"), (F, kind));
    let (x, _) = decode(doc, kind);
    let (again, _) = encode(&x, kind);
    assert_eq!(&again, doc, "re-encoded:\n{again:#}");
    x
}

fn weather_calls() -> Exchange {
    exchange(json!({
        "tools": [{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
        "messages": [
            {"role": "user", "parts": [{"type": "text", "text": "Tokyo and Oslo?"}]},
            {"role": "assistant", "parts": [
                {"type": "text", "text": ""},
                {"type": "tool_call", "id": "call_a", "name": "get_weather", "arguments": {"city": "Tokyo"}},
                {"type": "tool_call", "id": "call_b", "name": "get_weather", "arguments": {"city": "Oslo"}}
            ]},
            {"role": "tool", "parts": [
                {"type": "tool_result", "call_id": "call_b", "content": {"text": "-3 °C"}},
                {"type": "tool_result", "call_id": "call_a", "content": {"text": "24 °C"}}
            ]}
        ]
    }))
}

#[test]
fn openai_responses_parallel_calls_are_flat_items_in_order() {
    let x = weather_calls();
    let (doc, losses) = encode(&x, Kind::Request);
    let input = doc["input"].as_array().expect("input items");
    let kinds: Vec<&str> = input
        .iter()
        .map(|i| i["type"].as_str().unwrap_or("easy message"))
        .collect();
    assert_eq!(
        kinds,
        [
            "easy message",
            "easy message",
            "function_call",
            "function_call",
            "function_call_output",
            "function_call_output"
        ]
    );
    // Results keep their own order and pair by call_id, not by position.
    assert_eq!(input[4]["call_id"], "call_b");
    assert_eq!(input[5]["call_id"], "call_a");
    assert_eq!(input[2]["arguments"], "{\"city\":\"Tokyo\"}");
    assert!(
        input[2].get("id").is_none(),
        "no invented item id in requests"
    );
    assert!(losses.is_empty(), "{losses:?}");
    assert!(assert_round_trip(&x, Kind::Request).is_empty());
}

#[test]
fn openai_responses_empty_text_next_to_calls_survives() {
    let x = weather_calls();
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(doc["input"][1], json!({"role": "assistant", "content": ""}));
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages[1].parts[0], Part::text(""));

    let mut r = x.clone();
    r.messages.truncate(2);
    r.messages[1].stop_reason = Some(StopReason::ToolUse);
    let (doc, losses) = encode(&r, Kind::Response);
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(doc["output"][0]["content"][0]["text"], "");
    assert_eq!(doc["output"][1]["id"], "fc_call_a");
    assert_round_trip(&r, Kind::Response);
}

#[test]
fn openai_responses_long_call_ids_are_rewritten_in_pairs() {
    let long = "x".repeat(80);
    let x = exchange(json!({
        "messages": [
            {"role": "user", "parts": [{"type": "text", "text": "go"}]},
            {"role": "assistant", "parts": [{"type": "tool_call", "id": long, "name": "f", "arguments": {}}]},
            {"role": "tool", "parts": [{"type": "tool_result", "call_id": long, "content": {"text": "ok"}}]}
        ]
    }));
    let (doc, losses) = encode(&x, Kind::Request);
    let call = doc["input"][1]["call_id"].as_str().expect("call_id");
    assert_eq!(call.chars().count(), 64);
    assert_eq!(doc["input"][2]["call_id"], call);
    assert_losses!(&losses; Rewritten "/messages/1/parts/0/id", Rewritten "/messages/2/parts/0/call_id");
    // Ids the rule accepts (any characters, up to 64) are left alone.
    let odd = exchange(json!({"messages": [
        {"role": "assistant", "parts": [{"type": "tool_call", "id": "functions.get_weather:0", "name": "f", "arguments": {}}]}
    ]}));
    let (doc, losses) = encode(&odd, Kind::Request);
    assert_eq!(doc["input"][0]["call_id"], "functions.get_weather:0");
    assert!(losses.is_empty());
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_item_ids_are_not_call_ids() {
    let x = exchange(json!({"messages": [
        {"role": "assistant", "parts": [
            {"type": "tool_call", "id": "call_1", "name": "f", "arguments": {},
             "extra": {"openai-responses": {"id": "fc_abc", "status": "completed"}}},
            {"type": "tool_call", "id": "call_2", "name": "g", "arguments": {},
             "extra": {"openai-responses": {"id": "call_2"}}}
        ]}
    ]}));
    let (doc, losses) = encode(&x, Kind::Request);
    let items = &doc["input"];
    assert_eq!(items[0]["id"], "fc_abc");
    assert_eq!(items[0]["call_id"], "call_1");
    assert_eq!(items[0]["status"], "completed");
    // The API rejects item ids that do not begin with "fc".
    assert!(items[1].get("id").is_none());
    assert_loss(&losses, LossKind::Dropped, "/messages/0/parts/1/extra");
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_missing_ids_are_assigned_and_paired() {
    let x = exchange(json!({"messages": [
        {"role": "user", "parts": [{"type": "text", "text": "time and weather"}]},
        {"role": "assistant", "parts": [
            {"type": "tool_call", "name": "weather", "arguments": {}},
            {"type": "tool_call", "name": "time", "arguments": {}}
        ]},
        {"role": "tool", "parts": [
            {"type": "tool_result", "name": "time", "content": {"text": "12:00"}},
            {"type": "tool_result", "name": "weather", "content": {"text": "sun"}}
        ]}
    ]}));
    let (doc, losses) = encode(&x, Kind::Request);
    let input = &doc["input"];
    assert_eq!(input[1]["call_id"], "call_1");
    assert_eq!(input[2]["call_id"], "call_2");
    assert_eq!(input[3]["call_id"], "call_2");
    assert_eq!(input[3]["name"], "time");
    assert_eq!(input[4]["call_id"], "call_1");
    let added = losses.iter().filter(|l| l.kind == LossKind::Added).count();
    assert_eq!(added, 4, "{losses:?}");
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_invalid_arguments_are_sent_verbatim() {
    let mut call = ToolCall::from_text(Some("call_1".into()), "f", "{\"location\": \"Par");
    assert!(call.arguments_invalid());
    call.extra.clear();
    let x = Exchange {
        messages: vec![assistant(vec![Part::ToolCall(call)])],
        ..Exchange::default()
    };
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["input"][0]["arguments"], "{\"location\": \"Par");
    assert!(losses.is_empty());
    let (back, _) = decode(&doc, Kind::Request);
    let Part::ToolCall(c) = &back.messages[0].parts[0] else {
        panic!("call")
    };
    assert!(c.arguments.is_null());
    assert_eq!(c.arguments_raw.as_deref(), Some("{\"location\": \"Par"));
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_empty_arguments_read_as_empty_object() {
    let doc = json!({"input": [
        {"type": "function_call", "call_id": "call_1", "name": "now", "arguments": ""},
        {"type": "function_call", "call_id": "call_2", "name": "now", "arguments": "  "}
    ]});
    let (x, losses) = decode(&doc, Kind::Request);
    let calls: Vec<_> = x.messages[0].tool_calls().collect();
    assert_eq!(calls[0].arguments, json!({}));
    assert_eq!(calls[1].arguments, json!({}));
    assert!(calls[0].arguments_raw.is_none());
    assert_losses!(&losses; Rewritten "/messages/0/parts/0/arguments");
    assert_losses!(&losses; Rewritten "/messages/0/parts/1/arguments");
    let (again, _) = encode(&x, Kind::Request);
    assert_eq!(again["input"][0]["arguments"], "{}");
    // Same in a response.
    let resp = json!({"object": "response", "output": [
        {"type": "function_call", "call_id": "call_1", "name": "now", "arguments": ""}
    ]});
    let (x, losses) = decode(&resp, Kind::Response);
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/0/parts/0/arguments",
    );
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::ToolUse));
}

#[test]
fn openai_responses_error_results_fold_into_the_output() {
    let x = exchange(json!({"messages": [
        {"role": "assistant", "parts": [
            {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}},
            {"type": "tool_call", "id": "c2", "name": "f", "arguments": {}},
            {"type": "tool_call", "id": "c3", "name": "f", "arguments": {}}
        ]},
        {"role": "tool", "parts": [
            {"type": "tool_result", "call_id": "c1", "content": {"text": "no such city"}, "is_error": true},
            {"type": "tool_result", "call_id": "c2", "content": {"json": {"code": 404}}, "is_error": true},
            {"type": "tool_result", "call_id": "c3", "content": {"blocks": [
                {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgo="}
            ]}, "is_error": true}
        ]}
    ]}));
    let (doc, losses) = encode(&x, Kind::Request);
    let input = &doc["input"];
    assert_eq!(input[3]["output"], "Error: no such city");
    assert_eq!(input[4]["output"], "Error: {\"code\":404}");
    assert_eq!(
        input[5]["output"],
        json!([
            {"type": "input_text", "text": "Error"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}
        ])
    );
    for j in 0..3 {
        assert!(has_loss(
            &losses,
            LossKind::Rewritten,
            &format!("/messages/1/parts/{j}")
        ));
    }
    assert_loss(&losses, LossKind::Rewritten, "/messages/1/parts/1/content");
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_result_blocks_become_content_parts() {
    let x = exchange(json!({"messages": [
        {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "shot", "arguments": {}}]},
        {"role": "tool", "parts": [{"type": "tool_result", "call_id": "c1", "content": {"blocks": [
            {"type": "text", "text": "the page"},
            {"type": "image", "media_type": "image/jpeg", "data": "/9j/4AAQ"},
            {"type": "raw", "format": "anthropic", "value": {"type": "document"}}
        ]}}]}
    ]}));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(
        doc["input"][1]["output"],
        json!([
            {"type": "input_text", "text": "the page"},
            {"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/4AAQ"}
        ])
    );
    assert_loss(&losses, LossKind::Dropped, "/messages/1/parts/0/content");
    let (back, _) = decode(&doc, Kind::Request);
    let r = back.messages[1].tool_results().next().expect("result");
    assert_eq!(
        r.content,
        ResultContent::Blocks(vec![
            Block::Text {
                text: "the page".into()
            },
            Block::Image {
                media_type: "image/jpeg".into(),
                data: "/9j/4AAQ".into()
            }
        ])
    );
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_every_tool_choice() {
    let base = |tc: Option<ToolChoice>| Exchange {
        tool_choice: tc,
        ..Exchange::default()
    };
    type Case = (ToolChoice, Value, Option<(LossKind, &'static str)>);
    let cases: Vec<Case> = vec![
        (ToolChoice::mode(ChoiceMode::Auto), json!("auto"), None),
        (ToolChoice::mode(ChoiceMode::None), json!("none"), None),
        (
            ToolChoice::mode(ChoiceMode::Required),
            json!("required"),
            None,
        ),
        (
            ToolChoice::force("get_weather"),
            json!({"type": "function", "name": "get_weather"}),
            None,
        ),
        (
            ToolChoice {
                mode: ChoiceMode::Required,
                tools: vec!["a".into(), "b".into()],
            },
            json!({"type": "allowed_tools", "mode": "required", "tools": [
                {"type": "function", "name": "a"}, {"type": "function", "name": "b"}
            ]}),
            None,
        ),
        (
            ToolChoice {
                mode: ChoiceMode::Auto,
                tools: vec!["a".into()],
            },
            json!({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}]}),
            None,
        ),
        (
            ToolChoice::mode(ChoiceMode::Validated),
            json!("auto"),
            Some((LossKind::Rewritten, "/tool_choice/mode")),
        ),
        (
            ToolChoice {
                mode: ChoiceMode::None,
                tools: vec!["a".into()],
            },
            json!("none"),
            Some((LossKind::Dropped, "/tool_choice/tools")),
        ),
    ];
    for (tc, wire, loss) in cases {
        let x = base(Some(tc.clone()));
        let (doc, losses) = encode(&x, Kind::Request);
        assert_eq!(doc["tool_choice"], wire, "{tc:?}");
        match loss {
            Some((kind, ptr)) => assert!(has_loss(&losses, kind, ptr), "{tc:?}: {losses:?}"),
            None => {
                assert!(losses.is_empty(), "{tc:?}: {losses:?}");
                let (back, _) = decode(&doc, Kind::Request);
                assert_eq!(back.tool_choice, Some(tc));
            }
        }
        assert_round_trip(&x, Kind::Request);
    }
    // Absent: provider default.
    let (doc, _) = encode(&base(None), Kind::Request);
    assert!(doc.get("tool_choice").is_none());
    // allowed_tools with one required tool and built-in choices come back as written.
    for tc in [
        json!({"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "a"}]}),
        json!({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}, {"type": "mcp", "server_label": "deepwiki"}]}),
        json!({"type": "web_search_preview"}),
        json!({"type": "mcp", "server_label": "deepwiki", "name": "ask"}),
    ] {
        let doc = json!({"model": "gpt-4.1", "input": "hi", "tool_choice": tc});
        assert_paste_survives(&doc, Kind::Request);
    }
}

#[test]
fn openai_responses_pasted_request_survives() {
    // Shaped like the function-calling guide's second request with reasoning items replayed.
    let doc = json!({
        "model": "o4-mini",
        "instructions": "You are a helpful weather assistant.",
        "input": [
            {"role": "user", "content": "What's the weather like in Paris today?"},
            {
                "type": "reasoning",
                "id": "rs_6806bfca0b2481918a5748308061a2600d3ce51bdffd5476",
                "summary": [],
                "encrypted_content": "gAAAAABoBr_KZ2xF"
            },
            {
                "type": "function_call",
                "id": "fc_6806bfcb3aac8191b4f5a4e95a0a4ecd0d3ce51bdffd5476",
                "call_id": "call_ZCYhFsTPkS6Mwh2UzwQzfW2D",
                "name": "get_weather",
                "arguments": "{\"latitude\":48.8566,\"longitude\":2.3522}",
                "status": "completed"
            },
            {
                "type": "function_call_output",
                "call_id": "call_ZCYhFsTPkS6Mwh2UzwQzfW2D",
                "output": "{\"temperature\": 14.2}"
            }
        ],
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": "Get current temperature for provided coordinates in celsius.",
                "parameters": {
                    "type": "object",
                    "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}},
                    "required": ["latitude", "longitude"],
                    "additionalProperties": false
                },
                "strict": true
            },
            {"type": "web_search_preview", "search_context_size": "low"}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "store": false,
        "include": ["reasoning.encrypted_content"],
        "reasoning": {"effort": "medium"},
        "text": {"format": {"type": "text"}},
        "temperature": 1.0,
        "top_p": 1,
        "max_output_tokens": 2048,
        "metadata": {"session": "abc"},
        "previous_response_id": null,
        "x_future_field": {"anything": [1, 2]}
    });
    let x = assert_paste_survives(&doc, Kind::Request);
    assert_eq!(
        x.system.as_deref(),
        Some("You are a helpful weather assistant.")
    );
    assert_eq!(x.tools.len(), 2);
    assert_eq!(
        x.tools[1].hosted.as_ref().map(|h| h.kind.as_str()),
        Some("web_search")
    );
    assert_eq!(x.options.temperature, Some(1.0));
    assert_eq!(x.options.reasoning.effort.as_deref(), Some("medium"));
    assert_eq!(x.options.reasoning.include_encrypted, Some(true));
    let assistant = &x.messages[1];
    assert_eq!(assistant.role, Role::Assistant);
    assert!(
        matches!(&assistant.parts[0], Part::Reasoning(r) if r.opaque.as_ref().is_some_and(|o| o.provider == "openai"))
    );
    let call = assistant.tool_calls().next().expect("call");
    assert_eq!(call.id.as_deref(), Some("call_ZCYhFsTPkS6Mwh2UzwQzfW2D"));
    assert_eq!(
        call.extra["openai-responses"]["id"],
        "fc_6806bfcb3aac8191b4f5a4e95a0a4ecd0d3ce51bdffd5476"
    );
    assert_eq!(x.messages[2].role, Role::Tool);
    let extra = &x.extra["openai-responses"];
    assert_eq!(extra["store"], false);
    assert_eq!(extra["x_future_field"], json!({"anything": [1, 2]}));
}

#[test]
fn openai_responses_pasted_request_forms_survive() {
    // Every spelling the API accepts that the model does not need: developer message instead of
    // instructions, typed and easy messages, array content, output items replayed as input,
    // mid-conversation developer message, rich function_call_output, tools without strict.
    let doc = json!({
        "model": "gpt-4.1",
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Be brief."}]},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "What is in this image?"},
                {"type": "input_image", "image_url": "https://example.com/cat.png", "detail": "low"}
            ]},
            {"role": "user", "content": [{"type": "input_text", "text": "And be kind."}]},
            {
                "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e6",
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "phase": "final_answer",
                "content": [
                    {"type": "output_text", "text": "A cat.", "annotations": [
                        {"type": "url_citation", "start_index": 2, "end_index": 5, "url": "https://example.com", "title": "Cats"}
                    ], "logprobs": []},
                    {"type": "output_text", "text": "A kind one.", "annotations": []}
                ]
            },
            {"role": "assistant", "content": "Anything else?"},
            {"role": "developer", "content": "Now use tools."},
            {"type": "item_reference", "id": "rs_123"},
            {"type": "function_call", "call_id": "call_9", "name": "ping", "arguments": "{ \"host\" : \"a\" }"},
            {"type": "function_call_output", "id": "fco_1", "call_id": "call_9", "status": "completed", "output": [
                {"type": "input_text", "text": "pong"},
                {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "high"},
                {"type": "input_file", "file_id": "file-123"}
            ]},
            {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}], "type": "message", "id": "msg_2", "status": "completed"}
        ],
        "tools": [{"type": "function", "name": "ping", "parameters": {"type": "object", "properties": {"host": {"type": "string"}}}}],
        "tool_choice": {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "ping"}]},
        "top_p": 0.9,
        "temperature": null
    });
    let x = assert_paste_survives(&doc, Kind::Request);
    assert_eq!(x.system.as_deref(), Some("Be brief."));
    assert_eq!(x.tool_choice, Some(ToolChoice::force("ping")));
    let roles: Vec<Role> = x.messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [
            Role::User,
            Role::User,
            Role::Assistant,
            Role::User,
            Role::Assistant,
            Role::Tool,
            Role::Assistant
        ]
    );
    // The assistant output item and the easy item after it are one turn of three texts.
    let texts: Vec<&Part> = x.messages[2].parts.iter().collect();
    assert_eq!(texts.len(), 3);
    // The developer message mid-conversation reads as a user turn, with a loss.
    let (_, losses) = decode(&doc, Kind::Request);
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/3/role"));
    // Whitespace-spelled arguments are parsed and kept verbatim.
    let call = x.messages[4].tool_calls().next().expect("call");
    assert_eq!(call.arguments, json!({"host": "a"}));
}

#[test]
fn openai_responses_string_input_round_trips() {
    let doc = json!({"model": "gpt-4.1", "input": "Tell me a three sentence bedtime story about a unicorn.", "temperature": 0.7});
    let x = assert_paste_survives(&doc, Kind::Request);
    assert_eq!(x.messages.len(), 1);
    assert_eq!(x.messages[0].role, Role::User);
    // From another format, one user text is an item list, not a string.
    let plain = exchange(
        json!({"messages": [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}]}),
    );
    let (doc, _) = encode(&plain, Kind::Request);
    assert_eq!(doc["input"], json!([{"role": "user", "content": "hi"}]));
    // Adding a turn to a string input turns it into items, with a loss for the form.
    let mut more = x.clone();
    more.messages.push(assistant(vec![Part::text("Once…")]));
    let (doc, losses) = encode(&more, Kind::Request);
    assert!(doc["input"].is_array());
    assert!(has_loss(&losses, LossKind::Rewritten, "/extra"));
    assert_round_trip(&more, Kind::Request);
}

#[test]
fn openai_responses_system_prompt_is_instructions() {
    let x = exchange(
        json!({"system": "Be brief.", "messages": [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}]}),
    );
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["instructions"], "Be brief.");
    assert_eq!(doc["input"].as_array().map(Vec::len), Some(1));
    assert!(losses.is_empty());
    // A leading developer message is the system prompt and comes back as a message.
    let doc = json!({"input": [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": "hi"}
    ]});
    let x = assert_paste_survives(&doc, Kind::Request);
    assert_eq!(x.system.as_deref(), Some("Be brief."));
    assert_eq!(x.messages.len(), 1);
    // With instructions present, a leading system message is a (rewritten) user turn.
    let doc = json!({"instructions": "A", "input": [{"role": "system", "content": "B"}]});
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.system.as_deref(), Some("A"));
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/0/role"));
    assert_paste_survives(&doc, Kind::Request);
}

#[test]
fn openai_responses_adjacent_assistant_turns_are_reported() {
    let x = exchange(json!({"messages": [
        {"role": "user", "parts": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "parts": [{"type": "text", "text": "one"}]},
        {"role": "assistant", "parts": [{"type": "text", "text": "two"}]}
    ]}));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["input"].as_array().map(Vec::len), Some(3));
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages"));
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages.len(), 2);
    assert_eq!(back.messages[1].parts.len(), 2);
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_unsupported_parts_and_options_are_reported() {
    let x = exchange(json!({
        "options": {"stop": ["END"]},
        "tools": [{"name": "f", "annotations": {"readOnlyHint": true}, "extra": {"gemini": {"x": 1}}}],
        "messages": [
            {"role": "user", "parts": [
                {"type": "raw", "format": "anthropic", "value": {"type": "image"}},
                {"type": "text", "text": "look"}
            ]},
            {"role": "assistant", "parts": [
                {"type": "raw", "format": "gemini", "value": {"thought": true}},
                {"type": "text", "text": "ok"}
            ], "stop_reason": "end_turn"}
        ]
    }));
    let (_, losses) = encode(&x, Kind::Request);
    assert_losses!(&losses; Dropped "/options/stop", Dropped "/tools/0/annotations");
    assert_losses!(&losses; Dropped "/tools/0/extra/gemini", Dropped "/messages/0/parts");
    assert_losses!(&losses; Dropped "/messages/1/parts");
    // A past turn's stop reason is response data, outside the request view: not a loss.
    assert!(!losses
        .iter()
        .any(|l| l.pointer == "/messages/1/stop_reason"));
}

#[test]
fn openai_responses_tools_are_flat_with_strict() {
    let x = exchange(json!({"tools": [
        {"name": "a", "description": "A", "input_schema": {"type": "object", "properties": {}}, "strict": true},
        {"name": "b", "input_schema": {"type": "object", "properties": {}}, "output_schema": {"type": "string"}}
    ]}));
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(
        doc["tools"],
        json!([
            {"type": "function", "name": "a", "description": "A", "parameters": {"type": "object", "properties": {}}, "strict": true},
            {"type": "function", "name": "b", "parameters": {"type": "object", "properties": {}}, "strict": null, "output_schema": {"type": "string"}}
        ])
    );
    assert_round_trip(&x, Kind::Request);
}

#[test]
fn openai_responses_pasted_response_survives() {
    let doc = json!({
        "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
        "object": "response",
        "created_at": 1741476542,
        "status": "completed",
        "background": false,
        "error": null,
        "incomplete_details": null,
        "instructions": null,
        "max_output_tokens": null,
        "model": "gpt-4.1-2025-04-14",
        "output": [
            {"type": "reasoning", "id": "rs_67ccd2bf0a8c8190b2c4", "summary": []},
            {
                "type": "message",
                "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b",
                "status": "completed",
                "role": "assistant",
                "content": [{
                    "type": "output_text",
                    "text": "Let me check the weather in Paris.",
                    "annotations": [],
                    "logprobs": []
                }]
            },
            {
                "type": "function_call",
                "id": "fc_12345xyz",
                "call_id": "call_12345xyz",
                "name": "get_weather",
                "arguments": "{\"location\":\"Paris, France\"}",
                "status": "completed"
            }
        ],
        "parallel_tool_calls": true,
        "previous_response_id": null,
        "reasoning": {"effort": null, "summary": null},
        "service_tier": "default",
        "store": true,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [{
            "type": "function",
            "name": "get_weather",
            "description": "Get current temperature for a given location.",
            "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"], "additionalProperties": false},
            "strict": true
        }],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": 36,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 87,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 123
        },
        "user": null,
        "metadata": {}
    });
    let x = assert_paste_survives(&doc, Kind::Response);
    assert_eq!(x.options.model.as_deref(), Some("gpt-4.1-2025-04-14"));
    let m = &x.messages[0];
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(
        m.usage.as_ref().map(|u| (u.input_tokens, u.output_tokens)),
        Some((36, 87))
    );
    assert!(
        matches!(&m.parts[1], Part::Text { text, .. } if text == "Let me check the weather in Paris.")
    );
    let call = m.tool_calls().next().expect("call");
    assert_eq!(call.id.as_deref(), Some("call_12345xyz"));
    assert_eq!(call.extra["openai-responses"]["id"], "fc_12345xyz");
    assert_eq!(
        m.extra["openai-responses"]["id"],
        "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b"
    );

    // Its output items replayed as the next request's input keep their ids.
    let mut next = x.clone();
    next.messages.insert(
        0,
        Message::new(Role::User, vec![Part::text("Weather in Paris?")]),
    );
    let (req, _) = encode(&next, Kind::Request);
    assert_eq!(req["input"][1]["id"], "rs_67ccd2bf0a8c8190b2c4");
    assert_eq!(
        req["input"][2]["id"],
        "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b"
    );
    assert_eq!(req["input"][2]["type"], "message");
    assert_eq!(req["input"][3]["id"], "fc_12345xyz");
}

#[test]
fn openai_responses_minimal_and_incomplete_responses_survive() {
    let minimal = json!({
        "object": "response",
        "model": "gpt-4o",
        "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi"}]}]
    });
    assert_paste_survives(&minimal, Kind::Response);
    let truncated = json!({
        "id": "resp_1",
        "object": "response",
        "created_at": 1741476542.5,
        "status": "incomplete",
        "error": null,
        "incomplete_details": {"reason": "max_output_tokens"},
        "model": "gpt-4o",
        "output": [{"type": "message", "id": "msg_1", "status": "incomplete", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Once upon a", "annotations": []}]}],
        "parallel_tool_calls": false,
        "tool_choice": "required",
        "tools": [],
        "usage": null
    });
    let x = assert_paste_survives(&truncated, Kind::Response);
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::MaxTokens));
    let refused = json!({"id": "resp_2", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-4o",
        "output": [{"type": "message", "id": "msg_2", "status": "completed", "role": "assistant",
                    "content": [{"type": "refusal", "refusal": "I can't help with that."}]}],
        "parallel_tool_calls": true, "tool_choice": "auto", "tools": []});
    let x = assert_paste_survives(&refused, Kind::Response);
    assert!(matches!(&x.messages[0].parts[0], Part::Raw { .. }));
}

#[test]
fn openai_responses_stop_reasons() {
    let cases = [
        (StopReason::EndTurn, "completed", Value::Null, None),
        (
            StopReason::MaxTokens,
            "incomplete",
            json!({"reason": "max_output_tokens"}),
            None,
        ),
        (
            StopReason::ContentFilter,
            "incomplete",
            json!({"reason": "content_filter"}),
            None,
        ),
        (
            StopReason::StopSequence,
            "completed",
            Value::Null,
            Some(LossKind::Dropped),
        ),
        (
            StopReason::ToolUse,
            "completed",
            Value::Null,
            Some(LossKind::Rewritten),
        ),
        (
            StopReason::Other("failed".into()),
            "failed",
            Value::Null,
            None,
        ),
    ];
    for (stop, status, details, loss) in cases {
        let mut m = assistant(vec![Part::text("x")]);
        m.stop_reason = Some(stop.clone());
        let x = Exchange {
            messages: vec![m],
            ..Exchange::default()
        };
        let (doc, losses) = encode(&x, Kind::Response);
        assert_eq!(doc["status"], status, "{stop:?}");
        assert_eq!(doc["incomplete_details"], details, "{stop:?}");
        match loss {
            Some(kind) => assert!(
                has_loss(&losses, kind, "/messages/0/stop_reason"),
                "{stop:?}"
            ),
            None => assert!(losses.is_empty(), "{stop:?}: {losses:?}"),
        }
        assert_round_trip(&x, Kind::Response);
    }
    // A missing stop reason is derived and reported.
    let x = exchange(
        json!({"messages": [{"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "f", "arguments": {}}]}]}),
    );
    let losses = assert_round_trip(&x, Kind::Response);
    assert_loss(&losses, LossKind::Added, "/messages/0/stop_reason");
    // No assistant turn: an empty response and a loss.
    let x = exchange(
        json!({"messages": [{"role": "user", "parts": [{"type": "text", "text": "hi"}]}]}),
    );
    let (doc, losses) = encode(&x, Kind::Response);
    assert_eq!(doc["output"], json!([]));
    assert!(has_loss(&losses, LossKind::Dropped, "/messages"));
}

#[test]
fn openai_responses_decode_errors_point_at_the_spot() {
    let text = "{\n  \"model\": \"gpt-4.1\",\n  \"input\": [\n    {\"role\": \"user\", \"content\": \"hi\"},\n    {\"type\": \"function_call\", \"call_id\": \"c1\", \"arguments\": \"{}\"}\n  ]\n}";
    let e = F.decode(text, Kind::Request).expect_err("missing name");
    assert_eq!(e.pointer.as_deref(), Some("/input/1"));
    assert!(e.message.contains("name"), "{e}");
    assert_eq!((e.line, e.column), (Some(5), Some(5)));

    let text = "{\"input\": [\n  {\"type\": \"function_call\", \"call_id\": \"c1\", \"name\": \"f\", \"arguments\": 5}\n]}";
    let e = F
        .decode(text, Kind::Request)
        .expect_err("arguments not a string");
    assert_eq!(e.pointer.as_deref(), Some("/input/0/arguments"));
    assert_eq!(e.line, Some(2));

    let text = "{\"input\": [\n  {\"role\": \"robot\", \"content\": \"beep\"}\n]}";
    let e = F.decode(text, Kind::Request).expect_err("unknown role");
    assert_eq!(e.pointer.as_deref(), Some("/input/0/role"));
    assert_eq!((e.line, e.column), (Some(2), Some(12)));
    assert!(e.to_string().contains("line 2, column 12"), "{e}");

    let text = "{\"tools\": [{\"type\": \"function\", \"parameters\": {}}], \"input\": \"x\"}";
    let e = F
        .decode(text, Kind::Request)
        .expect_err("tool without name");
    assert_eq!(e.pointer.as_deref(), Some("/tools/0"));

    let text = "{\"object\": \"response\", \"output\": [\n  {\"type\": \"message\", \"role\": \"assistant\"}\n]}";
    let e = F
        .decode(text, Kind::Response)
        .expect_err("message without content");
    assert_eq!(e.pointer.as_deref(), Some("/output/0"));

    let e = F
        .decode("{\"input\": [\"hi\", 5]}", Kind::Request)
        .expect_err("not an item");
    assert_eq!(e.pointer.as_deref(), Some("/input/0"));

    let e = F
        .decode("{\"input\": [1,,]}", Kind::Request)
        .expect_err("syntax");
    assert_eq!(e.line, Some(1));
}

#[test]
fn openai_responses_detect() {
    let cases = [
        (json!({"model": "gpt-4.1", "input": "hi"}), Kind::Request),
        (json!({"instructions": "Be brief."}), Kind::Request),
        (
            json!({"input": [{"role": "developer", "content": "x"}], "tools": [{"type": "function", "name": "f"}]}),
            Kind::Request,
        ),
        (json!({"object": "response", "output": []}), Kind::Response),
        (json!({"id": "resp_1", "output": []}), Kind::Response),
    ];
    for (doc, kind) in cases {
        let text = doc.to_string();
        assert_eq!(Format::detect(&text).ok(), Some((F, kind)), "{doc}");
    }
    // Our own output detects as ours.
    let x = weather_calls();
    for kind in [Kind::Request, Kind::Response] {
        let enc = F.encode(&x, kind);
        assert_eq!(Format::detect(&enc.text).ok(), Some((F, kind)));
    }
}
