//! MCP authorization for a browser or CLI client, as pure functions: every step builds a request
//! or reads a response; the caller does the HTTP, the popup or redirect, and the randomness.
//!
//! Spec: <https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization> (OAuth
//! 2.1 draft, RFC 9728 protected resource metadata, RFC 8414 authorization server metadata,
//! RFC 7591 dynamic client registration, RFC 7636 PKCE, RFC 8707 resource indicators).
//!
//! The flow: a request is answered 401 → [`Challenge::parse`] its `WWW-Authenticate` →
//! fetch [`protected_resource_urls`] (the challenge's `resource_metadata` first) →
//! [`ProtectedResource::parse`] → fetch [`auth_server_metadata_urls`] of its first
//! authorization server → [`AuthServer::parse`] (PKCE S256 must be supported) →
//! [`registration_request`] to its `registration_endpoint` → [`Registration::parse`] →
//! [`Pkce::from_random`] and a random `state` → open [`authorize_url`] → the redirect carries
//! `code` and `state` ([`Redirect::parse`]; check `state`) → [`token_request`] →
//! [`Token::parse`] → send `Authorization: Bearer <access_token>` to the MCP server only.

use super::sha256::sha256;
use super::{Error, HttpRequest};
use crate::share::base64url;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Longest metadata or token document read.
pub const MAX_DOCUMENT: usize = 256 * 1024;

fn protocol(message: impl Into<String>) -> Error {
    Error::Protocol {
        message: message.into(),
    }
}

/// A `WWW-Authenticate` challenge (RFC 9110 §11.6.1; the parameters MCP uses).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Challenge {
    /// The scheme (`Bearer`).
    pub scheme: String,
    /// `resource_metadata`: the protected resource metadata URL (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs.
    pub scope: Option<String>,
    /// `error` (`invalid_token`, `insufficient_scope`).
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
}

impl Challenge {
    /// Read the first challenge of a header value (`Bearer realm="x", resource_metadata="…"`).
    /// Quoted strings may hold commas and `\"`; unknown parameters are skipped.
    pub fn parse(header: &str) -> Challenge {
        let s = header.trim();
        let (scheme, mut rest) = match s.find(char::is_whitespace) {
            Some(i) => (&s[..i], s[i..].trim_start()),
            None => (s, ""),
        };
        let mut c = Challenge {
            scheme: scheme.to_string(),
            ..Default::default()
        };
        while !rest.is_empty() {
            let Some(eq) = rest.find('=') else { break };
            let name = rest[..eq]
                .trim()
                .trim_start_matches(',')
                .trim()
                .to_ascii_lowercase();
            if name.contains(char::is_whitespace) {
                break; // the next challenge's scheme: only the first is read
            }
            rest = rest[eq + 1..].trim_start();
            let value;
            if let Some(q) = rest.strip_prefix('"') {
                let mut v = String::new();
                let mut chars = q.char_indices();
                let mut end = q.len();
                while let Some((i, ch)) = chars.next() {
                    match ch {
                        '\\' => {
                            if let Some((_, n)) = chars.next() {
                                v.push(n);
                            }
                        }
                        '"' => {
                            end = i + 1;
                            break;
                        }
                        _ => v.push(ch),
                    }
                }
                value = v;
                rest = q[end.min(q.len())..].trim_start();
            } else {
                let end = rest.find(',').unwrap_or(rest.len());
                value = rest[..end].trim().to_string();
                rest = &rest[end..];
            }
            rest = rest.trim_start_matches(',').trim_start();
            match name.as_str() {
                "resource_metadata" => c.resource_metadata = Some(value),
                "scope" => c.scope = Some(value),
                "error" => c.error = Some(value),
                "error_description" => c.error_description = Some(value),
                _ => {}
            }
        }
        c
    }
}

/// `scheme://authority` and the path (without query or fragment) of an http(s) URL.
fn split(url: &str) -> Option<(String, String)> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return None;
    }
    let rest = rest.split(['#', '?']).next().unwrap_or("");
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if authority.is_empty() {
        return None;
    }
    Some((
        format!(
            "{}://{}",
            scheme.to_ascii_lowercase(),
            authority.to_ascii_lowercase()
        ),
        path.trim_end_matches('/').to_string(),
    ))
}

