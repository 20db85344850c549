//! AppState: the signals of the page, in context. Everything shown is derived from them.

use crate::examples::EXAMPLES;
use crate::formats::{read_any, DecodeError, Kind, Source};
use crate::model::Exchange;
use leptos::prelude::*;

/// The page's state.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The editor's text, as typed.
    pub source: RwSignal<String>,
    /// Request or response bodies in the panes.
    pub kind: RwSignal<Kind>,
    /// The editor text read as an exchange, or why it cannot be.
    pub parsed: Memo<Result<(Exchange, Source), DecodeError>>,
    /// The last exchange that parsed: what every pane shows while the editor holds broken text.
    pub exchange: Memo<Exchange>,
}

impl AppState {
    /// Fresh state showing the first example.
    pub fn new() -> Self {
        let source = RwSignal::new(
            EXAMPLES
                .first()
                .map(|e| e.json.to_string())
                .unwrap_or_default(),
        );
        let parsed = Memo::new(move |_| source.with(|t| read_any(t)).map(|(d, s)| (d.exchange, s)));
        let exchange = Memo::new(move |prev: Option<&Exchange>| match parsed.get() {
            Ok((x, _)) => x,
            Err(_) => prev.cloned().unwrap_or_default(),
        });
        AppState {
            source,
            kind: RwSignal::new(Kind::Request),
            parsed,
            exchange,
        }
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

/// The state in context (provided by `App`).
pub fn use_state() -> AppState {
    expect_context::<AppState>()
}
