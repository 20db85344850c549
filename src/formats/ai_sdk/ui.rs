//! `UIMessage[]`, what `useChat` keeps (and apps store): `{id, role, parts}` with tool parts
//! `tool-<name>` (or `dynamic-tool` with `toolName`) carrying `toolCallId`, `state`, `input`
//! and, once the tool ran, `output` or `errorText`. Read into the model (one assistant message
//! holds every step of a turn: it is split at `step-start` parts and where text follows tool
//! outputs, each step's outputs becoming a Tool message); written back as `ModelMessage`s.

use super::convert::ID;
use crate::formats::sniff::Node;
use crate::formats::DecodeError;
use crate::model::{Losses, Message, Part, ResultContent, Role, ToolCall, ToolResult};
use serde_json::{json, Value};

/// True when `items` are UI messages: every one has `role` and a `parts` array (AI SDK 4 UI
/// messages also have a `content` string), and one has an `id` or a part only UI messages have.
pub fn is_ui_messages(items: &[Node]) -> bool {
    !items.is_empty()
        && items.iter().all(|m| {
            m.get("role").is_some_and(Node::is_string)
                && m.get("parts").is_some_and(Node::is_array)
                && m.get("content").is_none_or(Node::is_string)
        })
        && items.iter().any(|m| {
            m.get("id").is_some()
                || m.get("parts")
                    .and_then(Node::as_array)
                    .is_some_and(|ps| ps.iter().any(is_tool_part))
        })
}

/// True when `p` is a tool part with a name: `tool_name(&tool_part(p)).is_some()`, read on the
/// view.
fn is_tool_part(p: &Node) -> bool {
    let ty = p.get("type").and_then(Node::as_str);
    match p.get("toolInvocation") {
        Some(inv) if ty == Some("tool-invocation") => {
            inv.get("toolName").is_some_and(Node::is_string)
        }
        _ => {
            ty.is_some()
                && p.get("toolCallId").is_some()
                && match ty {
                    Some("dynamic-tool") => p.get("toolName").is_some_and(Node::is_string),
                    t => t.is_some_and(|t| t.starts_with("tool-")),
                }
        }
    }
}

/// A tool part in the AI SDK 5 shape: an AI SDK 4 `tool-invocation` part (`toolInvocation:
/// {state: call | partial-call | result, toolCallId, toolName, args, result}`) is rewritten as a
/// `dynamic-tool` part; other parts are returned as they are.
fn tool_part(p: &Value) -> Value {
    let Some(inv) = p
        .get("toolInvocation")
        .filter(|_| p.get("type").and_then(Value::as_str) == Some("tool-invocation"))
    else {
        return p.clone();
    };
    let state = match inv.get("state").and_then(Value::as_str) {
        Some("result") => "output-available",
        Some("partial-call") => "input-streaming",
        _ => "input-available",
    };
    json!({
        "type": "dynamic-tool",
        "toolName": inv.get("toolName").cloned().unwrap_or(Value::Null),
        "toolCallId": inv.get("toolCallId").cloned().unwrap_or(Value::Null),
        "state": state,
        "input": inv.get("args").cloned().unwrap_or(Value::Null),
        "output": inv.get("result").cloned().unwrap_or(Value::Null),
    })
}

/// The tool name of a tool part (`tool-<name>` or `dynamic-tool`), if it is one.
fn tool_name(p: &Value) -> Option<String> {
    let ty = p.get("type").and_then(Value::as_str)?;
    p.get("toolCallId")?;
    if ty == "dynamic-tool" {
        return p
            .get("toolName")
            .and_then(Value::as_str)
            .map(str::to_string);
    }
    ty.strip_prefix("tool-").map(str::to_string)
}

/// UI messages → model messages (the system prompt from a leading system message).
pub fn decode(
    items: &[Value],
    at: &str,
    system: &mut Option<String>,
    losses: &mut Losses,
) -> Result<Vec<Message>, DecodeError> {
    let mut out: Vec<Message> = Vec::new();
    losses.rewritten(
        "/messages",
        "UIMessage ids, metadata and part states",
        "read from UIMessages (useChat): written back as ModelMessages, without UI ids and states",
    );
    for (i, m) in items.iter().enumerate() {
        let mat = format!("{at}/{i}");
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        let parts = m
            .get("parts")
            .and_then(Value::as_array)
            .ok_or_else(|| DecodeError::at(ID, &mat, "missing `parts`"))?;
        match role {
            "system" | "user" => {
                let texts: Vec<Part> = parts.iter().map(simple_part).collect();
                if role == "system" && out.is_empty() && system.is_none() {
                    *system = Some(
                        parts
                            .iter()
                            .filter_map(|p| p.get("text").and_then(Value::as_str))
                            .collect::<Vec<_>>()
                            .join("\n"),
                    );
                    continue;
                }
                let mut msg = Message::new(Role::User, texts);
                if role == "system" {
                    msg.extra
                        .entry(ID.to_string())
                        .or_default()
                        .insert("role".into(), json!("system"));
                }
                out.push(msg);
            }
            "assistant" => assistant(parts, &mut out),
            other => {
                return Err(DecodeError::at(
                    ID,
                    format!("{mat}/role"),
                    format!("unknown role {other:?}: expected system, user or assistant"),
                ))
            }
        }
    }
    Ok(out)
}

