//! Hard cases of the Gemini `generateContent` format.

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{assert_loss, assistant, call, has_loss, tool_msg, user};

const G: Format = Format::Gemini;

fn result(id: Option<&str>, name: Option<&str>, content: ResultContent) -> Part {
    let mut r = ToolResult::new(id.map(Into::into), content);
    r.name = name.map(Into::into);
    Part::ToolResult(r)
}

fn text_result(t: &str) -> ResultContent {
    ResultContent::Text(t.into())
}

fn exchange(messages: Vec<Message>) -> Exchange {
    Exchange {
        messages,
        ..Exchange::default()
    }
}

/// Encode, decode, check the round-trip contract; return the document, the exchange read back
/// and all losses.
fn trip(x: &Exchange, kind: Kind) -> (Value, Exchange, Vec<Loss>) {
    let t = common::checked_trip(G, x, kind);
    (t.doc, t.back, t.all)
}

/// Decode a pasted document and encode it again: the same JSON value.
fn paste_round_trip(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    let text = serde_json::to_string_pretty(doc).expect("json");
    let dec = G.decode(&text, kind).unwrap_or_else(|e| panic!("{e}"));
    let enc = G.encode(&dec.exchange, kind);
    let back: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(&back, doc, "paste changed; losses {:#?}", enc.losses);
    (dec.exchange, dec.losses)
}

