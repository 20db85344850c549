//! Page footer.

use crate::formats::Format;
use leptos::prelude::*;

/// The bottom bar.
#[component]
pub fn Footer() -> impl IntoView {
    let names = Format::ALL
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(" · ");
    view! {
        <footer class="bottombar">
            <span>"Toolscope runs entirely in your browser: nothing you type leaves the page, except what you send to a provider from the Live tab. Press ? for shortcuts."</span>
            <span class="formats">{names}</span>
        </footer>
    }
}
