//! Ollama's native chat API (`POST /api/chat`):
//! <https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion>, the tool
//! calling guide, and the types of the `ollama` Python SDK (`ollama._types`).
//!
//! The request is Chat Completions-like: `messages` with `role`/`content` (a string),
//! `images`, `tool_calls: [{function: {name, arguments}}]` with the arguments as a JSON
//! *object*, `tool_name` on tool messages; `tools` as OpenAI function tools; sampling settings
//! inside `options` (`temperature`, `top_p`, `num_predict`, `stop`, …); `format`,
//! `keep_alive`, `think`, `stream`. It is read with the Chat Completions wire types and
//! [`Profile`] of [`Ollama`]; `options` is lifted into the model here. The response
//! (`{model, created_at, message, done, done_reason, …counts and durations}`) is translated
//! to and from a Chat Completions response here.
//!
//! What is lossy:
//! - No call ids: calls and results pair by order and `tool_name` (ids dropped, reported; the
//!   tool name is taken from the call when the result has none, reported).
//! - No tool_choice and no parallel_tool_calls (dropped, reported); no `strict` (dropped).
//! - Content is one string: several texts are joined, other parts dropped; an empty text reads
//!   back as no text. Tool results are text (JSON as compact text, images dropped, errors
//!   folded in as `Error: …`).
//! - Arguments are objects: invalid argument text and non-object JSON become `{}` (reported).
//! - `done_reason` is `stop` after tool calls too; `stop` reads as tool use when the message
//!   has calls. A stop sequence or a content filter has no reason of its own (reported).
//! - The `ollama` SDK types tool parameters with a subset of JSON Schema (`type`,
//!   `properties` with `type`/`items`/`description`/`enum`, `required`, `items`, `$defs`);
//!   the document carries the whole schema, and keywords outside that subset may be ignored
//!   (not reported).

use super::dialects::{self, messages};
use super::profile::{Choices, Finish, ObjectArguments, Profile, Quirks, Strict, MAX_TOKENS};
use super::reasoning::{OptionSpelling, Spelling};
use super::wire::{self, Field, Fields};
use crate::formats::sniff::Node;
use crate::formats::spec::{Http, Print, Sdk, Send};
use crate::formats::{DecodeError, Kind};
use crate::model::ModelFamily;
use crate::model::{ChoiceMode, Exchange, Losses, StopReason};
use serde_json::{json, Value};

const ID: &str = "ollama";
/// `created_at` sent when the exchange has none; read back as none.
pub const PLACEHOLDER_CREATED_AT: &str = "1970-01-01T00:00:00Z";

/// Ollama `/api/chat`.
pub struct Ollama;

impl crate::formats::Codec for Ollama {
    const ID: &'static str = ID;
    super::adapted_codec!(Ollama, into_options, lift, to_ollama, from_ollama);

    fn sniff_view(v: &Node) -> Option<(Kind, u8)> {
        let o = v.as_object()?;
        if o.contains_key("message") && o.contains_key("done") {
            return Some((Kind::Response, 97));
        }
        o.get("messages")?;
        let object_args = messages(v).any(|m| {
            m.get("tool_calls")
                .and_then(Node::as_array)
                .is_some_and(|calls| {
                    calls.iter().any(|c| {
                        c.get("function")
                            .and_then(|f| f.get("arguments"))
                            .is_some_and(Node::is_object)
                    })
                })
        });
        let tool_name = messages(v).any(|m| m.get("tool_name").is_some());
        let fields = ["options", "keep_alive", "think"]
            .iter()
            .any(|k| o.contains_key(k));
        (object_args || tool_name || fields).then_some((Kind::Request, 97))
    }
}

