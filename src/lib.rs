//! Toolscope: a tool-calling playground. One canonical exchange, rendered in every LLM
//! provider's wire format, with what each format cannot carry reported as data.
//!
//! The core (`model`, `formats`) is plain Rust with no UI imports, tested natively; the Leptos
//! app (`ui`) exists only in the wasm build, the command line (`cli`) only in the native one.

pub mod anchors;
pub mod examples;
pub mod formats;
pub mod model;
pub mod schema;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;
