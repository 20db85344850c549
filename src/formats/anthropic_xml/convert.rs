//! Model ⇄ legacy prompt: encode an [`Exchange`] into a [`Prompt`] or [`Completion`] and back,
//! reporting everything the text cannot carry.

use super::wire::{
    is_tag_name, Completion, Invoke, Outcome, ParamDescription, Prompt, Segment, Speaker,
    ToolDescription, Turn,
};
use crate::formats::json;
use crate::model::{
    diff::differences, Exchange, Extra, Loss, Losses, Message, Part, ResultContent, Role, Tool,
    ToolCall, ToolResult, FORM_KEY,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Format id.
pub const ID: &str = "anthropic-xml";

const NO_IDS: &str =
    "the legacy XML format has no call ids: calls and results pair by order and name";

/// Declared parameter types by tool name, for reading parameter values back.
type Types = HashMap<String, HashMap<String, String>>;

fn types_of_tools(tools: &[ToolDescription]) -> Types {
    tools
        .iter()
        .map(|t| {
            let params = t
                .parameters
                .iter()
                .filter_map(|p| p.r#type.clone().map(|ty| (p.name.clone(), ty)))
                .collect();
            (t.name.clone(), params)
        })
        .collect()
}

/// How a parameter value is written: strings as they are ("String and scalar parameters should
/// be specified as is"), everything else as compact JSON ("lists and objects should use JSON").
fn render_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// How a parameter value is read, by its declared `<type>` text (see [`Declared`]): `null`
/// under a type that says `or null` is null; a listed value is that value; a parameter declared
/// as a string stays text; otherwise text that is JSON other than a string (number, boolean,
/// null, array, object) is that JSON, and anything else is text. The ambiguity — a string `"42"`
/// of an undeclared parameter reads back as the number 42 — is reported by the encoder, which
/// checks every value with this.
pub fn read_value(text: &str, declared: Option<&str>) -> Value {
    let d = declared.map(Declared::parse).unwrap_or_default();
    if d.nullable && text.trim() == "null" {
        return Value::Null;
    }
    if let Some(values) = &d.values {
        let as_text = Value::String(text.to_string());
        if values.contains(&as_text) {
            return as_text;
        }
        if let Ok(v) = serde_json::from_str::<Value>(text.trim()) {
            if values.contains(&v) {
                return v;
            }
        }
    }
    if matches!(d.base.as_deref(), Some("string" | "str")) {
        return Value::String(text.to_string());
    }
    match serde_json::from_str::<Value>(text.trim()) {
        Ok(v) if !v.is_string() => v,
        _ => Value::String(text.to_string()),
    }
}

/// What a parameter's `<type>` text says. The element is free text, so it says what the flat
/// list cannot otherwise: `string or null` (nullable), `array of integer` (the item type),
/// `string, one of "c" | "f"` (the allowed values, as JSON), and reads back the same. Other
/// text (`str`, `int`, anything a hand-written prompt says) is a plain type name.
#[derive(Debug, Clone, Default, PartialEq)]
struct Declared {
    /// The type name (`string`, `array`, or the text as written).
    base: Option<String>,
    /// `array of T`: the item type.
    items: Option<String>,
    /// `… or null`.
    nullable: bool,
    /// `one of …`: the allowed values.
    values: Option<Vec<Value>>,
}

const SIMPLE_TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "object", "array"];

impl Declared {
    fn parse(text: &str) -> Declared {
        let plain = Declared {
            base: Some(text.to_string()),
            ..Declared::default()
        };
        let (ty, values) = match text.split_once("one of ") {
            Some((head, list)) if head.is_empty() || head.ends_with(", ") => {
                let parsed: Option<Vec<Value>> = list
                    .split(" | ")
                    .map(|v| serde_json::from_str::<Value>(v).ok())
                    .collect();
                match parsed {
                    Some(vs) => (head.trim_end_matches(", "), Some(vs)),
                    None => return plain,
                }
            }
            _ => (text, None),
        };
        let (ty, nullable) = match ty.strip_suffix(" or null") {
            Some(t) => (t, true),
            None => (ty, false),
        };
        let (base, items) = match ty.strip_prefix("array of ") {
            Some(item) if SIMPLE_TYPES.contains(&item) => ("array", Some(item.to_string())),
            _ => (ty, None),
        };
        if (nullable || items.is_some()) && !SIMPLE_TYPES.contains(&base) {
            return plain;
        }
        Declared {
            base: (!base.is_empty()).then(|| base.to_string()),
            items,
            nullable,
            values,
        }
    }

    /// The `<type>` text for a property schema, if it has a type or allowed values.
    fn of_schema(prop: &Value) -> Option<String> {
        let (base, nullable) = match prop.get("type") {
            Some(Value::String(s)) => (Some(s.clone()), false),
            Some(Value::Array(types)) => {
                let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
                let non_null: Vec<&str> = named.iter().copied().filter(|t| *t != "null").collect();
                match non_null.as_slice() {
                    [one] if named.len() == 2 => (Some(one.to_string()), true),
                    _ => (
                        non_null.first().or(named.first()).map(|t| t.to_string()),
                        false,
                    ),
                }
            }
            _ => (None, false),
        };
        let items = prop
            .get("items")
            .and_then(|i| i.get("type"))
            .and_then(Value::as_str)
            .filter(|t| {
                base.as_deref() == Some("array")
                    && SIMPLE_TYPES.contains(t)
                    && prop["items"].as_object().is_some_and(|o| o.len() == 1)
            });
        let mut text = match (&base, items) {
            (Some(_), Some(item)) => format!("array of {item}"),
            (Some(b), None) => b.clone(),
            (None, _) => String::new(),
        };
        if nullable {
            text.push_str(" or null");
        }
        if let Some(values) = prop.get("enum").and_then(Value::as_array) {
            let rendered: Vec<String> = values
                .iter()
                .map(|v| serde_json::to_string(v).unwrap_or_default())
                .collect();
            // Only when the list reads back as written (a value holding " | " would not).
            let list = rendered.join(" | ");
            let sep = if text.is_empty() { "" } else { ", " };
            let candidate = format!("{text}{sep}one of {list}");
            if !values.is_empty() && Declared::parse(&candidate).values.as_ref() == Some(values) {
                text = candidate;
            }
        }
        (!text.is_empty()).then_some(text)
    }

    /// The property schema this text stands for.
    fn schema(&self) -> Map<String, Value> {
        let mut prop = Map::new();
        if let Some(b) = &self.base {
            let ty = if self.nullable {
                serde_json::json!([b, "null"])
            } else {
                Value::String(b.clone())
            };
            prop.insert("type".into(), ty);
        }
        if let Some(item) = &self.items {
            prop.insert("items".into(), serde_json::json!({"type": item}));
        }
        if let Some(values) = &self.values {
            prop.insert("enum".into(), Value::Array(values.clone()));
        }
        prop
    }
}

/// Make free text safe to place in a turn (or the system prompt): turn markers and block tags
/// would be read as structure. Returns the text and whether it changed.
fn sanitize(text: &str, system: bool) -> (String, bool) {
    let mut out = text
        .replace("\n\nHuman:", "\n\nH:")
        .replace("\n\nAssistant:", "\n\nA:")
        .replace("<function_calls>", "&lt;function_calls>")
        .replace("<function_results>", "&lt;function_results>");
    if system {
        out = out.replace("<tools>", "&lt;tools>");
        for (marker, short) in [("Human:", "H:"), ("Assistant:", "A:")] {
            if let Some(rest) = out.strip_prefix(marker) {
                out = format!("{short}{rest}");
            }
        }
    }
    let changed = out != text;
    (out, changed)
}

/// Report a name the parser would read back differently (it trims names).
fn check_name(name: &str, pointer: String, losses: &mut Losses) {
    if name.trim() != name {
        losses.rewritten(
            pointer,
            format!("name {name:?} sent trimmed"),
            "names are read without surrounding whitespace",
        );
    }
}

/// A turn has no place for fields of its own (only its segments are text): report them.
fn drop_own_message_extra(extra: &Extra, pointer: &str, losses: &mut Losses) {
    if let Some(fields) = extra.get(ID) {
        for k in fields.keys().filter(|k| k.as_str() != FORM_KEY) {
            losses.dropped(
                format!("{pointer}/extra/{}/{}", json::escape(ID), json::escape(k)),
                format!("field {k}"),
                "a turn of the prompt is plain text: it has no fields",
            );
        }
    }
}

/// Own provider-only fields of an element, as unknown child elements (`<tag>raw</tag>`);
/// fields that cannot be written so are reported.
fn own_children(extra: &Extra, pointer: &str, losses: &mut Losses) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(fields) = extra.get(ID) {
        for (k, v) in fields.iter().filter(|(k, _)| k.as_str() != FORM_KEY) {
            match v {
                Value::String(raw) if is_tag_name(k) && !raw.contains(&format!("</{k}>")) => {
                    out.push((k.clone(), raw.clone()))
                }
                _ => {
                    losses.dropped(
                        format!("{pointer}/extra/{}/{}", json::escape(ID), json::escape(k)),
                        format!("field {k}"),
                        "only element text can be written back as an XML element",
                    );
                }
            }
        }
    }
    losses.foreign_extra(extra, ID, pointer);
    out
}

