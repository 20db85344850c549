//! Hard cases of the Anthropic Messages format: result grouping, ids, arguments, tool_choice,
//! empty text, pasted documents from the Anthropic docs, decode errors, detection.

use serde_json::{json, Value};
use toolscope::formats::{Codec as _, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{
    assert_loss, assistant, call, error_result, has_loss, position, result, tool_msg, user,
};

const A: Format = Format::Anthropic;

fn encode(x: &Exchange) -> (Value, Vec<Loss>) {
    common::encode_doc(A, x, Kind::Request)
}

fn encode_response(x: &Exchange) -> (Value, Vec<Loss>) {
    common::encode_doc(A, x, Kind::Response)
}

fn decode(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    common::decode_doc(A, doc, kind)
}

/// Encode, decode, and check that every difference is under a reported loss.
fn round_trip(x: &Exchange) -> (Value, Vec<Loss>, Exchange) {
    let t = common::checked_trip(A, x, Kind::Request);
    (t.doc, t.all, t.back)
}

fn base(messages: Vec<Message>) -> Exchange {
    Exchange {
        tools: vec![Tool {
            name: "get_weather".into(),
            description: Some("Weather for a city.".into()),
            input_schema: json!({"type": "object", "properties": {"location": {"type": "string"}}}),
            strict: None,
            output_schema: None,
            annotations: None,
            hosted: None,
            custom: None,
            extra: Extra::new(),
        }],
        options: Options {
            model: Some("claude-sonnet-4-5".into()),
            max_tokens: Some(1024),
            ..Options::default()
        },
        messages,
        ..Exchange::default()
    }
}

#[test]
fn anthropic_parallel_results_come_first_in_one_user_message() {
    let x = base(vec![
        user("Weather in Tokyo and Oslo?"),
        common::checking_both("toolu_A", "toolu_B"),
        // Results in the opposite order of the calls, then the user's next words.
        tool_msg(vec![
            result(Some("toolu_B"), "-3 °C"),
            result(Some("toolu_A"), "24 °C"),
        ]),
        user("And tomorrow?"),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(back, x);
    let msgs = doc["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3);
    assert_eq!(msgs[2]["role"], "user");
    assert_eq!(
        msgs[2]["content"],
        json!([
            {"type": "tool_result", "tool_use_id": "toolu_B", "content": "-3 °C"},
            {"type": "tool_result", "tool_use_id": "toolu_A", "content": "24 °C"},
            {"type": "text", "text": "And tomorrow?"}
        ])
    );
    assert_eq!(msgs[0]["content"], "Weather in Tokyo and Oslo?");
}

#[test]
fn anthropic_consecutive_tool_messages_merge_with_a_report() {
    common::blocks::tool_messages_merge(A, base);
}

#[test]
fn anthropic_ids_are_rewritten_consistently_between_call_and_result() {
    common::blocks::ids_rewritten_in_pairs(
        A,
        base,
        "toolu_ok-1",
        ("/id", "/tool_use_id"),
        IdRule::ANTHROPIC,
    );
}

#[test]
fn anthropic_missing_ids_are_assigned_and_paired_by_name() {
    common::blocks::missing_ids_paired_by_name(A, base, ("/id", "/tool_use_id"));
}

#[test]
fn anthropic_invalid_and_non_object_arguments_become_empty_objects() {
    common::blocks::bad_arguments_become_empty_objects(A, base, "/input");
}

#[test]
fn anthropic_empty_arguments_are_an_empty_object() {
    let empty = ToolCall::from_text(Some("t1".into()), "get_time", "  ");
    let x = base(vec![user("time?"), assistant(vec![Part::ToolCall(empty)])]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(doc["messages"][1]["content"][0]["input"], json!({}));
    assert!(!losses.iter().any(|l| l.pointer.contains("arguments")));
    assert_eq!(back, x);
}

#[test]
fn anthropic_error_results_json_and_blocks() {
    let err = error_result(Some("t1"), "Unknown ticker");
    let json_result = ToolResult::new(
        Some("t2".into()),
        ResultContent::Json(json!({"price": 231.45})),
    );
    let blocks = common::chart_result("t3", vec![Block::Text { text: "".into() }]);
    let x = base(common::calls_answered(
        "prices",
        &[
            ("t1", "get_weather"),
            ("t2", "get_weather"),
            ("t3", "get_weather"),
        ],
        vec![err, json_result, blocks],
    ));
    let (doc, losses, back) = round_trip(&x);
    let content = &doc["messages"][2]["content"];
    assert_eq!(
        content[0],
        json!({"type": "tool_result", "tool_use_id": "t1", "content": "Unknown ticker", "is_error": true})
    );
    assert_eq!(content[1]["content"], "{\"price\":231.45}");
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/1/content");
    assert_eq!(
        content[2]["content"],
        json!([
            {"type": "text", "text": "chart:"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
        ])
    );
    assert_loss(
        &losses,
        LossKind::Dropped,
        "/messages/2/parts/2/content/blocks/2",
    );
    let results: Vec<_> = back.messages[2].tool_results().collect();
    assert!(results[0].is_error);
    assert!(!results[1].is_error);
    assert!(
        matches!(&results[2].content, ResultContent::Blocks(b) if b.len() == 2
        && matches!(&b[1], Block::Image { media_type, .. } if media_type == "image/png"))
    );
}

/// tool_choice, parallel_tool_calls, the `tool_choice` written, the loss expected.
type ChoiceCase = (
    Option<ToolChoice>,
    Option<bool>,
    Value,
    Option<(LossKind, &'static str)>,
);

#[test]
fn anthropic_every_tool_choice() {
    let mut several = ToolChoice::mode(ChoiceMode::Required);
    several.tools = vec!["get_weather".into(), "get_time".into()];
    let mut auto_one = ToolChoice::mode(ChoiceMode::Auto);
    auto_one.tools = vec!["get_weather".into()];
    let cases: Vec<ChoiceCase> = vec![
        (None, None, Value::Null, None),
        (
            None,
            Some(false),
            json!({"type": "auto", "disable_parallel_tool_use": true}),
            Some((LossKind::Added, "/tool_choice")),
        ),
        (
            None,
            Some(true),
            Value::Null,
            Some((LossKind::Dropped, "/parallel_tool_calls")),
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Auto)),
            None,
            json!({"type": "auto"}),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Auto)),
            Some(false),
            json!({"type": "auto", "disable_parallel_tool_use": true}),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Auto)),
            Some(true),
            json!({"type": "auto", "disable_parallel_tool_use": false}),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::None)),
            None,
            json!({"type": "none"}),
            None,
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::None)),
            Some(false),
            json!({"type": "none"}),
            Some((LossKind::Dropped, "/parallel_tool_calls")),
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Required)),
            None,
            json!({"type": "any"}),
            None,
        ),
        (
            Some(ToolChoice::force("get_weather")),
            Some(false),
            json!({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true}),
            None,
        ),
        (
            Some(several),
            None,
            json!({"type": "any"}),
            Some((LossKind::Rewritten, "/tool_choice/tools")),
        ),
        (
            Some(ToolChoice::mode(ChoiceMode::Validated)),
            None,
            json!({"type": "auto"}),
            Some((LossKind::Rewritten, "/tool_choice/mode")),
        ),
        (
            Some(auto_one),
            None,
            json!({"type": "auto"}),
            Some((LossKind::Dropped, "/tool_choice/tools")),
        ),
    ];
    for (choice, parallel, expected, loss) in cases {
        let mut x = base(vec![user("hi")]);
        x.tool_choice = choice.clone();
        x.parallel_tool_calls = parallel;
        let (doc, losses, back) = round_trip(&x);
        let label = format!("{choice:?} {parallel:?}");
        assert_eq!(doc["tool_choice"], expected, "{label}");
        match loss {
            Some((kind, pointer)) => {
                assert!(has_loss(&losses, kind, pointer), "{label}: {losses:#?}")
            }
            None => {
                assert!(losses.is_empty(), "{label}: {losses:#?}");
                assert_eq!(back, x, "{label}");
            }
        }
    }
}

