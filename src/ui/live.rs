//! The live view: pick a provider, send the current exchange, watch the answer stream in, answer
//! the model's tool calls round after round, and keep the run as a recording. The loop itself
//! is [`crate::live::run::Run`]; this file wires it to fetch and to the page.
//!
//! Keys live in a signal of this view's state, per provider: never in the share state, the
//! autosave, the URL or the recording; in localStorage only after the explicit opt-in.

use super::io;
use super::state::{use_state, AppState, Origin};
use crate::formats::json;
use crate::live::fetch::{self, Flight, Progress};
use crate::live::keys::{origin_of, KeyFor, KeyRing};
use crate::live::run::{
    decide, denied, Decision, GivenResult, Mock, Mocks, Phase, Route, Run, DEFAULT_MAX_ROUNDS,
};
use crate::live::{checks, explain_network_failure, record, request, Blocked, Provider, Target};
use crate::model::{Exchange, Part, Role, ToolCall, ToolResult};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_futures::spawn_local;

/// localStorage key of the live settings (no key, no extra headers).
const SETTINGS_KEY: &str = "toolscope.live.v1";
/// localStorage key of the API keys, written only after "remember in this browser".
const KEYS_KEY: &str = "toolscope.keys.v1";
/// localStorage key of the saved mock results.
const MOCKS_KEY: &str = "toolscope.mocks.v1";

/// What the user typed for one pending call, or what its MCP server answered.
#[derive(Debug, Clone, PartialEq, Default)]
struct ResultDraft {
    content: String,
    is_error: bool,
    source: &'static str,
    /// The server's result (blocks, structured content), when a server answered.
    result: Option<ToolResult>,
    /// An MCP server answers this call once the user approves.
    ask: Option<Route>,
    /// Its server is answering it now.
    running: bool,
    /// It has its result (saved, from a server, or denied): Auto mode may go on.
    ready: bool,
}

/// The live view's state, in context: it outlives tab switches.
#[derive(Clone, Copy)]
pub struct LiveState {
    target: RwSignal<Target>,
    /// The model follows the exchange's model for the provider (until the user types one).
    model_auto: RwSignal<bool>,
    keys: RwSignal<KeyRing>,
    remember: RwSignal<bool>,
    auto: RwSignal<bool>,
    max_rounds: RwSignal<usize>,
    run: RwSignal<Option<Run>>,
    drafts: RwSignal<Vec<ResultDraft>>,
    mocks: RwSignal<Mocks>,
    flight: StoredValue<Option<Rc<Flight>>, LocalStorage>,
    /// The MCP servers whose tools the loop may call.
    mcp: super::mcp_client::McpState,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Settings {
    target: Target,
    #[serde(default = "yes")]
    model_auto: bool,
    auto: bool,
    max_rounds: usize,
}

impl LiveState {
    /// Restore the settings, the mocks and (if remembered) the keys.
    pub fn new() -> LiveState {
        let settings =
            io::load(SETTINGS_KEY).and_then(|s| serde_json::from_str::<Settings>(&s).ok());
        let keys = io::load(KEYS_KEY).and_then(|s| KeyRing::from_stored(&s));
        let mocks = io::load(MOCKS_KEY)
            .and_then(|s| serde_json::from_str::<Mocks>(&s).ok())
            .unwrap_or_default();
        let (target, auto, max_rounds, model_auto) = match settings {
            Some(s) => (s.target, s.auto, s.max_rounds.clamp(1, 50), s.model_auto),
            None => (
                Target::new(Provider::default()),
                false,
                DEFAULT_MAX_ROUNDS,
                true,
            ),
        };
        let live = LiveState {
            target: RwSignal::new(Target {
                extra_headers: String::new(),
                ..target
            }),
            model_auto: RwSignal::new(model_auto),
            remember: RwSignal::new(keys.is_some()),
            keys: RwSignal::new(keys.unwrap_or_default()),
            auto: RwSignal::new(auto),
            max_rounds: RwSignal::new(max_rounds),
            run: RwSignal::new(None),
            drafts: RwSignal::new(Vec::new()),
            mocks: RwSignal::new(mocks),
            flight: StoredValue::new_local(None),
            mcp: super::mcp_client::McpState::new(),
        };
        // Settings are saved as they change; keys only while "remember" is on.
        Effect::new(move |_| {
            let t = live.target.get();
            let s = Settings {
                // Never a secret at rest: no extra headers, no key or password in the URL.
                target: Target {
                    extra_headers: String::new(),
                    base_url: record::redact_url(&t.base_url),
                    ..t
                },
                model_auto: live.model_auto.get(),
                auto: live.auto.get(),
                max_rounds: live.max_rounds.get(),
            };
            if let Ok(text) = serde_json::to_string(&s) {
                io::save(SETTINGS_KEY, &text);
            }
        });
        Effect::new(move |_| {
            let keys = live.keys.get();
            if live.remember.get() {
                if let Ok(text) = serde_json::to_string(&keys) {
                    io::save(KEYS_KEY, &text);
                }
            } else {
                io::remove(KEYS_KEY);
            }
        });
        Effect::new(move |first: Option<()>| {
            let m = live.mocks.get();
            if first.is_some() {
                if let Ok(text) = serde_json::to_string(&m) {
                    io::save(MOCKS_KEY, &text);
                }
            }
        });
        live
    }

    /// The key a request to `target` may carry: the one kept for its provider, and only if
    /// it was typed for (or confirmed for) the target's origin. Never the form's key for a
    /// run with another target.
    fn key_for(&self, target: &Target) -> KeyFor {
        self.keys.with_untracked(|k| k.for_target(target))
    }

    /// The MCP servers section's state (provided to its components).
    pub fn mcp(&self) -> super::mcp_client::McpState {
        self.mcp
    }

