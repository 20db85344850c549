//! Hard cases of Cohere Chat v2: `tool_plan`, tool_choice `REQUIRED`/`NONE` only,
//! `strict_tools`, `p`/`stop_sequences`, document tool results, the response shape
//! (`{id, finish_reason, message, usage}`), plus every hard case of the protocol.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::dialects::Cohere;
use toolscope::formats::{Codec, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::dialect::{self, Dialect};
use common::{assert_loss, assistant, call, error_result, has_loss, result, tool_msg, user};

format_kit!(Format::Cohere, "command-a-03-2025");

const D: Dialect = Dialect {
    format: F,
    model: "command-a-03-2025",
    id: "c1",
};

#[test]
fn cohere_conforms() {
    dialect::conforms(&D).unwrap_or_else(|e| panic!("{e}"));
}

fn tool(name: &str, strict: Option<bool>) -> Tool {
    Tool {
        name: name.into(),
        description: Some(format!("The {name} tool.")),
        input_schema: empty_object_schema(),
        strict,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Extra::new(),
    }
}

fn weather_round() -> Exchange {
    let mut x = exchange(common::weather_round("get_weather_a1", "get_weather_b2"));
    let plan = Part::text("I will look up both cities.");
    x.messages[1].parts.insert(0, plan);
    x.tools = vec![tool("get_weather", None)];
    x
}

#[test]
fn cohere_parallel_results_and_tool_plan() {
    let (doc, losses) = encode(&weather_round(), Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    let m = &doc["messages"];
    // The text before the calls is the tool plan; no content.
    assert_eq!(m[1]["tool_plan"], "I will look up both cities.");
    assert!(m[1].get("content").is_none());
    assert_eq!(
        m[1]["tool_calls"][1]["function"]["arguments"],
        "{\"city\":\"Oslo\"}"
    );
    assert_eq!(
        m[2],
        json!({"role": "tool", "tool_call_id": "get_weather_b2", "content": "-3 °C"})
    );
    assert_eq!(m[3]["tool_call_id"], "get_weather_a1");
    assert_eq!(doc["strict_tools"], false);
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages[1].parts.len(), 3);
    assert_eq!(back.messages[2].tool_results().count(), 2);
}

#[test]
fn cohere_missing_ids_are_assigned_and_results_paired() {
    let x = exchange(vec![
        user("time?"),
        assistant(vec![call(None, "now", json!({}))]),
        tool_msg(vec![result(None, "12:00")]),
    ]);
    let (doc, _) = dialect::missing_ids_are_assigned_and_paired(&D, &x);
    assert_eq!(doc["messages"][1]["tool_calls"][0]["id"], "call_1");
    assert_eq!(doc["messages"][2]["tool_call_id"], "call_1");
}

#[test]
fn cohere_invalid_and_empty_arguments() {
    dialect::invalid_arguments_are_sent_as_written(&D, "{\"q\": tru");
    dialect::empty_arguments_read_as_an_empty_object(
        &Dialect {
            model: "command-r-plus",
            ..D
        },
        json!({"role": "assistant", "tool_plan": "I will check the time.", "tool_calls": [
            {"id": "now_0", "type": "function", "function": {"name": "now", "arguments": ""}}]}),
    );
}

#[test]
fn cohere_error_and_json_results() {
    let failed = error_result(Some("c1"), "timeout");
    let object = ToolResult::new(Some("c2".into()), ResultContent::Json(json!({"temp": 18})));
    let list = ToolResult::new(Some("c3".into()), ResultContent::Json(json!([1, 2])));
    let x = exchange(common::calls_answered(
        "go",
        &[("c1", "f"), ("c2", "g"), ("c3", "h")],
        vec![failed, object, list],
    ));
    let (doc, losses) = encode(&x, Kind::Request);
    let m = &doc["messages"];
    assert_eq!(m[2]["content"], "Error: timeout");
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/0");
    // A JSON object is a document, Cohere's own way: nothing lost.
    assert_eq!(
        m[3]["content"],
        json!([{"type": "document", "document": {"data": {"temp": 18}}}])
    );
    assert!(!losses
        .iter()
        .any(|l| l.pointer.starts_with("/messages/2/parts/1")));
    // Other JSON is text.
    assert_eq!(m[4]["content"], "[1,2]");
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/2/content");
}

#[test]
fn cohere_every_tool_choice() {
    let base = || {
        let mut x = exchange(vec![user("go")]);
        x.tools = vec![tool("a", None), tool("b", None)];
        x
    };
    for (choice, wire) in [
        (ToolChoice::mode(ChoiceMode::None), json!("NONE")),
        (ToolChoice::mode(ChoiceMode::Required), json!("REQUIRED")),
    ] {
        let mut x = base();
        x.tool_choice = Some(choice);
        let (doc, losses) = encode(&x, Kind::Request);
        assert_eq!(doc["tool_choice"], wire);
        assert!(losses.is_empty(), "{losses:#?}");
    }
    // No auto: left out (the default), reported.
    let mut x = base();
    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Auto));
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(doc.get("tool_choice").is_none());
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice"));
    // No named tool: REQUIRED, the restriction reported.
    let mut x = base();
    x.tool_choice = Some(ToolChoice::force("b"));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["tool_choice"], "REQUIRED");
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice/tools"));
    // No validated mode.
    let mut x = base();
    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Validated));
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(doc.get("tool_choice").is_none());
    assert!(has_loss(&losses, LossKind::Rewritten, "/tool_choice/mode"));
    // OpenAI's words are not Cohere's: kept as they were, reported.
    let doc = json!({"model": "command-a-03-2025", "messages": [{"role": "user", "content": "x"}], "tool_choice": "auto"});
    let (x, losses) = decode(&doc, Kind::Request);
    assert_eq!(x.tool_choice, None);
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice"));
}

