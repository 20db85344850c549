//! Secrets out of recordings and imported HAR files (`src/redact.rs`): a devtools export in
//! Chrome's shape (HTTP/2 pseudo-headers, cookies arrays, queryString, postData, `set-cookie`),
//! Live recordings with extra headers, and the share codec's second lock.

use serde_json::Value;
use toolscope::redact::{self, REDACTED};
use toolscope::replay::{LoadOptions, Replay};
use toolscope::share::{self, State};

const DEVTOOLS: &str = include_str!("../fixtures/har/chrome-devtools-secrets.har");

/// Every secret the fixture carries, wherever it sits.
const SECRETS: &[&str] = &[
    "sk-proj-SECRETbearer",
    "COOKIEsession1234567",
    "SETCOOKIEvalue987654",
    "QUERYkey-5555555555",
    "org-ORGsecret12345678",
    "hunter2hunter2",
    "PAGEtoken-77777777",
    "SIGvalue-88888888",
];

fn assert_clean(text: &str) {
    for s in SECRETS {
        assert!(!text.contains(s), "{s} left in:\n{text}");
    }
}

fn header<'a>(headers: &'a Value, name: &str) -> &'a str {
    headers
        .as_array()
        .and_then(|a| a.iter().find(|h| h["name"] == name))
        .and_then(|h| h["value"].as_str())
        .unwrap_or_else(|| panic!("no header {name}"))
}

#[test]
fn redact_devtools_har_removes_every_secret_and_counts_them() {
    for s in SECRETS {
        assert!(DEVTOOLS.contains(s), "fixture lacks {s}");
    }
    let (text, n) = redact::har_text(DEVTOOLS).expect("a HAR");
    assert_clean(&text);
    // 1 authorization, 1 cookie header, 1 organization, 1 x-password, 1 url query, 1 :path
    // query, 1 referer query, 1 queryString, 2 request cookies; response: organization,
    // set-cookie, 1 cookie; entry 2: cookie header, echo header, url sig, queryString sig,
    // 1 cookie, initiator url; the page title.
    assert!(n >= 18, "{n} removed");
    let v: Value = serde_json::from_str(&text).expect("still JSON");
    let e = &v["log"]["entries"][0];
    let req = &e["request"]["headers"];
    assert_eq!(header(req, "authorization"), format!("Bearer {REDACTED}"));
    assert_eq!(header(req, "cookie"), REDACTED);
    assert_eq!(header(req, "x-password"), REDACTED);
    // Harmless ones stay, so the recording still says what was sent.
    assert_eq!(header(req, "content-type"), "application/json");
    assert_eq!(header(req, "accept"), "text/event-stream");
    assert_eq!(header(req, ":authority"), "gateway.example.com");
    assert_eq!(
        header(req, ":path"),
        format!("/v1/chat/completions?api_key={REDACTED}&region=eu")
    );
    assert_eq!(
        e["request"]["url"],
        format!("https://gateway.example.com/v1/chat/completions?api_key={REDACTED}&region=eu")
    );
    assert_eq!(e["request"]["cookies"], serde_json::json!([]));
    assert_eq!(e["response"]["cookies"], serde_json::json!([]));
    assert_eq!(header(&e["response"]["headers"], "set-cookie"), REDACTED);
    assert_eq!(
        header(&e["response"]["headers"], "x-request-id"),
        "req_abc123"
    );
    assert_eq!(e["request"]["queryString"][1]["value"], "eu");
    // The base64 image is untouched.
    assert_eq!(
        v["log"]["entries"][1]["response"]["content"]["text"],
        "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="
    );
    // Twice: nothing more to remove, the text stays as it is.
    let (again, n2) = redact::har_text(&text).expect("a HAR");
    assert_eq!(n2, 0);
    assert_eq!(again, text);
}

#[test]
fn redact_devtools_har_still_replays() {
    let (text, _) = redact::har_text(DEVTOOLS).expect("a HAR");
    let before = Replay::load(DEVTOOLS, LoadOptions::default()).expect("loads");
    let after = Replay::load(&text, LoadOptions::default()).expect("loads");
    assert_eq!(after.len(), before.len());
    assert_eq!(after.assembled.exchange, before.assembled.exchange);
    let call = after
        .assembled
        .exchange
        .messages
        .last()
        .and_then(|m| m.tool_calls().next())
        .expect("a call");
    assert_eq!(call.name, "weather");
}

