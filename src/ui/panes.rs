//! The right column: which panes show (picker, compare two), request or response bodies, and
//! the grid of format panes.

use super::pane::FormatPane;
use super::state::use_state;
use crate::formats::{Format, Kind};
use crate::schema::{self, LintOptions, Target};
use leptos::prelude::*;

/// The toolbar and the grid.
#[component]
pub fn Panes() -> impl IntoView {
    let state = use_state();
    let switch = move |kind: Kind| {
        view! {
            <button
                type="button"
                class="seg"
                data-testid=format!("view-{}", kind.as_str())
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
    let shown = move || -> Vec<Format> {
        match state.compare.get() {
            Some((a, b)) => vec![a, b],
            None => state.panes.get(),
        }
    };
    view! {
        <section class="panes" aria-labelledby="panes-title">
            <div class="section-head panes-bar">
                <h2 id="panes-title">"Wire formats"</h2>
                <div class="bar-controls">
                    <div class="segmented" role="group" aria-label="Body shown">
                        {switch(Kind::Request)}
                        {switch(Kind::Response)}
                    </div>
                    <PanePicker />
                    <ComparePicker />
                    <FixAll shown=Signal::derive(shown) />
                </div>
            </div>
            <div class="pane-grid" class:compare=move || state.compare.with(Option::is_some) data-testid="pane-grid">
                <For each=shown key=|f| f.id() let:f>
                    <FormatPane format=f />
                </For>
            </div>
            {move || state.compare.get().map(|(a, b)| view! { <super::compare::CompareDiff left=a right=b /> })}
        </section>
    }
}

/// "Fix for every visible format": one exchange that passes every shown format's checks, or
/// a statement of which formats conflict and on what.
#[component]
fn FixAll(shown: Signal<Vec<Format>>) -> impl IntoView {
    let state = use_state();
    let fix = move |_| {
        let targets: Vec<Target> = shown
            .get_untracked()
            .into_iter()
            .filter_map(|f| Target::from_id(f.id()))
            .collect();
        let r = state
            .exchange
            .with_untracked(|x| schema::fix_for_targets(x, &targets, LintOptions::default()));
        if !r.applied.is_empty() {
            let fixed = r.exchange.clone();
            state.edit(move |x| *x = fixed);
        }
        if r.conflicts.is_empty() {
            state.say(r.summary());
        } else {
            state.say_error(r.summary());
        }
    };
    view! {
        <button type="button" class="ghost small" data-testid="fix-all"
            title="Apply the fixes of every shown format's checks at once, or say which formats conflict"
            on:click=fix>
            "Fix for every visible format"
        </button>
    }
}

/// Checkboxes: which formats have a pane, in the engine's order.
#[component]
fn PanePicker() -> impl IntoView {
    let state = use_state();
    let toggle = move |f: Format| {
        state.panes.update(|p| {
            if p.contains(&f) {
                p.retain(|x| *x != f);
            } else {
                p.push(f);
                p.sort_by_key(|x| Format::ALL.iter().position(|y| y == x));
            }
        });
    };
    view! {
        <details class="menu" data-testid="pane-picker">
            <summary class="ghost small">
                {move || format!("Panes {}/{}", state.panes.with(Vec::len), Format::ALL.len())}
            </summary>
            <div class="menu-items picker-list">
                {Format::ALL
                    .into_iter()
                    .map(|f| {
                        view! {
                            <label class="check">
                                <input
                                    type="checkbox"
                                    data-testid=format!("show-{}", f.id())
                                    prop:checked=move || state.panes.with(|p| p.contains(&f))
                                    on:change=move |_| toggle(f)
                                />
                                {f.name()}
                            </label>
                        }
                    })
                    .collect_view()}
                <div class="picker-actions">
                    <button type="button" class="ghost small" data-testid="panes-all" on:click=move |_| state.panes.set(Format::ALL.to_vec())>"All"</button>
                    <button type="button" class="ghost small" data-testid="panes-big-three"
                        on:click=move |_| state.panes.set(Format::DEFAULT_PANES.to_vec())>
                        "Big three"
                    </button>
                </div>
            </div>
        </details>
    }
}

/// Two formats side by side.
#[component]
fn ComparePicker() -> impl IntoView {
    let state = use_state();
    let options = move |selected: Format| {
        Format::ALL
            .into_iter()
            .map(|f| view! { <option value=f.id() selected=f == selected>{f.name()}</option> })
            .collect_view()
    };
    let pick = move |left: bool, id: String| {
        let Some(f) = Format::from_id(&id) else {
            return;
        };
        state.compare.update(|c| {
            let (a, b) = c.unwrap_or(Format::DEFAULT_COMPARE);
            *c = Some(if left { (f, b) } else { (a, f) });
        });
    };
    view! {
        <div class="compare" role="group" aria-label="Compare two formats">
            <Show
                when=move || state.compare.with(Option::is_some)
                fallback=move || view! {
                    <button type="button" class="ghost small" data-testid="compare-open"
                        on:click=move |_| state.compare.set(Some(Format::DEFAULT_COMPARE))>
                        "Compare two"
                    </button>
                }
            >
                {move || {
                    let (a, b) = state.compare.get().unwrap_or(Format::DEFAULT_COMPARE);
                    view! {
                        <select aria-label="Left format" data-testid="compare-left"
                            on:change=move |ev| pick(true, event_target_value(&ev))>{options(a)}</select>
                        <span class="vs">"vs"</span>
                        <select aria-label="Right format" data-testid="compare-right"
                            on:change=move |ev| pick(false, event_target_value(&ev))>{options(b)}</select>
                    }
                }}
                <button type="button" class="ghost small" data-testid="compare-close"
                    on:click=move |_| state.compare.set(None)>"Show all"</button>
            </Show>
        </div>
    }
}
