//! The tool loop as a sans-IO state machine. The page feeds it what the network did (status,
//! bytes, end, failure) with the time each happened; it assembles the answer with the same
//! assemblers the replay uses, grows the exchange by the model's turn, and waits for the user's
//! results when the model asked for tools:
//!
//! ```text
//! Ready --begin--> Sending --on_end--> AwaitingResults --submit--> Ready …
//!                     |                     (no calls) --> Done(Answered)
//!                     +--failure--> Failed      stop --> Stopped
//! ```

use super::error::{self, ProviderError};
use super::{HttpRequest, Target};
use crate::formats::Kind;
use crate::model::{Exchange, Message, Part, ResultContent, Role, ToolCall, ToolResult, Usage};
use crate::replay::{AnyAssembler, WholeResponse};
use crate::schema::{args::validate_arguments, Finding};
use crate::stream::sse::SseFramer;
use crate::stream::{Assembler, Event, State, Update};
use serde::{Deserialize, Serialize};

/// Most rounds a run may take unless told otherwise.
pub const DEFAULT_MAX_ROUNDS: usize = 8;
/// Largest response body kept (a runaway stream is cut here and the round fails).
pub const MAX_BODY: usize = 32 * 1024 * 1024;

/// Where the loop is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The next round can be sent.
    Ready,
    /// A request is in flight.
    Sending,
    /// The model asked for tools: the user supplies their results.
    AwaitingResults,
    /// Finished.
    Done {
        /// Why.
        reason: Finish,
    },
    /// A round failed.
    Failed,
    /// The user stopped it.
    Stopped,
}

/// Why a run finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The model answered without asking for tools.
    Answered,
    /// The round limit was reached with calls still to answer.
    RoundLimit,
}

/// A result for one pending call, as the user gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GivenResult {
    /// The call it answers (as the model sent it; `None` for Gemini, which sends no ids).
    pub call_id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The result text.
    pub content: String,
    /// Marked as an error.
    pub is_error: bool,
    /// Where it came from: `typed`, `mock`, `mcp` (a server answered), `denied`.
    pub source: String,
    /// The result as a server gave it (content blocks, structured content), put in the
    /// conversation instead of `content` when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ToolResult>,
}

/// Where the answer to a tool of the exchange comes from when the model calls it: an MCP
/// server's tool (by the name the server gave it) and whether it may run without asking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// The server (its URL, as the user typed it).
    pub server: String,
    /// The tool's name on the server (the exchange may carry a provider-safe rename).
    pub tool: String,
    /// It may run without asking: marked read-only and not destructive
    /// (`mcp::tools::ServerTool::runs_unasked`).
    pub read_only: bool,
}

/// What the page does with one pending call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Its server answers it now, unasked (a read-only tool in Auto mode).
    Run,
    /// Its server answers it once the user approves; the user may deny it instead.
    Ask,
    /// No server answers it: the user (or a saved result) does.
    ByHand,
}

/// What to do with a call of a tool routed by `route` (`None`: no server answers it). Only a
/// read-only tool in Auto mode runs unasked; any other server tool waits for Approve.
pub fn decide(route: Option<&Route>, auto: bool) -> Decision {
    match route {
        Some(r) if auto && r.read_only => Decision::Run,
        Some(_) => Decision::Ask,
        None => Decision::ByHand,
    }
}

/// The result of a call the user denied: an error the model reads.
pub fn denied(call: &ToolCall) -> GivenResult {
    GivenResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        content: format!(
            "The user denied this call of {}: it was not run.",
            call.name
        ),
        is_error: true,
        source: "denied".into(),
        result: None,
    }
}

