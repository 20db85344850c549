//! Signing in to an MCP server with OAuth 2.1 from the page, in a popup: the steps are the pure
//! functions of [`crate::live::mcp::oauth`]; this file only fetches, opens the popup and reads
//! where it was sent back. The access token goes into [`super::mcp`]'s memory-only token ring,
//! bound to the server's origin; the verifier, code and client id live only in this flow.

use super::io;
use super::mcp_client::{connect, McpState};
use super::state::AppState;
use crate::live::fetch::{self, Flight};
use crate::live::mcp::oauth::{
    auth_server_metadata_urls, authorize_url, protected_resource_urls, registration_request,
    resource_uri, AuthServer, Authorize, Challenge, Pkce, ProtectedResource, Redirect,
    Registration, Token, TokenGrant,
};
use crate::live::HttpRequest;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;

/// How long the popup may stay open before the flow gives up.
const POPUP_MS: f64 = 5.0 * 60.0 * 1000.0;
/// Largest metadata or token answer read.
const MAX_ANSWER: usize = 1 << 20;

/// Start the flow for `server` (its 401 named `resource_metadata`). The popup is opened at
/// once, inside the click, so the browser does not block it; it is sent to the authorization
/// server once the metadata and registration are done.
pub fn start(state: AppState, mcp: McpState, server: String, resource_metadata: Option<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let popup = match window.open_with_url_and_target_and_features(
        "about:blank",
        "toolscope-oauth",
        "popup,width=520,height=680",
    ) {
        Ok(Some(p)) => p,
        _ => {
            state.say_error(
                "The browser blocked the sign-in window: allow popups for this page and try again.",
            );
            return;
        }
    };
    spawn_local(async move {
        let challenge = Challenge {
            scheme: "Bearer".into(),
            resource_metadata,
            ..Challenge::default()
        };
        match flow(&server, &challenge, &popup).await {
            Ok(token) => {
                mcp_set_token(mcp, &server, &token);
                state.say("Signed in: the token is kept in this tab's memory and sent only to this server.");
                connect(state, mcp, server);
            }
            Err(e) => {
                let _ = popup.close();
                state.say_error(format!("OAuth sign-in failed: {e}"));
            }
        }
    });
}

fn mcp_set_token(mcp: McpState, server: &str, token: &str) {
    mcp.set_token(server, token);
}

async fn get(url: &str) -> Result<Vec<u8>, String> {
    send(&HttpRequest {
        method: "GET".into(),
        url: url.to_string(),
        headers: vec![("accept".into(), "application/json".into())],
        body: String::new(),
    })
    .await
}

async fn send(req: &HttpRequest) -> Result<Vec<u8>, String> {
    let flight = Flight::new().ok_or("this browser cannot abort requests")?;
    let w = fetch::whole(req, &flight, MAX_ANSWER).await.map_err(|e| {
        format!(
            "{} could not be read ({e}): it is down or does not allow this page's origin (CORS)",
            req.url
        )
    })?;
    if !(200..300).contains(&w.status) {
        return Err(format!(
            "{} answered HTTP {}: {}",
            req.url,
            w.status,
            String::from_utf8_lossy(&w.body)
                .chars()
                .take(300)
                .collect::<String>()
        ));
    }
    Ok(w.body)
}

fn random32() -> Result<[u8; 32], String> {
    let window: JsValue = web_sys::window().ok_or("no window")?.into();
    let crypto = js_sys::Reflect::get(&window, &"crypto".into()).map_err(|_| "no crypto")?;
    let f: js_sys::Function = js_sys::Reflect::get(&crypto, &"getRandomValues".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("no crypto.getRandomValues")?;
    let arr = js_sys::Uint8Array::new_with_length(32);
    f.call1(&crypto, &arr)
        .map_err(|_| "crypto.getRandomValues failed")?;
    let mut out = [0u8; 32];
    arr.copy_to(&mut out);
    Ok(out)
}

async fn sleep(ms: u64) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(
            move || {
                let _ = resolve.call0(&JsValue::NULL);
            },
            std::time::Duration::from_millis(ms),
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

async fn flow(
    server: &str,
    challenge: &Challenge,
    popup: &web_sys::Window,
) -> Result<String, String> {
    // Protected resource metadata: the challenge's URL first, then the well-known ones.
    let mut resource = None;
    let mut last = String::from("no metadata URL");
    for u in protected_resource_urls(server, Some(challenge)) {
        match get(&u)
            .await
            .and_then(|b| ProtectedResource::parse(&b).map_err(|e| e.to_string()))
        {
            Ok(r) => {
                resource = Some(r);
                break;
            }
            Err(e) => last = e,
        }
    }
    let resource = resource.ok_or_else(|| format!("no protected resource metadata: {last}"))?;
    let issuer = resource
        .authorization_servers
        .first()
        .ok_or("the protected resource metadata names no authorization server")?;
    let mut auth = None;
    for u in auth_server_metadata_urls(issuer) {
        match get(&u)
            .await
            .and_then(|b| AuthServer::parse(&b).map_err(|e| e.to_string()))
        {
            Ok(a) => {
                auth = Some(a);
                break;
            }
            Err(e) => last = e,
        }
    }
    let auth = auth.ok_or_else(|| format!("no authorization server metadata: {last}"))?;
    let endpoint = auth
        .registration_endpoint
        .clone()
        .ok_or("the authorization server offers no dynamic client registration")?;
    let redirect_uri = redirect_uri();
    let reg = send(&registration_request(&endpoint, "Toolscope", &redirect_uri)).await?;
    let client = Registration::parse(&reg).map_err(|e| e.to_string())?;
    let pkce = Pkce::from_random(&random32()?);
    let state = hex(&random32()?);
    let resource_id = resource_uri(server).ok_or("the server URL does not parse")?;
    let scope = resource.scopes_supported.join(" ");
    let url = authorize_url(
        &auth,
        &Authorize {
            client_id: &client.client_id,
            redirect_uri: &redirect_uri,
            pkce: &pkce,
            state: &state,
            scope: (!scope.is_empty()).then_some(scope.as_str()),
            resource: &resource_id,
        },
    );
    popup
        .location()
        .set_href(&url)
        .map_err(|_| "the sign-in window could not be sent to the authorization server")?;
    // Wait until the popup is back on this page's origin (readable again), then read the code.
    let start = fetch::now();
    let back = loop {
        sleep(250).await;
        if popup.closed().unwrap_or(true) {
            return Err("the sign-in window was closed".into());
        }
        if fetch::now() - start > POPUP_MS {
            return Err("no answer from the authorization server within 5 minutes".into());
        }
        if let Ok(href) = popup.location().href() {
            if href.starts_with(&redirect_uri) && href.contains('?') {
                break href;
            }
        }
    };
    let _ = popup.close();
    let code = Redirect::parse(&back, &state)
        .map_err(|e| e.to_string())?
        .code;
    let body = send(&crate::live::mcp::oauth::token_request(
        &auth,
        &TokenGrant {
            client_id: &client.client_id,
            code: &code,
            redirect_uri: &redirect_uri,
            verifier: &pkce.verifier,
            resource: &resource_id,
        },
    ))
    .await?;
    let token = Token::parse(&body).map_err(|e| e.to_string())?;
    Ok(token.access_token)
}

/// Where the authorization server sends the popup back: this page, without query or fragment.
fn redirect_uri() -> String {
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_else(|| "/".into());
    format!("{}{path}", io::origin())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
