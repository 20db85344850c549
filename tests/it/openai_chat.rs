//! Hard cases of the OpenAI Chat Completions format: grouping and order of parallel results,
//! ids, arguments, error results, every tool_choice, empty text next to calls, deprecated
//! shapes, pasted documents from the provider docs surviving decode → encode, decode errors that
//! point at the spot, and detection.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::{profile::FromSpec, Codec as OpenAiChat};
use toolscope::formats::{Codec, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{assert_loss, assistant, call, error_result, has_loss, result, tool_msg, user};

format_kit!(Format::OpenAiChat, "gpt-4.1");

fn weather_round() -> Exchange {
    exchange(common::weather_round("call_a", "call_b"))
}

#[test]
fn openai_chat_parallel_results_are_one_tool_message_each_in_order() {
    common::assert_chat_results_in_order(F, &weather_round(), "call_a", "call_b");
}

#[test]
fn openai_chat_consecutive_tool_messages_merge_with_a_loss() {
    let mut x = weather_round();
    let second = tool_msg(vec![x.messages[2].parts.remove(1)]);
    x.messages.push(second);
    let (_, losses) = encode(&x, Kind::Request);
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages"));
}

#[test]
fn openai_chat_ids_are_any_string_and_stay_paired() {
    let odd = ["functions.get_weather:0", "ид-📞", &"x".repeat(80)];
    let x = exchange(vec![
        user("go"),
        assistant(
            odd.iter()
                .map(|id| call(Some(id), "f", json!({})))
                .collect(),
        ),
        tool_msg(odd.iter().map(|id| result(Some(id), "ok")).collect()),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(
        losses.is_empty(),
        "no id rule, nothing rewritten: {losses:#?}"
    );
    for (k, id) in odd.iter().enumerate() {
        assert_eq!(doc["messages"][1]["tool_calls"][k]["id"], *id);
        assert_eq!(doc["messages"][2 + k]["tool_call_id"], *id);
    }
}

#[test]
fn openai_chat_missing_ids_are_assigned_and_results_paired() {
    let mut time = ToolResult::new(None, ResultContent::Text("12:00".into()));
    time.name = Some("time".into());
    let mut weather = ToolResult::new(None, ResultContent::Text("sunny".into()));
    weather.name = Some("weather".into());
    let x = exchange(vec![
        user("weather and time?"),
        assistant(vec![
            call(None, "weather", json!({})),
            call(None, "time", json!({})),
        ]),
        tool_msg(vec![Part::ToolResult(time), Part::ToolResult(weather)]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    let m = &doc["messages"];
    assert_eq!(m[1]["tool_calls"][0]["id"], "call_1");
    assert_eq!(m[1]["tool_calls"][1]["id"], "call_2");
    // Paired by name, not by position.
    assert_eq!(m[2]["tool_call_id"], "call_2");
    assert_eq!(m[3]["tool_call_id"], "call_1");
    assert_losses!(&losses; Added "/messages/1/parts/0/id", Added "/messages/2/parts/0/call_id");
    // Tool messages have no name field.
    assert_loss(&losses, LossKind::Dropped, "/messages/2/parts/0/name");
    assert!(m[2].get("name").is_none());
}

#[test]
fn openai_chat_result_without_any_call_gets_empty_id_with_a_loss() {
    let x = exchange(vec![
        user("go"),
        assistant(vec![call(Some("c1"), "f", json!({}))]),
        tool_msg(vec![result(Some("c1"), "a"), result(None, "b")]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][3]["tool_call_id"], "");
    assert_loss(&losses, LossKind::Added, "/messages/2/parts/1/call_id");
}

#[test]
fn openai_chat_arguments_are_text_kept_verbatim() {
    let mut broken = ToolCall::new(Some("c1".into()), "f", Value::Null);
    broken.arguments_raw = Some("{\"location\": \"Par".into());
    let spaced = ToolCall::from_text(Some("c2".into()), "f", "{ \"a\" : 1 }");
    let x = exchange(vec![
        user("go"),
        assistant(vec![Part::ToolCall(broken), Part::ToolCall(spaced)]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    let calls = &doc["messages"][1]["tool_calls"];
    assert_eq!(calls[0]["function"]["arguments"], "{\"location\": \"Par");
    assert_eq!(calls[1]["function"]["arguments"], "{ \"a\" : 1 }");
    let (back, _) = decode(&doc, Kind::Request);
    let c: Vec<_> = back.messages[1].tool_calls().collect();
    assert!(c[0].arguments_invalid());
    assert_eq!(c[1].arguments, json!({"a": 1}));
}

#[test]
fn openai_chat_empty_arguments_read_as_empty_object() {
    for text in ["", "  "] {
        let doc = json!({
            "model": "gpt-4.1",
            "messages": [
                {"role": "user", "content": "time?"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "now", "arguments": text}}
                ]}
            ]
        });
        let (x, losses) = decode(&doc, Kind::Request);
        let c = x.messages[1].tool_calls().next().unwrap();
        assert_eq!(c.arguments, json!({}));
        assert_eq!(c.arguments_raw, None);
        assert_loss(
            &losses,
            LossKind::Rewritten,
            "/messages/1/parts/0/arguments",
        );
        let (again, _) = encode(&x, Kind::Request);
        assert_eq!(
            again["messages"][1]["tool_calls"][0]["function"]["arguments"],
            "{}"
        );
    }
}

#[test]
fn openai_chat_error_results_fold_into_text() {
    let failed = error_result(Some("c1"), "no such city");
    let mut blocks = ToolResult::new(
        Some("c2".into()),
        ResultContent::Blocks(vec![Block::Text {
            text: "timeout".into(),
        }]),
    );
    blocks.is_error = true;
    let x = exchange(common::calls_answered(
        "go",
        &[("c1", "f"), ("c2", "g")],
        vec![failed, blocks],
    ));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][2]["content"], "Error: no such city");
    assert_eq!(
        doc["messages"][3]["content"],
        json!([{"type": "text", "text": "Error: timeout"}])
    );
    assert_losses!(&losses; Rewritten "/messages/2/parts/0", Rewritten "/messages/2/parts/1");
}

#[test]
fn openai_chat_json_and_image_results_become_text() {
    let json_result = ToolResult::new(Some("c1".into()), ResultContent::Json(json!({"t": 18})));
    let image = common::chart_result("c2", vec![]);
    let x = exchange(common::calls_answered(
        "go",
        &[("c1", "f"), ("c2", "g")],
        vec![json_result, image],
    ));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][2]["content"], "{\"t\":18}");
    assert_eq!(
        doc["messages"][3]["content"],
        json!([{"type": "text", "text": "chart:"}])
    );
    assert_losses!(&losses; Rewritten "/messages/2/parts/0/content", Dropped "/messages/2/parts/1/content");
}

#[test]
fn openai_chat_every_tool_choice() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let allowed = |mode: &str, tools: &[&str]| {
        json!({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools":
            tools.iter().map(|t| json!({"type": "function", "function": {"name": t}})).collect::<Vec<_>>()}})
    };
    type Case = (
        Option<ToolChoice>,
        Option<Value>,
        Option<(LossKind, &'static str)>,
    );
    let cases: Vec<Case> = vec![
        (None, None, None),
        (
            Some(ToolChoice::mode(ChoiceMode::Auto)),
            Some(json!("auto")),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::None)),
            Some(json!("none")),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Required)),
            Some(json!("required")),
            None,
        ),
        (
            Some(ToolChoice::force("a")),
            Some(json!({"type": "function", "function": {"name": "a"}})),
            None,
        ),
        (
            Some(ToolChoice {
                mode: ChoiceMode::Required,
                tools: names(&["a", "b"]),
            }),
            Some(allowed("required", &["a", "b"])),
            None,
        ),
        (
            Some(ToolChoice {
                mode: ChoiceMode::Auto,
                tools: names(&["b"]),
            }),
            Some(allowed("auto", &["b"])),
            None,
        ),
        (
            Some(ToolChoice {
                mode: ChoiceMode::None,
                tools: names(&["a"]),
            }),
            Some(json!("none")),
            Some((LossKind::Dropped, "/tool_choice/tools")),
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Validated)),
            Some(json!("auto")),
            Some((LossKind::Rewritten, "/tool_choice/mode")),
        ),
        (
            Some(ToolChoice {
                mode: ChoiceMode::Validated,
                tools: names(&["a", "b"]),
            }),
            Some(allowed("auto", &["a", "b"])),
            Some((LossKind::Rewritten, "/tool_choice/mode")),
        ),
    ];
    for (choice, wire, loss) in cases {
        let mut x = exchange(vec![user("hi")]);
        x.tools = ["a", "b"].iter().map(|n| common::bare_tool(n)).collect();
        x.tool_choice = choice.clone();
        let (doc, losses) = encode(&x, Kind::Request);
        assert_eq!(doc.get("tool_choice"), wire.as_ref(), "{choice:?}");
        match loss {
            Some((kind, pointer)) => assert!(has_loss(&losses, kind, pointer), "{choice:?}"),
            None => assert!(losses.is_empty(), "{choice:?}: {losses:#?}"),
        }
    }
}

