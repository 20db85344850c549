//! Every recorded provider stream in `tests/fixtures/recorded/` assembles to what the
//! provider meant: text, calls (ids, names, parsed arguments), stop reason and the anomalies
//! the recording really has. Where the equivalent non-streamed response is written out
//! (`tests/fixtures/streams/<name>.response.json`), assembling the stream equals decoding it.
//! Cutting the bytes anywhere does not change the result. A recording nobody on the project
//! has seen is replayed the same way (every file in the folder is covered, named or not).

use crate::common;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolscope::formats::Kind;
use toolscope::formats::Protocol;
use toolscope::model::StopReason;
use toolscope::replay::{AnyAssembler, LoadOptions, Replay};
use toolscope::stream::Assembled;

/// Every recording, as (folder/name, text), sorted.
fn recordings() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(common::recorded_dir()).expect("recorded dir") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("protocol dir") {
            let f = f.expect("entry").path();
            let name = format!(
                "{}/{}",
                dir.file_name().unwrap_or_default().to_string_lossy(),
                f.file_name().unwrap_or_default().to_string_lossy()
            );
            out.push((name, std::fs::read_to_string(&f).expect("read recording")));
        }
    }
    out.sort();
    out
}

fn text_of(a: &Assembled) -> String {
    a.message().map(common::text_of).unwrap_or_default()
}

fn calls_of(a: &Assembled) -> Vec<(Option<String>, String, Value)> {
    a.message()
        .map(|m| {
            m.tool_calls()
                .map(|c| (c.id.clone(), c.name.clone(), c.arguments.clone()))
                .collect()
        })
        .unwrap_or_default()
}

struct Expect {
    file: &'static str,
    protocol: Protocol,
    text: &'static str,
    calls: Vec<(Option<&'static str>, &'static str, Value)>,
    stop: StopReason,
    anomalies: &'static [&'static str],
}

