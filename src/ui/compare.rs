//! Compare two: under the two panes, the structural comparison (each tool, call and result
//! paired across the two documents, what differs marked) and, for two documents of one
//! protocol, a line diff.

use super::state::use_state;
use crate::formats::Format;
use crate::present::compare::{compare, Line};
use leptos::prelude::*;

/// Beyond this many messages and tools, the comparison waits for a click (it encodes both
/// documents again and locates every element).
const AUTO_MAX: usize = 200;

/// The comparison of the two compared formats.
#[component]
pub fn CompareDiff(left: Format, right: Format) -> impl IntoView {
    let state = use_state();
    let asked = RwSignal::new(false);
    let big = move || {
        state
            .exchange
            .with(|x| x.messages.len() + x.tools.len() > AUTO_MAX)
    };
    let result = Memo::new(move |_| {
        if big() && !asked.get() {
            return None;
        }
        let kind = state.kind.get();
        Some(state.exchange.with(|x| compare(x, kind, left, right)))
    });
    let differing = move || {
        result.with(|r| {
            r.as_ref().map_or(0, |c| {
                c.rows.iter().filter(|r| !r.differences.is_empty()).count()
            })
        })
    };
    view! {
        <section class="card compare-diff" aria-labelledby="diff-title" data-testid="compare-diff">
            <div class="block-head">
                <h3 id="diff-title">{format!("{} vs {}, element by element", left.name(), right.name())}</h3>
                <span class="muted" data-testid="compare-summary">
                    {move || result.with(|r| r.as_ref().map(|c| format!("{} elements, {} differ", c.rows.len(), differing())))}
                </span>
            </div>
            <Show when=move || result.with(Option::is_none)>
                <button type="button" class="ghost small" on:click=move |_| asked.set(true)>"Compare the elements"</button>
            </Show>
            <Show when=move || result.with(|r| r.as_ref().is_some_and(|c| c.rows.is_empty()))>
                <p class="muted">"No tools, calls or results to pair: the line diff below, or the two panes above, show the rest."</p>
            </Show>
            <div class="diff-table-wrap" tabindex="0" role="region" aria-label="Element comparison">
                <table class="diff-table" data-testid="compare-rows">
                    <thead><tr><th scope="col">"Element"</th><th scope="col">{left.name()}</th><th scope="col">{right.name()}</th><th scope="col">"What differs"</th></tr></thead>
                    <tbody>
                        {move || result.with(|r| r.as_ref().map(|c| c.rows.iter().map(|row| {
                            let el = row.element;
                            let differs = !row.differences.is_empty();
                            view! {
                                <tr class:differs=differs data-testid="compare-row"
                                    on:mouseenter=move |_| state.hovered.set(Some(el))
                                    on:mouseleave=move |_| state.hovered.set(None)>
                                    <th scope="row">{row.label.clone()}</th>
                                    <td data-label=left.name()><pre tabindex="0">{row.left.clone().unwrap_or_else(|| "(not in this document)".into())}</pre></td>
                                    <td data-label=right.name()><pre tabindex="0">{row.right.clone().unwrap_or_else(|| "(not in this document)".into())}</pre></td>
                                    <td class="what" data-label="What differs">
                                        {if differs {
                                            view! {
                                                <ul class="differences">
                                                    {row.differences.iter().map(|d| view! { <li data-testid="compare-difference"><span class="mark" aria-hidden="true">"≠ "</span>{d.clone()}</li> }).collect_view()}
                                                </ul>
                                            }.into_any()
                                        } else {
                                            view! { <span class="muted">"alike"</span> }.into_any()
                                        }}
                                    </td>
                                </tr>
                            }
                        }).collect_view()))}
                    </tbody>
                </table>
            </div>
            {move || result.with(|r| r.as_ref().and_then(|c| c.lines.clone())).map(|lines| {
                let changed = lines.iter().filter(|l| !matches!(l, Line::Same(_))).count();
                view! {
                    <h4>{format!("Line diff ({changed} lines differ)")}</h4>
                    <pre class="line-diff" data-testid="line-diff" tabindex="0">
                        {lines.into_iter().map(|l| match l {
                            Line::Same(t) => view! { <span class="same">{format!("  {t}\n")}</span> }.into_any(),
                            Line::Left(t) => view! { <del class="left">{format!("- {t}\n")}</del> }.into_any(),
                            Line::Right(t) => view! { <ins class="right">{format!("+ {t}\n")}</ins> }.into_any(),
                        }).collect_view()}
                    </pre>
                }
            })}
        </section>
    }
}