    /// Where a request to `provider` goes under the Live settings (the Live target when it is
    /// that provider, else the provider's defaults), with `model`, and the key it may carry.
    /// For the Cost view's "Count exactly".
    pub fn target_for(&self, provider: Provider, model: &str) -> (Target, KeyFor) {
        let live = self.target.get_untracked();
        let same = crate::live::count::counter(live.provider) == Some(provider);
        let target = Target {
            model: model.to_string(),
            ..if same { live } else { Target::new(provider) }
        };
        let key = self.key_for(&target);
        (target, key)
    }
}

impl Default for LiveState {
    fn default() -> Self {
        Self::new()
    }
}

fn yes() -> bool {
    true
}

fn use_live() -> LiveState {
    expect_context::<LiveState>()
}

/// Put the run's conversation in the editors and panes. When the run's conversation no longer extends the editor's (it wrote its own answer in
/// place of the model's last turn), the editor's state is kept in the history and the notice
/// offers Undo.
fn sync(state: AppState, live: LiveState) {
    let Some(x) = live
        .run
        .with_untracked(|r| r.as_ref().map(|r| r.exchange.clone()))
    else {
        return;
    };
    let extends = state.exchange.with_untracked(|cur| {
        x.messages.len() >= cur.messages.len()
            && x.messages[..cur.messages.len()] == cur.messages[..]
    });
    if extends {
        state.extend_from_run(x);
        return;
    }
    replace_and_tell(
        state,
        x,
        "before the live run wrote its own answer",
        "The live run's answer took the place of the model's last turn in the conversation.",
    );
}

/// Put `x` in place of the exchange, keeping a checkpoint (`why`) the notice `told` can undo.
fn replace_and_tell(state: AppState, x: Exchange, why: &str, told: &str) {
    let undo = state.checkpoint(why);
    state.set_from(Origin::Outside, x);
    state.tell(told.into(), undo);
}

/// Add a stopped or failed round's partial answer to the conversation, on request.
fn append_partial(state: AppState, live: LiveState) {
    let Some(x) = live.run.with_untracked(|r| {
        let r = r.as_ref()?;
        let m = r.partial_turn()?.clone();
        let mut x = r.exchange.clone();
        x.messages.push(m);
        Some(x)
    }) else {
        return;
    };
    replace_and_tell(
        state,
        x,
        "before adding a partial answer",
        "Added the partial answer to the conversation as the model's last turn.",
    );
}

/// Fill the result forms for the calls now pending (a saved result first, where there is one);
/// in auto mode, answer and go on when every call has one.
fn on_round_end(state: AppState, live: LiveState) {
    // A stopped or failed round adds nothing: the conversation stays as it was before Send,
    // and what arrived stays in the round (with "Add the partial answer").
    let ended_badly = live.run.with_untracked(|r| {
        r.as_ref()
            .is_some_and(|r| matches!(r.phase, Phase::Failed | Phase::Stopped))
    });
    if !ended_badly {
        sync(state, live);
    }
    let Some((calls, candidates)) = live.run.with_untracked(|r| {
        r.as_ref()
            .filter(|r| r.phase == Phase::AwaitingResults)
            .map(|r| {
                let pending: Vec<ToolCall> =
                    r.pending_calls().into_iter().map(|(_, c)| c).collect();
                let c: Vec<Option<Mock>> = live.mocks.with_untracked(|m| {
                    pending
                        .iter()
                        .map(|c| m.candidates(&r.exchange, &c.name).into_iter().next())
                        .collect()
                });
                (pending, c)
            })
    }) else {
        return;
    };
    // A call of an MCP server's tool is answered by that server: at once for a read-only tool
    // in Auto mode, after Approve otherwise. Other calls take a saved result or the user's.
    let mcp = live.mcp;
    let auto = live.auto.get_untracked();
    let mut run_now = Vec::new();
    let drafts = calls
        .iter()
        .zip(candidates)
        .enumerate()
        .map(|(i, (call, c))| {
            let route = mcp.route(&call.name);
            match (decide(route.as_ref(), auto), route, c) {
                (Decision::Run, Some(route), _) => {
                    run_now.push((i, call.clone(), route));
                    ResultDraft {
                        source: "mcp",
                        running: true,
                        ..ResultDraft::default()
                    }
                }
                (Decision::Ask, Some(route), _) => ResultDraft {
                    source: "mcp",
                    ask: Some(route),
                    ..ResultDraft::default()
                },
                (_, _, Some(m)) => ResultDraft {
                    content: m.content,
                    is_error: m.is_error,
                    source: "mock",
                    ready: true,
                    ..ResultDraft::default()
                },
                _ => ResultDraft {
                    source: "typed",
                    ..ResultDraft::default()
                },
            }
        })
        .collect();
    live.drafts.set(drafts);
    for (i, call, route) in run_now {
        answer_by_server(state, live, i, call, route);
    }
    go_on_when_answered(state, live);
}

/// In Auto mode, send the next round once every pending call has its result.
fn go_on_when_answered(state: AppState, live: LiveState) {
    let all = live
        .drafts
        .with_untracked(|d| !d.is_empty() && d.iter().all(|d| d.ready));
    let waiting = live.run.with_untracked(|r| {
        r.as_ref()
            .is_some_and(|r| r.phase == Phase::AwaitingResults)
    });
    if all && waiting && live.auto.get_untracked() {
        continue_run(state, live);
    }
}

/// Have the call's MCP server answer pending call `i`; its result (or the failure, as an
/// error result the model reads) fills the call's draft, the traffic goes to the round.
fn answer_by_server(state: AppState, live: LiveState, i: usize, call: ToolCall, route: Route) {
    let mcp = live.mcp;
    live.drafts.update(|d| {
        if let Some(d) = d.get_mut(i) {
            d.ask = None;
            d.running = true;
        }
    });
    let run_id = live
        .run
        .with_untracked(|r| r.as_ref().map(|r| r.rounds.len()));
    spawn_local(async move {
        let (got, traffic) = super::mcp_client::call(
            mcp,
            &route.server,
            &route.tool,
            &call.arguments,
            call.id.clone(),
        )
        .await;
        // The run moved on (stopped, or another run began): this answer is no longer asked for.
        let same = live.run.with_untracked(|r| {
            r.as_ref().map(|r| r.rounds.len()) == run_id
                && r.as_ref()
                    .is_some_and(|r| r.phase == Phase::AwaitingResults)
        });
        if !same {
            return;
        }
        live.run.update(|r| {
            if let Some(r) = r.as_mut() {
                for t in traffic {
                    r.add_traffic(t);
                }
            }
        });
        let draft = match got {
            Ok(r) => ResultDraft {
                content: r.part.content.to_text(),
                is_error: r.is_error,
                source: "mcp",
                result: Some(r.part),
                ready: true,
                ..ResultDraft::default()
            },
            Err(e) => {
                state.say_error(format!(
                    "The MCP server did not answer the call of {}: {e} The model gets an error \
                     result saying so; the run goes on.",
                    call.name
                ));
                ResultDraft {
                    content: format!("The MCP server failed to run {}: {e}", route.tool),
                    is_error: true,
                    source: "mcp",
                    ready: true,
                    ..ResultDraft::default()
                }
            }
        };
        live.drafts.update(|d| {
            if let Some(x) = d.get_mut(i) {
                *x = draft;
            }
        });
        go_on_when_answered(state, live);
    });
}

/// The user denied pending call `i`: it is answered with an error result saying so.
fn deny(state: AppState, live: LiveState, i: usize, call: &ToolCall) {
    let g = denied(call);
    live.drafts.update(|d| {
        if let Some(x) = d.get_mut(i) {
            *x = ResultDraft {
                content: g.content,
                is_error: true,
                source: "denied",
                ready: true,
                ..ResultDraft::default()
            };
        }
    });
    go_on_when_answered(state, live);
}

/// True when the form now points somewhere else than the run (another provider or origin).
fn moved(live: LiveState) -> Option<String> {
    let now = live.target.get_untracked();
    live.run.with_untracked(|r| {
        let r = r.as_ref()?;
        if r.target.provider != now.provider {
            Some(format!(
                "The provider changed from {} to {}",
                r.target.provider.label(),
                now.provider.label()
            ))
        } else if origin_of(&r.target.base_url) != origin_of(&now.base_url) {
            Some(format!(
                "The base URL moved from {} to {}",
                origin_of(&r.target.base_url).unwrap_or_default(),
                origin_of(&now.base_url).unwrap_or_else(|| "an invalid address".into())
            ))
        } else {
            None
        }
    })
}

/// A run whose provider or origin changed in the form ends, saying why: its rounds never mix
/// two targets (nor one target's key with another's endpoint).
fn end_if_moved(state: AppState, live: LiveState) -> bool {
    let active = live.run.with_untracked(|r| {
        r.as_ref()
            .is_some_and(|r| matches!(r.phase, Phase::Sending | Phase::AwaitingResults))
    });
    if !active {
        return false;
    }
    let Some(why) = moved(live) else {
        return false;
    };
    stop(live);
    live.drafts.set(Vec::new());
    state.say_error(format!(
        "{why} during the run, so the run ended. The conversation is as it was; Send starts a new \
         run with the new settings."
    ));
    true
}

/// Submit the result forms and send the next round.
fn continue_run(state: AppState, live: LiveState) {
    if end_if_moved(state, live) {
        return;
    }
    let drafts = live.drafts.get_untracked();
    let mut failed = None;
    let edited = state.exchange.get_untracked();
    live.run.update(|r| {
        let Some(r) = r.as_mut() else { return };
        // Edits made while the run waited (a tool's description, the system prompt, an earlier
        // turn) go with the next round, as long as the turn being answered is still the last.
        if edited != r.exchange && edited.messages.last() == r.exchange.messages.last() {
            r.exchange = edited;
        }
        let given: Vec<GivenResult> = r
            .pending_calls()
            .into_iter()
            .zip(
                drafts
                    .iter()
                    .cloned()
                    .chain(std::iter::repeat(ResultDraft::default())),
            )
            .map(|((_, c), d)| GivenResult {
                call_id: c.id.clone(),
                name: c.name.clone(),
                content: d.content,
                is_error: d.is_error,
                source: if d.source.is_empty() {
                    "typed"
                } else {
                    d.source
                }
                .into(),
                result: d.result,
            })
            .collect();
        if let Err(e) = r.submit(given) {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        state.say_error(e);
        return;
    }
    live.drafts.set(Vec::new());
    sync(state, live);
    if live
        .run
        .with_untracked(|r| r.as_ref().is_some_and(Run::can_send))
    {
        send_round(state, live);
    }
}

/// Send the run's next round and feed it what arrives.
fn send_round(state: AppState, live: LiveState) {
    if end_if_moved(state, live) {
        return;
    }
    // The run's own target decides the key: the form may show another provider by now.
    let Some(run_target) = live
        .run
        .with_untracked(|r| r.as_ref().map(|r| r.target.clone()))
    else {
        return;
    };
    let key = match live.key_for(&run_target) {
        KeyFor::Bound(k) => k,
        KeyFor::Missing => String::new(),
        elsewhere @ KeyFor::Elsewhere { .. } => {
            state.say_error(format!(
                "Not sent: {}",
                elsewhere.problem().unwrap_or_default()
            ));
            live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.stop(fetch::now());
                }
            });
            return;
        }
    };
    if io::framed() {
        state.say_error("Not sent: this page is shown inside another site's frame, where it never sends keys. Open Toolscope in its own tab.");
        return;
    }
    let secure = io::page_secure();
    let Some(Ok(req)) = live.run.with_untracked(|r| {
        r.as_ref()
            .map(|r| request(&r.target, &key, &r.exchange, secure))
    }) else {
        if let Some(Err(Blocked(c))) = live.run.with_untracked(|r| {
            r.as_ref()
                .map(|r| request(&r.target, &key, &r.exchange, secure))
        }) {
            let text: Vec<String> = c.into_iter().map(|c| c.message).collect();
            state.say_error(format!("Not sent: {}", text.join(" ")));
        }
        return;
    };
    drop(key);
    let Some(flight) = Flight::new().map(Rc::new) else {
        state.say_error("This browser cannot abort requests (no AbortController).");
        return;
    };
    live.flight.set_value(Some(flight.clone()));
    live.run.update(|r| {
        if let Some(r) = r.as_mut() {
            r.begin(&req, fetch::now(), fetch::wall());
        }
    });
    let target = live.target.get_untracked();
    spawn_local(async move {
        let failure: Rc<RefCell<Option<String>>> = Rc::new(RefCell::new(None));
        let f2 = failure.clone();
        let signal = flight.signal();
        fetch::send(&req, &signal, move |p| match p {
            Progress::Head { status, headers } => live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.on_head(fetch::now(), status, headers);
                }
            }),
            Progress::Bytes(b) => live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.on_bytes(fetch::now(), &b);
                }
            }),
            Progress::End => live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.on_end(fetch::now());
                }
            }),
            Progress::Aborted => live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.stop(fetch::now());
                }
            }),
            Progress::Failed(m) => *f2.borrow_mut() = Some(m),
        })
        .await;
        let failed = failure.borrow_mut().take();
        if failed.is_some() {
            let at = fetch::now();
            // The browser hides why; a no-cors probe tells "unreachable" from "CORS refused".
            let base = target.base_url.trim().to_string();
            let reachable = fetch::reachable(&base).await;
            let text = explain_network_failure(&target, &req, &io::origin(), Some(reachable));
            live.run.update(|r| {
                if let Some(r) = r.as_mut() {
                    r.on_network_error(at, text);
                }
            });
        }
        live.flight.set_value(None);
        on_round_end(state, live);
    });
}

