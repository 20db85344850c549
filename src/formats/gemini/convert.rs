//! Canonical model ↔ Gemini wire types.
//!
//! Provider-only details live in `extra["gemini"]` of the element they belong to:
//! - exchange: unknown top-level fields (`safetySettings`, `cachedContent`, …) as they are;
//!   `generationConfig` fields Toolscope does not model under `generationConfig`; and, only when
//!   a pasted document spells them in a way the encoder would not reproduce, the pasted
//!   `systemInstruction`, `tools` (layout, Google Search…) and `toolConfig` ("memos");
//! - tool: unknown declaration fields (`behavior`), and memos of `parameters`,
//!   `parametersJsonSchema`, `response`, `responseJsonSchema` spelled differently;
//! - message: unknown content fields; in responses also `response` (response-level fields such
//!   as `responseId`), `candidate` (`safetyRatings`, `avgLogprobs`, …) and `usageMetadata`
//!   (`thoughtsTokenCount`, …);
//! - part: unknown part fields, and for calls and results the unknown fields of
//!   `functionCall`/`functionResponse` under those names. A `thoughtSignature` is a reasoning
//!   part's opaque state; older documents that kept it in a call's extras still encode it;
//! - exchange: the form marker `_toolscope:snake_case` lists the snake_case names a pasted
//!   document used, written back so.
//!
//! A memo is emitted verbatim only while it still decodes to the current model; once the model
//! changed, the encoder rebuilds the field and reports the memo as rewritten.

use super::schema;
use super::wire::{self, Fields};
use super::SKIP_SIGNATURE as GEMINI_SKIP_SIGNATURE;
use crate::formats::field::{wrap, Own};
use crate::formats::json::escape;
use crate::formats::shared::{self, Finish};
use crate::formats::sniff::Node;
use crate::formats::DecodeError;
use crate::model::{
    empty_object_schema, Block, ChoiceMode, Exchange, Extra, HostedKind, HostedStep, HostedTool,
    Loss, Losses, Message, Opaque, OpaqueKind, Options, Part, Reasoning, ResultContent, Role,
    StopReason, Tool, ToolCall, ToolChoice, ToolResult, Usage,
};
use serde_json::{json, Value};

/// Format id.
pub const ID: &str = "gemini";

/// `responseId` written when the model has none; read back as "no id".
pub const PLACEHOLDER_RESPONSE_ID: &str = "toolscope-response";

/// Part fields that carry data other than text or a function call/response: such parts are kept
/// as [`Part::Raw`].
const DATA_KEYS: [&str; 6] = [
    "inlineData",
    "fileData",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
];

/// Message extras that belong to a response body, not to a content.
const RESPONSE_KEYS: [&str; 3] = ["response", "candidate", "usageMetadata"];

/// Every `finishReason` the SDK knows.
const FINISH_REASONS: [&str; 24] = [
    "FINISH_REASON_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_OTHER",
    "NO_IMAGE",
    "IMAGE_RECITATION",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MISSING_THOUGHT_SIGNATURE",
    "MALFORMED_RESPONSE",
    "ESCALATION",
    "PUP_LIMITED_DISABLED",
    "CONTINUATION",
    "MODEL_ARMOR",
];

const PAIRING: &str = "Gemini needs exactly one functionResponse per functionCall of the previous \
                       model turn, all in the next user content; the API rejects this request";

// ---------------------------------------------------------------------------------------------
// Small helpers

fn object(v: Option<Value>) -> Fields {
    match v {
        Some(Value::Object(m)) => m,
        _ => Fields::new(),
    }
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// `fields` without the names the typed struct writes itself: a flattened duplicate would put
/// the key in the document twice. Each one removed is reported.
fn without(mut fields: Fields, reserved: &[&str], at: &str, l: &mut Losses) -> Fields {
    for r in reserved {
        if fields.remove(*r).is_some() {
            l.dropped(
                format!("{at}/extra/{ID}/{}", escape(r)),
                format!("extra field {r}"),
                "Toolscope writes this field from the model itself",
            );
        }
    }
    fields
}

/// The pointer covering the removal of `keys` from `extra["gemini"]` of the element at `base`:
/// the key itself while other fields remain, else the whole `extra` (it reads back empty).
fn removed_pointer(base: &str, extra: &Extra, keys: &[&str], key: &str) -> String {
    // Form markers are not compared: they do not keep `extra` from reading back empty.
    let left = extra.get(ID).map_or(0, |m| {
        m.keys()
            .filter(|k| !keys.contains(&k.as_str()) && !crate::model::is_form_key(k))
            .count()
    });
    if left > 0 {
        format!("{base}/extra/{ID}/{}", escape(key))
    } else {
        format!("{base}/extra")
    }
}

/// [`Losses::foreign_extra`], with the pointer fixed for the common case where nothing of this
/// format is left in `extra`: the whole map then reads back absent (`extra` is skipped when
/// empty), a difference at `{base}/extra` that `{base}/extra/<format>` does not cover.
fn foreign(l: &mut Losses, extra: &Extra, base: &str) {
    let before = l.0.len();
    l.foreign_extra(extra, ID, base);
    if Own::of(extra, ID).cloned().is_empty() {
        for loss in l.0.iter_mut().skip(before) {
            loss.pointer = format!("{base}/extra");
        }
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Parts

/// What a wire part is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartKind {
    Text,
    Call,
    Response,
    Raw,
}

/// Exactly one of text / call / response and nothing else that carries data: a typed part;
/// thoughts, images, code and anything ambiguous: raw.
fn kind(p: &wire::Part) -> PartKind {
    let typed = usize::from(p.text.is_some())
        + usize::from(p.function_call.is_some())
        + usize::from(p.function_response.is_some());
    let thought = p.extra.get("thought") == Some(&Value::Bool(true));
    let data = p.extra.keys().any(|k| DATA_KEYS.contains(&k.as_str()));
    if typed != 1 || thought || data {
        PartKind::Raw
    } else if p.text.is_some() {
        PartKind::Text
    } else if p.function_call.is_some() {
        PartKind::Call
    } else {
        PartKind::Response
    }
}

fn sole<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) if m.len() == 1 => m.get(key),
        _ => None,
    }
}

/// What a `functionResponse.response` object means, following the API's convention: `output`
/// alone is the output, `error` alone is an error, anything else is the output as a whole.
fn read_response(v: &Value) -> (ResultContent, bool) {
    if let Some(x) = sole(v, "output") {
        return match x {
            Value::String(s) => (ResultContent::Text(s.clone()), false),
            Value::Object(_) if wrapped(x) => (ResultContent::Json(x.clone()), false),
            Value::Object(_) => (ResultContent::Json(v.clone()), false),
            other => (ResultContent::Json(other.clone()), false),
        };
    }
    if let Some(x) = sole(v, "error") {
        return match x {
            Value::String(s) => (ResultContent::Text(s.clone()), true),
            other => (ResultContent::Json(other.clone()), true),
        };
    }
    (ResultContent::Json(v.clone()), false)
}

/// A JSON object that would not read back as itself (`{"output": …}` or `{"error": …}` alone),
/// so it is sent wrapped in `{"output": …}`.
fn wrapped(v: &Value) -> bool {
    read_response(v) != (ResultContent::Json(v.clone()), false)
}

fn read_block(v: &Value) -> Block {
    let inline = sole(v, "inlineData").and_then(Value::as_object);
    if let Some(m) = inline.filter(|m| m.len() == 2) {
        if let (Some(Value::String(t)), Some(Value::String(d))) = (m.get("mimeType"), m.get("data"))
        {
            return Block::Image {
                media_type: t.clone(),
                data: d.clone(),
            };
        }
    }
    Block::Raw {
        format: ID.into(),
        value: v.clone(),
    }
}

/// A result's content and error flag from `response` and `parts`, and the `parts` that are not
/// content (kept verbatim).
fn read_result(
    response: Option<&Value>,
    parts: Option<&Vec<Value>>,
) -> (ResultContent, bool, Option<Vec<Value>>) {
    let (content, is_error) = response
        .map(read_response)
        .unwrap_or((ResultContent::Json(json!({})), false));
    match parts {
        Some(ps) if !ps.is_empty() => {
            let empty = response.is_none_or(|r| *r == json!({}));
            let text = if empty {
                None
            } else {
                match &content {
                    ResultContent::Text(t) => Some(t.clone()),
                    _ => return (content, is_error, Some(ps.clone())),
                }
            };
            let mut blocks: Vec<Block> =
                text.map(|text| Block::Text { text }).into_iter().collect();
            blocks.extend(ps.iter().map(read_block));
            (ResultContent::Blocks(blocks), is_error && !empty, None)
        }
        Some(ps) => (content, is_error, Some(ps.clone())),
        None => (content, is_error, None),
    }
}

/// `response` (and `parts`) for a result.
fn write_result(
    content: &ResultContent,
    is_error: bool,
    at: &str,
    l: &mut Losses,
) -> (Value, Option<Vec<Value>>) {
    let key = if is_error { "error" } else { "output" };
    match content {
        ResultContent::Text(t) => (json!({ key: t }), None),
        ResultContent::Json(v) if is_error => (json!({ "error": v }), None),
        ResultContent::Json(v) if v.is_object() && !wrapped(v) => (v.clone(), None),
        ResultContent::Json(v) => (json!({ "output": v }), None),
        ResultContent::Blocks(blocks) => {
            let mut texts = Vec::new();
            let mut parts = Vec::new();
            for (k, b) in blocks.iter().enumerate() {
                match b {
                    Block::Text { text } => texts.push(text.as_str()),
                    Block::Image { media_type, data } => {
                        parts.push(json!({"inlineData": {"mimeType": media_type, "data": data}}))
                    }
                    Block::Raw { format, value } if format == ID => parts.push(value.clone()),
                    Block::Raw { format, .. } => {
                        l.dropped(
                            format!("{at}/content/blocks/{k}"),
                            format!("{format} result block"),
                            format!("only {format} has this kind of block"),
                        );
                    }
                }
            }
            let response = if is_error || !texts.is_empty() {
                json!({ key: texts.join("\n") })
            } else {
                json!({})
            };
            (response, (!parts.is_empty()).then_some(parts))
        }
    }
}

