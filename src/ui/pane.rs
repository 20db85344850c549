//! One format pane: the exchange in that format (editable), what the format loses, the
//! provider's lint findings with their fixes, argument errors, and how the format differs.

use super::deferred::Deferred;
use super::draft::Draft;
use super::io;
use super::schedule::Job;
use super::state::{use_state, Origin};
use crate::anchors::{self, Element, Span};
use crate::formats::{notes, Encoded, Format, Kind};
use crate::model::{Loss, LossKind};
use crate::rules;
use crate::schema::{self, Finding, LintOptions, Severity, Target};
use crate::snippets::Lang;
use leptos::prelude::*;

/// One format's document and what it tells.
#[component]
pub fn FormatPane(format: Format) -> impl IntoView {
    let id = format.id();
    let draft = Draft::new(Origin::Pane(format), Some(format));
    let (encoded, lints, spans, stale, found) = pane_work(format, draft.text);
    let rendered = Signal::derive(move || encoded.with(|e| e.text.clone()));
    let shown = draft.shown(rendered);
    let links = draft.links(spans.memo);
    let rejected = move || {
        found.with(|r| {
            r.iter()
                .filter(|f| f.severity == rules::Severity::Error)
                .count()
        })
    };
    let degraded = move || found.with(Vec::len) - rejected();
    let lint_problems =
        move || lints.with(|l| l.iter().filter(|f| f.severity != Severity::Info).count());
    let problems = move || lint_problems() + found.with(Vec::len);
    let suggested = move || lints.with(Vec::len) - lint_problems();
    let losses = move || encoded.with(|e| crate::model::count_losses(&e.losses));
    let notes = move || encoded.with(|e| e.losses.len()) - losses();
    let note = notes::note(format);
    // The lists are built only while open: closed, they cost nothing per keystroke.
    let losses_open = RwSignal::new(false);
    let lints_open = RwSignal::new(false);
    let lang = if format.is_text() { "text" } else { "json" };

    view! {
        <article class="pane" data-format=id data-testid=format!("pane-{id}") node_ref=spans.host
            aria-busy=move || stale.get().to_string()>
            <header class="pane-head">
                <h3>{format.name()}</h3>
                <code class="format-id">{id}</code>
                <span
                    class="badge"
                    class:clean=move || losses() == 0
                    data-testid=format!("losses-badge-{id}")
                    title="Elements this format drops, rewrites or adds"
                >
                    {move || match losses() {
                        0 => "lossless".to_string(),
                        1 => "1 loss".to_string(),
                        n => format!("{n} losses"),
                    }}
                </span>
                <span
                    class="badge lint"
                    class:clean=move || problems() == 0
                    data-testid=format!("lint-badge-{id}")
                    class:rejected=move || rejected() != 0
                    title=move || format!("This provider's conversation rules, lint and argument checks: {} to fix ({} the provider rejects), {} suggested", problems(), rejected(), suggested())
                >
                    {move || {
                        let head = match (rejected(), problems()) {
                            (0, 0) => "checks pass".to_string(),
                            (0, 1) => "1 finding".to_string(),
                            (0, n) => format!("{n} findings"),
                            (r, n) if r == n => format!("will be rejected: {r}"),
                            (r, n) => format!("will be rejected: {r} · {} more", n - r),
                        };
                        match suggested() {
                            0 => head,
                            s => format!("{head} · {s} suggested"),
                        }
                    }}
                </span>
                <CopyMenu format=format text=shown />
            </header>
            <div class="editor-wrap" on:focusout=move |_| draft.settle()
                on:pointerenter=move |_| spans.pointer_in.set(true)
                on:pointerleave=move |_| spans.pointer_in.set(false)>
            {draft.editor(shown, links, lang, format!("{} document", format.name()), format!("editor-{id}"))}
            </div>
            <Show when=move || draft.foreign.with(Option::is_some) && draft.text.with(Option::is_some)>
                <p class="pane-foreign" role="status" data-testid=format!("pane-foreign-{id}")>
                    {move || draft.foreign.get().map(|s| match s {
                        crate::formats::Source::Wire(f, k) => format!("Read as {} {}: this pane holds a foreign document until you leave it, then shows it as {}. ", f.name(), k.as_str(), format.name()),
                        crate::formats::Source::Canonical => format!("Read as canonical JSON: shown as {} when you leave the editor. ", format.name()),
                    })}
                    <button type="button" class="link" data-testid=format!("show-own-{id}") on:click=move |_| draft.settle()>
                        {format!("Show as {} now", format.name())}
                    </button>
                </p>
            </Show>
            <Show when=move || draft.error.with(Option::is_some)>
                <p class="pane-error" role="alert" data-testid=format!("pane-error-{id}")>
                    {move || draft.error.get().map(|e| e.to_string())}
                    <span class="hint">" — the other panes keep the last valid exchange. "</span>
                    <button type="button" class="link" data-testid=format!("discard-{id}") on:click=move |_| draft.discard()>
                        "Discard my text"
                    </button>
                </p>
            </Show>
            <div class="pane-info">
                <details class="losses" data-testid=format!("losses-{id}")
                    on:toggle=move |ev| losses_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                    <summary class:has-losses=move || losses() != 0>
                        {move || {
                            let head = match losses() {
                                0 => format!("{} carries everything", format.name()),
                                n => format!("What {} cannot carry ({n})", format.name()),
                            };
                            match notes() {
                                0 => head,
                                1 => format!("{head} · 1 note"),
                                n => format!("{head} · {n} notes"),
                            }
                        }}
                    </summary>
                    <ul>
                        {move || losses_open.get().then(|| {
                            let places = loss_places(format, encoded);
                            // Reasoning state comes last, under a heading of its own: it is
                            // dropped for one reason (only its issuer can verify it), not per element.
                            let (plain, reasoning): (Vec<_>, Vec<_>) = encoded
                                .with(|e| e.losses.clone())
                                .into_iter()
                                .zip(places)
                                .partition(|(l, _)| l.kind != LossKind::Reasoning);
                            let heading = (!reasoning.is_empty()).then(|| view! {
                                <li class="loss-group" data-testid="reasoning-losses">
                                    {format!("Reasoning ({}): state only the provider that issued it can verify, and thinking {} has no place for", reasoning.len(), format.name())}
                                </li>
                            });
                            let item = |(l, place): (Loss, String)| view! { <LossItem loss=l place=place /> };
                            view! {
                                {plain.into_iter().map(item).collect_view()}
                                {heading}
                                {reasoning.into_iter().map(item).collect_view()}
                            }
                        })}
                    </ul>
                </details>
                <Show when=move || found.with(|r| !r.is_empty())>
                    <details class="rules" open=true data-testid=format!("rules-{id}")>
                        <summary class:rejected=move || rejected() != 0>
                            {move || match (rejected(), degraded()) {
                                (0, w) => format!("{} accepts this, with {w} warning(s)", format.name()),
                                (e, 0) => format!("{} will reject this request ({e})", format.name()),
                                (e, w) => format!("{} will reject this request ({e}; {w} warning(s))", format.name()),
                            }}
                        </summary>
                        <ul>
                            {move || found.get().into_iter().map(|f| view! { <RuleItem finding=f format=format encoded=encoded /> }).collect_view()}
                        </ul>
                    </details>
                </Show>
                <details class="lints" data-testid=format!("lints-{id}")
                    on:toggle=move |ev| lints_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                    <summary>
                        {move || {
                            let (n, all) = (lint_problems(), lints.with(Vec::len));
                            match (n, all - n) {
                                (0, 0) => format!("{}: every check passes", format.name()),
                                (n, 0) => format!("Checks for {} ({n} to fix)", format.name()),
                                (0, s) => format!("Checks for {}: every check passes ({s} suggested)", format.name()),
                                (n, s) => format!("Checks for {} ({n} to fix, {s} suggested)", format.name()),
                            }
                        }}
                    </summary>
                    <ul>
                        {move || lints_open.get().then(|| lints.get().into_iter().map(|f| view! { <FindingItem finding=f format=format /> }).collect_view())}
                    </ul>
                </details>
                <details class="note">
                    <summary>"How " {format.name()} " differs"</summary>
                    <dl>
                        <dt>"Arguments"</dt><dd>{note.arguments}</dd>
                        <dt>"Results"</dt><dd>{note.results}</dd>
                        <dt>"Ids"</dt><dd>{note.ids}</dd>
                        <dt>"Tool choice"</dt><dd>{note.choice}</dd>
                        <dt>"Also"</dt><dd>{note.other}</dd>
                    </dl>
                </details>
            </div>
        </article>
    }
}

