//! One MCP server over Streamable HTTP, as a state machine: requests out, responses in.
//!
//! Negotiation (the Python SDK 2.3.0 `mode="auto"` policy, `mcp/client/_probe.py`):
//! 1. `server/discover` at 2026-07-28, stateless: `MCP-Protocol-Version` and `Mcp-Method`
//!    headers, `_meta` with the protocol version, client capabilities and client info.
//! 2. A result naming 2026-07-28 in `supportedVersions`: ready, [`Generation::Stateless`].
//! 3. Anything else that is an answer (a JSON-RPC error, an HTTP 4xx/5xx other than 401, a
//!    result without 2026-07-28) falls back to the 2025-11-25 handshake: `initialize`, the
//!    `Mcp-Session-Id` the server returns, `notifications/initialized`, then every request with
//!    `Mcp-Session-Id` and `MCP-Protocol-Version` ([`Generation::Session`]). Only -32022 naming
//!    no version this client speaks ends it ([`Error::Unsupported`]); 401 ends it too
//!    ([`Error::Unauthorized`]: a token is needed first).
//! 4. An `initialize` answered -32022 naming 2026-07-28 (a server that speaks only the new
//!    revision) goes back to `server/discover`, once.
//!
//! The transport is the caller's: send [`Outgoing::request`], collect the whole response
//! (status, headers, body up to [`super::MAX_BODY`]) and hand it back with the [`Outgoing`] it
//! answers. A transport error (no answer at all) is the caller's to report; the client stays
//! as it was, so the same step can be retried.

use super::call::{self, CallResult};
use super::rpc::{self, Incoming};
use super::tools::{self, ServerInfo, ServerTool};
use super::{Error, HttpRequest, HttpResponse, MAX_HISTORY};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// The stateless revision (`server/discover`, no session).
pub const MODERN_VERSION: &str = "2026-07-28";
/// The session revision this client proposes in `initialize`.
pub const SESSION_VERSION: &str = "2025-11-25";
/// Revisions of the `initialize` handshake this client accepts from a server.
pub const SESSION_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
/// JSON-RPC code of `UnsupportedProtocolVersion` (2026-07-28 schema).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// Longest server URL accepted.
pub const MAX_URL: usize = 4096;

/// Which protocol generation the server chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Generation {
    /// 2026-07-28: `server/discover`, every request self-contained, no session.
    Stateless,
    /// 2025-11-25 (or earlier): `initialize`, `Mcp-Session-Id`.
    Session,
}

impl Generation {
    /// For people: "2026-07-28 (stateless)", "2025-11-25 (session)".
    pub fn label(self, version: &str) -> String {
        match self {
            Generation::Stateless => format!("{version} (stateless, server/discover)"),
            Generation::Session => format!("{version} (session, initialize)"),
        }
    }
}

/// Which generation to try first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Prefer {
    /// `server/discover`, falling back to `initialize` (the SDK's default).
    #[default]
    Auto,
    /// Straight to the `initialize` handshake.
    Session,
}

/// A request to send, and what it is (hand it back with its response).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outgoing {
    /// The JSON-RPC id (`None` for a notification or a session `DELETE`).
    pub id: Option<u64>,
    /// The JSON-RPC method (`DELETE` for ending a session).
    pub method: String,
    /// The HTTP request, secrets included: send it, never keep it (the history keeps it
    /// redacted).
    pub request: HttpRequest,
}

/// What connecting needs next.
#[derive(Debug, Clone, PartialEq)]
pub enum Connect {
    /// Send this and pass its response to [`Client::on_connect`].
    Send(Outgoing),
    /// Connected: [`Client::server`] and [`Client::generation`] are set.
    Ready,
}

/// One message of the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Sent by us (`true`) or received.
    pub outgoing: bool,
    /// The JSON-RPC message (for an HTTP answer without one: `{"http": status, "body": …}`).
    pub message: Value,
    /// The HTTP status of a received message.
    pub status: Option<u16>,
    /// The HTTP request of a sent message, [`HttpRequest::redacted`] (no body: that is
    /// `message`).
    pub http: Option<HttpRequest>,
}

/// Every JSON-RPC message in and out, oldest first, at most [`MAX_HISTORY`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct History {
    /// The kept messages.
    pub entries: Vec<Entry>,
    /// How many older messages were dropped to stay within [`MAX_HISTORY`].
    pub dropped: usize,
}

