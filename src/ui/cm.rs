//! The code editor: CodeMirror 6 (bundled from npm by `scripts/bundle-editor.mjs`, imported
//! lazily after the first paint). Until it arrives, and if it never does, a plain textarea
//! holds the same text, so the page works from the first frame.
//!
//! Rust owns the text; positions crossing into JavaScript are UTF-16 offsets, Rust's are byte
//! offsets: the conversions live here.

use super::schedule::Job;
use super::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(inline_js = r#"
let mod = null;
export function cm_load() {
  return import(new URL('editor.js', document.baseURI).href).then((m) => { mod = m; return true; });
}
export function cm_create(parent, doc, lang, readOnly, label, onChange, onCursor, onHover) {
  return mod.create(parent, { doc, lang, readOnly, label, onChange, onCursor, onHover });
}
"#)]
extern "C" {
    fn cm_load() -> js_sys::Promise;
    #[allow(clippy::too_many_arguments)]
    fn cm_create(
        parent: &web_sys::HtmlElement,
        doc: &str,
        lang: &str,
        read_only: bool,
        label: &str,
        on_change: &Closure<dyn FnMut(String)>,
        on_cursor: &Closure<dyn FnMut(f64)>,
        on_hover: &Closure<dyn FnMut(f64)>,
    ) -> Handle;

    type Handle;
    #[wasm_bindgen(method, js_name = setDoc)]
    fn set_doc(this: &Handle, text: &str);
    #[wasm_bindgen(method)]
    fn patch(this: &Handle, from: u32, to: u32, insert: &str, length: u32) -> bool;
    #[wasm_bindgen(method, js_name = setError)]
    fn set_error(this: &Handle, from: i32, to: i32, message: &str);
    #[wasm_bindgen(method, js_name = setMarks)]
    fn set_marks(this: &Handle, flat: Vec<u32>, scroll: bool);
    #[wasm_bindgen(method)]
    fn destroy(this: &Handle);
}

/// Start loading the editor module; `ready` turns true when it is there. A failure leaves the
/// textareas in place (the page stays usable) and says why in the console.
pub fn load(ready: RwSignal<bool>) {
    wasm_bindgen_futures::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(cm_load()).await {
            Ok(_) => ready.set(true),
            Err(e) => {
                LOAD_FAILED.with(|f| f.set(true));
                web_sys::console::warn_2(
                    &"code editor not loaded; plain text areas stay".into(),
                    &e,
                );
            }
        }
    });
}

thread_local! {
    /// The code editor module did not load: the plain text areas are the editors for good.
    static LOAD_FAILED: ArcRwSignal<bool> = ArcRwSignal::new(false);
}

/// Above this size, a text waits for the code editor instead of filling the plain text area
/// shown while it loads: laying out a text area of a few hundred kilobytes takes a frame of
/// half a second.
const FALLBACK_MAX: usize = 100_000;

/// Byte offset → UTF-16 offset in `text` (clamped, safe inside a character).
pub fn to_utf16(text: &str, byte: usize) -> u32 {
    let mut end = byte.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // ASCII (most documents) counts the same in both: no walk through the characters.
    if text.as_bytes()[..end].is_ascii() {
        return end as u32;
    }
    text[..end].encode_utf16().count() as u32
}

/// UTF-16 offset → byte offset in `text` (clamped).
pub fn to_byte(text: &str, utf16: usize) -> usize {
    let head = utf16.min(text.len());
    if text.as_bytes()[..head].is_ascii() {
        return head;
    }
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units >= utf16 {
            return i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// Byte offset of 1-based `line`/`column` (column in characters) in `text`.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    text[start..]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i)
}

/// The edit from `old` to `new`: the byte ranges that differ, `(start, old_end, new_end)`
/// (a common prefix and suffix left out, cut at character boundaries).
pub fn changed_range(old: &str, new: &str) -> (usize, usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let max = a.len().min(b.len());
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max - start)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - end) || !new.is_char_boundary(b.len() - end) {
        end -= 1;
    }
    (start, a.len() - end, b.len() - end)
}

