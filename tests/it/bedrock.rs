//! Hard cases of the Bedrock Converse format: result grouping, ids, arguments, tool_choice,
//! empty text, tool specs Bedrock requires, pasted documents in the AWS docs' style, decode
//! errors, detection.

use serde_json::{json, Value};
use toolscope::formats::{Codec as _, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{
    assert_loss, assistant, call, error_result, has_loss, position, result, tool_msg, user,
};

const B: Format = Format::Bedrock;

fn encode(x: &Exchange) -> (Value, Vec<Loss>) {
    common::encode_doc(B, x, Kind::Request)
}

fn encode_response(x: &Exchange) -> (Value, Vec<Loss>) {
    common::encode_doc(B, x, Kind::Response)
}

fn decode(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    common::decode_doc(B, doc, kind)
}

/// Encode, decode, and check that every difference is under a reported loss.
fn round_trip(x: &Exchange) -> (Value, Vec<Loss>, Exchange) {
    let t = common::checked_trip(B, x, Kind::Request);
    (t.doc, t.all, t.back)
}

fn weather_tool() -> Tool {
    Tool {
        name: "get_weather".into(),
        description: Some("Weather for a city.".into()),
        input_schema: json!({"type": "object", "properties": {"location": {"type": "string"}}}),
        strict: None,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Extra::new(),
    }
}

fn base(messages: Vec<Message>) -> Exchange {
    Exchange {
        tools: vec![weather_tool()],
        options: Options {
            model: Some("anthropic.claude-3-5-sonnet-20240620-v1:0".into()),
            max_tokens: Some(1024),
            ..Options::default()
        },
        messages,
        ..Exchange::default()
    }
}

#[test]
fn bedrock_parallel_results_come_first_in_one_user_message() {
    let x = base(vec![
        user("Weather in Tokyo and Oslo?"),
        common::checking_both("tooluse_A", "tooluse_B"),
        // Results in the opposite order of the calls, then the user's next words.
        tool_msg(vec![
            result(Some("tooluse_B"), "-3 °C"),
            result(Some("tooluse_A"), "24 °C"),
        ]),
        user("And tomorrow?"),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(back, x);
    let msgs = doc["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3);
    assert_eq!(msgs[1]["role"], "assistant");
    assert_eq!(
        msgs[1]["content"][1],
        json!({"toolUse": {"toolUseId": "tooluse_A", "name": "get_weather", "input": {"location": "Tokyo"}}})
    );
    assert_eq!(msgs[2]["role"], "user");
    assert_eq!(
        msgs[2]["content"],
        json!([
            {"toolResult": {"toolUseId": "tooluse_B", "content": [{"text": "-3 °C"}]}},
            {"toolResult": {"toolUseId": "tooluse_A", "content": [{"text": "24 °C"}]}},
            {"text": "And tomorrow?"}
        ])
    );
    assert_eq!(
        msgs[0]["content"],
        json!([{"text": "Weather in Tokyo and Oslo?"}])
    );
    assert_eq!(doc["modelId"], "anthropic.claude-3-5-sonnet-20240620-v1:0");
    assert_eq!(doc["inferenceConfig"], json!({"maxTokens": 1024}));
}

#[test]
fn bedrock_consecutive_tool_messages_merge_with_a_report() {
    common::blocks::tool_messages_merge(B, base);
}

#[test]
fn bedrock_ids_are_rewritten_consistently_between_call_and_result() {
    common::blocks::ids_rewritten_in_pairs(
        B,
        base,
        "tooluse_ok-1",
        ("/toolUse/toolUseId", "/toolResult/toolUseId"),
        IdRule::BEDROCK,
    );
}

#[test]
fn bedrock_missing_ids_are_assigned_and_paired_by_name() {
    common::blocks::missing_ids_paired_by_name(
        B,
        base,
        ("/toolUse/toolUseId", "/toolResult/toolUseId"),
    );
}

#[test]
fn bedrock_invalid_and_non_object_arguments_become_empty_objects() {
    let losses = common::blocks::bad_arguments_become_empty_objects(B, base, "/toolUse/input");
    let target = losses
        .iter()
        .find(|l| l.pointer == "/messages/1/parts/0/arguments")
        .and_then(|l| l.target.clone());
    assert_eq!(
        target.as_deref(),
        Some("/messages/1/content/0/toolUse/input")
    );
}

#[test]
fn bedrock_empty_arguments_are_an_empty_object() {
    let empty = ToolCall::from_text(Some("t1".into()), "get_weather", "  ");
    let x = base(vec![
        user("weather?"),
        assistant(vec![Part::ToolCall(empty)]),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(
        doc["messages"][1]["content"][0]["toolUse"]["input"],
        json!({})
    );
    assert!(!losses.iter().any(|l| l.pointer.contains("arguments")));
    assert_eq!(back, x);
}

#[test]
fn bedrock_error_results_json_and_blocks() {
    let err = error_result(Some("t1"), "Unknown ticker");
    let json_result = ToolResult::new(
        Some("t2".into()),
        ResultContent::Json(json!({"price": 231.45, "currency": "USD"})),
    );
    let scalar = ToolResult::new(Some("t3".into()), ResultContent::Json(json!([1, 2])));
    let blocks = common::chart_result(
        "t4",
        vec![Block::Image {
            media_type: "image/bmp".into(),
            data: "Qk0=".into(),
        }],
    );
    let one_block = ToolResult::new(
        Some("t5".into()),
        ResultContent::Blocks(vec![Block::Text {
            text: "only".into(),
        }]),
    );
    let empty = ToolResult::new(Some("t6".into()), ResultContent::Text(String::new()));
    let ids = ["t1", "t2", "t3", "t4", "t5", "t6"];
    let x = base(vec![
        user("go"),
        assistant(
            ids.iter()
                .map(|id| call(Some(id), "get_weather", json!({})))
                .collect(),
        ),
        tool_msg(
            [err, json_result, scalar, blocks, one_block, empty]
                .into_iter()
                .map(Part::ToolResult)
                .collect(),
        ),
    ]);
    let (doc, losses, back) = round_trip(&x);
    let c = &doc["messages"][2]["content"];
    assert_eq!(
        c[0]["toolResult"],
        json!({"toolUseId": "t1", "content": [{"text": "Unknown ticker"}], "status": "error"})
    );
    assert_eq!(
        c[1]["toolResult"]["content"],
        json!([{"json": {"price": 231.45, "currency": "USD"}}])
    );
    assert_eq!(c[2]["toolResult"]["content"], json!([{"text": "[1,2]"}]));
    assert_eq!(
        c[3]["toolResult"]["content"],
        json!([
            {"text": "chart:"},
            {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}
        ])
    );
    assert_eq!(c[4]["toolResult"]["content"], json!([{"text": "only"}]));
    assert_eq!(c[5]["toolResult"]["content"], json!([]));
    assert_losses!(&losses; Rewritten "/messages/2/parts/2/content");
    assert_losses!(&losses; Dropped "/messages/2/parts/3/content/blocks/2");
    assert_losses!(&losses; Rewritten "/messages/2/parts/4/content");
    assert!(!losses
        .iter()
        .any(|l| l.pointer.starts_with("/messages/2/parts/0")
            || l.pointer.starts_with("/messages/2/parts/1")
            || l.pointer.starts_with("/messages/2/parts/5")));
    let rs: Vec<_> = back.messages[2].tool_results().collect();
    assert!(rs[0].is_error);
    assert!(!rs[1].is_error);
    assert_eq!(
        rs[1].content,
        ResultContent::Json(json!({"price": 231.45, "currency": "USD"}))
    );
    assert_eq!(rs[5].content, ResultContent::Text(String::new()));
    match &rs[3].content {
        ResultContent::Blocks(b) => assert_eq!(
            b[1],
            Block::Image {
                media_type: "image/png".into(),
                data: "iVBORw0KGgo=".into()
            }
        ),
        other => panic!("{other:?}"),
    }
}

fn choice_doc(x: &Exchange) -> (Value, Vec<Loss>) {
    let t = common::checked_trip(B, x, Kind::Request);
    (t.doc["toolConfig"].clone(), t.encoder)
}

#[test]
fn bedrock_every_tool_choice() {
    let mut x = base(vec![user("hi")]);
    x.tools.push(Tool {
        name: "get_time".into(),
        ..weather_tool()
    });

    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Auto));
    let (c, l) = choice_doc(&x);
    assert_eq!(c["toolChoice"], json!({"auto": {}}));
    assert!(l.is_empty(), "{l:#?}");

    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Required));
    let (c, l) = choice_doc(&x);
    assert_eq!(c["toolChoice"], json!({"any": {}}));
    assert!(l.is_empty(), "{l:#?}");

    x.tool_choice = Some(ToolChoice::force("get_time"));
    let (c, l) = choice_doc(&x);
    assert_eq!(c["toolChoice"], json!({"tool": {"name": "get_time"}}));
    assert!(l.is_empty(), "{l:#?}");

    // No `none`: dropped (the model decides), never silently.
    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::None));
    let (c, l) = choice_doc(&x);
    assert!(c.get("toolChoice").is_none());
    assert!(has_loss(&l, LossKind::Dropped, "/tool_choice"), "{l:#?}");

    // A subset of tools: any tool.
    x.tool_choice = Some(ToolChoice {
        mode: ChoiceMode::Required,
        tools: vec!["get_time".into(), "get_weather".into()],
    });
    let (c, l) = choice_doc(&x);
    assert_eq!(c["toolChoice"], json!({"any": {}}));
    assert!(has_loss(&l, LossKind::Rewritten, "/tool_choice/tools"));

    // Validated: auto, and a restriction under auto is dropped.
    x.tool_choice = Some(ToolChoice {
        mode: ChoiceMode::Validated,
        tools: vec!["get_time".into()],
    });
    let (c, l) = choice_doc(&x);
    assert_eq!(c["toolChoice"], json!({"auto": {}}));
    assert_losses!(&l; Rewritten "/tool_choice/mode", Dropped "/tool_choice/tools");

    // No parallel switch at all.
    x.tool_choice = None;
    x.parallel_tool_calls = Some(false);
    let (c, l) = choice_doc(&x);
    assert!(c.get("toolChoice").is_none());
    assert!(has_loss(&l, LossKind::Dropped, "/parallel_tool_calls"));

    // No tools: no toolConfig to hold the choice.
    let mut bare = base(vec![user("hi")]);
    bare.tools.clear();
    bare.tool_choice = Some(ToolChoice::mode(ChoiceMode::Required));
    let t = common::checked_trip(B, &bare, Kind::Request);
    assert!(t.doc.get("toolConfig").is_none());
    assert!(has_loss(&t.encoder, LossKind::Dropped, "/tool_choice"));
}

