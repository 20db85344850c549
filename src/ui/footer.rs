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
            <span>"Toolscope runs entirely in your browser: nothing you type leaves the page. Press ? for shortcuts."</span>
            <span class="formats">{names}</span>
        </footer>
    }
}
