//! Model ⇄ Responses API bodies.
//!
//! Private markers: what a pasted document says only through its *form* (a string `input`, a
//! leading `developer` message instead of `instructions`, an array where a string would do, a
//! field the placeholder logic would otherwise add) is remembered under the reserved key
//! [`PRIVATE`] inside this format's `extra` maps. Encoders never emit that key; everything else
//! in `extra["openai-responses"]` is a wire field and is emitted verbatim.

use super::items::{self, Ctx};
use super::wire::{
    Content, ContentPart, CustomToolCall, Field, FunctionCall, FunctionCallOutput, FunctionTool,
    IncompleteDetails, Input, InputImage, InputTokensDetails, Item, MessageItem,
    OutputTokensDetails, Request, Response, ToolChoiceObject, ToolDef, Usage as WireUsage,
};
use crate::formats::field::Keep;
use crate::formats::sniff::Node;
use crate::formats::{DecodeError, Kind};
use crate::model::{
    empty_object_schema, Block, ChoiceMode, Exchange, Extra, IdRule, Loss, Losses, Message, Part,
    ResultContent, Role, StopReason, Tool, ToolCall, ToolChoice, ToolResult, Usage,
};
use serde_json::{Map, Number, Value};

/// Format id.
pub const ID: &str = "openai-responses";

/// Reserved key of this format's `extra` maps holding form markers (never emitted).
pub const PRIVATE: &str = crate::model::FORM_KEY;

/// Placeholder response id, recognised on decode and not stored.
pub const RESPONSE_ID: &str = "resp_toolscope";

const WHY_IDS: &str = "the Responses API pairs function_call_output with function_call by call_id";

fn any_char(_: char) -> bool {
    true
}

/// `call_id`: the API rejects ids longer than 64 characters ("string too long. Expected a
/// string with maximum length 64"); no character set is documented.
pub const CALL_ID_RULE: IdRule = IdRule {
    provider: "OpenAI Responses",
    max_len: 64,
    exact_len: None,
    allowed: any_char,
    pattern: "^.{1,64}$",
};

pub(super) type Obj = Map<String, Value>;

// ---------------------------------------------------------------------------------------------
// extra maps and private markers

/// This format's fields of `extra`, split into wire fields and private markers.
pub(super) fn own_split(extra: &Extra) -> (Obj, Obj) {
    let mut wire = extra.get(ID).cloned().unwrap_or_default();
    let private = match wire.remove(PRIVATE) {
        Some(Value::Object(m)) => m,
        _ => Obj::new(),
    };
    (wire, private)
}

/// An `extra` map holding these wire fields and markers (empty when both are).
pub(super) fn own_join(mut wire: Obj, private: Obj) -> Extra {
    if !private.is_empty() {
        wire.insert(PRIVATE.into(), Value::Object(private));
    }
    let mut extra = Extra::new();
    if !wire.is_empty() {
        extra.insert(ID.into(), wire);
    }
    extra
}

fn listed(private: &Obj, list: &str, name: &str) -> bool {
    private
        .get(list)
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|v| v.as_str() == Some(name)))
}

fn push_listed(private: &mut Obj, list: &str, name: &str) {
    let entry = private
        .entry(list.to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(a) = entry {
        a.push(Value::String(name.into()));
    }
}

fn marker<'a>(private: &'a Obj, key: &str) -> Option<&'a str> {
    private.get(key).and_then(Value::as_str)
}

/// Decode side of a placeholder: drop `key` when it equals what the encoder would emit anyway;
/// remember it in the `list` of absent fields when the document lacks it.
fn strip(fields: &mut Obj, private: &mut Obj, list: &str, key: &str, default: &Value) {
    match fields.get(key) {
        Some(v) if v == default => {
            fields.remove(key);
        }
        None => push_listed(private, list, key),
        Some(_) => {}
    }
}

/// Encode side of a placeholder: the stored value, else nothing when remembered absent, else
/// the placeholder.
fn fill(fields: &mut Obj, private: &Obj, list: &str, key: &str, default: Value) -> Option<Value> {
    match fields.remove(key) {
        Some(v) => Some(v),
        None if listed(private, list, key) => None,
        None => Some(default),
    }
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Take a string-or-null field out of a wire map into a typed slot (other JSON types stay in the
/// map and are emitted verbatim).
fn take_str(fields: &mut Obj, key: &str) -> Field<String> {
    match fields.get(key) {
        Some(Value::String(_)) | Some(Value::Null) => match fields.remove(key) {
            Some(Value::String(s)) => Field::Value(s),
            _ => Field::Null,
        },
        _ => Field::Absent,
    }
}

/// Pointer for a dropped part: the part itself when it is last, else the parts list (the parts
/// after it move up one place).
fn drop_ptr(i: usize, j: usize, len: usize) -> String {
    if j + 1 == len {
        format!("/messages/{i}/parts/{j}")
    } else {
        format!("/messages/{i}/parts")
    }
}

fn message_placeholder(index: usize) -> String {
    format!("msg_toolscope_{index}")
}

fn call_placeholder(call_id: &str) -> String {
    format!("fc_{call_id}")
}

// ---------------------------------------------------------------------------------------------
// numbers

/// Integral values go out as integers (`"temperature": 0`) unless the source spelled them as
/// floats (`1.0`), which is remembered in the `float` list.
fn number_out(v: f64, name: &str, private: &Obj) -> Field<Number> {
    let integral = v.fract() == 0.0 && v.abs() < 1e15;
    if integral && !listed(private, "float", name) {
        Field::Value(Number::from(v as i64))
    } else {
        Number::from_f64(v).map_or(Field::Absent, Field::Value)
    }
}

fn number_in(f: Field<Number>, name: &str, extra: &mut Obj, private: &mut Obj) -> Option<f64> {
    match f {
        Field::Value(n) => {
            let v = n.as_f64()?;
            if n.is_f64() && v.fract() == 0.0 {
                push_listed(private, "float", name);
            }
            Some(v)
        }
        Field::Null => {
            extra.insert(name.into(), Value::Null);
            None
        }
        Field::Absent => None,
    }
}

// ---------------------------------------------------------------------------------------------
// ids

fn prepare_ids<'x>(x: &'x Exchange, losses: &mut Losses) -> std::borrow::Cow<'x, Exchange> {
    // Borrowed when nothing changes (the common case): no copy of the exchange.
    let (x, settled) = crate::model::settle_ids(x, WHY_IDS, Some(&CALL_ID_RULE));
    losses.extend(settled);
    x
}

// ---------------------------------------------------------------------------------------------
// request: encode

