//! Reasoning in the Chat Completions dialects: recorded documents and streams with reasoning
//! (DeepSeek, Groq, Moonshot, Alibaba, Azure-hosted DeepSeek, Mistral, Cohere; sources in
//! `tests/fixtures/recorded/NOTICE.md`) come back field for field in their own format, carry
//! their reasoning as reasoning parts, and lose it elsewhere only with a reasoning loss that
//! names it. OpenRouter `reasoning_details` and Gemini's OpenAI-compatible thought signature
//! are checked on documents shaped as their docs show them (no recording of them is public).

use crate::common;

use serde_json::{json, Value};
use toolscope::formats::gemini::SKIP_SIGNATURE as GEMINI_SKIP_SIGNATURE;
use toolscope::formats::{Format, Kind};
use toolscope::model::{Exchange, LossKind, Message, Opaque, OpaqueKind, Part, Reasoning, Role};
use toolscope::replay::{LoadOptions, Replay};

/// Whole recorded responses: (format, file under `tests/fixtures`).
const DOCS: [(Format, &str); 7] = [
    (
        Format::DeepSeek,
        "deepseek/recorded/deepseek-reasoning.response.json",
    ),
    (
        Format::OpenAiChat,
        "openai-chat/recorded/groq-reasoning.response.json",
    ),
    (
        Format::OpenAiChat,
        "openai-chat/recorded/moonshotai-reasoning.response.json",
    ),
    (
        Format::OpenAiChat,
        "openai-chat/recorded/alibaba-reasoning.response.json",
    ),
    (
        Format::OpenAiChat,
        "openai-chat/recorded/azure-deepseek-reasoning.1.response.json",
    ),
    (
        Format::Mistral,
        "mistral/recorded/mistral-reasoning.response.json",
    ),
    (
        Format::Cohere,
        "cohere/recorded/cohere-reasoning.response.json",
    ),
];

