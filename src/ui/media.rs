//! Images, audio and documents as the editor and the transcript show them: a thumbnail where
//! the page may show the bytes (inline raster images; the page's policy allows `data:` images,
//! not remote ones), else a labelled chip with the type, the size or the host. Other blocks the
//! model has no type for are a compact chip with their size that opens to the JSON, never
//! wider than their box.

use crate::share::media::{self, Media};
use leptos::prelude::*;
use serde_json::Value;

/// One image, audio or document, with a remove button when `remove` is given.
#[component]
pub fn MediaChip(
    /// What it is.
    media: Media,
    /// `data-testid` of the chip (its remove button adds `-remove`).
    #[prop(into)]
    testid: String,
    /// Remove it (through `AppState::remove`, with Undo).
    #[prop(optional)]
    remove: Option<Callback<()>>,
) -> impl IntoView {
    let summary = media.summary();
    let label = media.label();
    let thumb = media.thumbnail();
    let remove_id = format!("{testid}-remove");
    let icon = match media.kind {
        media::MediaKind::Image => "IMG",
        media::MediaKind::Audio => "AUD",
        media::MediaKind::Document => "DOC",
    };
    view! {
        <figure class="media-chip" class:left-out=media.left_out() data-testid=testid data-media=label>
            {match thumb {
                Some(src) => view! { <img class="thumb" src=src alt=summary.clone() /> }.into_any(),
                None => view! { <span class="media-icon" aria-hidden="true">{icon}</span> }.into_any(),
            }}
            <figcaption>{summary.clone()}</figcaption>
            {remove.map(|r| view! {
                <button type="button" class="icon danger" aria-label=format!("Remove {label}")
                    title="Remove" data-testid=remove_id on:click=move |_| r.run(())>"✕"</button>
            })}
        </figure>
    }
}

/// A block of a format's own type (thinking, signatures, citations, …): its format, its type
/// and its size in a chip, the JSON when opened.
#[component]
pub fn RawChip(
    /// Format id of the source.
    #[prop(into)]
    format: String,
    /// The block as it was.
    value: Value,
    /// `data-testid` of the chip.
    #[prop(into)]
    testid: String,
) -> impl IntoView {
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            value
                .as_object()
                .filter(|o| o.len() == 1)
                .and_then(|o| o.keys().next().cloned())
        })
        .unwrap_or_else(|| "block".into());
    let size = media::size(serde_json::to_string(&value).map_or(0, |t| t.len()));
    // The JSON is laid out only once opened: a signature can be megabytes.
    let open = RwSignal::new(false);
    view! {
        <details class="raw-chip" data-testid=testid
            on:toggle=move |ev| {
                let d: web_sys::HtmlDetailsElement = event_target(&ev);
                open.set(d.open());
            }>
            <summary>
                <span class="tag">{format}</span>
                " " <span class="raw-kind">{kind}</span>
                " · " <span class="muted">{size}</span>
            </summary>
            {move || open.get().then(|| view! {
                // Focusable: it scrolls, and the keyboard must reach what it hides.
                <pre class="raw-json" tabindex="0" aria-label="The block's JSON">{crate::formats::json::pretty(&value)}</pre>
            })}
        </details>
    }
}
