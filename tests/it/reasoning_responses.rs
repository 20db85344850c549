//! OpenAI Responses reasoning items, provider-defined tools and custom tools, against real
//! recorded traffic (`tests/fixtures/openai-responses/recorded/`, streams in
//! `tests/fixtures/recorded/openai-responses/` and `tests/fixtures/openai-responses/streams/`;
//! sources in `tests/fixtures/recorded/NOTICE.md`): each document reads as reasoning and hosted
//! parts and comes back field for field; a request made of its output items does too; every
//! replay rule's loss is reported; streams assemble to the response they end with; the
//! `openai` SDK's types accept what is emitted.

use crate::common;
use common::reasoning::reasoning_losses_at;

use serde_json::{json, Value};
use std::path::PathBuf;
use toolscope::formats::{read_any, Format, Kind, Source};
use toolscope::model::{
    Exchange, HostedKind, HostedStep, HostedTool, LossKind, Opaque, OpaqueKind, Part, Reasoning,
    Tool,
};
use toolscope::replay::{LoadOptions, Replay};

const F: Format = Format::OpenAiResponses;

fn recorded_docs() -> Vec<(String, Value)> {
    let dir = common::fixtures().join("openai-responses/recorded");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("recorded documents")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            let name = p.file_name().unwrap_or_default().to_string_lossy().into();
            (name, serde_json::from_str(&text).expect("json"))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 20, "{} documents", out.len());
    out
}

fn item_types(doc: &Value, list: &str) -> Vec<String> {
    doc[list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["type"].as_str().map(str::to_string))
        .collect()
}

fn is_hosted_type(t: &str) -> bool {
    !matches!(
        t,
        "message" | "reasoning" | "function_call" | "custom_tool_call" | "compaction"
    )
}