#[test]
fn bedrock_calls_without_tools_get_tool_specs() {
    let mut x = base(vec![
        user("go"),
        assistant(vec![
            call(Some("a"), "lookup", json!({"q": 1})),
            call(Some("b"), "lookup", json!({"q": 2})),
            call(Some("c"), "fetch", json!({})),
        ]),
        tool_msg(vec![
            result(Some("a"), "1"),
            result(Some("b"), "2"),
            result(Some("c"), "3"),
        ]),
    ]);
    x.tools.clear();
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(
        doc["toolConfig"]["tools"],
        json!([
            {"toolSpec": {"name": "lookup", "inputSchema": {"json": {"type": "object", "properties": {}}}}},
            {"toolSpec": {"name": "fetch", "inputSchema": {"json": {"type": "object", "properties": {}}}}}
        ])
    );
    assert!(has_loss(&losses, LossKind::Added, "/tools"), "{losses:#?}");
    assert_eq!(back.tools.len(), 2);
}

#[test]
fn bedrock_empty_text_is_dropped_next_to_tool_calls() {
    let x = base(vec![
        user("weather?"),
        assistant(vec![
            Part::text(""),
            call(Some("t1"), "get_weather", json!({"location": "Oslo"})),
        ]),
    ]);
    let (doc, losses, _) = round_trip(&x);
    assert_eq!(
        doc["messages"][1]["content"].as_array().unwrap().len(),
        1,
        "{doc}"
    );
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/1/parts"));

    // A response keeps it: that is what the model said.
    let mut msg = x.messages[1].clone();
    msg.stop_reason = Some(StopReason::ToolUse);
    msg.usage = common::usage(3, 4);
    let resp = Exchange {
        messages: vec![msg],
        ..Exchange::default()
    };
    let t = common::checked_trip(B, &resp, Kind::Response);
    assert_eq!(
        t.doc["output"]["message"]["content"][0],
        json!({"text": ""})
    );
    assert!(t.all.is_empty(), "{:#?}", t.all);
    assert_eq!(t.back, resp);
}

