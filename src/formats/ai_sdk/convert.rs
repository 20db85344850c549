//! Model ⇄ AI SDK documents, over `serde_json::Value` (the shapes are unions the SDK tells
//! apart by `type` and `role`; reading them by hand gives pointers at the element that does
//! not fit).

use super::reasoning;
use super::ui;
use crate::formats::field::{wrap, Own};
use crate::formats::json::escape;
use crate::formats::shared::{self, Finish};
use crate::formats::sniff::Node;
use crate::formats::{DecodeError, Kind};
use crate::model::{
    assign_missing_ids, is_form_key, Block, ChoiceMode, Exchange, Extra, Loss, Losses, Message,
    Options, Part, ResultContent, Role, StopReason, Tool, ToolCall, ToolChoice, ToolResult, Usage,
};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// Format id.
pub const ID: &str = "ai-sdk";

/// Form marker: the pasted request was a bare message array (written back as one).
const BARE: &str = "_toolscope:bare";
/// Form marker: the pasted request had no `tools` record (written back without one).
const NO_TOOLS: &str = "_toolscope:no-tools";

/// Top-level request fields this converter reads and writes.
const REQUEST_KEYS: [&str; 10] = [
    "model",
    "system",
    "messages",
    "tools",
    "toolChoice",
    "activeTools",
    "maxOutputTokens",
    "temperature",
    "topP",
    "stopSequences",
];

/// The `ai-sdk` fields of an `extra` map, without form markers.
fn own(extra: &Extra) -> impl Iterator<Item = (&String, &Value)> {
    extra
        .get(ID)
        .into_iter()
        .flatten()
        .filter(|(k, _)| !is_form_key(k))
}

