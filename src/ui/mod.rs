//! The Leptos app (wasm only). Components are thin: they read `AppState` and call the core
//! (`edit`, `formats`, `schema`, `anchors`, `share`, `snippets`).

mod canonical;
pub mod cm;
mod commands;
mod compare;
mod conversation;
mod cost;
mod deferred;
mod draft;
pub mod engine;
mod footer;
mod header;
mod help;
mod io;
mod keys;
pub mod lazy;
mod live;
mod mcp;
mod mcp_client;
mod mcp_oauth;
mod media;
mod messages;
mod models;
mod pane;
mod panes;
mod replay;
mod schedule;
mod shared;
pub mod state;
mod tabs;
mod tools;
mod transcript;
mod virtual_list;
mod work;

use crate::formats::read_any;
use crate::formats::Source;
use crate::share;
use leptos::prelude::*;
use state::{use_state, AppState};
use tabs::{LeftTab, RightTab};
use wasm_bindgen::JsCast;

/// Read a dropped, picked or pasted text: a state file, a share link, or any document.
pub fn import_text(state: AppState, name: &str, text: Result<String, String>) {
    let text = match text {
        Ok(t) => t,
        Err(e) => return state.say_error(format!("{name}: {e}")),
    };
    let trimmed = text.trim();
    if let Some(pos) = trimmed.find("#v") {
        if !trimmed.contains('\n') {
            return match share::from_fragment(&trimmed[pos..]) {
                Ok(s) => state.replace(s, "Opened the shared link."),
                Err(e) => state.say_error(e.to_string()),
            };
        }
    }
    if trimmed.contains("\"toolscope\"") {
        return match share::from_file(&text) {
            Ok(s) => state.replace(s, format!("Imported {name}.")),
            Err(e) => state.say_error(format!("{name}: {e}")),
        };
    }
    // A HAR file (a devtools export, a Live recording) opens in Replay, its secrets redacted
    // before anything shows or is kept.
    if trimmed.starts_with('{')
        && trimmed.contains("\"log\"")
        && serde_json::from_str::<serde_json::Value>(trimmed)
            .is_ok_and(|v| crate::stream::har::is_har(&v))
    {
        replay::set_replay(state, text, Some(name));
        state.right_tab.set(RightTab::Replay);
        return;
    }
    match read_any(&text) {
        // Any prose reads as a legacy-XML completion; a paste on the page must be a document.
        Ok((_, Source::Wire(f, _))) if crate::edit::is_mere_prose(f, &text) => {
            state.say_error(format!(
                "{name}: not a state file, a share link, or a document of a format Toolscope reads"
            ))
        }
        Ok((d, source)) => {
            let kind = match source {
                Source::Wire(_, k) => k,
                Source::Canonical => crate::formats::Kind::Request,
            };
            let what = match source {
                Source::Wire(f, k) => format!("{} {}", f.name(), k.as_str()),
                Source::Canonical => "Toolscope's canonical JSON".into(),
            };
            let view = if kind != state.kind.get_untracked() {
                format!(" The view switched to {}.", kind.as_str())
            } else {
                String::new()
            };
            state.replace_exchange(
                d.exchange,
                kind,
                format!("Read {name} as {what}: it replaced the tools and conversation.{view}"),
            );
        }
        Err(e) => state.say_error(format!("{name}: {e}")),
    }
}

/// Is the keyboard focus in something that takes text (then single-key shortcuts are text)?
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || el
            .closest("[contenteditable=true]")
            .ok()
            .flatten()
            .is_some()
}

/// Switch the right column to `tab` and move the focus into it (its first field when `field`).
fn show_right(state: AppState, tab: RightTab, field: bool) {
    state.right_tab.set(tab);
    keys::focus_view(RIGHT_PANEL, field);
}

/// Switch the left column to `tab` and move the focus into it.
fn show_left(state: AppState, tab: LeftTab) {
    state.left_tab.set(tab);
    keys::focus_view(LEFT_PANEL, false);
}

