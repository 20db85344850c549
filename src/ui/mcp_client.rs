//! The MCP servers' state and client: connect to a server over Streamable HTTP (the page's
//! `fetch` driving the sans-IO client of [`crate::live::mcp`]), list its tools, call them, and
//! count what they cost. The MCP section (`mcp.rs`), its OAuth sign-in (`mcp_oauth.rs`) and the
//! live loop share it.
//!
//! Tokens (typed, or obtained by OAuth) live in memory only
//! ([`crate::live::keys::ServerTokens`] cannot be serialized) and go only to the origin they
//! were given for, in `Authorization`.

use super::io;
use super::state::AppState;
use crate::live::explain_mcp_failure;
use crate::live::fetch::{self, Flight};
use crate::live::keys::{KeyFor, ServerTokens};
use crate::live::mcp::call::CallResult;
use crate::live::mcp::client::{Client, Connect, Outgoing, Prefer};
use crate::live::mcp::tools::{ServerInfo, ServerTool, ToolMap};
use crate::live::mcp::{bearer, Error, HttpResponse, MAX_BODY};
use crate::live::run::{Route, ServerTraffic};
use leptos::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;
use wasm_bindgen_futures::spawn_local;

/// How long one request to a server may take before it counts as failed.
pub const TIMEOUT_MS: u64 = 30_000;

/// Where a server's connection stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Conn {
    /// Negotiating.
    Connecting,
    /// Connected; its tools are listed.
    Ready,
    /// It wants a token: type one, or sign in with OAuth (`resource_metadata` of its 401).
    NeedsAuth(Option<String>),
    /// It failed (the message says why and what to do).
    Failed(String),
}

/// One server of the section.
#[derive(Debug, Clone)]
pub struct Server {
    /// The URL as typed (the key of everything about it).
    pub url: String,
    /// The client: session, generation, history.
    pub client: Client,
    /// Where it stands.
    pub conn: Conn,
    /// Its tools, as listed.
    pub tools: Vec<ServerTool>,
    /// The last hand-made call of each tool and what came back.
    pub calls: BTreeMap<String, Result<(Value, CallResult), String>>,
    /// Tokens its tools cost per request, by model (filled after connecting).
    pub cost: Vec<(String, u64)>,
}

impl Server {
    /// What the server said about itself when connecting.
    pub(super) fn info(&self) -> Option<&ServerInfo> {
        self.client.server()
    }
}

/// The section's state, in context: it outlives tab switches.
#[derive(Clone, Copy)]
pub struct McpState {
    /// The URL field.
    pub(super) url: RwSignal<String>,
    /// The token field.
    pub(super) token: RwSignal<String>,
    /// The servers, in the order they were added.
    pub(super) servers: RwSignal<Vec<Server>>,
    pub(super) tokens: RwSignal<ServerTokens>,
    /// Which server answers which of the exchange's tool names.
    pub(super) map: RwSignal<ToolMap>,
}

impl McpState {
    /// An empty section.
    pub fn new() -> McpState {
        McpState {
            url: RwSignal::new(String::new()),
            token: RwSignal::new(String::new()),
            servers: RwSignal::new(Vec::new()),
            tokens: RwSignal::new(ServerTokens::default()),
            map: RwSignal::new(ToolMap::default()),
        }
    }

    /// Which server answers the exchange's tool `name`, and whether it may run unasked.
    pub fn route(&self, name: &str) -> Option<Route> {
        let mapped = self.map.with_untracked(|m| m.resolve(name).cloned())?;
        let read_only = self.servers.with_untracked(|s| {
            s.iter()
                .find(|s| s.url == mapped.server)
                .and_then(|s| s.tools.iter().find(|t| t.name == mapped.tool))
                .map(ServerTool::runs_unasked)
        })?;
        Some(Route {
            server: mapped.server,
            tool: mapped.tool,
            read_only,
        })
    }

    /// Keep `token` for `server` (memory only), bound to the server's origin.
    pub fn set_token(&self, server: &str, token: &str) {
        self.tokens.update(|t| t.set(server, token));
    }

    /// The header a request to `url` for `server` may carry (none when its token was given for
    /// another origin).
    fn auth(&self, server: &str, url: &str) -> Vec<(String, String)> {
        match self.tokens.with_untracked(|t| t.for_request(server, url)) {
            KeyFor::Bound(t) => vec![bearer(&t)],
            _ => Vec::new(),
        }
    }
}