fn children_extra(unknown: Vec<(String, String)>) -> Extra {
    let mut extra = Extra::new();
    if !unknown.is_empty() {
        let fields: Map<String, Value> = unknown
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        extra.insert(ID.to_string(), fields);
    }
    extra
}

// ---------------------------------------------------------------------------------------------
// Tools

/// The flat parameter list the format has room for.
fn params_of_schema(schema: &Value) -> Vec<ParamDescription> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(name, prop)| ParamDescription {
            name: name.clone(),
            r#type: Declared::of_schema(prop),
            description: prop
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
        .collect()
}

/// The JSON Schema a flat parameter list stands for.
fn schema_of_params(params: &[ParamDescription]) -> Value {
    let props: Map<String, Value> = params
        .iter()
        .map(|p| {
            let mut prop = p
                .r#type
                .as_deref()
                .map(|t| Declared::parse(t).schema())
                .unwrap_or_default();
            if let Some(d) = &p.description {
                prop.insert("description".into(), Value::String(d.clone()));
            }
            (p.name.clone(), Value::Object(prop))
        })
        .collect();
    serde_json::json!({"type": "object", "properties": props})
}

fn encode_tool(i: usize, t: &Tool, losses: &mut Losses) -> ToolDescription {
    let p = format!("/tools/{i}");
    check_name(&t.name, format!("{p}/name"), losses);
    let parameters = params_of_schema(&t.input_schema);
    for param in &parameters {
        check_name(
            &param.name,
            format!("{p}/input_schema/properties/{}", json::escape(&param.name)),
            losses,
        );
    }
    // Whatever the flat list cannot say (nested schemas, required, enum, …) is reported where
    // it differs from the schema the list reads back as.
    let back = schema_of_params(&parameters);
    let mut reported: Vec<String> = Vec::new();
    for d in differences(&t.input_schema, &back) {
        // One loss per schema keyword (`/required`, `/properties/to/items`), not per leaf.
        let tokens: Vec<&str> = d.split('/').skip(1).collect();
        let depth = if tokens.first() == Some(&"properties") {
            3
        } else {
            1
        };
        let key: String = tokens.iter().take(depth).map(|t| format!("/{t}")).collect();
        if reported.contains(&key) {
            continue;
        }
        losses.dropped(
            format!("{p}/input_schema{key}"),
            format!("schema detail {key}"),
            "the legacy parameter list is flat: name, type (with `or null`, `array of`, `one of`) and description only",
        );
        reported.push(key);
    }
    if t.strict.is_some() {
        losses.dropped(
            format!("{p}/strict"),
            "strict flag",
            "the legacy format has no strict mode",
        );
    }
    crate::formats::shared::drop_mcp_tool_parts(
        t,
        &p,
        "the legacy format has no output schemas",
        "the legacy format has no annotations",
        losses,
    );
    let unknown = own_children(&t.extra, &p, losses);
    ToolDescription {
        name: t.name.clone(),
        description: t.description.clone(),
        parameters,
        unknown,
    }
}

