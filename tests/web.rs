//! Component tests in headless Chromium (wasm-bindgen-test): the app mounted into a page,
//! driven by DOM events, asserted on the DOM.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("document")
}

/// Mount the app into a fresh container and return it (the handle stays mounted).
fn mount() -> Element {
    let doc = document();
    let container = doc.create_element("div").expect("div");
    doc.body()
        .expect("body")
        .append_child(&container)
        .expect("append");
    let handle = leptos::mount::mount_to(container.clone().unchecked_into(), toolscope::ui::App);
    std::mem::forget(handle);
    container
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn type_into_editor(root: &Element, value: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector("#exchange-input")
        .ok()
        .flatten()
        .expect("editor")
        .unchecked_into();
    area.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
    area.dispatch_event(&ev).expect("dispatch");
}

#[wasm_bindgen_test]
async fn web_app_renders_a_pane_per_format() {
    let root = mount();
    leptos::task::tick().await;
    let panes = root.query_selector_all(".pane").expect("panes");
    assert_eq!(panes.length(), toolscope::formats::Format::ALL.len() as u32);
    assert!(text(&root, ".status").contains("Canonical exchange"));
}

#[wasm_bindgen_test]
async fn web_broken_input_shows_position_and_keeps_panes() {
    let root = mount();
    leptos::task::tick().await;
    let before = text(&root, "[data-format=\"gemini\"] .doc");
    type_into_editor(&root, "{\n  \"messages\": [,]\n}");
    leptos::task::tick().await;
    let status = text(&root, ".status.error");
    assert!(status.contains("line 2, column 16"), "{status}");
    assert_eq!(text(&root, "[data-format=\"gemini\"] .doc"), before);
}

#[wasm_bindgen_test]
async fn web_edit_reencodes_every_pane() {
    let root = mount();
    leptos::task::tick().await;
    let before = text(&root, "[data-format=\"openai-chat\"] .doc");
    type_into_editor(
        &root,
        r#"{"messages": [{"role": "user", "parts": [{"type": "text", "text": "Hello from the test"}]}]}"#,
    );
    leptos::task::tick().await;
    let after = text(&root, "[data-format=\"openai-chat\"] .doc");
    assert_ne!(after, before);
    assert!(after.contains("Hello from the test"), "{after}");
}