#[test]
fn bedrock_non_empty_strings_and_ranges() {
    let mut x = base(vec![user("hi")]);
    x.system = Some(String::new());
    x.tools[0].description = Some(String::new());
    x.options.temperature = Some(1.5);
    x.options.top_p = Some(0.9);
    x.options.stop = vec![String::new(), "END".into()];
    let (doc, losses, back) = round_trip(&x);
    assert!(doc.get("system").is_none());
    assert!(doc["toolConfig"]["tools"][0]["toolSpec"]
        .get("description")
        .is_none());
    assert_eq!(
        doc["inferenceConfig"],
        json!({"maxTokens": 1024, "temperature": 1.0, "topP": 0.9, "stopSequences": ["END"]})
    );
    assert_losses!(&losses; Dropped "/system", Dropped "/tools/0/description");
    assert_losses!(&losses; Rewritten "/options/temperature", Dropped "/options/stop");
    assert_eq!(back.options.stop, ["END"]);
}

/// A Converse request as the AWS docs show one (boto3 style, with `modelId`), with every kind
/// of provider-only detail: guardrails, additional model fields, cache points in the system
/// prompt and the tools, a system tool, an image, a document, reasoning, an explicit
/// `status: "success"`, request metadata and a field Toolscope has never heard of.
fn pasted_request() -> Value {
    json!({
        "modelId": "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
        "system": [
            {"text": "You are a helpful travel assistant."},
            {"cachePoint": {"type": "default"}}
        ],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"text": "What is the weather in Seattle? Here is my itinerary."},
                    {"document": {"format": "txt", "name": "itinerary", "source": {"bytes": "TW9uZGF5OiBTZWF0dGxl"}}},
                    {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://my-bucket/photo.jpg"}}}}
                ]
            },
            {
                "role": "assistant",
                "content": [
                    {"reasoningContent": {"reasoningText": {"text": "The user wants the weather.", "signature": "c2lnbmF0dXJl"}}},
                    {"text": "Let me look that up."},
                    {"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "top_song", "input": {"sign": "WZPZ"}}}
                ]
            },
            {
                "role": "user",
                "content": [
                    {"toolResult": {
                        "toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
                        "content": [{"json": {"song": "Elemental Hotel", "artist": "8 Storey Hike"}}],
                        "status": "success"
                    }},
                    {"cachePoint": {"type": "default"}}
                ]
            }
        ],
        "inferenceConfig": {"maxTokens": 2048, "temperature": 0.5, "topP": 0.9, "stopSequences": ["\n\nHuman:"]},
        "toolConfig": {
            "tools": [
                {"toolSpec": {
                    "name": "top_song",
                    "description": "Get the most popular song played on a radio station.",
                    "inputSchema": {"json": {
                        "type": "object",
                        "properties": {"sign": {"type": "string", "description": "The call sign for the radio station, such as WZPZ or WKRP."}},
                        "required": ["sign"]
                    }}
                }},
                {"systemTool": {"name": "nova_grounding"}},
                {"cachePoint": {"type": "default"}}
            ],
            "toolChoice": {"auto": {}}
        },
        "guardrailConfig": {"guardrailIdentifier": "gr1abc", "guardrailVersion": "1", "trace": "enabled"},
        "additionalModelRequestFields": {"top_k": 200, "thinking": {"type": "enabled", "budget_tokens": 1024}},
        "additionalModelResponseFieldPaths": ["/stop_sequence"],
        "requestMetadata": {"team": "travel"},
        "performanceConfig": {"latency": "standard"},
        "futureField": {"anything": [1, 2, 3]}
    })
}

