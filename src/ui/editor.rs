//! The exchange editor: canonical JSON, or any provider document pasted in (detected).

use super::state::use_state;
use crate::formats::{json, Source};
use leptos::prelude::*;

/// Left column: the text the user edits and what it was read as.
#[component]
pub fn ExchangeEditor() -> impl IntoView {
    let state = use_state();
    let status = move || match state.parsed.get() {
        Ok((_, Source::Canonical)) => view! {
            <p class="status ok" role="status">"Canonical exchange"</p>
        }
        .into_any(),
        Ok((_, source @ Source::Wire(..))) => view! {
            <p class="status ok" role="status">
                "Read as " <strong>{source.label()}</strong> " — every pane converts from it"
            </p>
        }
        .into_any(),
        Err(e) => view! {
            <p class="status error" role="alert">
                {e.to_string()}
                <span class="hint">" — the panes keep the last valid exchange"</span>
            </p>
        }
        .into_any(),
    };
    let canonical = move |_| state.source.set(json::pretty(&state.exchange.get()));
    view! {
        <section class="editor" aria-labelledby="editor-title">
            <div class="section-head">
                <h2 id="editor-title">"Exchange"</h2>
                <button type="button" class="ghost" on:click=canonical title="Replace the text by the canonical JSON of the current exchange">
                    "Show canonical"
                </button>
            </div>
            <p class="help">
                "Edit the canonical JSON, or paste a request or response of any provider."
            </p>
            <textarea
                id="exchange-input"
                aria-label="Exchange JSON"
                spellcheck="false"
                autocomplete="off"
                prop:value=move || state.source.get()
                on:input=move |ev| state.source.set(event_target_value(&ev))
            ></textarea>
            {status}
        </section>
    }
}