#[test]
fn recorded_responses_read_as_reasoning_and_hosted_parts_and_come_back_field_for_field() {
    for (name, doc) in recorded_docs() {
        let text = doc.to_string();
        let (d, source) = read_any(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(source, Source::Wire(F, Kind::Response), "{name}: detected");
        let x = d.exchange;
        let types = item_types(&doc, "output");
        let parts = &x.messages[0].parts;
        let count = |f: fn(&Part) -> bool| parts.iter().filter(|p| f(p)).count();
        assert_eq!(
            count(|p| matches!(p, Part::Reasoning(_))),
            types.iter().filter(|t| *t == "reasoning").count(),
            "{name}: reasoning parts"
        );
        assert_eq!(
            count(|p| matches!(p, Part::Hosted(_))),
            types.iter().filter(|t| is_hosted_type(t)).count(),
            "{name}: hosted steps"
        );
        assert_eq!(
            count(|p| matches!(p, Part::Raw { .. })),
            0,
            "{name}: no item is left opaque"
        );
        // Who issued the state: the model on the endpoint.
        let issuer = if name.starts_with("xai") {
            "xai"
        } else {
            "openai"
        };
        for p in parts {
            match p {
                Part::Reasoning(r) => {
                    if let Some(o) = &r.opaque {
                        assert_eq!(o.provider, issuer, "{name}");
                        assert_eq!(o.kind, OpaqueKind::Encrypted, "{name}");
                        assert_eq!(o.model.as_deref(), doc["model"].as_str(), "{name}");
                    }
                }
                Part::Hosted(h) => assert_eq!(h.provider, issuer, "{name}"),
                _ => {}
            }
        }
        // The model is the document's own.
        let enc = F.encode(&x, Kind::Response);
        let back: Value = serde_json::from_str(&enc.text).expect("json");
        assert_eq!(back, doc, "{name}: changed on the way back");
        let counted: Vec<_> = enc
            .losses
            .iter()
            .filter(|l| l.kind != LossKind::Note)
            .collect();
        assert!(counted.is_empty(), "{name}: {counted:#?}");
    }
}

/// The follow-up request a client sends: the user's question, then the output items as input
/// (reasoning with its encrypted content, provider-defined steps, calls) and an answer to each
/// call, with the tools and reasoning options of the first request.
fn follow_up(doc: &Value) -> Value {
    let mut input = vec![json!({"role": "user", "content": "Go on."})];
    let mut outputs = Vec::new();
    for item in doc["output"].as_array().into_iter().flatten() {
        input.push(item.clone());
        match item["type"].as_str() {
            Some("function_call") => outputs.push(json!({
                "type": "function_call_output", "call_id": item["call_id"], "output": "done"
            })),
            Some("custom_tool_call") => outputs.push(json!({
                "type": "custom_tool_call_output", "call_id": item["call_id"], "output": "3 rows"
            })),
            _ => {}
        }
    }
    input.extend(outputs);
    let mut req = json!({
        "model": doc["model"],
        "input": input,
        "reasoning": {"effort": "low", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": false
    });
    if let Some(tools) = doc["tools"].as_array().filter(|t| !t.is_empty()) {
        req["tools"] = json!(tools);
    }
    req
}

#[test]
fn requests_replaying_recorded_items_come_back_field_for_field() {
    for (name, doc) in recorded_docs() {
        let req = follow_up(&doc);
        let (x, _) = common::paste_survives(F, req.clone(), Kind::Request);
        // Tools: every definition other than a function is a hosted or custom tool, in order.
        let tools = item_types(&req, "tools");
        let kinds: Vec<&str> = x
            .tools
            .iter()
            .map(|t| match (&t.hosted, &t.custom) {
                (Some(_), _) => "hosted",
                (_, Some(_)) => "custom",
                _ => "function",
            })
            .collect();
        let want: Vec<&str> = tools
            .iter()
            .map(|t| match t.as_str() {
                "function" => "function",
                "custom" => "custom",
                _ => "hosted",
            })
            .collect();
        assert_eq!(kinds, want, "{name}: tools");
        assert_eq!(x.options.reasoning.effort.as_deref(), Some("low"), "{name}");
        assert_eq!(x.options.reasoning.summary.as_deref(), Some("auto"));
        assert_eq!(x.options.reasoning.include_encrypted, Some(true));
        assert_eq!(x.options.model.as_deref(), doc["model"].as_str(), "{name}");
        let enc = F.encode(&x, Kind::Request);
        let counted: Vec<_> = enc
            .losses
            .iter()
            .filter(|l| l.kind != LossKind::Note)
            .collect();
        assert!(counted.is_empty(), "{name}: {counted:#?}");
    }
}

#[test]
fn custom_tools_read_as_text_input_calls_and_tools_with_their_grammar() {
    let doc = recorded_docs()
        .into_iter()
        .find(|(n, _)| n == "openai-custom-tool.1.json")
        .expect("custom tool fixture")
        .1;
    let req = follow_up(&doc);
    let (x, _) = common::paste_survives(F, req, Kind::Request);
    let tool = &x.tools[0];
    assert_eq!(tool.name, "write_sql");
    assert_eq!(
        tool.custom,
        Some(json!({"type": "grammar", "syntax": "regex", "definition": "SELECT .+"}))
    );
    assert_eq!(
        tool.input_schema,
        toolscope::formats::openai_responses::custom_schema()
    );
    let call = x.messages[1].tool_calls().next().expect("call");
    assert_eq!(call.id.as_deref(), Some("call_custom_sql_001"));
    assert_eq!(
        call.arguments,
        json!({"input": "SELECT * FROM users WHERE age > 25"})
    );
    // Calls of a custom tool written from any source come out as custom_tool_call.
    let mut plain = Exchange::default();
    plain.tools.push(tool.clone());
    plain.messages = vec![
        common::user("q"),
        common::assistant(vec![common::call(
            Some("c1"),
            "write_sql",
            json!({"input": "SELECT 1"}),
        )]),
        common::tool_msg(vec![common::result(Some("c1"), "1")]),
    ];
    let t = common::checked_trip(F, &plain, Kind::Request);
    assert_eq!(t.doc["input"][1]["type"], "custom_tool_call");
    assert_eq!(t.doc["input"][1]["input"], "SELECT 1");
    assert_eq!(t.doc["input"][2]["type"], "custom_tool_call_output");
    assert_eq!(t.doc["tools"][0]["type"], "custom");
    // Arguments that are not one input text are sent as their JSON text, reported.
    plain.messages[1] = common::assistant(vec![common::call(
        Some("c1"),
        "write_sql",
        json!({"sql": "SELECT 1"}),
    )]);
    let t = common::checked_trip(F, &plain, Kind::Request);
    assert_eq!(t.doc["input"][1]["input"], r#"{"sql":"SELECT 1"}"#);
    common::assert_loss(
        &t.encoder,
        LossKind::Rewritten,
        "/messages/1/parts/0/arguments",
    );
}

fn reasoning(text: &str, opaque: Option<Opaque>) -> Part {
    Part::Reasoning(Reasoning {
        text: Some(text.into()),
        opaque,
        ..Reasoning::default()
    })
}

fn loop_with(first: Vec<Part>, model: &str) -> Exchange {
    let mut x = Exchange::default();
    x.options.model = Some(model.into());
    x.tools.push(common::bare_tool("get_weather"));
    let mut parts = first;
    parts.push(common::call(Some("c1"), "get_weather", json!({})));
    x.messages = vec![
        common::user("Weather?"),
        common::assistant(parts),
        common::tool_msg(vec![common::result(Some("c1"), "14C")]),
    ];
    x
}

#[test]
fn encrypted_reasoning_goes_back_only_to_its_issuer() {
    let mut enc = Opaque::new(OpaqueKind::Encrypted, "gAAAA", "openai");
    enc.model = Some("gpt-5-mini".into());
    let mut own = Reasoning {
        summary: vec!["Looked it up.".into()],
        opaque: Some(enc.clone()),
        ..Reasoning::default()
    };
    own.extra.insert(
        "openai-responses".into(),
        json!({"id": "rs_1"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    // To OpenAI: the item with its encrypted content.
    let x = loop_with(vec![Part::Reasoning(own.clone())], "gpt-5-mini");
    let t = common::checked_trip(F, &x, Kind::Request);
    assert_eq!(
        t.doc["input"][1],
        json!({"id": "rs_1", "type": "reasoning",
               "summary": [{"type": "summary_text", "text": "Looked it up."}],
               "encrypted_content": "gAAAA"})
    );
    assert!(reasoning_losses_at(&t.all).is_empty(), "{:#?}", t.all);
    // To xAI's Responses endpoint (a Grok model): OpenAI's state cannot go.
    let x = loop_with(vec![Part::Reasoning(own)], "grok-4");
    let t = common::checked_trip(F, &x, Kind::Request);
    assert_eq!(t.doc["model"], "grok-4");
    assert_eq!(t.doc["input"][1]["type"], "function_call");
    let got = reasoning_losses_at(&t.encoder);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0].1, "OpenAI encrypted reasoning");
    assert!(got[0].2.starts_with("only OpenAI can verify it"), "{got:?}");
    assert_eq!(got[1].1, "reasoning summary");
    assert!(got[1].2.contains("issued by OpenAI"), "{got:?}");
}

#[test]
fn another_providers_reasoning_is_reported_with_why_it_has_no_item() {
    let sig = Opaque::new(OpaqueKind::Signature, "EqQB", "anthropic");
    let x = loop_with(vec![reasoning("Need the weather.", Some(sig))], "gpt-5");
    let t = common::checked_trip(F, &x, Kind::Request);
    let got = reasoning_losses_at(&t.encoder);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0].1, "Anthropic thinking signature");
    assert!(got[0].2.starts_with("only Anthropic can verify it"));
    assert_eq!(got[1].1, "reasoning text");
    // Visible reasoning without any state: no item can hold it.
    let x = loop_with(vec![reasoning("Need the weather.", None)], "gpt-5");
    let t = common::checked_trip(F, &x, Kind::Request);
    let got = reasoning_losses_at(&t.encoder);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, "/messages/1/parts");
    assert!(got[0].2.contains("requires an id"), "{got:?}");
    // In a response (what a model said) it is shown as a reasoning item.
    let mut resp = Exchange::default();
    resp.messages
        .push(common::assistant(vec![reasoning("Thinking.", None)]));
    let t = common::checked_trip(F, &resp, Kind::Response);
    assert_eq!(
        t.doc["output"][0],
        json!({"id": "rs_toolscope_0", "type": "reasoning", "summary": [],
               "content": [{"type": "reasoning_text", "text": "Thinking."}]})
    );
}

#[test]
fn a_deepseek_or_ollama_model_on_its_responses_endpoint_keeps_its_name() {
    for (model, issuer) in [
        ("deepseek-v4-pro", "deepseek"),
        ("gpt-oss:20b", "openai"),
        ("grok-4-fast-reasoning", "xai"),
    ] {
        let req = json!({
            "model": model,
            "input": [
                {"role": "user", "content": "Weather in Paris?"},
                {"type": "reasoning", "id": "rs_1", "summary": [],
                 "content": [{"type": "reasoning_text", "text": "Call the tool."}]},
                {"type": "function_call", "call_id": "call_1", "name": "get_weather",
                 "arguments": "{\"city\":\"Paris\"}"},
                {"type": "function_call_output", "call_id": "call_1", "output": "14C"}
            ],
            "tools": [{"type": "function", "name": "get_weather",
                       "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                       "strict": false}]
        });
        let (d, source) = read_any(&req.to_string()).expect("reads");
        assert_eq!(source, Source::Wire(F, Kind::Request), "{model}");
        let (x, _) = common::paste_survives(F, req, Kind::Request);
        let Part::Reasoning(r) = &x.messages[1].parts[0] else {
            panic!("{model}: reasoning part")
        };
        assert_eq!(r.text.as_deref(), Some("Call the tool."));
        let enc = F.encode(&d.exchange, Kind::Request);
        assert!(
            enc.losses.iter().all(|l| l.kind != LossKind::Note),
            "{model}: {:#?}",
            enc.losses
        );
        // Its id-only reasoning goes back to its own endpoint, not to another's.
        let mut other = x.clone();
        other.set_model(Some(
            if issuer == "openai" {
                "grok-4"
            } else {
                "gpt-5"
            }
            .into(),
        ));
        let enc = F.encode(&other, Kind::Request);
        assert_eq!(reasoning_losses_at(&enc.losses).len(), 1, "{model}");
    }
    let resp = json!({"id": "resp_1", "object": "response", "created_at": 1,
        "status": "completed", "model": "deepseek-v4-pro", "output": [
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}]});
    let (_, source) = read_any(&resp.to_string()).expect("reads");
    assert_eq!(source, Source::Wire(F, Kind::Response));
    common::paste_survives(F, resp, Kind::Response);
}

fn hosted(provider: &str, format: &str, value: Value) -> Part {
    Part::Hosted(HostedStep {
        provider: provider.into(),
        format: format.into(),
        kind: HostedKind::Call,
        tool: "web_search".into(),
        id: value["id"].as_str().map(str::to_string),
        value,
    })
}

#[test]
fn hosted_steps_and_tools_go_only_where_they_ran() {
    let call = json!({"type": "web_search_call", "id": "ws_1", "status": "completed",
                      "action": {"type": "search", "query": "weather"}});
    let x = loop_with(
        vec![hosted("openai", "openai-responses", call.clone())],
        "gpt-5",
    );
    let t = common::checked_trip(F, &x, Kind::Request);
    assert_eq!(t.doc["input"][1], call);
    // xAI's step does not go to OpenAI; Anthropic's block does not go anywhere here.
    for (provider, format, what) in [
        ("xai", "openai-responses", "xAI web_search call"),
        ("anthropic", "anthropic", "Anthropic web_search call"),
    ] {
        let x = loop_with(vec![hosted(provider, format, call.clone())], "gpt-5");
        let t = common::checked_trip(F, &x, Kind::Request);
        assert_eq!(t.doc["input"][1]["type"], "function_call");
        common::assert_loss(&t.encoder, LossKind::Dropped, "/messages/1/parts");
        assert!(t.encoder.iter().any(|l| l.what == what), "{:#?}", t.encoder);
    }
    // Tool definitions: the Responses API's own go out verbatim, another format's are reported.
    let mut x = loop_with(Vec::new(), "gpt-5");
    let def = |format: &str, value: Value| Tool {
        hosted: Some(HostedTool {
            provider: if format == "anthropic" {
                "anthropic"
            } else {
                "openai"
            }
            .into(),
            format: format.into(),
            kind: "web_search".into(),
            value,
        }),
        ..common::bare_tool("web_search")
    };
    x.tools.push(def(
        "openai-responses",
        json!({"type": "web_search", "search_context_size": "low"}),
    ));
    x.tools.push(def(
        "anthropic",
        json!({"type": "web_search_20250305", "name": "web_search", "max_uses": 5}),
    ));
    let t = common::checked_trip(F, &x, Kind::Request);
    assert_eq!(
        t.doc["tools"][1],
        json!({"type": "web_search", "search_context_size": "low"})
    );
    assert_eq!(t.doc["tools"].as_array().map(Vec::len), Some(2));
    common::assert_loss(&t.encoder, LossKind::Dropped, "/tools/2");
}

#[test]
fn reasoning_options_map_and_what_has_no_place_is_reported() {
    let mut x = loop_with(Vec::new(), "gpt-5");
    x.options.reasoning.effort = Some("high".into());
    x.options.reasoning.budget = Some(2048);
    x.options.reasoning.enabled = Some(true);
    x.options.reasoning.include_encrypted = Some(true);
    let t = common::checked_trip(F, &x, Kind::Request);
    assert_eq!(t.doc["reasoning"], json!({"effort": "high"}));
    assert_eq!(t.doc["include"], json!(["reasoning.encrypted_content"]));
    common::assert_losses(
        &t.encoder,
        &[
            (LossKind::Dropped, "/options/reasoning/budget"),
            (LossKind::Dropped, "/options/reasoning/enabled"),
        ],
    );
}

/// Parts with their encrypted content left out.
fn blank(parts: &[Part]) -> Vec<Part> {
    parts
        .iter()
        .cloned()
        .map(|mut p| {
            if let Part::Reasoning(r) = &mut p {
                if let Some(o) = &mut r.opaque {
                    o.data.clear();
                }
            }
            p
        })
        .collect()
}

/// The events of a file, split into its streams (a recording may hold several rounds).
fn streams_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if line.contains(r#""type":"response.created""#) || out.is_empty() {
            out.push(String::new());
        }
        if let Some(s) = out.last_mut() {
            s.push_str(line);
            s.push('\n');
        }
    }
    out
}

