//! `toolscope mcp bridge [--port N] [--origin URL] -- <command> [args]`: a stdio MCP server
//! served over Streamable HTTP on 127.0.0.1, for the page (which cannot start a process).
//!
//! Who may drive it: only requests that carry the random token it prints once
//! (`Authorization: Bearer …`), whose `Host` is the loopback address it listens on (no DNS
//! rebinding), and which come from the page's origin when they come from a page at all (a
//! browser always sends `Origin` on a cross-origin request; any other origin gets 403, its
//! preflight too, and no CORS headers). A web page the user did not open cannot run local
//! commands through it.
//!
//! The wire: each POST carries one JSON-RPC message. A request is written to the child's stdin
//! as one line (its id replaced by the bridge's own, so two clients cannot collide) and the
//! child's response to it is returned as `application/json`; a notification or a response is
//! written and answered 202. The child's own requests (`ping`) are answered by the bridge;
//! its notifications are dropped (there is no GET stream). A second `initialize` (a second
//! page, a reload) is answered from the first one's result, since a stdio server holds one
//! session. No `Mcp-Session-Id` is issued: the child is the session.
//!
//! Lifetime: the child gets SIGTERM when the bridge dies, however it dies (Linux
//! `PR_SET_PDEATHSIG`; elsewhere it sees its stdin close); when the child ends, the bridge
//! says so and ends. Sizes: a request body and a line from the child are limited as the rest
//! of the command line reads ([`crate::formats::limits::MAX_INPUT`]), headers to 64 KiB.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The page's origin when `--origin` is not given (`make serve`).
pub const DEFAULT_ORIGIN: &str = "http://127.0.0.1:8080";
/// Largest request body or child message.
const MAX_MESSAGE: usize = crate::formats::limits::MAX_INPUT;
/// Largest request head.
const MAX_HEAD: usize = 64 * 1024;
/// How long a request waits for the child's answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(300);
/// Most connections handled at once.
const MAX_CONNECTIONS: usize = 64;

struct Shared {
    stdin: Mutex<ChildStdin>,
    pending: Mutex<HashMap<u64, Sender<Value>>>,
    next_id: AtomicU64,
    initialized: Mutex<Option<Value>>,
    sent_initialized: AtomicBool,
    token: String,
    origin: String,
    port: u16,
    connections: AtomicUsize,
}

fn random_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(crate::share::base64url::encode(&bytes))
}

/// An origin as browsers send it: `scheme://host[:port]`, no path.
fn normalise_origin(o: &str) -> Option<String> {
    let o = o.trim().trim_end_matches('/');
    let (scheme, rest) = o.split_once("://")?;
    if !matches!(scheme, "http" | "https") || rest.is_empty() || rest.contains(['/', '?', '#', ' '])
    {
        return None;
    }
    Some(format!("{scheme}://{}", rest.to_ascii_lowercase()))
}