/// Model → request body.
pub fn encode_request(x: &Exchange) -> (Request, Vec<Loss>) {
    let mut losses = Losses::new();
    let x = prepare_ids(x, &mut losses);
    let adopted = crate::formats::shared::adopt_common(&x.extra, ID, &mut losses);
    losses.foreign_extra(&adopted, ID, "");
    let (mut extra, private) = own_split(&adopted);
    let mut doc = Request::default();

    if x.options.model.is_some() || x.options.models.contains_key("openai") {
        doc.model = Field::Value(model_out(
            &x,
            &private,
            "the model set for OpenAI",
            &mut losses,
        ));
    }
    let ctx = Ctx::new(&x, doc.model.value().map(String::as_str));
    encode_reasoning_options(&x, &mut extra, &private, &mut losses);
    if let Some(n) = x.options.max_tokens {
        doc.max_output_tokens = Field::Value(n);
    }
    if let Some(t) = x.options.temperature {
        doc.temperature = number_out(t, "temperature", &private);
    }
    if let Some(p) = x.options.top_p {
        doc.top_p = number_out(p, "top_p", &private);
    }
    if !x.options.stop.is_empty() {
        losses.dropped(
            "/options/stop",
            "stop sequences",
            "the Responses API has no stop sequences",
        );
    }
    if let Some(p) = x.parallel_tool_calls {
        doc.parallel_tool_calls = Field::Value(p);
    }

    let tools = encode_tools(&x.tools, &private, &mut losses);
    if !tools.is_empty() {
        doc.tools = Field::Value(tools);
    }
    if let Some(tc) = &x.tool_choice {
        doc.tool_choice = Field::Value(encode_tool_choice(tc, &private, &ctx, &mut losses));
    }

    let mut items = Vec::new();
    match (&x.system, private.get("system")) {
        (Some(s), Some(Value::Object(sys))) => items.push(system_item(s, sys)),
        (Some(s), _) => doc.instructions = Field::Value(s.clone()),
        (None, Some(_)) => {
            losses.rewritten(
                "/extra",
                "leading system message form",
                "there is no system prompt to send as a message",
            );
        }
        (None, None) => {}
    }
    let first_is_free =
        items.is_empty() && doc.instructions.is_absent() && !extra.contains_key("instructions");
    encode_messages(&x.messages, first_is_free, &ctx, &mut items, &mut losses);

    let string_input = match items.as_slice() {
        [Item::Message(MessageItem {
            extra: f,
            role,
            content: Content::Text(t),
        })] if role == "user" && f.is_empty() => Some(t.clone()),
        _ => None,
    };
    match (marker(&private, "input"), string_input) {
        (Some("string"), Some(t)) => doc.input = Field::Value(Input::Text(t)),
        (Some(_), _) => {
            losses.rewritten(
                "/extra",
                "input sent as a list of items",
                "a string input holds exactly one user text",
            );
            doc.input = Field::Value(Input::Items(items));
        }
        (None, _) if !items.is_empty() => doc.input = Field::Value(Input::Items(items)),
        (None, _) => {}
    }

    // Typed fields win over stored ones of the same name (no duplicate keys).
    let set = [
        ("model", !doc.model.is_absent()),
        ("instructions", !doc.instructions.is_absent()),
        ("input", !doc.input.is_absent()),
        ("tools", !doc.tools.is_absent()),
        ("tool_choice", !doc.tool_choice.is_absent()),
        ("parallel_tool_calls", !doc.parallel_tool_calls.is_absent()),
        ("max_output_tokens", !doc.max_output_tokens.is_absent()),
        ("temperature", !doc.temperature.is_absent()),
        ("top_p", !doc.top_p.is_absent()),
    ];
    for (key, is_set) in set {
        if is_set {
            extra.remove(key);
        }
    }
    doc.extra = extra;
    (doc, losses.into_vec())
}

/// The model a document names: the exchange's own model when it was read from a Responses
/// document (a DeepSeek or xAI model on its Responses-compatible endpoint, an Ollama model on
/// Ollama's, keep their names: a document's own format is sacred), else the model chosen for
/// OpenAI.
fn model_out(x: &Exchange, private: &Obj, why: &str, losses: &mut Losses) -> String {
    if let (Some(m), Some(own)) = (&x.options.model, marker(private, "model")) {
        if m == own && !x.options.models.contains_key("openai") {
            return m.clone();
        }
    }
    crate::model::encoder_model(
        x,
        crate::model::ModelFamily::OpenAi,
        "/model",
        "model",
        why,
        losses,
    )
}

/// Decode side of [`model_out`]: a model OpenAI's family would not take is remembered as the
/// document's own.
fn remember_model(m: &str, private: &mut Obj) {
    if !crate::model::ModelFamily::OpenAi.accepts(m) {
        private.insert("model".into(), Value::from(m));
    }
}

/// The encrypted reasoning content asked for by `include`.
const INCLUDE_ENCRYPTED: &str = "reasoning.encrypted_content";

/// `reasoning: {effort, summary}` and `include: ["reasoning.encrypted_content"]` from the
/// canonical reasoning options, merged into the stored fields of those objects.
fn encode_reasoning_options(x: &Exchange, extra: &mut Obj, private: &Obj, losses: &mut Losses) {
    let r = &x.options.reasoning;
    if r.effort.is_some() || r.summary.is_some() {
        let mut obj = match extra.remove("reasoning") {
            Some(Value::Object(m)) => m,
            _ => Obj::new(),
        };
        let mut out = Obj::new();
        if let Some(e) = &r.effort {
            obj.remove("effort");
            out.insert("effort".into(), Value::from(e.clone()));
        }
        if let Some(s) = &r.summary {
            obj.remove("summary");
            out.insert("summary".into(), Value::from(s.clone()));
        }
        out.extend(obj);
        extra.insert("reasoning".into(), Value::Object(out));
    }
    if let Some(b) = r.budget {
        losses.dropped(
            "/options/reasoning/budget",
            format!("thinking budget {b}"),
            "the Responses API takes an effort (reasoning.effort), not a token budget",
        );
    }
    if let Some(on) = r.enabled {
        losses.dropped(
            "/options/reasoning/enabled",
            format!("thinking {}", if on { "on" } else { "off" }),
            "the Responses API has no thinking switch: a reasoning model always reasons, at \
             the effort reasoning.effort names",
        );
    }
    if r.include_encrypted == Some(true) {
        let mut list = match extra.remove("include") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        };
        if !list.iter().any(|v| v.as_str() == Some(INCLUDE_ENCRYPTED)) {
            let at = private
                .get("include_at")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(list.len())
                .min(list.len());
            list.insert(at, Value::from(INCLUDE_ENCRYPTED));
        }
        extra.insert("include".into(), Value::Array(list));
    }
}

/// Decode side of [`encode_reasoning_options`].
fn decode_reasoning_options(x: &mut Exchange, extra: &mut Obj, private: &mut Obj) {
    if let Some(Value::Object(obj)) = extra.get_mut("reasoning") {
        if let Some(Value::String(e)) = obj.get("effort") {
            x.options.reasoning.effort = Some(e.clone());
            obj.remove("effort");
        }
        if let Some(Value::String(s)) = obj.get("summary") {
            x.options.reasoning.summary = Some(s.clone());
            obj.remove("summary");
        }
        if obj.is_empty() && !x.options.reasoning.is_empty() {
            extra.remove("reasoning");
        }
    }
    if let Some(Value::Array(list)) = extra.get_mut("include") {
        if let Some(k) = list
            .iter()
            .position(|v| v.as_str() == Some(INCLUDE_ENCRYPTED))
        {
            list.remove(k);
            x.options.reasoning.include_encrypted = Some(true);
            if k != list.len() {
                private.insert("include_at".into(), Value::from(k));
            }
            if list.is_empty() {
                extra.remove("include");
            }
        }
    }
}

fn system_item(text: &str, sys: &Obj) -> Item {
    let role = sys
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or("developer")
        .to_string();
    let mut f = match sys.get("item") {
        Some(Value::Object(m)) => m.clone(),
        _ => Obj::new(),
    };
    f.remove("role");
    f.remove("content");
    let content = if sys.get("content").and_then(Value::as_str) == Some("array") {
        Content::Parts(vec![input_text(text, Obj::new())])
    } else {
        Content::Text(text.to_string())
    };
    Item::Message(MessageItem {
        extra: f,
        role,
        content,
    })
}

fn input_text(text: &str, extra: Obj) -> ContentPart {
    ContentPart::Text {
        kind: "input_text".into(),
        text: text.to_string(),
        extra,
    }
}

fn encode_tools(tools: &[Tool], private: &Obj, losses: &mut Losses) -> Vec<ToolDef> {
    let mut out: Vec<ToolDef> = Vec::with_capacity(tools.len());
    for (k, t) in tools.iter().enumerate() {
        if t.hosted.is_some() || t.custom.is_some() {
            if let Some(v) = items::encode_tool_def(k, t, losses) {
                out.push(ToolDef::Other(v));
            }
        } else {
            out.push(ToolDef::Function(encode_tool(k, t, losses)));
        }
    }
    // Built-in tools of a link made before they were canonical go back where they were.
    if let Some(Value::Array(list)) = private.get("tools") {
        for entry in list {
            let index = entry
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(u64::MAX);
            if let Some(tool) = entry.get("tool") {
                let at = usize::try_from(index).unwrap_or(usize::MAX).min(out.len());
                out.insert(at, ToolDef::Other(tool.clone()));
            }
        }
    }
    out
}

