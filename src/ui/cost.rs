//! The Cost view: what the tool definitions cost in prompt tokens, per model, per tool and per
//! round of the tool loop, and the text the model reads.
//!
//! Everything is computed by the lazy module (`cost` operation: [`crate::cost::view`], and the
//! figures' markup, `lazy/src/html.rs`), so the engine, its vocabularies and the view code of
//! the figures stay out of the main wasm. This side sets that markup, reads clicks and pointer
//! moves from its `data-*` attributes, sends "Count exactly" requests and shows the editors.
//! A row carries the same numbers as `toolscope tokens --json --model <id>` in `data-*`.

use super::cm::CodeEditor;
use super::deferred::Deferred;
use super::io;
use super::lazy;
use super::shared::LiveTargets;
use super::state::use_state;
use crate::anchors::Element;
use crate::formats::json;
use crate::live::count::{count_request, read};
use crate::live::keys::KeyFor;
use crate::live::{Blocked, Provider};
use leptos::prelude::*;
use serde_json::{json, Map, Value};
use wasm_bindgen::JsCast;

thread_local! {
    /// The vocabularies: `None` before the first open of the view, then `Some(Ok(false))`
    /// loading, `Some(Ok(true))` loaded, `Some(Err(why))`.
    static VOCAB: ArcRwSignal<Option<Result<bool, String>>> = ArcRwSignal::new(None);
}

/// Fetch both vocabularies into the lazy module, once for the page's life.
fn load_vocabularies() -> ArcRwSignal<Option<Result<bool, String>>> {
    let v = VOCAB.with(Clone::clone);
    if v.get_untracked().is_none() {
        v.set(Some(Ok(false)));
        let done = v.clone();
        // Both fetches start now (`lazy::vocab` starts its load when called).
        let (a, b) = (lazy::vocab("o200k_base"), lazy::vocab("cl100k_base"));
        wasm_bindgen_futures::spawn_local(async move {
            let r = a.await;
            let r = r.and(b.await);
            done.set(Some(r.map(|_| true)));
        });
    }
    v
}