impl History {
    fn push(&mut self, e: Entry) {
        if self.entries.len() >= MAX_HISTORY {
            self.entries.remove(0);
            self.dropped += 1;
        }
        self.entries.push(e);
    }

    /// The messages as one JSON array (what an export writes: no secrets in it).
    pub fn to_json(&self) -> Value {
        Value::Array(self.entries.iter().map(|e| e.message.clone()).collect())
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    New,
    Discovering { retried: bool },
    Initializing { discovered: bool },
    Initialized,
    Ready,
}

/// One server: negotiation, requests, history. See the module docs for the flow.
#[derive(Debug, Clone)]
pub struct Client {
    url: String,
    prefer: Prefer,
    phase: Phase,
    generation: Option<Generation>,
    protocol_version: String,
    session_id: Option<String>,
    next_id: u64,
    server: Option<ServerInfo>,
    history: History,
}

fn client_info() -> Value {
    json!({"name": "toolscope", "version": env!("CARGO_PKG_VERSION")})
}

impl Client {
    /// A client of the server at `url` (an `http://` or `https://` URL).
    pub fn new(url: &str, prefer: Prefer) -> Result<Client, Error> {
        let url = url.trim();
        let bad = |m: &str| {
            Err(Error::BadUrl {
                message: m.to_string(),
            })
        };
        if url.len() > MAX_URL {
            return bad("longer than 4096 characters");
        }
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        match rest {
            None => return bad("it must start with http:// or https://"),
            Some(r) if r.is_empty() || r.starts_with('/') => return bad("no host"),
            Some(_) if url.chars().any(|c| c.is_whitespace() || c.is_control()) => {
                return bad("it contains spaces or control characters")
            }
            Some(_) => {}
        }
        Ok(Client {
            url: url.to_string(),
            prefer,
            phase: Phase::New,
            generation: None,
            protocol_version: String::new(),
            session_id: None,
            next_id: 1,
            server: None,
            history: History::default(),
        })
    }

    /// The server URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The generation the server chose, once connected.
    pub fn generation(&self) -> Option<Generation> {
        self.generation
    }

    /// The protocol revision in use, once connected (empty before).
    pub fn protocol_version(&self) -> &str {
        &self.protocol_version
    }

    /// The session id of a [`Generation::Session`] server.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// Who the server is, once connected.
    pub fn server(&self) -> Option<&ServerInfo> {
        self.server.as_ref()
    }

    /// True once connected.
    pub fn ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// Every JSON-RPC message so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Start (or start again) connecting: the first request. `headers` (e.g. [`super::bearer`])
    /// go into this request only.
    pub fn connect(&mut self, headers: &[(String, String)]) -> Outgoing {
        self.generation = None;
        self.session_id = None;
        self.server = None;
        self.protocol_version.clear();
        match self.prefer {
            Prefer::Auto => {
                self.phase = Phase::Discovering { retried: false };
                self.discover(headers)
            }
            Prefer::Session => {
                self.phase = Phase::Initializing { discovered: false };
                self.initialize(headers)
            }
        }
    }

    fn discover(&mut self, headers: &[(String, String)]) -> Outgoing {
        self.send(
            "server/discover",
            json!({}),
            Some(Generation::Stateless),
            headers,
        )
    }

    fn initialize(&mut self, headers: &[(String, String)]) -> Outgoing {
        let params = json!({
            "protocolVersion": SESSION_VERSION,
            "capabilities": {},
            "clientInfo": client_info(),
        });
        self.send("initialize", params, Some(Generation::Session), headers)
    }

