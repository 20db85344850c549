//! Every crash the fuzzers (fuzz/) and the hostile-input checks found, kept: each input runs
//! through the entry point that failed and must give the expected outcome — an error with a
//! located message, or a value. The inputs live in `tests/fixtures/fuzz/`; every file there
//! also goes through every entry point, so a new crash input only needs its file to be
//! covered against panics.

use crate::common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use toolscope::edit::read_into;
use toolscope::formats::Protocol;
use toolscope::formats::{read_any, Format, Kind};
use toolscope::model::Exchange;
use toolscope::replay::{LoadOptions, Replay};
use toolscope::schema::{self, LintOptions, Target};
use toolscope::share;

const KINDS: [Kind; 2] = [Kind::Request, Kind::Response];

fn fuzz_dir() -> PathBuf {
    common::fixtures().join("fuzz")
}

fn input(name: &str) -> String {
    let bytes = std::fs::read(fuzz_dir().join(name)).expect("fuzz fixture");
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What every fuzz target does with a text, in one pass (no assertion but "no panic").
fn every_entry_point(text: &str) {
    let _ = Format::detect(text);
    let current = read_any(text).map(|(d, _)| d.exchange).unwrap_or_default();
    for from in Format::ALL {
        for kind in KINDS {
            if let Ok(d) = from.decode(text, kind) {
                for to in Format::ALL {
                    for out in KINDS {
                        let _ = to.decode(&to.encode(&d.exchange, out).text, out);
                    }
                }
            }
            let _ = read_into(Some(from), kind, text, &Exchange::default());
        }
    }
    let _ = read_into(None, Kind::Request, text, &current);
    let _ = schema::check(&current, &Target::all(), LintOptions { make_strict: true });
    for t in Target::all() {
        let _ = schema::fix_all(&current, t, LintOptions::default());
    }
    let protocols = std::iter::once(None).chain(Protocol::ALL.into_iter().map(Some));
    for protocol in protocols {
        let opts = LoadOptions {
            protocol,
            har_entry: None,
        };
        if let Ok(r) = Replay::load(text, opts) {
            let _ = r.snapshot(r.len() / 2);
        }
    }
    let _ = share::from_fragment(text);
    let _ = share::from_file(text);
}

#[test]
fn fuzz_every_kept_input_goes_through_every_entry_point() {
    let mut n = 0;
    for entry in std::fs::read_dir(fuzz_dir()).expect("tests/fixtures/fuzz") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("read");
        every_entry_point(&String::from_utf8_lossy(&bytes));
        n += 1;
    }
    assert!(n > 0, "no inputs in tests/fixtures/fuzz");
}

/// `toolscope … | head`: the reader goes away while the document is written. `print!`
/// panicked (exit 101, "failed printing to stdout: Broken pipe"); the command now stops
/// writing and exits with its own status.
#[test]
fn fuzz_cli_survives_a_closed_stdout() {
    // A document well over a pipe's buffer (64 KiB), so the write meets the closed pipe.
    let messages: Vec<serde_json::Value> = (0..5_000)
        .map(|i| serde_json::json!({"role": "user", "content": format!("message {i}")}))
        .collect();
    let doc = serde_json::json!({"model": "m", "messages": messages}).to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolscope"))
        .args(["convert", "--to", "anthropic", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toolscope");
    // Close the reading end before the child writes anything.
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(doc.as_bytes())
        .expect("write the document");
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// 10,000 nested arrays: refused at the 101st bracket by our scanner, before serde (and any
/// recursion of ours) sees the document.
#[test]
fn fuzz_deep_arrays_are_refused_at_the_bracket() {
    let text = input("deep-arrays.json");
    let e = read_any(&text).unwrap_err();
    assert_eq!((e.line, e.column), (Some(1), Some(101)));
    assert_eq!(
        e.to_string(),
        "line 1, column 101: nested deeper than 100 levels of arrays and objects; refused"
    );
    let e = Format::Gemini.decode(&text, Kind::Request).unwrap_err();
    assert_eq!(e.format, Some("gemini"));
    assert_eq!(e.column, Some(101));
}

/// A streamed call whose argument text nests 5,000 arrays: the call is assembled, its
/// arguments unreadable (kept as raw text), the answer re-encodes in every format.
#[test]
fn fuzz_deep_streamed_arguments_stay_raw_text() {
    let r = Replay::load(&input("deep-arguments.sse"), LoadOptions::default()).expect("loads");
    assert_eq!(r.protocol, Protocol::OpenAiChat);
    let m = r.assembled.message().expect("a message");
    let call = m.tool_calls().next().expect("a call");
    assert_eq!(call.name, "f");
    assert!(call.arguments_invalid());
    assert_eq!(call.arguments_text().len(), 10_000);
    let x = Exchange {
        messages: vec![m.clone()],
        ..Exchange::default()
    };
    for f in Format::ALL {
        for kind in KINDS {
            let enc = f.encode(&x, kind);
            assert!(
                f.decode(&enc.text, kind).is_ok(),
                "{} {}",
                f.id(),
                kind.as_str()
            );
        }
    }
}

/// A HAR whose response body is another HAR: one level is read, the inner one refused with
/// a message (it used to recurse once per level).
#[test]
fn fuzz_har_inside_a_har_is_one_level_too_many() {
    let e = Replay::load(&input("har-in-har.json"), LoadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "HAR: entry 0's response is itself a HAR file; open that file instead"
    );
}

/// Found by the `decode` target (26 inputs, one cause): a decoded exchange whose tool result
/// answers no earlier call (an XML prompt's results without their calls; a Chat request
/// whose `tool_call_id` matches no call). Anthropic and Bedrock write the result as it is and
/// their decoders refuse it, as the APIs do: no panic, a located error on the way back, and
/// the result is named (the `args.orphan-result` lint; for a result without an id, the
/// encoder's loss for the placeholder id). Every other format reads its own
/// document back.
#[test]
fn fuzz_orphan_results_read_back_except_where_the_api_refuses_them() {
    for (name, from) in [
        ("decode-orphan-result-xml.txt", Format::AnthropicXml),
        ("decode-orphan-result-chat.json", Format::OpenAiChat),
    ] {
        let d = from.decode(&input(name), Kind::Request).expect(name);
        if from == Format::AnthropicXml {
            // Results without ids: the encoder reports the placeholder id it writes.
            let enc = Format::Anthropic.encode(&d.exchange, Kind::Request);
            assert!(
                enc.losses
                    .iter()
                    .any(|l| l.what.contains("answers no call")),
                "{name}: {:?}",
                enc.losses
            );
        } else {
            let findings = schema::check(&d.exchange, &[], LintOptions::default());
            assert!(
                findings.iter().any(|f| f.rule == "args.orphan-result"),
                "{name}: {findings:?}"
            );
        }
        for to in Format::ALL {
            let enc = to.encode(&d.exchange, Kind::Request);
            match (to, to.decode(&enc.text, Kind::Request)) {
                (Format::Anthropic | Format::Bedrock, Err(e)) => {
                    assert!(e.message.contains("which no earlier"), "{name}: {e}");
                    assert!(e.line.is_some() && e.pointer.is_some(), "{name}: {e}");
                }
                (Format::Anthropic | Format::Bedrock, Ok(_)) => {
                    panic!(
                        "{name}: {} now reads orphan results; update this test",
                        to.id()
                    )
                }
                (_, Err(e)) => panic!("{name}: {} does not read back: {e}", to.id()),
                (_, Ok(_)) => {}
            }
        }
    }
}