fn stream_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in [
        common::recorded_dir().join("openai-responses"),
        common::fixtures().join("openai-responses/streams"),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("streams")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for p in files {
            let name: String = p.file_name().unwrap_or_default().to_string_lossy().into();
            out.push((name, std::fs::read_to_string(&p).expect("read")));
        }
    }
    out
}

#[test]
fn streams_assemble_reasoning_and_hosted_steps_into_the_response_they_end_with() {
    let mut with_reasoning = 0;
    let mut with_hosted = 0;
    for (name, text) in stream_files() {
        for (k, events) in streams_of(&text).into_iter().enumerate() {
            let at = format!("{name} #{k}");
            let r = Replay::load(&events, LoadOptions::default())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let a = &r.assembled;
            assert!(a.complete, "{at}: {:?}", a.anomalies);
            let got = a.message().expect("message").parts.clone();
            // The response the stream ends with, when it carries its output.
            let last = events
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|e| e["type"] == "response.completed")
                .unwrap_or(Value::Null);
            let doc = &last["response"];
            if doc["output"].as_array().is_some_and(|o| !o.is_empty()) {
                let want = F
                    .decode(&doc.to_string(), Kind::Response)
                    .expect("final response decodes")
                    .exchange;
                // Encrypted content is issued anew for the final response: the assembler keeps
                // the item's own (from output_item.done), as the SDK advises.
                assert_eq!(blank(&got), blank(&want.messages[0].parts), "{at}");
            }
            if got
                .iter()
                .any(|p| matches!(p, Part::Reasoning(r) if !r.is_opaque_only()))
            {
                with_reasoning += 1;
                let state = r.assembled.message().map(|_| ());
                assert!(state.is_some());
            }
            if got.iter().any(|p| matches!(p, Part::Hosted(_))) {
                with_hosted += 1;
            }
            for an in &a.anomalies {
                assert_ne!(an.kind.id(), "unknown_event", "{at}: {an:?}");
                assert_ne!(an.kind.id(), "invalid_arguments", "{at}: {an:?}");
            }
        }
    }
    assert!(
        with_reasoning >= 3,
        "{with_reasoning} streams with reasoning text"
    );
    assert!(with_hosted >= 6, "{with_hosted} streams with hosted steps");
}

