//! Live calls: the current exchange sent to a real provider from the browser, the tool loop run
//! round after round, and every run kept as a recording.
//!
//! Everything here except [`fetch`] is sans-IO and native-tested: [`request`] builds the HTTP
//! request of a round (URL, headers, body: the format's own request encoding plus `model` and
//! `stream`), [`checks`] says before sending what cannot work from a page, [`error`] reads a
//! provider's error body, [`run::Run`] is the tool loop as a state machine fed with bytes and
//! times, and [`record`] turns a run into a HAR file the replay view opens. [`fetch`] (wasm only)
//! is the thin part that talks to `fetch` and `ReadableStream`.
//!
//! Keys: a [`Target`] never holds the key. It is passed to [`request`] when a round is sent and
//! the request kept by a run is [`HttpRequest::redacted`] first, so a recording, an export or a
//! share link cannot carry it.

pub mod count;
pub mod error;
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod fetch;
pub mod form;
pub mod keys;
pub mod mcp;
pub mod record;
pub mod run;

use crate::formats::spec::{ModelIn, Send};
use crate::formats::{Format, Kind, Protocol};
use crate::model::{Exchange, ModelFamily};
use crate::providers::{self, Api, Count, Counting, Stream, COMPATIBLE};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Who is called: a route of the provider table (one of a provider's wire formats, with the
/// provider's row), or a compatible server at a base URL. The picker lists [`Provider::all`].
#[derive(Debug, Clone, Copy)]
pub struct Provider {
    /// The table's row of the route.
    row: &'static providers::Route,
    /// Its provider; `None` for a compatible base URL, which may be anyone's.
    family: Option<ModelFamily>,
    /// The format its requests are written in (a compatible server's: unless its host names
    /// a dialect, [`Target::format`]).
    format: Format,
}

impl PartialEq for Provider {
    fn eq(&self, other: &Provider) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Provider {}

impl std::hash::Hash for Provider {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state);
    }
}

impl Serialize for Provider {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Provider, D::Error> {
        let id = String::deserialize(d)?;
        Provider::from_id(&id).ok_or_else(|| serde::de::Error::custom(format!("no route {id:?}")))
    }
}

impl Default for Provider {
    /// The picker's first route.
    fn default() -> Provider {
        Provider::all().next().unwrap_or_else(Provider::compatible)
    }
}

impl Provider {
    /// Every route, in the order of the picker: the providers' routes a page can call (table
    /// order), a compatible base URL, then the routes listed only to say why not.
    pub fn all() -> impl Iterator<Item = Provider> {
        let own = || {
            ModelFamily::ALL.into_iter().flat_map(|p| {
                p.row().live.routes.iter().filter_map(move |row| {
                    Format::from_id(row.id).map(|format| Provider {
                        row,
                        family: Some(p),
                        format,
                    })
                })
            })
        };
        own()
            .filter(|r| r.row.blocked.is_none())
            .chain(std::iter::once(Provider::compatible()))
            .chain(own().filter(|r| r.row.blocked.is_some()))
    }

    /// A server speaking [`Format::COMPATIBLE`] at a base URL.
    pub fn compatible() -> Provider {
        Provider {
            row: &COMPATIBLE.route,
            family: None,
            format: Format::COMPATIBLE,
        }
    }