#[test]
fn gemini_parallel_calls_results_grouped_in_one_user_content() {
    let x = exchange(vec![
        user("Weather in Tokyo and Oslo?"),
        assistant(vec![
            call(None, "get_weather", json!({"city": "Tokyo"})),
            call(None, "get_weather", json!({"city": "Oslo"})),
        ]),
        tool_msg(vec![
            result(None, Some("get_weather"), text_result("24 °C")),
            result(None, Some("get_weather"), text_result("-3 °C")),
        ]),
        user("And tomorrow?"),
    ]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    let contents = doc["contents"].as_array().unwrap();
    assert_eq!(
        contents.len(),
        3,
        "tool results and user text share one content"
    );
    assert_eq!(contents[2]["role"], "user");
    let parts = contents[2]["parts"].as_array().unwrap();
    assert_eq!(
        parts[0]["functionResponse"]["response"],
        json!({"output": "24 °C"})
    );
    assert_eq!(
        parts[1]["functionResponse"]["response"],
        json!({"output": "-3 °C"})
    );
    assert_eq!(parts[2]["text"], "And tomorrow?");
    assert!(parts[0]["functionResponse"].get("id").is_none());
    assert_eq!(back, x, "split back into tool and user messages");
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn gemini_ids_kept_never_invented_and_names_added_from_calls() {
    let x = exchange(vec![
        user("hi"),
        assistant(vec![
            call(Some("fc_1"), "lookup", json!({})),
            call(Some("fc_2"), "search", json!({"q": "x"})),
        ]),
        // Results in the other order, without names: paired by id.
        tool_msg(vec![
            result(Some("fc_2"), None, text_result("found")),
            result(Some("fc_1"), None, text_result("looked up")),
        ]),
    ]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    let fr = &doc["contents"][2]["parts"];
    assert_eq!(fr[0]["functionResponse"]["id"], "fc_2");
    assert_eq!(fr[0]["functionResponse"]["name"], "search");
    assert_eq!(fr[1]["functionResponse"]["name"], "lookup");
    assert_eq!(doc["contents"][1]["parts"][0]["functionCall"]["id"], "fc_1");
    assert_losses!(&losses; Note "/messages/2/parts/0/name", Note "/messages/2/parts/1/name");
    assert_eq!(back.messages[1], x.messages[1], "ids unchanged");

    // Without ids nothing is invented: names come from the calls by order.
    let x = exchange(vec![
        user("hi"),
        assistant(vec![call(None, "a", json!({})), call(None, "b", json!({}))]),
        tool_msg(vec![
            result(None, None, text_result("1")),
            result(None, None, text_result("2")),
        ]),
    ]);
    let (doc, back, _) = trip(&x, Kind::Request);
    let text = doc.to_string();
    assert!(!text.contains("\"id\""), "no id invented: {text}");
    assert_eq!(
        doc["contents"][2]["parts"][1]["functionResponse"]["name"],
        "b"
    );
    assert!(back.messages[1].tool_calls().all(|c| c.id.is_none()));
}

#[test]
fn gemini_pairing_mismatch_is_reported() {
    let x = exchange(vec![
        user("hi"),
        assistant(vec![call(None, "a", json!({})), call(None, "b", json!({}))]),
        tool_msg(vec![result(None, Some("a"), text_result("1"))]),
        assistant(vec![call(None, "c", json!({}))]),
        user("never mind"),
    ]);
    let (_, _, losses) = trip(&x, Kind::Request);
    assert_losses!(&losses; Dropped "/messages/2", Dropped "/messages/3");
    // A conversation ending on the model's calls is fine (the results come next).
    let x = exchange(vec![
        user("hi"),
        assistant(vec![call(None, "a", json!({}))]),
    ]);
    let (_, _, losses) = trip(&x, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn gemini_invalid_and_respelled_arguments() {
    let mut bad = ToolCall::from_text(Some("c1".into()), "f", "{\"location\": \"Par");
    bad.extra.clear();
    let spaced = ToolCall::from_text(Some("c2".into()), "f", "{ \"a\" : 1 }");
    let x = exchange(vec![
        user("hi"),
        assistant(vec![Part::ToolCall(bad), Part::ToolCall(spaced)]),
    ]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    let parts = &doc["contents"][1]["parts"];
    assert_eq!(parts[0]["functionCall"]["args"], json!({}));
    assert_eq!(parts[1]["functionCall"]["args"], json!({"a": 1}));
    assert_losses!(&losses; Dropped "/messages/1/parts/0/arguments_raw");
    assert_losses!(&losses; Rewritten "/messages/1/parts/0/arguments");
    assert_losses!(&losses; Rewritten "/messages/1/parts/1/arguments_raw");
    let calls: Vec<_> = back.messages[1].tool_calls().collect();
    assert_eq!(calls[1].arguments, json!({"a": 1}));
    assert_eq!(calls[1].arguments_raw, None);
}

#[test]
fn gemini_empty_and_missing_arguments_read_as_empty_object() {
    // Empty argument text is `{}` in the model and `args: {}` on the wire.
    let empty = ToolCall::from_text(None, "now", "");
    let x = exchange(vec![user("time?"), assistant(vec![Part::ToolCall(empty)])]);
    let (doc, _, losses) = trip(&x, Kind::Request);
    assert_eq!(
        doc["contents"][1]["parts"][0]["functionCall"]["args"],
        json!({})
    );
    assert!(losses.is_empty());
    // A functionCall without args is read as {} and said so.
    let text = r#"{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "now"}}]}, "finishReason": "STOP"}]}"#;
    let dec = G.decode(text, Kind::Response).unwrap();
    let c = dec.exchange.messages[0].tool_calls().next().unwrap();
    assert_eq!(c.arguments, json!({}));
    assert_eq!(
        dec.exchange.messages[0].stop_reason,
        Some(StopReason::ToolUse)
    );
    assert!(has_loss(
        &dec.losses,
        LossKind::Added,
        "/messages/0/parts/0/arguments"
    ));
    // Non-object arguments become {} with a loss.
    let x = exchange(vec![
        user("x"),
        assistant(vec![call(None, "f", json!([1, 2]))]),
    ]);
    let (_, _, losses) = trip(&x, Kind::Request);
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/1/parts/0/arguments",
    );
}

#[test]
fn gemini_error_and_json_results() {
    let mut err_text = ToolResult::new(None, text_result("Unknown ticker"));
    err_text.is_error = true;
    err_text.name = Some("price".into());
    let mut err_json = ToolResult::new(None, ResultContent::Json(json!({"code": 404})));
    err_json.is_error = true;
    err_json.name = Some("price".into());
    let results = vec![
        Part::ToolResult(err_text),
        Part::ToolResult(err_json),
        result(
            None,
            Some("price"),
            ResultContent::Json(json!({"price": 1.5})),
        ),
        // Objects that would read back as text or as an error are wrapped.
        result(
            None,
            Some("price"),
            ResultContent::Json(json!({"output": "x"})),
        ),
        result(
            None,
            Some("price"),
            ResultContent::Json(json!({"error": "y"})),
        ),
        result(None, Some("price"), ResultContent::Json(json!([1, 2]))),
    ];
    let calls = (0..results.len())
        .map(|_| call(None, "price", json!({})))
        .collect();
    let x = exchange(vec![user("price?"), assistant(calls), tool_msg(results)]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    let r = |i: usize| doc["contents"][2]["parts"][i]["functionResponse"]["response"].clone();
    assert_eq!(r(0), json!({"error": "Unknown ticker"}));
    assert_eq!(r(1), json!({"error": {"code": 404}}));
    assert_eq!(r(2), json!({"price": 1.5}));
    assert_eq!(r(3), json!({"output": {"output": "x"}}));
    assert_eq!(r(4), json!({"output": {"error": "y"}}));
    assert_eq!(r(5), json!({"output": [1, 2]}));
    assert_eq!(back, x, "all of these are exact");
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn gemini_lossy_results_are_reported() {
    let img = Block::Image {
        media_type: "image/png".into(),
        data: "iVBORw0KGgo=".into(),
    };
    let x = exchange(vec![
        user("x"),
        assistant(vec![
            call(None, "f", json!({})),
            call(None, "f", json!({})),
            call(None, "f", json!({})),
        ]),
        tool_msg(vec![
            result(None, Some("f"), ResultContent::Json(json!("just a string"))),
            result(
                None,
                Some("f"),
                ResultContent::Blocks(vec![
                    Block::Text { text: "a".into() },
                    Block::Text { text: "b".into() },
                ]),
            ),
            // One text then images: exact, the images as inline parts.
            result(
                None,
                Some("f"),
                ResultContent::Blocks(vec![
                    Block::Text {
                        text: "chart".into(),
                    },
                    img,
                ]),
            ),
        ]),
    ]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    assert_losses!(&losses; Rewritten "/messages/2/parts/0/content", Rewritten "/messages/2/parts/1/content");
    assert!(!losses
        .iter()
        .any(|l| l.pointer.starts_with("/messages/2/parts/2")));
    let fr = &doc["contents"][2]["parts"][1]["functionResponse"];
    assert_eq!(fr["response"], json!({"output": "a\nb"}));
    let fr = &doc["contents"][2]["parts"][2]["functionResponse"];
    assert_eq!(fr["response"], json!({"output": "chart"}));
    assert_eq!(
        fr["parts"],
        json!([{"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}])
    );
    assert_eq!(back.messages[2].parts[2], x.messages[2].parts[2]);
}

#[test]
fn gemini_every_tool_choice() {
    let tools = vec![common::bare_tool("f")];
    let cases = [
        (
            ToolChoice::mode(ChoiceMode::Auto),
            json!({"mode": "AUTO"}),
            None,
        ),
        (
            ToolChoice::mode(ChoiceMode::None),
            json!({"mode": "NONE"}),
            None,
        ),
        (
            ToolChoice::mode(ChoiceMode::Required),
            json!({"mode": "ANY"}),
            None,
        ),
        (
            ToolChoice::mode(ChoiceMode::Validated),
            json!({"mode": "VALIDATED"}),
            None,
        ),
        (
            ToolChoice::force("f"),
            json!({"mode": "ANY", "allowedFunctionNames": ["f"]}),
            None,
        ),
        (
            ToolChoice {
                mode: ChoiceMode::Validated,
                tools: vec!["f".into()],
            },
            json!({"mode": "VALIDATED", "allowedFunctionNames": ["f"]}),
            None,
        ),
        (
            ToolChoice {
                mode: ChoiceMode::Auto,
                tools: vec!["f".into()],
            },
            json!({"mode": "AUTO"}),
            Some("/tool_choice/tools"),
        ),
        (
            ToolChoice {
                mode: ChoiceMode::None,
                tools: vec!["f".into()],
            },
            json!({"mode": "NONE"}),
            Some("/tool_choice/tools"),
        ),
    ];
    for (choice, wire, loss) in cases {
        let mut x = exchange(vec![user("go")]);
        x.tools = tools.clone();
        x.tool_choice = Some(choice.clone());
        let (doc, back, losses) = trip(&x, Kind::Request);
        assert_eq!(
            doc["toolConfig"]["functionCallingConfig"], wire,
            "{choice:?}"
        );
        match loss {
            None => {
                assert_eq!(back.tool_choice, Some(choice));
                assert!(losses.is_empty(), "{losses:#?}");
            }
            Some(p) => assert!(has_loss(&losses, LossKind::Dropped, p), "{losses:#?}"),
        }
    }
}

#[test]
fn gemini_parallel_switch_strict_and_model_are_reported() {
    let mut x = exchange(vec![user("go")]);
    x.parallel_tool_calls = Some(false);
    x.options.model = Some("gemini-2.5-flash".into());
    x.options.temperature = Some(0.7);
    x.tools = vec![Tool {
        name: "f".into(),
        description: Some("F.".into()),
        input_schema: json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        strict: Some(true),
        output_schema: None,
        annotations: Some(json!({"readOnlyHint": true})),
        hosted: None,
        custom: None,
        extra: Extra::new(),
    }];
    let (doc, _, losses) = trip(&x, Kind::Request);
    assert!(doc.get("model").is_none());
    assert_eq!(doc["generationConfig"], json!({"temperature": 0.7}));
    assert_losses!(&losses; Dropped "/parallel_tool_calls", Note "/options/model");
    assert_losses!(&losses; Dropped "/tools/0/strict", Dropped "/tools/0/annotations");
}

#[test]
fn gemini_empty_text_next_to_calls_is_left_out() {
    let x = exchange(vec![
        Message::new(Role::User, vec![Part::text("")]),
        assistant(vec![Part::text(""), call(None, "f", json!({"a": 1}))]),
    ]);
    let (doc, back, losses) = trip(&x, Kind::Request);
    assert_eq!(
        doc["contents"][0]["parts"],
        json!([{"text": ""}]),
        "alone, it stays"
    );
    assert_eq!(doc["contents"][1]["parts"].as_array().unwrap().len(), 1);
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/1/parts"));
    assert_eq!(back.messages[1].parts.len(), 1);
}

#[test]
fn gemini_schema_choice_per_tool() {
    let tool = |schema: Value| Tool {
        name: "f".into(),
        description: None,
        input_schema: schema,
        strict: None,
        output_schema: Some(json!({"type": "object", "properties": {"ok": {"type": "boolean"}}})),
        annotations: None,
        hosted: None,
        custom: None,
        extra: Extra::new(),
    };
    let mut x = exchange(vec![user("go")]);
    x.tools = vec![
        tool(json!({"type": "object", "properties": {"q": {"type": ["string", "null"]}}})),
        tool(
            json!({"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}),
        ),
        tool(json!({"type": "object", "properties": {"d": {"type": "string", "format": "date"}}})),
    ];
    let (doc, back, losses) = trip(&x, Kind::Request);
    let d = &doc["tools"][0]["functionDeclarations"];
    assert_eq!(
        d[0]["parameters"],
        json!({"type": "OBJECT", "properties": {"q": {"type": "STRING", "nullable": true}}})
    );
    assert_eq!(d[0]["response"]["type"], "OBJECT");
    assert!(d[1]["parameters"].is_null());
    assert_eq!(d[1]["parametersJsonSchema"]["additionalProperties"], false);
    assert!(
        d[2]["parametersJsonSchema"].is_object(),
        "date format: JSON Schema"
    );
    assert_eq!(back.tools, x.tools);
    assert!(losses.is_empty(), "{losses:#?}");
}

#[test]
fn gemini_pasted_schema_spelling_round_trips_until_edited() {
    let doc = json!({
        "contents": [{"role": "user", "parts": [{"text": "Turn on the lights"}]}],
        "tools": [{"functionDeclarations": [
            {"name": "set_light", "parameters": {"type": "object", "properties": {"rgb": {"type": "string"}}, "required": ["rgb"]}},
            {"name": "dim", "parametersJsonSchema": {"type": "object", "properties": {"level": {"type": "integer"}}}}
        ]}],
        "toolConfig": {"functionCallingConfig": {"mode": "any"}}
    });
    let (mut x, losses) = paste_round_trip(&doc, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(x.tools[0].input_schema["type"], "object");
    assert_eq!(
        x.tools[0].input_schema["properties"]["rgb"]["type"],
        "string"
    );
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Required)));
    // Once the schema changes, the pasted spelling is stale: written afresh, reported.
    x.tools[0].input_schema["properties"]["rgb"]["description"] = json!("hex colour");
    let (doc, _, losses) = trip(&x, Kind::Request);
    let d = &doc["tools"][0]["functionDeclarations"][0];
    assert_eq!(d["parameters"]["properties"]["rgb"]["type"], "STRING");
    assert_loss(&losses, LossKind::Rewritten, "/tools/0/extra");
}

#[test]
fn gemini_pasted_request_survives_unchanged() {
    // Shaped after the Gemini 3 function-calling docs: thought signatures, ids, a thought, an
    // image, Google Search next to the functions, and settings Toolscope does not model.
    let doc = json!({
        "systemInstruction": {"role": "user", "parts": [{"text": "You are a travel agent."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "Check flight AA100 and book a taxi if it is delayed."},
                {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQSkZJRg=="}}
            ]},
            {"role": "model", "parts": [
                {"text": "**Planning**\nCheck the flight first.", "thought": true},
                {"functionCall": {"id": "8f2b1c", "name": "check_flight", "args": {"flight": "AA100"}}, "thoughtSignature": "CiQBcsjafEiAcxLBqOxEZp0Z"}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "8f2b1c", "name": "check_flight", "response": {"status": "delayed", "departure_time": "12 PM"}, "willContinue": false}}
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "2a7d9e", "name": "book_taxi", "args": {"time": "10 AM"}}, "thoughtSignature": "CiUBcsjafM1g2tc="}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "2a7d9e", "name": "book_taxi", "response": {"output": "Booking confirmed"}}},
                {"text": "Thanks!"}
            ]}
        ],
        "tools": [
            {"functionDeclarations": [
                {"name": "check_flight", "description": "Gets the current status of a flight", "parameters": {"type": "object", "properties": {"flight": {"type": "string", "description": "The flight number"}}, "required": ["flight"]}},
                {"name": "book_taxi", "description": "Book a taxi", "parameters": {"type": "OBJECT", "properties": {"time": {"type": "STRING"}}, "required": ["time"]}, "behavior": "BLOCKING"}
            ]},
            {"googleSearch": {}}
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}},
        "generationConfig": {
            "temperature": 1,
            "topK": 40,
            "maxOutputTokens": 8192,
            "thinkingConfig": {"includeThoughts": true, "thinkingLevel": "HIGH"}
        },
        "safetySettings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "threshold": "BLOCK_ONLY_HIGH"}]
    });
    let (x, losses) = paste_round_trip(&doc, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    // What the model understood.
    assert_eq!(x.system.as_deref(), Some("You are a travel agent."));
    assert_eq!(x.tools.len(), 3, "two functions and Google Search");
    assert_eq!(x.tools[2].hosted.as_ref().unwrap().kind, "web_search");
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Validated)));
    assert_eq!(x.options.temperature, Some(1.0));
    assert_eq!(x.options.max_tokens, Some(8192));
    let roles: Vec<Role> = x.messages.iter().map(|m| m.role).collect();
    use Role::*;
    assert_eq!(roles, [User, Assistant, Tool, Assistant, Tool, User]);
    let first_call = x.messages[1].tool_calls().next().unwrap();
    assert_eq!(first_call.id.as_deref(), Some("8f2b1c"));
    // The thought is reasoning; the call's signature is an attached reasoning part before it.
    let Part::Reasoning(thought) = &x.messages[1].parts[0] else {
        panic!("thought read as reasoning")
    };
    assert_eq!(
        thought.text.as_deref(),
        Some("**Planning**\nCheck the flight first.")
    );
    let Part::Reasoning(sig) = &x.messages[1].parts[1] else {
        panic!("signature read as reasoning")
    };
    assert!(sig.attached);
    let o = sig.opaque.as_ref().unwrap();
    assert_eq!(
        (o.data.as_str(), o.provider.as_str()),
        ("CiQBcsjafEiAcxLBqOxEZp0Z", "gemini")
    );
    assert!(matches!(&x.messages[0].parts[1], Part::Raw { .. }));
    let r: Vec<_> = x.messages[4].tool_results().collect();
    assert_eq!(r[0].content, text_result("Booking confirmed"));
    assert!(x.extra["gemini"].contains_key("safetySettings"));
}

#[test]
fn gemini_pasted_response_survives_unchanged() {
    let doc = json!({
        "candidates": [{
            "content": {"role": "model", "parts": [
                {"text": "**Checking**\nThe user wants the weather.", "thought": true},
                {"functionCall": {"name": "get_weather", "args": {"location": "Paris"}}, "thoughtSignature": "EpYECpMEAcu98PDx"}
            ]},
            "finishReason": "STOP",
            "index": 0,
            "avgLogprobs": -0.21
        }],
        "usageMetadata": {
            "promptTokenCount": 85,
            "candidatesTokenCount": 17,
            "totalTokenCount": 190,
            "thoughtsTokenCount": 88,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 85}]
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "Xk9BaaGTL5mvkdUPv6zXwA8"
    });
    let (x, losses) = paste_round_trip(&doc, Kind::Response);
    assert!(losses.is_empty(), "{losses:#?}");
    let m = &x.messages[0];
    assert_eq!(
        m.stop_reason,
        Some(StopReason::ToolUse),
        "STOP with calls is tool use"
    );
    assert_eq!(m.usage, common::usage(85, 17));
    assert_eq!(x.options.model.as_deref(), Some("gemini-2.5-flash"));
    assert_eq!(
        m.extra["gemini"]["response"]["responseId"],
        "Xk9BaaGTL5mvkdUPv6zXwA8"
    );
    // Continuing the conversation: the signature goes back with the call, the response-level
    // fields do not belong in a request content and are reported.
    let mut next = x.clone();
    next.messages.insert(0, user("Weather in Paris?"));
    next.messages
        .push(tool_msg(vec![result(None, None, text_result("18 °C"))]));
    let (req, _, losses) = trip(&next, Kind::Request);
    let part = &req["contents"][1]["parts"][1];
    assert_eq!(part["thoughtSignature"], "EpYECpMEAcu98PDx");
    assert!(req["contents"][1].get("response").is_none());
    // The turn's stop reason is response data outside the request view: not a loss.
    assert!(!losses
        .iter()
        .any(|l| l.pointer == "/messages/1/stop_reason"));
    assert!(losses
        .iter()
        .any(|l| l.pointer.starts_with("/messages/1/extra")));
    assert_eq!(
        req["contents"][2]["parts"][0]["functionResponse"]["name"],
        "get_weather"
    );
}

#[test]
fn gemini_snake_case_docs_example_is_read() {
    // The lighting example of the function-calling docs, snake_case and lower-case enums.
    let text = r#"{
  "system_instruction": {"parts": [{"text": "You are a helpful lighting system bot."}]},
  "tools": [{"function_declarations": [
    {"name": "enable_lights", "description": "Turn on the lighting system."},
    {"name": "set_light_color", "description": "Set the light color.",
     "parameters": {"type": "object", "properties": {"rgb_hex": {"type": "string"}}, "required": ["rgb_hex"]}}
  ]}],
  "tool_config": {"function_calling_config": {"mode": "auto"}},
  "contents": [{"role": "user", "parts": [{"text": "Turn on the lights please."}]}]
}"#;
    assert_eq!(Format::detect(text).unwrap(), (G, Kind::Request));
    let dec = G.decode(text, Kind::Request).unwrap();
    let x = &dec.exchange;
    assert_eq!(
        x.system.as_deref(),
        Some("You are a helpful lighting system bot.")
    );
    assert_eq!(x.tools.len(), 2);
    assert_eq!(
        x.tools[1].input_schema["properties"],
        json!({"rgb_hex": {"type": "string"}}),
        "property names are user data, never renamed"
    );
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Auto)));
    let note = dec
        .losses
        .iter()
        .find(|l| l.what.contains("snake_case"))
        .expect("snake_case noted");
    assert_eq!(note.kind, LossKind::Note);
    assert!(note.what.contains("function_declarations"), "{}", note.what);
    // Written back in the snake_case and lower-case spellings it was pasted with.
    let enc = G.encode(x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc, serde_json::from_str::<Value>(text).unwrap());
    assert_eq!(
        doc["tool_config"]["function_calling_config"]["mode"],
        "auto"
    );
}

