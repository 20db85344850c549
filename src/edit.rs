//! The playground's edits as pure functions over an [`Exchange`], so the page's components stay
//! thin and every edit is tested natively: reading a pasted document into the current state,
//! adding, moving and removing tools, messages and parts, linking results to calls.
//!
//! Every function leaves the exchange well-formed for the model's rules (a `tool` message holds
//! only results) and ignores indices out of range instead of panicking: the page may send a
//! stale index after a fast double click.

use crate::formats::{read_any, DecodeError, Format, Kind, Source};
use crate::model::{
    empty_object_schema, ChoiceMode, Exchange, Message, Part, ResultContent, Role, Tool, ToolCall,
    ToolChoice, ToolResult,
};
use serde_json::Value;

/// What reading a document into the playground gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The new exchange.
    pub exchange: Exchange,
    /// What the text was read as.
    pub source: Source,
    /// The kind of body it was (a response replaces only the model's last turn).
    pub kind: Kind,
}

/// Read `text` typed into the pane of `format` (`None`: the canonical editor, which takes any
/// document) while the page shows `kind` bodies and holds `current`.
///
/// The pane's own format is tried first, then any format (a pasted document of another
/// provider is detected and accepted). A response replaces only the last assistant turn of
/// `current`, so the conversation before it is kept. On failure the error of the pane's own
/// format is returned: it points at the spot in the text the user is looking at.
pub fn read_into(
    format: Option<Format>,
    kind: Kind,
    text: &str,
    current: &Exchange,
) -> Result<Read, DecodeError> {
    let Some(format) = format else {
        return read_any(text).map(|(d, source)| {
            let kind = source_kind(source);
            merge(current, d.exchange, source, kind)
        });
    };
    // Lenient decoders keep unknown fields, so a foreign document could "decode" as this
    // pane's format: detection decides first, the pane's own format first among the formats
    // the document fits. The pane's own protocol family (a dialect pane holding an OpenAI
    // document) stays with the pane's format.
    let (use_format, use_kind) = match Format::detect_in(format, text) {
        // Any prose reads as a legacy-XML completion; in another format's pane only a real
        // transcript (with its markers) counts, so a typo is an error there, not a new exchange.
        Ok((detected, _)) if detected != format && detected.is_mere_prose(text) => (format, kind),
        Ok((f, k)) if f.protocol() != format.protocol() => (f, k),
        Ok((_, k)) => (format, k),
        Err(_) => {
            if let Ok((d, Source::Canonical)) = read_any(text) {
                return Ok(merge(current, d.exchange, Source::Canonical, Kind::Request));
            }
            (format, kind)
        }
    };
    let d = use_format.decode(text, use_kind)?;
    Ok(merge(
        current,
        d.exchange,
        Source::Wire(use_format, use_kind),
        use_kind,
    ))
}

/// True when the editor text `after` replaced `before` rather than edited it: less than half
/// of `before` is kept at either end (a paste over the whole text, not typing or cutting a
/// part). Such a text is a new document, said as a page paste says it.
pub fn is_replacement(before: &str, after: &str) -> bool {
    let (b, a) = (before.as_bytes(), after.as_bytes());
    let prefix = b.iter().zip(a).take_while(|(x, y)| x == y).count();
    let rest = b.len().min(a.len()) - prefix;
    let suffix = b
        .iter()
        .rev()
        .zip(a.iter().rev())
        .take(rest)
        .take_while(|(x, y)| x == y)
        .count();
    !before.trim().is_empty() && !after.trim().is_empty() && (prefix + suffix) * 2 < b.len()
}

/// True when `text` was detected as `detected` only because any prose reads as a text
/// format's completion: it carries none of that format's markers, so it is not a document
/// ([`Format::is_mere_prose`]).
pub fn is_mere_prose(detected: Format, text: &str) -> bool {
    detected.is_mere_prose(text)
}

fn source_kind(source: Source) -> Kind {
    match source {
        Source::Wire(_, k) => k,
        Source::Canonical => Kind::Request,
    }
}