/// Up to this many messages and tools, a pane's first encoding is made at once (the first
/// paint shows it); beyond, it waits for its turn (`schedule`), panes in view first. Later
/// encodings always wait for their turn.
const SMALL: usize = 64;

/// What [`pane_work`] gives a pane: the encoding, the lint and argument findings, the spans,
/// whether the encoding waits for its turn, and the provider rules broken.
type PaneWork = (
    RwSignal<Encoded>,
    ReadSignal<Vec<Finding>>,
    SpanWork,
    RwSignal<bool>,
    ReadSignal<Vec<rules::Finding>>,
);

/// Where a pane's element spans come from, and what asks for them.
struct SpanWork {
    /// The spans of the current rendering (empty until computed).
    memo: Memo<Vec<(Element, Span)>>,
    /// The pointer is over the pane's text: hovering needs the spans.
    pointer_in: RwSignal<bool>,
    /// The pane's element (its visibility orders the work).
    host: NodeRef<leptos::html::Article>,
}

/// A pane's derived data, computed by [`Job`]s: the encoding when the exchange or the view
/// changes, then the findings, and the element spans when something is to be highlighted. The
/// last signal is true while the encoding waits for its turn.
fn pane_work(format: Format, typed: RwSignal<Option<String>>) -> PaneWork {
    let state = use_state();
    let encoded = RwSignal::new(Encoded {
        text: String::new(),
        losses: Vec::new(),
    });
    let spans: RwSignal<Option<Vec<(Element, Span)>>> = RwSignal::new(None);
    let stale = RwSignal::new(false);
    let pointer_in = RwSignal::new(false);
    let host = NodeRef::<leptos::html::Article>::new();
    let need_encode = StoredValue::new(true);
    let target = Target::from_id(format.id());
    let opts = LintOptions::for_pane(format);
    // Element spans are found in one pass over the pane's text (`anchors::spans_in`), at any
    // size, but only once something is to be highlighted.
    let wants_spans = move || {
        pointer_in.try_get_untracked().unwrap_or(false)
            || state.hovered.try_with_untracked(Option::is_some) == Some(true)
            || state.selected.try_with_untracked(Option::is_some) == Some(true)
    };
    let run = move || {
        // The pane may have left the page while its turn was coming.
        let Some(kind) = state.kind.try_get_untracked() else {
            return;
        };
        if need_encode.try_get_value() == Some(true) {
            // Before the engine is here, only the first example's panes can be shown (from the
            // build's first view); any other exchange waits for it.
            let e = if state.engine.ready.get_untracked() {
                state.exchange.with_untracked(|x| format.encode(x, kind))
            } else {
                let first = state.exchange.with_untracked(|x| {
                    state.engine.first_pane(format, kind, x, |p| Encoded {
                        text: p.text.clone(),
                        losses: p.losses.clone(),
                    })
                });
                let Some(e) = first else {
                    if !stale.get_untracked() {
                        stale.set(true);
                    }
                    return;
                };
                e
            };
            need_encode.set_value(false);
            // Unchanged (an edit this format does not show): nothing to hand to the editor.
            if encoded.with_untracked(|old| *old != e) {
                encoded.set(e);
                if spans.with_untracked(Option::is_some) {
                    spans.set(None);
                }
            }
            if stale.get_untracked() {
                stale.set(false);
            }
        }
        if wants_spans() && spans.try_with_untracked(Option::is_none) == Some(true) {
            let s = state.exchange.with_untracked(|x| {
                encoded.with_untracked(|e| anchors::spans_in(x, format, kind, &e.text))
            });
            spans.set(Some(s));
        }
    };
    let job = StoredValue::new_local(Job::new(run));
    // The provider's conversation rules, on the document the pane shows, in a turn of their
    // own after the encoding (one parse of the text and one pass over it).
    // Each new rendering asks for them again.
    let found = Deferred::later(Vec::new(), move || {
        let kind = state.kind.try_get_untracked()?;
        Some(if kind == Kind::Request && !format.is_text() {
            encoded.with_untracked(|e| {
                serde_json::from_str::<serde_json::Value>(&e.text)
                    .map(|v| format.rules().check(&v))
                    .unwrap_or_default()
            })
        } else {
            Vec::new()
        })
    })
    .follow(move || encoded.track());
    found.request();
    // The findings (the badges' counts) in a turn of their own: at thousands of messages an
    // encoding and a lint together made one task too long.
    let checks = Deferred::later(Vec::new(), move || {
        let ready = state.engine.ready.try_get_untracked() == Some(true);
        // Nothing when the pane is gone, or (not the first example, no engine yet) until the
        // engine arrives.
        let mut l = state.exchange.try_with_untracked(|x| {
            if ready {
                Some(target.map(|t| schema::lint(x, t, opts)).unwrap_or_default())
            } else {
                state
                    .engine
                    .first_pane(format, Kind::Request, x, |p| p.lints.clone())
            }
        })??;
        let mut found = state.arguments.get_untracked();
        found.append(&mut l);
        Some(found)
    });
    let small = move || {
        state
            .exchange
            .with_untracked(|x| x.messages.len() + x.tools.len() <= SMALL)
    };
    // After a change, every pane's work waits for its turn (after the next paint, panes in
    // view first), whatever the size: the keystroke's own frame carries none of it.
    let go = move || job.with_value(Job::request);
    let recheck = move || checks.request();
    // The first encoding: at once when small (the first paint shows it), else in its turn.
    if small() {
        job.with_value(Job::run_now);
        checks.run_now();
    } else {
        stale.set(true);
        go();
        recheck();
    }
    // While the pane holds what the user types, its own rendering (its badges' counts) waits
    // until the keys stop, as a pane out of view does: each key costs one encoding less.
    Effect::new(move |_| {
        let held = typed.with(Option::is_some);
        job.with_value(|j| j.set_deferred(held));
        checks.set_deferred(held);
        found.set_deferred(held);
    });
    Effect::new(move |_| {
        if let Some(el) = host.get() {
            let el: web_sys::Element = el.into();
            job.with_value(|j| j.set_host(Some(el.clone())));
            checks.set_host(Some(el.clone()));
            found.set_host(Some(el));
        }
    });
    // The exchange or the view changed: re-encode (the first run is the mount).
    Effect::new(move |first: Option<()>| {
        state.exchange.track();
        state.kind.track();
        if first.is_none() {
            return;
        }
        need_encode.set_value(true);
        if !small() && !stale.get_untracked() {
            stale.set(true);
        }
        go();
        recheck();
    });
    // The engine arrived (a split build): encode and check what the first view stood for.
    Effect::new(move |first: Option<()>| {
        if !state.engine.ready.get() || first.is_none() {
            return;
        }
        need_encode.set_value(true);
        go();
        recheck();
    });
    // Something to highlight, or the pointer over the text: the spans are needed.
    Effect::new(move |_| {
        let wanted = pointer_in.get()
            || state.hovered.with(Option::is_some)
            || state.selected.with(Option::is_some);
        if wanted && wants_spans() && spans.with(Option::is_none) && !job.with_value(Job::is_stale)
        {
            go();
        }
    });
    let memo = Memo::new(move |_| spans.get().unwrap_or_default());
    (
        encoded,
        checks.read(),
        SpanWork {
            memo,
            pointer_in,
            host,
        },
        stale,
        found.read(),
    )
}