/// The resource indicator of an MCP server (RFC 8707, the spec's "canonical URI"): its URL
/// with scheme and host lower-cased, without fragment, query or trailing slash.
pub fn resource_uri(server_url: &str) -> Option<String> {
    let (origin, path) = split(server_url)?;
    Some(format!("{origin}{path}"))
}

/// Where to read the protected resource metadata, in order: the challenge's
/// `resource_metadata`, then the well-known URIs of RFC 9728 (path-inserted, then root).
pub fn protected_resource_urls(server_url: &str, challenge: Option<&Challenge>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(u) = challenge.and_then(|c| c.resource_metadata.clone()) {
        out.push(u);
    }
    if let Some((origin, path)) = split(server_url) {
        if !path.is_empty() {
            out.push(format!(
                "{origin}/.well-known/oauth-protected-resource{path}"
            ));
        }
        out.push(format!("{origin}/.well-known/oauth-protected-resource"));
    }
    out
}

/// Protected resource metadata (RFC 9728), the fields MCP uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProtectedResource {
    /// `resource`.
    pub resource: Option<String>,
    /// `authorization_servers` (issuer URLs).
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`.
    pub scopes_supported: Vec<String>,
}

fn document(body: &[u8]) -> Result<Value, Error> {
    if body.len() > MAX_DOCUMENT {
        return Err(Error::TooLarge {
            message: format!("an OAuth document over {MAX_DOCUMENT} bytes"),
        });
    }
    match serde_json::from_slice(body) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(protocol("the document is not a JSON object")),
        Err(e) => Err(protocol(format!("the document is not JSON: {e}"))),
    }
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

impl ProtectedResource {
    /// Read the metadata document; it must name at least one authorization server.
    pub fn parse(body: &[u8]) -> Result<ProtectedResource, Error> {
        let v = document(body)?;
        let r = ProtectedResource {
            resource: text(&v, "resource"),
            authorization_servers: strings(&v, "authorization_servers"),
            scopes_supported: strings(&v, "scopes_supported"),
        };
        if r.authorization_servers.is_empty() {
            return Err(protocol(
                "/authorization_servers: no authorization server is named",
            ));
        }
        Ok(r)
    }
}

/// Where to read an authorization server's metadata, in the spec's order: OAuth (RFC 8414)
/// and OpenID Connect discovery, path-inserted for an issuer with a path.
pub fn auth_server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some((origin, path)) = split(issuer) else {
        return Vec::new();
    };
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Authorization server metadata (RFC 8414), the fields MCP uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthServer {
    /// `issuer`.
    pub issuer: String,
    /// `authorization_endpoint`.
    pub authorization_endpoint: String,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `registration_endpoint` (dynamic client registration), if offered.
    pub registration_endpoint: Option<String>,
    /// `scopes_supported`.
    pub scopes_supported: Vec<String>,
}

impl AuthServer {
    /// Read the metadata. The spec: a client MUST refuse to go on when the server does not
    /// list `S256` in `code_challenge_methods_supported` (absent included).
    pub fn parse(body: &[u8]) -> Result<AuthServer, Error> {
        let v = document(body)?;
        let need =
            |k: &str| text(&v, k).ok_or_else(|| protocol(format!("/{k}: a string is required")));
        if !strings(&v, "code_challenge_methods_supported")
            .iter()
            .any(|m| m == "S256")
        {
            return Err(protocol(
                "/code_challenge_methods_supported: S256 is not offered, and MCP requires PKCE with S256",
            ));
        }
        Ok(AuthServer {
            issuer: need("issuer")?,
            authorization_endpoint: need("authorization_endpoint")?,
            token_endpoint: need("token_endpoint")?,
            registration_endpoint: text(&v, "registration_endpoint"),
            scopes_supported: strings(&v, "scopes_supported"),
        })
    }
}

/// The dynamic client registration request (RFC 7591) of a public client (no secret: a page
/// cannot keep one) using the authorization code grant with `redirect_uri`.
pub fn registration_request(endpoint: &str, client_name: &str, redirect_uri: &str) -> HttpRequest {
    let body = json!({
        "client_name": client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    HttpRequest {
        method: "POST".into(),
        url: endpoint.to_string(),
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("accept".into(), "application/json".into()),
        ],
        body: body.to_string(),
    }
}

/// A registered client (RFC 7591 §3.2.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    /// `client_id`.
    pub client_id: String,
    /// `client_secret`, if the server issued one anyway.
    pub client_secret: Option<String>,
}

impl Registration {
    /// Read the registration response (201 or 200 with `client_id`).
    pub fn parse(body: &[u8]) -> Result<Registration, Error> {
        let v = document(body)?;
        Ok(Registration {
            client_id: text(&v, "client_id")
                .ok_or_else(|| protocol("/client_id: a string is required"))?,
            client_secret: text(&v, "client_secret"),
        })
    }
}

/// A PKCE pair (RFC 7636): keep `verifier` until the token request, send `challenge`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pkce {
    /// `code_verifier`: 43 characters of base64url.
    pub verifier: String,
    /// `code_challenge` = BASE64URL(SHA256(verifier)), method `S256`.
    pub challenge: String,
}

impl Pkce {
    /// The pair from 32 random bytes (the caller draws them: `crypto.getRandomValues` in the
    /// page, the OS natively).
    pub fn from_random(random: &[u8; 32]) -> Pkce {
        Pkce::from_verifier(&base64url::encode(random))
    }

    /// The pair of a given verifier.
    pub fn from_verifier(verifier: &str) -> Pkce {
        Pkce {
            verifier: verifier.to_string(),
            challenge: base64url::encode(&sha256(verifier.as_bytes())),
        }
    }
}

/// `application/x-www-form-urlencoded` / query component encoding (unreserved kept).
pub fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// What the authorize URL carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Authorize<'a> {
    /// The registered client.
    pub client_id: &'a str,
    /// Where the server sends the browser back.
    pub redirect_uri: &'a str,
    /// The PKCE challenge.
    pub pkce: &'a Pkce,
    /// A random value, checked on the redirect.
    pub state: &'a str,
    /// Scopes to ask for (the challenge's `scope`, else the resource's `scopes_supported`).
    pub scope: Option<&'a str>,
    /// The MCP server's [`resource_uri`] (RFC 8707: the token is for it only).
    pub resource: &'a str,
}

/// The authorization URL to open in a popup or redirect to.
pub fn authorize_url(server: &AuthServer, a: &Authorize<'_>) -> String {
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", a.client_id),
        ("redirect_uri", a.redirect_uri),
        ("code_challenge", a.pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("state", a.state),
        ("resource", a.resource),
    ];
    if let Some(s) = a.scope {
        pairs.push(("scope", s));
    }
    let sep = if server.authorization_endpoint.contains('?') {
        '&'
    } else {
        '?'
    };
    format!("{}{sep}{}", server.authorization_endpoint, form(&pairs))
}

/// The redirect back: `code` (or the server's `error`) and `state`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Redirect {
    /// The authorization code.
    pub code: String,
    /// The state, to compare with the one sent.
    pub state: String,
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(x) => {
                        out.push(x);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            x => out.push(x),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Redirect {
    /// Read the redirect URL's query; `expected_state` must match (else it is not our flow).
    pub fn parse(url: &str, expected_state: &str) -> Result<Redirect, Error> {
        let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
        let query = query.split('#').next().unwrap_or("");
        let mut code = None;
        let mut state = None;
        let mut error = None;
        let mut description = None;
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let v = percent_decode(v);
            match k {
                "code" => code = Some(v),
                "state" => state = Some(v),
                "error" => error = Some(v),
                "error_description" => description = Some(v),
                _ => {}
            }
        }
        if state.as_deref() != Some(expected_state) {
            return Err(protocol(
                "the redirect's state is not the one sent: not this flow's answer",
            ));
        }
        if let Some(e) = error {
            return Err(Error::Rpc {
                code: 0,
                message: match description {
                    Some(d) => format!("authorization refused: {e}: {d}"),
                    None => format!("authorization refused: {e}"),
                },
                data: None,
            });
        }
        Ok(Redirect {
            code: code.ok_or_else(|| protocol("the redirect has no code"))?,
            state: expected_state.to_string(),
        })
    }
}

/// What the token request carries.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenGrant<'a> {
    /// The registered client.
    pub client_id: &'a str,
    /// The code of the redirect.
    pub code: &'a str,
    /// The same redirect URI as in the authorize URL.
    pub redirect_uri: &'a str,
    /// The PKCE verifier.
    pub verifier: &'a str,
    /// The MCP server's [`resource_uri`].
    pub resource: &'a str,
}

/// The token request (authorization code grant with PKCE, public client).
pub fn token_request(server: &AuthServer, g: &TokenGrant<'_>) -> HttpRequest {
    HttpRequest {
        method: "POST".into(),
        url: server.token_endpoint.clone(),
        headers: vec![
            (
                "content-type".into(),
                "application/x-www-form-urlencoded".into(),
            ),
            ("accept".into(), "application/json".into()),
        ],
        body: form(&[
            ("grant_type", "authorization_code"),
            ("code", g.code),
            ("redirect_uri", g.redirect_uri),
            ("client_id", g.client_id),
            ("code_verifier", g.verifier),
            ("resource", g.resource),
        ]),
    }
}

/// A token response (RFC 6749 §5.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Token {
    /// `access_token`: what goes into `Authorization: Bearer`.
    pub access_token: String,
    /// `token_type` (`Bearer`).
    pub token_type: String,
    /// `expires_in` seconds, if given.
    pub expires_in: Option<u64>,
    /// `refresh_token`, if given.
    pub refresh_token: Option<String>,
    /// `scope`, if given.
    pub scope: Option<String>,
}

impl Token {
    /// Read a token response; an OAuth error document (`error`) is an error.
    pub fn parse(body: &[u8]) -> Result<Token, Error> {
        let v = document(body)?;
        if let Some(e) = text(&v, "error") {
            let d = text(&v, "error_description").unwrap_or_default();
            return Err(protocol(
                format!("the token request was refused: {e} {d}")
                    .trim()
                    .to_string(),
            ));
        }
        let token_type = text(&v, "token_type").unwrap_or_else(|| "Bearer".into());
        if !token_type.eq_ignore_ascii_case("bearer") {
            return Err(protocol(format!(
                "/token_type: {token_type} is not a bearer token"
            )));
        }
        Ok(Token {
            access_token: text(&v, "access_token")
                .ok_or_else(|| protocol("/access_token: a string is required"))?,
            token_type,
            expires_in: v.get("expires_in").and_then(Value::as_u64),
            refresh_token: text(&v, "refresh_token"),
            scope: text(&v, "scope"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge() {
        let c = Challenge::parse(
            r#"Bearer error="invalid_token", error_description="The \"token\", expired", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write""#,
        );
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.error_description.as_deref(),
            Some("The \"token\", expired")
        );
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(c.scope.as_deref(), Some("files:read files:write"));
        let c = Challenge::parse("Bearer realm=mcp, resource_metadata=http://h/m");
        assert_eq!(c.resource_metadata.as_deref(), Some("http://h/m"));
        assert_eq!(Challenge::parse("Bearer").resource_metadata, None);
        assert_eq!(
            Challenge::parse("Bearer x=\"unterminated").resource_metadata,
            None
        );
    }

    #[test]
    fn discovery_urls() {
        assert_eq!(
            protected_resource_urls("https://Mcp.Example.com/public/mcp?x=1", None),
            [
                "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://mcp.example.com/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            auth_server_metadata_urls("https://auth.example.com/tenant1"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            auth_server_metadata_urls("https://auth.example.com/").len(),
            2
        );
        assert_eq!(
            resource_uri("HTTPS://MCP.example.com/mcp/#f").as_deref(),
            Some("https://mcp.example.com/mcp")
        );
        assert!(resource_uri("mailto:x").is_none());
    }

    #[test]
    fn metadata_documents() {
        let pr = ProtectedResource::parse(
            br#"{"resource":"https://m/mcp","authorization_servers":["https://a"]}"#,
        )
        .unwrap();
        assert_eq!(pr.authorization_servers, ["https://a"]);
        assert!(ProtectedResource::parse(br#"{"resource":"x"}"#).is_err());
        let good = br#"{"issuer":"https://a","authorization_endpoint":"https://a/authorize","token_endpoint":"https://a/token","registration_endpoint":"https://a/register","code_challenge_methods_supported":["S256"]}"#;
        let a = AuthServer::parse(good).unwrap();
        assert_eq!(
            a.registration_endpoint.as_deref(),
            Some("https://a/register")
        );
        let no_pkce = br#"{"issuer":"https://a","authorization_endpoint":"https://a/authorize","token_endpoint":"https://a/token"}"#;
        assert!(AuthServer::parse(no_pkce)
            .unwrap_err()
            .to_string()
            .contains("S256"));
        assert!(AuthServer::parse(b"[1]").is_err());
        let reg = registration_request(
            "https://a/register",
            "Toolscope",
            "http://127.0.0.1:8080/oauth",
        );
        let body: Value = serde_json::from_str(&reg.body).unwrap();
        assert_eq!(body["token_endpoint_auth_method"], "none");
        assert_eq!(body["redirect_uris"][0], "http://127.0.0.1:8080/oauth");
        assert_eq!(
            Registration::parse(br#"{"client_id":"c1"}"#)
                .unwrap()
                .client_id,
            "c1"
        );
        assert!(Registration::parse(br#"{}"#).is_err());
    }

    #[test]
    fn pkce_and_urls() {
        // RFC 7636 Appendix B.
        let p = Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(p.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
        let p = Pkce::from_random(&[
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]);
        assert_eq!(p.verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        let a = AuthServer::parse(br#"{"issuer":"https://a","authorization_endpoint":"https://a/authorize","token_endpoint":"https://a/token","code_challenge_methods_supported":["S256"]}"#).unwrap();
        let url = authorize_url(
            &a,
            &Authorize {
                client_id: "c 1",
                redirect_uri: "http://127.0.0.1:8080/cb",
                pkce: &p,
                state: "s",
                scope: Some("read write"),
                resource: "https://m/mcp",
            },
        );
        assert_eq!(url, "https://a/authorize?response_type=code&client_id=c%201&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcb&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=s&resource=https%3A%2F%2Fm%2Fmcp&scope=read%20write");
        let r = Redirect::parse("http://127.0.0.1:8080/cb?code=a%2Bb+c&state=s", "s").unwrap();
        assert_eq!(r.code, "a+b c");
        assert!(Redirect::parse("http://x/cb?code=a&state=evil", "s").is_err());
        assert!(
            Redirect::parse("http://x/cb?error=access_denied&state=s", "s")
                .unwrap_err()
                .to_string()
                .contains("access_denied")
        );
        assert_eq!(
            Redirect::parse("http://x/cb?code=%zz%é%&state=s", "s")
                .unwrap()
                .code,
            "%zz%é%"
        );
        let t = token_request(
            &a,
            &TokenGrant {
                client_id: "c",
                code: "k",
                redirect_uri: "r",
                verifier: "v",
                resource: "https://m/mcp",
            },
        );
        assert_eq!(t.url, "https://a/token");
        assert_eq!(t.body, "grant_type=authorization_code&code=k&redirect_uri=r&client_id=c&code_verifier=v&resource=https%3A%2F%2Fm%2Fmcp");
        let tok = Token::parse(br#"{"access_token":"at","token_type":"bearer","expires_in":3600}"#)
            .unwrap();
        assert_eq!(
            (tok.access_token.as_str(), tok.expires_in),
            ("at", Some(3600))
        );
        assert!(Token::parse(br#"{"error":"invalid_grant"}"#).is_err());
        assert!(Token::parse(br#"{"access_token":"x","token_type":"mac"}"#).is_err());
    }
}
