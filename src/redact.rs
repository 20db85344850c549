//! Secrets out of everything the page keeps, exports or shares: the Live recordings (the
//! request "as sent", the exported HAR, the link with the recording) and HAR files imported
//! from browser devtools. One set of rules for both:
//!
//! - **Headers**: a value is kept only when the header's name is on a short allow-list of
//!   harmless ones ([`KEPT_HEADERS`], [`KEPT_PREFIXES`]: content negotiation, the providers'
//!   version and beta headers from their rows of the table, OpenRouter's `X-Title`, the SDKs' `x-stainless-*` telemetry,
//!   browser `sec-*` hints, rate-limit and caching headers of responses). Every other value —
//!   `authorization`, `cookie`, `set-cookie`, `x-api-key`, a gateway's token, `X-Password`,
//!   any header we do not know — becomes [`REDACTED`] (the scheme word of `Bearer …` or
//!   `Basic …` stays, so a reader sees how the key was sent). Headers holding a URL (`:path`,
//!   `referer`, `location`) keep the URL with its secrets redacted.
//! - **URLs**: `user:password@`, and the values of query (and fragment) parameters whose name
//!   says key, token, auth, secret, password, session, signature, credential or cookie (and
//!   `sig`, `code`), or whose value looks like a key.
//! - **HAR**: `cookies` arrays emptied; `queryString` and form `params` follow the URL rule; a
//!   JSON request or response body loses its top-level credential fields (`api_key`, `token`,
//!   `access_token`, `password`, …; an LLM request or answer has none of these, a gateway's or
//!   a login's may).
//! - **Everywhere** in the document: a string that looks like a provider key (`sk-…`, `AIza…`,
//!   `AKIA…`, `ghp_…`, a JWT, …), and every other copy of a value removed above (a bearer token
//!   echoed in a response body, a cookie value in a referer), is redacted too.
//!
//! Every function returns how many values it removed, so the page can say so. Redacting twice
//! removes nothing the second time.

use crate::providers::Provider;
use serde_json::{Map, Value};

/// What stands where a secret was.
pub const REDACTED: &str = "[redacted]";

/// Header names (lower case) whose values are kept: nothing in them identifies or
/// authenticates the user. Each provider's own (versions, betas, timing, rate limits) are in
/// its row of the table ([`crate::providers::Row::keeps_header`]).
pub const KEPT_HEADERS: &[&str] = &[
    // Requests: content negotiation, the browser's own.
    "accept",
    "accept-encoding",
    "accept-language",
    "cache-control",
    "connection",
    "content-encoding",
    "content-length",
    "content-type",
    "dnt",
    "host",
    "origin",
    "pragma",
    "priority",
    "te",
    "user-agent",
    "x-title",
    ":authority",
    ":method",
    ":scheme",
    // Responses: status, caching, timing and request ids (no account data).
    ":status",
    "accept-ranges",
    "age",
    "alt-svc",
    "cf-cache-status",
    "cf-ray",
    "content-disposition",
    "date",
    "etag",
    "expires",
    "keep-alive",
    "last-modified",
    "referrer-policy",
    "request-id",
    "retry-after",
    "server",
    "strict-transport-security",
    "transfer-encoding",
    "vary",
    "via",
    "x-content-type-options",
    "x-envoy-upstream-service-time",
    "x-frame-options",
    "x-request-id",
];

/// Header name prefixes whose values are kept (browser hints, SDK telemetry, rate limits, CORS).
pub const KEPT_PREFIXES: &[&str] = &[
    "sec-ch-",
    "sec-fetch-",
    "x-stainless-",
    "x-ratelimit-",
    "access-control-",
];

/// Headers whose value is a URL: kept, with the URL's secrets redacted.
const URL_HEADERS: &[&str] = &[
    ":path",
    "referer",
    "http-referer",
    "location",
    "content-location",
];

