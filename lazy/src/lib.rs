//! Toolscope's lazy module: a second wasm the page imports on first use (src/ui/lazy.rs), so the
//! main wasm stays small. It holds what only some views need — the cost engine with its
//! vocabularies (fetched separately, kept here across calls) — behind a text-in/text-out
//! interface: [`call`]`(op, input)` with JSON in and out, errors as `{"error": "…"}`.
//!
//! Adding an operation: one arm in [`dispatch`] (plain Rust, tested natively with
//! `cargo test -p toolscope-lazy`), one `call(op, …)` from the page.

pub mod html;

use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use toolscope::cost::hf::{Template, TemplateError, Tokenizer};
use toolscope::cost::{self, Encoding, Vocab, Vocabs};
use toolscope::model::Exchange;
use toolscope::snippets::Lang;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

thread_local! {
    /// Vocabularies loaded by [`load_vocab`], kept for every later call.
    static LOADED: RefCell<Loaded> = RefCell::new(Loaded::default());
}

/// What earlier calls loaded.
#[derive(Default)]
pub struct Loaded {
    /// `cl100k_base`.
    pub cl100k: Option<Vocab>,
    /// `o200k_base`.
    pub o200k: Option<Vocab>,
    /// An open-weight model's chat template (`hf.template`).
    pub template: Option<Template>,
    /// An open-weight model's tokenizer (`hf.tokenizer`).
    pub tokenizer: Option<Tokenizer>,
}

impl Loaded {
    fn vocabs(&self) -> Vocabs<'_> {
        Vocabs {
            cl100k: self.cl100k.as_ref(),
            o200k: self.o200k.as_ref(),
        }
    }
}

/// Run `op` on `input` (JSON); the answer is JSON, `{"error": "…"}` when it fails.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn call(op: &str, input: &str) -> String {
    LOADED.with(|l| match dispatch(op, input, &mut l.borrow_mut()) {
        Ok(v) => v.to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    })
}

/// Keep the vocabulary `name` (`cl100k_base`, `o200k_base`: the deflated `.bin` of
/// assets/vocab) for later calls. Answers `{"loaded": name, "tokens": n}` or an error.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn load_vocab(name: &str, bytes: &[u8]) -> String {
    LOADED.with(|l| match vocab(name, bytes) {
        Ok(v) => {
            let n = v.len();
            let mut l = l.borrow_mut();
            match v.encoding() {
                Encoding::Cl100k => l.cl100k = Some(v),
                Encoding::O200k => l.o200k = Some(v),
            }
            json!({ "loaded": name, "tokens": n }).to_string()
        }
        Err(e) => json!({ "error": e }).to_string(),
    })
}

fn vocab(name: &str, bytes: &[u8]) -> Result<Vocab, String> {
    let e = Encoding::from_name(name).ok_or_else(|| format!("unknown vocabulary {name:?}"))?;
    Vocab::from_bytes(e, bytes).map_err(|e| e.0)
}

/// The `cost` operation's input.
#[derive(Deserialize)]
struct CostInput {
    /// The exchange as canonical JSON text.
    exchange: String,
    /// The model detailed (default: the first row's).
    #[serde(default)]
    chosen: Option<String>,
    /// Models counted besides [`cost::view::models`].
    #[serde(default)]
    extra: Vec<String>,
    /// The providers' own counts so far, by model ([`html::cost`]).
    #[serde(default)]
    exact: Value,
}

/// The `hf.template` operation's input: a `tokenizer_config.json` and/or a
/// `chat_template.jinja` (the config's template wins when it has one).
#[derive(Deserialize)]
struct TemplateInput {
    #[serde(default)]
    config: Option<String>,
    #[serde(default)]
    jinja: Option<String>,
}

/// The `hf.render` operation's input.
#[derive(Deserialize)]
struct RenderInput {
    /// The exchange as canonical JSON text.
    exchange: String,
    /// The label of the count (a Hub id, file names).
    #[serde(default)]
    model: String,
}

fn template_error(e: TemplateError) -> Value {
    json!({ "template_error": { "line": e.line, "message": e.message } })
}

/// The `snippet` operation's input (the Copy as code menu of a pane).
#[derive(Deserialize)]
struct SnippetInput {
    /// The exchange as canonical JSON text.
    exchange: String,
    /// The pane's format id.
    format: String,
    /// `curl`, `python` or `typescript`.
    lang: String,
    /// The pane's request body, as shown.
    body: String,
}

