//! `toolscope mcp tools|call` and `tokens --mcp`: the sans-IO client of [`crate::live::mcp`]
//! driven over blocking HTTP (`ureq` with rustls, so https servers work too).
//!
//! Redirects are not followed: a header given for a server (its token) goes to that URL only.

use crate::formats::{Format, Kind};
use crate::live::mcp::client::{Client, Connect, Generation, Prefer};
use crate::live::mcp::tools::{ServerTool, ToolMap};
use crate::live::mcp::{call, HttpRequest, HttpResponse, MAX_BODY, MAX_PAGES};
use crate::model::Exchange;
use std::time::Duration;

/// How long one HTTP exchange may take.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Send one request, read at most [`MAX_BODY`] bytes of its answer.
pub(crate) fn send(req: &HttpRequest) -> Result<HttpResponse, String> {
    use ureq::http;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let mut b = http::Request::builder()
        .method(req.method.as_str())
        .uri(req.url.as_str());
    for (k, v) in &req.headers {
        b = b.header(k.as_str(), v.as_str());
    }
    let request = b
        .body(req.body.clone().into_bytes())
        .map_err(|e| format!("cannot build the request to {}: {e}", req.url))?;
    let mut resp = agent
        .run(request)
        .map_err(|e| format!("{}: {e}", req.url))?;
    let status = resp.status().as_u16();
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = resp
        .body_mut()
        .with_config()
        .limit(MAX_BODY as u64)
        .read_to_vec()
        .map_err(|e| format!("reading the answer of {}: {e}", req.url))?;
    Ok(HttpResponse {
        status,
        headers,
        body,
    })
}

/// A `Name: value` header of `--header`.
pub(crate) fn parse_header(h: &str) -> Option<(String, String)> {
    let (k, v) = h.split_once(':')?;
    let k = k.trim();
    if k.is_empty() || k.contains(char::is_whitespace) {
        return None;
    }
    Some((k.to_ascii_lowercase(), v.trim().to_string()))
}

/// Connect (negotiating the generation) and list every tool (all pages).
pub(crate) fn connect_and_list(
    url: &str,
    headers: &[(String, String)],
) -> Result<(Client, Vec<ServerTool>), String> {
    let mut client = Client::new(url, Prefer::Auto).map_err(|e| e.to_string())?;
    let mut next = client.connect(headers);
    loop {
        let resp = send(&next.request)?;
        match client
            .on_connect(&next, &resp, headers)
            .map_err(|e| e.to_string())?
        {
            Connect::Send(o) => next = o,
            Connect::Ready => break,
        }
    }
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        if page == MAX_PAGES {
            return Err(format!("the tool list goes on past {MAX_PAGES} pages"));
        }
        let o = client
            .list_tools(cursor.as_deref(), headers)
            .map_err(|e| e.to_string())?;
        let resp = send(&o.request)?;
        let (more, next) = client
            .read_tools(&o, &resp, tools.len())
            .map_err(|e| e.to_string())?;
        tools.extend(more);
        match next {
            Some(c) if Some(&c) != cursor.as_ref() => cursor = Some(c),
            _ => break,
        }
    }
    Ok((client, tools))
}

/// End a session (2025-11-25 servers keep one per client until told); errors do not matter.
fn end(client: &mut Client, headers: &[(String, String)]) {
    if let Some(close) = client.close(headers) {
        let _ = send(&close.request);
    }
}

fn describe(client: &Client) -> String {
    let Some(s) = client.server() else {
        return String::new();
    };
    let generation = client
        .generation()
        .unwrap_or(Generation::Stateless)
        .label(client.protocol_version());
    let mut t = format!(
        "server: {} {} — protocol {generation}\n",
        if s.name.is_empty() {
            "(unnamed)"
        } else {
            &s.name
        },
        s.version
    );
    if let Some(i) = &s.instructions {
        t.push_str(&format!("instructions: {}\n", i.trim()));
    }
    t
}