fn text(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

/// The `data-*` attribute `name` of the nearest element from the event's target that has one.
fn data_of(ev: &leptos::ev::Event, name: &str) -> Option<(web_sys::Element, String)> {
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let hit = el.closest(&format!("[{name}]")).ok()??;
    let value = hit.get_attribute(name)?;
    Some((hit, value))
}

/// The view.
#[component]
pub fn CostView() -> impl IntoView {
    let state = use_state();
    let live = expect_context::<LiveTargets>();
    let vocab = load_vocabularies();
    // The providers' answers by model, rendered into the rows by the lazy module.
    let exact: RwSignal<Map<String, Value>> = RwSignal::new(Map::new());
    let vocab_track = vocab.clone();
    // Recounted on every edit and every choice, and once the vocabularies arrive; an answer
    // to an older question is dropped. The last answer stays shown while the next is counted.
    // The exchange as the lazy module reads it: written out in its turn, after the keystroke's
    // frame (at thousands of messages, not on every key).
    let exchange = Deferred::new(state.exchange.with_untracked(json::pretty), move || {
        state.exchange.try_with_untracked(json::pretty)
    })
    .follow(move || state.exchange.track())
    .read();
    let answer = LocalResource::new(move || {
        let exchange = exchange.get();
        let choice = state.cost.get();
        let _ = vocab_track.get();
        let input = json!({
            "exchange": exchange,
            "chosen": choice.chosen,
            "extra": choice.extra,
            "exact": exact.get(),
        })
        .to_string();
        async move {
            lazy::call("cost", &input)
                .await
                .and_then(|s| serde_json::from_str::<Value>(&s).map_err(|e| e.to_string()))
        }
    });
    let html = move || {
        answer.with(|a| {
            a.as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|v| text(v, "html"))
        })
    };
    let detail = Memo::new(move |_| {
        answer.with(|a| match a {
            Some(Ok(v)) => v["detail"].clone(),
            _ => Value::Null,
        })
    });
    let vocab_status = vocab.clone();
    let status = move || {
        match (vocab_status.get(), answer.with(|a| a.as_ref().map(|r| r.as_ref().err().cloned()))) {
        (_, None) => "Loading the cost engine…".to_string(),
        (_, Some(Some(e))) => format!("The cost engine did not answer: {e}"),
        (Some(Ok(false)), _) => "Loading the tokenizer vocabularies… figures are rough (characters / 4) until then.".to_string(),
        (Some(Err(e)), _) => format!("The tokenizer vocabularies did not load ({e}): figures are rough (characters / 4)."),
        _ => "Prompt tokens of this request per model, recounted as you edit. Hover a figure's label for how it was counted; pick a model for its detail.".to_string(),
    }
    };
    // `ready` once an answer was counted with both vocabularies.
    let ready = move || {
        let counted = answer.with(|a| {
            a.as_ref().and_then(|r| r.as_ref().ok()).is_some_and(|v| {
                v["vocabs"]["o200k_base"] == true && v["vocabs"]["cl100k_base"] == true
            })
        });
        match vocab.get() {
            _ if counted => "ready",
            Some(Err(_)) => "failed",
            _ => "loading",
        }
    };

    // "Count exactly": the provider's counting endpoint, with the Live settings and key.
    let count_exactly = move |model: String, family: &str| {
        let Some(provider) =
            crate::providers::Provider::from_id(family).and_then(Provider::counting)
        else {
            return;
        };
        let (target, key) = live.target_for(provider, &model);
        let key = match key {
            KeyFor::Bound(k) => k,
            KeyFor::Missing => {
                let (company, endpoint) = provider.count().map_or(("a provider's", "its counting endpoint"), |c| (c.key, c.endpoint));
                return state.say_error(format!(
                    "Count exactly for {model} asks {endpoint} and needs {company} API key. \
                     Enter it in the Live tab: choose the provider \"{}\", then paste the key in \
                     its API key field (it stays in this page unless you choose to remember it), \
                     and press Count exactly again.",
                    provider.label()
                ));
            }
            KeyFor::Elsewhere { typed_for, now } => {
                return state.say_error(format!(
                    "Count exactly: the {} key was typed for {typed_for}, not {now}; confirm it in the Live tab.",
                    provider.label()
                ))
            }
        };
        if io::framed() {
            return state.say_error("Not sent: this page is shown inside another site's frame, where it never sends keys.");
        }
        let req = state
            .exchange
            .with_untracked(|x| count_request(&target, &key, x, io::page_secure()));
        drop(key);
        let req = match req {
            Some(Ok(r)) => r,
            Some(Err(Blocked(c))) => {
                let why: Vec<String> = c.into_iter().map(|c| c.message).collect();
                return state.say_error(format!("Not sent: {}", why.join(" ")));
            }
            None => return,
        };
        exact.update(|a| {
            a.insert(model.clone(), json!({ "asking": true }));
        });
        wasm_bindgen_futures::spawn_local(async move {
            let got = lazy::post(&req.url, &req.headers, &req.body)
                .await
                .and_then(|(status, body)| read(provider, status, &body));
            exact.update(|a| {
                a.insert(
                    model,
                    match got {
                        Ok(n) => json!({ "count": n }),
                        Err(e) => json!({ "error": e }),
                    },
                );
            });
        });
    };

    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some((_, m)) = data_of(&ev, "data-pick") {
            state.cost.update(|c| c.chosen = Some(m));
        } else if let Some((el, m)) = data_of(&ev, "data-count-exact") {
            count_exactly(m, &el.get_attribute("data-family").unwrap_or_default());
        }
    };
    let on_over = move |ev: leptos::ev::MouseEvent| {
        let el = data_of(&ev, "data-tool-index")
            .and_then(|(_, i)| i.parse().ok())
            .map(Element::Tool);
        if state.hovered.get_untracked() != el {
            state.hovered.set(el);
        }
    };
    // The tool in focus, lit in the bars (their markup is the lazy module's).
    let lit = move || {
        match state.focus() {
        Some(Element::Tool(i)) => format!(".cost-tools li[data-tool-index=\"{i}\"]{{background:var(--link);outline:1px solid var(--link-line)}}"),
        _ => String::new(),
    }
    };

    let adding = RwSignal::new(String::new());
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let m = adding.get_untracked().trim().to_string();
        if !m.is_empty() {
            state.cost.update(|c| {
                if !c.extra.contains(&m) {
                    c.extra.push(m.clone());
                }
                c.chosen = Some(m);
            });
            adding.set(String::new());
        }
    };

    view! {
        <section class="cost" aria-labelledby="cost-title" data-testid="cost-view" data-vocab=ready
            data-computed=move || html().is_some().to_string()>
            <style>{lit}</style>
            <div class="section-head">
                <h2 id="cost-title">"What the tools cost"</h2>
                <span class="muted">"Prompt tokens of this request: tools and messages, per model"</span>
            </div>
            <p class="status" role="status" data-testid="cost-status">{status}</p>
            <div class="cost-figures" inner_html=move || html().unwrap_or_default()
                on:click=on_click on:mouseover=on_over
                on:mouseleave=move |_| state.hovered.set(None)></div>
            <form class="row wrap cost-add" on:submit=add>
                <input type="text" class="grow mono" placeholder="Another model id (gpt-4.1, claude-opus-4-1, …)"
                    aria-label="Count for another model" data-testid="cost-add-model"
                    prop:value=move || adding.get() on:input=move |ev| adding.set(event_target_value(&ev)) />
                <button type="submit" class="ghost small">"Add"</button>
            </form>
            <Reads detail=detail />
            <OpenWeights exchange=exchange />
        </section>
    }
}