/// Write the element's own provider fields next to what the encoder wrote (never over it).
fn merge_own(o: &mut Map<String, Value>, extra: &Extra) {
    for (k, v) in own(extra) {
        if !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
}

/// Keep the fields of `o` not in `known` as this format's extra.
fn rest(o: &Map<String, Value>, known: &[&str]) -> Extra {
    let fields: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    wrap(ID, fields)
}

// ------------------------------------------------------------------------------------------
// Encoding

/// Model → request document: `{model?, system?, messages, tools, toolChoice?, …}`, the
/// arguments of `generateText`/`streamText` as JSON (or a bare `ModelMessage[]`, for a paste
/// that was one).
pub fn encode_request(x: &Exchange) -> (Value, Vec<Loss>) {
    let view = x.as_request();
    let x = &*view;
    let mut losses = Losses::new();
    let (y, id_losses) =
        crate::model::settle_ids(x, "the AI SDK pairs results with calls by toolCallId", None);
    losses.extend(id_losses);
    let adopted = crate::formats::shared::adopt_common(&y.extra, ID, &mut losses);
    losses.foreign_extra(&adopted, ID, "");
    let messages = encode_messages(&y, &mut losses, "/messages");
    if Own::of(&y.extra, ID).has(BARE) && y.system.is_none() && y.tools.is_empty() {
        return (Value::Array(messages), losses.into_vec());
    }
    let mut o = Map::new();
    if let Some(m) = &y.options.model {
        o.insert("model".into(), json!(m));
    }
    if let Some(s) = &y.system {
        o.insert("system".into(), json!(s));
    }
    o.insert("messages".into(), Value::Array(messages));
    if !(y.tools.is_empty() && Own::of(&y.extra, ID).has(NO_TOOLS)) {
        o.insert("tools".into(), encode_tools(&y.tools, &mut losses));
    }
    encode_choice(&y, &mut o, &mut losses);
    let opts = &y.options;
    if let Some(n) = opts.max_tokens {
        o.insert("maxOutputTokens".into(), json!(n));
    }
    if let Some(t) = opts.temperature {
        o.insert("temperature".into(), json!(t));
    }
    if let Some(p) = opts.top_p {
        o.insert("topP".into(), json!(p));
    }
    if !opts.stop.is_empty() {
        o.insert("stopSequences".into(), json!(opts.stop));
    }
    if !opts.reasoning.is_empty() {
        losses.dropped(
            crate::model::option_pointer(&y, "reasoning"),
            "reasoning settings",
            format!(
                "the AI SDK sets thinking per provider in providerOptions ({}), which this \
                 document does not name",
                thinking_options()
            ),
        );
    }
    merge_own(&mut o, &y.extra);
    (Value::Object(o), losses.into_vec())
}

/// The options that set thinking in the AI SDK's packages (`anthropic.thinking`, …), from the
/// provider table.
fn thinking_options() -> String {
    crate::providers::Provider::ALL
        .into_iter()
        .filter_map(|p| p.row().reasoning.ai_sdk)
        .filter_map(|a| Some(format!("{}.{}", a.keys.first()?, a.thinking?)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn encode_tools(tools: &[Tool], losses: &mut Losses) -> Value {
    let mut record = Map::new();
    for (i, t) in tools.iter().enumerate() {
        let at = format!("/tools/{i}");
        if let Some(h) = &t.hosted {
            let later = tools.iter().skip(i + 1).any(|t| t.hosted.is_none());
            losses.dropped(
                shared::drop_pointer("/tools", i, later),
                h.what(),
                h.why_dropped(
                    "a provider's own tool is declared in that provider's package \
                     (google.tools.googleSearch(), …), not in the tools record",
                ),
            );
            continue;
        }
        if record.contains_key(&t.name) {
            losses
                .dropped(
                    at,
                    format!("second tool named {:?}", t.name),
                    "tools are a record keyed by name: one tool per name",
                )
                .at("/tools");
            continue;
        }
        let target = format!("/tools/{}", escape(&t.name));
        let mut o = Map::new();
        if let Some(d) = &t.description {
            o.insert("description".into(), json!(d));
        }
        o.insert("inputSchema".into(), t.input_schema.clone());
        if let Some(s) = &t.output_schema {
            o.insert("outputSchema".into(), s.clone());
        }
        if t.strict.is_some() {
            losses
                .dropped(
                    format!("{at}/strict"),
                    "strict flag",
                    "AI SDK 5 tools have no strict flag (set it in the provider's options)",
                )
                .at(target.clone());
        }
        if t.annotations.is_some() {
            losses
                .dropped(
                    format!("{at}/annotations"),
                    "tool annotations",
                    "AI SDK tools have no annotations",
                )
                .at(target.clone());
        }
        losses.foreign_extra(&t.extra, ID, &at);
        merge_own(&mut o, &t.extra);
        record.insert(t.name.clone(), Value::Object(o));
    }
    Value::Object(record)
}

fn encode_choice(x: &Exchange, o: &mut Map<String, Value>, losses: &mut Losses) {
    if x.parallel_tool_calls.is_some() {
        losses.dropped(
            "/parallel_tool_calls",
            "parallel_tool_calls",
            "the AI SDK has no parallel switch (it is a provider option)",
        );
    }
    let Some(c) = &x.tool_choice else { return };
    let mode = match c.mode {
        ChoiceMode::Auto => "auto",
        ChoiceMode::None => "none",
        ChoiceMode::Required => "required",
        ChoiceMode::Validated => {
            losses
                .rewritten(
                    "/tool_choice/mode",
                    "tool_choice validated",
                    "the AI SDK has no validated mode; sent as auto",
                )
                .at("/toolChoice");
            "auto"
        }
    };
    match (c.mode, c.tools.as_slice()) {
        (ChoiceMode::Required, [one]) => {
            o.insert(
                "toolChoice".into(),
                json!({"type": "tool", "toolName": one}),
            );
        }
        (_, []) => {
            o.insert("toolChoice".into(), json!(mode));
        }
        (_, names) => {
            o.insert("toolChoice".into(), json!(mode));
            o.insert("activeTools".into(), json!(names));
        }
    }
}

/// Call id → tool name, over the whole conversation (results name their tool).
fn call_names(x: &Exchange) -> HashMap<String, String> {
    x.messages
        .iter()
        .flat_map(Message::tool_calls)
        .filter_map(|c| Some((c.id.clone()?, c.name.clone())))
        .collect()
}

fn encode_messages(x: &Exchange, losses: &mut Losses, target: &str) -> Vec<Value> {
    let names = call_names(x);
    x.messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            encode_message(
                m,
                &format!("/messages/{i}"),
                &format!("{target}/{i}"),
                &names,
                losses,
            )
        })
        .collect()
}

fn encode_message(
    m: &Message,
    at: &str,
    target: &str,
    names: &HashMap<String, String>,
    losses: &mut Losses,
) -> Value {
    let system = m.role == Role::User
        && m.extra
            .get(ID)
            .and_then(|e| e.get("role"))
            .and_then(Value::as_str)
            == Some("system");
    let role = match (m.role, system) {
        (Role::User, true) => "system",
        (Role::User, false) => "user",
        (Role::Assistant, _) => "assistant",
        (Role::Tool, _) => "tool",
    };
    let mut parts = Vec::new();
    let mut pending: Option<reasoning::Pending> = None;
    for (j, p) in m.parts.iter().enumerate() {
        let pat = format!("{at}/parts/{j}");
        let ptarget = format!("{target}/content/{}", parts.len());
        let allowed = match p {
            Part::Text { .. } => m.role != Role::Tool,
            Part::ToolCall(_) => m.role == Role::Assistant,
            Part::ToolResult(_) => m.role != Role::User,
            Part::Raw { .. } => m.role != Role::Tool,
            Part::Reasoning(_) | Part::Hosted(_) => m.role == Role::Assistant,
        };
        if !allowed {
            losses
                .dropped(
                    pat,
                    format!("part in a {role} message"),
                    format!("AI SDK {role} messages cannot hold this part"),
                )
                .at(target);
            continue;
        }
        if let Part::Reasoning(r) = p {
            if let Some(v) = reasoning::encode_reasoning(r, &pat, &ptarget, &mut pending, losses) {
                parts.push(v);
            }
            continue;
        }
        if let Some(mut v) = encode_part(p, &pat, &ptarget, names, losses) {
            if let Some(s) = pending.take() {
                reasoning::attach(&mut v, s);
            }
            parts.push(v);
        }
    }
    if pending.is_some() {
        losses
            .reasoning(
                format!("{at}/parts"),
                "thought signature attached to no part",
                "the AI SDK keeps a thought signature in the options of the part it belongs to, \
                 and none follows it",
            )
            .at(target);
    }
    let mut o = Map::new();
    o.insert("role".into(), json!(role));
    let single_text = match m.parts.as_slice() {
        [Part::Text { text, extra }] if own(extra).next().is_none() && m.role != Role::Tool => {
            Some(text.clone())
        }
        _ => None,
    };
    if system {
        // A system message's content is a string.
        let text: Vec<String> = m
            .parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect();
        if text.len() != 1 || m.parts.len() != 1 {
            losses.rewritten(
                at,
                "system message parts",
                "an AI SDK system message is one string: texts joined, other parts dropped",
            );
        }
        o.insert("content".into(), json!(text.join("\n")));
    } else if let Some(t) = single_text {
        o.insert("content".into(), json!(t));
    } else {
        o.insert("content".into(), Value::Array(parts));
    }
    losses.foreign_extra(&m.extra, ID, at);
    for (k, v) in own(&m.extra) {
        if k != "role" && !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
    Value::Object(o)
}

fn encode_part(
    p: &Part,
    at: &str,
    target: &str,
    names: &HashMap<String, String>,
    losses: &mut Losses,
) -> Option<Value> {
    match p {
        Part::Text { text, extra } => {
            losses.foreign_extra(extra, ID, at);
            let mut o = Map::new();
            o.insert("type".into(), json!("text"));
            o.insert("text".into(), json!(text));
            merge_own(&mut o, extra);
            Some(Value::Object(o))
        }
        Part::ToolCall(c) => Some(encode_call(c, at, target, losses)),
        Part::ToolResult(r) => Some(encode_result(r, at, target, names, losses)),
        Part::Reasoning(r) => {
            // Written by `encode_message`; this arm is not reached.
            shared::drop_reasoning(r, at, "The AI SDK", losses).at(target);
            None
        }
        Part::Hosted(h) if h.format == ID && h.value.is_object() => Some(h.value.clone()),
        Part::Hosted(h) => {
            shared::drop_hosted(h, at, losses).at(target);
            None
        }
        Part::Raw { format, value } if format == ID => Some(value.clone()),
        Part::Raw { format, value } => {
            losses
                .dropped(
                    at,
                    crate::model::media_label(format, value),
                    crate::model::raw_why(
                        format,
                        value,
                        format!("a {format}-only block has no AI SDK part"),
                    ),
                )
                .at(target);
            None
        }
    }
}

fn encode_call(c: &ToolCall, at: &str, target: &str, losses: &mut Losses) -> Value {
    let input = if c.arguments_invalid() {
        losses
            .rewritten(
                format!("{at}/arguments"),
                "invalid argument text",
                "input is a JSON value: text that is not JSON is sent as {}",
            )
            .at(format!("{target}/input"));
        losses
            .dropped(
                format!("{at}/arguments_raw"),
                "invalid argument text",
                "input is a JSON value: text that is not JSON has no place",
            )
            .at(format!("{target}/input"));
        json!({})
    } else {
        if c.arguments_raw.is_some() {
            losses
                .rewritten(
                    format!("{at}/arguments_raw"),
                    "argument spelling",
                    "input is a JSON value: the spelling of the argument text is not kept",
                )
                .at(format!("{target}/input"));
        }
        c.arguments.clone()
    };
    losses.foreign_extra(&c.extra, ID, at);
    let mut o = Map::new();
    o.insert("type".into(), json!("tool-call"));
    o.insert("toolCallId".into(), json!(c.id.clone().unwrap_or_default()));
    o.insert("toolName".into(), json!(c.name));
    o.insert("input".into(), input);
    merge_own(&mut o, &c.extra);
    Value::Object(o)
}

fn encode_result(
    r: &ToolResult,
    at: &str,
    target: &str,
    names: &HashMap<String, String>,
    losses: &mut Losses,
) -> Value {
    let id = r.call_id.clone().unwrap_or_default();
    let name = match (&r.name, names.get(&id)) {
        (Some(n), _) => n.clone(),
        (None, Some(n)) => {
            // Carried from the call it answers: a note, nothing made up.
            losses
                .note(
                    format!("{at}/name"),
                    "tool name of the result",
                    "AI SDK tool results name their tool: taken from the call",
                )
                .at(format!("{target}/toolName"));
            n.clone()
        }
        (None, None) => {
            losses
                .added(
                    format!("{at}/name"),
                    "tool name of the result",
                    "AI SDK tool results name their tool and no call has this id: \"unknown\"",
                )
                .at(format!("{target}/toolName"));
            "unknown".into()
        }
    };
    let output = encode_output(r, at, &format!("{target}/output"), losses);
    losses.foreign_extra(&r.extra, ID, at);
    let mut o = Map::new();
    o.insert("type".into(), json!("tool-result"));
    o.insert("toolCallId".into(), json!(id));
    o.insert("toolName".into(), json!(name));
    o.insert("output".into(), output);
    merge_own(&mut o, &r.extra);
    Value::Object(o)
}

fn encode_output(r: &ToolResult, at: &str, target: &str, losses: &mut Losses) -> Value {
    match (&r.content, r.is_error) {
        (ResultContent::Text(t), false) => json!({"type": "text", "value": t}),
        (ResultContent::Text(t), true) => json!({"type": "error-text", "value": t}),
        (ResultContent::Json(v), false) => json!({"type": "json", "value": v}),
        (ResultContent::Json(v), true) => json!({"type": "error-json", "value": v}),
        (ResultContent::Blocks(_), true) => {
            losses
                .rewritten(
                    format!("{at}/content"),
                    "content blocks of an error",
                    "an AI SDK error output is text or JSON: the blocks' texts are sent as error-text",
                )
                .at(target);
            json!({"type": "error-text", "value": r.content.to_text()})
        }
        (ResultContent::Blocks(blocks), false) => {
            let mut value = Vec::new();
            for (k, b) in blocks.iter().enumerate() {
                match b {
                    Block::Text { text } => value.push(json!({"type": "text", "text": text})),
                    Block::Image { media_type, data } => {
                        value.push(json!({"type": "media", "data": data, "mediaType": media_type}))
                    }
                    Block::Raw { format, value: v } if format == ID => value.push(v.clone()),
                    Block::Raw { format, value } => {
                        losses
                            .dropped(
                                format!("{at}/content/blocks/{k}"),
                                crate::model::media_label(format, value),
                                "AI SDK content outputs hold text and media only",
                            )
                            .at(target);
                    }
                }
            }
            json!({"type": "content", "value": value})
        }
    }
}

/// The last assistant message → `{finishReason, usage, response: {modelId, messages}}`: the
/// parts of a `generateText` result apps keep (`response.messages` is what they append to the
/// conversation).
pub fn encode_response(x: &Exchange) -> (Value, Vec<Loss>) {
    let mut losses = Losses::new();
    let mut view = x.response_view();
    // Tool outputs last (run on the server, as a UI message stream delivers them): an AI SDK
    // response holds every step of the turn, so the turn is written, not an empty response.
    if x.messages.last().is_some_and(|m| m.role == Role::Tool) {
        let start = x
            .messages
            .iter()
            .rposition(|m| m.role == Role::User)
            .map_or(0, |i| i + 1);
        view.messages = x.messages.get(start..).unwrap_or_default().to_vec();
        if !view.messages.is_empty() {
            losses.note(
                "/messages",
                "the turn's steps and tool outputs",
                "an AI SDK response (response.messages) holds every step of the turn, the \
                 outputs of tools run on the server included",
            );
        }
    }
    let x = &view;
    let (y, id_losses) = assign_missing_ids(x, "the AI SDK pairs results with calls by toolCallId");
    losses.extend(id_losses);
    let messages = encode_messages(&y, &mut losses, "/response/messages");
    let mut o = Map::new();
    if let Some(m) = y.messages.iter().rev().find(|m| m.role == Role::Assistant) {
        if let Some(r) = &m.stop_reason {
            let reason = match (r, FINISH.write(r)) {
                (_, Some(w)) => w.to_string(),
                (StopReason::Other(s), None) => {
                    if FINISH.read(s) != StopReason::Other(s.clone()) {
                        losses
                            .rewritten(
                                "/messages/0/stop_reason",
                                format!("stop reason {s:?}"),
                                "this spelling is one of the AI SDK's own finish reasons",
                            )
                            .at("/finishReason");
                    }
                    s.clone()
                }
                // A stop sequence, the one reason the SDK has no word for.
                (_, None) => {
                    losses
                        .rewritten(
                            "/messages/0/stop_reason",
                            "stop reason stop_sequence",
                            "the AI SDK reports a stop sequence as stop",
                        )
                        .at("/finishReason");
                    "stop".into()
                }
            };
            o.insert("finishReason".into(), json!(reason));
        }
        if let Some(u) = &m.usage {
            o.insert(
                "usage".into(),
                json!({
                    "inputTokens": u.input_tokens,
                    "outputTokens": u.output_tokens,
                    "totalTokens": u.input_tokens.saturating_add(u.output_tokens),
                }),
            );
        }
    }
    let mut response = Map::new();
    if let Some(m) = &y.options.model {
        response.insert("modelId".into(), json!(m));
    }
    response.insert("messages".into(), Value::Array(messages));
    o.insert("response".into(), Value::Object(response));
    (Value::Object(o), losses.into_vec())
}

/// The SDK's finish reasons; a stop sequence is reported as `stop`.
const FINISH: Finish = Finish {
    end_turn: "stop",
    tool_use: "tool-calls",
    max_tokens: "length",
    stop_sequence: None,
    content_filter: Some("content-filter"),
    others: &[],
};

// ------------------------------------------------------------------------------------------
// Decoding

fn err(at: &str, message: impl Into<String>) -> DecodeError {
    DecodeError::at(ID, at, message)
}

fn str_at<'a>(o: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a str, DecodeError> {
    match o.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(err(
            &format!("{at}/{key}"),
            format!("`{key}` must be a string"),
        )),
        None => Err(err(at, format!("missing `{key}`"))),
    }
}

/// Request document → model. Takes the `generateText` arguments object, a bare
/// `ModelMessage[]` or a `UIMessage[]` (from `useChat`).
pub fn decode_request(doc: Value) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut losses = Losses::new();
    let mut x = Exchange::default();
    match &doc {
        Value::Array(items) => {
            x.messages = decode_messages(items, "", &mut x.system, &mut losses)?;
            x.extra
                .entry(ID.to_string())
                .or_default()
                .insert(BARE.into(), Value::Bool(true));
        }
        // One message on its own reads as a conversation of one (written back as an array).
        Value::Object(o) if o.contains_key("role") && !o.contains_key("messages") => {
            let items = std::slice::from_ref(&doc);
            x.messages = decode_messages(items, "", &mut x.system, &mut losses)?;
            x.extra
                .entry(ID.to_string())
                .or_default()
                .insert(BARE.into(), Value::Bool(true));
        }
        Value::Object(o) => {
            let Some(Value::Array(items)) = o.get("messages") else {
                return Err(err("", "expected `messages`: an array of messages"));
            };
            if let Some(s) = o.get("system") {
                x.system = Some(
                    s.as_str()
                        .ok_or_else(|| err("/system", "`system` must be a string"))?
                        .to_string(),
                );
            }
            x.messages = decode_messages(items, "/messages", &mut x.system, &mut losses)?;
            match o.get("tools") {
                Some(Value::Object(record)) => x.tools = decode_tools(record)?,
                Some(Value::Null) | None => {
                    x.extra
                        .entry(ID.to_string())
                        .or_default()
                        .insert(NO_TOOLS.into(), Value::Bool(true));
                }
                Some(_) => return Err(err("/tools", "`tools` must be an object keyed by name")),
            }
            x.tool_choice = decode_choice(o)?;
            x.options = decode_options(o)?;
            for (k, v) in rest(o, &REQUEST_KEYS).get(ID).into_iter().flatten() {
                x.extra
                    .entry(ID.to_string())
                    .or_default()
                    .insert(k.clone(), v.clone());
            }
        }
        _ => {
            return Err(err(
                "",
                "expected an object with `messages` or an array of messages",
            ))
        }
    }
    Ok((x, losses.into_vec()))
}