/// Start a new run from the current conversation.
fn start(state: AppState, live: LiveState) {
    if live
        .run
        .with_untracked(|r| r.as_ref().is_some_and(|r| r.phase == Phase::Sending))
    {
        return;
    }
    let target = live.target.get_untracked();
    let run = state
        .exchange
        .with_untracked(|x| Run::new(target.clone(), x, live.max_rounds.get_untracked()));
    if let Some(p) = run.problem() {
        state.say_error(p);
        return;
    }
    let waiting = run.phase == Phase::AwaitingResults;
    // A conversation that ends with the model's calls gets their results before anything is
    // sent; any other is sent as it stands, so it is checked now.
    if !waiting && !accepts_or_confirmed(state, &target) {
        return;
    }
    live.run.set(Some(run));
    live.drafts.set(Vec::new());
    if waiting {
        on_round_end(state, live);
    } else {
        send_round(state, live);
    }
}

/// Before Send: the request body in the target's format, checked against its provider's
/// conversation rules. A request the provider will reject is sent only when the user says so
/// (the findings are named in the question).
fn accepts_or_confirmed(state: AppState, target: &Target) -> bool {
    let format = target.format();
    if format.is_text() {
        return true;
    }
    let text = state
        .exchange
        .with_untracked(|x| format.encode(x, crate::formats::Kind::Request).text);
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return true;
    };
    let found: Vec<String> = format
        .rules()
        .check(&doc)
        .into_iter()
        .filter(|f| f.severity == crate::rules::Severity::Error)
        .map(|f| {
            let words = f
                .rule()
                .and_then(|r| r.error.map(|e| format!(" {} says: \"{e}\"", r.provider)))
                .unwrap_or_default();
            format!(
                "• {} at {}: {}.{words} [{}]",
                format.name(),
                f.pointer,
                f.message,
                f.rule
            )
        })
        .collect();
    if found.is_empty() {
        return true;
    }
    let question = format!(
        "{} will reject this request:\n\n{}\n\nThe pane's checks offer a fix. Send anyway?",
        format.name(),
        found.join("\n")
    );
    let yes = web_sys::window()
        .and_then(|w| w.confirm_with_message(&question).ok())
        .unwrap_or(false);
    if !yes {
        state.say_error(format!(
            "Not sent: {} would reject it ({}). See the {} pane's checks for the fix.",
            format.name(),
            found.len(),
            format.name()
        ));
    }
    yes
}