fn read(path: &str) -> String {
    std::fs::read_to_string(common::fixtures().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn reasoning_of(m: &Message) -> Vec<&Reasoning> {
    m.parts
        .iter()
        .filter_map(|p| match p {
            Part::Reasoning(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// The reasoning text a document's message carries, by its own spelling.
fn wire_reasoning(format: Format, doc: &Value) -> String {
    let message = match format {
        Format::Cohere => &doc["message"],
        _ => &doc["choices"][0]["message"],
    };
    for key in ["reasoning_content", "reasoning"] {
        if let Some(s) = message[key].as_str() {
            return s.to_string();
        }
    }
    let mut out = String::new();
    for item in message["content"].as_array().into_iter().flatten() {
        match &item["thinking"] {
            Value::String(s) => out.push_str(s),
            Value::Array(entries) => {
                for e in entries {
                    out.push_str(e["text"].as_str().unwrap_or_default());
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn recorded_reasoning_documents_come_back_field_for_field() {
    for (format, path) in DOCS {
        let text = read(path);
        let doc: Value = serde_json::from_str(&text).expect("json");
        // Moonshot and Alibaba answer in DeepSeek's dialect (`reasoning_content`), and are
        // read as DeepSeek; every document also survives plain Chat Completions.
        let (detected, kind) = Format::detect(&text).expect(path);
        assert_eq!(kind, Kind::Response, "{path}");
        assert_eq!(detected.protocol(), format.protocol(), "{path}");
        for format in [format, detected] {
            own_format_round_trip(format, path, &text, &doc);
        }
    }
}

fn own_format_round_trip(format: Format, path: &str, text: &str, doc: &Value) {
    {
        let dec = format.decode(text, Kind::Response).expect(path);
        let m = dec.exchange.messages.last().expect("a message");
        // The reasoning is a reasoning part, first, with the document's text.
        assert!(
            matches!(m.parts.first(), Some(Part::Reasoning(_))),
            "{path}: {:?}",
            m.parts
        );
        let said: String = reasoning_of(m).iter().map(|r| r.readable()).collect();
        assert_eq!(said, wire_reasoning(format, doc), "{path}");
        let enc = format.encode(&dec.exchange, Kind::Response);
        let back: Value = serde_json::from_str(&enc.text).expect("json");
        assert_eq!(
            &back,
            doc,
            "{path} as {}: changed on the way back: {:#?}",
            format.id(),
            enc.losses
        );
        assert!(
            enc.losses.iter().all(|l| l.kind != LossKind::Reasoning),
            "{path}: {:#?}",
            enc.losses
        );
    }
}

#[test]
fn recorded_reasoning_elsewhere_is_carried_or_lost_with_a_reasoning_loss() {
    for (format, path) in DOCS {
        let x = format
            .decode(&read(path), Kind::Response)
            .expect(path)
            .exchange;
        let at = "/messages/0/parts/0";
        // OpenAI's own Chat Completions has no place for it: a named reasoning loss.
        let mut gpt = x.clone();
        gpt.options.model = Some("gpt-4.1".into());
        let enc = Format::OpenAiChat.encode(&gpt, Kind::Response);
        assert!(
            common::has_loss(&enc.losses, LossKind::Reasoning, at),
            "{path}: {:#?}",
            enc.losses
        );
        let doc: Value = serde_json::from_str(&enc.text).expect("json");
        let message = doc["choices"][0]["message"].as_object().expect("message");
        assert!(
            message.keys().all(|k| !k.starts_with("reasoning")),
            "{path}: {message:?}"
        );
        // DeepSeek, Mistral and Ollama have a place for the visible text: carried, no loss.
        for (target, needle) in [
            (Format::DeepSeek, "\"reasoning_content\""),
            (Format::Mistral, "\"thinking\""),
            (Format::Ollama, "\"thinking\""),
        ] {
            let enc = target.encode(&x, Kind::Response);
            assert!(
                enc.text.contains(needle),
                "{path} → {}: {}",
                target.id(),
                enc.text
            );
            assert!(
                enc.losses.iter().all(|l| l.kind != LossKind::Reasoning),
                "{path} → {}: {:#?}",
                target.id(),
                enc.losses
            );
        }
        // Anthropic verifies thinking by its signature: unsigned text is a reasoning loss.
        let enc = Format::Anthropic.encode(&x, Kind::Response);
        assert!(
            enc.losses.iter().any(|l| l.kind == LossKind::Reasoning),
            "{path} → anthropic: {:#?}",
            enc.losses
        );
    }
}

fn replay(path: &str) -> Replay {
    let text = std::fs::read_to_string(common::recorded_dir().join(path)).expect(path);
    Replay::load(&text, LoadOptions::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Recorded streams with reasoning: the reasoning of every delta is in the assembled turn's
/// reasoning part (before the text), and no empty text part is made up.
#[test]
fn recorded_reasoning_streams_assemble_their_reasoning() {
    for (path, field) in [
        ("openai-chat/deepseek-reasoning.jsonl", "reasoning_content"),
        ("openai-chat/groq-reasoning.jsonl", "reasoning"),
        (
            "openai-chat/azure-deepseek-reasoning.1.jsonl",
            "reasoning_content",
        ),
        ("mistral/mistral-reasoning.jsonl", "thinking"),
        ("cohere/cohere-reasoning.jsonl", "thinking"),
    ] {
        let text = std::fs::read_to_string(common::recorded_dir().join(path)).expect(path);
        // What the deltas say, read here independently of the assembler.
        let mut want = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let delta = &v["choices"][0]["delta"];
            if let Some(s) = delta[field].as_str() {
                want.push_str(s);
            }
            for item in delta["content"].as_array().into_iter().flatten() {
                for e in item["thinking"].as_array().into_iter().flatten() {
                    want.push_str(e["text"].as_str().unwrap_or_default());
                }
            }
            if let Some(s) = v["delta"]["message"]["content"]["thinking"].as_str() {
                want.push_str(s);
            }
        }
        assert!(!want.is_empty(), "{path}: the recording has reasoning");
        let r = replay(path);
        let a = &r.assembled;
        assert!(a.complete, "{path}");
        let m = a.message().expect("a message");
        assert!(
            matches!(m.parts.first(), Some(Part::Reasoning(_))),
            "{path}: {:?}",
            m.parts
        );
        let got: String = reasoning_of(m).iter().map(|r| r.readable()).collect();
        assert_eq!(got, want, "{path}");
        assert!(
            m.parts
                .iter()
                .all(|p| !matches!(p, Part::Text { text, .. } if text.is_empty())),
            "{path}: an empty text part: {:?}",
            m.parts
        );
    }
}

/// A Groq `gpt-oss` stream labels every reasoning chunk `channel: "analysis"`: the label is
/// taken once, and the turn (reasoning, then calls, `content: ""` on the first chunk only)
/// has no empty text part, so Anthropic gets no empty text block.
#[test]
fn a_channel_label_is_taken_once_and_no_empty_text_is_made_up() {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
               "model": "openai/gpt-oss-20b",
               "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]})
    };
    let mut lines = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    for word in ["The ", "user ", "wants ", "weather."] {
        lines.push(chunk(
            json!({"channel": "analysis", "reasoning": word}),
            Value::Null,
        ));
    }
    lines.push(chunk(
        json!({"channel": "commentary", "tool_calls": [{"index": 0, "id": "fc_1", "type": "function",
               "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]}),
        Value::Null,
    ));
    lines.push(chunk(json!({}), json!("tool_calls")));
    let text: String = lines
        .iter()
        .map(|l| format!("data: {l}\n\n"))
        .collect::<String>()
        + "data: [DONE]\n\n";
    let r = Replay::load(&text, LoadOptions::default()).expect("replays");
    let a = &r.assembled;
    let message = &a.response["choices"][0]["message"];
    assert_eq!(message["channel"], json!("commentary"), "{message}");
    let m = a.message().expect("a message");
    assert_eq!(reasoning_of(m)[0].readable(), "The user wants weather.");
    assert!(
        m.parts
            .iter()
            .all(|p| !matches!(p, Part::Text { text, .. } if text.is_empty())),
        "{:?}",
        m.parts
    );
    let enc = Format::Anthropic.encode(&a.exchange, Kind::Response);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    for block in doc["content"].as_array().expect("content") {
        assert!(
            block["type"] != "text" || block["text"] != "",
            "empty text block: {}",
            enc.text
        );
    }
}

/// OpenRouter's `reasoning_details`, as its docs show them: each entry a reasoning part, with
/// the signature and the encrypted data bound to OpenRouter; `reasoning`, which repeats the
/// text, comes back without being a second part.
/// <https://openrouter.ai/docs/use-cases/reasoning-tokens#reasoning-details>
fn openrouter_response() -> Value {
    json!({
        "id": "gen-1", "object": "chat.completion", "created": 1, "model": "anthropic/claude-sonnet-4.5",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "reasoning": "Let me look up the weather.",
            "reasoning_details": [
                {"type": "reasoning.text", "text": "Let me look up the weather.", "signature": "EqQBCkgI",
                 "id": "rs_1", "format": "anthropic-claude-v1", "index": 0},
                {"type": "reasoning.summary", "summary": "Looked up the weather.", "format": "openai-responses-v1", "index": 1},
                {"type": "reasoning.encrypted", "data": "gAAAAAB", "format": "openai-responses-v1", "index": 2}
            ],
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]
        }}]
    })
}

#[test]
fn openrouter_reasoning_details_round_trip_and_bind_to_openrouter() {
    let (x, _) = common::paste_survives(Format::OpenAiChat, openrouter_response(), Kind::Response);
    let m = &x.messages[0];
    let rs = reasoning_of(m);
    assert_eq!(rs.len(), 3, "{:?}", m.parts);
    assert_eq!(rs[0].text.as_deref(), Some("Let me look up the weather."));
    assert_eq!(
        rs[0].opaque,
        Some(Opaque::new(OpaqueKind::Signature, "EqQBCkgI", "openrouter"))
    );
    assert_eq!(rs[1].summary, vec!["Looked up the weather.".to_string()]);
    assert_eq!(
        rs[2].opaque.as_ref().map(|o| (o.kind, o.provider.as_str())),
        Some((OpaqueKind::Encrypted, "openrouter"))
    );
    // To Anthropic: OpenRouter's state is OpenRouter's to verify.
    let enc = Format::Anthropic.encode(&x, Kind::Response);
    let named: Vec<&str> = enc
        .losses
        .iter()
        .filter(|l| l.kind == LossKind::Reasoning && l.why == "only OpenRouter can verify it")
        .map(|l| l.what.as_str())
        .collect();
    assert_eq!(
        named,
        [
            "OpenRouter thinking signature",
            "OpenRouter encrypted reasoning"
        ],
        "{:#?}",
        enc.losses
    );
    // To a plain OpenAI model: neither the text nor the state has a place.
    let mut gpt = x.clone();
    gpt.options.model = Some("gpt-5".into());
    let enc = Format::OpenAiChat.encode(&gpt, Kind::Response);
    assert!(!enc.text.contains("\"reasoning"), "{}", enc.text);
    for k in [0, 1, 2] {
        assert!(
            enc.losses.iter().any(|l| l.kind == LossKind::Reasoning
                && l.pointer.starts_with(&format!("/messages/0/parts/{k}"))),
            "part {k}: {:#?}",
            enc.losses
        );
    }
    // To DeepSeek: the visible text goes to reasoning_content (joined), the state is dropped.
    let enc = Format::DeepSeek.encode(&x, Kind::Response);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(
        doc["choices"][0]["message"]["reasoning_content"],
        json!("Let me look up the weather.\n\nLooked up the weather.")
    );
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Reasoning,
        "/messages/0/parts/0/opaque"
    ));
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Reasoning,
        "/messages/0/parts/2/opaque"
    ));
}

/// Gemini's OpenAI-compatible endpoint carries a thought signature on a tool call
/// (`extra_content.google.thought_signature`,
/// <https://ai.google.dev/gemini-api/docs/thought-signatures>): it reads as an attached Gemini
/// signature before the call, goes back to a Gemini model (in Chat and in Gemini's own
/// format) and is dropped with a reasoning loss for any other.
#[test]
fn gemini_thought_signature_on_a_tool_call_goes_back_to_gemini_only() {
    let doc = json!({
        "model": "gemini-3-pro-preview",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "function-call-1", "type": "function",
                 "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"},
                 "extra_content": {"google": {"thought_signature": "CpcBAdHtim9"}}}
            ]},
            {"role": "tool", "tool_call_id": "function-call-1", "content": "18C"}
        ],
        "tools": [{"type": "function", "function": {"name": "weather", "parameters":
            {"type": "object", "properties": {"city": {"type": "string"}}}}}]
    });
    let (x, _) = common::paste_survives(Format::OpenAiChat, doc, Kind::Request);
    let parts = &x.messages[1].parts;
    let Part::Reasoning(r) = &parts[0] else {
        panic!("{parts:?}")
    };
    assert!(r.attached);
    assert_eq!(
        r.opaque,
        Some(Opaque::new(
            OpaqueKind::ThoughtSignature,
            "CpcBAdHtim9",
            "gemini"
        ))
    );
    assert!(matches!(parts[1], Part::ToolCall(_)));
    // A GPT model behind Chat Completions: dropped, named.
    let mut gpt = x.clone();
    gpt.options.model = Some("gpt-4.1".into());
    let enc = Format::OpenAiChat.encode(&gpt, Kind::Request);
    assert!(!enc.text.contains("CpcBAdHtim9"), "{}", enc.text);
    let loss = enc
        .losses
        .iter()
        .find(|l| l.pointer == "/messages/1/parts/0/opaque")
        .expect("a loss for the signature");
    assert_eq!(loss.kind, LossKind::Reasoning);
    assert_eq!(loss.what, "Gemini thought signature");
    assert_eq!(loss.why, "only Gemini can verify it");
}

/// A Gemini signature made by the Gemini format (an attached part before a call) is written
/// on the call for a Gemini model in Chat Completions.
#[test]
fn a_gemini_signature_from_elsewhere_rides_on_the_call() {
    let mut x = Exchange::default();
    x.options.model = Some("gemini-2.5-flash".into());
    // The model chosen for the OpenAI-compatible pane: Gemini's endpoint.
    x.options
        .models
        .insert("openai".into(), "gemini-2.5-flash".into());
    x.messages.push(common::user("hi"));
    let sig = Reasoning {
        opaque: Some(Opaque::new(
            OpaqueKind::ThoughtSignature,
            GEMINI_SKIP_SIGNATURE,
            "gemini",
        )),
        attached: true,
        ..Reasoning::default()
    };
    x.messages.push(Message::new(
        Role::Assistant,
        vec![
            Part::Reasoning(sig),
            common::call(Some("c1"), "f", json!({})),
        ],
    ));
    let enc = Format::OpenAiChat.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(
        doc["messages"][1]["tool_calls"][0]["extra_content"]["google"]["thought_signature"],
        json!(GEMINI_SKIP_SIGNATURE)
    );
    assert!(
        enc.losses.iter().all(|l| l.kind != LossKind::Reasoning),
        "{:#?}",
        enc.losses
    );
}

/// DeepSeek's thinking mode wants `reasoning_content` back on tool-call turns: Anthropic
/// thinking before a call goes there (its signature dropped, named), and DeepSeek's own
/// reasoning to Anthropic is a reasoning loss.
#[test]
fn thinking_before_a_call_becomes_reasoning_content_for_deepseek() {
    let mut x = Exchange::default();
    x.messages.push(common::user("Weather in Paris?"));
    let thinking = Reasoning {
        text: Some("I should call weather.".into()),
        opaque: Some(Opaque::new(OpaqueKind::Signature, "EqQB", "anthropic")),
        ..Reasoning::default()
    };
    x.messages.push(Message::new(
        Role::Assistant,
        vec![
            Part::Reasoning(thinking),
            common::call(Some("call_1"), "weather", json!({"city": "Paris"})),
        ],
    ));
    x.messages.push(Message::new(
        Role::User,
        vec![common::result(Some("call_1"), "18C")],
    ));
    let enc = Format::DeepSeek.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(
        doc["messages"][1]["reasoning_content"],
        json!("I should call weather.")
    );
    let loss = enc
        .losses
        .iter()
        .find(|l| l.pointer == "/messages/1/parts/0/opaque")
        .expect("the signature's loss");
    assert_eq!(loss.kind, LossKind::Reasoning);
    assert_eq!(loss.what, "Anthropic thinking signature");
    // Back from DeepSeek, then to Anthropic: the unsigned text is a reasoning loss.
    let back = Format::DeepSeek
        .decode(&enc.text, Kind::Request)
        .expect("decodes");
    assert!(matches!(
        back.exchange.messages[1].parts[0],
        Part::Reasoning(_)
    ));
    let enc = Format::Anthropic.encode(&back.exchange, Kind::Request);
    assert!(
        enc.losses
            .iter()
            .any(|l| l.kind == LossKind::Reasoning && l.pointer.starts_with("/messages/1/parts")),
        "{:#?}",
        enc.losses
    );
}

/// Every document of the Chat Completions dialects in the fixtures (golden files and the
/// recorded responses) comes back field for field in its own format.
#[test]
fn every_dialect_document_comes_back_field_for_field() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for format in [
        Format::OpenAiChat,
        Format::DeepSeek,
        Format::Mistral,
        Format::Cohere,
        Format::Ollama,
    ] {
        let dir = common::fixtures().join(format.id());
        let mut paths = Vec::new();
        for sub in [dir.clone(), dir.join("recorded")] {
            for e in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
                paths.push(e.path());
            }
        }
        for path in paths {
            let name = path.to_string_lossy().into_owned();
            let kind = if name.ends_with(".request.json") {
                Kind::Request
            } else if name.ends_with(".response.json") {
                Kind::Response
            } else {
                continue;
            };
            let text = std::fs::read_to_string(&path).expect("read");
            let doc: Value = serde_json::from_str(&text).expect("json");
            let dec = format.decode(&text, kind).expect(&name);
            let enc = format.encode(&dec.exchange, kind);
            let back: Value = serde_json::from_str(&enc.text).expect("json");
            if back != doc {
                failures.push(format!("{name}:\n{}\n", enc.text));
            }
            checked += 1;
        }
    }
    assert!(checked >= 70, "{checked} documents");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reasoning settings in each dialect's spelling come back as they were, and map onto the
/// canonical options.
#[test]
fn reasoning_settings_read_and_write_in_each_dialect() {
    let base = |model: &str, field: (&str, Value)| {
        let mut doc = json!({"model": model, "messages": [{"role": "user", "content": "hi"}]});
        doc[field.0] = field.1;
        doc
    };
    let cases = [
        (
            Format::OpenAiChat,
            base("o4-mini", ("reasoning_effort", json!("high"))),
        ),
        (
            Format::OpenAiChat,
            base(
                "deepseek/deepseek-r1",
                (
                    "reasoning",
                    json!({"effort": "low", "max_tokens": 2000, "enabled": true}),
                ),
            ),
        ),
        (
            Format::DeepSeek,
            base("deepseek-chat", ("thinking", json!({"type": "enabled"}))),
        ),
        (
            Format::Cohere,
            base(
                "command-a-reasoning-08-2025",
                ("thinking", json!({"type": "enabled", "token_budget": 1000})),
            ),
        ),
        (Format::Ollama, base("qwen3", ("think", json!(true)))),
    ];
    for (format, doc) in cases {
        let (x, _) = common::paste_survives(format, doc.clone(), Kind::Request);
        assert!(!x.options.reasoning.is_empty(), "{}: {doc}", format.id());
    }
    // From DeepSeek's switch to OpenAI's effort: nothing to say, reported.
    let (x, _) = common::decode_doc(
        Format::DeepSeek,
        &base("deepseek-chat", ("thinking", json!({"type": "enabled"}))),
        Kind::Request,
    );
    assert_eq!(x.options.reasoning.enabled, Some(true));
    let mut o = x.clone();
    o.options.model = Some("o3".into());
    let enc = Format::OpenAiChat.encode(&o, Kind::Request);
    assert!(!enc.text.contains("reasoning_effort"), "{}", enc.text);
    assert!(
        common::has_loss(&enc.losses, LossKind::Dropped, "/options/reasoning/enabled"),
        "{:#?}",
        enc.losses
    );
    // An effort to a model that takes none: dropped, with the reason.
    let (x, _) = common::decode_doc(
        Format::OpenAiChat,
        &base("o4-mini", ("reasoning_effort", json!("high"))),
        Kind::Request,
    );
    let mut old = x.clone();
    old.options.model = Some("gpt-4.1".into());
    let enc = Format::OpenAiChat.encode(&old, Kind::Request);
    assert!(!enc.text.contains("reasoning_effort"), "{}", enc.text);
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Dropped,
        "/options/reasoning/effort"
    ));
    // Mistral has no setting.
    let enc = Format::Mistral.encode(&x, Kind::Request);
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Dropped,
        "/options/reasoning/effort"
    ));
    // DeepSeek turns thinking on; the effort word has no place.
    let enc = Format::DeepSeek.encode(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(doc["thinking"], json!({"type": "enabled"}));
    assert!(common::has_loss(
        &enc.losses,
        LossKind::Dropped,
        "/options/reasoning/effort"
    ));
}