/// The `id` of the left column's tab panel (the editors).
const LEFT_PANEL: &str = "editor-panel";
/// The `id` of the right column's tab panel (the views).
const RIGHT_PANEL: &str = "views";

fn shortcuts(state: AppState) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let ctrl = ev.ctrl_key() || ev.meta_key();
        let key = ev.key();
        if !ctrl && !ev.alt_key() && (keys::tab_keys(&ev) || keys::menu_keys(&ev)) {
            ev.prevent_default();
            return;
        }
        if state.help.get_untracked() {
            if let Some(dialog) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(help::DIALOG))
            {
                if keys::trap_tab(&ev, &dialog) {
                    ev.prevent_default();
                    return;
                }
            }
        }
        if ctrl && key == "z" && !ev.shift_key() && !typing(&ev) {
            // Outside text fields, Ctrl+Z undoes what the notice reports (a replacement or
            // removal); inside them it stays the editor's own undo.
            if let Some(u) = state
                .notice
                .with_untracked(|n| n.as_ref().and_then(|n| n.undo.clone()))
            {
                ev.prevent_default();
                state.undo(&u);
            }
            return;
        }
        if ctrl {
            match key.as_str() {
                "s" => commands::share_now(state),
                "e" => commands::export_now(state),
                "o" => commands::import_now(),
                _ => return,
            }
            ev.prevent_default();
            return;
        }
        if key == "Escape" {
            close_menus(None, true);
            state.help.set(false);
            state.history_open.set(false);
            state.selected.set(None);
            state.notice.set(None);
            return;
        }
        // A letter typed on a control (a button just clicked, a tab, a select) is that
        // control's: shortcuts act only from the page itself.
        let on_control = keys::target_element(&ev).is_some_and(|el| keys::on_control(&el));
        if on_control || typing(&ev) || ev.alt_key() {
            return;
        }
        match key.as_str() {
            "?" => state.help.update(|h| *h = !*h),
            "r" => state.kind.update(|k| {
                *k = match k {
                    crate::formats::Kind::Request => crate::formats::Kind::Response,
                    crate::formats::Kind::Response => crate::formats::Kind::Request,
                }
            }),
            "e" => show_left(state, LeftTab::Edit),
            "j" => show_left(state, LeftTab::Json),
            "t" => show_left(state, LeftTab::Transcript),
            "f" => show_right(state, RightTab::Formats, false),
            "p" => show_right(state, RightTab::Replay, false),
            "s" => show_right(state, RightTab::Streams, false),
            "l" => show_right(state, RightTab::Live, true),
            "k" => show_right(state, RightTab::Cost, false),
            "c" => state.compare.update(|c| {
                *c = match c {
                    Some(_) => None,
                    None => Some(crate::formats::Format::DEFAULT_COMPARE),
                }
            }),
            "g" => {
                if let Some(el) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id("example"))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = el.focus();
                }
            }
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
}

/// Close every open menu (`details.menu`) that does not hold `keep`; `refocus` puts the
/// keyboard focus back on the menu's button (after Esc or a choice).
fn close_menus(keep: Option<&web_sys::Node>, refocus: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(open) = doc.query_selector_all("details.menu[open]") else {
        return;
    };
    for i in 0..open.length() {
        let Some(el) = open
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        if keep.is_some_and(|k| el.contains(Some(k))) {
            continue;
        }
        let _ = el.remove_attribute("open");
        if refocus {
            focus_summary(&el);
        }
    }
}

/// Put the focus back on a menu's button (its `<summary>`).
fn focus_summary(menu: &web_sys::Element) {
    if let Some(s) = menu
        .query_selector("summary")
        .ok()
        .flatten()
        .and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = s.focus();
    }
}

