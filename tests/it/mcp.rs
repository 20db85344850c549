//! Hard cases of the MCP format (JSON-RPC transcript of `tools/list` and `tools/call`): order
//! of parallel calls and results, ids, arguments, error results, what MCP cannot carry, the
//! spec's own examples, pasted transcripts, decode errors, detection.

use serde_json::{json, Value};
use toolscope::formats::{Codec as _, Format, Kind};
use toolscope::model::*;

use crate::common;

use common::{
    assert_loss, assistant, call, error_result, has_loss, position, result, tool_msg, user,
};

const M: Format = Format::Mcp;

fn decode(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    common::decode_doc(M, doc, kind)
}

/// Decode a pasted document, encode it again: the same JSON value comes back.
fn survives(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
    let (x, losses) = decode(doc, kind);
    let e = M.encode(&x, kind);
    let back: Value = serde_json::from_str(&e.text).expect("json");
    assert_eq!(&back, doc, "changed on the way back:\n{}", e.text);
    (x, losses)
}

/// Encode, decode, and check that every difference is under a reported loss.
fn round_trip(x: &Exchange) -> (Value, Vec<Loss>, Exchange) {
    let t = common::checked_trip(M, x, Kind::Request);
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
        messages,
        ..Exchange::default()
    }
}

/// The default request `_meta` of protocol 2026-07-28.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn ids(doc: &Value) -> Vec<Value> {
    doc.as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].clone())
        .collect()
}

#[test]
fn mcp_parallel_calls_then_results_in_the_order_given() {
    let x = base(vec![
        user("Weather in Paris and Tokyo?"),
        assistant(vec![
            call(Some("call_a"), "get_weather", json!({"location": "Paris"})),
            call(Some("call_b"), "get_weather", json!({"location": "Tokyo"})),
        ]),
        // Results in the other order: MCP responses may arrive in any order.
        tool_msg(vec![
            result(Some("call_b"), "rain"),
            result(Some("call_a"), "sun"),
        ]),
    ]);
    let (doc, losses, back) = round_trip(&x);
    let msgs = doc.as_array().unwrap();
    assert_eq!(msgs.len(), 6);
    assert_eq!(msgs[0]["method"], "tools/list");
    assert_eq!(msgs[1]["result"]["tools"][0]["name"], "get_weather");
    assert_eq!(
        ids(&doc)[2..],
        [
            json!("call_a"),
            json!("call_b"),
            json!("call_b"),
            json!("call_a")
        ]
    );
    assert_eq!(msgs[2]["method"], "tools/call");
    assert_eq!(msgs[2]["params"]["arguments"], json!({"location": "Paris"}));
    assert_eq!(msgs[2]["params"]["_meta"], meta());
    assert_eq!(msgs[4]["result"]["content"][0]["text"], "rain");
    assert_eq!(msgs[4]["result"]["resultType"], "complete");
    // Calls and results come back exactly; only the user turn is lost.
    assert_eq!(back.messages, x.messages[1..]);
    assert!(has_loss(&losses, LossKind::Dropped, "/messages/0"));
    assert_eq!(losses.len(), 1, "{losses:#?}");
}

#[test]
fn mcp_turns_that_would_merge_are_reported() {
    // Two assistant turns with calls and no results between them read back as one.
    let x = base(vec![
        assistant(vec![call(Some("a"), "get_weather", json!({}))]),
        user("and?"),
        assistant(vec![call(Some("b"), "get_weather", json!({}))]),
    ]);
    let (_, losses, back) = round_trip(&x);
    assert_eq!(back.messages.len(), 1);
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages"));
}

#[test]
fn mcp_any_string_id_is_kept_and_integer_ids_come_back_as_integers() {
    let odd = [
        "functions.get_weather:0",
        "id with spaces/and:colons",
        "ид-📞",
        "7",
    ];
    let x = base(vec![
        assistant(
            odd.iter()
                .map(|id| call(Some(id), "get_weather", json!({})))
                .collect(),
        ),
        tool_msg(odd.iter().map(|id| result(Some(id), "ok")).collect()),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(back.messages, x.messages);
    assert!(
        losses.iter().all(|l| !l.pointer.ends_with("id")),
        "{losses:#?}"
    );
    // A canonical "7" is a string id; it must not turn into the integer 7.
    assert_eq!(ids(&doc)[5], json!("7"));

    // A pasted transcript with integer ids reads them as text and writes integers back.
    let pasted = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"_meta": meta(), "name": "f", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "done"}], "resultType": "complete"}}
    ]);
    let (x, losses) = survives(&pasted, Kind::Request);
    assert!(losses.is_empty());
    let c = x.messages[0].tool_calls().next().unwrap();
    let r = x.messages[1].tool_results().next().unwrap();
    assert_eq!(c.id.as_deref(), Some("2"));
    assert_eq!(r.call_id.as_deref(), Some("2"));
}