/// Runs `f` on the editor, once created, with the text it shows (untracked: the caller's
/// effect decides what it follows).
fn with_live_text(
    live: StoredValue<Option<Live>, LocalStorage>,
    text: Signal<String>,
    f: impl FnOnce(&Handle, &str),
) {
    live.with_value(|l| {
        if let Some(l) = l {
            text.with_untracked(|t| f(&l.handle, t));
        }
    });
}

/// An editor and the Rust callbacks it calls (kept alive as long as it lives).
struct Live {
    handle: Handle,
    _on_change: Closure<dyn FnMut(String)>,
    _on_cursor: Closure<dyn FnMut(f64)>,
    _on_hover: Closure<dyn FnMut(f64)>,
}

/// A code editor for `text`. Edits go to `on_change`; `error` (byte range and message) is
/// marked in the text; `marks` (byte ranges) are highlighted; the pointer's position (byte
/// offset, or `None` when it leaves) goes to `on_hover`, the cursor's to `on_cursor`.
#[component]
pub fn CodeEditor(
    /// The text to show.
    #[prop(into)]
    text: Signal<String>,
    /// `json`, `xml` or `text`.
    lang: &'static str,
    /// Accessible name of the text area.
    #[prop(into)]
    label: String,
    /// `data-testid` of the editor's host element.
    #[prop(into)]
    testid: String,
    /// Called with the whole text after each edit; `None`: read-only.
    #[prop(optional)]
    on_change: Option<Callback<String>>,
    /// Parse error to mark: byte range and message.
    #[prop(optional, into)]
    error: Option<Signal<Option<(usize, usize, String)>>>,
    /// Byte ranges to highlight.
    #[prop(optional, into)]
    marks: Option<Signal<Vec<(usize, usize)>>>,
    /// Pointer position (byte offset) over the text.
    #[prop(optional)]
    on_hover: Option<Callback<Option<usize>>>,
    /// Cursor position (byte offset) after a click or key.
    #[prop(optional)]
    on_cursor: Option<Callback<usize>>,
) -> impl IntoView {
    let state = use_state();
    let host = NodeRef::<leptos::html::Div>::new();
    let live: StoredValue<Option<Live>, LocalStorage> = StoredValue::new_local(None);
    let read_only = on_change.is_none();

    // Set once this editor exists: the effects below then hand it what they hold.
    let created = RwSignal::new(false);
    // The text the editor shows, as Rust handed it or the editor reported it. The editor's
    // own edit coming back as `text` needs nothing (a keystroke in a 150 KB document must not
    // cross into JavaScript again), and a new text is sent as the edit from this one (a
    // keystroke elsewhere crosses as a few characters, not as the pane's whole document,
    // which JavaScript would then copy and compare again).
    let showing: StoredValue<Option<String>> = StoredValue::new(None);

    // Create the editor once the module is there and the host is mounted: in its turn
    // (`schedule`), editors in view first, so that a page of editors over a large exchange
    // is not built in one task.
    let aria = label.clone();
    let create = move || {
        if live.try_with_value(|l| l.is_some()) != Some(false) {
            return;
        }
        let Some(Some(el)) = host.try_get_untracked() else {
            return;
        };
        let el: &web_sys::HtmlElement = el.unchecked_ref();
        let change = Closure::<dyn FnMut(String)>::new(move |t: String| {
            if let Some(cb) = on_change {
                showing.set_value(Some(t.clone()));
                cb.run(t);
            }
        });
        let cursor = Closure::<dyn FnMut(f64)>::new(move |pos: f64| {
            if let Some(cb) = on_cursor {
                let byte = text.with_untracked(|t| to_byte(t, pos as usize));
                cb.run(byte);
            }
        });
        let hover = Closure::<dyn FnMut(f64)>::new(move |pos: f64| {
            if let Some(cb) = on_hover {
                let at = (pos >= 0.0).then(|| text.with_untracked(|t| to_byte(t, pos as usize)));
                cb.run(at);
            }
        });
        let doc = text.get_untracked();
        let handle = cm_create(el, &doc, lang, read_only, &aria, &change, &cursor, &hover);
        showing.set_value(Some(doc));
        live.set_value(Some(Live {
            handle,
            _on_change: change,
            _on_cursor: cursor,
            _on_hover: hover,
        }));
        created.set(true);
    };
    let job: StoredValue<Option<Job>, LocalStorage> = StoredValue::new_local(None);
    Effect::new(move |_| {
        if !state.editor_ready.get() || live.with_value(|l| l.is_some()) {
            return;
        }
        let Some(el) = host.get() else { return };
        job.update_value(|j| {
            // After the encodings: meanwhile the plain text area shows the same text.
            let j = j.get_or_insert_with(|| Job::later(create.clone()));
            j.set_host(Some(el.into()));
            j.request();
        });
    });

    // Keep the editor's text in step (setDoc does nothing when it is already the same).
    Effect::new(move |_| {
        let _ = created.get();
        text.with(|t| {
            if showing.with_value(|s| s.as_deref() == Some(t.as_str())) {
                return;
            }
            live.with_value(|l| {
                let Some(l) = l else { return };
                let patched = showing.with_value(|old| {
                    let Some(old) = old else { return false };
                    let (start, old_end, new_end) = changed_range(old, t);
                    // Each stretch counted once (ASCII by its length): the text is walked
                    // once, not once for `from` and again for its whole length.
                    let utf16 = |s: &str| to_utf16(s, s.len());
                    let from = utf16(&old[..start]);
                    let to = from + utf16(&old[start..old_end]);
                    let length = to + utf16(&old[old_end..]);
                    l.handle.patch(from, to, &t[start..new_end], length)
                });
                if !patched {
                    l.handle.set_doc(t);
                }
                showing.set_value(Some(t.clone()));
            });
        });
    });

    if let Some(error) = error {
        Effect::new(move |_| {
            let e = error.get();
            let _ = created.get();
            with_live_text(live, text, |h, t| match &e {
                Some((from, to, msg)) => {
                    h.set_error(to_utf16(t, *from) as i32, to_utf16(t, *to) as i32, msg)
                }
                None => h.set_error(-1, -1, ""),
            });
        });
    }

    if let Some(marks) = marks {
        Effect::new(move |_| {
            let ranges = marks.get();
            let _ = created.get();
            with_live_text(live, text, |h, t| {
                let flat: Vec<u32> = ranges
                    .iter()
                    .flat_map(|(a, b)| [to_utf16(t, *a), to_utf16(t, *b)])
                    .collect();
                h.set_marks(flat, true);
            });
        });
    }

    on_cleanup(move || {
        live.update_value(|l| {
            if let Some(l) = l.take() {
                l.handle.destroy();
            }
        });
    });

    let failed = LOAD_FAILED.with(|f| f.clone());
    let waiting = Signal::derive(move || !failed.get() && text.with(|t| t.len() > FALLBACK_MAX));
    let fallback_input = move |ev: leptos::ev::Event| {
        if let Some(cb) = on_change {
            cb.run(event_target_value(&ev));
        }
    };
    view! {
        <div class="code" data-testid=testid node_ref=host>
            <Show when=move || !created.get()>
                <textarea
                    class="code-fallback"
                    aria-label=label.clone()
                    spellcheck="false"
                    autocomplete="off"
                    readonly=move || read_only || waiting.get()
                    placeholder=move || waiting.get().then_some("Loading the code editor…")
                    prop:value=move || if waiting.get() { String::new() } else { text.get() }
                    on:input=fallback_input
                ></textarea>
            </Show>
        </div>
    }
}
