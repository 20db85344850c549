//! Toolscope: a tool-calling playground. One canonical exchange, rendered in every LLM
//! provider's wire format, with what each format cannot carry reported as data.
//!
//! The core (`model`, `formats`, `schema`, `rules`, `stream`, `share`, `edit`, `anchors`, `snippets`,
//! `redact`, and `live` but for its `fetch`) is
//! plain Rust with no UI imports, tested natively; the Leptos app (`ui`) exists only in the wasm
//! build with the default `ui` feature (the lazy module, `lazy/`, builds without it), the command
//! line (`cli`) only in the native one.

pub mod anchors;
pub mod cost;
pub mod edit;
pub mod examples;
pub mod formats;
pub mod history;
pub mod live;
pub mod model;
pub mod prerender;
pub mod present;
pub mod providers;
pub mod redact;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod share;
pub mod snippets;
pub mod stream;
pub mod synth;
pub mod text;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui;