fn encode_tool(k: usize, t: &Tool, losses: &mut Losses) -> FunctionTool {
    let ptr = format!("/tools/{k}");
    losses.foreign_extra(&t.extra, ID, &ptr);
    let (mut extra, private) = own_split(&t.extra);
    let parameters =
        if listed(&private, "absent", "parameters") && t.input_schema == empty_object_schema() {
            Field::Absent
        } else if t.input_schema.is_null() {
            Field::Null
        } else {
            Field::Value(t.input_schema.clone())
        };
    let strict = match t.strict {
        Some(b) => Field::Value(b),
        None if listed(&private, "absent", "strict") => Field::Absent,
        // The SDK requires the key; null leaves the API's default (strict) in place.
        None => Field::Null,
    };
    if t.annotations.is_some() {
        losses.dropped(
            format!("{ptr}/annotations"),
            "tool annotations",
            "Responses function tools have no annotations",
        );
    }
    let description = t.description.clone().map_or(Field::Absent, Field::Value);
    let output_schema = t.output_schema.clone().map_or(Field::Absent, Field::Value);
    for key in ["type", "name", "parameters", "strict"] {
        extra.remove(key);
    }
    if !description.is_absent() {
        extra.remove("description");
    }
    if !output_schema.is_absent() {
        extra.remove("output_schema");
    }
    FunctionTool {
        kind: "function".into(),
        name: t.name.clone(),
        description,
        parameters,
        strict,
        output_schema,
        extra,
    }
}

fn encode_tool_choice(tc: &ToolChoice, private: &Obj, ctx: &Ctx, losses: &mut Losses) -> Value {
    let mode = match tc.mode {
        ChoiceMode::Auto => "auto",
        ChoiceMode::None => "none",
        ChoiceMode::Required => "required",
        ChoiceMode::Validated => {
            losses.rewritten(
                "/tool_choice/mode",
                "tool_choice validated sent as auto",
                "the Responses API has no validated mode (strict tools constrain calls instead)",
            );
            "auto"
        }
    };
    if tc.tools.is_empty() {
        return Value::String(mode.into());
    }
    if mode == "none" {
        losses.dropped(
            "/tool_choice/tools",
            "tool restriction of tool_choice none",
            "allowed_tools has only the modes auto and required",
        );
        return Value::String(mode.into());
    }
    // A custom tool is chosen as `{type: "custom", name}`.
    let function = |name: &str| ToolChoiceObject {
        kind: if ctx.custom_tools.iter().any(|n| n == name) {
            "custom"
        } else {
            "function"
        }
        .into(),
        mode: None,
        name: Some(name.to_string()),
        tools: None,
    };
    let as_allowed = marker(private, "tool_choice") == Some("allowed_tools");
    match tc.tools.as_slice() {
        [one] if mode == "required" && !as_allowed => to_value(&function(one)),
        names => to_value(&ToolChoiceObject {
            kind: "allowed_tools".into(),
            mode: Some(mode.into()),
            name: None,
            tools: Some(names.iter().map(|n| function(n)).collect()),
        }),
    }
}

/// Which run of items a canonical message becomes; runs of the same kind read back as one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    User,
    Assistant,
    Tool,
}

fn encode_messages(
    msgs: &[Message],
    first_is_free: bool,
    ctx: &Ctx,
    items: &mut Vec<Item>,
    losses: &mut Losses,
) {
    let mut last: Option<Group> = None;
    for (i, m) in msgs.iter().enumerate() {
        let mp = format!("/messages/{i}");
        losses.foreign_extra(&m.extra, ID, &mp);
        // stop_reason and usage of past turns are response data (`Exchange::request_view`).
        let before = items.len();
        let group = match m.role {
            Role::User => {
                encode_user(i, m, first_is_free && items.is_empty(), items, losses);
                Group::User
            }
            Role::Assistant => {
                drop_own_message_extra(&mp, m, losses);
                encode_assistant(i, &m.parts, Kind::Request, ctx, items, losses);
                Group::Assistant
            }
            Role::Tool => {
                drop_own_message_extra(&mp, m, losses);
                encode_tool_turn(i, m, ctx, items, losses);
                Group::Tool
            }
        };
        if items.len() == before {
            losses.dropped(
                "/messages",
                format!("empty turn {i}"),
                "a turn without content leaves no item in input",
            );
            continue;
        }
        if group != Group::User && last == Some(group) {
            losses.rewritten(
                "/messages",
                format!("turn {i} joined to the turn before"),
                "consecutive assistant (or tool) items read back as one turn",
            );
        }
        last = Some(group);
    }
}

fn drop_own_message_extra(mp: &str, m: &Message, losses: &mut Losses) {
    if m.extra.get(ID).is_some_and(|e| !e.is_empty()) {
        losses.dropped(
            format!("{mp}/extra"),
            "response-level fields of an earlier turn",
            "input items have no place for them",
        );
    }
}

fn encode_user(i: usize, m: &Message, first: bool, items: &mut Vec<Item>, losses: &mut Losses) {
    let mp = format!("/messages/{i}");
    let (mut f, private) = own_split(&m.extra);
    let mut role = match marker(&private, "role") {
        Some(r @ ("system" | "developer")) => r.to_string(),
        _ => "user".to_string(),
    };
    if role != "user" && first {
        losses.rewritten(
            format!("{mp}/extra"),
            format!("{role} message sent as a user message"),
            "a leading system or developer message reads back as the system prompt",
        );
        role = "user".into();
    }
    let n = m.parts.len();
    let mut parts = Vec::new();
    for (j, p) in m.parts.iter().enumerate() {
        let pp = format!("{mp}/parts/{j}");
        match p {
            Part::Text { text, extra } => {
                losses.foreign_extra(extra, ID, &pp);
                let (w, _) = own_split(extra);
                parts.push(input_text(text, w));
            }
            Part::Raw { format, value } if format == ID => {
                parts.push(ContentPart::from_value(value.clone()))
            }
            other => drop_part(
                i,
                j,
                n,
                other,
                "a user message holds text and content parts only",
                losses,
            ),
        }
    }
    let plain = matches!(parts.as_slice(), [ContentPart::Text { extra, .. }] if extra.is_empty());
    let array = marker(&private, "content") == Some("array");
    if array && !plain {
        losses.rewritten(
            format!("{mp}/extra"),
            "content array form",
            "only a single plain text needs the marker",
        );
    }
    let content = match parts.as_slice() {
        [ContentPart::Text { text, .. }] if plain && !array => Content::Text(text.clone()),
        _ => Content::Parts(parts),
    };
    f.remove("role");
    f.remove("content");
    items.push(Item::Message(MessageItem {
        extra: f,
        role,
        content,
    }));
}

fn drop_part(i: usize, j: usize, n: usize, p: &Part, why: &str, losses: &mut Losses) {
    let what = match p {
        Part::Reasoning(r) => {
            crate::formats::shared::drop_reasoning(r, drop_ptr(i, j, n), "this message", losses);
            return;
        }
        Part::Hosted(h) => {
            crate::formats::shared::drop_hosted(h, drop_ptr(i, j, n), losses);
            return;
        }
        Part::Text { .. } => "text".to_string(),
        Part::ToolCall(c) => format!("tool call {}", c.name),
        Part::ToolResult(_) => "tool result".to_string(),
        Part::Raw { format, value } => crate::model::media_label(format, value),
    };
    let why = match p {
        Part::Raw { format, value } => {
            crate::model::raw_why(format, value, format!("only {format} has this block"))
        }
        _ => why.to_string(),
    };
    losses.dropped(drop_ptr(i, j, n), what, why);
}

/// Pushes an assistant message item; returns its index.
fn push_assistant(items: &mut Vec<Item>, extra: Obj, content: Content) -> usize {
    items.push(Item::Message(MessageItem {
        extra,
        role: "assistant".into(),
        content,
    }));
    items.len() - 1
}

/// Reports the `output_text` fields of a text sent as string content (`why` they have no
/// place).
fn drop_output_text_fields(pp: &str, why: &str, losses: &mut Losses) {
    losses.dropped(format!("{pp}/extra"), "output_text fields", why);
}