#[test]
fn bedrock_pasted_request_survives_unchanged() {
    let doc = pasted_request();
    let (x, losses) = decode(&doc, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(
        x.system.as_deref(),
        Some("You are a helpful travel assistant.")
    );
    // The system tool is a hosted tool; the thinking settings are reasoning options.
    assert_eq!(x.tools.len(), 2);
    assert!(x.tools.iter().any(|t| t.hosted.is_some()));
    assert_eq!(x.options.reasoning.budget, Some(1024));
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Auto)));
    assert_eq!(x.options.max_tokens, Some(2048));
    // user, assistant, tool (the result), user (the cache point after it).
    let roles: Vec<Role> = x.messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool, Role::User]);
    let r = x.messages[2].tool_results().next().unwrap();
    assert_eq!(
        r.content,
        ResultContent::Json(json!({"song": "Elemental Hotel", "artist": "8 Storey Hike"}))
    );
    assert!(
        matches!(&x.messages[1].parts[0], Part::Reasoning(r) if r.opaque.as_ref().is_some_and(|o| o.provider == "bedrock"))
    );
    let (again, losses) = encode(&x);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(again, doc);
}

#[test]
fn bedrock_rest_body_without_model_id_stays_without() {
    let mut doc = pasted_request();
    doc.as_object_mut().unwrap().remove("modelId");
    let (x, losses) = decode(&doc, Kind::Request);
    assert!(losses.is_empty());
    assert_eq!(x.options.model, None);
    let (again, losses) = encode(&x);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(again, doc);
    // A model that is not from such a paste gets a placeholder, reported.
    let mut fresh = base(vec![user("hi")]);
    fresh.options.model = None;
    let (doc, losses) = encode(&fresh);
    assert_eq!(
        doc["modelId"],
        toolscope::formats::bedrock::PLACEHOLDER_MODEL
    );
    assert!(has_loss(&losses, LossKind::Note, "/options/model"));
}