/// One HTTP exchange with an MCP server made during a round (to answer a call), kept with the
/// round for the recording. The request is redacted before it is kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerTraffic {
    /// The server (its URL).
    pub server: String,
    /// The request as sent, redacted.
    pub request: HttpRequest,
    /// Wall-clock time it was sent (ms since the Unix epoch).
    pub sent_at: f64,
    /// Response status (0: no answer).
    pub status: u16,
    /// Response headers the page could read.
    pub response_headers: Vec<(String, String)>,
    /// The response body (cut at [`MAX_BODY`]).
    pub body: String,
    /// ms from sending to the end.
    pub elapsed_ms: f64,
    /// Why it failed, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ServerTraffic {
    /// The exchange of `request` (redacted here), sent at `sent_at`.
    pub fn new(server: &str, request: &HttpRequest, sent_at: f64) -> ServerTraffic {
        ServerTraffic {
            server: server.to_string(),
            request: request.redacted(),
            sent_at,
            status: 0,
            response_headers: Vec::new(),
            body: String::new(),
            elapsed_ms: 0.0,
            error: None,
        }
    }
}

/// One event as it arrived, `t` ms after the round was sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimedEvent {
    /// Milliseconds since the request was sent.
    pub t: f64,
    /// The event.
    pub event: Event,
}

/// One request and what came back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    /// 1-based.
    pub number: usize,
    /// The request as sent, with secrets redacted.
    pub request: HttpRequest,
    /// Wall-clock time it was sent (ms since the Unix epoch), for the recording.
    pub sent_at: f64,
    /// Response status, once known.
    pub status: Option<u16>,
    /// Response headers the page could read.
    pub response_headers: Vec<(String, String)>,
    /// ms from sending to the response head.
    pub head_ms: Option<f64>,
    /// ms from sending to the end (or the failure, or the stop).
    pub elapsed_ms: Option<f64>,
    /// Stream events with their times (a non-streamed answer has none).
    pub events: Vec<TimedEvent>,
    /// The response body as received (the raw stream for a streamed answer).
    pub body: String,
    /// The model's turn, once assembled.
    pub message: Option<Message>,
    /// Token usage the provider reported.
    pub usage: Option<Usage>,
    /// The failure, if it failed.
    pub error: Option<ProviderError>,
    /// The user stopped it mid-flight.
    pub aborted: bool,
    /// What a stopped or failed stream had assembled when it ended (text and the calls so
    /// far): shown in the round, added to the conversation only when the user asks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<Message>,
    /// Anomalies the assembler reported (ids), e.g. a stream cut before its end.
    pub anomalies: Vec<String>,
    /// The results the user gave for the calls of this round.
    pub results: Vec<GivenResult>,
    /// The traffic with MCP servers that answered this round's calls.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub traffic: Vec<ServerTraffic>,
}

/// A live run.
#[derive(Debug, Clone)]
pub struct Run {
    /// Where requests go (no key).
    pub target: Target,
    /// The conversation, grown by each round.
    pub exchange: Exchange,
    /// Rounds so far.
    pub rounds: Vec<Round>,
    /// Where the loop is.
    pub phase: Phase,
    /// Most rounds (requests) this run may take.
    pub max_rounds: usize,
    /// Messages of the exchange the run started from (the rest were written by the run).
    pub started_with: usize,
    /// Assistant turns dropped from the end of the conversation at the start (the run writes
    /// its own).
    pub dropped: usize,
    assembler: Option<AnyAssembler>,
    framer: Option<SseFramer>,
    streamed: bool,
    raw: Vec<u8>,
    start: f64,
}