fn merge(current: &Exchange, decoded: Exchange, source: Source, kind: Kind) -> Read {
    let exchange = match (kind, source) {
        (Kind::Response, _) => current.with_response(&decoded),
        // A provider's document names that provider's model: the others keep theirs.
        (Kind::Request, Source::Wire(..)) => {
            let mut x = decoded;
            x.keep_models_from(current);
            x
        }
        (Kind::Request, Source::Canonical) => decoded,
    };
    Read {
        exchange,
        source,
        kind,
    }
}

/// Append a new tool with a fresh name and an empty object schema; returns its index.
pub fn add_tool(x: &mut Exchange) -> usize {
    let mut n = x.tools.len() + 1;
    while x.tools.iter().any(|t| t.name == format!("tool_{n}")) {
        n += 1;
    }
    x.tools.push(Tool {
        description: Some(String::new()),
        ..Tool::new(format!("tool_{n}"), empty_object_schema())
    });
    x.tools.len() - 1
}

/// Remove tool `i` (calls to it stay: they then show as calls to an unknown tool).
pub fn remove_tool(x: &mut Exchange, i: usize) {
    if i < x.tools.len() {
        x.tools.remove(i);
    }
}

/// Move item `i` one place up (`up`) or down; out of range or at the edge: nothing.
pub fn shift<T>(items: &mut [T], i: usize, up: bool) {
    let j = if up {
        i.checked_sub(1)
    } else {
        i.checked_add(1)
    };
    if let Some(j) = j.filter(|j| *j < items.len() && i < items.len()) {
        items.swap(i, j);
    }
}

/// Rename tool `i`, and every call, result and `tool_choice` entry that names it, so the
/// conversation keeps pointing at the tool being typed.
pub fn rename_tool(x: &mut Exchange, i: usize, to: &str) {
    let Some(from) = x.tools.get(i).map(|t| t.name.clone()) else {
        return;
    };
    // Another tool of the old name keeps the uses: they are its.
    let shared = x.tools.iter().filter(|t| t.name == from).count() > 1;
    if let Some(t) = x.tools.get_mut(i) {
        t.name = to.to_string();
    }
    if shared || from.is_empty() {
        return;
    }
    crate::schema::names::rename_uses(x, &from, to);
}

/// The next free call id of the form `call_<n>`.
pub fn next_call_id(x: &Exchange) -> String {
    let used: Vec<&str> = x
        .messages
        .iter()
        .flat_map(|m| m.parts.iter())
        .filter_map(|p| match p {
            Part::ToolCall(c) => c.id.as_deref(),
            Part::ToolResult(r) => r.call_id.as_deref(),
            _ => None,
        })
        .collect();
    (1..)
        .map(|n| format!("call_{n}"))
        .find(|id| !used.contains(&id.as_str()))
        .unwrap_or_else(|| "call_x".into())
}

/// Append a user message.
pub fn add_user(x: &mut Exchange, text: &str) {
    x.messages
        .push(Message::new(Role::User, vec![Part::text(text)]));
}

/// Append an assistant message with text.
pub fn add_assistant_text(x: &mut Exchange, text: &str) {
    x.messages
        .push(Message::new(Role::Assistant, vec![Part::text(text)]));
}

/// A call to the first tool (or `tool`), with arguments built from the schema's required
/// properties so it starts out close to valid.
fn new_call(x: &Exchange) -> ToolCall {
    let tool = x.tools.first();
    let name = tool.map_or_else(|| "tool".to_string(), |t| t.name.clone());
    let arguments = tool.map_or_else(|| Value::Object(Default::default()), sample_arguments);
    ToolCall::new(Some(next_call_id(x)), name, arguments)
}

/// Placeholder arguments for a tool: each required property with a value of its type.
pub fn sample_arguments(tool: &Tool) -> Value {
    let mut out = serde_json::Map::new();
    let schema = &tool.input_schema;
    let props = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let prop = props.and_then(|p| p.get(name));
        out.insert(name.to_string(), sample_value(prop));
    }
    Value::Object(out)
}

