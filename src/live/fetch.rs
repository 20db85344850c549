//! The browser side of a live call: `fetch` with an `AbortController`, the body read chunk by
//! chunk from its `ReadableStream` and handed to a callback as it arrives. No logic beyond
//! that lives here (the run is [`super::run::Run`]); nothing is ever logged, so a key cannot
//! reach the console.

use super::HttpRequest;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, ReferrerPolicy,
    RequestCache, RequestCredentials, RequestInit, RequestMode, Response,
};

/// What the network did, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Status and the headers the page may read (CORS hides the rest).
    Head {
        /// HTTP status.
        status: u16,
        /// Lower-case names.
        headers: Vec<(String, String)>,
    },
    /// A chunk of the body.
    Bytes(Vec<u8>),
    /// The body ended.
    End,
    /// `fetch` or a read rejected: network failure, CORS refusal, CSP block.
    Failed(String),
    /// The request was aborted.
    Aborted,
}

/// A request in flight, which can be aborted.
pub struct Flight {
    controller: AbortController,
}

impl Flight {
    /// A controller for one request; `None` where the browser has none.
    pub fn new() -> Option<Flight> {
        AbortController::new()
            .ok()
            .map(|controller| Flight { controller })
    }

    /// The signal to pass to [`send`].
    pub fn signal(&self) -> AbortSignal {
        self.controller.signal()
    }

    /// Abort the request: `fetch` or the pending read rejects and [`send`] reports
    /// [`Progress::Aborted`].
    pub fn abort(&self) {
        self.controller.abort();
    }
}

fn js_error(e: &JsValue) -> (String, String) {
    let get = |k: &str| {
        js_sys::Reflect::get(e, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    (get("name"), get("message"))
}

fn failure(e: &JsValue, signal: &AbortSignal) -> Progress {
    let (name, message) = js_error(e);
    if signal.aborted() || name == "AbortError" {
        Progress::Aborted
    } else {
        Progress::Failed(if message.is_empty() { name } else { message })
    }
}

/// Send `req` and report what happens to `on`, chunk by chunk, until the end, a failure or
/// an abort. Cookies are never sent and no referrer is given.
pub async fn send(req: &HttpRequest, signal: &AbortSignal, mut on: impl FnMut(Progress)) {
    let Some(window) = web_sys::window() else {
        on(Progress::Failed("no window".into()));
        return;
    };
    let headers = match Headers::new() {
        Ok(h) => h,
        Err(e) => {
            on(failure(&e, signal));
            return;
        }
    };
    for (k, v) in &req.headers {
        if let Err(e) = headers.append(k, v) {
            on(failure(&e, signal));
            return;
        }
    }
    let init = RequestInit::new();
    init.set_method(&req.method);
    init.set_headers(&headers);
    // A GET or HEAD may not carry a body, not even an empty one.
    if !(req.method.eq_ignore_ascii_case("GET") || req.method.eq_ignore_ascii_case("HEAD")) {
        init.set_body(&JsValue::from_str(&req.body));
    }
    init.set_mode(RequestMode::Cors);
    init.set_credentials(RequestCredentials::Omit);
    init.set_cache(RequestCache::NoStore);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_signal(Some(signal));
    let response = match JsFuture::from(window.fetch_with_str_and_init(&req.url, &init)).await {
        Ok(r) => r,
        Err(e) => {
            on(failure(&e, signal));
            return;
        }
    };
    let Ok(response) = response.dyn_into::<Response>() else {
        on(Progress::Failed("fetch returned no Response".into()));
        return;
    };
    let mut list = Vec::new();
    if let Ok(Some(iter)) = js_sys::try_iter(&response.headers()) {
        for pair in iter.flatten() {
            let pair = js_sys::Array::from(&pair);
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                list.push((k.to_ascii_lowercase(), v));
            }
        }
    }
    on(Progress::Head {
        status: response.status(),
        headers: list,
    });
    let Some(body) = response.body() else {
        on(Progress::End);
        return;
    };
    let Ok(reader) = body.get_reader().dyn_into::<ReadableStreamDefaultReader>() else {
        on(Progress::Failed(
            "the body cannot be read as a stream".into(),
        ));
        return;
    };
    loop {
        let chunk = match JsFuture::from(reader.read()).await {
            Ok(c) => c,
            Err(e) => {
                on(failure(&e, signal));
                return;
            }
        };
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            on(Progress::End);
            return;
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
                on(Progress::Bytes(bytes.to_vec()));
            }
        }
    }
}

/// After a failed `fetch`: does anything answer at `url`? A `no-cors` GET resolves (with an
/// opaque response) when the server is up, whatever its CORS rules, and rejects when it is
/// unreachable. Carries no headers, so no key.
pub async fn reachable(url: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(RequestMode::NoCors);
    init.set_credentials(RequestCredentials::Omit);
    init.set_cache(RequestCache::NoStore);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .is_ok()
}

/// Milliseconds on the page's monotonic clock.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Milliseconds since the Unix epoch.
pub fn wall() -> f64 {
    js_sys::Date::now()
}

/// What came back for a request read whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Whole {
    /// HTTP status.
    pub status: u16,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    /// The body, cut at `limit` bytes.
    pub body: Vec<u8>,
    /// The body was longer than `limit`.
    pub cut: bool,
}

/// Send `req` and read the whole answer (at most `limit` bytes of body: a runaway answer is
/// cut, and reading stops there). `Err` carries the browser's reason when `fetch` rejected
/// (network, CORS) or "aborted" when `flight` was aborted (a stop or a time limit).
pub async fn whole(req: &HttpRequest, flight: &Flight, limit: usize) -> Result<Whole, String> {
    let out = std::rc::Rc::new(std::cell::RefCell::new((
        Whole {
            status: 0,
            headers: Vec::new(),
            body: Vec::new(),
            cut: false,
        },
        None::<String>,
    )));
    let o = out.clone();
    let signal = flight.signal();
    let controller = flight.controller.clone();
    send(req, &signal, move |p| {
        let mut o = o.borrow_mut();
        match p {
            Progress::Head { status, headers } => {
                o.0.status = status;
                o.0.headers = headers;
            }
            Progress::Bytes(b) => {
                let room = limit.saturating_sub(o.0.body.len());
                if b.len() > room {
                    o.0.body.extend_from_slice(&b[..room]);
                    o.0.cut = true;
                    controller.abort();
                } else {
                    o.0.body.extend_from_slice(&b);
                }
            }
            Progress::End => {}
            Progress::Failed(m) => o.1 = Some(m),
            Progress::Aborted => {
                if !o.0.cut {
                    o.1 = Some("aborted".into());
                }
            }
        }
    })
    .await;
    let (w, failed) = out.borrow().clone();
    match failed {
        Some(m) => Err(m),
        None => Ok(w),
    }
}