/// Words of `Authorization` values that say how, not who.
const SCHEMES: &[&str] = &["bearer", "basic", "token", "digest", "key", "apikey"];

/// Removed values shorter than this are not searched for elsewhere (`1`, `yes` would match
/// everywhere).
const MIN_ECHO: usize = 8;

/// True when a header's value is kept as is (see [`KEPT_HEADERS`], and each provider's row).
pub fn keeps_header(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    KEPT_HEADERS.contains(&n.as_str())
        || KEPT_PREFIXES.iter().any(|p| n.starts_with(p))
        || Provider::ALL.into_iter().any(|p| p.row().keeps_header(&n))
}

/// True for a parameter or field name that says it holds a credential.
pub fn is_secret_name(name: &str) -> bool {
    let n = percent_decode(name).to_ascii_lowercase();
    [
        "key",
        "token",
        "auth",
        "secret",
        "passw",
        "pwd",
        "session",
        "signature",
        "credential",
        "cookie",
        "jwt",
    ]
    .iter()
    .any(|w| n.contains(w))
        || ["sig", "code", "pass", "pw"].contains(&n.as_str())
}

/// What was removed so far: the count, and the values themselves (to find their copies).
#[derive(Default)]
struct Scrub {
    count: usize,
    secrets: Vec<String>,
}

impl Scrub {
    fn remember(&mut self, s: &str) {
        let s = s.trim().trim_matches('"');
        if s.len() >= MIN_ECHO
            && !s.contains(char::is_whitespace)
            && !s.contains(REDACTED)
            && !self.secrets.iter().any(|x| x == s)
        {
            self.secrets.push(s.to_string());
            let decoded = percent_decode(s);
            if decoded != s && decoded.len() >= MIN_ECHO {
                self.secrets.push(decoded);
            }
        }
    }
}

fn is_redacted(v: &str) -> bool {
    let v = v.trim();
    v == REDACTED || v.split_once(' ').is_some_and(|(_, r)| r.trim() == REDACTED)
}

/// A header's value as a recording keeps it, and whether something was removed.
pub fn header(name: &str, value: &str) -> (String, bool) {
    let mut s = Scrub::default();
    let v = header_with(name, value, &mut s);
    (v, s.count > 0)
}

fn header_with(name: &str, value: &str, s: &mut Scrub) -> String {
    let n = name.trim().to_ascii_lowercase();
    if is_redacted(value) || value.trim().is_empty() {
        return value.to_string();
    }
    if URL_HEADERS.contains(&n.as_str()) {
        return url_with(value, s);
    }
    if keeps_header(&n) {
        return keys_in_text(value, s);
    }
    s.count += 1;
    // Only credentials are searched for elsewhere: an unknown header's value may be a word
    // that also sits, harmlessly, in the body.
    let credential = is_secret_name(&n) || n.contains("authorization") || looks_like_key(value);
    if n == "cookie" {
        for part in value.split(';') {
            if let Some((_, v)) = part.split_once('=') {
                s.remember(v);
            }
        }
    } else if n == "set-cookie" {
        // `name=value; Path=/; Domain=…`: only the first pair is the secret.
        if let Some((_, v)) = value.split(';').next().and_then(|p| p.split_once('=')) {
            s.remember(v);
        }
    }
    let scheme = value
        .trim()
        .split_once(' ')
        .filter(|(w, _)| SCHEMES.contains(&w.to_ascii_lowercase().as_str()));
    match scheme {
        Some((w, rest)) => {
            if credential {
                s.remember(rest);
            }
            format!("{w} {REDACTED}")
        }
        None => {
            if credential {
                s.remember(value);
            }
            REDACTED.to_string()
        }
    }
}

/// The URL with `user:password@` and the values of secret-looking query and fragment
/// parameters redacted (relative URLs and bare paths too), and the number removed.
pub fn url(url: &str) -> (String, usize) {
    let mut s = Scrub::default();
    let out = url_with(url, &mut s);
    (out, s.count)
}