fn decode_options(o: &Map<String, Value>) -> Result<Options, DecodeError> {
    let mut opts = Options::default();
    if let Some(m) = o.get("model") {
        // A gateway id string; a provider object (as logged) names the model in `modelId`.
        opts.model = m
            .as_str()
            .or_else(|| m.get("modelId").and_then(Value::as_str))
            .map(str::to_string);
    }
    if let Some(n) = o.get("maxOutputTokens") {
        opts.max_tokens = Some(
            n.as_u64()
                .ok_or_else(|| err("/maxOutputTokens", "expected a non-negative integer"))?,
        );
    }
    if let Some(t) = o.get("temperature") {
        opts.temperature = Some(
            t.as_f64()
                .ok_or_else(|| err("/temperature", "expected a number"))?,
        );
    }
    if let Some(t) = o.get("topP") {
        opts.top_p = Some(
            t.as_f64()
                .ok_or_else(|| err("/topP", "expected a number"))?,
        );
    }
    if let Some(s) = o.get("stopSequences") {
        opts.stop = serde_json::from_value(s.clone())
            .map_err(|_| err("/stopSequences", "expected an array of strings"))?;
    }
    Ok(opts)
}

fn decode_tools(record: &Map<String, Value>) -> Result<Vec<Tool>, DecodeError> {
    let mut tools = Vec::new();
    for (name, t) in record {
        let at = format!("/tools/{}", escape(name));
        let o = t
            .as_object()
            .ok_or_else(|| err(&at, "a tool must be an object"))?;
        let description = match o.get("description") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(err(&format!("{at}/description"), "expected a string")),
            None => None,
        };
        // `inputSchema` (AI SDK 5); `parameters` in documents written for AI SDK 4.
        let schema = o
            .get("inputSchema")
            .or_else(|| o.get("parameters"))
            .cloned()
            // `jsonSchema(…)` serialises as `{jsonSchema: …}`.
            .map(|s| s.get("jsonSchema").cloned().unwrap_or(s))
            .unwrap_or_else(crate::model::empty_object_schema);
        tools.push(Tool {
            name: name.clone(),
            description,
            input_schema: schema,
            strict: None,
            output_schema: o.get("outputSchema").cloned(),
            annotations: None,
            hosted: None,
            custom: None,
            extra: rest(
                o,
                &["description", "inputSchema", "parameters", "outputSchema"],
            ),
        });
    }
    Ok(tools)
}

