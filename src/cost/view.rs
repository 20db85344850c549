//! What the page's Cost view shows, computed in one call (by the lazy wasm module, `lazy/`):
//! a [`super::Count`] per model, and for the chosen model each tool's cost with its place in the
//! rendered text, the rounds of the tool loop with what prompt caching would take from them.
//!
//! The counts are [`super::count`]'s, so a row equals `toolscope tokens --json --model <id>` for
//! the same exchange.

use super::count::{count, Count, Vocabs};
use super::render::render;
use super::rounds::rounds;
use super::Model;
use crate::model::{Exchange, ModelFamily, Tool};
// A provider's prompt caching, from its row.
use crate::providers::{Cache as CacheRule, Tokens};
use serde::Serialize;
use serde_json::json;

/// Everything the Cost view shows for one exchange.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct View {
    /// One count per model, in [`models`] order.
    pub rows: Vec<Count>,
    /// The chosen model in detail.
    pub detail: Detail,
}

/// The chosen model's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Detail {
    /// Model id.
    pub model: String,
    /// The tool definitions as the model reads them.
    pub text: String,
    /// How much of `text` is known (`exact`, `proven`, `documented`, `approximate`).
    pub known: &'static str,
    /// Where the rendering comes from.
    pub note: String,
    /// Each tool, costliest first.
    pub tools: Vec<ToolCost>,
    /// The rest of the row's Tools figure: what every request with tools pays besides the
    /// tools' own text (a tool-use system prompt, the section's framing) and what the count's
    /// rounding leaves. `tools` plus this is the row's Tools, exactly.
    pub fixed: i64,
    /// What [`Detail::fixed`] is, for a person.
    pub fixed_what: String,
    /// The row's Tools figure for this model.
    pub tools_total: u64,
    /// The rounds of the tool loop.
    pub rounds: Vec<RoundCost>,
    /// How prompt caching is modelled for this model (`None`: not modelled).
    pub caching: Option<Caching>,
}

/// One tool's share.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCost {
    /// Index in `Exchange::tools`.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Tokens of its text in the rendering.
    pub tokens: u64,
    /// Its text in [`Detail::text`] (byte offsets).
    pub start: usize,
    /// End of its text (exclusive).
    pub end: usize,
}

/// One round with caching.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundCost {
    /// 1-based.
    pub round: usize,
    /// Prompt tokens of its request.
    pub prompt: u64,
    /// Of which the tool definitions.
    pub tools: u64,
    /// Prompt tokens of every round so far.
    pub running_total: u64,
    /// Of `prompt`, what a cache would serve.
    pub cached: u64,
}

/// The caching rule applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Caching {
    /// The rule, for a person.
    pub rule: String,
    /// Cached tokens over every round.
    pub cached: u64,
    /// What caching saves, in full-price input tokens (reads discounted, writes surcharged).
    pub saved: i64,
}

/// The models the view counts: the exchange's own, then the model each provider's pane sends
/// (the one set for it, else its default: the Bedrock row is the Bedrock pane's model), then
/// `gpt-4` for the older OpenAI tokenizer, without repeats.
pub fn models(x: &Exchange) -> Vec<String> {
    let mut v: Vec<String> = x.options.model.iter().cloned().collect();
    v.extend(ModelFamily::ALL.into_iter().map(|f| x.model_for(f).name));
    v.push("gpt-4".into());
    let mut seen = std::collections::HashSet::new();
    v.retain(|m| seen.insert(m.clone()));
    v
}

/// The view of `x` for `models` (see [`models`]), detailed for `chosen`.
pub fn view(x: &Exchange, models: &[String], chosen: &str, vocabs: &Vocabs) -> View {
    View {
        rows: models.iter().map(|m| count(x, m, vocabs)).collect(),
        detail: detail(x, chosen, vocabs),
    }
}

/// [`Detail`] of `x` for `model`.
pub fn detail(x: &Exchange, model: &str, vocabs: &Vocabs) -> Detail {
    let r = render(x, model);
    let m = Model::parse(model);
    let vocab = vocabs.get(m.encoding().unwrap_or(super::Encoding::O200k));
    let n = |s: &str| match vocab {
        Some(v) => v.count(s) as u64,
        None => s.chars().count().div_ceil(4) as u64,
    };
    let mut tools: Vec<ToolCost> = tool_spans(x, model, &r.text)
        .into_iter()
        .enumerate()
        .map(|(i, (start, end))| ToolCost {
            index: i,
            name: x.tools[i].name.clone(),
            tokens: n(&r.text[start..end]),
            start,
            end,
        })
        .collect();
    tools.sort_by(|a, b| b.tokens.cmp(&a.tokens).then(a.index.cmp(&b.index)));
    let tools_total = if x.tools.is_empty() {
        0
    } else {
        count(x, model, vocabs).tools
    };
    let fixed = tools_total as i64 - tools.iter().map(|t| t.tokens as i64).sum::<i64>();
    let fixed_what = match m.family.row().tokens {
        _ if x.tools.is_empty() => String::new(),
        Tokens::ClaudeToolPrompt => format!(
            "the tool-use system prompt Claude adds ({}), the <functions> framing, and the \
             estimate's scaling of the tools' JSON",
            m.family
                .reader()
                .estimate(x, model)
                .fixed_what
                .unwrap_or_default()
        ),
        Tokens::Tiktoken => "the tools section's opening and closing lines and its framing in the \
                             system message"
            .into(),
        Tokens::Estimate => {
            "the framing of the tool list (brackets and separators between tools)".into()
        }
    };
    let (rs, _, _) = rounds(x, model, vocabs);
    let rule = cache_rule(&m);
    let mut out = Vec::with_capacity(rs.len());
    let mut previous = None;
    let (mut cached_all, mut saved) = (0u64, 0f64);
    for r in &rs {
        let cached = match (&rule, previous) {
            (Some(c), Some(p)) => c.cached(p, r.prompt),
            _ => 0,
        };
        if let Some(c) = &rule {
            cached_all += cached;
            saved += cached as f64 * c.read_discount - (r.prompt - cached) as f64 * c.write_extra;
        }
        previous = Some(r.prompt);
        out.push(RoundCost {
            round: r.round,
            prompt: r.prompt,
            tools: r.tools,
            running_total: r.running_total,
            cached,
        });
    }
    Detail {
        model: r.model,
        known: r.known.as_str(),
        note: r.note,
        tools,
        fixed,
        fixed_what,
        tools_total,
        rounds: out,
        caching: rule.map(|c| Caching {
            rule: c.rule.to_string(),
            cached: cached_all,
            saved: saved.round() as i64,
        }),
        text: r.text,
    }
}

