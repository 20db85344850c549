//! Prompt tokens per request: the tool definitions, the messages, the total, `exact` or
//! `estimate` with the method.
//!
//! OpenAI (Chat Completions rules), exact with the model's tiktoken encoding:
//! - every message costs 3 tokens of framing plus its role and content, a `name` 1 more plus
//!   the name (OpenAI cookbook, "How to count tokens with tiktoken", `num_tokens_from_messages`);
//!   the reply is primed with 3 tokens;
//! - tools: the `namespace functions` text ([`super::render::openai`], API dialect) plus 9;
//!   with a system message 4 fewer, and the system text counted with a `\n` appended;
//!   `tool_choice`/`function_call` `none` adds 1, a forced function its name plus 4; a legacy
//!   `function_call` in an assistant message adds 3 plus its name and arguments, a `function`
//!   result message 2 fewer than a plain message (hmarr/openai-chat-tokens, `src/index.ts`;
//!   rubenselander/openai-function-tokens: both reproduce prompt token counts the API
//!   reported, which `tests/fixtures/cost/recorded_counts.json` holds, 44 of them).
//!
//! "Exact" means proven: a count is marked exact only for a model and a request shape that
//! published prompt counts confirm ([`PROVEN`] names them), 75 of them in
//! `tests/fixtures/cost/recorded_counts.json` (hmarr/openai-chat-tokens, the OpenAI cookbook,
//! rubenselander/openai-function-tokens, pamelafox/openai-messages-token-helper). The rules
//! reproduce 65 of them; the other 10 are requests of a system message alone with tools whose
//! schemas nest objects, have numeric enums or undescribed properties, or force a tool: those
//! shapes are estimates, off by up to [`MARGIN`] tokens.
//!
//! What those sources do not prove is counted with the nearest rule and makes the figure an
//! estimate ±[`MARGIN`], with the reason in `method`: `tool_calls` with ids (counted like one
//! legacy `function_call` each), `tool` result messages (counted as plain messages), schema
//! keywords outside the recorded cases, `required` tool choice, the shapes above, tools for
//! gpt-4o beyond the cookbook's (flat described properties, string enums, `auto`), models with
//! no published counts (gpt-4.1, gpt-5, o-series, …), Responses requests, gpt-oss (harmony
//! framing), unknown model ids. Other families are estimates: see [`count`].

use super::bpe::{Encoding, Vocab};
use super::render::{self, anthropic, openai};
use super::{Family, Model};
use crate::formats::Format;
use crate::model::{ChoiceMode, Exchange, Message, Part, Role};
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
    /// For an OpenAI estimate, how far off it may be: the largest deviation of the rules from
    /// the published counts ([`MARGIN`]); `None` when exact or not measured (other families).
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
        Tokens::Tiktoken => openai_breakdown(x, m, vocabs, source),
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

