//! JSON-RPC 2.0 messages of MCP, and the reader of a Streamable HTTP response body.
//!
//! A POST is answered (spec, "Sending Messages to the Server") with `Content-Type:
//! application/json` (one JSON-RPC message) or `text/event-stream` (SSE whose `data` are
//! JSON-RPC messages: notifications and requests of the server, then the response). A
//! notification is answered `202 Accepted` without a body. [`read_body`] reads all of them into
//! [`Incoming`] messages; [`answer`] picks the response to one request id.

use super::{snippet, Error, HttpResponse, MAX_BODY};
use crate::stream::sse::SseFramer;
use serde_json::{json, Map, Value};

/// A JSON-RPC request object.
pub fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A JSON-RPC notification object (no id).
pub fn notification(method: &str, params: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), json!("2.0"));
    m.insert("method".into(), json!(method));
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}

/// One JSON-RPC message received.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A successful response.
    Result {
        /// The id it answers.
        id: Value,
        /// The `result` object.
        result: Value,
    },
    /// An error response.
    Error {
        /// The id it answers (`null` when the server could not read ours).
        id: Value,
        /// Error code.
        code: i64,
        /// Error message.
        message: String,
        /// `data`, if any.
        data: Option<Value>,
    },
    /// A notification or a request of the server (`notifications/progress`, `ping`, …).
    Other(Value),
}

impl Incoming {
    /// Read one decoded message.
    pub fn from_value(v: Value) -> Result<Incoming, Error> {
        let Value::Object(mut m) = v else {
            return Err(Error::Protocol {
                message: "a JSON-RPC message is an object".into(),
            });
        };
        if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err(Error::Protocol {
                message: "/jsonrpc: must be \"2.0\"".into(),
            });
        }
        if m.contains_key("method") {
            return Ok(Incoming::Other(Value::Object(m)));
        }
        let id = m.remove("id").unwrap_or(Value::Null);
        if let Some(err) = m.remove("error") {
            let code = err
                .get("code")
                .and_then(Value::as_i64)
                .ok_or(Error::Protocol {
                    message: "/error/code: an integer is required".into(),
                })?;
            let message = err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            return Ok(Incoming::Error {
                id,
                code,
                message,
                data: err.get("data").cloned(),
            });
        }
        match m.remove("result") {
            Some(result) => Ok(Incoming::Result { id, result }),
            None => Err(Error::Protocol {
                message: "a response has `result` or `error`".into(),
            }),
        }
    }

    /// The JSON this message was read from (for the history).
    pub fn to_value(&self) -> Value {
        match self {
            Incoming::Result { id, result } => {
                json!({"jsonrpc": "2.0", "id": id, "result": result})
            }
            Incoming::Error {
                id,
                code,
                message,
                data,
            } => {
                let mut e = json!({"code": code, "message": message});
                if let Some(d) = data {
                    e["data"] = d.clone();
                }
                json!({"jsonrpc": "2.0", "id": id, "error": e})
            }
            Incoming::Other(v) => v.clone(),
        }
    }

    /// True when this is the response to request `id`.
    pub fn answers(&self, id: u64) -> bool {
        match self {
            Incoming::Result { id: got, .. } | Incoming::Error { id: got, .. } => {
                got.as_u64() == Some(id)
            }
            Incoming::Other(_) => false,
        }
    }
}

/// The JSON-RPC messages of a response body: a JSON body (one message or a batch array) or an
/// SSE stream of them. An empty body (202) has none. HTTP errors without a JSON-RPC body are
/// errors: 401 ([`Error::Unauthorized`], with the challenge), 403, and any other status.
pub fn read_body(resp: &HttpResponse) -> Result<Vec<Incoming>, Error> {
    if resp.body.len() > MAX_BODY {
        return Err(Error::TooLarge {
            message: format!("the response is over {MAX_BODY} bytes"),
        });
    }
    if resp.status == 401 {
        let challenge = resp.header("www-authenticate").map(str::to_string);
        let resource_metadata = challenge
            .as_deref()
            .and_then(|c| super::oauth::Challenge::parse(c).resource_metadata);
        return Err(Error::Unauthorized {
            resource_metadata,
            challenge,
        });
    }
    let content_type = resp
        .header("content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    let messages = if content_type.starts_with("text/event-stream") {
        let mut framer = SseFramer::new();
        let mut events = framer.push(&resp.body);
        events.extend(framer.finish());
        let mut out = Vec::new();
        for (i, e) in events.into_iter().enumerate() {
            if e.data.trim().is_empty() {
                continue; // a priming event (an id to resume from) carries no message
            }
            let v: Value = serde_json::from_str(&e.data).map_err(|err| Error::Protocol {
                message: format!("SSE event {i}: not JSON: {err}"),
            })?;
            out.push(Incoming::from_value(v)?);
        }
        out
    } else if resp.body.iter().all(u8::is_ascii_whitespace) {
        Vec::new()
    } else {
        match serde_json::from_slice::<Value>(&resp.body) {
            Ok(Value::Array(batch)) => batch
                .into_iter()
                .map(Incoming::from_value)
                .collect::<Result<_, _>>()?,
            Ok(v) => match Incoming::from_value(v) {
                Ok(m) => vec![m],
                Err(e) if resp.status < 400 => return Err(e),
                Err(_) => return Err(http_error(resp)),
            },
            Err(e) if resp.status < 400 => {
                return Err(Error::Protocol {
                    message: format!("the body is not JSON ({e}): {}", snippet(&resp.body)),
                })
            }
            Err(_) => return Err(http_error(resp)),
        }
    };
    if messages.is_empty() && resp.status >= 400 {
        return Err(http_error(resp));
    }
    Ok(messages)
}

