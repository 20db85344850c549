//! Helpers shared by the block formats (Anthropic, Bedrock, …): provider-only fields in and out
//! of `extra`, loss pointers that stay right when elements move, and object arguments.

pub(crate) use crate::formats::field::wrap;
use crate::formats::json::escape;
use crate::formats::COMMON_FIELDS;
use crate::model::{
    empty_object_schema, is_form_key, Exchange, Extra, Losses, Message, StopReason, Tool, ToolCall,
};
use crate::text::Ptr;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Format `id`'s fields of `extra` to write back (other formats' reported as dropped), without
/// form markers and without the keys the encoder writes itself from the model (reported as
/// dropped too: they would clash).
pub(crate) fn own_fields(
    id: &str,
    extra: &Extra,
    reserved: &[&str],
    pointer: impl std::fmt::Display,
    losses: &mut Losses,
) -> Map<String, Value> {
    // Most elements carry nothing of any format: no work, no pointer written.
    if extra.is_empty() {
        return Map::new();
    }
    losses.foreign_extra(extra, id, &pointer);
    let mut m = extra.get(id).cloned().unwrap_or_default();
    m.retain(|k, _| !is_form_key(k));
    for k in reserved {
        if m.remove(*k).is_some() {
            losses.dropped(
                format!("{pointer}/extra/{}/{}", escape(id), escape(k)),
                format!("extra field {k:?}"),
                "the encoder writes this field from the model itself",
            );
        }
    }
    m
}

pub(crate) use crate::model::option_pointer;

/// Where the loss of a dropped element points: the element itself when it was the last one
/// kept, else the whole list, since every element after it moves up one place.
pub(crate) fn drop_pointer(list: &str, index: usize, later_kept: bool) -> String {
    if later_kept {
        list.to_string()
    } else {
        format!("{list}/{index}")
    }
}

/// [`drop_pointer`] of the part at `part` (an element of its list), written out only when a
/// loss is reported.
pub(crate) fn drop_pointer_at(part: &Ptr, later_kept: bool) -> String {
    match part.parent() {
        Some(list) if later_kept => list.to_string(),
        _ => part.to_string(),
    }
}

/// A call's arguments for a format whose input is a JSON object (`what` names the field, as
/// in "Anthropic tool_use input"; `target` is its pointer in the document): invalid text and
/// non-object values become `{}`, and the spelling of valid text is not kept — each reported.
/// Valid arguments are borrowed: the body is written from the exchange.
pub(crate) fn object_arguments<'a>(
    call: &'a ToolCall,
    p: impl std::fmt::Display,
    target: impl std::fmt::Display,
    what: &str,
    losses: &mut Losses,
) -> Cow<'a, Value> {
    let empty = Cow::Owned(Value::Object(Map::new()));
    if call.arguments_invalid() {
        let raw = call.arguments_raw.as_deref().unwrap_or_default();
        losses
            .dropped(
                format!("{p}/arguments_raw"),
                format!("argument text {raw:?} (not valid JSON)"),
                format!("{what} is a JSON object; invalid JSON has no form"),
            )
            .at(target.to_string());
        losses
            .rewritten(
                format!("{p}/arguments"),
                "invalid arguments sent as {}",
                format!("{what} must be a JSON object"),
            )
            .at(target.to_string());
        return empty;
    }
    if let Some(raw) = &call.arguments_raw {
        losses
            .dropped(
                format!("{p}/arguments_raw"),
                format!("argument spelling {raw:?}"),
                format!("{what} is a JSON object, not text; sent as the parsed value"),
            )
            .at(target.to_string());
    }
    if call.arguments.is_object() {
        Cow::Borrowed(&call.arguments)
    } else {
        losses
            .rewritten(
                format!("{p}/arguments"),
                format!("non-object arguments {} sent as {{}}", call.arguments),
                format!("{what} must be a JSON object"),
            )
            .at(target.to_string());
        empty
    }
}