/// The operations. `input` and the answer are JSON.
///
/// - `cost`: `{exchange, chosen?, extra?, exact?}` → [`cost::view::View`] plus `vocabs` (which
///   are loaded) and `html` (the view's figures, [`html::cost`]);
/// - `vocabs`: `{}` → `{"cl100k_base": bool, "o200k_base": bool}`;
/// - `hf.template`: `{config?, jinja?}` → `{"template": true}` or
///   `{"template_error": {line, message}}`; kept for `hf.render`;
/// - `hf.tokenizer`: the `tokenizer.json` text itself → `{"tokenizer": true}`;
/// - `hf.render`: `{exchange, model?}` → `{"text", "tokens", "count"}` (`count` as
///   [`cost::hf::count`], `tokens` its total; null without a tokenizer) or
///   `{"template_error": …}`.
/// - `snippet`: `{exchange, format, lang, body}` → `{"text": …}`: the code that sends the body
///   ([`toolscope::snippets::snippet_for`]).
pub fn dispatch(op: &str, input: &str, loaded: &mut Loaded) -> Result<Value, String> {
    match op {
        "cost" => {
            let i: CostInput = serde_json::from_str(input).map_err(|e| e.to_string())?;
            let x: Exchange = toolscope::formats::json::parse("canonical", &i.exchange)
                .map_err(|e| e.to_string())?;
            let mut models = cost::view::models(&x);
            for m in i.extra {
                if !m.trim().is_empty() && !models.contains(&m) {
                    models.push(m);
                }
            }
            let chosen = i
                .chosen
                .filter(|c| !c.trim().is_empty())
                .or_else(|| models.first().cloned())
                .unwrap_or_else(|| "gpt-4o".into());
            let v = cost::view::view(&x, &models, &chosen, &loaded.vocabs());
            let html = html::cost(&v, &i.exact);
            let mut out = serde_json::to_value(v).map_err(|e| e.to_string())?;
            if let Some(o) = out.as_object_mut() {
                o.insert("vocabs".into(), vocabs(loaded));
                o.insert("html".into(), Value::String(html));
            }
            Ok(out)
        }
        "vocabs" => Ok(vocabs(loaded)),
        "snippet" => {
            let i: SnippetInput = serde_json::from_str(input).map_err(|e| e.to_string())?;
            let x: Exchange = toolscope::formats::json::parse("canonical", &i.exchange)
                .map_err(|e| e.to_string())?;
            let format = toolscope::formats::Format::from_id(&i.format)
                .ok_or_else(|| format!("unknown format {:?}", i.format))?;
            let lang = Lang::ALL
                .into_iter()
                .find(|l| l.id() == i.lang)
                .ok_or_else(|| format!("unknown language {:?}", i.lang))?;
            let text = toolscope::snippets::snippet_for(&x, format, lang, &i.body)
                .map_err(|e| e.to_string())?;
            Ok(json!({ "text": text }))
        }
        "hf.template" => {
            let i: TemplateInput = serde_json::from_str(input).map_err(|e| e.to_string())?;
            let in_config = i
                .config
                .as_deref()
                .is_some_and(|c| c.contains("\"chat_template\""));
            // The config's own template wins; a separate chat_template.jinja still takes the
            // config's special tokens (bos_token, eos_token).
            let t = match (i.config.as_deref(), i.jinja.as_deref()) {
                (Some(c), _) if in_config => Template::from_tokenizer_config(c),
                (None, None) => return Err("no template given".into()),
                (config, jinja) => Template::from_files(config, jinja),
            };
            Ok(match t {
                Ok(t) => {
                    loaded.template = Some(t);
                    json!({ "template": true })
                }
                Err(e) => {
                    loaded.template = None;
                    template_error(e)
                }
            })
        }
        "hf.tokenizer" => {
            loaded.tokenizer = Some(Tokenizer::from_json(input)?);
            Ok(json!({ "tokenizer": true }))
        }
        "hf.render" => {
            let i: RenderInput = serde_json::from_str(input).map_err(|e| e.to_string())?;
            let x: Exchange = toolscope::formats::json::parse("canonical", &i.exchange)
                .map_err(|e| e.to_string())?;
            let t = loaded.template.as_ref().ok_or("no chat template loaded")?;
            let o = cost::hf::RenderOptions::default();
            let text = match t.render_with(&x, &o) {
                Ok(text) => text,
                Err(e) => return Ok(template_error(e)),
            };
            let count = match &loaded.tokenizer {
                Some(k) => match cost::hf::count(t, k, &x, &o, &i.model) {
                    Ok(c) => serde_json::to_value(c).map_err(|e| e.to_string())?,
                    Err(e) => return Ok(template_error(e)),
                },
                None => Value::Null,
            };
            let summary = match count.get("total") {
                Some(n) => format!(
                    "{}: {n} tokens — tools {}, messages {} ({})",
                    i.model,
                    count["tools"],
                    count["messages"],
                    if count["exact"] == true {
                        "exact"
                    } else {
                        "estimate"
                    }
                ),
                None => format!("{}: no tokenizer.json, not counted", i.model),
            };
            Ok(
                json!({ "text": text, "tokens": count.get("total"), "count": count, "summary": summary }),
            )
        }
        _ => Err(format!("unknown operation {op:?}")),
    }
}