#[test]
fn cohere_strict_tools_and_parallel_tool_calls() {
    let mut x = weather_round();
    x.tools = vec![tool("get_weather", Some(true)), tool("b", Some(true))];
    x.parallel_tool_calls = Some(true);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["strict_tools"], true);
    assert!(doc["tools"][0]["function"].get("strict").is_none());
    assert!(doc.get("parallel_tool_calls").is_none());
    assert!(has_loss(&losses, LossKind::Dropped, "/parallel_tool_calls"));
    // Tools that disagree lose their flag.
    x.tools[1].strict = None;
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(doc.get("strict_tools").is_none());
    assert!(has_loss(&losses, LossKind::Dropped, "/tools/0/strict"));
}

#[test]
fn cohere_sampling_options_use_cohere_names() {
    let mut x = weather_round();
    x.options.top_p = Some(0.75);
    x.options.stop = vec!["END".into()];
    x.options.max_tokens = Some(300);
    let (doc, losses) = encode(&x, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(doc["p"], 0.75);
    assert_eq!(doc["stop_sequences"], json!(["END"]));
    assert_eq!(doc["max_tokens"], 300);
    assert!(doc.get("top_p").is_none() && doc.get("stop").is_none());
}

#[test]
fn cohere_empty_text_next_to_tool_calls() {
    let x = exchange(common::empty_text_then_call("c1"));
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][1]["tool_plan"], "");
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages[1].parts.len(), 2);
}