#[test]
fn redact_json_body_credentials_and_form_bodies() {
    let har = serde_json::json!({"log": {"entries": [
        {"request": {"method": "POST", "url": "https://x.example/v1/chat",
            "postData": {"mimeType": "application/json",
                "text": "{\"api_key\":\"BODYkey-123456789\",\"model\":\"m\",\"max_tokens\":5,\"prompt_cache_key\":\"c1\"}"}},
         "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{}"}}},
        {"request": {"method": "POST", "url": "https://x.example/oauth/token",
            "postData": {"mimeType": "application/x-www-form-urlencoded",
                "text": "grant_type=client_credentials&client_secret=FORMsecret-1234567",
                "params": [{"name": "client_secret", "value": "FORMsecret-1234567"},
                           {"name": "grant_type", "value": "client_credentials"}]}},
         "response": {"status": 200, "content": {"mimeType": "application/json",
            "text": "{\"access_token\":\"ya29.RESPONSEtoken-abcdefghijk\",\"echo\":\"BODYkey-123456789\"}"}}},
        {"request": {"method": "POST", "url": "https://x.example/login"},
         "response": {"status": 200, "content": {"mimeType": "application/json",
            "text": "{\"token\":\"0f3c9a7e5b2d4c18a6e7f9b0c1d2e3f4\",\"user\":\"ann\"}"}}}
    ]}});
    let (text, n) = redact::har_text(&har.to_string()).expect("a HAR");
    for s in [
        "BODYkey-123456789",
        "FORMsecret-1234567",
        "ya29.RESPONSEtoken",
    ] {
        assert!(!text.contains(s), "{s} in {text}");
    }
    assert!(n >= 5, "{n}");
    assert!(text.contains("max_tokens") && text.contains("client_credentials"));
}

#[test]
fn redact_recordings_keep_only_harmless_extra_headers() {
    use toolscope::live::{request, Provider, Target};
    use toolscope::model::{Exchange, Message, Part, Role};
    let mut t = Target::new(Provider::compatible());
    t.base_url = "https://gw.example/v1".into();
    t.model = "m".into();
    t.extra_headers =
        "X-Title: demo\nX-Password: hunter2\nHTTP-Referer: https://me.example/?token=abcdefgh12\nX-Custom: whatever-value"
            .into();
    let x = Exchange {
        messages: vec![Message::new(Role::User, vec![Part::text("hi")])],
        ..Exchange::default()
    };
    let r = request(&t, "sk-test-0123456789abcdef", &x, false).expect("request");
    let red = r.redacted();
    let text = serde_json::to_string(&red).expect("json");
    for s in [
        "hunter2",
        "abcdefgh12",
        "whatever-value",
        "sk-test-0123456789abcdef",
    ] {
        assert!(!text.contains(s), "{s} in {text}");
    }
    assert!(red.headers.contains(&("x-title".into(), "demo".into())));
    assert!(red
        .headers
        .contains(&("content-type".into(), "application/json".into())));
}

#[test]
fn redact_share_codec_never_carries_har_secrets() {
    let mut state = State::new(toolscope::model::Exchange::default());
    state.replay = Some(DEVTOOLS.to_string());
    let fragment = share::to_fragment(&state).expect("link");
    let back = share::from_fragment(&fragment).expect("opens");
    assert_clean(back.replay.as_deref().expect("replay"));
    let file = share::to_file(&state);
    assert_clean(&file);
    // A file made elsewhere with the secrets in it: they stop at the door, with a note.
    let mut raw: Value =
        serde_json::from_str(&share::to_file(&State::new(Default::default()))).expect("json");
    raw["replay"] = Value::String(DEVTOOLS.into());
    let raw = raw.to_string();
    let opened = share::open_file(&raw).expect("opens");
    assert_clean(opened.state.replay.as_deref().expect("replay"));
    assert!(
        opened
            .notes
            .iter()
            .any(|n| n.contains("secret values were removed")),
        "{:?}",
        opened.notes
    );
    // A stream without secrets goes through byte for byte.
    let mut plain = State::new(toolscope::model::Exchange::default());
    plain.replay = Some("data: {\"a\":1}\n\n".into());
    assert_eq!(
        share::from_fragment(&share::to_fragment(&plain).expect("link"))
            .expect("opens")
            .replay,
        plain.replay
    );
}

#[test]
fn redact_plain_capture_and_keys_in_text() {
    let (t, n) = redact::replay_text(
        "> Authorization: Bearer sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAA\n< Set-Cookie: sid=abcdefgh1234; HttpOnly\n\ndata: {\"type\":\"ping\"}\n\n",
    );
    assert!(
        !t.contains("sk-ant-api03") && !t.contains("abcdefgh1234"),
        "{t}"
    );
    assert!(n >= 2);
    assert!(t.contains("data: {\"type\":\"ping\"}"));
}

#[test]
fn redact_keeps_the_provider_headers_the_table_lists() {
    use toolscope::redact::{header, keeps_header};
    // Versions, betas, the browser opt-in, timing and rate limits: each provider's row.
    for name in [
        "anthropic-version",
        "Anthropic-Beta",
        "anthropic-dangerous-direct-browser-access",
        "anthropic-ratelimit-requests-remaining",
        "openai-version",
        "openai-beta",
        "openai-processing-ms",
        "x-goog-api-client",
    ] {
        assert!(keeps_header(name), "{name}");
        assert_eq!(
            header(name, "2023-06-01"),
            ("2023-06-01".to_string(), false)
        );
    }
    // Key headers are not on any row's list.
    for name in [
        "x-api-key",
        "x-goog-api-key",
        "authorization",
        "openai-organization",
    ] {
        assert!(!keeps_header(name), "{name}");
    }
}