/// The tool definitions as the chosen model reads them, each tool highlighted when hovered.
#[component]
fn Reads(detail: Memo<Value>) -> impl IntoView {
    let state = use_state();
    let doc = Signal::derive(move || detail.with(|d| text(d, "text")));
    let spans = Memo::new(move |_| {
        detail.with(|d| {
            let n = |t: &Value, k: &str| t[k].as_u64().unwrap_or(0) as usize;
            d["tools"].as_array().map_or(Vec::new(), |ts| {
                ts.iter()
                    .map(|t| (n(t, "index"), n(t, "start"), n(t, "end")))
                    .collect::<Vec<_>>()
            })
        })
    });
    let marks = Signal::derive(move || match state.focus() {
        Some(Element::Tool(i)) => {
            spans.with(|s| s.iter().filter(|t| t.0 == i).map(|t| (t.1, t.2)).collect())
        }
        _ => Vec::new(),
    });
    let on_hover = Callback::new(move |at: Option<usize>| {
        let el = at.and_then(|b| {
            spans.with_untracked(|s| {
                s.iter()
                    .find(|t| (t.1..t.2).contains(&b))
                    .map(|t| Element::Tool(t.0))
            })
        });
        if state.hovered.get_untracked() != el {
            state.hovered.set(el);
        }
    });
    view! {
        <div class="cost-block">
            <h3>{move || detail.with(|d| format!("What {} reads", text(d, "model")))}</h3>
            // Said, not hidden in a tooltip: how much of this text is known, and from where.
            <p class="muted" data-testid="cost-reads-known" data-known=move || detail.with(|d| text(d, "known"))>
                {move || detail.with(|d| {
                    let known = text(d, "known");
                    let how = match known.as_str() {
                        "approximate" => "approximate: the provider does not publish this text",
                        "documented" => "as the provider documents it",
                        "proven" => "proven by the provider's published token counts",
                        _ => "exact",
                    };
                    format!("{} rendering of the tool definitions, {how}. {}", text(d, "model"), text(d, "note"))
                })}
            </p>
            <div class="cost-reads">
                <CodeEditor text=doc lang="text" label="What the model reads" testid="cost-reads" marks=marks on_hover=on_hover />
            </div>
        </div>
    }
}

/// The Hub the open-weight files come from; a test points it at the stand-in.
const HUB: &str = "https://huggingface.co";

/// What the open-weight section shows: a status or error line, and the rendering (or the
/// template with its error line marked).
#[derive(Debug, Clone, Default, PartialEq)]
struct Hf {
    /// Loading, a load failure, or the count's summary.
    line: String,
    /// `line` is an error.
    error: bool,
    /// The count (`data-tokens`), when there is one.
    tokens: Option<u64>,
    /// The template loaded (then every edit re-renders).
    loaded: bool,
    /// Where the files came from.
    source: String,
    /// The template source, shown when it fails.
    template: String,
    /// The rendering, or the template error (line, message).
    rendered: Option<Result<String, (Option<usize>, String)>>,
}

/// Fetch `url` as text, `None` on a 404.
async fn hub(url: String) -> Result<Option<String>, String> {
    lazy::fetch_text(&url).await
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
    from_config
        .or_else(|| jinja.map(str::to_string))
        .unwrap_or_default()
}