/// Menus close on a click outside them, and on a choice inside them (focus back on the button).
fn menus() {
    let handle = window_event_listener(leptos::ev::click, move |ev| {
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let chosen = target
            .closest("details.menu [role=menuitem]")
            .ok()
            .flatten();
        if let Some(item) = chosen {
            if let Some(menu) = item.closest("details.menu").ok().flatten() {
                close_menus(None, false);
                let _ = menu.remove_attribute("open");
                focus_summary(&menu);
            }
            return;
        }
        let node: &web_sys::Node = target.as_ref();
        close_menus(Some(node), false);
    });
    on_cleanup(move || handle.remove());
}

/// Drop a file, or paste a document / link while no editor has the focus.
fn drop_and_paste(state: AppState, dragging: RwSignal<bool>) {
    let over = window_event_listener(leptos::ev::dragover, move |ev| {
        ev.prevent_default();
        dragging.set(true);
    });
    let leave = window_event_listener(leptos::ev::dragleave, move |ev| {
        if ev.related_target().is_none() {
            dragging.set(false);
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        dragging.set(false);
        let Some(dt) = ev.data_transfer() else { return };
        if let Some(file) = dt.files().and_then(|f| f.get(0)) {
            io::read_file(file, move |name, r| import_text(state, &name, r));
        } else if let Ok(text) = dt.get_data("text/plain") {
            if !text.is_empty() {
                import_text(state, "the dropped text", Ok(text));
            }
        }
    });
    let paste = window_event_listener(leptos::ev::paste, move |ev| {
        let in_editor = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| {
                matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    || el
                        .closest("[contenteditable=true], .code")
                        .ok()
                        .flatten()
                        .is_some()
            });
        if in_editor {
            return;
        }
        if let Some(text) = ev
            .clipboard_data()
            .and_then(|d| d.get_data("text/plain").ok())
        {
            if !text.trim().is_empty() {
                ev.prevent_default();
                import_text(state, "the pasted text", Ok(text));
            }
        }
    });
    on_cleanup(move || {
        over.remove();
        leave.remove();
        drop.remove();
        paste.remove();
    });
}

