//! One format pane: the exchange in that format (editable), what the format loses, the
//! provider's lint findings with their fixes, argument errors, and how the format differs.

use super::cm::CodeEditor;
use super::draft::Draft;
use super::io;
use super::state::{use_state, Origin};
use crate::anchors::{self, Element, Span};
use crate::formats::{notes, Encoded, Format, Kind};
use crate::model::{Loss, LossKind};
use crate::schema::{self, Finding, LintOptions, Severity, Target};
use crate::snippets::{self, Lang};
use leptos::prelude::*;

/// One format's document and what it tells.
#[component]
pub fn FormatPane(format: Format) -> impl IntoView {
    let state = use_state();
    let id = format.id();
    let encoded: Memo<Encoded> =
        Memo::new(move |_| state.exchange.with(|x| format.encode(x, state.kind.get())));
    let draft = Draft::new(Origin::Pane(format), Some(format));
    let rendered = Signal::derive(move || encoded.with(|e| e.text.clone()));
    let shown = draft.shown(rendered);

    // Where each element sits in this pane's text. Memos are lazy: computed only when the
    // pointer is over the pane or an element is selected, then cached per exchange.
    let spans: Memo<Vec<(Element, Span)>> = Memo::new(move |_| {
        let kind = state.kind.get();
        state
            .exchange
            .with(|x| encoded.with(|e| anchors::spans_in(x, format, kind, &e.text)))
    });
    let links = draft.links(spans);

    let target = Target::from_id(id);
    let lints: Memo<Vec<Finding>> = Memo::new(move |_| {
        let Some(t) = target else { return Vec::new() };
        let opts = LintOptions {
            make_strict: format.protocol() == Format::OpenAiChat
                || format.protocol() == Format::OpenAiResponses,
        };
        let mut out = state.arguments.get();
        state
            .exchange
            .with(|x| out.extend(schema::lint(x, t, opts)));
        out
    });
    let problems =
        move || lints.with(|l| l.iter().filter(|f| f.severity != Severity::Info).count());
    let losses = move || encoded.with(|e| e.losses.len());
    let note = notes::note(format);
    // The lists are built only while open: closed, they cost nothing per keystroke.
    let losses_open = RwSignal::new(false);
    let lints_open = RwSignal::new(false);
    let lang = if format.is_text() { "text" } else { "json" };

    view! {
        <article class="pane" data-format=id data-testid=format!("pane-{id}")>
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
                    title="Lint and argument findings for this provider"
                >
                    {move || match problems() {
                        0 => "checks pass".to_string(),
                        1 => "1 finding".to_string(),
                        n => format!("{n} findings"),
                    }}
                </span>
                <CopyMenu format=format text=shown />
            </header>
            <div class="editor-wrap" on:focusout=move |_| draft.settle()>
            <CodeEditor
                text=shown
                lang=lang
                label=format!("{} document", format.name())
                testid=format!("editor-{id}")
                on_change=Callback::new(move |t| draft.change(t))
                error=draft.error_range()
                marks=links.marks
                on_hover=links.on_hover
                on_cursor=links.on_cursor
            />
            </div>
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
                        {move || match losses() {
                            0 => format!("{} carries everything", format.name()),
                            n => format!("What {} cannot carry ({n})", format.name()),
                        }}
                    </summary>
                    <ul>
                        {move || losses_open.get().then(|| encoded.with(|e| e.losses.clone()).into_iter().map(|l| view! { <LossItem loss=l /> }).collect_view())}
                    </ul>
                </details>
                <details class="lints" data-testid=format!("lints-{id}")
                    on:toggle=move |ev| lints_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                    <summary>
                        {move || {
                            let (n, all) = (problems(), lints.with(Vec::len));
                            match (n, all - n) {
                                (0, 0) => format!("{}: every check passes", format.name()),
                                (n, 0) => format!("Checks for {} ({n} to fix)", format.name()),
                                (0, s) => format!("Checks for {} ({s} suggested)", format.name()),
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

/// One loss: what, where (click selects the element), why.
#[component]
fn LossItem(loss: Loss) -> impl IntoView {
    let state = use_state();
    let kind = match loss.kind {
        LossKind::Dropped => "dropped",
        LossKind::Rewritten => "rewritten",
        LossKind::Added => "added",
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
            <button type="button" class="pointer" title="Select this element everywhere" data-testid="loss-pointer"
                on:click=move |_| state.selected.set(el)>
                <code>{pointer}</code>
            </button>
            " "
            {loss.what.clone()}
            <span class="why">" — " {loss.why.clone()}</span>
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
            {finding.message.clone()}
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

/// `also brings up 2 findings for OpenAI Responses (…)`, or nothing.
fn side_effects_text(found: &[(Target, Finding)]) -> String {
    if found.is_empty() {
        return String::new();
    }
    let mut per: Vec<(Format, Vec<&Finding>)> = Vec::new();
    for (t, f) in found {
        match per.iter_mut().find(|(g, _)| *g == t.format) {
            Some((_, v)) => v.push(f),
            None => per.push((t.format, vec![f])),
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
    let copy = move |lang: Option<Lang>| {
        let body = text.get_untracked();
        let out = match lang {
            None => Ok(body),
            Some(l) => state
                .exchange
                .with_untracked(|x| snippets::snippet_for(x, format, l, &body))
                .map_err(|e| e.to_string()),
        };
        match out {
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
                <details class="menu">
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
