//! MCP over Streamable HTTP: the body of a POST answered as `text/event-stream` carries
//! JSON-RPC messages, one per SSE `data:` line (the Python SDK `mcp` 2.3.0 names each event
//! `message`): notifications (`notifications/progress`, `notifications/message`), requests the
//! server makes, and the response to the POSTed request. A capture of several exchanges is
//! the messages in order. Every message arrives whole, and the stream has no terminal event
//! (the server closes it after its response): a capture is complete when its last event is a
//! whole JSON-RPC message.
//!
//! The assembled body is the MCP transcript of the messages, read as the codec reads a pasted
//! one: a `tools/call` request is a call with its arguments, a result a Tool result, a
//! `tools/list` result the tools, anything else kept as it came. A transcript of only the
//! model's `tools/call` requests is the codec's response document, anything else its request.

use crate::formats::Kind;
use crate::stream::{Assembler, Event, Tracker, Update};
use serde_json::{Map, Value};

/// Assembler of MCP JSON-RPC messages.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpAssembler {
    t: Tracker,
    messages: Vec<Value>,
}

/// True for a JSON-RPC 2.0 message.
fn is_rpc(o: &Map<String, Value>) -> bool {
    o.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
}

/// What a person reads of a notification as it arrives: a progress message or a log line.
fn notice(method: &str, params: &Value) -> Option<String> {
    match method {
        "notifications/progress" => {
            let progress = params.get("progress").map(Value::to_string)?;
            let total = params
                .get("total")
                .map(|t| format!("/{t}"))
                .unwrap_or_default();
            let message = params
                .get("message")
                .and_then(Value::as_str)
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            Some(format!("[progress {progress}{total}]{message}\n"))
        }
        "notifications/message" => {
            let level = params.get("level").and_then(Value::as_str).unwrap_or("log");
            let data = match params.get("data") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => String::new(),
            };
            Some(format!("[{level}] {data}\n"))
        }
        _ => None,
    }
}

impl Assembler for McpAssembler {
    fn push(&mut self, event: &Event) -> Vec<Update> {
        // No terminal event: every whole message leaves the capture complete.
        self.t.begin_quiet();
        let Some(o) = self.t.read_or_report(event) else {
            self.t.ended = false;
            return self.t.take_updates();
        };
        if !is_rpc(&o) {
            self.t.unknown("(not a JSON-RPC 2.0 message)");
            return self.t.take_updates();
        }
        let method = o.get("method").and_then(Value::as_str).unwrap_or("");
        let params = o.get("params").cloned().unwrap_or(Value::Null);
        if method == "tools/call" {
            let id = match o.get("id") {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            };
            let name = params.get("name").and_then(Value::as_str).unwrap_or("");
            if let Some(i) = self.t.open_call(id, name) {
                let args = params
                    .get("arguments")
                    .map(Value::to_string)
                    .unwrap_or_else(|| "{}".into());
                self.t.set_args(i, &args);
                self.t.close_call(i);
            }
        } else if let Some(line) = notice(method, &params) {
            self.t.text(&line);
        }
        self.messages.push(Value::Object(o));
        self.t.end();
        self.t.take_updates()
    }

    crate::formats::assembler_basics!(crate::formats::Protocol::Mcp);

    fn response(&self) -> Value {
        Value::Array(self.messages.clone())
    }
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = McpAssembler;
    const SSE: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        o.is_some_and(is_rpc)
    }

    /// The messages of the transcript (or the one message), one event each: JSON-RPC
    /// messages are never split.
    fn synthesize(doc: &Value, _n: usize) -> Vec<Value> {
        match doc {
            Value::Array(a) => a.clone(),
            Value::Object(_) => vec![doc.clone()],
            _ => Vec::new(),
        }
    }

    /// The codec's own rule: only `tools/call` requests are a response, anything else a
    /// transcript (request).
    fn kind(assembled: &Value) -> Kind {
        match <super::Codec as crate::formats::Codec>::sniff(assembled) {
            Some((Kind::Request, _)) => Kind::Request,
            _ => Kind::Response,
        }
    }
}