/// Restore this tab's work (or the newest work of another tab), then the link if there is one
/// (keeping the work in the history, with Undo); then keep this tab's slot in step: after each
/// pause in typing, and at once when the page is hidden or left.
fn persistence(state: AppState) {
    let tab = work::tab_id();
    state.tab.set_value(tab.clone());
    state.history.set(work::load_history());
    let mut had_work = false;
    match work::saved(&tab) {
        work::Saved::Work {
            state: s,
            from_other_tab,
        } => {
            had_work = true;
            state.restore(*s);
            if from_other_tab {
                state.say("This tab continues from the work saved last in another tab; each tab now saves its own.");
            }
        }
        work::Saved::Unreadable { error } => state.notice.set(Some(state::Notice {
            error: true,
            text: format!(
                "Your saved work could not be restored ({error}). It is kept aside, untouched: \
                 download it to keep it. The page shows an example meanwhile."
            ),
            rescue: true,
            ..state::Notice::default()
        })),
        work::Saved::Nothing => {}
    }
    let fragment = io::fragment();
    if !fragment.is_empty() {
        match share::from_fragment(&fragment) {
            Ok(s) => state.replace(s, "Opened a shared link."),
            // A first visit has no last state: it sees the example.
            Err(e) if had_work => {
                state.say_error(format!("{e} The page shows your last state instead."))
            }
            Err(e) => state.say_error(format!(
                "{e} The link could not be opened, so the page shows an example: ask for the \
                 link again, or paste the document it was made from."
            )),
        }
    }
    // Autosave, debounced: typing fast writes once per pause; a hidden or closed page writes
    // at once (a reload right after an edit must not lose it).
    let pending: StoredValue<Option<leptos::prelude::TimeoutHandle>> = StoredValue::new(None);
    let last_kept = StoredValue::new(0.0_f64);
    let save_now = move || {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        pending.set_value(None);
        match work::save(&state.tab.get_value(), &state.snapshot()) {
            Ok(slot) => {
                // A trail of the work in the history: one entry per few minutes of editing.
                if slot.at - last_kept.get_value() > 180_000.0 {
                    last_kept.set_value(slot.at);
                    state.history.set(work::keep(crate::history::Entry {
                        at: slot.at,
                        summary: slot.summary,
                        why: "autosave".into(),
                        tab: state.tab.get_value(),
                        state: slot.state,
                    }));
                }
            }
            Err(work::NotSaved::TooLarge(why)) => state.say_error(format!(
                "Not saved in this browser: {why} Your last save is kept; export the state \
                 (Ctrl+E) to keep this one."
            )),
            Err(work::NotSaved::Refused) => state.say_error(
                "This browser refused to keep the state (storage full or disabled). Export it \
                 (Ctrl+E) to keep it.",
            ),
        }
    };
    let dirty = StoredValue::new(false);
    // The save waits for the panes' work: serialising a large state is a long task of its own,
    // and a paste's panes must not wait behind it (`tries`: how often it gave way already; a
    // save never waits more than a few seconds).
    fn arm(
        tries: u32,
        pending: StoredValue<Option<leptos::prelude::TimeoutHandle>>,
        dirty: StoredValue<bool>,
        save_now: impl Fn() + Clone + 'static,
    ) {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let h = set_timeout_with_handle(
            move || {
                if tries < 10 && schedule::busy() {
                    return arm(tries + 1, pending, dirty, save_now);
                }
                dirty.set_value(false);
                save_now();
            },
            std::time::Duration::from_millis(300),
        )
        .ok();
        pending.set_value(h);
    }
    let arm = move |tries| arm(tries, pending, dirty, save_now);
    Effect::new(move |first: Option<()>| {
        state.exchange.track();
        state.kind.track();
        state.panes.track();
        state.compare.track();
        state.replay.track();
        if first.is_none() {
            return;
        }
        // The state moved on from the link it was opened with: the address no longer says it.
        if !io::fragment().is_empty() {
            io::set_fragment("");
        }
        dirty.set_value(true);
        arm(0);
    });
    let flush = move || {
        // Text typed in a pane whose reading was still to come is read now, and saved.
        let read = schedule::run_urgent();
        if dirty.get_value() || read {
            dirty.set_value(false);
            save_now();
        }
    };
    let pagehide = window_event_listener(leptos::ev::pagehide, move |_| flush());
    let hidden = window_event_listener(leptos::ev::visibilitychange, move |_| {
        let hidden = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.hidden());
        if hidden {
            flush();
        }
    });
    // Another tab saved: its work is one click away (History), and this tab says so once.
    let told: StoredValue<Vec<String>> = StoredValue::new(Vec::new());
    let storage = window_event_listener(leptos::ev::storage, move |ev| {
        let Some(key) = ev.key() else { return };
        if key == work::HISTORY_KEY {
            state.history.set(work::load_history());
            return;
        }
        let Some(other) = work::slot_tab(&key).map(str::to_string) else {
            return;
        };
        if other == state.tab.get_value() || told.with_value(|t| t.contains(&other)) {
            return;
        }
        told.update_value(|t| t.push(other));
        let summary = ev
            .new_value()
            .and_then(|v| crate::history::Slot::from_stored(&v))
            .map(|s| s.summary)
            .unwrap_or_default();
        state.say(format!(
            "Another tab saved its work ({summary}). This tab keeps its own; open History to \
             bring the other tab's work here."
        ));
    });
    // A link opened in this tab, then Back: the work from before the link comes back.
    let link_undo: StoredValue<Option<String>> = StoredValue::new(None);
    let hashchange = window_event_listener(leptos::ev::hashchange, move |_| {
        let f = io::fragment();
        if f.is_empty() {
            return;
        }
        match share::from_fragment(&f) {
            Ok(s) => {
                state.replace(s, "Opened the shared link.");
                link_undo.set_value(
                    state
                        .notice
                        .with_untracked(|n| n.as_ref().and_then(|n| n.undo.clone())),
                );
            }
            Err(e) => state.say_error(e.to_string()),
        }
    });
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        if io::fragment().is_empty() {
            if let Some(u) = link_undo.get_value() {
                link_undo.set_value(None);
                state.undo(&u);
            }
        }
    });
    on_cleanup(move || {
        hashchange.remove();
        popstate.remove();
        pagehide.remove();
        hidden.remove();
        storage.remove();
    });
}