    /// Read the answer to a connecting request; `headers` go into the next request, if any.
    pub fn on_connect(
        &mut self,
        sent: &Outgoing,
        resp: &HttpResponse,
        headers: &[(String, String)],
    ) -> Result<Connect, Error> {
        let messages = self.receive(resp);
        match self.phase.clone() {
            Phase::Discovering { retried } => {
                let result = messages.and_then(|m| answer(&m, sent));
                match result {
                    Ok(r) => {
                        let speaks_modern = r
                            .get("supportedVersions")
                            .and_then(Value::as_array)
                            .is_some_and(|v| v.iter().any(|x| x == MODERN_VERSION));
                        if speaks_modern {
                            self.protocol_version = MODERN_VERSION.into();
                            self.generation = Some(Generation::Stateless);
                            self.server = Some(ServerInfo::from_result(&r, MODERN_VERSION));
                            self.phase = Phase::Ready;
                            return Ok(Connect::Ready);
                        }
                        self.fall_back(headers)
                    }
                    Err(e @ Error::Unauthorized { .. }) | Err(e @ Error::TooLarge { .. }) => {
                        self.phase = Phase::New;
                        Err(e)
                    }
                    Err(Error::Rpc {
                        code: UNSUPPORTED_PROTOCOL_VERSION,
                        data,
                        ..
                    }) => {
                        let supported = supported_of(data.as_ref());
                        if let Some(s) = &supported {
                            let any_session =
                                s.iter().any(|v| SESSION_VERSIONS.contains(&v.as_str()));
                            if !any_session && !retried {
                                self.phase = Phase::New;
                                return Err(Error::Unsupported {
                                    supported: s.clone(),
                                });
                            }
                        }
                        self.fall_back(headers)
                    }
                    Err(_) => self.fall_back(headers),
                }
            }
            Phase::Initializing { discovered } => {
                let result = messages.and_then(|m| answer(&m, sent));
                match result {
                    Ok(r) => {
                        let version = r
                            .get("protocolVersion")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string();
                        if !SESSION_VERSIONS.contains(&version.as_str()) {
                            self.phase = Phase::New;
                            return Err(Error::Unsupported {
                                supported: vec![version],
                            });
                        }
                        self.session_id = resp.header("mcp-session-id").map(str::to_string);
                        self.server = Some(ServerInfo::from_result(&r, &version));
                        self.protocol_version = version;
                        self.generation = Some(Generation::Session);
                        self.phase = Phase::Initialized;
                        let note = rpc::notification("notifications/initialized", None);
                        Ok(Connect::Send(self.post(
                            None,
                            "notifications/initialized",
                            note,
                            headers,
                        )))
                    }
                    Err(Error::Rpc {
                        code: UNSUPPORTED_PROTOCOL_VERSION,
                        data,
                        ..
                    }) if !discovered
                        && supported_of(data.as_ref())
                            .is_some_and(|s| s.iter().any(|v| v == MODERN_VERSION)) =>
                    {
                        self.phase = Phase::Discovering { retried: true };
                        Ok(Connect::Send(self.discover(headers)))
                    }
                    Err(e) => {
                        self.phase = Phase::New;
                        Err(e)
                    }
                }
            }
            Phase::Initialized => match messages {
                Ok(_) => {
                    self.phase = Phase::Ready;
                    Ok(Connect::Ready)
                }
                Err(e) => {
                    self.phase = Phase::New;
                    Err(e)
                }
            },
            Phase::New | Phase::Ready => Err(Error::State {
                message: "not connecting: call connect() first".into(),
            }),
        }
    }

    fn fall_back(&mut self, headers: &[(String, String)]) -> Result<Connect, Error> {
        self.phase = Phase::Initializing { discovered: true };
        Ok(Connect::Send(self.initialize(headers)))
    }

    fn need_ready(&self) -> Result<(), Error> {
        if self.phase == Phase::Ready {
            Ok(())
        } else {
            Err(Error::State {
                message: "not connected to the server yet".into(),
            })
        }
    }

    /// A `tools/list` request (`cursor`: the previous page's `nextCursor`).
    pub fn list_tools(
        &mut self,
        cursor: Option<&str>,
        headers: &[(String, String)],
    ) -> Result<Outgoing, Error> {
        self.need_ready()?;
        let params = match cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        Ok(self.send("tools/list", params, self.generation, headers))
    }

    /// Read a `tools/list` answer: this page's tools and the next page's cursor. `have` is how
    /// many tools earlier pages gave.
    pub fn read_tools(
        &mut self,
        sent: &Outgoing,
        resp: &HttpResponse,
        have: usize,
    ) -> Result<(Vec<ServerTool>, Option<String>), Error> {
        let result = self.read(sent, resp)?;
        tools::read_list(&result, have)
    }

    /// A `tools/call` request of the server's tool `name` with `arguments` (a JSON object).
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &Value,
        headers: &[(String, String)],
    ) -> Result<Outgoing, Error> {
        self.need_ready()?;
        if !arguments.is_object() {
            return Err(Error::State {
                message: "tool arguments must be a JSON object".into(),
            });
        }
        let params = json!({"name": name, "arguments": arguments});
        Ok(self.send("tools/call", params, self.generation, headers))
    }

