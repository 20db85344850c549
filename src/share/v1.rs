//! Version 1 of the state document, frozen: `tests/fixtures/share/v1.txt` must decode to
//! `v1.state.json` forever. A later version adds `v2.rs` and migrates what this one reads.
//!
//! The document is one JSON object, the same in a link (compact, deflated, base64url) and in a
//! file (pretty):
//!
//! ```json
//! {"toolscope": "state", "version": 1, "kind": "request",
//!  "panes": ["openai-chat", "anthropic"], "compare": ["openai-chat", "anthropic"],
//!  "replay": "data: …", "exchange": { …the canonical exchange… }}
//! ```
//!
//! `compare`, `replay` and `cost` (the Cost view's choices: `{"open", "model", "models",
//! "hf"}`, each optional) are left out when absent. Fields this version does not know are
//! ignored, so a later v1 writer may add optional fields without breaking older readers; a
//! change an older reader must not ignore takes a new version.

use super::{CostState, Origin, ShareError, State};
use crate::formats::{json, Kind};
use crate::model::Exchange;
use serde::{Deserialize, Serialize};

/// The `toolscope` marker of a state document.
pub const MARKER: &str = "state";

/// `kind` (v2 writes it too).
#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(super) enum KindV1 {
    /// `request`.
    Request,
    /// `response`.
    Response,
}

/// The document as written: borrowed, so writing never clones the exchange.
#[derive(Serialize)]
struct DocRef<'a> {
    toolscope: &'static str,
    version: u32,
    kind: KindV1,
    panes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<(&'a str, &'a str)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    replay: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<&'a CostState>,
    exchange: &'a Exchange,
}

/// The document as read (the header was checked before).
#[derive(Deserialize)]
struct Doc {
    kind: KindV1,
    #[serde(default)]
    panes: Vec<String>,
    #[serde(default)]
    compare: Option<(String, String)>,
    #[serde(default)]
    replay: Option<String>,
    #[serde(default)]
    cost: Option<CostState>,
    exchange: Exchange,
}

fn doc(s: &State) -> DocRef<'_> {
    DocRef {
        toolscope: MARKER,
        version: 1,
        kind: match s.kind {
            Kind::Request => KindV1::Request,
            Kind::Response => KindV1::Response,
        },
        panes: &s.panes,
        compare: s.compare.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
        replay: s.replay.as_deref(),
        cost: s.cost.as_ref(),
        exchange: &s.exchange,
    }
}

/// Compact JSON, for links.
pub fn to_compact(s: &State) -> String {
    // Serialising plain data with string keys cannot fail; an empty string would be refused on
    // reading, never silently accepted.
    serde_json::to_string(&doc(s)).unwrap_or_default()
}

/// Pretty JSON, for files.
pub fn to_pretty(s: &State) -> String {
    json::pretty(&doc(s))
}

/// Read a v1 document whose header was checked. Shape errors carry the JSON pointer and,
/// for files, the line and column.
pub fn read(text: &str, origin: Origin) -> Result<State, ShareError> {
    let d: Doc = super::parse_doc(text, origin)?;
    Ok(State {
        exchange: d.exchange,
        kind: match d.kind {
            KindV1::Request => Kind::Request,
            KindV1::Response => Kind::Response,
        },
        panes: d.panes,
        compare: d.compare,
        replay: d.replay,
        cost: d.cost,
    })
}