#[test]
fn mcp_missing_ids_are_assigned_and_paired_by_name() {
    let mut r1 = ToolResult::new(None, ResultContent::Text("12:00".into()));
    r1.name = Some("time".into());
    let mut r2 = ToolResult::new(None, ResultContent::Text("sun".into()));
    r2.name = Some("get_weather".into());
    let x = base(vec![
        assistant(vec![
            call(None, "get_weather", json!({"location": "Oslo"})),
            call(None, "time", json!({})),
        ]),
        tool_msg(vec![Part::ToolResult(r1), Part::ToolResult(r2)]),
        // A result that answers no call at all.
        tool_msg(vec![result(None, "stray")]),
    ]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(
        ids(&doc)[2..],
        [
            json!("call_1"),
            json!("call_2"),
            json!("call_2"),
            json!("call_1"),
            json!("unpaired-1")
        ]
    );
    assert_losses!(&losses; Added "/messages/0/parts/0/id", Added "/messages/0/parts/1/id");
    assert_losses!(&losses; Added "/messages/1/parts/0/call_id", Added "/messages/1/parts/1/call_id");
    assert_losses!(&losses; Added "/messages/2/parts/0/call_id");
    // Results do not repeat the tool name.
    assert_loss(&losses, LossKind::Dropped, "/messages/1/parts/0/name");
    // The stray result follows a Tool message: the two merge, and that is reported.
    assert!(has_loss(&losses, LossKind::Rewritten, "/messages"));
    assert_eq!(back.messages.len(), 2);
}

#[test]
fn mcp_invalid_and_non_object_arguments_become_empty_objects() {
    let calls = common::odd_arguments(["a", "b", "c"], "Oslo");
    let x = base(vec![assistant(calls)]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(doc[2]["params"]["arguments"], json!({}));
    assert_eq!(doc[3]["params"]["arguments"], json!({"location": "Oslo"}));
    assert_eq!(doc[4]["params"]["arguments"], json!({}));
    assert_losses!(&losses; Dropped "/messages/0/parts/0/arguments_raw");
    assert_losses!(&losses; Rewritten "/messages/0/parts/0/arguments");
    assert_losses!(&losses; Dropped "/messages/0/parts/1/arguments_raw");
    assert!(!has_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/0/parts/1/arguments"
    ));
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/0/parts/2/arguments",
    );
    let calls: Vec<_> = back.messages[0].tool_calls().collect();
    assert_eq!(calls[0].arguments, json!({}));
    assert_eq!(calls[1].arguments, json!({"location": "Oslo"}));
    assert_eq!(calls[1].arguments_raw, None);
}

#[test]
fn mcp_empty_and_absent_arguments_are_an_empty_object() {
    // Empty argument text (a streamed call without arguments) is `{}` already.
    let empty = ToolCall::from_text(Some("a".into()), "get_weather", "");
    let x = base(vec![assistant(vec![Part::ToolCall(empty)])]);
    let (doc, losses, _) = round_trip(&x);
    assert_eq!(doc[2]["params"]["arguments"], json!({}));
    assert!(losses.iter().all(|l| !l.pointer.contains("arguments")));

    // `arguments` is optional in MCP: absent reads as {} and stays absent.
    let pasted = json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"_meta": meta(), "name": "now"}});
    let (x, losses) = survives(&pasted, Kind::Request);
    assert!(losses.is_empty());
    assert_eq!(
        x.messages[0].tool_calls().next().unwrap().arguments,
        json!({})
    );
}

