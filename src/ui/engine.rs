//! Whether the engine's part of the wasm is here yet. `scripts/split.mjs` splits the main wasm
//! by what a first visit runs before it is interactive; the rest (the encoders, the decoders,
//! the checks) arrives right after the app has mounted. Until then the page shows the first
//! example's panes from the data the build wrote next to the static shell
//! ([`FirstView`](crate::prerender::FirstView)), so mounting calls no encoder; anything else
//! waits for [`Engine::ready`]. A function of the rest called earlier still works: the loader
//! (`js/split-loader.js`) then fetches the rest at once.

use crate::formats::{Format, Kind};
use crate::model::Exchange;
use crate::prerender::{FirstPane, FirstView, FIRST_VIEW_ID};
use crate::schema::Finding;
use leptos::prelude::*;

/// The engine's state, shared by the panes and the argument checks.
#[derive(Clone, Copy)]
pub struct Engine {
    /// The rest of the wasm is here (always, in a build that was not split).
    pub ready: RwSignal<bool>,
    /// The first example as the app opened it, and the build's first view of it; dropped once
    /// the engine is here.
    first: StoredValue<Option<(Exchange, FirstView)>>,
}

/// `<html data-engine="loading">`: the loader's mark while the rest is on its way.
fn loading() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-engine"))
        .as_deref()
        == Some("loading")
}

/// The build's first view, read once from its `<script type="application/json">` (then
/// removed: its text is the panes' text again).
fn take_first_view() -> Option<FirstView> {
    let el = web_sys::window()?
        .document()?
        .get_element_by_id(FIRST_VIEW_ID)?;
    let text = el.text_content();
    el.remove();
    serde_json::from_str(&text?).ok()
}

impl Engine {
    /// The engine's state at mount; `first` is the exchange the app opens with.
    pub fn new(first: &Exchange) -> Engine {
        let ready = RwSignal::new(!loading());
        let view = if ready.get_untracked() {
            None
        } else {
            take_first_view().map(|v| (first.clone(), v))
        };
        let engine = Engine {
            ready,
            first: StoredValue::new(view),
        };
        if !ready.get_untracked() {
            let handle = window_event_listener_untyped("toolscope:engine", move |_| {
                engine.arrived();
            });
            // The loader may have loaded it synchronously before the listener was there.
            if !loading() {
                engine.arrived();
            }
            on_cleanup(move || handle.remove());
        }
        engine
    }

    fn arrived(self) {
        if self.ready.try_get_untracked() == Some(false) {
            self.first.try_set_value(None);
            self.ready.set(true);
        }
    }

    /// While the engine is not here: `read` of the first view's pane of format `f` (its text,
    /// losses and own checks) when `x`'s request is still the first example. Untracked.
    pub fn first_pane<R>(
        &self,
        f: Format,
        kind: Kind,
        x: &Exchange,
        read: impl FnOnce(&FirstPane) -> R,
    ) -> Option<R> {
        if self.ready.get_untracked() || kind != Kind::Request {
            return None;
        }
        self.first.with_value(|v| {
            let (_, view) = v.as_ref().filter(|(first, _)| first == x)?;
            view.pane(f).map(read)
        })
    }

    /// The argument checks of `x`: the first view's while the engine is not here and `x` is
    /// the first example, nothing for another exchange until it arrives; `None` once it is here
    /// (run the checks). Tracks `ready`.
    pub fn arguments(&self, x: &Exchange) -> Option<Vec<Finding>> {
        if self.ready.get() {
            return None;
        }
        Some(self.first.with_value(|v| match v {
            Some((first, view)) if first == x => view.arguments.clone(),
            _ => Vec::new(),
        }))
    }
}