#[test]
fn openai_chat_tool_choice_spellings_survive() {
    // allowed_tools with one required tool (a named choice would be shorter), and a word this
    // dialect does not know (kept as it was).
    for choice in [
        json!({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
            {"type": "function", "function": {"name": "a"}}]}}),
        json!("any"),
        json!({"type": "custom", "custom": {"name": "grammar"}}),
    ] {
        let doc = json!({
            "model": "gpt-4.1",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {}}}}],
            "tool_choice": choice
        });
        survives(doc, Kind::Request);
    }
    let (x, losses) = decode(
        &json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "any"}),
        Kind::Request,
    );
    assert_eq!(x.tool_choice, None);
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice"));
}

#[test]
fn openai_chat_empty_text_next_to_tool_calls() {
    // "" is an empty text part; null is no text.
    let with_empty = exchange(common::empty_text_then_call("c1"));
    let (doc, losses) = encode(&with_empty, Kind::Request);
    assert!(losses.is_empty());
    assert_eq!(doc["messages"][1]["content"], "");
    let without = exchange(vec![
        user("go"),
        assistant(vec![call(Some("c1"), "f", json!({}))]),
    ]);
    let (doc, _) = encode(&without, Kind::Request);
    assert_eq!(doc["messages"][1]["content"], Value::Null);
    // Content left out stays left out.
    let doc = json!({"model": "m", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": ""}
    ]});
    let (x, _) = survives(doc, Kind::Request);
    assert_eq!(x.messages[1].parts.len(), 1);
    assert_eq!(
        x.messages[2].tool_results().next().unwrap().content,
        ResultContent::Text(String::new())
    );
    // The response view: "" and null too.
    let (doc, _) = encode(&with_empty, Kind::Response);
    assert_eq!(doc["choices"][0]["message"]["content"], "");
    let (doc, _) = encode(&without, Kind::Response);
    assert_eq!(doc["choices"][0]["message"]["content"], Value::Null);
}

