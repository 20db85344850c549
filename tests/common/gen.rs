//! Arbitrary exchanges for property tests: realistic turn structure (user, assistant with
//! calls, tool results, …) filled with hostile details — odd ids, missing ids, invalid or
//! empty arguments, unicode, empty texts, JSON (object or not) and block results with images,
//! error flags, every tool_choice, raw blocks and provider-only fields of every format.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolscope::formats::Format;
use toolscope::model::*;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-zA-Z ,.?!]{1,40}",
        Just("Unicode: café, 東京, emoji 🌧️, quote \" and \\ backslash".to_string()),
        Just("line one\nline two\n\ttabbed".to_string()),
        Just("<b>not html</b> & {\"json\": \"in text\"}".to_string()),
    ]
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("get_weather".to_string()),
        Just("search".to_string()),
        Just("send_email".to_string()),
        "[a-z][a-z0-9_]{0,15}",
    ]
}

fn id() -> impl Strategy<Value = String> {
    prop_oneof![
        "call_[a-zA-Z0-9]{6,24}",
        "toolu_01[a-zA-Z0-9]{10,22}",
        Just("functions.get_weather:0".to_string()),
        Just("x".repeat(80)),
        Just("id with spaces/and:colons".to_string()),
        Just("ид-📞".to_string()),
        "[a-zA-Z0-9]{9}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(|n| json!(n)),
        Just(json!(2.5)),
        text().prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,8}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::vec(("[a-z_]{1,10}", value()), 0..4)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>()))
}

fn arguments() -> impl Strategy<Value = (Value, Option<String>)> {
    prop_oneof![
        6 => object().prop_map(|v| (v, None)),
        1 => Just((Value::Null, Some("{\"location\": \"Par".to_string()))),
        1 => Just((Value::Null, Some("{'single': 'quotes',}".to_string()))),
        1 => Just((json!({"a": 1}), Some("{ \"a\" : 1 }".to_string()))),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "object", "properties": {}})),
        Just(
            json!({"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]})
        ),
        Just(json!({
            "type": "object",
            "properties": {
                "to": {"type": "array", "items": {"type": "string"}},
                "opts": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}
            },
            "required": ["to"],
            "additionalProperties": false
        })),
        Just(
            json!({"type": "object", "properties": {"q": {"type": ["string", "null"]}}, "required": ["q"], "additionalProperties": false})
        ),
    ]
}

fn tool() -> impl Strategy<Value = Tool> {
    (
        name(),
        prop::option::of(text()),
        schema(),
        prop::option::of(any::<bool>()),
        extra(),
        prop::option::of(schema()),
        prop::option::of(Just(json!({"readOnlyHint": true, "title": "Look up"}))),
    )
        .prop_map(
            |(name, description, input_schema, strict, extra, output_schema, annotations)| Tool {
                name,
                description,
                input_schema,
                strict,
                output_schema,
                annotations,
                hosted: None,
                custom: None,
                extra,
            },
        )
}

fn tool_choice() -> impl Strategy<Value = Option<ToolChoice>> {
    prop_oneof![
        Just(None),
        Just(Some(ToolChoice::mode(ChoiceMode::Auto))),
        Just(Some(ToolChoice::mode(ChoiceMode::None))),
        Just(Some(ToolChoice::mode(ChoiceMode::Required))),
        Just(Some(ToolChoice::mode(ChoiceMode::Validated))),
        name().prop_map(|n| Some(ToolChoice::force(n))),
    ]
}

/// Provider-only fields as a paste of another format (or of the target) would leave them.
fn extra() -> impl Strategy<Value = Extra> {
    prop_oneof![
        4 => Just(Extra::new()),
        1 => (0..Format::ALL.len(), "[a-z][a-zA-Z_]{0,10}", scalar()).prop_map(|(f, k, v)| {
            let mut fields = Map::new();
            fields.insert(k, v);
            let mut e = Extra::new();
            e.insert(Format::ALL[f].id().to_string(), fields);
            e
        }),
    ]
}

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        4 => text().prop_map(|text| Block::Text { text }),
        1 => Just(Block::Image { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() }),
    ]
}

fn result_content() -> impl Strategy<Value = ResultContent> {
    prop_oneof![
        6 => text().prop_map(ResultContent::Text),
        2 => object().prop_map(ResultContent::Json),
        1 => value().prop_map(ResultContent::Json),
        2 => prop::collection::vec(block(), 1..3).prop_map(ResultContent::Blocks),
    ]
}

/// A block of a type the model has no variant for, as some format left it (each a valid
/// assistant-side block of that format, since a format re-emits its own raw blocks verbatim).
fn raw_part() -> impl Strategy<Value = Part> {
    prop_oneof![
        Just((
            "openai-chat",
            json!({"type": "refusal", "refusal": "I can't help with that."})
        )),
        Just((
            "openai-responses",
            json!({"type": "compaction", "id": "cmp_1", "encrypted_content": "Zm9v"})
        )),
        Just((
            "anthropic",
            json!({"type": "compaction", "content": "## Summary"})
        )),
        Just(("gemini", json!({"thought": true, "text": "hmm"}))),
        Just(("bedrock", json!({"cachePoint": {"type": "default"}}))),
    ]
    .prop_map(|(format, value)| Part::Raw {
        format: format.to_string(),
        value,
    })
}

