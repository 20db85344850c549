//! The Leptos app (wasm only). Components are thin: they read `AppState` and call the core
//! (`edit`, `formats`, `schema`, `anchors`, `share`, `snippets`).

mod canonical;
pub mod cm;
mod conversation;
mod draft;
mod footer;
mod header;
mod help;
mod io;
mod live;
mod messages;
mod pane;
mod panes;
mod replay;
mod schedule;
pub mod state;
mod tools;
mod virtual_list;

use crate::formats::read_any;
use crate::formats::Source;
use crate::share;
use leptos::prelude::*;
use state::{use_state, AppState};
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
                Ok(s) => {
                    state.restore(s);
                    state.say("Opened the shared link");
                }
                Err(e) => state.say_error(e.to_string()),
            };
        }
    }
    if trimmed.contains("\"toolscope\"") {
        return match share::from_file(&text) {
            Ok(s) => {
                state.restore(s);
                state.say(format!("Imported {name}"));
            }
            Err(e) => state.say_error(format!("{name}: {e}")),
        };
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
            state.load(d.exchange, kind);
            state.say(format!("Read {name} as {}", source.label()));
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

fn shortcuts(state: AppState) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        let ctrl = ev.ctrl_key() || ev.meta_key();
        let key = ev.key();
        if ctrl {
            match key.as_str() {
                "s" => header::share_now(state),
                "e" => header::export_now(state),
                "o" => header::import_now(),
                _ => return,
            }
            ev.prevent_default();
            return;
        }
        if key == "Escape" {
            state.help.set(false);
            state.selected.set(None);
            state.notice.set(None);
            return;
        }
        if typing(&ev) || ev.alt_key() {
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
            "e" => state.left_tab.set("edit"),
            "f" => state.right_tab.set("formats"),
            "p" => state.right_tab.set("replay"),
            "s" => state.right_tab.set("streams"),
            "l" => state.right_tab.set("live"),
            "j" => state.left_tab.set("json"),
            "c" => state.compare.update(|c| {
                *c = match c {
                    Some(_) => None,
                    None => Some((
                        crate::formats::Format::OpenAiChat,
                        crate::formats::Format::Anthropic,
                    )),
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

/// Restore from the link, else from localStorage; then keep localStorage in step.
fn persistence(state: AppState) {
    let fragment = io::fragment();
    let mut restored = false;
    if !fragment.is_empty() {
        match share::from_fragment(&fragment) {
            Ok(s) => {
                state.restore(s);
                state.say("Opened a shared link.");
                restored = true;
            }
            Err(e) => state.say_error(format!("{e} The page shows your last state instead.")),
        }
    }
    if !restored {
        if let Some(saved) = io::load(io::STORAGE_KEY) {
            if let Ok(s) = share::from_file(&saved) {
                state.restore(s);
            }
        }
    }
    // Autosave, debounced: typing fast writes once per pause.
    let pending: StoredValue<Option<leptos::prelude::TimeoutHandle>> = StoredValue::new(None);
    Effect::new(move |first: Option<()>| {
        state.exchange.track();
        state.kind.track();
        state.panes.track();
        state.compare.track();
        if first.is_none() {
            return;
        }
        // The state moved on from the link it was opened with: the address no longer says it.
        if !io::fragment().is_empty() {
            io::set_fragment("");
        }
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let h = set_timeout_with_handle(
            move || {
                if !io::save(io::STORAGE_KEY, &share::to_file(&state.snapshot())) {
                    state.say_error(
                        "This browser refused to keep the state (storage full or disabled).",
                    );
                }
            },
            std::time::Duration::from_millis(300),
        )
        .ok();
        pending.set_value(h);
    });
    let hashchange = window_event_listener(leptos::ev::hashchange, move |_| {
        let f = io::fragment();
        if f.is_empty() {
            return;
        }
        match share::from_fragment(&f) {
            Ok(s) => {
                state.restore(s);
                state.say("Opened the shared link.");
            }
            Err(e) => state.say_error(e.to_string()),
        }
    });
    on_cleanup(move || hashchange.remove());
}

/// The banner under the top bar.
#[component]
fn NoticeBar() -> impl IntoView {
    let state = use_state();
    view! {
        <Show when=move || state.notice.with(Option::is_some)>
            <div
                class="notice"
                class:error=move || state.notice.with(|n| n.as_ref().is_some_and(|n| n.error))
                role=move || if state.notice.with(|n| n.as_ref().is_some_and(|n| n.error)) { "alert" } else { "status" }
                data-testid="notice"
            >
                <span>{move || state.notice.with(|n| n.as_ref().map(|n| n.text.clone()))}</span>
                <button type="button" class="icon" aria-label="Dismiss" data-testid="notice-dismiss" on:click=move |_| state.notice.set(None)>"✕"</button>
            </div>
        </Show>
    }
}

/// The whole page: header, editors beside the format panes, footer, overlays.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    provide_context(live::LiveState::new());
    let dragging = RwSignal::new(false);
    persistence(state);
    shortcuts(state);
    drop_and_paste(state, dragging);
    cm::load(state.editor_ready);
    let tab = move |id: &'static str, label: &'static str| {
        view! {
            <button type="button" role="tab" class="tab" data-testid=format!("tab-{id}")
                aria-selected=move || (state.left_tab.get() == id).to_string()
                on:click=move |_| state.left_tab.set(id)>{label}</button>
        }
    };
    let right = move |id: &'static str, label: &'static str| {
        view! {
            <button type="button" role="tab" class="tab" data-testid=format!("tab-{id}")
                aria-selected=move || (state.right_tab.get() == id).to_string()
                on:click=move |_| state.right_tab.set(id)>{label}</button>
        }
    };
    view! {
        <header::Header />
        <NoticeBar />
        <main class="workspace">
            <nav class="phone-jump" aria-label="Jump to">
                <a href="#views">"Wire formats ↓"</a>
            </nav>
            <section class="left" aria-label="Exchange editor">
                <div class="tabs" role="tablist" aria-label="Editor">
                    {tab("edit", "Tools & conversation")}
                    {tab("json", "Canonical JSON")}
                </div>
                <Show when=move || state.left_tab.get() == "edit"
                    fallback=|| view! { <canonical::CanonicalEditor /> }>
                    <tools::ToolsEditor />
                    <conversation::ConversationEditor />
                </Show>
            </section>
            <section class="right" id="views" aria-label="Views">
                <div class="tabs" role="tablist" aria-label="View">
                    {right("formats", "Wire formats")}
                    {right("replay", "Replay a stream")}
                    {right("streams", "Streams per provider")}
                    {right("live", "Live")}
                </div>
                {move || match state.right_tab.get() {
                    "replay" => view! { <replay::ReplayView /> }.into_any(),
                    "streams" => view! { <replay::StreamsView /> }.into_any(),
                    "live" => view! { <live::LiveView /> }.into_any(),
                    _ => view! { <panes::Panes /> }.into_any(),
                }}
            </section>
        </main>
        <footer::Footer />
        <help::HelpOverlay />
        <Show when=move || dragging.get()>
            <div class="drop-overlay" aria-hidden="true">"Drop a state file or a provider document"</div>
        </Show>
    }
}
