//! The Cost view: what the tool definitions cost in prompt tokens, per model, per tool and per
//! round of the tool loop, and the text the model reads.
//!
//! Everything is computed by the lazy module (`cost` operation, [`crate::cost::view`]), so the
//! engine and its vocabularies stay out of the main wasm; the answer is read as JSON here. A row
//! carries the same numbers as `toolscope tokens --json --model <id>` in `data-*` attributes.

use super::cm::CodeEditor;
use super::io;
use super::lazy;
use super::live::LiveState;
use super::state::use_state;
use crate::anchors::Element;
use crate::formats::json;
use crate::live::count::{count_request, read};
use crate::live::fetch::{self, Flight, Progress};
use crate::live::keys::KeyFor;
use crate::live::{Blocked, Provider};
use leptos::prelude::*;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The models the user picked in the Cost view (kept in share links).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Choice {
    /// The model shown in detail (`None`: the first row's).
    pub chosen: Option<String>,
    /// Models counted besides the exchange's and the representative ones.
    pub extra: Vec<String>,
}

/// Where the vocabularies are.
#[derive(Debug, Clone, PartialEq)]
enum Vocab {
    Loading,
    Ready,
    Failed(String),
}

thread_local! {
    /// The vocabularies' state for the page's life: fetched once, on the first open of the view.
    static VOCAB: ArcRwSignal<Option<Vocab>> = ArcRwSignal::new(None);
}

/// Fetch both vocabularies into the lazy module, once.
fn load_vocabularies() -> ArcRwSignal<Option<Vocab>> {
    let v = VOCAB.with(Clone::clone);
    if v.get_untracked().is_none() {
        v.set(Some(Vocab::Loading));
        let done = v.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let (a, b) = futures_join(lazy::vocab("o200k_base"), lazy::vocab("cl100k_base")).await;
            done.set(Some(match a.and(b) {
                Ok(()) => Vocab::Ready,
                Err(e) => Vocab::Failed(e),
            }));
        });
    }
    v
}

/// Both futures' results (awaited in turn; both loads were started when the futures were made).
async fn futures_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    (a.await, b.await)
}

fn num(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or(0)
}