/// The assistant's parts as output items: text runs as message items (easy string items in
/// requests when nothing says otherwise), calls as function_call items, own raw items verbatim.
fn encode_assistant(
    i: usize,
    parts: &[Part],
    kind: Kind,
    ctx: &Ctx,
    items: &mut Vec<Item>,
    losses: &mut Losses,
) {
    let mp = format!("/messages/{i}");
    let n = parts.len();
    // Index of the open array-form message item the next plain text joins.
    let mut open: Option<usize> = None;
    for (j, p) in parts.iter().enumerate() {
        let pp = format!("{mp}/parts/{j}");
        match p {
            Part::Text { text, extra } => {
                losses.foreign_extra(extra, ID, &pp);
                let (w, mut pv) = own_split(extra);
                let fields = output_text_fields(w.clone(), &pv);
                let part = ContentPart::Text {
                    kind: "output_text".into(),
                    text: text.clone(),
                    extra: fields,
                };
                match pv.remove("item") {
                    Some(Value::Object(mut f)) => {
                        open = None;
                        f.remove("role");
                        f.remove("content");
                        drop_unreadable(&mut f, &pp, losses);
                        if marker(&pv, "content") == Some("string") {
                            if !w.is_empty() {
                                drop_output_text_fields(
                                    &pp,
                                    "a message with string content has no content parts",
                                    losses,
                                );
                            }
                            push_assistant(items, f, Content::Text(text.clone()));
                        } else {
                            let f = item_defaults(f, &pv, kind, items.len());
                            open = Some(push_assistant(items, f, Content::Parts(vec![part])));
                        }
                    }
                    _ => {
                        if let Some(Item::Message(MessageItem {
                            content: Content::Parts(ps),
                            ..
                        })) = open.and_then(|k| items.get_mut(k))
                        {
                            ps.push(part);
                        } else if kind == Kind::Request {
                            if !w.is_empty() {
                                drop_output_text_fields(
                                    &pp,
                                    "an assistant text item without id has string content",
                                    losses,
                                );
                            }
                            push_assistant(items, Obj::new(), Content::Text(text.clone()));
                        } else {
                            let f = item_defaults(Obj::new(), &Obj::new(), kind, items.len());
                            open = Some(push_assistant(items, f, Content::Parts(vec![part])));
                        }
                    }
                }
            }
            Part::ToolCall(c) if ctx.is_custom_call(c) => {
                open = None;
                items.push(Item::CustomToolCall(encode_custom_call(
                    &pp, c, kind, losses,
                )));
            }
            Part::ToolCall(c) => {
                open = None;
                items.push(Item::FunctionCall(encode_call(&pp, c, kind, losses)));
            }
            Part::Raw { format, value } if format == ID => {
                open = None;
                items.push(Item::from_value(value.clone()));
            }
            Part::Reasoning(r) => {
                open = None;
                let at = drop_ptr(i, j, n);
                let index = items.len();
                if let Some(v) = items::encode_reasoning(r, &pp, &at, kind, index, ctx, losses) {
                    items.push(Item::Other(v));
                }
            }
            Part::Hosted(h) => {
                open = None;
                if let Some(v) = items::encode_hosted(h, &drop_ptr(i, j, n), kind, ctx, losses) {
                    items.push(Item::from_value(v));
                }
            }
            other => drop_part(
                i,
                j,
                n,
                other,
                "an assistant turn holds text, calls and items only",
                losses,
            ),
        }
    }
}

/// `output_text` fields: `annotations` first (required; `[]` unless stored), then the rest.
fn output_text_fields(mut w: Obj, pv: &Obj) -> Obj {
    let mut out = Obj::new();
    if let Some(a) = fill(
        &mut w,
        pv,
        "part_absent",
        "annotations",
        Value::Array(Vec::new()),
    ) {
        out.insert("annotations".into(), a);
    }
    out.extend(w);
    out
}

/// Kept item fields the wire reads as strings (`id`, `status`, …) but that hold something
/// else would make the document unreadable (found by the round-trip property: a message's
/// `"id": false`): they are dropped and reported.
fn drop_unreadable(f: &mut Obj, pointer: &str, losses: &mut Losses) {
    for key in ["type", "id", "status", "role", "call_id", "name"] {
        if f.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            if let Some(v) = f.remove(key) {
                losses.dropped(
                    format!("{pointer}/extra"),
                    format!("kept item field {key} = {v}"),
                    "the item reads this field as a string",
                );
            }
        }
    }
}

/// Item-level fields of an array-form assistant message: `type`, `id` (responses) and `status`
/// are required by the SDK, so placeholders fill what is not stored. Requests get no invented
/// id; a stored one still goes in its usual place.
fn item_defaults(mut f: Obj, pv: &Obj, kind: Kind, index: usize) -> Obj {
    let mut out = Obj::new();
    for (key, default) in message_defaults(kind, index) {
        let value = match default {
            Some(d) => fill(&mut f, pv, "item_absent", key, d),
            None => f.remove(key),
        };
        if let Some(v) = value {
            out.insert(key.into(), v);
        }
    }
    out.extend(f);
    out
}

