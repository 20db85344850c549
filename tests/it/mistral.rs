//! Hard cases of the Mistral dialect: 9-character alphanumeric call ids rewritten
//! consistently, `name` on tool messages, tool_choice `any`/`required`/`auto`/`none`/named,
//! `parallel_tool_calls`, Mistral-only request fields, finish reasons, object arguments in
//! responses, plus every hard case of the protocol.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::dialects::Mistral;
use toolscope::formats::{Codec, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::dialect::{self, Dialect};
use common::{assert_loss, assistant, call, has_loss, result, tool_msg, user};

format_kit!(Format::Mistral, "mistral-large-latest");

const D: Dialect = Dialect {
    format: F,
    model: "mistral-large-latest",
    id: "abcdefghi",
};

#[test]
fn mistral_conforms() {
    dialect::conforms(&D).unwrap_or_else(|e| panic!("{e}"));
}

fn is_mistral_id(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 9 && s.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn weather_round(a: &str, b: &str) -> Exchange {
    exchange(vec![
        user("Weather in Tokyo and Oslo?"),
        assistant(vec![
            call(Some(a), "get_weather", json!({"city": "Tokyo"})),
            call(Some(b), "get_time", json!({"city": "Oslo"})),
        ]),
        tool_msg(vec![result(Some(b), "09:00"), result(Some(a), "24 °C")]),
    ])
}

#[test]
fn mistral_ids_are_rewritten_consistently_in_call_and_result() {
    let (doc, losses) = encode(&weather_round("call_abc", "toolu_01XYZ"), Kind::Request);
    let m = &doc["messages"];
    let a = &m[1]["tool_calls"][0]["id"];
    let b = &m[1]["tool_calls"][1]["id"];
    assert!(is_mistral_id(a) && is_mistral_id(b) && a != b, "{a} {b}");
    // Results in the model's order, each paired with its rewritten call.
    assert_eq!(m[2]["tool_call_id"], *b);
    assert_eq!(m[3]["tool_call_id"], *a);
    assert_losses!(&losses; Rewritten "/messages/1/parts/0/id", Rewritten "/messages/1/parts/1/id");
    assert_losses!(&losses; Rewritten "/messages/2/parts/0/call_id", Rewritten "/messages/2/parts/1/call_id");
    // Valid ids are left alone, and nothing is reported.
    let (doc, losses) = encode(&weather_round("D681PevKs", "a1b2c3d4e"), Kind::Request);
    assert_eq!(doc["messages"][1]["tool_calls"][0]["id"], "D681PevKs");
    assert!(
        !losses.iter().any(|l| l.pointer.ends_with("id")),
        "{losses:#?}"
    );
}

#[test]
fn mistral_tool_messages_carry_the_tool_name() {
    let (doc, losses) = encode(&weather_round("D681PevKs", "a1b2c3d4e"), Kind::Request);
    let m = &doc["messages"];
    assert_eq!(m[2]["name"], "get_time");
    assert_eq!(m[3]["name"], "get_weather");
    assert_loss(&losses, LossKind::Note, "/messages/2/parts/0/name");
    // A name the model has is sent as it is, with nothing to report.
    let (x, _) = decode(&doc, Kind::Request);
    let (_, losses) = encode(&x, Kind::Request);
    assert!(!has_loss(
        &losses,
        LossKind::Note,
        "/messages/2/parts/0/name"
    ));
}

#[test]
fn mistral_missing_ids_are_assigned_then_made_valid() {
    let x = exchange(vec![
        user("time?"),
        assistant(vec![call(None, "now", json!({}))]),
        tool_msg(vec![result(None, "12:00")]),
    ]);
    let (doc, _) = dialect::missing_ids_are_assigned_and_paired(&D, &x);
    assert!(is_mistral_id(&doc["messages"][1]["tool_calls"][0]["id"]));
}

#[test]
fn mistral_invalid_and_empty_arguments() {
    let losses = dialect::invalid_arguments_are_sent_as_written(&D, "{\"a\": ");
    assert!(losses.is_empty(), "{losses:#?}");
    dialect::empty_arguments_read_as_an_empty_object(
        &Dialect {
            model: "mistral-small-latest",
            ..D
        },
        json!({"role": "assistant", "content": "", "tool_calls": [
            {"id": "abcdefghi", "type": "function", "function": {"name": "now", "arguments": " "}}]}),
    );
}

#[test]
fn mistral_object_arguments_in_responses_are_read_and_kept() {
    let doc = json!({
        "id": "cf79f7daaee244b1a0ae5c7b1444424a",
        "object": "chat.completion",
        "model": "mistral-large-latest",
        "usage": {"prompt_tokens": 70, "completion_tokens": 26, "total_tokens": 96},
        "created": 1722436000,
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "",
            "tool_calls": [
                {"id": "D681PevKs", "type": "function", "function": {"name": "retrieve_payment_status", "arguments": {"transaction_id": "T1001"}}},
                {"id": "a1b2c3d4e", "type": "function", "function": {"name": "retrieve_payment_date", "arguments": "{\"transaction_id\": \"T1001\"}"}}
            ]}}]
    });
    let (x, losses) = survives(doc, Kind::Response);
    assert!(!has_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/0/parts/1/arguments"
    ));
    let calls: Vec<_> = x.messages[0].tool_calls().collect();
    assert_eq!(calls[0].arguments, json!({"transaction_id": "T1001"}));
    assert_eq!(calls[1].arguments, json!({"transaction_id": "T1001"}));
    // Edited into invalid text, the object form cannot hold it: sent as text, reported.
    let mut y = x.clone();
    if let Part::ToolCall(c) = &mut y.messages[0].parts[1] {
        c.set_arguments_text("{oops");
    }
    let (doc, losses) = encode(&y, Kind::Response);
    assert_eq!(
        doc["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        "{oops"
    );
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/0/parts/1/arguments",
    );
}