fn http_error(resp: &HttpResponse) -> Error {
    let message = snippet(&resp.body);
    if resp.status == 403 {
        Error::Forbidden { message }
    } else {
        Error::Http {
            status: resp.status,
            message,
        }
    }
}

/// The result of request `id` among `messages`: its `result`, or its error as
/// [`Error::Rpc`]. An error whose id is `null` (the server could not read the request) counts
/// when nothing else answers. No answer at all is [`Error::Protocol`].
pub fn answer(messages: &[Incoming], id: u64) -> Result<Value, Error> {
    let found = messages.iter().find(|m| m.answers(id)).or_else(|| {
        messages.iter().find(|m| {
            matches!(
                m,
                Incoming::Error {
                    id: Value::Null,
                    ..
                }
            )
        })
    });
    match found {
        Some(Incoming::Result { result, .. }) => Ok(result.clone()),
        Some(Incoming::Error {
            code,
            message,
            data,
            ..
        }) => Err(Error::Rpc {
            code: *code,
            message: message.clone(),
            data: data.clone(),
        }),
        _ => Err(Error::Protocol {
            message: format!("no response to request {id} in the answer"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resp(status: u16, ct: &str, body: &str) -> HttpResponse {
        HttpResponse {
            status,
            headers: vec![("Content-Type".into(), ct.into())],
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn json_and_sse_bodies() {
        let r = resp(
            200,
            "application/json",
            r#"{"jsonrpc":"2.0","id":3,"result":{"a":1}}"#,
        );
        let m = read_body(&r).unwrap();
        assert_eq!(answer(&m, 3).unwrap(), json!({"a": 1}));
        assert!(answer(&m, 4).is_err());

        let sse = "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\r\n\r\nid: 7\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\n";
        let sse = format!("{sse}data: \"result\":{{\"ok\":true}}}}\n\n");
        let m = read_body(&resp(200, "text/event-stream; charset=utf-8", &sse)).unwrap();
        assert_eq!(m.len(), 2);
        assert!(matches!(m[0], Incoming::Other(_)));
        assert_eq!(answer(&m, 1).unwrap(), json!({"ok": true}));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let r = resp(
            400,
            "application/json",
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#,
        );
        let m = read_body(&r).unwrap();
        assert!(matches!(
            answer(&m, 1),
            Err(Error::Rpc { code: -32600, .. })
        ));

        let mut r = resp(401, "application/json", r#"{"error":"invalid_token"}"#);
        r.headers.push((
            "WWW-Authenticate".into(),
            r#"Bearer error="invalid_token", resource_metadata="https://a.example/.well-known/oauth-protected-resource""#.into(),
        ));
        match read_body(&r) {
            Err(Error::Unauthorized {
                resource_metadata: Some(u),
                ..
            }) => assert_eq!(u, "https://a.example/.well-known/oauth-protected-resource"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_body(&resp(403, "text/plain", "Forbidden origin")),
            Err(Error::Forbidden { .. })
        ));
        assert!(matches!(
            read_body(&resp(502, "text/html", "<h1>bad gateway</h1>")),
            Err(Error::Http { status: 502, .. })
        ));
        assert!(matches!(
            read_body(&resp(200, "application/json", "{not json")),
            Err(Error::Protocol { .. })
        ));
        assert!(matches!(
            read_body(&resp(
                200,
                "application/json",
                r#"{"jsonrpc":"1.0","id":1,"result":{}}"#
            )),
            Err(Error::Protocol { .. })
        ));
        assert!(read_body(&resp(202, "", "")).unwrap().is_empty());
    }
}
