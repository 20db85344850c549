//! Benchmark: counting the prompt tokens of a 50-tool, 1,000-message exchange (`src/cost`).
//! `cargo bench --bench cost` prints the median and best of several runs: loading each
//! vocabulary, counting one request per model family, and every round of the tool loop. No timing
//! is asserted anywhere (the figures go into the notes).

use toolscope::cost::{self, bpe::Encoding, Vocab, Vocabs};

mod common;

use common::{big_exchange, measure};

fn main() {
    let x = big_exchange();
    println!(
        "exchange: {} messages, {} tools",
        x.messages.len(),
        x.tools.len()
    );
    let mut loaded = Vec::new();
    for (e, bytes) in [
        (
            Encoding::Cl100k,
            &include_bytes!("../assets/vocab/cl100k_base.bin")[..],
        ),
        (
            Encoding::O200k,
            &include_bytes!("../assets/vocab/o200k_base.bin")[..],
        ),
    ] {
        loaded.push(Vocab::from_bytes(e, bytes).expect("the vocabulary in assets/ loads"));
        let (median, best) = measure(|| {
            std::hint::black_box(Vocab::from_bytes(e, bytes).ok());
        });
        println!(
            "load {:<12} median {:>8.2} ms  best {:>8.2} ms  ({} KB compressed)",
            e.name(),
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            bytes.len() / 1024
        );
    }
    // Built from the same bytes the page fetches (Vocabs::builtin is native only).
    let vocabs = Vocabs {
        cl100k: loaded.first(),
        o200k: loaded.get(1),
    };
    for model in ["gpt-4o", "gpt-4", "claude-sonnet-4-5", "gemini-2.5-flash"] {
        let c = cost::count(&x, model, &vocabs);
        let (median, best) = measure(|| {
            std::hint::black_box(cost::count(std::hint::black_box(&x), model, &vocabs));
        });
        println!(
            "count {:<18} median {:>8.2} ms  best {:>8.2} ms  (tools {}, messages {}, total {})",
            model,
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            c.tools,
            c.messages,
            c.total
        );
    }
    let (rs, _, _) = cost::rounds(&x, "gpt-4o", &vocabs);
    let (median, best) = measure(|| {
        std::hint::black_box(cost::rounds(std::hint::black_box(&x), "gpt-4o", &vocabs));
    });
    println!(
        "rounds gpt-4o             median {:>8.2} ms  best {:>8.2} ms  ({} rounds, running total {})",
        median.as_secs_f64() * 1e3,
        best.as_secs_f64() * 1e3,
        rs.len(),
        rs.last().map_or(0, |r| r.running_total)
    );
}