impl Run {
    /// A run of `x` against `target`. A conversation ending with the model's plain answer
    /// starts from before that answer; one ending with calls still unanswered starts by asking
    /// for their results.
    pub fn new(target: Target, x: &Exchange, max_rounds: usize) -> Run {
        let mut exchange = x.clone();
        let mut dropped = 0;
        while exchange
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Assistant && m.tool_calls().next().is_none())
        {
            exchange.messages.pop();
            dropped += 1;
        }
        let mut run = Run {
            target,
            started_with: exchange.messages.len(),
            exchange,
            rounds: Vec::new(),
            phase: Phase::Ready,
            max_rounds: max_rounds.max(1),
            dropped,
            assembler: None,
            framer: None,
            streamed: false,
            raw: Vec::new(),
            start: 0.0,
        };
        if !run.pending_calls().is_empty() {
            run.phase = Phase::AwaitingResults;
        }
        run
    }

    /// Why the run cannot be sent as is, if it cannot (nothing to answer).
    pub fn problem(&self) -> Option<String> {
        if self.exchange.messages.is_empty() {
            return Some("The conversation is empty: add a user message first.".into());
        }
        None
    }

    /// The calls of the model's last turn still waiting for a result, with their position in
    /// the exchange (`(message, part)`), in order.
    pub fn pending_calls(&self) -> Vec<((usize, usize), ToolCall)> {
        let Some(m) = self.exchange.messages.len().checked_sub(1) else {
            return Vec::new();
        };
        let Some(last) = self.exchange.messages.get(m) else {
            return Vec::new();
        };
        if last.role != Role::Assistant {
            return Vec::new();
        }
        last.parts
            .iter()
            .enumerate()
            .filter_map(|(p, part)| match part {
                Part::ToolCall(c) => Some(((m, p), c.clone())),
                _ => None,
            })
            .collect()
    }

    /// Argument findings of each pending call against its tool's schema, in call order.
    pub fn pending_findings(&self) -> Vec<Vec<Finding>> {
        let all = validate_arguments(&self.exchange);
        self.pending_calls()
            .iter()
            .map(|((m, p), _)| {
                let prefix = format!("/messages/{m}/parts/{p}/");
                all.iter()
                    .filter(|f| f.pointer.starts_with(&prefix))
                    .cloned()
                    .collect()
            })
            .collect()
    }

    /// True while a request can be sent: ready, and under the round limit.
    pub fn can_send(&self) -> bool {
        self.phase == Phase::Ready && self.rounds.len() < self.max_rounds
    }

    /// Record that `request` (with the key in it) was sent at `now` (ms, any clock shared
    /// with later calls) and `wall` (ms since the epoch). Only its redacted copy is kept.
    pub fn begin(&mut self, request: &HttpRequest, now: f64, wall: f64) {
        self.streamed = self.target.stream;
        self.assembler = None;
        self.framer = None;
        self.raw.clear();
        self.rounds.push(Round {
            number: self.rounds.len() + 1,
            request: request.redacted(),
            sent_at: wall,
            status: None,
            response_headers: Vec::new(),
            head_ms: None,
            elapsed_ms: None,
            events: Vec::new(),
            body: String::new(),
            message: None,
            usage: None,
            error: None,
            aborted: false,
            partial: None,
            anomalies: Vec::new(),
            results: Vec::new(),
            traffic: Vec::new(),
        });
        self.start = now;
        self.phase = Phase::Sending;
    }

    /// The response head arrived.
    pub fn on_head(&mut self, now: f64, status: u16, headers: Vec<(String, String)>) {
        let ok = (200..300).contains(&status);
        let sse = headers.iter().any(|(k, v)| {
            k.eq_ignore_ascii_case("content-type")
                && v.to_ascii_lowercase().contains("event-stream")
        });
        // A server that ignored `stream: true` answers one JSON body: read it whole.
        self.streamed = ok && self.target.stream && (sse || !has_json_type(&headers));
        if ok {
            let protocol = self.target.protocol();
            self.assembler = Some(if self.streamed {
                AnyAssembler::new(protocol)
            } else {
                AnyAssembler::Whole(WholeResponse::new(protocol))
            });
            self.framer = self.streamed.then(SseFramer::new);
        }
        let start = self.start;
        if let Some(r) = self.rounds.last_mut() {
            r.status = Some(status);
            r.response_headers = headers;
            r.head_ms = Some(now - start);
        }
    }

    /// Bytes of the body arrived; returns what they changed (streamed answers only).
    pub fn on_bytes(&mut self, now: f64, bytes: &[u8]) -> Vec<Update> {
        if self.phase != Phase::Sending {
            return Vec::new();
        }
        if self.raw.len() + bytes.len() > MAX_BODY {
            self.fail_with(
                now,
                ProviderError {
                    status: self.rounds.last().and_then(|r| r.status).unwrap_or(0),
                    kind: None,
                    message: format!(
                        "The answer grew past {} MiB; stopped reading.",
                        MAX_BODY >> 20
                    ),
                    retry_after: None,
                    body: String::new(),
                    hint: None,
                },
            );
            return Vec::new();
        }
        self.raw.extend_from_slice(bytes);
        let Some(framer) = self.framer.as_mut() else {
            return Vec::new();
        };
        let events = framer.push(bytes);
        self.feed(now, events)
    }

    fn feed(&mut self, now: f64, events: Vec<Event>) -> Vec<Update> {
        let mut out = Vec::new();
        let provider = self.target.provider;
        let start = self.start;
        for e in events {
            if let Some(err) = error::from_event(provider, &e.data) {
                if let Some(r) = self.rounds.last_mut() {
                    r.events.push(TimedEvent {
                        t: now - start,
                        event: e,
                    });
                }
                self.fail_with(now, err);
                return out;
            }
            if let Some(a) = self.assembler.as_mut() {
                out.extend(a.push(&e));
            }
            if let Some(r) = self.rounds.last_mut() {
                r.events.push(TimedEvent {
                    t: now - start,
                    event: e,
                });
            }
        }
        out
    }

    /// The body ended.
    pub fn on_end(&mut self, now: f64) {
        if self.phase != Phase::Sending {
            return;
        }
        let status = self.rounds.last().and_then(|r| r.status).unwrap_or(0);
        let body = String::from_utf8_lossy(&self.raw).into_owned();
        if let Some(r) = self.rounds.last_mut() {
            r.body = body.clone();
        }
        if !(200..300).contains(&status) {
            let retry = self.rounds.last().and_then(|r| {
                r.response_headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("retry-after"))
                    .map(|(_, v)| v.clone())
            });
            let e = error::read(self.target.provider, status, retry.as_deref(), &body);
            self.fail_with(now, e);
            return;
        }
        if let Some(f) = self.framer.take() {
            let rest = f.finish();
            self.feed(now, rest);
            if self.phase != Phase::Sending {
                return;
            }
        } else if let Some(a) = self.assembler.as_mut() {
            // A whole body: one step through the format's response decoder.
            if let Err(e) = self.target.format().decode(&body, Kind::Response) {
                let err = ProviderError {
                    status,
                    kind: None,
                    message: format!(
                        "The answer is not a {} response: {e}",
                        self.target.format().name()
                    ),
                    retry_after: None,
                    body: body.chars().take(4096).collect(),
                    hint: None,
                };
                self.fail_with(now, err);
                return;
            }
            a.push(&Event::data(body.clone()));
        }
        let Some(a) = self.assembler.take() else {
            return;
        };
        let assembled = a.finish();
        let start = self.start;
        let anomalies: Vec<String> = assembled
            .anomalies
            .iter()
            .map(|a| a.kind.id().to_string())
            .collect();
        // A stream cut before anything of the message arrived has nothing to add.
        let message = assembled
            .message()
            .cloned()
            .filter(|m| m.role == Role::Assistant)
            .filter(|m| assembled.complete || !m.parts.is_empty());
        let Some(message) = message else {
            let err = ProviderError {
                status,
                kind: None,
                message: if assembled.complete {
                    "The answer held no message from the model.".into()
                } else {
                    "The stream ended before the model's message began.".into()
                },
                retry_after: None,
                body: String::new(),
                hint: Some(
                    "Send again; if it keeps happening, the Replay tab shows the events.".into(),
                ),
            };
            self.fail_with(now, err);
            return;
        };
        if let Some(model) = &assembled.exchange.options.model {
            self.exchange
                .options
                .model
                .get_or_insert_with(|| model.clone());
        }
        self.exchange.messages.push(message.clone());
        if let Some(r) = self.rounds.last_mut() {
            r.elapsed_ms = Some(now - start);
            r.usage = message.usage.clone();
            r.message = Some(message);
            r.anomalies = anomalies;
        }
        self.phase = if !self.pending_calls().is_empty() {
            Phase::AwaitingResults
        } else {
            Phase::Done {
                reason: Finish::Answered,
            }
        };
    }

    /// The request failed without a readable answer (`fetch` rejected: network or CORS).
    pub fn on_network_error(&mut self, now: f64, explanation: String) {
        if self.phase != Phase::Sending {
            return;
        }
        self.fail_with(
            now,
            ProviderError {
                status: 0,
                kind: Some("network".into()),
                message: explanation,
                retry_after: None,
                body: String::new(),
                hint: None,
            },
        );
    }

    fn fail_with(&mut self, now: f64, e: ProviderError) {
        let start = self.start;
        let partial = self.partial();
        if let Some(r) = self.rounds.last_mut() {
            r.partial = partial;
            r.elapsed_ms = Some(now - start);
            if r.body.is_empty() {
                r.body = String::from_utf8_lossy(&self.raw).into_owned();
            }
            r.error = Some(e);
        }
        self.assembler = None;
        self.framer = None;
        self.phase = Phase::Failed;
    }

    /// The user stopped the run (the page aborts the request in flight). What arrived is kept
    /// in the round; the partial answer is not added to the conversation.
    pub fn stop(&mut self, now: f64) {
        if self.phase == Phase::Sending {
            let start = self.start;
            let body = String::from_utf8_lossy(&self.raw).into_owned();
            let partial = self.partial();
            if let Some(r) = self.rounds.last_mut() {
                r.elapsed_ms = Some(now - start);
                r.aborted = true;
                r.body = body;
                r.partial = partial;
            }
        }
        if !matches!(self.phase, Phase::Done { .. } | Phase::Failed) {
            self.phase = Phase::Stopped;
        }
        self.assembler = None;
        self.framer = None;
    }

    /// The assistant turn the stream had assembled so far, if it holds anything (text,
    /// reasoning or a call).
    fn partial(&self) -> Option<Message> {
        let a = self.assembler.as_ref().filter(|_| self.streamed)?;
        let m = a.message_so_far().message()?.clone();
        (!m.parts.is_empty()).then_some(m)
    }

    /// The turn a stopped or failed round had received, to add to the conversation on request.
    pub fn partial_turn(&self) -> Option<&Message> {
        self.rounds.last()?.partial.as_ref()
    }

    /// Let a failed or stopped run send its round again.
    pub fn retry(&mut self) {
        if matches!(self.phase, Phase::Failed | Phase::Stopped) {
            self.phase = if self.pending_calls().is_empty() {
                Phase::Ready
            } else {
                Phase::AwaitingResults
            };
        }
    }

    /// What the stream assembled so far (for the live view), while a round is in flight.
    pub fn live_state(&self) -> Option<State> {
        self.assembler
            .as_ref()
            .filter(|_| self.streamed)
            .map(Assembler::state)
    }

    /// Answer the pending calls, in their order (one result per call), and add the results to
    /// the conversation. Then the run is ready for its next round, or done at the round limit.
    pub fn submit(&mut self, results: Vec<GivenResult>) -> Result<(), String> {
        if self.phase != Phase::AwaitingResults {
            return Err("no calls are waiting for results".into());
        }
        let pending = self.pending_calls();
        if results.len() != pending.len() {
            return Err(format!(
                "{} calls wait for results; {} given",
                pending.len(),
                results.len()
            ));
        }
        let parts = pending
            .iter()
            .zip(&results)
            .map(|((_, call), given)| {
                let mut r = match &given.result {
                    Some(r) => r.clone(),
                    None => {
                        ToolResult::new(call.id.clone(), ResultContent::Text(given.content.clone()))
                    }
                };
                r.call_id = call.id.clone();
                r.name = Some(call.name.clone());
                r.is_error = given.is_error;
                Part::ToolResult(r)
            })
            .collect();
        self.exchange.messages.push(Message::new(Role::Tool, parts));
        if let Some(r) = self.rounds.last_mut() {
            r.results = results;
        }
        self.phase = if self.rounds.len() >= self.max_rounds {
            Phase::Done {
                reason: Finish::RoundLimit,
            }
        } else {
            Phase::Ready
        };
        Ok(())
    }

    /// Keep an exchange with an MCP server made for the last round's calls.
    pub fn add_traffic(&mut self, t: ServerTraffic) {
        if let Some(r) = self.rounds.last_mut() {
            r.traffic.push(t);
        }
    }

    /// Tokens over all rounds.
    pub fn total_usage(&self) -> Usage {
        let mut u = Usage::default();
        for r in &self.rounds {
            if let Some(x) = &r.usage {
                u.input_tokens += x.input_tokens;
                u.output_tokens += x.output_tokens;
            }
        }
        u
    }
}