#[test]
fn anthropic_empty_text_is_dropped_next_to_tool_calls() {
    let x = base(vec![
        Message::new(Role::User, vec![Part::text("")]),
        assistant(vec![
            Part::text(""),
            call(Some("t1"), "get_weather", json!({"location": "Oslo"})),
        ]),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(doc["messages"][0]["content"], json!([]));
    assert_eq!(
        doc["messages"][1]["content"],
        json!([{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"location": "Oslo"}}])
    );
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/0/parts/0"));
    // The call moves up one place: the loss covers the whole list.
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/1/parts"));
    assert_eq!(back.messages[1].parts.len(), 1);
}

/// A request in the shape of the Anthropic docs' examples (tool use with extended thinking,
/// prompt caching, a server tool, an image), with provider-only fields everywhere.
fn pasted_request() -> Value {
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 16000,
        "thinking": {"type": "enabled", "budget_tokens": 10000},
        "metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"},
        "service_tier": "auto",
        "system": [
            {"type": "text", "text": "You are an AI assistant that answers weather questions."},
            {"type": "text", "text": "Always answer in metric units.", "cache_control": {"type": "ephemeral"}}
        ],
        "tools": [
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
            {
                "name": "get_weather",
                "description": "Get the current weather in a given location",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}
                    },
                    "required": ["location"]
                },
                "cache_control": {"type": "ephemeral", "ttl": "1h"}
            }
        ],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": true},
        "stop_sequences": ["\n\nHuman:"],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQSkZJRg=="}},
                    {"type": "text", "text": "What's the weather where this photo was taken?"}
                ]
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "The photo shows the Golden Gate Bridge.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
                    {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "San Francisco, CA"}}
                ]
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                        "content": [{"type": "text", "text": "15 degrees, fog"}],
                        "is_error": false,
                        "cache_control": {"type": "ephemeral"}
                    }
                ]
            },
            {"role": "assistant", "content": [{"type": "text", "text": "It is 15 °C and foggy."}]},
            {"role": "user", "content": "Thanks!"}
        ]
    })
}