#[test]
fn mcp_error_json_and_block_results() {
    let err = error_result(Some("a"), "no such city");
    let json_result = ToolResult::new(
        Some("b".into()),
        ResultContent::Json(json!({"temp": 21.5, "unit": "C"})),
    );
    let blocks = common::chart_result("c", vec![]);
    let one_block = ToolResult::new(
        Some("d".into()),
        ResultContent::Blocks(vec![Block::Text {
            text: "only".into(),
        }]),
    );
    let foreign = ToolResult::new(
        Some("e".into()),
        ResultContent::Blocks(vec![
            Block::Text { text: "a".into() },
            Block::Raw {
                format: "anthropic".into(),
                value: json!({"type": "search_result"}),
            },
        ]),
    );
    let scalar = ToolResult::new(Some("f".into()), ResultContent::Json(json!(null)));
    let results = [err, json_result, blocks, one_block, foreign, scalar];
    let x = base(vec![
        assistant(
            ["a", "b", "c", "d", "e", "f"]
                .iter()
                .map(|id| call(Some(id), "get_weather", json!({})))
                .collect(),
        ),
        tool_msg(results.into_iter().map(Part::ToolResult).collect()),
    ]);
    let (doc, losses, back) = round_trip(&x);
    let r = |k: usize| doc[8 + k]["result"].clone();
    assert_eq!(r(0)["isError"], true);
    assert_eq!(
        r(0)["content"],
        json!([{"type": "text", "text": "no such city"}])
    );
    // JSON: structuredContent, and its serialisation as text, as the spec recommends.
    assert_eq!(
        r(1)["structuredContent"],
        json!({"temp": 21.5, "unit": "C"})
    );
    assert_eq!(
        r(1)["content"],
        json!([{"type": "text", "text": "{\"temp\":21.5,\"unit\":\"C\"}"}])
    );
    assert!(r(1).get("isError").is_none());
    assert_eq!(
        r(2)["content"],
        json!([
            {"type": "text", "text": "chart:"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
        ])
    );
    // `structuredContent: null` is a value, not an absence.
    assert_eq!(r(5)["structuredContent"], Value::Null);
    assert_losses!(&losses; Rewritten "/messages/1/parts/3/content");
    assert_losses!(&losses; Dropped "/messages/1/parts/4/content/blocks/1");
    assert_losses!(&losses; Rewritten "/messages/1/parts/4/content");
    let back_results: Vec<_> = back.messages[1].tool_results().collect();
    assert!(back_results[0].is_error);
    assert_eq!(
        back_results[1].content,
        ResultContent::Json(json!({"temp": 21.5, "unit": "C"}))
    );
    assert_eq!(back_results[3].content, ResultContent::Text("only".into()));
    assert_eq!(back_results[5].content, ResultContent::Json(Value::Null));
}

#[test]
fn mcp_jsonrpc_errors_read_as_error_results_and_go_back_as_errors() {
    let pasted = json!([
        {"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {"_meta": meta(), "name": "nope", "arguments": {}}},
        {"jsonrpc": "2.0", "id": "c1", "error": {"code": -32602, "message": "Unknown tool: nope", "data": {"tool": "nope"}}}
    ]);
    let (x, losses) = survives(&pasted, Kind::Request);
    let r = x.messages[1].tool_results().next().unwrap();
    assert!(r.is_error);
    assert_eq!(r.call_id.as_deref(), Some("c1"));
    assert_eq!(r.content, ResultContent::Text("Unknown tool: nope".into()));
    assert_eq!(r.extra["mcp"]["error"]["code"], -32602);
    assert_loss(&losses, LossKind::Rewritten, "/messages/1/parts/0");
    // Into another format it is an error result like any other.
    let a = Format::Anthropic.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&a.text).unwrap();
    let block = &doc["messages"][1]["content"][0];
    assert_eq!(block["is_error"], true);
    assert_eq!(block["content"], "Unknown tool: nope");
    // An error response with a null id (the request could not be read) is kept.
    let null_id = json!([{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}]);
    let (x, _) = survives(&null_id, Kind::Request);
    assert_eq!(x.messages[0].tool_results().next().unwrap().call_id, None);
}

#[test]
fn mcp_every_tool_choice_and_the_parallel_flag_are_reported() {
    for choice in common::every_choice("get_weather") {
        let mut x = base(vec![user("hi")]);
        x.tool_choice = Some(choice);
        x.parallel_tool_calls = Some(false);
        let (doc, losses, back) = round_trip(&x);
        assert_losses!(&losses; Dropped "/tool_choice", Dropped "/parallel_tool_calls");
        assert_eq!(back.tool_choice, None);
        assert!(!doc.to_string().contains("tool_choice"));
    }
}

#[test]
fn mcp_empty_text_next_to_tool_calls_is_dropped_and_the_call_kept() {
    let x = base(vec![assistant(vec![
        Part::text(""),
        call(Some("a"), "get_weather", json!({"location": "Rome"})),
        Part::text("let me check"),
    ])]);
    let (doc, losses, back) = round_trip(&x);
    assert_eq!(doc.as_array().unwrap().len(), 3);
    assert_losses!(&losses; Dropped "/messages/0/parts/0", Dropped "/messages/0/parts/2");
    assert_eq!(back.messages[0].parts.len(), 1);
}

#[test]
fn mcp_what_mcp_cannot_carry_is_reported() {
    let mut x = base(vec![
        user("hi"),
        assistant(vec![Part::text("Hello!")]),
        user("weather?"),
        assistant(vec![call(Some("a"), "get_weather", json!({}))]),
    ]);
    x.system = Some("Be brief.".into());
    x.options = Options {
        model: Some("gpt-4o".into()),
        max_tokens: Some(100),
        temperature: Some(0.5),
        top_p: Some(0.9),
        stop: vec!["END".into()],
        ..Options::default()
    };
    x.tools[0].strict = Some(true);
    x.extra.insert(
        "mcp".into(),
        serde_json::Map::from_iter([("sessionId".to_string(), json!("s-1"))]),
    );
    x.tools[0].extra.insert(
        "gemini".into(),
        serde_json::Map::from_iter([("behavior".to_string(), json!("BLOCKING"))]),
    );
    let (_, losses, back) = round_trip(&x);
    for p in [
        "/system",
        "/options/model",
        "/options/max_tokens",
        "/options/temperature",
        "/options/top_p",
        "/options/stop",
        "/tools/0/strict",
        "/tools/0/extra/gemini",
        "/extra/mcp/sessionId",
        "/messages/0",
        "/messages/1",
        "/messages/2",
    ] {
        assert!(losses.iter().any(|l| l.pointer == p), "{p}: {losses:#?}");
    }
    assert_eq!(back.messages.len(), 1);
    assert_eq!(back.tools[0].strict, None);

    // Next to a kept assistant turn that does not come back exactly (its id is assigned), the
    // dropped one cannot be told apart from it: the loss covers the whole list.
    let x = base(vec![
        assistant(vec![Part::text("Hello!")]),
        assistant(vec![call(None, "get_weather", json!({}))]),
    ]);
    let (_, losses, _) = round_trip(&x);
    assert!(has_loss(&losses, LossKind::Dropped, "/messages"));
    assert!(!has_loss(&losses, LossKind::Dropped, "/messages/0"));
}

#[test]
fn mcp_output_schema_and_annotations_are_native() {
    let mut x = base(vec![]);
    x.tools[0].output_schema =
        Some(json!({"type": "object", "properties": {"temp": {"type": "number"}}}));
    x.tools[0].annotations = Some(json!({"readOnlyHint": true, "openWorldHint": true}));
    let (doc, losses, back) = round_trip(&x);
    let t = &doc[1]["result"]["tools"][0];
    assert_eq!(t["outputSchema"]["properties"]["temp"]["type"], "number");
    assert_eq!(t["annotations"]["readOnlyHint"], true);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(back.tools, x.tools);
}

#[test]
fn mcp_input_schema_gets_its_required_object_type() {
    let mut x = base(vec![]);
    x.tools[0].input_schema = json!({"properties": {"q": {"type": "string"}}});
    let mut second = x.tools[0].clone();
    second.name = "odd".into();
    second.input_schema = json!(true);
    x.tools.push(second);
    let (doc, losses, _) = round_trip(&x);
    let tools = &doc[1]["result"]["tools"];
    assert_eq!(tools[0]["inputSchema"]["type"], "object");
    assert_eq!(tools[1]["inputSchema"], empty_object_schema());
    assert_losses!(&losses; Rewritten "/tools/0/input_schema", Rewritten "/tools/1/input_schema");
}

#[test]
fn mcp_response_is_the_models_tools_call_requests() {
    let mut m = assistant(vec![
        Part::text("Checking."),
        call(Some("call_1"), "get_weather", json!({"location": "Lima"})),
        call(None, "get_weather", json!({"location": "Quito"})),
    ]);
    m.stop_reason = Some(StopReason::ToolUse);
    m.usage = common::usage(10, 5);
    let mut x = base(vec![user("hi"), m]);
    x.options.model = Some("claude-x".into());
    let t = common::checked_trip(M, &x, Kind::Response);
    assert_eq!(
        ids(&t.doc),
        [json!("call_1"), json!("call_2")],
        "the missing id is assigned without clashing"
    );
    assert!(t
        .doc
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["method"] == "tools/call"));
    for p in [
        "/options/model",
        "/messages/0/parts/0",
        "/messages/0/usage",
        "/messages/0/parts/2/id",
    ] {
        assert!(
            t.encoder.iter().any(|l| l.pointer == p),
            "{p}: {:#?}",
            t.encoder
        );
    }
    assert_eq!(t.back.messages[0].stop_reason, Some(StopReason::ToolUse));
    assert_eq!(
        Format::detect(&t.doc.to_string()).unwrap(),
        (M, Kind::Response)
    );

    // A turn without calls is an empty transcript; its stop reason is read back as end_turn.
    let mut text_only = assistant(vec![Part::text("Done.")]);
    text_only.stop_reason = Some(StopReason::MaxTokens);
    let t = common::checked_trip(M, &base(vec![text_only]), Kind::Response);
    assert_eq!(t.doc, json!([]));
    assert!(has_loss(
        &t.encoder,
        LossKind::Rewritten,
        "/messages/0/stop_reason"
    ));
    assert_eq!(t.back.messages[0].stop_reason, Some(StopReason::EndTurn));
    assert_eq!(Format::detect("[]").unwrap(), (M, Kind::Response));

    // No assistant turn at all.
    let t = common::checked_trip(M, &base(vec![user("hi")]), Kind::Response);
    assert!(has_loss(&t.encoder, LossKind::Dropped, "/messages"));
}

