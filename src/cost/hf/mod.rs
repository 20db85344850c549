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

pub mod template;
pub mod tokenizer;

pub use template::{RenderOptions, Template};
pub use tokenizer::Tokenizer;

use super::Count;
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

/// The family id of counts made with a model's own template and tokenizer.
pub const FAMILY: &str = "huggingface";

/// The prompt tokens of `x` for a model given by its chat template and tokenizer: the rendered
/// prompt counted, and the tools' share as what leaving them out of the render saves (a
/// template writes its tool-use instructions only when there are tools, so those count as the
/// tools'). `model` labels the count (a Hub id, or the file names). Always exact: the template
/// and the tokenizer are the model's own, every normalizer included.
pub fn count(
    template: &Template,
    tokenizer: &Tokenizer,
    x: &Exchange,
    options: &RenderOptions,
    model: &str,
) -> Result<Count, TemplateError> {
    let full = template.render_with(x, options)?;
    let total = tokenizer.count(&full) as u64;
    let bare = if x.tools.is_empty() {
        total
    } else {
        let o = RenderOptions {
            without_tools: true,
            ..options.clone()
        };
        tokenizer.count(&template.render_with(x, &o)?) as u64
    };
    let tools = total.saturating_sub(bare);
    Ok(Count {
        model: model.to_string(),
        family: FAMILY,
        tools,
        messages: total - tools,
        total,
        exact: true,
        margin: None,
        method: "the model's own chat template and tokenizer".to_string(),
    })
}

/// What each tool adds to the prompt, in the exchange's tool order: the tokens saved by
/// rendering without that one tool. The renders keep only the system prompt and the first user
/// message (where templates put the tools: the system turn, the first or the last user turn),
/// so a 50-tool, 1,000-message exchange costs 51 small renders, not 51 full ones.
pub fn tool_counts(
    template: &Template,
    tokenizer: &Tokenizer,
    x: &Exchange,
    options: &RenderOptions,
) -> Result<Vec<(String, u64)>, TemplateError> {
    let mut small = Exchange {
        system: x.system.clone(),
        tools: x.tools.clone(),
        messages: Vec::new(),
        ..Exchange::default()
    };
    if let Some(m) = x
        .messages
        .iter()
        .find(|m| m.role == crate::model::Role::User)
    {
        small.messages.push(m.clone());
    }
    let o = RenderOptions {
        add_generation_prompt: Some(true),
        without_tools: false,
        ..options.clone()
    };
    let total = tokenizer.count(&template.render_with(&small, &o)?) as u64;
    let mut out = Vec::with_capacity(x.tools.len());
    for i in 0..x.tools.len() {
        let mut y = small.clone();
        let tool = y.tools.remove(i);
        // The last tool out: the template's tools-less form, as in `count`.
        let n = if y.tools.is_empty() {
            let bare = RenderOptions {
                without_tools: true,
                ..o.clone()
            };
            tokenizer.count(&template.render_with(&small, &bare)?) as u64
        } else {
            tokenizer.count(&template.render_with(&y, &o)?) as u64
        };
        out.push((tool.name, total.saturating_sub(n)));
    }
    Ok(out)
}
