//! The conversation as a person reads it: chat bubbles for the user and the assistant, each
//! tool call with its arguments, each result under it (errors marked), the assistant's
//! markdown rendered as elements (never as HTML).

use super::media::{MediaChip, RawChip};
use super::shared::Markdown;
use super::state::{use_state, AppState};
use crate::formats::json;
use crate::model::{Block as ContentBlock, Part, ResultContent, Role};
use crate::share::media;
use leptos::prelude::*;

/// Beyond this many messages, the transcript shows the last ones only (it is for reading).
const MAX_MESSAGES: usize = 200;

/// The transcript of the current exchange.
#[component]
pub fn Transcript() -> impl IntoView {
    let state = use_state();
    let body = move || {
        state.exchange.with(|x| {
            let skip = x.messages.len().saturating_sub(MAX_MESSAGES);
            let system = x.system.clone().filter(|s| !s.trim().is_empty()).map(|s| {
                view! {
                    <li class="bubble system" data-testid="transcript-system">
                        <span class="who">"System"</span>
                        <Markdown text=s />
                    </li>
                }
            });
            let messages = x
                .messages
                .iter()
                .enumerate()
                .skip(skip)
                .map(|(mi, m)| {
                    let (class, who) = match m.role {
                        Role::User => ("bubble user", "User"),
                        Role::Assistant => ("bubble assistant", "Assistant"),
                        Role::Tool => ("bubble tool", "Tool results"),
                    };
                    let parts = m
                        .parts
                        .iter()
                        .enumerate()
                        .map(|(pi, p)| match p {
                            Part::Text { text, .. } if text.trim().is_empty() => ().into_any(),
                            Part::Text { text, .. } => match m.role {
                                Role::Assistant => view! { <Markdown text=text.clone() /> }.into_any(),
                                _ => view! { <p class="plain">{text.clone()}</p> }.into_any(),
                            },
                            Part::ToolCall(c) => view! {
                                <div class="call" data-testid="transcript-call">
                                    <span class="tag">"tool call"</span>
                                    " "
                                    <code class="name">{c.name.clone()}</code>
                                    {c.id.clone().map(|id| view! { <span class="muted">" · " {id}</span> })}
                                    <pre class="args">{if c.arguments_invalid() { c.arguments_text() } else { json::pretty(&c.arguments) }}</pre>
                                </div>
                            }
                            .into_any(),
                            Part::ToolResult(r) => {
                                let of = r
                                    .call_id
                                    .clone()
                                    .or_else(|| r.name.clone())
                                    .unwrap_or_default();
                                view! {
                                    <div class="result" class:error=r.is_error data-testid="transcript-result">
                                        <span class="tag" class:warn=r.is_error>{if r.is_error { "error result" } else { "tool result" }}</span>
                                        " "
                                        <span class="muted">{of}</span>
                                        {Some(r.content.to_text()).filter(|t| !t.is_empty()).map(|t| view! { <pre class="content">{t}</pre> })}
                                        {result_blocks(state, mi, pi, &r.content)}
                                    </div>
                                }
                                .into_any()
                            }
                            Part::Reasoning(r) => {
                                let sealed = r.opaque.as_ref().map(|o| o.what());
                                let text = r.readable();
                                view! {
                                    <details class="reasoning" data-testid="transcript-reasoning">
                                        <summary>
                                            <span class="tag">"reasoning"</span>
                                            {sealed.map(|s| view! { <span class="muted">" · " {s}</span> })}
                                        </summary>
                                        {(!text.is_empty()).then(|| view! { <pre class="content">{text}</pre> })}
                                    </details>
                                }
                                .into_any()
                            }
                            Part::Hosted(h) => view! {
                                <div class="call hosted" data-testid="transcript-hosted">
                                    <span class="tag">"run by the provider"</span>
                                    " "
                                    <code class="name">{h.what()}</code>
                                    {h.id.clone().map(|id| view! { <span class="muted">" · " {id}</span> })}
                                </div>
                            }
                            .into_any(),
                            Part::Raw { format, value } => match media::of_value(value) {
                                Some(md) => {
                                    let noun = md.label();
                                    let remove = Callback::new(move |()| {
                                        state.remove(
                                            format!("the {noun} of message {}", mi + 1),
                                            move |x| crate::edit::remove_part(x, mi, pi),
                                        )
                                    });
                                    view! { <MediaChip media=md testid=format!("transcript-media-{mi}-{pi}") remove=remove /> }
                                        .into_any()
                                }
                                None => view! {
                                    <RawChip format=format.clone() value=value.clone() testid=format!("transcript-raw-{mi}-{pi}") />
                                }
                                .into_any(),
                            },
                        })
                        .collect_view();
                    view! {
                        <li class=class data-testid="transcript-message">
                            <span class="who">{who}</span>
                            {parts}
                        </li>
                    }
                })
                .collect_view();
            view! {
                {(skip > 0).then(|| view! { <li class="muted">{format!("{skip} earlier messages not shown")}</li> })}
                {system}
                {messages}
            }
        })
    };
    view! {
        <section class="card transcript" aria-label="Transcript" data-testid="transcript">
            <ol class="bubbles">{body}</ol>
        </section>
    }
}

/// The images, documents and other blocks of a tool result, each removable.
fn result_blocks(state: AppState, m: usize, p: usize, content: &ResultContent) -> impl IntoView {
    let ResultContent::Blocks(bs) = content else {
        return None;
    };
    let chips = bs
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            let testid = format!("transcript-block-{m}-{p}-{k}");
            match (media::of_block(b), b) {
                (Some(md), _) => {
                    let noun = md.label();
                    let remove = Callback::new(move |()| {
                        state.remove(
                            format!("the {noun} of the result in message {}", m + 1),
                            move |x| super::shared::remove_block(x, m, p, k),
                        )
                    });
                    Some(view! { <MediaChip media=md testid=testid remove=remove /> }.into_any())
                }
                (None, ContentBlock::Raw { format, value }) => Some(
                    view! { <RawChip format=format.clone() value=value.clone() testid=testid /> }
                        .into_any(),
                ),
                (None, _) => None,
            }
        })
        .collect::<Vec<_>>();
    (!chips.is_empty()).then(|| view! { <div class="media-list">{chips}</div> })
}