fn example(name: &str) -> Value {
    let path = common::mcp_spec_dir().join("examples").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("example is JSON")
}

fn examples(prefix: &str) -> Vec<(String, Value)> {
    let mut names: Vec<String> = std::fs::read_dir(common::mcp_spec_dir().join("examples"))
        .expect("examples folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{prefix}--")))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no {prefix} examples");
    names
        .into_iter()
        .map(|n| (n.clone(), example(&n)))
        .collect()
}

#[test]
fn mcp_spec_example_messages_decode_without_loss() {
    // Whole JSON-RPC messages: each is a document on its own, kept as a single object.
    for prefix in [
        "ListToolsRequest",
        "ListToolsResultResponse",
        "CallToolRequest",
        "CallToolResultResponse",
    ] {
        for (name, doc) in examples(prefix) {
            let (_, losses) = survives(&doc, Kind::Request);
            assert!(losses.is_empty(), "{name}: {losses:#?}");
        }
    }
    let (x, _) = decode(
        &example("ListToolsResultResponse--list-tools-result-response.json"),
        Kind::Request,
    );
    assert_eq!(x.tools[0].name, "get_weather");
    assert_eq!(
        x.tools[0].extra["mcp"]["title"],
        "Weather Information Provider"
    );
    let (x, _) = decode(
        &example("CallToolRequest--call-tool-request.json"),
        Kind::Request,
    );
    let c = x.messages[0].tool_calls().next().unwrap();
    assert_eq!(
        (c.id.as_deref(), c.name.as_str()),
        (Some("call-tool-example"), "get_weather")
    );
    assert_eq!(c.arguments, json!({"location": "New York"}));
    // A lone tools/call request is also the model's call: a response document.
    let (_, losses) = survives(
        &example("CallToolRequest--call-tool-request.json"),
        Kind::Response,
    );
    assert!(losses.is_empty());
}