fn decode_tool(t: ToolDescription) -> Tool {
    Tool {
        input_schema: schema_of_params(&t.parameters),
        name: t.name,
        description: t.description,
        strict: None,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: children_extra(t.unknown),
    }
}

// ---------------------------------------------------------------------------------------------
// Messages

/// Calls seen so far, for naming results (results pair with calls by order and name).
#[derive(Default)]
struct Pending {
    calls: Vec<(Option<String>, String, bool)>,
}

impl Pending {
    fn call(&mut self, id: Option<&str>, name: &str) {
        self.calls
            .push((id.map(str::to_string), name.to_string(), false));
    }
    /// The name of the call `r` answers (marking it answered).
    fn answer(&mut self, r: &ToolResult) -> Option<String> {
        let by_id = r.call_id.as_deref().and_then(|id| {
            self.calls
                .iter()
                .position(|(cid, _, _)| cid.as_deref() == Some(id))
        });
        let by_name = r.name.as_deref().and_then(|n| {
            self.calls
                .iter()
                .position(|(_, cn, answered)| !answered && cn == n)
        });
        let oldest = self.calls.iter().position(|(_, _, answered)| !answered);
        let i = by_id.or(by_name).or(oldest)?;
        let slot = self.calls.get_mut(i)?;
        slot.2 = true;
        Some(slot.1.clone())
    }
}