#[test]
fn mistral_error_results_fold_into_text() {
    let doc = dialect::error_results_fold_into_text(&D, "denied");
    assert_eq!(doc["messages"][2]["name"], "f");
}

#[test]
fn mistral_every_tool_choice() {
    let base = || {
        let mut x = exchange(vec![user("go")]);
        for name in ["a", "b"] {
            x.tools.push(common::bare_tool(name));
        }
        x
    };
    for (choice, wire) in [
        (ToolChoice::mode(ChoiceMode::Auto), json!("auto")),
        (ToolChoice::mode(ChoiceMode::None), json!("none")),
        (ToolChoice::mode(ChoiceMode::Required), json!("any")),
        (
            ToolChoice::force("b"),
            json!({"type": "function", "function": {"name": "b"}}),
        ),
    ] {
        let mut x = base();
        x.tool_choice = Some(choice);
        let (doc, losses) = encode(&x, Kind::Request);
        assert_eq!(doc["tool_choice"], wire);
        assert!(losses.is_empty(), "{losses:#?}");
    }
    let mut x = base();
    x.tool_choice = Some(ToolChoice {
        mode: ChoiceMode::Auto,
        tools: vec!["a".into(), "b".into()],
    });
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["tool_choice"], "auto");
    assert!(has_loss(&losses, LossKind::Dropped, "/tool_choice/tools"));
    let mut x = base();
    x.tool_choice = Some(ToolChoice::mode(ChoiceMode::Validated));
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["tool_choice"], "auto");
    assert!(has_loss(&losses, LossKind::Rewritten, "/tool_choice/mode"));
    // Both spellings of "must call" read as required and are written back as they were.
    for word in ["any", "required"] {
        let doc = json!({"model": "mistral-large-latest", "messages": [{"role": "user", "content": "x"}], "tool_choice": word});
        let (x, _) = survives(doc, Kind::Request);
        assert_eq!(x.tool_choice, Some(ToolChoice::mode(ChoiceMode::Required)));
    }
}

#[test]
fn mistral_parallel_tool_calls_is_carried() {
    let mut x = weather_round("D681PevKs", "a1b2c3d4e");
    x.parallel_tool_calls = Some(false);
    let (doc, losses) = encode(&x, Kind::Request);
    assert_eq!(doc["parallel_tool_calls"], false);
    assert!(!has_loss(
        &losses,
        LossKind::Dropped,
        "/parallel_tool_calls"
    ));
}

