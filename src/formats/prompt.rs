//! How a provider's models read the tool definitions of a request: the text they become inside
//! the prompt, and what a token count of that text needs to know.
//!
//! Each provider's [`Reader`] lives in its format's folder (`prompt.rs` there); the registry
//! hands out the one a provider's models use (`Provider::reader` in `formats/mod.rs`). The Cost
//! view (`cost::render`, `cost::count`) only asks a reader, so it names no provider.

use crate::formats::Format;
use crate::model::{ChoiceMode, Exchange, Message, Part, Tool};
use serde_json::{json, Value};

/// How much of a rendering is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Byte for byte the provider's published renderer (harmony for gpt-oss).
    Exact,
    /// Reconstructed, and confirmed by the prompt token counts the provider's API reported.
    Proven,
    /// The provider documents the shape (or its size), not every byte.
    Documented,
    /// Not published: a plausible shape, for reading and for estimates.
    Approximate,
}

impl Known {
    /// `exact`, `proven`, `documented` or `approximate`.
    pub fn as_str(self) -> &'static str {
        match self {
            Known::Exact => "exact",
            Known::Proven => "proven",
            Known::Documented => "documented",
            Known::Approximate => "approximate",
        }
    }
}

/// The tool definitions as a model reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolText {
    /// The text (empty when the request has no tools).
    pub text: String,
    /// How much of it is known.
    pub known: Known,
    /// Where it comes from and what is assumed, for a person.
    pub note: String,
}

/// What an estimate counts for the tool definitions.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The tool text, each piece counted on its own; the sum is scaled by `scale`.
    pub pieces: Vec<String>,
    /// How many of the provider's tokens one counted token is (1 when counted as is).
    pub scale: f64,
    /// Tokens the provider adds whose text is not published (a tool-use system prompt).
    pub fixed: u64,
    /// What `fixed` is, for a person (with its size), when there is one.
    pub fixed_what: Option<String>,
}

impl Estimate {
    /// The definitions as compact JSON, as most providers' hidden templates print them (the
    /// pretty text of a rendering would count its indentation).
    pub fn compact_json(tools: &[Tool]) -> Estimate {
        let defs: Vec<_> = tools.iter().map(function_json).collect();
        Estimate::text(serde_json::to_string(&defs).unwrap_or_default())
    }

    /// One text counted as is.
    pub fn text(text: String) -> Estimate {
        Estimate {
            pieces: vec![text],
            scale: 1.0,
            fixed: 0,
            fixed_what: None,
        }
    }
}

/// A count by the framing rules the provider's reported prompt counts confirm: tokens per
/// part of the request, and why the count is an estimate when it is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Framing {
    /// The system prompt with its framing (0 without one).
    pub system: u64,
    /// Each canonical message with its framing.
    pub messages: Vec<u64>,
    /// Fixed per request (the reply primer).
    pub primer: u64,
    /// What the tool definitions add.
    pub tools: u64,
    /// Why the count is not proven (empty: it is).
    pub why: Vec<String>,
    /// Why the request's shape is not one the published counts prove for the model: named
    /// when nothing else makes the count an estimate.
    pub unproven_shape: Option<String>,
    /// The rules, for the method line.
    pub rules: &'static str,
    /// The models and request shapes the published counts prove, for the method line.
    pub proven: &'static str,
    /// The largest deviation of the rules from the published counts.
    pub margin: u64,
}

/// How one provider's models read tool definitions. Only [`Reader::render`] differs for every
/// provider; the rest has the answer of a provider that publishes nothing.
pub trait Reader: Sync {
    /// The tool definitions of `x` as `model` reads them.
    fn render(&self, x: &Exchange, model: &str) -> ToolText;

    /// How a tool choice other than the default reaches the model (`forced`: how many tools
    /// the choice names).
    fn choice(&self, _mode: ChoiceMode, _forced: usize) -> &'static str {
        "enforced by the provider; its prompt text is not published"
    }

    /// What an estimate of the tool definitions counts.
    fn estimate(&self, x: &Exchange, _model: &str) -> Estimate {
        Estimate::compact_json(&x.tools)
    }

    /// The estimate's method line when a vocabulary is loaded, when the provider's documented
    /// counts calibrate it (`None`: the generic line).
    fn calibration(&self) -> Option<&'static str> {
        None
    }

    /// The tokens every request pays for the reply (the primer).
    fn primer(&self) -> u64 {
        3
    }

    /// A request of `source` read by rules recorded for another format: why.
    fn source_note(&self, _source: Format) -> Option<&'static str> {
        None
    }

    /// The count by the provider's recorded framing rules, with `n` counting a text in its
    /// tokenizer; `None` when the provider has none.
    fn framing(&self, _x: &Exchange, _model: &str, _n: &dyn Fn(&str) -> u64) -> Option<Framing> {
        None
    }
}

/// The text parts of a message, joined.
pub fn text_of(m: &Message) -> String {
    m.parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// `f()`, or the empty text for a request without tools.
pub fn nonempty(tools: &[Tool], f: impl FnOnce() -> String) -> String {
    if tools.is_empty() {
        String::new()
    } else {
        f()
    }
}

/// The tools as a pretty JSON array of bare functions (empty for no tools).
pub fn pretty_functions(tools: &[Tool]) -> String {
    nonempty(tools, || {
        serde_json::to_string_pretty(&Value::Array(tools.iter().map(function_json).collect()))
            .unwrap_or_default()
    })
}

/// `{"type": "function", "function": {name, description, parameters}}`.
pub fn function_json(t: &Tool) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("name".into(), Value::String(t.name.clone()));
    if let Some(d) = &t.description {
        f.insert("description".into(), Value::String(d.clone()));
    }
    f.insert("parameters".into(), t.input_schema.clone());
    json!({"type": "function", "function": Value::Object(f)})
}

/// JSON as Python's `json.dumps` writes it by default: `, ` and `: ` separators, non-ASCII
/// escaped.
pub fn py_json(v: &Value) -> String {
    let mut out = String::new();
    py_write(v, &mut out);
    out
}

fn py_write(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => py_str(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_write(x, out);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                py_str(k, out);
                out.push_str(": ");
                py_write(x, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn py_str(s: &str, out: &mut String) {
    crate::text::push_quoted(s, out, |c, out| {
        if (c as u32) < 0x20 || (c as u32) > 0x7e {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    });
}