fn text_of(m: &Message) -> String {
    m.parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The role as sent: a system or developer message inside the conversation is read as a user
/// message that remembers its role.
fn role_of(m: &Message) -> &str {
    m.extra
        .get("openai-chat")
        .and_then(|e| e.get("toolscope:role"))
        .and_then(|v| v.as_str())
        .unwrap_or("user")
}

fn name_of(m: &Message) -> Option<&str> {
    m.extra
        .get("openai-chat")
        .and_then(|e| e.get("name"))
        .and_then(|v| v.as_str())
}

fn openai_breakdown(x: &Exchange, m: &Model, vocabs: &Vocabs, source: Option<Format>) -> Breakdown {
    let mut why: Vec<String> = Vec::new();
    if source == Some(Format::OpenAiResponses) {
        why.push("a Responses request, counted with the Chat Completions rules".into());
    }
    let enc = m.encoding().unwrap_or_else(|| {
        why.push(format!(
            "{} is not a known OpenAI model: o200k_base assumed",
            m.id
        ));
        Encoding::O200k
    });
    let vocab = vocabs.get(enc);
    if vocab.is_none() {
        why.push(format!("{} not loaded: characters / 4", enc.name()));
    }
    let c = Counter { vocab, factor: 1.0 };
    let harmony = m.harmony();
    if harmony {
        why.push(
            "gpt-oss reads the harmony format; its system message depends on the server, \
             counted with the Chat Completions framing"
                .into(),
        );
    }
    // A system message as sent: its role and `name` are kept aside by the decoder.
    let sent = x
        .extra
        .get("openai-chat")
        .and_then(|e| e.get("toolscope:system"));
    let system_role = sent
        .and_then(|m| m.get("role"))
        .and_then(|r| r.as_str())
        .unwrap_or("system");
    let system_name = sent.and_then(|m| m.get("name")).and_then(|n| n.as_str());
    let system = x
        .system
        .as_deref()
        .map(|s| 3 + c.n(system_role) + c.n(s) + system_name.map_or(0, |n| 1 + c.n(n)))
        .unwrap_or(0);

    let mut tools: i64 = 0;
    if !x.tools.is_empty() {
        let dialect = if harmony {
            openai::Dialect::Harmony
        } else {
            openai::Dialect::Api
        };
        tools += c.n(&openai::namespace(&x.tools, dialect)) as i64 + 9;
        if let Some(s) = &x.system {
            tools -= 4;
            // The system text is padded with a newline when functions are present.
            tools += c.n(&format!("{s}\n")) as i64 - c.n(s) as i64;
        }
        let mut unproven: Vec<String> = Vec::new();
        for t in &x.tools {
            for k in openai::unproven_keywords(&t.input_schema) {
                if !unproven.contains(&k) {
                    unproven.push(k);
                }
            }
        }
        if !unproven.is_empty() {
            why.push(format!(
                "schema keywords without recorded counts: {}",
                unproven.join(", ")
            ));
        }
        match &x.tool_choice {
            Some(tc) if tc.mode == ChoiceMode::None => tools += 1,
            Some(tc) if tc.mode == ChoiceMode::Required && tc.tools.len() == 1 => {
                tools += c.n(&tc.tools[0]) as i64 + 4;
            }
            Some(tc) if tc.mode == ChoiceMode::Required => {
                why.push("tool_choice required has no recorded count (counted as 0)".into())
            }
            Some(tc) if !tc.tools.is_empty() || tc.mode == ChoiceMode::Validated => {
                why.push("this tool_choice has no recorded count (counted as 0)".into())
            }
            _ => {}
        }
    }

    let mut tool_calls = false;
    let mut tool_results = false;
    let mut raw = false;
    let messages = x
        .messages
        .iter()
        .map(|msg| match msg.role {
            Role::User => {
                let mut n = 3 + c.n(role_of(msg)) + c.n(&text_of(msg));
                if let Some(name) = name_of(msg) {
                    n += 1 + c.n(name);
                }
                for p in &msg.parts {
                    if let Part::Raw { value, .. } = p {
                        raw = true;
                        n += c.n(&value.to_string());
                    }
                }
                n
            }
            Role::Assistant => {
                let mut n = 3 + c.n("assistant") + c.n(&text_of(msg));
                if let Some(name) = name_of(msg) {
                    n += 1 + c.n(name);
                }
                let calls: Vec<_> = msg.tool_calls().collect();
                if calls.len() > 1 || calls.iter().any(|k| k.id.is_some()) {
                    tool_calls = true;
                }
                for k in calls {
                    n += 3 + c.n(&k.name) + c.n(&k.arguments_text());
                }
                for p in &msg.parts {
                    if let Part::Raw { value, .. } = p {
                        raw = true;
                        n += c.n(&value.to_string());
                    }
                }
                n
            }
            Role::Tool => msg
                .tool_results()
                .map(|r| {
                    let content = c.n(&r.content.to_text());
                    match (&r.call_id, &r.name) {
                        // A legacy `function` message: role, name, content, 3 + 1 − 2.
                        (None, Some(name)) => 3 + c.n("function") + content + c.n(name) + 1 - 2,
                        _ => {
                            tool_results = true;
                            3 + c.n("tool") + content
                        }
                    }
                })
                .sum(),
        })
        .collect();
    if tool_calls {
        why.push("tool_calls counted like one legacy function_call each (not recorded)".into());
    }
    if tool_results {
        why.push("tool messages counted as plain messages (not recorded)".into());
    }
    if raw {
        why.push("content blocks counted as their JSON".into());
    }
    if why.is_empty() {
        if let Some(reason) = unproven_shape(x, m) {
            why.push(reason);
        }
    }
    let exact = why.is_empty();
    let base = if harmony {
        "harmony tools section"
    } else {
        "Chat Completions rules (OpenAI cookbook; hmarr/openai-chat-tokens)"
    };
    let method = if exact {
        format!(
            "exact: {} with {} (a shape published counts prove: {})",
            base,
            enc.name(),
            PROVEN
        )
    } else {
        format!(
            "estimate ±{MARGIN}: {} with {}; {}",
            base,
            enc.name(),
            why.join("; ")
        )
    };
    Breakdown {
        system,
        messages,
        primer: 3,
        tools: tools.max(0) as u64,
        exact,
        margin: (!exact).then_some(MARGIN),
        method,
    }
}

/// The largest deviation of the OpenAI rules from the published prompt counts: what an
/// OpenAI estimate may be off by (measured: 7 of `inner_object_and_string` and
/// `inner_object_with_enum`, pamelafox/openai-messages-token-helper tests/functions.py).
pub const MARGIN: u64 = 7;

/// The models and request shapes the published counts prove, for the method.
pub const PROVEN: &str = "gpt-3.5-turbo and gpt-4: messages, and tools or functions with a \
     user or assistant message (nested objects, enums, arrays, forced and none tool choice), or \
     with a system message alone when their properties are described, not nested, with string \
     enums only and tool choice auto or none; gpt-4o and gpt-4o-mini: messages, and tools of \
     described flat properties with string enums and tool choice auto beside a user message";

/// Which published counts cover `m`: the cl100k chat models (gpt-3.5-turbo, gpt-4) or
/// gpt-4o and gpt-4o-mini (the cookbook's `num_tokens_for_tools` models).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Covered {
    Cl100k,
    Omni,
}