fn hints(t: &ServerTool) -> String {
    let mut h = Vec::new();
    if t.read_only() {
        h.push("read-only");
    } else if t.destructive() {
        h.push("destructive");
    } else {
        h.push("writes");
    }
    if t.idempotent() {
        h.push("idempotent");
    }
    if !t.open_world() {
        h.push("closed world");
    }
    h.join(", ")
}

/// The tools as canonical tools (provider-safe names) in an exchange of their own.
pub(crate) fn tools_exchange(url: &str, tools: &[ServerTool]) -> (Exchange, ToolMap) {
    let mut map = ToolMap::default();
    let x = Exchange {
        tools: map.add(url, tools, &[]),
        ..Exchange::default()
    };
    (x, map)
}

/// `toolscope mcp …`.
pub(crate) fn command(args: &[String], out: &mut String, err: &mut String) -> Result<i32, String> {
    match args.first().map(String::as_str) {
        Some("tools") => tools_command(&args[1..], out, err),
        Some("call") => call_command(&args[1..], out, err),
        Some("bridge") => super::bridge::command(&args[1..], err),
        Some(other) => Err(format!(
            "unknown mcp command {other:?} (tools, call, bridge)"
        )),
        None => Err("mcp needs a command: tools, call or bridge".into()),
    }
}

/// Options shared by the client commands: the URL, `--header`s, and the rest.
struct Common {
    url: Option<String>,
    headers: Vec<(String, String)>,
    /// `--transcript FILE`: every JSON-RPC message, as the MCP transcript format reads it.
    transcript: Option<String>,
}

impl Common {
    fn new() -> Common {
        Common {
            url: None,
            headers: Vec::new(),
            transcript: None,
        }
    }

    /// Write the client's history to `--transcript` (no secrets: requests only as JSON-RPC).
    fn save(&self, client: &Client, err: &mut String) -> bool {
        let Some(path) = &self.transcript else {
            return true;
        };
        let text = crate::formats::json::pretty(&client.history().to_json());
        match std::fs::write(path, text + "\n") {
            Ok(()) => true,
            Err(e) => {
                err.push_str(&format!("toolscope: cannot write {path}: {e}\n"));
                false
            }
        }
    }
}