#[test]
fn openai_chat_text_after_a_call_moves_up_with_a_loss() {
    let x = exchange(vec![
        user("go"),
        assistant(vec![call(Some("c1"), "f", json!({})), Part::text("done")]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][1]["content"], "done");
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/1/parts"));
}

#[test]
fn openai_chat_foreign_blocks_are_dropped_own_ones_kept() {
    let image = json!({"type": "image_url", "image_url": {"url": "https://example.com/a.png"}});
    let x = exchange(vec![
        Message::new(
            Role::User,
            vec![
                Part::text("look"),
                Part::Raw {
                    format: "openai-chat".into(),
                    value: image.clone(),
                },
                Part::Raw {
                    format: "anthropic".into(),
                    value: json!({"type": "document"}),
                },
            ],
        ),
        assistant(vec![
            Part::Raw {
                format: "anthropic".into(),
                value: json!({"type": "thinking", "thinking": "hm"}),
            },
            Part::text("a cat"),
        ]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(
        doc["messages"][0]["content"],
        json!([{"type": "text", "text": "look"}, image])
    );
    assert_eq!(doc["messages"][1]["content"], "a cat");
    assert_losses!(&losses; Dropped "/messages/0/parts/2", Dropped "/messages/1/parts/0");
}

#[test]
fn openai_chat_system_prompt_and_later_system_messages() {
    let doc = json!({
        "model": "o3",
        "messages": [
            {"role": "developer", "content": "Talk like a pirate."},
            {"role": "user", "content": "Are semicolons optional in JavaScript?"},
            {"role": "system", "content": "Keep it short."}
        ]
    });
    let (x, losses) = survives(doc, Kind::Request);
    assert_eq!(x.system.as_deref(), Some("Talk like a pirate."));
    assert_eq!(x.messages.len(), 2);
    assert_eq!(x.messages[1].role, Role::User);
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/1/role"));
    // A plain system prompt needs no bookkeeping.
    let (x, _) = decode(
        &json!({"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]}),
        Kind::Request,
    );
    assert!(x.extra.is_empty(), "{:?}", x.extra);
    // Edited prompt: the developer role is kept, the text is the new one.
    let (mut x, _) = decode(
        &json!({"model": "m", "messages": [{"role": "developer", "content": [{"type": "text", "text": "Old."}]}, {"role": "user", "content": "hi"}]}),
        Kind::Request,
    );
    x.system = Some("New.".into());
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(
        doc["messages"][0],
        json!({"role": "developer", "content": "New."})
    );
}

#[test]
fn openai_chat_tool_results_without_a_call_are_sent_as_user_text() {
    let x = exchange(vec![
        user("here is what the tool said"),
        tool_msg(vec![result(Some("c9"), "42")]),
    ]);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][1], json!({"role": "user", "content": "42"}));
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/1"));
}

#[test]
fn openai_chat_deprecated_functions_are_imported() {
    let doc = json!({
        "model": "gpt-3.5-turbo-0613",
        "messages": [
            {"role": "user", "content": "What's the weather like in Boston?"},
            {"role": "assistant", "content": null, "function_call": {"name": "get_current_weather", "arguments": "{\n  \"location\": \"Boston, MA\"\n}"}},
            {"role": "function", "name": "get_current_weather", "content": "{\"temperature\": \"72\", \"unit\": null}"}
        ],
        "functions": [{
            "name": "get_current_weather",
            "description": "Get the current weather in a given location",
            "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}
        }],
        "function_call": "auto"
    });
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.tools.len(), 1);
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Auto)));
    let c = x.messages[1].tool_calls().next().unwrap();
    assert_eq!(
        (c.id.as_deref(), c.name.as_str()),
        (None, "get_current_weather")
    );
    assert_eq!(c.arguments, json!({"location": "Boston, MA"}));
    let r = x.messages[2].tool_results().next().unwrap();
    assert_eq!(
        (r.call_id.as_deref(), r.name.as_deref()),
        (None, Some("get_current_weather"))
    );
    assert_losses!(&losses; Rewritten "/tools/0", Rewritten "/tool_choice");
    assert_losses!(&losses; Rewritten "/messages/1/parts/0", Rewritten "/messages/2/parts/0");
    // Written back in the current shape, paired by a new id.
    let (out, _) = encode(&x, Kind::Request);
    assert!(out.get("functions").is_none() && out.get("function_call").is_none());
    assert_eq!(out["tools"][0]["type"], "function");
    assert_eq!(out["tool_choice"], "auto");
    assert_eq!(out["messages"][1]["tool_calls"][0]["id"], "call_1");
    assert_eq!(out["messages"][2]["role"], "tool");
    assert_eq!(out["messages"][2]["tool_call_id"], "call_1");
}