fn stop(live: LiveState) {
    if let Some(f) = live.flight.get_value() {
        f.abort();
    }
    live.run.update(|r| {
        if let Some(r) = r.as_mut() {
            r.stop(fetch::now());
        }
    });
}

fn ms(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else {
        format!("{v:.0} ms")
    }
}

/// The live view.
#[component]
pub fn LiveView() -> impl IntoView {
    let state = use_state();
    let live = use_live();
    let target = live.target;
    let provider = Memo::new(move |_| target.with(|t| t.provider));
    let set = move |f: fn(&mut Target, String)| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            target.update(|t| f(t, v));
        }
    };
    let pick_provider = move |ev: leptos::ev::Event| {
        let Some(p) = Provider::from_id(&event_target_value(&ev)) else {
            return;
        };
        target.update(|t| {
            let old = t.provider;
            let keep_url = !t.base_url.trim().is_empty()
                && t.base_url.trim() != old.default_base_url()
                && old.shares_base_with(p);
            if !keep_url {
                t.base_url = p.default_base_url().into();
            }
            if t.model.trim().is_empty() || t.model == old.default_model() {
                t.model = p.default_model().into();
            }
            t.provider = p;
        });
    };
    // The model the exchange gives this provider (the panes and snippets send the same one),
    // unless the user typed another here. A compatible base URL speaking plain Chat
    // Completions is a local or third-party server: its model is the user's to name.
    let exchange_model = Memo::new(move |_| {
        let (format, any_server) = target.with(|t| (t.format(), t.any_server()));
        if any_server {
            return None;
        }
        state
            .exchange
            .with(|x| x.model_for_format(format).map(|m| m.name))
    });
    Effect::new(move |_| {
        if !live.model_auto.get() {
            return;
        }
        if let Some(m) = exchange_model.get() {
            if target.with_untracked(|t| t.model != m) {
                target.update(|t| t.model = m);
            }
        }
    });
    let framed = io::framed();
    let key_value = move || {
        if framed {
            return String::new();
        }
        let p = provider.get();
        live.keys
            .with(|k| k.entry(p).map(|e| e.key.clone()).unwrap_or_default())
    };
    // A key is bound to the origin of the base URL it is typed for.
    let set_key = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        let (p, url) = target.with_untracked(|t| (t.provider, t.base_url.clone()));
        live.keys.update(|k| k.set(p, &v, &url));
    };
    let key_for = Memo::new(move |_| {
        live.keys.track();
        target.with(|t| live.key_for(t))
    });
    let key_origin = move || {
        let p = provider.get();
        live.keys.with(|k| k.entry(p).map(|e| e.origin.clone()))
    };
    // A run ends when its provider or origin changes in the form, instead of mixing them.
    Effect::new(move |_| {
        target.with(|t| (t.provider, origin_of(&t.base_url)));
        end_if_moved(state, live);
    });
    let found = Memo::new(move |_| {
        let key = key_value();
        target.with(|t| checks(t, &key, io::page_secure()))
    });
    let blocked = move || {
        framed
            || found.with(|c| c.iter().any(|c| c.blocks))
            || key_for.with(|k| matches!(k, KeyFor::Elsewhere { .. }))
    };
    let sending = Memo::new(move |_| {
        live.run
            .with(|r| r.as_ref().is_some_and(|r| r.phase == Phase::Sending))
    });
    let awaiting = Memo::new(move |_| {
        live.run.with(|r| {
            r.as_ref()
                .is_some_and(|r| r.phase == Phase::AwaitingResults)
        })
    });
    let retryable = Memo::new(move |_| {
        live.run.with(|r| {
            r.as_ref()
                .is_some_and(|r| matches!(r.phase, Phase::Failed | Phase::Stopped))
        })
    });
    let plan = move || {
        state.exchange.with(|x| {
            let run = Run::new(target.get(), x, 1);
            let n = run.exchange.messages.len();
            let mut s = format!(
                "Sends the current conversation ({n} message{}) to {}",
                if n == 1 { "" } else { "s" },
                target.with(|t| crate::live::record::redact_url(&t.endpoint()))
            );
            if run.dropped > 0 {
                s.push_str(&format!(
                    "; the model's last turn ({}) is left out: the run writes its own",
                    run.dropped
                ));
            }
            if run.phase == Phase::AwaitingResults {
                s.push_str(
                    "; it ends with calls waiting for results, so the run asks for them first",
                );
            }
            s.push('.');
            s
        })
    };
    let remember_toggle = move |ev: leptos::ev::Event| {
        live.remember.set(event_target_checked(&ev));
    };

    view! {
        <div class="live" data-testid="live">
            <section class="card live-form" aria-labelledby="live-title">
                <div class="block-head">
                    <h3 id="live-title">"Live call"</h3>
                    <span class="muted small-text">"Requests go from this page straight to the provider; nothing passes through a server of ours."</span>
                </div>
                <div class="row wrap">
                    <label class="field">
                        <span>"Provider"</span>
                        <select data-testid="live-provider" aria-label="Provider" on:change=pick_provider
                            prop:value=move || provider.get().id()>
                            {Provider::all().map(|p| view! {
                                <option value=p.id() selected=move || provider.get() == p>{p.label()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field grow">
                        <span>"Base URL"</span>
                        <input type="url" class="mono" data-testid="live-base-url" aria-label="Base URL" spellcheck="false"
                            prop:value=move || target.with(|t| t.base_url.clone())
                            on:input=set(|t, v| t.base_url = v) />
                    </label>
                    <label class="field">
                        <span>"Model"</span>
                        <input type="text" class="mono" data-testid="live-model" aria-label="Model" spellcheck="false"
                            title="Empty: the exchange's model for this provider (Model per provider in the editor)"
                            prop:value=move || target.with(|t| t.model.clone())
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                live.model_auto.set(v.trim().is_empty());
                                target.update(|t| t.model = v);
                            } />
                    </label>
                </div>
                <div class="row wrap">
                    <label class="field grow">
                        <span>{move || format!("API key ({}, sent as {})", provider.get().label(), provider.get().key_header())}</span>
                        <input type="password" class="mono" data-testid="live-key" aria-label="API key" autocomplete="off" spellcheck="false"
                            disabled=framed
                            placeholder=move || if framed { "keys are refused inside a frame" } else if provider.get().needs_key() { "paste your key" } else { "optional for local servers" }
                            prop:value=key_value on:input=set_key />
                        <span class="muted small-text" data-testid="live-key-origin">{move || match key_origin() {
                            Some(o) if !o.is_empty() => format!("sent only to {o}"),
                            Some(_) => "bound to no address: confirm where it may go".to_string(),
                            None => target.with(|t| origin_of(&t.base_url))
                                .map(|o| format!("will be sent only to {o}"))
                                .unwrap_or_default(),
                        }}</span>
                    </label>
                    <label class="check" title="Stores the keys unencrypted in this browser's localStorage">
                        <input type="checkbox" data-testid="live-remember" prop:checked=move || live.remember.get() on:change=remember_toggle />
                        "Remember keys in this browser"
                    </label>
                </div>
                <Show when=move || framed>
                    <p class="warn-note" role="alert" data-testid="live-framed">
                        "This page is shown inside another page's frame, which could watch what you type: keys are refused here. Open Toolscope in its own tab to call a provider."
                    </p>
                </Show>
                <Show when=move || key_for.with(|k| matches!(k, KeyFor::Elsewhere { .. }))>
                    <div class="warn-note" role="alert" data-testid="live-key-elsewhere">
                        <span>{move || key_for.with(|k| k.problem().unwrap_or_default())}</span>
                        " "
                        <button type="button" class="ghost small" data-testid="live-key-confirm"
                            on:click=move |_| {
                                let (p, url) = target.with_untracked(|t| (t.provider, t.base_url.clone()));
                                live.keys.update(|k| k.confirm(p, &url));
                            }>{move || format!("Send this key to {}", target.with(|t| origin_of(&t.base_url).unwrap_or_default()))}</button>
                    </div>
                </Show>
                <Show when=move || live.remember.get()>
                    <p class="warn-note" role="note" data-testid="live-remember-warning">
                        "Keys are now stored unencrypted in this browser's localStorage: anyone using this browser profile, and any script running on this page's origin, can read them. Untick to erase them."
                    </p>
                </Show>
                <details class="live-more">
                    <summary>"Extra headers"</summary>
                    <label class="field">
                        <span>"Extra headers (one Name: value per line; kept in memory only, redacted in recordings when they look like credentials)"</span>
                        <textarea class="mono" rows="2" data-testid="live-headers" aria-label="Extra headers" spellcheck="false"
                            placeholder="HTTP-Referer: https://example.com"
                            prop:value=move || target.with(|t| t.extra_headers.clone())
                            on:change=set(|t, v| t.extra_headers = v)></textarea>
                    </label>
                </details>
                <div class="row wrap">
                    <label class="check">
                        <input type="checkbox" data-testid="live-stream" prop:checked=move || target.with(|t| t.stream)
                            on:change=move |ev| { let on = event_target_checked(&ev); target.update(|t| t.stream = on) } />
                        "Stream the answer"
                    </label>
                    <label class="field inline">
                        <span>"Mode"</span>
                        <select aria-label="Mode" data-testid="live-mode"
                            title="Step: pause at every round with tool calls. Auto: answer calls with their saved result, run read-only MCP tools unasked, and pause only where a call has no result or a tool needs approval."
                            on:change=move |ev| live.auto.set(event_target_value(&ev) == "auto")>
                            <option value="step" selected=move || !live.auto.get()>"Step"</option>
                            <option value="auto" selected=move || live.auto.get()>"Auto (saved results, read-only MCP tools)"</option>
                        </select>
                    </label>
                    <label class="field inline">
                        <span>"Round limit"</span>
                        <input type="number" min="1" max="50" data-testid="live-max-rounds" aria-label="Round limit" class="narrow"
                            prop:value=move || live.max_rounds.get().to_string()
                            on:change=move |ev| {
                                if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                                    live.max_rounds.set(n.clamp(1, 50));
                                }
                            } />
                    </label>
                </div>
                <ul class="live-checks" data-testid="live-checks">
                    {move || found.get().into_iter().map(|c| view! {
                        <li class=if c.blocks { "blocks" } else { "warns" } data-field=c.field>{c.message}</li>
                    }).collect_view()}
                </ul>
                <Show when=move || !(sending.get() || awaiting.get())>
                    <p class="muted small-text" data-testid="live-plan">{plan}</p>
                </Show>
                <div class="row wrap live-actions">
                    <button type="button" class="primary" data-testid="live-send"
                        disabled=move || blocked() || sending.get()
                        on:click=move |_| start(state, live)>"Send"</button>
                    <button type="button" class="ghost" data-testid="live-stop"
                        disabled=move || !(sending.get() || awaiting.get())
                        on:click=move |_| stop(live)>"Stop"</button>
                    <Show when=move || retryable.get()>
                        <button type="button" class="ghost" data-testid="live-retry"
                            disabled=blocked
                            on:click=move |_| {
                                // Send again with the form as it is now (a corrected base URL,
                                // model or key); another provider starts a new run.
                                let t = live.target.get_untracked();
                                if live.run.with_untracked(|r| r.as_ref().is_some_and(|r| r.target.provider != t.provider)) {
                                    start(state, live);
                                    return;
                                }
                                live.run.update(|r| if let Some(r) = r.as_mut() { r.target = t; r.retry() });
                                if live.run.with_untracked(|r| r.as_ref().is_some_and(Run::can_send)) {
                                    send_round(state, live);
                                } else {
                                    on_round_end(state, live);
                                }
                            }>"Send this round again"</button>
                    </Show>
                </div>
            </section>
            <super::mcp::McpServers />
            <RunLog />
        </div>
    }
}

/// The rounds of the run, the answer streaming in, the result forms, the recording.
#[component]
fn RunLog() -> impl IntoView {
    let state = use_state();
    let live = use_live();
    let rounds = Memo::new(move |_| live.run.with(|r| r.as_ref().map_or(0, |r| r.rounds.len())));
    let status = move || {
        live.run.with(|r| {
            let Some(r) = r else {
                return "No run yet: Send starts one from the current conversation.".to_string();
            };
            let u = r.total_usage();
            let phase = match &r.phase {
                Phase::Ready => "ready".to_string(),
                Phase::Sending => format!("round {} in flight", r.rounds.len()),
                Phase::AwaitingResults => "waiting for your tool results".into(),
                Phase::Done {
                    reason: crate::live::run::Finish::Answered,
                } => "the model answered".into(),
                Phase::Done {
                    reason: crate::live::run::Finish::RoundLimit,
                } => {
                    format!("stopped at the round limit ({})", r.max_rounds)
                }
                Phase::Failed => "failed".into(),
                Phase::Stopped => "stopped".into(),
            };
            format!(
                "Run: {phase} · {} round{} · {} input + {} output tokens",
                r.rounds.len(),
                if r.rounds.len() == 1 { "" } else { "s" },
                u.input_tokens,
                u.output_tokens
            )
        })
    };
    let har = move || live.run.with_untracked(|r| r.as_ref().map(record::har));
    let open_replay = move |_| {
        if let Some(h) = har() {
            state.replay.set(Some(h));
            state.right_tab.set(super::tabs::RightTab::Replay);
            state.say("The run's recording is open in Replay (one HAR entry per round; pick a round above the timeline).");
        }
    };
    let export = move |_| {
        if let Some(h) = har() {
            io::download("toolscope-run.har", &h);
            state.say("Exported toolscope-run.har (keys and credential headers redacted).");
        }
    };
    let share = move |_| {
        if let Some(h) = har() {
            state.replay.set(Some(h));
            // After the autosave has seen the new replay (it clears a link that no longer
            // says the state), so the link made here stays in the address.
            set_timeout(
                move || super::commands::share_now(state),
                std::time::Duration::ZERO,
            );
        }
    };
    view! {
        <section class="card live-run" aria-labelledby="run-title" data-testid="live-run">
            <div class="block-head">
                <h3 id="run-title">"Run"</h3>
                <span class="muted small-text" role="status" data-testid="live-status">{status}</span>
            </div>
            <Show when=move || rounds.get() != 0>
                <div class="row wrap live-actions">
                    <span class="muted small-text">"Recording:"</span>
                    <button type="button" class="ghost small" data-testid="live-open-replay" on:click=open_replay>"Open in Replay"</button>
                    <button type="button" class="ghost small" data-testid="live-export" on:click=export>"Export .har"</button>
                    <button type="button" class="ghost small" data-testid="live-share" on:click=share>"Share link with the recording"</button>
                </div>
            </Show>
            {move || (0..rounds.get()).map(|i| view! { <RoundView i=i /> }).collect_view()}
            <Show when=move || live.run.with(|r| r.as_ref().is_some_and(|r| r.phase == Phase::AwaitingResults))>
                <ResultForms />
            </Show>
        </section>
    }
}

/// The provider rule a failed round's error body names, for the run's target format.
fn named_rule(live: LiveState, body: &str) -> Option<&'static crate::rules::Rule> {
    let format = live
        .run
        .with_untracked(|r| r.as_ref().map(|r| r.target.format()))?;
    format.rules().match_error(body)
}

