//! Share links and state files: round trips over the golden and generated exchanges, the
//! frozen v1 fixture, every error with its message, and hostile input (zip bomb, deep nesting,
//! truncation, garbage).

use crate::common;

use proptest::prelude::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use toolscope::formats::{Format, Kind};
use toolscope::model::{Exchange, Message, Part, Role, ToolCall};
use toolscope::share::*;

/// A state over `x` with every field set.
fn full_state(x: Exchange, kind: Kind) -> State {
    State {
        exchange: x,
        kind,
        panes: vec![
            "gemini".into(),
            "openai-chat".into(),
            "anthropic-xml".into(),
        ],
        compare: Some(("openai-chat".into(), "bedrock".into())),
        replay: Some(
            "data: {\"choices\":[{\"delta\":{\"content\":\"hé 🌧️\"}}]}\n\ndata: [DONE]\n\n".into(),
        ),
        cost: Some(CostState {
            open: true,
            model: Some("claude-opus-4-1".into()),
            models: vec!["gpt-4.1".into()],
            hf: Some("Qwen/Qwen2.5-7B-Instruct".into()),
        }),
    }
}

/// A link over an arbitrary JSON text: how a hostile link is made.
fn link_of(json_text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json_text.as_bytes(), 6);
    format!("#v1.{}", base64url::encode(&packed))
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(common::fixtures().join("share").join(name)).expect("fixture")
}