/// The assistant turn of a response view, for a format whose response does not name the model:
/// a model name is reported dropped (`why_model`); a view without a turn is reported with
/// `no_turn` (what, why) and gives `None`.
pub(crate) fn response_turn<'v>(
    view: &'v Exchange,
    losses: &mut Losses,
    why_model: &str,
    no_turn: (&str, &str),
) -> Option<&'v Message> {
    if view.options.model.is_some() {
        losses.dropped("/options/model", "model name", why_model);
    }
    let m = view.messages.first();
    if m.is_none() {
        losses.dropped("/messages", no_turn.0, no_turn.1);
    }
    m
}

/// The stop reason a turn without one decodes with: tool use when it calls tools.
pub(crate) fn derived_stop(m: &Message) -> StopReason {
    if m.tool_calls().next().is_some() {
        StopReason::ToolUse
    } else {
        StopReason::EndTurn
    }
}

/// Tool `i`'s input schema where the format needs a JSON object: anything else is sent as an
/// empty object schema, reported with `why` at `target` (where the schema lands). A schema
/// that is an object is borrowed.
pub(crate) fn object_schema<'a>(
    i: usize,
    t: &'a Tool,
    why: &str,
    target: impl std::fmt::Display,
    losses: &mut Losses,
) -> Cow<'a, Value> {
    if t.input_schema.is_object() {
        return Cow::Borrowed(&t.input_schema);
    }
    losses
        .rewritten(
            format!("/tools/{i}/input_schema"),
            format!("schema {} sent as an empty object schema", t.input_schema),
            why,
        )
        .at(target.to_string());
    Cow::Owned(empty_object_schema())
}

/// Reports what tool `t` (at `p`) carries from MCP that the format's tools cannot hold: its
/// output schema (`no_output` says why) and its annotations (`no_annotations`).
pub(crate) fn drop_mcp_tool_parts(
    t: &Tool,
    p: &str,
    no_output: &str,
    no_annotations: &str,
    losses: &mut Losses,
) {
    if t.output_schema.is_some() {
        losses.dropped(format!("{p}/output_schema"), "output schema", no_output);
    }
    if t.annotations.is_some() {
        losses.dropped(
            format!("{p}/annotations"),
            "tool annotations",
            no_annotations,
        );
    }
}

/// A result's tool name that a format leaves out is no loss when the call it answers (by id)
/// names the same tool: the pairing carries it. Such a line becomes a note.
pub(crate) fn names_the_calls_carry(x: &Exchange, losses: &mut [crate::model::Loss]) {
    for l in losses
        .iter_mut()
        .filter(|l| l.kind == crate::model::LossKind::Dropped && l.pointer.ends_with("/name"))
    {
        let mut at = l.pointer.trim_start_matches('/').split('/');
        let (Some("messages"), Some(i), Some("parts"), Some(j), Some("name"), None) = (
            at.next(),
            at.next().and_then(|s| s.parse::<usize>().ok()),
            at.next(),
            at.next().and_then(|s| s.parse::<usize>().ok()),
            at.next(),
            at.next(),
        ) else {
            continue;
        };
        let Some(crate::model::Part::ToolResult(r)) =
            x.messages.get(i).and_then(|m| m.parts.get(j))
        else {
            continue;
        };
        let (Some(name), Some(id)) = (&r.name, &r.call_id) else {
            continue;
        };
        let answered = x
            .messages
            .iter()
            .flat_map(|m| m.tool_calls())
            .any(|c| c.id.as_deref() == Some(id.as_str()) && c.name == *name);
        if answered {
            l.kind = crate::model::LossKind::Note;
            l.why = format!("{}; the call it answers names the tool", l.why);
        }
    }
}