#[test]
fn anthropic_pasted_request_survives_unchanged() {
    let doc = pasted_request();
    let (x, _) = decode(&doc, Kind::Request);
    // What the model understood of it.
    assert_eq!(
        x.system.as_deref(),
        Some("You are an AI assistant that answers weather questions.\nAlways answer in metric units.")
    );
    // The server tool is a hosted tool, in its place.
    assert_eq!(x.tools.len(), 2);
    assert_eq!(
        x.tools[0].hosted.as_ref().map(|h| h.kind.as_str()),
        Some("web_search")
    );
    assert_eq!(x.options.reasoning.budget, Some(10000));
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Auto)));
    assert_eq!(x.parallel_tool_calls, Some(false));
    assert_eq!(x.options.stop, ["\n\nHuman:"]);
    assert!(matches!(&x.messages[0].parts[0], Part::Raw { format, .. } if format == "anthropic"));
    assert!(
        matches!(&x.messages[1].parts[0], Part::Reasoning(r) if r.opaque.as_ref().is_some_and(|o| o.provider == "anthropic"))
    );
    assert_eq!(x.messages[2].role, Role::Tool);
    let (again, losses) = encode(&x);
    assert_eq!(again, doc, "{again:#}");
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn anthropic_pasted_simple_documents_keep_their_content_form() {
    for doc in [
        json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "Hello, Claude"}]}),
        json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": [{"type": "text", "text": "Hello, Claude"}]}]}),
        json!({
            "model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be brief.",
            "messages": [
                {"role": "user", "content": "Hello there."},
                {"role": "assistant", "content": "Hi, I'm Claude. How can I help you?"},
                {"role": "user", "content": "Can you explain LLMs in plain English?"}
            ]
        }),
    ] {
        let (x, _) = decode(&doc, Kind::Request);
        let (again, losses) = encode(&x);
        assert_eq!(again, doc);
        assert!(losses.is_empty(), "{losses:#?}");
    }
}

/// A response in the shape of the docs' web search example, with thinking, a server tool call
/// and its result, citations, a client tool call and detailed usage.
fn pasted_response() -> Value {
    json!({
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [
            {"type": "thinking", "thinking": "I should search first.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxB"},
            {"type": "text", "text": "I'll search for that."},
            {"type": "server_tool_use", "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "name": "web_search", "input": {"query": "claude shannon birth date"}},
            {
                "type": "web_search_tool_result",
                "tool_use_id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
                "content": [{
                    "type": "web_search_result",
                    "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
                    "title": "Claude Shannon - Wikipedia",
                    "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2EYAhIMy",
                    "page_age": "April 30, 2025"
                }]
            },
            {
                "type": "text",
                "text": "Claude Shannon was born on April 30, 1916, in Petoskey, Michigan",
                "citations": [{
                    "type": "web_search_result_location",
                    "url": "https://en.wikipedia.org/wiki/Claude_Shannon",
                    "title": "Claude Shannon - Wikipedia",
                    "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
                    "cited_text": "Claude Elwood Shannon (April 30, 1916 – February 24, 2001) was an American mathematician"
                }]
            },
            {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "Petoskey, MI"}}
        ],
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {
            "input_tokens": 6039,
            "output_tokens": 931,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 2048,
            "server_tool_use": {"web_fetch_requests": 0, "web_search_requests": 1},
            "service_tier": "standard"
        }
    })
}