fn sample_value(schema: Option<&Value>) -> Value {
    let Some(s) = schema else {
        return Value::String(String::new());
    };
    if let Some(first) = s
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "string",
    };
    match ty {
        "integer" | "number" => Value::from(0),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "object" => Value::Object(Default::default()),
        "null" => Value::Null,
        _ => Value::String(String::new()),
    }
}

/// Append a tool call: to the last message when it is an assistant turn (a parallel call),
/// else as a new assistant turn. Returns `(message, part)`.
pub fn add_call(x: &mut Exchange) -> (usize, usize) {
    let call = new_call(x);
    push_to_last(x, Role::Assistant, Part::ToolCall(call))
}

/// Push `part` onto the last message when it has `role`, else onto a new message of that
/// role. Returns `(message, part)`.
fn push_to_last(x: &mut Exchange, role: Role, part: Part) -> (usize, usize) {
    match x.messages.last_mut() {
        Some(m) if m.role == role => m.parts.push(part),
        _ => x.messages.push(Message::new(role, vec![part])),
    }
    let m = x.messages.len() - 1;
    (m, x.messages[m].parts.len() - 1)
}

/// Add a call to assistant message `m` (next to its other calls: parallel calls).
pub fn add_call_to(x: &mut Exchange, m: usize) {
    let call = new_call(x);
    if let Some(msg) = x
        .messages
        .get_mut(m)
        .filter(|msg| msg.role == Role::Assistant)
    {
        msg.parts.push(Part::ToolCall(call));
    }
}

/// Add a text part to message `m` (not to a `tool` message, which holds only results).
pub fn add_text_to(x: &mut Exchange, m: usize) {
    if let Some(msg) = x.messages.get_mut(m).filter(|msg| msg.role != Role::Tool) {
        msg.parts.push(Part::text(""));
    }
}

/// Calls without a result after them, in order: `(id, name)`.
pub fn unanswered_calls(x: &Exchange) -> Vec<(String, String)> {
    let mut open: Vec<(String, String)> = Vec::new();
    for m in &x.messages {
        for p in &m.parts {
            match p {
                Part::ToolCall(c) => {
                    if let Some(id) = &c.id {
                        open.push((id.clone(), c.name.clone()));
                    }
                }
                Part::ToolResult(r) => {
                    if let Some(id) = &r.call_id {
                        open.retain(|(o, _)| o != id);
                    }
                }
                _ => {}
            }
        }
    }
    open
}

/// Every call of the conversation: `(id, name)`, for linking a result.
pub fn all_calls(x: &Exchange) -> Vec<(String, String)> {
    x.messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .filter_map(|c| c.id.clone().map(|id| (id, c.name.clone())))
        .collect()
}

/// Answer the oldest unanswered call (or an unlinked result when every call has one): the
/// result joins the `tool` message at the end, or starts one. Returns `(message, part)`.
pub fn add_result(x: &mut Exchange) -> (usize, usize) {
    let (call_id, name) = unanswered_calls(x)
        .into_iter()
        .next()
        .map_or((None, None), |(id, name)| (Some(id), Some(name)));
    let mut r = ToolResult::new(call_id, ResultContent::Text(String::new()));
    r.name = name;
    push_to_last(x, Role::Tool, Part::ToolResult(r))
}

/// Link result `(m, p)` to the call `call_id` (its name follows).
pub fn link_result(x: &mut Exchange, m: usize, p: usize, call_id: &str) {
    let name = all_calls(x)
        .into_iter()
        .find(|(id, _)| id == call_id)
        .map(|(_, n)| n);
    if let Some(Part::ToolResult(r)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) {
        r.call_id = (!call_id.is_empty()).then(|| call_id.to_string());
        r.name = name;
    }
}