impl Default for McpState {
    fn default() -> Self {
        Self::new()
    }
}

/// The section's state from context.
pub fn use_mcp() -> McpState {
    expect_context::<McpState>()
}

/// Send one request and read the whole answer, within [`TIMEOUT_MS`]; the exchange is kept,
/// redacted, as traffic.
async fn exchange(server: &str, out: &Outgoing) -> (Result<HttpResponse, String>, ServerTraffic) {
    let mut traffic = ServerTraffic::new(server, &out.request, fetch::wall());
    let start = fetch::now();
    let Some(flight) = Flight::new() else {
        return (Err("this browser cannot abort requests".into()), traffic);
    };
    let flight = std::rc::Rc::new(flight);
    let f2 = flight.clone();
    let timer = set_timeout_with_handle(
        move || f2.abort(),
        std::time::Duration::from_millis(TIMEOUT_MS),
    )
    .ok();
    let got = fetch::whole(&out.request, &flight, MAX_BODY).await;
    if let Some(t) = timer {
        t.clear();
    }
    traffic.elapsed_ms = fetch::now() - start;
    let got = match got {
        Ok(w) => {
            traffic.status = w.status;
            traffic.response_headers = w.headers.clone();
            traffic.body = String::from_utf8_lossy(&w.body).into_owned();
            if w.cut {
                Err(format!(
                    "the answer grew past {} MiB; stopped reading",
                    MAX_BODY >> 20
                ))
            } else {
                Ok(HttpResponse {
                    status: w.status,
                    headers: w.headers,
                    body: w.body,
                })
            }
        }
        Err(m) if m == "aborted" => Err(format!(
            "no answer within {} s: the server timed out",
            TIMEOUT_MS / 1000
        )),
        Err(_) => {
            // The browser hides why; a no-cors probe tells "unreachable" from "CORS refused".
            let reachable = fetch::reachable(&out.request.url).await;
            Err(explain_mcp_failure(server, &io::origin(), Some(reachable)))
        }
    };
    if let Err(e) = &got {
        traffic.error = Some(e.clone());
    }
    (got, traffic)
}

/// Connect (or connect again) to the server at `url` and list its tools.
pub fn connect(state: AppState, mcp: McpState, url: String) {
    let client = match Client::new(&url, Prefer::Auto) {
        Ok(c) => c,
        Err(e) => {
            state.say_error(format!("Not connected: {e}"));
            return;
        }
    };
    let fresh = Server {
        url: url.clone(),
        client,
        conn: Conn::Connecting,
        tools: Vec::new(),
        calls: BTreeMap::new(),
        cost: Vec::new(),
    };
    mcp.servers
        .update(|s| match s.iter_mut().find(|s| s.url == url) {
            Some(old) => *old = fresh,
            None => s.push(fresh),
        });
    spawn_local(async move {
        let conn = match handshake(mcp, &url).await {
            Ok(()) => Conn::Ready,
            Err(Failure::Auth(meta)) => Conn::NeedsAuth(meta),
            Err(Failure::Other(m)) => Conn::Failed(m),
        };
        let ready = conn == Conn::Ready;
        edit(mcp, &url, |s| s.conn = conn);
        if ready {
            count_cost(mcp, &url);
        }
    });
}

enum Failure {
    Auth(Option<String>),
    Other(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::Unauthorized {
                resource_metadata, ..
            } => Failure::Auth(resource_metadata),
            e => Failure::Other(e.to_string()),
        }
    }
}

pub(super) fn edit(mcp: McpState, url: &str, f: impl FnOnce(&mut Server)) {
    mcp.servers.update(|s| {
        if let Some(s) = s.iter_mut().find(|s| s.url == url) {
            f(s);
        }
    });
}

fn client_of(mcp: McpState, url: &str) -> Option<Client> {
    mcp.servers
        .with_untracked(|s| s.iter().find(|s| s.url == url).map(|s| s.client.clone()))
}