/// Hosted tools of other providers are never sent as functions; a custom tool becomes a
/// function taking one string, its grammar in the description.
#[test]
fn hosted_tools_are_dropped_and_custom_tools_become_functions() {
    use toolscope::model::{HostedTool, Tool};
    let mut x = Exchange::default();
    x.messages.push(common::user("hi"));
    let mut search: Tool = serde_json::from_value(json!({"name": "web_search"})).expect("tool");
    search.hosted = Some(HostedTool {
        provider: "anthropic".into(),
        format: "anthropic".into(),
        kind: "web_search".into(),
        value: json!({"type": "web_search_20250305", "name": "web_search"}),
    });
    let mut sql: Tool =
        serde_json::from_value(json!({"name": "sql", "description": "Run SQL."})).expect("tool");
    sql.custom = Some(
        json!({"type": "grammar", "grammar": {"syntax": "lark", "definition": "start: \"SELECT\""}}),
    );
    x.tools = vec![search, sql];
    for format in [
        Format::OpenAiChat,
        Format::DeepSeek,
        Format::Mistral,
        Format::Cohere,
        Format::Ollama,
    ] {
        let enc = format.encode(&x, Kind::Request);
        let doc: Value = serde_json::from_str(&enc.text).expect("json");
        let tools = doc["tools"].as_array().expect("tools");
        assert_eq!(tools.len(), 1, "{}: {}", format.id(), enc.text);
        let f = &tools[0]["function"];
        assert_eq!(f["name"], "sql");
        assert_eq!(f["parameters"]["properties"]["input"]["type"], "string");
        assert!(f["description"]
            .as_str()
            .unwrap_or_default()
            .contains("start: \"SELECT\""));
        let hosted = enc
            .losses
            .iter()
            .find(|l| l.pointer == "/tools/0")
            .expect("hosted loss");
        assert_eq!(hosted.what, "Anthropic web_search tool");
        assert!(common::has_loss(
            &enc.losses,
            LossKind::Rewritten,
            "/tools/1/custom"
        ));
    }
}

