//! A sans-IO MCP client: the page's `fetch` and the command line's HTTP transport drive the same
//! code with [`HttpRequest`]s out and [`HttpResponse`]s in. Nothing here opens a connection,
//! reads a clock or draws a random number.
//!
//! Specs: Streamable HTTP and lifecycle of revisions 2026-07-28
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/transports>,
//! `server/discover`, per-request `_meta`) and 2025-11-25 (`initialize`, `Mcp-Session-Id`,
//! `MCP-Protocol-Version`); tools
//! (<https://modelcontextprotocol.io/specification/2026-07-28/server/tools>); authorization
//! (<https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization>). Where the
//! spec leaves a choice, the Python SDK `mcp` 2.3.0 client is followed (its `_probe.py`:
//! `server/discover` first, the `initialize` handshake on anything that is not evidence of a
//! 2026-07-28 server).
//!
//! - [`client::Client`]: one server. [`client::Client::connect`] gives the first request,
//!   [`client::Client::on_connect`] reads each answer until the server is ready (which
//!   [`client::Generation`] it chose, its [`tools::ServerInfo`]); then
//!   [`client::Client::list_tools`] / [`client::Client::read_tools`] and
//!   [`client::Client::call_tool`] / [`client::Client::read_call`]. Every JSON-RPC message in
//!   and out lands in its [`client::History`] (bounded, secrets never in it).
//! - [`rpc`]: JSON-RPC builders and the reader of a response body (one JSON message, or SSE of
//!   JSON-RPC messages framed by [`crate::stream::sse`]).
//! - [`tools`]: server info and tools as the server lists them, and as canonical
//!   [`crate::model::Tool`]s with provider-safe names ([`tools::ToolMap`]: which canonical name
//!   is which server's tool, clashes between servers resolved).
//! - [`call`]: a `tools/call` result as a canonical [`crate::model::ToolResult`], its
//!   `structuredContent` checked against the tool's `outputSchema` by our own validator.
//! - [`oauth`]: the OAuth 2.1 pieces of MCP authorization as pure functions (a 401's
//!   `WWW-Authenticate`, protected resource and authorization server metadata, dynamic client
//!   registration, PKCE S256 with our own [`sha256`], the authorize URL, the token request).
//!
//! Secrets: a bearer token or any header given to a request builder (`headers`) goes into that
//! one request only. The client does not keep it, and its history keeps requests
//! [`HttpRequest::redacted`].

pub mod call;
pub mod client;
pub mod oauth;
pub mod rpc;
pub mod sha256;
pub mod tools;

pub use crate::live::HttpRequest;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest response body read (as the decoders' input limit).
pub const MAX_BODY: usize = crate::formats::limits::MAX_INPUT;
/// Most tools kept from one server (as the decoders' limit).
pub const MAX_TOOLS: usize = crate::formats::limits::MAX_TOOLS;
/// Most `tools/list` pages followed for one listing.
pub const MAX_PAGES: usize = 100;
/// Most messages a [`client::History`] keeps (the oldest go first, and are counted).
pub const MAX_HISTORY: usize = 2_000;

/// An HTTP response as the transport received it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Header names (any case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body (at most [`MAX_BODY`] bytes are read; a transport stops reading there).
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What went wrong talking to a server, for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Error {
    /// The URL is not an `http(s)` URL.
    BadUrl {
        /// Why.
        message: String,
    },
    /// HTTP 401: a token is needed (or the one sent was refused).
    Unauthorized {
        /// `resource_metadata` of the `WWW-Authenticate` challenge, when given: where OAuth
        /// starts ([`oauth::Challenge`]).
        resource_metadata: Option<String>,
        /// The whole challenge header.
        challenge: Option<String>,
    },
    /// HTTP 403.
    Forbidden {
        /// The body's text, cut.
        message: String,
    },
    /// Another HTTP status without a JSON-RPC answer.
    Http {
        /// Status code.
        status: u16,
        /// The body's text, cut.
        message: String,
    },
    /// The server answered with a JSON-RPC error.
    Rpc {
        /// JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
        /// Its `data`, if any.
        data: Option<serde_json::Value>,
    },
    /// The answer is not what the protocol says (not JSON, no response to our id, wrong shape).
    Protocol {
        /// What was wrong, pointing at the spot.
        message: String,
    },
    /// A limit of this client was reached (body size, tools, pages).
    TooLarge {
        /// Which limit.
        message: String,
    },
    /// The server shares no protocol revision with this client.
    Unsupported {
        /// The revisions the server named.
        supported: Vec<String>,
    },
    /// The client is not in a state for this (e.g. a call before connecting).
    State {
        /// Why.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadUrl { message } => write!(f, "not a server URL: {message}"),
            Error::Unauthorized {
                resource_metadata, ..
            } => match resource_metadata {
                Some(m) => write!(
                    f,
                    "HTTP 401: the server wants a token (OAuth metadata at {m})"
                ),
                None => write!(f, "HTTP 401: the server wants a token"),
            },
            Error::Forbidden { message } => write!(f, "HTTP 403: {message}"),
            Error::Http { status, message } => write!(f, "HTTP {status}: {message}"),
            Error::Rpc { code, message, .. } => write!(f, "JSON-RPC error {code}: {message}"),
            Error::Protocol { message } => write!(f, "not an MCP answer: {message}"),
            Error::TooLarge { message } => write!(f, "too large: {message}"),
            Error::Unsupported { supported } => write!(
                f,
                "the server speaks only protocol revisions {} (this client: {}, {})",
                supported.join(", "),
                client::MODERN_VERSION,
                client::SESSION_VERSION
            ),
            Error::State { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// The `Authorization` header of a bearer token (what a builder's `headers` takes).
pub fn bearer(token: &str) -> (String, String) {
    ("authorization".into(), format!("Bearer {}", token.trim()))
}

/// Text of a body for an error message: UTF-8 (lossy), cut to 300 characters.
pub(crate) fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let t = text.trim();
    match t.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}