/// The banner under the top bar, with Undo when it reports a replacement or a removal.
#[component]
fn NoticeBar() -> impl IntoView {
    let state = use_state();
    let undo = move || {
        state
            .notice
            .with(|n| n.as_ref().and_then(|n| n.undo.clone()))
    };
    let rescue = move || state.notice.with(|n| n.as_ref().is_some_and(|n| n.rescue));
    let big_link = move || {
        state
            .notice
            .with(|n| n.as_ref().and_then(|n| n.offer) == Some(state::Offer::BigLink))
    };
    view! {
        <Show when=move || state.notice.with(Option::is_some)>
            <div
                class="notice"
                class:error=move || state.notice.with(|n| n.as_ref().is_some_and(|n| n.error))
                role=move || if state.notice.with(|n| n.as_ref().is_some_and(|n| n.error)) { "alert" } else { "status" }
                data-testid="notice"
            >
                <span>{move || state.notice.with(|n| n.as_ref().map(|n| shared::rich(&n.text)))}</span>
                <Show when=move || undo().is_some()>
                    <button type="button" class="ghost small" data-testid="notice-undo" title="Ctrl+Z outside a text field"
                        on:click=move |_| if let Some(u) = undo() { state.undo(&u) }>"Undo"</button>
                </Show>
                <Show when=rescue>
                    <button type="button" class="ghost small" data-testid="notice-rescue"
                        on:click=move |_| {
                            if let Some(t) = io::load(work::RESCUE_KEY) {
                                io::download("toolscope-unrestored-work.txt", &t);
                            }
                        }>"Download the saved data"</button>
                </Show>
                <Show when=big_link>
                    <button type="button" class="ghost small" data-testid="notice-export"
                        on:click=move |_| commands::export_now(state)>"Export file"</button>
                    <button type="button" class="ghost small" data-testid="notice-share-without-media"
                        on:click=move |_| commands::share_without_media(state)>"Share without media"</button>
                </Show>
                <button type="button" class="icon" aria-label="Dismiss" data-testid="notice-dismiss" on:click=move |_| state.notice.set(None)>"✕"</button>
            </div>
        </Show>
    }
}

/// Where the first-visit hint's dismissal is kept.
const HINT_KEY: &str = "toolscope.hint";

/// A first visit's one-line hint, dismissible, kept dismissed.
#[component]
fn FirstHint() -> impl IntoView {
    let shown = RwSignal::new(io::load(HINT_KEY).is_none());
    let dismiss = move |_| {
        io::save(HINT_KEY, "dismissed");
        shown.set(false);
    };
    view! {
        <Show when=move || shown.get()>
            <aside class="first-hint" aria-label="Getting started" data-testid="first-hint">
                <p>
                    <strong>"Start here: "</strong>
                    "paste any provider's request or response into any pane (or anywhere on the page); every other pane shows it in its own format. "
                    "Press " <kbd>"?"</kbd> " for the keys."
                </p>
                <button type="button" class="ghost small" data-testid="first-hint-dismiss" on:click=dismiss>"Got it"</button>
            </aside>
        </Show>
    }
}

/// One row of the History panel: a kept state and the button that puts it back.
struct HistoryRow {
    testid: &'static str,
    restore_testid: String,
    /// When it was kept, as `hh:mm:ss`.
    when: String,
    summary: String,
    /// Why it was kept, or whose it is.
    note: String,
    /// The state, as [`crate::share::to_stored`] writes it.
    stored: String,
    button: &'static str,
    /// The notice after restoring it.
    told: &'static str,
}

