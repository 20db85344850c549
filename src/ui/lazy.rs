//! The lazy wasm module (`lazy/`, built by scripts/build-lazy.mjs into `lazy/` of the page):
//! imported on first use, then kept. [`call`] runs one of its operations (JSON in, JSON out);
//! [`vocab`] fetches a tokenizer vocabulary into it once.
//!
//! The engine it holds (cost counts, vocabularies, templates) is not in the main wasm: the page
//! paints without it, and only a view that needs it pays for it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = r#"
let loading = null;
const vocabs = new Map();
export function lazy_load() {
  if (!loading) {
    const base = new URL('lazy/', document.baseURI);
    loading = import(new URL('toolscope_lazy.js', base).href).then(async (m) => {
      await m.default({ module_or_path: new URL('toolscope_lazy_bg.wasm', base) });
      return m;
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}
export function lazy_call(op, input) {
  return lazy_load().then((m) => m.call(op, input));
}
export function lazy_vocab(name) {
  if (!vocabs.has(name)) {
    const p = Promise.all([
      lazy_load(),
      fetch(new URL(`vocab/${name}.bin`, document.baseURI)).then((r) => {
        if (!r.ok) throw new Error(`vocab/${name}.bin: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]).then(([m, b]) => m.load_vocab(name, new Uint8Array(b)));
    p.catch(() => vocabs.delete(name));
    vocabs.set(name, p);
  }
  return vocabs.get(name);
}
export function lazy_post(url, headers, body) {
  return fetch(url, { method: 'POST', headers: JSON.parse(headers), body, credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' })
    .then((r) => r.text().then((t) => [r.status, t]));
}
export function lazy_fetch_text(url) {
  return fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer' }).then((r) => {
    if (r.status === 404) return null;
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return r.text();
  });
}
"#)]
extern "C" {
    fn lazy_call(op: &str, input: &str) -> js_sys::Promise;
    fn lazy_vocab(name: &str) -> js_sys::Promise;
    fn lazy_fetch_text(url: &str) -> js_sys::Promise;
    fn lazy_post(url: &str, headers: &str, body: &str) -> js_sys::Promise;
}

/// An error's text (a JS `Error`'s message, or the value as a string).
fn reason(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the lazy module did not load".into())
}

/// The answer of the answer's JSON (`{"error": …}` becomes `Err`).
fn answer(v: JsValue) -> Result<String, String> {
    let s = v.as_string().unwrap_or_default();
    if s.starts_with("{\"error\":") {
        let e: serde_json::Value = serde_json::from_str(&s).unwrap_or_default();
        return Err(e["error"].as_str().unwrap_or(&s).to_string());
    }
    Ok(s)
}

/// Run `op` of the lazy module on `input` (JSON); its JSON answer, or why there is none.
pub async fn call(op: &str, input: &str) -> Result<String, String> {
    JsFuture::from(lazy_call(op, input))
        .await
        .map_err(reason)
        .and_then(answer)
}

/// Fetch the vocabulary `name` (`o200k_base`, `cl100k_base`) into the lazy module, once; later
/// calls wait for the same load. The fetch starts now, not when the future is first polled, so
/// two vocabularies load side by side.
pub fn vocab(name: &str) -> impl std::future::Future<Output = Result<(), String>> {
    let load = JsFuture::from(lazy_vocab(name));
    async move { load.await.map_err(reason).and_then(answer).map(|_| ()) }
}

/// GET `url` as text (no credentials, no referrer); `None` when it is not there (404).
pub async fn fetch_text(url: &str) -> Result<Option<String>, String> {
    let v = JsFuture::from(lazy_fetch_text(url)).await.map_err(reason)?;
    Ok(v.as_string())
}

/// POST `body` to `url` with `headers` (no credentials, no referrer, not cached): the status
/// and the body as text. For short answers (token counts); live runs stream with
/// [`crate::live::fetch`].
pub async fn post(
    url: &str,
    headers: &[(String, String)],
    body: &str,
) -> Result<(u16, String), String> {
    let h: serde_json::Map<String, serde_json::Value> = headers
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    let v = JsFuture::from(lazy_post(
        url,
        &serde_json::Value::Object(h).to_string(),
        body,
    ))
    .await
    .map_err(reason)?;
    let pair: js_sys::Array = v.unchecked_into();
    let status = pair.get(0).as_f64().unwrap_or(0.0) as u16;
    Ok((status, pair.get(1).as_string().unwrap_or_default()))
}