/// Where each loss sits in the pane's own document: the pointer into the emitted document
/// when the format says where the element went, else the line where the element starts.
fn loss_places(format: Format, encoded: RwSignal<Encoded>) -> Vec<String> {
    let state = use_state();
    let kind = state.kind.get_untracked();
    encoded.with_untracked(|e| {
        let spans = state
            .exchange
            .with_untracked(|x| anchors::spans_in(x, format, kind, &e.text));
        e.losses
            .iter()
            .map(|l| {
                if let Some(t) = &l.target {
                    return t.clone();
                }
                let el = state
                    .exchange
                    .with_untracked(|x| Element::in_exchange(x, &l.pointer));
                let start =
                    el.and_then(|el| spans.iter().find(|(s, _)| *s == el).map(|(_, sp)| sp.start));
                match start {
                    Some(at) => format!(
                        "line {}",
                        e.text[..at.min(e.text.len())].matches('\n').count() + 1
                    ),
                    None => "not in this document".to_string(),
                }
            })
            .collect()
    })
}

/// One loss: what, where in the pane's document (click selects the element; the canonical
/// pointer is in the tooltip), why.
#[component]
fn LossItem(loss: Loss, place: String) -> impl IntoView {
    let state = use_state();
    let kind = match loss.kind {
        LossKind::Dropped => "dropped",
        LossKind::Rewritten => "rewritten",
        LossKind::Added => "added",
        LossKind::Note => "note",
        LossKind::Reasoning => "reasoning",
    };
    let el = state
        .exchange
        .with_untracked(|x| Element::in_exchange(x, &loss.pointer));
    let pointer = loss.pointer.clone();
    view! {
        <li
            class:linked=move || el.is_some() && state.focus() == el
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
        >
            <span class=format!("kind {kind}")>{kind}</span>
            " "
            <button type="button" class="pointer" title=format!("In the canonical exchange: {pointer}. Click to select this element everywhere") data-testid="loss-pointer"
                on:click=move |_| state.selected.set(el)>
                <code>{place}</code>
            </button>
            " "
            {super::shared::rich(&loss.what)}
            <span class="why">" — " {super::shared::rich(&loss.why)}</span>
        </li>
    }
}

