//! Focus and the keyboard: where focus goes after an action, which element counts as a control
//! (single-letter shortcuts stay quiet there), the ARIA tabs and menu patterns (arrow keys, Home,
//! End), and the focus trap of a modal dialog.
//!
//! Patterns: <https://www.w3.org/WAI/ARIA/apg/patterns/tabs/>,
//! <https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/>,
//! <https://www.w3.org/WAI/ARIA/apg/patterns/dialog-modal/>.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the keyboard can operate: focus on one of these means keys belong to it.
const CONTROLS: &str = "a[href], button, input, select, textarea, summary, [role=tab], \
     [role=menuitem], [role=button], [contenteditable=true], .cm-editor, \
     [tabindex]:not([tabindex='-1'])";
/// What Tab reaches inside a dialog.
const TABBABLE: &str = "a[href], button:not([disabled]), input:not([disabled]), \
     select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// The element a keyboard event is aimed at.
pub fn target_element(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// Is the focus on a control (a button, a field, a tab, a link, an editor, …)? Then a
/// single-letter key is that control's, never a page shortcut.
pub fn on_control(el: &web_sys::Element) -> bool {
    el.closest(CONTROLS).ok().flatten().is_some()
}

/// Focus the element `selector` names once it exists (a row drawn after an edit appears a frame
/// or two later; a long list draws its last rows once scrolled there, so `list` is scrolled to
/// its end while the element is missing).
pub fn focus_soon(selector: String, list: Option<&'static str>) {
    fn attempt(selector: String, list: Option<&'static str>, tries: u32) {
        let Some(doc) = document() else { return };
        let found = doc
            .query_selector(&selector)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        match found {
            Some(el) => {
                let _ = el.focus();
            }
            None if tries < 30 => {
                if tries == 2 {
                    if let Some(end) = list
                        .and_then(|l| doc.query_selector(l).ok().flatten())
                        .and_then(|l| l.last_element_child())
                    {
                        end.scroll_into_view_with_bool(false);
                    }
                }
                request_animation_frame(move || attempt(selector, list, tries + 1));
            }
            None => {}
        }
    }
    request_animation_frame(move || attempt(selector, list, 0));
}

/// Focus the element whose `data-testid` is `testid`, once it exists.
pub fn focus_testid(testid: &str) {
    focus_soon(format!("[data-testid=\"{testid}\"]"), None);
}

/// Move focus into a view (a tab panel) after a shortcut switched to it: its first field when
/// `field`, else the panel itself.
pub fn focus_view(panel: &'static str, field: bool) {
    let sel = if field {
        format!("#{panel} :is(input:not([type=hidden]), select, textarea, .cm-content)")
    } else {
        format!("#{panel}")
    };
    focus_soon(sel, None);
}

/// Arrow keys, Home and End on a tab (`[role=tab]` in a `[role=tablist]`): focus and select the
/// next, previous, first or last tab. True when the key was used.
pub fn tab_keys(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(tab) =
        target_element(ev).filter(|e| e.get_attribute("role").as_deref() == Some("tab"))
    else {
        return false;
    };
    let Some(list) = tab.closest("[role=tablist]").ok().flatten() else {
        return false;
    };
    let vertical = list.get_attribute("aria-orientation").as_deref() == Some("vertical");
    let (prev, next) = if vertical {
        ("ArrowUp", "ArrowDown")
    } else {
        ("ArrowLeft", "ArrowRight")
    };
    let tabs = elements(&list, "[role=tab]");
    let Some(i) = tabs.iter().position(|t| *t == tab) else {
        return false;
    };
    let n = tabs.len();
    let to = match ev.key().as_str() {
        k if k == next => (i + 1) % n,
        k if k == prev => (i + n - 1) % n,
        "Home" => 0,
        "End" => n - 1,
        _ => return false,
    };
    if let Some(t) = tabs
        .get(to)
        .and_then(|t| t.dyn_ref::<web_sys::HtmlElement>())
    {
        let _ = t.focus();
        t.click();
    }
    true
}

/// Arrow keys, Home and End in an open menu (`details.menu` with `[role=menuitem]`s), and
/// ArrowDown / ArrowUp on its closed button (opens it on the first / last item). True when the
/// key was used.
pub fn menu_keys(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = target_element(ev) else {
        return false;
    };
    let Some(menu) = el.closest("details.menu").ok().flatten() else {
        return false;
    };
    let items = elements(&menu, "[role=menuitem]");
    if items.is_empty() {
        return false;
    }
    let key = ev.key();
    let on_button = el.tag_name() == "SUMMARY";
    let at = items.iter().position(|i| *i == el);
    let n = items.len();
    let to = match (key.as_str(), at) {
        ("ArrowDown", Some(i)) => (i + 1) % n,
        ("ArrowUp", Some(i)) => (i + n - 1) % n,
        ("ArrowDown", None) if on_button => 0,
        ("ArrowUp", None) if on_button => n - 1,
        ("Home", Some(_)) => 0,
        ("End", Some(_)) => n - 1,
        _ => return false,
    };
    if on_button {
        let _ = menu.set_attribute("open", "");
    }
    if let Some(item) = items
        .get(to)
        .and_then(|t| t.dyn_ref::<web_sys::HtmlElement>())
    {
        let _ = item.focus();
    }
    true
}

/// Keep Tab and Shift+Tab inside `dialog` (a modal): from the last control to the first and
/// back. True when the key was used.
pub fn trap_tab(ev: &web_sys::KeyboardEvent, dialog: &web_sys::Element) -> bool {
    if ev.key() != "Tab" {
        return false;
    }
    let all = elements(dialog, TABBABLE);
    let (Some(first), Some(last)) = (all.first(), all.last()) else {
        return false;
    };
    let active = document().and_then(|d| d.active_element());
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    let to = if ev.shift_key() {
        (!inside || active.as_ref() == Some(first)).then_some(last)
    } else {
        (!inside || active.as_ref() == Some(last)).then_some(first)
    };
    match to.and_then(|t| t.dyn_ref::<web_sys::HtmlElement>()) {
        Some(t) => {
            let _ = t.focus();
            true
        }
        None => false,
    }
}

/// The element that has the focus now (to give it back later), unless it is the page itself.
pub fn active() -> Option<web_sys::HtmlElement> {
    document()
        .and_then(|d| d.active_element())
        .filter(|e| e.tag_name() != "BODY")
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Every element under `root` matching `selector`, in document order.
fn elements(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let Ok(list) = root.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}