#[test]
fn mistral_empty_text_next_to_tool_calls() {
    let x = exchange(common::empty_text_then_call("abcdefghi"));
    let (doc, _) = encode(&x, Kind::Request);
    assert_eq!(doc["messages"][1]["content"], "");
    let (back, _) = decode(&doc, Kind::Request);
    assert_eq!(back.messages[1].parts.len(), 2);
}

#[test]
fn mistral_pasted_request_survives() {
    let (x, _) = survives(
        json!({
            "model": "mistral-large-latest",
            "messages": [
                {"role": "system", "content": "You are a payments assistant."},
                {"role": "user", "content": "What's the status of my transaction T1001?"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "D681PevKs", "type": "function", "function": {"name": "retrieve_payment_status", "arguments": "{\"transaction_id\": \"T1001\"}"}}
                ], "prefix": false},
                {"role": "tool", "name": "retrieve_payment_status", "content": "{\"status\": \"Paid\"}", "tool_call_id": "D681PevKs"}
            ],
            "tools": [{"type": "function", "function": {"name": "retrieve_payment_status",
                "description": "Get payment status of a transaction",
                "parameters": {"type": "object", "properties": {"transaction_id": {"type": "string", "description": "The transaction id."}}, "required": ["transaction_id"]}}}],
            "tool_choice": "auto",
            "parallel_tool_calls": true,
            "max_tokens": 512,
            "temperature": 0.3,
            "random_seed": 42,
            "safe_prompt": false,
            "prompt_mode": "reasoning",
            "response_format": {"type": "text"}
        }),
        Kind::Request,
    );
    assert_eq!(x.options.max_tokens, Some(512));
    assert_eq!(x.extra["mistral"]["random_seed"], 42);
    let r = x.messages[2].tool_results().next().unwrap();
    assert_eq!(r.name.as_deref(), Some("retrieve_payment_status"));
}

#[test]
fn mistral_finish_reasons() {
    for (word, reason) in [
        ("stop", StopReason::EndTurn),
        ("length", StopReason::MaxTokens),
        ("tool_calls", StopReason::ToolUse),
        ("model_length", StopReason::Other("model_length".into())),
        ("error", StopReason::Other("error".into())),
    ] {
        let doc = json!({"id": "x1", "object": "chat.completion", "model": "mistral-small-latest", "created": 1,
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            "choices": [{"index": 0, "finish_reason": word, "message": {"role": "assistant", "content": "hi", "tool_calls": null}}]});
        let (x, _) = survives(doc, Kind::Response);
        assert_eq!(x.messages[0].stop_reason, Some(reason));
    }
    // A content filter has no Mistral finish_reason.
    let mut msg = assistant(vec![Part::text("no")]);
    msg.stop_reason = Some(StopReason::ContentFilter);
    let (doc, losses) = encode(&exchange(vec![msg]), Kind::Response);
    assert_eq!(doc["choices"][0]["finish_reason"], "stop");
    assert_loss(&losses, LossKind::Rewritten, "/messages/0/stop_reason");
    // The response has no refusal/logprobs and always usage.
    assert!(doc["choices"][0]["message"].get("refusal").is_none());
    assert!(doc["choices"][0].get("logprobs").is_none());
    assert_eq!(doc["usage"]["total_tokens"], 0);
    assert!(has_loss(&losses, LossKind::Added, "/messages/0/usage"));
}

#[test]
fn mistral_decode_errors_point_at_the_spot() {
    let text = "{\"model\": \"mistral-small-latest\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"abcdefghi\", \"function\": {\"arguments\": \"{}\"}}]}]}";
    let e = common::assert_error_at(F, text, Kind::Request, "/messages/1/tool_calls/0", 4);
    assert!(e.column.is_some());
}

