//! The replay view: a provider stream (recorded, pasted, a HAR file, a plain response) assembled
//! step by step — the timeline, the raw event, each call's growing arguments with the partial
//! JSON parsed as far as it goes, the anomalies — and at the end the assembled turn in every
//! format. Plus the reverse view: the stream each provider would send for the current turn.

use super::cm::CodeEditor;
use super::io;
use super::state::{use_state, AppState};
use crate::examples::STREAMS;
use crate::formats::Protocol;
use crate::formats::{json, Format, Kind};
use crate::model::{Exchange, Part};
use crate::replay::{LoadOptions, Replay, Snapshot};
use crate::stream::har;
use crate::stream::{partial, Anomaly, AnomalyKind};
use crate::synth::synthesize;
use leptos::prelude::*;
use std::sync::Arc;

/// Events shown around the current step in the timeline list (the rest are reached by the
/// seek bar: a 10,000-event stream must not put 10,000 rows in the page).
const WINDOW: usize = 40;

/// Put `text` in the replay view with its secrets redacted first (a devtools HAR carries the
/// bearer token, cookies, `set-cookie`, `?api_key=`): nothing unredacted is shown, autosaved or
/// shared. Says how many values were removed; `opened` names the source for the notice (`None`:
/// a quiet edit, which speaks only when something was removed).
pub fn set_replay(state: AppState, text: String, opened: Option<&str>) {
    let (text, n) = crate::redact::replay_text(&text);
    state.replay.set(Some(text));
    let removed = match n {
        0 => String::new(),
        1 => " — 1 secret value was removed (credential header, cookie or key) before it was \
               shown or kept"
            .to_string(),
        n => format!(
            " — {n} secret values were removed (credential headers, cookies, keys) before they \
             were shown or kept"
        ),
    };
    match opened {
        Some(name) => state.say(format!("Replaying {name}{removed}.")),
        None if n > 0 => state.say(format!("Pasted stream{removed}.")),
        None => {}
    }
}