fn message_defaults(kind: Kind, index: usize) -> [(&'static str, Option<Value>); 3] {
    let id = (kind == Kind::Response).then(|| Value::from(message_placeholder(index)));
    [
        ("type", Some(Value::from("message"))),
        ("id", id),
        ("status", Some(Value::from("completed"))),
    ]
}

/// The item fields of a call read back from its `extra`: `id` and `status` (with the
/// placeholders a response item needs), its call id, and the other fields without the ones the
/// encoder writes itself (`written`).
struct CallItem {
    id: Field<String>,
    status: Field<String>,
    call_id: String,
    rest: Obj,
}

/// [`CallItem`] of a call; an `id` that does not start with `prefix` is dropped with `why`.
fn call_item(
    pp: &str,
    c: &ToolCall,
    kind: Kind,
    (prefix, why): (&str, &str),
    placeholder: fn(&str) -> String,
    written: [&str; 4],
    losses: &mut Losses,
) -> CallItem {
    losses.foreign_extra(&c.extra, ID, pp);
    let (mut w, pv) = own_split(&c.extra);
    drop_unreadable(&mut w, pp, losses);
    let mut id = take_str(&mut w, "id");
    if let Field::Value(s) = &id {
        if !s.starts_with(prefix) {
            losses.dropped(format!("{pp}/extra"), format!("item id {s:?}"), why);
            id = Field::Absent;
        }
    }
    let mut status = take_str(&mut w, "status");
    let call_id = c.id.clone().unwrap_or_default();
    if kind == Kind::Response {
        if id.is_absent() && !listed(&pv, "absent", "id") {
            id = Field::Value(placeholder(&call_id));
        }
        if status.is_absent() && !listed(&pv, "absent", "status") {
            status = Field::Value("completed".into());
        }
    }
    for key in written {
        w.remove(key);
    }
    CallItem {
        id,
        status,
        call_id,
        rest: w,
    }
}

fn encode_call(pp: &str, c: &ToolCall, kind: Kind, losses: &mut Losses) -> FunctionCall {
    let why = "function_call item ids must begin with \"fc\" (the pairing id is call_id)";
    let written = ["type", "call_id", "name", "arguments"];
    let item = call_item(pp, c, kind, ("fc", why), call_placeholder, written, losses);
    FunctionCall {
        kind: "function_call".into(),
        id: item.id,
        call_id: Field::Value(item.call_id),
        name: c.name.clone(),
        arguments: c.arguments_text(),
        status: item.status,
        extra: item.rest,
    }
}

/// A call of a custom tool: its input is the text of the canonical `{"input": <text>}`.
fn encode_custom_call(pp: &str, c: &ToolCall, kind: Kind, losses: &mut Losses) -> CustomToolCall {
    // Any id is taken: the empty prefix matches every one.
    let written = ["type", "call_id", "name", "input"];
    let item = call_item(pp, c, kind, ("", ""), custom_placeholder, written, losses);
    let input = match c.arguments.as_object() {
        Some(o) if o.len() == 1 && c.arguments_raw.is_none() => {
            o.get("input").and_then(Value::as_str).map(str::to_string)
        }
        _ => None,
    };
    let input = input.unwrap_or_else(|| {
        losses.rewritten(
            format!("{pp}/arguments"),
            "arguments sent as the custom tool's input text",
            "a custom tool call's input is one text ({\"input\": <text>} in the model)",
        );
        c.arguments_text()
    });
    CustomToolCall {
        kind: "custom_tool_call".into(),
        id: item.id,
        call_id: item.call_id,
        name: c.name.clone(),
        input,
        status: item.status,
        extra: item.rest,
    }
}

/// Decode side of [`encode_custom_call`].
fn decode_custom_call(f: CustomToolCall, kind: Kind) -> ToolCall {
    let mut c = ToolCall::new(
        Some(f.call_id.clone()),
        f.name,
        serde_json::json!({ "input": f.input }),
    );
    let mut w = Obj::new();
    Keep(&mut w).field("id", &f.id);
    Keep(&mut w).field("status", &f.status);
    w.extend(f.extra);
    let mut pv = Obj::new();
    if kind == Kind::Response {
        let placeholder = custom_placeholder(&f.call_id);
        strip(&mut w, &mut pv, "absent", "id", &Value::from(placeholder));
        strip(
            &mut w,
            &mut pv,
            "absent",
            "status",
            &Value::from("completed"),
        );
    }
    pv.insert(items::CUSTOM.into(), Value::Bool(true));
    c.extra = own_join(w, pv);
    c
}

fn custom_placeholder(call_id: &str) -> String {
    format!("ctc_{call_id}")
}

fn encode_tool_turn(i: usize, m: &Message, ctx: &Ctx, items: &mut Vec<Item>, losses: &mut Losses) {
    let n = m.parts.len();
    for (j, p) in m.parts.iter().enumerate() {
        match p {
            Part::ToolResult(r) => {
                let pp = format!("/messages/{i}/parts/{j}");
                let mut o = encode_result(&pp, r, losses);
                if ctx.is_custom_result(r) {
                    o.kind = "custom_tool_call_output".into();
                    if let Field::Value(name) = std::mem::take(&mut o.name) {
                        losses.dropped(
                            format!("{pp}/name"),
                            format!("tool name {name}"),
                            "custom_tool_call_output pairs by call_id and names no tool",
                        );
                    }
                }
                items.push(Item::FunctionCallOutput(o));
            }
            other => drop_part(i, j, n, other, "a tool turn holds results only", losses),
        }
    }
}

fn encode_result(pp: &str, r: &ToolResult, losses: &mut Losses) -> FunctionCallOutput {
    losses.foreign_extra(&r.extra, ID, pp);
    let (mut w, _) = own_split(&r.extra);
    drop_unreadable(&mut w, pp, losses);
    let id = take_str(&mut w, "id");
    let status = take_str(&mut w, "status");
    let call_id = r.call_id.clone().map_or(Field::Absent, Field::Value);
    let name = r.name.clone().map_or(Field::Absent, Field::Value);
    let fold = |t: &str| {
        if r.is_error {
            format!("Error: {t}")
        } else {
            t.to_string()
        }
    };
    let output = match &r.content {
        ResultContent::Text(t) => Content::Text(fold(t)),
        ResultContent::Json(v) => {
            losses.rewritten(
                format!("{pp}/content"),
                "JSON result sent as text",
                "function_call_output takes a string or content parts",
            );
            Content::Text(fold(&serde_json::to_string(v).unwrap_or_default()))
        }
        ResultContent::Blocks(blocks) => {
            let mut parts = Vec::new();
            for b in blocks {
                match b {
                    Block::Text { text } => parts.push(input_text(text, Obj::new())),
                    Block::Image { media_type, data } => {
                        parts.push(ContentPart::Other(to_value(&InputImage {
                            kind: "input_image".into(),
                            image_url: format!("data:{media_type};base64,{data}"),
                        })))
                    }
                    Block::Raw { format, value } if format == ID => {
                        parts.push(ContentPart::from_value(value.clone()))
                    }
                    Block::Raw { format, value } => {
                        losses.dropped(
                            format!("{pp}/content"),
                            format!(
                                "{} in a tool result",
                                crate::model::media_label(format, value)
                            ),
                            crate::model::raw_why(
                                format,
                                value,
                                format!("only {format} has this block"),
                            ),
                        );
                    }
                }
            }
            if r.is_error {
                match parts.iter_mut().find_map(|p| match p {
                    ContentPart::Text { text, .. } => Some(text),
                    _ => None,
                }) {
                    Some(text) => *text = format!("Error: {text}"),
                    None => parts.insert(0, input_text("Error", Obj::new())),
                }
            }
            Content::Parts(parts)
        }
    };
    if r.is_error {
        losses.rewritten(
            pp,
            "error flag folded into the output as \"Error: …\"",
            "function_call_output has no error flag",
        );
    }
    for key in ["type", "call_id", "output"] {
        w.remove(key);
    }
    if !name.is_absent() {
        w.remove("name");
    }
    FunctionCallOutput {
        kind: "function_call_output".into(),
        id,
        call_id,
        name,
        output,
        status,
        extra: w,
    }
}

// ---------------------------------------------------------------------------------------------
// request: decode

/// Request body → model.
pub fn decode_request(doc: Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut losses = Losses::new();
    let mut x = Exchange::default();
    let mut extra = doc.extra;
    let mut private = Obj::new();

    match doc.model {
        Field::Value(m) => {
            remember_model(&m, &mut private);
            x.options.model = Some(m);
        }
        Field::Null => {
            extra.insert("model".into(), Value::Null);
        }
        Field::Absent => {}
    }
    let model = x.options.model.clone();
    let issuer = items::issuer(model.as_deref());
    decode_reasoning_options(&mut x, &mut extra, &mut private);
    let instructions_absent = doc.instructions.is_absent();
    match doc.instructions {
        Field::Value(s) => x.system = Some(s),
        Field::Null => {
            extra.insert("instructions".into(), Value::Null);
        }
        Field::Absent => {}
    }
    Keep(&mut extra).null("max_output_tokens", &doc.max_output_tokens);
    x.options.max_tokens = doc.max_output_tokens.into_value();
    x.options.temperature = number_in(doc.temperature, "temperature", &mut extra, &mut private);
    x.options.top_p = number_in(doc.top_p, "top_p", &mut extra, &mut private);
    Keep(&mut extra).null("parallel_tool_calls", &doc.parallel_tool_calls);
    x.parallel_tool_calls = doc.parallel_tool_calls.into_value();

    match doc.tools {
        Field::Value(tools) if tools.is_empty() => {
            extra.insert("tools".into(), Value::Array(Vec::new()));
        }
        Field::Value(tools) => {
            for (k, t) in tools.into_iter().enumerate() {
                match t {
                    ToolDef::Function(f) => x.tools.push(decode_tool(f)),
                    ToolDef::Other(v) => x.tools.push(items::decode_tool_def(v, issuer)),
                    ToolDef::Invalid {
                        pointer, message, ..
                    } => return Err(DecodeError::at(ID, format!("/tools/{k}{pointer}"), message)),
                }
            }
        }
        Field::Null => {
            extra.insert("tools".into(), Value::Null);
        }
        Field::Absent => {}
    }

    match doc.tool_choice {
        Field::Value(v) => match decode_tool_choice(&v).filter(|c| chosen_back(c, &x, &v)) {
            Some((tc, allowed)) => {
                x.tool_choice = Some(tc);
                if allowed {
                    private.insert("tool_choice".into(), Value::from("allowed_tools"));
                }
            }
            None => {
                extra.insert("tool_choice".into(), v);
            }
        },
        Field::Null => {
            extra.insert("tool_choice".into(), Value::Null);
        }
        Field::Absent => {}
    }

    match doc.input {
        Field::Value(Input::Text(s)) => {
            x.messages
                .push(Message::new(Role::User, vec![Part::text(s)]));
            private.insert("input".into(), Value::from("string"));
        }
        Field::Value(Input::Items(items)) if items.is_empty() => {
            extra.insert("input".into(), Value::Array(Vec::new()));
        }
        Field::Value(Input::Items(items)) => {
            decode_items(
                items,
                instructions_absent,
                (issuer, model.as_deref()),
                &mut x,
                &mut private,
                &mut losses,
            )?;
        }
        Field::Null => {
            extra.insert("input".into(), Value::Null);
        }
        Field::Absent => {}
    }

    x.extra = own_join(extra, private);
    Ok((x, losses.into_vec()))
}

fn decode_tool(f: FunctionTool) -> Tool {
    let mut extra = f.extra;
    let mut private = Obj::new();
    Keep(&mut extra).null("description", &f.description);
    Keep(&mut extra).null("output_schema", &f.output_schema);
    let input_schema = match f.parameters {
        Field::Value(v) => v,
        Field::Null => Value::Null,
        Field::Absent => {
            push_listed(&mut private, "absent", "parameters");
            empty_object_schema()
        }
    };
    if f.strict.is_absent() {
        push_listed(&mut private, "absent", "strict");
    }
    Tool {
        name: f.name,
        description: f.description.into_value(),
        input_schema,
        strict: f.strict.into_value(),
        output_schema: f.output_schema.into_value(),
        annotations: None,
        hosted: None,
        custom: None,
        extra: own_join(extra, private),
    }
}

/// Whether the decoded choice `c` encodes back to `v`: a name chosen as `custom` must be a
/// custom tool and the reverse (else the choice stays verbatim).
fn chosen_back(c: &(ToolChoice, bool), x: &Exchange, v: &Value) -> bool {
    let ctx = Ctx {
        target: "openai",
        custom_tools: x
            .tools
            .iter()
            .filter(|t| t.custom.is_some())
            .map(|t| t.name.clone())
            .collect(),
        custom_calls: Vec::new(),
    };
    let mut pv = Obj::new();
    if c.1 {
        pv.insert("tool_choice".into(), Value::from("allowed_tools"));
    }
    encode_tool_choice(&c.0, &pv, &ctx, &mut Losses::new()) == *v
}

/// The canonical choice, and whether a single forced tool was spelled as `allowed_tools`;
/// `None` for choices the model has no place for (built-in tools, MCP, custom…).
fn decode_tool_choice(v: &Value) -> Option<(ToolChoice, bool)> {
    if let Some(s) = v.as_str() {
        let mode = match s {
            "auto" => ChoiceMode::Auto,
            "none" => ChoiceMode::None,
            "required" => ChoiceMode::Required,
            _ => return None,
        };
        return Some((ToolChoice::mode(mode), false));
    }
    let obj: ToolChoiceObject = serde_json::from_value(v.clone()).ok()?;
    // Only exactly the shapes the encoder writes: anything more stays verbatim.
    if &to_value(&obj) != v {
        return None;
    }
    match (obj.kind.as_str(), obj.mode.as_deref(), obj.name, obj.tools) {
        ("function" | "custom", None, Some(name), None) => Some((ToolChoice::force(name), false)),
        ("allowed_tools", Some(mode @ ("auto" | "required")), None, Some(tools)) => {
            let mut names = Vec::new();
            for t in tools {
                match (t.kind.as_str(), t.name, t.mode, t.tools) {
                    ("function" | "custom", Some(name), None, None) => names.push(name),
                    _ => return None,
                }
            }
            if names.is_empty() {
                return None;
            }
            let mode = if mode == "auto" {
                ChoiceMode::Auto
            } else {
                ChoiceMode::Required
            };
            let allowed = mode == ChoiceMode::Required && names.len() == 1;
            Some((ToolChoice { mode, tools: names }, allowed))
        }
        _ => None,
    }
}

/// The text of a system/developer message that can be the system prompt, and whether it was a
/// one-part array.
fn simple_text(c: &Content) -> Option<(String, bool)> {
    match c {
        Content::Text(s) => Some((s.clone(), false)),
        Content::Parts(ps) => match ps.as_slice() {
            [ContentPart::Text { kind, text, extra }]
                if kind == "input_text" && extra.is_empty() =>
            {
                Some((text.clone(), true))
            }
            _ => None,
        },
    }
}

/// Index of the message the next assistant item joins (a new one unless the last is assistant).
fn group_index(x: &mut Exchange, role: Role) -> usize {
    if x.messages.last().map(|m| m.role) != Some(role) {
        x.messages.push(Message::new(role, Vec::new()));
    }
    x.messages.len() - 1
}

fn decode_items(
    items: Vec<Item>,
    instructions_absent: bool,
    (issuer, model): (&str, Option<&str>),
    x: &mut Exchange,
    private: &mut Obj,
    losses: &mut Losses,
) -> Result<(), DecodeError> {
    // The previous item was an array-form assistant message (a plain text part would join it).
    let mut open = false;
    for (k, item) in items.into_iter().enumerate() {
        let ip = format!("/input/{k}");
        match item {
            Item::Invalid {
                pointer, message, ..
            } => return Err(DecodeError::at(ID, format!("{ip}{pointer}"), message)),
            Item::Message(m) => match m.role.as_str() {
                "assistant" => {
                    let i = group_index(x, Role::Assistant);
                    open = decode_assistant_item(&mut x.messages[i], m, Kind::Request, k, open);
                }
                role @ ("user" | "system" | "developer") => {
                    open = false;
                    let role = role.to_string();
                    if role != "user" && k == 0 && instructions_absent {
                        if let Some((text, array)) = simple_text(&m.content) {
                            x.system = Some(text);
                            let mut sys = Obj::new();
                            sys.insert("role".into(), Value::from(role));
                            if !m.extra.is_empty() {
                                sys.insert("item".into(), Value::Object(m.extra));
                            }
                            if array {
                                sys.insert("content".into(), Value::from("array"));
                            }
                            private.insert("system".into(), Value::Object(sys));
                            continue;
                        }
                    }
                    let i = x.messages.len();
                    let mut pv = Obj::new();
                    if role != "user" {
                        losses.rewritten(
                            format!("/messages/{i}/role"),
                            format!("{role} message read as a user turn"),
                            "the model has one system prompt and no system turns mid-conversation",
                        );
                        pv.insert("role".into(), Value::from(role));
                    }
                    let was_array = matches!(m.content, Content::Parts(_));
                    let parts = user_parts(m.content);
                    let plain =
                        matches!(parts.as_slice(), [Part::Text { extra, .. }] if extra.is_empty());
                    // A single plain text goes out as a string unless the source had an array.
                    if plain && was_array {
                        pv.insert("content".into(), Value::from("array"));
                    }
                    let mut msg = Message::new(Role::User, parts);
                    msg.extra = own_join(m.extra, pv);
                    x.messages.push(msg);
                }
                other => {
                    return Err(DecodeError::at(
                        ID,
                        format!("{ip}/role"),
                        format!(
                        "unknown role {other:?} (expected user, assistant, system or developer)"
                    ),
                    ))
                }
            },
            Item::FunctionCall(f) => {
                open = false;
                let i = group_index(x, Role::Assistant);
                let j = x.messages[i].parts.len();
                let call = decode_call(
                    f,
                    Kind::Request,
                    &format!("/messages/{i}/parts/{j}"),
                    losses,
                );
                x.messages[i].parts.push(Part::ToolCall(call));
            }
            Item::FunctionCallOutput(o) => {
                open = false;
                let i = group_index(x, Role::Tool);
                x.messages[i].parts.push(Part::ToolResult(decode_result(o)));
            }
            Item::CustomToolCall(f) => {
                open = false;
                let i = group_index(x, Role::Assistant);
                x.messages[i]
                    .parts
                    .push(Part::ToolCall(decode_custom_call(f, Kind::Request)));
            }
            Item::Other(v) => {
                open = false;
                let i = group_index(x, Role::Assistant);
                x.messages[i].parts.push(other_item(v, issuer, model, None));
            }
        }
    }
    Ok(())
}

/// An item the typed wire leaves verbatim: reasoning, a provider-defined tool's step, else a
/// raw part.
fn other_item(v: Value, issuer: &str, model: Option<&str>, index: Option<usize>) -> Part {
    let part = match v.get("type").and_then(Value::as_str) {
        Some("reasoning") => items::decode_reasoning(&v, issuer, model, index),
        Some(_) => items::decode_hosted(&v, issuer),
        None => None,
    };
    part.unwrap_or(Part::Raw {
        format: ID.into(),
        value: v,
    })
}

fn raw(item: &Item) -> Part {
    Part::Raw {
        format: ID.into(),
        value: to_value(item),
    }
}

fn user_parts(c: Content) -> Vec<Part> {
    match c {
        Content::Text(s) => vec![Part::text(s)],
        Content::Parts(ps) => ps
            .into_iter()
            .map(|p| match p {
                ContentPart::Text { kind, text, extra } if kind == "input_text" => Part::Text {
                    text,
                    extra: own_join(extra, Obj::new()),
                },
                other => Part::Raw {
                    format: ID.into(),
                    value: to_value(&other),
                },
            })
            .collect(),
    }
}

/// An assistant message item's parts appended to `msg` (the item kept verbatim when its parts
/// cannot say it, see [`assistant_item_parts`]); returns whether it is an open array-form item.
fn decode_assistant_item(
    msg: &mut Message,
    m: MessageItem,
    kind: Kind,
    index: usize,
    open: bool,
) -> bool {
    match assistant_item_parts(&m, kind, index, open) {
        Some((parts, array)) => {
            msg.parts.extend(parts);
            array
        }
        None => {
            msg.parts.push(raw(&Item::Message(m)));
            false
        }
    }
}

/// The text parts of an assistant message item (request input or response output), or `None`
/// when the item must stay verbatim (refusals, empty content, input parts). `index` is the item's
/// position (for the response id placeholder); `open` says the previous item was an array-form
/// message a plain text part would join. Returns the parts and whether this item is array-form.
fn assistant_item_parts(
    m: &MessageItem,
    kind: Kind,
    index: usize,
    open: bool,
) -> Option<(Vec<Part>, bool)> {
    let mut f = m.extra.clone();
    match &m.content {
        Content::Text(s) => {
            // Without item fields the encoder writes the easy string form (requests) or an
            // array-form item (responses): say so when that is not what was here.
            let mut pv = Obj::new();
            if !f.is_empty() || open || kind == Kind::Response {
                pv.insert("item".into(), Value::Object(f));
                pv.insert("content".into(), Value::from("string"));
            }
            Some((
                vec![Part::Text {
                    text: s.clone(),
                    extra: own_join(Obj::new(), pv),
                }],
                false,
            ))
        }
        Content::Parts(ps) => {
            let mut texts = Vec::new();
            for p in ps {
                match p {
                    ContentPart::Text { kind, text, extra } if kind == "output_text" => {
                        texts.push((text.clone(), extra.clone()))
                    }
                    _ => return None,
                }
            }
            if texts.is_empty() {
                return None;
            }
            let mut item_pv = Obj::new();
            for (key, default) in message_defaults(kind, index) {
                if let Some(default) = default {
                    strip(&mut f, &mut item_pv, "item_absent", key, &default);
                }
            }
            let needs_item = kind == Kind::Request || open || !f.is_empty() || !item_pv.is_empty();
            let parts = texts
                .into_iter()
                .enumerate()
                .map(|(n, (text, mut w))| {
                    let mut pv = Obj::new();
                    strip(
                        &mut w,
                        &mut pv,
                        "part_absent",
                        "annotations",
                        &Value::Array(Vec::new()),
                    );
                    if n == 0 && needs_item {
                        pv.insert("item".into(), Value::Object(f.clone()));
                        pv.extend(item_pv.clone());
                    }
                    Part::Text {
                        text,
                        extra: own_join(w, pv),
                    }
                })
                .collect();
            Some((parts, true))
        }
    }
}

fn decode_call(f: FunctionCall, kind: Kind, pp: &str, losses: &mut Losses) -> ToolCall {
    let call_id = f.call_id.value().cloned();
    if f.arguments.trim().is_empty() {
        losses.rewritten(
            format!("{pp}/arguments"),
            "empty arguments read as {}",
            "function_call arguments are JSON text and empty text is not JSON",
        );
    }
    let mut c = ToolCall::from_text(call_id.clone(), f.name, &f.arguments);
    let mut w = Obj::new();
    Keep(&mut w).field("id", &f.id);
    if matches!(f.call_id, Field::Null) {
        w.insert("call_id".into(), Value::Null);
    }
    Keep(&mut w).field("status", &f.status);
    w.extend(f.extra);
    let mut pv = Obj::new();
    if kind == Kind::Response {
        let placeholder = call_placeholder(call_id.as_deref().unwrap_or_default());
        strip(&mut w, &mut pv, "absent", "id", &Value::from(placeholder));
        strip(
            &mut w,
            &mut pv,
            "absent",
            "status",
            &Value::from("completed"),
        );
    }
    c.extra = own_join(w, pv);
    c
}

fn decode_result(o: FunctionCallOutput) -> ToolResult {
    let mut w = Obj::new();
    Keep(&mut w).field("id", &o.id);
    Keep(&mut w).null("call_id", &o.call_id);
    Keep(&mut w).null("name", &o.name);
    Keep(&mut w).field("status", &o.status);
    w.extend(o.extra);
    let content = match o.output {
        Content::Text(s) => ResultContent::Text(s),
        Content::Parts(ps) => ResultContent::Blocks(ps.into_iter().map(block_of).collect()),
    };
    let mut pv = Obj::new();
    if o.kind == "custom_tool_call_output" {
        pv.insert(items::CUSTOM.into(), Value::Bool(true));
    }
    ToolResult {
        call_id: o.call_id.into_value(),
        name: o.name.into_value(),
        content,
        is_error: false,
        extra: own_join(w, pv),
    }
}

fn block_of(p: ContentPart) -> Block {
    match p {
        ContentPart::Text { kind, text, extra } if kind == "input_text" && extra.is_empty() => {
            Block::Text { text }
        }
        ContentPart::Other(v) => match data_image(&v) {
            Some((media_type, data)) => Block::Image { media_type, data },
            None => Block::Raw {
                format: ID.into(),
                value: v,
            },
        },
        other => Block::Raw {
            format: ID.into(),
            value: to_value(&other),
        },
    }
}

/// `{type: "input_image", image_url: "data:<type>;base64,<data>"}` and nothing else.
fn data_image(v: &Value) -> Option<(String, String)> {
    let img: InputImage = serde_json::from_value(v.clone()).ok()?;
    if img.kind != "input_image" || &to_value(&img) != v {
        return None;
    }
    let (media_type, data) = img
        .image_url
        .strip_prefix("data:")?
        .split_once(";base64,")?;
    Some((media_type.to_string(), data.to_string()))
}

// ---------------------------------------------------------------------------------------------
// response

/// Status and `incomplete_details` for a stop reason (the Responses API has no finish reason).
fn status_of(stop: &StopReason, has_calls: bool, losses: &mut Losses) -> (Value, Value) {
    let completed = || (Value::from("completed"), Value::Null);
    let incomplete = |reason: &str| {
        (
            Value::from("incomplete"),
            to_value(&IncompleteDetails {
                reason: reason.to_string(),
            }),
        )
    };
    let unexpressed = |losses: &mut Losses, name: &str| {
        losses.dropped(
            "/messages/0/stop_reason",
            format!("stop reason {name}"),
            "the Responses API has no such status; sent as completed",
        );
    };
    match stop {
        StopReason::EndTurn | StopReason::ToolUse => {
            if (*stop == StopReason::ToolUse) != has_calls {
                losses.rewritten(
                    "/messages/0/stop_reason",
                    "stop reason",
                    "the Responses API reads tool use from the presence of function_call items",
                );
            }
            completed()
        }
        StopReason::MaxTokens => incomplete("max_output_tokens"),
        StopReason::ContentFilter => incomplete("content_filter"),
        StopReason::StopSequence => {
            unexpressed(losses, "stop_sequence");
            completed()
        }
        StopReason::Other(s) => match s.as_str() {
            "max_messages" | "steered" => incomplete(s),
            "incomplete" => (Value::from("incomplete"), Value::Null),
            "failed" | "cancelled" | "in_progress" | "queued" => {
                (Value::from(s.as_str()), Value::Null)
            }
            _ => {
                unexpressed(losses, s);
                completed()
            }
        },
    }
}

fn stop_reason_of(status: Option<&str>, reason: Option<&str>, has_calls: bool) -> StopReason {
    match status {
        Some("incomplete") => match reason {
            Some("max_output_tokens") => StopReason::MaxTokens,
            Some("content_filter") => StopReason::ContentFilter,
            Some(r) => StopReason::Other(r.to_string()),
            None => StopReason::Other("incomplete".into()),
        },
        Some(s @ ("failed" | "cancelled" | "in_progress" | "queued")) => {
            StopReason::Other(s.to_string())
        }
        _ if has_calls => StopReason::ToolUse,
        _ => StopReason::EndTurn,
    }
}

fn usage_defaults(input: u64, output: u64) -> [(&'static str, Value); 3] {
    [
        (
            "input_tokens_details",
            to_value(&InputTokensDetails {
                cached_tokens: 0,
                cache_write_tokens: 0,
            }),
        ),
        (
            "output_tokens_details",
            to_value(&OutputTokensDetails {
                reasoning_tokens: 0,
            }),
        ),
        ("total_tokens", Value::from(input.saturating_add(output))),
    ]
}

fn encode_usage(u: &Usage, pv: &Obj) -> WireUsage {
    let mut stored = match pv.get("usage") {
        Some(Value::Object(m)) => m.clone(),
        _ => Obj::new(),
    };
    let [(k1, d1), (k2, d2), (k3, d3)] = usage_defaults(u.input_tokens, u.output_tokens);
    let input_tokens_details = Field::from_json(fill(&mut stored, pv, "usage_absent", k1, d1));
    let output_tokens_details = Field::from_json(fill(&mut stored, pv, "usage_absent", k2, d2));
    let total_tokens = Field::from_json(fill(&mut stored, pv, "usage_absent", k3, d3));
    stored.remove("input_tokens");
    stored.remove("output_tokens");
    WireUsage {
        input_tokens: u.input_tokens,
        input_tokens_details,
        output_tokens: u.output_tokens,
        output_tokens_details,
        total_tokens,
        extra: stored,
    }
}

/// The exchange's last assistant message (and model) → response body.
pub fn encode_response(x: &Exchange) -> (Response, Vec<Loss>) {
    let mut losses = Losses::new();
    let view = x.response_view();
    let view = prepare_ids(&view, &mut losses);
    let empty = Message::new(Role::Assistant, Vec::new());
    let msg = match view.messages.first() {
        Some(m) => m,
        None => {
            losses.dropped(
                "/messages",
                "the conversation",
                "a response holds the model's last turn and the exchange does not end with one",
            );
            &empty
        }
    };
    losses.foreign_extra(&msg.extra, ID, "/messages/0");
    let has_calls = msg.tool_calls().next().is_some();
    let stop = match &msg.stop_reason {
        Some(s) => s.clone(),
        None => {
            let derived = if has_calls {
                StopReason::ToolUse
            } else {
                StopReason::EndTurn
            };
            if !view.messages.is_empty() {
                losses
                    .added(
                        "/messages/0/stop_reason",
                        format!("stop reason {}", to_value(&derived)),
                        "a response states why the model stopped",
                    )
                    .at("/status");
            }
            derived
        }
    };
    let (status, incomplete) = status_of(&stop, has_calls, &mut losses);

    let (mut f, pv) = own_split(&msg.extra);
    let model = view.options.model.as_ref().map(|_| {
        model_out(
            &view,
            &pv,
            "a Responses response names its model",
            &mut losses,
        )
    });
    let ctx = Ctx::new(&view, model.as_deref());
    let mut output = Vec::new();
    encode_assistant(
        0,
        &msg.parts,
        Kind::Response,
        &ctx,
        &mut output,
        &mut losses,
    );

    let mut slot =
        |key: &str, default: Value| Field::from_json(fill(&mut f, &pv, "absent", key, default));
    let mut doc = Response {
        id: slot("id", Value::from(RESPONSE_ID)),
        object: slot("object", Value::from("response")),
        created_at: slot("created_at", Value::from(0)),
        status: slot("status", status),
        error: slot("error", Value::Null),
        incomplete_details: slot("incomplete_details", incomplete),
        model: Field::Absent,
        output,
        parallel_tool_calls: slot("parallel_tool_calls", Value::Bool(true)),
        tool_choice: slot("tool_choice", Value::from("auto")),
        tools: slot("tools", Value::Array(Vec::new())),
        usage: Field::Absent,
        extra: Obj::new(),
    };
    doc.model = match model {
        Some(m) => {
            f.remove("model");
            Field::Value(m)
        }
        // The SDK requires a model: "" is the placeholder.
        None => match fill(&mut f, &pv, "absent", "model", Value::from("")) {
            Some(Value::String(s)) => Field::Value(s),
            Some(Value::Null) => Field::Null,
            Some(other) => {
                f.insert("model".into(), other);
                Field::Absent
            }
            None => Field::Absent,
        },
    };
    doc.usage = match &msg.usage {
        Some(u) => {
            f.remove("usage");
            Field::Value(encode_usage(u, &pv))
        }
        None => match f.get("usage") {
            Some(Value::Null) => {
                f.remove("usage");
                Field::Null
            }
            _ => Field::Absent,
        },
    };
    f.remove("output");
    doc.extra = f;
    (doc, losses.into_vec())
}

/// Response body → an exchange holding the one assistant message (and the model name).
pub fn decode_response(doc: Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut losses = Losses::new();
    let mut msg = Message::new(Role::Assistant, Vec::new());
    let mut open = false;
    let model = doc.model.value().filter(|m| !m.is_empty()).cloned();
    let issuer = items::issuer(model.as_deref());
    for (k, item) in doc.output.into_iter().enumerate() {
        match item {
            Item::Invalid {
                pointer, message, ..
            } => {
                return Err(DecodeError::at(
                    ID,
                    format!("/output/{k}{pointer}"),
                    message,
                ))
            }
            Item::Message(m) if m.role == "assistant" => {
                open = decode_assistant_item(&mut msg, m, Kind::Response, k, open);
            }
            Item::FunctionCall(f) => {
                open = false;
                let pp = format!("/messages/0/parts/{}", msg.parts.len());
                let call = decode_call(f, Kind::Response, &pp, &mut losses);
                msg.parts.push(Part::ToolCall(call));
            }
            Item::CustomToolCall(f) => {
                open = false;
                msg.parts
                    .push(Part::ToolCall(decode_custom_call(f, Kind::Response)));
            }
            Item::Other(v) => {
                open = false;
                msg.parts
                    .push(other_item(v, issuer, model.as_deref(), Some(k)));
            }
            other => {
                open = false;
                msg.parts.push(raw(&other));
            }
        }
    }
    let has_calls = msg.tool_calls().next().is_some();
    let stop = stop_reason_of(
        doc.status.value().and_then(Value::as_str),
        doc.incomplete_details
            .value()
            .and_then(|v| v.get("reason"))
            .and_then(Value::as_str),
        has_calls,
    );
    let (status, incomplete) = status_of(&stop, has_calls, &mut Losses::new());

    let mut x = Exchange::default();
    let mut f = doc.extra;
    let mut pv = Obj::new();
    match doc.model {
        Field::Value(m) if !m.is_empty() => {
            remember_model(&m, &mut pv);
            x.options.model = Some(m);
        }
        other => {
            Keep(&mut f).field("model", &other);
            strip(&mut f, &mut pv, "absent", "model", &Value::from(""));
        }
    }
    let slots = [
        ("id", doc.id, Value::from(RESPONSE_ID)),
        ("object", doc.object, Value::from("response")),
        ("created_at", doc.created_at, Value::from(0)),
        ("status", doc.status, status),
        ("error", doc.error, Value::Null),
        ("incomplete_details", doc.incomplete_details, incomplete),
        (
            "parallel_tool_calls",
            doc.parallel_tool_calls,
            Value::Bool(true),
        ),
        ("tool_choice", doc.tool_choice, Value::from("auto")),
        ("tools", doc.tools, Value::Array(Vec::new())),
    ];
    for (key, field, default) in slots {
        Keep(&mut f).field(key, &field);
        strip(&mut f, &mut pv, "absent", key, &default);
    }
    match doc.usage {
        Field::Value(u) => {
            msg.usage = Some(Usage {
                input_tokens: u.input_tokens,
                output_tokens: u.output_tokens,
            });
            let mut stored = Obj::new();
            Keep(&mut stored).field("input_tokens_details", &u.input_tokens_details);
            Keep(&mut stored).field("output_tokens_details", &u.output_tokens_details);
            Keep(&mut stored).field("total_tokens", &u.total_tokens);
            stored.extend(u.extra);
            for (key, default) in usage_defaults(u.input_tokens, u.output_tokens) {
                strip(&mut stored, &mut pv, "usage_absent", key, &default);
            }
            if !stored.is_empty() {
                pv.insert("usage".into(), Value::Object(stored));
            }
        }
        Field::Null => {
            f.insert("usage".into(), Value::Null);
        }
        Field::Absent => {}
    }
    msg.stop_reason = Some(stop);
    msg.extra = own_join(f, pv);
    x.messages.push(msg);
    Ok((x, losses.into_vec()))
}

/// How sure it is that `v` is a Responses body, and which one. `object: "response"` and an
/// `input` beside no `messages` are this API's own: they outrank a dialect that knows a
/// document only by its model's name (DeepSeek's and xAI's Responses-compatible endpoints
/// answer with their own models).
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let o = v.as_object()?;
    let object = o.get("object").and_then(Node::as_str) == Some("response");
    let output = o.get("output").is_some_and(Node::is_array);
    if object || output {
        return Some((Kind::Response, 98));
    }
    let input = o
        .get("input")
        .is_some_and(|i| i.is_array() || i.is_string());
    if input && !o.contains_key("messages") && !o.contains_key("contents") {
        return Some((Kind::Request, 98));
    }
    if o.contains_key("input") || (o.contains_key("instructions") && !o.contains_key("messages")) {
        return Some((Kind::Request, 90));
    }
    None
}