impl HistoryRow {
    fn view(self, state: AppState) -> impl IntoView {
        let Self {
            testid,
            restore_testid,
            when,
            summary,
            note,
            stored,
            button,
            told,
        } = self;
        view! {
            <li data-testid=testid>
                <span class="mono">{when}</span>
                <span>{summary}</span>
                <span class="muted small-text">{note}</span>
                <button type="button" class="ghost small" data-testid=restore_testid
                    on:click=move |_| {
                        state.history_open.set(false);
                        state.back_to(&stored, "before restoring a kept state", told);
                    }>{button}</button>
            </li>
        }
    }
}

/// The History panel: every kept state, newest first, and each tab's last work.
#[component]
fn HistoryPanel() -> impl IntoView {
    let state = use_state();
    let time = |at: f64| {
        let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at));
        format!(
            "{:02}:{:02}:{:02}",
            d.get_hours(),
            d.get_minutes(),
            d.get_seconds()
        )
    };
    let rows = move || {
        let mut v: Vec<crate::history::Entry> = state.history.with(|h| h.entries.clone());
        v.reverse();
        v
    };
    view! {
        <Show when=move || state.history_open.get()>
            <section class="card history" role="dialog" aria-label="History" data-testid="history">
                <div class="block-head">
                    <h3>"History"</h3>
                    <span class="muted small-text">"The last 50 states kept before each link, import, paste, example, removal or Undo, and a trail of each tab's autosaves. Restoring one keeps the current state here too."</span>
                    <button type="button" class="icon" aria-label="Close history" on:click=move |_| state.history_open.set(false)>"✕"</button>
                </div>
                {move || {
                    let others = work::other_slots(&state.tab.get_value());
                    (!others.is_empty()).then(|| view! {
                        <h4>"Other tabs' last work"</h4>
                        <ol class="history-list">
                            {others.into_iter().enumerate().map(|(i, slot)| HistoryRow {
                                testid: "history-tab",
                                restore_testid: format!("history-tab-restore-{i}"),
                                when: time(slot.at),
                                summary: slot.summary,
                                note: "another tab's autosave".into(),
                                stored: slot.state,
                                button: "Open here",
                                told: "Opened another tab's last work here.",
                            }.view(state)).collect_view()}
                        </ol>
                        <h4>"Kept states"</h4>
                    })
                }}
                <Show when=move || state.history.with(|h| h.entries.is_empty())>
                    <p class="muted">"Nothing kept yet."</p>
                </Show>
                <ol class="history-list">
                    {move || rows().into_iter().enumerate().map(|(i, e)| {
                        let mine = e.tab == state.tab.get_value();
                        HistoryRow {
                            testid: "history-entry",
                            restore_testid: format!("history-restore-{i}"),
                            when: time(e.at),
                            summary: e.summary,
                            note: format!("{}{}", e.why, if mine { "" } else { " · another tab" }),
                            stored: e.state,
                            button: "Restore",
                            told: "Restored a kept state.",
                        }.view(state)
                    }).collect_view()}
                </ol>
            </section>
        </Show>
    }
}

