//! MCP JSON-RPC transcript ⇄ canonical model.
//!
//! Encoding reports everything MCP cannot carry; decoding is faithful and reports what it
//! normalises. Pointers of losses are into the serialised canonical `Exchange`; targets are
//! into the emitted document.

use super::wire::{
    CallToolParams, CallToolResult, Content, Document, ListToolsResult, Message as Rpc, RpcError,
    Tool as WireTool,
};
use crate::formats::field::Field;
use crate::formats::field::{Keep, Own};
use crate::formats::json::escape;
use crate::formats::shared;
use crate::formats::sniff::Node;
use crate::formats::{DecodeError, Kind};
use crate::model::{
    assign_missing_ids, Block, Exchange, Extra, Loss, Losses, Message, Part, ResultContent, Role,
    Tool, ToolCall, ToolResult, FORM_KEY,
};
use serde_json::{json, Map, Value};

/// Format id.
pub const ID: &str = "mcp";
/// The protocol revision written into request `_meta`.
pub const PROTOCOL_VERSION: &str = "2026-07-28";
/// JSON-RPC id of the `tools/list` request the encoder writes (call ids are strings, so an
/// integer never collides with them).
pub const LIST_ID: i64 = 0;
/// Prefix of the ids given to results that answer no call.
pub const UNPAIRED_PREFIX: &str = "unpaired-";

const WHY_IDS: &str = "MCP pairs every tools/call response with its request by JSON-RPC id";
const WHY_TURNS: &str = "an MCP transcript holds tools/list and tools/call messages only; the \
     conversation around the calls (user and assistant text) stays with the model provider";
const WHY_PROVIDER: &str = "MCP talks to tool servers, not to models: model settings, system \
     prompt and tool choice have no place in it";

// ---------------------------------------------------------------------------------------------
// Small helpers

/// The request `_meta` the 2026-07-28 schema requires (protocol version, client capabilities).
pub fn default_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// The `tools/list` request the encoder writes when the exchange keeps none.
fn default_list_request() -> Rpc {
    let mut m = Rpc::empty();
    m.id = Field::Value(json!(LIST_ID));
    m.method = Some("tools/list".into());
    m.params = Some(json!({"_meta": default_meta()}));
    m
}

/// The `tools/list` response the encoder writes (without `tools`) when the exchange keeps none:
/// `resultType`, `ttlMs` and `cacheScope` are required by 2026-07-28; these are the SDK defaults.
fn default_list_result() -> Rpc {
    let mut m = Rpc::empty();
    m.id = Field::Value(json!(LIST_ID));
    m.result = Some(json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}));
    m
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn flag<'a>(form: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    form.get(key)
}

/// Unknown envelope fields kept under `envelope`, without the ones the envelope types itself.
fn envelope_of(own: &mut Map<String, Value>) -> Map<String, Value> {
    let mut env = match own.remove("envelope") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for k in ["jsonrpc", "id", "method", "params", "result", "error"] {
        env.remove(k);
    }
    env
}

/// A canonical call id as a JSON-RPC id: an integer when the source spelled it so.
fn rpc_id(id: &str, form: &Map<String, Value>) -> Value {
    if flag(form, "numericId") == Some(&Value::Bool(true)) {
        if let Ok(n) = id.parse::<i64>() {
            return json!(n);
        }
        if let Ok(n) = id.parse::<u64>() {
            return json!(n);
        }
    }
    Value::String(id.to_string())
}