#[test]
fn anthropic_pasted_response_survives_unchanged() {
    let doc = pasted_response();
    let (x, _) = decode(&doc, Kind::Response);
    let m = &x.messages[0];
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(m.usage, common::usage(6039, 931));
    assert_eq!(m.tool_calls().count(), 1);
    assert_eq!(
        x.options.model.as_deref(),
        Some("claude-sonnet-4-5-20250929")
    );
    let (again, losses) = encode_response(&x);
    assert_eq!(again, doc, "{again:#}");
    assert!(losses.is_empty(), "{losses:#?}");

    // A stop sequence is kept too.
    let mut doc = pasted_response();
    doc["stop_reason"] = json!("stop_sequence");
    doc["stop_sequence"] = json!("\n\nHuman:");
    let (x, _) = decode(&doc, Kind::Response);
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::StopSequence));
    assert_eq!(encode_response(&x).0, doc);
}

#[test]
fn anthropic_response_placeholders_are_reported_and_not_read_back() {
    let mut x = base(vec![
        user("hi"),
        assistant(vec![call(None, "get_weather", json!({}))]),
    ]);
    x.options.model = None;
    let (doc, losses) = encode_response(&x);
    assert_eq!(doc["id"], "msg_toolscope");
    assert_eq!(doc["stop_reason"], "tool_use");
    assert_eq!(doc["usage"], json!({"input_tokens": 0, "output_tokens": 0}));
    assert_eq!(doc["model"], "claude-sonnet-4-5");
    assert_losses!(&losses; Added "/messages/0/stop_reason", Added "/messages/0/usage");
    assert_losses!(&losses; Added "/messages/0/parts/0/id");
    let (back, _) = decode(&doc, Kind::Response);
    assert!(back.messages[0].usage.is_none());
    assert!(back.messages[0].extra.is_empty());

    // No assistant turn: an empty answer, reported.
    let (doc, losses) = encode_response(&base(vec![user("hi")]));
    assert_eq!(doc["content"], json!([]));
    assert!(has_loss(&losses, LossKind::Added, "/messages"));

    // A stop reason Anthropic lacks.
    let mut m = assistant(vec![Part::text("x")]);
    m.stop_reason = Some(StopReason::Other("RECITATION".into()));
    m.usage = Some(Usage::default());
    let (doc, losses) = encode_response(&base(vec![user("hi"), m]));
    assert_eq!(doc["stop_reason"], "end_turn");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
}