fn covered(m: &Model) -> Option<Covered> {
    let l = m.id.to_ascii_lowercase();
    let l = l.strip_prefix("openai/").unwrap_or(&l);
    if l.starts_with("gpt-3.5-turbo") || l.starts_with("gpt-35-turbo") {
        return Some(Covered::Cl100k);
    }
    if l == "gpt-4" || l.starts_with("gpt-4-0613") || l.starts_with("gpt-4-0314") {
        return Some(Covered::Cl100k);
    }
    if l == "gpt-4o" || l.starts_with("gpt-4o-20") || l.starts_with("gpt-4o-mini") {
        return Some(Covered::Omni);
    }
    None
}

/// What the tool schemas of a request hold, for the shape check.
#[derive(Debug, Default)]
struct Shape {
    nested: bool,
    numeric_enum: bool,
    undescribed: bool,
    array: bool,
    other_types: bool,
}

fn shape_of(x: &Exchange) -> Shape {
    fn props(schema: &serde_json::Value, top: bool, s: &mut Shape) {
        let Some(ps) = schema.get("properties").and_then(|p| p.as_object()) else {
            return;
        };
        for p in ps.values() {
            if !top {
                s.nested = true;
            }
            if p.get("description").is_none() {
                s.undescribed = true;
            }
            if let Some(e) = p.get("enum").and_then(|e| e.as_array()) {
                if e.iter().any(|v| !v.is_string()) {
                    s.numeric_enum = true;
                }
            }
            match p.get("type").and_then(|t| t.as_str()) {
                Some("object") => {
                    s.nested = true;
                    props(p, false, s);
                }
                Some("array") => {
                    s.array = true;
                    if let Some(items) = p.get("items") {
                        if items.get("properties").is_some() {
                            s.nested = true;
                            props(items, false, s);
                        }
                    }
                }
                Some("string" | "number" | "integer") => {}
                _ => s.other_types = true,
            }
        }
    }
    let mut s = Shape::default();
    for t in &x.tools {
        props(&t.input_schema, true, &mut s);
    }
    s
}