/// A Converse response as the AWS docs show one, with metrics, a guardrail trace, additional
/// model fields, cache usage and an unknown field.
fn pasted_response() -> Value {
    json!({
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"text": "I'll look up the top song."},
                    {"toolUse": {"toolUseId": "tooluse_hizU52VmTVm0OafqTbFRTA", "name": "top_song", "input": {"sign": "WZPZ"}}}
                ]
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 375, "outputTokens": 84, "totalTokens": 459, "cacheReadInputTokens": 0, "cacheWriteInputTokens": 120},
        "metrics": {"latencyMs": 1837},
        "additionalModelResponseFields": {"stop_sequence": null},
        "trace": {"guardrail": {"modelOutput": ["I'll look up the top song."]}},
        "performanceConfig": {"latency": "standard"},
        "requestId": "3f1c2b8e-0000-4000-8000-000000000000"
    })
}

#[test]
fn bedrock_pasted_response_survives_unchanged() {
    let doc = pasted_response();
    let (x, losses) = decode(&doc, Kind::Response);
    assert!(losses.is_empty());
    let m = &x.messages[0];
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(m.usage, common::usage(375, 84));
    assert_eq!(
        m.tool_calls().next().unwrap().arguments,
        json!({"sign": "WZPZ"})
    );
    let (again, losses) = encode_response(&x);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(again, doc);

    // An odd totalTokens and a guardrail stop survive too.
    let mut odd = doc.clone();
    odd["usage"]["totalTokens"] = json!(999);
    odd["stopReason"] = json!("guardrail_intervened");
    let (x, _) = decode(&odd, Kind::Response);
    assert_eq!(
        x.messages[0].stop_reason,
        Some(StopReason::Other("guardrail_intervened".into()))
    );
    assert_eq!(encode_response(&x).0, odd);
    odd["stopReason"] = json!("content_filtered");
    let (x, _) = decode(&odd, Kind::Response);
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::ContentFilter));
    assert_eq!(encode_response(&x).0, odd);
}