fn json_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// What a call result's content reads back as (the decoder's rule, shared with the encoder).
fn read_content(content: &[Content]) -> ResultContent {
    match content {
        [Content::Text(t)] => ResultContent::Text(t.clone()),
        blocks => ResultContent::Blocks(
            blocks
                .iter()
                .map(|b| match b {
                    Content::Text(text) => Block::Text { text: text.clone() },
                    Content::Image { data, mime_type } => Block::Image {
                        media_type: mime_type.clone(),
                        data: data.clone(),
                    },
                    Content::Raw(v) => Block::Raw {
                        format: ID.to_string(),
                        value: v.clone(),
                    },
                })
                .collect(),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Encoding

fn encode_tool(t: &Tool, k: usize, losses: &mut Losses) -> WireTool {
    let p = format!("/tools/{k}");
    if t.strict.is_some() {
        losses
            .dropped(
                format!("{p}/strict"),
                "strict flag",
                "MCP tools have no strict mode",
            )
            .at(format!("/1/result/tools/{k}"));
    }
    let extra = shared::own_fields(
        ID,
        &t.extra,
        &[
            "name",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
        ],
        &p,
        losses,
    );
    // MCP requires `type: "object"` at the root of `inputSchema`.
    let input_schema = match &t.input_schema {
        Value::Object(m) if m.contains_key("type") => t.input_schema.clone(),
        Value::Object(m) => {
            losses.rewritten(
                format!("{p}/input_schema"),
                "input schema without a type",
                "MCP requires type \"object\" at the root of inputSchema",
            );
            let mut m = m.clone();
            m.insert("type".into(), json!("object"));
            Value::Object(m)
        }
        _ => {
            losses.rewritten(
                format!("{p}/input_schema"),
                "input schema that is not an object",
                "MCP requires a JSON Schema object with type \"object\" as inputSchema",
            );
            crate::model::empty_object_schema()
        }
    };
    WireTool {
        name: t.name.clone(),
        description: t.description.clone(),
        input_schema,
        output_schema: t.output_schema.clone(),
        annotations: t.annotations.clone(),
        extra,
    }
}

/// A call as a `tools/call` request.
fn encode_call(c: &ToolCall, p: &str, losses: &mut Losses) -> Rpc {
    let form = Own::of(&c.extra, ID).forms();
    let mut own = shared::own_fields(ID, &c.extra, &["name", "arguments"], p, losses);
    let envelope = envelope_of(&mut own);
    let meta = match own.remove("_meta") {
        Some(v) => Some(v),
        None if flag(&form, "meta") == Some(&Value::Bool(false)) => None,
        None => Some(default_meta()),
    };
    let arguments = if c.arguments_invalid() {
        losses.dropped(
            format!("{p}/arguments_raw"),
            "argument text that is not valid JSON",
            "MCP arguments are a JSON object",
        );
        losses.rewritten(
            format!("{p}/arguments"),
            "invalid arguments sent as {}",
            "MCP arguments are a JSON object",
        );
        json!({})
    } else if !c.arguments.is_object() {
        if c.arguments_raw.is_some() {
            losses.dropped(
                format!("{p}/arguments_raw"),
                "argument text",
                "MCP arguments are a JSON object",
            );
        }
        losses.rewritten(
            format!("{p}/arguments"),
            "non-object arguments sent as {}",
            "MCP arguments are a JSON object",
        );
        json!({})
    } else {
        if c.arguments_raw.is_some() {
            losses.dropped(
                format!("{p}/arguments_raw"),
                "the spelling of the argument text",
                "MCP arguments are a JSON object, not text",
            );
        }
        c.arguments.clone()
    };
    let omit_args = flag(&form, "arguments") == Some(&Value::Bool(false))
        && arguments.as_object().is_some_and(Map::is_empty);
    let params = CallToolParams {
        meta,
        name: c.name.clone(),
        arguments: (!omit_args).then_some(arguments),
        extra: own,
    };
    let mut m = Rpc::empty();
    m.id = Field::Value(rpc_id(c.id.as_deref().unwrap_or_default(), &form));
    m.method = Some("tools/call".into());
    m.params = Some(to_value(&params));
    m.extra = envelope;
    m
}

/// A result as a `tools/call` response (a JSON-RPC error response when it came from one).
fn encode_result(r: &ToolResult, p: &str, unpaired: &mut usize, losses: &mut Losses) -> Rpc {
    let form = Own::of(&r.extra, ID).forms();
    let mut own = shared::own_fields(ID, &r.extra, &["structuredContent", "isError"], p, losses);
    let envelope = envelope_of(&mut own);
    let mut m = Rpc::empty();
    m.extra = envelope;
    m.id = match (&r.call_id, flag(&form, "id")) {
        (Some(id), _) => Field::Value(rpc_id(id, &form)),
        (None, Some(Value::Null)) => Field::Null,
        (None, Some(Value::String(s))) if s == "absent" => Field::Absent,
        (None, _) => {
            *unpaired += 1;
            let id = format!("{UNPAIRED_PREFIX}{unpaired}");
            losses.added(
                format!("{p}/call_id"),
                format!("JSON-RPC id {id:?} for a result that answers no call"),
                WHY_IDS,
            );
            Field::Value(Value::String(id))
        }
    };
    if let Some(name) = &r.name {
        losses.dropped(
            format!("{p}/name"),
            format!("tool name {name:?} of the result"),
            "MCP pairs a result with its call by id; the response does not repeat the name",
        );
    }
    // A JSON-RPC error response read as an error result goes back as one.
    let error = own.remove("error");
    if let (Some(Value::Object(err)), true, ResultContent::Text(text)) =
        (&error, r.is_error, &r.content)
    {
        let mut err = err.clone();
        let code = err.remove("code").and_then(|c| c.as_i64());
        err.remove("message");
        if let Some(code) = code {
            m.error = Some(to_value(&RpcError {
                code,
                message: text.clone(),
                extra: err,
            }));
            return m;
        }
    }
    if error.is_some() {
        losses.dropped(
            format!("{p}/extra/{ID}/error"),
            "JSON-RPC error details",
            "they are written only for an error result with text content",
        );
    }
    let stored_content = own.remove("content");
    let (content, structured) = match &r.content {
        ResultContent::Text(t) => (vec![Content::Text(t.clone())], Field::Absent),
        ResultContent::Json(v) => {
            // The spec recommends a text block with the serialised JSON next to it.
            let content = stored_content
                .and_then(|c| serde_json::from_value::<Vec<Content>>(c).ok())
                .unwrap_or_else(|| vec![Content::Text(json_text(v))]);
            (content, Field::Value(v.clone()))
        }
        ResultContent::Blocks(blocks) => {
            let mut out = Vec::new();
            for (k, b) in blocks.iter().enumerate() {
                match b {
                    Block::Text { text } => out.push(Content::Text(text.clone())),
                    Block::Image { media_type, data } => out.push(Content::Image {
                        data: data.clone(),
                        mime_type: media_type.clone(),
                    }),
                    Block::Raw { format, value } if format == ID => {
                        out.push(Content::Raw(value.clone()))
                    }
                    Block::Raw { format, .. } => {
                        losses.dropped(
                            format!("{p}/content/blocks/{k}"),
                            format!("{format} result block"),
                            format!("only {format} has this block type"),
                        );
                    }
                }
            }
            if !matches!(read_content(&out), ResultContent::Blocks(_)) {
                losses.rewritten(
                    format!("{p}/content"),
                    "one text block",
                    "a tools/call result of one text block reads back as text",
                );
            }
            (out, Field::Absent)
        }
    };
    let is_error = if r.is_error {
        Some(true)
    } else if flag(&form, "isError") == Some(&Value::Bool(false)) {
        Some(false)
    } else {
        None
    };
    let result_type = match own.remove("resultType") {
        Some(Value::String(s)) => Some(s),
        _ if flag(&form, "resultType") == Some(&Value::Bool(false)) => None,
        _ => Some("complete".to_string()),
    };
    m.result = Some(to_value(&CallToolResult {
        content,
        structured_content: structured,
        is_error,
        result_type,
        extra: own,
    }));
    m
}

/// Where the dropped message-level extras go.
fn drop_message_extra(m: &Message, i: usize, losses: &mut Losses) {
    let p = format!("/messages/{i}");
    losses.foreign_extra(&m.extra, ID, &p);
    if m.extra
        .get(ID)
        .is_some_and(|e| e.keys().any(|k| k != FORM_KEY))
    {
        losses.dropped(
            format!("{p}/extra/{ID}"),
            "message-level fields",
            "an MCP transcript has no messages of the conversation to hold them",
        );
    }
}

/// Encode an assistant part that becomes a wire message (a call, or a kept MCP message) into
/// `out`; an MCP block that is not JSON-RPC is dropped with `not_rpc` (what, why). False for
/// the other parts, which the caller reports.
fn encode_rpc_part(
    part: &Part,
    p: &str,
    not_rpc: (&str, &str),
    out: &mut Vec<Rpc>,
    losses: &mut Losses,
) -> bool {
    match part {
        Part::ToolCall(c) => out.push(encode_call(c, p, losses)),
        Part::Raw { format, value } if format == ID => {
            match serde_json::from_value::<Rpc>(value.clone()) {
                Ok(rpc) => out.push(rpc),
                Err(_) => {
                    losses.dropped(p, not_rpc.0, not_rpc.1);
                }
            }
        }
        _ => return false,
    }
    true
}

/// An assistant message's calls (and kept MCP messages) in order; what else it holds is
/// reported. Returns the wire messages.
fn encode_assistant(m: &Message, i: usize, losses: &mut Losses) -> Vec<Rpc> {
    let mut out = Vec::new();
    let mut part_losses = Losses::new();
    for (j, part) in m.parts.iter().enumerate() {
        let p = format!("/messages/{i}/parts/{j}");
        let not_rpc = (
            "MCP block that is not a JSON-RPC message",
            "only JSON-RPC messages fit in a transcript",
        );
        if encode_rpc_part(part, &p, not_rpc, &mut out, &mut part_losses) {
            continue;
        }
        match part {
            // Encoded above.
            Part::ToolCall(_) => {}
            Part::Reasoning(r) => {
                shared::drop_reasoning(r, &p, "MCP", &mut part_losses);
            }
            Part::Hosted(h) => {
                shared::drop_hosted(h, &p, &mut part_losses);
            }
            Part::Raw { format, value } => {
                part_losses.dropped(
                    p,
                    crate::model::media_label(format, value),
                    crate::model::raw_why(
                        format,
                        value,
                        format!("only {format} has this block type"),
                    ),
                );
            }
            Part::Text { text, .. } => {
                part_losses.dropped(
                    p,
                    format!("assistant text ({} chars)", text.chars().count()),
                    WHY_TURNS,
                );
            }
            Part::ToolResult(_) => {
                part_losses.dropped(
                    p,
                    "tool result in an assistant message",
                    "tool results answer calls in Tool messages",
                );
            }
        }
    }
    if !out.is_empty() {
        losses.extend(part_losses.into_vec());
    }
    out
}

/// Report the messages that left nothing in the transcript. A dropped message whose nearest
/// kept neighbour has its role, and that neighbour does not read back exactly (a loss is
/// reported under it), cannot be told apart from it when the transcript is read back (the
/// diff may pair the kept message with the dropped one), so the loss covers `/messages`.
fn report_dropped_turns(turns: &[(Role, bool)], losses: &mut Losses) {
    let changed: Vec<bool> = (0..turns.len())
        .map(|k| {
            let at = format!("/messages/{k}");
            losses.0.iter().any(|l| {
                l.pointer == at
                    || l.pointer
                        .strip_prefix(at.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
        })
        .collect();
    // The role of the nearest kept message in `range`, when it does not read back exactly.
    let nearest = |mut range: Box<dyn Iterator<Item = usize>>| {
        range
            .find(|&k| turns.get(k).is_some_and(|t| t.1))
            .filter(|&k| changed.get(k).copied().unwrap_or(true))
            .and_then(|k| turns.get(k).map(|t| t.0))
    };
    for (i, &(role, kept)) in turns.iter().enumerate() {
        if kept {
            continue;
        }
        let before = nearest(Box::new((0..i).rev()));
        let after = nearest(Box::new(i + 1..turns.len()));
        let what = match role {
            Role::User => "user message",
            Role::Assistant => "assistant message without tool calls",
            Role::Tool => "Tool message without results",
        };
        let pointer = if before == Some(role) || after == Some(role) {
            "/messages".to_string()
        } else {
            format!("/messages/{i}")
        };
        losses.dropped(pointer, what, WHY_TURNS);
    }
}

/// Everything an exchange holds that MCP has no place for.
fn drop_exchange_level(x: &Exchange, losses: &mut Losses) {
    if x.system.is_some() {
        losses.dropped("/system", "system prompt", WHY_PROVIDER);
    }
    if x.tool_choice.is_some() {
        losses.dropped("/tool_choice", "tool_choice", WHY_PROVIDER);
    }
    if x.parallel_tool_calls.is_some() {
        losses.dropped(
            "/parallel_tool_calls",
            "parallel_tool_calls",
            "MCP clients may always send several tools/call requests at once",
        );
    }
    for field in x.options.set_parameters() {
        losses.dropped(format!("/options/{field}"), field, WHY_PROVIDER);
    }
    let adopted = crate::formats::shared::adopt_common(&x.extra, ID, losses);
    losses.foreign_extra(&adopted, ID, "");
    // A transcript has no top-level object: only the parts of it kept by the decoder return.
    for k in x.extra.get(ID).into_iter().flat_map(|m| m.keys()) {
        if ![FORM_KEY, "preamble", "listRequest", "listResult"].contains(&k.as_str()) {
            losses.dropped(
                format!("/extra/{ID}/{}", escape(k)),
                format!("extra field {k:?}"),
                "an MCP transcript is an array of messages, with no top-level fields",
            );
        }
    }
}

/// Model → transcript: `tools/list` request and result, then per turn the calls as
/// `tools/call` requests and the results as their responses.
pub fn encode_request(x: &Exchange) -> (Document, Vec<Loss>) {
    let mut losses = Losses::new();
    let (x, id_losses) = crate::model::settle_ids(x, WHY_IDS, None);
    losses.extend(id_losses);
    drop_exchange_level(&x, &mut losses);
    let form = Own::of(&x.extra, ID).forms();
    let own = x.extra.get(ID).cloned().unwrap_or_default();
    let mut out: Vec<Rpc> = Vec::new();
    if let Some(Value::Array(pre)) = own.get("preamble") {
        out.extend(
            pre.iter()
                .filter_map(|v| serde_json::from_value::<Rpc>(v.clone()).ok()),
        );
    }
    let is_true = |k: &str| flag(&form, k) == Some(&Value::Bool(true));
    if !is_true("noListRequest") {
        let req = own
            .get("listRequest")
            .and_then(|v| serde_json::from_value::<Rpc>(v.clone()).ok())
            .unwrap_or_else(default_list_request);
        out.push(req);
    }
    if !is_true("noListResult") || !x.tools.is_empty() {
        let mut res = own
            .get("listResult")
            .and_then(|v| serde_json::from_value::<Rpc>(v.clone()).ok())
            .unwrap_or_else(default_list_result);
        let at = out.len();
        for (k, t) in x.tools.iter().enumerate() {
            if let Some(h) = &t.hosted {
                let later = x.tools.iter().skip(k + 1).any(|t| t.hosted.is_none());
                losses.dropped(
                    shared::drop_pointer("/tools", k, later),
                    h.what(),
                    h.why_dropped("an MCP server lists only its own tools"),
                );
            }
        }
        let tools: Vec<WireTool> = x
            .tools
            .iter()
            .enumerate()
            .filter(|(_, t)| t.hosted.is_none())
            .map(|(k, t)| {
                let mut l = Losses::new();
                let w = encode_tool(t, k, &mut l);
                for mut loss in l.into_vec() {
                    loss.target = Some(format!("/{at}/result/tools/{k}"));
                    losses.0.push(loss);
                }
                w
            })
            .collect();
        let extra = match res.result.take() {
            Some(Value::Object(mut m)) => {
                m.remove("tools");
                m
            }
            _ => Map::new(),
        };
        res.result = Some(to_value(&ListToolsResult { tools, extra }));
        out.push(res);
    }
    let mut unpaired = 0usize;
    // Roles of the messages that left something in the transcript, to see which turns the
    // decoder would merge.
    let mut kept: Vec<Role> = Vec::new();
    let mut turns: Vec<(Role, bool)> = Vec::new();
    for (i, m) in x.messages.iter().enumerate() {
        drop_message_extra(m, i, &mut losses);
        let rpcs = match m.role {
            Role::User => Vec::new(),
            Role::Assistant => encode_assistant(m, i, &mut losses),
            Role::Tool => {
                let mut rs = Vec::new();
                for (j, part) in m.parts.iter().enumerate() {
                    let p = format!("/messages/{i}/parts/{j}");
                    match part {
                        Part::ToolResult(r) => {
                            rs.push(encode_result(r, &p, &mut unpaired, &mut losses))
                        }
                        _ => {
                            losses.dropped(
                                p,
                                "non-result part of a Tool message",
                                "Tool messages hold only tool results",
                            );
                        }
                    }
                }
                rs
            }
        };
        turns.push((m.role, !rpcs.is_empty()));
        if !rpcs.is_empty() {
            kept.push(m.role);
            out.extend(rpcs);
        }
    }
    report_dropped_turns(&turns, &mut losses);
    if kept.windows(2).any(|w| w[0] == w[1]) {
        losses.rewritten(
            "/messages",
            "turns of the same role in a row",
            "consecutive tools/call requests read back as one assistant turn, consecutive \
             responses as one Tool message",
        );
    }
    let single = is_true("single") && out.len() == 1;
    (
        Document {
            messages: out,
            single,
        },
        losses.into_vec(),
    )
}

/// The model's last turn → its `tools/call` requests (an empty array when it made none).
pub fn encode_response(x: &Exchange) -> (Document, Vec<Loss>) {
    let mut losses = Losses::new();
    let (v, id_losses) = assign_missing_ids(&x.response_view(), WHY_IDS);
    losses.extend(id_losses);
    let no_turn = (
        "response without an assistant turn",
        "the exchange does not end with the model speaking",
    );
    let Some(m) = shared::response_turn(&v, &mut losses, WHY_PROVIDER, no_turn) else {
        return (Document::default(), losses.into_vec());
    };
    drop_message_extra(m, 0, &mut losses);
    let mut part_losses = Losses::new();
    let mut out = Vec::new();
    for (j, part) in m.parts.iter().enumerate() {
        let p = format!("/messages/0/parts/{j}");
        if encode_rpc_part(
            part,
            &p,
            ("MCP block", "not a JSON-RPC message"),
            &mut out,
            &mut part_losses,
        ) {
            continue;
        }
        match part {
            Part::Text { text, .. } => {
                part_losses.dropped(
                    p,
                    format!("assistant text ({} chars)", text.chars().count()),
                    WHY_TURNS,
                );
            }
            other => {
                let what = match other {
                    Part::Raw { format, value } => crate::model::media_label(format, value),
                    _ => "tool result in an assistant message".into(),
                };
                part_losses.dropped(p, what, "a response holds the model's tools/call requests");
            }
        }
    }
    losses.extend(part_losses.into_vec());
    let derived = crate::formats::shared::derived_stop(m);
    match &m.stop_reason {
        Some(s) if *s == derived => {}
        None => {
            losses.added(
                "/messages/0/stop_reason",
                format!("stop reason {derived:?}"),
                "MCP has no stop reason; it is derived from the calls",
            );
        }
        Some(s) => {
            losses.rewritten(
                "/messages/0/stop_reason",
                format!("stop reason {s:?} read back as {derived:?}"),
                "MCP has no stop reason; it is derived from the calls",
            );
        }
    }
    if m.usage.is_some() {
        losses.dropped("/messages/0/usage", "token usage", WHY_PROVIDER);
    }
    let single =
        Own::of(&m.extra, ID).forms().get("single") == Some(&Value::Bool(true)) && out.len() == 1;
    (
        Document {
            messages: out,
            single,
        },
        losses.into_vec(),
    )
}

// ---------------------------------------------------------------------------------------------
// Decoding

#[derive(Clone, Copy, PartialEq)]
enum Pending {
    List,
    Call,
    Other,
}

#[derive(Default)]
struct Decoder {
    losses: Losses,
    x: Exchange,
    /// Requests awaiting a response: (JSON-RPC id, what they asked).
    pending: Vec<(Value, Pending)>,
    list_request: bool,
    list_result: bool,
    seen_call: bool,
    /// Messages before any tools message: a preamble when a `tools/list` follows them.
    early: Vec<Value>,
}

impl Decoder {
    fn last_role(&self) -> Option<Role> {
        self.x.messages.last().map(|m| m.role)
    }

    /// Append a part to the current message of `role`, opening one when the last differs.
    fn push(&mut self, role: Role, part: Part) -> (usize, usize) {
        if self.last_role() != Some(role) {
            self.x.messages.push(Message::new(role, Vec::new()));
        }
        let i = self.x.messages.len() - 1;
        let msg = &mut self.x.messages[i];
        msg.parts.push(part);
        (i, msg.parts.len() - 1)
    }

    fn flush_early(&mut self) {
        for v in std::mem::take(&mut self.early) {
            self.push(
                Role::Assistant,
                Part::Raw {
                    format: ID.into(),
                    value: v,
                },
            );
        }
    }

    fn raw(&mut self, m: &Rpc) {
        let v = to_value(m);
        if !self.list_request && !self.list_result && !self.seen_call && self.x.messages.is_empty()
        {
            self.early.push(v);
        } else {
            self.push(
                Role::Assistant,
                Part::Raw {
                    format: ID.into(),
                    value: v,
                },
            );
        }
    }

    fn list_seen(&mut self) {
        if !self.early.is_empty() {
            let pre = std::mem::take(&mut self.early);
            Keep::of(&mut self.x.extra, ID).put("preamble", Value::Array(pre));
        }
    }

    fn take_pending(&mut self, id: &Field<Value>) -> Option<Pending> {
        let id = id.value()?;
        let k = self.pending.iter().rposition(|(p, _)| p == id)?;
        Some(self.pending.remove(k).1)
    }

    fn message(&mut self, m: Rpc, p: &str) -> Result<(), DecodeError> {
        if m.jsonrpc != "2.0" {
            return Err(DecodeError::at(
                ID,
                format!("{p}/jsonrpc"),
                format!("jsonrpc must be \"2.0\", not {:?}", m.jsonrpc),
            ));
        }
        let has_id = matches!(m.id, Field::Value(_));
        match m.method.as_deref() {
            Some("tools/list") if has_id && !self.list_request && !self.seen_call => {
                self.list_request = true;
                self.list_seen();
                if let Field::Value(id) = &m.id {
                    self.pending.push((id.clone(), Pending::List));
                }
                if m != default_list_request() {
                    Keep::of(&mut self.x.extra, ID).put("listRequest", to_value(&m));
                }
                Ok(())
            }
            Some("tools/call") if has_id => self.call(m, p),
            Some(_) => {
                if let Field::Value(id) = &m.id {
                    self.pending.push((id.clone(), Pending::Other));
                }
                self.raw(&m);
                Ok(())
            }
            None if m.result.is_some() || m.error.is_some() => {
                let pending = self.take_pending(&m.id);
                let looks_like_list = m
                    .result
                    .as_ref()
                    .is_some_and(|r| r.get("tools").is_some_and(Value::is_array));
                let looks_like_call = m.error.is_some()
                    || m.result
                        .as_ref()
                        .is_some_and(|r| r.get("content").is_some());
                match pending {
                    Some(Pending::List) if m.result.is_some() && !self.list_result => {
                        self.list(m, p)
                    }
                    Some(Pending::Call) => self.result(m, p),
                    None if looks_like_list && !self.list_result && !self.seen_call => {
                        self.list(m, p)
                    }
                    // An error without an id answers a request the server could not read:
                    // a tool call's only when no other request is waiting.
                    None if looks_like_call
                        && !(m.error.is_some()
                            && matches!(m.id, Field::Null)
                            && self
                                .pending
                                .iter()
                                .any(|(_, k)| matches!(k, Pending::Other))
                            && !self.pending.iter().any(|(_, k)| matches!(k, Pending::Call))) =>
                    {
                        self.result(m, p)
                    }
                    _ => {
                        self.raw(&m);
                        Ok(())
                    }
                }
            }
            None => {
                self.raw(&m);
                Ok(())
            }
        }
    }

    fn list(&mut self, mut m: Rpc, p: &str) -> Result<(), DecodeError> {
        self.list_result = true;
        self.list_seen();
        let result: ListToolsResult = DecodeError::typed(
            ID,
            m.result.take().unwrap_or(Value::Null),
            &format!("{p}/result"),
        )?;
        for t in result.tools {
            let mut tool = Tool {
                name: t.name,
                description: t.description,
                input_schema: t.input_schema,
                strict: None,
                output_schema: t.output_schema,
                annotations: t.annotations,
                hosted: None,
                custom: None,
                extra: Extra::new(),
            };
            if !t.extra.is_empty() {
                tool.extra.insert(ID.into(), t.extra);
            }
            self.x.tools.push(tool);
        }
        m.result = Some(Value::Object(result.extra));
        if m != default_list_result() {
            Keep::of(&mut self.x.extra, ID).put("listResult", to_value(&m));
        }
        Ok(())
    }

    /// A JSON-RPC id as a canonical id (integers become their decimal text, marked).
    fn id_of(id: &Field<Value>, p: &str, extra: &mut Extra) -> Result<Option<String>, DecodeError> {
        match id {
            Field::Value(Value::String(s)) => Ok(Some(s.clone())),
            Field::Value(Value::Number(n)) if n.is_i64() || n.is_u64() => {
                Keep::of(extra, ID).form("numericId", Value::Bool(true));
                Ok(Some(n.to_string()))
            }
            Field::Value(_) => Err(DecodeError::at(
                ID,
                format!("{p}/id"),
                "a JSON-RPC id is a string or an integer",
            )),
            Field::Null => {
                Keep::of(extra, ID).form("id", Value::Null);
                Ok(None)
            }
            Field::Absent => {
                Keep::of(extra, ID).form("id", Value::String("absent".into()));
                Ok(None)
            }
        }
    }

    fn call(&mut self, m: Rpc, p: &str) -> Result<(), DecodeError> {
        self.flush_early();
        self.seen_call = true;
        let Some(params) = m.params else {
            return Err(DecodeError::at(
                ID,
                p,
                "a tools/call request needs params with the tool name",
            ));
        };
        let params: CallToolParams = DecodeError::typed(ID, params, &format!("{p}/params"))?;
        let mut extra = Extra::new();
        let id = Self::id_of(&m.id, p, &mut extra)?;
        if let Field::Value(v) = &m.id {
            self.pending.push((v.clone(), Pending::Call));
        }
        let mut call = ToolCall::new(id, params.name, json!({}));
        match params.arguments {
            Some(v) => call.arguments = v,
            None => Keep::of(&mut extra, ID).form("arguments", Value::Bool(false)),
        }
        match params.meta {
            None => Keep::of(&mut extra, ID).form("meta", Value::Bool(false)),
            Some(meta) if meta == default_meta() => {}
            Some(meta) => Keep::of(&mut extra, ID).put("_meta", meta),
        }
        for (k, v) in params.extra {
            Keep::of(&mut extra, ID).put(&k, v);
        }
        if !m.extra.is_empty() {
            Keep::of(&mut extra, ID).put("envelope", Value::Object(m.extra));
        }
        call.extra = extra;
        self.push(Role::Assistant, Part::ToolCall(call));
        Ok(())
    }

    fn result(&mut self, m: Rpc, p: &str) -> Result<(), DecodeError> {
        self.flush_early();
        let mut extra = Extra::new();
        let call_id = Self::id_of(&m.id, p, &mut extra)?;
        if !m.extra.is_empty() {
            Keep::of(&mut extra, ID).put("envelope", Value::Object(m.extra));
        }
        if let Some(err) = m.error {
            let err: RpcError = DecodeError::typed(ID, err, &format!("{p}/error"))?;
            let mut details = err.extra;
            details.insert("code".into(), json!(err.code));
            Keep::of(&mut extra, ID).put("error", Value::Object(details));
            let mut r = ToolResult::new(call_id, ResultContent::Text(err.message));
            r.is_error = true;
            r.extra = extra;
            let (i, j) = self.push(Role::Tool, Part::ToolResult(r));
            self.losses.rewritten(
                format!("/messages/{i}/parts/{j}"),
                format!("JSON-RPC error {} read as an error result", err.code),
                "the model sees a failed call either way; other formats have no error codes",
            );
            return Ok(());
        }
        let r = read_result(
            call_id,
            m.result.unwrap_or(Value::Null),
            &format!("{p}/result"),
            extra,
        )?;
        self.push(Role::Tool, Part::ToolResult(r));
        Ok(())
    }
}

/// A `tools/call` result (the JSON-RPC `result` object) as a canonical tool result, read as the
/// transcript decoder reads it: what the model has no field for (`_meta`, the content next to
/// `structuredContent`, a `resultType` other than `complete`) rides in `extra.mcp`, so the
/// result is written back field for field. `at` is the JSON pointer errors are reported under.
pub fn call_result(
    call_id: Option<String>,
    result: Value,
    at: &str,
) -> Result<ToolResult, DecodeError> {
    read_result(call_id, result, at, Extra::new())
}

/// [`call_result`] adding to `extra` (what the envelope already put there: id form, …).
fn read_result(
    call_id: Option<String>,
    result: Value,
    at: &str,
    mut extra: Extra,
) -> Result<ToolResult, DecodeError> {
    let result: CallToolResult = DecodeError::typed(ID, result, at)?;
    let content = match result.structured_content {
        Field::Absent => read_content(&result.content),
        structured => {
            let v = structured.to_json().unwrap_or(Value::Null);
            if result.content != [Content::Text(json_text(&v))] {
                Keep::of(&mut extra, ID).put("content", to_value(&result.content));
            }
            ResultContent::Json(v)
        }
    };
    let mut r = ToolResult::new(call_id, content);
    match result.is_error {
        Some(true) => r.is_error = true,
        Some(false) => Keep::of(&mut extra, ID).form("isError", Value::Bool(false)),
        None => {}
    }
    match result.result_type.as_deref() {
        None => Keep::of(&mut extra, ID).form("resultType", Value::Bool(false)),
        Some("complete") => {}
        Some(other) => Keep::of(&mut extra, ID).put("resultType", Value::String(other.into())),
    }
    for (k, v) in result.extra {
        Keep::of(&mut extra, ID).put(&k, v);
    }
    r.extra = extra;
    Ok(r)
}

fn pointer_of(doc: &Document, i: usize) -> String {
    if doc.single {
        String::new()
    } else {
        format!("/{i}")
    }
}

fn run(doc: Document) -> Result<Decoder, DecodeError> {
    let mut d = Decoder::default();
    let pointers: Vec<String> = (0..doc.messages.len())
        .map(|i| pointer_of(&doc, i))
        .collect();
    for (m, p) in doc.messages.into_iter().zip(pointers) {
        d.message(m, &p)?;
    }
    d.flush_early();
    Ok(d)
}

/// Transcript → model.
pub fn decode_request(doc: Document) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let single = doc.single;
    let mut d = run(doc)?;
    if !d.list_request {
        Keep::of(&mut d.x.extra, ID).form("noListRequest", Value::Bool(true));
    }
    if !d.list_result {
        Keep::of(&mut d.x.extra, ID).form("noListResult", Value::Bool(true));
    }
    if single {
        Keep::of(&mut d.x.extra, ID).form("single", Value::Bool(true));
    }
    Ok((d.x, d.losses.into_vec()))
}

/// The model's `tools/call` requests → one assistant message.
pub fn decode_response(doc: Document) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    for (i, m) in doc.messages.iter().enumerate() {
        if m.method.is_none() {
            return Err(DecodeError::at(
                ID,
                pointer_of(&doc, i),
                "an MCP response document holds the model's tools/call requests only; \
                 read a transcript with responses as a request",
            ));
        }
        if m.method.as_deref() == Some("tools/list") {
            return Err(DecodeError::at(
                ID,
                format!("{}/method", pointer_of(&doc, i)),
                "tools/list belongs in a request transcript, not in the model's response",
            ));
        }
    }
    let single = doc.single;
    let d = run(doc)?;
    let mut msg = Message::new(Role::Assistant, Vec::new());
    for m in d.x.messages {
        msg.parts.extend(m.parts);
    }
    msg.stop_reason = Some(crate::formats::shared::derived_stop(&msg));
    if single {
        Keep::of(&mut msg.extra, ID).form("single", Value::Bool(true));
    }
    let x = Exchange {
        messages: vec![msg],
        ..Exchange::default()
    };
    Ok((x, d.losses.into_vec()))
}

/// A JSON-RPC 2.0 transcript or message: 98. A document of only `tools/call` requests (or
/// the empty transcript a turn without calls encodes to) is a response, anything else a
/// request.
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let is_rpc = |m: &Node| m.get("jsonrpc").and_then(Node::as_str) == Some("2.0");
    let is_call = |m: &Node| {
        m.get("method").and_then(Node::as_str) == Some("tools/call") && m.get("id").is_some()
    };
    match v {
        Node::Array(a) if a.is_empty() => Some((Kind::Response, 50)),
        Node::Array(a) if a.iter().all(is_rpc) => Some(if a.iter().all(is_call) {
            (Kind::Response, 98)
        } else {
            (Kind::Request, 98)
        }),
        Node::Object(_) if is_rpc(v) => Some(if is_call(v) {
            (Kind::Response, 98)
        } else {
            (Kind::Request, 98)
        }),
        _ => None,
    }
}