#[test]
fn openai_chat_pasted_request_survives() {
    // The function-calling guide's conversation, as the Python SDK dumps it back, with fields
    // the model has no place for.
    let doc = json!({
        "model": "gpt-4.1",
        "messages": [
            {"role": "developer", "content": "You are a helpful assistant.", "name": "ops"},
            {"role": "user", "content": [
                {"type": "text", "text": "What's the weather like in Paris and Bogotá today?"},
                {"type": "image_url", "image_url": {"url": "https://example.com/sky.jpg", "detail": "low"}}
            ]},
            {"role": "assistant", "content": null, "refusal": null, "annotations": [], "audio": null, "function_call": null, "tool_calls": [
                {"id": "call_12345xyz", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}},
                {"id": "call_67890abc", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Bogotá, Colombia\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_12345xyz", "content": "15"},
            {"role": "tool", "tool_call_id": "call_67890abc", "content": [{"type": "text", "text": "18"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Paris 15 °C, Bogotá 18 °C."}]},
            {"role": "user", "content": [{"type": "text", "text": "Thanks!", "prompt_cache_breakpoint": {"mode": "explicit"}}]}
        ],
        "tools": [{
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Get current temperature for a given location.",
                "parameters": {
                    "type": "object",
                    "properties": {"location": {"type": "string", "description": "City and country e.g. Bogotá, Colombia"}},
                    "required": ["location"],
                    "additionalProperties": false
                },
                "strict": true
            }
        }],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "max_tokens": 512,
        "temperature": 0.2,
        "top_p": null,
        "stop": "\n\n",
        "n": 1,
        "seed": 42,
        "store": false,
        "metadata": {"run": "docs"},
        "response_format": {"type": "text"},
        "user": "user-1234",
        "stream": false
    });
    let (x, _) = survives(doc, Kind::Request);
    assert_eq!(x.system.as_deref(), Some("You are a helpful assistant."));
    assert_eq!(x.options.max_tokens, Some(512));
    assert_eq!(x.options.stop, ["\n\n"]);
    assert_eq!(x.messages.len(), 5);
    assert_eq!(x.messages[2].tool_results().count(), 2);
    assert_eq!(x.extra["openai-chat"]["seed"], 42);
    assert_eq!(x.extra["openai-chat"]["top_p"], Value::Null);
}

#[test]
fn openai_chat_pasted_request_with_custom_tools_survives() {
    let doc = json!({
        "model": "gpt-5",
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "Be terse."}]},
            {"role": "user", "content": [{"type": "text", "text": "Run it."}]},
            {"role": "assistant", "tool_calls": [
                {"id": "call_c1", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}},
                {"id": "call_f1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}, "index": 1}
            ]},
            {"role": "tool", "tool_call_id": "call_c1", "content": "1"},
            {"role": "tool", "tool_call_id": "call_f1", "content": "ok", "name": "lookup"},
            {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't do more."}], "tool_calls": []},
            {"role": "user", "content": []}
        ],
        "tools": [
            {"type": "custom", "custom": {"name": "code_exec", "description": "Executes Python", "format": {"type": "text"}}},
            {"type": "function", "function": {"name": "lookup"}, "cache_control": {"type": "ephemeral"}}
        ],
        "tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}},
        "max_completion_tokens": 100,
        "reasoning_effort": "low",
        "verbosity": "low"
    });
    let (x, _) = survives(doc, Kind::Request);
    assert_eq!(x.tools.len(), 1);
    assert_eq!(x.tools[0].name, "lookup");
    let parts = &x.messages[1].parts;
    assert!(matches!(&parts[0], Part::Raw { format, .. } if format == "openai-chat"));
    assert!(matches!(&parts[1], Part::ToolCall(c) if c.name == "lookup"));
    assert_eq!(
        x.messages[2].tool_results().nth(1).unwrap().name.as_deref(),
        Some("lookup")
    );
}

#[test]
fn openai_chat_pasted_response_survives() {
    let doc = json!({
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion",
        "created": 1741570283,
        "model": "gpt-4o-2024-08-06",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{"id": "call_Ijdk2eKbPuVsk8rU9OpI6iXo", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}}],
                "refusal": null,
                "annotations": []
            },
            "logprobs": null,
            "finish_reason": "tool_calls"
        }],
        "usage": {
            "prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
        },
        "service_tier": "default",
        "system_fingerprint": "fp_fc9f1d7035"
    });
    let (x, losses) = survives(doc, Kind::Response);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(x.options.model.as_deref(), Some("gpt-4o-2024-08-06"));
    let m = &x.messages[0];
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(m.usage, common::usage(82, 17));
    assert_eq!(m.tool_calls().count(), 1);
}