fn vocabs(l: &Loaded) -> Value {
    json!({ "cl100k_base": l.cl100k.is_some(), "o200k_base": l.o200k.is_some() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_answers_rows_and_unknown_ops_say_so() {
        let mut l = Loaded::default();
        let x = toolscope::formats::read_any(toolscope::examples::EXAMPLES[0].source)
            .expect("example")
            .0
            .exchange;
        let input = json!({ "exchange": toolscope::formats::json::pretty(&x) }).to_string();
        let v = dispatch("cost", &input, &mut l).expect("cost");
        assert!(v["rows"].as_array().is_some_and(|r| r.len() >= 9));
        assert_eq!(v["vocabs"]["o200k_base"], false);
        let bytes = std::fs::read("../assets/vocab/o200k_base.bin").expect("vocab file");
        assert!(load_vocab("o200k_base", &bytes).contains("\"tokens\""));
        assert!(call("nope", "{}").contains("unknown operation"));
        assert!(call("hf.render", &input).contains("no chat template"));
        let body = toolscope::formats::Format::Anthropic
            .encode(&x, toolscope::formats::Kind::Request)
            .text;
        let input = json!({ "exchange": toolscope::formats::json::pretty(&x), "format": "anthropic", "lang": "curl", "body": body });
        let v = dispatch("snippet", &input.to_string(), &mut l).expect("snippet");
        assert!(v["text"]
            .as_str()
            .is_some_and(|t| t.contains("\ncurl ") && t.contains("api.anthropic.com")));
        assert!(call("cost", "{").contains("error"));
    }

    #[test]
    fn an_open_weight_template_and_tokenizer_render_and_count_the_exchange() {
        let mut l = Loaded::default();
        let fixture =
            |f: &str| std::fs::read_to_string(format!("../tests/fixtures/hf/{f}")).expect(f);
        let t = json!({ "config": fixture("tokenizer_config.json") }).to_string();
        assert_eq!(
            dispatch("hf.template", &t, &mut l),
            Ok(json!({ "template": true }))
        );
        let tok = fixture("tiny-bpe/tokenizer.json");
        assert_eq!(
            dispatch("hf.tokenizer", &tok, &mut l),
            Ok(json!({ "tokenizer": true }))
        );
        let x: Exchange =
            toolscope::formats::json::parse("x", &fixture("exchange.json")).expect("exchange");
        let input = json!({ "exchange": toolscope::formats::json::pretty(&x), "model": "tiny" })
            .to_string();
        let v = dispatch("hf.render", &input, &mut l).expect("render");
        assert!(
            v["text"]
                .as_str()
                .is_some_and(|t| t.contains(&x.tools[0].name)),
            "{v}"
        );
        assert!(v["tokens"].as_u64().is_some_and(|n| n > 0));
        assert_eq!(v["count"]["model"], "tiny");
        // A broken template answers its line.
        let bad = json!({ "jinja": "line one\n{{ messages[ }}\n" }).to_string();
        let e = dispatch("hf.template", &bad, &mut l).expect("answers");
        assert_eq!(e["template_error"]["line"], 2, "{e}");
    }
}