/// Take the options every `mcp` command has (`--header`, `-H`, `--transcript`) into `c`:
/// `Ok(true)` when `a` was one of them.
fn take_common(
    a: &str,
    it: &mut std::slice::Iter<'_, String>,
    c: &mut Common,
) -> Result<bool, String> {
    match a {
        "--header" | "-H" => {
            let h = it
                .next()
                .ok_or("--header needs 'Name: value' (Authorization: Bearer …)")?;
            let parsed =
                parse_header(h).ok_or_else(|| format!("--header {h:?}: expected 'Name: value'"))?;
            c.headers.push(parsed);
        }
        "--transcript" => {
            c.transcript = Some(it.next().ok_or("--transcript needs a file")?.clone())
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn tools_command(args: &[String], out: &mut String, err: &mut String) -> Result<i32, String> {
    let mut c = Common::new();
    let mut to: Option<String> = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if take_common(a, &mut it, &mut c)? {
            continue;
        }
        match a.as_str() {
            "--to" => to = Some(it.next().ok_or("--to needs a format")?.clone()),
            "--json" => json = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s if c.url.is_none() => c.url = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s:?}")),
        }
    }
    let url = c.url.clone().ok_or("mcp tools needs the server URL")?;
    let format = match &to {
        Some(id) if id == "canonical" => None,
        Some(id) => Some(
            Format::from_id(id)
                .ok_or_else(|| format!("unknown format {id:?} (see `toolscope formats`)"))?,
        ),
        None => None,
    };
    let (mut client, tools) = match connect_and_list(&url, &c.headers) {
        Ok(r) => r,
        Err(e) => {
            err.push_str(&format!("toolscope: {e}\n"));
            return Ok(1);
        }
    };
    err.push_str(&describe(&client));
    let saved = c.save(&client, err);
    end(&mut client, &c.headers);
    if !saved {
        return Ok(1);
    }
    if to.is_none() && !json {
        out.push_str(&format!("{} tools\n", tools.len()));
        for t in &tools {
            out.push_str(&format!("\n{} — {}", t.name, hints(t)));
            if t.display_name() != t.name {
                out.push_str(&format!(" — \"{}\"", t.display_name()));
            }
            out.push('\n');
            if let Some(d) = &t.description {
                out.push_str(&format!("  {}\n", d.trim().replace('\n', "\n  ")));
            }
            out.push_str(&format!("  input: {}\n", t.input_schema));
            if let Some(o) = &t.output_schema {
                out.push_str(&format!("  output: {o}\n"));
            }
            if !t.icons.is_empty() {
                out.push_str(&format!("  icons: {}\n", t.icons.len()));
            }
        }
        return Ok(0);
    }
    if json && to.is_none() {
        let raw: Vec<_> = tools.iter().map(|t| t.raw.clone()).collect();
        out.push_str(&crate::formats::json::pretty(&raw));
        out.push('\n');
        return Ok(0);
    }
    let (x, map) = tools_exchange(&url, &tools);
    for m in map.entries.iter().filter(|m| m.renamed()) {
        err.push_str(&format!(
            "renamed: {} → {} (what every provider accepts: {})\n",
            m.tool,
            m.name,
            crate::live::mcp::tools::PROVIDER_SAFE.text
        ));
    }
    let Some(format) = format else {
        out.push_str(&crate::formats::json::pretty(&x.tools));
        out.push('\n');
        return Ok(0);
    };
    let encoded = format.encode(&x, Kind::Request);
    let value: serde_json::Value = serde_json::from_str(&encoded.text).unwrap_or_default();
    // The provider's tool definitions: the request's `tools` (Bedrock: `toolConfig.tools`);
    // a format without either (MCP's transcript) prints whole.
    let defs = value
        .get("tools")
        .or_else(|| value.pointer("/toolConfig/tools"))
        .cloned()
        .unwrap_or(value);
    out.push_str(&crate::formats::json::pretty(&defs));
    out.push('\n');
    for l in encoded
        .losses
        .iter()
        .filter(|l| l.pointer.starts_with("/tools"))
    {
        err.push_str(&super::describe(l));
        err.push('\n');
    }
    Ok(0)
}

fn call_command(args: &[String], out: &mut String, err: &mut String) -> Result<i32, String> {
    let mut c = Common::new();
    let mut tool: Option<String> = None;
    let mut arguments: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if take_common(a, &mut it, &mut c)? {
            continue;
        }
        match a.as_str() {
            "--args" => arguments = Some(it.next().ok_or("--args needs a JSON object")?.clone()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s if c.url.is_none() => c.url = Some(s.to_string()),
            s if tool.is_none() => tool = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s:?}")),
        }
    }
    let url = c.url.clone().ok_or("mcp call needs the server URL")?;
    let tool = tool.ok_or("mcp call needs the tool's name")?;
    let arguments: serde_json::Value = match arguments.as_deref() {
        None => serde_json::json!({}),
        Some(text) => {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| format!("--args is not JSON: {e}"))?;
            if !v.is_object() {
                return Err("--args must be a JSON object".into());
            }
            v
        }
    };
    let (mut client, tools) = match connect_and_list(&url, &c.headers) {
        Ok(r) => r,
        Err(e) => {
            err.push_str(&format!("toolscope: {e}\n"));
            return Ok(1);
        }
    };
    err.push_str(&describe(&client));
    // The server's name, or the provider-safe name `mcp tools --to` printed.
    let (_, map) = tools_exchange(&url, &tools);
    let name = map
        .resolve(&tool)
        .filter(|_| !tools.iter().any(|t| t.name == tool))
        .map(|m| m.tool.clone())
        .unwrap_or(tool);
    let spec = tools.iter().find(|t| t.name == name);
    match spec {
        None => err.push_str(&format!(
            "note: the server lists no tool {name:?}; calling it anyway\n"
        )),
        Some(t) => {
            if let Ok(report) = crate::schema::validate::validate(&t.input_schema, &arguments) {
                if !report.errors.is_empty() {
                    for e in &report.errors {
                        let at = if e.instance_path.is_empty() {
                            "/"
                        } else {
                            &e.instance_path
                        };
                        err.push_str(&format!("--args {at}: {}\n", e.message));
                    }
                    err.push_str(
                        "toolscope: the arguments do not match the tool's inputSchema; not sent\n",
                    );
                    return Ok(1);
                }
            }
        }
    }
    let o = client
        .call_tool(&name, &arguments, &c.headers)
        .map_err(|e| e.to_string())?;
    let resp = match send(&o.request) {
        Ok(r) => r,
        Err(e) => {
            err.push_str(&format!("toolscope: {e}\n"));
            return Ok(1);
        }
    };
    let output_schema = spec.and_then(|t| t.output_schema.as_ref());
    let result = match client.read_call(&o, &resp, None, output_schema) {
        Ok(r) => r,
        Err(e) => {
            err.push_str(&format!("toolscope: {e}\n"));
            return Ok(1);
        }
    };
    out.push_str(&crate::formats::json::pretty(&result.raw));
    out.push('\n');
    for (i, b) in result.content.iter().enumerate() {
        let line = match b {
            call::Content::Text { text } => format!("text: {}", one_line(text)),
            call::Content::Image { mime_type, data } => {
                format!("image: {mime_type}, {} base64 characters", data.len())
            }
            call::Content::Audio { mime_type, data } => {
                format!("audio: {mime_type}, {} base64 characters", data.len())
            }
            call::Content::ResourceLink { uri, name, .. } => {
                format!("resource link: {name} <{uri}>")
            }
            call::Content::Resource { uri, text, .. } => match text {
                Some(t) => format!("resource <{uri}>: {}", one_line(t)),
                None => format!("resource <{uri}> (binary)"),
            },
            call::Content::Other { value } => format!("other block: {value}"),
        };
        err.push_str(&format!("content[{i}] {line}\n"));
    }
    let mut code = 0;
    match &result.structured {
        call::Structured::Absent => {}
        call::Structured::Unchecked => {
            err.push_str("structuredContent: the tool declares no outputSchema (not checked)\n")
        }
        call::Structured::Valid => {
            err.push_str("structuredContent: valid against the outputSchema\n")
        }
        call::Structured::Invalid { errors } => {
            code = 1;
            for e in errors {
                let at = if e.instance_path.is_empty() {
                    "/"
                } else {
                    &e.instance_path
                };
                err.push_str(&format!(
                    "structuredContent {at}: {} (outputSchema {})\n",
                    e.message, e.schema_path
                ));
            }
        }
        call::Structured::BadSchema { message } => {
            code = 1;
            err.push_str(&format!("outputSchema cannot be compiled: {message}\n"));
        }
        call::Structured::Missing => {
            code = 1;
            err.push_str("structuredContent: missing, but the tool declares an outputSchema\n");
        }
    }
    if result.is_error {
        code = 1;
        err.push_str("isError: the tool reported an error\n");
    }
    if !c.save(&client, err) {
        code = 1;
    }
    end(&mut client, &c.headers);
    Ok(code)
}

fn one_line(t: &str) -> String {
    let t = t.trim().replace('\n', " ⏎ ");
    match t.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t,
    }
}

/// `tokens --mcp <url>`: the server's tools as an exchange of their own, for counting.
pub(crate) fn tokens_exchange(
    url: &str,
    headers: &[(String, String)],
    err: &mut String,
) -> Result<Exchange, String> {
    let (mut client, tools) = connect_and_list(url, headers)?;
    err.push_str(&describe(&client));
    end(&mut client, headers);
    err.push_str(&format!(
        "{} tools: what they add to every request, per model\n",
        tools.len()
    ));
    Ok(tools_exchange(url, &tools).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        assert_eq!(
            parse_header("Authorization: Bearer a:b "),
            Some(("authorization".into(), "Bearer a:b".into()))
        );
        assert_eq!(parse_header("no colon"), None);
        assert_eq!(parse_header("bad name: x"), None);
    }
}
