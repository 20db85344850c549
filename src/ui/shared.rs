//! Helpers the views share: the page's Markdown and `code`-span text, and putting the focus in
//! a field just added. A view imports these from here, never from another view.

use super::keys;
use crate::present::markdown::{self, Block, Inline};
use leptos::prelude::*;

/// Markdown as elements: headings, paragraphs, lists, code, quotes, inline code, strong,
/// emphasis and safe links. Raw HTML shows as text.
#[component]
pub fn Markdown(text: String) -> impl IntoView {
    let blocks = markdown::blocks(&text);
    view! {
        <div class="md">
            {blocks.into_iter().map(|b| match b {
                Block::Heading(1, i) => view! { <h4>{inlines(i)}</h4> }.into_any(),
                Block::Heading(2, i) => view! { <h5>{inlines(i)}</h5> }.into_any(),
                Block::Heading(_, i) => view! { <h6>{inlines(i)}</h6> }.into_any(),
                Block::Para(i) => view! { <p>{inlines(i)}</p> }.into_any(),
                Block::Quote(i) => view! { <blockquote>{inlines(i)}</blockquote> }.into_any(),
                Block::Code { text, .. } => view! { <pre class="md-code">{text}</pre> }.into_any(),
                Block::List { ordered: true, items } => view! {
                    <ol>{items.into_iter().map(|i| view! { <li>{inlines(i)}</li> }).collect_view()}</ol>
                }.into_any(),
                Block::List { ordered: false, items } => view! {
                    <ul>{items.into_iter().map(|i| view! { <li>{inlines(i)}</li> }).collect_view()}</ul>
                }.into_any(),
            }).collect_view()}
        </div>
    }
}

/// Inline runs as elements (also used for the page's own messages with `code` spans).
pub fn inlines(i: Vec<Inline>) -> impl IntoView {
    i.into_iter()
        .map(|i| match i {
            Inline::Text(t) => t.into_any(),
            Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
            Inline::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
            Inline::Em(t) => view! { <em>{t}</em> }.into_any(),
            Inline::Link { text, href } => {
                view! { <a href=href target="_blank" rel="noopener noreferrer">{text}</a> }
                    .into_any()
            }
        })
        .collect_view()
}

/// A message of the page with `code` spans shown as code, not raw backticks.
pub fn rich(text: &str) -> impl IntoView {
    inlines(markdown::inlines(text))
}

/// Put the focus in the field `testid` of a message just added, ready to type (a long list
/// draws it once scrolled to its end).
pub fn focus_field(testid: String) {
    keys::focus_soon(
        format!("[data-testid=\"{testid}\"]"),
        Some("[data-testid=\"messages\"]"),
    );
}
