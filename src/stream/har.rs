//! HAR 1.2 import (the "Save all as HAR" export of browser devtools): list the entries, pick
//! the exchange to replay. The request's `postData.text` becomes the conversation (through
//! the formats' `read_any`), the response's `content.text` (base64 when `encoding` says
//! so) the stream.
//!
//! A devtools export carries the user's bearer token, cookies and `?api_key=`: this module
//! only reads; the page passes every HAR through [`crate::redact::har_text`] before showing,
//! storing or sharing it.

use serde_json::Value;
use std::fmt;

/// Why a HAR file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarError {
    /// Not `{"log": {"entries": [...]}}`.
    NotHar,
    /// No entry has a response body to replay.
    NoExchange,
    /// The chosen entry does not exist.
    NoEntry {
        /// Index asked for.
        index: usize,
        /// Entries in the file.
        count: usize,
    },
    /// The chosen entry has no response text (devtools leave it out for some requests).
    NoResponseBody {
        /// The entry.
        index: usize,
    },
    /// The chosen entry's response is itself a HAR file (one level is read, no more).
    Nested {
        /// The entry.
        index: usize,
    },
}

impl fmt::Display for HarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarError::NotHar => f.write_str("not a HAR file: no /log/entries"),
            HarError::NoExchange => f.write_str("HAR: no entry has a response body to replay"),
            HarError::NoEntry { index, count } => {
                write!(f, "HAR: no entry {index} (the file has {count})")
            }
            HarError::NoResponseBody { index } => write!(
                f,
                "HAR: entry {index} has no response content text (export with content)"
            ),
            HarError::Nested { index } => write!(
                f,
                "HAR: entry {index}'s response is itself a HAR file; open that file instead"
            ),
        }
    }
}

impl std::error::Error for HarError {}

/// One request/response pair of a HAR file.
#[derive(Debug, Clone, PartialEq)]
pub struct HarEntry {
    /// Position in `log.entries`.
    pub index: usize,
    /// HTTP method.
    pub method: String,
    /// Request URL.
    pub url: String,
    /// Response status.
    pub status: u64,
    /// Response MIME type.
    pub mime: String,
    /// Request body text, if any.
    pub request_body: Option<String>,
    /// Response body text, decoded from base64 when the HAR says so.
    pub response_text: Option<String>,
    /// When each stream event arrived (ms after the request was sent), from Toolscope's own
    /// `_toolscope.eventTimes` field of a live-run recording; empty otherwise.
    pub event_times: Vec<f64>,
}

impl HarEntry {
    /// True when the response is a stream (`text/event-stream`, NDJSON, AWS event stream,
    /// or `stream: true` in the request).
    pub fn streamed(&self) -> bool {
        let m = self.mime.to_ascii_lowercase();
        m.contains("event-stream")
            || m.contains("ndjson")
            || m.contains("eventstream")
            || self
                .request_body
                .as_deref()
                .and_then(|b| serde_json::from_str::<Value>(b).ok())
                .is_some_and(|v| v.get("stream") == Some(&Value::Bool(true)))
    }
}

/// True when `v` is a HAR document.
pub fn is_har(v: &Value) -> bool {
    v.get("log")
        .and_then(|l| l.get("entries"))
        .is_some_and(Value::is_array)
}

/// The entries of a HAR document.
pub fn entries(v: &Value) -> Result<Vec<HarEntry>, HarError> {
    let list = v
        .get("log")
        .and_then(|l| l.get("entries"))
        .and_then(Value::as_array)
        .ok_or(HarError::NotHar)?;
    Ok(list
        .iter()
        .enumerate()
        .map(|(index, e)| {
            let req = e.get("request");
            let res = e.get("response");
            let content = res.and_then(|r| r.get("content"));
            let text = content.and_then(|c| c.get("text")).and_then(Value::as_str);
            let base64 = content
                .and_then(|c| c.get("encoding"))
                .and_then(Value::as_str)
                == Some("base64");
            let response_text = text.map(|t| {
                if base64 {
                    decode_base64(t)
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                        .unwrap_or_else(|| t.to_string())
                } else {
                    t.to_string()
                }
            });
            let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
            HarEntry {
                index,
                method: s(req.and_then(|r| r.get("method"))),
                url: s(req.and_then(|r| r.get("url"))),
                status: res
                    .and_then(|r| r.get("status"))
                    .and_then(Value::as_u64)
                    .unwrap_or(0),
                mime: s(content.and_then(|c| c.get("mimeType"))),
                request_body: req
                    .and_then(|r| r.get("postData"))
                    .and_then(|p| p.get("text"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                response_text: response_text.filter(|t| !t.trim().is_empty()),
                event_times: e
                    .get("_toolscope")
                    .and_then(|t| t.get("eventTimes"))
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_f64).collect())
                    .unwrap_or_default(),
            }
        })
        .collect())
}

/// The entry to replay by default: the last streamed response with a body, else the last
/// POST with a body.
pub fn pick(entries: &[HarEntry]) -> Option<usize> {
    let with_body = |e: &&HarEntry| e.response_text.is_some();
    entries
        .iter()
        .filter(with_body)
        .rfind(|e| e.streamed())
        .or_else(|| {
            entries
                .iter()
                .filter(with_body)
                .rfind(|e| e.method.eq_ignore_ascii_case("POST"))
        })
        .map(|e| e.index)
}

/// Decode standard or URL-safe base64 (padding and whitespace optional); `None` on a
/// character outside the alphabet.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn har_base64_decodes() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode_base64("8J+Y\nAA==").unwrap(), [240, 159, 152, 0]);
        assert!(decode_base64("a*b").is_none());
    }

    #[test]
    fn har_picks_the_last_streamed_entry() {
        let har = json!({"log": {"entries": [
            {"request": {"method": "GET", "url": "https://x/a"},
             "response": {"status": 200, "content": {"mimeType": "text/html", "text": "<p>"}}},
            {"request": {"method": "POST", "url": "https://x/v1/messages",
                         "postData": {"text": "{\"stream\":true}"}},
             "response": {"status": 200, "content": {"mimeType": "text/event-stream",
                          "text": "ZGF0YToge30KCg==", "encoding": "base64"}}},
            {"request": {"method": "POST", "url": "https://x/log"},
             "response": {"status": 204, "content": {"mimeType": "", "text": ""}}}
        ]}});
        let es = entries(&har).unwrap();
        assert_eq!(es.len(), 3);
        assert_eq!(pick(&es), Some(1));
        assert_eq!(es[1].response_text.as_deref(), Some("data: {}\n\n"));
        assert!(entries(&json!({"x": 1})).is_err());
    }
}