#[test]
fn mcp_spec_example_parts_decode_without_loss_inside_messages() {
    // Results inside a response.
    for (name, result) in examples("CallToolResult") {
        let doc = json!({"jsonrpc": "2.0", "id": 1, "result": result});
        let (x, losses) = survives(&doc, Kind::Request);
        assert!(losses.is_empty(), "{name}: {losses:#?}");
        let r = x.messages[0].tool_results().next().unwrap();
        assert_eq!(r.is_error, name.contains("error"), "{name}");
        if name.contains("structured-content") {
            assert!(matches!(r.content, ResultContent::Json(_)), "{name}");
        }
    }
    // Tools inside a tools/list result (the cursor-and-ttl example is a whole result).
    let tools: Vec<Value> = examples("Tool").into_iter().map(|(_, t)| t).collect();
    let doc = json!({"jsonrpc": "2.0", "id": "l", "result": {"tools": tools.clone(), "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}});
    let (x, losses) = survives(&doc, Kind::Request);
    assert!(losses.is_empty());
    assert_eq!(x.tools.len(), tools.len());
    assert!(x.tools.iter().any(|t| t
        .output_schema
        .as_ref()
        .is_some_and(|s| s["type"] == "array")));
    for (name, result) in examples("ListToolsResult") {
        let doc = json!({"jsonrpc": "2.0", "id": "l", "result": result});
        let (_, losses) = survives(&doc, Kind::Request);
        assert!(losses.is_empty(), "{name}");
    }
    // Call params inside a tools/call request.
    for (name, params) in examples("CallToolRequestParams") {
        let doc = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params});
        let (x, losses) = survives(&doc, Kind::Request);
        assert!(losses.is_empty(), "{name}");
        let c = x.messages[0].tool_calls().next().unwrap();
        if name.contains("progress") {
            assert_eq!(c.extra["mcp"]["_meta"]["progressToken"], "oivaizmir");
        }
    }
    // Protocol errors inside an error response: an error result, reported.
    for (name, error) in examples("InvalidParamsError") {
        let doc = json!({"jsonrpc": "2.0", "id": 4, "error": error});
        let (x, losses) = survives(&doc, Kind::Request);
        let rewritten = has_loss(&losses, LossKind::Rewritten, "/messages/0/parts/0");
        assert!(rewritten, "{name}");
        assert!(x.messages[0].tool_results().next().unwrap().is_error);
    }
}

/// A realistic transcript of an older-revision session: the initialize handshake, a paginated
/// tools/list with icons and `_meta`, integer ids, a progress notification, a resource link,
/// audio, a structured result, an explicit `isError: false`, an unknown envelope field.
fn pasted_transcript() -> Value {
    json!([
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "Inspector", "version": "0.16.0"}}},
        {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "weather", "version": "1.2.0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": "page-2"}},
        {"jsonrpc": "2.0", "id": 1, "result": {
            "tools": [{
                "name": "get_forecast",
                "title": "Forecast",
                "description": "Forecast for a place.",
                "inputSchema": {"type": "object", "properties": {"place": {"type": "string"}}, "required": ["place"]},
                "outputSchema": {"type": "object", "properties": {"high": {"type": "number"}}},
                "annotations": {"readOnlyHint": true, "title": "Forecast"},
                "icons": [{"src": "https://example.com/f.png", "mimeType": "image/png", "sizes": ["48x48"]}],
                "_meta": {"com.example/owner": "weather-team"}
            }],
            "nextCursor": "page-3"
        }},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_forecast", "arguments": {"place": "Lyon"}, "_meta": {"progressToken": 17}}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 17, "progress": 0.5}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_forecast", "arguments": {"place": "Nice"}}},
        {"jsonrpc": "2.0", "id": 2, "result": {
            "content": [
                {"type": "text", "text": "High of 24."},
                {"type": "resource_link", "uri": "file:///forecasts/lyon.json", "name": "lyon.json", "mimeType": "application/json"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
            ],
            "isError": false
        }},
        {"jsonrpc": "2.0", "id": 3, "result": {
            "content": [{"type": "text", "text": "{\"high\": 26}", "annotations": {"audience": ["assistant"]}}],
            "structuredContent": {"high": 26},
            "_meta": {"com.example/cache": "hit"}
        }, "x-trace": "abc"}
    ])
}

