//! The reverse direction: the stream each protocol would send for an exchange's last assistant
//! turn (`synth`) assembles back to that turn as the protocol's non-streamed response
//! carries it, whether the protocol is named or detected, and whatever the byte chunking.

use crate::common;

use proptest::prelude::*;
use toolscope::formats::Kind;
use toolscope::formats::Protocol;
use toolscope::model::{Exchange, Message, Role};
use toolscope::replay::{AnyAssembler, LoadOptions, Replay};
use toolscope::synth::{synthesize, synthesize_with};

/// The last assistant message of `x` as the protocol's response decoder reads it back.
fn expected(x: &Exchange, p: Protocol) -> Message {
    let enc = p.format().encode(x, Kind::Response);
    let dec = p
        .format()
        .decode(&enc.text, Kind::Response)
        .unwrap_or_else(|e| panic!("{}: {e}", p.id()));
    dec.exchange.messages.last().cloned().expect("a message")
}

fn assemble_text(text: &str, p: Option<Protocol>) -> Replay {
    Replay::load(
        text,
        LoadOptions {
            protocol: p,
            har_entry: None,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn with_assistant_last(x: &Exchange) -> bool {
    x.messages.last().is_some_and(|m| m.role == Role::Assistant)
}

/// MCP carries only the model's calls: a turn without calls is the empty transcript, which
/// streams as no events at all (nothing to assemble or detect).
fn no_mcp_events(x: &Exchange, p: Protocol) -> bool {
    p == Protocol::Mcp && expected(x, p).tool_calls().next().is_none()
}

#[test]
fn synth_assembles_back_for_every_case_and_protocol() {
    let mut checked = 0;
    for (name, x) in common::cases() {
        if !with_assistant_last(&x) {
            continue;
        }
        for p in Protocol::ALL {
            if no_mcp_events(&x, p) {
                continue;
            }
            let s = synthesize(&x, p);
            assert!(
                !s.events.is_empty(),
                "{name} {}: {} events",
                p.id(),
                s.events.len()
            );
            let r = assemble_text(&s.text(), Some(p));
            let got = r.assembled.message().cloned().expect("message");
            assert_eq!(got, expected(&x, p), "{name} via {}", p.id());
            assert!(r.assembled.complete, "{name} via {}: not complete", p.id());
            let bad: Vec<_> = r
                .assembled
                .anomalies
                .iter()
                .filter(|a| !matches!(a.kind.id(), "empty_arguments" | "missing_index"))
                .collect();
            assert!(bad.is_empty(), "{name} via {}: {bad:?}", p.id());
            checked += 1;
        }
    }
    assert!(checked >= 9 * 5, "only {checked} checked");
}

#[test]
fn synth_streams_are_detected_as_their_protocol() {
    for (name, x) in common::cases() {
        if !with_assistant_last(&x) {
            continue;
        }
        for p in Protocol::ALL {
            if no_mcp_events(&x, p) {
                continue;
            }
            let r = assemble_text(&synthesize(&x, p).text(), None);
            // Dialects without a marker in the stream are read as the protocol they speak.
            let ok = r.protocol == p
                || (matches!(p, Protocol::DeepSeek | Protocol::Mistral)
                    && r.protocol == Protocol::OpenAiChat);
            assert!(ok, "{name}: {} detected as {}", p.id(), r.protocol.id());
            assert_eq!(
                r.assembled.message().map(|m| &m.parts),
                Some(&expected(&x, p).parts),
                "{name} via {} detected",
                p.id()
            );
        }
    }
}

#[test]
fn synth_chat_fragments_arguments_by_index() {
    let (_, x) = common::cases()
        .into_iter()
        .find(|(n, _)| n == "forced_choice")
        .expect("case");
    let s = synthesize_with(&x, Protocol::OpenAiChat, 5);
    let frags = s
        .events
        .iter()
        .filter(|e| e.data.contains("\"arguments\"") && e.data.contains("\"index\""))
        .count();
    assert!(frags > 5, "{frags} argument fragments");
    assert_eq!(s.events.last().map(|e| e.data.as_str()), Some("[DONE]"));
    let m = synthesize(&x, Protocol::Mistral);
    assert!(m
        .events
        .iter()
        .all(|e| !e.data.contains("\"index\":0,\"id\"")));
}

fn feed(text: &str, cuts: &[usize], p: Protocol) -> toolscope::stream::Assembled {
    common::feed_in_pieces(text, cuts, p.is_sse(), AnyAssembler::new(p))
}

proptest! {
    #![proptest_config(common::gen::config(64))]

    #[test]
    fn synth_cut_anywhere_assembles_the_same(
        case in 0usize..7,
        proto in 0usize..9,
        cuts in proptest::collection::vec(0usize..100_000, 0..12),
    ) {
        let cases = common::cases();
        let (_, x) = &cases[case % cases.len()];
        prop_assume!(with_assistant_last(x));
        let p = Protocol::ALL[proto];
        prop_assume!(!no_mcp_events(x, p));
        let text = synthesize(x, p).text();
        let whole = feed(&text, &[], p);
        let cut = feed(&text, &cuts, p);
        prop_assert_eq!(cut.message(), whole.message());
        prop_assert_eq!(cut.anomalies, whole.anomalies);
    }
}