/// The model's sampling options → `options` (a kept field the Chat Completions encoder emits
/// verbatim), next to the options a pasted document had.
fn into_options<'x>(x: &'x Exchange, losses: &mut Losses) -> std::borrow::Cow<'x, Exchange> {
    let o = &x.options;
    if o.temperature.is_none() && o.top_p.is_none() && o.max_tokens.is_none() && o.stop.is_empty() {
        // Nothing to lift: no copy of the exchange.
        return std::borrow::Cow::Borrowed(x);
    }
    let mut y = x.clone();
    let mut lifted = Fields::new();
    if let Some(t) = y.options.temperature.take() {
        lifted.insert("temperature".into(), json!(t));
    }
    if let Some(p) = y.options.top_p.take() {
        lifted.insert("top_p".into(), json!(p));
    }
    if let Some(n) = y.options.max_tokens.take() {
        lifted.insert("num_predict".into(), json!(n));
    }
    if !y.options.stop.is_empty() {
        lifted.insert("stop".into(), json!(std::mem::take(&mut y.options.stop)));
    }
    let own = y.extra.entry(ID.to_string()).or_default();
    let mut options = match own.remove("options") {
        Some(Value::Object(o)) => o,
        Some(other) => {
            losses.dropped(
                format!("/extra/{ID}/options"),
                format!("options {other}"),
                "options must be an object to hold the sampling settings",
            );
            Fields::new()
        }
        None => Fields::new(),
    };
    options.extend(lifted);
    own.insert("options".into(), Value::Object(options));
    std::borrow::Cow::Owned(y)
}

/// The reverse of [`into_options`] on a decoded request.
fn lift(x: &mut Exchange) {
    let Some(Value::Object(options)) = x.extra.get_mut(ID).and_then(|own| own.get_mut("options"))
    else {
        return;
    };
    let before = options.len();
    dialects::lift(
        &mut x.options.temperature,
        options,
        "temperature",
        Value::as_f64,
    );
    dialects::lift(&mut x.options.top_p, options, "top_p", Value::as_f64);
    dialects::lift(
        &mut x.options.max_tokens,
        options,
        "num_predict",
        Value::as_u64,
    );
    dialects::lift_stop(&mut x.options.stop, options, "stop");
    // An `options` emptied by lifting is the encoder's to rebuild; one pasted empty stays.
    if options.is_empty() && before > 0 {
        if let Some(own) = x.extra.get_mut(ID) {
            own.remove("options");
            if own.is_empty() {
                x.extra.remove(ID);
            }
        }
    }
}

/// A Chat Completions response (as the encoder built it for Ollama) → Ollama's shape.
fn to_ollama(r: wire::Response) -> Value {
    let mut out = Fields::new();
    let mut rest = r.extra;
    if let Some(model) = r.model {
        out.insert("model".into(), Value::String(model));
    }
    out.insert(
        "created_at".into(),
        rest.remove("created_at")
            .unwrap_or_else(|| Value::String(PLACEHOLDER_CREATED_AT.into())),
    );
    let mut choices = r.choices.into_iter();
    let choice = choices.next();
    let message = choice
        .as_ref()
        .and_then(|c| serde_json::to_value(&c.message).ok())
        .unwrap_or_else(|| json!({"role": "assistant", "content": ""}));
    out.insert("message".into(), message);
    out.insert(
        "done".into(),
        rest.remove("done").unwrap_or(Value::Bool(true)),
    );
    if let Some(c) = choice {
        if let Field::Value(f) = &c.finish_reason {
            out.insert("done_reason".into(), Value::String(f.clone()));
        }
        out.extend(c.extra);
    }
    out.extend(rest);
    if let Field::Value(u) = r.usage {
        out.insert("prompt_eval_count".into(), json!(u.prompt_tokens));
        out.insert("eval_count".into(), json!(u.completion_tokens));
        out.extend(u.extra);
    }
    Value::Object(out)
}

