//! The MCP command line against a real MCP server on the official Python SDK
//! (`tests/mcp/server.py`, `mcp` 2.3.0) on 127.0.0.1: both protocol generations, the bearer
//! token, `mcp tools` (also as Anthropic tool definitions the `anthropic` SDK accepts),
//! `mcp call` of each kind of tool, `tokens --mcp`, and `mcp bridge` around the same server
//! over stdio. Skipped, saying so, when python3 has no `mcp` package (setup installs it).

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "test-token-7f3a";
const SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/server.py");
const BIN: &str = env!("CARGO_BIN_EXE_toolscope");

fn have_mcp() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import mcp.server.mcpserver, uvicorn"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!(
            "SKIPPED: python3 lacks the `mcp` package (pip install -r tests/sdk/requirements.txt)"
        );
    }
    ok
}

/// A process killed when dropped.
struct Proc {
    child: Child,
    first_line: String,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(cmd: &mut Command) -> Proc {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the process");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first_line = String::new();
    stdout.read_line(&mut first_line).expect("its first line");
    assert!(!first_line.is_empty(), "the process printed nothing");
    Proc {
        child,
        first_line: first_line.trim().to_string(),
        stdout,
    }
}

fn server(args: &[&str]) -> Proc {
    spawn(Command::new("python3").arg(SERVER).args(args))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolscope-mcp-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Run the CLI: (status, stdout, stderr).
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run toolscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const AUTH: &str = "Authorization: Bearer test-token-7f3a";

#[test]
fn both_generations_and_the_token() {
    if !have_mcp() {
        return;
    }
    for (protocol, chosen) in [
        ("stateless", "2026-07-28 (stateless"),
        ("legacy", "2025-11-25 (session"),
        ("both", "2026-07-28 (stateless"),
    ] {
        let s = server(&["--token", TOKEN, "--protocol", protocol]);
        let (code, out, err) = cli(&["mcp", "tools", &s.first_line, "--header", AUTH]);
        assert_eq!(code, 0, "{protocol}: {err}");
        assert!(err.contains(chosen), "{protocol}: {err}");
        assert!(err.contains("toolscope-test-server 1.2.3"), "{err}");
        assert!(out.starts_with("4 tools"), "{out}");
        assert!(out.contains("notes.delete — destructive"), "{out}");
        assert!(out.contains("get_weather — read-only"), "{out}");
        // No token, a wrong token: 401, with the OAuth pointer of the challenge.
        let (code, _, err) = cli(&["mcp", "tools", &s.first_line]);
        assert_eq!(code, 1);
        assert!(
            err.contains("HTTP 401") && err.contains("oauth-protected-resource"),
            "{err}"
        );
        let (code, _, err) = cli(&[
            "mcp",
            "tools",
            &s.first_line,
            "-H",
            "Authorization: Bearer nope",
        ]);
        assert_eq!(code, 1);
        assert!(err.contains("HTTP 401"), "{err}");
    }
}

#[test]
fn tools_as_anthropic_definitions_the_sdk_accepts() {
    if !have_mcp() {
        return;
    }
    let s = server(&["--token", TOKEN]);
    let (code, out, err) = cli(&[
        "mcp",
        "tools",
        &s.first_line,
        "-H",
        AUTH,
        "--to",
        "anthropic",
    ]);
    assert_eq!(code, 0, "{err}");
    let defs: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let names: Vec<&str> = defs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "get_weather",
            "notes_delete",
            "always_fails",
            "media_sample"
        ]
    );
    assert_eq!(defs[0]["input_schema"]["required"][0], "city");
    assert!(
        err.contains("renamed: notes.delete → notes_delete"),
        "{err}"
    );
    let file = tmp("anthropic-tools.json");
    std::fs::write(&file, &out).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/tool_defs.py");
    common::run_ok(
        Command::new("python3")
            .arg(script)
            .arg("anthropic")
            .arg(&file),
        "python3 tests/sdk/tool_defs.py (the anthropic SDK)",
    );
    // The canonical form keeps the MCP fields (output schema, annotations, title).
    let (code, out, _) = cli(&[
        "mcp",
        "tools",
        &s.first_line,
        "-H",
        AUTH,
        "--to",
        "canonical",
    ]);
    assert_eq!(code, 0);
    let tools: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(tools[0]["annotations"]["readOnlyHint"], true);
    assert_eq!(tools[0]["output_schema"]["title"], "Weather");
    assert_eq!(tools[0]["extra"]["mcp"]["title"], "Current weather");
}