#[test]
fn mistral_detects_its_documents() {
    let any = json!({"model": "x", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "any"});
    let seed =
        json!({"model": "x", "messages": [{"role": "user", "content": "hi"}], "random_seed": 1});
    let model =
        json!({"model": "codestral-latest", "messages": [{"role": "user", "content": "hi"}]});
    let response = json!({"id": "1", "model": "magistral-medium-latest", "choices": []});
    assert_eq!(Mistral::sniff(&any), Some((Kind::Request, 97)));
    assert_eq!(Mistral::sniff(&seed), Some((Kind::Request, 97)));
    assert_eq!(Mistral::sniff(&model), Some((Kind::Request, 97)));
    assert_eq!(Mistral::sniff(&response), Some((Kind::Response, 97)));
    assert_eq!(
        Mistral::sniff(&json!({"model": "gpt-4.1", "messages": []})),
        None
    );
    for (doc, kind) in [
        (&any, Kind::Request),
        (&model, Kind::Request),
        (&response, Kind::Response),
    ] {
        assert_eq!(Format::detect(&doc.to_string()), Ok((F, kind)));
    }
    let enc = F.encode(&weather_round("a", "b"), Kind::Request);
    assert_eq!(Format::detect(&enc.text), Ok((F, Kind::Request)));
}

/// A request as the Mistral docs and SDK write it: tools without `"type": "function"`.
fn untyped_tools_request() -> Value {
    json!({
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "What's the status of my transaction T1001?"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "D681PevKs", "type": "function", "function": {"name": "retrieve_payment_status", "arguments": "{\"transaction_id\": \"T1001\"}"}}]},
            {"role": "tool", "name": "retrieve_payment_status", "content": "{\"status\": \"Paid\"}", "tool_call_id": "D681PevKs"}
        ],
        "tools": [
            {"function": {"name": "retrieve_payment_status", "description": "Get payment status of a transaction", "parameters": {"type": "object", "properties": {"transaction_id": {"type": "string", "description": "The transaction id."}}, "required": ["transaction_id"]}}},
            {"type": "function", "function": {"name": "retrieve_payment_date", "description": "Get payment date of a transaction", "parameters": {"type": "object", "properties": {"transaction_id": {"type": "string"}}, "required": ["transaction_id"]}}}
        ],
        "tool_choice": "any",
        "parallel_tool_calls": false
    })
}

#[test]
fn mistral_tools_without_type_are_tools_everywhere() {
    let doc = untyped_tools_request();
    assert_eq!(
        Format::detect(&doc.to_string()).unwrap(),
        (Format::Mistral, Kind::Request)
    );
    // Read as tools, and written back without `type` where it was left out.
    let (x, _) = survives(doc.clone(), Kind::Request);
    let names: Vec<&str> = x.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["retrieve_payment_status", "retrieve_payment_date"]);
    assert_eq!(
        x.tools[0].input_schema["required"],
        json!(["transaction_id"])
    );
    // Every other format carries both tools; OpenAI gets the type it requires.
    for f in Format::ALL {
        let e = f.encode(&x, Kind::Request);
        for name in &names {
            assert!(
                e.text.contains(name),
                "{}: {name} missing\n{}",
                f.id(),
                e.text
            );
        }
        assert!(!e.text.contains("other_tools"), "{}", f.id());
        let back = f
            .decode(&e.text, Kind::Request)
            .unwrap_or_else(|err| panic!("{}: {err}", f.id()));
        assert_eq!(back.exchange.tools.len(), 2, "{}", f.id());
    }
    let openai: Value =
        serde_json::from_str(&Format::OpenAiChat.encode(&x, Kind::Request).text).unwrap();
    assert_eq!(openai["tools"][0]["type"], "function");
    assert_eq!(openai["tool_choice"], "required");
    // Read as OpenAI (whose API requires the type), the tool is still a tool, and that is said.
    let (y, losses) = common::decode_doc(Format::OpenAiChat, &doc, Kind::Request);
    assert_eq!(y.tools.len(), 2);
    assert!(
        losses
            .iter()
            .any(|l| l.pointer == "/tools/0" && l.kind == LossKind::Rewritten),
        "{losses:#?}"
    );
    // Cohere and Ollama accept the spelling too and keep it.
    for f in [Format::Cohere, Format::Ollama] {
        let mut z = x.clone();
        if let Some(m) = z.tools[0].extra.remove("mistral") {
            z.tools[0].extra.insert(f.id().to_string(), m);
        }
        let v: Value = serde_json::from_str(&f.encode(&z, Kind::Request).text).unwrap();
        assert!(v["tools"][0].get("type").is_none(), "{}: {v}", f.id());
        assert_eq!(v["tools"][1]["type"], "function", "{}", f.id());
    }
}