fn expectations() -> Vec<Expect> {
    use Protocol::*;
    let sf = || json!({"location": "San Francisco"});
    vec![
        Expect {
            file: "anthropic/anthropic-json-tool.1.jsonl",
            protocol: Anthropic,
            text: "",
            calls: vec![(
                Some("toolu_01KFbKqPYSuAKujiL6mTfzYA"),
                "json",
                json!({"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}),
            )],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "anthropic/anthropic-text.jsonl",
            protocol: Anthropic,
            text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
            calls: vec![],
            stop: StopReason::EndTurn,
            anomalies: &[],
        },
        Expect {
            file: "anthropic/anthropic-tool-no-args.jsonl",
            protocol: Anthropic,
            text: "I'll update the issue list for you.",
            calls: vec![(Some("toolu_01QE1WLsSVp5hy5Q3GmGTmjP"), "updateIssueList", json!({}))],
            stop: StopReason::ToolUse,
            anomalies: &["empty_arguments"],
        },
        Expect {
            file: "anthropic/duplicate-message-start.jsonl",
            protocol: Anthropic,
            text: "Hello, World!",
            calls: vec![],
            stop: StopReason::EndTurn,
            anomalies: &["duplicate_start"],
        },
        Expect {
            file: "bedrock/amazon-bedrock-tool-call.1.jsonl",
            protocol: Bedrock,
            text: "",
            calls: vec![(Some("tool-use-id"), "test-tool", json!({"value": "Sparkle Day"}))],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "bedrock/amazon-bedrock-tool-no-args.jsonl",
            protocol: Bedrock,
            text: "I'll update the issue list for you.",
            calls: vec![(Some("tool-use-id"), "updateIssueList", json!({}))],
            stop: StopReason::ToolUse,
            anomalies: &["empty_arguments"],
        },
        Expect {
            file: "cohere/cohere-tool-call.jsonl",
            protocol: Cohere,
            // Cohere's tool_plan is the text before the calls.
            text: "I will use the weather tool to find the weather in San Francisco and the cityAttractions tool to find attractions in San Francisco.",
            calls: vec![
                (Some("weather_e8p4pn45zt0t"), "weather", sf()),
                (
                    Some("cityAttractions_pyxssbwnq9fq"),
                    "cityAttractions",
                    json!({"city": "San Francisco"}),
                ),
            ],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "gemini/google-stream-no-args-tool-call.jsonl",
            protocol: Gemini,
            text: "",
            calls: vec![
                (None, "read_theme", json!({})),
                (None, "read_screen", json!({"id": "A"})),
                (None, "read_screen", json!({"id": "B"})),
                (None, "read_screen", json!({"id": "C"})),
            ],
            stop: StopReason::ToolUse,
            anomalies: &["empty_arguments"],
        },
        Expect {
            file: "gemini/google-stream-tool-call-arguments.jsonl",
            protocol: Gemini,
            text: "",
            calls: vec![
                (None, "getWeather", json!({"location": "Boston"})),
                (None, "getWeather", sf()),
            ],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "gemini/google-tool-call.jsonl",
            protocol: Gemini,
            text: "",
            calls: vec![(None, "weather", sf())],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "mistral/mistral-tool-call.jsonl",
            protocol: Mistral,
            text: "",
            calls: vec![(Some("gSIMJiOkT"), "weather", sf())],
            stop: StopReason::ToolUse,
            anomalies: &["missing_index"],
        },
        Expect {
            file: "openai-chat/deepseek-tool-call.jsonl",
            protocol: DeepSeek,
            text: "",
            calls: vec![(Some("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF"), "weather", sf())],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "openai-chat/groq-tool-call.jsonl",
            protocol: OpenAiChat,
            text: "",
            calls: vec![(Some("tk85n1k4m"), "weather", json!({}))],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "openai-responses/lmstudio-tool-call.1.jsonl",
            protocol: OpenAiResponses,
            text: "I'll get the current weather information for San Francisco for you.",
            calls: vec![(Some("call_2025306790300011"), "weather", sf())],
            stop: StopReason::ToolUse,
            anomalies: &[],
        },
        Expect {
            file: "openai-responses/parallel-tool-call-wrapper.1.jsonl",
            protocol: OpenAiResponses,
            text: "",
            calls: vec![(
                Some("call_parallel"),
                "parallel",
                json!({"tool_uses": [
                    {"recipient_name": "functions.weather", "parameters": {"location": "San Francisco"}},
                    {"recipient_name": "functions.cityAttractions", "parameters": {"city": "Rome"}}
                ]}),
            )],
            stop: StopReason::ToolUse,
            // Its first and last lines lack their closing brace: read as repaired, reported.
            anomalies: &["malformed", "malformed"],
        },
    ]
}

fn replay(text: &str) -> Replay {
    Replay::load(text, LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn recorded_streams_assemble_to_what_the_provider_meant() {
    let all = recordings();
    for e in expectations() {
        let (_, text) = all
            .iter()
            .find(|(n, _)| n == e.file)
            .unwrap_or_else(|| panic!("{} is not in the recorded folder", e.file));
        let r = replay(text);
        let a = &r.assembled;
        assert_eq!(r.protocol, e.protocol, "{}", e.file);
        assert_eq!(text_of(a), e.text, "{}", e.file);
        let want: Vec<_> = e
            .calls
            .iter()
            .map(|(id, n, v)| (id.map(str::to_string), n.to_string(), v.clone()))
            .collect();
        assert_eq!(calls_of(a), want, "{}", e.file);
        assert_eq!(
            a.message().and_then(|m| m.stop_reason.clone()),
            Some(e.stop.clone()),
            "{}",
            e.file
        );
        let ids: Vec<_> = a.anomalies.iter().map(|x| x.kind.id()).collect();
        assert_eq!(ids, e.anomalies, "{}: {:?}", e.file, a.anomalies);
        assert!(a.complete, "{}", e.file);
    }
}

#[test]
fn recorded_every_file_replays_complete_with_a_message() {
    // Recordings added later (nobody has seen them) must replay too: complete, with a
    // message, with no anomaly other than the ones a real recording may carry.
    let all = recordings();
    assert!(all.len() >= 16, "{} recordings", all.len());
    for (name, text) in all.iter().filter(|(n, _)| n.ends_with(".jsonl")) {
        let r = replay(text);
        let a = &r.assembled;
        assert!(a.complete, "{name}: {:?}", a.anomalies);
        let m = a.message().expect("message");
        assert!(!m.parts.is_empty(), "{name}: empty message");
        assert!(m.stop_reason.is_some(), "{name}: no stop reason");
        let allowed = [
            "empty_arguments",
            "duplicate_start",
            "missing_index",
            "malformed",
        ];
        for an in &a.anomalies {
            assert!(allowed.contains(&an.kind.id()), "{name}: {an:?}");
        }
        // Every format renders it.
        for f in toolscope::formats::Format::ALL {
            let enc = f.encode(&a.exchange, Kind::Response);
            // A turn of provider-run steps alone leaves a text format nothing to write: then
            // each step is a named loss.
            assert!(
                !enc.text.is_empty() || enc.losses.iter().any(|l| l.is_loss()),
                "{name} → {}",
                f.id()
            );
        }
    }
}

#[test]
fn recorded_stream_equals_the_equivalent_response() {
    let pairs = [
        ("openai-chat/groq-tool-call.jsonl", "groq-tool-call"),
        (
            "anthropic/anthropic-tool-no-args.jsonl",
            "anthropic-tool-no-args",
        ),
        (
            "bedrock/amazon-bedrock-tool-call.1.jsonl",
            "amazon-bedrock-tool-call.1",
        ),
        ("gemini/google-tool-call.jsonl", "google-tool-call"),
    ];
    let all = recordings();
    for (file, response) in pairs {
        let (_, text) = all.iter().find(|(n, _)| n == file).expect(file);
        let r = replay(text);
        let path = common::fixtures()
            .join("streams")
            .join(format!("{response}.response.json"));
        let body = std::fs::read_to_string(path).expect("equivalent response");
        let decoded = r
            .protocol
            .format()
            .decode(&body, Kind::Response)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            r.assembled.exchange, decoded.exchange,
            "{file}: stream and response differ"
        );
        // And the plain response replays as a one-step stream to the same message.
        let one = replay(&body);
        assert_eq!(one.assembled.exchange, decoded.exchange, "{file} (plain)");
    }
}

proptest! {
    #![proptest_config(common::gen::config(64))]

    /// Cut the bytes at random points, as JSON lines and as SSE (`data:` framing of the same
    /// events, CRLF line ends): the assembled message and anomalies do not change.
    #[test]
    fn recorded_cut_anywhere_assembles_the_same(
        file in 0usize..64,
        cuts in proptest::collection::vec(0usize..200_000, 0..16),
        crlf in any::<bool>(),
    ) {
        let all = recordings();
        let jsonl: Vec<_> = all.iter().filter(|(n, _)| n.ends_with(".jsonl")).collect();
        let (name, text) = jsonl[file % jsonl.len()];
        let whole = replay(text);
        let p = whole.protocol;
        let cut = common::feed_in_pieces(text, &cuts, false, AnyAssembler::new(p));
        prop_assert_eq!(cut.message(), whole.assembled.message(), "{}", name);
        prop_assert_eq!(&cut.anomalies, &whole.assembled.anomalies);
        let nl = if crlf { "\r\n" } else { "\n" };
        let as_sse: String = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("data: {l}{nl}{nl}"))
            .collect();
        let cut = common::feed_in_pieces(&as_sse, &cuts, true, AnyAssembler::new(p));
        prop_assert_eq!(cut.message(), whole.assembled.message(), "{} as SSE", name);
    }
}
