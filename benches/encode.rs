//! Benchmark: a 1,000-message, 50-tool exchange encoded into (and decoded from) every format.
//! `cargo bench --bench encode` prints the median and best of several runs per format; no
//! timing is asserted anywhere (the figures go into the notes).

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
    for format in Format::ALL {
        let enc = format.encode(&x, Kind::Request);
        let (median, best) = measure(|| {
            std::hint::black_box(format.encode(std::hint::black_box(&x), Kind::Request));
        });
        println!(
            "encode {:<18} median {:>8.2} ms  best {:>8.2} ms  ({} KB, {} losses)",
            format.id(),
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            enc.text.len() / 1024,
            enc.losses.len()
        );
        let (median, best) = measure(|| {
            let _ =
                std::hint::black_box(format.decode(std::hint::black_box(&enc.text), Kind::Request));
        });
        println!(
            "decode {:<18} median {:>8.2} ms  best {:>8.2} ms",
            format.id(),
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3
        );
    }
}
