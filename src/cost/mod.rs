//! Tool cost: the text a model reads for the tool definitions, and what they cost in tokens.
//!
//! A provider turns the `tools` of a request into text inside the prompt (a TypeScript
//! `namespace functions` block for OpenAI models, a tool-use system prompt for Claude), and those
//! tokens are billed on every request — in an agent loop, on every round. This module:
//! - [`render`]: the tool definitions as a given model reads them, labelled with how much of
//!   that text is known ([`Known`]);
//! - [`count`]: the prompt tokens of a request, split into tools and messages, `exact` or
//!   `estimate` with the method ([`bpe`] is tiktoken's algorithm with `cl100k_base` and
//!   `o200k_base`);
//! - [`rounds`]: per round of a tool loop, the prompt tokens, the tools' share and the running
//!   total;
//! - [`view`]: the page's Cost view in one call (rows per model, tools, rounds, caching);
//! - [`checks`]: findings for production tool sets (share of the prompt, long descriptions, many
//!   tools, untyped parameters).
//!
//! Everything takes the canonical [`Exchange`], so any request format works. Plain Rust, no UI;
//! the vocabularies are loaded by the caller ([`Vocabs`]): embedded in the native build, fetched
//! by the page.

pub mod bpe;
pub mod checks;
pub mod count;
pub mod hf;
pub mod render;
pub mod rounds;
pub mod view;

pub use bpe::{Encoding, Vocab};
pub use count::{count, count_in, Count, Vocabs};
pub use render::{render, Known, Rendering};
pub use rounds::{rounds, rounds_in, Round};

#[cfg(doc)]
use crate::model::Exchange;

/// A provider family: who renders the tools into the prompt, and how (the provider table's
/// [`Row::tokens`](crate::providers::Row::tokens) and [`Row::cache`](crate::providers::Row::cache)).
pub use crate::providers::Provider as Family;
use crate::providers::Tokens;

/// A model id with what Toolscope knows about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// As given (`gpt-4o-mini`, `claude-sonnet-4-5`, `anthropic.claude-3-5-haiku-…`).
    pub id: String,
    /// Whose rules apply (Claude on Bedrock counts as Anthropic).
    pub family: Family,
}

/// One model per family for `toolscope tokens` without `--model`: an `o200k_base` and a
/// `cl100k_base` OpenAI model, then one of each other family (the provider table's
/// [`Row::counted`](crate::providers::Row::counted)).
pub fn representative() -> impl Iterator<Item = &'static str> {
    Family::ALL
        .into_iter()
        .flat_map(|f| f.row().counted.iter().copied())
}

impl Model {
    /// What `id` is: whose model reads the tools ([`Family::reader_of`]); an unknown id is
    /// treated as an OpenAI-compatible model (and estimated).
    pub fn parse(id: &str) -> Model {
        Model {
            id: id.to_string(),
            family: Family::reader_of(id),
        }
    }

    /// The tiktoken encoding of an OpenAI model (`None` for other families and unknown ids).
    pub fn encoding(&self) -> Option<Encoding> {
        match self.family.row().tokens {
            Tokens::Tiktoken => {
                let l = self.id.to_ascii_lowercase();
                // A model id namespaced by its provider's id (`<provider>/<model>`).
                let bare = l
                    .strip_prefix(self.family.id())
                    .and_then(|rest| rest.strip_prefix('/'));
                encoding_of(bare.unwrap_or(&l))
            }
            Tokens::ClaudeToolPrompt | Tokens::Estimate => None,
        }
    }
}

/// Model id → encoding, as tiktoken's `model.py` maps them.
fn encoding_of(l: &str) -> Option<Encoding> {
    const O200K: &[&str] = &[
        "gpt-4o",
        "gpt-4.1",
        "gpt-4.5",
        "gpt-5",
        "o1",
        "o3",
        "o4",
        "chatgpt-4o",
        "gpt-oss",
        "codex",
        "gpt-realtime",
        "gpt-audio",
        "computer-use",
    ];
    const CL100K: &[&str] = &[
        "gpt-4",
        "gpt-3.5",
        "gpt-35",
        "text-embedding-3",
        "text-embedding-ada",
    ];
    if O200K.iter().any(|p| l.starts_with(p)) {
        Some(Encoding::O200k)
    } else if CL100K.iter().any(|p| l.starts_with(p)) {
        Some(Encoding::Cl100k)
    } else {
        None
    }
}