    /// Stable id (`openai-chat`, `anthropic`, …, `compatible`).
    pub fn id(self) -> &'static str {
        self.row.id
    }

    /// The route with this id.
    pub fn from_id(id: &str) -> Option<Provider> {
        Provider::all().find(|p| p.id() == id)
    }

    /// The route of `provider` that counts tokens at its own endpoint, if it has one.
    pub fn counting(provider: ModelFamily) -> Option<Provider> {
        Provider::all()
            .find(|r| r.family == Some(provider) && matches!(r.row.count, Counting::Here(_)))
    }

    /// Name for people.
    pub fn label(self) -> &'static str {
        self.row.label
    }

    /// Why a page cannot call it at all, when it cannot.
    pub fn blocked(self) -> Option<&'static str> {
        self.row.blocked
    }

    /// The base URL the provider's own SDK uses.
    pub fn default_base_url(self) -> &'static str {
        self.api().base_url
    }

    /// A model to start from.
    pub fn default_model(self) -> &'static str {
        self.api().live_model
    }

    /// True when a request without a key cannot succeed (local servers often take none).
    pub fn needs_key(self) -> bool {
        self.family().is_some()
    }

    /// The header that carries the key, as the provider documents it.
    pub fn key_header(self) -> &'static str {
        self.api().key_header
    }

    /// The provider of the table this route calls; `None` for a compatible base URL, which
    /// may be anyone's.
    pub fn family(self) -> Option<ModelFamily> {
        self.family
    }

    /// True for another route of the same provider: a base URL typed for one serves both.
    pub fn shares_base_with(self, other: Provider) -> bool {
        self != other && self.family.is_some() && self.family == other.family
    }

    /// How the route's API is called: its provider's row, or a local compatible server's.
    pub fn api(self) -> &'static Api {
        self.family
            .and_then(|f| f.row().api.as_ref())
            .unwrap_or(&COMPATIBLE.api)
    }

    /// The status its provider answers a bad key with.
    fn bad_key_status(self) -> u16 {
        self.family.map_or(401, |f| f.row().live.bad_key_status)
    }

    /// The route that counts this route's requests, if any.
    pub fn counter(self) -> Option<Provider> {
        match self.row.count {
            Counting::None => None,
            Counting::Here(_) => Some(self),
            Counting::By(id) => Provider::from_id(id),
        }
    }

    /// The counting endpoint of its counter.
    pub fn count(self) -> Option<Count> {
        match self.counter()?.row.count {
            Counting::Here(c) => Some(c),
            Counting::None | Counting::By(_) => None,
        }
    }

    /// The path of a round under the base URL (`{model}`: the model), as its format's
    /// [`Http`](crate::formats::spec::Http) URL has it below its provider's base URL.
    fn path(self) -> &'static str {
        let Send::Http(http) = self.format.send() else {
            return "";
        };
        let base = self
            .format
            .models()
            .and_then(|p| p.row().api.as_ref())
            .map_or("", |api| api.base_url);
        url_path(http.url)
            .strip_prefix(url_path(base))
            .unwrap_or_default()
    }
}

/// The path (and query) of a URL: from the first `/` after `scheme://host`.
fn url_path(url: &str) -> &str {
    let after = url.split_once("://").map_or(url, |(_, a)| a);
    after.find('/').and_then(|i| after.get(i..)).unwrap_or("")
}

/// Where a run sends its requests and how. Holds no key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// Who is called.
    pub provider: Provider,
    /// Base URL, as the provider's SDK takes it (see [`Provider::default_base_url`]).
    pub base_url: String,
    /// Model id.
    pub model: String,
    /// Ask for a streamed response.
    pub stream: bool,
    /// Extra request headers, one `Name: value` per line (OpenRouter's `HTTP-Referer`, a
    /// gateway's token…). Values are secrets as far as recordings go: see [`crate::redact`].
    pub extra_headers: String,
}

impl Target {
    /// The route's defaults, streamed.
    pub fn new(provider: Provider) -> Target {
        Target {
            provider,
            base_url: provider.default_base_url().into(),
            model: provider.default_model().into(),
            stream: true,
            extra_headers: String::new(),
        }
    }

    /// The wire format the requests are written in: the route's, but for a compatible base
    /// URL the dialect its host speaks (DeepSeek, Mistral), if it names one.
    pub fn format(&self) -> Format {
        if self.provider.family.is_some() {
            return self.provider.format;
        }
        let host = Url::parse(&self.base_url)
            .map(|u| u.host.to_ascii_lowercase())
            .unwrap_or_default();
        Format::dialect_of_host(&host).unwrap_or(self.provider.format)
    }

    /// True for a compatible base URL whose host names no dialect: a local or third-party
    /// server, whose model is the user's to name.
    pub fn any_server(&self) -> bool {
        self.provider.family.is_none() && self.format() == self.provider.format
    }

    /// The streaming protocol the response is assembled with.
    pub fn protocol(&self) -> Protocol {
        Protocol::of_format(self.format()).unwrap_or(Protocol::COMPATIBLE)
    }

    /// The base URL without trailing slashes.
    fn base(&self) -> &str {
        self.base_url.trim().trim_end_matches('/')
    }

    /// The endpoint of a round.
    pub fn endpoint(&self) -> String {
        let path = match self.provider.row.stream {
            Stream::Path(path) if self.stream => path,
            Stream::Path(_) | Stream::Body(_) => self.provider.path(),
        };
        self.url(path)
    }