#[test]
fn reasoning_text_reaches_the_live_view_as_it_arrives() {
    use toolscope::stream::{Assembler, Event, Update};
    let text = std::fs::read_to_string(
        common::recorded_dir().join("openai-responses/xai-text-with-reasoning-streaming.1.jsonl"),
    )
    .expect("xai stream");
    let mut a = toolscope::formats::openai_responses::stream::ResponsesAssembler::new();
    let mut live = String::new();
    for line in text.lines() {
        for u in a.push(&Event::data(line)) {
            if let Update::Reasoning { delta } = u {
                live.push_str(&delta);
            }
        }
    }
    let done = a.finish();
    let Some(Part::Reasoning(r)) = done.message().and_then(|m| m.parts.first()) else {
        panic!("reasoning part first")
    };
    assert!(!live.is_empty());
    assert_eq!(live, r.readable());
}

#[test]
fn a_custom_tool_stream_assembles_its_input_as_text() {
    let text = std::fs::read_to_string(
        common::recorded_dir().join("openai-responses/openai-custom-tool.1.jsonl"),
    )
    .expect("custom tool stream");
    let r = Replay::load(&text, LoadOptions::default()).expect("replays");
    assert!(
        r.assembled.anomalies.is_empty(),
        "{:?}",
        r.assembled.anomalies
    );
    let call = r
        .assembled
        .message()
        .and_then(|m| m.tool_calls().next())
        .cloned();
    let call = call.expect("call");
    assert_eq!(call.name, "write_sql");
    assert_eq!(
        call.arguments["input"]
            .as_str()
            .map(|s| s.starts_with("SELECT")),
        Some(true)
    );
    let state = r.assembled.response["output"][0]["input"].clone();
    assert_eq!(Some(&state), call.arguments.get("input"));
}

