//! The outside world of the page: clipboard, files, localStorage, the URL fragment. Thin
//! wrappers that never panic: a browser without one of these (private mode storage, no
//! clipboard permission) degrades to a message, not a crash.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};

/// localStorage key of the autosaved state.
pub const STORAGE_KEY: &str = "toolscope.state.v1";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// Put `text` on the clipboard (fire and forget).
pub fn copy_text(text: &str) {
    let Some(w) = window() else { return };
    let promise = w.navigator().clipboard().write_text(text);
    spawn_local(async move {
        let _ = JsFuture::from(promise).await;
    });
}

/// Offer `text` as a file download named `name`.
pub fn download(name: &str, text: &str) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        if let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() {
            a.set_href(&url);
            a.set_download(name);
            a.set_rel("noopener");
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The stored value of `key`.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Store `value` under `key`; false when the browser refuses (quota, private mode).
pub fn save(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Forget the stored value of `key`.
pub fn remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// True when the page is shown inside a frame of another page (its own tab is not the top).
/// Framed, the page takes no keys: a framing site could overlay and harvest them.
pub fn framed() -> bool {
    let Some(w) = window() else { return false };
    match w.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &w),
        // Reading `top` throws only across origins in odd browsers: framed either way.
        _ => true,
    }
}

/// True when the page was served over https (the live checks need it).
pub fn page_secure() -> bool {
    window()
        .and_then(|w| w.location().protocol().ok())
        .is_some_and(|p| p == "https:")
}

/// The page's origin (`http://127.0.0.1:8080`), for CORS explanations.
pub fn origin() -> String {
    window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// The URL fragment without its `#`.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Set the URL fragment without a reload or a history entry.
pub fn set_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let Ok(href) = w.location().href() else {
        return;
    };
    let base = href.split('#').next().unwrap_or_default();
    let url = if fragment.is_empty() {
        base.to_string()
    } else {
        format!("{base}#{fragment}")
    };
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The page's address with this fragment.
pub fn link_with(fragment: &str) -> String {
    let href = window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    format!("{}#{fragment}", href.split('#').next().unwrap_or_default())
}

/// Read a dropped or picked file as text, then call `done`.
pub fn read_file(file: web_sys::File, done: impl FnOnce(String, Result<String, String>) + 'static) {
    let name = file.name();
    spawn_local(async move {
        let r = match JsFuture::from(file.text()).await {
            Ok(v) => v.as_string().ok_or_else(|| "not text".to_string()),
            Err(_) => Err("the browser could not read the file".to_string()),
        };
        done(name, r);
    });
}
