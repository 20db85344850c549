//! The canonical JSON editor: Toolscope's own model as JSON. Any provider's document pasted
//! here is detected and read too.

use super::deferred::Deferred;
use super::draft::Draft;
use super::state::{use_state, Origin};
use crate::anchors::{self, Element, Span};
use crate::formats::json;
use leptos::prelude::*;

/// The exchange as canonical JSON, editable.
#[component]
pub fn CanonicalEditor() -> impl IntoView {
    let state = use_state();
    let draft = Draft::new(Origin::Canonical, None);
    // Rendered now, then after each change in its turn (after the keystroke's frame, once per
    // frame at most), as the panes are.
    let rendered = Deferred::new(state.exchange.with_untracked(json::pretty), move || {
        state.exchange.try_with_untracked(json::pretty)
    })
    .follow(move || state.exchange.track())
    .read();
    let shown = draft.shown(rendered.into());
    // Of the rendering (which follows the exchange a frame later).
    let spans: Memo<Vec<(Element, Span)>> = Memo::new(move |_| {
        rendered.with(|t| {
            state
                .exchange
                .with_untracked(|x| anchors::canonical_spans(x, t))
        })
    });
    let links = draft.links(spans);
    let status = move || {
        match draft.error.get() {
        None => view! {
            <p class="status ok" role="status">
                "Edit Toolscope's canonical JSON, or paste any provider's request or response."
            </p>
        }
        .into_any(),
        Some(e) => view! {
            <p class="status error" role="alert" data-testid="canonical-error">
                {e.to_string()}
                <span class="hint">" — the panes keep the last valid exchange. "</span>
                <button type="button" class="link" data-testid="canonical-discard" on:click=move |_| draft.discard()>"Discard my text"</button>
            </p>
        }
        .into_any(),
    }
    };
    view! {
        <section class="block canonical" aria-label="Canonical JSON">
            <div class="editor-wrap" on:focusout=move |_| draft.settle()>
            {draft.editor(shown, links, "json", "Exchange JSON".into(), "canonical-editor".into())}
            </div>
            {status}
        </section>
    }
}