#[test]
fn gemini_legacy_function_role_is_imported() {
    let text = r#"{"contents": [
  {"role": "user", "parts": [{"text": "Weather?"}]},
  {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}}}]},
  {"role": "function", "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp": 18}}}]}
]}"#;
    let dec = G.decode(text, Kind::Request).unwrap();
    let m = &dec.exchange.messages[2];
    assert_eq!(m.role, Role::Tool);
    assert_eq!(
        m.tool_results().next().unwrap().content,
        ResultContent::Json(json!({"temp": 18}))
    );
    assert!(has_loss(
        &dec.losses,
        LossKind::Rewritten,
        "/messages/2/role"
    ));
    let enc = G.encode(&dec.exchange, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).unwrap();
    assert_eq!(doc["contents"][2]["role"], "user");
}

#[test]
fn gemini_decode_errors_point_at_the_spot() {
    let text = "{\n  \"contents\": [\n    {\"role\": \"user\", \"parts\": [{\"text\": \"hi\"}]},\n    {\"role\": \"assistant\", \"parts\": [{\"text\": \"hello\"}]}\n  ]\n}";
    let e = G.decode(text, Kind::Request).unwrap_err();
    assert_eq!(e.pointer.as_deref(), Some("/contents/1/role"));
    assert_eq!((e.line, e.column), (Some(4), Some(14)));
    assert!(e.message.contains("assistant"), "{e}");

    let text = "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"functionCall\": {\"name\": \"f\", \"args\": {}}}]}]}";
    let e = G.decode(text, Kind::Request).unwrap_err();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/contents/0/parts/0/functionCall")
    );
    assert!(e.line.is_some());

    let text = "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"functionCall\": {\"args\": {}}}]}}]}";
    let e = G.decode(text, Kind::Response).unwrap_err();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/candidates/0/content/parts/0/functionCall")
    );
    assert!(e.message.contains("name"), "{e}");

    // Pointers are spelled as the user wrote them, so the position is found.
    let text = "{\"contents\": [],\n \"tools\": [{\"function_declarations\": [\n   {\"description\": \"no name\"}]}]}";
    let e = G.decode(text, Kind::Request).unwrap_err();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/tools/0/function_declarations/0")
    );
    assert_eq!(e.line, Some(3));

    let text = "{\"contents\": [], \"tools\": [{\"functionDeclarations\": [{\"name\": \"f\", \"parameters\": {\"type\": \"OBJECT\"}, \"parametersJsonSchema\": {}}]}]}";
    let e = G.decode(text, Kind::Request).unwrap_err();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/tools/0/functionDeclarations/0")
    );

    let text = "{\"contents\": [], \"toolConfig\": {\"functionCallingConfig\": {\"mode\": \"SOMETIMES\"}}}";
    let e = G.decode(text, Kind::Request).unwrap_err();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/toolConfig/functionCallingConfig/mode")
    );

    let e = G.decode("{\"contents\": [}", Kind::Request).unwrap_err();
    assert_eq!(e.line, Some(1));
}

