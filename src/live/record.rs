//! A live run as a HAR 1.2 file: one entry per round (the redacted request, the response with
//! its raw body), so the replay view opens it like a devtools export and any HAR viewer can
//! read it. Toolscope's own facts ride in `_toolscope` fields, which HAR allows for custom
//! data: per entry the arrival time of each stream event, the results the user gave, usage,
//! the failure; on the log the target and how the run ended. Secrets are redacted by
//! [`crate::redact`]: every header but the harmless ones, URL credentials, key-shaped text.

use super::run::{Phase, Round, Run, ServerTraffic};
use super::HttpRequest;
use serde_json::{json, Map, Value};

/// The recording of a run, as pretty JSON text.
pub fn har(run: &Run) -> String {
    serde_json::to_string_pretty(&har_value(run)).unwrap_or_default()
}

/// The recording of a run, with its secrets redacted ([`crate::redact::har`]).
pub fn har_value(run: &Run) -> Value {
    let mut v = har_unredacted(run);
    crate::redact::har(&mut v);
    v
}

fn har_unredacted(run: &Run) -> Value {
    // Each round, then the MCP traffic that answered its calls, in the order it happened.
    let entries: Vec<Value> = run
        .rounds
        .iter()
        .flat_map(|r| std::iter::once(entry(r)).chain(r.traffic.iter().map(|t| mcp_entry(r, t))))
        .collect();
    let t = &run.target;
    let phase = serde_json::to_value(&run.phase).unwrap_or(Value::Null);
    let usage = run.total_usage();
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "Toolscope", "version": env!("CARGO_PKG_VERSION")},
            "comment": format!(
                "Live run: {} · {} · {} round{} · {}",
                t.provider.label(),
                t.model.trim(),
                run.rounds.len(),
                if run.rounds.len() == 1 { "" } else { "s" },
                phase_label(&run.phase)
            ),
            "entries": entries,
            "_toolscope": {
                "provider": t.provider.id(),
                "baseUrl": redact_url(t.base_url.trim()),
                "model": t.model.trim(),
                "stream": t.stream,
                "maxRounds": run.max_rounds,
                "end": phase,
                "usage": {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens},
            },
        }
    })
}

fn phase_label(p: &Phase) -> &'static str {
    match p {
        Phase::Ready => "ready for the next round",
        Phase::Sending => "in flight",
        Phase::AwaitingResults => "waiting for tool results",
        Phase::Done {
            reason: super::run::Finish::Answered,
        } => "answered",
        Phase::Done {
            reason: super::run::Finish::RoundLimit,
        } => "stopped at the round limit",
        Phase::Failed => "failed",
        Phase::Stopped => "stopped by the user",
    }
}

fn headers(list: &[(String, String)]) -> Value {
    Value::Array(
        list.iter()
            .map(|(k, v)| json!({"name": k, "value": crate::redact::header(k, v).0}))
            .collect(),
    )
}

/// The URL with the values of key-like query parameters and any `user:password@` redacted.
pub fn redact_url(url: &str) -> String {
    crate::redact::url(url).0
}

fn query_string(url: &str) -> Value {
    let q = url.split_once('?').map(|(_, q)| q).unwrap_or("");
    Value::Array(
        q.split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                json!({"name": k, "value": v})
            })
            .collect(),
    )
}

/// One HTTP exchange as a HAR entry, whoever it was with (a provider's round or an MCP
/// server): the request (its URL redacted), the response, the timings and Toolscope's own
/// fields under `_toolscope`.
struct Exchanged<'a> {
    request: &'a HttpRequest,
    sent_at: f64,
    elapsed: f64,
    /// Until the response's head arrived.
    wait: f64,
    status: u16,
    response_headers: &'a [(String, String)],
    body: &'a str,
}

impl Exchanged<'_> {
    fn har(&self, own: Map<String, Value>) -> Value {
        let url = redact_url(&self.request.url);
        let mime = self
            .response_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        json!({
            "startedDateTime": iso8601(self.sent_at),
            "time": round_ms(self.elapsed),
            "request": {
                "method": self.request.method,
                "url": url,
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": headers(&self.request.headers),
                "queryString": query_string(&url),
                "postData": {"mimeType": "application/json", "text": self.request.body},
                "headersSize": -1,
                "bodySize": self.request.body.len(),
            },
            "response": {
                "status": self.status,
                "statusText": "",
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": headers(self.response_headers),
                "content": {"size": self.body.len(), "mimeType": mime, "text": self.body},
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": self.body.len(),
            },
            "cache": {},
            "timings": {
                "send": 0,
                "wait": round_ms(self.wait),
                "receive": round_ms((self.elapsed - self.wait).max(0.0)),
            },
            "_toolscope": own,
        })
    }
}

fn entry(r: &Round) -> Value {
    let elapsed = r.elapsed_ms.unwrap_or(0.0);
    let wait = r.head_ms.unwrap_or(elapsed);
    let mut own = Map::new();
    own.insert("round".into(), json!(r.number));
    if !r.events.is_empty() {
        own.insert(
            "eventTimes".into(),
            Value::Array(r.events.iter().map(|e| json!(round_ms(e.t))).collect()),
        );
    }
    if !r.results.is_empty() {
        own.insert(
            "results".into(),
            serde_json::to_value(&r.results).unwrap_or(Value::Null),
        );
    }
    if let Some(u) = &r.usage {
        own.insert(
            "usage".into(),
            json!({"input_tokens": u.input_tokens, "output_tokens": u.output_tokens}),
        );
    }
    if let Some(e) = &r.error {
        own.insert(
            "error".into(),
            serde_json::to_value(e).unwrap_or(Value::Null),
        );
    }
    if r.aborted {
        own.insert("aborted".into(), Value::Bool(true));
    }
    if !r.anomalies.is_empty() {
        own.insert("anomalies".into(), json!(r.anomalies));
    }
    Exchanged {
        request: &r.request,
        sent_at: r.sent_at,
        elapsed,
        wait,
        status: r.status.unwrap_or(0),
        response_headers: &r.response_headers,
        body: &r.body,
    }
    .har(own)
}

/// One exchange with an MCP server, as a HAR entry marked `_toolscope.mcp` (the server).
fn mcp_entry(r: &Round, t: &ServerTraffic) -> Value {
    let mut own = Map::new();
    own.insert("round".into(), json!(r.number));
    own.insert("mcp".into(), json!(redact_url(&t.server)));
    if let Some(e) = &t.error {
        own.insert("error".into(), json!(e));
    }
    // The whole answer is read at once: its wait is the whole time, nothing is received after.
    Exchanged {
        request: &t.request,
        sent_at: t.sent_at,
        elapsed: t.elapsed_ms,
        wait: t.elapsed_ms,
        status: t.status,
        response_headers: &t.response_headers,
        body: &t.body,
    }
    .har(own)
}

fn round_ms(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}

/// `ms` since the Unix epoch as an ISO 8601 UTC date (HAR's `startedDateTime`).
pub fn iso8601(ms: f64) -> String {
    let ms = if ms.is_finite() && ms >= 0.0 {
        ms as i64
    } else {
        0
    };
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