/// The exchange-level `extra` as the encoder of format `own` writes it: a field of
/// [`COMMON_FIELDS`](super::COMMON_FIELDS) kept for another format moves into `own`'s fields when `own` has it too
/// (and does not set it itself); when `own` has no such field it is reported dropped with why.
/// Borrowed (no copy) when no other format's fields hold one, the common case.
pub(crate) fn adopt_common<'a>(extra: &'a Extra, own: &str, losses: &mut Losses) -> Cow<'a, Extra> {
    let found = |e: &Extra| {
        e.iter().any(|(f, fields)| {
            f != own
                && COMMON_FIELDS
                    .iter()
                    .any(|(k, has)| has.contains(&f.as_str()) && fields.contains_key(*k))
        })
    };
    if !found(extra) {
        return Cow::Borrowed(extra);
    }
    let mut out = extra.clone();
    for (key, has) in COMMON_FIELDS {
        let carried = has.contains(&own);
        for format in has.iter().filter(|f| **f != own) {
            let Some(v) = out.get_mut(*format).and_then(|m| m.remove(*key)) else {
                continue;
            };
            if out.get(*format).is_some_and(Map::is_empty) {
                out.remove(*format);
            }
            if carried {
                out.entry(own.to_string())
                    .or_default()
                    .entry(key.to_string())
                    .or_insert(v);
            } else {
                losses.dropped(
                    format!("/extra/{}/{}", escape(format), escape(key)),
                    format!("{key} flag"),
                    format!(
                        "this format's body has no {key} field: streaming is chosen by the \
                         endpoint or method called, where the API streams at all"
                    ),
                );
            }
        }
    }
    Cow::Owned(out)
}

/// Report a reasoning part that format `target` (a name for people) does not carry: its opaque
/// state (only the issuer can verify it) and its visible text, each a
/// [`LossKind::Reasoning`](crate::model::LossKind::Reasoning) loss at `pointer`. Returns the
/// last loss so the caller can say where it would have gone.
pub(crate) fn drop_reasoning<'l>(
    r: &crate::model::Reasoning,
    pointer: impl std::fmt::Display,
    target: &str,
    losses: &'l mut Losses,
) -> &'l mut crate::model::Loss {
    let pointer = pointer.to_string();
    if let Some(o) = &r.opaque {
        // A pointer at the whole list (later elements moved up) has no `/opaque` under it.
        let at = match pointer.rsplit('/').next() {
            Some(last) if last.bytes().all(|b| b.is_ascii_digit()) && !last.is_empty() => {
                format!("{pointer}/opaque")
            }
            _ => pointer.clone(),
        };
        losses.reasoning(at, o.what(), o.why_dropped());
    }
    if !r.is_opaque_only() || r.opaque.is_none() {
        losses.reasoning(
            pointer,
            "reasoning text",
            format!("{target} has no place for a model's reasoning"),
        );
    }
    let last = losses.0.len() - 1;
    &mut losses.0[last]
}

/// Report a hosted-tool step that another format cannot carry.
pub(crate) fn drop_hosted<'l>(
    h: &crate::model::HostedStep,
    pointer: impl std::fmt::Display,
    losses: &'l mut Losses,
) -> &'l mut crate::model::Loss {
    losses.dropped(pointer.to_string(), h.what(), h.why_dropped())
}

/// A custom (free-text input) tool as a function: one string parameter `input`, the input
/// format (a grammar) in the description.
pub(crate) fn custom_function(t: &Tool, format: &Value) -> Tool {
    let mut f = t.clone();
    f.custom = None;
    let grammar = format.get("grammar").unwrap_or(format);
    let rule = match (
        grammar.get("syntax").and_then(Value::as_str),
        grammar.get("definition").and_then(Value::as_str),
    ) {
        (Some(syntax), Some(definition)) => Some(format!(
            "`input` must match this {syntax} grammar:\n{definition}"
        )),
        _ if format.get("type").and_then(Value::as_str) == Some("text") => None,
        _ => Some(format!("`input` format: {format}")),
    };
    f.description = match (t.description.as_deref(), rule) {
        (Some(d), Some(r)) => Some(format!("{d}\n\n{r}")),
        (d, r) => r.or(d.map(String::from)),
    };
    f.input_schema = serde_json::json!({
        "type": "object",
        "properties": {"input": {"type": "string"}},
        "required": ["input"]
    });
    f
}

