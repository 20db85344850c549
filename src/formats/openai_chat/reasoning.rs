//! Reasoning in Chat Completions messages, in every dialect's spelling.
//!
//! - DeepSeek (and Moonshot, Alibaba Qwen) `reasoning_content`: a string on the assistant
//!   message. DeepSeek's thinking mode requires it on assistant turns that made tool calls:
//!   "in the thinking mode with tool calls, the `reasoning_content` of the assistant
//!   message must be passed back" (<https://api-docs.deepseek.com/guides/thinking_mode>,
//!   "Tool Calls").
//! - OpenRouter and Groq `reasoning` (a string) and OpenRouter `reasoning_details`, an array of
//!   typed entries: `reasoning.text` (`text`, `signature`), `reasoning.summary` (`summary`),
//!   `reasoning.encrypted` (`data`), each with `id`, `format`, `index`
//!   (<https://openrouter.ai/docs/use-cases/reasoning-tokens#reasoning-details>). OpenRouter
//!   sends `reasoning` as the text of the details too: then it is one reasoning, remembered
//!   as a repeat. Signatures and encrypted data are OpenRouter's to verify (it routes them to
//!   the upstream that issued them).
//! - Gemini's OpenAI-compatible endpoint: a thought signature rides on a tool call as
//!   `extra_content.google.thought_signature`
//!   (<https://ai.google.dev/gemini-api/docs/thought-signatures>, "OpenAI compatibility"). It
//!   is read as an attached reasoning part right before its call, as the Gemini format reads a
//!   `thoughtSignature`, so a signature survives Gemini ⇄ Chat with a Gemini model.
//! - Mistral thinking chunks in content: `{"type": "thinking", "thinking": [{"type": "text",
//!   "text"}]}` (<https://docs.mistral.ai/capabilities/reasoning/>); Cohere v2 thinking content
//!   `{"type": "thinking", "thinking": "<text>"}`
//!   (<https://docs.cohere.com/docs/reasoning>); Ollama's `thinking` message field
//!   (<https://docs.ollama.com/capabilities/thinking>).
//!
//! Each reasoning part remembers the spelling it came in (a form marker), so a document comes
//! back as it was; a part from elsewhere takes the target's spelling for its model
//! ([`Profile::reasoning_spelling`]), or is dropped with a reasoning loss. Opaque state goes
//! back only to its issuer ([`Opaque::replayable_to`]).

use super::profile::Profile;
use super::wire::Fields;
use crate::model::{Extra, ModelFamily, Opaque, OpaqueKind, Reasoning, ReasoningOptions, FORM_KEY};
use serde_json::{json, Value};

/// Form marker key in a reasoning part's `extra[ID][FORM_KEY]`: the spelling it came in.
pub(super) const F_SPELLING: &str = "reasoning";
/// Message form marker: `reasoning` repeated the text of `reasoning_details`.
pub(super) const F_MIRROR: &str = "reasoning_mirror";
/// Reasoning part: a Mistral thinking chunk's entries, when there were several (their joined
/// text is the part's text).
pub(super) const M_THINKING: &str = "toolscope:thinking";

/// Who issues the opaque state OpenRouter sends in `reasoning_details`.
pub const OPENROUTER: &str = "openrouter";

/// Where a message carries reasoning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// `reasoning_content` (DeepSeek, Moonshot, Alibaba).
    ReasoningContent,
    /// `reasoning` (OpenRouter, Groq).
    Reasoning,
    /// `reasoning_details` entries (OpenRouter).
    Details,
    /// Ollama's `thinking` field.
    Thinking,
    /// A Mistral thinking chunk in content.
    MistralChunk,
    /// A Cohere thinking content item.
    CohereChunk,
}

impl Spelling {
    const ALL: [Spelling; 6] = [
        Spelling::ReasoningContent,
        Spelling::Reasoning,
        Spelling::Details,
        Spelling::Thinking,
        Spelling::MistralChunk,
        Spelling::CohereChunk,
    ];

    /// The marker word (the message field, for fields).
    pub fn word(self) -> &'static str {
        match self {
            Spelling::ReasoningContent => "reasoning_content",
            Spelling::Reasoning => "reasoning",
            Spelling::Details => "reasoning_details",
            Spelling::Thinking => "thinking",
            Spelling::MistralChunk => "thinking_chunk",
            Spelling::CohereChunk => "thinking_text",
        }
    }

    fn from_word(w: &str) -> Option<Spelling> {
        Spelling::ALL.into_iter().find(|s| s.word() == w)
    }

    /// True for the spellings that are one string field of the message.
    pub fn is_field(self) -> bool {
        matches!(
            self,
            Spelling::ReasoningContent | Spelling::Reasoning | Spelling::Thinking
        )
    }
}

