//! The native integration tests, one module per area, linked into one test binary (a binary
//! per file would link the engine dozens of times). `cargo test --test it <module>::` runs one
//! area, e.g. `cargo test --test it golden::`.
#![cfg(not(target_arch = "wasm32"))]

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod ai_sdk;
mod anchors;
mod anthropic;
mod anthropic_xml;
mod bedrock;
mod cli;
mod cli_cost;
mod cli_hf;
mod cli_lint;
mod cli_replay;
mod cohere;
mod cost;
mod deepseek;
mod detect_view;
mod docs;
mod fuzz_regressions;
mod gemini;
mod golden;
mod hf;
mod history;
mod honest_losses;
mod honest_replay;
mod hosted_everywhere;
mod layers;
mod limits;
mod live;
mod mcp;
mod mcp_live;
mod mcp_replay;
mod mistral;
mod models;
mod ollama;
mod openai_chat;
mod openai_responses;
mod real_traffic;
mod reasoning_ai_sdk;
mod reasoning_anthropic;
mod reasoning_bedrock;
mod reasoning_chat;
mod reasoning_gemini;
mod reasoning_responses;
mod redact;
mod registry;
mod roundtrip;
mod rules;
mod schema;
mod schema_diff;
mod sdk;
mod sdk_stream;
mod share;
mod share_v2;
mod snippets;
mod stream_anomalies;
mod stream_recorded;
mod stream_synth;
mod worked_dialect;