#[test]
fn bedrock_response_placeholders_are_reported_and_not_read_back() {
    let x = Exchange {
        options: Options {
            model: Some("gpt-4o".into()),
            ..Options::default()
        },
        messages: vec![assistant(vec![call(Some("c1"), "get_weather", json!({}))])],
        ..Exchange::default()
    };
    let t = common::checked_trip(B, &x, Kind::Response);
    assert_eq!(t.doc["stopReason"], "tool_use");
    assert_eq!(
        t.doc["usage"],
        json!({"inputTokens": 0, "outputTokens": 0, "totalTokens": 0})
    );
    assert_eq!(t.doc["metrics"], json!({"latencyMs": 0}));
    assert!(has_loss(
        &t.encoder,
        LossKind::Added,
        "/messages/0/stop_reason"
    ));
    assert!(has_loss(&t.encoder, LossKind::Added, "/messages/0/usage"));
    assert!(has_loss(&t.encoder, LossKind::Dropped, "/options/model"));
    assert!(t.back.messages[0].usage.is_none());
    assert!(t.back.messages[0].extra.is_empty());

    // No assistant turn at all: an empty assistant message, reported.
    let t = common::checked_trip(B, &Exchange::default(), Kind::Response);
    assert_eq!(t.doc["output"]["message"]["content"], json!([]));
    assert!(has_loss(&t.encoder, LossKind::Added, "/messages"));

    // A stop reason Bedrock lacks.
    let mut msg = assistant(vec![Part::text("hm")]);
    msg.stop_reason = Some(StopReason::Other("pause_turn".into()));
    let x = Exchange {
        messages: vec![msg],
        ..Exchange::default()
    };
    let t = common::checked_trip(B, &x, Kind::Response);
    assert_eq!(t.doc["stopReason"], "end_turn");
    assert!(has_loss(
        &t.encoder,
        LossKind::Rewritten,
        "/messages/0/stop_reason"
    ));
}

#[test]
fn bedrock_response_message_into_a_request_drops_response_fields() {
    let (resp, _) = decode(&pasted_response(), Kind::Response);
    let mut x = base(vec![user("top song on WZPZ?")]);
    x.messages.extend(resp.messages);
    let (doc, losses, _) = round_trip(&x);
    assert_eq!(
        doc["messages"][1],
        json!({"role": "assistant", "content": [
            {"text": "I'll look up the top song."},
            {"toolUse": {"toolUseId": "tooluse_hizU52VmTVm0OafqTbFRTA", "name": "top_song", "input": {"sign": "WZPZ"}}}
        ]})
    );
    for k in [
        "metrics",
        "usage",
        "trace",
        "additionalModelResponseFields",
        "response",
    ] {
        assert!(
            has_loss(
                &losses,
                LossKind::Dropped,
                &format!("/messages/1/extra/bedrock/{k}")
            ),
            "{k}: {losses:#?}"
        );
    }
}

