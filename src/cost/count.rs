//! Prompt tokens per request: the tool definitions, the messages, the total, `exact` or
//! `estimate` with the method.
//!
//! A family whose row counts with tiktoken ([`Tokens::Tiktoken`]) is counted by its reader's
//! framing rules ([`Reader::framing`](crate::formats::prompt::Reader::framing): which tokens
//! each message, the tools and the reply primer add, proven by the provider's reported prompt
//! counts for some models and request shapes) with the model's encoding: exact where those
//! counts prove the rules, else an estimate with a margin and the reasons. Other families are
//! estimates: see [`count`].

use super::bpe::{Encoding, Vocab};
use super::{Family, Model};
use crate::formats::prompt::text_of;
use crate::formats::Format;
use crate::model::{Exchange, Part, Role};
use crate::providers::Tokens;
use serde::Serialize;

/// The vocabularies available to a count. The native build has both built in
/// ([`Vocabs::builtin`]); the page passes the ones it has fetched.
#[derive(Debug, Clone, Copy, Default)]
pub struct Vocabs<'a> {
    /// `cl100k_base`, if loaded.
    pub cl100k: Option<&'a Vocab>,
    /// `o200k_base`, if loaded.
    pub o200k: Option<&'a Vocab>,
}

impl<'a> Vocabs<'a> {
    /// Both built-in vocabularies (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn builtin() -> Vocabs<'static> {
        Vocabs {
            cl100k: Some(Vocab::builtin(Encoding::Cl100k)),
            o200k: Some(Vocab::builtin(Encoding::O200k)),
        }
    }

    /// The vocabulary of `e`, if loaded.
    pub fn get(&self, e: Encoding) -> Option<&'a Vocab> {
        match e {
            Encoding::Cl100k => self.cl100k,
            Encoding::O200k => self.o200k,
        }
    }
}

/// The prompt tokens of one request for one model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Count {
    /// The model counted for.
    pub model: String,
    /// Its provider family (`openai`, `anthropic`, …).
    pub family: &'static str,
    /// What the tool definitions add (their text, their framing, a tool-use system prompt).
    pub tools: u64,
    /// Everything else: system prompt, messages, the reply primer.
    pub messages: u64,
    /// `tools + messages`.
    pub total: u64,
    /// True when every part is counted by a rule the provider's reported counts confirm for
    /// this model and this shape of request.
    pub exact: bool,
    /// For an estimate by framing rules, how far off it may be: the largest deviation of the
    /// rules from the published counts; `None` when exact or not measured (other families).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<u64>,
    /// How it was counted, and why it is an estimate when it is one.
    pub method: String,
}

/// A request's tokens in parts, so rounds of a tool loop can be summed without recounting.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown {
    /// The system prompt with its framing (0 without one).
    pub system: u64,
    /// Each canonical message with its framing (a tool message: all its results).
    pub messages: Vec<u64>,
    /// Fixed per request (the reply primer).
    pub primer: u64,
    /// What the tool definitions add.
    pub tools: u64,
    /// See [`Count::exact`].
    pub exact: bool,
    /// See [`Count::margin`].
    pub margin: Option<u64>,
    /// See [`Count::method`].
    pub method: String,
}

impl Breakdown {
    /// Tokens of the request holding the first `n` messages.
    pub fn prompt(&self, n: usize) -> u64 {
        self.system + self.messages.iter().take(n).sum::<u64>() + self.primer + self.tools
    }
}

/// The prompt tokens of `x` sent to `model`.
///
/// Non-OpenAI families are estimates: text and tool JSON counted with `o200k_base`, 3 tokens of
/// framing per message; Claude adds the documented tool-use system prompt, with framing and a
/// tool-JSON factor calibrated on Anthropic's documented `count_tokens` examples. Without the
/// needed vocabulary, characters / 4.
pub fn count(x: &Exchange, model: &str, vocabs: &Vocabs) -> Count {
    count_in(x, model, vocabs, None)
}

/// [`count`] for an exchange read from a `source` format: a Responses request is counted with
/// the Chat Completions rules and labelled an estimate, as the Responses framing is not recorded.
pub fn count_in(x: &Exchange, model: &str, vocabs: &Vocabs, source: Option<Format>) -> Count {
    let m = Model::parse(model);
    let b = breakdown(x, &m, vocabs, source);
    let messages = b.prompt(x.messages.len()) - b.tools;
    Count {
        model: m.id.clone(),
        family: m.family.id(),
        tools: b.tools,
        messages,
        total: b.tools + messages,
        exact: b.exact,
        margin: b.margin,
        method: b.method,
    }
}

/// The parts of [`count`].
pub fn breakdown(x: &Exchange, m: &Model, vocabs: &Vocabs, source: Option<Format>) -> Breakdown {
    match m.family.row().tokens {
        Tokens::Tiktoken => framed_breakdown(x, m, vocabs, source),
        Tokens::ClaudeToolPrompt | Tokens::Estimate => estimate_breakdown(x, m, vocabs),
    }
}

/// Counts text: exactly with a vocabulary, else characters / 4; scaled for other tokenizers.
struct Counter<'a> {
    vocab: Option<&'a Vocab>,
    factor: f64,
}

impl Counter<'_> {
    fn n(&self, s: &str) -> u64 {
        if s.is_empty() {
            return 0;
        }
        let raw = match self.vocab {
            Some(v) => v.count(s) as f64,
            None => (s.chars().count() as f64 / 4.0).ceil(),
        };
        if self.factor == 1.0 {
            raw as u64
        } else {
            (raw * self.factor).round() as u64
        }
    }
}

