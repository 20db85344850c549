//! The replay driver on any text (auto-detected and with each protocol named), snapshots at a
//! few steps, and the SSE and NDJSON framers fed in chunk splits chosen by the input: the
//! events must not depend on where the bytes were cut. Also the partial-JSON repair, which
//! every assembler runs on argument fragments.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::stream::ndjson::{self, NdjsonFramer};
use toolscope::stream::partial::{parse_partial, repair};
use toolscope::replay::{LoadOptions, Replay};
use toolscope::stream::sse::{self, SseFramer};
use toolscope::formats::Protocol;
use toolscope::stream::Event;

/// Chunk lengths (1..=16) drawn from the input's own bytes, so each input has its own cuts.
fn cuts(data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    let mut seed = data.len();
    while !rest.is_empty() {
        seed = seed.wrapping_mul(31).wrapping_add(usize::from(rest[0]));
        let n = (seed % 16 + 1).min(rest.len());
        let (chunk, tail) = rest.split_at(n);
        out.push(chunk);
        rest = tail;
    }
    out
}

fn sse_chunked(data: &[u8]) -> Vec<Event> {
    let mut f = SseFramer::new();
    let mut events = Vec::new();
    for chunk in cuts(data) {
        events.extend(f.push(chunk));
    }
    events.extend(f.finish());
    events
}

fn ndjson_chunked(data: &[u8]) -> Vec<Event> {
    let mut f = NdjsonFramer::new();
    let mut events = Vec::new();
    for chunk in cuts(data) {
        events.extend(f.push(chunk));
    }
    events.extend(f.finish());
    events
}

fn exercise(r: &Replay) {
    let last = r.len().saturating_sub(1);
    for step in [0, last / 2, last, last + 5] {
        let _ = r.snapshot(step);
    }
    let _ = r.assembled.message();
    let _ = r.anomalies();
}

fuzz_target!(|data: &[u8]| {
    // Framing: whole text versus any chunking.
    let mut whole = SseFramer::new();
    let mut expected = whole.push(data);
    expected.extend(whole.finish());
    assert_eq!(
        sse_chunked(data),
        expected,
        "SSE events depend on the chunking"
    );
    let mut whole = NdjsonFramer::new();
    let mut expected = whole.push(data);
    expected.extend(whole.finish());
    assert_eq!(
        ndjson_chunked(data),
        expected,
        "NDJSON events depend on the chunking"
    );

    let text = String::from_utf8_lossy(data);
    let _ = sse::frame(&text);
    let _ = ndjson::frame(&text);
    let _ = parse_partial(&text);
    let _ = repair(&text);

    if let Ok(r) = Replay::load(&text, LoadOptions::default()) {
        exercise(&r);
    }
    for p in Protocol::ALL {
        let opts = LoadOptions {
            protocol: Some(p),
            har_entry: None,
        };
        if let Ok(r) = Replay::load(&text, opts) {
            exercise(&r);
        }
    }
});