/// Constant-time comparison (the token must not leak through timing).
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// `toolscope mcp bridge …`: runs until the child ends (or the bridge is killed).
pub(crate) fn command(args: &[String], err: &mut String) -> Result<i32, String> {
    let mut port: u16 = 0;
    let mut origin = DEFAULT_ORIGIN.to_string();
    let mut it = args.iter();
    let mut cmd: Vec<String> = Vec::new();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--port" => {
                port = it
                    .next()
                    .and_then(|p| p.parse().ok())
                    .ok_or("--port needs a port number")?
            }
            "--origin" => {
                let o = it.next().ok_or("--origin needs the page's origin")?;
                origin = normalise_origin(o)
                    .ok_or_else(|| format!("--origin {o:?}: expected scheme://host[:port]"))?;
            }
            "--" => {
                cmd = it.by_ref().cloned().collect();
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => {
                cmd = std::iter::once(a.clone())
                    .chain(it.by_ref().cloned())
                    .collect();
            }
        }
    }
    if cmd.is_empty() {
        return Err("mcp bridge needs the server's command after `--`".into());
    }
    let token = random_token().map_err(|e| format!("no randomness for the token: {e}"))?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();

    let mut command = Command::new(&cmd[0]);
    command
        .args(&cmd[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; it only sets this child's parent-death signal.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd[0]))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err("the server's stdin/stdout are not available".into());
    };
    let shared = Arc::new(Shared {
        stdin: Mutex::new(stdin),
        pending: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        initialized: Mutex::new(None),
        sent_initialized: AtomicBool::new(false),
        token,
        origin,
        port,
        connections: AtomicUsize::new(0),
    });

    // Printed once, straight away (the rest of the CLI prints when a command ends).
    let url = format!("http://127.0.0.1:{port}/mcp");
    {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{url}");
        let _ = writeln!(o, "token: {}", shared.token);
        let _ = writeln!(
            o,
            "Paste the URL and the token into Toolscope's MCP servers (page origin {}).",
            shared.origin
        );
        let _ = o.flush();
    }
    eprintln!(
        "toolscope: bridge for {:?} (pid {}) on {url}; Ctrl-C ends both",
        cmd.join(" "),
        child.id()
    );

    let reader = {
        let shared = shared.clone();
        std::thread::spawn(move || read_child(stdout, &shared))
    };
    {
        let shared = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                    continue; // dropped: too many at once
                }
                let shared = shared.clone();
                std::thread::spawn(move || {
                    let _ = handle(conn, &shared);
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
    }
    // The child's stdout closes when it ends.
    let _ = reader.join();
    let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
    err.push_str(&format!(
        "toolscope: the MCP server {:?} ended ({status}); the bridge stops\n",
        cmd.join(" ")
    ));
    Ok(1)
}

/// Route the child's messages: responses to their waiting request, its requests answered.
fn read_child(stdout: std::process::ChildStdout, shared: &Shared) {
    let mut r = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match r
            .by_ref()
            .take(MAX_MESSAGE as u64 + 1)
            .read_until(b'\n', &mut line)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.len() > MAX_MESSAGE {
            eprintln!("toolscope: a message of the server is over {MAX_MESSAGE} bytes; skipped");
            // Skip the rest of the line.
            let mut rest = Vec::new();
            while r
                .by_ref()
                .take(1 << 20)
                .read_until(b'\n', &mut rest)
                .map(|n| n > 0)
                .unwrap_or(false)
            {
                if rest.ends_with(b"\n") {
                    break;
                }
                rest.clear();
            }
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(&line) else {
            continue; // not JSON-RPC (a stray print): stdio servers must not, but some do
        };
        let id = v.get("id").and_then(Value::as_u64);
        match (v.get("method").and_then(Value::as_str), id) {
            (None, Some(id)) => {
                if let Some(tx) = shared
                    .pending
                    .lock()
                    .map(|mut p| p.remove(&id))
                    .ok()
                    .flatten()
                {
                    let _ = tx.send(v);
                }
            }
            (Some(method), _) if v.get("id").is_some() => {
                // A request of the server: nothing upstream can answer it over this bridge.
                let answer = if method == "ping" {
                    json!({"jsonrpc": "2.0", "id": v["id"], "result": {}})
                } else {
                    json!({"jsonrpc": "2.0", "id": v["id"], "error": {"code": -32601,
                        "message": format!("{method} is not available through the bridge")}})
                };
                write_child(shared, &answer);
            }
            _ => {} // notifications: no stream to carry them
        }
    }
}

fn write_child(shared: &Shared, v: &Value) -> bool {
    let mut line = serde_json::to_string(v).unwrap_or_default();
    line.push('\n');
    match shared.stdin.lock() {
        Ok(mut s) => s.write_all(line.as_bytes()).and_then(|_| s.flush()).is_ok(),
        Err(_) => false,
    }
}

struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn read_head(r: &mut BufReader<&TcpStream>) -> Option<Request> {
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = r
            .by_ref()
            .take((MAX_HEAD - head.len().min(MAX_HEAD)) as u64)
            .read_until(b'\n', &mut line)
            .ok()?;
        if n == 0 || !line.ends_with(b"\n") {
            return None; // closed, or over MAX_HEAD
        }
        if line == b"\r\n" || line == b"\n" {
            break;
        }
        head.extend_from_slice(&line);
    }
    let text = String::from_utf8(head).ok()?;
    let mut lines = text.lines();
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Request {
        method,
        path,
        headers,
    })
}

