//! Anchors: every golden exchange × every format × request/response — spans lie on character
//! boundaries inside the pane text, a call's span holds its name, spans of different elements
//! nest or stay apart, `element_at` finds each span's element — plus concrete spans in a few
//! formats, the canonical text, pointers, and a timing print.

use crate::common;

use serde_json::{json, Value};
use toolscope::anchors::{canonical_spans, element_at, elements, spans, spans_in, Element, Span};
use toolscope::formats::{json as fjson, Format, Kind};
use toolscope::model::{Exchange, LossKind, Part};

fn text_of(text: &str, s: Span) -> &str {
    text.get(s.start..s.end).expect("span on char boundaries")
}

fn case(name: &str) -> Exchange {
    common::cases()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, x)| x)
        .unwrap_or_else(|| panic!("no case {name}"))
}

fn call_name(x: &Exchange, e: Element) -> Option<&str> {
    match e {
        Element::Call { message, part } => match x.messages.get(message)?.parts.get(part)? {
            Part::ToolCall(c) => Some(c.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// A case's request encoded in one format, and the spans found in it.
struct Pane {
    text: String,
    found: Vec<(Element, Span)>,
}

fn pane(x: &Exchange, format: Format) -> Pane {
    Pane {
        text: format.encode(x, Kind::Request).text,
        found: spans(x, format, Kind::Request),
    }
}

impl Pane {
    /// The text of the span of `e`.
    fn body(&self, e: Element) -> &str {
        let found = &self.found;
        let s = found
            .iter()
            .find(|(x, _)| *x == e)
            .map(|(_, s)| *s)
            .unwrap_or_else(|| panic!("no span for {e:?} in {found:?}"));
        text_of(&self.text, s)
    }

    /// The span of `e` parsed as JSON.
    fn json(&self, e: Element) -> Value {
        serde_json::from_str(self.body(e)).expect("a span is a JSON value")
    }
}

fn call(message: usize, part: usize) -> Element {
    Element::Call { message, part }
}

fn result(message: usize, part: usize) -> Element {
    Element::Result { message, part }
}

#[test]
fn anchors_spans_are_sound_for_every_case_format_and_kind() {
    let mut checked = 0;
    for (name, x) in common::cases() {
        for format in Format::ALL {
            for kind in [Kind::Request, Kind::Response] {
                let enc = format.encode(&x, kind);
                let text = &enc.text;
                let found = spans(&x, format, kind);
                assert_eq!(found, spans_in(&x, format, kind, text));
                let at = format!("{name} {} {}", format.id(), kind.as_str());
                for (e, s) in &found {
                    checked += 1;
                    assert!(s.start < s.end && s.end <= text.len(), "{at} {e:?} {s:?}");
                    let body = text_of(text, *s);
                    if let Some(n) = call_name(&x, *e) {
                        // A format that rewrites the name says so in a loss on the name.
                        let renamed = enc.losses.iter().any(|l| {
                            l.pointer == format!("{}/name", e.pointer())
                                && l.kind == LossKind::Rewritten
                        });
                        if !renamed {
                            assert!(body.contains(n), "{at} {e:?}: {n} not in {body}");
                        }
                    }
                    if !format.is_text() {
                        let v: Value = serde_json::from_str(body)
                            .unwrap_or_else(|err| panic!("{at} {e:?}: {err} in {body}"));
                        assert!(v.is_object(), "{at} {e:?}");
                    }
                    assert_eq!(element_at(&found, s.start), Some(*e), "{at}");
                    assert_eq!(element_at(&found, s.end - 1), Some(*e), "{at}");
                }
                for (i, (a, s)) in found.iter().enumerate() {
                    for (b, t) in found.iter().skip(i + 1) {
                        let apart = s.end <= t.start || t.end <= s.start;
                        let nested = (s.start <= t.start && t.end <= s.end)
                            || (t.start <= s.start && s.end <= t.end);
                        assert!(apart || nested, "{at}: {a:?} {s:?} overlaps {b:?} {t:?}");
                        assert_ne!(a, b, "{at}: {a:?} twice");
                    }
                }
                // A request carries every tool, call and result in every format. A tool the
                // provider runs is not a function the page links across panes (elsewhere it
                // is dropped with a loss).
                if kind == Kind::Request {
                    let carried: Vec<Element> = elements(&x)
                        .into_iter()
                        .filter(|e| !matches!(e, Element::Tool(i) if x.tools[*i].hosted.is_some()))
                        .collect();
                    assert_eq!(found.len(), carried.len(), "{at}: {found:?} of {carried:?}");
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn anchors_response_spans_only_the_last_turn() {
    let x = case("parallel_calls");
    let found = spans(&x, Format::Anthropic, Kind::Response);
    let last = x.messages.len() - 1;
    assert!(
        found.iter().all(
            |(e, _)| matches!(e, Element::Call { message, .. } if *message == last)
                || matches!(e, Element::Result { message, .. } if *message == last)
        ),
        "{found:?}"
    );
}

#[test]
fn anchors_openai_result_is_the_tool_message() {
    let x = case("weather");
    let p = pane(&x, Format::OpenAiChat);
    let result = *elements(&x)
        .iter()
        .find(|e| matches!(e, Element::Result { .. }))
        .expect("a result");
    let v = p.json(result);
    assert_eq!(v["role"], "tool");
    assert_eq!(v["tool_call_id"], "call_weather_1");
    let call = p.json(call(1, 0));
    assert_eq!(call["function"]["name"], "get_weather");
    assert_eq!(call["id"], "call_weather_1");
    let tool = p.json(Element::Tool(0));
    assert_eq!(tool["type"], "function");
}

#[test]
fn anchors_anthropic_result_is_the_tool_result_block() {
    let x = case("multi_turn");
    let p = pane(&x, Format::Anthropic);
    let v = p.json(result(2, 0));
    assert_eq!(v["type"], "tool_result");
    assert_eq!(v["tool_use_id"], "call_s1");
    let v = p.json(call(5, 0));
    assert_eq!(v["type"], "tool_use");
    assert_eq!(v["name"], "book_flight");
}

#[test]
fn anchors_gemini_result_is_the_function_response_part() {
    let x = case("multi_turn");
    let p = pane(&x, Format::Gemini);
    // JSON content: the part is found through the first string of the response object.
    let v = p.json(result(2, 0));
    assert_eq!(v["functionResponse"]["name"], "search_flights");
    let v = p.json(result(6, 0));
    assert_eq!(v["functionResponse"]["name"], "book_flight");
    let v = p.json(Element::Tool(1));
    assert_eq!(v["name"], "book_flight", "a function declaration");
    assert!(v.get("functionDeclarations").is_none());
}

#[test]
fn anchors_bedrock_and_mcp_results_enclose_their_blocks() {
    let x = case("multi_turn");
    let p = pane(&x, Format::Bedrock);
    let v = p.json(result(6, 0));
    assert!(v.get("toolResult").is_some(), "{v}");
    let p = pane(&x, Format::Mcp);
    let v = p.json(result(6, 0));
    assert_eq!(v["jsonrpc"], "2.0");
    assert!(v.get("result").is_some(), "{v}");
    let v = p.json(call(5, 0));
    assert_eq!(v["method"], "tools/call");
}

#[test]
fn anchors_xml_elements_are_their_tags() {
    let x = case("multi_turn");
    let p = pane(&x, Format::AnthropicXml);
    let call = p.body(call(5, 0));
    assert!(
        call.starts_with("<invoke>") && call.ends_with("</invoke>"),
        "{call}"
    );
    assert!(
        call.contains("<tool_name>book_flight</tool_name>"),
        "{call}"
    );
    let result = p.body(result(6, 0));
    assert!(result.starts_with("<result>") && result.ends_with("</result>"));
    assert!(result.contains("ZX81Q"), "{result}");
    let tool = p.body(Element::Tool(0));
    assert!(tool.starts_with("<tool_description>"), "{tool}");
    assert!(tool.contains("search_flights"), "{tool}");
}

#[test]
fn anchors_json_result_without_strings_is_still_found() {
    let mut x = case("weather");
    for m in &mut x.messages {
        for p in &mut m.parts {
            if let Part::ToolResult(r) = p {
                r.content = toolscope::model::ResultContent::Json(json!({"temp": 21, "ok": true}));
            }
        }
    }
    for format in Format::ALL {
        let found = spans(&x, format, Kind::Request);
        assert!(
            found
                .iter()
                .any(|(e, _)| matches!(e, Element::Result { .. })),
            "{}: {found:?}",
            format.id()
        );
    }
}

#[test]
fn anchors_canonical_spans_are_the_parts_and_tools() {
    for (name, x) in common::cases() {
        let text = fjson::pretty(&x);
        let found = canonical_spans(&x, &text);
        assert_eq!(found.len(), elements(&x).len(), "{name}");
        let doc: Value = serde_json::to_value(&x).expect("json");
        for (e, s) in &found {
            let v: Value = serde_json::from_str(text_of(&text, *s)).expect("json");
            assert_eq!(Some(&v), doc.pointer(&e.pointer()), "{name} {e:?}");
            assert_eq!(element_at(&found, s.start), Some(*e));
        }
        assert_eq!(
            element_at(&found, 0),
            None,
            "{name}: the opening brace is no element"
        );
    }
}

#[test]
fn anchors_pointers_map_back_to_elements() {
    let x = case("multi_turn");
    for e in elements(&x) {
        assert_eq!(Element::in_exchange(&x, &e.pointer()), Some(e));
        assert_eq!(
            Element::in_exchange(&x, &format!("{}/arguments/a/0", e.pointer())),
            Some(e)
        );
    }
    assert_eq!(
        Element::from_pointer("/tools/3/input_schema/properties"),
        Some(Element::Tool(3))
    );
    assert_eq!(
        Element::from_pointer("/messages/2/parts/1/call_id"),
        Some(Element::Result {
            message: 2,
            part: 1
        })
    );
    assert_eq!(
        Element::from_pointer("/messages/2/parts/1/arguments/x"),
        Some(Element::Call {
            message: 2,
            part: 1
        })
    );
    assert_eq!(Element::from_pointer("/messages/2/role"), None);
    assert_eq!(Element::from_pointer("/messages/x/parts/0"), None);
    assert_eq!(Element::from_pointer(""), None);
    assert_eq!(
        Element::in_exchange(&x, "/messages/0/parts/0"),
        None,
        "a text part"
    );
    assert_eq!(Element::in_exchange(&x, "/tools/99"), None);
}

#[test]
fn anchors_element_at_prefers_the_innermost() {
    let outer = (Element::Tool(0), Span { start: 0, end: 100 });
    let inner = (
        Element::Call {
            message: 1,
            part: 0,
        },
        Span { start: 10, end: 20 },
    );
    let spans = [outer, inner];
    assert_eq!(element_at(&spans, 15), Some(inner.0));
    assert_eq!(element_at(&spans, 5), Some(outer.0));
    assert_eq!(element_at(&spans, 20), Some(outer.0));
    assert_eq!(element_at(&spans, 100), None);
}

#[test]
fn anchors_bench_every_format() {
    // Not a timing assertion: `cargo test --test anchors anchors_bench -- --nocapture`.
    let mut big = Exchange::default();
    for (_, x) in common::cases() {
        big.tools.extend(x.tools);
        big.messages.extend(x.messages);
    }
    let n = elements(&big).len();
    let rendered: Vec<(Format, Kind, String)> = Format::ALL
        .into_iter()
        .flat_map(|f| [Kind::Request, Kind::Response].map(|k| (f, k, f.encode(&big, k).text)))
        .collect();
    let start = std::time::Instant::now();
    let mut total = 0;
    for (f, k, text) in &rendered {
        total += spans_in(&big, *f, *k, text).len();
    }
    let all = start.elapsed();
    let largest = common::cases()
        .into_iter()
        .max_by_key(|(_, x)| elements(x).len())
        .map(|(_, x)| x)
        .expect("cases");
    let texts: Vec<String> = Format::ALL
        .iter()
        .map(|f| f.encode(&largest, Kind::Request).text)
        .collect();
    let start = std::time::Instant::now();
    for (f, text) in Format::ALL.into_iter().zip(&texts) {
        let _ = spans_in(&largest, f, Kind::Request, text);
    }
    let one = start.elapsed();
    assert!(total > 0);
    println!(
        "anchors: {n} elements × 11 formats × request+response: {all:?} ({total} spans); largest example ({} elements) × 11 request panes: {one:?}",
        elements(&largest).len()
    );
}