/// Change the role of message `m`. Parts the new role cannot hold are converted: a `tool`
/// message keeps only results; results moved out of a `tool` message become text.
pub fn set_role(x: &mut Exchange, m: usize, role: Role) {
    let Some(msg) = x.messages.get_mut(m) else {
        return;
    };
    if msg.role == role {
        return;
    }
    msg.role = role;
    msg.parts = std::mem::take(&mut msg.parts)
        .into_iter()
        .filter_map(|p| match (role, p) {
            (Role::Tool, p @ Part::ToolResult(_)) => Some(p),
            (Role::Tool, _) => None,
            (_, Part::ToolResult(r)) => Some(Part::text(r.content.to_text())),
            (Role::User, Part::ToolCall(c)) => {
                Some(Part::text(format!("{}({})", c.name, c.arguments_text())))
            }
            (_, p) => Some(p),
        })
        .collect();
}

/// Remove message `m`.
pub fn remove_message(x: &mut Exchange, m: usize) {
    if m < x.messages.len() {
        x.messages.remove(m);
    }
}

/// Remove part `p` of message `m`; a message left empty is removed too.
pub fn remove_part(x: &mut Exchange, m: usize, p: usize) {
    let Some(msg) = x.messages.get_mut(m) else {
        return;
    };
    if p < msg.parts.len() {
        msg.parts.remove(p);
    }
    if msg.parts.is_empty() {
        x.messages.remove(m);
    }
}

/// The `tool_choice` picker's value: `default`, `auto`, `none`, `required`, `validated` or
/// `tool:<name>`.
pub fn choice_value(x: &Exchange) -> String {
    match &x.tool_choice {
        None => "default".into(),
        Some(c) => match (c.mode, c.tools.as_slice()) {
            (ChoiceMode::Required, [one]) => format!("tool:{one}"),
            (ChoiceMode::Auto, _) => "auto".into(),
            (ChoiceMode::None, _) => "none".into(),
            (ChoiceMode::Required, _) => "required".into(),
            (ChoiceMode::Validated, _) => "validated".into(),
        },
    }
}