/// One lint or argument finding, with its fix button when it has one.
#[component]
fn FindingItem(finding: Finding, format: Format) -> impl IntoView {
    let state = use_state();
    let sev = finding.severity.as_str();
    let el = state
        .exchange
        .with_untracked(|x| Element::in_exchange(x, &finding.pointer));
    let fix = finding.fix.clone();
    let label = match &fix {
        Some(schema::Fix::MakeStrict { .. }) => "Make strict",
        Some(schema::Fix::Rename { .. }) => "Rename",
        Some(schema::Fix::Description { .. }) => "Add description",
        Some(schema::Fix::Schema { .. }) => "Fix schema",
        None => "",
    };
    let has_fix = fix.is_some();
    // What this fix would bring up for the other visible formats, said before it is applied.
    let effects = {
        let fix = fix.clone();
        Memo::new(move |_| {
            let Some(f) = &fix else { return String::new() };
            let others: Vec<Target> = state.panes.with(|p| {
                p.iter()
                    .filter(|o| **o != format)
                    .filter_map(|o| Target::from_id(o.id()))
                    .collect()
            });
            let found = state
                .exchange
                .with(|x| schema::side_effects(x, f, &others, LintOptions::default()));
            side_effects_text(&found)
        })
    };
    let apply = move |_| {
        if let Some(f) = &fix {
            let also = effects.get_untracked();
            state.edit(|x| schema::apply(x, f));
            if also.is_empty() {
                state.say(format!("Applied: {label} ({})", format.name()));
            } else {
                state.say(format!("Applied: {label} ({}); {also}", format.name()));
            }
        }
    };
    let title = move || match effects.get() {
        e if e.is_empty() => format!("{label} for {}", format.name()),
        e => format!("{label} for {}; {e}", format.name()),
    };
    view! {
        <li
            class=format!("finding {sev}")
            class:linked=move || el.is_some() && state.focus() == el
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
        >
            <span class=format!("sev {sev}")>{sev}</span>
            " "
            <code>{finding.pointer.clone()}</code>
            " "
            {super::shared::rich(&finding.message)}
            " "
            <code class="rule">{finding.rule}</code>
            <Show when=move || has_fix>
                " "
                <button type="button" class="fix" data-testid="lint-fix" title=title on:click=apply.clone()>
                    {label}
                </button>
                <Show when=move || effects.with(|e| !e.is_empty())>
                    " "
                    <span class="side-effects" data-testid="lint-fix-effects">{move || effects.get()}</span>
                </Show>
            </Show>
        </li>
    }
}