/// Hand the files to the lazy module; the state to show.
async fn load(
    source: String,
    config: Option<String>,
    jinja: Option<String>,
    tokenizer: Option<String>,
) -> Hf {
    let template = template_source(config.as_deref(), jinja.as_deref());
    let mut h = Hf {
        source,
        template,
        ..Hf::default()
    };
    let answer = lazy::call(
        "hf.template",
        &json!({ "config": config, "jinja": jinja }).to_string(),
    )
    .await;
    let tok = match tokenizer {
        Some(t) => lazy::call("hf.tokenizer", &t).await.map(|_| ()),
        None => Ok(()),
    };
    match (
        answer.and_then(|a| serde_json::from_str::<Value>(&a).map_err(|e| e.to_string())),
        tok,
    ) {
        (Err(e), _) | (_, Err(e)) => {
            h.line = e;
            h.error = true;
        }
        (Ok(v), _) => match v.get("template_error") {
            Some(e) => {
                h.rendered = Some(Err((
                    e["line"].as_u64().map(|l| l as usize),
                    text(e, "message"),
                )))
            }
            None => h.loaded = true,
        },
    }
    h
}

/// Open-weight models: a Hugging Face model's chat template renders the exchange as the model
/// reads it (tools, calls, results), its tokenizer counts it. From the Hub by model id, or from
/// dropped files. Fetched only when asked.
#[component]
fn OpenWeights(
    /// The exchange as the lazy module reads it.
    exchange: ReadSignal<String>,
) -> impl IntoView {
    let state = use_state();
    // The state of the last load (fetching, its failure, or the template loaded).
    let loads = RwSignal::new(Hf::default());
    let id = RwSignal::new(
        state
            .cost
            .with_untracked(|c| c.hf.clone())
            .unwrap_or_default(),
    );
    let base = RwSignal::new(HUB.to_string());
    let busy = move |what: &str| {
        loads.set(Hf {
            line: what.into(),
            ..Hf::default()
        });
    };

    let from_hub = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let model = id.get_untracked().trim().trim_matches('/').to_string();
        if model.is_empty() {
            return;
        }
        let root = format!(
            "{}/{model}/resolve/main",
            base.get_untracked().trim().trim_end_matches('/')
        );
        state.cost.update(|c| c.hf = Some(model.clone()));
        busy("Fetching the template and tokenizer…");
        wasm_bindgen_futures::spawn_local(async move {
            let files = async {
                let config = hub(format!("{root}/tokenizer_config.json")).await?;
                let jinja = match &config {
                    Some(c) if c.contains("\"chat_template\"") => None,
                    _ => hub(format!("{root}/chat_template.jinja")).await?,
                };
                if config.is_none() && jinja.is_none() {
                    return Err(format!("{model}: neither tokenizer_config.json nor chat_template.jinja on the Hub (a gated model needs its files dropped here)"));
                }
                Ok((config, jinja, hub(format!("{root}/tokenizer.json")).await?))
            };
            loads.set(match files.await {
                Ok((c, j, t)) => load(model, c, j, t).await,
                Err(e) => Hf {
                    line: e,
                    error: true,
                    ..Hf::default()
                },
            });
        });
    };

    let from_files = move |ev: leptos::ev::Event| {
        let Some(files) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
        else {
            return;
        };
        let list: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        busy("Reading the files…");
        wasm_bindgen_futures::spawn_local(async move {
            let (mut config, mut jinja, mut tokenizer, mut names) = (None, None, None, Vec::new());
            for f in list {
                let t = wasm_bindgen_futures::JsFuture::from(f.text())
                    .await
                    .ok()
                    .and_then(|t| t.as_string())
                    .unwrap_or_default();
                let name = f.name();
                let slot = if name.ends_with(".jinja") {
                    &mut jinja
                } else if t.contains("\"chat_template\"") {
                    &mut config
                } else if t.contains("\"model\"") {
                    &mut tokenizer
                } else {
                    continue;
                };
                *slot = Some(t);
                names.push(name);
            }
            loads.set(if config.is_none() && jinja.is_none() {
                Hf { line: "Drop a tokenizer_config.json or a chat_template.jinja (and a tokenizer.json to count).".into(), error: true, ..Hf::default() }
            } else {
                load(names.join(", "), config, jinja, tokenizer).await
            });
        });
    };

    // Render (and count) on every edit once a template is loaded; an answer to an older
    // question is dropped.
    let loaded = Memo::new(move |_| loads.with(|h| h.loaded.then(|| h.source.clone())));
    let render = LocalResource::new(move || {
        let exchange = exchange.get();
        let source = loaded.get();
        async move {
            let source = source?;
            let input = json!({ "exchange": exchange, "model": source }).to_string();
            let r = lazy::call("hf.render", &input)
                .await
                .and_then(|s| serde_json::from_str::<Value>(&s).map_err(|e| e.to_string()));
            Some((source, r))
        }
    });
    // What the section shows: the load's state, with the latest rendering of what it loaded.
    let hf = Memo::new(move |_| {
        let mut h = loads.get();
        render.with(|r| match r {
            Some(Some((source, r))) if h.loaded && *source == h.source => match r {
                Ok(v) => {
                    h.error = false;
                    h.tokens = v["tokens"].as_u64();
                    h.line = text(v, "summary");
                    h.rendered = Some(match v.get("template_error") {
                        Some(e) => {
                            Err((e["line"].as_u64().map(|l| l as usize), text(e, "message")))
                        }
                        None => Ok(text(v, "text")),
                    });
                }
                Err(e) => {
                    h.line = e.clone();
                    h.error = true;
                }
            },
            _ => {}
        });
        h
    });

    let shown = Signal::derive(move || {
        hf.with(|h| match &h.rendered {
            Some(Ok(t)) => t.clone(),
            _ => h.template.clone(),
        })
    });
    let failed = Signal::derive(move || {
        hf.with(|h| match &h.rendered {
            Some(Err((line, msg))) => {
                let from = super::cm::offset_of(&h.template, line.unwrap_or(1), 1);
                let to = h.template[from..]
                    .find('\n')
                    .map_or(h.template.len(), |k| from + k);
                Some((from, to, msg.clone()))
            }
            _ => None,
        })
    });
    let error_line = move || failed.with(|f| f.as_ref().map(|(_, _, m)| m.clone()));
    view! {
        <div class="cost-block cost-hf" data-testid="hf">
            <h3>"Open-weight model: its chat template and tokenizer"</h3>
            <p class="muted">"The exchange rendered by a Hugging Face model's chat template (tools, calls and results as the model receives them), counted with its tokenizer. Files are fetched only when you ask."</p>
            <form class="row wrap" on:submit=from_hub>
                <input type="text" class="grow mono" placeholder="Hugging Face model id (Qwen/Qwen2.5-7B-Instruct)"
                    aria-label="Hugging Face model id" data-testid="hf-model"
                    prop:value=move || id.get() on:input=move |ev| id.set(event_target_value(&ev)) />
                <button type="submit" class="ghost small" data-testid="hf-load">"Load"</button>
            </form>
            <details>
                <summary class="muted">"Files or another hub"</summary>
                <div class="row wrap">
                    <label class="muted">"tokenizer_config.json, chat_template.jinja, tokenizer.json: "
                        <input type="file" multiple accept=".json,.jinja" data-testid="hf-files" on:change=from_files />
                    </label>
                    <label class="muted">"Hub URL "
                        <input type="url" class="mono" data-testid="hf-base"
                            prop:value=move || base.get() on:input=move |ev| base.set(event_target_value(&ev)) />
                    </label>
                </div>
            </details>
            <p role="status" class:error=move || hf.with(|h| h.error) data-testid="hf-count"
                data-tokens=move || hf.with(|h| h.tokens.map(|n| n.to_string()))>{move || hf.with(|h| h.line.clone())}</p>
            <Show when=move || error_line().is_some()>
                <p class="error" role="alert" data-testid="hf-error"
                    data-line=move || hf.with(|h| match &h.rendered { Some(Err((Some(l), _))) => l.to_string(), _ => String::new() })>
                    {move || hf.with(|h| match &h.rendered {
                        Some(Err((Some(l), m))) => format!("Template error at line {l}: {m}"),
                        Some(Err((None, m))) => format!("Template error: {m}"),
                        _ => String::new(),
                    })}
                </p>
            </Show>
            <Show when=move || hf.with(|h| h.rendered.is_some())>
                <div class="cost-reads">
                    <CodeEditor text=shown lang="text" label="The exchange as the open-weight model reads it" testid="hf-rendered" error=failed />
                </div>
            </Show>
        </div>
    }
}