impl CacheRule {
    /// Of a round's `prompt`, what the previous round's request (`previous` tokens, the same
    /// prefix) left in the cache.
    fn cached(&self, previous: u64, prompt: u64) -> u64 {
        let prefix = previous.min(prompt);
        if prefix < self.min {
            return 0;
        }
        prefix / self.step * self.step
    }
}

fn cache_rule(m: &Model) -> Option<CacheRule> {
    m.family.row().cache
}

/// Where each tool of `x` is in `text` (`render(x, model).text`): the part of the text that
/// changes when the tool changes, widened to whole lines where the neighbours allow. Works for
/// any renderer, as it only compares renderings.
pub fn tool_spans(x: &Exchange, model: &str, text: &str) -> Vec<(usize, usize)> {
    let raw: Vec<(usize, usize)> = (0..x.tools.len())
        .map(|i| {
            let mut y = Exchange {
                tools: x.tools.clone(),
                ..Exchange::default()
            };
            y.tools[i] = Tool {
                name: format!("{}\u{7f}", x.tools[i].name),
                description: Some("\u{1}".into()),
                input_schema: json!({"type": "object", "properties": {}}),
                ..x.tools[i].clone()
            };
            let other = render(&y, model).text;
            let a = text.as_bytes();
            let b = other.as_bytes();
            let pre = a.iter().zip(b).take_while(|(p, q)| p == q).count();
            let suf = a
                .iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(p, q)| p == q)
                .count()
                .min(a.len() - pre);
            (floor(text, pre), ceil(text, a.len() - suf))
        })
        .collect();
    let mut out = Vec::with_capacity(raw.len());
    for (i, &(s, e)) in raw.iter().enumerate() {
        let before = if i == 0 { 0 } else { raw[i - 1].1 };
        let after = raw.get(i + 1).map_or(text.len(), |r| r.0);
        let start = text[..s]
            .rfind('\n')
            .map_or(0, |k| k + 1)
            .max(before)
            .min(s);
        let end = text[e..]
            .find('\n')
            .map_or(text.len(), |k| e + k)
            .min(after)
            .max(e);
        out.push((start, end));
    }
    out
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

// Native only: the built-in vocabularies.
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests {
    use super::*;
    use crate::formats::read_any;

    fn weather() -> Exchange {
        let text = crate::examples::EXAMPLES[0].source;
        read_any(text).expect("example reads").0.exchange
    }

    #[test]
    fn rows_are_the_counts_and_spans_cover_each_tool() {
        let x = weather();
        let v = Vocabs::builtin();
        let ms = models(&x);
        assert!(ms.iter().any(|m| m == "gpt-4o"));
        let view = view(&x, &ms, "gpt-4o", &v);
        for (row, m) in view.rows.iter().zip(&ms) {
            assert_eq!(*row, count(&x, m, &v));
        }
        assert_eq!(view.detail.tools.len(), x.tools.len());
        for t in &view.detail.tools {
            let span = &view.detail.text[t.start..t.end];
            assert!(span.contains(&x.tools[t.index].name), "{span:?}");
            assert!(t.tokens > 0);
        }
        // The bars and the fixed row add up to the row's Tools, for every model.
        for m in &ms {
            let d = detail(&x, m, &v);
            let row = count(&x, m, &v);
            let bars: i64 = d.tools.iter().map(|t| t.tokens as i64).sum();
            assert_eq!(bars + d.fixed, row.tools as i64, "{m}");
            assert_eq!(d.tools_total, row.tools, "{m}");
            assert!(!d.fixed_what.is_empty(), "{m}");
        }
    }

    #[test]
    fn caching_counts_from_the_second_round_over_the_minimum() {
        let r = cache_rule(&Model::parse("gpt-4o")).expect("openai caches");
        assert_eq!(r.cached(900, 2000), 0);
        assert_eq!(r.cached(1500, 2000), 1408);
        let a = cache_rule(&Model::parse("claude-sonnet-4-5")).expect("anthropic caches");
        assert_eq!(a.cached(1500, 2000), 1500);
        assert!(cache_rule(&Model::parse("mistral-large-latest")).is_none());
    }
}
