//! Live calls without a network: requests per provider (URL, headers, body), the checks made
//! before sending, provider error bodies, the tool loop fed with the real recorded streams of
//! `tests/fixtures/recorded/` cut into chunks, and the recording (a HAR the replay opens,
//! which never holds the key).

use crate::common;

use serde_json::{json, Value};
use toolscope::live::error;
use toolscope::live::keys::{origin_of, KeyFor, KeyRing};
use toolscope::live::record::{self, iso8601};
use toolscope::live::run::{Finish, GivenResult, Mock, Mocks, Phase, Run};
use toolscope::live::{checks, parse_headers, request, HttpRequest, Provider, Target, REDACTED};
use toolscope::model::{Exchange, Message, Part, Role, Tool};
use toolscope::replay::{LoadOptions, Replay};

const KEY: &str = "sk-live-test-0123456789abcdef";

fn recorded(name: &str) -> String {
    std::fs::read_to_string(common::recorded_dir().join(name)).expect(name)
}

/// A recording as the server sends it: `event:` (when the protocol names events) and `data:`
/// lines, a blank line after each, `[DONE]` for chat.
fn as_sse(lines: &str, named: bool, done: bool) -> String {
    let mut out = String::new();
    for l in lines.lines().filter(|l| !l.trim().is_empty()) {
        if named {
            let v: Value = serde_json::from_str(l).expect("json line");
            if let Some(t) = v.get("type").and_then(Value::as_str) {
                out.push_str(&format!("event: {t}\n"));
            }
        }
        out.push_str(&format!("data: {l}\n\n"));
    }
    if done {
        out.push_str("data: [DONE]\n\n");
    }
    out
}

