//! Claude: a tool-use system prompt of documented size, then the tool definitions.
//!
//! Anthropic documents how many tokens the tool-use system prompt adds per model and tool choice
//! (docs.anthropic.com "Tool use pricing": for example 346 tokens for `auto`/`none` and 313 for
//! `any`/`tool` on the Claude 4 models), not its text, and not how the definitions are spelled
//! inside it. The rendering says so: the prompt is a placeholder line with its size, and the
//! definitions are shown as JSON objects (name, description, input_schema) in a `<functions>`
//! list — an approximation, used for estimates.

use crate::formats::prompt::{Estimate, Known, Reader, ToolText};
use crate::model::{ChoiceMode, Exchange};
use serde_json::json;

/// The documented tool-use system prompt size: (`auto`/`none`, `any`/`tool`) tokens.
///
/// Source: Anthropic, "Tool use" → "Pricing" (platform.claude.com/docs, about-claude/pricing and
/// the tool-use overview): Claude 4.x (Opus, Sonnet, Haiku 4.5) and Sonnet 3.7: 346 / 313;
/// Claude 3.5 Sonnet: 294 / 261; Claude 3.5 Haiku: 264 / 340; Claude 3 Opus: 530 / 281;
/// Claude 3 Sonnet: 159 / 235; Claude 3 Haiku: 264 / 340.
pub fn system_prompt_table(model_id: &str) -> (u64, u64, &'static str) {
    let l = model_id.to_ascii_lowercase();
    let has = |s: &str| l.contains(s);
    if has("claude-3-opus") || has("claude-3opus") {
        (530, 281, "Claude 3 Opus")
    } else if has("claude-3-sonnet") {
        (159, 235, "Claude 3 Sonnet")
    } else if has("claude-3-haiku") {
        (264, 340, "Claude 3 Haiku")
    } else if has("claude-3-5-haiku") || has("claude-3.5-haiku") {
        (264, 340, "Claude 3.5 Haiku")
    } else if has("claude-3-5-sonnet") || has("claude-3.5-sonnet") {
        (294, 261, "Claude 3.5 Sonnet")
    } else {
        (346, 313, "Claude 4 / 3.7")
    }
}

/// The tool-use system prompt tokens of this request: by model and tool choice.
pub fn system_prompt_tokens(x: &Exchange, model_id: &str) -> (u64, String) {
    let (auto, any, family) = system_prompt_table(model_id);
    let forced = x
        .tool_choice
        .as_ref()
        .is_some_and(|c| c.mode == ChoiceMode::Required);
    if forced {
        (any, format!("{family}, tool_choice any/tool: {any}"))
    } else {
        (auto, format!("{family}, tool_choice auto/none: {auto}"))
    }
}

/// Each tool as compact JSON (name, description, input_schema): what the estimate counts.
pub fn definition_json(x: &Exchange) -> Vec<String> {
    x.tools
        .iter()
        .map(|t| {
            let mut def = serde_json::Map::new();
            def.insert("name".into(), json!(t.name));
            if let Some(d) = &t.description {
                def.insert("description".into(), json!(d));
            }
            def.insert("input_schema".into(), t.input_schema.clone());
            serde_json::to_string(&def).unwrap_or_default()
        })
        .collect()
}

/// The definitions part of the rendering: one `<function>` line per tool.
pub fn definitions(x: &Exchange) -> String {
    let mut out = String::from("<functions>\n");
    for d in definition_json(x) {
        out.push_str(&format!("<function>{d}</function>\n"));
    }
    out.push_str("</functions>");
    out
}

/// Claude reads a tool definition in fewer tokens than o200k_base needs for its compact JSON:
/// Anthropic's documented example (get_weather, one user message: 403 tokens with Claude
/// Sonnet 4.5, of which 346 the tool-use system prompt) puts the definition at 45 tokens where
/// o200k counts 53.
pub const TOOL_JSON: f64 = 0.85;

/// How Claude reads tools: a tool-use system prompt of documented size, then the definitions.
pub struct Anthropic;

impl Reader for Anthropic {
    fn render(&self, x: &Exchange, model: &str) -> ToolText {
        if x.tools.is_empty() {
            return ToolText {
                text: String::new(),
                known: Known::Documented,
                note: "no tools: no tool-use system prompt".into(),
            };
        }
        let (n, which) = system_prompt_tokens(x, model);
        let text = format!(
            "[tool-use system prompt: {n} tokens, text not published]\n{}",
            definitions(x)
        );
        let note = format!(
            "Anthropic documents the tool-use system prompt's size ({which} tokens), not its \
             text or how the definitions are spelled; the definitions are shown as JSON \
             (approximate)"
        );
        ToolText {
            text,
            known: Known::Approximate,
            note,
        }
    }

    fn choice(&self, _mode: ChoiceMode, _forced: usize) -> &'static str {
        "selects the shorter any/tool variant of the tool-use system prompt"
    }

    fn estimate(&self, x: &Exchange, model: &str) -> Estimate {
        let (fixed, which) = system_prompt_tokens(x, model);
        Estimate {
            pieces: definition_json(x),
            scale: TOOL_JSON,
            fixed,
            fixed_what: Some(which),
        }
    }

    fn calibration(&self) -> Option<&'static str> {
        Some(
            "estimate: o200k_base counts calibrated on Anthropic's documented count_tokens \
             examples (14 and 403 tokens, Claude Sonnet 4.5): text as counted, 3 tokens per \
             message and system prompt, 1 per request, tool JSON ×0.85 (Claude's tokenizer is \
             not public)",
        )
    }

    fn primer(&self) -> u64 {
        1
    }
}