    /// Read a `tools/call` answer for the conversation's call `call_id`; `output_schema` is the
    /// tool's, to check `structuredContent` against. A JSON-RPC error (unknown tool, invalid
    /// arguments) is an `Err`: answer the model with [`call::error_result`].
    pub fn read_call(
        &mut self,
        sent: &Outgoing,
        resp: &HttpResponse,
        call_id: Option<String>,
        output_schema: Option<&Value>,
    ) -> Result<CallResult, Error> {
        let result = self.read(sent, resp)?;
        call::read(result, call_id, output_schema)
    }

    /// Any request (`ping`, `resources/read`, …) with this client's headers and `_meta`.
    pub fn request(
        &mut self,
        method: &str,
        params: Value,
        headers: &[(String, String)],
    ) -> Result<Outgoing, Error> {
        self.need_ready()?;
        Ok(self.send(method, params, self.generation, headers))
    }

    /// The `result` answering `sent`, or the error.
    pub fn read(&mut self, sent: &Outgoing, resp: &HttpResponse) -> Result<Value, Error> {
        if resp.status == 404 && self.session_id.is_some() {
            // The spec: a 404 to a request with a session id means the session is gone.
            self.receive(resp).ok();
            self.phase = Phase::New;
            return Err(Error::State {
                message: "the server ended the session (HTTP 404): connect again".into(),
            });
        }
        let messages = self.receive(resp)?;
        answer(&messages, sent)
    }

    /// The request ending a session (`DELETE` with `Mcp-Session-Id`), for a
    /// [`Generation::Session`] server; `None` for a stateless one.
    pub fn close(&mut self, headers: &[(String, String)]) -> Option<Outgoing> {
        let session = self.session_id.take()?;
        self.phase = Phase::New;
        let mut h = vec![
            ("mcp-session-id".to_string(), session),
            (
                "mcp-protocol-version".to_string(),
                self.protocol_version.clone(),
            ),
        ];
        h.extend(headers.iter().cloned());
        let request = HttpRequest {
            method: "DELETE".into(),
            url: self.url.clone(),
            headers: h,
            body: String::new(),
        };
        Some(Outgoing {
            id: None,
            method: "DELETE".into(),
            request,
        })
    }

    /// Build a request of `generation`'s shape.
    fn send(
        &mut self,
        method: &str,
        params: Value,
        generation: Option<Generation>,
        headers: &[(String, String)],
    ) -> Outgoing {
        let id = self.next_id;
        self.next_id += 1;
        let mut params = match params {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        if generation == Some(Generation::Stateless) {
            let meta = params
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = meta {
                m.insert(
                    "io.modelcontextprotocol/protocolVersion".into(),
                    json!(MODERN_VERSION),
                );
                m.insert(
                    "io.modelcontextprotocol/clientCapabilities".into(),
                    json!({}),
                );
                m.insert("io.modelcontextprotocol/clientInfo".into(), client_info());
            }
        }
        let body = rpc::request(id, method, Value::Object(params));
        self.post(Some(id), method, body, headers)
    }

    fn post(
        &mut self,
        id: Option<u64>,
        method: &str,
        body: Value,
        headers: &[(String, String)],
    ) -> Outgoing {
        let mut h: Vec<(String, String)> = vec![
            ("content-type".into(), "application/json".into()),
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
        ];
        let modern = matches!(self.phase, Phase::Discovering { .. })
            || (self.phase == Phase::Ready && self.generation == Some(Generation::Stateless));
        if modern {
            h.push(("mcp-protocol-version".into(), MODERN_VERSION.into()));
            h.push((
                "mcp-method".into(),
                crate::snippets::mcp_header_value(method),
            ));
            let named = body.pointer("/params/name").and_then(Value::as_str);
            if let (Some(name), "tools/call" | "prompts/get") = (named, method) {
                h.push(("mcp-name".into(), crate::snippets::mcp_header_value(name)));
            }
            if let ("resources/read", Some(uri)) =
                (method, body.pointer("/params/uri").and_then(Value::as_str))
            {
                h.push(("mcp-name".into(), crate::snippets::mcp_header_value(uri)));
            }
        } else if !self.protocol_version.is_empty() {
            h.push(("mcp-protocol-version".into(), self.protocol_version.clone()));
        }
        if let Some(s) = &self.session_id {
            h.push(("mcp-session-id".into(), s.clone()));
        }
        for (k, v) in headers {
            h.push((k.to_ascii_lowercase(), v.clone()));
        }
        let request = HttpRequest {
            method: "POST".into(),
            url: self.url.clone(),
            headers: h,
            body: serde_json::to_string(&body).unwrap_or_default(),
        };
        let mut kept = request.redacted();
        kept.body = String::new();
        self.history.push(Entry {
            outgoing: true,
            message: body,
            status: None,
            http: Some(kept),
        });
        Outgoing {
            id,
            method: method.to_string(),
            request,
        }
    }

    /// Read a response into the history.
    fn receive(&mut self, resp: &HttpResponse) -> Result<Vec<Incoming>, Error> {
        let read = rpc::read_body(resp);
        match &read {
            Ok(messages) => {
                for m in messages {
                    self.history.push(Entry {
                        outgoing: false,
                        message: m.to_value(),
                        status: Some(resp.status),
                        http: None,
                    });
                }
            }
            Err(_) => self.history.push(Entry {
                outgoing: false,
                message: json!({"http": resp.status, "body": super::snippet(&resp.body)}),
                status: Some(resp.status),
                http: None,
            }),
        }
        read
    }
}

fn answer(messages: &[Incoming], sent: &Outgoing) -> Result<Value, Error> {
    match sent.id {
        Some(id) => rpc::answer(messages, id),
        None => Ok(Value::Null),
    }
}

fn supported_of(data: Option<&Value>) -> Option<Vec<String>> {
    let list = data?.get("supported")?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_resp(status: u16, body: Value) -> HttpResponse {
        HttpResponse {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(&body).unwrap(),
        }
    }

    fn header<'a>(o: &'a Outgoing, name: &str) -> Option<&'a str> {
        o.request
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn body(o: &Outgoing) -> Value {
        serde_json::from_str(&o.request.body).unwrap()
    }