#[test]
fn gemini_detect_requests_and_responses() {
    let x = exchange(vec![user("hi"), assistant(vec![Part::text("hello")])]);
    for kind in [Kind::Request, Kind::Response] {
        let enc = G.encode(&x, kind);
        assert_eq!(Format::detect(&enc.text).unwrap(), (G, kind));
    }
    // A blocked prompt: no candidates at all.
    let blocked = r#"{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}, "modelVersion": "gemini-2.5-flash"}"#;
    assert_eq!(Format::detect(blocked).unwrap(), (G, Kind::Response));
    let dec = G.decode(blocked, Kind::Response).unwrap();
    assert!(has_loss(&dec.losses, LossKind::Added, "/messages/0"));
    assert_eq!(
        dec.exchange.messages[0].extra["gemini"]["response"]["promptFeedback"]["blockReason"],
        "SAFETY"
    );
}

#[test]
fn gemini_stop_reasons() {
    let msg = |parts: Vec<Part>, stop: Option<StopReason>| {
        let mut m = assistant(parts);
        m.stop_reason = stop;
        exchange(vec![user("q"), m])
    };
    let (doc, back, losses) = trip(
        &msg(vec![Part::text("long")], Some(StopReason::MaxTokens)),
        Kind::Response,
    );
    assert_eq!(doc["candidates"][0]["finishReason"], "MAX_TOKENS");
    assert_eq!(back.messages[0].stop_reason, Some(StopReason::MaxTokens));
    assert!(losses.is_empty());

    let (doc, _, _) = trip(
        &msg(vec![Part::text("no")], Some(StopReason::ContentFilter)),
        Kind::Response,
    );
    assert_eq!(doc["candidates"][0]["finishReason"], "SAFETY");

    let (doc, _, losses) = trip(
        &msg(vec![Part::text("x")], Some(StopReason::StopSequence)),
        Kind::Response,
    );
    assert_eq!(doc["candidates"][0]["finishReason"], "STOP");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");

    let (doc, _, losses) = trip(
        &msg(
            vec![Part::text("x")],
            Some(StopReason::Other("pause_turn".into())),
        ),
        Kind::Response,
    );
    assert_eq!(doc["candidates"][0]["finishReason"], "OTHER");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");

    let (doc, back, losses) = trip(&msg(vec![call(None, "f", json!({}))], None), Kind::Response);
    assert_eq!(doc["candidates"][0]["finishReason"], "STOP");
    assert_eq!(back.messages[0].stop_reason, Some(StopReason::ToolUse));
    assert_loss(&losses, LossKind::Added, "/messages/0/stop_reason");

    // No model turn at all: an empty candidate, reported.
    let (doc, _, losses) = trip(&exchange(vec![user("q")]), Kind::Response);
    assert_eq!(doc["candidates"][0]["content"], json!({"role": "model"}));
    assert!(has_loss(&losses, LossKind::Added, "/messages"));
}

