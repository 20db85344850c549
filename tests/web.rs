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
    // Each test starts from the first example, not from what an earlier test autosaved.
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.clear();
    }
    let container = doc.create_element("div").expect("div");
    let _ = container.set_attribute("data-test-app", "");
    doc.body()
        .expect("body")
        .append_child(&container)
        .expect("append");
    let handle = leptos::mount::mount_to(container.clone().unchecked_into(), toolscope::ui::App);
    std::mem::forget(handle);
    container
}

/// Let the app's effects run: an edit reaches the panes through a chain of effects (the
/// exchange, then each pane's encoding in its turn: after the next paint for panes in view,
/// after a quiet moment for the others, then its editor).
async fn settle() {
    for _ in 0..6 {
        for _ in 0..8 {
            leptos::task::tick().await;
        }
        sleep(50).await;
    }
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// The fallback text area of an editor (the CodeMirror bundle is not served to these tests).
fn area(root: &Element, testid: &str) -> HtmlTextAreaElement {
    root.query_selector(&format!("[data-testid=\"{testid}\"] textarea"))
        .ok()
        .flatten()
        .expect("editor textarea")
        .unchecked_into()
}

fn click(root: &Element, testid: &str) {
    let el: web_sys::HtmlElement = root
        .query_selector(&format!("[data-testid=\"{testid}\"]"))
        .ok()
        .flatten()
        .expect("button")
        .unchecked_into();
    el.click();
}

fn type_into(root: &Element, testid: &str, value: &str) {
    let area = area(root, testid);
    area.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
    area.dispatch_event(&ev).expect("dispatch");
}

#[wasm_bindgen_test]
async fn web_app_renders_a_pane_per_format() {
    let root = mount();
    settle().await;
    let panes = root.query_selector_all(".pane").expect("panes");
    assert_eq!(panes.length(), toolscope::formats::Format::ALL.len() as u32);
    assert!(area(&root, "editor-gemini")
        .value()
        .contains("functionDeclarations"));
    assert!(text(&root, "[data-testid=\"tools-editor\"]").contains("Tools (1)"));
}

#[wasm_bindgen_test]
async fn web_broken_input_shows_position_and_keeps_panes() {
    let root = mount();
    settle().await;
    click(&root, "tab-json");
    settle().await;
    let before = area(&root, "editor-gemini").value();
    type_into(&root, "canonical-editor", "{\n  \"messages\": [,]\n}");
    settle().await;
    let status = text(&root, "[data-testid=\"canonical-error\"]");
    assert!(status.contains("line 2, column 16"), "{status}");
    assert_eq!(area(&root, "editor-gemini").value(), before);
}

#[wasm_bindgen_test]
async fn web_pane_edit_reencodes_every_other_pane() {
    let root = mount();
    settle().await;
    let doc = r#"{"model": "m", "messages": [{"role": "user", "content": "Hello from the test"}]}"#;
    type_into(&root, "editor-openai-chat", doc);
    settle().await;
    assert!(area(&root, "editor-anthropic")
        .value()
        .contains("Hello from the test"));
    assert!(area(&root, "editor-gemini")
        .value()
        .contains("Hello from the test"));
    // The edited pane keeps the text as typed.
    assert_eq!(area(&root, "editor-openai-chat").value(), doc);
}

#[wasm_bindgen_test]
async fn web_structured_edit_adds_a_message_everywhere() {
    let root = mount();
    settle().await;
    let before = root
        .query_selector_all(".message")
        .expect("messages")
        .length();
    click(&root, "add-user");
    settle().await;
    assert_eq!(
        root.query_selector_all(".message")
            .expect("messages")
            .length(),
        before + 1
    );
    type_into_field(&root, "text-4-0", "A new question");
    settle().await;
    assert!(area(&root, "editor-bedrock")
        .value()
        .contains("A new question"));
}

/// Each card's fields are owned by the card's own form (after each key the browser's autofill
/// reads the form of the field typed in: one card's fields, not every field of the page), and
/// submitting it (Enter in a card's only text field) stays on the page.
#[wasm_bindgen_test]
async fn web_card_fields_belong_to_their_card_form() {
    // A form is found by its id in the document: the apps earlier tests mounted leave it.
    let earlier = document()
        .query_selector_all("[data-test-app]")
        .expect("apps");
    for i in 0..earlier.length() {
        if let Some(app) = earlier.get(i) {
            app.unchecked_into::<Element>().remove();
        }
    }
    let root = mount();
    settle().await;
    let cards = root
        .query_selector_all(".card.message, .card.tool")
        .expect("cards");
    assert!(cards.length() > 4);
    for c in 0..cards.length() {
        let card: Element = cards.get(c).expect("card").unchecked_into();
        let form = card.query_selector("form").ok().flatten().expect("form");
        let fields = card
            .query_selector_all("input, textarea, select")
            .expect("fields");
        assert!(fields.length() > 0);
        for f in 0..fields.length() {
            let field = fields.get(f).expect("field");
            // The code editor's fallback text area is not a form field of the card.
            if field
                .unchecked_ref::<Element>()
                .closest(".code")
                .ok()
                .flatten()
                .is_some()
            {
                continue;
            }
            let owner = js_sys::Reflect::get(&field, &"form".into()).expect("form owner");
            assert_eq!(
                owner,
                wasm_bindgen::JsValue::from(form.clone()),
                "{:?}",
                card.get_attribute("data-testid")
            );
        }
        let submit = web_sys::Event::new_with_event_init_dict("submit", &{
            let init = web_sys::EventInit::new();
            init.set_cancelable(true);
            init
        })
        .expect("event");
        form.dispatch_event(&submit).expect("dispatch");
        assert!(submit.default_prevented());
    }
}

fn type_into_field(root: &Element, testid: &str, value: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector(&format!("[data-testid=\"{testid}\"]"))
        .ok()
        .flatten()
        .expect("field")
        .unchecked_into();
    area.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("input", &init).expect("event");
    area.dispatch_event(&ev).expect("dispatch");
}

/// Wait `ms` milliseconds of real time (frames and idle callbacks run meanwhile).
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

#[wasm_bindgen_test]
async fn web_a_long_conversation_draws_only_rows_near_the_view() {
    let root = mount();
    settle().await;
    let mut messages = Vec::new();
    for i in 0..200 {
        messages.push(format!(
            r#"{{"role":"user","parts":[{{"type":"text","text":"Question {i}"}}]}}"#
        ));
        messages.push(format!(
            r#"{{"role":"assistant","parts":[{{"type":"tool_call","id":"c{i}","name":"noop","arguments":{{}}}}]}}"#
        ));
        messages.push(format!(
            r#"{{"role":"tool","parts":[{{"type":"tool_result","call_id":"c{i}","content":{{"text":"r{i}"}}}}]}}"#
        ));
    }
    let doc = format!(
        r#"{{"tools":[{{"name":"noop","input_schema":{{"type":"object"}}}}],"messages":[{}]}}"#,
        messages.join(",")
    );
    click(&root, "tab-json");
    settle().await;
    type_into(&root, "canonical-editor", &doc);
    settle().await;
    click(&root, "tab-edit");
    settle().await;
    // The panes follow in their turn (after a paint, or when idle).
    for _ in 0..50 {
        if area(&root, "editor-openai-chat")
            .value()
            .contains("Question 199")
        {
            break;
        }
        sleep(50).await;
    }
    assert!(area(&root, "editor-openai-chat")
        .value()
        .contains("Question 199"));
    let drawn = root
        .query_selector_all(".message")
        .expect("messages")
        .length();
    assert!(drawn < 200, "{drawn} of 600 rows drawn");
    // A result's call picker holds its own call only, until it is used.
    if let Some(select) = root
        .query_selector("[data-testid$=\"-call\"][data-testid^=\"result-\"]")
        .ok()
        .flatten()
    {
        assert!(
            select
                .query_selector_all("option")
                .expect("options")
                .length()
                <= 2
        );
    }
}

#[wasm_bindgen_test]
fn web_editor_offsets_and_edits_cross_characters_safely() {
    use toolscope::ui::cm::{changed_range, to_byte, to_utf16};
    // ASCII counts the same in bytes and UTF-16; beyond it, each character counts its units.
    assert_eq!(to_utf16("abc", 2), 2);
    assert_eq!(to_byte("abc", 2), 2);
    let t = "aé😀b";
    assert_eq!(to_utf16(t, t.len()), 5);
    assert_eq!(to_utf16(t, 2), 1); // inside é: its start
    assert_eq!(to_byte(t, 4), 7);
    assert_eq!(to_byte(t, 9), t.len());
    // The edit sent to the editor leaves out the common prefix and suffix, whole characters.
    assert_eq!(changed_range("abcdef", "abXdef"), (2, 3, 3));
    assert_eq!(changed_range("abc", "abc"), (3, 3, 3));
    assert_eq!(changed_range("aaa", "aaaa"), (3, 3, 4));
    assert_eq!(changed_range("", "x"), (0, 0, 1));
    let (old, new) = ("xé1", "xè1");
    let (s, a, b) = changed_range(old, new);
    assert_eq!((&old[s..a], &new[s..b]), ("é", "è"));
    let (old, new) = ("😀a", "😃a");
    let (s, a, b) = changed_range(old, new);
    assert_eq!(format!("{}{}{}", &old[..s], &new[s..b], &old[a..]), new);
}