/// A conversation holding every new part: reasoning with OpenAI's encrypted content, a web
/// search step, a custom tool and its call, and reasoning shown without state.
fn showcase() -> Exchange {
    let mut x = Exchange::default();
    x.options.model = Some("gpt-5".into());
    x.options.reasoning.effort = Some("low".into());
    x.options.reasoning.summary = Some("auto".into());
    x.options.reasoning.include_encrypted = Some(true);
    let doc = recorded_docs()
        .into_iter()
        .find(|(n, _)| n == "openai-custom-tool.1.json")
        .expect("custom tool fixture")
        .1;
    let (custom, _) = common::decode_doc(F, &follow_up(&doc), Kind::Request);
    x.tools = custom.tools;
    x.tools.push(Tool {
        hosted: Some(HostedTool {
            provider: "openai".into(),
            format: "openai-responses".into(),
            kind: "web_search".into(),
            value: json!({"type": "web_search"}),
        }),
        ..common::bare_tool("web_search")
    });
    // Issued by the model the exchange names (decoding records the document's model).
    let mut state = Opaque::new(OpaqueKind::Encrypted, "gAAAA", "openai");
    state.model = Some("gpt-5".into());
    let mut own = Reasoning {
        summary: vec!["Plan.".into()],
        opaque: Some(state),
        ..Reasoning::default()
    };
    own.extra.insert(
        "openai-responses".into(),
        json!({"id": "rs_1"})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    x.messages = vec![
        common::user("Count users over 25."),
        common::assistant(vec![
            Part::Reasoning(own),
            hosted(
                "openai",
                "openai-responses",
                json!({"type": "web_search_call", "id": "ws_1", "status": "completed",
                       "action": {"type": "search", "query": "users"}}),
            ),
            common::call(Some("c1"), "write_sql", json!({"input": "SELECT 1"})),
        ]),
        common::tool_msg(vec![common::result(Some("c1"), "3")]),
        common::assistant(vec![reasoning("Done.", None), Part::text("Three users.")]),
    ];
    x
}

/// The same turn as another provider gave it: Anthropic's signed thinking and web search.
fn from_anthropic() -> Exchange {
    let mut x = showcase();
    x.options.reasoning.budget = Some(4096);
    x.messages[1].parts[0] = reasoning(
        "Count them.",
        Some(Opaque::new(OpaqueKind::Signature, "EqQB", "anthropic")),
    );
    x.messages[1].parts[1] = hosted(
        "anthropic",
        "anthropic",
        json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
               "input": {"query": "users"}}),
    );
    x
}