fn url_with(url: &str, s: &mut Scrub) -> String {
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (url, None),
    };
    let (base, query) = match before_fragment.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_fragment, None),
    };
    let mut out = match base.split_once("://") {
        Some((scheme, rest)) => {
            let end = rest.find('/').unwrap_or(rest.len());
            let (authority, tail) = rest.split_at(end);
            match authority.rsplit_once('@') {
                Some((user, host)) if user != REDACTED => {
                    s.count += 1;
                    s.remember(user.split_once(':').map_or(user, |(_, pw)| pw));
                    format!("{scheme}://{REDACTED}@{host}{tail}")
                }
                _ => base.to_string(),
            }
        }
        None => base.to_string(),
    };
    if let Some(q) = query {
        out.push('?');
        out.push_str(&params_with(q, s));
    }
    if let Some(f) = fragment {
        out.push('#');
        // A fragment is often a route (`#/chat`), sometimes OAuth's `access_token=…`.
        if f.contains('=') {
            out.push_str(&params_with(f, s));
        } else {
            out.push_str(f);
        }
    }
    out
}

/// `a=1&key=…` with the secret values redacted.
fn params_with(query: &str, s: &mut Scrub) -> String {
    query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((k, v)) if param_is_secret(k, v) => {
                s.count += 1;
                s.remember(v);
                format!("{k}={REDACTED}")
            }
            _ => p.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn param_is_secret(name: &str, value: &str) -> bool {
    !value.is_empty()
        && value != REDACTED
        && percent_decode(value) != REDACTED
        && (is_secret_name(name) || looks_like_key(&percent_decode(value)))
}

/// True for a token shaped like a provider's API key or an access token: `sk-…` (OpenAI,
/// Anthropic, DeepSeek…), `AIza…` (Google), `AKIA…`/`ASIA…` (AWS), `ghp_…` (GitHub), `xox…-`
/// (Slack), `hf_…`, `gsk_…`, `xai-…`, `ya29.…`, a JWT (`eyJ….eyJ…`).
pub fn looks_like_key(token: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "sk-",
        "sk_",
        "rk_",
        "AIza",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "xoxp-",
        "xoxa-",
        "xoxs-",
        "hf_",
        "gsk_",
        "xai-",
        "ya29.",
        "pplx-",
        "nvapi-",
        "r8_",
        "sess-",
    ];
    let t = token.trim();
    let body_ok = |rest: &str, min: usize| {
        rest.len() >= min
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    if let Some(rest) = PREFIXES.iter().find_map(|p| t.strip_prefix(p)) {
        return body_ok(rest, 16);
    }
    if let Some(rest) = t.strip_prefix("AKIA").or_else(|| t.strip_prefix("ASIA")) {
        return rest.len() == 16
            && rest
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    }
    // A JWT: header.payload[.signature], both base64url JSON objects.
    t.starts_with("eyJ") && t.contains(".eyJ") && body_ok(t, 30)
}

/// Key-shaped tokens in free text replaced by [`REDACTED`].
fn keys_in_text(text: &str, s: &mut Scrub) -> String {
    let is_tok = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
    let mut out = String::new();
    let mut last = 0;
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (is_tok(c), start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                start = None;
                let tok = text[b..i].trim_end_matches('.');
                if looks_like_key(tok) {
                    s.count += 1;
                    s.remember(tok);
                    out.push_str(&text[last..b]);
                    out.push_str(REDACTED);
                    last = b + tok.len();
                }
            }
            _ => {}
        }
    }
    if last == 0 {
        return text.to_string();
    }
    out.push_str(&text[last..]);
    out
}

