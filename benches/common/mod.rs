//! What the benches share: the 50-tool, 1,000-message exchange they measure, the timer, and
//! where figures go.
// Each bench uses a part of it.
#![allow(dead_code)]

use serde_json::json;
use std::time::{Duration, Instant};
use toolscope::model::*;

/// 50 tools with nested schemas and 1,000 messages: rounds of user text, an assistant turn with
/// two parallel calls, and their two results.
pub fn big_exchange() -> Exchange {
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
            hosted: None,
            custom: None,
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

/// Median and best of 15 runs of `f`.
pub fn measure(mut f: impl FnMut()) -> (Duration, Duration) {
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

/// `target/bench/`, where the benches leave their inputs and figures for `make bench`'s
/// competitor scripts and table (created if missing).
pub fn out_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench");
    let _ = std::fs::create_dir_all(&dir);
    dir
}
