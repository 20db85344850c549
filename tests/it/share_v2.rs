//! Share links, version 2: the frozen fixture, v1 links that keep opening, the compact
//! document without defaults, the preset dictionary, and hostile v2 input (references before
//! the dictionary, truncation, nesting, shapes), which errors without a panic.

use crate::common;

use serde_json::Value;
use toolscope::examples::EXAMPLES;
use toolscope::formats::{read_any, Kind};
use toolscope::model::Exchange;
use toolscope::share::*;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(common::fixtures().join("share").join(name)).expect("fixture")
}

/// A v2 link over an arbitrary document: how a hostile link is made.
fn v2_of(json_text: &str) -> String {
    format!(
        "v2.{}",
        base64url::encode(&v2::deflate(json_text.as_bytes(), 6))
    )
}

fn err_message(r: Result<State, ShareError>) -> String {
    match r {
        Ok(s) => panic!("accepted: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn share_v2_fixture_decodes_to_its_state_forever() {
    // Made once from the v1 fixture's state (`UPDATE_SHARE_V2=1` wrote it): both links open
    // to the same state, forever.
    if std::env::var_os("UPDATE_SHARE_V2").is_some() {
        let v1 = from_fragment(fixture("v1.txt").trim()).expect("v1 fixture opens");
        let link = to_fragment(&v1).expect("link");
        std::fs::write(common::fixtures().join("share/v2.txt"), format!("{link}\n"))
            .expect("write");
    }
    let v2 = open_fragment(fixture("v2.txt").trim()).expect("v2 fixture opens");
    let v1 = open_fragment(fixture("v1.txt").trim()).expect("v1 fixture opens");
    assert!(v2.notes.is_empty(), "{:?}", v2.notes);
    assert_eq!(v2.state, v1.state);
    assert_eq!(v2.state.kind, Kind::Response);
    assert!(fixture("v2.txt").len() < fixture("v1.txt").len());
    // Today's writer makes the same link (miniz is deterministic): a change to the document
    // or the dictionary shows here before it breaks a link in the wild.
    assert_eq!(
        to_fragment(&v1.state).expect("link"),
        fixture("v2.txt").trim()
    );
}

#[test]
fn share_v2_links_of_the_gallery_are_shorter_than_v1_and_open_as_v1_did() {
    for e in EXAMPLES {
        let (d, _) = read_any(e.source).expect("example reads");
        let s = State::new(d.exchange);
        let (old, new) = (v1_fragment(&s).expect("v1"), to_fragment(&s).expect("v2"));
        assert!(
            new.len() < old.len(),
            "{}: {} ≥ {}",
            e.id,
            new.len(),
            old.len()
        );
        assert_eq!(from_fragment(&old), Ok(s.clone()), "{}", e.id);
        assert_eq!(from_fragment(&new), Ok(s.clone()), "{}", e.id);
        // And as the page keeps them.
        assert_eq!(
            from_stored(&to_stored(&s).expect("stored")),
            Ok(s),
            "{}",
            e.id
        );
    }
}

#[test]
fn share_v2_document_leaves_out_what_the_reader_fills_in() {
    let s = State::new(Exchange::default());
    assert_eq!(v2::to_compact(&s), r#"{"exchange":{"messages":[]}}"#);
    let mut r = s.clone();
    r.kind = Kind::Response;
    r.panes = vec!["gemini".into()];
    r.compare = Some(("openai-chat".into(), "anthropic".into()));
    let doc: Value = serde_json::from_str(&v2::to_compact(&r)).expect("json");
    assert_eq!(doc["kind"], "response");
    assert_eq!(doc["panes"], serde_json::json!(["gemini"]));
    assert_eq!(
        doc["compare"],
        serde_json::json!(["openai-chat", "anthropic"])
    );
    assert!(doc.get("toolscope").is_none() && doc.get("version").is_none());
    for state in [s, r] {
        assert_eq!(
            from_fragment(&to_fragment(&state).expect("link")),
            Ok(state)
        );
    }
    // An empty pane list is not the default list: it stays empty.
    let mut none = State::new(Exchange::default());
    none.panes.clear();
    assert_eq!(from_fragment(&to_fragment(&none).expect("link")), Ok(none));
    // Fields a later v2 writer may add are ignored.
    assert_eq!(
        from_fragment(&v2_of(r#"{"exchange":{},"theme":"dark"}"#)),
        Ok(State::new(Exchange::default()))
    );
}

#[test]
fn share_v2_hostile_links_error_without_panicking() {
    let cases: Vec<(String, &str)> = vec![
        (
            v2_of("{\"exchange\": "),
            "The state in the link is not valid: ",
        ),
        (v2_of("[]"), "The state in the link is not valid: "),
        (v2_of("{}"), "The state in the link is not valid: "),
        (
            v2_of(r#"{"exchange":{},"kind":"both"}"#),
            "The state in the link is not valid: /kind: unknown variant `both`",
        ),
        (
            v2_of(&format!(
                "{{\"exchange\":{{\"system\":{}{}}}}}",
                "[".repeat(200),
                "]".repeat(200)
            )),
            "The state in the link is nested deeper than 100 levels; refused",
        ),
        ("v2.".into(), "The link is damaged: it is cut short"),
        ("v2.A".into(), "The link is damaged: it is cut short"),
        (
            "v2.abc!def".into(),
            "The link is damaged: not base64 at character 7",
        ),
    ];
    for (link, expected) in &cases {
        let m = err_message(from_fragment(link));
        assert!(m.starts_with(expected), "{link:?}: {m}");
    }
    // Cut anywhere, a real link errors (or, cut at a block boundary, reads less) and never
    // panics.
    let s = State::new(common::cases().remove(0).1);
    let link = to_fragment(&s).expect("link");
    for end in 3..link.len() {
        if let Ok(back) = from_fragment(&link[..end]) {
            assert_ne!(back, s, "cut at {end}");
        }
    }
    // A back-reference before the dictionary's start: corrupt, not a read out of bounds.
    let link = format!("v2.{}", base64url::encode(&far_reference()));
    assert_eq!(from_fragment(&link), Err(ShareError::Corrupt));
    // Bytes that are not UTF-8.
    let link = format!(
        "v2.{}",
        base64url::encode(&v2::deflate(b"{\"exchange\": \"\xff\"}", 6))
    );
    assert!(err_message(from_fragment(&link)).contains("not UTF-8"));
    // Too many messages.
    let many = format!(
        "{{\"exchange\":{{\"messages\":[{}]}}}}",
        vec![r#"{"role":"user","parts":[]}"#; MAX_MESSAGES + 1].join(",")
    );
    assert!(err_message(from_fragment(&v2_of(&many))).starts_with("The link holds 5,001 messages"));
}

/// A fixed-Huffman DEFLATE block: the literal `{`, then 3 bytes from 24,577 bytes back (far
/// before the start of the dictionary), then the end of the block.
fn far_reference() -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut n) = (0u32, 0u32);
    let mut lsb = |value: u32, len: u32, out: &mut Vec<u8>| {
        for i in 0..len {
            acc |= ((value >> i) & 1) << n;
            n += 1;
            if n == 8 {
                out.push(acc as u8);
                acc = 0;
                n = 0;
            }
        }
    };
    // Huffman codes go most significant bit first.
    let code = |c: u32, len: u32| (0..len).fold(0, |r, i| r | (((c >> i) & 1) << (len - 1 - i)));
    lsb(1, 1, &mut out); // BFINAL
    lsb(1, 2, &mut out); // fixed Huffman
    lsb(code(0x30 + u32::from(b'{'), 8), 8, &mut out);
    lsb(code(1, 7), 7, &mut out); // length symbol 257: 3 bytes
    lsb(code(29, 5), 5, &mut out); // distance symbol 29: 24,577 + 13 extra bits
    lsb(0, 13, &mut out);
    lsb(code(0, 7), 7, &mut out); // end of block
    lsb(0, 7, &mut out); // pad to the byte
    out
}
