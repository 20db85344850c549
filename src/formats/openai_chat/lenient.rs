//! A lenient reader of OpenAI Chat Completions bodies, for counting only.
//!
//! The format decoder (`formats::openai_chat`) refuses what the API refuses today, such as a
//! legacy `function` result with no call before it; the published token counts include such
//! requests (hmarr/openai-chat-tokens records them), so `toolscope tokens` falls back to this
//! reader when the decoder refuses a body that has `messages`. It keeps what counting needs:
//! roles, texts, names, calls, results, tools and the tool choice.

use crate::model::{
    ChoiceMode, Exchange, Message, Part, ResultContent, Role, Tool, ToolCall, ToolChoice,
    ToolResult,
};
use serde_json::{Map, Value};

/// The exchange of a Chat Completions request body, or `None` when it is not one.
pub fn read(text: &str) -> Option<Exchange> {
    let v: Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    let msgs = o.get("messages")?.as_array()?;
    let mut x = Exchange::default();
    x.options.model = o.get("model").and_then(Value::as_str).map(str::to_string);
    for t in o
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(f) = t.get("function") {
            x.tools.extend(tool(f));
        }
    }
    for f in o
        .get("functions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        x.tools.extend(tool(f));
    }
    x.tool_choice = o
        .get("tool_choice")
        .or_else(|| o.get("function_call"))
        .and_then(choice);
    for (i, m) in msgs.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("user");
        let text = content_text(m.get("content"));
        let name = m.get("name").and_then(Value::as_str);
        match role {
            "system" | "developer" if i == 0 => x.system = Some(text),
            "assistant" => {
                let mut parts = vec![Part::text(text)];
                if let Some(fc) = m.get("function_call").filter(|v| v.is_object()) {
                    parts.push(Part::ToolCall(call(None, fc)));
                }
                for tc in m
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let id = tc.get("id").and_then(Value::as_str).map(str::to_string);
                    if let Some(f) = tc.get("function") {
                        parts.push(Part::ToolCall(call(id, f)));
                    }
                }
                x.messages
                    .push(named(Message::new(Role::Assistant, parts), name));
            }
            "function" | "tool" => {
                let mut r = ToolResult::new(
                    m.get("tool_call_id")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    ResultContent::Text(text),
                );
                if role == "function" {
                    r.name = name.map(str::to_string);
                }
                match x.messages.last_mut() {
                    Some(last) if last.role == Role::Tool => last.parts.push(Part::ToolResult(r)),
                    _ => x
                        .messages
                        .push(Message::new(Role::Tool, vec![Part::ToolResult(r)])),
                }
            }
            _ => x.messages.push(named(
                Message::new(Role::User, vec![Part::text(text)]),
                name,
            )),
        }
    }
    Some(x)
}

fn named(mut m: Message, name: Option<&str>) -> Message {
    if let Some(n) = name {
        let mut e = Map::new();
        e.insert("name".into(), Value::String(n.to_string()));
        m.extra.insert("openai-chat".into(), e);
    }
    m
}

fn content_text(c: Option<&Value>) -> String {
    match c {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

fn tool(f: &Value) -> Option<Tool> {
    Some(Tool {
        name: f.get("name")?.as_str()?.to_string(),
        description: f
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        input_schema: f
            .get("parameters")
            .cloned()
            .unwrap_or_else(crate::model::empty_object_schema),
        strict: f.get("strict").and_then(Value::as_bool),
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Default::default(),
    })
}

fn call(id: Option<String>, f: &Value) -> ToolCall {
    let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
    let args = f.get("arguments").and_then(Value::as_str).unwrap_or("");
    ToolCall::from_text(id, name, args)
}

fn choice(v: &Value) -> Option<ToolChoice> {
    match v {
        Value::String(s) => match s.as_str() {
            "none" => Some(ToolChoice::mode(ChoiceMode::None)),
            "auto" => Some(ToolChoice::mode(ChoiceMode::Auto)),
            "required" => Some(ToolChoice::mode(ChoiceMode::Required)),
            _ => None,
        },
        Value::Object(o) => {
            let name = o
                .get("function")
                .and_then(|f| f.get("name"))
                .or_else(|| o.get("name"))?
                .as_str()?;
            Some(ToolChoice::force(name))
        }
        _ => None,
    }
}
