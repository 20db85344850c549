//! Benchmark input: the share links of the gallery examples and of the 1,000-message, 50-tool
//! exchange, written to `target/bench/links.json` with the state's JSON (the v1 document, what
//! a state is as JSON) for `scripts/bench-links.mjs`, which sets lz-string's
//! `compressToEncodedURIComponent` of that JSON against our `v1` and `v2` links. Prints the
//! lengths; no assertion anywhere.

use toolscope::examples::EXAMPLES;
use toolscope::formats::read_any;
use toolscope::share::{self, State};

mod common;

fn main() {
    let mut states: Vec<(String, State)> = EXAMPLES
        .iter()
        .filter_map(|e| {
            let (d, _) = read_any(e.source).ok()?;
            Some((e.id.to_string(), State::new(d.exchange)))
        })
        .collect();
    states.push((
        "large (1,000 messages, 50 tools)".into(),
        State::new(common::big_exchange()),
    ));
    let rows: Vec<serde_json::Value> = states
        .iter()
        .map(|(name, s)| {
            let json = share::v1::to_compact(s);
            let v1 = share::v1_fragment(s).unwrap_or_default();
            let v2 = share::to_fragment(s).unwrap_or_default();
            println!(
                "{name:<34} JSON {:>7}  v1 {:>7}  v2 {:>7}",
                json.len(),
                v1.len(),
                v2.len()
            );
            serde_json::json!({"name": name, "json": json, "v1": v1, "v2": v2})
        })
        .collect();
    let _ = std::fs::write(
        common::out_dir().join("links.json"),
        serde_json::Value::Array(rows).to_string(),
    );
}