#[test]
fn gemini_non_function_tools_survive_an_edit() {
    let doc = json!({
        "contents": [{"role": "user", "parts": [{"text": "What happened today?"}]}],
        "tools": [{"googleSearch": {}}, {"codeExecution": {}}]
    });
    let (mut x, _) = paste_round_trip(&doc, Kind::Request);
    let kinds: Vec<&str> = x
        .tools
        .iter()
        .map(|t| t.hosted.as_ref().unwrap().kind.as_str())
        .collect();
    assert_eq!(kinds, ["web_search", "code_execution"]);
    x.tools.insert(0, common::bare_tool("f"));
    let (doc, back, _) = trip(&x, Kind::Request);
    assert_eq!(
        doc["tools"],
        json!([{"functionDeclarations": [{"name": "f"}]}, {"googleSearch": {}}, {"codeExecution": {}}])
    );
    assert_eq!(back.tools, x.tools);
}

#[test]
fn gemini_usage_total_includes_thoughts() {
    let mut m = assistant(vec![Part::text("hi")]);
    m.stop_reason = Some(StopReason::EndTurn);
    m.usage = common::usage(10, 0);
    let (doc, back, losses) = trip(&exchange(vec![user("q"), m]), Kind::Response);
    assert_eq!(
        doc["usageMetadata"],
        json!({"promptTokenCount": 10, "totalTokenCount": 10}),
        "zero counts left out, as the API does"
    );
    assert_eq!(back.messages[0].usage.as_ref().unwrap().output_tokens, 0);
    assert!(losses.is_empty());
}

