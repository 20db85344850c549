//! Page header: product name, what it does, the example picker.

use super::state::use_state;
use crate::examples::EXAMPLES;
use leptos::prelude::*;

/// The top bar.
#[component]
pub fn Header() -> impl IntoView {
    let state = use_state();
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(e) = EXAMPLES.iter().find(|e| e.id == id) {
            state.source.set(e.json.to_string());
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"⌁"</span>
                <h1>"Toolscope"</h1>
                <p class="tagline">"One tool-calling exchange, every provider's wire format."</p>
            </div>
            <label class="picker">
                <span>"Example"</span>
                <select id="example" on:change=pick>
                    {EXAMPLES
                        .iter()
                        .map(|e| view! { <option value=e.id>{e.title}</option> })
                        .collect_view()}
                </select>
            </label>
        </header>
    }
}