struct Ctx<'a> {
    losses: &'a mut Losses,
    pending: Pending,
    types: Types,
}

fn encode_call(c: &ToolCall, p: &str, ctx: &mut Ctx<'_>) -> Invoke {
    if c.id.is_some() {
        ctx.losses.dropped(format!("{p}/id"), "call id", NO_IDS);
    }
    check_name(&c.name, format!("{p}/name"), ctx.losses);
    let arguments = if c.arguments_invalid() {
        ctx.losses.dropped(
            format!("{p}/arguments_raw"),
            "argument text that is not valid JSON",
            "parameters are XML elements: invalid JSON arguments cannot be written",
        );
        ctx.losses.rewritten(
            format!("{p}/arguments"),
            "arguments null sent as {}",
            "invalid JSON arguments are sent as no parameters",
        );
        Map::new()
    } else {
        if c.arguments_raw.is_some() {
            ctx.losses.dropped(
                format!("{p}/arguments_raw"),
                "argument spelling",
                "parameters are XML elements: the JSON text is not kept as written",
            );
        }
        match &c.arguments {
            Value::Object(m) => m.clone(),
            _ => {
                ctx.losses.rewritten(
                    format!("{p}/arguments"),
                    "non-object arguments sent as {}",
                    "parameters are named: arguments must be an object",
                );
                Map::new()
            }
        }
    };
    let declared = ctx.types.get(&c.name);
    let mut parameters = Vec::new();
    for (k, v) in &arguments {
        let ap = format!("{p}/arguments/{}", json::escape(k));
        if !is_tag_name(k) {
            ctx.losses.dropped(
                ap,
                format!("argument {k:?}"),
                "a parameter name must be a valid XML tag name",
            );
            continue;
        }
        let text = render_value(v);
        let ty = declared.and_then(|d| d.get(k)).map(String::as_str);
        if read_value(&text, ty) != *v {
            ctx.losses.rewritten(
                ap,
                format!("argument {k} reads back differently from {text:?}"),
                "parameter values are text: strings that look like JSON (or JSON under a string type) change type",
            );
        }
        parameters.push((k.clone(), text));
    }
    ctx.pending.call(c.id.as_deref(), &c.name);
    Invoke {
        tool_name: c.name.clone(),
        parameters,
        unknown: own_children(&c.extra, p, ctx.losses),
    }
}