/// Set `tool_choice` from the picker's value (see [`choice_value`]); unknown values: nothing.
pub fn set_choice(x: &mut Exchange, value: &str) {
    x.tool_choice = match value {
        "default" => None,
        "auto" => Some(ToolChoice::mode(ChoiceMode::Auto)),
        "none" => Some(ToolChoice::mode(ChoiceMode::None)),
        "required" => Some(ToolChoice::mode(ChoiceMode::Required)),
        "validated" => Some(ToolChoice::mode(ChoiceMode::Validated)),
        v => match v.strip_prefix("tool:") {
            Some(name) => Some(ToolChoice::force(name)),
            None => return,
        },
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ResultContent;

    fn weather() -> Exchange {
        serde_json::from_str(crate::examples::EXAMPLES[0].source).unwrap()
    }

    #[test]
    fn edit_add_call_after_assistant_is_parallel() {
        let mut x = Exchange::default();
        add_tool(&mut x);
        add_user(&mut x, "hi");
        let (m1, p1) = add_call(&mut x);
        let (m2, p2) = add_call(&mut x);
        assert_eq!((m1, p1, m2, p2), (1, 0, 1, 1));
        assert_eq!(unanswered_calls(&x).len(), 2);
        let (rm, _) = add_result(&mut x);
        let (rm2, rp2) = add_result(&mut x);
        assert_eq!((rm, rm2, rp2), (2, 2, 1));
        assert!(unanswered_calls(&x).is_empty());
        let Part::ToolResult(r) = &x.messages[2].parts[1] else {
            panic!()
        };
        assert_eq!(r.call_id.as_deref(), Some("call_2"));
        assert_eq!(r.name.as_deref(), Some("tool_1"));
    }

    #[test]
    fn edit_rename_tool_follows_calls_and_choice() {
        let mut x = weather();
        let old = x.tools[0].name.clone();
        set_choice(&mut x, &format!("tool:{old}"));
        rename_tool(&mut x, 0, "forecast");
        assert_eq!(choice_value(&x), "tool:forecast");
        assert!(x
            .messages
            .iter()
            .flat_map(|m| m.tool_calls())
            .all(|c| c.name == "forecast"));
    }

    #[test]
    fn edit_response_paste_replaces_only_the_last_turn() {
        let x = weather();
        let before = x.messages.len();
        let text = Format::Anthropic.encode(&x, Kind::Response).text;
        let edited = text.replace("Paris", "Lyon");
        let r = read_into(Some(Format::Anthropic), Kind::Response, &edited, &x).unwrap();
        assert_eq!(r.exchange.messages.len(), before);
        assert_eq!(r.kind, Kind::Response);
        // Only the last turn changed: the question before it is still about Paris.
        assert_eq!(r.exchange.messages[..before - 1], x.messages[..before - 1]);
        assert_ne!(r.exchange.messages.last(), x.messages.last());
    }

    #[test]
    fn edit_foreign_paste_is_detected_and_bad_paste_points_at_own_format() {
        let x = weather();
        let anthropic = Format::Anthropic.encode(&x, Kind::Request).text;
        let r = read_into(Some(Format::OpenAiChat), Kind::Request, &anthropic, &x).unwrap();
        assert_eq!(r.source, Source::Wire(Format::Anthropic, Kind::Request));
        let e = read_into(
            Some(Format::OpenAiChat),
            Kind::Request,
            "{\"messages\": [1,]}",
            &x,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn edit_prose_in_a_json_pane_is_an_error_but_a_transcript_is_read() {
        let x = weather();
        let e = read_into(
            Some(Format::OpenAiChat),
            Kind::Request,
            "not json at all",
            &x,
        );
        assert!(e.is_err());
        let xml = Format::AnthropicXml.encode(&x, Kind::Request).text;
        let r = read_into(Some(Format::OpenAiChat), Kind::Request, &xml, &x).unwrap();
        assert_eq!(r.source, Source::Wire(Format::AnthropicXml, Kind::Request));
        // In its own pane, prose is a plain completion.
        assert!(read_into(Some(Format::AnthropicXml), Kind::Response, "Hi there", &x).is_ok());
    }

    #[test]
    fn edit_out_of_range_indices_do_nothing() {
        let mut x = weather();
        let before = x.clone();
        remove_tool(&mut x, 99);
        remove_message(&mut x, 99);
        remove_part(&mut x, 99, 0);
        link_result(&mut x, 99, 0, "a");
        set_role(&mut x, 99, Role::User);
        shift(&mut x.messages, 99, true);
        shift(&mut x.messages, 0, true);
        add_call_to(&mut x, 99);
        assert_eq!(x, before);
    }

    #[test]
    fn edit_set_role_keeps_model_rules() {
        let mut x = weather();
        let m = x
            .messages
            .iter()
            .position(|m| m.role == Role::Tool)
            .unwrap();
        set_role(&mut x, m, Role::User);
        assert!(matches!(x.messages[m].parts[0], Part::Text { .. }));
        set_role(&mut x, m, Role::Tool);
        assert!(x.messages[m].parts.is_empty());
        let mut y = Exchange::default();
        add_user(&mut y, "q");
        set_role(&mut y, 0, Role::Tool);
        assert!(y.messages[0]
            .parts
            .iter()
            .all(|p| matches!(p, Part::ToolResult(_))));
        let _ = ResultContent::Text(String::new());
    }

    #[test]
    fn edit_sample_arguments_follow_required_types() {
        let tool: Tool = serde_json::from_value(serde_json::json!({
            "name": "t",
            "input_schema": {"type": "object", "properties": {
                "a": {"type": "integer"}, "b": {"enum": ["x", "y"]}, "c": {"type": ["null", "boolean"]},
                "d": {"type": "string"}}, "required": ["a", "b", "c"]}
        }))
        .unwrap();
        assert_eq!(
            sample_arguments(&tool),
            serde_json::json!({"a": 0, "b": "x", "c": false})
        );
    }
}