/// What a round shows once it ended (or failed): compared, so a streamed chunk re-renders only
/// the head line and the streaming view, never the whole round.
#[derive(Clone, PartialEq)]
struct Settled {
    message: Option<crate::model::Message>,
    partial: Option<crate::model::Message>,
    error: Option<crate::live::error::ProviderError>,
    results: Vec<GivenResult>,
    aborted: bool,
}

/// One round: request, timing, usage, the answer (live while it streams), the failure.
#[component]
fn RoundView(i: usize) -> impl IntoView {
    let state = use_state();
    let live = use_live();
    let last_ended = move || {
        live.run.with(|r| {
            r.as_ref().is_some_and(|r| {
                r.rounds.len() == i + 1 && matches!(r.phase, Phase::Failed | Phase::Stopped)
            })
        })
    };
    let head = Memo::new(move |_| {
        live.run.with(|r| {
            let r = r.as_ref()?.rounds.get(i)?;
            Some(format!(
                "Round {} · {} · {}{}{}{}",
                r.number,
                match (r.status, &r.error) {
                    (Some(s), _) => format!("HTTP {s}"),
                    (None, Some(_)) => "no answer".into(),
                    (None, None) => "waiting…".into(),
                },
                r.elapsed_ms.map(ms).unwrap_or_else(|| "…".into()),
                r.head_ms
                    .map(|h| format!(" (first byte {})", ms(h)))
                    .unwrap_or_default(),
                if r.events.is_empty() {
                    String::new()
                } else {
                    format!(" · {} events", r.events.len())
                },
                r.usage
                    .as_ref()
                    .map(|u| format!(" · {} in / {} out tokens", u.input_tokens, u.output_tokens))
                    .unwrap_or_default(),
            ))
        })
    });
    let settled = Memo::new(move |_| {
        live.run.with(|r| {
            let r = r.as_ref()?.rounds.get(i)?;
            Some(Settled {
                message: r.message.clone(),
                partial: r.partial.clone(),
                error: r.error.clone(),
                results: r.results.clone(),
                aborted: r.aborted,
            })
        })
    });
    // The request text is built only while its disclosure is open.
    let open = RwSignal::new(false);
    let request_text = move || {
        live.run.with_untracked(|r| {
            let r = r.as_ref()?.rounds.get(i)?;
            Some(format!(
                "{} {}\n{}\n\n{}",
                r.request.method,
                r.request.url,
                r.request
                    .headers
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                r.request.body
            ))
        })
    };
    let in_flight = move || {
        live.run.with(|r| {
            r.as_ref()
                .is_some_and(|r| r.phase == Phase::Sending && r.rounds.len() == i + 1)
        })
    };
    let live_state = move || live.run.with(|r| r.as_ref().and_then(|r| r.live_state()));
    view! {
        <article class="round" data-testid=format!("live-round-{}", i + 1)>
            <h4>{move || head.get()}</h4>
            <details on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let is_open = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open());
                open.set(is_open);
            }>
                <summary>"Request (as sent, key redacted)"</summary>
                <Show when=move || open.get()>
                    <pre class="small-code mono">{request_text}</pre>
                </Show>
            </details>
            {move || settled.get().map(|s| view! {
                {s.aborted.then(|| view! { <p class="warn-note" data-testid="live-aborted">"Stopped by you: the conversation is as it was before Send; what arrived is kept here and in the recording."</p> })}
                {s.partial.map(|m| view! {
                    <div class="partial" data-testid="live-partial">
                        <p class="muted small-text">"Received before the round ended:"</p>
                        <Turn m=m />
                        <Show when=last_ended>
                            <button type="button" class="ghost small" data-testid="live-append-partial"
                                on:click=move |_| append_partial(state, live)>"Add the partial answer to the conversation"</button>
                        </Show>
                    </div>
                })}
                {s.error.map(|e| view! {
                    <div class="live-error" role="alert" data-testid="live-error">
                        <p><strong>{if e.status == 0 { "Request failed".to_string() } else { format!("HTTP {}", e.status) }}</strong>
                            {e.kind.map(|k| format!(" · {k}"))}
                            {e.retry_after.map(|r| format!(" · retry after {r} s"))}</p>
                        <p data-testid="live-error-message">{e.message.clone()}</p>
                        {named_rule(live, &e.body).map(|r| view! {
                            <p class="live-rule" data-testid="live-error-rule">
                                "This is the rule " <code>{r.id}</code> ": " {r.advice} " "
                                <a href=r.source.url() target="_blank" rel="noopener noreferrer">{r.source.label()}</a>
                            </p>
                        })}
                        {e.hint.map(|h| view! { <p class="muted">{h}</p> })}
                        {(!e.body.is_empty()).then(|| view! {
                            <details><summary>"Response body"</summary><pre class="small-code mono">{e.body}</pre></details>
                        })}
                    </div>
                })}
                {s.message.map(|m| view! { <Turn m=m /> })}
                {(!s.results.is_empty()).then(|| view! {
                    <ul class="given">
                        {s.results.into_iter().map(|g| view! {
                            <li>{format!("{} ← {}{} ({})", g.name, if g.is_error { "error: " } else { "" }, g.content, g.source)}</li>
                        }).collect_view()}
                    </ul>
                })}
            })}
            <Show when=in_flight>
                <div class="streaming" data-testid="live-streaming" aria-live="polite">
                    {move || live_state().map(|s| view! {
                        {(!s.reasoning.is_empty()).then(|| view! {
                            <details class="reasoning" data-testid="live-reasoning">
                                <summary class="muted">{format!("Reasoning · {} chars", s.reasoning.chars().count())}</summary>
                                <p class="muted">{s.reasoning.clone()}</p>
                            </details>
                        })}
                        {(!s.text.is_empty()).then(|| view! { <p class="stream-text">{s.text.clone()}</p> })}
                        {s.calls.iter().map(|c| view! {
                            <p class="mono">{format!("{}({}){}", c.name, c.arguments, if c.closed { "" } else { " …" })}</p>
                        }).collect_view()}
                    })}
                </div>
            </Show>
        </article>
    }
}