fn encode_result(r: &ToolResult, p: &str, ctx: &mut Ctx<'_>) -> Outcome {
    if r.call_id.is_some() {
        ctx.losses
            .dropped(format!("{p}/call_id"), "call id of the result", NO_IDS);
    }
    let paired = ctx.pending.answer(r);
    let tool_name = match (&r.name, paired) {
        (Some(n), _) => {
            check_name(n, format!("{p}/name"), ctx.losses);
            Some(n.clone())
        }
        (None, Some(n)) => {
            // Carried from the call it answers: a note, nothing made up.
            ctx.losses.note(
                format!("{p}/name"),
                format!("tool name {n:?} of the answered call"),
                "each <result> names its tool",
            );
            Some(n)
        }
        (None, None) => None,
    };
    let text = match &r.content {
        ResultContent::Text(t) => t.clone(),
        ResultContent::Json(v) => {
            ctx.losses.rewritten(
                format!("{p}/content"),
                "JSON result sent as text",
                "<stdout> holds text",
            );
            serde_json::to_string(v).unwrap_or_default()
        }
        ResultContent::Blocks(blocks) => {
            let others = blocks
                .iter()
                .filter(|b| !matches!(b, crate::model::Block::Text { .. }))
                .count();
            let what = match others {
                0 => "content blocks joined into text".to_string(),
                n => format!("content blocks joined into text ({n} image or other blocks dropped)"),
            };
            ctx.losses.rewritten(
                format!("{p}/content"),
                what,
                "<stdout> holds text: no images or blocks",
            );
            r.content.to_text()
        }
    };
    Outcome {
        tool_name,
        is_error: r.is_error,
        text,
        unknown: own_children(&r.extra, p, ctx.losses),
    }
}

