//! Page footer.

use leptos::prelude::*;

/// The bottom bar.
#[component]
pub fn Footer() -> impl IntoView {
    view! {
        <footer class="bottombar">
            <span>"Toolscope runs entirely in your browser: nothing you type leaves the page."</span>
            <span class="formats">"OpenAI Chat · OpenAI Responses · Anthropic · Gemini"</span>
        </footer>
    }
}