#[test]
fn mcp_pasted_transcript_survives_unchanged() {
    let doc = pasted_transcript();
    let (x, losses) = survives(&doc, Kind::Request);
    assert!(losses.is_empty(), "{losses:#?}");
    assert_eq!(x.tools[0].name, "get_forecast");
    assert_eq!(
        x.tools[0].annotations,
        Some(json!({"readOnlyHint": true, "title": "Forecast"}))
    );
    assert!(x.tools[0].output_schema.is_some());
    // The handshake is kept before tools/list; the progress notification at its place.
    assert_eq!(x.extra["mcp"]["preamble"].as_array().unwrap().len(), 3);
    let turn = &x.messages[0];
    assert_eq!(turn.role, Role::Assistant);
    assert!(
        matches!(&turn.parts[1], Part::Raw { format, value } if format == "mcp" && value["method"] == "notifications/progress")
    );
    let calls: Vec<_> = turn.tool_calls().collect();
    assert_eq!(calls[0].id.as_deref(), Some("2"));
    let results: Vec<_> = x.messages[1].tool_results().collect();
    assert!(matches!(&results[0].content, ResultContent::Blocks(b) if b.len() == 3));
    assert_eq!(results[1].content, ResultContent::Json(json!({"high": 26})));
    // Into another format: the calls and results, with the MCP-only details reported.
    let enc = Format::OpenAiChat.encode(&x, Kind::Request);
    assert!(enc.losses.iter().any(|l| l.pointer == "/extra/mcp"));
    assert!(enc.text.contains("\"tool_call_id\": \"2\""));
}