/// One assistant round: optional text, 0–3 calls, and the results of those calls (possibly
/// reordered), then maybe a user follow-up.
fn round(with_ids: bool) -> impl Strategy<Value = Vec<Message>> {
    (
        prop::option::of((text(), extra())),
        prop::collection::vec((id(), name(), arguments(), extra()), 0..4),
        prop::collection::vec((result_content(), any::<bool>(), extra()), 4),
        any::<bool>(),
        prop::option::of(text()),
        (prop::option::of(raw_part()), extra()),
    )
        .prop_map(
            move |(lead, calls, results, reverse, follow_up, (raw, msg_extra))| {
                let mut msgs = Vec::new();
                let mut parts = Vec::new();
                if let Some((text, extra)) = lead {
                    parts.push(Part::Text { text, extra });
                }
                parts.extend(raw);
                // Distinct ids within a round: real providers never repeat one.
                let calls: Vec<_> = calls
                    .into_iter()
                    .enumerate()
                    .map(|(i, (id, name, (arguments, raw), extra))| {
                        let id = with_ids.then(|| format!("{id}{i}"));
                        let mut c = ToolCall::new(id, name, arguments);
                        c.arguments_raw = raw;
                        c.extra = extra;
                        c
                    })
                    .collect();
                parts.extend(calls.iter().cloned().map(Part::ToolCall));
                if parts.is_empty() {
                    parts.push(Part::text("ok"));
                }
                let mut assistant = Message::new(Role::Assistant, parts);
                assistant.extra = msg_extra;
                msgs.push(assistant);
                if !calls.is_empty() {
                    let mut rs: Vec<Part> = calls
                        .iter()
                        .zip(results)
                        .map(|(c, (content, is_error, extra))| {
                            let mut r = ToolResult::new(c.id.clone(), content);
                            r.is_error = is_error;
                            r.extra = extra;
                            if !with_ids {
                                r.name = Some(c.name.clone());
                            }
                            Part::ToolResult(r)
                        })
                        .collect();
                    if reverse && with_ids {
                        rs.reverse();
                    }
                    msgs.push(Message::new(Role::Tool, rs));
                }
                if let Some(t) = follow_up {
                    msgs.push(Message::new(Role::User, vec![Part::text(t)]));
                }
                msgs
            },
        )
}

/// An arbitrary request-side exchange.
pub fn exchange() -> impl Strategy<Value = Exchange> {
    (
        prop::option::of(text()),
        prop::collection::vec(tool(), 0..3),
        tool_choice(),
        prop::option::of(any::<bool>()),
        (
            prop::option::of("[a-z0-9.-]{3,20}"),
            prop::option::of(1u64..100_000),
            prop::option::of(prop_oneof![Just(0.0), Just(0.7), Just(1.0)]),
        ),
        text(),
        prop::collection::vec(round(true), 0..3),
        any::<bool>(),
    )
        .prop_map(
            |(
                system,
                tools,
                tool_choice,
                parallel,
                (model, max_tokens, temperature),
                first,
                rounds,
                ids,
            )| {
                let mut messages = vec![Message::new(Role::User, vec![Part::text(first)])];
                for r in rounds {
                    messages.extend(r);
                }
                let mut x = Exchange {
                    system,
                    tools,
                    tool_choice,
                    parallel_tool_calls: parallel,
                    options: Options {
                        model,
                        max_tokens,
                        temperature,
                        ..Options::default()
                    },
                    messages,
                    extra: Extra::new(),
                };
                if !ids {
                    // The Gemini shape: no ids anywhere, results named after their calls.
                    super::strip_ids(&mut x);
                }
                x
            },
        )
}

/// An arbitrary response-side exchange (what `Exchange::response_view` returns): a model name
/// and one assistant message with a stop reason and maybe usage.
pub fn response() -> impl Strategy<Value = Exchange> {
    (
        exchange(),
        round(true),
        prop::option::of((0u64..5000, 0u64..5000)),
        any::<bool>(),
    )
        .prop_map(|(base, round, usage, max_tokens)| {
            let mut msg = round
                .into_iter()
                .next()
                .unwrap_or_else(|| Message::new(Role::Assistant, vec![]));
            let has_calls = msg.tool_calls().next().is_some();
            msg.stop_reason = Some(match (has_calls, max_tokens) {
                (true, _) => StopReason::ToolUse,
                (false, true) => StopReason::MaxTokens,
                (false, false) => StopReason::EndTurn,
            });
            msg.usage = usage.map(|(i, o)| Usage {
                input_tokens: i,
                output_tokens: o,
            });
            Exchange {
                options: Options {
                    model: base.options.model,
                    ..Options::default()
                },
                messages: vec![msg],
                ..Exchange::default()
            }
        })
}

/// Property-test settings: `cases` cases from a fixed seed, so `make test` (and CI) is
/// deterministic; with `PROPTEST_CASES` set (a deeper, exploratory run), that many cases from a
/// random seed.
#[allow(dead_code)]
pub fn config(cases: u32) -> ProptestConfig {
    config_seeded(cases, 0x7001_5c0e)
}

/// [`config`] with another fixed seed.
#[allow(dead_code)]
pub fn config_seeded(cases: u32, seed: u64) -> ProptestConfig {
    match std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(n) => ProptestConfig::with_cases(n),
        None => ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
            ..ProptestConfig::with_cases(cases)
        },
    }
}

/// A test runner with a fixed seed: the same values every run, none of them written by hand.
#[allow(dead_code)]
pub fn seeded_runner(seed: u8) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

/// One value of `strategy`, drawn with `runner`.
#[allow(dead_code)]
pub fn draw<S: Strategy>(strategy: S, runner: &mut proptest::test_runner::TestRunner) -> S::Value {
    use proptest::strategy::ValueTree as _;
    strategy.new_tree(runner).expect("gen").current()
}