/// The segments of one message; `mi` is its index for loss pointers.
fn encode_message(m: &Message, mi: usize, ctx: &mut Ctx<'_>) -> Vec<Segment> {
    let mp = format!("/messages/{mi}");
    let mut segs: Vec<Segment> = Vec::new();
    // Index (in `segs`) and part pointer of the text segment the last text went into.
    let mut last_text: Option<String> = None;
    for (pi, part) in m.parts.iter().enumerate() {
        let p = format!("{mp}/parts/{pi}");
        match (m.role, part) {
            (Role::User | Role::Assistant, Part::Text { text, extra }) => {
                ctx.losses.foreign_extra(extra, ID, &p);
                if extra
                    .get(ID)
                    .is_some_and(|f| f.keys().any(|k| k != FORM_KEY))
                {
                    ctx.losses
                        .dropped(format!("{p}/extra"), "text fields", "text has no fields");
                }
                if text.is_empty() {
                    ctx.losses
                        .dropped(p, "empty text", "empty text is no text in a prompt");
                    continue;
                }
                let (clean, changed) = sanitize(text, false);
                if changed {
                    ctx.losses.rewritten(
                        format!("{p}/text"),
                        "turn markers or block tags in the text",
                        "they would be read as structure; written as \\n\\nH:, \\n\\nA:, &lt;",
                    );
                }
                match (segs.last_mut(), last_text.as_ref()) {
                    (Some(Segment::Text(prev)), Some(prev_p)) => {
                        prev.push_str("\n\n");
                        prev.push_str(&clean);
                        ctx.losses.rewritten(
                            prev_p.clone(),
                            "adjacent texts joined",
                            "a turn is one text between blocks",
                        );
                        ctx.losses.rewritten(
                            p.clone(),
                            "adjacent texts joined",
                            "a turn is one text between blocks",
                        );
                    }
                    _ => segs.push(Segment::Text(clean)),
                }
                last_text = Some(p);
            }
            (Role::Assistant, Part::ToolCall(c)) => {
                let inv = encode_call(c, &p, ctx);
                match segs.last_mut() {
                    Some(Segment::Calls(invokes)) => invokes.push(inv),
                    _ => segs.push(Segment::Calls(vec![inv])),
                }
                last_text = None;
            }
            (Role::Tool, Part::ToolResult(r)) => {
                let o = encode_result(r, &p, ctx);
                match segs.last_mut() {
                    Some(Segment::Results(outcomes)) => outcomes.push(o),
                    _ => segs.push(Segment::Results(vec![o])),
                }
            }
            (_, Part::Raw { format, value }) => {
                ctx.losses.dropped(
                    p,
                    crate::model::media_label(format, value),
                    "the legacy prompt has no place for this block",
                );
            }
            (_, Part::Reasoning(r)) => {
                crate::formats::shared::drop_reasoning(r, p, "the legacy prompt", ctx.losses);
            }
            (_, Part::Hosted(h)) => {
                crate::formats::shared::drop_hosted(h, p, ctx.losses);
            }
            (role, _) => {
                ctx.losses.dropped(
                    p,
                    "part in the wrong message",
                    format!("a {role:?} turn cannot hold this part in the legacy prompt"),
                );
            }
        }
    }
    if m.role == Role::Tool && segs.is_empty() {
        segs.push(Segment::Results(Vec::new()));
    }
    segs
}

fn speaker_of(role: Role) -> Speaker {
    match role {
        Role::Assistant => Speaker::Assistant,
        _ => Speaker::Human,
    }
}

