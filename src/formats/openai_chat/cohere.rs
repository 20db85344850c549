//! Cohere Chat API v2 (`POST /v2/chat`): <https://docs.cohere.com/reference/chat>, the
//! tool-use guide <https://docs.cohere.com/docs/tool-use-overview>, and the types of the
//! `cohere` Python SDK (`cohere.types`, `cohere.v2.types`), which win where the prose differs.
//!
//! The request is Chat Completions with other names: `p` for `top_p`, `stop_sequences` for
//! `stop`, `strict_tools` for every tool's `strict`, tool_choice `REQUIRED`/`NONE`, and an
//! assistant `tool_plan` (the text before the calls). It is read with the Chat Completions
//! wire types and [`Profile`] of [`Cohere`]; the renames happen on the model here. The response is
//! its own shape (`{id, finish_reason, message, usage}`), translated to and from a Chat
//! Completions response here.
//!
//! What is lossy:
//! - tool_choice has no `auto` (left out, which is the default: reported), no named tool and no
//!   restriction to some tools (sent as `REQUIRED`, reported), no `validated`.
//! - No `parallel_tool_calls` (dropped, reported). `strict` is one flag for all tools: tools
//!   that disagree lose theirs (reported).
//! - Tool results have no error flag (folded into the text as `Error: …`) and no name; JSON
//!   objects travel as a document (`{"type": "document", "document": {"data": …}}`), other JSON
//!   as text; images are dropped.
//! - `tool_plan` is a plain string: the first text of an assistant message with calls (a form
//!   marker remembers which text it was). Responses do not name the model (dropped, reported).
//! - Finish reasons `COMPLETE`, `TOOL_CALL`, `MAX_TOKENS`, `STOP_SEQUENCE`, `ERROR`,
//!   `TIMEOUT`; a content filter has none (sent as the derived one, reported).

use super::dialects::{self, messages};
use super::profile::{Choices, Finish, Profile, Quirks, MAX_TOKENS};
use super::reasoning::{OptionSpelling, Spelling};
use super::wire::{self, Field, Fields};
use crate::formats::sniff::Node;
use crate::formats::spec::{Header, Http, Print, Sdk, Send};
use crate::formats::{DecodeError, Kind};
use crate::model::ModelFamily;
use crate::model::{ChoiceMode, Exchange, Losses, FORM_KEY};
use serde_json::{json, Value};

const ID: &str = "cohere";
/// Form marker: the pasted request had tools but no `strict_tools`.
const F_NO_STRICT_TOOLS: &str = "no_strict_tools";

/// Cohere Chat v2.
pub struct Cohere;

impl crate::formats::Codec for Cohere {
    const ID: &'static str = ID;
    super::adapted_codec!(Cohere, renamed, lift, to_cohere, from_cohere);

    fn sniff_view(v: &Node) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        if o.contains_key("message") && o.contains_key("finish_reason") {
            return (!o.contains_key("choices")).then_some((Kind::Response, 97));
        }
        o.get("messages")?;
        let choice = matches!(
            o.get("tool_choice").and_then(Node::as_str),
            Some("REQUIRED" | "NONE")
        );
        let plan = messages(v).any(|m| m.get("tool_plan").is_some());
        let documents = messages(v).any(|m| {
            m.get("content").and_then(Node::as_array).is_some_and(|c| {
                c.iter()
                    .any(|p| p.get("type").and_then(Node::as_str) == Some("document"))
            })
        });
        let fields = [
            "strict_tools",
            "documents",
            "citation_options",
            "safety_mode",
        ]
        .iter()
        .any(|k| o.contains_key(k));
        let model = o
            .get("model")
            .and_then(Node::as_str)
            .is_some_and(|m| m.starts_with("command"));
        (choice || plan || documents || fields || model).then_some((Kind::Request, 97))
    }
}