#[test]
fn cohere_pasted_request_survives() {
    let (x, _) = survives(
        json!({
            "model": "command-a-03-2025",
            "messages": [
                {"role": "system", "content": "## Task and Context\nYou help people answer their questions."},
                {"role": "user", "content": "What's the weather in Toronto?"},
                {"role": "assistant",
                 "tool_plan": "I will search for the weather in Toronto.",
                 "tool_calls": [{"id": "get_weather_1byjy32y4hvq", "type": "function",
                   "function": {"name": "get_weather", "arguments": "{\"location\":\"Toronto\"}"}}]},
                {"role": "tool", "tool_call_id": "get_weather_1byjy32y4hvq",
                 "content": [{"type": "document", "document": {"data": {"temperature": {"toronto": "5°C"}}, "id": "weather:0"}}]},
                {"role": "assistant", "content": "It's 5°C in Toronto.", "citations": [
                    {"start": 8, "end": 11, "text": "5°C", "sources": [{"type": "tool", "id": "weather:0", "tool_output": {"temperature": "{\"toronto\":\"5°C\"}"}}]}]},
                {"role": "user", "content": "And in Montreal?"}
            ],
            "tools": [{"type": "function", "function": {"name": "get_weather",
                "description": "gets the weather of a given location",
                "parameters": {"type": "object", "properties": {"location": {"type": "string", "description": "the location to get weather, example: San Fransisco, CA"}}, "required": ["location"]}}}],
            "strict_tools": true,
            "tool_choice": "REQUIRED",
            "temperature": 0.3,
            "p": 0.75,
            "k": 0,
            "stop_sequences": ["\n\n"],
            "seed": 7,
            "safety_mode": "CONTEXTUAL",
            "citation_options": {"mode": "FAST"},
            "documents": [{"id": "doc:0", "data": {"title": "Weather FAQ", "snippet": "Toronto is cold."}}]
        }),
        Kind::Request,
    );
    assert_eq!(x.options.top_p, Some(0.75));
    assert_eq!(x.options.stop, vec!["\n\n".to_string()]);
    assert_eq!(x.tools[0].strict, Some(true));
    assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Required)));
    // The tool plan is the assistant's text before its calls.
    assert!(
        matches!(&x.messages[1].parts[0], Part::Text { text, .. } if text == "I will search for the weather in Toronto.")
    );
    // A document with an id is Cohere's own block.
    assert!(matches!(
        &x.messages[2].parts[0],
        Part::ToolResult(ToolResult { content: ResultContent::Blocks(b), .. }) if matches!(b[0], Block::Raw { .. })
    ));
}

#[test]
fn cohere_pasted_assistant_without_plan_keeps_its_content() {
    let (x, _) = survives(
        json!({"model": "command-r7b-12-2024", "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "Calling it now.", "tool_calls": [
                {"id": "f_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "f_0", "content": [{"type": "text", "text": "done"}]}
        ]}),
        Kind::Request,
    );
    assert_eq!(x.messages[1].parts.len(), 2);
}

#[test]
fn cohere_pasted_response_survives() {
    let (x, _) = survives(
        json!({
            "id": "5b8b1d0d-7ee0-4e0c-b0fe-3a6b9c8a1f0e",
            "message": {
                "role": "assistant",
                "tool_plan": "I will use the get_weather tool to find the weather in Toronto.",
                "tool_calls": [{"id": "get_weather_nsz5zm3w56q3", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"location\":\"Toronto\"}"}}]
            },
            "finish_reason": "TOOL_CALL",
            "usage": {
                "billed_units": {"input_tokens": 37, "output_tokens": 28},
                "tokens": {"input_tokens": 913, "output_tokens": 83}
            }
        }),
        Kind::Response,
    );
    let m = &x.messages[0];
    assert_eq!(m.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(m.usage, common::usage(913, 83));
    assert_eq!(m.parts.len(), 2);
    let (x, _) = survives(
        json!({
            "id": "c14c80c3-18eb-4519-9460-6c92edd8cfb4",
            "finish_reason": "COMPLETE",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "It's 24°C in Toronto."}],
                "citations": [{"start": 5, "end": 9, "text": "24°C", "sources": [{"type": "tool", "id": "get_weather_nsz5zm3w56q3:0", "tool_output": {"temperature": "24"}}]}]},
            "usage": {"billed_units": {"input_tokens": 12, "output_tokens": 9}, "tokens": {"input_tokens": 1, "output_tokens": 2}},
            "logprobs": []
        }),
        Kind::Response,
    );
    assert_eq!(x.messages[0].stop_reason, Some(StopReason::EndTurn));
}

