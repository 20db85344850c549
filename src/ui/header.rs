//! Page header: product name, the examples gallery, share / export / import, theme, help.

use super::io;
use super::state::{use_state, AppState, Notice, Offer};
use crate::edit;
use crate::examples::EXAMPLES;
use crate::formats::Kind;
use crate::model::Exchange;
use crate::share::{self, media};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Above this many characters a link is too long for a chat message (chat apps cut messages
/// at 2,000–4,000 characters): Share says so and offers a file or a link without media.
pub const BIG_LINK: usize = 8_000;

/// Put the state into the URL fragment and copy the link.
pub fn share_now(state: AppState) {
    let mut snapshot = state.snapshot();
    let mut note = "";
    let made = match share::to_fragment(&snapshot) {
        // A replay too large for a link: share the rest, and say so.
        Err(share::ShareError::ReplayTooLarge { .. }) => {
            snapshot.replay = None;
            note = " The replayed stream is too large for a link and was left out: export the state as a file to keep it.";
            share::to_fragment(&snapshot)
        }
        other => other,
    };
    match made {
        Ok(f) => {
            io::set_fragment(&f);
            let link = io::link_with(&f);
            io::copy_text(&link);
            let n = link.chars().count();
            if n > BIG_LINK {
                let media = media::without_media(&snapshot.exchange).1;
                let without = if media > 0 {
                    format!(
                        " Share without media puts labelled placeholders in place of the {media} \
                         image{} or other media it carries inline.",
                        if media == 1 { "" } else { "s" },
                    )
                } else {
                    String::new()
                };
                state.notice.set(Some(Notice {
                    text: format!(
                        "Link copied, but it is {} characters long: chat apps cut messages at \
                         2,000–4,000 characters, so it may arrive broken. Export a file to \
                         send instead.{without}{note}",
                        thousands(n)
                    ),
                    offer: Some(Offer::BigLink),
                    ..Notice::default()
                }));
                return;
            }
            state.say(format!(
                "Link copied ({n} characters). Anyone opening it sees this exchange; nothing is stored on a server.{note}"
            ));
        }
        Err(e) => state.say_error(format!("Cannot share: {e}")),
    }
}

/// Copy a link to the state with every inline image, audio and document replaced by a
/// labelled placeholder (the page's own address and state stay as they are).
pub fn share_without_media(state: AppState) {
    let mut snapshot = state.snapshot();
    let (x, n) = media::without_media(&snapshot.exchange);
    snapshot.exchange = x;
    // The stream of a replay is no media, but a link this short has no room for a large one.
    let made = match share::to_fragment(&snapshot) {
        Err(share::ShareError::ReplayTooLarge { .. }) => {
            snapshot.replay = None;
            share::to_fragment(&snapshot)
        }
        other => other,
    };
    match made {
        Ok(f) => {
            let link = io::link_with(&f);
            io::copy_text(&link);
            let len = link.chars().count();
            let still = if len > BIG_LINK {
                " It is still long: export a file to send instead."
            } else {
                ""
            };
            state.notice.set(Some(Notice {
                text: format!(
                    "Link without media copied ({} characters): {n} placeholder{} stand{} for the media, which opens as placeholders.{still}",
                    thousands(len),
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "s" } else { "" },
                ),
                ..Notice::default()
            }));
        }
        Err(e) => state.say_error(format!("Cannot share: {e}")),
    }
}

/// `132379` → `132,379`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Start from nothing: one empty tool and one empty user message (the work before stays in
/// History, with Undo), the focus in the tool's name.
pub fn new_exchange(state: AppState) {
    let mut x = Exchange::default();
    let i = edit::add_tool(&mut x);
    if let Some(t) = x.tools.get_mut(i) {
        t.name.clear();
        t.description = None;
    }
    edit::add_user(&mut x, "");
    state.replace_exchange(
        x,
        Kind::Request,
        "Started a new exchange: one empty tool and one empty user message.",
    );
    state.left_tab.set("edit");
    super::keys::focus_testid("tool-0-name");
}

/// Download the state as a file.
pub fn export_now(state: AppState) {
    io::download("toolscope-state.json", &share::to_file(&state.snapshot()));
    state.say("Exported toolscope-state.json");
}

/// Open the file picker of the import button.
pub fn import_now() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("import-file"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.click();
    }
}

/// The top bar.
#[component]
pub fn Header() -> impl IntoView {
    let state = use_state();
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        state.load_example(&id);
        // The first option names what is loaded: show it, not the list's last choice.
        let select: web_sys::Element = event_target(&ev);
        let _ = js_sys::Reflect::set(&select, &"value".into(), &"".into());
    };
    let current = Memo::new(move |_| {
        state.example.with(|e| match e {
            None => "Open an example…".to_string(),
            Some((_, title, x)) => {
                if state.exchange.with(|c| c == x) {
                    format!("Example: {title}")
                } else {
                    format!("Example: {title} (edited)")
                }
            }
        })
    });
    let picked = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            io::read_file(file, move |name, r| super::import_text(state, &name, r));
        }
        input.set_value("");
    };
    let theme = RwSignal::new(io::load("toolscope.theme").unwrap_or_else(|| "auto".into()));
    Effect::new(move |_| {
        let t = theme.get();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = if t == "auto" {
                root.remove_attribute("data-theme")
            } else {
                root.set_attribute("data-theme", &t)
            };
        }
        io::save("toolscope.theme", &t);
    });
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"⌁"</span>
                <h1>"Toolscope"</h1>
                <p class="tagline">"One tool-calling exchange, every provider's wire format."</p>
            </div>
            <div class="actions">
                <label class="picker">
                    <span>"Example"</span>
                    <select id="example" data-testid="gallery" on:change=pick>
                        <option value="" disabled=true selected=true data-testid="gallery-current">{move || current.get()}</option>
                        {EXAMPLES
                            .iter()
                            .map(|e| view! { <option value=e.id title=e.blurb>{e.title}</option> })
                            .collect_view()}
                    </select>
                </label>
                <button type="button" class="ghost" data-testid="new-exchange"
                    title="One empty tool and one empty user message; Undo brings the current work back"
                    on:click=move |_| new_exchange(state)>"New exchange"</button>
                <button type="button" class="primary" data-testid="share" title="Ctrl+S"
                    on:click=move |_| share_now(state)>"Share"</button>
                <button type="button" class="ghost" data-testid="export" title="Ctrl+E"
                    on:click=move |_| export_now(state)>"Export"</button>
                <label class="ghost button" title="Ctrl+O: a state file or any provider document">
                    "Import"
                    <input id="import-file" type="file" class="visually-hidden" data-testid="import"
                        accept=".json,.txt,.jsonl,.har,application/json,text/plain" on:change=picked />
                </label>
                <button type="button" class="ghost" data-testid="history-open" title="States kept before each replacing action, and every tab's last work"
                    aria-expanded=move || state.history_open.get().to_string()
                    on:click=move |_| state.history_open.update(|o| *o = !*o)>"History"</button>
                <select class="theme" aria-label="Theme" data-testid="theme"
                    prop:value=move || theme.get()
                    on:change=move |ev| theme.set(event_target_value(&ev))>
                    <option value="auto">"Auto theme"</option>
                    <option value="light">"Light"</option>
                    <option value="dark">"Dark"</option>
                </select>
                <button type="button" class="icon" aria-label="Keyboard shortcuts" data-testid="help-open"
                    title="Keyboard shortcuts (?)" on:click=move |_| state.help.update(|h| *h = !*h)>"?"</button>
            </div>
        </header>
    }
}
