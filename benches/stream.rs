//! Benchmark: assembly throughput (events per second) for every streaming protocol on a
//! 10,000-event synthesised stream, and on the recorded streams. `cargo bench --bench stream`
//! prints the median of several runs; no timing is asserted anywhere (the figures go into the
//! notes). "frame+assemble" starts from the stream's bytes (SSE or JSON lines).
//!
//! The OpenAI Chat and Anthropic streams are also written to `target/bench/stream-<id>.jsonl`
//! (one event's data a line), which `scripts/bench-competitors.py sdk` feeds to the SDKs'
//! accumulators, and their figures to `target/bench/stream.json` for `make bench`'s table.

use serde_json::json;
use std::time::{Duration, Instant};
use toolscope::formats::Protocol;
use toolscope::model::*;
use toolscope::replay::{AnyAssembler, LoadOptions, Replay};
use toolscope::stream::{ndjson, sse, Assembler, Event};
use toolscope::synth::synthesize;

mod common;

const EVENTS: usize = 10_000;

/// An answer long enough for 10,000 events: text, then three calls with large arguments.
fn turn() -> Exchange {
    let words = "the quick brown fox jumps over the lazy dog ";
    let text: String = words.repeat(3_000);
    let calls = (0..3).map(|i| {
        let items: Vec<_> = (0..400)
            .map(|k| json!({"field": format!("f{k}"), "value": format!("value number {k}")}))
            .collect();
        Part::ToolCall(ToolCall::new(
            Some(format!("call_{i}")),
            format!("tool_{i}"),
            json!({"query": "everything", "filters": items}),
        ))
    });
    let mut parts = vec![Part::text(text)];
    parts.extend(calls);
    let mut m = Message::new(Role::Assistant, parts);
    m.stop_reason = Some(StopReason::ToolUse);
    m.usage = Some(Usage {
        input_tokens: 100,
        output_tokens: 9_000,
    });
    Exchange {
        options: Options {
            model: Some("bench-model".into()),
            ..Options::default()
        },
        messages: vec![Message::new(Role::User, vec![Part::text("go")]), m],
        ..Exchange::default()
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn assemble(p: Protocol, events: &[Event]) -> usize {
    let mut a = AnyAssembler::new(p);
    for e in events {
        a.push(e);
    }
    let done = a.finish();
    done.message().map_or(0, |m| m.parts.len())
}

fn rate(events: usize, d: Duration) -> f64 {
    events as f64 / d.as_secs_f64()
}

fn main() {
    let x = turn();
    let mut figures = serde_json::Map::new();
    println!(
        "{:<18} {:>7} {:>16} {:>20} {:>14}",
        "protocol", "events", "assemble ev/s", "frame+assemble ev/s", "replay load ms"
    );
    for p in Protocol::ALL {
        let s = synthesize(&x, p);
        // Keep 10,000 events and the terminal one(s): the stream stays well-formed.
        let mut events = s.events.clone();
        if events.len() > EVENTS {
            let tail = events.split_off(events.len() - 2);
            events.truncate(EVENTS - 2);
            events.extend(tail);
        }
        let text = if p.is_sse() {
            sse::render(&events)
        } else {
            ndjson::render(&events)
        };
        let n = events.len();
        let a = time(5, || {
            std::hint::black_box(assemble(p, &events));
        });
        let fa = time(5, || {
            let evs = if p.is_sse() {
                sse::frame(&text)
            } else {
                ndjson::frame(&text)
            };
            std::hint::black_box(assemble(p, &evs));
        });
        let load = time(3, || {
            let opts = LoadOptions {
                protocol: Some(p),
                har_entry: None,
            };
            std::hint::black_box(Replay::load(&text, opts).map(|r| r.len()).ok());
        });
        if matches!(p, Protocol::OpenAiChat | Protocol::Anthropic) {
            let lines: String = events.iter().map(|e| format!("{}\n", e.data)).collect();
            let _ = std::fs::write(
                common::out_dir().join(format!("stream-{}.jsonl", p.id())),
                lines,
            );
            // The best of more runs: the table compares it with the SDKs' best.
            let best = (0..9)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(assemble(p, &events));
                    t.elapsed()
                })
                .min()
                .unwrap_or(a);
            figures.insert(
                p.id().into(),
                json!({"events": n, "median_ms": a.as_secs_f64() * 1e3, "best_ms": best.as_secs_f64() * 1e3}),
            );
        }
        println!(
            "{:<18} {:>7} {:>16.0} {:>20.0} {:>14.1}",
            p.id(),
            n,
            rate(n, a),
            rate(n, fa),
            load.as_secs_f64() * 1e3
        );
    }
    let _ = std::fs::write(
        common::out_dir().join("stream.json"),
        serde_json::Value::Object(figures).to_string(),
    );
    // The recorded streams, all together.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded");
    let mut streams = Vec::new();
    for d in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
            if let Ok(text) = std::fs::read_to_string(f.path()) {
                if let Ok(r) = Replay::load(&text, LoadOptions::default()) {
                    streams.push((r.protocol, r.events));
                }
            }
        }
    }
    let total: usize = streams.iter().map(|(_, e)| e.len()).sum();
    let d = time(9, || {
        for _ in 0..20 {
            for (p, e) in &streams {
                std::hint::black_box(assemble(*p, e));
            }
        }
    });
    println!(
        "recorded: {} streams, {} events: {:.0} events/s assembled",
        streams.len(),
        total,
        rate(total * 20, d)
    );
}