    const TOKEN: &str = "sekrit-token";

    fn auth() -> Vec<(String, String)> {
        vec![super::super::bearer(TOKEN)]
    }

    #[test]
    fn stateless_server() {
        let mut c = Client::new("http://127.0.0.1:9/mcp", Prefer::Auto).unwrap();
        let d = c.connect(&auth());
        assert_eq!(body(&d)["method"], "server/discover");
        assert_eq!(header(&d, "mcp-protocol-version"), Some(MODERN_VERSION));
        assert_eq!(header(&d, "mcp-method"), Some("server/discover"));
        assert_eq!(header(&d, "authorization"), Some("Bearer sekrit-token"));
        assert_eq!(
            body(&d)["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            MODERN_VERSION
        );
        let r = json_resp(
            200,
            json!({"jsonrpc": "2.0", "id": d.id, "result": {
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "instructions": "be kind",
            "resultType": "complete", "ttlMs": 0, "cacheScope": "private",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "2.0"}}}}),
        );
        assert_eq!(c.on_connect(&d, &r, &auth()).unwrap(), Connect::Ready);
        assert_eq!(c.generation(), Some(Generation::Stateless));
        assert_eq!(c.server().unwrap().name, "srv");

        let call = c
            .call_tool("notes.delete", &json!({"id": "1"}), &auth())
            .unwrap();
        assert_eq!(header(&call, "mcp-name"), Some("notes.delete"));
        assert_eq!(header(&call, "mcp-method"), Some("tools/call"));
        assert!(header(&call, "mcp-session-id").is_none());
        let r = json_resp(
            200,
            json!({"jsonrpc": "2.0", "id": call.id, "result": {"content": [{"type": "text", "text": "ok"}], "resultType": "complete"}}),
        );
        let res = c.read_call(&call, &r, Some("call_1".into()), None).unwrap();
        assert!(!res.is_error);
        // The token is nowhere in the history.
        let h = serde_json::to_string(c.history()).unwrap();
        assert!(!h.contains(TOKEN), "{h}");
        assert_eq!(c.history().entries.len(), 4);
        assert!(c.close(&[]).is_none());
    }

    #[test]
    fn falls_back_to_a_session() {
        let mut c = Client::new("https://mcp.example/mcp", Prefer::Auto).unwrap();
        let d = c.connect(&[]);
        // What a 2025 SDK answers to a request without a session.
        let r = json_resp(
            400,
            json!({"jsonrpc": "2.0", "id": "server-error", "error": {"code": -32600, "message": "Bad Request: Missing session ID"}}),
        );
        let Connect::Send(init) = c.on_connect(&d, &r, &[]).unwrap() else {
            panic!()
        };
        assert_eq!(body(&init)["method"], "initialize");
        assert_eq!(body(&init)["params"]["protocolVersion"], SESSION_VERSION);
        assert!(header(&init, "mcp-protocol-version").is_none());
        let mut r = HttpResponse {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/event-stream".into()),
                ("Mcp-Session-Id".into(), "abc".into()),
            ],
            body: format!(
                "event: message\ndata: {}\n\n",
                json!({"jsonrpc": "2.0", "id": init.id, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "old", "version": "1"}, "instructions": "hi"}})
            )
            .into_bytes(),
        };
        let Connect::Send(note) = c.on_connect(&init, &r, &[]).unwrap() else {
            panic!()
        };
        assert_eq!(body(&note)["method"], "notifications/initialized");
        assert!(body(&note).get("id").is_none());
        assert_eq!(header(&note, "mcp-session-id"), Some("abc"));
        assert_eq!(header(&note, "mcp-protocol-version"), Some("2025-11-25"));
        r = HttpResponse {
            status: 202,
            ..Default::default()
        };
        assert_eq!(c.on_connect(&note, &r, &[]).unwrap(), Connect::Ready);
        assert_eq!(c.generation(), Some(Generation::Session));
        assert_eq!(c.server().unwrap().instructions.as_deref(), Some("hi"));
        let list = c.list_tools(None, &[]).unwrap();
        assert_eq!(header(&list, "mcp-session-id"), Some("abc"));
        assert!(header(&list, "mcp-method").is_none());
        assert!(body(&list)["params"].get("_meta").is_none());
        let r = json_resp(
            200,
            json!({"jsonrpc": "2.0", "id": list.id, "result": {"tools": [
            {"name": "a.b", "inputSchema": {"type": "object"}}], "nextCursor": "p2"}}),
        );
        let (tools, cursor) = c.read_tools(&list, &r, 0).unwrap();
        assert_eq!((tools.len(), cursor.as_deref()), (1, Some("p2")));
        // A session that expired.
        let call = c.call_tool("a.b", &json!({}), &[]).unwrap();
        let gone = HttpResponse {
            status: 404,
            ..Default::default()
        };
        assert!(matches!(
            c.read_call(&call, &gone, None, None),
            Err(Error::State { .. })
        ));
        assert!(!c.ready());
    }

    #[test]
    fn negotiation_edges() {
        // 401 stops: a token is needed first.
        let mut c = Client::new("http://h/mcp", Prefer::Auto).unwrap();
        let d = c.connect(&[]);
        let r = HttpResponse {
            status: 401,
            headers: vec![(
                "www-authenticate".into(),
                "Bearer resource_metadata=\"http://h/.well-known/oauth-protected-resource\"".into(),
            )],
            body: vec![],
        };
        assert!(matches!(
            c.on_connect(&d, &r, &[]),
            Err(Error::Unauthorized {
                resource_metadata: Some(_),
                ..
            })
        ));
        // -32022 naming only unknown modern revisions: no common revision.
        let d = c.connect(&[]);
        let r = json_resp(
            400,
            json!({"jsonrpc": "2.0", "id": d.id, "error": {"code": -32022, "message": "x", "data": {"supported": ["2027-01-01"], "requested": "2026-07-28"}}}),
        );
        assert!(matches!(
            c.on_connect(&d, &r, &[]),
            Err(Error::Unsupported { .. })
        ));
        // A 2026-only server met with `initialize` first: back to discover.
        let mut c = Client::new("http://h/mcp", Prefer::Session).unwrap();
        let i = c.connect(&[]);
        let r = json_resp(
            400,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}}),
        );
        let Connect::Send(d) = c.on_connect(&i, &r, &[]).unwrap() else {
            panic!()
        };
        assert_eq!(body(&d)["method"], "server/discover");
        // A garbage answer to discover falls back; garbage to initialize is an error.
        let mut c = Client::new("http://h/mcp", Prefer::Auto).unwrap();
        let d = c.connect(&[]);
        let r = HttpResponse {
            status: 200,
            headers: vec![],
            body: b"<html>".to_vec(),
        };
        let Connect::Send(i) = c.on_connect(&d, &r, &[]).unwrap() else {
            panic!()
        };
        assert!(matches!(
            c.on_connect(&i, &r, &[]),
            Err(Error::Protocol { .. })
        ));
        assert!(c.list_tools(None, &[]).is_err());
        assert!(Client::new("ftp://x", Prefer::Auto).is_err());
        assert!(Client::new("http://", Prefer::Auto).is_err());
        assert!(Client::new("http://a b", Prefer::Auto).is_err());
    }
}