fn decode_choice(o: &Map<String, Value>) -> Result<Option<ToolChoice>, DecodeError> {
    let active: Vec<String> = match o.get("activeTools") {
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|_| err("/activeTools", "expected an array of tool names"))?,
        None => Vec::new(),
    };
    let mut choice = match o.get("toolChoice") {
        None => {
            if active.is_empty() {
                return Ok(None);
            }
            ToolChoice::mode(ChoiceMode::Auto)
        }
        Some(Value::String(s)) => ToolChoice::mode(match s.as_str() {
            "auto" => ChoiceMode::Auto,
            "none" => ChoiceMode::None,
            "required" => ChoiceMode::Required,
            _ => {
                return Err(err(
                    "/toolChoice",
                    "expected auto, none, required or a tool",
                ))
            }
        }),
        Some(Value::Object(c)) if c.get("type").and_then(Value::as_str) == Some("tool") => {
            ToolChoice::force(str_at(c, "toolName", "/toolChoice")?)
        }
        Some(_) => {
            return Err(err(
                "/toolChoice",
                "expected auto, none, required or a tool",
            ))
        }
    };
    if choice.tools.is_empty() {
        choice.tools = active;
    }
    Ok(Some(choice))
}

fn decode_messages(
    items: &[Value],
    at: &str,
    system: &mut Option<String>,
    losses: &mut Losses,
) -> Result<Vec<Message>, DecodeError> {
    if ui::is_ui_messages(&items.iter().map(Node::of).collect::<Vec<_>>()) {
        return ui::decode(items, at, system, losses);
    }
    let mut out: Vec<Message> = Vec::new();
    for (i, m) in items.iter().enumerate() {
        let mat = format!("{at}/{i}");
        let o = m
            .as_object()
            .ok_or_else(|| err(&mat, "a message must be an object"))?;
        let role = str_at(o, "role", &mat)?;
        let content = o.get("content");
        let cat = format!("{mat}/content");
        let mut msg = match role {
            "system" => {
                let text = content
                    .and_then(Value::as_str)
                    .ok_or_else(|| err(&cat, "a system message's content is a string"))?;
                if out.is_empty() && system.is_none() {
                    *system = Some(text.to_string());
                    continue;
                }
                let mut msg = Message::new(Role::User, vec![Part::text(text)]);
                msg.extra
                    .entry(ID.to_string())
                    .or_default()
                    .insert("role".into(), json!("system"));
                msg
            }
            "user" => Message::new(Role::User, decode_content(content, &cat, false)?),
            "assistant" => Message::new(Role::Assistant, decode_content(content, &cat, true)?),
            "tool" => {
                let parts = decode_content(content, &cat, false)?;
                Message::new(Role::Tool, parts)
            }
            other => {
                return Err(err(
                    &format!("{mat}/role"),
                    format!("unknown role {other:?}: expected system, user, assistant or tool"),
                ))
            }
        };
        for (k, v) in rest(o, &["role", "content"]).get(ID).into_iter().flatten() {
            msg.extra
                .entry(ID.to_string())
                .or_default()
                .insert(k.clone(), v.clone());
        }
        out.push(msg);
    }
    Ok(out)
}