    /// The base URL and `path`, the model percent-encoded in its `{model}` (without the
    /// collection the path names before it: `models/x` in `/models/{model}` is `x`).
    fn url(&self, path: &str) -> String {
        let base = self.base();
        let Some((before, after)) = path.split_once("{model}") else {
            return format!("{base}{path}");
        };
        let collection = before.rsplit('/').nth(1).map(|c| format!("{c}/"));
        let model = self.model.trim();
        let model = match &collection {
            Some(c) if !c.is_empty() && c != "/" => model.trim_start_matches(c.as_str()),
            _ => model,
        };
        format!("{base}{before}{}{after}", percent_encode_path(model))
    }
}

/// An HTTP request as the page sends it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpRequest {
    /// Always `POST` today.
    pub method: String,
    /// Full URL.
    pub url: String,
    /// Header names (lower case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// JSON body.
    pub body: String,
}

/// What stands in a recording where a secret was.
pub use crate::redact::REDACTED;

/// True for headers whose value is a credential: the providers' key headers and any header
/// whose name says key, token, auth, secret, cookie or session. (Recordings redact more: every
/// header not on [`crate::redact::KEPT_HEADERS`].)
pub fn is_secret_header(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "key",
        "token",
        "auth",
        "secret",
        "cookie",
        "session",
        "signature",
    ]
    .iter()
    .any(|w| n.contains(w))
}

impl HttpRequest {
    /// The request with every header value redacted but the harmless ones of
    /// [`crate::redact::KEPT_HEADERS`] (the scheme word of `Authorization: Bearer …` is kept,
    /// so a reader sees how the key was sent), and the URL's secrets too.
    pub fn redacted(&self) -> HttpRequest {
        let headers = self
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), crate::redact::header(k, v).0))
            .collect();
        HttpRequest {
            url: crate::redact::url(&self.url).0,
            headers,
            ..self.clone()
        }
    }
}

/// A problem with a target or its extra headers, found before sending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// `true`: the request is not sent.
    pub blocks: bool,
    /// What the user can find it by: `base-url`, `key`, `model`, `headers`, `provider`.
    pub field: &'static str,
    /// What is wrong and what to do.
    pub message: String,
}

impl Check {
    fn block(field: &'static str, message: impl Into<String>) -> Check {
        Check {
            blocks: true,
            field,
            message: message.into(),
        }
    }
    fn warn(field: &'static str, message: impl Into<String>) -> Check {
        Check {
            blocks: false,
            field,
            message: message.into(),
        }
    }
}

/// The parts of a URL the checks need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// `http` or `https` (lower case).
    pub scheme: String,
    /// Host without port (brackets kept for IPv6).
    pub host: String,
    /// Path and query after the authority, possibly empty.
    pub rest: String,
}

impl Url {
    /// Parse an absolute http(s) URL; `None` for anything else.
    pub fn parse(text: &str) -> Option<Url> {
        let text = text.trim();
        let (scheme, after) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let (authority, rest) = after.split_at(end);
        if authority.contains('@') || authority.is_empty() {
            return None; // credentials in the URL would end up in recordings
        }
        let host = if authority.starts_with('[') {
            let close = authority.find(']')?;
            authority.get(..=close)?.to_string()
        } else {
            authority.split(':').next().unwrap_or("").to_string()
        };
        if host.is_empty() || host.chars().any(|c| c.is_whitespace()) {
            return None;
        }
        Some(Url {
            scheme,
            host,
            rest: rest.to_string(),
        })
    }

    /// True for this machine as the page's Content-Security-Policy names it (`localhost`,
    /// `127.0.0.1`): the only hosts plain http may reach (`scripts/csp.mjs`).
    pub fn is_loopback(&self) -> bool {
        let h = self.host.to_ascii_lowercase();
        h == "localhost" || h == "127.0.0.1"
    }

    /// `scheme://host` (without port), for messages.
    pub fn origin_label(&self) -> String {
        format!("{}://{}", self.scheme, self.host)
    }
}

/// Parse the extra-headers text: one `Name: value` per line, blank lines and `#` comments
/// skipped. An error names the line.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("line {}: expected `Name: value`", i + 1));
        };
        let name = name.trim();
        let valid = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !valid {
            return Err(format!("line {}: `{name}` is not a header name", i + 1));
        }
        let value = value.trim();
        if value.chars().any(|c| c.is_control()) {
            return Err(format!("line {}: control character in the value", i + 1));
        }
        out.push((name.to_ascii_lowercase(), value.to_string()));
    }
    Ok(out)
}