#[test]
fn openai_chat_pasted_older_response_with_two_choices_survives() {
    let doc = json!({
        "id": "chatcmpl-123",
        "object": "chat.completion",
        "created": 1677652288,
        "model": "gpt-3.5-turbo-0613",
        "system_fingerprint": null,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "\n\nHello there, how may I assist you today?"}, "finish_reason": "stop"},
            {"index": 1, "message": {"role": "assistant", "content": "Hi!"}, "finish_reason": "length"}
        ],
        "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}
    });
    let (x, losses) = survives(doc, Kind::Response);
    assert_eq!(x.messages.len(), 1);
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/0"));
}

#[test]
fn openai_chat_deprecated_function_call_response() {
    let doc = json!({
        "id": "chatcmpl-abc", "object": "chat.completion", "created": 1699999999, "model": "gpt-3.5-turbo-0613",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "function_call": {"name": "get_current_weather", "arguments": "{\"location\": \"Boston, MA\"}"}},
            "finish_reason": "function_call"}]
    });
    let (x, losses) = decode(&doc, Kind::Response);
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::ToolUse));
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
    let (out, losses) = encode(&x, Kind::Response);
    let choice = &out["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    assert_eq!(choice["message"]["tool_calls"][0]["id"], "call_1");
    assert!(has_loss(&losses, LossKind::Added, "/messages/0/parts/0/id"));
}