/// The count by the family's framing rules with the model's tiktoken encoding. A family whose
/// reader has no rules is estimated.
fn framed_breakdown(x: &Exchange, m: &Model, vocabs: &Vocabs, source: Option<Format>) -> Breakdown {
    let reader = m.family.reader();
    let mut why: Vec<String> = Vec::new();
    if let Some(note) = source.and_then(|s| reader.source_note(s)) {
        why.push(note.into());
    }
    let enc = m.encoding().unwrap_or_else(|| {
        why.push(format!(
            "{} is not a known {} model: o200k_base assumed",
            m.id,
            m.family.name()
        ));
        Encoding::O200k
    });
    let vocab = vocabs.get(enc);
    if vocab.is_none() {
        why.push(format!("{} not loaded: characters / 4", enc.name()));
    }
    let c = Counter { vocab, factor: 1.0 };
    let Some(f) = reader.framing(x, &m.id, &|s| c.n(s)) else {
        return estimate_breakdown(x, m, vocabs);
    };
    why.extend(f.why);
    if why.is_empty() {
        why.extend(f.unproven_shape);
    }
    let exact = why.is_empty();
    let method = if exact {
        format!(
            "exact: {} with {} (a shape published counts prove: {})",
            f.rules,
            enc.name(),
            f.proven
        )
    } else {
        format!(
            "estimate ±{}: {} with {}; {}",
            f.margin,
            f.rules,
            enc.name(),
            why.join("; ")
        )
    };
    Breakdown {
        system: f.system,
        messages: f.messages,
        primer: f.primer,
        tools: f.tools,
        exact,
        margin: (!exact).then_some(f.margin),
        method,
    }
}

fn estimate_breakdown(x: &Exchange, m: &Model, vocabs: &Vocabs) -> Breakdown {
    let reader = m.family.reader();
    let vocab = vocabs.get(Encoding::O200k);
    let c = Counter { vocab, factor: 1.0 };
    let mut method = match (vocab, reader.calibration()) {
        (Some(_), Some(calibrated)) => calibrated.to_string(),
        (Some(_), None) => format!(
            "estimate: o200k_base for text and the tool definitions as JSON ({} tokenizer not \
             available offline), 3 tokens of framing per message",
            m.family.id()
        ),
        (None, _) => "estimate: characters / 4 (o200k_base not loaded)".to_string(),
    };
    let system = x.system.as_deref().map(|s| 3 + c.n(s)).unwrap_or(0);
    let mut tools = 0;
    if !x.tools.is_empty() {
        let e = reader.estimate(x, &m.id);
        let counted: u64 = e.pieces.iter().map(|p| c.n(p)).sum();
        tools = e.fixed + (counted as f64 * e.scale).round() as u64;
        if let Some(which) = &e.fixed_what {
            method.push_str(&format!(
                "; documented tool-use system prompt ({which} tokens)"
            ));
        }
    }
    let loop_from = current_turn(x);
    let mut replayed = 0;
    let messages: Vec<u64> = x
        .messages
        .iter()
        .enumerate()
        .map(|(i, msg)| {
            let mut n = 3 + c.n(&text_of(msg));
            for p in &msg.parts {
                n += match p {
                    Part::Text { .. } => 0,
                    Part::ToolCall(k) => 3 + c.n(&k.name) + c.n(&k.arguments_text()),
                    Part::ToolResult(r) => 3 + c.n(&r.content.to_text()),
                    Part::Reasoning(r) if i >= loop_from && billed(r, m.family) => {
                        replayed += 1;
                        c.n(&r.readable())
                    }
                    Part::Reasoning(_) => 0,
                    Part::Hosted(h) => c.n(&h.value.to_string()),
                    Part::Raw { value, .. } => c.n(&value.to_string()),
                };
            }
            n
        })
        .collect();
    if replayed > 0 {
        method.push_str(&format!(
            "; {replayed} reasoning part(s) of the current tool loop counted as their visible text \
             (sent back and billed as input; earlier turns' reasoning is not)"
        ));
    }
    Breakdown {
        system,
        messages,
        primer: reader.primer(),
        tools,
        exact: false,
        margin: None,
        method,
    }
}

/// Index of the first message of the current turn: the messages after the last user message
/// that is not only tool results. Reasoning sent back inside this tool loop is read and billed
/// as input; providers drop earlier turns' reasoning from the context (Anthropic: "thinking
/// blocks from previous turns are stripped … and don't count toward your context window",
/// <https://docs.claude.com/en/docs/build-with-claude/extended-thinking>; OpenAI keeps
/// reasoning items only across the function calls of one turn,
/// <https://platform.openai.com/docs/guides/reasoning>; DeepSeek reads `reasoning_content` back
/// only in a tool-call turn, <https://api-docs.deepseek.com/guides/thinking_mode>).
fn current_turn(x: &Exchange) -> usize {
    x.messages
        .iter()
        .rposition(|m| {
            m.role == Role::User && m.parts.iter().any(|p| !matches!(p, Part::ToolResult(_)))
        })
        .map_or(0, |i| i + 1)
}

/// Whether `family` receives this reasoning: state it issued itself, or visible text without
/// state (DeepSeek's `reasoning_content`). State issued by another provider is dropped.
fn billed(r: &crate::model::Reasoning, family: Family) -> bool {
    match &r.opaque {
        Some(o) => o.provider == family.id(),
        None => !r.is_opaque_only(),
    }
}
