//! Page header: product name, the examples gallery, share / export / import, theme, help.

use super::commands::{export_now, new_exchange, share_now};
use super::io;
use super::state::use_state;
use crate::examples::EXAMPLES;
use leptos::prelude::*;

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
