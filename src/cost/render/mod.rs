//! The tool definitions as each model family reads them, with how much of that text is known.

pub mod anthropic;
pub mod openai;

use super::{Family, Model};
use crate::model::{ChoiceMode, Exchange, Tool};
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

/// The tools of a request as a model reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendering {
    /// The model rendered for.
    pub model: String,
    /// Its family.
    pub family: Family,
    /// The text (empty when the request has no tools).
    pub text: String,
    /// How much of it is known.
    pub known: Known,
    /// Where it comes from and what is assumed, for a person.
    pub note: String,
    /// How the tool choice reaches the model, when it is not the default.
    pub choice: Option<String>,
}

/// The tool definitions of `x` as `model` reads them.
pub fn render(x: &Exchange, model: &str) -> Rendering {
    let m = Model::parse(model);
    let tools = &x.tools;
    let (text, known, note) = match m.family {
        Family::OpenAi if m.harmony() => (
            nonempty(tools, || openai::section(tools, openai::Dialect::Harmony)),
            Known::Exact,
            "harmony format (gpt-oss): the developer message's tools section, byte for byte as \
             OpenAI's harmony renderer"
                .to_string(),
        ),
        Family::OpenAi => (
            nonempty(tools, || openai::section(tools, openai::Dialect::Api)),
            Known::Proven,
            "TypeScript namespace in the system message, as harmony renders it; the layout of \
             nested objects, numeric enums and tools without properties follows the prompt token \
             counts the API reported (hmarr/openai-chat-tokens, OpenAI cookbook)"
                .to_string(),
        ),
        Family::Anthropic => anthropic::render(x, &m),
        Family::Mistral => (
            nonempty(tools, || {
                format!(
                    "[AVAILABLE_TOOLS]{}[/AVAILABLE_TOOLS]",
                    py_json(&Value::Array(tools.iter().map(function_json).collect()))
                )
            }),
            Known::Documented,
            "mistral-common (tokenizer v3+) puts the tool list as JSON between [AVAILABLE_TOOLS] \
             control tokens before the last user message; spacing follows Python's json.dumps"
                .to_string(),
        ),
        Family::Gemini => (
            nonempty(tools, || {
                crate::formats::json::pretty(&json!({"functionDeclarations":
                    tools.iter().map(|t| json!({
                        "name": t.name,
                        "description": t.description.clone().unwrap_or_default(),
                        "parameters": t.input_schema,
                    })).collect::<Vec<_>>()}))
            }),
            Known::Approximate,
            "Google does not publish how function declarations enter Gemini's prompt; shown as \
             sent. Exact counts come from the countTokens endpoint"
                .to_string(),
        ),
        Family::Cohere => (
            pretty_functions(tools),
            Known::Approximate,
            "Cohere's hosted tool-use preamble is not published; the tool list shown as JSON"
                .to_string(),
        ),
        Family::DeepSeek => (
            pretty_functions(tools),
            Known::Approximate,
            "DeepSeek's hosted API does not publish its tool prompt (the open-weights chat \
             template lists the tools as JSON in the system prompt); shown as JSON"
                .to_string(),
        ),
        Family::Ollama => (
            nonempty(tools, || {
                tools
                    .iter()
                    .map(|t| serde_json::to_string(&function_json(t)).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            Known::Approximate,
            "Ollama hands the tools to the model's chat template (`{{ .Tools }}`), which most \
             templates print as one JSON object per tool; the wording around them depends on the \
             model"
                .to_string(),
        ),
        Family::Bedrock => (
            nonempty(tools, || {
                crate::formats::json::pretty(&json!({"tools": tools.iter().map(|t| json!({
                    "toolSpec": {"name": t.name, "description": t.description,
                                 "inputSchema": {"json": t.input_schema}}
                })).collect::<Vec<_>>()}))
            }),
            Known::Approximate,
            "Bedrock passes toolConfig to the model's own template (Nova, Llama, Mistral …), \
             which AWS does not publish; shown as sent"
                .to_string(),
        ),
    };
    Rendering {
        model: m.id.clone(),
        family: m.family,
        text,
        known,
        note,
        choice: choice_note(x, &m),
    }
}

/// The tools as a pretty JSON array of bare functions (empty for no tools).
fn pretty_functions(tools: &[Tool]) -> String {
    nonempty(tools, || {
        serde_json::to_string_pretty(&Value::Array(tools.iter().map(function_json).collect()))
            .unwrap_or_default()
    })
}

fn nonempty(tools: &[Tool], f: impl FnOnce() -> String) -> String {
    if tools.is_empty() {
        String::new()
    } else {
        f()
    }
}

/// `{"type": "function", "function": {name, description, parameters}}`.
pub(crate) fn function_json(t: &Tool) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("name".into(), Value::String(t.name.clone()));
    if let Some(d) = &t.description {
        f.insert("description".into(), Value::String(d.clone()));
    }
    f.insert("parameters".into(), t.input_schema.clone());
    json!({"type": "function", "function": Value::Object(f)})
}

/// How the tool choice reaches the model, when it is not the default.
fn choice_note(x: &Exchange, m: &Model) -> Option<String> {
    let c = x.tool_choice.as_ref()?;
    let what = match (c.mode, c.tools.as_slice()) {
        (ChoiceMode::Auto, []) => return None,
        (ChoiceMode::None, _) => "none".to_string(),
        (ChoiceMode::Required, [one]) => format!("forced tool {one}"),
        (ChoiceMode::Required, _) => "required".to_string(),
        (ChoiceMode::Validated, _) => "validated".to_string(),
        (ChoiceMode::Auto, names) => format!("auto, limited to {}", names.join(", ")),
    };
    let how = match m.family {
        Family::OpenAi => match (c.mode, c.tools.len()) {
            (ChoiceMode::None, _) => "1 token in the prompt (API-recorded)",
            (ChoiceMode::Required, 1) => {
                "the tool's name plus 4 tokens in the prompt (API-recorded)"
            }
            _ => "enforced by the sampler; its prompt text is not published",
        },
        Family::Anthropic => "selects the shorter any/tool variant of the tool-use system prompt",
        _ => "enforced by the provider; its prompt text is not published",
    };
    Some(format!("tool choice {what}: {how}"))
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
    crate::snippets::push_quoted(s, out, |c, out| {
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
