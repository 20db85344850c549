//! Benchmark: every provider's conversation rules (each format's `rules.rs`, found by `Format::rules`) on the request body the engine
//! writes for a 50-tool, 1,000-message exchange, per format: parsing the pane's text and
//! running the rules (what a pane does after each change). `cargo bench --bench rules` prints
//! the median and best of several runs. No timing is asserted anywhere.

use toolscope::formats::{Format, Kind};

mod common;

use common::{big_exchange, measure};

fn main() {
    let x = big_exchange();
    println!(
        "exchange: {} messages, {} tools",
        x.messages.len(),
        x.tools.len()
    );
    for f in Format::ALL {
        if f.is_text() {
            continue;
        }
        let text = f.encode(&x, Kind::Request).text;
        let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let (median, best) = measure(|| {
            std::hint::black_box(f.rules().check(&doc));
        });
        let (parse_median, _) = measure(|| {
            std::hint::black_box(serde_json::from_str::<serde_json::Value>(&text).ok());
        });
        println!(
            "{:<18} rules median {:>7.3} ms  best {:>7.3} ms  · parse the text {:>7.3} ms  ({} KB, {} findings)",
            f.id(),
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            parse_median.as_secs_f64() * 1e3,
            text.len() / 1024,
            f.rules().check(&doc).len()
        );
    }
}