#[test]
fn openai_chat_response_defaults_and_placeholders() {
    // No assistant turn.
    let (doc, losses) = encode(&exchange(vec![user("hi")]), Kind::Response);
    assert_eq!(doc["id"], "chatcmpl-toolscope");
    assert_eq!(doc["created"], 0);
    assert_eq!(doc["choices"][0]["message"]["content"], Value::Null);
    assert_eq!(doc["choices"][0]["finish_reason"], "stop");
    assert!(has_loss(&losses, LossKind::Added, "/messages"));
    // Placeholders read back as nothing.
    let (x, _) = decode(&doc, Kind::Response);
    assert!(x.messages[0].extra.is_empty(), "{:?}", x.messages[0].extra);
    // Several texts are joined; a missing stop reason is derived; no model gets a placeholder.
    let mut x = Exchange::default();
    x.messages.push(assistant(vec![
        Part::text("Hello, "),
        Part::text("world"),
        call(Some("c1"), "f", json!({})),
    ]));
    let (doc, losses) = encode(&x, Kind::Response);
    assert_eq!(doc["choices"][0]["message"]["content"], "Hello, world");
    assert_eq!(doc["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(doc["model"], "gpt-4.1");
    assert_losses!(&losses; Rewritten "/messages/0/parts", Added "/messages/0/stop_reason", Note "/options");
}

#[test]
fn openai_chat_stop_reasons() {
    for (reason, finish, loss) in [
        (StopReason::EndTurn, "stop", false),
        (StopReason::MaxTokens, "length", false),
        (StopReason::ContentFilter, "content_filter", false),
        (StopReason::StopSequence, "stop", true),
        (StopReason::Other("RECITATION".into()), "stop", true),
    ] {
        let mut m = assistant(vec![Part::text("x")]);
        m.stop_reason = Some(reason.clone());
        let (doc, losses) = encode(&exchange(vec![m]), Kind::Response);
        assert_eq!(doc["choices"][0]["finish_reason"], finish, "{reason:?}");
        assert_eq!(
            has_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason"),
            loss,
            "{reason:?}"
        );
    }
}

#[test]
fn openai_chat_decode_errors_point_at_the_spot() {
    let cases = [
        (
            "{\"model\": \"m\",\n \"messages\": [{\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"bot\", \"content\": \"x\"}]}",
            "/messages/1/role",
            3,
        ),
        (
            "{\"model\": \"m\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"42\"}]}",
            "/messages/1",
            4,
        ),
        (
            "{\"model\": \"m\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": 5}]}",
            "/messages/0/content",
            3,
        ),
        (
            "{\"model\": \"m\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"go\"},\n  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c\", \"type\": \"function\", \"function\": {\"arguments\": \"{}\"}}]}]}",
            "/messages/1/tool_calls/0",
            4,
        ),
    ];
    for (text, pointer, line) in cases {
        let e = F.decode(text, Kind::Request).unwrap_err();
        assert_eq!(e.format, Some("openai-chat"));
        assert_eq!(e.pointer.as_deref(), Some(pointer), "{e}");
        assert_eq!(e.line, Some(line), "{e}");
        assert!(e.column.is_some(), "{e}");
    }
    let e = F
        .decode("{\"model\": \"m\", \"choices\": []}", Kind::Response)
        .unwrap_err();
    assert_eq!(e.pointer.as_deref(), Some("/choices"));
    let e = F
        .decode("{\"model\": \"m\",\n \"messages\": [,]}", Kind::Request)
        .unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(15)));
}

