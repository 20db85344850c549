//! The command line, through `cli::run_with` (no processes), and once through the real binary.

use crate::common;

use common::run_cli as run;

#[test]
fn cli_formats_lists_every_format() {
    let (code, out, _) = run(&["formats"], "");
    assert_eq!(code, 0);
    for f in toolscope::formats::Format::ALL {
        assert!(out.contains(f.id()), "{out}");
    }
    assert!(out.starts_with("canonical"));
}

#[test]
fn cli_usage_errors_exit_2() {
    assert_eq!(run(&[], "").0, 2);
    assert_eq!(run(&["convert"], "").0, 2);
    assert_eq!(run(&["convert", "--to", "klingon"], "").0, 2);
    assert_eq!(run(&["convert", "--to", "gemini", "--bogus"], "").0, 2);
    let (code, _, err) = run(&["frobnicate"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown command"));
}

#[test]
fn cli_bad_input_exits_1_with_line_and_column() {
    let (code, out, err) = run(
        &["convert", "--to", "anthropic"],
        "{\n  \"messages\": [\n    {,}\n]}",
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("line 3, column 6"), "{err}");
}

#[test]
fn cli_canonical_round_trips_through_stdin() {
    for (case, x) in common::cases() {
        let text = serde_json::to_string(&x).expect("serialise");
        let (code, out, err) = run(&["convert", "--to", "canonical", "-"], &text);
        assert_eq!(code, 0, "{case}: {err}");
        let back: toolscope::model::Exchange = serde_json::from_str(&out).expect("canonical out");
        assert_eq!(back, x, "{case}");
    }
}

#[test]
fn cli_converts_every_case_to_every_format_and_reports_losses_on_stderr() {
    for (case, x) in common::cases() {
        let text = serde_json::to_string(&x).expect("serialise");
        for f in toolscope::formats::Format::ALL {
            let (code, out, err) = run(&["convert", "--from", "canonical", "--to", f.id()], &text);
            assert_eq!(code, 0, "{case} → {}: {err}", f.id());
            assert_eq!(
                out,
                f.encode(&x, toolscope::formats::Kind::Request).text + "\n"
            );
            let expected = f.encode(&x, toolscope::formats::Kind::Request).losses.len();
            assert_eq!(err.lines().count(), expected, "{case} → {}: {err}", f.id());
        }
    }
}

#[test]
fn cli_binary_reads_a_file() {
    let path = common::fixtures().join("exchanges/weather.json");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_toolscope"));
    cmd.args(["convert", "--to", "canonical"]).arg(&path);
    let out = common::run_ok(&mut cmd, "toolscope");
    let back: toolscope::model::Exchange = serde_json::from_str(&out).expect("json");
    assert_eq!(back.tools.len(), 1);
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_toolscope"))
        .args(["convert", "--to", "gemini", "/nonexistent/file.json"])
        .output()
        .expect("run toolscope");
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn cli_detects_a_legacy_xml_transcript() {
    let xml = "Use the tools.\n\nHuman: Price of Apple?\n\nAssistant: <function_calls>\n<invoke>\n<tool_name>get_stock_price</tool_name>\n<parameters>\n<ticker>AAPL</ticker>\n</parameters>\n</invoke>\n</function_calls>";
    let (code, out, err) = run(&["convert", "--to", "canonical"], xml);
    assert_eq!(code, 0, "{err}");
    let x: toolscope::model::Exchange = serde_json::from_str(&out).expect("canonical");
    let call = x
        .messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .next()
        .expect("a call");
    assert_eq!(call.name, "get_stock_price");
    assert_eq!(call.arguments, serde_json::json!({"ticker": "AAPL"}));
    // Plain prose is refused, as on the page (`--from anthropic-xml` reads it as a
    // completion: see cli_convert_refuses_plain_prose_like_the_page); broken JSON stays a JSON
    // error.
    let (code, _, err) = run(&["convert", "--to", "canonical"], "hello there");
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = run(&["convert", "--to", "canonical"], "  {\"messages\": [,]}");
    assert_eq!(code, 1);
    assert!(err.contains("line 1, column 17"), "{err}");
}

#[test]
fn cli_input_reading_stops_one_byte_past_the_limit() {
    use std::io::Read;
    use toolscope::cli::{read_limited, READ_LIMIT};
    // A reader that never ends (like /dev/zero): refused after limit + 1 bytes, not drained.
    let e = read_limited(std::io::repeat(b'{'), 1000).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    assert!(e.to_string().contains("at most 1000 bytes"), "{e}");
    // How much it pulled: exactly limit + 1.
    struct Counting<R>(R, usize);
    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1 += n;
            Ok(n)
        }
    }
    let mut r = Counting(std::io::repeat(b' '), 0);
    assert!(read_limited(&mut r, 4096).is_err());
    assert_eq!(r.1, 4097);
    // At the limit exactly: read whole.
    assert_eq!(
        read_limited(std::io::repeat(b'x').take(1000), 1000)
            .expect("fits")
            .len(),
        1000
    );
    assert!(read_limited(&[0xff, 0xfe][..], 10)
        .unwrap_err()
        .to_string()
        .contains("not UTF-8"));
    // The largest input any command accepts.
    assert_eq!(
        READ_LIMIT,
        toolscope::replay::MAX_INPUT.max(toolscope::formats::limits::MAX_INPUT)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn cli_binary_refuses_an_endless_stdin() {
    for cmd in [&["lint"][..], &["convert", "--to", "gemini"], &["replay"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolscope"))
            .args(cmd)
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .output()
            .expect("run toolscope");
        assert_eq!(out.status.code(), Some(1), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("at most"), "{cmd:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn cli_convert_refuses_plain_prose_like_the_page() {
    let (code, out, err) = run(
        &["convert", "--to", "openai-chat"],
        "Hello, this is just a sentence about the weather.",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty());
    assert!(err.contains("not a document"), "{err}");
    // Named explicitly, the legacy format still reads it as a completion.
    let (code, _, err) = run(
        &["convert", "--from", "anthropic-xml", "--to", "canonical"],
        "Hello, this is just a sentence.",
    );
    assert_eq!(code, 0, "{err}");
}