/// The model's turn of a round.
#[component]
fn Turn(m: crate::model::Message) -> impl IntoView {
    let parts = m
        .parts
        .into_iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } if !text.is_empty() => {
                Some(view! { <div class="answer" data-testid="live-answer"><super::shared::Markdown text=text.clone() /></div> }.into_any())
            }
            Part::Reasoning(r) => Some(
                view! {
                    <details class="reasoning" data-testid="live-turn-reasoning">
                        <summary class="muted">{match &r.opaque {
                            Some(o) => format!("Reasoning · {}", o.what()),
                            None => "Reasoning".to_string(),
                        }}</summary>
                        <p class="muted">{r.readable()}</p>
                    </details>
                }
                .into_any(),
            ),
            Part::Hosted(h) => Some(
                view! { <p class="mono call-line muted">{format!("⇢ {} (run by the provider)", h.what())}</p> }.into_any(),
            ),
            Part::ToolCall(c) => Some(
                view! {
                    <p class="mono call-line">{format!("→ {}({})", c.name, c.arguments_text())}
                        {c.id.map(|id| view! { <span class="muted">{format!("  id {id}")}</span> })}</p>
                }
                .into_any(),
            ),
            _ => None,
        })
        .collect_view();
    view! { <div class="turn" data-role=if m.role == Role::Assistant { "assistant" } else { "other" }>{parts}</div> }
}