/// Model → prompt.
pub fn encode_request(x: &Exchange) -> (Prompt, Vec<Loss>) {
    let mut losses = Losses::new();
    for field in x.options.set_parameters() {
        losses.dropped(
            format!("/options/{field}"),
            format!("option {field}"),
            "API parameters (max_tokens_to_sample, …) are not part of the prompt text",
        );
    }
    if x.tool_choice.is_some() {
        losses.dropped(
            "/tool_choice",
            "tool choice",
            "the legacy prompt format has no tool_choice",
        );
    }
    if x.parallel_tool_calls.is_some() {
        losses.dropped(
            "/parallel_tool_calls",
            "parallel tool calls flag",
            "the legacy prompt format has no switch for parallel calls",
        );
    }
    let adopted = crate::formats::shared::adopt_common(&x.extra, ID, &mut losses);
    losses.foreign_extra(&adopted, ID, "");
    let own = x.extra.get(ID);
    let preamble = own
        .and_then(|f| f.get(FORM_KEY))
        .and_then(|v| v.get("preamble"))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(fields) = own {
        for k in fields.keys().filter(|k| k.as_str() != FORM_KEY) {
            losses.dropped(
                format!("/extra/{}/{}", json::escape(ID), json::escape(k)),
                format!("field {k}"),
                "the prompt has no place for it",
            );
        }
    }

    let mut tools: Vec<ToolDescription> = Vec::with_capacity(x.tools.len());
    for (i, t) in x.tools.iter().enumerate() {
        match &t.hosted {
            // A provider-run tool is no function the prompt could describe.
            Some(h) => {
                losses.dropped(
                    format!("/tools/{i}"),
                    h.what(),
                    h.why_dropped("the legacy prompt describes only functions the client runs"),
                );
            }
            None => tools.push(encode_tool(i, t, &mut losses)),
        }
    }
    let system = match &x.system {
        Some(s) if s.is_empty() => {
            losses.dropped(
                "/system",
                "empty system prompt",
                "an empty system prompt is no system prompt",
            );
            String::new()
        }
        Some(s) => {
            let (clean, changed) = sanitize(s, true);
            if changed {
                losses.rewritten(
                    "/system",
                    "turn markers or block tags in the system prompt",
                    "they would be read as structure",
                );
            }
            clean
        }
        None => String::new(),
    };

    let types = types_of_tools(&tools);
    let mut ctx = Ctx {
        losses: &mut losses,
        pending: Pending::default(),
        types,
    };
    let mut turns: Vec<Turn> = Vec::new();
    let mut prev: Option<Role> = None;
    for (mi, m) in x.messages.iter().enumerate() {
        ctx.losses
            .foreign_extra(&m.extra, ID, format!("/messages/{mi}"));
        drop_own_message_extra(&m.extra, &format!("/messages/{mi}"), ctx.losses);
        let segs = encode_message(m, mi, &mut ctx);
        let speaker = speaker_of(m.role);
        let last_speaker = turns.last().map(|t| t.speaker);
        // Results follow the calls in the same turn (as `anthropic-tools` injects them), and
        // the model (or person) goes on after them in that turn.
        let continues = match m.role {
            Role::Tool => last_speaker.is_some(),
            _ => prev == Some(Role::Tool) && last_speaker == Some(speaker),
        };
        match turns.last_mut() {
            Some(turn) if continues => {
                if turn.segments.is_empty() && mi > 0 {
                    // An empty message whose turn these results now fill: read back, the turn
                    // is the results alone.
                    ctx.losses.dropped(
                        format!("/messages/{}", mi - 1),
                        "empty message before tool results",
                        "the results continue its turn, which then holds only them",
                    );
                }
                if segs.is_empty() {
                    ctx.losses.dropped(
                        format!("/messages/{mi}"),
                        "empty message after tool results",
                        "it continues the turn and leaves no trace",
                    );
                }
                turn.segments.extend(segs);
            }
            _ => turns.push(Turn {
                speaker,
                segments: segs,
            }),
        }
        prev = Some(m.role);
    }
    let cue = turns.last().is_none_or(|t| t.speaker == Speaker::Human);
    let empty_block = own
        .and_then(|f| f.get(FORM_KEY))
        .and_then(|v| v.get("empty_tools"))
        .is_some_and(|v| v == &Value::Bool(true));
    let prompt = Prompt {
        preamble,
        tools: (!tools.is_empty() || empty_block).then_some(tools),
        system,
        turns,
        cue,
    };
    (prompt, losses.into_vec())
}

/// Turns → messages: text and calls of a turn form one message of its speaker until a
/// `<function_results>` block, which is a tool message of its own.
fn decode_turns(turns: Vec<(Speaker, Vec<Segment>)>, types: &Types) -> Vec<Message> {
    let mut messages: Vec<Message> = Vec::new();
    for (speaker, segments) in turns {
        let role = match speaker {
            Speaker::Human => Role::User,
            Speaker::Assistant => Role::Assistant,
        };
        if segments.is_empty() {
            messages.push(Message::new(role, Vec::new()));
            continue;
        }
        let mut open = false;
        for seg in segments {
            let parts = match seg {
                Segment::Results(outcomes) => {
                    let parts = outcomes.into_iter().map(decode_outcome).collect();
                    messages.push(Message::new(Role::Tool, parts));
                    open = false;
                    continue;
                }
                Segment::Text(t) => vec![Part::text(t)],
                Segment::Calls(invokes) => invokes
                    .into_iter()
                    .map(|inv| Part::ToolCall(decode_invoke(inv, types)))
                    .collect(),
            };
            match messages.last_mut() {
                Some(m) if open => m.parts.extend(parts),
                _ => {
                    messages.push(Message::new(role, parts));
                    open = true;
                }
            }
        }
    }
    messages
}