#[test]
fn golden_documents_and_losses() {
    let dir = common::fixtures().join("openai-responses/reasoning");
    let mut failures = Vec::new();
    for (case, x) in [
        ("showcase", showcase()),
        ("from_anthropic", from_anthropic()),
    ] {
        for kind in [Kind::Request, Kind::Response] {
            let word = kind.as_str();
            let t = common::checked_trip(F, &x, kind);
            let text = serde_json::to_string_pretty(&t.doc).expect("json") + "\n";
            failures.extend(common::golden(
                &dir.join(format!("{case}.{word}.json")),
                &text,
            ));
            let losses: String = t
                .encoder
                .iter()
                .map(|l| toolscope::cli::describe(l) + "\n")
                .collect();
            failures.extend(common::golden(
                &dir.join(format!("{case}.{word}.losses.txt")),
                &losses,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_sdk_accepts_what_is_emitted() {
    let dir = common::fixtures().join("openai-responses/reasoning");
    for case in ["showcase", "from_anthropic"] {
        for word in ["request", "response"] {
            let path = dir.join(format!("{case}.{word}.json"));
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
            let out = common::run_ok(
                std::process::Command::new("python3")
                    .arg(script)
                    .args(["openai-responses", word])
                    .arg(&path),
                "python3 with the openai SDK",
            );
            assert!(!out.contains("FAIL"), "{out}");
        }
    }
}
