//! Benchmark: counting the prompt tokens of a 50-tool, 1,000-message exchange (`src/cost`).
//! `cargo bench --bench cost` prints the median and best of several runs: loading each
//! vocabulary, counting one request per model family, and every round of the tool loop. No timing
//! is asserted anywhere (the figures go into the notes).

use serde_json::json;
use std::time::{Duration, Instant};
use toolscope::cost::{self, bpe::Encoding, Vocab, Vocabs};
use toolscope::model::*;

/// 50 tools with nested schemas and 1,000 messages: rounds of user text, an assistant turn with
/// two parallel calls, and their two results.
fn big_exchange() -> Exchange {
    let tools = (0..50)
        .map(|i| Tool {
            name: format!("tool_{i}"),
            description: Some(format!("Tool number {i}: does something useful with its arguments.")),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look up"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    "filters": {
                        "type": "array",
                        "items": {"type": "object", "properties": {"field": {"type": "string"}, "value": {"type": "string"}}, "required": ["field"]}
                    }
                },
                "required": ["query"]
            }),
            strict: None,
            output_schema: None,
            annotations: None,
            extra: Extra::new(),
        })
        .collect();
    let mut messages = Vec::with_capacity(1000);
    let mut n = 0;
    while messages.len() < 1000 {
        messages.push(Message::new(
            Role::User,
            vec![Part::text(format!(
                "Question {n}: find the records for customer {n}."
            ))],
        ));
        let calls: Vec<Part> = (0..2)
            .map(|k| {
                Part::ToolCall(ToolCall::new(
                    Some(format!("call_{n}_{k}")),
                    format!("tool_{}", (n + k) % 50),
                    json!({"query": format!("customer {n}"), "limit": 10, "filters": [{"field": "region", "value": "EU"}]}),
                ))
            })
            .collect();
        messages.push(Message::new(Role::Assistant, calls));
        let results: Vec<Part> = (0..2)
            .map(|k| {
                Part::ToolResult(ToolResult::new(
                    Some(format!("call_{n}_{k}")),
                    ResultContent::Text(format!("{{\"rows\": {k}, \"customer\": {n}}}")),
                ))
            })
            .collect();
        messages.push(Message::new(Role::Tool, results));
        messages.push(Message::new(
            Role::Assistant,
            vec![Part::text(format!("Customer {n} has 1 record."))],
        ));
        n += 1;
    }
    messages.truncate(1000);
    Exchange {
        system: Some("You are a records assistant.".into()),
        tools,
        messages,
        ..Exchange::default()
    }
}

fn measure(mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], times[0])
}

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
