//! Benchmark: a 1,000-message, 50-tool exchange encoded into (and decoded from) every format.
//! `cargo bench --bench encode` prints the median and best of several runs per format; no
//! timing is asserted anywhere (the figures go into the notes).

use serde_json::json;
use std::time::{Duration, Instant};
use toolscope::formats::{Format, Kind};
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