/// What the page can tell before sending: the blocks (a route a page cannot call, a base URL
/// the table refuses, a bad base URL, a missing key or model, plain http to another machine) and the warnings.
/// `page_secure`: the page itself is served over https.
pub fn checks(target: &Target, key: &str, page_secure: bool) -> Vec<Check> {
    let mut out = Vec::new();
    if let Some(why) = target.provider.blocked() {
        out.push(Check::block("provider", why));
        return out;
    }
    let url = Url::parse(&target.base_url);
    match &url {
        None => out.push(Check::block(
            "base-url",
            format!(
                "`{}` is not an http(s) URL like {} (no user:password@ either)",
                target.base_url.trim(),
                target.provider.default_base_url()
            ),
        )),
        Some(u) => {
            let host = u.host.to_ascii_lowercase();
            let refused = ModelFamily::ALL
                .into_iter()
                .flat_map(|p| p.row().live.refused)
                .filter(|r| r.matches(&host, &u.rest));
            for r in refused {
                out.push(Check::block("base-url", r.why));
            }
            if u.scheme == "http" && !u.is_loopback() {
                out.push(Check::block(
                    "base-url",
                    format!(
                        "plain http to {} is refused: the page only sends keys over https, or over \
                         http to this machine (localhost, 127.0.0.1). Use https, or an SSH tunnel \
                         to localhost.",
                        u.origin_label()
                    ),
                ));
            }
            if u.scheme == "http" && u.is_loopback() && page_secure {
                out.push(Check::warn(
                    "base-url",
                    format!(
                        "An https page calling a server on this machine: Chrome sends a Private \
                         Network Access preflight first, and the server must allow this page's \
                         origin ({}).",
                        COMPATIBLE.local_origins
                    ),
                ));
            }
            let query = u.rest.split_once('?').map(|(_, q)| q).unwrap_or("");
            if query
                .split('&')
                .any(|p| is_secret_header(p.split('=').next().unwrap_or("")))
            {
                out.push(Check::block(
                    "base-url",
                    "The base URL carries a key in its query: put the key in the API key field \
                     (it is sent in a header, never in a URL that history and recordings keep).",
                ));
            }
            let path = target.provider.path();
            if !path.is_empty() && !path.contains("{model}") && u.rest.contains(path) {
                out.push(Check::warn(
                    "base-url",
                    format!("The base URL already ends in {path}; the page appends that itself."),
                ));
            }
        }
    }
    if target.model.trim().is_empty() {
        out.push(Check::block(
            "model",
            "Model is empty: name the model to call.",
        ));
    }
    if key.trim().is_empty() && target.provider.needs_key() {
        out.push(Check::block(
            "key",
            format!("{} needs an API key.", target.provider.label()),
        ));
    }
    if key.chars().any(|c| c.is_control() || !c.is_ascii()) {
        out.push(Check::block(
            "key",
            "The API key holds a character that cannot go in an HTTP header (a line break or a \
             non-ASCII character: was something else pasted with it?).",
        ));
    }
    match parse_headers(&target.extra_headers) {
        Err(e) => out.push(Check::block("headers", format!("Extra headers, {e}"))),
        Ok(h) => {
            for (name, _) in h {
                if ["host", "content-length", "origin", "cookie", "referer"]
                    .contains(&name.as_str())
                {
                    out.push(Check::block(
                        "headers",
                        format!("Extra headers: a browser does not let a page set `{name}`."),
                    ));
                }
            }
        }
    }
    out
}

/// Why a request cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked(pub Vec<Check>);

/// The HTTP request of one round: the exchange encoded by the target's format as a request,
/// with `model` (in the path for Gemini) and `stream` set, the key in the provider's header and
/// the extra headers after it. Refused when a [`checks`] entry blocks.
pub fn request(
    target: &Target,
    key: &str,
    x: &Exchange,
    page_secure: bool,
) -> Result<HttpRequest, Blocked> {
    let blocking: Vec<Check> = checks(target, key, page_secure)
        .into_iter()
        .filter(|c| c.blocks)
        .collect();
    if !blocking.is_empty() {
        return Err(Blocked(blocking));
    }
    let format = target.format();
    let encoded = format.encode(&x.as_request(), Kind::Request);
    let mut body: Value = serde_json::from_str(&encoded.text).unwrap_or(Value::Null);
    if let Some(o) = body.as_object_mut() {
        let model = Value::String(target.model.trim().to_string());
        let named = match format.send() {
            Send::Http(http) | Send::Prompt(http) => http.model,
            Send::JsonRpc | Send::Nothing(_) => ModelIn::Body,
        };
        match named {
            ModelIn::Url => {
                o.remove("model");
            }
            ModelIn::Body | ModelIn::BodyAndUrl(_) => {
                // `model` first, where people look for it.
                let rest = std::mem::take(o);
                o.insert("model".into(), model);
                o.extend(rest.into_iter().filter(|(k, _)| k != "model"));
            }
        }
        if let (true, Stream::Body(also)) = (target.stream, target.provider.row.stream) {
            o.insert("stream".into(), Value::Bool(true));
            for (name, value) in also {
                o.insert(
                    name.to_string(),
                    serde_json::from_str(value).unwrap_or(Value::Null),
                );
            }
        }
    }
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    let key = key.trim();
    let api = target.provider.api();
    if !key.is_empty() {
        headers.push((api.key_header.into(), format!("{}{key}", api.key_prefix)));
    }
    for (name, value) in api.headers.iter().chain(api.browser_headers) {
        headers.push((name.to_string(), value.to_string()));
    }
    let extra = parse_headers(&target.extra_headers).unwrap_or_default();
    for (name, value) in extra {
        headers.retain(|(k, _)| *k != name);
        headers.push((name, value));
    }
    Ok(HttpRequest {
        method: "POST".into(),
        url: target.endpoint(),
        headers,
        body: serde_json::to_string_pretty(&body).unwrap_or_default(),
    })
}