/// Copies of removed values replaced by [`REDACTED`].
fn echoes_in_text(text: &str, s: &mut Scrub) -> String {
    let mut out: Option<String> = None;
    for secret in &s.secrets {
        let cur = out.as_deref().unwrap_or(text);
        let n = cur.matches(secret.as_str()).count();
        if n > 0 {
            s.count += n;
            out = Some(cur.replace(secret.as_str(), REDACTED));
        }
    }
    out.unwrap_or_else(|| text.to_string())
}

/// A HAR document with its secrets redacted in place (see the module doc); returns the number
/// of values removed.
pub fn har(v: &mut Value) -> usize {
    let mut s = Scrub::default();
    structure(v, &mut s);
    sweep(v, &mut s);
    s.count
}

/// HAR fields holding `{name, value}` parameters.
fn params_array(list: &mut [Value], s: &mut Scrub) {
    for p in list {
        let Some(o) = p.as_object_mut() else { continue };
        let name = o
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if let Some(Value::String(v)) = o.get_mut("value") {
            if param_is_secret(&name, v) {
                s.count += 1;
                s.remember(v);
                *v = REDACTED.into();
            }
        }
    }
}

/// Pass 1: headers, cookies, parameters, URLs, request bodies; collects what it removed.
fn structure(v: &mut Value, s: &mut Scrub) {
    match v {
        Value::Object(o) => {
            for (k, child) in o.iter_mut() {
                match (k.as_str(), child) {
                    ("headers", Value::Array(list)) => {
                        for h in list {
                            let Some(h) = h.as_object_mut() else { continue };
                            let name = h.get("name").and_then(Value::as_str).unwrap_or("");
                            let name = name.to_string();
                            if let Some(Value::String(val)) = h.get_mut("value") {
                                *val = header_with(&name, val, s);
                            }
                        }
                    }
                    ("cookies", Value::Array(list)) => {
                        for c in list.iter() {
                            if let Some(val) = c.get("value").and_then(Value::as_str) {
                                s.remember(val);
                            }
                        }
                        s.count += list.len();
                        list.clear();
                    }
                    ("queryString" | "params", Value::Array(list)) => params_array(list, s),
                    ("postData", Value::Object(p)) => post_data(p, s),
                    ("content", Value::Object(c)) => content(c, s),
                    (_, child) => structure(child, s),
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(|c| structure(c, s)),
        Value::String(text) => {
            let t = text.trim_start();
            let is_url = ["http://", "https://", "ws://", "wss://"].iter().any(|p| {
                t.len() > p.len() && t.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p))
            });
            if is_url && !t.contains(char::is_whitespace) {
                *text = url_with(text, s);
            }
        }
        _ => {}
    }
}

/// A request body: form fields by the parameter rule, a JSON object's top-level credential
/// fields (string values only).
fn post_data(p: &mut Map<String, Value>, s: &mut Scrub) {
    if let Some(Value::Array(list)) = p.get_mut("params") {
        params_array(list, s);
    }
    let mime = p
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let Some(Value::String(text)) = p.get_mut("text") else {
        return;
    };
    if mime.contains("x-www-form-urlencoded") {
        *text = params_with(text, s);
        return;
    }
    json_credentials(text, s);
}

/// A response body (not base64): a JSON object's top-level credential fields (an OAuth token
/// endpoint's `access_token`, a login's `token`).
fn content(c: &mut Map<String, Value>, s: &mut Scrub) {
    if c.get("encoding").and_then(Value::as_str) == Some("base64") {
        return;
    }
    if let Some(Value::String(text)) = c.get_mut("text") {
        json_credentials(text, s);
    }
}

/// Top-level string fields of a JSON object named as credentials, redacted (the text is
/// written again, compact, only when one was).
fn json_credentials(text: &mut String, s: &mut Scrub) {
    if !text.trim_start().starts_with('{') {
        return;
    }
    let Ok(Value::Object(mut body)) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let mut changed = false;
    for (k, val) in body.iter_mut() {
        let n = k.to_ascii_lowercase().replace('-', "_");
        let credential = [
            "api_key",
            "apikey",
            "key",
            "access_token",
            "refresh_token",
            "id_token",
            "token",
            "auth",
            "authorization",
            "password",
            "secret",
            "client_secret",
            "x_api_key",
            "session_token",
        ]
        .contains(&n.as_str());
        if let Value::String(sv) = val {
            if credential && !sv.is_empty() && sv != REDACTED {
                s.count += 1;
                s.remember(sv);
                *sv = REDACTED.into();
                changed = true;
            }
        }
    }
    if changed {
        *text = serde_json::to_string(&Value::Object(body)).unwrap_or_default();
    }
}

/// Pass 2: every string (but base64 bodies) loses key-shaped tokens and copies of what pass 1
/// removed.
fn sweep(v: &mut Value, s: &mut Scrub) {
    match v {
        Value::Object(o) => {
            let base64 = o.get("encoding").and_then(Value::as_str) == Some("base64");
            for (k, child) in o.iter_mut() {
                if base64 && k == "text" {
                    continue;
                }
                sweep(child, s);
            }
        }
        Value::Array(list) => list.iter_mut().for_each(|c| sweep(c, s)),
        Value::String(text) => {
            let t = keys_in_text(text, s);
            *text = echoes_in_text(&t, s);
        }
        _ => {}
    }
}

/// HAR text with its secrets redacted: `None` when the text is not a HAR document. Unchanged
/// (byte for byte) when nothing was removed, else pretty-printed again.
pub fn har_text(text: &str) -> Option<(String, usize)> {
    let t = text.trim_start();
    if !t.starts_with('{') || !t.contains("\"log\"") {
        return None;
    }
    let mut v: Value = serde_json::from_str(t).ok()?;
    if !crate::stream::har::is_har(&v) {
        return None;
    }
    let n = har(&mut v);
    if n == 0 {
        return Some((text.to_string(), 0));
    }
    Some((serde_json::to_string_pretty(&v).unwrap_or_default(), n))
}

/// Credential header lines of a capture (`curl -v`'s `> Authorization: …`, `set-cookie:` of
/// `curl -i`) and key-shaped tokens redacted in text that is not a HAR document.
pub fn plain_text(text: &str) -> (String, usize) {
    let mut s = Scrub::default();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\r', '\n']);
        let end = &line[body.len()..];
        let lead = body.len() - body.trim_start_matches(['<', '>', ' ', '*']).len();
        let (prefix, rest) = body.split_at(lead);
        let cred = rest.split_once(':').filter(|(name, _)| {
            let n = name.trim().to_ascii_lowercase();
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && (n == "cookie"
                    || n == "set-cookie"
                    || n.contains("authorization")
                    || n.ends_with("api-key")
                    || n.contains("token")
                    || n.contains("secret")
                    || n.contains("password"))
        });
        match cred {
            Some((name, value)) if !is_redacted(value) && !value.trim().is_empty() => {
                let v = header_with(name, value.trim(), &mut s);
                out.push_str(prefix);
                out.push_str(name);
                out.push_str(": ");
                out.push_str(&v);
                out.push_str(end);
                changed = true;
            }
            _ => out.push_str(line),
        }
    }
    let text2 = if changed { out } else { text.to_string() };
    let t = keys_in_text(&text2, &mut s);
    let t = echoes_in_text(&t, &mut s);
    (t, s.count)
}