fn err_message<T: std::fmt::Debug>(r: Result<T, ShareError>) -> String {
    match r {
        Ok(s) => panic!("accepted: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn share_round_trips_every_golden_exchange() {
    for (name, x) in common::cases() {
        for kind in [Kind::Request, Kind::Response] {
            for s in [State::new(x.clone()), full_state(x.clone(), kind)] {
                let link = to_fragment(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(link.starts_with("v2."), "{name}: {link}");
                // The links Toolscope made before v2 open to the same state.
                let old = v1_fragment(&s).expect("v1 link");
                assert!(old.starts_with("v1."), "{name}: {old}");
                assert_eq!(from_fragment(&old).as_ref(), Ok(&s), "{name}: v1 link");
                let back = open_fragment(&format!("#{link}")).expect("opens");
                assert_eq!(back.state, s, "{name}: link");
                assert!(back.notes.is_empty(), "{name}: {:?}", back.notes);
                // Without '#', and as a whole pasted URL.
                assert_eq!(from_fragment(&link).as_ref(), Ok(&s), "{name}");
                let url = format!("https://toolscope.example/app/?x=1#{link}");
                assert_eq!(from_fragment(&url).as_ref(), Ok(&s), "{name}");

                let file = to_file(&s);
                let back = open_file(&file).expect("file opens");
                assert_eq!(back.state, s, "{name}: file");
                assert!(back.notes.is_empty());
            }
        }
    }
}

#[test]
fn share_links_for_the_examples_stay_short() {
    let mut report = Vec::new();
    for (name, x) in common::cases() {
        let s = State::new(x);
        let json_len = v1_compact(&s).len();
        let link = to_fragment(&s).expect("link");
        report.push(format!(
            "{name}: {json_len} bytes of JSON → {} characters",
            link.len()
        ));
        // Compression must pay: every example link is shorter than its own JSON.
        assert!(link.len() < json_len, "{name}: {} ≥ {json_len}", link.len());
        assert!(link.len() < 4_000, "{name}: {}", link.len());
    }
    eprintln!("link lengths (State::new):\n  {}", report.join("\n  "));
}

#[test]
fn share_v1_fixture_decodes_to_its_state_forever() {
    // v1 is frozen: this link was made once and must keep opening to exactly this state.
    let link = fixture("v1.txt");
    let expected: Value = serde_json::from_str(&fixture("v1.state.json")).expect("json");
    let r = open_fragment(link.trim()).expect("v1 fixture opens");
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let s = r.state;
    // Field by field against the JSON, independent of how to_file writes today.
    assert_eq!(expected["toolscope"], "state");
    assert_eq!(expected["version"], 1);
    assert_eq!(s.kind, Kind::Response);
    assert_eq!(expected["kind"], "response");
    assert_eq!(json!(s.panes), expected["panes"]);
    let (a, b) = s.compare.clone().expect("compare");
    assert_eq!(json!([a, b]), expected["compare"]);
    assert_eq!(json!(s.replay), expected["replay"]);
    let x: Exchange = serde_json::from_value(expected["exchange"].clone()).expect("exchange");
    assert_eq!(s.exchange, x);
    assert!(s.replay.as_deref().is_some_and(|r| r.contains("🌍")));
    // And the file form reads to the same state.
    assert_eq!(from_file(&fixture("v1.state.json")), Ok(s));
}

#[test]
fn share_unicode_survives() {
    let mut x = Exchange::default();
    let text =
        "RTL עברית, zero‑width\u{200b}joiner, NUL \u{0} tab\t, emoji 👩‍👩‍👧, \"quotes\" \\ \u{2028}";
    x.system = Some(text.into());
    let args = json!({"città": "Zürich", "🔑": [text]});
    x.messages.push(common::user(text));
    let call = common::call(Some("ид-📞"), "naïve_tool", args);
    x.messages.push(common::assistant(vec![call]));
    let mut s = State::new(x);
    s.replay = Some(text.repeat(3));
    let link = to_fragment(&s).expect("link");
    assert!(
        link.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
        "a fragment needs no escaping: {link}"
    );
    assert_eq!(from_fragment(&link), Ok(s.clone()));
    assert_eq!(from_file(&to_file(&s)), Ok(s));
}

#[test]
fn share_unknown_and_repeated_panes_are_left_out_with_a_note() {
    let mut doc: Value = serde_json::from_str(&to_file(&State::new(Exchange::default()))).unwrap();
    doc["panes"] = json!(["gemini", "future-format", "gemini", "mcp"]);
    doc["compare"] = json!(["openai-chat", "grok"]);
    let r = open_fragment(&link_of(&doc.to_string())).expect("opens");
    assert_eq!(r.state.panes, ["gemini", "mcp"]);
    assert_eq!(r.state.compare, None);
    assert_eq!(
        r.notes,
        [
            "Pane \"future-format\" is not a format this Toolscope knows; left out",
            "Pane \"gemini\" was listed twice; shown once",
            "Comparison with \"grok\", a format this Toolscope does not know; left out",
        ]
    );
    // Fields a later v1 may add are ignored; missing optional ones default.
    doc["theme"] = json!("dark");
    doc.as_object_mut().unwrap().remove("panes");
    let s = from_fragment(&link_of(&doc.to_string())).expect("opens");
    assert!(s.panes.is_empty());
    // Every known format id is kept.
    doc["panes"] = json!(Format::ALL.iter().map(|f| f.id()).collect::<Vec<_>>());
    let s = from_fragment(&link_of(&doc.to_string())).expect("opens");
    assert_eq!(s.panes.len(), Format::ALL.len());
}

#[test]
fn share_errors_say_what_is_wrong() {
    let cases: Vec<(&str, String)> = vec![
        ("", "This link holds no state (nothing after #)".into()),
        ("#", "This link holds no state (nothing after #)".into()),
        ("  #  ", "This link holds no state (nothing after #)".into()),
        (
            "#hello",
            "This link is not a Toolscope link (expected #v1.…)".into(),
        ),
        (
            "#v1",
            "This link is not a Toolscope link (expected #v1.…)".into(),
        ),
        (
            "#v0.AAAA",
            "This link is not a Toolscope link (expected #v1.…)".into(),
        ),
        (
            "#v7.AAAA",
            "This link was made by a newer Toolscope (v7)".into(),
        ),
        (
            "#v1.abc!def",
            "The link is damaged: not base64 at character 7".into(),
        ),
        (
            "#v1.abc def",
            "The link is damaged: not base64 at character 7".into(),
        ),
        ("v1.A", "The link is damaged: it is cut short".into()),
        ("#v1.", "The link is damaged: it is cut short".into()),
        // 0xff: a final block of the reserved type 3.
        (
            "#v1._w",
            "The link is damaged: compressed data is corrupt".into(),
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(err_message(from_fragment(input)), expected, "{input:?}");
    }
}

#[test]
fn share_newer_version_error_carries_the_version() {
    assert_eq!(
        from_fragment("#v12.whatever"),
        Err(ShareError::NewerVersion {
            origin: Origin::Link,
            version: 12
        })
    );
    // The document must repeat the link's version.
    let mut doc: Value = serde_json::from_str(&to_file(&State::new(Exchange::default()))).unwrap();
    doc["version"] = json!(2);
    assert_eq!(
        err_message(from_fragment(&link_of(&doc.to_string()))),
        "The state in the link is not valid: /version: the link says v1 but its state says version 2"
    );
    // A file names its version in the document.
    assert_eq!(
        err_message(from_file(&doc.to_string())),
        "This file was made by a newer Toolscope (version 2)"
    );
}

#[test]
fn share_invalid_state_names_the_pointer() {
    let x = common::cases()
        .into_iter()
        .find(|(n, _)| n == "multi_turn")
        .unwrap()
        .1;
    let mut doc: Value = serde_json::from_str(&to_file(&State::new(x))).unwrap();
    doc["exchange"]["messages"][3]["role"] = json!("robot");
    let msg = err_message(from_fragment(&link_of(&doc.to_string())));
    assert!(
        msg.starts_with(
            "The state in the link is not valid: /exchange/messages/3/role: unknown variant `robot`"
        ),
        "{msg}"
    );
    // The file form says where, by line and column too.
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let e = from_file(&text).unwrap_err();
    let ShareError::Invalid {
        origin,
        pointer,
        line: Some(line),
        column: Some(column),
        ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert_eq!(*origin, Origin::File);
    assert_eq!(pointer.as_deref(), Some("/exchange/messages/3/role"));
    let at = text.lines().nth(line - 1).unwrap();
    assert!(
        at.chars()
            .skip(column - 1)
            .collect::<String>()
            .starts_with("\"robot\""),
        "{at}"
    );
    assert!(
        e.to_string().starts_with(&format!(
            "The file is not valid: line {line}, column {column}: /exchange/messages/3/role: unknown variant"
        )),
        "{e}"
    );
    // Not JSON inside a link; a kind that is neither.
    assert!(err_message(from_fragment(&link_of("{\"toolscope\": ")))
        .starts_with("The state in the link is not valid: "));
    doc["kind"] = json!("both");
    assert!(err_message(from_fragment(&link_of(&doc.to_string())))
        .starts_with("The state in the link is not valid: /kind: unknown variant `both`"));
    // A link whose document is not a state.
    assert_eq!(
        err_message(from_fragment(&link_of("{\"messages\": []}"))),
        "The state in the link is not valid: /toolscope: expected \"state\""
    );
    // Bytes that are not UTF-8.
    let packed = miniz_oxide::deflate::compress_to_vec(b"{\"a\": \"\xff\"}", 6);
    let link = format!("v1.{}", base64url::encode(&packed));
    assert!(err_message(from_fragment(&link)).contains("not UTF-8"));
}

#[test]
fn share_files_that_are_not_states_are_refused() {
    let not_state =
        "This file is not a Toolscope state file (expected {\"toolscope\": \"state\", …})";
    for text in [
        "",
        "  \n",
        "{}",
        "[1, 2]",
        "{\"toolscope\": \"exchange\", \"version\": 1}",
    ] {
        assert_eq!(err_message(from_file(text)), not_state, "{text:?}");
    }
    // A canonical exchange is not a state file (the UI reads those through the editor).
    let (_, x) = common::cases().remove(0);
    assert_eq!(
        err_message(from_file(&serde_json::to_string(&x).unwrap())),
        not_state
    );
    // Syntax errors have a line and column.
    let msg = err_message(from_file(
        "{\n  \"toolscope\": \"state\",\n  \"version\": 1,,\n}",
    ));
    assert!(
        msg.starts_with("The file is not valid: line 3, column 16: "),
        "{msg}"
    );
    // A byte order mark is fine.
    let file = format!("\u{feff}{}", to_file(&State::new(Exchange::default())));
    assert!(from_file(&file).is_ok());
}

#[test]
fn share_replay_too_large_for_a_link() {
    let mut s = State::new(Exchange::default());
    s.replay = Some("x".repeat(MAX_REPLAY + 1));
    let e = to_fragment(&s).unwrap_err();
    assert_eq!(
        e,
        ShareError::ReplayTooLarge {
            size: MAX_REPLAY + 1,
            limit: MAX_REPLAY
        }
    );
    assert_eq!(
        e.to_string(),
        "The replay is 1.1 MiB, more than the 1 MiB a link carries; share without the replay or \
         export a file"
    );
    // Exactly the limit travels.
    s.replay = Some("y".repeat(MAX_REPLAY));
    let link = to_fragment(&s).expect("1 MiB of replay fits");
    assert_eq!(from_fragment(&link), Ok(s.clone()));
    // A file carries more.
    s.replay = Some("z".repeat(2 * MAX_REPLAY));
    assert_eq!(from_file(&to_file(&s)), Ok(s.clone()));
    // A hand-made link with a larger replay is refused.
    let link = link_of(&v1_compact(&s));
    assert_eq!(
        err_message(from_fragment(&link)),
        "The replay in the link is 2 MiB; at most 1 MiB is accepted"
    );
}

/// The compact document of a state, made without the limits of `to_fragment`.
fn v1_compact(s: &State) -> String {
    let v: Value = serde_json::from_str(&to_file(s)).unwrap();
    v.to_string()
}

/// The state is not shared (`to` says why), and a link made without the limits is not read
/// (`from` says why).
fn refused_both_ways(s: &State, to: &str, from: &str) {
    assert_eq!(err_message(to_fragment(s)), to);
    assert_eq!(err_message(from_fragment(&link_of(&v1_compact(s)))), from);
}

#[test]
fn share_too_many_messages_or_tools() {
    let x = Exchange {
        messages: vec![Message::new(Role::User, vec![Part::text("hi")]); MAX_MESSAGES + 1],
        ..Exchange::default()
    };
    let s = State::new(x);
    refused_both_ways(
        &s,
        "The state has 5,001 messages; a link carries at most 5,000",
        "The link holds 5,001 messages; at most 5,000 are accepted",
    );
    assert_eq!(
        err_message(from_file(&to_file(&s))),
        "The file holds 5,001 messages; at most 5,000 are accepted"
    );
    let tool = json!({"name": "t"});
    let doc = json!({"toolscope": "state", "version": 1, "kind": "request",
        "exchange": {"tools": vec![tool; MAX_TOOLS + 1]}});
    assert_eq!(
        err_message(from_fragment(&link_of(&doc.to_string()))),
        "The link holds 1,001 tools; at most 1,000 are accepted"
    );
}

/// A raw DEFLATE stream of `matches × 258 + 1` zero bytes in one fixed-Huffman block: a
/// literal 0, then `matches` copies of (length 258, distance 1). 13 bits per 258 bytes.
fn zero_bomb(matches: usize) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u32,
        n: u32,
    }
    impl Bits {
        /// Write `len` bits of `v`, least significant first (DEFLATE's bit order).
        fn lsb(&mut self, v: u32, len: u32) {
            for i in 0..len {
                self.acc |= ((v >> i) & 1) << self.n;
                self.n += 1;
                if self.n == 8 {
                    self.out.push(self.acc as u8);
                    self.acc = 0;
                    self.n = 0;
                }
            }
        }
        /// Write a Huffman code, most significant bit first.
        fn code(&mut self, code: u32, len: u32) {
            for i in (0..len).rev() {
                self.lsb((code >> i) & 1, 1);
            }
        }
    }
    let mut b = Bits {
        out: Vec::new(),
        acc: 0,
        n: 0,
    };
    b.lsb(1, 1); // BFINAL
    b.lsb(1, 2); // BTYPE = fixed Huffman
    b.code(0x30, 8); // literal 0
    for _ in 0..matches {
        b.code(0b1100_0101, 8); // length symbol 285 = 258
        b.code(0, 5); // distance symbol 0 = 1
    }
    b.code(0, 7); // end of block (256)
    if b.n > 0 {
        b.out.push(b.acc as u8);
    }
    b.out
}

#[test]
fn share_zip_bomb_is_refused_quickly() {
    // The bomb is real: a small one inflates to exactly its zeros.
    let small = miniz_oxide::inflate::decompress_to_vec(&zero_bomb(10)).expect("valid deflate");
    assert_eq!(small, vec![0u8; 10 * 258 + 1]);

    // 100 MB of zeros (406,425 × 258 + 1 bytes), as a link of about 880,000 characters.
    let bomb = zero_bomb(100_000_000 / 258 + 1);
    // The same stream in a v2 link (which inflates after its dictionary) is refused the same.
    for version in ["v1", "v2"] {
        let link = format!("{version}.{}", base64url::encode(&bomb));
        assert!(link.len() < MAX_LINK_LEN, "{}", link.len());
        let start = Instant::now();
        let e = from_fragment(&link).unwrap_err();
        let took = start.elapsed();
        assert_eq!(
            e,
            ShareError::TooLarge {
                origin: Origin::Link,
                limit: MAX_EXPANDED
            },
            "{version}"
        );
        assert_eq!(e.to_string(), "The link expands beyond 4 MiB; refused");
        assert!(took < Duration::from_secs(3), "{version} took {took:?}");
    }
}

#[test]
fn share_overlong_links_and_states_are_refused() {
    let link = format!("v1.{}", "A".repeat(MAX_LINK_LEN));
    assert_eq!(
        err_message(from_fragment(&link)),
        "The link is 2,000,003 characters long; links over 2,000,000 characters are refused"
    );
    // A state whose JSON is over 4 MiB is neither shared nor read from a file.
    let x = Exchange {
        system: Some("s".repeat(MAX_EXPANDED)),
        ..Exchange::default()
    };
    let s = State::new(x);
    assert_eq!(
        err_message(to_fragment(&s)),
        "The state is larger than 4 MiB; too large to share as a link"
    );
    assert_eq!(
        err_message(from_file(&to_file(&s))),
        "The file is larger than 4 MiB; refused"
    );
    // Incompressible text under 4 MiB still makes a link too long for a browser.
    let mut noise = String::new();
    let mut seed = 0x2545_f491_u64;
    while noise.len() < 3_600_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        noise.push_str(&format!("{seed:016x}"));
    }
    let x = Exchange {
        system: Some(noise),
        ..Exchange::default()
    };
    let e = to_fragment(&State::new(x)).unwrap_err();
    assert!(
        matches!(
            e,
            ShareError::LinkTooLong {
                origin: Origin::Share,
                limit: MAX_LINK_LEN,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().starts_with("The link would be "), "{e}");
}

/// `depth` levels of arguments: `{"a": {"a": … {}}}`.
fn nested(depth: usize) -> Value {
    let mut v = json!({});
    for _ in 1..depth {
        v = json!({ "a": v });
    }
    v
}

fn state_with_arguments(arguments: Value) -> State {
    let mut x = Exchange::default();
    x.messages.push(Message::new(
        Role::Assistant,
        vec![Part::ToolCall(ToolCall::new(
            Some("c".into()),
            "deep",
            arguments,
        ))],
    ));
    State::new(x)
}

#[test]
fn share_deep_nesting_is_refused_without_overflow() {
    // Arguments sit at level 7 of the document: 94 more levels fit, 95 do not.
    let fits = state_with_arguments(nested(MAX_DEPTH - 6));
    let link = to_fragment(&fits).expect("fits");
    assert_eq!(from_fragment(&link), Ok(fits.clone()));
    assert_eq!(from_file(&to_file(&fits)), Ok(fits));
    let deep = state_with_arguments(nested(MAX_DEPTH - 5));
    refused_both_ways(
        &deep,
        "The state is nested deeper than 100 levels; too deep to share",
        "The state in the link is nested deeper than 100 levels; refused",
    );

    // A million brackets: refused by the scanner, serde never sees them.
    let hostile = format!(
        "{{\"toolscope\": \"state\", \"version\": 1, \"kind\": \"request\", \"exchange\": {}{}}}",
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    assert_eq!(
        err_message(from_fragment(&link_of(&hostile))),
        "The state in the link is nested deeper than 100 levels; refused"
    );
    let file = format!(
        "{{\n  \"toolscope\": \"state\",\n  \"x\": {}",
        "[".repeat(200)
    );
    assert_eq!(
        err_message(from_file(&file)),
        "The file is nested deeper than 100 levels (line 3, column 107); refused"
    );
}

#[test]
fn share_truncated_links_never_open() {
    let (_, x) = common::cases().into_iter().next().unwrap();
    let link = to_fragment(&full_state(x, Kind::Request)).unwrap();
    for cut in 0..link.len() {
        let prefix = &link[..cut];
        let e = from_fragment(prefix).unwrap_err();
        assert!(
            matches!(
                e,
                ShareError::Empty
                    | ShareError::NotALink
                    | ShareError::Truncated
                    | ShareError::Corrupt
                    | ShareError::Invalid { .. }
            ),
            "cut at {cut}: {e:?}"
        );
    }
}

#[test]
fn share_flipped_characters_are_caught_or_harmless() {
    // A changed character either fails with a message or opens to some valid state; it never
    // panics. (DEFLATE has no checksum; the JSON shape check catches most damage.)
    let (_, x) = common::cases().into_iter().next().unwrap();
    let link = to_fragment(&State::new(x)).unwrap();
    let mut failures = 0;
    for i in (3..link.len()).step_by(7) {
        let mut bytes = link.clone().into_bytes();
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let damaged = String::from_utf8(bytes).unwrap();
        if from_fragment(&damaged).is_err() {
            failures += 1;
        }
    }
    assert!(failures > 0);
}

proptest! {
    #![proptest_config(common::gen::config(64))]

    #[test]
    fn share_round_trips_generated_requests(x in common::gen::exchange(), replay in proptest::option::of(".{0,200}")) {
        let mut s = full_state(x, Kind::Request);
        s.replay = replay;
        let link = to_fragment(&s).expect("link");
        prop_assert_eq!(from_fragment(&link), Ok(s.clone()));
        prop_assert_eq!(from_file(&to_file(&s)), Ok(s));
    }

    #[test]
    fn share_round_trips_generated_responses(x in common::gen::response()) {
        let s = full_state(x, Kind::Response);
        let link = to_fragment(&s).expect("link");
        prop_assert_eq!(from_fragment(&link), Ok(s.clone()));
        prop_assert_eq!(from_file(&to_file(&s)), Ok(s));
    }

    #[test]
    fn share_garbage_never_panics(text in ".{0,300}", bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = from_fragment(&text);
        let _ = from_fragment(&format!("v1.{text}"));
        let _ = from_fragment(&format!("v1.{}", base64url::encode(&bytes)));
        let _ = from_fragment(&format!("v2.{text}"));
        let _ = from_fragment(&format!("v2.{}", base64url::encode(&bytes)));
        let _ = from_file(&text);
    }
}