/// One provider rule broken: where (pointer and line in the pane's document), what, the
/// provider's own words and where they come from, and the fix (or what to do instead).
#[component]
fn RuleItem(finding: rules::Finding, format: Format, encoded: RwSignal<Encoded>) -> impl IntoView {
    let state = use_state();
    let sev = finding.severity.as_str();
    let rule = finding.rule();
    let line = encoded.with_untracked(|e| crate::formats::json::line_of(&e.text, &finding.pointer));
    let place = match line {
        Some(l) => format!("line {l}"),
        None => finding.pointer.clone(),
    };
    let words = rule.and_then(|r| r.error);
    let provider = rule.map_or("", |r| r.provider);
    let (source, source_label) = rule.map_or(("", ""), |r| (r.source.url(), r.source.label()));
    let advice = rule.map_or("", |r| r.advice);
    let fixable = rule.is_some_and(|r| r.fix.is_some());
    let id = finding.rule;
    let (pointer, message) = (finding.pointer.clone(), finding.message.clone());
    // The fix rewrites the document the pane shows and reads it back, as an edit typed in the
    // pane is: the state before is kept, with Undo.
    let apply = move |_| {
        let text = encoded.with_untracked(|e| e.text.clone());
        let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(&text) else {
            return;
        };
        if !rules::apply(&mut doc, &finding) {
            state.say_error(format!(
                "The fix for {id} could not be applied to this document."
            ));
            return;
        }
        let fixed = crate::formats::json::pretty(&doc);
        match format.decode(&fixed, Kind::Request) {
            Ok(d) => {
                let undo = state.checkpoint(&format!("before the fix for {id}"));
                state.set_from(Origin::Outside, d.exchange);
                state.tell(format!("Fixed for {}: {id}.", format.name()), undo);
            }
            Err(e) => state.say_error(format!(
                "The fixed {} document does not read back: {e}",
                format.name()
            )),
        }
    };
    view! {
        <li class=format!("finding rule {sev}") data-testid="rule-finding" data-rule=id>
            <span class=format!("sev {sev}")>{if sev == "error" { "rejected" } else { "warning" }}</span>
            " "
            <code title=pointer>{place}</code>
            " "
            {message}
            {words.map(|w| view! {
                <blockquote class="provider-words" data-testid="rule-words">
                    <span class="who">{provider} " says (" {source_label} ", ids as in the source): "</span>
                    <q>{w}</q>
                </blockquote>
            })}
            <span class="advice">{advice}</span>
            " "
            <a class="source" href=source target="_blank" rel="noopener noreferrer">{source_label}</a>
            " "
            <code class="rule">{id}</code>
            <Show when=move || fixable>
                " "
                <button type="button" class="fix" data-testid="rule-fix" title=format!("Apply the fix for {id} to the {} document (Undo brings it back)", format.name()) on:click=apply.clone()>
                    "Fix"
                </button>
            </Show>
        </li>
    }
}