#[test]
fn openai_chat_detects_its_documents() {
    let plain = json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]});
    let marked = json!({"model": "gpt-4.1", "messages": [{"role": "developer", "content": "x"}, {"role": "user", "content": "hi"}]});
    let tools = json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "f"}}]});
    let response = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": []});
    assert_eq!(OpenAiChat::ID, OpenAiChat.id());
    assert_eq!(OpenAiChat::sniff(&plain), Some((Kind::Request, 55)));
    assert_eq!(OpenAiChat::sniff(&marked), Some((Kind::Request, 95)));
    assert_eq!(OpenAiChat::sniff(&tools), Some((Kind::Request, 95)));
    assert_eq!(OpenAiChat::sniff(&response), Some((Kind::Response, 95)));
    assert_eq!(OpenAiChat::sniff(&json!({"contents": []})), None);
    assert_eq!(OpenAiChat::sniff(&json!([1, 2])), None);
    for (doc, kind) in [
        (&plain, Kind::Request),
        (&marked, Kind::Request),
        (&tools, Kind::Request),
        (&response, Kind::Response),
    ] {
        assert_eq!(Format::detect(&doc.to_string()), Ok((F, kind)));
    }
    let enc = F.encode(&weather_round(), Kind::Request);
    assert_eq!(Format::detect(&enc.text), Ok((F, Kind::Request)));
}

#[test]
fn openai_chat_foreign_extras_and_fields_of_other_formats_are_reported() {
    let mut x = weather_round();
    x.extra.insert(
        "openai-chat".into(),
        serde_json::from_value(json!({"seed": 7})).unwrap(),
    );
    x.extra.insert(
        "anthropic".into(),
        serde_json::from_value(json!({"top_k": 5})).unwrap(),
    );
    x.tools.push(Tool {
        name: "read_file".into(),
        description: None,
        input_schema: empty_object_schema(),
        strict: None,
        output_schema: Some(json!({"type": "object"})),
        annotations: Some(json!({"readOnlyHint": true})),
        hosted: None,
        custom: None,
        extra: Extra::new(),
    });
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(doc.get("top_k").is_none());
    assert_eq!(doc["seed"], 7);
    assert_losses!(&losses; Dropped "/extra/anthropic", Dropped "/tools/0/output_schema");
    assert_losses!(&losses; Dropped "/tools/0/annotations");
}