#[test]
fn mcp_single_messages_stay_single_and_transcripts_stay_arrays() {
    let one = json!({"jsonrpc": "2.0", "id": "q", "method": "tools/call", "params": {"_meta": meta(), "name": "f", "arguments": {"a": 1}}});
    survives(&one, Kind::Request);
    survives(&json!([one.clone()]), Kind::Request);
    survives(&json!([one]), Kind::Response);
}

#[test]
fn mcp_decode_errors_point_at_the_spot() {
    // (document, pointer, where the error points in the text, message)
    let cases = [
        (
            "[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"},\n  {\"jsonrpc\": \"1.0\", \"id\": 2, \"method\": \"tools/call\"}\n]",
            "/1/jsonrpc",
            "\"1.0\"",
            "2.0",
        ),
        (
            "[\n  {\"jsonrpc\": \"2.0\",\n   \"id\": 2, \"method\": \"tools/call\"}\n]",
            "/0",
            "{\"jsonrpc\"",
            "params",
        ),
        (
            "[\n  {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\",\n   \"params\": {\"arguments\": {}}}\n]",
            "/0/params",
            "{\"arguments\"",
            "name",
        ),
        (
            "[\n  {\"jsonrpc\": \"2.0\", \"id\": 2.5, \"method\": \"tools/call\", \"params\": {\"name\": \"f\"}}\n]",
            "/0/id",
            "2.5",
            "string or an integer",
        ),
        (
            "[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": [\n    {\"name\": \"f\"}\n  ]}}\n]",
            "/0/result/tools/0",
            "{\"name\": \"f\"}",
            "inputSchema",
        ),
        (
            "{\"jsonrpc\": \"2.0\", \"id\": 1,\n \"result\": {\"content\": [], \"isError\": \"yes\"}}",
            "/result/isError",
            "\"yes\"",
            "boolean",
        ),
    ];
    for (text, pointer, snippet, message) in cases {
        let e = M.decode(text, Kind::Request).expect_err(pointer);
        assert_eq!(e.format, Some("mcp"));
        assert_eq!(e.pointer.as_deref(), Some(pointer), "{e}");
        assert_eq!(
            (e.line, e.column),
            {
                let (l, c) = position(text, snippet);
                (Some(l), Some(c))
            },
            "{e}"
        );
        assert!(e.message.contains(message), "{e}");
    }
    // A response document holds the model's calls, not responses.
    let text = "[\n  {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"content\": []}}\n]";
    let e = M.decode(text, Kind::Response).expect_err("response");
    assert_eq!(e.pointer.as_deref(), Some("/0"));
    assert_eq!(e.line, Some(2));
    // Syntax errors: line and column, no pointer.
    let e = M
        .decode("[\n  {\"jsonrpc\": \"2.0\",, }\n]", Kind::Request)
        .expect_err("syntax");
    assert_eq!((e.line, e.pointer.as_deref()), (Some(2), None));
}

#[test]
fn mcp_detect_and_sniff() {
    use toolscope::formats::mcp::Codec;
    let req = M.encode(&base(vec![user("hi")]), Kind::Request).text;
    assert_eq!(Format::detect(&req).unwrap(), (M, Kind::Request));
    let pasted = pasted_transcript().to_string();
    assert_eq!(Format::detect(&pasted).unwrap(), (M, Kind::Request));
    for (prefix, kind) in [
        ("ListToolsRequest", Kind::Request),
        ("ListToolsResultResponse", Kind::Request),
        ("CallToolResultResponse", Kind::Request),
        ("CallToolRequest", Kind::Response),
    ] {
        for (name, doc) in examples(prefix) {
            assert_eq!(
                Format::detect(&doc.to_string()).unwrap(),
                (M, kind),
                "{name}"
            );
            assert_eq!(Codec::sniff(&doc).map(|s| s.1), Some(98));
        }
    }
    assert_eq!(
        Codec::sniff(&json!([{"jsonrpc": "2.0", "method": "ping", "id": 1}, {"role": "user"}])),
        None
    );
    assert_eq!(Codec::sniff(&json!({"jsonrpc": "1.0"})), None);
    assert_eq!(Codec::sniff(&json!({"messages": []})), None);
    assert_eq!(Codec::sniff(&json!([])), Some((Kind::Response, 50)));
}

/// A session (2025-11-25) transcript as the live client records it against a server that
/// refused `server/discover` first: the refusal (an error without an id) and the handshake stay
/// in the preamble, integer ids stay integers next to `structuredContent`, and resource links,
/// embedded resources, annotations and output schemas come back field for field.
#[test]
fn mcp_a_live_session_transcript_survives_unchanged() {
    let doc = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}},
        {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Bad Request: Missing session ID"}},
        {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "toolscope", "version": "0.1.0"}}},
        {"jsonrpc": "2.0", "id": 2, "result": {"capabilities": {"tools": {"listChanged": false}}, "protocolVersion": "2025-11-25", "serverInfo": {"name": "s", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
            {"annotations": {"readOnlyHint": true, "openWorldHint": false}, "name": "get_weather", "title": "Current weather",
             "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
             "outputSchema": {"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]},
             "icons": [{"src": "data:image/png;base64,AA==", "mimeType": "image/png"}]},
            {"annotations": {"destructiveHint": true}, "name": "media.sample", "inputSchema": {"type": "object"}}]}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Oslo"}}},
        {"jsonrpc": "2.0", "id": 4, "result": {"content": [{"type": "text", "text": "{\"t\": 3}"}], "structuredContent": {"t": 3}, "isError": false}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "media.sample", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 5, "result": {"content": [
            {"type": "text", "text": "one of each"},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "audio", "data": "AA==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///notes/1.md", "name": "note 1", "mimeType": "text/markdown"},
            {"type": "resource", "resource": {"uri": "file:///notes/2.md", "text": "# Note 2"}}], "isError": false}}
    ]);
    let (x, _) = survives(&doc, Kind::Request);
    assert_eq!(x.extra["mcp"]["preamble"].as_array().unwrap().len(), 5);
    assert_eq!(x.tools.len(), 2);
    assert_eq!(x.tools[0].extra["mcp"]["title"], "Current weather");
    let results: Vec<_> = x.messages.iter().flat_map(|m| m.tool_results()).collect();
    assert_eq!(results[0].content, ResultContent::Json(json!({"t": 3})));
    assert_eq!(results[0].call_id.as_deref(), Some("4"));
    assert!(matches!(&results[1].content, ResultContent::Blocks(b) if b.len() == 5));
}

/// The live client's reader of one `tools/call` result is the transcript decoder's: what it
/// gives, written into a transcript, reads back the same.
#[test]
fn mcp_call_result_reads_as_the_transcript_does() {
    let result = json!({"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}],
        "structuredContent": {"ok": true}, "resultType": "complete", "_meta": {"x.example/k": 1}});
    let r =
        toolscope::formats::mcp::call_result(Some("c1".into()), result.clone(), "/result").unwrap();
    assert_eq!(r.content, ResultContent::Json(json!({"ok": true})));
    let doc = json!([{"jsonrpc": "2.0", "id": "c1", "result": result}]);
    let (x, _) = survives(&doc, Kind::Request);
    let from_doc = x.messages[0].tool_results().next().unwrap().clone();
    assert_eq!(from_doc, r);
}