fn decode_invoke(inv: Invoke, types: &Types) -> ToolCall {
    let declared = types.get(&inv.tool_name);
    let mut args = Map::new();
    for (k, text) in inv.parameters {
        let ty = declared.and_then(|d| d.get(&k)).map(String::as_str);
        args.insert(k, read_value(&text, ty));
    }
    let mut call = ToolCall::new(None, inv.tool_name, Value::Object(args));
    call.extra = children_extra(inv.unknown);
    call
}

fn decode_outcome(o: Outcome) -> Part {
    let mut r = ToolResult::new(None, ResultContent::Text(o.text));
    r.name = o.tool_name;
    r.is_error = o.is_error;
    r.extra = children_extra(o.unknown);
    Part::ToolResult(r)
}

/// Prompt → model.
pub fn decode_request(p: Prompt) -> (Exchange, Vec<Loss>) {
    let had_block = p.tools.is_some();
    let tools = p.tools.unwrap_or_default();
    let types = types_of_tools(&tools);
    let mut x = Exchange {
        system: (!p.system.is_empty()).then_some(p.system),
        tools: tools.into_iter().map(decode_tool).collect(),
        ..Exchange::default()
    };
    let mut form = Map::new();
    if let Some(pre) = p.preamble {
        form.insert("preamble".into(), Value::String(pre));
    }
    if had_block && x.tools.is_empty() {
        form.insert("empty_tools".into(), Value::Bool(true));
    }
    if !form.is_empty() {
        let mut fields = Map::new();
        fields.insert(FORM_KEY.into(), Value::Object(form));
        x.extra.insert(ID.into(), fields);
    }
    let turns = p
        .turns
        .into_iter()
        .map(|t| (t.speaker, t.segments))
        .collect();
    x.messages = decode_turns(turns, &types);
    (x, Vec::new())
}

/// The model's last turn → completion.
pub fn encode_response(x: &Exchange) -> (Completion, Vec<Loss>) {
    let view = x.response_view();
    let mut losses = Losses::new();
    let no_turn = (
        "assistant turn",
        "the exchange does not end with an assistant turn: the completion is empty",
    );
    let why_model = "the completion text does not name the model";
    let Some(m) = crate::formats::shared::response_turn(&view, &mut losses, why_model, no_turn)
    else {
        return (Completion::default(), losses.into_vec());
    };
    match &m.stop_reason {
        None => {
            losses.added(
                "/messages/0/stop_reason",
                "stop reason",
                "derived from the calls (tool use, else end of turn)",
            );
        }
        Some(s) if *s != crate::formats::shared::derived_stop(m) => {
            losses.rewritten(
                "/messages/0/stop_reason",
                format!("stop reason {s:?}"),
                "the completion text carries no stop reason; it is derived from the calls",
            );
        }
        Some(_) => {}
    }
    if m.usage.is_some() {
        losses.dropped(
            "/messages/0/usage",
            "token usage",
            "the completion text carries no usage",
        );
    }
    losses.foreign_extra(&m.extra, ID, "/messages/0");
    drop_own_message_extra(&m.extra, "/messages/0", &mut losses);
    let mut ctx = Ctx {
        losses: &mut losses,
        pending: Pending::default(),
        types: Types::new(),
    };
    let segments = encode_message(m, 0, &mut ctx);
    (Completion { segments }, losses.into_vec())
}

/// Completion → model.
pub fn decode_response(c: Completion) -> (Exchange, Vec<Loss>) {
    let mut messages = decode_turns(vec![(Speaker::Assistant, c.segments)], &Types::new());
    let mut m = match messages.pop() {
        Some(m) if messages.is_empty() => m,
        _ => Message::new(Role::Assistant, Vec::new()),
    };
    m.stop_reason = Some(crate::formats::shared::derived_stop(&m));
    let x = Exchange {
        messages: vec![m],
        ..Exchange::default()
    };
    (x, Vec::new())
}