/// Any replay input (a HAR document, a capture, a stream) with its secrets redacted, and the
/// number of values removed. Unchanged when there is nothing to remove.
pub fn replay_text(text: &str) -> (String, usize) {
    har_text(text).unwrap_or_else(|| plain_text(text))
}

/// `%xx` decoded where it makes UTF-8; anything else left as is.
fn percent_decode(s: &str) -> String {
    if !s.contains('%') && !s.contains('+') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_headers_by_allow_list() {
        assert_eq!(header("X-Password", "hunter2"), (REDACTED.into(), true));
        assert_eq!(
            header("Authorization", "Bearer sk-abc"),
            (format!("Bearer {REDACTED}"), true)
        );
        assert_eq!(
            header("content-type", "application/json"),
            ("application/json".into(), false)
        );
        assert!(!header("x-stainless-lang", "js").1);
        assert!(header("X-Whatever", "1").1);
        assert!(!header("authorization", &format!("Bearer {REDACTED}")).1);
        assert_eq!(
            header("referer", "https://a.example/p?api_key=zzz&x=1").0,
            format!("https://a.example/p?api_key={REDACTED}&x=1")
        );
    }

    #[test]
    fn redact_urls() {
        assert_eq!(
            url("https://u:pw@h.example/v1?alt=sse&key=AIza1#access_token=t0k&x=1"),
            (
                format!("https://{REDACTED}@h.example/v1?alt=sse&key={REDACTED}#access_token={REDACTED}&x=1"),
                3
            )
        );
        assert_eq!(url("/v1/chat?api%5Fkey=abc").1, 1);
        assert_eq!(url("https://h/v1?q=sk-proj-abcdefghijklmnopqrstuv").1, 1);
        assert_eq!(url("https://h/#/route").1, 0);
        let (once, _) = url("https://h/?token=abc");
        assert_eq!(url(&once).1, 0);
    }

    #[test]
    fn redact_key_shapes() {
        assert!(looks_like_key("sk-ant-api03-abcdefghijklmnop"));
        assert!(looks_like_key("AIzaSyA1234567890abcdefghijklmnopqrstu"));
        assert!(looks_like_key("AKIAIOSFODNN7EXAMPLE"));
        assert!(looks_like_key("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_x"));
        assert!(!looks_like_key("sk-short"));
        assert!(!looks_like_key("chatcmpl-abcdefghijklmnopqrstuvwxyz"));
        assert!(!looks_like_key("toolu_01ABCDEFGHIJKLMNOPQRSTUV"));
        let mut s = Scrub::default();
        let t = keys_in_text("use sk-proj-abcdefghijklmnopqrstu.", &mut s);
        assert_eq!(t, format!("use {REDACTED}."));
        assert_eq!(s.count, 1);
    }

    #[test]
    fn redact_plain_captures() {
        let cap = "> POST /v1/messages HTTP/1.1\r\n> x-api-key: hunter2hunter2\r\n< set-cookie: sid=abcdef123456; Path=/\r\n\r\ndata: {\"k\":\"hunter2hunter2\"}\n";
        let (t, n) = plain_text(cap);
        assert!(!t.contains("hunter2") && !t.contains("abcdef123456"), "{t}");
        assert_eq!(n, 3, "{t}");
        assert!(t.contains("data: {"));
        assert_eq!(plain_text(&t).1, 0);
        assert_eq!(plain_text("data: {}\n\n").0, "data: {}\n\n");
    }

    #[test]
    fn redact_never_panics_on_odd_text() {
        for t in [
            "htt€://x",
            "h€",
            "€€€€€€€€€",
            "sk-€€€€€€€€€€€€€€€€€€",
            "%",
            "%€",
            "a=%e2%82",
            "@",
            "://@",
            "https://€@x/?€=€#€=sk-abcdefghijklmnopqrstu",
            "> x-api-key:",
            "> :\n< set-cookie: ;",
        ] {
            let _ = url(t);
            let _ = header("authorization", t);
            let _ = header("cookie", t);
            let _ = plain_text(t);
            let har = serde_json::json!({"log": {"entries": [{"request": {"url": t,
                "headers": [{"name": t, "value": t}], "queryString": [{"name": t, "value": t}],
                "cookies": [{"value": t}], "postData": {"mimeType": t, "text": t}}}]}});
            let _ = har_text(&har.to_string());
        }
    }

    #[test]
    fn redact_percent_decode() {
        assert_eq!(percent_decode("a%5Fb+c"), "a_b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