#[test]
fn openai_chat_edits_after_a_paste_keep_the_contract() {
    let pasted = json!({
        "model": "gpt-4.1",
        "messages": [
            {"role": "developer", "content": [{"type": "text", "text": "Be terse."}], "name": "ops"},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "now", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "noon", "name": "now"},
            {"role": "system", "content": "Later rule."}
        ],
        "tools": [
            {"type": "function", "function": {"name": "now"}},
            {"type": "custom", "custom": {"name": "sh"}}
        ],
        "tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}},
        "max_tokens": 64,
        "stop": "END"
    });
    let (base, _) = decode(&pasted, Kind::Request);
    type Edit = fn(&mut Exchange);
    let edits: [(&str, Edit); 9] = [
        ("system text", |x| x.system = Some("New.".into())),
        ("no system", |x| x.system = None),
        ("second text part", |x| {
            x.messages[0].parts.push(Part::text("more"))
        }),
        ("assistant text", |x| {
            x.messages[1].parts.insert(0, Part::text("ok"))
        }),
        ("result name gone", |x| {
            if let Part::ToolResult(r) = &mut x.messages[2].parts[0] {
                r.name = None;
            }
        }),
        (
            "schema added",
            |x| {
                x.tools[0].input_schema =
                    json!({"type": "object", "properties": {"tz": {"type": "string"}}})
            },
        ),
        ("tools and choice", |x| {
            x.tools.clear();
            x.tool_choice = Some(ToolChoice {
                mode: ChoiceMode::Auto,
                tools: vec!["a".into(), "b".into()],
            });
        }),
        ("options", |x| {
            x.options.max_tokens = None;
            x.options.stop = vec!["A".into(), "B".into()];
        }),
        ("later system first", |x| {
            x.system = None;
            x.messages.remove(0);
            x.messages.remove(0);
            x.messages.remove(0);
        }),
    ];
    for (name, edit) in edits {
        let mut x = base.clone();
        edit(&mut x);
        let enc = F.encode(&x, Kind::Request);
        let dec = F.decode(&enc.text, Kind::Request).expect(name);
        let mut losses = enc.losses.clone();
        losses.extend(dec.losses);
        let left = toolscope::model::diff::unexplained(&x, &dec.exchange, &losses);
        assert!(left.is_empty(), "{name}: unreported {left:?}\n{}", enc.text);
    }
}

#[test]
fn openai_chat_response_message_reused_in_a_request() {
    // The playground's main loop: the model's answer becomes history of the next request.
    let response = json!({
        "id": "chatcmpl-9", "object": "chat.completion", "created": 1741570283, "model": "gpt-4.1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": null,
            "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "now", "arguments": "{}"}}]},
            "logprobs": null, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11},
        "system_fingerprint": "fp_1"
    });
    let (answer, _) = decode(&response, Kind::Response);
    let mut x = exchange(vec![user("time?")]);
    x.messages.extend(answer.messages);
    x.messages
        .push(tool_msg(vec![result(Some("call_9"), "noon")]));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(
        doc["messages"][1],
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_9", "type": "function", "function": {"name": "now", "arguments": "{}"}}]})
    );
    assert_eq!(doc["messages"][2]["tool_call_id"], "call_9");
    // The response's id and fingerprint have no place in a request; its usage is response
    // data outside the request view, so it is not a loss.
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/1/extra"));
    assert!(!losses.iter().any(|l| l.pointer == "/messages/1/usage"));
}

#[test]
fn openai_chat_conforms() {
    let d = common::dialect::Dialect {
        format: F,
        model: "gpt-4.1",
        id: "call_1",
    };
    common::dialect::conforms(&d).unwrap_or_else(|e| panic!("{e}"));
}