fn decode_content(
    content: Option<&Value>,
    at: &str,
    assistant: bool,
) -> Result<Vec<Part>, DecodeError> {
    match content {
        Some(Value::String(s)) => Ok(vec![Part::text(s.clone())]),
        Some(Value::Array(parts)) => {
            let mut out = Vec::with_capacity(parts.len());
            for (j, p) in parts.iter().enumerate() {
                let pat = format!("{at}/{j}");
                if assistant {
                    if let Some(split) = assistant_part(p, &pat)? {
                        out.extend(split);
                        continue;
                    }
                }
                out.push(decode_part(p, &pat)?);
            }
            Ok(out)
        }
        Some(_) => Err(err(at, "content must be a string or an array of parts")),
        None => Err(err(at.trim_end_matches("/content"), "missing `content`")),
    }
}

/// What only an assistant message holds: reasoning, provider-executed calls and their
/// results, and thought signatures on text and calls (split off as attached reasoning).
/// `None` for everything else.
fn assistant_part(p: &Value, at: &str) -> Result<Option<Vec<Part>>, DecodeError> {
    let Some(o) = p.as_object() else {
        return Ok(None);
    };
    let ty = o.get("type").and_then(Value::as_str).unwrap_or("");
    Ok(match ty {
        "reasoning" if o.get("text").is_some_and(Value::is_string) => {
            Some(vec![reasoning::decode_reasoning(
                o,
                "providerOptions",
                &["type", "text"],
            )])
        }
        "tool-call" if o.get("providerExecuted") == Some(&Value::Bool(true)) => {
            Some(vec![reasoning::hosted(o, crate::model::HostedKind::Call)])
        }
        "tool-result" => Some(vec![reasoning::hosted(o, crate::model::HostedKind::Result)]),
        "text" | "tool-call" => {
            let mut rest = o.clone();
            match reasoning::take_attached(&mut rest, "providerOptions") {
                Some(r) => Some(vec![r, decode_part(&Value::Object(rest), at)?]),
                None => None,
            }
        }
        _ => None,
    })
}