#[cfg(test)]
mod common_field_tests {
    use super::*;

    #[test]
    fn finish_words_read_back_as_the_reason_they_were_written_from() {
        const F: Finish = Finish {
            end_turn: "done",
            tool_use: "tools",
            max_tokens: "length",
            stop_sequence: None,
            content_filter: Some("filtered"),
            others: &["paused"],
        };
        for r in [
            StopReason::EndTurn,
            StopReason::ToolUse,
            StopReason::MaxTokens,
            StopReason::ContentFilter,
            StopReason::Other("paused".into()),
        ] {
            let word = F.write(&r).expect("the table has a word for it");
            assert_eq!(F.read(word), r, "{word}");
        }
        assert_eq!(F.write(&StopReason::StopSequence), None);
        assert_eq!(F.write(&StopReason::Other("unknown".into())), None);
        assert_eq!(F.read("unknown"), StopReason::Other("unknown".into()));
    }

    #[test]
    fn stream_moves_to_a_format_that_has_it_and_is_reported_where_none_has() {
        let mut extra = Extra::new();
        let mut fields = Map::new();
        fields.insert("stream".into(), Value::Bool(true));
        fields.insert("top_k".into(), Value::from(5));
        extra.insert("anthropic".into(), fields);
        let mut losses = Losses::new();
        let got = adopt_common(&extra, "openai-chat", &mut losses);
        assert!(losses.0.is_empty());
        assert_eq!(got["openai-chat"]["stream"], Value::Bool(true));
        assert!(!got["anthropic"].contains_key("stream"));
        let got = adopt_common(&extra, "gemini", &mut losses);
        assert!(!got.contains_key("gemini"));
        assert_eq!(losses.0.len(), 1);
        assert_eq!(losses.0[0].pointer, "/extra/anthropic/stream");
        // Nothing to move: borrowed.
        let mut own = Extra::new();
        own.insert("anthropic".into(), Map::new());
        assert!(matches!(
            adopt_common(&own, "openai-chat", &mut losses),
            Cow::Borrowed(_)
        ));
    }
}

/// An API's finish reasons: its word for each stop reason it has, and the other words it
/// sends (read and written back as they are).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finish {
    /// The model finished its turn.
    pub end_turn: &'static str,
    /// The model called tools.
    pub tool_use: &'static str,
    /// The token limit was reached.
    pub max_tokens: &'static str,
    /// A stop sequence was reached, if the API says so.
    pub stop_sequence: Option<&'static str>,
    /// Content was filtered, if the API says so.
    pub content_filter: Option<&'static str>,
    /// Other words of the API.
    pub others: &'static [&'static str],
}

impl Finish {
    /// A finish word → stop reason.
    pub fn read(&self, word: &str) -> StopReason {
        match word {
            w if w == self.end_turn => StopReason::EndTurn,
            w if w == self.tool_use => StopReason::ToolUse,
            w if w == self.max_tokens => StopReason::MaxTokens,
            w if Some(w) == self.stop_sequence => StopReason::StopSequence,
            w if Some(w) == self.content_filter => StopReason::ContentFilter,
            w => StopReason::Other(w.to_string()),
        }
    }

    /// Stop reason → its word, or `None` when the API has none.
    pub fn write<'a>(&self, reason: &'a StopReason) -> Option<&'a str> {
        match reason {
            StopReason::EndTurn => Some(self.end_turn),
            StopReason::ToolUse => Some(self.tool_use),
            StopReason::MaxTokens => Some(self.max_tokens),
            StopReason::StopSequence => self.stop_sequence,
            StopReason::ContentFilter => self.content_filter,
            StopReason::Other(s) => self.others.contains(&s.as_str()).then_some(s.as_str()),
        }
    }
}