/// Ollama answers without `done_reason` (older servers, `/api/chat` with tool calls) and
/// with `thinking`: they come back as they were, with no `done_reason` made up, and an Ollama
/// Cloud model keeps its name.
#[test]
fn ollama_responses_get_no_done_reason_they_did_not_have() {
    for doc in [
        json!({"model": "llama3.2", "created_at": "2025-05-27T22:55:00Z",
               "message": {"role": "assistant", "content": "Hi."}, "done": true}),
        json!({"model": "gpt-oss:20b", "created_at": "2025-08-05T10:00:00Z",
               "message": {"role": "assistant", "content": "", "thinking": "Call the tool.",
                           "tool_calls": [{"function": {"name": "f", "arguments": {}}}]},
               "done": true}),
    ] {
        common::paste_survives(Format::Ollama, doc, Kind::Response);
    }
    let doc = json!({"model": "gpt-oss:20b", "messages": [{"role": "user", "content": "hi"}]});
    common::paste_survives(Format::OpenAiChat, doc, Kind::Request);
}

/// The providers' SDK types (strictly, `tests/sdk/validate.py`) accept what the reasoning
/// documents become in every JSON format, each sent to its provider's current model.
#[test]
fn sdk_accepts_reasoning_documents_converted_to_every_format() {
    let dir = std::env::temp_dir().join(format!("toolscope-sdk-reasoning-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut exchanges: Vec<Exchange> = DOCS
        .iter()
        .map(|(f, path)| f.decode(&read(path), Kind::Response).expect(path).exchange)
        .collect();
    exchanges
        .push(common::decode_doc(Format::OpenAiChat, &openrouter_response(), Kind::Response).0);
    for (n, mut x) in exchanges.into_iter().enumerate() {
        x.options.model = None;
        // The recordings' own provider fields (`x_groq`, Azure's filter results, usage
        // details) are kept for their own format and declared by no SDK type: the check is
        // about the turns.
        x.extra.clear();
        for m in &mut x.messages {
            m.extra.clear();
        }
        for format in Format::ALL.into_iter().filter(|f| !f.is_text()) {
            for kind in [Kind::Request, Kind::Response] {
                let enc = format.encode(&x, kind);
                let path = dir.join(format!("{}.{}.{n:03}.json", format.id(), kind.as_str()));
                std::fs::write(path, enc.text).expect("write sample");
            }
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
    let out = common::run_ok(
        std::process::Command::new("python3")
            .arg(script)
            .args(["--dir", dir.to_str().expect("utf-8 temp path")]),
        "python3 with the SDKs for SDK validation",
    );
    println!("{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Mistral conversation is told by its thinking chunks, even without a Mistral model name.
#[test]
fn mistral_thinking_chunks_mark_a_mistral_document() {
    let doc = json!({
        "model": "my-deployment",
        "messages": [
            {"role": "user", "content": "2+2?"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": [{"type": "text", "text": "Add them."}]},
                {"type": "text", "text": "4"}
            ]},
            {"role": "user", "content": "And 3+3?"}
        ]
    });
    assert_eq!(
        Format::detect(&doc.to_string()).ok(),
        Some((Format::Mistral, Kind::Request))
    );
    let (x, _) = common::paste_survives(Format::Mistral, doc, Kind::Request);
    assert!(matches!(&x.messages[1].parts[0], Part::Reasoning(r) if r.readable() == "Add them."));
}