/// Why the request's shape is not one the published counts prove for `m`, if it is not.
fn unproven_shape(x: &Exchange, m: &Model) -> Option<String> {
    let Some(cover) = covered(m) else {
        return Some(format!(
            "no published prompt counts for {} (the gpt-4o rules)",
            m.id
        ));
    };
    if x.tools.is_empty() {
        return None;
    }
    let s = shape_of(x);
    let forced = x
        .tool_choice
        .as_ref()
        .is_some_and(|c| c.mode == ChoiceMode::Required);
    let none = x
        .tool_choice
        .as_ref()
        .is_some_and(|c| c.mode == ChoiceMode::None);
    let conversation = !x.messages.is_empty();
    let mut unproven: Vec<&str> = Vec::new();
    match cover {
        Covered::Cl100k if conversation => {}
        Covered::Cl100k => {
            // A system message alone with tools: only these shapes match their counts.
            if s.nested {
                unproven.push("nested objects");
            }
            if s.numeric_enum {
                unproven.push("numeric enums");
            }
            if s.undescribed {
                unproven.push("properties without a description");
            }
            if forced {
                unproven.push("a forced tool");
            }
        }
        Covered::Omni => {
            if !conversation {
                unproven.push("a system message alone");
            }
            if s.nested {
                unproven.push("nested objects");
            }
            if s.numeric_enum {
                unproven.push("numeric enums");
            }
            if s.undescribed {
                unproven.push("properties without a description");
            }
            if s.array || s.other_types {
                unproven.push("array, boolean or untyped properties");
            }
            if forced || none {
                unproven.push("a tool choice other than auto");
            }
        }
    }
    (!unproven.is_empty()).then(|| {
        format!(
            "tools with {} have no matching published count for {}",
            unproven.join(", "),
            m.id
        )
    })
}

fn estimate_breakdown(x: &Exchange, m: &Model, vocabs: &Vocabs) -> Breakdown {
    let vocab = vocabs.get(Encoding::O200k);
    let c = Counter { vocab, factor: 1.0 };
    let claude = m.family == Family::Anthropic;
    let mut method = match vocab {
        Some(_) if claude => "estimate: o200k_base counts calibrated on Anthropic's documented \
             count_tokens examples (14 and 403 tokens, Claude Sonnet 4.5): text as counted, 3 \
             tokens per message and system prompt, 1 per request, tool JSON ×0.85 (Claude's \
             tokenizer is not public)"
            .to_string(),
        Some(_) => format!(
            "estimate: o200k_base for text and the tool definitions as JSON ({} tokenizer not \
             available offline), 3 tokens of framing per message",
            m.family.id()
        ),
        None => "estimate: characters / 4 (o200k_base not loaded)".to_string(),
    };
    let system = x.system.as_deref().map(|s| 3 + c.n(s)).unwrap_or(0);
    let mut tools = 0;
    if !x.tools.is_empty() {
        if claude {
            let (n, which) = anthropic::system_prompt_tokens(x, &m.id);
            let json: u64 = anthropic::definition_json(x).iter().map(|d| c.n(d)).sum();
            tools = n + (json as f64 * ANTHROPIC_TOOL_JSON).round() as u64;
            method.push_str(&format!(
                "; documented tool-use system prompt ({which} tokens)"
            ));
        } else if m.family == Family::Mistral {
            // The documented shape: JSON between [AVAILABLE_TOOLS] tokens.
            tools = c.n(&render::render(x, &m.id).text);
        } else {
            // Undocumented: the definitions as compact JSON (the pretty text of `render` would
            // count its indentation).
            let defs: Vec<_> = x.tools.iter().map(render::function_json).collect();
            tools = c.n(&serde_json::to_string(&defs).unwrap_or_default());
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
        primer: if claude { 1 } else { 3 },
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

/// Claude reads a tool definition in fewer tokens than o200k_base needs for its compact JSON:
/// Anthropic's documented example (get_weather, one user message: 403 tokens with Claude
/// Sonnet 4.5, of which 346 the tool-use system prompt) puts the definition at 45 tokens where
/// o200k counts 53.
const ANTHROPIC_TOOL_JSON: f64 = 0.85;
