//! The format panes: the current exchange encoded in every format, with its losses.

use super::state::use_state;
use crate::formats::{Encoded, Format, Kind};
use crate::model::LossKind;
use leptos::prelude::*;

/// Right column: the request/response switch and one pane per format.
#[component]
pub fn Panes() -> impl IntoView {
    let state = use_state();
    let switch = move |kind: Kind| {
        view! {
            <button
                type="button"
                class="seg"
                aria-pressed=move || (state.kind.get() == kind).to_string()
                on:click=move |_| state.kind.set(kind)
            >
                {match kind {
                    Kind::Request => "Request",
                    Kind::Response => "Response",
                }}
            </button>
        }
    };
    view! {
        <section class="panes" aria-labelledby="panes-title">
            <div class="section-head">
                <h2 id="panes-title">"Wire formats"</h2>
                <div class="segmented" role="group" aria-label="Body shown">
                    {switch(Kind::Request)}
                    {switch(Kind::Response)}
                </div>
            </div>
            <div class="pane-grid">
                {Format::ALL.into_iter().map(|f| view! { <FormatPane format=f /> }).collect_view()}
            </div>
        </section>
    }
}

/// One format's document and what it could not carry.
#[component]
fn FormatPane(format: Format) -> impl IntoView {
    let state = use_state();
    let encoded: Memo<Encoded> =
        Memo::new(move |_| state.exchange.with(|x| format.encode(x, state.kind.get())));
    let count = move || encoded.with(|e| e.losses.len());
    view! {
        <article class="pane" data-format=format.id()>
            <header class="pane-head">
                <h3>{format.name()}</h3>
                <code class="format-id">{format.id()}</code>
                <span
                    class="badge"
                    class:clean=move || count() == 0
                    title="Elements this format drops, rewrites or adds"
                >
                    {move || match count() {
                        0 => "lossless".to_string(),
                        1 => "1 loss".to_string(),
                        n => format!("{n} losses"),
                    }}
                </span>
            </header>
            <pre class="doc"><code>{move || encoded.with(|e| e.text.clone())}</code></pre>
            <Show when=move || count() != 0>
                <details class="losses">
                    <summary>"What " {format.name()} " cannot carry"</summary>
                    <ul>
                        {move || {
                            encoded
                                .with(|e| e.losses.clone())
                                .into_iter()
                                .map(|l| {
                                    let kind = match l.kind {
                                        LossKind::Dropped => "dropped",
                                        LossKind::Rewritten => "rewritten",
                                        LossKind::Added => "added",
                                    };
                                    view! {
                                        <li>
                                            <span class=format!("kind {kind}")>{kind}</span>
                                            " "
                                            <code>{l.pointer.clone()}</code>
                                            " "
                                            {l.what.clone()}
                                            <span class="why">" — " {l.why.clone()}</span>
                                        </li>
                                    }
                                })
                                .collect_view()
                        }}
                    </ul>
                </details>
            </Show>
        </article>
    }
}
