//! External truth for streaming: the providers' own SDK accumulators (openai-python's
//! `ChatCompletionStreamState` and Responses `ResponseStreamState`, the anthropic SDK's
//! `accumulate_event`; see `tests/sdk/stream_accumulate.py`) assemble the same message as
//! ours — ids, names, parsed arguments, text and stop reason — on the recorded streams, the
//! hand-written ones the SDKs accept, and streams synthesised from every canonical case.
//! Needs `python3` with `tests/sdk/requirements.txt` (`make test` installs it).

use crate::common;

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use toolscope::formats::Protocol;
use toolscope::model::Role;
use toolscope::replay::{LoadOptions, Replay};
use toolscope::stream::Event;
use toolscope::synth::synthesize;

/// Run the SDK accumulators on several streams in one python process.
fn sdk(streams: &[(&str, &[Event])]) -> Vec<Value> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/sdk/stream_accumulate.py"
    );
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is needed for the SDK checks (make test installs what they need)");
    let input: Vec<Value> = streams
        .iter()
        .map(|(p, events)| json!([p, events.iter().map(|e| &e.data).collect::<Vec<_>>()]))
        .collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(Value::Array(input).to_string().as_bytes())
        .expect("write events");
    let out = child.wait_with_output().expect("python3 ran");
    assert!(
        out.status.success(),
        "SDK accumulator failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON from the SDK script")
}

/// Ours, in the script's shape.
fn ours(r: &Replay) -> Value {
    let m = r.assembled.message().expect("message");
    let text = common::text_of(m);
    let calls: Vec<Value> = m
        .tool_calls()
        .map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments}))
        .collect();
    let stop = r
        .snapshot(r.len().saturating_sub(1))
        .and_then(|s| s.state.stop_reason);
    json!({"text": text, "calls": calls, "stop_reason": stop})
}

/// Compare ours with the SDK's for every (label, replay).
fn check(replays: &[(String, Replay)]) -> usize {
    let streams: Vec<(&str, &[Event])> = replays
        .iter()
        .map(|(_, r)| {
            let id = match r.protocol {
                Protocol::DeepSeek | Protocol::Mistral => "openai-chat",
                p => p.id(),
            };
            (id, r.events.as_slice())
        })
        .collect();
    let theirs = sdk(&streams);
    assert_eq!(theirs.len(), replays.len());
    for ((label, r), t) in replays.iter().zip(&theirs) {
        assert_eq!(
            &ours(r),
            t,
            "{label} ({}): ours vs the SDK's",
            r.protocol.id()
        );
        println!("sdk-stream ok {label} ({})", r.protocol.id());
    }
    replays.len()
}

#[test]
fn sdk_stream_accumulators_agree_on_recorded_streams() {
    let mut replays = Vec::new();
    for dir in ["openai-chat", "openai-responses", "anthropic"] {
        let mut files: Vec<_> = std::fs::read_dir(common::recorded_dir().join(dir))
            .expect("recorded dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        for f in files {
            let name = f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            // Its first and last lines lack their closing brace: the SDK's JSON parser
            // rejects them (we read them as repaired and report it; see stream_recorded).
            if name == "parallel-tool-call-wrapper.1.jsonl" {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("read");
            let r = Replay::load(&text, LoadOptions::default()).expect("replay");
            replays.push((format!("{dir}/{name}"), r));
        }
    }
    for name in ["chat-interleaved.sse", "anthropic-spliced.jsonl"] {
        let text =
            std::fs::read_to_string(common::fixtures().join("streams").join(name)).expect("read");
        let r = Replay::load(&text, LoadOptions::default()).expect("replay");
        replays.push((name.to_string(), r));
    }
    let n = check(&replays);
    assert!(n >= 9, "{n} streams compared");
}

#[test]
fn sdk_stream_accumulators_agree_on_synthesised_streams() {
    let mut replays = Vec::new();
    for (name, x) in common::cases() {
        if x.messages.last().is_none_or(|m| m.role != Role::Assistant) {
            continue;
        }
        for p in [
            Protocol::OpenAiChat,
            Protocol::OpenAiResponses,
            Protocol::Anthropic,
        ] {
            let s = synthesize(&x, p);
            let r = Replay::load(
                &s.text(),
                LoadOptions {
                    protocol: Some(p),
                    har_entry: None,
                },
            )
            .expect("replay");
            replays.push((format!("synth {name}"), r));
        }
    }
    let n = check(&replays);
    assert!(n >= 15, "{n} streams compared");
}