/// Why a result's content reads back differently, for the loss.
fn content_change(content: &ResultContent) -> (String, &'static str) {
    match content {
        ResultContent::Blocks(_) => (
            "result content blocks".into(),
            "a Gemini result is one JSON object: texts are joined into {\"output\": …}, \
             images go in the response's inline parts",
        ),
        ResultContent::Json(Value::String(_)) => (
            "JSON string result".into(),
            "sent as {\"output\": \"…\"}, which Gemini reads as text",
        ),
        _ => (
            "result content".into(),
            "it reads back differently from Gemini's response object",
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Contents (both directions)

/// A call of the latest model turn, for naming results that have no name.
struct Pending {
    id: Option<String>,
    name: String,
    answered: bool,
}

/// Where the parts of one content go in the document.
struct Target<'a> {
    /// `model` or `user`.
    role: &'static str,
    /// `/contents/3` or `/candidates/0/content`.
    at: &'a str,
    /// Encoding a response (response-only extras are expected, stop reasons kept).
    response: bool,
    /// The model the decoder will name as the issuer of the thought signatures written here.
    issuer: Option<&'a str>,
}

/// Pointer of a part left out: the part itself when it is the last, else the whole part list
/// (the parts after it move up).
fn part_gone(base: &str, pj: usize, len: usize) -> String {
    if pj + 1 == len {
        format!("{base}/parts/{pj}")
    } else {
        format!("{base}/parts")
    }
}

fn is_plain_empty_text(p: &Part) -> bool {
    matches!(p, Part::Text { text, extra } if text.is_empty() && Own::of(extra, ID).cloned().is_empty())
}

/// One content from one message, or from a tool message and the user message after it.
fn encode_content(
    group: &[(usize, &Message)],
    t: &Target,
    calls: &mut [Pending],
    l: &mut Losses,
) -> wire::Content {
    encode_content_with(group, t, calls, &[], l)
}

/// [`encode_content`], giving the calls at `placeholders` (message, part) Gemini's documented
/// stand-in signature.
fn encode_content_with(
    group: &[(usize, &Message)],
    t: &Target,
    calls: &mut [Pending],
    placeholders: &[(usize, usize)],
    l: &mut Losses,
) -> wire::Content {
    let mut parts: Vec<wire::Part> = Vec::new();
    let mut extra = Fields::new();
    let first = group.first().map_or(0, |(i, _)| *i);
    for (gi, (mi, m)) in group.iter().enumerate() {
        let base = format!("/messages/{mi}");
        foreign(l, &m.extra, &base);
        let mut mine = Own::of(&m.extra, ID).cloned();
        let response_keys: Vec<&str> = RESPONSE_KEYS
            .iter()
            .copied()
            .filter(|k| mine.contains_key(*k))
            .collect();
        for k in &response_keys {
            mine.remove(*k);
            if !t.response {
                l.dropped(
                    removed_pointer(&base, &m.extra, &response_keys, k),
                    format!("response field group {k}"),
                    "it belongs to a response body, not to a content of a request",
                );
            }
        }
        // stop_reason and usage of past turns are response data (`Exchange::request_view`).
        if gi > 0 && !mine.is_empty() {
            for p in [format!("{base}/extra"), format!("/messages/{first}/extra")] {
                l.rewritten(
                    p,
                    "content fields of the user turn",
                    "Gemini sends tool results and the user turn after them as one content; \
                     its fields read back on the tool results",
                );
            }
        }
        for (k, v) in mine {
            extra.entry(k).or_insert(v);
        }
        // Shapes the decoder would split differently (Role::Tool holds only results, results
        // travel only in tool messages): the message list changes, so say so at its root.
        let misplaced = match m.role {
            Role::Tool => {
                m.parts.is_empty() || m.parts.iter().any(|p| !matches!(p, Part::ToolResult(_)))
            }
            Role::User => {
                m.parts.iter().any(|p| matches!(p, Part::ToolResult(_)))
                    || (gi > 0 && m.parts.is_empty())
            }
            Role::Assistant => false,
        };
        if misplaced {
            l.rewritten(
                "/messages",
                format!("message {mi} ({:?})", m.role),
                "Gemini has no tool role: results travel in user contents and are read back \
                 as tool messages, everything else as user messages",
            );
        }
        let has_other = m.parts.iter().any(|p| !is_plain_empty_text(p));
        // A signature of an attached reasoning part, for the next part written.
        let mut pending: Option<(String, String)> = None;
        for (pj, part) in m.parts.iter().enumerate() {
            let at = format!("{base}/parts/{pj}");
            let gone = part_gone(&base, pj, m.parts.len());
            let target = format!("{}/parts/{}", t.at, parts.len());
            let expected = match part {
                Part::Text { text, extra: x } => {
                    foreign(l, x, &at);
                    let fields = Own::of(x, ID).cloned();
                    if text.is_empty() && fields.is_empty() && has_other {
                        l.dropped(
                            &gone,
                            "empty text part",
                            "Gemini rejects empty text parts; the turn's other parts are sent",
                        );
                        continue;
                    }
                    parts.push(wire::Part {
                        text: Some(text.clone()),
                        extra: without(
                            fields,
                            &["text", "functionCall", "functionResponse"],
                            &at,
                            l,
                        ),
                        ..Default::default()
                    });
                    PartKind::Text
                }
                Part::ToolCall(c) => {
                    if t.role != "model" {
                        l.dropped(
                            &gone,
                            format!("tool call {}", c.name),
                            "Gemini carries function calls only in model turns",
                        );
                        continue;
                    }
                    let mut wp = encode_call(c, &at, &target, l);
                    if placeholders.contains(&(*mi, pj))
                        && pending.is_none()
                        && !wp.extra.contains_key(SIGNATURE)
                    {
                        wp.extra
                            .insert(SIGNATURE.into(), GEMINI_SKIP_SIGNATURE.into());
                        // Read back as an attached reasoning part before the call.
                        l.added(&at, "placeholder thought signature", PLACEHOLDER_WHY)
                            .at(format!("{target}/{SIGNATURE}"));
                    }
                    parts.push(wp);
                    PartKind::Call
                }
                Part::ToolResult(r) => {
                    if t.role == "model" {
                        l.dropped(
                            &gone,
                            "tool result in an assistant message",
                            "Gemini carries function responses only in user contents",
                        );
                        continue;
                    }
                    parts.push(encode_result(r, &at, &target, calls, l));
                    PartKind::Response
                }
                Part::Reasoning(r) => {
                    if t.role != "model" {
                        shared::drop_reasoning(r, &gone, "a Gemini user content", l);
                        continue;
                    }
                    if let Some(o) = r.opaque.as_ref().filter(|o| o.replayable_to(ID)) {
                        if o.model.is_some() && o.model.as_deref() != t.issuer {
                            l.note(
                                format!("{at}/opaque/model"),
                                "the model that issued the thought signature",
                                "a Gemini body names no model per part; the signature itself \
                                 is sent",
                            );
                        }
                    }
                    if let Some(wp) = encode_reasoning(r, &at, &gone, &mut pending, l) {
                        parts.push(wp);
                    }
                    continue;
                }
                Part::Hosted(h) => {
                    let own_step = h.format == ID && t.role == "model";
                    match serde_json::from_value::<wire::Part>(h.value.clone()) {
                        Ok(mut wp) if own_step => {
                            if let Some((sig, _)) = pending.take() {
                                wp.extra.entry(SIGNATURE).or_insert(Value::String(sig));
                            }
                            parts.push(wp);
                        }
                        _ => {
                            shared::drop_hosted(h, &gone, l);
                        }
                    }
                    continue;
                }
                Part::Raw { format, value } => {
                    if format != ID {
                        l.dropped(
                            &gone,
                            crate::model::media_label(format, value),
                            crate::model::raw_why(
                                format,
                                value,
                                format!("only {format} has this kind of block"),
                            ),
                        );
                        continue;
                    }
                    match serde_json::from_value::<wire::Part>(value.clone()) {
                        Ok(wp) if kind(&wp) == PartKind::Raw => {
                            // Kept from older documents: thoughts, signatures and code
                            // execution now read back as reasoning and hosted steps.
                            if t.role == "model"
                                && !matches!(read_model_part(&wp, None), Read::Plain)
                            {
                                l.rewritten(
                                    &at,
                                    "raw Gemini part",
                                    "it reads back as the reasoning or hosted-tool step it is",
                                )
                                .at(&target);
                            }
                            parts.push(wp);
                            PartKind::Raw
                        }
                        _ => {
                            l.dropped(
                                &gone,
                                "raw Gemini part",
                                "it is not a part Gemini would keep as such (plain text or a \
                                 function call/response)",
                            );
                            continue;
                        }
                    }
                }
            };
            if let Some((sig, _)) = pending.take() {
                if let Some(last) = parts.last_mut() {
                    last.extra.entry(SIGNATURE).or_insert(Value::String(sig));
                }
            }
            // Gemini fields in a part's extras can change what it reads back as (`thought`).
            if parts.last().map(kind) != Some(expected) {
                l.rewritten(
                    &at,
                    "part",
                    "its Gemini fields make it read back as a raw part",
                )
                .at(target);
            }
        }
        if let Some((sig, at)) = pending.take() {
            l.rewritten(
                &at,
                "thought signature attached to no part",
                "no part follows it in its turn: sent as a part holding only the signature",
            )
            .at(format!("{}/parts/{}", t.at, parts.len()));
            let mut extra = Fields::new();
            extra.insert(SIGNATURE.into(), Value::String(sig));
            parts.push(wire::Part {
                extra,
                ..Default::default()
            });
        }
    }
    wire::Content {
        role: Some(t.role.into()),
        parts,
        extra: without(extra, &["role", "parts"], &format!("/messages/{first}"), l),
    }
}

/// Why a Gemini 3 request gets the placeholder signature.
const PLACEHOLDER_WHY: &str = "Gemini 3 rejects a function call of the current turn without a \
    thought signature (400 \"Function call is missing a thought_signature\"); this call has none \
    Gemini issued, so it carries the stand-in Google documents for calls made elsewhere \
    (https://ai.google.dev/gemini-api/docs/thought-signatures, FAQ), which skips the check";

/// A reasoning part of a model turn: a `thought` part, or (attached) the signature the next
/// part carries, set in `pending`. State another provider issued is reported and left out.
fn encode_reasoning(
    r: &Reasoning,
    at: &str,
    gone: &str,
    pending: &mut Option<(String, String)>,
    l: &mut Losses,
) -> Option<wire::Part> {
    foreign(l, &r.extra, at);
    let sig = match &r.opaque {
        Some(o) if o.replayable_to(ID) => Some(o.data.clone()),
        Some(o) => {
            l.reasoning(format!("{at}/opaque"), o.what(), o.why_dropped());
            None
        }
        None => None,
    };
    let mut fields = Own::of(&r.extra, ID).cloned();
    let bare = fields.remove(BARE).is_some();
    fields.retain(|k, _| !crate::model::is_form_key(k));
    let text = match (&r.text, r.summary.is_empty()) {
        (Some(t), true) => Some(t.clone()),
        (None, false) => {
            l.rewritten(
                format!("{at}/summary"),
                "reasoning summaries",
                "Gemini has no summary of its own: sent as the thought part's text",
            );
            Some(r.summary.join("\n\n"))
        }
        (Some(t), false) => {
            l.reasoning(
                format!("{at}/summary"),
                "reasoning summaries",
                "a Gemini thought part holds one text: the reasoning text is sent",
            );
            Some(t.clone())
        }
        (None, true) => None,
    };
    if r.attached && text.is_none() && fields.is_empty() {
        if let Some(s) = sig {
            *pending = Some((s, at.to_string()));
        } else if r.opaque.is_none() {
            l.dropped(gone, "empty reasoning part", "it holds nothing to send");
        }
        return None;
    }
    if text.is_none() && sig.is_none() && fields.is_empty() {
        // Only foreign state, reported above.
        return None;
    }
    let mut extra = without(
        fields,
        &["text", "functionCall", "functionResponse", SIGNATURE],
        at,
        l,
    );
    if !(bare && text.is_none()) {
        extra.insert("thought".into(), Value::Bool(true));
    }
    if r.attached {
        l.rewritten(
            at,
            "attached reasoning with text",
            "Gemini carries thought text in a thought part of its own: sent as one",
        );
    }
    if let Some(s) = sig {
        extra.insert(SIGNATURE.into(), Value::String(s));
    }
    Some(wire::Part {
        text,
        extra,
        ..Default::default()
    })
}

fn encode_call(c: &ToolCall, at: &str, target: &str, l: &mut Losses) -> wire::Part {
    foreign(l, &c.extra, at);
    let args = if c.arguments_invalid() {
        l.dropped(
            format!("{at}/arguments_raw"),
            "arguments that are not valid JSON",
            "Gemini `args` is a JSON object; {} is sent",
        )
        .at(format!("{target}/functionCall/args"));
        l.rewritten(format!("{at}/arguments"), "invalid arguments", "sent as {}");
        json!({})
    } else {
        let v = if c.arguments.is_object() {
            c.arguments.clone()
        } else {
            l.rewritten(
                format!("{at}/arguments"),
                format!("arguments {}", compact(&c.arguments)),
                "Gemini `args` is a JSON object; {} is sent",
            )
            .at(format!("{target}/functionCall/args"));
            json!({})
        };
        if c.arguments_raw.is_some() {
            l.rewritten(
                format!("{at}/arguments_raw"),
                "argument text as written",
                "Gemini `args` is a JSON object: spaces and key order of the text are not kept",
            );
        }
        v
    };
    let mut fields = Own::of(&c.extra, ID).cloned();
    let call_extra = object(fields.remove("functionCall"));
    wire::Part {
        function_call: Some(wire::FunctionCall {
            id: c.id.clone(),
            name: c.name.clone(),
            args: Some(args),
            extra: without(call_extra, &["id", "name", "args"], at, l),
        }),
        extra: without(fields, &["text", "functionResponse"], at, l),
        ..Default::default()
    }
}

fn encode_result(
    r: &ToolResult,
    at: &str,
    target: &str,
    calls: &mut [Pending],
    l: &mut Losses,
) -> wire::Part {
    foreign(l, &r.extra, at);
    // The call answered: by id, else by name, else the oldest unanswered.
    let by_id = r.call_id.as_ref().and_then(|id| {
        calls
            .iter()
            .position(|c| !c.answered && c.id.as_ref() == Some(id))
    });
    let by_name = || {
        r.name
            .as_ref()
            .and_then(|n| calls.iter().position(|c| !c.answered && &c.name == n))
    };
    let pick = by_id
        .or_else(by_name)
        .or_else(|| calls.iter().position(|c| !c.answered));
    if let Some(k) = pick {
        if let Some(c) = calls.get_mut(k) {
            c.answered = true;
        }
    }
    let name = match (&r.name, pick.and_then(|k| calls.get(k))) {
        (Some(n), _) => n.clone(),
        (None, Some(c)) => {
            // Carried from the call it answers: nothing made up, a note.
            l.note(
                format!("{at}/name"),
                format!("functionResponse name {:?}", c.name),
                "Gemini requires the function name on a result; taken from the call it answers",
            )
            .at(format!("{target}/functionResponse/name"));
            c.name.clone()
        }
        (None, None) => {
            l.added(
                format!("{at}/name"),
                "functionResponse name \"unknown\"",
                "Gemini requires the function name on a result and no call precedes it",
            )
            .at(format!("{target}/functionResponse/name"));
            "unknown".into()
        }
    };
    let (response, result_parts) = write_result(&r.content, r.is_error, at, l);
    let mut fields = Own::of(&r.extra, ID).cloned();
    let mut response_extra = object(fields.remove("functionResponse"));
    let kept_parts = match response_extra.remove("parts") {
        Some(Value::Array(ps)) => Some(ps),
        Some(other) => {
            response_extra.insert("parts".into(), other);
            None
        }
        None => None,
    };
    let parts = match (result_parts, kept_parts) {
        (Some(ps), Some(_)) => {
            l.dropped(
                format!("{at}/extra/{ID}/functionResponse"),
                "kept functionResponse parts",
                "the result's content blocks take their place",
            );
            Some(ps)
        }
        (a, b) => a.or(b),
    };
    // Whatever the response object cannot say is reported, checked by reading it back.
    let (content, is_error, _) = read_result(Some(&response), parts.as_ref());
    if content != r.content {
        let (what, why) = content_change(&r.content);
        l.rewritten(format!("{at}/content"), what, why)
            .at(format!("{target}/functionResponse/response"));
    }
    if is_error != r.is_error {
        l.rewritten(
            format!("{at}/is_error"),
            "error flag",
            "an error result with no text reads back as a plain result",
        );
    }
    wire::Part {
        function_response: Some(wire::FunctionResponse {
            id: r.call_id.clone(),
            name: Some(name),
            response: Some(response),
            parts,
            extra: without(response_extra, &["id", "name", "response", "parts"], at, l),
        }),
        extra: without(fields, &["text", "functionCall"], at, l),
        ..Default::default()
    }
}

/// Report model turns whose calls are not answered one-to-one by the next content.
fn check_pairing(msgs: &[Message], l: &mut Losses) {
    for (i, m) in msgs.iter().enumerate() {
        match m.role {
            Role::Assistant => {
                let n = m.tool_calls().count();
                if n == 0 {
                    continue;
                }
                match msgs.get(i + 1) {
                    None => {}
                    Some(next) if next.role == Role::Tool => {
                        let k = next.tool_results().count();
                        if k != n {
                            l.dropped(
                                format!("/messages/{}", i + 1),
                                format!("pairing: {n} function calls answered by {k} results"),
                                PAIRING,
                            );
                        }
                    }
                    Some(_) => {
                        l.dropped(
                            format!("/messages/{i}"),
                            format!("pairing: {n} function calls with no results after them"),
                            PAIRING,
                        );
                    }
                }
            }
            Role::Tool => {
                let after_calls = i
                    .checked_sub(1)
                    .and_then(|j| msgs.get(j))
                    .is_some_and(|p| p.role == Role::Assistant && p.tool_calls().next().is_some());
                if !after_calls {
                    l.dropped(
                        format!("/messages/{i}"),
                        "pairing: results that answer no call of the previous model turn",
                        PAIRING,
                    );
                }
            }
            Role::User => {}
        }
    }
}

/// The first function call of each step of the current turn (the model turns after the last
/// user message with text) that carries no signature Gemini issued: where a Gemini 3 request
/// needs the placeholder.
fn unsigned_steps(msgs: &[Message]) -> Vec<(usize, usize)> {
    let start = msgs
        .iter()
        .rposition(|m| {
            m.role == Role::User && m.parts.iter().any(|p| matches!(p, Part::Text { .. }))
        })
        .map_or(0, |i| i + 1);
    let mut out = Vec::new();
    for (mi, m) in msgs.iter().enumerate().skip(start) {
        if m.role != Role::Assistant {
            continue;
        }
        let Some(pj) = m.parts.iter().position(|p| matches!(p, Part::ToolCall(_))) else {
            continue;
        };
        let attached = pj
            .checked_sub(1)
            .and_then(|k| m.parts.get(k))
            .is_some_and(|p| {
                matches!(p, Part::Reasoning(r) if r.attached
                && r.opaque.as_ref().is_some_and(|o| o.replayable_to(ID)))
            });
        // Older documents keep the signature in the call's extras.
        let legacy = matches!(m.parts.get(pj), Some(Part::ToolCall(c))
            if c.extra.get(ID).is_some_and(|f| f.contains_key(SIGNATURE)));
        if !attached && !legacy {
            out.push((mi, pj));
        }
    }
    out
}

/// True when the model Gemini is sent is a Gemini 3 model, which checks thought signatures.
fn checks_signatures(x: &Exchange) -> bool {
    x.model_for(crate::model::ModelFamily::Gemini)
        .name
        .starts_with("gemini-3")
}

fn encode_contents(msgs: &[Message], gemini3: bool, l: &mut Losses) -> Vec<wire::Content> {
    let placeholders = if gemini3 {
        unsigned_steps(msgs)
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    let mut calls: Vec<Pending> = Vec::new();
    let mut i = 0;
    while let Some(m) = msgs.get(i) {
        let at = format!("/contents/{}", out.len());
        let mut group = vec![(i, m)];
        let role = match m.role {
            Role::Assistant => {
                calls = m
                    .tool_calls()
                    .map(|c| Pending {
                        id: c.id.clone(),
                        name: c.name.clone(),
                        answered: false,
                    })
                    .collect();
                "model"
            }
            Role::User => "user",
            Role::Tool => {
                // Rule: a tool message and the user message after it are one user content.
                if let Some(next) = msgs.get(i + 1).filter(|n| n.role == Role::User) {
                    group.push((i + 1, next));
                }
                "user"
            }
        };
        i += group.len();
        let t = Target {
            role,
            at: &at,
            response: false,
            issuer: None,
        };
        out.push(encode_content_with(
            &group,
            &t,
            &mut calls,
            &placeholders,
            l,
        ));
    }
    check_pairing(msgs, l);
    out
}

/// Decode one part, already classified; `ptr` is its canonical pointer, `at` its document
/// pointer.
fn decode_part(p: &wire::Part, k: PartKind, ptr: &str, at: &str, l: &mut Losses) -> Part {
    let mut extra = Extra::new();
    match (k, &p.text, &p.function_call, &p.function_response) {
        (PartKind::Text, Some(text), _, _) => {
            extra.extend(wrap(ID, p.extra.clone()));
            Part::Text {
                text: text.clone(),
                extra,
            }
        }
        (PartKind::Call, _, Some(fc), _) => {
            let arguments = match &fc.args {
                Some(v) if !v.is_null() => v.clone(),
                _ => {
                    l.added(
                        format!("{ptr}/arguments"),
                        "arguments {}",
                        "a functionCall without args calls the function with no arguments",
                    )
                    .at(format!("{at}/functionCall"));
                    json!({})
                }
            };
            let mut fields = p.extra.clone();
            if !fc.extra.is_empty() {
                fields.insert("functionCall".into(), Value::Object(fc.extra.clone()));
            }
            extra.extend(wrap(ID, fields));
            Part::ToolCall(ToolCall {
                id: fc.id.clone(),
                name: fc.name.clone(),
                arguments,
                arguments_raw: None,
                extra,
            })
        }
        (PartKind::Response, _, _, Some(fr)) => {
            if fr.response.is_none() {
                l.added(
                    format!("{ptr}/content"),
                    "result {}",
                    "a functionResponse without response is read as an empty object",
                )
                .at(format!("{at}/functionResponse"));
            }
            let (content, is_error, kept) = read_result(fr.response.as_ref(), fr.parts.as_ref());
            let mut response_extra = fr.extra.clone();
            if let Some(ps) = kept {
                response_extra.insert("parts".into(), Value::Array(ps));
            }
            let mut fields = p.extra.clone();
            if !response_extra.is_empty() {
                fields.insert("functionResponse".into(), Value::Object(response_extra));
            }
            extra.extend(wrap(ID, fields));
            Part::ToolResult(ToolResult {
                call_id: fr.id.clone(),
                name: fr.name.clone(),
                content,
                is_error,
                extra,
            })
        }
        _ => Part::Raw {
            format: ID.into(),
            value: to_value(p),
        },
    }
}

/// The part field holding a thought signature.
const SIGNATURE: &str = "thoughtSignature";

/// Form marker of a reasoning part read from a part that holds only a `thoughtSignature` (no
/// `thought: true`), so it is written back the same way.
const BARE: &str = "_toolscope:bare";

fn opaque(sig: &str, model: Option<&str>) -> Opaque {
    Opaque {
        kind: OpaqueKind::ThoughtSignature,
        data: sig.to_string(),
        provider: ID.into(),
        model: model.map(str::to_string),
    }
}

/// A server-side tool step of a model turn (`executableCode`, `codeExecutionResult`, and the
/// built-in tools' `toolCall` / `toolResponse`): kept verbatim, signature included.
fn hosted_step(p: &wire::Part) -> Option<HostedStep> {
    if p.text.is_some() || p.function_call.is_some() || p.function_response.is_some() {
        return None;
    }
    let (key, kind) = [
        ("executableCode", HostedKind::Call),
        ("codeExecutionResult", HostedKind::Result),
        ("toolCall", HostedKind::Call),
        ("toolResponse", HostedKind::Result),
    ]
    .into_iter()
    .find(|(k, _)| p.extra.contains_key(*k))?;
    let inner = p.extra.get(key)?;
    let tool = match key {
        "executableCode" | "codeExecutionResult" => "code_execution".to_string(),
        _ => inner
            .get("toolType")
            .and_then(Value::as_str)
            .unwrap_or("tool")
            .to_ascii_lowercase(),
    };
    Some(HostedStep {
        provider: ID.into(),
        format: ID.into(),
        kind,
        tool,
        id: inner.get("id").and_then(Value::as_str).map(str::to_string),
        value: to_value(p),
    })
}

/// What a model turn's part reads as besides text, calls and raw parts.
enum Read {
    /// A `thought: true` part (or a bare signature).
    Reasoning(Reasoning),
    /// Code execution or a built-in tool's step.
    Hosted(HostedStep),
    /// A text or call part carrying a `thoughtSignature`: the signature becomes an attached
    /// reasoning part before it.
    Signed(Reasoning, Box<wire::Part>),
    /// Anything else, read as before.
    Plain,
}

fn read_model_part(p: &wire::Part, model: Option<&str>) -> Read {
    if let Some(h) = hosted_step(p) {
        return Read::Hosted(h);
    }
    let sig = match p.extra.get(SIGNATURE) {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Read::Plain,
        None => None,
    };
    let thought = p.extra.get("thought") == Some(&Value::Bool(true));
    let data = p.extra.keys().any(|k| DATA_KEYS.contains(&k.as_str()));
    let typed_other = p.function_call.is_some() || p.function_response.is_some();
    if thought && !data && !typed_other {
        let mut fields = p.extra.clone();
        fields.remove("thought");
        fields.remove(SIGNATURE);
        let mut extra = Extra::new();
        extra.extend(wrap(ID, fields));
        return Read::Reasoning(Reasoning {
            text: p.text.clone(),
            summary: Vec::new(),
            opaque: sig.map(|s| opaque(s, model)),
            attached: false,
            extra,
        });
    }
    let Some(sig) = sig else {
        return Read::Plain;
    };
    if p.extra.len() == 1 && p.text.is_none() && !typed_other {
        let mut extra = Extra::new();
        let mut m = Fields::new();
        m.insert(BARE.into(), Value::Bool(true));
        extra.extend(wrap(ID, m));
        return Read::Reasoning(Reasoning {
            opaque: Some(opaque(sig, model)),
            extra,
            ..Reasoning::default()
        });
    }
    let mut rest = p.clone();
    rest.extra.remove(SIGNATURE);
    if matches!(kind(&rest), PartKind::Text | PartKind::Call) {
        let r = Reasoning {
            opaque: Some(opaque(sig, model)),
            attached: true,
            ..Reasoning::default()
        };
        Read::Signed(r, Box::new(rest))
    } else {
        Read::Plain
    }
}

/// One part of a model turn → canonical parts (reasoning split off a signed part); `next` is
/// the canonical index of the first, `base` the message pointer.
fn decode_model_part(
    p: &wire::Part,
    pat: &str,
    base: &str,
    next: usize,
    model: Option<&str>,
    l: &mut Losses,
) -> Result<Vec<Part>, Err> {
    Ok(match read_model_part(p, model) {
        Read::Reasoning(r) => vec![Part::Reasoning(r)],
        Read::Hosted(h) => vec![Part::Hosted(h)],
        Read::Signed(r, rest) => {
            let ptr = format!("{base}/parts/{}", next + 1);
            let k = kind(&rest);
            vec![Part::Reasoning(r), decode_part(&rest, k, &ptr, pat, l)]
        }
        Read::Plain => {
            let k = kind(p);
            if k == PartKind::Response {
                return Err((
                    format!("{pat}/functionResponse"),
                    "functionResponse in a model turn: results go in a user content".into(),
                ));
            }
            let ptr = format!("{base}/parts/{next}");
            vec![decode_part(p, k, &ptr, pat, l)]
        }
    })
}

type Err = (String, String);

fn decode_contents(contents: &[wire::Content], l: &mut Losses) -> Result<Vec<Message>, Err> {
    let mut msgs: Vec<Message> = Vec::new();
    for (ci, c) in contents.iter().enumerate() {
        let at = format!("/contents/{ci}");
        let first = msgs.len();
        let model = match c.role.as_deref() {
            None => {
                l.added(
                    format!("/messages/{first}/role"),
                    "role user",
                    "a content without role is a user turn",
                )
                .at(format!("{at}/role"));
                false
            }
            Some(r) => {
                let lower = r.to_ascii_lowercase();
                match lower.as_str() {
                    "user" | "model" => {
                        if r != lower {
                            l.rewritten(
                                format!("/messages/{first}/role"),
                                format!("role {r:?}"),
                                format!("written as {lower:?}"),
                            )
                            .at(format!("{at}/role"));
                        }
                        lower == "model"
                    }
                    "function" => {
                        l.rewritten(
                            format!("/messages/{first}/role"),
                            "role \"function\" (older Gemini documents)",
                            "read as tool results; Gemini now takes them in a user content",
                        )
                        .at(format!("{at}/role"));
                        false
                    }
                    _ => {
                        return Err((
                            format!("{at}/role"),
                            format!(
                                "unknown role {r:?}: Gemini contents are \"user\" or \"model\""
                            ),
                        ))
                    }
                }
            }
        };
        let mut cur: Option<Message> = None;
        for (pj, p) in c.parts.iter().enumerate() {
            let pat = format!("{at}/parts/{pj}");
            if model {
                if let Some(m) = cur.take() {
                    if m.role == Role::Assistant {
                        cur = Some(m);
                    } else {
                        msgs.push(m);
                    }
                }
                let m = cur.get_or_insert_with(|| Message::new(Role::Assistant, Vec::new()));
                let base = format!("/messages/{}", msgs.len());
                let parts = decode_model_part(p, &pat, &base, m.parts.len(), None, l)?;
                m.parts.extend(parts);
                continue;
            }
            let k = kind(p);
            let role = match (model, k) {
                (true, PartKind::Response) => {
                    return Err((
                        format!("{pat}/functionResponse"),
                        "functionResponse in a model turn: results go in a user content".into(),
                    ))
                }
                (false, PartKind::Call) => {
                    return Err((
                        format!("{pat}/functionCall"),
                        "functionCall in a user turn: only the model calls functions".into(),
                    ))
                }
                (true, _) => Role::Assistant,
                (false, PartKind::Response) => Role::Tool,
                (false, _) => Role::User,
            };
            if let Some(m) = cur.take() {
                if m.role == role {
                    cur = Some(m);
                } else {
                    msgs.push(m);
                }
            }
            let m = cur.get_or_insert_with(|| Message::new(role, Vec::new()));
            let ptr = format!("/messages/{}/parts/{}", msgs.len(), m.parts.len());
            m.parts.push(decode_part(p, k, &ptr, &pat, l));
        }
        msgs.push(cur.unwrap_or_else(|| {
            Message::new(if model { Role::Assistant } else { Role::User }, Vec::new())
        }));
        if let Some(m) = msgs.get_mut(first) {
            m.extra.extend(wrap(ID, c.extra.clone()));
        }
    }
    Ok(msgs)
}

// ---------------------------------------------------------------------------------------------
// Tools

/// `(parameters, parametersJsonSchema)` the encoder writes for a schema with no memo.
fn fresh_slot(want: Option<&Value>, omit_empty: bool) -> (Option<Value>, Option<Value>) {
    match want {
        None => (None, None),
        Some(w) if omit_empty && *w == empty_object_schema() => (None, None),
        Some(w) => match schema::to_gemini(w) {
            Some(g) => (Some(g), None),
            None => (None, Some(w.clone())),
        },
    }
}

/// Encode one schema slot, preferring a memo that still means `want`; returns the memo keys
/// that no longer do.
fn schema_slot(
    want: Option<&Value>,
    classic: (&'static str, Option<Value>),
    json: (&'static str, Option<Value>),
    omit_empty: bool,
) -> ((Option<Value>, Option<Value>), Vec<&'static str>) {
    let (ck, cm) = classic;
    let (jk, jm) = json;
    let c_ok = cm
        .as_ref()
        .is_some_and(|m| want == Some(&schema::from_gemini(m)));
    let j_ok = !c_ok && jm.as_ref().is_some_and(|m| want == Some(m));
    let mut stale = Vec::new();
    if cm.is_some() && !c_ok {
        stale.push(ck);
    }
    if jm.is_some() && !j_ok {
        stale.push(jk);
    }
    let slot = if c_ok {
        (cm, None)
    } else if j_ok {
        (None, jm)
    } else {
        fresh_slot(want, omit_empty)
    };
    (slot, stale)
}

fn encode_decl(t: &Tool, ti: usize, l: &mut Losses) -> wire::FunctionDeclaration {
    let base = format!("/tools/{ti}");
    foreign(l, &t.extra, &base);
    if let Some(s) = t.strict {
        l.dropped(
            format!("{base}/strict"),
            format!("strict: {s}"),
            "Gemini has no strict flag (toolConfig mode VALIDATED constrains calls to the \
             schemas instead)",
        );
    }
    if t.annotations.is_some() {
        l.dropped(
            format!("{base}/annotations"),
            "tool annotations",
            "Gemini function declarations have no annotations",
        );
    }
    let mut fields = Own::of(&t.extra, ID).cloned();
    let ((parameters, parameters_json_schema), mut stale) = schema_slot(
        Some(&t.input_schema),
        ("parameters", take_memo(&mut fields, "parameters")),
        (
            "parametersJsonSchema",
            take_memo(&mut fields, "parametersJsonSchema"),
        ),
        true,
    );
    let ((response, response_json_schema), stale_out) = schema_slot(
        t.output_schema.as_ref(),
        ("response", take_memo(&mut fields, "response")),
        (
            "responseJsonSchema",
            take_memo(&mut fields, "responseJsonSchema"),
        ),
        false,
    );
    stale.extend(stale_out);
    for k in &stale {
        l.rewritten(
            removed_pointer(&base, &t.extra, &stale, k),
            format!("{k} as pasted"),
            "the schema changed since; it is written afresh",
        );
    }
    wire::FunctionDeclaration {
        name: t.name.clone(),
        description: t.description.clone(),
        parameters,
        parameters_json_schema,
        response,
        response_json_schema,
        extra: without(fields, &["name", "description"], &base, l),
    }
}

/// The `tools` the encoder writes without a memo: one entry with every declaration.
fn default_tools(tools: &[Tool], l: &mut Losses) -> Option<Vec<wire::Tool>> {
    let decls: Vec<wire::FunctionDeclaration> = tools
        .iter()
        .enumerate()
        .filter(|(_, t)| t.hosted.is_none())
        .map(|(i, t)| encode_decl(t, i, l))
        .collect();
    let mut out = Vec::new();
    if !decls.is_empty() {
        out.push(wire::Tool {
            function_declarations: Some(decls),
            extra: Fields::new(),
        });
    }
    for (i, t) in tools.iter().enumerate() {
        let Some(h) = &t.hosted else { continue };
        match &h.value {
            Value::Object(m) if h.format == ID => out.push(wire::Tool {
                function_declarations: None,
                extra: m.clone(),
            }),
            _ => {
                l.dropped(
                    format!("/tools/{i}"),
                    h.what(),
                    h.why_dropped(
                        "Gemini's own tools are googleSearch, codeExecution, urlContext, …",
                    ),
                );
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The kind of a Gemini built-in tool, by its key in a `tools` entry.
fn hosted_kind(key: &str) -> String {
    match key {
        "googleSearch" | "googleSearchRetrieval" | "enterpriseWebSearch" => "web_search".into(),
        "codeExecution" => "code_execution".into(),
        "urlContext" => "url_context".into(),
        "fileSearch" => "file_search".into(),
        "mcpServers" => "mcp".into(),
        other => {
            let mut out = String::new();
            for c in other.chars() {
                if c.is_ascii_uppercase() {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            }
            out
        }
    }
}

fn decode_decl(d: &wire::FunctionDeclaration, at: &str) -> Result<Tool, Err> {
    let both = |what: &str| {
        (
            at.to_string(),
            format!("both {what} and {what}JsonSchema: send one of them"),
        )
    };
    let input = match (&d.parameters, &d.parameters_json_schema) {
        (Some(_), Some(_)) => return Err(both("parameters")),
        (Some(p), None) => schema::from_gemini(p),
        (None, Some(j)) => j.clone(),
        (None, None) => empty_object_schema(),
    };
    let output = match (&d.response, &d.response_json_schema) {
        (Some(_), Some(_)) => return Err(both("response")),
        (Some(r), None) => Some(schema::from_gemini(r)),
        (None, Some(j)) => Some(j.clone()),
        (None, None) => None,
    };
    let mut fields = d.extra.clone();
    // Spellings the encoder would not reproduce (lower-case types, JSON Schema that fits the
    // subset, …) are kept so the paste round-trips.
    let pasted = (d.parameters.clone(), d.parameters_json_schema.clone());
    // They only say how the carried schema was spelled: form markers, which other formats
    // do not report (the schema itself is `input_schema`).
    if fresh_slot(Some(&input), true) != pasted {
        if let Some(p) = pasted.0 {
            fields.insert(memo_key("parameters", true), p);
        }
        if let Some(j) = pasted.1 {
            fields.insert(memo_key("parametersJsonSchema", true), j);
        }
    }
    let pasted = (d.response.clone(), d.response_json_schema.clone());
    if fresh_slot(output.as_ref(), false) != pasted {
        if let Some(p) = pasted.0 {
            fields.insert(memo_key("response", true), p);
        }
        if let Some(j) = pasted.1 {
            fields.insert(memo_key("responseJsonSchema", true), j);
        }
    }
    let mut extra = Extra::new();
    extra.extend(wrap(ID, fields));
    Ok(Tool {
        name: d.name.clone(),
        description: d.description.clone(),
        input_schema: input,
        strict: None,
        output_schema: output,
        annotations: None,
        hosted: None,
        custom: None,
        extra,
    })
}

/// Function declarations first, then the built-in tools, each entry's in document order (the
/// pasted layout is remembered when it differs).
fn decode_tools(tools: &[wire::Tool]) -> Result<Vec<Tool>, Err> {
    let mut out = Vec::new();
    for (ti, t) in tools.iter().enumerate() {
        for (di, d) in t.function_declarations.iter().flatten().enumerate() {
            out.push(decode_decl(
                d,
                &format!("/tools/{ti}/functionDeclarations/{di}"),
            )?);
        }
    }
    for t in tools {
        for (k, v) in &t.extra {
            let mut value = Fields::new();
            value.insert(k.clone(), v.clone());
            out.push(Tool::of_hosted(
                k.clone(),
                HostedTool {
                    provider: ID.into(),
                    format: ID.into(),
                    kind: hosted_kind(k),
                    value: Value::Object(value),
                },
            ));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Tool choice, system instruction

fn encode_choice(tc: &ToolChoice, l: &mut Losses) -> wire::ToolConfig {
    let (mode, restricts) = match tc.mode {
        ChoiceMode::Auto => ("AUTO", false),
        ChoiceMode::None => ("NONE", false),
        ChoiceMode::Required => ("ANY", true),
        ChoiceMode::Validated => ("VALIDATED", true),
    };
    if !restricts && !tc.tools.is_empty() {
        l.dropped(
            "/tool_choice/tools",
            format!("restriction to {}", tc.tools.join(", ")),
            format!(
                "Gemini allows allowedFunctionNames only with mode ANY or VALIDATED, not {mode}"
            ),
        )
        .at("/toolConfig/functionCallingConfig");
    }
    wire::ToolConfig {
        function_calling_config: Some(wire::FunctionCallingConfig {
            mode: Some(mode.into()),
            allowed_function_names: (restricts && !tc.tools.is_empty()).then(|| tc.tools.clone()),
            extra: Fields::new(),
        }),
        extra: Fields::new(),
    }
}

fn decode_choice(tc: &wire::ToolConfig) -> Result<Option<ToolChoice>, Err> {
    let Some(fcc) = &tc.function_calling_config else {
        return Ok(None);
    };
    let mode = match fcc.mode.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None | Some("MODE_UNSPECIFIED") => None,
        Some("AUTO") => Some(ChoiceMode::Auto),
        Some("ANY") => Some(ChoiceMode::Required),
        Some("NONE") => Some(ChoiceMode::None),
        Some("VALIDATED") => Some(ChoiceMode::Validated),
        Some(_) => {
            return Err((
                "/toolConfig/functionCallingConfig/mode".into(),
                format!(
                    "unknown mode {:?}: Gemini knows AUTO, ANY, NONE and VALIDATED",
                    fcc.mode.as_deref().unwrap_or_default()
                ),
            ))
        }
    };
    let tools = fcc.allowed_function_names.clone().unwrap_or_default();
    Ok(match mode {
        None if tools.is_empty() => None,
        None => Some(ToolChoice {
            mode: ChoiceMode::Auto,
            tools,
        }),
        Some(mode) => Some(ToolChoice { mode, tools }),
    })
}

/// The key a pasted element's memo is kept under in this format's `extra`: its own name when
/// it holds something the model has no field for (a Google Search tool, an unknown field), so
/// other formats report that as theirs to drop; a form marker (`_toolscope:<name>`) when it
/// only records how the modelled content was laid out (a `role` on the system instruction, its
/// text in several parts, declarations spread over several tools), which other formats carry.
fn memo_key(key: &str, layout_only: bool) -> String {
    if layout_only {
        format!("{}:{key}", crate::model::FORM_KEY)
    } else {
        key.to_string()
    }
}

/// Remove a memo kept under its own name or as a form marker (see [`memo_key`]); the first
/// found, both gone.
fn take_memo(fields: &mut Fields, key: &str) -> Option<Value> {
    let form = fields.remove(&memo_key(key, true));
    fields.remove(key).or(form)
}

/// True when the system instruction holds only text parts: all of it is in `Exchange::system`.
fn system_layout_only(c: &wire::Content) -> bool {
    c.extra.is_empty()
        && c.parts.iter().all(|p| {
            p.text.is_some()
                && p.function_call.is_none()
                && p.function_response.is_none()
                && p.extra.is_empty()
        })
}

fn read_system(c: &wire::Content) -> String {
    c.parts
        .iter()
        .filter_map(|p| p.text.as_deref())
        .collect::<Vec<_>>()
        .join("\n")
}

fn fresh_system(s: &str) -> wire::Content {
    wire::Content {
        role: None,
        parts: vec![wire::Part {
            text: Some(s.to_string()),
            ..Default::default()
        }],
        extra: Fields::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Requests

/// Model → request body.
pub fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
    let mut l = Losses::new();
    let adopted = crate::formats::shared::adopt_common(&x.extra, ID, &mut l);
    foreign(&mut l, &adopted, "");
    let mut top = Own::of(&x.extra, ID).cloned();
    let snake = snake_names(top.remove(SNAKE).as_ref());
    // A memo kept as a form marker is layout only: written afresh when stale, nothing lost.
    let mut layout_only: Vec<&str> = Vec::new();
    let mut memo = |key: &'static str| {
        let form = top.remove(&memo_key(key, true));
        match top.remove(key) {
            Some(v) => Some(v),
            None => {
                if form.is_some() {
                    layout_only.push(key);
                }
                form
            }
        }
    };
    let tools_memo = memo("tools");
    let choice_memo = memo("toolConfig");
    let system_memo = memo("systemInstruction");
    let gen_memo = top.remove("generationConfig");
    let mut stale: Vec<(&str, &str)> = Vec::new();

    if let Some(m) = &x.options.model {
        // With nothing else set, the whole `options` object reads back absent.
        let only = Options {
            model: None,
            ..x.options.clone()
        }
        .is_empty();
        let sent = x.model_for(crate::model::ModelFamily::Gemini).name;
        l.note(
            if only { "/options" } else { "/options/model" },
            format!("model {m:?}"),
            format!(
                "Gemini names the model in the URL (…/models/{sent}:generateContent), not in the body"
            ),
        );
    }
    if let Some(p) = x.parallel_tool_calls {
        l.dropped(
            "/parallel_tool_calls",
            format!("parallel_tool_calls: {p}"),
            "Gemini has no switch for parallel function calls (it may always call several)",
        );
    }

    // System instruction: the pasted one while it still says the same.
    let memo: Option<Result<wire::Content, _>> = system_memo.map(serde_json::from_value);
    let system_instruction = match (&x.system, memo) {
        (Some(s), Some(Ok(m))) if read_system(&m) == *s => Some(m),
        (s, memo) => {
            if memo.is_some() {
                stale.push(("systemInstruction", "systemInstruction as pasted"));
            }
            s.as_deref().map(fresh_system)
        }
    };

    // Tools: the pasted list while its declarations still decode to the model's tools.
    let memo: Option<Result<Vec<wire::Tool>, _>> = tools_memo.map(serde_json::from_value);
    let tools = match memo {
        Some(Ok(m)) if decode_tools(&m).ok().as_ref() == Some(&x.tools) => Some(m),
        memo => {
            if memo.is_some() {
                stale.push(("tools", "tools list as pasted"));
            }
            default_tools(&x.tools, &mut l)
        }
    };

    // Tool config: the pasted one while it still means the model's tool choice.
    let memo: Option<Result<wire::ToolConfig, _>> = choice_memo.map(serde_json::from_value);
    let tool_config = match memo {
        Some(Ok(m)) if decode_choice(&m).ok().as_ref() == Some(&x.tool_choice) => Some(m),
        memo => {
            let mut fresh = x.tool_choice.as_ref().map(|c| encode_choice(c, &mut l));
            if let Some(memo) = memo {
                stale.push((
                    "toolConfig",
                    "toolConfig as pasted (its other fields are kept)",
                ));
                if let Ok(m) = memo {
                    let tc = fresh.get_or_insert_with(wire::ToolConfig::default);
                    tc.extra = m.extra;
                    if let Some(f) = m.function_calling_config.filter(|f| !f.extra.is_empty()) {
                        tc.function_calling_config
                            .get_or_insert_with(Default::default)
                            .extra = f.extra;
                    }
                }
            }
            fresh
        }
    };

    // Generation config: the modelled options, then the pasted fields the model has no place for.
    let o = &x.options;
    let gen_extra = gen_memo.clone().map(|v| object(Some(v)));
    let mut gc = wire::GenerationConfig {
        temperature: o.temperature,
        top_p: o.top_p,
        max_output_tokens: o.max_tokens,
        stop_sequences: (!o.stop.is_empty()).then(|| o.stop.clone()),
        extra: gen_extra.clone().unwrap_or_default(),
    };
    for (key, set) in [
        ("temperature", gc.temperature.is_some()),
        ("topP", gc.top_p.is_some()),
        ("maxOutputTokens", gc.max_output_tokens.is_some()),
        ("stopSequences", gc.stop_sequences.is_some()),
    ] {
        if set {
            gc.extra.remove(key);
        }
    }
    put_thinking(x, &mut gc.extra, &mut l);
    let typed = gc.temperature.is_some()
        || gc.top_p.is_some()
        || gc.max_output_tokens.is_some()
        || gc.stop_sequences.is_some()
        || !o.reasoning.is_empty();
    let generation_config = (typed || gen_extra.is_some()).then_some(gc);
    // What the decoder will keep of it must be what the model holds.
    let kept = generation_config.as_ref().and_then(|gc| {
        let mut gc = gc.clone();
        take_thinking(&mut gc.extra);
        kept_generation_fields(&gc, typed)
    });
    if kept != gen_memo {
        stale.push(("generationConfig", "generationConfig fields as pasted"));
    }

    let contents = encode_contents(&x.messages, checks_signatures(x), &mut l);

    let stale_keys: Vec<&str> = stale.iter().map(|(k, _)| *k).collect();
    for (k, what) in stale.iter().filter(|(k, _)| !layout_only.contains(k)) {
        l.rewritten(
            removed_pointer("", &x.extra, &stale_keys, k),
            *what,
            "the model changed since; the field is written afresh",
        );
    }
    let extra = without(
        top,
        &[
            "contents",
            "systemInstruction",
            "tools",
            "toolConfig",
            "generationConfig",
        ],
        "",
        &mut l,
    );
    (
        wire::Request {
            system_instruction,
            contents,
            tools,
            tool_config,
            generation_config,
            extra,
            renamed: snake,
        },
        l.into_vec(),
    )
}

/// The reasoning settings of `thinkingConfig` (`thinkingBudget`, `thinkingLevel`,
/// `includeThoughts: true`), taken out of the config's fields; the rest stays there.
fn take_thinking(fields: &mut Fields) -> crate::model::ReasoningOptions {
    let mut r = crate::model::ReasoningOptions::default();
    let Some(Value::Object(tc)) = fields.get_mut("thinkingConfig") else {
        return r;
    };
    if let Some(n) = tc.get("thinkingBudget").and_then(Value::as_u64) {
        tc.remove("thinkingBudget");
        r.budget = Some(n);
    }
    if let Some(Value::String(level)) = tc.get("thinkingLevel") {
        r.effort = Some(level.clone());
        tc.remove("thinkingLevel");
    }
    if tc.get("includeThoughts") == Some(&Value::Bool(true)) {
        tc.remove("includeThoughts");
        r.summary = Some("auto".into());
    }
    if tc.is_empty() && !r.is_empty() {
        fields.remove("thinkingConfig");
    }
    r
}

/// Gemini's `thinkingLevel` for an effort: the levels it knows as spelled, the others mapped
/// to the nearest (`None` when there is none).
fn thinking_level(effort: &str) -> Option<String> {
    match effort.to_ascii_lowercase().as_str() {
        "minimal" | "low" | "medium" | "high" => Some(effort.to_string()),
        "none" => Some("minimal".into()),
        "xhigh" | "max" => Some("high".into()),
        _ => None,
    }
}

/// `options.reasoning` into `generationConfig.thinkingConfig`, what Gemini cannot say reported.
fn put_thinking(x: &Exchange, fields: &mut Fields, l: &mut Losses) {
    let r = &x.options.reasoning;
    if r.is_empty() {
        return;
    }
    let at = |f: &str| format!("{}/{f}", crate::model::option_pointer(x, "reasoning"));
    let tc = fields
        .entry("thinkingConfig")
        .or_insert_with(|| Value::Object(Fields::new()));
    if !tc.is_object() {
        *tc = Value::Object(Fields::new());
    }
    let Value::Object(tc) = tc else { return };
    match (r.budget, r.enabled) {
        (Some(b), enabled) => {
            tc.insert("thinkingBudget".into(), json!(b));
            if enabled.is_some() {
                l.dropped(
                    at("enabled"),
                    format!(
                        "thinking {}",
                        if enabled == Some(true) { "on" } else { "off" }
                    ),
                    "Gemini has no switch for it: the thinkingBudget sent says it",
                );
            }
        }
        (None, Some(false)) => {
            tc.insert("thinkingBudget".into(), json!(0));
            l.rewritten(
                at("enabled"),
                "thinking off",
                "sent as thinkingBudget 0, Gemini's way to turn thinking off",
            )
            .at("/generationConfig/thinkingConfig/thinkingBudget");
        }
        (None, Some(true)) => {
            l.dropped(
                at("enabled"),
                "thinking on",
                "Gemini has no switch for it: its thinking models think unless the budget is 0",
            );
        }
        (None, None) => {}
    }
    if let Some(e) = &r.effort {
        match thinking_level(e) {
            Some(level) => {
                if level != *e {
                    l.rewritten(
                        at("effort"),
                        format!("effort {e:?}"),
                        format!("sent as thinkingLevel {level:?}, the nearest Gemini knows"),
                    );
                }
                tc.insert("thinkingLevel".into(), Value::String(level));
            }
            None => {
                l.dropped(
                    at("effort"),
                    format!("effort {e:?}"),
                    "Gemini's thinkingLevel is minimal, low, medium or high",
                );
            }
        }
    }
    if let Some(sm) = &r.summary {
        if sm != "auto" {
            l.rewritten(
                at("summary"),
                format!("reasoning summary {sm:?}"),
                "Gemini returns its thoughts' summaries with includeThoughts: true",
            );
        }
        tc.insert("includeThoughts".into(), Value::Bool(true));
    }
    if r.include_encrypted.is_some() {
        l.dropped(
            at("include_encrypted"),
            "ask for encrypted reasoning",
            "Gemini returns thought signatures unasked",
        );
    }
    if tc.is_empty() {
        fields.remove("thinkingConfig");
    }
}

/// The `generationConfig` fields the decoder keeps in extras for a document's config.
fn kept_generation_fields(gc: &wire::GenerationConfig, typed: bool) -> Option<Value> {
    let mut left = gc.extra.clone();
    if gc.stop_sequences.as_ref().is_some_and(Vec::is_empty) {
        left.insert("stopSequences".into(), json!([]));
    }
    (!left.is_empty() || !typed).then_some(Value::Object(left))
}

/// Form marker: the snake_case field names a pasted document was written with (the docs'
/// curl examples use them; the API takes both), written back the same way.
const SNAKE: &str = "_toolscope:snake_case";

/// The marker of the snake_case names a document used, if any.
fn snake_marker(renamed: &[wire::Renamed]) -> Option<Value> {
    if renamed.is_empty() {
        return None;
    }
    let mut names: Vec<&str> = renamed.iter().map(|r| r.original.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    Some(json!(names))
}

/// Say which snake_case names were read as camelCase: a note, as the document's own format
/// writes them back as pasted.
fn snake_case_note(renamed: &[wire::Renamed], l: &mut Losses) {
    let Some(first) = renamed.first() else {
        return;
    };
    let mut names: Vec<&str> = renamed.iter().map(|r| r.original.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    l.note(
        "",
        format!("snake_case field names {}", names.join(", ")),
        "the API accepts both spellings; Toolscope reads them as the camelCase names the SDK \
         sends, and writes Gemini documents back in the spelling they were pasted with",
    )
    .at(wire::original_pointer(renamed, &first.pointer));
}

/// The names of a snake_case marker, as the renamings the renderer undoes.
fn snake_names(v: Option<&Value>) -> Vec<wire::Renamed> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|n| wire::Renamed {
            pointer: String::new(),
            original: n.to_string(),
        })
        .collect()
}

fn error(renamed: &[wire::Renamed], (at, msg): Err) -> DecodeError {
    DecodeError::at(ID, wire::original_pointer(renamed, &at), msg)
}

/// Request body → model.
pub fn decode_request(mut doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let renamed = std::mem::take(&mut doc.renamed);
    let mut l = Losses::new();
    let mut x = Exchange::default();
    let mut top = doc.extra;
    snake_case_note(&renamed, &mut l);
    if let Some(m) = snake_marker(&renamed) {
        top.insert(SNAKE.into(), m);
    }

    if let Some(si) = &doc.system_instruction {
        let s = read_system(si);
        if to_value(&fresh_system(&s)) != to_value(si) {
            top.insert(
                memo_key("systemInstruction", system_layout_only(si)),
                to_value(si),
            );
        }
        x.system = Some(s);
    }
    if let Some(tools) = &doc.tools {
        x.tools = decode_tools(tools).map_err(|e| error(&renamed, e))?;
        if to_value(&default_tools(&x.tools, &mut Losses::new())) != to_value(&doc.tools) {
            // Built-in tools are modelled (hosted tools): the list's layout is all the memo
            // holds.
            top.insert(memo_key("tools", true), to_value(tools));
        }
    }
    if let Some(tc) = &doc.tool_config {
        x.tool_choice = decode_choice(tc).map_err(|e| error(&renamed, e))?;
        let fresh = x
            .tool_choice
            .as_ref()
            .map(|c| encode_choice(c, &mut Losses::new()));
        if to_value(&fresh) != to_value(&doc.tool_config) {
            let layout_only = tc.extra.is_empty()
                && tc
                    .function_calling_config
                    .as_ref()
                    .is_none_or(|f| f.extra.is_empty());
            top.insert(memo_key("toolConfig", layout_only), to_value(tc));
        }
    }
    if let Some(gc) = &doc.generation_config {
        let mut gc = gc.clone();
        let o = &mut x.options;
        o.temperature = gc.temperature;
        o.top_p = gc.top_p;
        o.max_tokens = gc.max_output_tokens;
        o.stop = gc.stop_sequences.clone().unwrap_or_default();
        o.reasoning = take_thinking(&mut gc.extra);
        let typed = gc.temperature.is_some()
            || gc.top_p.is_some()
            || gc.max_output_tokens.is_some()
            || !o.stop.is_empty()
            || !o.reasoning.is_empty();
        if let Some(kept) = kept_generation_fields(&gc, typed) {
            top.insert("generationConfig".into(), kept);
        }
    }
    x.messages = decode_contents(&doc.contents, &mut l).map_err(|e| error(&renamed, e))?;
    x.extra.extend(wrap(ID, top));
    Ok((x, l.into_vec()))
}

// ---------------------------------------------------------------------------------------------
// Responses

/// Gemini's finish reasons: `STOP` for a natural end, a stop sequence and function calls alike.
const FINISH: Finish = Finish {
    end_turn: "STOP",
    tool_use: "STOP",
    max_tokens: "MAX_TOKENS",
    stop_sequence: Some("STOP"),
    content_filter: Some("SAFETY"),
    others: &FINISH_REASONS,
};

/// A stop reason as a `finishReason`; one Gemini has no word for is `OTHER`.
fn finish_reason(r: &StopReason) -> String {
    FINISH.write(r).unwrap_or("OTHER").to_string()
}

/// Gemini says `STOP` also when it calls functions: the calls decide.
fn read_finish(s: &str, has_calls: bool) -> StopReason {
    match FINISH.read(s) {
        StopReason::EndTurn if has_calls => StopReason::ToolUse,
        r => r,
    }
}

/// Token counts that `totalTokenCount` includes besides prompt and output.
fn other_counts(fields: &Fields) -> u64 {
    ["thoughtsTokenCount", "toolUsePromptTokenCount"]
        .iter()
        .filter_map(|k| fields.get(*k).and_then(Value::as_u64))
        .fold(0, u64::saturating_add)
}

/// The exchange's last assistant message (and model) → response body.
pub fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
    let view = x.response_view();
    let mut l = Losses::new();
    let msg = match view.messages.first() {
        Some(m) => m.clone(),
        None => {
            l.added(
                "/messages",
                "an empty model turn",
                "the exchange does not end with an assistant message",
            )
            .at("/candidates/0");
            Message::new(Role::Assistant, Vec::new())
        }
    };
    let mut fields = Own::of(&msg.extra, ID).cloned();
    let response_fields = object(fields.remove("response"));
    let candidate_fields = object(fields.remove("candidate"));
    let usage_fields = object(fields.remove("usageMetadata"));

    let t = Target {
        role: "model",
        at: "/candidates/0/content",
        response: true,
        issuer: view.options.model.as_deref(),
    };
    let content = encode_content(&[(0, &msg)], &t, &mut [], &mut l);

    let has_calls = msg.tool_calls().next().is_some();
    let reason = match &msg.stop_reason {
        Some(r) => {
            let fr = finish_reason(r);
            if read_finish(&fr, has_calls) != *r {
                l.rewritten(
                    "/messages/0/stop_reason",
                    format!("stop reason {r:?}"),
                    format!(
                        "sent as finishReason {fr}; Gemini says STOP for a natural end, a stop \
                         sequence and function calls alike (the calls tell them apart)"
                    ),
                )
                .at("/candidates/0/finishReason");
            }
            fr
        }
        None => {
            let derived = if has_calls {
                StopReason::ToolUse
            } else {
                StopReason::EndTurn
            };
            l.added(
                "/messages/0/stop_reason",
                format!("stop reason {derived:?}"),
                "a Gemini candidate carries a finishReason",
            )
            .at("/candidates/0/finishReason");
            finish_reason(&derived)
        }
    };

    let usage_metadata = match &msg.usage {
        Some(u) => {
            let mut left = usage_fields;
            let total = match left.remove("totalTokenCount") {
                Some(Value::Number(n)) if n.is_u64() => n.as_u64().unwrap_or_default(),
                _ => u
                    .input_tokens
                    .saturating_add(u.output_tokens)
                    .saturating_add(other_counts(&left)),
            };
            // Zero counts are left out, as the API (proto3 JSON) does.
            let nonzero = |n: u64| (n != 0).then_some(n);
            Some(wire::UsageMetadata {
                prompt_token_count: nonzero(u.input_tokens),
                candidates_token_count: nonzero(u.output_tokens),
                total_token_count: nonzero(total),
                extra: without(
                    left,
                    &["promptTokenCount", "candidatesTokenCount"],
                    "/messages/0",
                    &mut l,
                ),
            })
        }
        None => {
            if !usage_fields.is_empty() {
                l.dropped(
                    removed_pointer(
                        "/messages/0",
                        &msg.extra,
                        &["usageMetadata"],
                        "usageMetadata",
                    ),
                    "usageMetadata fields",
                    "the message has no usage",
                );
            }
            None
        }
    };

    let mut response_fields = response_fields;
    let response_id = match response_fields.remove("responseId") {
        Some(Value::String(s)) => s,
        _ => PLACEHOLDER_RESPONSE_ID.into(),
    };
    (
        wire::Response {
            candidates: vec![wire::Candidate {
                content: Some(content),
                finish_reason: Some(reason),
                extra: without(
                    candidate_fields,
                    &["content", "finishReason"],
                    "/messages/0",
                    &mut l,
                ),
            }],
            usage_metadata,
            model_version: view.options.model.as_ref().map(|_| {
                crate::model::encoder_model(
                    &view,
                    crate::model::ModelFamily::Gemini,
                    "/modelVersion",
                    "modelVersion",
                    "a Gemini response names its model",
                    &mut l,
                )
            }),
            response_id: Some(response_id),
            extra: without(
                response_fields,
                &["candidates", "usageMetadata", "modelVersion"],
                "/messages/0",
                &mut l,
            ),
            renamed: snake_names(x.extra.get(ID).and_then(|m| m.get(SNAKE))),
        },
        l.into_vec(),
    )
}

/// Response body → an exchange holding the model's turn (and the model name).
pub fn decode_response(mut doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let renamed = std::mem::take(&mut doc.renamed);
    let mut l = Losses::new();
    snake_case_note(&renamed, &mut l);
    let mut fields = Fields::new();
    let mut response_fields = doc.extra;
    if let Some(id) = doc.response_id.filter(|id| id != PLACEHOLDER_RESPONSE_ID) {
        response_fields.insert("responseId".into(), Value::String(id));
    }
    let more = doc.candidates.len().saturating_sub(1);
    if more > 0 {
        l.dropped(
            "/messages/0",
            format!("{more} more candidates"),
            "Toolscope reads the first candidate",
        )
        .at("/candidates/1");
    }
    let mut msg = Message::new(Role::Assistant, Vec::new());
    match doc.candidates.into_iter().next() {
        None => {
            l.added(
                "/messages/0",
                "an empty model turn",
                "the response has no candidates (a blocked prompt?)",
            )
            .at("/candidates");
        }
        Some(c) => {
            let at = "/candidates/0/content";
            match &c.content {
                None => {
                    l.added(
                        "/messages/0/parts",
                        "no parts",
                        "the candidate has no content",
                    )
                    .at("/candidates/0");
                }
                Some(content) => {
                    match content
                        .role
                        .as_deref()
                        .map(str::to_ascii_lowercase)
                        .as_deref()
                    {
                        Some("model") => {}
                        None => {
                            l.added(
                                "/messages/0/role",
                                "role model",
                                "a response content without role is the model's",
                            )
                            .at(format!("{at}/role"));
                        }
                        Some(_) => {
                            return Err(error(
                                &renamed,
                                (
                                    format!("{at}/role"),
                                    "a response content is the model's (role \"model\")".into(),
                                ),
                            ))
                        }
                    }
                    for (pj, p) in content.parts.iter().enumerate() {
                        let pat = format!("{at}/parts/{pj}");
                        let parts = decode_model_part(
                            p,
                            &pat,
                            "/messages/0",
                            msg.parts.len(),
                            doc.model_version.as_deref(),
                            &mut l,
                        )
                        .map_err(|e| error(&renamed, e))?;
                        msg.parts.extend(parts);
                    }
                    fields.extend(content.extra.clone());
                }
            }
            let has_calls = msg.tool_calls().next().is_some();
            msg.stop_reason = c
                .finish_reason
                .as_deref()
                .map(|s| read_finish(s, has_calls));
            if !c.extra.is_empty() {
                fields.insert("candidate".into(), Value::Object(c.extra));
            }
        }
    }
    if let Some(u) = doc.usage_metadata {
        let usage = Usage {
            input_tokens: u.prompt_token_count.unwrap_or(0),
            output_tokens: u.candidates_token_count.unwrap_or(0),
        };
        let mut left = u.extra;
        let formula = usage
            .input_tokens
            .saturating_add(usage.output_tokens)
            .saturating_add(other_counts(&left));
        if let Some(total) = u.total_token_count.filter(|t| *t != formula) {
            left.insert("totalTokenCount".into(), json!(total));
        }
        if !left.is_empty() {
            fields.insert("usageMetadata".into(), Value::Object(left));
        }
        msg.usage = Some(usage);
    }
    if !response_fields.is_empty() {
        fields.insert("response".into(), Value::Object(response_fields));
    }
    msg.extra.extend(wrap(ID, fields));
    let mut x = Exchange::default();
    if let Some(m) = snake_marker(&renamed) {
        let mut top = Fields::new();
        top.insert(SNAKE.into(), m);
        x.extra.extend(wrap(ID, top));
    }
    x.options.model = doc.model_version;
    x.messages.push(msg);
    Ok((x, l.into_vec()))
}

/// How sure it is that `v` is a Gemini body, and which one (the contents of a request, the
/// candidates of a response).
pub fn sniff(v: &Node) -> Option<(crate::formats::Kind, u8)> {
    let m = v.as_object()?;
    if m.contains_key("contents") {
        Some((crate::formats::Kind::Request, 95))
    } else if m.contains_key("candidates") {
        Some((crate::formats::Kind::Response, 95))
    } else if m.contains_key("promptFeedback")
        || (m.contains_key("usageMetadata") && m.contains_key("modelVersion"))
    {
        // A response whose prompt was blocked has no candidates.
        Some((crate::formats::Kind::Response, 60))
    } else {
        None
    }
}
