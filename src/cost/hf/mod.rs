//! Open-weight models: an exchange rendered with a Hugging Face model's own chat template and
//! counted with its own tokenizer.
//!
//! - [`Template`]: the `chat_template` of a `tokenizer_config.json` (or a `chat_template.jinja`
//!   file), rendered with a Jinja engine (minijinja) in the context transformers'
//!   `apply_chat_template` builds: `messages`, `tools`, `add_generation_prompt`, the special
//!   tokens;
//! - [`Tokenizer`]: a `tokenizer.json` (BPE model, byte-level or SentencePiece-style
//!   pre-tokenisation, added tokens) that counts the rendered text.
//!
//! Plain Rust, no UI, no IO: the caller fetches or reads the files.

use crate::model::Exchange;

/// Why a template could not be read or rendered; `line` is 1-based in the template source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The template line the error is at, when known.
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "template line {l}: {}", self.message),
            None => write!(f, "template: {}", self.message),
        }
    }
}

impl std::error::Error for TemplateError {}

/// A model's chat template.
#[derive(Debug, Clone)]
pub struct Template {}

impl Template {
    /// From a `tokenizer_config.json`: `chat_template` is a string, or a list of
    /// `{name, template}` (`tool_use` is used when the exchange has tools, else `default`).
    pub fn from_tokenizer_config(text: &str) -> Result<Template, TemplateError> {
        let _ = text;
        Err(TemplateError {
            line: None,
            message: "not implemented yet".into(),
        })
    }

    /// From a `chat_template.jinja` file.
    pub fn from_jinja(source: &str) -> Result<Template, TemplateError> {
        let _ = source;
        Err(TemplateError {
            line: None,
            message: "not implemented yet".into(),
        })
    }

    /// The prompt text the model receives for `x`.
    pub fn render(&self, x: &Exchange) -> Result<String, TemplateError> {
        let _ = x;
        Err(TemplateError {
            line: None,
            message: "not implemented yet".into(),
        })
    }
}

/// A model's tokenizer (`tokenizer.json`).
#[derive(Debug, Clone)]
pub struct Tokenizer {}

impl Tokenizer {
    /// Reads a Hugging Face `tokenizer.json`.
    pub fn from_json(text: &str) -> Result<Tokenizer, String> {
        let _ = text;
        Err("not implemented yet".into())
    }

    /// The token ids of `text` (no special tokens added: a chat template writes its own).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let _ = text;
        Vec::new()
    }

    /// How many tokens `text` is.
    pub fn count(&self, text: &str) -> usize {
        self.encode(text).len()
    }
}
