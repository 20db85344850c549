//! The Cost view: what the tool definitions cost in prompt tokens, per model, per tool and per
//! round of the tool loop, and the text the model reads.
//!
//! Everything is computed by the lazy module (`cost` operation, [`crate::cost::view`]), so the
//! engine and its vocabularies stay out of the main wasm; the answer is read as JSON here. A row
//! carries the same numbers as `toolscope tokens --json --model <id>` in `data-*` attributes.

use super::cm::CodeEditor;
use super::lazy;
use super::state::use_state;
use super::io;
use super::live::LiveState;
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
    /// The Hugging Face model id of the open-weight section, if one was loaded.
    pub hf: Option<String>,
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
        Some(Vocab::Ready) | None => match answer.with(|a| a.as_ref().map(|r| r.as_ref().err().cloned())) {
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
            <OpenWeights />
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

/// The Hub the open-weight files come from; a test points it at the stand-in.
const HUB: &str = "https://huggingface.co";

/// The open-weight section's state.
#[derive(Debug, Clone, Default, PartialEq)]
struct Hf {
    /// Fetching or reading files.
    busy: bool,
    /// Where the template and tokenizer came from, for a person.
    source: String,
    /// The template's text (to show an error at its line).
    template_text: String,
    /// The template read.
    template: bool,
    /// A tokenizer read.
    tokenizer: bool,
    /// Why loading failed.
    error: Option<String>,
    /// Bumped on every load, so the rendering follows.
    generation: u64,
}

/// A template error: the line (1-based) and the message.
type TemplateErr = (Option<usize>, String);

/// Hand a template (config and/or jinja) and a tokenizer to the lazy module.
async fn load_hf(config: Option<String>, jinja: Option<String>, tokenizer: Option<String>) -> Result<Option<TemplateErr>, String> {
    let answer = lazy::call("hf.template", &json!({ "config": config, "jinja": jinja }).to_string()).await?;
    let v: Value = serde_json::from_str(&answer).map_err(|e| e.to_string())?;
    if let Some(tokenizer) = tokenizer {
        lazy::call("hf.tokenizer", &tokenizer).await?;
    }
    Ok(template_err(&v))
}

fn template_err(v: &Value) -> Option<TemplateErr> {
    let e = v.get("template_error")?;
    Some((e["line"].as_u64().map(|l| l as usize), text(e, "message")))
}

/// The template source to show: the config's `chat_template` (a string, or the `default` of a
/// named list), else the jinja file.
fn template_source(config: Option<&str>, jinja: Option<&str>) -> String {
    let from_config = config
        .and_then(|c| serde_json::from_str::<Value>(c).ok())
        .and_then(|v| match &v["chat_template"] {
            Value::String(s) => Some(s.clone()),
            Value::Array(list) => list
                .iter()
                .find(|t| t["name"] == "default")
                .or_else(|| list.first())
                .map(|t| text(t, "template")),
            _ => None,
        });
    from_config.or_else(|| jinja.map(str::to_string)).unwrap_or_default()
}

/// Open-weight models: a Hugging Face model's chat template renders the exchange as the model
/// reads it (tools, calls, results), its tokenizer counts it. From the Hub by model id, or from
/// dropped files. Loaded only when used.
#[component]
fn OpenWeights() -> impl IntoView {
    let state = use_state();
    let hf = RwSignal::new(Hf::default());
    let id = RwSignal::new(state.cost.with_untracked(|c| c.hf.clone()).unwrap_or_default());
    let base = RwSignal::new(HUB.to_string());
    let rendered: RwSignal<Option<Result<(String, Option<u64>), TemplateErr>>> = RwSignal::new(None);

    let finish = move |r: Result<Option<TemplateErr>, String>, source: String, template_text: String, tokenizer: bool| {
        hf.update(|h| {
            h.busy = false;
            h.source = source;
            h.template_text = template_text;
            h.tokenizer = tokenizer;
            h.generation += 1;
            match r {
                Ok(None) => {
                    h.template = true;
                    h.error = None;
                }
                Ok(Some(e)) => {
                    h.template = false;
                    h.error = None;
                    rendered.set(Some(Err(e)));
                }
                Err(e) => {
                    h.template = false;
                    h.error = Some(e);
                }
            }
        });
    };

    let from_hub = move || {
        let model = id.get_untracked().trim().trim_matches('/').to_string();
        if model.is_empty() {
            return;
        }
        let root = format!("{}/{model}/resolve/main", base.get_untracked().trim().trim_end_matches('/'));
        state.cost.update(|c| c.hf = Some(model.clone()));
        hf.update(|h| {
            h.busy = true;
            h.error = None;
        });
        rendered.set(None);
        wasm_bindgen_futures::spawn_local(async move {
            let got = async {
                let config = lazy::fetch_text(&format!("{root}/tokenizer_config.json")).await?;
                let jinja = if config.as_deref().is_some_and(|c| c.contains("\"chat_template\"")) {
                    None
                } else {
                    lazy::fetch_text(&format!("{root}/chat_template.jinja")).await?
                };
                if config.is_none() && jinja.is_none() {
                    return Err(format!("{model}: no tokenizer_config.json nor chat_template.jinja on the Hub (a gated or private model needs its files dropped here)"));
                }
                let tokenizer = lazy::fetch_text(&format!("{root}/tokenizer.json")).await?;
                Ok((config, jinja, tokenizer))
            }
            .await;
            match got {
                Ok((config, jinja, tokenizer)) => {
                    let shown = template_source(config.as_deref(), jinja.as_deref());
                    let has_tok = tokenizer.is_some();
                    let r = load_hf(config, jinja, tokenizer).await;
                    finish(r, format!("{model} (Hugging Face)"), shown, has_tok);
                }
                Err(e) => finish(Err(e), String::new(), String::new(), false),
            }
        });
    };

    let from_files = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(files) = input.files() else { return };
        let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        hf.update(|h| {
            h.busy = true;
            h.error = None;
        });
        rendered.set(None);
        wasm_bindgen_futures::spawn_local(async move {
            let (mut config, mut jinja, mut tokenizer) = (None, None, None);
            let mut names = Vec::new();
            for f in list {
                let name = f.name();
                let Ok(t) = wasm_bindgen_futures::JsFuture::from(f.text()).await else { continue };
                let t = t.as_string().unwrap_or_default();
                if name.ends_with(".jinja") {
                    jinja = Some(t);
                } else if name.contains("tokenizer_config") {
                    config = Some(t);
                } else if name.ends_with(".json") && t.contains("\"model\"") && t.contains("\"vocab\"") {
                    tokenizer = Some(t);
                } else if name.ends_with(".json") && t.contains("\"chat_template\"") {
                    config = Some(t);
                } else {
                    continue;
                }
                names.push(name);
            }
            if config.is_none() && jinja.is_none() {
                finish(Err("Drop a tokenizer_config.json or a chat_template.jinja (and a tokenizer.json to count).".into()), String::new(), String::new(), false);
                return;
            }
            let shown = template_source(config.as_deref(), jinja.as_deref());
            let has_tok = tokenizer.is_some();
            let r = load_hf(config, jinja, tokenizer).await;
            finish(r, names.join(", "), shown, has_tok);
        });
    };

    // Render (and count) on every edit once a template is loaded.
    let seq = StoredValue::new(0u64);
    Effect::new(move |_| {
        let h = hf.get();
        let exchange = state.exchange.with(json::pretty);
        if !h.template {
            return;
        }
        seq.update_value(|s| *s += 1);
        let mine = seq.get_value();
        let input = json!({ "exchange": exchange }).to_string();
        wasm_bindgen_futures::spawn_local(async move {
            let r = lazy::call("hf.render", &input).await.and_then(|s| serde_json::from_str::<Value>(&s).map_err(|e| e.to_string()));
            if seq.try_get_value() != Some(mine) {
                return;
            }
            rendered.set(Some(match r {
                Ok(v) => match template_err(&v) {
                    Some(e) => Err(e),
                    None => Ok((text(&v, "text"), v["tokens"].as_u64())),
                },
                Err(e) => Err((None, e)),
            }));
        });
    });

    let doc = Signal::derive(move || match rendered.get() {
        Some(Ok((t, _))) => t,
        _ => String::new(),
    });
    let template_doc = Signal::derive(move || hf.with(|h| h.template_text.clone()));
    let template_error = Signal::derive(move || match rendered.get() {
        Some(Err((Some(line), msg))) => template_doc.with(|t| {
            let from = super::cm::offset_of(t, line, 1);
            let to = t[from..].find('\n').map_or(t.len(), |k| from + k);
            Some((from, to, msg))
        }),
        _ => None,
    });
    view! {
        <div class="cost-block cost-hf" data-testid="hf">
            <h3>"Open-weight model: its chat template and tokenizer"</h3>
            <p class="muted">"The exchange rendered by a Hugging Face model's chat template (tools, calls and results as the model receives them), counted with its tokenizer. Files are fetched from the Hub only when you ask."</p>
            <form class="row wrap" on:submit=move |ev| { ev.prevent_default(); from_hub(); }>
                <input type="text" class="grow mono" placeholder="Hugging Face model id (Qwen/Qwen2.5-7B-Instruct)"
                    aria-label="Hugging Face model id" data-testid="hf-model"
                    prop:value=move || id.get() on:input=move |ev| id.set(event_target_value(&ev)) />
                <button type="submit" class="ghost small" data-testid="hf-load" disabled=move || hf.with(|h| h.busy)>"Load"</button>
            </form>
            <details>
                <summary class="muted">"Files or another hub"</summary>
                <div class="row wrap">
                    <label class="muted">"Drop or pick tokenizer_config.json, chat_template.jinja, tokenizer.json: "
                        <input type="file" multiple accept=".json,.jinja" data-testid="hf-files" on:change=from_files />
                    </label>
                    <label class="muted">"Hub URL "
                        <input type="url" class="mono" aria-label="Hub base URL" data-testid="hf-base"
                            prop:value=move || base.get() on:input=move |ev| base.set(event_target_value(&ev)) />
                    </label>
                </div>
            </details>
            {move || hf.with(|h| {
                if h.busy {
                    Some(view! { <p class="muted" role="status">"Loading the template and tokenizer…"</p> }.into_any())
                } else { h.error.clone().map(|e| view! { <p class="error" role="alert" data-testid="hf-load-error">{e}</p> }.into_any()) }
            })}
            {move || match rendered.get() {
                Some(Ok((_, tokens))) => Some(view! {
                    <p data-testid="hf-count" data-tokens=tokens.map(|n| n.to_string()).unwrap_or_default()>
                        {hf.with(|h| h.source.clone())}": "
                        <strong>{match tokens { Some(n) => format!("{n} tokens"), None => "no tokenizer.json: not counted".into() }}</strong>
                        " for the whole prompt as rendered below."
                    </p>
                    <div class="cost-reads">
                        <CodeEditor text=doc lang="text" label="The exchange as the open-weight model reads it" testid="hf-rendered" />
                    </div>
                }.into_any()),
                Some(Err((line, msg))) => Some(view! {
                    <p class="error" role="alert" data-testid="hf-error" data-line=line.map(|l| l.to_string()).unwrap_or_default()>
                        {match line { Some(l) => format!("Template error at line {l}: {msg}"), None => format!("Template error: {msg}") }}
                    </p>
                    <div class="cost-reads">
                        <CodeEditor text=template_doc lang="text" label="The chat template" testid="hf-template" error=template_error />
                    </div>
                }.into_any()),
                None => None,
            }}
        </div>
    }
}
