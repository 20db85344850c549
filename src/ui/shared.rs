//! Helpers the views share: the page's Markdown and `code`-span text, putting the focus in a
//! field just added, the up/down/remove buttons of a card, and labels that name a feature's
//! providers from the registry. A view imports these from here, never from another view.

use super::keys;
use crate::formats::Format;
use crate::live::keys::KeyFor;
use crate::model::{Part, ResultContent, ToolResult};
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

/// The providers whose models `formats` send, each named once, in the registry's order
/// (`"OpenAI"`): labels say whose feature a setting is without naming a provider here.
pub fn providers_of(formats: impl IntoIterator<Item = Format>) -> String {
    let mut names: Vec<&str> = Vec::new();
    for name in formats
        .into_iter()
        .filter_map(|f| f.models())
        .map(|p| p.name())
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

/// Whose strict mode a tool's strict flag is: the providers of the protocols (not dialects)
/// that offer it.
pub fn strict_owner() -> String {
    providers_of(
        Format::ALL
            .into_iter()
            .filter(|f| f.protocol() == *f && f.lint_target().offers_strict),
    )
}

/// Up, down and remove buttons of a card or row.
#[component]
pub fn Mover(
    /// What is moved, for the buttons' accessible names.
    label: &'static str,
    /// Prefix of the buttons' `data-testid`s (`<id>-up`, `<id>-down`, `<id>-remove`).
    #[prop(into)]
    id: String,
    /// Move up.
    up: impl Fn() + 'static,
    /// Move down.
    down: impl Fn() + 'static,
    /// Remove.
    remove: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <span class="mover">
            <button type="button" class="icon" aria-label=format!("Move {label} up") title="Move up" data-testid=format!("{id}-up")
                on:click=move |_| up()>"↑"</button>
            <button type="button" class="icon" aria-label=format!("Move {label} down") title="Move down" data-testid=format!("{id}-down")
                on:click=move |_| down()>"↓"</button>
            <button type="button" class="icon danger" aria-label=format!("Remove {label}") title="Remove" data-testid=format!("{id}-remove")
                on:click=move |_| remove()>"✕"</button>
        </span>
    }
}

/// Remove block `k` of the result that is part `p` of message `m` (nothing when it is gone).
pub fn remove_block(x: &mut crate::model::Exchange, m: usize, p: usize, k: usize) {
    if let Some(Part::ToolResult(ToolResult {
        content: ResultContent::Blocks(bs),
        ..
    })) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p))
    {
        if k < bs.len() {
            bs.remove(k);
        }
    }
}

/// The function behind [`LiveTargets`].
type TargetFor = Box<dyn Fn(crate::live::Provider, &str) -> (crate::live::Target, KeyFor)>;

/// Where a request to a provider goes under the Live settings, and the key it may carry, in
/// context: the Cost view's "Count exactly" asks it without knowing the Live view.
#[derive(Clone, Copy)]
pub struct LiveTargets(StoredValue<TargetFor, LocalStorage>);

impl LiveTargets {
    /// Answered by `f` (the Live view's settings and keys).
    pub fn new(
        f: impl Fn(crate::live::Provider, &str) -> (crate::live::Target, KeyFor) + 'static,
    ) -> Self {
        LiveTargets(StoredValue::new_local(Box::new(f)))
    }

    /// The target for `provider` with `model`, and the key it may carry.
    pub fn target_for(
        &self,
        provider: crate::live::Provider,
        model: &str,
    ) -> (crate::live::Target, KeyFor) {
        self.0.with_value(|f| f(provider, model))
    }
}