/// The exchange with Cohere's names for what Chat Completions spells otherwise: `top_p` →
/// `p`, `stop` → `stop_sequences`, per-tool `strict` → `strict_tools` (kept fields the Chat
/// Completions encoder emits verbatim).
fn renamed(x: &Exchange, losses: &mut Losses) -> Exchange {
    let mut y = x.clone();
    let mut own = y.extra.remove(ID).unwrap_or_default();
    if let Some(p) = y.options.top_p.take() {
        own.insert("p".into(), json!(p));
    }
    if !y.options.stop.is_empty() {
        own.insert(
            "stop_sequences".into(),
            json!(std::mem::take(&mut y.options.stop)),
        );
    }
    // Provider-run tools are dropped, not sent: they say nothing about strict_tools.
    let flags: Vec<Option<bool>> = y
        .tools
        .iter()
        .filter(|t| t.hosted.is_none())
        .map(|t| t.strict)
        .collect();
    let omitted = own
        .remove(FORM_KEY)
        .is_some_and(|f| f.get(F_NO_STRICT_TOOLS) == Some(&Value::Bool(true)));
    match flags.first() {
        Some(Some(first)) if flags.iter().all(|f| *f == Some(*first)) => {
            if !*first {
                for k in 0..flags.len() {
                    losses.rewritten(
                        format!("/tools/{k}/strict"),
                        "strict false",
                        "sent as strict_tools false, Cohere's default; reads back as unset",
                    );
                }
            }
            own.insert("strict_tools".into(), Value::Bool(*first));
            for t in &mut y.tools {
                t.strict = None;
            }
        }
        // No tool says: Cohere's default is stated (unless a paste left it out).
        Some(None) if !omitted && flags.iter().all(Option::is_none) => {
            own.entry("strict_tools").or_insert(Value::Bool(false));
        }
        _ => {}
    }
    for (k, t) in y.tools.iter_mut().enumerate() {
        if let Some(strict) = t.strict.take() {
            losses.dropped(
                format!("/tools/{k}/strict"),
                format!("strict {strict}"),
                "Cohere has one strict_tools flag for all tools; these tools disagree",
            );
        }
    }
    if !own.is_empty() {
        y.extra.insert(ID.into(), own);
    }
    y
}

/// The reverse of [`renamed`] on a decoded request.
fn lift(x: &mut Exchange) {
    let own = x.extra.entry(ID.to_string()).or_default();
    dialects::lift(&mut x.options.top_p, own, "p", Value::as_f64);
    dialects::lift_stop(&mut x.options.stop, own, "stop_sequences");
    let all_unset = !x.tools.is_empty() && x.tools.iter().all(|t| t.strict.is_none());
    match own.get("strict_tools").and_then(Value::as_bool) {
        // false is the default the encoder states: no tool is strict.
        Some(false) if all_unset => {
            own.remove("strict_tools");
        }
        Some(true) if all_unset => {
            for t in &mut x.tools {
                t.strict = Some(true);
            }
            own.remove("strict_tools");
        }
        None if all_unset => {
            let mut form = Fields::new();
            form.insert(F_NO_STRICT_TOOLS.into(), Value::Bool(true));
            own.insert(FORM_KEY.into(), Value::Object(form));
        }
        _ => {}
    }
    if own.is_empty() {
        x.extra.remove(ID);
    }
}

/// A Chat Completions response (as the encoder built it for Cohere) → Cohere's shape.
fn to_cohere(r: wire::Response) -> Value {
    let mut out = Fields::new();
    if let Some(id) = r.id {
        out.insert("id".into(), Value::String(id));
    }
    let mut choices = r.choices.into_iter();
    let choice = choices.next();
    if let Some(c) = &choice {
        if let Field::Value(f) = &c.finish_reason {
            out.insert("finish_reason".into(), Value::String(f.clone()));
        }
    }
    let mut message = choice
        .as_ref()
        .and_then(|c| serde_json::to_value(&c.message).ok())
        .unwrap_or_else(|| json!({"role": "assistant"}));
    if let Some(m) = message.as_object_mut() {
        match m.remove("content") {
            Some(Value::String(text)) => {
                m.insert("content".into(), json!([{"type": "text", "text": text}]));
            }
            Some(Value::Array(parts)) => {
                m.insert("content".into(), Value::Array(parts));
            }
            _ => {}
        }
    }
    out.insert("message".into(), message);
    if let Some(c) = choice {
        out.extend(c.extra);
    }
    if let Field::Value(u) = r.usage {
        let mut usage = u.extra;
        usage.insert(
            "tokens".into(),
            json!({"input_tokens": u.prompt_tokens, "output_tokens": u.completion_tokens}),
        );
        out.insert("usage".into(), Value::Object(usage));
    }
    out.extend(r.extra);
    Value::Object(out)
}