fn respond(
    mut w: &TcpStream,
    status: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    w.write_all(out.as_bytes())?;
    w.write_all(body)?;
    w.flush()
}

/// Read and drop a body not used (up to 1 MiB): closing a socket with unread data resets the
/// connection, and the client would see a network error instead of the status.
fn drain(r: &mut BufReader<&TcpStream>, req: &Request) {
    let len = req
        .header("content-length")
        .and_then(|l| l.parse::<u64>().ok())
        .unwrap_or(0)
        .min(1 << 20);
    let _ = std::io::copy(&mut r.by_ref().take(len), &mut std::io::sink());
}

fn json_body(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}

fn rpc_error(id: Value, code: i64, message: &str) -> Vec<u8> {
    json_body(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
}

fn handle(conn: TcpStream, shared: &Shared) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut r = BufReader::new(&conn);
    let Some(req) = read_head(&mut r) else {
        return respond(&conn, "400 Bad Request", &[], b"bad request");
    };
    let text = |s: &str| vec![("content-type".to_string(), s.to_string())];
    // DNS rebinding: a page on another name resolving to 127.0.0.1 sends its own Host.
    let host_ok = req.header("host").is_some_and(|h| {
        h == format!("127.0.0.1:{}", shared.port) || h == format!("localhost:{}", shared.port)
    });
    if !host_ok {
        drain(&mut r, &req);
        return respond(
            &conn,
            "403 Forbidden",
            &text("text/plain"),
            b"this Host is not allowed",
        );
    }
    let origin = req.header("origin");
    if let Some(o) = origin {
        if normalise_origin(o).as_deref() != Some(shared.origin.as_str()) {
            drain(&mut r, &req);
            return respond(
                &conn,
                "403 Forbidden",
                &text("text/plain"),
                format!(
                    "origin {o} is not allowed: this bridge serves {} only",
                    shared.origin
                )
                .as_bytes(),
            );
        }
    }
    let mut cors: Vec<(String, String)> = Vec::new();
    if origin.is_some() {
        cors.push(("access-control-allow-origin".into(), shared.origin.clone()));
        cors.push(("vary".into(), "Origin".into()));
        cors.push((
            "access-control-expose-headers".into(),
            "mcp-session-id, mcp-protocol-version, www-authenticate".into(),
        ));
    }
    if req.method == "OPTIONS" {
        let asked = req
            .header("access-control-request-headers")
            .unwrap_or("authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id")
            .to_string();
        cors.push((
            "access-control-allow-methods".into(),
            "POST, OPTIONS".into(),
        ));
        cors.push(("access-control-allow-headers".into(), asked));
        cors.push(("access-control-max-age".into(), "600".into()));
        if req
            .header("access-control-request-private-network")
            .is_some()
        {
            cors.push(("access-control-allow-private-network".into(), "true".into()));
        }
        return respond(&conn, "204 No Content", &cors, b"");
    }
    if req.path.split('?').next() != Some("/mcp") {
        drain(&mut r, &req);
        return respond(&conn, "404 Not Found", &cors, b"");
    }
    let auth_ok = req
        .header("authorization")
        .and_then(|a| a.strip_prefix("Bearer "))
        .is_some_and(|t| same(t.trim(), &shared.token));
    if !auth_ok {
        drain(&mut r, &req);
        let mut h = cors.clone();
        h.push((
            "www-authenticate".into(),
            "Bearer error=\"invalid_token\"".into(),
        ));
        h.extend(text("text/plain"));
        return respond(
            &conn,
            "401 Unauthorized",
            &h,
            b"the bridge's token is required",
        );
    }
    if req.method != "POST" {
        drain(&mut r, &req);
        let mut h = cors.clone();
        h.push(("allow".into(), "POST, OPTIONS".into()));
        return respond(&conn, "405 Method Not Allowed", &h, b"");
    }
    if req.header("transfer-encoding").is_some() {
        return respond(&conn, "411 Length Required", &cors, b"");
    }
    let Some(len) = req
        .header("content-length")
        .and_then(|l| l.parse::<usize>().ok())
    else {
        return respond(&conn, "411 Length Required", &cors, b"");
    };
    if len > MAX_MESSAGE {
        return respond(&conn, "413 Payload Too Large", &cors, b"");
    }
    let body = match super::read_limited(r.by_ref().take(len as u64), MAX_MESSAGE) {
        Ok(b) if b.len() == len => b,
        _ => {
            return respond(
                &conn,
                "400 Bad Request",
                &cors,
                b"the body is not UTF-8 or ends early",
            )
        }
    };
    let mut json_headers = cors.clone();
    json_headers.extend(text("application/json"));
    let Ok(mut msg) = serde_json::from_str::<Value>(&body) else {
        let b = rpc_error(Value::Null, -32700, "Parse error: the body is not JSON");
        return respond(&conn, "400 Bad Request", &json_headers, &b);
    };
    if !msg.is_object() {
        let b = rpc_error(Value::Null, -32600, "one JSON-RPC message per request");
        return respond(&conn, "400 Bad Request", &json_headers, &b);
    }
    let method = msg
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    let Some(original_id) = msg.get("id").cloned().filter(|_| method.is_some()) else {
        // A notification or a response: written, acknowledged. One `initialized` per child.
        let again = method.as_deref() == Some("notifications/initialized")
            && shared.sent_initialized.swap(true, Ordering::SeqCst);
        if method.is_some() && !again && !write_child(shared, &msg) {
            return respond(
                &conn,
                "502 Bad Gateway",
                &cors,
                b"the server process is gone",
            );
        }
        return respond(&conn, "202 Accepted", &cors, b"");
    };
    if method.as_deref() == Some("initialize") {
        if let Some(result) = shared.initialized.lock().ok().and_then(|i| i.clone()) {
            let b = json_body(&json!({"jsonrpc": "2.0", "id": original_id, "result": result}));
            return respond(&conn, "200 OK", &json_headers, &b);
        }
    }
    let id = shared.next_id.fetch_add(1, Ordering::SeqCst);
    msg["id"] = json!(id);
    let (tx, rx) = channel();
    if let Ok(mut p) = shared.pending.lock() {
        p.insert(id, tx);
    }
    if !write_child(shared, &msg) {
        return respond(
            &conn,
            "502 Bad Gateway",
            &cors,
            b"the server process is gone",
        );
    }
    let Ok(mut answer) = rx.recv_timeout(ANSWER_TIMEOUT) else {
        if let Ok(mut p) = shared.pending.lock() {
            p.remove(&id);
        }
        let b = rpc_error(original_id, -32001, "the server did not answer in time");
        return respond(&conn, "504 Gateway Timeout", &json_headers, &b);
    };
    answer["id"] = original_id;
    if method.as_deref() == Some("initialize") {
        if let (Some(result), Ok(mut i)) = (answer.get("result"), shared.initialized.lock()) {
            *i = Some(result.clone());
        }
    }
    respond(&conn, "200 OK", &json_headers, &json_body(&answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_and_tokens() {
        assert_eq!(
            normalise_origin("http://127.0.0.1:8080/").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(normalise_origin("HTTPS://Example.com").as_deref(), None);
        assert_eq!(
            normalise_origin("https://Example.com").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(normalise_origin("http://a/b"), None);
        assert_eq!(normalise_origin("null"), None);
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
        let t = random_token().unwrap();
        assert_eq!(t.len(), 43);
        assert_ne!(t, random_token().unwrap());
    }
}