fn simple_part(p: &Value) -> Part {
    match (
        p.get("type").and_then(Value::as_str),
        p.get("text").and_then(Value::as_str),
    ) {
        (Some("text"), Some(t)) => Part::text(t),
        _ => Part::Raw {
            format: ID.into(),
            value: p.clone(),
        },
    }
}

/// One UI assistant message → assistant and tool messages, step by step.
fn assistant(parts: &[Value], out: &mut Vec<Message>) {
    let mut content: Vec<Part> = Vec::new();
    let mut results: Vec<Part> = Vec::new();
    let flush = |content: &mut Vec<Part>, results: &mut Vec<Part>, out: &mut Vec<Message>| {
        if !content.is_empty() {
            out.push(Message::new(Role::Assistant, std::mem::take(content)));
        }
        if !results.is_empty() {
            out.push(Message::new(Role::Tool, std::mem::take(results)));
        }
    };
    for p in parts {
        let p = &tool_part(p);
        let ty = p.get("type").and_then(Value::as_str).unwrap_or("");
        if let Some(name) = tool_name(p) {
            let id = p
                .get("toolCallId")
                .and_then(Value::as_str)
                .map(str::to_string);
            // A call whose input failed validation (`output-error`) keeps the model's input
            // as `rawInput`, `input` then being absent.
            let input = match p.get("input") {
                Some(Value::Null) | None => match p.get("rawInput") {
                    Some(Value::Null) | None => json!({}),
                    Some(v) => v.clone(),
                },
                Some(v) => v.clone(),
            };
            let state = p.get("state").and_then(Value::as_str).unwrap_or("");
            if p.get("providerExecuted") == Some(&Value::Bool(true)) {
                provider_step(p, &name, input, state, &mut content);
                continue;
            }
            content.push(Part::ToolCall(ToolCall::new(
                id.clone(),
                name.clone(),
                input,
            )));
            let result = match state {
                "output-available" => Some((
                    match p.get("output") {
                        Some(Value::String(s)) => ResultContent::Text(s.clone()),
                        Some(v) => ResultContent::Json(v.clone()),
                        None => ResultContent::Json(Value::Null),
                    },
                    false,
                )),
                "output-error" => Some((
                    ResultContent::Text(
                        p.get("errorText")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                    ),
                    true,
                )),
                _ => None,
            };
            if let Some((c, is_error)) = result {
                let mut r = ToolResult::new(id, c);
                r.name = Some(name);
                r.is_error = is_error;
                results.push(Part::ToolResult(r));
            }
            continue;
        }
        match ty {
            "step-start" => flush(&mut content, &mut results, out),
            "text" => {
                if !results.is_empty() {
                    flush(&mut content, &mut results, out);
                }
                match p.as_object() {
                    Some(o) if o.get("text").is_some_and(Value::is_string) => {
                        let mut rest = o.clone();
                        if let Some(r) =
                            super::reasoning::take_attached(&mut rest, "providerMetadata")
                        {
                            content.push(r);
                        }
                        content.push(simple_part(&Value::Object(rest)));
                    }
                    _ => content.push(simple_part(p)),
                }
            }
            "reasoning" => match p.as_object() {
                Some(o) if o.get("text").is_some_and(Value::is_string) => {
                    // `state` (streaming / done) is a UI state: not carried.
                    content.push(super::reasoning::decode_reasoning(
                        o,
                        "providerMetadata",
                        &["type", "text", "state"],
                    ));
                }
                _ => content.push(Part::Raw {
                    format: ID.into(),
                    value: p.clone(),
                }),
            },
            _ => content.push(Part::Raw {
                format: ID.into(),
                value: p.clone(),
            }),
        }
    }
    flush(&mut content, &mut results, out);
}

/// A tool part the provider executed, as the `ModelMessage` parts `convertToModelMessages`
/// writes for it: a `tool-call` with `providerExecuted: true` and, once it ran, a
/// `tool-result` in the same assistant message.
fn provider_step(p: &Value, name: &str, input: Value, state: &str, content: &mut Vec<Part>) {
    let id = p.get("toolCallId").cloned().unwrap_or(Value::Null);
    let mut call = serde_json::Map::new();
    call.insert("type".into(), json!("tool-call"));
    call.insert("toolCallId".into(), id.clone());
    call.insert("toolName".into(), json!(name));
    call.insert("input".into(), input);
    call.insert("providerExecuted".into(), json!(true));
    if let Some(m) = p.get("callProviderMetadata") {
        call.insert("providerOptions".into(), m.clone());
    }
    content.push(super::reasoning::hosted(
        &call,
        crate::model::HostedKind::Call,
    ));
    let output = match state {
        "output-available" => match p.get("output") {
            Some(Value::String(s)) => json!({"type": "text", "value": s}),
            Some(v) => json!({"type": "json", "value": v}),
            None => json!({"type": "json", "value": null}),
        },
        "output-error" => json!({
            "type": "error-text",
            "value": p.get("errorText").and_then(Value::as_str).unwrap_or("")
        }),
        _ => return,
    };
    let mut result = serde_json::Map::new();
    result.insert("type".into(), json!("tool-result"));
    result.insert("toolCallId".into(), id);
    result.insert("toolName".into(), json!(name));
    result.insert("output".into(), output);
    if let Some(m) = p.get("callProviderMetadata") {
        result.insert("providerOptions".into(), m.clone());
    }
    content.push(super::reasoning::hosted(
        &result,
        crate::model::HostedKind::Result,
    ));
}
