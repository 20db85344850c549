//! The keyboard help (`?`): a modal dialog. Focus moves into it, Tab stays inside it
//! (`keys::trap_tab`, from the page's key handler), and Esc or closing puts the focus back where
//! it was.

use super::keys;
use super::state::use_state;
use leptos::prelude::*;

/// The dialog's `id`.
pub const DIALOG: &str = "help-dialog";

/// Every shortcut of the page: key, what it does.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("?", "Show or hide this help"),
    (
        "Shortcut letters",
        "Act when the focus is on the page, not on a button, field or tab",
    ),
    (
        "← → / Home / End",
        "Move between tabs; ↑ ↓ move in an open menu",
    ),
    (
        "Tab / Shift+Tab",
        "Move the focus to the next / previous control; Tab leaves a code editor too",
    ),
    (
        "Ctrl+] / Ctrl+[",
        "Indent / outdent the selected lines in a code editor (Cmd on a Mac)",
    ),
    (
        "Esc",
        "Close this help, the open menu (focus returns to its button) and the selection",
    ),
    ("r", "Switch request / response bodies"),
    ("e", "Structured editor (tools and conversation)"),
    ("j", "Canonical JSON editor"),
    ("t", "Transcript: the conversation as chat bubbles"),
    ("g", "Go to the examples gallery"),
    (
        "f / p / s / l",
        "Wire formats / replay a stream / streams per provider / live calls",
    ),
    ("k", "Cost: the tools' tokens per model, tool and round"),
    ("c", "Compare two formats / show all panes"),
    ("Ctrl+S", "Share: put the state in the link and copy it"),
    ("Ctrl+E", "Export the state as a file"),
    ("Ctrl+O", "Import a state file or a provider document"),
    ("Ctrl+F", "Search inside the focused editor"),
];

/// The overlay.
#[component]
pub fn HelpOverlay() -> impl IntoView {
    let state = use_state();
    // Where the focus was when the help opened: it goes back there when the help closes.
    let before: StoredValue<Option<web_sys::HtmlElement>, LocalStorage> =
        StoredValue::new_local(None);
    Effect::new(move |was_open: Option<bool>| {
        let open = state.help.get();
        if open && was_open != Some(true) {
            before.set_value(keys::active());
            keys::focus_testid("help-close");
        } else if !open && was_open == Some(true) {
            if let Some(el) = before.get_value() {
                if el.is_connected() {
                    let _ = el.focus();
                }
            }
            before.set_value(None);
        }
        open
    });
    view! {
        <Show when=move || state.help.get()>
            <div class="overlay" on:click=move |_| state.help.set(false)>
                <div class="dialog" id=DIALOG role="dialog" aria-modal="true" aria-labelledby="help-title"
                    data-testid="help" on:click=|ev| ev.stop_propagation()>
                    <div class="section-head">
                        <h2 id="help-title">"Keyboard shortcuts"</h2>
                        <button type="button" class="icon" aria-label="Close help" data-testid="help-close" on:click=move |_| state.help.set(false)>"✕"</button>
                    </div>
                    <table class="keys">
                        <tbody>
                            {SHORTCUTS.iter().map(|(k, what)| view! { <tr><td><kbd>{*k}</kbd></td><td>{*what}</td></tr> }).collect_view()}
                        </tbody>
                    </table>
                    <p class="help">
                        "Hover or click a tool, call or result anywhere (editor or pane) to highlight it in every pane. "
                        "Paste or drop a provider document, a state file or a share link anywhere on the page."
                    </p>
                </div>
            </div>
        </Show>
    }
}