/// Percent-encode a path segment (model ids may hold `:` or `/`, as Bedrock's do).
fn percent_encode_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// What to tell when `fetch` rejected (a `TypeError`: the browser hides why). `reachable`: a
/// `no-cors` probe of the same URL got an answer, so the server is up and it is CORS that
/// failed; `None` when the probe was not made.
pub fn explain_network_failure(
    target: &Target,
    request: &HttpRequest,
    page_origin: &str,
    reachable: Option<bool>,
) -> String {
    let url = Url::parse(&request.url);
    let where_ = url
        .as_ref()
        .map(Url::origin_label)
        .unwrap_or_else(|| request.url.clone());
    let mut names: Vec<&str> = request
        .headers
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| *k != "content-type")
        .collect();
    names.insert(0, "content-type");
    let asked = names.join(", ");
    let preflight = format!(
        "Before the POST the browser sent a CORS preflight (OPTIONS {}) asking to send the \
         headers {asked} from the origin {page_origin}; the answer must carry \
         Access-Control-Allow-Origin ({page_origin} or *) and Access-Control-Allow-Headers \
         naming them.",
        request.url
    );
    let server_hint = match target.provider.api().cors {
        "" => String::new(),
        hint => format!(" {hint}"),
    };
    match reachable {
        Some(true) => format!(
            "{where_} answered, but the browser refused to let the page read the answer: the CORS \
             preflight failed. {preflight}{server_hint}"
        ),
        Some(false) => format!(
            "No answer from {where_}: the server is not reachable (down, wrong host or port, \
             blocked by the network or an extension). Check the base URL."
        ),
        None => format!(
            "The request to {where_} failed before any answer could be read: the server is not \
             reachable, or its CORS preflight failed. {preflight}{server_hint}"
        ),
    }
}

/// The command that serves a local stdio MCP server to this page (`toolscope mcp bridge`),
/// allowing only `page_origin`.
pub fn bridge_command(page_origin: &str) -> String {
    format!("toolscope mcp bridge --origin {page_origin} -- <command> [args]")
}

/// Why a request to the MCP server at `server` failed without an answer the page could read
/// (`fetch` rejected), given whether anything answered there (`reachable`, from a no-cors
/// probe; `None`: not known): a CORS refusal names the origin and the headers the server must
/// allow, and offers the bridge.
pub fn explain_mcp_failure(server: &str, page_origin: &str, reachable: Option<bool>) -> String {
    let where_ = keys::origin_of(server).unwrap_or_else(|| server.to_string());
    let bridge = format!(
        "A local stdio server can be reached through the bridge instead: {}",
        bridge_command(page_origin)
    );
    match reachable {
        Some(true) => format!(
            "{where_} answered, but it does not allow this page's origin ({page_origin}): the \
             browser refused to let the page read the answer (CORS). The server must answer the \
             preflight with Access-Control-Allow-Origin: {page_origin}, \
             Access-Control-Allow-Headers naming content-type, accept, authorization, \
             mcp-protocol-version and mcp-session-id, and expose Mcp-Session-Id. {bridge}"
        ),
        Some(false) => format!(
            "No answer from {where_}: the server is not reachable (down, wrong host or port, or \
             a certificate the browser refuses). {bridge}"
        ),
        None => format!(
            "The request to {where_} failed before an answer could be read: the server is down \
             or does not allow this page's origin ({page_origin}) by CORS. {bridge}"
        ),
    }
}