fn decode_part(p: &Value, at: &str) -> Result<Part, DecodeError> {
    let o = p
        .as_object()
        .ok_or_else(|| err(at, "a part must be an object"))?;
    let ty = str_at(o, "type", at)?;
    Ok(match ty {
        "text" => Part::Text {
            text: str_at(o, "text", at)?.to_string(),
            extra: rest(o, &["type", "text"]),
        },
        "tool-call" => {
            let id = str_at(o, "toolCallId", at)?.to_string();
            let name = str_at(o, "toolName", at)?.to_string();
            // `input` (AI SDK 5); `args` in messages stored by AI SDK 4.
            let input = o.get("input").or_else(|| o.get("args"));
            let mut call = ToolCall::new(Some(id), name, Value::Null);
            match input {
                Some(Value::String(s)) if o.contains_key("args") => call.set_arguments_text(s),
                Some(v) => call.arguments = v.clone(),
                None => call.arguments = json!({}),
            }
            call.extra = rest(o, &["type", "toolCallId", "toolName", "input", "args"]);
            Part::ToolCall(call)
        }
        "tool-result" => {
            let id = str_at(o, "toolCallId", at)?.to_string();
            let name = str_at(o, "toolName", at)?.to_string();
            let (content, is_error) = match (o.get("output"), o.get("result")) {
                (Some(out), _) => decode_output(out, &format!("{at}/output"))?,
                // AI SDK 4 stored `result` (any JSON) and `isError`.
                (None, Some(r)) => (
                    match r {
                        Value::String(s) => ResultContent::Text(s.clone()),
                        v => ResultContent::Json(v.clone()),
                    },
                    o.get("isError").and_then(Value::as_bool).unwrap_or(false),
                ),
                (None, None) => return Err(err(at, "missing `output`")),
            };
            let mut r = ToolResult::new(Some(id), content);
            r.name = Some(name);
            r.is_error = is_error;
            r.extra = rest(
                o,
                &[
                    "type",
                    "toolCallId",
                    "toolName",
                    "output",
                    "result",
                    "isError",
                ],
            );
            Part::ToolResult(r)
        }
        // Images, files, reasoning: kept as they are.
        _ => Part::Raw {
            format: ID.into(),
            value: p.clone(),
        },
    })
}

