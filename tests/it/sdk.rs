//! External truth: the documents Toolscope generates are accepted by the providers' own SDK
//! types (PyPI `openai`, `anthropic`, `google-genai`), validated strictly by
//! `tests/sdk/validate.py` — the golden files, and documents generated from exchanges nobody on
//! the project wrote. Needs `python3` with `tests/sdk/requirements.txt` (`make test` installs it).

use crate::common;

use std::process::Command;
use toolscope::formats::{Format, Kind};
use toolscope::model::{Exchange, Part};

fn python(args: &[&str]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
    let what = "python3 with the SDKs (make test installs them) for SDK validation";
    println!(
        "{}",
        common::run_ok(Command::new("python3").arg(script).args(args), what)
    );
}

/// The formats to check: every JSON format (each has a validator in `tests/sdk/`; the legacy
/// XML has no SDK and is checked by parsing it back), or those named in `SDK_ONLY`
/// (comma-separated ids) while one format is being worked on.
fn formats() -> Vec<Format> {
    match std::env::var("SDK_ONLY") {
        Ok(only) => only.split(',').filter_map(Format::from_id).collect(),
        Err(_) => Format::ALL.into_iter().filter(|f| !f.is_text()).collect(),
    }
}

#[test]
fn sdk_accepts_golden_documents() {
    match std::env::var("SDK_ONLY") {
        Ok(only) => {
            for id in only.split(',') {
                for kind in ["request", "response"] {
                    let dir = common::fixtures().join(id);
                    let mut files: Vec<String> = std::fs::read_dir(&dir)
                        .expect("golden dir")
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.to_string_lossy().ends_with(&format!(".{kind}.json")))
                        .map(|p| p.to_string_lossy().into_owned())
                        .collect();
                    files.sort();
                    let mut args = vec![id, kind];
                    args.extend(files.iter().map(String::as_str));
                    python(&args);
                }
            }
        }
        Err(_) => python(&[]),
    }
}

/// The generator simulates pastes: provider-only fields with made-up names and raw blocks,
/// which a format re-emits verbatim into its own documents (that is the point of keeping
/// them) and which no SDK type declares. Remove the target's own; other formats' stay, as
/// dropped losses.
fn without_own_pastes(x: &Exchange, id: &str) -> Exchange {
    let mut x = x.clone();
    x.extra.remove(id);
    for t in &mut x.tools {
        t.extra.remove(id);
    }
    for m in &mut x.messages {
        m.extra.remove(id);
        m.parts
            .retain(|p| !matches!(p, Part::Raw { format, .. } if format == id));
        for p in &mut m.parts {
            match p {
                Part::Text { extra, .. } => {
                    extra.remove(id);
                }
                Part::ToolCall(c) => {
                    c.extra.remove(id);
                }
                Part::ToolResult(r) => {
                    r.extra.remove(id);
                }
                Part::Reasoning(r) => {
                    r.extra.remove(id);
                }
                Part::Raw { .. } | Part::Hosted(_) => {}
            }
        }
    }
    x
}

#[test]
fn sdk_accepts_generated_documents() {
    let dir = std::env::temp_dir().join(format!("toolscope-sdk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A fixed seed: the same documents every run, none of them written by hand.
    let mut runner = common::gen::seeded_runner(7);
    for n in 0..40 {
        let request = common::gen::draw(common::gen::exchange(), &mut runner);
        let response = common::gen::draw(common::gen::response(), &mut runner);
        for format in formats() {
            for (kind, x) in [(Kind::Request, &request), (Kind::Response, &response)] {
                let enc = format.encode(&without_own_pastes(x, format.id()), kind);
                let path = dir.join(format!("{}.{}.{n:03}.json", format.id(), kind.as_str()));
                std::fs::write(path, enc.text).expect("write sample");
            }
        }
    }
    python(&["--dir", dir.to_str().expect("utf-8 temp path")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sdk_accepts_real_traffic_converted_to_every_format() {
    let dir = std::env::temp_dir().join(format!("toolscope-sdk-real-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert!(common::real::write_conversions(&dir) > 0);
    python(&["--dir", dir.to_str().expect("utf-8 temp path")]);
    let _ = std::fs::remove_dir_all(&dir);
}