#[test]
fn anthropic_decode_errors_point_at_the_spot() {
    // (document, pointer, where the error points in the text)
    let cases = [
        (
            "{\n  \"model\": \"m\",\n  \"max_tokens\": 5,\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"},\n    {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"x\"}]}\n  ]\n}",
            "/messages/1/content/0",
            "{\"type\": \"tool_result\"",
        ),
        (
            "{\n  \"model\": \"m\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": [\n      {\"type\": \"tool_result\", \"tool_use_id\": \"toolu_nowhere\"}\n    ]}\n  ]\n}",
            "/messages/0/content/0/tool_use_id",
            "\"toolu_nowhere\"",
        ),
        (
            "{\n  \"model\": \"m\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"},\n    {\"role\": \"user\", \"content\": [\n      {\"type\": \"tool_use\", \"id\": \"a\", \"name\": \"f\", \"input\": {}}\n    ]}\n  ]\n}",
            "/messages/1/content/0",
            "{\"type\": \"tool_use\"",
        ),
    ];
    common::assert_errors_at_snippets(A, Kind::Request, &cases);
    // Shape errors found while parsing: the pointer, and the line where the offending element
    // starts (not where serde noticed, which for a malformed block is its end).
    let shapes = [
        (
            "{\n  \"model\": \"m\",\n  \"messages\": [\n    {\"role\": \"tool\", \"content\": \"hi\"}\n  ]\n}",
            "/messages/0/role",
            4,
            "unknown variant",
        ),
        (
            "{\n  \"model\": \"m\",\n  \"messages\": [\n    {\"role\": \"assistant\", \"content\": [\n      {\"type\": \"tool_use\", \"name\": \"f\", \"input\": {}}\n    ]}\n  ]\n}",
            "/messages/0/content/0",
            5,
            "missing field `id`",
        ),
        (
            "{\n  \"model\": \"m\",\n  \"tools\": [{\"name\": \"f\"}],\n  \"messages\": []\n}",
            "/tools/0",
            3,
            "input_schema",
        ),
        (
            "{\n  \"model\": \"m\",\n  \"tool_choice\": {\"type\": \"required\"},\n  \"messages\": []\n}",
            "/tool_choice/type",
            3,
            "unknown variant",
        ),
    ];
    common::assert_shape_errors(A, &shapes);
    // Syntax errors: line and column, no pointer.
    let e = A
        .decode(
            "{\n  \"messages\": [\n    {\"role\": \"user\",, }\n  ]\n}",
            Kind::Request,
        )
        .expect_err("syntax");
    assert_eq!((e.line, e.pointer.as_deref()), (Some(3), None));
    // A tool_result in a response.
    let text = "{\"id\": \"m\", \"type\": \"message\", \"role\": \"assistant\", \"model\": \"x\",\n \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"a\"}], \"usage\": {\"input_tokens\": 1, \"output_tokens\": 1}}";
    let e = A.decode(text, Kind::Response).expect_err("response");
    assert_eq!(e.pointer.as_deref(), Some("/content/0"));
    let (line, column) = position(text, "{\"type\": \"tool_result\"");
    assert_eq!((e.line, e.column), (Some(line), Some(column)));
}

#[test]
fn anthropic_detect_and_sniff() {
    let req = A.encode(&base(vec![user("hi")]), Kind::Request).text;
    assert_eq!(Format::detect(&req).unwrap(), (A, Kind::Request));
    let resp = serde_json::to_string(&pasted_response()).unwrap();
    assert_eq!(Format::detect(&resp).unwrap(), (A, Kind::Response));
    let pasted = serde_json::to_string(&pasted_request()).unwrap();
    assert_eq!(Format::detect(&pasted).unwrap(), (A, Kind::Request));

    use toolscope::formats::anthropic::Codec;
    // No marker: 50 + 3 for max_tokens, below OpenAI Chat's 55 for a bare `messages`.
    let bare =
        json!({"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]});
    assert_eq!(Codec::sniff(&bare), Some((Kind::Request, 53)));
    let system = json!({"system": "s", "messages": []});
    assert_eq!(Codec::sniff(&system), Some((Kind::Request, 92)));
    let results = json!({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"}]}]});
    assert_eq!(Codec::sniff(&results), Some((Kind::Request, 92)));
    let openai_choice = json!({"messages": [], "tool_choice": "auto"});
    assert_eq!(Codec::sniff(&openai_choice), Some((Kind::Request, 50)));
    assert_eq!(Codec::sniff(&json!({"contents": []})), None);
    assert_eq!(Codec::sniff(&json!([1])), None);
}

#[test]
fn anthropic_system_message_inside_the_conversation() {
    let doc = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Hello"},
            {"role": "assistant", "content": "Hi!"},
            {"role": "system", "content": "From now on, answer in French."},
            {"role": "user", "content": "How are you?"}
        ]
    });
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.messages[2].role, Role::User);
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages/2/role"));
    let (again, enc_losses) = encode(&x);
    assert_eq!(again, doc);
    assert!(enc_losses.is_empty());
}

#[test]
fn anthropic_sampling_parameters_are_dropped_and_legacy_ones_read() {
    let mut x = base(vec![user("hi")]);
    x.options.temperature = Some(0.7);
    x.options.top_p = Some(0.9);
    let (doc, losses, _) = round_trip(&x);
    assert!(doc.get("temperature").is_none() && doc.get("top_p").is_none());
    assert_losses!(&losses; Dropped "/options/temperature", Dropped "/options/top_p");

    let legacy = json!({
        "model": "claude-3-5-sonnet-20241022", "max_tokens": 1024, "temperature": 0.2, "top_k": 40,
        "messages": [{"role": "user", "content": "hi"}]
    });
    let (x, _) = decode(&legacy, Kind::Request);
    assert_eq!(x.options.temperature, Some(0.2));
    assert_eq!(x.extra["anthropic"]["top_k"], json!(40));
}

#[test]
fn anthropic_server_tools_keep_their_place() {
    let doc = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": [
            {"name": "a", "input_schema": {"type": "object"}},
            {"type": "web_search_20250305", "name": "web_search"},
            {"name": "b", "input_schema": {"type": "object"}, "type": "custom"}
        ],
        "messages": [{"role": "user", "content": "hi"}]
    });
    let (mut x, _) = decode(&doc, Kind::Request);
    assert_eq!(x.tools.len(), 3);
    assert!(x.tools[1].hosted.is_some());
    assert_eq!(encode(&x).0, doc);
    // Client tools change: the server tool keeps its place among them.
    x.tools.remove(0);
    x.tools.push(Tool {
        name: "c".into(),
        description: None,
        input_schema: json!({"type": "object"}),
        strict: Some(true),
        output_schema: Some(json!({"type": "object"})),
        annotations: None,
        hosted: None,
        custom: None,
        extra: Extra::new(),
    });
    let (again, losses) = encode(&x);
    let names: Vec<&str> = again["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["web_search", "b", "c"]);
    assert_eq!(again["tools"][2]["strict"], true);
    assert_loss(&losses, LossKind::Dropped, "/tools/2/output_schema");
}