#[test]
fn bedrock_decode_errors_point_at_the_spot() {
    // Semantic errors: (document, pointer, where the error points in the text).
    let cases = [
        (
            "{\n  \"modelId\": \"m\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": [{\"text\": \"hi\"}]},\n    {\"role\": \"assistant\", \"content\": [{\"toolResult\": {\"toolUseId\": \"x\", \"content\": []}}]}\n  ]\n}",
            "/messages/1/content/0",
            "{\"toolResult\"",
        ),
        (
            "{\n  \"modelId\": \"m\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": [\n      {\"toolResult\": {\"toolUseId\": \"tooluse_nowhere\", \"content\": []}}\n    ]}\n  ]\n}",
            "/messages/0/content/0/toolResult/toolUseId",
            "\"tooluse_nowhere\"",
        ),
        (
            "{\n  \"modelId\": \"m\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": [\n      {\"toolUse\": {\"toolUseId\": \"a\", \"name\": \"f\", \"input\": {}}}\n    ]}\n  ]\n}",
            "/messages/0/content/0",
            "{\"toolUse\"",
        ),
    ];
    common::assert_errors_at_snippets(B, Kind::Request, &cases);
    // Shape errors found while parsing: the pointer and the line of the offending element.
    let shapes = [
        (
            "{\n  \"modelId\": \"m\",\n  \"messages\": [\n    {\"role\": \"system\", \"content\": []}\n  ]\n}",
            "/messages/0/role",
            4,
            "unknown variant",
        ),
        (
            "{\n  \"messages\": [\n    {\"role\": \"assistant\", \"content\": [\n      {\"toolUse\": {\"name\": \"f\", \"input\": {}}}\n    ]}\n  ]\n}",
            "/messages/0/content/0",
            4,
            "missing field `toolUseId`",
        ),
        (
            "{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": [\n      {\"text\": \"hi\", \"cachePoint\": {\"type\": \"default\"}}\n    ]}\n  ]\n}",
            "/messages/0/content/0",
            4,
            "exactly one member",
        ),
        (
            "{\n  \"modelId\": \"m\",\n  \"toolConfig\": {\"tools\": [{\"toolSpec\": {\"name\": \"f\"}}]},\n  \"messages\": []\n}",
            "/toolConfig/tools/0",
            3,
            "inputSchema",
        ),
    ];
    common::assert_shape_errors(B, &shapes);
    // Syntax errors: line and column, no pointer.
    let e = B
        .decode(
            "{\n  \"messages\": [\n    {\"role\": \"user\",, }\n  ]\n}",
            Kind::Request,
        )
        .expect_err("syntax");
    assert_eq!((e.line, e.pointer.as_deref()), (Some(3), None));
    // A toolResult in a response.
    let text = "{\"output\": {\"message\": {\"role\": \"assistant\",\n \"content\": [{\"toolResult\": {\"toolUseId\": \"a\", \"content\": []}}]}},\n \"stopReason\": \"end_turn\", \"usage\": {\"inputTokens\": 1, \"outputTokens\": 1, \"totalTokens\": 2}, \"metrics\": {\"latencyMs\": 5}}";
    let e = B.decode(text, Kind::Response).expect_err("response");
    assert_eq!(e.pointer.as_deref(), Some("/output/message/content/0"));
    let (line, column) = position(text, "{\"toolResult\"");
    assert_eq!((e.line, e.column), (Some(line), Some(column)));
}

#[test]
fn bedrock_detect_and_sniff() {
    let req = B.encode(&base(vec![user("hi")]), Kind::Request).text;
    assert_eq!(Format::detect(&req).unwrap(), (B, Kind::Request));
    let pasted = serde_json::to_string(&pasted_request()).unwrap();
    assert_eq!(Format::detect(&pasted).unwrap(), (B, Kind::Request));
    let resp = serde_json::to_string(&pasted_response()).unwrap();
    assert_eq!(Format::detect(&resp).unwrap(), (B, Kind::Response));
    // A bare REST body: only the block shape says Bedrock.
    let bare = json!({"messages": [{"role": "user", "content": [{"text": "hi"}]}]});
    assert_eq!(
        Format::detect(&bare.to_string()).unwrap(),
        (B, Kind::Request)
    );

    use toolscope::formats::bedrock::Codec;
    assert_eq!(Codec::sniff(&bare), Some((Kind::Request, 96)));
    let typed =
        json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
    assert_eq!(Codec::sniff(&typed), Some((Kind::Request, 0)));
    let string = json!({"messages": [{"role": "user", "content": "hi"}]});
    assert_eq!(Codec::sniff(&string), Some((Kind::Request, 0)));
    assert_eq!(
        Codec::sniff(&json!({"inferenceConfig": {}})),
        Some((Kind::Request, 96))
    );
    // Gemini has a `toolConfig` too: not Bedrock's.
    let gemini = json!({"contents": [], "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}});
    assert_eq!(Codec::sniff(&gemini), Some((Kind::Request, 0)));
    assert_eq!(
        Codec::sniff(&json!({"toolConfig": {"functionCallingConfig": {}}})),
        Some((Kind::Request, 0))
    );
    // An OpenAI Responses `output` array is not a Converse response.
    assert_eq!(
        Codec::sniff(&json!({"output": []})),
        Some((Kind::Request, 0))
    );
    assert_eq!(Codec::sniff(&json!([1])), None);
}

#[test]
fn bedrock_other_formats_details_are_dropped() {
    let mut x = base(vec![user("hi")]);
    let mut fields = serde_json::Map::new();
    fields.insert("store".into(), json!(true));
    x.extra.insert("openai-responses".into(), fields.clone());
    x.tools[0].extra.insert("anthropic".into(), fields.clone());
    x.messages.push(assistant(vec![
        Part::Raw {
            format: "anthropic".into(),
            value: json!({"type": "thinking", "thinking": "hmm"}),
        },
        Part::text("hello"),
    ]));
    let (doc, losses, _) = round_trip(&x);
    assert!(doc.get("store").is_none());
    assert_losses!(&losses; Dropped "/extra/openai-responses", Dropped "/tools/0/extra/anthropic");
    assert_losses!(&losses; Dropped "/messages/1/parts");
    assert_eq!(doc["messages"][1]["content"], json!([{"text": "hello"}]));
}

#[test]
fn bedrock_system_blocks_are_kept_while_the_text_matches() {
    let (mut x, _) = decode(&pasted_request(), Kind::Request);
    let (doc, losses) = encode(&x);
    assert!(losses.is_empty());
    assert_eq!(doc["system"][1], json!({"cachePoint": {"type": "default"}}));
    x.system = Some("Be brief.".into());
    let (doc, losses) = encode(&x);
    assert_eq!(doc["system"], json!([{"text": "Be brief."}]));
    assert_loss(&losses, LossKind::Dropped, "/extra/bedrock/system");
}

#[test]
fn bedrock_tool_names_are_rewritten_consistently() {
    let mut x = base(vec![
        user("go"),
        assistant(vec![
            call(Some("a"), "weather.get", json!({})),
            call(Some("b"), "get_weather", json!({})),
        ]),
    ]);
    x.tools.push(Tool {
        name: "weather.get".into(),
        ..weather_tool()
    });
    x.tools.push(Tool {
        name: "weather_get".into(),
        ..weather_tool()
    });
    x.tool_choice = Some(ToolChoice::force("weather.get"));
    let (doc, losses, back) = round_trip(&x);
    let names: Vec<&str> = doc["toolConfig"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["toolSpec"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_weather", "weather_get_2", "weather_get"]);
    assert_eq!(
        doc["messages"][1]["content"][0]["toolUse"]["name"],
        "weather_get_2"
    );
    assert_eq!(
        doc["toolConfig"]["toolChoice"],
        json!({"tool": {"name": "weather_get_2"}})
    );
    assert_losses!(&losses; Rewritten "/tools/1/name", Rewritten "/messages/1/parts/0/name");
    assert_losses!(&losses; Rewritten "/tool_choice/tools/0");
    assert!(!has_loss(&losses, LossKind::Rewritten, "/tools/2/name"));
    assert_eq!(back.tools[1].name, "weather_get_2");
    assert!(toolscope::formats::bedrock::tool_name_ok("weather_get_2"));
    assert!(!toolscope::formats::bedrock::tool_name_ok("weather.get"));
}

#[test]
fn bedrock_empty_text_blocks_in_results_are_dropped() {
    let r = ToolResult::new(
        Some("t1".into()),
        ResultContent::Blocks(vec![
            Block::Text {
                text: String::new(),
            },
            Block::Text { text: "a".into() },
            Block::Text { text: "b".into() },
        ]),
    );
    let x = base(vec![
        user("go"),
        assistant(vec![call(Some("t1"), "get_weather", json!({}))]),
        tool_msg(vec![Part::ToolResult(r)]),
    ]);
    let (doc, losses, _) = round_trip(&x);
    assert_eq!(
        doc["messages"][2]["content"][0]["toolResult"]["content"],
        json!([{"text": "a"}, {"text": "b"}])
    );
    assert_loss(
        &losses,
        LossKind::Dropped,
        "/messages/2/parts/0/content/blocks",
    );
}

/// The pasted documents, without the fields made up to test unknown-field handling, are what
/// botocore's service model accepts (so the pastes are realistic, not invented shapes).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn bedrock_pasted_documents_are_valid_for_botocore() {
    let dir = std::env::temp_dir().join(format!("toolscope-bedrock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut req = pasted_request();
    req.as_object_mut().unwrap().remove("futureField");
    let mut resp = pasted_response();
    resp.as_object_mut().unwrap().remove("requestId");
    for (kind, doc) in [("request", req), ("response", resp)] {
        let path = dir.join(format!("bedrock.{kind}.pasted.json"));
        std::fs::write(&path, doc.to_string()).expect("write");
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
        let mut cmd = std::process::Command::new("python3");
        cmd.arg(script).args(["bedrock", kind]).arg(&path);
        common::run_ok(&mut cmd, "python3 with botocore");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