fn weather_exchange(tool: &str) -> Exchange {
    Exchange {
        tools: vec![Tool {
            name: tool.into(),
            description: Some("Weather for a place".into()),
            input_schema: json!({"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}),
            strict: None,
            output_schema: None,
            annotations: None,
            hosted: None,
            custom: None,
            extra: Default::default(),
        }],
        messages: vec![common::user("What is the weather in San Francisco?")],
        ..Exchange::default()
    }
}

/// The table's route with this id.
fn route(id: &str) -> Provider {
    Provider::from_id(id).expect("a route of the table")
}

fn target(p: Provider, base: &str) -> Target {
    Target {
        base_url: base.into(),
        model: "test-model".into(),
        ..Target::new(p)
    }
}

/// Round 1 of Anthropic's recorded `json` tool call, in chunks of `chunk` bytes.
fn anthropic_tool_round(run: &mut Run, chunk: usize) {
    let sse = as_sse(
        &recorded("anthropic/anthropic-json-tool.1.jsonl"),
        true,
        false,
    );
    answer(run, 200, "text/event-stream", &sse, chunk);
}

/// Feed `body` to the run in chunks of `chunk` bytes, 5 ms apart.
fn answer(run: &mut Run, status: u16, content_type: &str, body: &str, chunk: usize) {
    let req = request(&run.target, KEY, &run.exchange, false).expect("request");
    run.begin(&req, 1000.0, 1.7e12);
    run.on_head(
        1010.0,
        status,
        vec![("content-type".into(), content_type.into())],
    );
    let mut t = 1010.0;
    for c in body.as_bytes().chunks(chunk.max(1)) {
        t += 5.0;
        run.on_bytes(t, c);
    }
    run.on_end(t + 1.0);
}

fn typed(run: &Run, content: &str) -> Vec<GivenResult> {
    run.pending_calls()
        .into_iter()
        .map(|(_, c)| GivenResult {
            call_id: c.id.clone(),
            name: c.name.clone(),
            content: content.into(),
            is_error: false,
            source: "typed".into(),
            result: None,
        })
        .collect()
}

#[test]
fn live_requests_per_provider() {
    let x = weather_exchange("weather");
    let cases = [
        (route("openai-chat"), "https://api.openai.com/v1/", "https://api.openai.com/v1/chat/completions", "authorization", format!("Bearer {KEY}")),
        (route("openai-responses"), "https://api.openai.com/v1", "https://api.openai.com/v1/responses", "authorization", format!("Bearer {KEY}")),
        (route("anthropic"), "https://api.anthropic.com", "https://api.anthropic.com/v1/messages", "x-api-key", KEY.to_string()),
        (route("gemini"), "https://generativelanguage.googleapis.com/v1beta", "https://generativelanguage.googleapis.com/v1beta/models/test-model:streamGenerateContent?alt=sse", "x-goog-api-key", KEY.to_string()),
        (route("compatible"), "http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions", "authorization", format!("Bearer {KEY}")),
    ];
    for (p, base, url, header, value) in cases {
        let r = request(&target(p, base), KEY, &x, false).expect("request");
        assert_eq!(r.url, url, "{p:?}");
        assert_eq!(r.method, "POST");
        assert!(
            r.headers.contains(&(header.to_string(), value)),
            "{p:?}: {:?}",
            r.headers
        );
        assert!(!r.url.contains(KEY), "key in the URL of {p:?}");
        let body: Value = serde_json::from_str(&r.body).expect("json body");
        if p == route("gemini") {
            assert!(body.get("model").is_none() && body.get("stream").is_none());
            assert!(body.get("contents").is_some());
        } else {
            assert_eq!(body["model"], "test-model", "{p:?}");
            assert_eq!(body["stream"], true, "{p:?}");
            assert_eq!(
                body.as_object()
                    .and_then(|o| o.keys().next())
                    .map(String::as_str),
                Some("model")
            );
        }
    }
    let send = |p: Provider, base: &str, key: &str| {
        request(&target(p, base), key, &x, false).unwrap_or_else(|_| panic!("{p:?} at {base}"))
    };
    let r = send(route("anthropic"), "https://api.anthropic.com", KEY);
    assert!(r.headers.contains(&(
        "anthropic-dangerous-direct-browser-access".into(),
        "true".into()
    )));
    assert!(r.headers.iter().any(|(k, _)| k == "anthropic-version"));
    let body: Value = serde_json::from_str(&r.body).expect("json");
    assert!(
        body["max_tokens"].as_u64().is_some(),
        "Anthropic requires max_tokens"
    );
    let openai = send(route("openai-chat"), "https://api.openai.com/v1", KEY);
    let body: Value = serde_json::from_str(&openai.body).expect("json");
    assert_eq!(body["stream_options"]["include_usage"], true);
    // Not streamed: no `stream`, Gemini's non-streaming method.
    let mut t = target(
        route("gemini"),
        "https://generativelanguage.googleapis.com/v1beta",
    );
    t.stream = false;
    assert!(request(&t, KEY, &x, false)
        .expect("gemini")
        .url
        .ends_with("/models/test-model:generateContent"));
    let mut t = target(route("openai-chat"), "https://api.openai.com/v1");
    t.stream = false;
    let body: Value =
        serde_json::from_str(&request(&t, KEY, &x, false).expect("chat").body).expect("json");
    assert!(body.get("stream").is_none());
    // A compatible server without a key gets no Authorization header; dialects follow the host.
    let r = send(route("compatible"), "http://127.0.0.1:8000/v1", "");
    assert!(!r.headers.iter().any(|(k, _)| k == "authorization"));
    assert_eq!(
        target(route("compatible"), "https://api.mistral.ai/v1").format(),
        toolscope::formats::Format::Mistral
    );
    assert_eq!(
        target(route("compatible"), "https://api.deepseek.com").format(),
        toolscope::formats::Format::DeepSeek
    );
}

#[test]
fn live_extra_headers_parse_override_and_redact() {
    assert_eq!(
        parse_headers("HTTP-Referer: https://me.example\n# note\n\nX-Title: Toolscope")
            .expect("ok"),
        vec![
            ("http-referer".to_string(), "https://me.example".to_string()),
            ("x-title".to_string(), "Toolscope".to_string())
        ]
    );
    assert_eq!(
        parse_headers("ok: 1\nno colon here").unwrap_err(),
        "line 2: expected `Name: value`"
    );
    assert!(parse_headers("bad name: 1")
        .unwrap_err()
        .starts_with("line 1:"));
    let mut t = target(route("compatible"), "https://openrouter.ai/api/v1");
    t.extra_headers = "X-Title: demo\nX-Gateway-Token: gw-secret-123".into();
    let r = request(&t, KEY, &weather_exchange("weather"), false).expect("request");
    assert!(r
        .headers
        .contains(&("x-gateway-token".into(), "gw-secret-123".into())));
    let red = r.redacted();
    let text = serde_json::to_string(&red).expect("json");
    assert!(
        !text.contains(KEY) && !text.contains("gw-secret-123"),
        "{text}"
    );
    assert!(red
        .headers
        .contains(&("authorization".into(), format!("Bearer {REDACTED}"))));
    assert!(red.headers.contains(&("x-title".into(), "demo".into())));
}

#[test]
fn live_checks_say_what_cannot_work_before_sending() {
    let block = |t: &Target, key: &str| -> Vec<&'static str> {
        checks(t, key, false)
            .into_iter()
            .filter(|c| c.blocks)
            .map(|c| c.field)
            .collect()
    };
    let bedrock = checks(&Target::new(route("bedrock")), KEY, false);
    assert!(
        bedrock[0].blocks && bedrock[0].message.contains("Signature V4"),
        "{bedrock:?}"
    );
    let gemini_openai = target(
        route("compatible"),
        "https://generativelanguage.googleapis.com/v1beta/openai/",
    );
    let c = checks(&gemini_openai, KEY, false);
    assert!(
        c.iter().any(|c| c.blocks && c.message.contains("CORS")),
        "{c:?}"
    );
    assert_eq!(
        block(&target(route("compatible"), "http://10.0.0.5:8000/v1"), ""),
        vec!["base-url"]
    );
    assert!(block(&target(route("compatible"), "http://127.0.0.1:8000/v1"), "").is_empty());
    assert_eq!(
        block(&target(route("compatible"), "http://[::1]:8000/v1"), ""),
        vec!["base-url"]
    );
    assert_eq!(
        block(&target(route("compatible"), "http://127.0.0.2:8000/v1"), ""),
        vec!["base-url"]
    );
    assert_eq!(
        block(
            &target(route("openai-chat"), "https://api.openai.com/v1"),
            " "
        ),
        vec!["key"]
    );
    assert_eq!(
        block(&target(route("openai-chat"), "api.openai.com"), KEY),
        vec!["base-url"]
    );
    assert_eq!(
        block(
            &target(route("openai-chat"), "https://user:pw@api.openai.com/v1"),
            KEY
        ),
        vec!["base-url"]
    );
    assert_eq!(
        block(
            &target(
                route("gemini"),
                "https://generativelanguage.googleapis.com/v1beta?key=AIza"
            ),
            KEY
        ),
        vec!["base-url"]
    );
    assert_eq!(
        block(
            &target(route("openai-chat"), "https://api.openai.com/v1"),
            "sk-a\nb"
        ),
        vec!["key"]
    );
    let mut t = target(route("openai-chat"), "https://api.openai.com/v1");
    t.model = "  ".into();
    assert_eq!(block(&t, KEY), vec!["model"]);
    t.model = "m".into();
    t.extra_headers = "Cookie: a=b".into();
    assert_eq!(block(&t, KEY), vec!["headers"]);
    // An https page calling localhost: a warning, not a block.
    let w = checks(
        &target(route("compatible"), "http://localhost:11434/v1"),
        "",
        true,
    );
    assert!(w.iter().all(|c| !c.blocks) && w.iter().any(|c| c.message.contains("OLLAMA_ORIGINS")));
    // A blocked target builds no request.
    assert!(request(
        &Target::new(route("bedrock")),
        KEY,
        &weather_exchange("w"),
        false
    )
    .is_err());
}

#[test]
fn live_error_bodies_of_each_provider() {
    let openai = r#"{"error":{"message":"Incorrect API key provided: sk-wr***ey.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
    let e = error::read(route("openai-chat"), 401, None, openai);
    assert_eq!(e.message, "Incorrect API key provided: sk-wr***ey.");
    assert_eq!(
        e.kind.as_deref(),
        Some("invalid_request_error (invalid_api_key)")
    );
    assert!(e
        .hint
        .as_deref()
        .is_some_and(|h| h.contains("platform.openai.com")));
    let anthropic = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}"#;
    let e = error::read(route("anthropic"), 401, None, anthropic);
    assert_eq!(
        (e.kind.as_deref(), e.message.as_str()),
        (Some("authentication_error"), "invalid x-api-key")
    );
    let gemini = r#"[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]"#;
    let e = error::read(route("gemini"), 400, None, gemini);
    assert_eq!(e.kind.as_deref(), Some("INVALID_ARGUMENT"));
    assert!(
        e.hint.as_deref().is_some_and(|h| h.contains("bad key")),
        "{e:?}"
    );
    let e = error::read(
        route("openai-chat"),
        429,
        Some("7"),
        r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
    );
    assert_eq!(e.retry_after.as_deref(), Some("7"));
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("7 s")));
    let e = error::read(
        route("compatible"),
        400,
        None,
        r#"{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}"#,
    );
    assert_eq!(e.message, "max_tokens is too large");
    let e = error::read(
        route("compatible"),
        422,
        None,
        r#"{"detail":[{"loc":["body","model"],"msg":"field required"}]}"#,
    );
    assert!(e.message.contains("field required"));
    let e = error::read(route("compatible"), 502, None, "<html>Bad gateway</html>");
    assert_eq!(e.message, "<html>Bad gateway</html>");
    let e = error::read(route("compatible"), 503, None, "");
    assert_eq!(e.message, "HTTP 503 Service Unavailable");
    let huge = "x".repeat(200_000);
    assert!(
        error::read(route("openai-chat"), 500, None, &huge)
            .body
            .len()
            < 70_000
    );
    // In-stream errors (Anthropic overload).
    let e = error::from_event(
        route("anthropic"),
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
    )
    .expect("error event");
    assert_eq!(e.message, "Overloaded");
    assert!(error::from_event(route("anthropic"), r#"{"type":"ping"}"#).is_none());
}

/// The full loop per provider on the recorded streams: round 1 streams a tool call, the user
/// answers, round 2 streams the final text.
#[test]
fn live_loop_on_recorded_streams() {
    let cases: [(Provider, &str, &str, bool, bool, &str); 3] = [
        (
            route("openai-chat"),
            "weather",
            "openai-chat/deepseek-tool-call.jsonl",
            false,
            true,
            "openai-chat/deepseek-text.jsonl",
        ),
        (
            route("anthropic"),
            "json",
            "anthropic/anthropic-json-tool.1.jsonl",
            true,
            false,
            "anthropic/anthropic-text.jsonl",
        ),
        (
            route("compatible"),
            "weather",
            "openai-chat/groq-tool-call.jsonl",
            false,
            true,
            "openai-chat/deepseek-text.jsonl",
        ),
    ];
    for chunk in [1usize, 7, 64, 100_000] {
        for (p, tool, first, named, done, second) in cases {
            let mut run = Run::new(
                target(p, "http://127.0.0.1:9/v1"),
                &weather_exchange(tool),
                4,
            );
            answer(
                &mut run,
                200,
                "text/event-stream",
                &as_sse(&recorded(first), named, done),
                chunk,
            );
            assert_eq!(
                run.phase,
                Phase::AwaitingResults,
                "{p:?} chunk {chunk}: {:?}",
                run.rounds[0].error
            );
            let pending = run.pending_calls();
            assert_eq!(pending.len(), 1);
            assert_eq!(pending[0].1.name, tool);
            assert!(pending[0].1.id.is_some());
            assert_eq!(
                run.rounds[0].events.len(),
                recorded(first)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .count()
                    + usize::from(done)
            );
            assert!(run.rounds[0].events.windows(2).all(|w| w[0].t <= w[1].t));
            run.submit(typed(&run, "18 °C, sunny")).expect("submit");
            assert_eq!(run.phase, Phase::Ready);
            let last = run.exchange.messages.last().expect("results");
            assert_eq!(last.role, Role::Tool);
            answer(
                &mut run,
                200,
                "text/event-stream",
                &as_sse(&recorded(second), named, done),
                chunk,
            );
            assert_eq!(
                run.phase,
                Phase::Done {
                    reason: Finish::Answered
                },
                "{p:?}"
            );
            let text = common::text_of(run.exchange.messages.last().expect("answer"));
            assert!(!text.is_empty(), "{p:?}: no final text");
            assert_eq!(run.rounds.len(), 2);
            assert_eq!(run.exchange.messages.len(), 4);
        }
    }
    // Anthropic reports usage; the run sums it.
    let mut run = Run::new(
        target(route("anthropic"), "https://api.anthropic.com"),
        &weather_exchange("json"),
        4,
    );
    anthropic_tool_round(&mut run, 50);
    assert_eq!(
        run.rounds[0]
            .usage
            .as_ref()
            .map(|u| (u.input_tokens, u.output_tokens)),
        Some((849, 47))
    );
}

#[test]
fn live_gemini_and_responses_recordings_ask_for_tools() {
    for (p, file) in [
        (route("gemini"), "gemini/google-tool-call.jsonl"),
        (
            route("openai-responses"),
            "openai-responses/lmstudio-tool-call.1.jsonl",
        ),
    ] {
        let mut run = Run::new(
            target(p, "https://example.com/v1"),
            &weather_exchange("weather"),
            2,
        );
        answer(
            &mut run,
            200,
            "text/event-stream",
            &as_sse(&recorded(file), p == route("openai-responses"), false),
            33,
        );
        assert_eq!(
            run.phase,
            Phase::AwaitingResults,
            "{p:?} {:?}",
            run.rounds[0].error
        );
        assert_eq!(run.pending_calls()[0].1.name, "weather");
        run.submit(typed(&run, "sunny")).expect("submit");
        // The round limit is 2: one more round is allowed.
        assert!(run.can_send());
    }
}

#[test]
fn live_non_streamed_answer_and_server_ignoring_stream() {
    let body = json!({"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"location\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}).to_string();
    for stream in [false, true] {
        let mut t = target(route("openai-chat"), "https://api.openai.com/v1");
        t.stream = stream;
        let mut run = Run::new(t, &weather_exchange("weather"), 3);
        answer(&mut run, 200, "application/json", &body, 16);
        assert_eq!(
            run.phase,
            Phase::AwaitingResults,
            "stream={stream}: {:?}",
            run.rounds[0].error
        );
        assert!(run.rounds[0].events.is_empty());
        assert_eq!(
            run.rounds[0].usage.as_ref().map(|u| u.input_tokens),
            Some(10)
        );
        assert_eq!(run.pending_findings(), vec![vec![]]);
    }
}

#[test]
fn live_failures_keep_the_conversation() {
    let x = weather_exchange("weather");
    let mut run = Run::new(
        target(route("openai-chat"), "https://api.openai.com/v1"),
        &x,
        3,
    );
    let req = request(&run.target, KEY, &run.exchange, false).expect("req");
    run.begin(&req, 0.0, 0.0);
    run.on_head(
        5.0,
        429,
        vec![
            ("retry-after".into(), "3".into()),
            ("content-type".into(), "application/json".into()),
        ],
    );
    run.on_bytes(
        6.0,
        br#"{"error":{"message":"slow down","type":"rate_limit","code":null}}"#,
    );
    run.on_end(7.0);
    assert_eq!(run.phase, Phase::Failed);
    let e = run.rounds[0].error.as_ref().expect("error");
    assert_eq!(
        (e.status, e.message.as_str(), e.retry_after.as_deref()),
        (429, "slow down", Some("3"))
    );
    assert_eq!(run.exchange, x);
    run.retry();
    assert!(run.can_send());
    // A network failure, then a stop mid-stream.
    let req = request(&run.target, KEY, &run.exchange, false).expect("req");
    run.begin(&req, 10.0, 0.0);
    run.on_network_error(20.0, "CORS".into());
    assert_eq!(run.rounds[1].error.as_ref().map(|e| e.status), Some(0));
    run.retry();
    let req = request(&run.target, KEY, &run.exchange, false).expect("req");
    run.begin(&req, 30.0, 0.0);
    run.on_head(
        31.0,
        200,
        vec![("content-type".into(), "text/event-stream".into())],
    );
    let sse = as_sse(&recorded("openai-chat/deepseek-text.jsonl"), false, true);
    run.on_bytes(32.0, &sse.as_bytes()[..sse.len() / 3]);
    assert!(run
        .live_state()
        .is_some_and(|s| !s.reasoning.is_empty() || !s.text.is_empty()));
    run.stop(40.0);
    assert_eq!(run.phase, Phase::Stopped);
    assert!(run.rounds[2].aborted && !run.rounds[2].events.is_empty());
    assert_eq!(run.exchange, x, "a stopped round adds nothing");
    // What arrived stays in the round, to be added on request.
    let partial = run.partial_turn().expect("the partial turn is kept");
    assert_eq!(partial.role, Role::Assistant);
    assert!(!common::text_of(partial).is_empty(), "{partial:?}");
    // Bytes after the stop are ignored.
    assert!(run.on_bytes(41.0, b"data: {}\n\n").is_empty());
    // An in-stream error event fails the round.
    let mut run = Run::new(
        target(route("anthropic"), "https://api.anthropic.com"),
        &x,
        3,
    );
    let body = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    answer(&mut run, 200, "text/event-stream", body, 10);
    assert_eq!(run.phase, Phase::Failed);
    assert_eq!(
        run.rounds[0].error.as_ref().map(|e| e.message.as_str()),
        Some("Overloaded")
    );
    // A stream cut before any message.
    let mut run = Run::new(
        target(route("openai-chat"), "https://api.openai.com/v1"),
        &x,
        3,
    );
    answer(&mut run, 200, "text/event-stream", "", 10);
    assert_eq!(run.phase, Phase::Failed);
}

#[test]
fn live_start_point_and_round_limit() {
    let mut x = weather_exchange("weather");
    x.messages.push(Message::new(
        Role::Assistant,
        vec![Part::text("Earlier answer")],
    ));
    let run = Run::new(Target::new(route("openai-chat")), &x, 3);
    assert_eq!(
        (run.dropped, run.exchange.messages.len(), run.phase.clone()),
        (1, 1, Phase::Ready)
    );
    // Unanswered calls at the end: the run starts by asking for their results.
    x.messages.pop();
    x.messages.push(Message::new(
        Role::Assistant,
        vec![common::call(Some("c1"), "weather", json!({"location": 5}))],
    ));
    let mut run = Run::new(Target::new(route("openai-chat")), &x, 1);
    assert_eq!(run.phase, Phase::AwaitingResults);
    let findings = run.pending_findings();
    assert_eq!(findings.len(), 1);
    assert!(
        findings[0].iter().any(|f| f.rule == "args.schema"),
        "{findings:?}"
    );
    assert!(run.submit(vec![]).is_err(), "one result per call");
    run.submit(typed(&run, "x")).expect("submit");
    // Max one round, none sent yet: still one round allowed.
    assert!(run.can_send());
    assert!(
        Run::new(Target::new(route("openai-chat")), &Exchange::default(), 1)
            .problem()
            .is_some()
    );
}

#[test]
fn live_mocks_offer_saved_and_earlier_results() {
    let mut x = weather_exchange("weather");
    x.messages.push(Message::new(
        Role::Assistant,
        vec![common::call(
            Some("c1"),
            "weather",
            json!({"location":"Paris"}),
        )],
    ));
    x.messages.push(Message::new(
        Role::Tool,
        vec![common::result(Some("c1"), "18 °C")],
    ));
    let mut m = Mocks::default();
    assert_eq!(
        m.candidates(&x, "weather"),
        vec![Mock {
            content: "18 °C".into(),
            is_error: false
        }]
    );
    m.save(
        "weather",
        Mock {
            content: "rain".into(),
            is_error: false,
        },
    );
    m.save(
        "weather",
        Mock {
            content: "18 °C".into(),
            is_error: false,
        },
    );
    m.save(
        "weather",
        Mock {
            content: "rain".into(),
            is_error: false,
        },
    );
    let c = m.candidates(&x, "weather");
    assert_eq!(
        c.iter().map(|m| m.content.as_str()).collect::<Vec<_>>(),
        vec!["rain", "18 °C"]
    );
    for i in 0..50 {
        m.save(
            "other",
            Mock {
                content: format!("{i}"),
                is_error: false,
            },
        );
    }
    assert_eq!(m.0["other"].len(), 20);
    m.remove(
        "weather",
        &Mock {
            content: "rain".into(),
            is_error: false,
        },
    );
    assert_eq!(m.candidates(&x, "weather").len(), 1);
    assert!(m.candidates(&x, "nothing").is_empty());
}

/// The recording is a HAR the replay view opens; no key survives in it.
#[test]
fn live_recording_opens_in_replay_without_the_key() {
    let mut t = target(route("anthropic"), "https://api.anthropic.com");
    t.extra_headers = "X-Secret-Token: topsecret-42".into();
    let mut run = Run::new(t, &weather_exchange("json"), 4);
    anthropic_tool_round(&mut run, 40);
    run.submit(typed(&run, "58 and sunny")).expect("submit");
    answer(
        &mut run,
        200,
        "text/event-stream",
        &as_sse(&recorded("anthropic/anthropic-text.jsonl"), true, false),
        40,
    );
    let har = record::har(&run);
    assert!(
        !har.contains(KEY) && !har.contains("topsecret-42"),
        "a secret leaked into the recording"
    );
    let v: Value = serde_json::from_str(&har).expect("json");
    let entries = v["log"]["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    assert_eq!(
        entries[0]["_toolscope"]["results"][0]["content"],
        "58 and sunny"
    );
    assert_eq!(
        entries[0]["_toolscope"]["eventTimes"]
            .as_array()
            .map(Vec::len),
        Some(9)
    );
    assert_eq!(entries[1]["request"]["method"], "POST");
    assert!(entries[1]["startedDateTime"]
        .as_str()
        .is_some_and(|d| d.ends_with('Z')));
    // Replay opens the last round (the answer) and the first on request.
    let last = Replay::load(&har, LoadOptions::default()).expect("replay");
    assert!(last
        .assembled
        .message()
        .is_some_and(|m| m.tool_calls().next().is_none()));
    assert_eq!(last.request.as_ref().map(|x| x.messages.len()), Some(3));
    // The recorded arrival times come back, one per event, in order.
    assert_eq!(last.times.len(), last.events.len());
    assert!(last.times.windows(2).all(|w| w[0] <= w[1]));
    assert!(Replay::load(
        &recorded("anthropic/anthropic-text.jsonl"),
        LoadOptions::default()
    )
    .expect("plain")
    .times
    .is_empty());
    let first = Replay::load(
        &har,
        LoadOptions {
            har_entry: Some(0),
            ..LoadOptions::default()
        },
    )
    .expect("replay 0");
    assert_eq!(
        first
            .assembled
            .message()
            .and_then(|m| m.tool_calls().next())
            .map(|c| c.name.as_str()),
        Some("json")
    );
}

#[test]
fn live_recording_helpers() {
    assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
    assert_eq!(iso8601(1_795_000_000_123.0), "2026-11-18T11:06:40.123Z");
    assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
    assert_eq!(iso8601(f64::NAN), "1970-01-01T00:00:00.000Z");
    assert_eq!(
        record::redact_url("https://x/v1?alt=sse&key=AIza1"),
        format!("https://x/v1?alt=sse&key={REDACTED}")
    );
    assert_eq!(
        record::redact_url("https://me:pw@host.example/v1?token=abc&x=1"),
        format!("https://{REDACTED}@host.example/v1?token={REDACTED}&x=1")
    );
    let r = HttpRequest {
        method: "POST".into(),
        url: "u".into(),
        headers: vec![("authorization".into(), "sk-bare".into())],
        body: String::new(),
    };
    assert_eq!(r.redacted().headers[0].1, REDACTED);
}

#[test]
fn live_keys_are_bound_to_the_origin_they_were_typed_for() {
    assert_eq!(
        origin_of("https://API.openai.com:443/v1/").as_deref(),
        Some("https://api.openai.com")
    );
    assert_eq!(
        origin_of("http://127.0.0.1:8080/v1").as_deref(),
        Some("http://127.0.0.1:8080")
    );
    assert_eq!(
        origin_of("http://[::1]:11434").as_deref(),
        Some("http://[::1]:11434")
    );
    assert_eq!(origin_of("https://user:pw@example.com"), None);
    assert_eq!(origin_of("ftp://example.com"), None);

    let openai = target(route("openai-chat"), "https://api.openai.com/v1");
    let anthropic = target(route("anthropic"), "https://api.anthropic.com");
    let mut ring = KeyRing::default();
    ring.set(route("openai-chat"), "sk-openai", &openai.base_url);
    ring.set(route("anthropic"), "sk-ant-1", &anthropic.base_url);
    assert_eq!(ring.for_target(&openai), KeyFor::Bound("sk-openai".into()));
    // A run's key is looked up for the run's own target: the Anthropic key never goes to the
    // OpenAI endpoint, whatever the form shows.
    assert_eq!(
        ring.for_target(&anthropic),
        KeyFor::Bound("sk-ant-1".into())
    );
    let keys = [ring.for_target(&openai), ring.for_target(&anthropic)];
    assert!(!matches!(&keys[0], KeyFor::Bound(k) if k.starts_with("sk-ant")));

    // The base URL moves to another origin: the key is not sent there until confirmed.
    let moved = target(route("openai-chat"), "https://gateway.example/v1");
    match ring.for_target(&moved) {
        KeyFor::Elsewhere { typed_for, now } => {
            assert_eq!(typed_for, "https://api.openai.com");
            assert_eq!(now, "https://gateway.example");
        }
        other => panic!("{other:?}"),
    }
    assert!(ring
        .for_target(&moved)
        .problem()
        .is_some_and(|p| p.contains("https://api.openai.com") && p.contains("gateway.example")));
    // Same host, another port, is another origin too.
    let port = target(route("openai-chat"), "https://api.openai.com:8443/v1");
    assert!(matches!(ring.for_target(&port), KeyFor::Elsewhere { .. }));
    ring.confirm(route("openai-chat"), &moved.base_url);
    assert_eq!(ring.for_target(&moved), KeyFor::Bound("sk-openai".into()));
    assert!(matches!(ring.for_target(&openai), KeyFor::Elsewhere { .. }));
    // A key typed while the URL did not parse is bound to nothing.
    ring.set(route("gemini"), "g-key", "not a url");
    let gemini = target(
        route("gemini"),
        "https://generativelanguage.googleapis.com/v1beta",
    );
    assert!(matches!(ring.for_target(&gemini), KeyFor::Elsewhere { .. }));
    ring.set(route("gemini"), "", "");
    assert_eq!(ring.for_target(&gemini), KeyFor::Missing);

    // Kept keys of the earlier form ({provider: key}) bind to each provider's default origin.
    let old = r#"{"openai-chat":"sk-old","anthropic":"sk-ant-old"}"#;
    let ring = KeyRing::from_stored(old).expect("old form");
    assert_eq!(ring.for_target(&openai), KeyFor::Bound("sk-old".into()));
    assert_eq!(
        ring.for_target(&anthropic),
        KeyFor::Bound("sk-ant-old".into())
    );
    let again = KeyRing::from_stored(&serde_json::to_string(&ring).expect("json")).expect("new");
    assert_eq!(again, ring);
    assert!(KeyRing::from_stored("[1,2]").is_none());
}

#[test]
fn live_routes_are_the_tables() {
    use toolscope::formats::spec::Send;
    use toolscope::formats::Format;
    use toolscope::providers::{Counting, Provider as Family, COMPATIBLE};
    let all: Vec<Provider> = Provider::all().collect();
    // Every route of every row is listed, once, and found by its id.
    let rows: usize = Family::ALL.iter().map(|p| p.row().live.routes.len()).sum();
    assert_eq!(all.len(), rows + 1);
    for r in &all {
        assert_eq!(Provider::from_id(r.id()), Some(*r));
        assert!(!r.label().is_empty());
        let Some(family) = r.family() else {
            assert_eq!(r.id(), COMPATIBLE.route.id);
            continue;
        };
        // A route is one of its provider's formats, sent over HTTP, with an API to call.
        let format = Format::from_id(r.id()).expect("a route is a format");
        assert_eq!(format.models(), Some(family), "{}", r.id());
        assert!(matches!(format.send(), Send::Http(_)), "{}", r.id());
        assert!(family.row().api.is_some(), "{}", r.id());
        assert_eq!(Target::new(*r).format(), format);
        // Its endpoint is its format's URL under the provider's base.
        if let Send::Http(http) = format.send() {
            let mut t = Target::new(*r);
            t.stream = false;
            t.model = "m".into();
            let from_spec = http
                .url
                .replace("{model}", "m")
                .replace("$REGION", "us-east-1");
            assert_eq!(t.endpoint(), from_spec, "{}", r.id());
        }
        // A route counting through another counts through one of its provider's own.
        if let Counting::By(id) = family
            .row()
            .live
            .routes
            .iter()
            .find(|x| x.id == r.id())
            .unwrap()
            .count
        {
            let by = Provider::from_id(id).expect("the counting route");
            assert_eq!(by.family(), Some(family));
            assert!(by.count().is_some());
        }
    }
    // The picker: the routes a page can call first, the compatible one, then the others.
    let blocked = all.iter().position(|r| r.blocked().is_some()).unwrap();
    assert!(all[blocked..].iter().all(|r| r.blocked().is_some()));
    assert_eq!(all[blocked - 1], Provider::compatible());
    assert_eq!(Provider::default(), all[0]);
}

#[test]
fn live_a_base_url_holding_the_path_is_warned_about() {
    let warned = |t: &Target| {
        checks(t, KEY, false)
            .into_iter()
            .any(|c| !c.blocks && c.message.contains("already ends in"))
    };
    assert!(warned(&target(
        route("anthropic"),
        "https://api.anthropic.com/v1/messages"
    )));
    assert!(warned(&target(
        route("openai-chat"),
        "https://api.openai.com/v1/chat/completions"
    )));
    assert!(!warned(&target(
        route("anthropic"),
        "https://api.anthropic.com"
    )));
    assert!(!warned(&target(
        route("openai-chat"),
        "https://api.openai.com/v1"
    )));
}