#[test]
fn anthropic_system_blocks_are_kept_while_the_text_matches() {
    let doc = pasted_request();
    let (mut x, _) = decode(&doc, Kind::Request);
    x.system = Some("Something else.".into());
    let (again, losses) = encode(&x);
    assert_eq!(again["system"], "Something else.");
    assert_loss(&losses, LossKind::Dropped, "/extra/anthropic/system");
}

#[test]
fn anthropic_other_formats_details_are_dropped() {
    let mut x = base(vec![
        user("hi"),
        assistant(vec![
            Part::Raw {
                format: "gemini".into(),
                value: json!({"executableCode": {}}),
            },
            Part::text("ok"),
        ]),
    ]);
    x.extra.insert(
        "openai-chat".into(),
        serde_json::from_value(json!({"store": true})).unwrap(),
    );
    // An own field too, so `/extra` itself survives and the loss pointer is what differs.
    x.extra.insert(
        "anthropic".into(),
        serde_json::from_value(json!({"metadata": {"user_id": "u1"}})).unwrap(),
    );
    let (doc, losses, _) = round_trip(&x);
    assert!(doc.get("store").is_none());
    assert_eq!(doc["metadata"], json!({"user_id": "u1"}));
    assert_losses!(&losses; Dropped "/extra/openai-chat", Dropped "/messages/1/parts");
    assert_eq!(doc["messages"][1]["content"], "ok");
}

/// The text is written from a body that borrows the exchange; the owned body of
/// `Codec::encode_request` (for callers that keep it) must be the same document with the same
/// losses: for a pasted document (server tools, system blocks, raw blocks), results of every
/// kind, and ids that have to be assigned and rewritten (the body then borrows a settled copy).
#[test]
fn anthropic_owned_body_is_the_written_text() {
    use toolscope::formats::{anthropic::Codec, json::pretty};
    let (pasted, _) = decode(&pasted_request(), Kind::Request);
    let results = base(common::calls_answered(
        "prices",
        &[("t1", "get_weather"), ("t2", "get_weather")],
        vec![
            error_result(Some("t1"), "Unknown ticker"),
            common::chart_result("t2", vec![Block::Text { text: "".into() }]),
        ],
    ));
    let mut ids = base(vec![
        user("Weather?"),
        assistant(vec![
            call(Some("bad id!"), "get_weather", json!({"location": "Oslo"})),
            call(None, "get_weather", json!([1])),
        ]),
        tool_msg(vec![result(Some("bad id!"), "rain"), result(None, "")]),
    ]);
    ids.options.temperature = Some(0.5);
    for x in [pasted, results, ids] {
        let written = A.encode(&x, Kind::Request);
        let (doc, losses) = Codec::encode_request(&x);
        assert_eq!(pretty(&doc), written.text);
        assert_eq!(losses, written.losses);
    }
}