fn text(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

/// The view.
#[component]
pub fn CostView() -> impl IntoView {
    let state = use_state();
    let vocab = load_vocabularies();
    let answer: RwSignal<Option<Result<Value, String>>> = RwSignal::new(None);
    let answers: RwSignal<HashMap<String, Exact>> = RwSignal::new(HashMap::new());
    let seq = StoredValue::new(0u64);
    let vocab_track = vocab.clone();
    // Recount on every edit and every choice, and once the vocabularies arrive.
    Effect::new(move |_| {
        let exchange = state.exchange.with(json::pretty);
        let choice = state.cost.get();
        let _ = vocab_track.get();
        let input = json!({ "exchange": exchange, "chosen": choice.chosen, "extra": choice.extra })
            .to_string();
        seq.update_value(|s| *s += 1);
        let mine = seq.get_value();
        wasm_bindgen_futures::spawn_local(async move {
            let r = lazy::call("cost", &input)
                .await
                .and_then(|s| serde_json::from_str::<Value>(&s).map_err(|e| e.to_string()));
            if seq.try_get_value() == Some(mine) {
                answer.set(Some(r));
            }
        });
    });

    let rows = move || {
        answer.with(|a| match a {
            Some(Ok(v)) => v["rows"].as_array().cloned().unwrap_or_default(),
            _ => Vec::new(),
        })
    };
    let detail = Memo::new(move |_| {
        answer.with(|a| match a {
            Some(Ok(v)) => v["detail"].clone(),
            _ => Value::Null,
        })
    });
    let chosen = move || detail.with(|d| text(d, "model"));
    let vocab_status = vocab.clone();
    let status = move || match vocab_status.get() {
        Some(Vocab::Ready) | None => match answer.with(|a| a.as_ref().map(|r| r.clone().err())) {
            None => "Loading the cost engine…".to_string(),
            Some(Some(e)) => format!("The cost engine did not answer: {e}"),
            Some(None) => "Prompt tokens of this request, per model. Exact where the provider's \
                           counting rules are proven; hover a figure for how it was counted."
                .to_string(),
        },
        Some(Vocab::Loading) => {
            "Loading the tokenizer vocabularies… figures are rough (characters / 4) until then."
                .to_string()
        }
        Some(Vocab::Failed(e)) => format!(
            "The tokenizer vocabularies did not load ({e}): figures are rough (characters / 4)."
        ),
    };
    let vocab_attr = vocab.clone();
    let ready = move || match vocab_attr.get() {
        Some(Vocab::Ready) => "ready",
        Some(Vocab::Failed(_)) => "failed",
        _ => "loading",
    };
    let computed = move || answer.with(|a| matches!(a, Some(Ok(_))));

    let row = move |r: Value| {
        let model = text(&r, "model");
        let is_chosen = {
            let m = model.clone();
            move || chosen() == m
        };
        let pick = model.clone();
        let exact = r["exact"].as_bool().unwrap_or(false);
        view! {
            <tr data-testid="cost-row" data-model=model.clone()
                data-tools=num(&r, "tools") data-messages=num(&r, "messages")
                data-total=num(&r, "total") data-exact=exact.to_string()
                class:chosen=is_chosen>
                <th scope="row">
                    <button type="button" class="link mono" title="Show this model in detail"
                        on:click=move |_| state.cost.update(|c| c.chosen = Some(pick.clone()))>{model.clone()}</button>
                    <span class="muted small-text">" "{text(&r, "family")}</span>
                </th>
                <td class="num">{num(&r, "tools")}</td>
                <td class="num">{num(&r, "messages")}</td>
                <td class="num strong">{num(&r, "total")}</td>
                <td><span class=if exact { "badge clean" } else { "badge lossy" } title=text(&r, "method")>
                    {if exact { "exact" } else { "estimate" }}</span></td>
                <td><CountExactly model=model.clone() family=text(&r, "family") offline=num(&r, "total") answers=answers /></td>
            </tr>
        }
    };

    let adding = RwSignal::new(String::new());
    let add = move || {
        let m = adding.get_untracked().trim().to_string();
        if m.is_empty() {
            return;
        }
        state.cost.update(|c| {
            if !c.extra.contains(&m) {
                c.extra.push(m.clone());
            }
            c.chosen = Some(m);
        });
        adding.set(String::new());
    };

    view! {
        <section class="cost" aria-labelledby="cost-title" data-testid="cost-view" data-vocab=ready
            data-computed=move || computed().to_string()>
            <div class="section-head">
                <h2 id="cost-title">"What the tools cost"</h2>
                <span class="muted">"Prompt tokens of this request, tools and messages, per model"</span>
            </div>
            <p class="status" role="status" data-testid="cost-status">{status}</p>
            <div class="cost-table-wrap">
                <table class="cost-table">
                    <thead><tr>
                        <th scope="col">"Model"</th>
                        <th scope="col" class="num">"Tools"</th>
                        <th scope="col" class="num">"Messages"</th>
                        <th scope="col" class="num">"Total"</th>
                        <th scope="col">"Count"</th>
                        <th scope="col">"Provider's count"</th>
                    </tr></thead>
                    <tbody>{move || rows().into_iter().map(row).collect_view()}</tbody>
                </table>
            </div>
            <form class="row wrap cost-add" on:submit=move |ev| { ev.prevent_default(); add(); }>
                <input type="text" class="grow mono" placeholder="Another model id (gpt-4.1, claude-opus-4-1, …)"
                    aria-label="Count for another model" data-testid="cost-add-model"
                    prop:value=move || adding.get()
                    on:input=move |ev| adding.set(event_target_value(&ev)) />
                <button type="submit" class="ghost small">"Add"</button>
            </form>
            <ToolBars detail=detail />
            <RoundChart detail=detail />
            <Reads detail=detail />
        </section>
    }
}

/// Each tool's tokens as a bar, costliest first; hovering one highlights it everywhere.
#[component]
fn ToolBars(detail: Memo<Value>) -> impl IntoView {
    let state = use_state();
    let tools = move || detail.with(|d| d["tools"].as_array().cloned().unwrap_or_default());
    let max = move || {
        tools()
            .iter()
            .map(|t| num(t, "tokens"))
            .max()
            .unwrap_or(1)
            .max(1)
    };
    view! {
        <div class="cost-block">
            <h3>{move || format!("Per tool — {}", detail.with(|d| text(d, "model")))}</h3>
            <Show when=move || !tools().is_empty() fallback=|| view! { <p class="muted">"This request has no tools."</p> }>
                <ol class="cost-tools" data-testid="cost-tools">
                    {move || {
                        let m = max();
                        tools().into_iter().map(|t| {
                            let i = num(&t, "index") as usize;
                            let n = num(&t, "tokens");
                            let el = Some(Element::Tool(i));
                            let hot = move || state.focus() == el;
                            let pct = (n as f64 * 100.0 / m as f64).max(1.0);
                            view! {
                                <li data-testid="cost-tool" data-tool=text(&t, "name") data-tokens=n class:hot=hot
                                    on:mouseenter=move |_| state.hovered.set(el)
                                    on:mouseleave=move |_| state.hovered.set(None)
                                    on:click=move |_| state.selected.set(el)>
                                    <span class="mono name">{text(&t, "name")}</span>
                                    <span class="bar" aria-hidden="true"><span style=format!("width:{pct:.1}%")></span></span>
                                    <span class="num">{n}</span>
                                </li>
                            }
                        }).collect_view()
                    }}
                </ol>
            </Show>
        </div>
    }
}

/// Prompt tokens per round (tools' share stacked, cached share marked) and the running total.
#[component]
fn RoundChart(detail: Memo<Value>) -> impl IntoView {
    let rounds = move || detail.with(|d| d["rounds"].as_array().cloned().unwrap_or_default());
    let caching = move || detail.with(|d| d["caching"].clone());
    let chart = move || {
        let rs = rounds();
        if rs.is_empty() {
            return None;
        }
        let (w, h, pad) = (600.0, 180.0, 28.0);
        let top = rs
            .iter()
            .map(|r| num(r, "prompt"))
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let total = rs.last().map_or(1, |r| num(r, "running_total")).max(1) as f64;
        let n = rs.len() as f64;
        let slot = (w - 2.0 * pad) / n;
        let bw = (slot * 0.6).min(48.0);
        let y = |v: f64, of: f64| h - pad - (h - 2.0 * pad) * v / of;
        let bars = rs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let x = pad + slot * k as f64 + (slot - bw) / 2.0;
                let (p, t, c) = (
                    num(r, "prompt") as f64,
                    num(r, "tools") as f64,
                    num(r, "cached") as f64,
                );
                let title = format!(
                    "round {}: prompt {} tokens, tools {}, cached {}, running total {}",
                    num(r, "round"),
                    p,
                    t,
                    c,
                    num(r, "running_total")
                );
                view! {
                    <g data-testid="cost-round" data-prompt=p data-tools=t data-cached=c>
                        <title>{title}</title>
                        <rect class="msg" x=x y=y(p, top) width=bw height=(h - pad - y(p, top)).max(0.0) />
                        <rect class="tools" x=x y=y(t, top) width=bw height=(h - pad - y(t, top)).max(0.0) />
                        {(c > 0.0).then(|| view! {
                            <rect class="cached" x=x y=y(c, top) width=bw height=(h - pad - y(c, top)).max(0.0) />
                        })}
                    </g>
                }
            })
            .collect_view();
        let line: String = rs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let x = pad + slot * k as f64 + slot / 2.0;
                format!("{x:.1},{:.1}", y(num(r, "running_total") as f64, total))
            })
            .collect::<Vec<_>>()
            .join(" ");
        Some(view! {
            <svg class="cost-chart" viewBox=format!("0 0 {w} {h}") role="img" data-testid="cost-chart"
                aria-label=format!("Prompt tokens over {} rounds; running total {}", rs.len(), total)>
                <line class="axis" x1=pad y1=h - pad x2=w - pad y2=h - pad />
                {bars}
                <polyline class="running" points=line />
                <text class="label" x=pad y=14>{format!("prompt per round (max {top})")}</text>
                <text class="label total" x=w - pad y=14 text-anchor="end">{format!("running total {total}")}</text>
            </svg>
        })
    };
    view! {
        <div class="cost-block">
            <h3>"Per round of the tool loop"</h3>
            {chart}
            <p class="legend muted">
                <span class="key tools"></span>"tool definitions "
                <span class="key msg"></span>"messages "
                <span class="key cached"></span>"served from the prompt cache "
                <span class="key running"></span>"running total"
            </p>
            <p class="muted" data-testid="cost-caching">{move || {
                let c = caching();
                if c.is_null() {
                    "No prompt caching modelled for this model.".to_string()
                } else {
                    format!("{} — cached over every round: {} tokens; saves about {} tokens at full price.",
                        text(&c, "rule"), num(&c, "cached"), c["saved"].as_i64().unwrap_or(0))
                }
            }}</p>
        </div>
    }
}

