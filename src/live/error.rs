//! A provider's error answer, read from its body whatever the provider: OpenAI
//! `{"error":{"message","type","code"}}`, Anthropic `{"type":"error","error":{"type","message"}}`,
//! Gemini `{"error":{"code","message","status"}}` (sometimes inside an array), vLLM
//! `{"object":"error","message"}`, FastAPI `{"detail": …}`, or plain text.

use super::Provider;
use serde::Serialize;
use serde_json::Value;

/// Longest body kept for display.
const MAX_BODY: usize = 64 * 1024;

/// A failed round, as shown to the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderError {
    /// HTTP status (0 when no response was read: network or CORS failure).
    pub status: u16,
    /// The provider's error type or code (`invalid_api_key`, `authentication_error`,
    /// `RESOURCE_EXHAUSTED`), when it sends one.
    pub kind: Option<String>,
    /// The provider's message, or ours when there is no body.
    pub message: String,
    /// `retry-after`, as sent (seconds or an HTTP date).
    pub retry_after: Option<String>,
    /// The body as received (pretty-printed when JSON; cut at 64 KiB).
    pub body: String,
    /// What to do about it.
    pub hint: Option<String>,
}

/// Read an error answer: status, `retry-after` and body.
pub fn read(
    provider: Provider,
    status: u16,
    retry_after: Option<&str>,
    body: &str,
) -> ProviderError {
    let parsed: Option<Value> = serde_json::from_str(body.trim()).ok();
    let (kind, message) = parsed
        .as_ref()
        .and_then(fields)
        .unwrap_or((None, String::new()));
    let message = if message.is_empty() {
        let text = body.trim();
        if text.is_empty() || parsed.is_some() {
            format!("HTTP {status} {}", reason(status))
        } else {
            cut(text, 500)
        }
    } else {
        message
    };
    let shown = match &parsed {
        Some(v) => serde_json::to_string_pretty(v).unwrap_or_else(|_| body.to_string()),
        None => body.to_string(),
    };
    let retry_after = retry_after
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    ProviderError {
        status,
        hint: hint(provider, status, retry_after.as_deref(), &message),
        kind,
        message,
        retry_after,
        body: cut(&shown, MAX_BODY),
    }
}

/// An error event inside a 200 stream (Anthropic `event: error`, an OpenAI chunk with
/// `error`), when `data` is one.
pub fn from_event(provider: Provider, data: &str) -> Option<ProviderError> {
    let v: Value = serde_json::from_str(data).ok()?;
    let is_error = v.get("type").and_then(Value::as_str) == Some("error")
        || v.get("error")
            .is_some_and(|e| e.is_object() || e.is_string());
    if !is_error {
        return None;
    }
    let (kind, message) = fields(&v)?;
    Some(ProviderError {
        status: 200,
        hint: Some(
            "The provider sent an error in the middle of the stream (overloaded or a server \
             error): send again."
                .into(),
        ),
        kind,
        message,
        retry_after: None,
        body: cut(
            &serde_json::to_string_pretty(&v).unwrap_or_default(),
            MAX_BODY,
        ),
    })
    .filter(|_| provider.row.error_events)
}

/// `(kind, message)` from the known error shapes.
fn fields(v: &Value) -> Option<(Option<String>, String)> {
    let v = match v {
        Value::Array(a) => a.first()?,
        v => v,
    };
    let s = |v: Option<&Value>| -> Option<String> {
        match v? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    };
    if let Some(e) = v.get("error") {
        if let Some(text) = e.as_str() {
            return Some((s(v.get("type")), text.to_string()));
        }
        let kind = s(e.get("type"))
            .filter(|t| !t.is_empty())
            .or_else(|| s(e.get("status")))
            .or_else(|| s(e.get("code")));
        let code = s(e.get("code")).filter(|c| Some(c) != kind.as_ref());
        let kind = match (kind, code) {
            (Some(k), Some(c)) if e.get("status").is_none() => Some(format!("{k} ({c})")),
            (k, _) => k,
        };
        return Some((kind, s(e.get("message")).unwrap_or_default()));
    }
    if let Some(m) = s(v.get("message")) {
        return Some((s(v.get("type")).or_else(|| s(v.get("code"))), m));
    }
    if let Some(d) = v.get("detail") {
        let m = match d {
            Value::String(s) => s.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        return Some((None, m));
    }
    None
}

fn hint(
    provider: Provider,
    status: u16,
    retry_after: Option<&str>,
    message: &str,
) -> Option<String> {
    let key_where = provider.api().console;
    let invalid_key = message.to_ascii_lowercase().contains("api key");
    let bad_key = provider.bad_key_status();
    Some(match status {
        s if s == bad_key && s != 401 && invalid_key => {
            let name = provider.family().map_or("The server", |p| p.name());
            format!("{name} answers a bad key with {s}: check the key (made at {key_where}).")
        }
        401 => format!("The key was refused: check it (keys are made at {key_where})."),
        403 => "The key is valid but may not use this model or endpoint.".into(),
        400 | 422 => "The provider refused the request body: the message says which field.".into(),
        404 => "Not found: check the base URL and the model id.".into(),
        413 => "The request is too large for the provider.".into(),
        429 => match retry_after {
            Some(r) => format!("Rate limited: the provider asks to retry after {r} s."),
            None => "Rate limited or out of quota: wait, or check the plan's limits.".into(),
        },
        500..=599 => "The provider failed (or is overloaded): send again.".into(),
        _ => return None,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "",
    }
}

/// At most `max` bytes of `s`, cut at a character boundary.
fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or(""))
}