/// A `LanguageModelV2ToolResultOutput` → result content and error flag.
pub fn decode_output(out: &Value, at: &str) -> Result<(ResultContent, bool), DecodeError> {
    let o = out
        .as_object()
        .ok_or_else(|| err(at, "output must be an object with `type` and `value`"))?;
    let ty = str_at(o, "type", at)?;
    let value = o.get("value").cloned().unwrap_or(Value::Null);
    let text = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| err(&format!("{at}/value"), "expected a string"))
    };
    Ok(match ty {
        "text" => (ResultContent::Text(text(&value)?), false),
        "error-text" => (ResultContent::Text(text(&value)?), true),
        "json" => (ResultContent::Json(value), false),
        "error-json" => (ResultContent::Json(value), true),
        "content" => {
            let items = value
                .as_array()
                .ok_or_else(|| err(&format!("{at}/value"), "expected an array"))?;
            let blocks = items
                .iter()
                .map(|b| match b.get("type").and_then(Value::as_str) {
                    Some("text") => match b.get("text").and_then(Value::as_str) {
                        Some(t) => Block::Text { text: t.into() },
                        None => Block::Raw {
                            format: ID.into(),
                            value: b.clone(),
                        },
                    },
                    Some("media") => match (
                        b.get("mediaType").and_then(Value::as_str),
                        b.get("data").and_then(Value::as_str),
                    ) {
                        (Some(m), Some(d)) if b.as_object().is_some_and(|o| o.len() == 3) => {
                            Block::Image {
                                media_type: m.into(),
                                data: d.into(),
                            }
                        }
                        _ => Block::Raw {
                            format: ID.into(),
                            value: b.clone(),
                        },
                    },
                    _ => Block::Raw {
                        format: ID.into(),
                        value: b.clone(),
                    },
                })
                .collect();
            (ResultContent::Blocks(blocks), false)
        }
        // An output type of a later SDK (`execution-denied`, …): kept whole, as JSON.
        _ => (ResultContent::Json(out.clone()), false),
    })
}