async fn handshake(mcp: McpState, url: &str) -> Result<(), Failure> {
    let mut client = client_of(mcp, url).ok_or(Failure::Other("no such server".into()))?;
    let headers = mcp.auth(url, url);
    let mut out = client.connect(&headers);
    let mut steps = 0;
    loop {
        steps += 1;
        if steps > 8 {
            return Err(Failure::Other(
                "the server kept the handshake going: stopped after 8 steps".into(),
            ));
        }
        let (got, _) = exchange(url, &out).await;
        let resp = got.map_err(Failure::Other)?;
        let step = client.on_connect(&out, &resp, &headers);
        edit(mcp, url, |s| s.client = client.clone());
        match step? {
            Connect::Send(next) => out = next,
            Connect::Ready => break,
        }
    }
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..crate::live::mcp::MAX_PAGES {
        let out = client.list_tools(cursor.as_deref(), &headers)?;
        let (got, _) = exchange(url, &out).await;
        let resp = got.map_err(Failure::Other)?;
        let read = client.read_tools(&out, &resp, tools.len());
        edit(mcp, url, |s| s.client = client.clone());
        let (page, next) = read?;
        tools.extend(page);
        cursor = next;
        if cursor.is_none() {
            break;
        }
    }
    edit(mcp, url, |s| s.tools = tools);
    Ok(())
}

/// Call the server's `tool` with `arguments`; what came back (a failure as text) and the
/// traffic. `output_schema` checks `structuredContent`.
pub async fn call(
    mcp: McpState,
    server: &str,
    tool: &str,
    arguments: &Value,
    call_id: Option<String>,
) -> (Result<CallResult, String>, Vec<ServerTraffic>) {
    let schema = mcp.servers.with_untracked(|s| {
        s.iter()
            .find(|s| s.url == server)
            .and_then(|s| s.tools.iter().find(|t| t.name == tool))
            .and_then(|t| t.output_schema.clone())
    });
    let headers = mcp.auth(server, server);
    // The stored client builds the request and reads its answer in place (never a copy), so
    // calls running side by side get their own ids and all land in the history.
    let mut out = None;
    edit(mcp, server, |s| {
        out = Some(s.client.call_tool(tool, arguments, &headers));
    });
    let out = match out {
        Some(Ok(o)) => o,
        Some(Err(e)) => return (Err(e.to_string()), Vec::new()),
        None => {
            return (
                Err(format!("the MCP server {server} is not connected")),
                Vec::new(),
            )
        }
    };
    let (got, traffic) = exchange(server, &out).await;
    let result = match got {
        Ok(resp) => {
            let mut read = None;
            edit(mcp, server, |s| {
                read = Some(s.client.read_call(&out, &resp, call_id, schema.as_ref()));
            });
            read.unwrap_or_else(|| {
                Err(Error::State {
                    message: "the server was removed".into(),
                })
            })
            .map_err(|e| e.to_string())
        }
        Err(e) => Err(e),
    };
    (result, vec![traffic])
}

/// Models whose tool text the Cost view counts exactly (a tokenizer, or the tool prompt the
/// provider adds), besides each provider's default model that it always counts.
fn exactly_counted() -> Vec<&'static str> {
    crate::providers::Provider::ALL
        .into_iter()
        .map(|p| p.row())
        .filter(|r| r.tokens != crate::providers::Tokens::Estimate)
        .flat_map(|r| r.counted.first().copied())
        .collect()
}

/// Count what a server's tools cost per request on each model (in the lazy module).
fn count_cost(mcp: McpState, url: &str) {
    let tools = mcp.servers.with_untracked(|s| {
        s.iter().find(|s| s.url == url).map(|s| {
            let mut map = ToolMap::default();
            map.add(url, &s.tools, &[])
        })
    });
    let Some(tools) = tools else { return };
    if tools.is_empty() {
        return;
    }
    let x = crate::model::Exchange {
        tools,
        ..Default::default()
    };
    let input = serde_json::json!({
        "exchange": serde_json::to_string(&x).unwrap_or_default(),
        "extra": exactly_counted(),
    })
    .to_string();
    let url = url.to_string();
    spawn_local(async move {
        let Ok(answer) = super::lazy::call("cost", &input).await else {
            return;
        };
        let Ok(v) = serde_json::from_str::<Value>(&answer) else {
            return;
        };
        let rows: Vec<(String, u64)> = v["rows"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| Some((r["model"].as_str()?.to_string(), r["tools"].as_u64()?)))
                    .collect()
            })
            .unwrap_or_default();
        edit(mcp, &url, |s| s.cost = rows);
    });
}