#[test]
fn cohere_response_shape_and_finish_reasons() {
    let mut msg = assistant(vec![
        Part::text("Checking."),
        call(Some("c1"), "f", json!({"a": 1})),
    ]);
    msg.usage = common::usage(5, 6);
    let (doc, losses) = encode(&exchange(vec![user("go"), msg]), Kind::Response);
    assert_eq!(doc["finish_reason"], "TOOL_CALL");
    assert_eq!(doc["message"]["tool_plan"], "Checking.");
    assert!(doc["message"].get("content").is_none());
    assert_eq!(
        doc["usage"],
        json!({"tokens": {"input_tokens": 5, "output_tokens": 6}})
    );
    assert!(doc.get("choices").is_none() && doc.get("model").is_none());
    assert!(has_loss(&losses, LossKind::Dropped, "/options"));
    for (reason, word) in [
        (StopReason::EndTurn, "COMPLETE"),
        (StopReason::MaxTokens, "MAX_TOKENS"),
        (StopReason::StopSequence, "STOP_SEQUENCE"),
        (StopReason::Other("ERROR".into()), "ERROR"),
    ] {
        let mut m = assistant(vec![Part::text("x")]);
        m.stop_reason = Some(reason);
        let (doc, losses) = encode(&exchange(vec![m]), Kind::Response);
        assert_eq!(doc["finish_reason"], word);
        assert_eq!(
            doc["message"]["content"],
            json!([{"type": "text", "text": "x"}])
        );
        assert!(!has_loss(
            &losses,
            LossKind::Rewritten,
            "/messages/0/stop_reason"
        ));
    }
    let mut m = assistant(vec![Part::text("x")]);
    m.stop_reason = Some(StopReason::ContentFilter);
    let (doc, losses) = encode(&exchange(vec![m]), Kind::Response);
    assert_eq!(doc["finish_reason"], "COMPLETE");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
}

#[test]
fn cohere_decode_errors_point_at_the_spot() {
    let e = F
        .decode(
            "{\"id\": \"x\",\n \"finish_reason\": \"COMPLETE\"}",
            Kind::Response,
        )
        .unwrap_err();
    assert_eq!(e.format, Some("cohere"));
    assert_eq!(e.pointer.as_deref(), Some(""));
    let text = "{\"id\": \"x\", \"finish_reason\": \"COMPLETE\",\n \"message\": {\n  \"role\": \"robot\"}}";
    common::assert_error_at(F, text, Kind::Response, "/message/role", 3);
    let text = "{\"model\": \"command-a-03-2025\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"42\"}]}";
    common::assert_error_at(F, text, Kind::Request, "/messages/1", 4);
}

#[test]
fn cohere_detects_its_documents() {
    let required = json!({"model": "x", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "REQUIRED"});
    let plan = json!({"model": "x", "messages": [{"role": "assistant", "tool_plan": "p", "tool_calls": []}]});
    let model = json!({"model": "command-r-plus", "messages": [{"role": "user", "content": "hi"}]});
    let response =
        json!({"id": "1", "finish_reason": "COMPLETE", "message": {"role": "assistant"}});
    for doc in [&required, &plan, &model] {
        assert_eq!(Cohere::sniff(doc), Some((Kind::Request, 97)));
        assert_eq!(Format::detect(&doc.to_string()), Ok((F, Kind::Request)));
    }
    assert_eq!(Cohere::sniff(&response), Some((Kind::Response, 97)));
    assert_eq!(
        Format::detect(&response.to_string()),
        Ok((F, Kind::Response))
    );
    let plain = json!({"model": "gpt-4.1", "messages": [{"role": "system", "content": "x"}]});
    assert_eq!(Cohere::sniff(&plain), None);
    let enc = F.encode(&weather_round(), Kind::Request);
    assert_eq!(Format::detect(&enc.text), Ok((F, Kind::Request)));
}
