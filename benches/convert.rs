//! Benchmark: OpenAI Chat → Anthropic for a 1,000-message, 50-tool request, in process, against
//! its floor: a bare serde_json parse and pretty print of the same bytes (what any conversion
//! must at least do). `cargo bench --bench convert` prints the median of several runs and the
//! ratio; no timing is asserted anywhere.
//!
//! The conversion is what the page and the CLI do with a paste: `read_any` (detection and
//! decoding) then the Anthropic encoder, rendered as text. It writes the OpenAI request to
//! `target/bench/openai-request.json` (the input of LiteLLM's conversion in
//! `scripts/bench-competitors.py`) and its figures to `target/bench/convert.json`.

use std::time::Duration;
use toolscope::formats::{read_any, Format, Kind};

mod common;

use common::{big_exchange, measure, out_dir};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let x = big_exchange();
    let text = Format::OpenAiChat.encode(&x, Kind::Request).text;
    let convert = |text: &str| {
        let (decoded, _) = read_any(text).expect("the bench request reads");
        Format::Anthropic.encode(&decoded.exchange, Kind::Request)
    };
    let out = convert(&text);
    println!(
        "OpenAI Chat request: {} messages, {} tools, {} KB → Anthropic {} KB ({} losses)",
        x.messages.len(),
        x.tools.len(),
        text.len() / 1024,
        out.text.len() / 1024,
        out.losses.len()
    );

    let (floor, floor_best) = measure(|| {
        let v: serde_json::Value = serde_json::from_str(std::hint::black_box(&text)).expect("json");
        std::hint::black_box(serde_json::to_string_pretty(&v).expect("pretty"));
    });
    let (ours, ours_best) = measure(|| {
        std::hint::black_box(convert(std::hint::black_box(&text)));
    });
    // The parts, to see where the time goes (best runs): `read_any` is the conversion's first
    // half; `detect` and `decode` are the same work done separately from the text.
    let (_, detect) = measure(|| {
        std::hint::black_box(Format::detect(std::hint::black_box(&text)).ok());
    });
    let (_, read) = measure(|| {
        std::hint::black_box(read_any(std::hint::black_box(&text)).ok());
    });
    let (_, decode) = measure(|| {
        std::hint::black_box(Format::OpenAiChat.decode(&text, Kind::Request).ok());
    });
    let (_, encode) = measure(|| {
        std::hint::black_box(Format::Anthropic.encode(std::hint::black_box(&x), Kind::Request));
    });
    // The ratio of the best runs: on a shared machine the medians carry other jobs' load.
    let ratio = ours_best.as_secs_f64() / floor_best.as_secs_f64();
    println!(
        "floor (serde_json parse + pretty)  median {:>8.2} ms  best {:>8.2} ms",
        ms(floor),
        ms(floor_best)
    );
    println!(
        "openai-chat → anthropic            median {:>8.2} ms  best {:>8.2} ms  = {ratio:.2}× the floor (best)",
        ms(ours),
        ms(ours_best)
    );
    println!(
        "  parts: read_any {:.2} ms (detect alone {:.2} ms, decode openai-chat alone {:.2} ms), encode anthropic {:.2} ms",
        ms(read),
        ms(detect),
        ms(decode),
        ms(encode)
    );

    let dir = out_dir();
    let _ = std::fs::write(dir.join("openai-request.json"), &text);
    let figures = serde_json::json!({
        "bytes": text.len(),
        "floor_ms": ms(floor_best),
        "convert_ms": ms(ours_best),
        "floor_median_ms": ms(floor),
        "convert_median_ms": ms(ours),
        "ratio": ratio,
    });
    let _ = std::fs::write(dir.join("convert.json"), figures.to_string());
}