/// The whole page: header, editors beside the format panes, footer, overlays.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let live_state = live::LiveState::new();
    provide_context(live_state);
    provide_context(live_state.mcp());
    provide_context(shared::LiveTargets::new(move |p, m| {
        live_state.target_for(p, m)
    }));
    let dragging = RwSignal::new(false);
    persistence(state);
    shortcuts(state);
    menus();
    drop_and_paste(state, dragging);
    cm::load(state.editor_ready);
    // The ARIA tabs pattern: the selected tab is the one Tab stops on; arrows move between them
    // (`keys::tab_keys`).
    fn tab<T: Copy + PartialEq + Send + Sync + 'static>(
        side: RwSignal<T>,
        panel: &'static str,
        this: T,
        id: &'static str,
        label: &'static str,
    ) -> impl IntoView {
        view! {
            <button type="button" role="tab" class="tab" id=format!("tab-{id}") data-testid=format!("tab-{id}")
                aria-controls=panel
                aria-selected=move || (side.get() == this).to_string()
                tabindex=move || if side.get() == this { "0" } else { "-1" }
                on:click=move |_| side.set(this)>{label}</button>
        }
    }
    let skip = move |ev: leptos::ev::MouseEvent, view: RightTab, field: bool| {
        ev.prevent_default();
        show_right(state, view, field);
    };
    view! {
        <nav class="skip-links" aria-label="Skip links">
            <a href="#views" class="skip" data-testid="skip-formats"
                on:click=move |ev| skip(ev, RightTab::Formats, false)>"Skip to wire formats"</a>
            <a href="#views" class="skip" data-testid="skip-live"
                on:click=move |ev| skip(ev, RightTab::Live, true)>"Skip to Live"</a>
        </nav>
        <header::Header />
        <FirstHint />
        <NoticeBar />
        <HistoryPanel />
        <main class="workspace">
            <nav class="phone-jump" aria-label="Jump to">
                <a href="#views">"Wire formats ↓"</a>
            </nav>
            <section class="left" aria-label="Exchange editor">
                <div class="tabs" role="tablist" aria-label="Editor">
                    {LeftTab::ALL.map(|t| tab(state.left_tab, LEFT_PANEL, t, t.id(), t.label())).collect_view()}
                </div>
                <div class="tabpanel" role="tabpanel" id=LEFT_PANEL tabindex="-1"
                    aria-labelledby=move || format!("tab-{}", state.left_tab.get().id())>
                    {move || match state.left_tab.get() {
                        LeftTab::Edit => view! {
                            <tools::ToolsEditor />
                            <conversation::ConversationEditor />
                        }.into_any(),
                        LeftTab::Transcript => view! { <transcript::Transcript /> }.into_any(),
                        LeftTab::Json => view! { <canonical::CanonicalEditor /> }.into_any(),
                    }}
                </div>
            </section>
            <section class="right" aria-label="Views">
                <div class="tabs" role="tablist" aria-label="View">
                    {RightTab::ALL.map(|t| tab(state.right_tab, RIGHT_PANEL, t, t.id(), t.label())).collect_view()}
                </div>
                <div class="tabpanel" role="tabpanel" id=RIGHT_PANEL tabindex="-1"
                    aria-labelledby=move || format!("tab-{}", state.right_tab.get().id())>
                    {move || match state.right_tab.get() {
                        RightTab::Replay => view! { <replay::ReplayView /> }.into_any(),
                        RightTab::Streams => view! { <replay::StreamsView /> }.into_any(),
                        RightTab::Live => view! { <live::LiveView /> }.into_any(),
                        RightTab::Cost => view! { <cost::CostView /> }.into_any(),
                        RightTab::Formats => view! { <panes::Panes /> }.into_any(),
                    }}
                </div>
            </section>
        </main>
        <footer::Footer />
        <help::HelpOverlay />
        <Show when=move || dragging.get()>
            <div class="drop-overlay" aria-hidden="true">"Drop a state file or a provider document"</div>
        </Show>
    }
}

/// An empty, hidden form that the fields of one card name as theirs (`form=id`). After each
/// key the browser's autofill reads the whole form of the field typed in, and the fields
/// outside any form are one form of every field on the page.
fn card_form(id: String) -> impl IntoView {
    view! { <form id=id hidden on:submit=|ev| ev.prevent_default()></form> }
}

/// An `input` or `change` handler that hands the field's new text to `f`.
fn on_text(f: impl Fn(String) + 'static) -> impl Fn(leptos::ev::Event) + 'static {
    move |ev| f(event_target_value(&ev))
}