/// Response document → model: the result object (`{finishReason, usage, response: {messages}}`),
/// the `response.messages` array alone, or one assistant message (model or UI).
pub fn decode_response(doc: Value) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut losses = Losses::new();
    let mut x = Exchange::default();
    let mut system = None;
    let (messages, at, top) = match &doc {
        Value::Array(items) => (items.clone(), String::new(), None),
        Value::Object(o) if o.contains_key("role") => (vec![doc.clone()], String::new(), None),
        Value::Object(o) => {
            let response = o.get("response").and_then(Value::as_object);
            let messages = match response.and_then(|r| r.get("messages")) {
                Some(Value::Array(ms)) => ms.clone(),
                Some(_) => return Err(err("/response/messages", "expected an array of messages")),
                None => Vec::new(),
            };
            x.options.model = response
                .and_then(|r| r.get("modelId"))
                .and_then(Value::as_str)
                .map(str::to_string);
            (messages, "/response/messages".to_string(), Some(o))
        }
        _ => {
            return Err(err(
                "",
                "expected a result object, a message or an array of messages",
            ))
        }
    };
    x.messages = decode_messages(&messages, &at, &mut system, &mut losses)?;
    if system.is_some() {
        losses.dropped(
            "/system",
            "system message",
            "a response holds the model's turn only",
        );
    }
    if let Some(o) = top {
        if let Some(last) = x
            .messages
            .iter_mut()
            .rev()
            .find(|m| m.role == Role::Assistant)
        {
            if let Some(r) = o.get("finishReason").and_then(Value::as_str) {
                last.stop_reason = Some(FINISH.read(r));
            }
            if let Some(u) = o.get("usage").and_then(Value::as_object) {
                let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
                last.usage = Some(Usage {
                    input_tokens: n("inputTokens"),
                    output_tokens: n("outputTokens"),
                });
            }
        }
    }
    Ok((x, losses.into_vec()))
}

// ------------------------------------------------------------------------------------------
// Detection

fn part_is_ai(p: &Node) -> bool {
    let ty = p.get("type").and_then(Node::as_str).unwrap_or("");
    matches!(
        ty,
        "tool-call" | "tool-result" | "dynamic-tool" | "step-start"
    ) || (ty.starts_with("tool-") && p.get("toolCallId").is_some())
}

fn message_is_ai(m: &Node) -> bool {
    ["content", "parts"].iter().any(|k| {
        m.get(k)
            .and_then(Node::as_array)
            .is_some_and(|ps| ps.iter().any(part_is_ai))
    })
}

fn messages_look_ai(ms: &[Node]) -> bool {
    ms.iter().any(message_is_ai) || ui::is_ui_messages(ms)
}

/// How likely `v` is an AI SDK document.
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    match v {
        Node::Array(ms) if !ms.is_empty() && ms.iter().all(|m| m.get("role").is_some()) => {
            if messages_look_ai(ms) {
                Some((Kind::Request, 95))
            } else {
                Some((Kind::Request, 20))
            }
        }
        Node::Object(o) => {
            if o.get("response")
                .and_then(|r| r.get("messages"))
                .is_some_and(Node::is_array)
            {
                return Some((Kind::Response, 95));
            }
            // One message on its own, when its parts say AI SDK.
            if o.contains_key("role") && messages_look_ai(std::slice::from_ref(v)) {
                let kind = match o.get("role").and_then(Node::as_str) {
                    Some("assistant") => Kind::Response,
                    _ => Kind::Request,
                };
                return Some((kind, 90));
            }
            let ms = o.get("messages").and_then(Node::as_array)?;
            if o.get("tools").is_some_and(Node::is_object) || messages_look_ai(ms) {
                return Some((Kind::Request, 95));
            }
            let keys = [
                "toolChoice",
                "maxOutputTokens",
                "activeTools",
                "stopSequences",
                "topP",
            ];
            keys.iter()
                .any(|k| o.contains_key(k))
                .then_some((Kind::Request, 90))
        }
        _ => None,
    }
}
