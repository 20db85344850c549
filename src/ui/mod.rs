//! The Leptos app (wasm only). Components are thin: they read `AppState` and call the core.

mod editor;
mod footer;
mod header;
mod pane;
pub mod state;

use leptos::prelude::*;

/// The whole page: header, the exchange editor beside the format panes, footer.
#[component]
pub fn App() -> impl IntoView {
    provide_context(state::AppState::new());
    view! {
        <header::Header />
        <main class="workspace">
            <editor::ExchangeEditor />
            <pane::Panes />
        </main>
        <footer::Footer />
    }
}