/// The tool definitions as the chosen model reads them, each tool highlighted when hovered.
#[component]
fn Reads(detail: Memo<Value>) -> impl IntoView {
    let state = use_state();
    let doc = Signal::derive(move || detail.with(|d| text(d, "text")));
    let spans = Memo::new(move |_| {
        detail.with(|d| {
            d["tools"]
                .as_array()
                .map(|ts| {
                    ts.iter()
                        .map(|t| {
                            (
                                num(t, "index") as usize,
                                num(t, "start") as usize,
                                num(t, "end") as usize,
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let marks = Signal::derive(move || match state.focus() {
        Some(Element::Tool(i)) => spans.with(|s| {
            s.iter()
                .filter(|(k, _, _)| *k == i)
                .map(|(_, a, b)| (*a, *b))
                .collect()
        }),
        _ => Vec::new(),
    });
    let on_hover = Callback::new(move |at: Option<usize>| {
        let el = at.and_then(|b| {
            spans.with_untracked(|s| {
                s.iter()
                    .find(|(_, a, e)| (*a..*e).contains(&b))
                    .map(|(i, _, _)| Element::Tool(*i))
            })
        });
        if state.hovered.get_untracked() != el {
            state.hovered.set(el);
        }
    });
    view! {
        <div class="cost-block">
            <h3>{move || format!("What {} reads", detail.with(|d| text(d, "model")))}</h3>
            <p class="muted" title=move || detail.with(|d| text(d, "note"))>
                {move || detail.with(|d| format!("The tool definitions as rendered into the prompt ({}).", text(d, "known")))}
            </p>
            <div class="cost-reads">
                <CodeEditor text=doc lang="text" label="What the model reads" testid="cost-reads"
                    marks=marks on_hover=on_hover />
            </div>
        </div>
    }
}

/// A provider's own count for one model.
#[derive(Debug, Clone, PartialEq)]
enum Exact {
    /// Sent, waiting.
    Asking,
    /// The provider's figure, and the offline total it was asked for.
    Count(u64),
    /// Why there is none.
    Failed(String),
}

/// The provider that counts a family's requests (`None`: no counting endpoint).
fn counting_provider(family: &str) -> Option<Provider> {
    match family {
        "openai" => Some(Provider::OpenAiResponses),
        "anthropic" => Some(Provider::Anthropic),
        "gemini" => Some(Provider::Gemini),
        _ => None,
    }
}

/// "Count exactly": ask the provider's counting endpoint (Live settings and key), show its
/// figure beside the offline one with the difference.
#[component]
fn CountExactly(
    model: String,
    family: String,
    offline: u64,
    answers: RwSignal<HashMap<String, Exact>>,
) -> impl IntoView {
    let state = use_state();
    let live = expect_context::<LiveState>();
    let Some(provider) = counting_provider(&family) else {
        return view! { <span class="muted small-text" title="This provider has no token-counting endpoint">"—"</span> }
            .into_any();
    };
    let m = model.clone();
    let ask = move |_| {
        let (target, key) = live.target_for(provider, &m);
        let key = match key {
            KeyFor::Bound(k) => k,
            KeyFor::Missing => {
                state.say_error(format!(
                    "Count exactly: no {} key. Set one in the Live tab (it stays in this browser).",
                    provider.label()
                ));
                return;
            }
            KeyFor::Elsewhere { typed_for, now } => {
                state.say_error(format!(
                    "Count exactly: the {} key was typed for {typed_for}, not {now}; confirm it in the Live tab.",
                    provider.label()
                ));
                return;
            }
        };
        if io::framed() {
            state.say_error("Not sent: this page is shown inside another site's frame, where it never sends keys.");
            return;
        }
        let req = state
            .exchange
            .with_untracked(|x| count_request(&target, &key, x, io::page_secure()));
        drop(key);
        let req = match req {
            Some(Ok(r)) => r,
            Some(Err(Blocked(c))) => {
                let text: Vec<String> = c.into_iter().map(|c| c.message).collect();
                state.say_error(format!("Not sent: {}", text.join(" ")));
                return;
            }
            None => return,
        };
        let Some(flight) = Flight::new() else { return };
        let id = m.clone();
        answers.update(|a| {
            a.insert(id.clone(), Exact::Asking);
        });
        wasm_bindgen_futures::spawn_local(async move {
            let got: Rc<RefCell<(u16, Vec<u8>, Option<String>)>> = Rc::default();
            let g = got.clone();
            fetch::send(&req, &flight.signal(), move |p| {
                let mut g = g.borrow_mut();
                match p {
                    Progress::Head { status, .. } => g.0 = status,
                    Progress::Bytes(b) => g.1.extend_from_slice(&b),
                    Progress::Failed(e) => g.2 = Some(e),
                    _ => {}
                }
            })
            .await;
            let (status, bytes, failed) = got.take();
            let r = match failed {
                Some(e) => Exact::Failed(e),
                None => match read(provider, status, &String::from_utf8_lossy(&bytes)) {
                    Ok(n) => Exact::Count(n),
                    Err(e) => Exact::Failed(e),
                },
            };
            answers.update(|a| {
                a.insert(id, r);
            });
        });
    };
    let shown = move || answers.with(|a| a.get(&model).cloned());
    view! {
        <span class="cost-exact">
            {move || match shown() {
                None => view! {
                    <button type="button" class="ghost small" data-testid="count-exact"
                        title=format!("Ask {} for its count (Live settings and key)", provider.label())
                        on:click=ask.clone()>"Count exactly"</button>
                }.into_any(),
                Some(Exact::Asking) => view! { <span class="muted small-text">"asking…"</span> }.into_any(),
                Some(Exact::Count(n)) => {
                    let d = n as i64 - offline as i64;
                    view! {
                        <span data-testid="count-exact-result" data-count=n class="num strong">{n}</span>
                        <span class="diff" title="The provider's count minus the offline figure">{format!("{d:+}")}</span>
                    }.into_any()
                }
                Some(Exact::Failed(e)) => view! {
                    <span class="error small-text" data-testid="count-exact-error" title=e.clone()>"failed"</span>
                    <button type="button" class="ghost small" on:click=ask.clone()>"Retry"</button>
                }.into_any(),
            }}
        </span>
    }
    .into_any()
}