fn has_json_type(headers: &[(String, String)]) -> bool {
    headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("content-type") && v.to_ascii_lowercase().contains("json")
    })
}

/// A saved result for a tool, offered when the model calls it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mock {
    /// The result text.
    pub content: String,
    /// It is an error result.
    #[serde(default)]
    pub is_error: bool,
}

/// Saved results per tool name (kept in the browser; never holds a key).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Mocks(pub std::collections::BTreeMap<String, Vec<Mock>>);

/// Most mocks kept per tool (the oldest go first).
pub const MAX_MOCKS_PER_TOOL: usize = 20;

impl Mocks {
    /// Save a result for `tool` (moved to the front if already saved).
    pub fn save(&mut self, tool: &str, mock: Mock) {
        let list = self.0.entry(tool.to_string()).or_default();
        list.retain(|m| *m != mock);
        list.insert(0, mock);
        list.truncate(MAX_MOCKS_PER_TOOL);
    }

    /// Forget one saved result.
    pub fn remove(&mut self, tool: &str, mock: &Mock) {
        if let Some(list) = self.0.get_mut(tool) {
            list.retain(|m| m != mock);
            if list.is_empty() {
                self.0.remove(tool);
            }
        }
    }

    /// What can answer a call of `tool`: the saved results, then the results the conversation
    /// already gave that tool (newest first), without repeats.
    pub fn candidates(&self, x: &Exchange, tool: &str) -> Vec<Mock> {
        let mut out: Vec<Mock> = self.0.get(tool).cloned().unwrap_or_default();
        let mut names: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        for m in &x.messages {
            for c in m.tool_calls() {
                if let Some(id) = &c.id {
                    names.insert(id.as_str(), c.name.as_str());
                }
            }
        }
        for m in x.messages.iter().rev() {
            for r in m.tool_results() {
                let name = r
                    .name
                    .as_deref()
                    .or_else(|| r.call_id.as_deref().and_then(|id| names.get(id).copied()));
                if name == Some(tool) {
                    let mock = Mock {
                        content: r.content.to_text(),
                        is_error: r.is_error,
                    };
                    if !out.contains(&mock) {
                        out.push(mock);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tool;

    fn route(read_only: bool) -> Route {
        Route {
            server: "http://127.0.0.1:9/mcp".into(),
            tool: "notes.delete".into(),
            read_only,
        }
    }

    #[test]
    fn only_a_read_only_tool_in_auto_mode_runs_unasked() {
        assert_eq!(decide(Some(&route(true)), true), Decision::Run);
        assert_eq!(decide(Some(&route(true)), false), Decision::Ask);
        assert_eq!(decide(Some(&route(false)), true), Decision::Ask);
        assert_eq!(decide(Some(&route(false)), false), Decision::Ask);
        assert_eq!(decide(None, true), Decision::ByHand);
    }

    /// A run waiting for the result of one call of `notes_delete`.
    fn waiting() -> Run {
        let mut x = Exchange::default();
        x.tools.push(Tool::new(
            "notes_delete",
            crate::model::empty_object_schema(),
        ));
        x.messages.push(Message::new(
            Role::User,
            vec![Part::Text {
                text: "delete n-1".into(),
                extra: Default::default(),
            }],
        ));
        x.messages.push(Message::new(
            Role::Assistant,
            vec![Part::ToolCall(ToolCall::new(
                Some("call_1".into()),
                "notes_delete",
                serde_json::json!({"note_id": "n-1"}),
            ))],
        ));
        let run = Run::new(Target::new(crate::live::Provider::default()), &x, 4);
        assert_eq!(run.phase, Phase::AwaitingResults);
        run
    }

    #[test]
    fn a_denied_call_is_an_error_result_saying_so() {
        let mut run = waiting();
        let call = run.pending_calls()[0].1.clone();
        run.submit(vec![denied(&call)]).unwrap();
        let last = run.exchange.messages.last().unwrap();
        let r = last.tool_results().next().unwrap();
        assert!(r.is_error);
        assert_eq!(r.call_id.as_deref(), Some("call_1"));
        assert!(r.content.to_text().contains("denied"), "{:?}", r.content);
    }

    #[test]
    fn a_server_result_goes_into_the_conversation_as_given() {
        let mut run = waiting();
        let call = run.pending_calls()[0].1.clone();
        let structured = serde_json::json!({"deleted": "n-1"});
        let given = GivenResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: "deleted note n-1".into(),
            is_error: false,
            source: "mcp".into(),
            result: Some(ToolResult::new(
                Some("other".into()),
                ResultContent::Json(structured.clone()),
            )),
        };
        run.submit(vec![given]).unwrap();
        let r = run
            .exchange
            .messages
            .last()
            .unwrap()
            .tool_results()
            .next()
            .unwrap()
            .clone();
        // The server's content, answering the model's own call id.
        assert_eq!(r.content, ResultContent::Json(structured));
        assert_eq!(r.call_id.as_deref(), Some("call_1"));
        assert_eq!(r.name.as_deref(), Some("notes_delete"));
    }

    #[test]
    fn mcp_traffic_is_kept_redacted_and_recorded() {
        let mut run = waiting();
        run.rounds.push(Round {
            number: 1,
            request: HttpRequest {
                method: "POST".into(),
                url: "http://x/v1/chat/completions".into(),
                headers: vec![],
                body: "{}".into(),
            },
            sent_at: 0.0,
            status: Some(200),
            response_headers: vec![],
            head_ms: None,
            elapsed_ms: None,
            events: vec![],
            body: String::new(),
            message: None,
            usage: None,
            error: None,
            aborted: false,
            partial: None,
            anomalies: vec![],
            results: vec![],
            traffic: vec![],
        });
        let req = HttpRequest {
            method: "POST".into(),
            url: "http://127.0.0.1:9/mcp".into(),
            headers: vec![(
                "authorization".into(),
                "Bearer mcp-secret-token-0123456789abcdef".into(),
            )],
            body: r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#.into(),
        };
        let mut t = ServerTraffic::new("http://127.0.0.1:9/mcp", &req, 0.0);
        t.status = 200;
        t.body = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#.into();
        run.add_traffic(t);
        let har = crate::live::record::har(&run);
        assert!(!har.contains("mcp-secret-token"), "{har}");
        let v: serde_json::Value = serde_json::from_str(&har).unwrap();
        let entries = v["log"]["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1]["_toolscope"]["mcp"], "http://127.0.0.1:9/mcp");
        assert!(entries[1]["request"]["postData"]["text"]
            .as_str()
            .unwrap()
            .contains("tools/call"));
    }
}