/// `also brings up 2 findings for OpenAI Responses (…)`, or nothing.
fn side_effects_text(found: &[(Target, Finding)]) -> String {
    if found.is_empty() {
        return String::new();
    }
    let mut per: Vec<(Format, Vec<&Finding>)> = Vec::new();
    for (t, f) in found {
        let Some(format) = Format::from_id(t.id()) else {
            continue;
        };
        match per.iter_mut().find(|(g, _)| *g == format) {
            Some((_, v)) => v.push(f),
            None => per.push((format, vec![f])),
        }
    }
    let parts: Vec<String> = per
        .iter()
        .map(|(g, fs)| {
            let rules: Vec<&str> = fs.iter().map(|f| f.rule).collect();
            format!(
                "{} finding{} for {} ({})",
                fs.len(),
                if fs.len() == 1 { "" } else { "s" },
                g.name(),
                rules.join(", ")
            )
        })
        .collect();
    format!("also brings up {}", parts.join(" and "))
}

/// Copy the pane's text, or a snippet that sends it (request view only).
#[component]
fn CopyMenu(format: Format, text: Signal<String>) -> impl IntoView {
    let state = use_state();
    let id = format.id();
    let done = move |out: Result<String, String>, lang: Option<Lang>| match out {
        Ok(s) => {
            io::copy_text(&s);
            state.say(match lang {
                None => format!("Copied the {} document", format.name()),
                Some(l) => format!(
                    "Copied a {} snippet for {} (the API key stays a placeholder)",
                    l.name(),
                    format.name()
                ),
            });
        }
        Err(e) => state.say_error(e),
    };
    // Snippets come from the lazy module (src/ui/lazy.rs), loaded when the menu first opens.
    let copy = move |lang: Option<Lang>| {
        let body = text.get_untracked();
        let Some(l) = lang else {
            return done(Ok(body), None);
        };
        let input = serde_json::json!({
            "exchange": state.exchange.with_untracked(|x| serde_json::to_string(x).unwrap_or_default()),
            "format": format.id(),
            "lang": l.id(),
            "body": body,
        })
        .to_string();
        wasm_bindgen_futures::spawn_local(async move {
            let out = super::lazy::call("snippet", &input).await.and_then(|a| {
                serde_json::from_str::<serde_json::Value>(&a)
                    .ok()
                    .and_then(|v| v["text"].as_str().map(str::to_string))
                    .ok_or_else(|| "the snippet could not be read".to_string())
            });
            done(out, Some(l));
        });
    };
    let warm = move |ev: leptos::ev::Event| {
        if event_target::<web_sys::HtmlDetailsElement>(&ev).open() {
            wasm_bindgen_futures::spawn_local(async {
                let _ = super::lazy::call("vocabs", "{}").await;
            });
        }
    };
    let request = move || state.kind.get() == Kind::Request;
    view! {
        <div class="copy">
            <button type="button" class="ghost small" data-testid=format!("copy-{id}")
                title="Copy this document" on:click=move |_| copy(None)>
                "Copy"
            </button>
            <Show when=request>
                <details class="menu" on:toggle=warm>
                    <summary class="ghost small" data-testid=format!("copy-as-{id}") aria-label=format!("Copy {} request as code", format.name())>
                        "As code"
                    </summary>
                    <div class="menu-items" role="menu">
                        <button type="button" role="menuitem" data-testid=format!("copy-curl-{id}") on:click=move |_| copy(Some(Lang::Curl))>"curl"</button>
                        <button type="button" role="menuitem" data-testid=format!("copy-python-{id}") on:click=move |_| copy(Some(Lang::Python))>"Python"</button>
                        <button type="button" role="menuitem" data-testid=format!("copy-typescript-{id}") on:click=move |_| copy(Some(Lang::TypeScript))>"TypeScript"</button>
                    </div>
                </details>
            </Show>
        </div>
    }
}
