//! The Leptos app (wasm only).
use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    view! { <p>"Toolscope"</p> }
}