/// The spelling a part decoded from format `id` came in.
pub(super) fn spelling_of(r: &Reasoning, id: &str) -> Option<Spelling> {
    r.extra
        .get(id)?
        .get(FORM_KEY)?
        .get(F_SPELLING)?
        .as_str()
        .and_then(Spelling::from_word)
}

fn marked(id: &str, spelling: Spelling, mut fields: Fields) -> Extra {
    let mut form = Fields::new();
    form.insert(F_SPELLING.into(), Value::String(spelling.word().into()));
    fields.insert(FORM_KEY.into(), Value::Object(form));
    let mut extra = Extra::new();
    extra.insert(id.to_string(), fields);
    extra
}

/// The part's own fields other than the bookkeeping ones (kept `id`, `format`, `index` of a
/// details entry; other fields of a chunk).
fn own_fields(r: &Reasoning, id: &str) -> Fields {
    r.extra
        .get(id)
        .map(|f| {
            f.iter()
                .filter(|(k, _)| *k != FORM_KEY && !k.starts_with("toolscope:"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// The reasoning of an assistant message's own fields, taken out of `fields` in the order the
/// profile lists its spellings (`reasoning_details` after `reasoning`, which is dropped as a
/// repeat when it only repeats the details' text).
pub(super) fn take_fields(d: &dyn Profile, fields: &mut Fields) -> Vec<Reasoning> {
    let id = d.id();
    let mut out = Vec::new();
    let spellings = d.reasoning_spellings();
    for s in spellings.iter().copied().filter(|s| s.is_field()) {
        if let Some(Value::String(text)) = fields.get(s.word()) {
            if !text.is_empty() {
                let r = Reasoning {
                    text: Some(text.clone()),
                    extra: marked(id, s, Fields::new()),
                    ..Reasoning::default()
                };
                fields.remove(s.word());
                out.push(r);
            }
        }
    }
    if !spellings.contains(&Spelling::Details) {
        return out;
    }
    let details = match fields.get("reasoning_details") {
        Some(Value::Array(entries)) if !entries.is_empty() => entries
            .iter()
            .map(|e| detail(id, e))
            .collect::<Option<Vec<Reasoning>>>(),
        _ => None,
    };
    let Some(details) = details else {
        return out;
    };
    fields.remove("reasoning_details");
    let said = details_text(&details);
    let repeat = out
        .iter()
        .position(|r| spelling_of(r, id) == Some(Spelling::Reasoning))
        .filter(|&k| out[k].text.as_deref() == Some(said.as_str()));
    if let Some(k) = repeat {
        out.remove(k);
        let form = fields
            .entry(FORM_KEY)
            .or_insert_with(|| Value::Object(Fields::new()));
        if let Some(form) = form.as_object_mut() {
            form.insert(F_MIRROR.into(), Value::Bool(true));
        }
    }
    out.extend(details);
    out
}

/// The text `reasoning` repeats: the details' texts, else their summaries.
fn details_text(details: &[Reasoning]) -> String {
    let texts: String = details.iter().filter_map(|r| r.text.as_deref()).collect();
    if !texts.is_empty() {
        return texts;
    }
    details
        .iter()
        .flat_map(|r| r.summary.iter())
        .map(String::as_str)
        .collect()
}

/// One `reasoning_details` entry, or `None` when it is not one of the documented kinds (the
/// array is then kept as it was).
fn detail(id: &str, entry: &Value) -> Option<Reasoning> {
    let mut rest = entry.as_object()?.clone();
    let ty = rest.remove("type")?;
    let mut r = Reasoning::default();
    let string = |v: Option<Value>| match v {
        Some(Value::String(s)) => Some(Some(s)),
        None => Some(None),
        Some(_) => None,
    };
    match ty.as_str()? {
        "reasoning.text" => {
            r.text = string(rest.remove("text"))?;
            if let Some(Value::String(sig)) = rest.get("signature") {
                r.opaque = Some(Opaque::new(OpaqueKind::Signature, sig.clone(), OPENROUTER));
                rest.remove("signature");
            }
        }
        "reasoning.summary" => r.summary = vec![string(rest.remove("summary"))??],
        "reasoning.encrypted" => {
            let data = string(rest.remove("data"))??;
            r.opaque = Some(Opaque::new(OpaqueKind::Encrypted, data, OPENROUTER));
        }
        _ => return None,
    }
    r.extra = marked(id, Spelling::Details, rest);
    Some(r)
}

/// A `reasoning_details` entry for a part (its opaque state only when `keep_opaque`).
pub(super) fn detail_entry(r: &Reasoning, id: &str, keep_opaque: bool) -> Value {
    let mut o = Fields::new();
    let opaque = r.opaque.as_ref().filter(|_| keep_opaque);
    match opaque {
        Some(op) if op.kind == OpaqueKind::Encrypted || op.kind == OpaqueKind::Redacted => {
            o.insert("type".into(), json!("reasoning.encrypted"));
            o.insert("data".into(), json!(op.data));
        }
        _ if r.text.is_none() && !r.summary.is_empty() => {
            o.insert("type".into(), json!("reasoning.summary"));
            o.insert("summary".into(), json!(r.summary.join("\n\n")));
        }
        _ => {
            o.insert("type".into(), json!("reasoning.text"));
            if let Some(t) = &r.text {
                o.insert("text".into(), json!(t));
            } else if !r.summary.is_empty() {
                o.insert("text".into(), json!(r.summary.join("\n\n")));
            }
            if let Some(op) = opaque.filter(|o| o.kind == OpaqueKind::Signature) {
                o.insert("signature".into(), json!(op.data));
            }
        }
    }
    for (k, v) in own_fields(r, id) {
        o.entry(k).or_insert(v);
    }
    Value::Object(o)
}

/// A thinking content item of an assistant message (Mistral's chunk or Cohere's text), or
/// `None` for any other content part.
pub(super) fn chunk(d: &dyn Profile, value: &Value) -> Option<Reasoning> {
    let o = value.as_object()?;
    if o.get("type").and_then(Value::as_str) != Some("thinking") {
        return None;
    }
    let id = d.id();
    let spellings = d.reasoning_spellings();
    let mut rest = o.clone();
    rest.remove("type");
    match rest.remove("thinking")? {
        Value::String(text) if spellings.contains(&Spelling::CohereChunk) => Some(Reasoning {
            text: Some(text),
            extra: marked(id, Spelling::CohereChunk, rest),
            ..Reasoning::default()
        }),
        Value::Array(entries) if spellings.contains(&Spelling::MistralChunk) => {
            let mut text = String::new();
            for e in &entries {
                let eo = e.as_object()?;
                let plain = eo.len() == 2 && eo.get("type").and_then(Value::as_str) == Some("text");
                text.push_str(eo.get("text").and_then(Value::as_str).filter(|_| plain)?);
            }
            if entries.len() != 1 {
                rest.insert(M_THINKING.into(), Value::Array(entries));
            }
            Some(Reasoning {
                text: Some(text),
                extra: marked(id, Spelling::MistralChunk, rest),
                ..Reasoning::default()
            })
        }
        _ => None,
    }
}

/// The content item of a part spelled as a chunk.
pub(super) fn chunk_value(r: &Reasoning, id: &str, spelling: Spelling) -> Value {
    let text = r.readable();
    let mut o = Fields::new();
    o.insert("type".into(), json!("thinking"));
    let thinking = match spelling {
        Spelling::CohereChunk => json!(text),
        _ => {
            let kept = r
                .extra
                .get(id)
                .and_then(|f| f.get(M_THINKING))
                .and_then(Value::as_array)
                .filter(|entries| {
                    let joined: String = entries
                        .iter()
                        .filter_map(|e| e.get("text").and_then(Value::as_str))
                        .collect();
                    joined == text
                });
            match kept {
                Some(entries) => Value::Array(entries.clone()),
                None => json!([{"type": "text", "text": text}]),
            }
        }
    };
    o.insert("thinking".into(), thinking);
    for (k, v) in own_fields(r, id) {
        o.entry(k).or_insert(v);
    }
    Value::Object(o)
}

/// Takes a Gemini thought signature out of a tool call's fields
/// (`extra_content.google.thought_signature`), leaving what else is there.
pub(super) fn take_signature(fields: &mut Fields) -> Option<String> {
    let content = fields.get_mut("extra_content")?.as_object_mut()?;
    let google = content.get_mut("google")?.as_object_mut()?;
    let Some(Value::String(sig)) = google.remove("thought_signature") else {
        return None;
    };
    if google.is_empty() {
        content.remove("google");
    }
    if content.is_empty() {
        fields.remove("extra_content");
    }
    Some(sig)
}

/// Puts a Gemini thought signature on a tool call's fields.
pub(super) fn put_signature(fields: &mut Fields, sig: &str) {
    let content = fields
        .entry("extra_content")
        .or_insert_with(|| Value::Object(Fields::new()));
    if !content.is_object() {
        *content = Value::Object(Fields::new());
    }
    if let Some(content) = content.as_object_mut() {
        let google = content
            .entry("google")
            .or_insert_with(|| Value::Object(Fields::new()));
        if !google.is_object() {
            *google = Value::Object(Fields::new());
        }
        if let Some(google) = google.as_object_mut() {
            google.insert("thought_signature".into(), json!(sig));
        }
    }
}

/// The issuer of thought signatures (state with no issuer would go back to no one).
pub(super) fn signature_issuer() -> &'static str {
    OpaqueKind::ThoughtSignature
        .sole_issuer()
        .unwrap_or_default()
}

/// The attached reasoning part a thought signature on a call reads as.
pub(super) fn thought_signature(sig: String) -> Reasoning {
    Reasoning {
        opaque: Some(Opaque::new(
            OpaqueKind::ThoughtSignature,
            sig,
            signature_issuer(),
        )),
        attached: true,
        ..Reasoning::default()
    }
}

/// Spelling of the OpenAI-compatible servers for a model: `reasoning_content` for DeepSeek,
/// Moonshot (Kimi) and Alibaba (Qwen) models, `reasoning` for OpenRouter and Groq
/// (`vendor/model` names), none for OpenAI's own models (Chat Completions has no place for
/// reasoning: OpenAI keeps it in the Responses API).
pub(super) fn compatible_spelling(model: &str) -> Option<Spelling> {
    let m = model.to_ascii_lowercase();
    if ModelFamily::of_name(&m) == Some(ModelFamily::DeepSeek)
        || ["kimi", "moonshot", "qwen", "qwq", "glm"]
            .iter()
            .any(|p| m.starts_with(p))
    {
        return Some(Spelling::ReasoningContent);
    }
    m.contains('/').then_some(Spelling::Reasoning)
}

/// The issuer of opaque state an OpenAI-compatible server takes back for a model: Gemini for
/// Gemini models (the OpenAI-compatible endpoint), OpenRouter for `vendor/model` names.
pub(super) fn compatible_issuer(model: &str) -> Option<&'static str> {
    if let Some(issuer) = ModelFamily::of_name(model)
        .map(ModelFamily::id)
        .filter(|id| *id == signature_issuer())
    {
        return Some(issuer);
    }
    model.contains('/').then_some(OPENROUTER)
}

/// How a request spells its reasoning settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionSpelling {
    /// `reasoning_effort: "low" | "medium" | "high" | …` (OpenAI, Groq).
    Effort,
    /// OpenRouter's `reasoning: {effort, max_tokens, enabled}`
    /// (<https://openrouter.ai/docs/use-cases/reasoning-tokens>).
    OpenRouter,
    /// `thinking: {type: "enabled" | "disabled"}`: DeepSeek's thinking mode switch
    /// (<https://api-docs.deepseek.com/guides/thinking_mode>), with Cohere's `token_budget`
    /// (<https://docs.cohere.com/docs/reasoning>).
    Thinking {
        /// The API takes a `token_budget` (Cohere).
        budget: bool,
    },
    /// Ollama's `think`: `true`/`false`, or an effort word for gpt-oss
    /// (<https://docs.ollama.com/capabilities/thinking>).
    Think,
}

/// Form marker key of the exchange: the request field its reasoning settings came in.
pub(super) const F_OPTIONS: &str = "_toolscope:reasoning_options";

/// Reads the reasoning settings out of a request's fields into `opts`, when they are in one
/// of the documented shapes (anything else stays a field of the document); returns the field.
pub(super) fn take_options(
    fields: &mut Fields,
    opts: &mut ReasoningOptions,
) -> Option<&'static str> {
    if let Some(Value::String(effort)) = fields.get("reasoning_effort") {
        opts.effort = Some(effort.clone());
        fields.remove("reasoning_effort");
        return Some("reasoning_effort");
    }
    if let Some(Value::Object(o)) = fields.get("reasoning") {
        let known = o.iter().all(|(k, v)| match k.as_str() {
            "effort" => v.is_string(),
            "max_tokens" => v.is_u64(),
            "enabled" => v.is_boolean(),
            _ => false,
        });
        if known && !o.is_empty() {
            opts.effort = o.get("effort").and_then(Value::as_str).map(String::from);
            opts.budget = o.get("max_tokens").and_then(Value::as_u64);
            opts.enabled = o.get("enabled").and_then(Value::as_bool);
            fields.remove("reasoning");
            return Some("reasoning");
        }
    }
    if let Some(Value::Object(o)) = fields.get("thinking") {
        let switch = match o.get("type").and_then(Value::as_str) {
            Some("enabled") => Some(true),
            Some("disabled") => Some(false),
            _ => None,
        };
        let known = o.iter().all(|(k, v)| match k.as_str() {
            "type" => true,
            "token_budget" => v.is_u64(),
            _ => false,
        });
        if let (Some(on), true) = (switch, known) {
            opts.enabled = Some(on);
            opts.budget = o.get("token_budget").and_then(Value::as_u64);
            fields.remove("thinking");
            return Some("thinking");
        }
    }
    match fields.get("think") {
        Some(Value::Bool(on)) => {
            opts.enabled = Some(*on);
            fields.remove("think");
            Some("think")
        }
        Some(Value::String(effort)) => {
            opts.effort = Some(effort.clone());
            fields.remove("think");
            Some("think")
        }
        _ => None,
    }
}

/// A request field and its value.
pub(super) type RequestField = (&'static str, Value);
/// A setting a spelling cannot say, and why.
pub(super) type Unsaid = (&'static str, String);

/// The request field and value for reasoning settings in `spelling`, with what it cannot say
/// as `(setting, why)` pairs for the caller's losses.
pub(super) fn options_field(
    opts: &ReasoningOptions,
    spelling: OptionSpelling,
    provider: &str,
) -> (Option<RequestField>, Vec<Unsaid>) {
    let mut lost = Vec::new();
    if opts.summary.is_some() {
        lost.push((
            "summary",
            format!("{provider} returns no reasoning summary"),
        ));
    }
    if opts.include_encrypted.is_some() {
        lost.push((
            "include_encrypted",
            format!("{provider} has no encrypted reasoning to ask for"),
        ));
    }
    let field = match spelling {
        OptionSpelling::Effort => {
            if opts.budget.is_some() {
                lost.push((
                    "budget",
                    format!("{provider} takes an effort, not a token budget"),
                ));
            }
            if opts.enabled.is_some() {
                lost.push((
                    "enabled",
                    format!("{provider} has no reasoning switch (reasoning models always reason)"),
                ));
            }
            opts.effort.as_ref().map(|e| ("reasoning_effort", json!(e)))
        }
        OptionSpelling::OpenRouter => {
            let mut o = Fields::new();
            if let Some(e) = &opts.effort {
                o.insert("effort".into(), json!(e));
            }
            if let Some(b) = opts.budget {
                o.insert("max_tokens".into(), json!(b));
            }
            if let Some(on) = opts.enabled {
                o.insert("enabled".into(), json!(on));
            }
            (!o.is_empty()).then(|| ("reasoning", Value::Object(o)))
        }
        OptionSpelling::Thinking { budget } => {
            if opts.effort.is_some() {
                lost.push((
                    "effort",
                    format!("{provider}'s thinking mode is on or off, with no effort"),
                ));
            }
            if opts.budget.is_some() && !budget {
                lost.push((
                    "budget",
                    format!("{provider}'s thinking mode takes no token budget"),
                ));
            }
            let on = opts.enabled.unwrap_or(true);
            let mut o = Fields::new();
            o.insert(
                "type".into(),
                json!(if on { "enabled" } else { "disabled" }),
            );
            if let (Some(b), true) = (opts.budget, budget) {
                o.insert("token_budget".into(), json!(b));
            }
            Some(("thinking", Value::Object(o)))
        }
        OptionSpelling::Think => {
            if opts.budget.is_some() {
                lost.push((
                    "budget",
                    format!("{provider}'s think takes no token budget"),
                ));
            }
            match (&opts.effort, opts.enabled) {
                (Some(_), Some(false)) => {
                    lost.push(("effort", "thinking is off".into()));
                    Some(("think", json!(false)))
                }
                (Some(e), _) => Some(("think", json!(e))),
                (None, Some(on)) => Some(("think", json!(on))),
                (None, None) => None,
            }
        }
    };
    (field, lost)
}