/// The replay view.
#[component]
pub fn ReplayView() -> impl IntoView {
    let state = use_state();
    let input = Signal::derive(move || {
        state.replay.get().unwrap_or_else(|| {
            STREAMS
                .first()
                .map(|s| s.text.to_string())
                .unwrap_or_default()
        })
    });
    let protocol: RwSignal<Option<Protocol>> = RwSignal::new(None);
    let har_entry: RwSignal<Option<usize>> = RwSignal::new(None);
    // A HAR file's exchanges, for the picker (empty for any other input).
    let har_entries = Memo::new(move |_| {
        input.with(|t| {
            serde_json::from_str::<serde_json::Value>(t)
                .ok()
                .filter(har::is_har)
                .and_then(|v| har::entries(&v).ok())
                .map(|es| {
                    es.into_iter()
                        .map(|e| {
                            (
                                e.index,
                                format!("{} {} {} ({})", e.status, e.method, e.url, e.mime),
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let loaded: RwSignal<Option<Arc<Replay>>> = RwSignal::new(None);
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let step = RwSignal::new(0usize);
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(150u64);

    // Load (detect, frame, assemble) whenever the input or the override changes; the last good
    // replay stays on screen while the input does not load.
    Effect::new(move |_| {
        let text = input.get();
        let opts = LoadOptions {
            protocol: protocol.get(),
            har_entry: har_entry.get(),
        };
        match Replay::load(&text, opts) {
            Ok(r) => {
                error.set(None);
                step.set(0);
                playing.set(false);
                loaded.set(Some(Arc::new(r)));
            }
            // The page's control is the Protocol picker, not the command line's --format.
            Err(crate::replay::ReplayError::Undetected { first }) => error.set(Some(format!(
                "cannot tell the protocol from the events (first event: {first}); pick it in the Protocol menu above"
            ))),
            Err(e) => error.set(Some(e.to_string())),
        }
    });
    let len = Memo::new(move |_| loaded.with(|r| r.as_ref().map_or(0, |r| r.len())));
    // The state after the current step: a new one whenever the step or the replay changes.
    let snapshot: Memo<Option<Arc<Snapshot>>> = Memo::new_with_compare(
        move |_| {
            let s = step.get();
            loaded.with(|r| r.as_ref().and_then(|r| r.snapshot(s)).map(Arc::new))
        },
        |_, _| true,
    );

    // Play: one step per tick until the end.
    Effect::new(move |_| {
        if !playing.get() {
            return;
        }
        let ms = speed.get();
        if ms == 0 {
            // As recorded: wait the gap the events really had (capped at 5 s).
            let s = step.get();
            let n = len.get_untracked();
            if s + 1 >= n {
                playing.set(false);
                return;
            }
            let gap = loaded
                .with_untracked(|r| {
                    let r = r.as_ref()?;
                    Some(r.times.get(s + 1)? - r.times.get(s)?)
                })
                .unwrap_or(150.0)
                .clamp(0.0, 5000.0);
            let handle = set_timeout_with_handle(
                move || step.set(s + 1),
                std::time::Duration::from_millis(gap as u64),
            )
            .ok();
            on_cleanup(move || {
                if let Some(h) = handle {
                    h.clear();
                }
            });
            return;
        }
        let handle = set_interval_with_handle(
            move || {
                let n = len.get_untracked();
                let s = step.get_untracked();
                if s + 1 >= n {
                    playing.set(false);
                } else {
                    step.set(s + 1);
                }
            },
            std::time::Duration::from_millis(ms),
        )
        .ok();
        on_cleanup(move || {
            if let Some(h) = handle {
                h.clear();
            }
        });
    });

    // The event list follows the cursor: the current event is scrolled into the list's view
    // (the list only, never the page) after the list has rendered it.
    let events_ref = NodeRef::<leptos::html::Ol>::new();
    Effect::new(move |_| {
        let _ = step.get();
        request_animation_frame(move || {
            let Some(ol) = events_ref.get_untracked() else {
                return;
            };
            keep_in_view(&ol);
        });
    });

    let last = move || len.get().saturating_sub(1);
    let go = move |to: usize| {
        playing.set(false);
        step.set(to.min(len.get_untracked().saturating_sub(1)));
    };
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(s) = STREAMS.iter().find(|s| s.id == id) {
            protocol.set(None);
            har_entry.set(None);
            state.replay.set(Some(s.text.to_string()));
        }
    };
    let picked_file = move |ev: leptos::ev::Event| {
        let el: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = el.files().and_then(|f| f.get(0)) {
            io::read_file(file, move |name, r| match r {
                Ok(text) => set_replay(state, text, Some(&name)),
                Err(e) => state.say_error(format!("{name}: {e}")),
            });
        }
        el.set_value("");
    };
    let detected = move || {
        loaded.with(|r| {
            r.as_ref().map(|r| {
                format!(
                    "{} · {} events · {}",
                    r.protocol.format().name(),
                    r.len(),
                    if r.assembled.complete {
                        "complete"
                    } else {
                        "cut short"
                    }
                )
            })
        })
    };

    view! {
        <section class="replay" aria-labelledby="replay-title" data-testid="replay">
            <div class="section-head">
                <h2 id="replay-title">"Replay a stream"</h2>
                <span class="muted" data-testid="replay-summary">{detected}</span>
            </div>
            <div class="replay-grid">
                <div class="replay-input">
                    <label class="field">
                        <span>"Recorded and anomaly streams"</span>
                        <select data-testid="stream-gallery" on:change=pick>
                            <option value="" disabled=true selected=true>"Open a stream…"</option>
                            {STREAMS.iter().map(|s| view! { <option value=s.id>{s.title}</option> }).collect_view()}
                        </select>
                    </label>
                    <div class="row wrap">
                        <label class="field grow">
                            <span>"Protocol"</span>
                            <select data-testid="stream-protocol"
                                on:change=move |ev| protocol.set(Protocol::from_id(&event_target_value(&ev)))>
                                <option value="">"detect"</option>
                                {Protocol::ALL.into_iter().map(|p| view! { <option value=p.id()>{p.format().name()}</option> }).collect_view()}
                            </select>
                        </label>
                        <label class="ghost button small" title="SSE as captured (curl -N), JSON lines, a HAR file from devtools, or a plain response">
                            "Open file…"
                            <input type="file" class="visually-hidden" data-testid="stream-file" on:change=picked_file />
                        </label>
                    </div>
                    <Show when=move || har_entries.with(|e| !e.is_empty())>
                        <label class="field">
                            <span>"HAR exchange"</span>
                            <select data-testid="har-entry"
                                on:change=move |ev| har_entry.set(event_target_value(&ev).parse().ok())>
                                <option value="">"the last streamed one"</option>
                                {move || har_entries.get().into_iter().map(|(i, label)| view! { <option value=i.to_string()>{label}</option> }).collect_view()}
                            </select>
                        </label>
                    </Show>
                    <CodeEditor
                        text=input
                        lang="text"
                        label="Stream input"
                        testid="stream-input"
                        on_change=Callback::new(move |t: String| set_replay(state, t, None))
                    />
                    <Show when=move || error.with(Option::is_some)>
                        <p class="field-error" role="alert" data-testid="stream-error">
                            {move || error.get()} " — showing the last stream that loaded."
                        </p>
                    </Show>
                </div>
                <div class="timeline" role="group" aria-label="Timeline">
                    <div class="row wrap controls">
                        <button type="button" class="icon" aria-label="First event" data-testid="step-first" on:click=move |_| go(0)>"«"</button>
                        <button type="button" class="icon" aria-label="Step back" data-testid="step-back"
                            on:click=move |_| go(step.get_untracked().saturating_sub(1))>"◀"</button>
                        <button type="button" class="primary small" data-testid="play"
                            on:click=move |_| {
                                if step.get_untracked() >= last() { step.set(0); }
                                playing.update(|p| *p = !*p);
                            }>
                            {move || if playing.get() { "Pause" } else { "Play" }}
                        </button>
                        <button type="button" class="icon" aria-label="Step forward" data-testid="step-forward"
                            on:click=move |_| go(step.get_untracked() + 1)>"▶"</button>
                        <button type="button" class="icon" aria-label="Last event" data-testid="step-last" on:click=move |_| go(usize::MAX)>"»"</button>
                        <label class="check">
                            "Speed"
                            <select aria-label="Speed" data-testid="speed" on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(150))>
                                <option value="600">"0.25×"</option>
                                <option value="300">"0.5×"</option>
                                <option value="150" selected=true>"1×"</option>
                                <option value="50">"3×"</option>
                                <option value="10">"15×"</option>
                                <Show when=move || loaded.with(|r| r.as_ref().is_some_and(|r| !r.times.is_empty()))>
                                    <option value="0">"as recorded"</option>
                                </Show>
                            </select>
                        </label>
                        <span class="muted" data-testid="step-label">
                            {move || {
                                let s = step.get();
                                let at = loaded.with(|r| r.as_ref().and_then(|r| r.times.get(s).copied()));
                                match at {
                                    Some(t) => format!("event {} of {} · +{t:.0} ms", s + 1, len.get()),
                                    None => format!("event {} of {}", s + 1, len.get()),
                                }
                            }}
                        </span>
                    </div>
                    <input type="range" class="seek" min="0" aria-label="Seek" data-testid="seek"
                        prop:max=move || last().to_string()
                        prop:value=move || step.get().to_string()
                        on:input=move |ev| go(event_target_value(&ev).parse().unwrap_or(0)) />
                    <ol class="events" data-testid="events" node_ref=events_ref>
                        {move || {
                            let s = step.get();
                            let from = s.saturating_sub(WINDOW / 2);
                            loaded.with(|r| {
                                r.as_ref()
                                    .map(|r| {
                                        // What each event changed, for the events shown only.
                                        let changes = crate::present::labels::changes(r, from, WINDOW);
                                        r.labels
                                            .iter()
                                            .enumerate()
                                            .skip(from)
                                            .take(WINDOW)
                                            .map(|(i, label)| {
                                                let odd = r.assembled.anomalies.iter().any(|a| a.step == i);
                                                let label = match r.times.get(i) {
                                                    Some(t) => format!("{label}  +{t:.0} ms"),
                                                    None => label.clone(),
                                                };
                                                let change = changes.get(i - from).cloned().unwrap_or_default();
                                                view! {
                                                    <li class:current=i == s class:odd=odd value=(i + 1).to_string()>
                                                        <button type="button" class="link" data-testid=format!("event-{i}") on:click=move |_| go(i)>
                                                            <span class="change" data-testid="event-change">{change}</span>
                                                            " "
                                                            <span class="muted event-name">{label}</span>
                                                        </button>
                                                    </li>
                                                }
                                            })
                                            .collect_view()
                                    })
                            })
                        }}
                    </ol>
                </div>
                <StepView snapshot=snapshot go=go />
                <AssembledView loaded=loaded snapshot=snapshot len=len />
            </div>
        </section>
    }
}

/// The current step: raw event, calls with their growing arguments, text, anomalies.
#[component]
fn StepView(
    snapshot: Memo<Option<Arc<Snapshot>>>,
    go: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let raw = move || {
        snapshot.with(|s| {
            s.as_ref().map(|s| {
                let body = s
                    .event
                    .json()
                    .map_or_else(|_| s.event.data.clone(), |v| json::pretty(&v));
                match &s.event.name {
                    Some(n) => format!("event: {n}\n{body}"),
                    None => body,
                }
            })
        })
    };
    view! {
        <div class="step" data-testid="step">
            <h3>"Assembler state"</h3>
            <table class="calls" data-testid="calls">
                <thead><tr><th>"#"</th><th>"id"</th><th>"name"</th><th>"arguments so far"</th><th>"parsed so far"</th></tr></thead>
                <tbody>
                    {move || snapshot.with(|s| s.as_ref().map(|s| s.state.calls.iter().enumerate().map(|(i, c)| {
                        let parsed = c.partial.as_ref().map_or_else(|| "…".to_string(), |v| serde_json::to_string(v).unwrap_or_default());
                        view! {
                            <tr class:closed=c.closed data-testid=format!("call-state-{i}")>
                                <td>{i}</td>
                                <td><code>{c.id.clone().unwrap_or_else(|| "—".into())}</code></td>
                                <td><code>{c.name.clone()}</code></td>
                                <td><code class="args" data-testid=format!("call-args-{i}")>{c.arguments.clone()}</code></td>
                                <td><code data-testid=format!("call-parsed-{i}")>{parsed}</code></td>
                            </tr>
                        }
                    }).collect_view()))}
                </tbody>
            </table>
            {move || snapshot.with(|s| s.as_ref().map(|s| s.state.reasoning.clone()).filter(|r| !r.is_empty())).map(|r| view! {
                <details class="reasoning so-far" data-testid="reasoning-so-far">
                    <summary class="muted">{format!("Reasoning so far · {} chars", r.chars().count())}</summary>
                    <p class="muted">{r}</p>
                </details>
            })}
            <p class="so-far" data-testid="text-so-far">
                <span class="muted">"Text so far: "</span>
                // One piece per text block: blocks are not run together.
                {move || snapshot.with(|s| s.as_ref().map(|s| {
                    s.state.text_blocks().into_iter().enumerate().map(|(i, piece)| view! {
                        {(i > 0).then(|| view! { <br /> })}
                        <span class="text-block" data-testid="text-block">{piece.to_string()}</span>
                    }).collect_view()
                }))}
                <span class="muted">{move || snapshot.with(|s| s.as_ref().and_then(|s| s.state.stop_reason.clone()).map(|r| format!(" · stop: {r}")))}</span>
            </p>
            <AnomalyList anomalies=Signal::derive(move || snapshot.with(|s| s.as_ref().map(|s| s.state.anomalies.clone()).unwrap_or_default())) go=go />
            <h3>"Event"</h3>
            <pre class="raw" data-testid="raw-event" tabindex="0">{raw}</pre>
        </div>
    }
}

#[component]
fn AnomalyList(
    anomalies: Signal<Vec<Anomaly>>,
    go: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <ul class="anomalies" data-testid="anomalies">
            {move || anomalies.get().into_iter().map(|a| {
                let at = a.step;
                view! {
                    <li>
                        <button type="button" class="link" data-testid="anomaly-step" on:click=move |_| go(at)>{format!("event {}", at + 1)}</button>
                        " "
                        <span class="tag warn">{a.kind.id()}</span>
                        " "
                        {a.message.clone()}
                        {match &a.kind {
                            AnomalyKind::InvalidArguments { repair: Some(r), .. } => Some(view! {
                                <div class="repair" data-testid="repair">
                                    <span class="muted">{format!("Proposed repair ({}): ", r.summary())}</span>
                                    <code>{r.text.clone()}</code>
                                </div>
                            }),
                            _ => None,
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The assembled turn in a chosen format, and the buttons that take it into the playground.
#[component]
fn AssembledView(
    loaded: RwSignal<Option<Arc<Replay>>>,
    snapshot: Memo<Option<Arc<Snapshot>>>,
    len: Memo<usize>,
) -> impl IntoView {
    let state = use_state();
    let format: RwSignal<Option<Format>> = RwSignal::new(None);
    let shown_format = move || {
        format
            .get()
            .or_else(|| loaded.with(|r| r.as_ref().map(|r| r.protocol.format())))
            .unwrap_or(Format::DEFAULT_PANES[0])
    };
    // The repair of invalid final arguments is a visible, optional step: off until asked for.
    let repair_on = RwSignal::new(false);
    let repairable = move || {
        loaded.with(|r| {
            r.as_ref().is_some_and(|r| {
                r.assembled.anomalies.iter().any(|a| {
                    matches!(
                        a.kind,
                        AnomalyKind::InvalidArguments {
                            repair: Some(_),
                            ..
                        }
                    )
                })
            })
        })
    };
    let turn = move || -> Option<Exchange> {
        let mut x = loaded.with(|r| r.as_ref().map(|r| r.assembled.exchange.clone()))?;
        if repair_on.get() {
            repair_calls(&mut x);
        }
        Some(x)
    };
    // A stream that assembles into a whole conversation (an MCP transcript) is a request.
    let kind = move || {
        loaded.with(|r| {
            r.as_ref().map_or(Kind::Response, |r| {
                r.protocol.kind_of(&r.assembled.response)
            })
        })
    };
    // Before the last event the turn shown is the one assembled so far: it grows with the step.
    let at_end = move || snapshot.with(|s| s.as_ref().is_none_or(|s| s.step + 1 >= len.get()));
    let rendered = move || {
        let f = shown_format();
        if at_end() {
            turn().map(|x| f.encode(&x, kind()).text)
        } else {
            // The stop reason only once the stream has sent it.
            snapshot.with(|s| s.as_ref().map(|s| s.so_far_as(f)))
        }
    };
    let heading = move || {
        if at_end() {
            "Assembled turn (at the end)".to_string()
        } else {
            snapshot.with(|s| {
                s.as_ref().map_or_else(String::new, |s| {
                    format!(
                        "Assembled turn so far (event {} of {})",
                        s.step + 1,
                        len.get()
                    )
                })
            })
        }
    };
    let append = move |_| {
        let Some(x) = turn() else {
            return;
        };
        if kind() == Kind::Request {
            state.replace_exchange(
                x,
                Kind::Request,
                "The replayed transcript is now the conversation.",
            );
            return;
        }
        // It takes the place of the conversation's last answer: kept in History, with Undo.
        let undo = state.checkpoint("before a replayed turn became the last answer");
        state.edit(|cur| *cur = cur.with_response(&x));
        state.kind.set(Kind::Response);
        state.right_tab.set(super::tabs::RightTab::Formats);
        state.tell(
            "The assembled turn is now the conversation's last assistant turn (response view)."
                .into(),
            undo,
        );
    };
    let use_request = move |_| {
        let Some(Some(x)) = loaded.with_untracked(|r| r.as_ref().map(|r| r.request.clone())) else {
            return;
        };
        state.replace_exchange(x, Kind::Request, "The HAR request is now the conversation.");
    };
    let has_request = move || loaded.with(|r| r.as_ref().is_some_and(|r| r.request.is_some()));
    view! {
        <div class="assembled" data-testid="assembled">
            <div class="row wrap">
                <h3 class="grow" data-testid="assembled-heading">{heading}</h3>
                <select aria-label="Show the assembled turn as" data-testid="assembled-format"
                    on:change=move |ev| format.set(Format::from_id(&event_target_value(&ev)))>
                    <option value="">"the stream's own format"</option>
                    {Format::ALL.into_iter().map(|f| view! { <option value=f.id()>{f.name()}</option> }).collect_view()}
                </select>
                <button type="button" class="primary small" data-testid="append-turn" on:click=append
                    title="The whole assembled turn takes the place of the conversation's last answer (Undo in the notice)">
                    "Replace the last answer with this turn"
                </button>
                <Show when=repairable>
                    <label class="check" title="Apply the proposed repair to the invalid arguments">
                        <input type="checkbox" data-testid="apply-repair"
                            prop:checked=move || repair_on.get()
                            on:change=move |ev| repair_on.set(event_target_checked(&ev)) />
                        "Repair the arguments"
                    </label>
                </Show>
                <Show when=has_request>
                    <button type="button" class="ghost small" data-testid="use-request" on:click=use_request>
                        "Use the HAR request"
                    </button>
                </Show>
            </div>
            <pre class="raw" data-testid="assembled-doc" tabindex="0">{rendered}</pre>
            <AnomalyList
                anomalies=Signal::derive(move || loaded.with(|r| r.as_ref().map(|r| r.assembled.anomalies.clone()).unwrap_or_default()))
                go=|_| {}
            />
        </div>
    }
}

/// The reverse: the stream each protocol would send for the current exchange's last turn.
#[component]
pub fn StreamsView() -> impl IntoView {
    let state = use_state();
    view! {
        <section class="streams" aria-labelledby="streams-title" data-testid="streams">
            <div class="section-head">
                <h2 id="streams-title">"How each provider streams this turn"</h2>
                <span class="muted">"The last assistant turn, as each protocol's events (synthesised)"</span>
            </div>
            <div class="pane-grid">
                {Protocol::ALL.into_iter().map(|p| {
                    let synth = Memo::new(move |_| state.exchange.with(|x| {
                        let s = synthesize(x, p);
                        (s.events.len(), s.text(), s.losses.len())
                    }));
                    // MCP streams only the turn's calls: a turn of text alone sends no event.
                    let empty = Memo::new(move |_| {
                        state.exchange.with(crate::synth::why_empty).or_else(|| {
                            (synth.with(|s| s.0) == 0).then(|| {
                                format!("No events: nothing in this turn has a place in {}'s stream.", p.format().name())
                            })
                        })
                    });
                    view! {
                        <article class="pane" data-stream=p.id() data-testid=format!("stream-{}", p.id())>
                            <header class="pane-head">
                                <h3>{p.format().name()}</h3>
                                <span class="badge clean">{move || format!("{} events", synth.with(|s| s.0))}</span>
                                <button type="button" class="ghost small" title="Open this stream in the replay view" data-testid=format!("replay-{}", p.id())
                                    on:click=move |_| {
                                        state.replay.set(Some(synth.with_untracked(|s| s.1.clone())));
                                        state.right_tab.set(super::tabs::RightTab::Replay);
                                    }>"Replay"</button>
                            </header>
                            <Show when=move || empty.with(Option::is_some)>
                                <p class="muted" role="note" data-testid=format!("stream-empty-{}", p.id())>{move || empty.get()}</p>
                            </Show>
                            <pre class="raw stream-text" tabindex="0">{move || synth.with(|s| s.1.clone())}</pre>
                        </article>
                    }
                }).collect_view()}
            </div>
        </section>
    }
}

/// Scroll the event list so its current event sits in the middle of the list's box.
fn keep_in_view(ol: &web_sys::HtmlElement) {
    use wasm_bindgen::JsCast;
    let Ok(Some(li)) = ol.query_selector("li.current") else {
        return;
    };
    let Ok(li) = li.dyn_into::<web_sys::HtmlElement>() else {
        return;
    };
    // Offsets are from the same offset parent: their difference is the place in the list.
    let first = ol
        .first_element_child()
        .and_then(|f| f.dyn_into::<web_sys::HtmlElement>().ok())
        .map_or(0, |f| f.offset_top());
    let at = li.offset_top() - first;
    let top = at - (ol.client_height() - li.offset_height()) / 2;
    ol.set_scroll_top(top.max(0));
}

/// Apply the proposed repair to every call whose arguments are not JSON.
fn repair_calls(x: &mut Exchange) {
    for m in &mut x.messages {
        for p in &mut m.parts {
            if let Part::ToolCall(c) = p {
                if c.arguments_invalid() {
                    if let Some(r) = c.arguments_raw.as_deref().and_then(partial::repair) {
                        c.set_arguments_text(&r.text);
                    }
                }
            }
        }
    }
}