/// Cohere's response → a Chat Completions response for the shared decoder.
fn from_cohere(doc: Value) -> Result<wire::Response, DecodeError> {
    let Value::Object(mut top) = doc else {
        return Err(DecodeError::at(ID, "", "a response is a JSON object"));
    };
    let id = dialects::take_str(ID, &mut top, "id")?;
    let finish_reason =
        dialects::take_str(ID, &mut top, "finish_reason")?.map_or(Field::Absent, Field::Value);
    let Some(mut message) = top.remove("message") else {
        return Err(DecodeError::at(ID, "", "a response needs a message"));
    };
    // One text item is the plain form of content.
    if let Some(m) = message.as_object_mut() {
        let single = m
            .get("content")
            .and_then(Value::as_array)
            .and_then(|items| match items.as_slice() {
                [item] => item.as_object(),
                _ => None,
            })
            .filter(|o| o.len() == 2 && o.get("type") == Some(&json!("text")))
            .and_then(|o| o.get("text"))
            .and_then(Value::as_str)
            .map(String::from);
        if let Some(text) = single {
            m.insert("content".into(), Value::String(text));
        }
    }
    let message: wire::Message = DecodeError::typed(ID, message, "/message")?;
    let usage = match top.remove("usage") {
        None => Field::Absent,
        Some(u) => match tokens(&u) {
            Some((input, output)) => {
                let mut extra = u.as_object().cloned().unwrap_or_default();
                extra.remove("tokens");
                Field::Value(wire::Usage {
                    prompt_tokens: input,
                    completion_tokens: output,
                    total_tokens: None,
                    extra,
                })
            }
            None => {
                // Kept as it was, among the response's fields.
                top.insert("usage".into(), u);
                Field::Absent
            }
        },
    };
    Ok(wire::Response {
        id,
        object: None,
        created: None,
        model: None,
        choices: vec![wire::Choice {
            index: None,
            message,
            logprobs: Field::Absent,
            finish_reason,
            extra: Fields::new(),
        }],
        usage,
        extra: top,
    })
}

/// `usage.tokens` when it is exactly `{input_tokens, output_tokens}` as whole numbers.
fn tokens(u: &Value) -> Option<(u64, u64)> {
    let t = u.get("tokens")?.as_object()?;
    if t.len() != 2 {
        return None;
    }
    Some((
        t.get("input_tokens")?.as_u64()?,
        t.get("output_tokens")?.as_u64()?,
    ))
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post("Cohere Chat v2", "https://api.cohere.com/v2/chat")
    // The cohere SDK's own variable.
    .headers(&[Header::bearer("CO_API_KEY")])
    .sdk(
        Sdk::new(
            "cohere",
            "cohere.ClientV2(api_key=os.environ[\"CO_API_KEY\"])",
            "chat",
        )
        .print(Print::Repr),
    );

impl crate::formats::spec::Spec for Cohere {
    const NOTE: &'static str = include_str!("notes/cohere.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[super::rules::cohere::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Cohere);
    const SEND: Send = Send::Http(API);
}

/// Cohere Chat v2 as a Chat Completions dialect (the renames and the response shape are done
/// above, around the converter).
impl Profile for Cohere {
    fn reasoning_option(&self, _model: &str) -> Option<OptionSpelling> {
        Some(OptionSpelling::Thinking { budget: true })
    }
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[Spelling::CohereChunk]
    }
    /// Cohere's docs show thinking content in responses only: reasoning from elsewhere is
    /// not sent.
    fn reasoning_spelling(&self, _model: &str) -> Option<Spelling> {
        None
    }
    fn reasoning_issuer(&self, _model: &str) -> Option<&'static str> {
        None
    }
    fn quirks(&self) -> Quirks {
        Quirks {
            tool_type_optional: true,
            document_results: true,
            omits_empty_content: true,
            tool_plan: true,
            response_has_model: false,
            ..Quirks::OPENAI
        }
    }
    fn choices(&self) -> Choices {
        Choices::MODES
    }
    fn max_tokens_field(&self) -> &'static str {
        MAX_TOKENS
    }
    fn mode_from_wire(&self, word: &str) -> Option<ChoiceMode> {
        match word {
            "NONE" => Some(ChoiceMode::None),
            "REQUIRED" => Some(ChoiceMode::Required),
            _ => None,
        }
    }
    /// No word for auto: leaving tool_choice out means the model decides.
    fn mode_to_wire(&self, mode: ChoiceMode) -> Option<&'static str> {
        match mode {
            ChoiceMode::None => Some("NONE"),
            ChoiceMode::Required => Some("REQUIRED"),
            ChoiceMode::Auto | ChoiceMode::Validated => None,
        }
    }
    fn emits_default(&self, field: &str) -> bool {
        field == "id"
    }
    fn finish_pointer(&self) -> &'static str {
        "/finish_reason"
    }
    fn finish(&self) -> Finish {
        Finish {
            end_turn: "COMPLETE",
            tool_use: "TOOL_CALL",
            max_tokens: "MAX_TOKENS",
            stop_sequence: Some("STOP_SEQUENCE"),
            content_filter: None,
            others: &["ERROR", "TIMEOUT"],
        }
    }
}