#[test]
fn calls_of_every_kind() {
    if !have_mcp() {
        return;
    }
    let record = tmp("calls.jsonl");
    let _ = std::fs::remove_file(&record);
    let s = server(&["--token", TOKEN, "--record", record.to_str().unwrap()]);
    let url = s.first_line.as_str();

    // Read-only with structured output, checked against its outputSchema.
    let (code, out, err) = cli(&[
        "mcp",
        "call",
        url,
        "get_weather",
        "--args",
        r#"{"city":"Oslo"}"#,
        "-H",
        AUTH,
    ]);
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["structuredContent"]["city"], "Oslo");
    assert!(
        err.contains("structuredContent: valid against the outputSchema"),
        "{err}"
    );

    // Destructive: the server saw exactly the arguments sent (by the provider-safe name).
    let args = r#"{"note_id":"n-42","reason":"dup"}"#;
    let (code, _, err) = cli(&[
        "mcp",
        "call",
        url,
        "notes_delete",
        "--args",
        args,
        "-H",
        AUTH,
    ]);
    assert_eq!(code, 0, "{err}");
    let seen = std::fs::read_to_string(&record).unwrap();
    let seen: serde_json::Value = serde_json::from_str(seen.trim()).unwrap();
    assert_eq!(
        seen,
        serde_json::from_str::<serde_json::Value>(args).unwrap()
    );

    // Failing: isError shown, exit status 1.
    let (code, out, err) = cli(&["mcp", "call", url, "always_fails", "-H", AUTH]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("\"isError\": true"), "{out}");
    assert!(err.contains("isError: the tool reported an error"), "{err}");

    // Every block kind.
    let (code, _, err) = cli(&["mcp", "call", url, "media.sample", "-H", AUTH]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "image: image/png",
        "audio: audio/wav",
        "resource link: note 1 <file:///notes/1.md>",
        "resource <file:///notes/2.md>: # Note 2",
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }

    // Arguments the input schema refuses are not sent.
    let (code, _, err) = cli(&[
        "mcp",
        "call",
        url,
        "notes.delete",
        "--args",
        r#"{"note_id":7}"#,
        "-H",
        AUTH,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--args /note_id") && err.contains("not sent"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 1);
}

#[test]
fn tokens_of_a_servers_tools() {
    if !have_mcp() {
        return;
    }
    let s = server(&["--token", TOKEN, "--protocol", "legacy"]);
    let (code, out, err) = cli(&["tokens", "--mcp", &s.first_line, "-H", AUTH, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("4 tools"), "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 5, "one row per model family: {rows:?}");
    for r in rows {
        assert!(r["tools"].as_u64().unwrap() > 100, "{r}");
    }
    let (code, out, _) = cli(&[
        "tokens",
        "--mcp",
        &s.first_line,
        "-H",
        AUTH,
        "--model",
        "gpt-4o",
    ]);
    assert_eq!(code, 0);
    assert!(out.lines().nth(1).unwrap().starts_with("gpt-4o"), "{out}");
}

/// One HTTP/1.1 request on loopback: (status, body).
fn http(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut req = format!(
        "{method} /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let status = resp[9..12].parse().unwrap();
    let body = resp
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // A zombie has ended (its new parent reaps it).
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z')),
    }
}

#[test]
fn bridge_serves_only_the_page_with_the_token() {
    if !have_mcp() {
        return;
    }
    let record = tmp("bridge.jsonl");
    let _ = std::fs::remove_file(&record);
    let origin = "http://127.0.0.1:8080";
    let mut b = spawn(Command::new(BIN).args([
        "mcp",
        "bridge",
        "--origin",
        origin,
        "--",
        "python3",
        SERVER,
        "--stdio",
        "--record",
        record.to_str().unwrap(),
    ]));
    let url = b.first_line.clone();
    let mut token_line = String::new();
    b.stdout.read_line(&mut token_line).unwrap();
    let token = token_line
        .trim()
        .strip_prefix("token: ")
        .expect("the token line")
        .to_string();
    assert!(token.len() >= 40);
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|r| r.strip_suffix("/mcp"))
        .and_then(|p| p.parse().ok())
        .expect("http://127.0.0.1:<port>/mcp");
    let bearer = format!("Bearer {token}");

    // The command line drives it like any server.
    let auth = format!("Authorization: {bearer}");
    let (code, out, err) = cli(&["mcp", "tools", &url, "-H", &auth]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("4 tools"), "{out}");
    let (code, _, err) = cli(&[
        "mcp",
        "call",
        &url,
        "notes.delete",
        "--args",
        r#"{"note_id":"b-1"}"#,
        "-H",
        &auth,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&record).unwrap().trim(),
        r#"{"note_id": "b-1"}"#
    );

    let list = r#"{"jsonrpc":"2.0","id":"page-1","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let json = ("content-type", "application/json");
    // The page's origin with the token: served, with CORS for that origin.
    let (status, body) = http(
        port,
        "POST",
        &[("origin", origin), ("authorization", &bearer), json],
        list,
    );
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["id"], "page-1");
    assert_eq!(v["result"]["tools"].as_array().unwrap().len(), 4);
    let (status, _) = http(
        port,
        "OPTIONS",
        &[
            ("origin", origin),
            ("access-control-request-method", "POST"),
        ],
        "",
    );
    assert_eq!(status, 204);
    // Any other origin: refused, preflight too, token or not.
    for evil in ["http://evil.example", "http://127.0.0.1:9999", "null"] {
        let (status, _) = http(
            port,
            "POST",
            &[("origin", evil), ("authorization", &bearer), json],
            list,
        );
        assert_eq!(status, 403, "{evil}");
        let (status, _) = http(
            port,
            "OPTIONS",
            &[("origin", evil), ("access-control-request-method", "POST")],
            "",
        );
        assert_eq!(status, 403, "{evil}");
    }
    // A missing or wrong token.
    let (status, _) = http(port, "POST", &[("origin", origin), json], list);
    assert_eq!(status, 401);
    let (status, _) = http(
        port,
        "POST",
        &[("origin", origin), ("authorization", "Bearer wrong"), json],
        list,
    );
    assert_eq!(status, 401);
    // Another Host (DNS rebinding) is refused.
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "POST /mcp HTTP/1.1\r\nhost: evil.example:{port}\r\nauthorization: {bearer}\r\ncontent-length: 0\r\n\r\n").unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.starts_with("HTTP/1.1 403"), "{resp}");
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 1);

    // Killing the bridge ends its child.
    let mut err = String::new();
    let pid = {
        let mut e = b.child.stderr.take().unwrap();
        let mut buf = [0u8; 4096];
        let n = e.read(&mut buf).unwrap();
        err.push_str(&String::from_utf8_lossy(&buf[..n]));
        err.split("(pid ")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .and_then(|p| p.parse::<u32>().ok())
            .expect("the child's pid")
    };
    assert!(!ended(pid), "the child runs while the bridge does");
    b.child.kill().unwrap();
    b.child.wait().unwrap();
    let start = Instant::now();
    while !ended(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the child {pid} outlived the bridge"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// What the client exchanged with a real server (`--transcript`) is an MCP transcript the MCP
/// format reads and writes back field for field, in both generations; the stateless one passes
/// the 2026-07-28 schema and the `mcp` SDK's types.
#[test]
fn live_transcripts_round_trip_through_the_mcp_format() {
    if !have_mcp() {
        return;
    }
    for protocol in ["stateless", "legacy"] {
        let s = server(&["--protocol", protocol]);
        for (tool, args) in [
            ("get_weather", r#"{"city":"Rome"}"#),
            ("media.sample", "{}"),
        ] {
            let file = tmp(&format!("mcp.request.{protocol}-{tool}.json"));
            let f = file.to_str().unwrap();
            let (code, _, err) = cli(&[
                "mcp",
                "call",
                &s.first_line,
                tool,
                "--args",
                args,
                "--transcript",
                f,
            ]);
            assert_eq!(code, 0, "{err}");
            let written: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            assert!(written.as_array().unwrap().len() >= 6, "{written}");
            let (code, out, err) = cli(&["convert", "--from", "mcp", "--to", "mcp", f]);
            assert_eq!(code, 0, "{err}");
            assert!(err.is_empty(), "{protocol} {tool}: {err}");
            let back: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(back, written, "{protocol} {tool}");
            if protocol == "stateless" {
                let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/validate.py");
                common::run_ok(
                    Command::new("python3")
                        .arg(script)
                        .args(["mcp", "request", f]),
                    "python3 tests/sdk/validate.py (the MCP schema and the mcp SDK)",
                );
            }
        }
    }
}

#[test]
fn usage_errors_name_the_problem() {
    for (args, needle) in [
        (&["mcp"][..], "mcp needs a command"),
        (&["mcp", "tools"][..], "needs the server URL"),
        (
            &["mcp", "call", "http://127.0.0.1:9/mcp"][..],
            "needs the tool's name",
        ),
        (
            &[
                "mcp",
                "call",
                "http://127.0.0.1:9/mcp",
                "t",
                "--args",
                "[1]",
            ][..],
            "--args must be a JSON object",
        ),
        (
            &["mcp", "tools", "http://127.0.0.1:9/mcp", "-H", "no colon"][..],
            "expected 'Name: value'",
        ),
        (
            &["mcp", "tools", "http://127.0.0.1:9/mcp", "--to", "nope"][..],
            "unknown format",
        ),
        (&["mcp", "bridge"][..], "needs the server's command"),
        (
            &["mcp", "bridge", "--origin", "http://a/b", "--", "true"][..],
            "expected scheme://host",
        ),
        (&["tokens", "--mcp", "http://x", "file.json"][..], "no FILE"),
    ] {
        let (code, _, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Not a server URL; nobody listening.
    let (code, _, err) = cli(&["mcp", "tools", "ftp://x"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a server URL"), "{err}");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (code, _, err) = cli(&["mcp", "tools", &format!("http://127.0.0.1:{port}/mcp")]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
}

#[test]
fn bridge_says_when_its_server_ends() {
    let out = Command::new(BIN)
        .args([
            "mcp",
            "bridge",
            "--",
            "python3",
            "-c",
            "import sys; sys.exit(3)",
        ])
        .output()
        .expect("run the bridge");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("http://127.0.0.1:"), "{stdout}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ended (exit status: 3)") && err.contains("the bridge stops"),
        "{err}"
    );
}

/// One HTTP exchange for the OAuth test, redirects not followed.
fn fetch(req: &toolscope::live::HttpRequest) -> toolscope::live::mcp::HttpResponse {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut b = ureq::http::Request::builder()
        .method(req.method.as_str())
        .uri(req.url.as_str());
    for (k, v) in &req.headers {
        b = b.header(k.as_str(), v.as_str());
    }
    let mut resp = agent
        .run(b.body(req.body.clone().into_bytes()).unwrap())
        .unwrap();
    toolscope::live::mcp::HttpResponse {
        status: resp.status().as_u16(),
        headers: resp
            .headers()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_string()))
            .collect(),
        body: resp.body_mut().read_to_vec().unwrap(),
    }
}

fn get(url: &str) -> toolscope::live::mcp::HttpResponse {
    fetch(&toolscope::live::HttpRequest {
        method: "GET".into(),
        url: url.into(),
        headers: vec![],
        body: String::new(),
    })
}

/// The OAuth pieces of `live::mcp::oauth`, driven as the page drives them, against the test
/// server acting as its own authorization server: from the 401 to a token the server accepts.
#[test]
fn oauth_from_the_401_to_a_working_token() {
    use toolscope::live::mcp::client::{Client, Connect, Prefer};
    use toolscope::live::mcp::{bearer, oauth, Error};
    if !have_mcp() {
        return;
    }
    let s = server(&["--token", TOKEN, "--oauth"]);
    let url = s.first_line.clone();
    let mut c = Client::new(&url, Prefer::Auto).unwrap();
    let first = c.connect(&[]);
    let metadata_url = match c.on_connect(&first, &fetch(&first.request), &[]) {
        Err(Error::Unauthorized {
            resource_metadata: Some(m),
            challenge: Some(ch),
        }) => {
            let parsed = oauth::Challenge::parse(&ch);
            assert_eq!(parsed.resource_metadata.as_deref(), Some(m.as_str()));
            oauth::protected_resource_urls(&url, Some(&parsed))[0].clone()
        }
        other => panic!("expected a 401 with resource_metadata: {other:?}"),
    };
    let pr = oauth::ProtectedResource::parse(&get(&metadata_url).body).unwrap();
    let issuer = &pr.authorization_servers[0];
    let meta_url = &oauth::auth_server_metadata_urls(issuer)[0];
    let server = oauth::AuthServer::parse(&get(meta_url).body).unwrap();
    let redirect = "http://127.0.0.1:8080/oauth/callback";
    let reg = fetch(&oauth::registration_request(
        server.registration_endpoint.as_deref().unwrap(),
        "Toolscope",
        redirect,
    ));
    assert_eq!(reg.status, 201);
    let client = oauth::Registration::parse(&reg.body).unwrap();
    let pkce = oauth::Pkce::from_random(&[7u8; 32]);
    let resource = oauth::resource_uri(&url).unwrap();
    let authorize = oauth::authorize_url(
        &server,
        &oauth::Authorize {
            client_id: &client.client_id,
            redirect_uri: redirect,
            pkce: &pkce,
            state: "state-1",
            scope: None,
            resource: &resource,
        },
    );
    let back = get(&authorize);
    assert_eq!(back.status, 302);
    let location = back.header("location").unwrap().to_string();
    assert!(oauth::Redirect::parse(&location, "another-state").is_err());
    let code = oauth::Redirect::parse(&location, "state-1").unwrap().code;
    // A wrong verifier is refused; the right one gets the token.
    let wrong = oauth::token_request(
        &server,
        &oauth::TokenGrant {
            client_id: &client.client_id,
            code: &code,
            redirect_uri: redirect,
            verifier: "x".repeat(43).as_str(),
            resource: &resource,
        },
    );
    assert!(oauth::Token::parse(&fetch(&wrong).body).is_err());
    // The code was spent on the failed try: authorize again.
    let location = get(&authorize).header("location").unwrap().to_string();
    let code = oauth::Redirect::parse(&location, "state-1").unwrap().code;
    let grant = oauth::token_request(
        &server,
        &oauth::TokenGrant {
            client_id: &client.client_id,
            code: &code,
            redirect_uri: redirect,
            verifier: &pkce.verifier,
            resource: &resource,
        },
    );
    let token = oauth::Token::parse(&fetch(&grant).body).unwrap();
    assert_eq!(token.access_token, TOKEN);
    // Connected with it.
    let auth = [bearer(&token.access_token)];
    let mut next = c.connect(&auth);
    while let Connect::Send(o) = c.on_connect(&next, &fetch(&next.request), &auth).unwrap() {
        next = o;
    }
    let list = c.list_tools(None, &auth).unwrap();
    let (tools, _) = c.read_tools(&list, &fetch(&list.request), 0).unwrap();
    assert_eq!(tools.len(), 4);
}