#[test]
fn gemini_other_formats_details_are_reported() {
    let mut foreign = Extra::new();
    foreign.insert(
        "openai-responses".into(),
        serde_json::from_value(json!({"id": "fc_123", "status": "completed"})).unwrap(),
    );
    let mut c = ToolCall::new(Some("call_1".into()), "f", json!({}));
    c.extra = foreign.clone();
    let mut x = exchange(vec![
        user("hi"),
        assistant(vec![
            Part::Raw {
                format: "anthropic".into(),
                value: json!({"type": "thinking", "thinking": "hmm", "signature": "abc"}),
            },
            Part::ToolCall(c),
        ]),
    ]);
    x.extra = foreign;
    let (doc, back, losses) = trip(&x, Kind::Request);
    let parts = doc["contents"][1]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 1, "the Anthropic thinking block is not sent");
    assert_losses!(&losses; Dropped "/messages/1/parts", Dropped "/messages/1/parts/1/extra");
    assert_losses!(&losses; Dropped "/extra");
    assert!(back.extra.is_empty());
}

#[test]
fn gemini_extra_candidates_are_reported() {
    let text = r#"{"candidates": [
  {"content": {"role": "model", "parts": [{"text": "A"}]}, "finishReason": "STOP"},
  {"content": {"role": "model", "parts": [{"text": "B"}]}, "finishReason": "STOP", "index": 1}
], "modelVersion": "gemini-2.5-pro"}"#;
    let dec = G.decode(text, Kind::Response).unwrap();
    assert_eq!(dec.exchange.messages.len(), 1);
    assert_eq!(dec.exchange.messages[0].parts, vec![Part::text("A")]);
    let loss = dec
        .losses
        .iter()
        .find(|l| l.what.contains("more candidates"));
    assert_eq!(
        loss.and_then(|l| l.target.as_deref()),
        Some("/candidates/1")
    );
}