/// Ollama's response → a Chat Completions response for the shared decoder.
fn from_ollama(doc: Value) -> Result<wire::Response, DecodeError> {
    let Value::Object(mut top) = doc else {
        return Err(DecodeError::at(ID, "", "a response is a JSON object"));
    };
    let model = dialects::take_str(ID, &mut top, "model")?;
    if top.get("created_at") == Some(&json!(PLACEHOLDER_CREATED_AT)) {
        top.remove("created_at");
    }
    if top.get("done") == Some(&Value::Bool(true)) {
        top.remove("done");
    }
    let finish_reason =
        dialects::take_str(ID, &mut top, "done_reason")?.map_or(Field::Absent, Field::Value);
    let Some(message) = top.remove("message") else {
        return Err(DecodeError::at(ID, "", "a response needs a message"));
    };
    let message: wire::Message = DecodeError::typed(ID, message, "/message")?;
    let counts = (
        top.get("prompt_eval_count").and_then(Value::as_u64),
        top.get("eval_count").and_then(Value::as_u64),
    );
    let usage = match counts {
        (Some(input), Some(output)) => {
            top.remove("prompt_eval_count");
            top.remove("eval_count");
            Field::Value(wire::Usage {
                prompt_tokens: input,
                completion_tokens: output,
                total_tokens: None,
                extra: Fields::new(),
            })
        }
        _ => Field::Absent,
    };
    Ok(wire::Response {
        id: None,
        object: None,
        created: None,
        model,
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

/// The API its requests are sent to, as the snippets call it.
const API: Http = Http::post(
    "Ollama /api/chat (local, no key)",
    "http://localhost:11434/api/chat",
)
.sdk(Sdk::new("ollama", "ollama.Client()", "chat").print(Print::Repr));

impl crate::formats::spec::Spec for Ollama {
    const NOTE: &'static str = include_str!("notes/ollama.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[super::rules::ollama::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Ollama);
    const SEND: Send = Send::Http(API);
}

/// Ollama's `/api/chat` as a Chat Completions dialect (`options` and the response shape are
/// done above, around the converter).
impl Profile for Ollama {
    fn reasoning_option(&self, _model: &str) -> Option<OptionSpelling> {
        Some(OptionSpelling::Think)
    }
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[Spelling::Thinking]
    }
    fn reasoning_spelling(&self, _model: &str) -> Option<Spelling> {
        Some(Spelling::Thinking)
    }
    fn reasoning_issuer(&self, _model: &str) -> Option<&'static str> {
        None
    }
    fn quirks(&self) -> Quirks {
        Quirks {
            has_ids: false,
            has_tool_choice: false,
            tool_type_optional: true,
            typed_calls: false,
            string_content: true,
            ..Quirks::OPENAI
        }
    }
    fn choices(&self) -> Choices {
        Choices::MODES
    }
    fn max_tokens_field(&self) -> &'static str {
        MAX_TOKENS
    }
    fn mode_from_wire(&self, _word: &str) -> Option<ChoiceMode> {
        None
    }
    fn mode_to_wire(&self, _mode: ChoiceMode) -> Option<&'static str> {
        None
    }
    fn strict(&self) -> Strict {
        Strict::No
    }
    fn object_arguments(&self) -> ObjectArguments {
        ObjectArguments::Always
    }
    fn result_name_field(&self) -> Option<&'static str> {
        Some("tool_name")
    }
    fn emits_default(&self, _field: &str) -> bool {
        false
    }
    /// Ollama says `stop` after tool calls too.
    fn finish_from_wire(&self, word: &str, has_calls: bool) -> StopReason {
        match word {
            "stop" if has_calls => StopReason::ToolUse,
            _ => self.finish().read(word),
        }
    }
    fn finish_to_wire(&self, reason: &StopReason, has_calls: bool) -> Option<String> {
        let word = match reason {
            StopReason::EndTurn if !has_calls => "stop",
            StopReason::ToolUse if has_calls => "stop",
            StopReason::MaxTokens => "length",
            StopReason::Other(s) if matches!(s.as_str(), "load" | "unload") => s,
            _ => return None,
        };
        Some(word.to_string())
    }
    fn finish(&self) -> Finish {
        Finish {
            content_filter: None,
            others: &["load", "unload"],
            ..Finish::OPENAI
        }
    }
    fn derived_finish(&self, _has_calls: bool) -> &'static str {
        "stop"
    }
    fn finish_pointer(&self) -> &'static str {
        "/done_reason"
    }
}