/// One form per pending call: the arguments and their errors, the result, saved results.
#[component]
fn ResultForms() -> impl IntoView {
    let state = use_state();
    let live = use_live();
    let calls = Memo::new(move |_| {
        live.run.with(|r| {
            r.as_ref()
                .map(|r| {
                    let findings = r.pending_findings();
                    r.pending_calls()
                        .into_iter()
                        .zip(findings)
                        .map(|((_, c), f)| {
                            let mocks = live.mocks.with(|m| m.candidates(&r.exchange, &c.name));
                            (c, f, mocks)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let rounds_left = move || {
        live.run.with(|r| {
            r.as_ref()
                .map(|r| r.max_rounds.saturating_sub(r.rounds.len()))
                .unwrap_or(0)
        })
    };
    view! {
        <div class="result-forms" data-testid="live-results">
            <h4>"The model asks for tools: give each call its result"</h4>
            {move || calls.get().into_iter().enumerate().map(|(i, (c, findings, mocks))| {
                let id_label = c.id.clone().map(|id| format!(" ({id})")).unwrap_or_else(|| format!(" (call {})", i + 1));
                let label = format!("Result of {}{}", c.name, id_label);
                let args = json::pretty(&c.arguments);
                let tool = c.name.clone();
                let tool2 = c.name.clone();
                let content = move || live.drafts.with(|d| d.get(i).map(|d| d.content.clone()).unwrap_or_default());
                let is_error = move || live.drafts.with(|d| d.get(i).is_some_and(|d| d.is_error));
                let edit = move |f: Box<dyn FnOnce(&mut ResultDraft)>| {
                    live.drafts.update(|d| {
                        if d.len() <= i { d.resize(i + 1, ResultDraft::default()); }
                        if let Some(x) = d.get_mut(i) { f(x); }
                    });
                };
                let mocks_for_pick = mocks.clone();
                let ask = move || live.drafts.with(|d| d.get(i).and_then(|d| d.ask.clone()));
                let running = move || live.drafts.with(|d| d.get(i).is_some_and(|d| d.running));
                let from_server = move || live.drafts.with(|d| d.get(i).map(|d| (d.source, d.ready)));
                let call_for_deny = c.clone();
                view! {
                    <fieldset class="call-form" data-testid=format!("live-call-{i}")>
                        <legend class="mono">{format!("{}{}", c.name, id_label)}</legend>
                        <pre class="small-code mono" aria-label=format!("Arguments of {}", c.name)>{args}</pre>
                        {move || ask().map(|route| {
                            let call = call_for_deny.clone();
                            let call2 = call_for_deny.clone();
                            view! {
                                <div class="warn-note mcp-approval" role="group" aria-label="Approval" data-testid="live-approval">
                                    <p>{format!("The MCP server {} runs {} with these arguments once you approve{}.", route.server, route.tool,
                                        if route.read_only { "" } else { " (the tool is not marked read-only: it may change things)" })}</p>
                                    <button type="button" class="primary small" data-testid="live-approve"
                                        on:click=move |_| answer_by_server(state, live, i, call.clone(), route.clone())>"Approve"</button>
                                    " "
                                    <button type="button" class="ghost small" data-testid="live-deny"
                                        on:click=move |_| deny(state, live, i, &call2)>"Deny"</button>
                                </div>
                            }
                        })}
                        <Show when=running>
                            <p class="muted small-text" data-testid="live-mcp-running">"Its MCP server is answering…"</p>
                        </Show>
                        {move || match from_server() {
                            Some(("mcp", true)) => Some(view! { <p class="ok-note small-text" data-testid="live-mcp-answered">"Answered by its MCP server."</p> }.into_any()),
                            Some(("denied", true)) => Some(view! { <p class="warn-note small-text" data-testid="live-denied">"Denied: the model is told the call was not run."</p> }.into_any()),
                            _ => None,
                        }}
                        {if findings.is_empty() {
                            view! { <p class="ok-note small-text">"Arguments match the tool's schema."</p> }.into_any()
                        } else {
                            view! { <ul class="arg-errors" data-testid="live-arg-errors">
                                {findings.into_iter().map(|f| view! { <li>{f.message}</li> }).collect_view()}
                            </ul> }.into_any()
                        }}
                        <label class="field">
                            <span>{label.clone()}</span>
                            <textarea class="mono" rows="3" aria-label=label.clone()
                                prop:value=content
                                on:input=move |ev| { let v = event_target_value(&ev); edit(Box::new(move |d| { d.content = v; d.source = "typed"; })) }></textarea>
                        </label>
                        <div class="row wrap">
                            <label class="check">
                                <input type="checkbox" prop:checked=is_error
                                    on:change=move |ev| { let on = event_target_checked(&ev); edit(Box::new(move |d| d.is_error = on)) } />
                                "Error result"
                            </label>
                            <label class="field inline">
                                <span>{format!("Saved results for {} ({})", c.name, mocks.len())}</span>
                                <select disabled=mocks.is_empty() on:change=move |ev| {
                                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                                        if let Some(m) = mocks_for_pick.get(k).cloned() {
                                            edit(Box::new(move |d| { d.content = m.content; d.is_error = m.is_error; d.source = "mock"; }));
                                        }
                                    }
                                }>
                                    <option value="">"pick…"</option>
                                    {mocks.iter().enumerate().map(|(k, m)| view! {
                                        <option value=k.to_string()>{format!("{}{}", if m.is_error { "error: " } else { "" }, m.content.chars().take(60).collect::<String>())}</option>
                                    }).collect_view()}
                                </select>
                            </label>
                            <button type="button" class="ghost small" on:click=move |_| {
                                let d = live.drafts.with_untracked(|d| d.get(i).cloned().unwrap_or_default());
                                live.mocks.update(|m| m.save(&tool, Mock { content: d.content, is_error: d.is_error }));
                                state.say(format!("Saved as a result for {tool2}: auto mode will use it."));
                            }>"Save as mock"</button>
                        </div>
                    </fieldset>
                }
            }).collect_view()}
            <div class="row wrap">
                <button type="button" class="primary" data-testid="live-continue"
                    disabled=move || live.drafts.with(|d| d.iter().any(|d| d.ask.is_some() || d.running))
                    on:click=move |_| continue_run(state, live)>"Continue"</button>
                <span class="muted small-text">{move || {
                    let n = rounds_left();
                    if n == 0 { "Round limit reached: Continue adds the results and ends the run.".to_string() } else { format!("{n} round{} left before the limit.", if n == 1 { "" } else { "s" }) }
                }}</span>
            </div>
        </div>
    }
}
