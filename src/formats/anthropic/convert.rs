//! Anthropic Messages ⇄ canonical model.
//!
//! Encoding reports everything the Messages API cannot carry; decoding is faithful and reports
//! what it normalises. Pointers of losses are into the serialised canonical `Exchange`; targets
//! are into the emitted document.

use super::wire::{
    self, AssistantTag, Base64Source, Base64Tag, Block, Content, CustomTool, ImageBlock, ImageTag,
    MessageParam, MessageTag, ResultContent as WireResult, System, TextBlock, ToolDef,
    ToolResultBlock, ToolUseBlock, WireRole,
};
use crate::formats::blocks::{self, BlockFormat, ReadsAs};
use crate::formats::json::{self, escape};
use crate::formats::shared::{self, drop_pointer, option_pointer, Finish};
use crate::formats::sniff::{Node, Object};
use crate::formats::turns::{self, Turns};
use crate::formats::{DecodeError, Encoded, Kind};
use crate::model::{
    assign_missing_ids, rewrite_ids, Block as ModelBlock, ChoiceMode, Exchange, Extra, HostedKind,
    HostedStep, HostedTool, IdRule, Loss, Losses, Message, Opaque, OpaqueKind, Part, Reasoning,
    ResultContent, Role, Tool, ToolCall, ToolChoice, ToolResult, Usage,
};
use crate::text::Ptr;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashSet;

/// Format id.
pub const ID: &str = "anthropic";
/// Provider family id of the state Anthropic issues (thinking signatures, redacted thinking).
const PROVIDER: &str = "anthropic";
/// Model emitted when the exchange names none (the API requires one).
pub const PLACEHOLDER_MODEL: &str = crate::model::ModelFamily::Anthropic.default_model();
/// `max_tokens` emitted when the exchange sets none (the API requires it).
pub const PLACEHOLDER_MAX_TOKENS: u64 = 1024;
/// Response id emitted when the message has none; read back as no id.
pub const PLACEHOLDER_ID: &str = "msg_toolscope";
/// `tool_use_id` emitted for a result that answers no call at all.
pub const UNPAIRED_ID: &str = "toolu_unpaired";

const WHY_IDS: &str = "Anthropic pairs every tool_result with its tool_use by id";
const WHY_SAMPLING: &str = "the Messages API no longer accepts sampling parameters \
     (API version 2026-10-21, SDK 2.x); older API versions did";
/// Image types the API accepts in a base64 source.
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/// Stop reasons of the SDK's `StopReason`.
const FINISH: Finish = Finish {
    end_turn: "end_turn",
    tool_use: "tool_use",
    max_tokens: "max_tokens",
    stop_sequence: Some("stop_sequence"),
    content_filter: Some("refusal"),
    others: &[
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
    ],
};
/// Top-level `Message` fields a request message cannot carry (they come from a pasted response).
const RESPONSE_ONLY: [&str; 9] = [
    "id",
    "type",
    "model",
    "stop_reason",
    "stop_sequence",
    "usage",
    "container",
    "stop_details",
    "diagnostics",
];

// ---------------------------------------------------------------------------------------------
// Small helpers

/// Texts of the text blocks, joined by newlines.
fn blocks_text(blocks: &[Block]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(t.text.as_ref()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_system_marked(m: &Message) -> bool {
    m.role == Role::User
        && m.extra
            .get(ID)
            .and_then(|e| e.get("role"))
            .and_then(Value::as_str)
            == Some("system")
}

/// The wire role a canonical message is written with.
fn wire_role(m: &Message) -> WireRole {
    match m.role {
        Role::Assistant => WireRole::Assistant,
        _ if is_system_marked(m) => WireRole::System,
        _ => WireRole::User,
    }
}

/// Anthropic's turns for the shared grouping.
struct Messages;

impl Turns for Messages {
    type Role = WireRole;
    const ID: &'static str = ID;
    const PROVIDER: &'static str = "Anthropic";
    const USER: WireRole = WireRole::User;
    const ASSISTANT: WireRole = WireRole::Assistant;
    fn wire_role(m: &Message) -> WireRole {
        wire_role(m)
    }
    /// A user message marked as a system message stays on its own.
    fn joins(next: &Message) -> bool {
        !is_system_marked(next)
    }
    fn kept(role: WireRole, response: bool, part: &Part) -> bool {
        match part {
            Part::Reasoning(r) => reasoning_kept(role, r),
            Part::Hosted(h) => h.format == ID && role == WireRole::Assistant,
            Part::Text { text, .. } => response || !text.is_empty(),
            Part::ToolCall(_) => role == WireRole::Assistant,
            Part::ToolResult(_) => role == WireRole::User && !response,
            Part::Raw { format, .. } => format == ID,
        }
    }
}

impl BlockFormat for Messages {
    type Block<'a> = Block<'a>;
    const ISSUER: &'static str = PROVIDER;
    const FINISH: Finish = FINISH;
    const STOP_AT: &'static str = "/stop_reason";
    const WHY_STOP: &'static str = "an Anthropic response states why the model stopped";
    const RESPONSE_ONLY: &'static [&'static str] = &RESPONSE_ONLY;
    const WHY_REQUEST_MESSAGE: &'static str =
        "an Anthropic request message has only a role and content";
    const MESSAGE_RESERVED: &'static [&'static str] = &["content"];
    const WHY_REASONING_ROLE: &'static str =
        "Anthropic thinking blocks belong in assistant messages";
    const WHY_UNSIGNED: &'static str = WHY_UNSIGNED;

    const WHY_EMPTY_TEXT: &'static str = "the API rejects empty text blocks";
    const WHY_CALL_ROLE: &'static str = "Anthropic tool_use blocks belong in assistant messages";
    const WHY_RESULT_ROLE: &'static str = "Anthropic tool_result blocks belong in user messages";

    fn text<'a>(ctx: &PartCtx, text: &'a str, extra: &'a Extra, losses: &mut Losses) -> Block<'a> {
        let p = &ctx.pointer;
        let mut fields = shared::own_fields(ID, extra, &["type", "text"], p, losses);
        if ctx.response {
            response_only_fields(&mut fields, &["citations"], p, losses);
        }
        Block::Text(TextBlock {
            text: Cow::Borrowed(text),
            extra: fields,
        })
    }

    fn call<'a>(ctx: &PartCtx, call: &'a ToolCall, losses: &mut Losses) -> Block<'a> {
        let p = &ctx.pointer;
        let input = encode_arguments(call, p, &ctx.target, losses);
        let mut fields =
            shared::own_fields(ID, &call.extra, &["type", "id", "name", "input"], p, losses);
        if ctx.response {
            response_only_fields(&mut fields, &["caller", "toolset_name"], p, losses);
        }
        Block::ToolUse(ToolUseBlock {
            id: Cow::Borrowed(call.id.as_deref().unwrap_or_default()),
            name: Cow::Borrowed(&call.name),
            input,
            extra: fields,
        })
    }

    fn result<'a>(ctx: &PartCtx, r: &'a ToolResult, losses: &mut Losses) -> Block<'a> {
        Block::ToolResult(encode_result(r, ctx, losses))
    }

    fn reasoning<'a>(ctx: &PartCtx, r: &'a Reasoning, losses: &mut Losses) -> Option<Block<'a>> {
        encode_reasoning(ctx, r, losses)
    }

    fn raw(v: &Value) -> Block<'_> {
        Block::Raw(Cow::Borrowed(v))
    }

    /// The system marker is read from the model's role, not copied.
    fn strip_message_fields(fields: &mut Map<String, Value>) {
        fields.remove("role");
    }

    fn own_state_dropped(o: &Opaque) -> Option<(String, &'static str)> {
        Some((
            format!("Anthropic {}", o.kind.label()),
            "Anthropic thinking carries a signature or redacted data, not this kind of state",
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Encoding: parts

/// Where a part is and what it becomes (see [`blocks::PartCtx`]).
type PartCtx<'a> = blocks::PartCtx<'a, WireRole>;

/// Why visible reasoning without Anthropic's signature is not sent.
const WHY_UNSIGNED: &str =
    "Anthropic takes thinking back only with the signature Anthropic issued \
     for it: the API rejects unsigned thinking blocks";

/// Whether a reasoning part is written to an Anthropic message of this role: its own signed or
/// redacted thinking, in an assistant message.
fn reasoning_kept(role: WireRole, r: &Reasoning) -> bool {
    role == WireRole::Assistant
        && r.opaque.as_ref().is_some_and(|o| {
            o.replayable_to(PROVIDER)
                && matches!(o.kind, OpaqueKind::Signature | OpaqueKind::Redacted)
        })
}

/// A reasoning part as a `thinking` or `redacted_thinking` block when Anthropic issued its
/// state; else dropped with a reasoning loss for its state and one for its text.
fn encode_reasoning<'a>(ctx: &PartCtx, r: &'a Reasoning, losses: &mut Losses) -> Option<Block<'a>> {
    let p = &ctx.pointer;
    if reasoning_kept(ctx.role, r) {
        let o = r.opaque.as_ref()?;
        let mut fields = shared::own_fields(
            ID,
            &r.extra,
            &["type", "thinking", "signature", "data"],
            p,
            losses,
        );
        if !r.summary.is_empty() {
            losses.reasoning(
                format!("{p}/summary"),
                "reasoning summary",
                "an Anthropic thinking block has one text, no summaries",
            );
        }
        let mut m = Map::new();
        if o.kind == OpaqueKind::Signature {
            m.insert("type".into(), Value::String("thinking".into()));
            m.insert(
                "thinking".into(),
                Value::String(r.text.clone().unwrap_or_default()),
            );
            m.insert("signature".into(), Value::String(o.data.clone()));
        } else {
            m.insert("type".into(), Value::String("redacted_thinking".into()));
            m.insert("data".into(), Value::String(o.data.clone()));
            if r.text.as_deref().is_some_and(|t| !t.is_empty()) {
                losses.reasoning(
                    format!("{p}/text"),
                    "reasoning text beside redacted thinking",
                    "an Anthropic redacted_thinking block has only its encrypted data",
                );
            }
        }
        m.append(&mut fields);
        return Some(Block::Raw(Cow::Owned(Value::Object(m))));
    }
    blocks::drop_reasoning::<Messages>(ctx, r, losses);
    None
}

/// Keep only the block fields a response `Message` declares; drop request-only ones
/// (`cache_control`) with a report.
fn response_only_fields(
    fields: &mut Map<String, Value>,
    allowed: &[&str],
    pointer: &Ptr,
    losses: &mut Losses,
) {
    let extra_keys: Vec<String> = fields
        .keys()
        .filter(|k| !allowed.contains(&k.as_str()))
        .cloned()
        .collect();
    for k in extra_keys {
        fields.remove(&k);
        losses.dropped(
            format!("{pointer}/extra/{ID}/{}", escape(&k)),
            format!("block field {k}"),
            "a response content block has no such field (request only)",
        );
    }
}

fn encode_result<'a>(r: &'a ToolResult, ctx: &PartCtx, losses: &mut Losses) -> ToolResultBlock<'a> {
    let p = ctx.pointer;
    let tool_use_id = match &r.call_id {
        Some(id) => Cow::Borrowed(id.as_str()),
        None => {
            losses
                .added(
                    format!("{p}/call_id"),
                    format!("tool_use_id {UNPAIRED_ID:?} for a result that answers no call"),
                    WHY_IDS,
                )
                .at(format!("{}/tool_use_id", ctx.target));
            Cow::Borrowed(UNPAIRED_ID)
        }
    };
    if let Some(name) = &r.name {
        losses.dropped(
            format!("{p}/name"),
            format!("tool name {name:?} on the result"),
            "Anthropic tool_result blocks name only the tool_use_id",
        );
    }
    let mut fields =
        shared::own_fields(ID, &r.extra, &["type", "tool_use_id", "content"], p, losses);
    // An explicit `"is_error": false` of a pasted document, kept (as a form marker, or as a
    // plain field by older states) so it is written back.
    let explicit_false = fields.remove("is_error") == Some(Value::Bool(false))
        || r.extra
            .get(ID)
            .and_then(|m| m.get(EXPLICIT_NO_ERROR))
            .is_some_and(|v| *v == Value::Bool(false));
    let is_error = if r.is_error {
        Some(true)
    } else if explicit_false {
        Some(false)
    } else {
        None
    };
    let content = match &r.content {
        ResultContent::Text(t) if t.is_empty() => None,
        ResultContent::Text(t) => Some(WireResult::Text(Cow::Borrowed(t))),
        ResultContent::Json(v) => {
            losses
                .rewritten(
                    format!("{p}/content"),
                    "JSON result sent as JSON text",
                    "Anthropic tool_result content is a string or content blocks",
                )
                .at(format!("{}/content", ctx.target));
            Some(WireResult::Text(Cow::Owned(
                serde_json::to_string(v).unwrap_or_else(|_| "null".into()),
            )))
        }
        ResultContent::Blocks(blocks) => {
            let keep = |b: &ModelBlock| match b {
                ModelBlock::Text { text } => !text.is_empty(),
                ModelBlock::Image { media_type, .. } => IMAGE_TYPES.contains(&media_type.as_str()),
                ModelBlock::Raw { format, .. } => format == ID,
            };
            let list = format!("{p}/content/blocks");
            let mut out = Vec::new();
            for (k, b) in blocks.iter().enumerate() {
                let bp = drop_pointer(&list, k, blocks.iter().skip(k + 1).any(keep));
                match b {
                    ModelBlock::Text { text } if text.is_empty() => {
                        losses.dropped(bp, "empty text block", "the API rejects empty text blocks");
                    }
                    ModelBlock::Text { text } => out.push(Block::Text(TextBlock {
                        text: Cow::Borrowed(text),
                        extra: Map::new(),
                    })),
                    ModelBlock::Image { media_type, data } => {
                        if IMAGE_TYPES.contains(&media_type.as_str()) {
                            let img = ImageBlock {
                                kind: ImageTag::Image,
                                source: Base64Source {
                                    kind: Base64Tag::Base64,
                                    media_type: media_type.clone(),
                                    data: data.clone(),
                                },
                            };
                            out.push(Block::Raw(Cow::Owned(
                                serde_json::to_value(img).unwrap_or(Value::Null),
                            )));
                        } else {
                            losses.dropped(
                                bp,
                                format!("{media_type} image"),
                                "Anthropic accepts JPEG, PNG, GIF and WebP images",
                            );
                        }
                    }
                    ModelBlock::Raw { format, value } if format == ID => {
                        out.push(Block::Raw(Cow::Borrowed(value)))
                    }
                    ModelBlock::Raw { format, value } => {
                        losses.dropped(
                            bp,
                            crate::model::media_label(format, value),
                            crate::model::raw_why(
                                format,
                                value,
                                format!("only {format} has this kind of block"),
                            ),
                        );
                    }
                }
            }
            Some(WireResult::Blocks(out))
        }
    };
    ToolResultBlock {
        tool_use_id,
        content,
        is_error,
        extra: fields,
    }
}

// ---------------------------------------------------------------------------------------------
// Encoding: request

/// Model → request body, owning its texts and values.
pub fn encode_request(x: &Exchange) -> (wire::Request<'static>, Vec<Loss>) {
    with_request(x, |doc| doc.into_owned())
}

/// Model → request text: the body borrows the exchange's texts and values (nothing to copy
/// into it or free after it) and is printed at once.
pub fn write_request(x: &Exchange) -> Encoded {
    let (text, losses) = with_request(x, |doc| json::pretty(&doc));
    Encoded { text, losses }
}

/// `f` of the request body, with the losses of writing it (ids settled first).
fn with_request<T>(x: &Exchange, f: impl FnOnce(wire::Request) -> T) -> (T, Vec<Loss>) {
    let mut losses = Losses::new();
    let (x, l) = crate::model::settle_ids(x, WHY_IDS, Some(&IdRule::ANTHROPIC));
    losses.extend(l);
    let doc = f(request(&x, &mut losses));
    (doc, losses.into_vec())
}

/// The request body of an exchange whose ids are settled.
fn request<'a>(x: &'a Exchange, losses: &mut Losses) -> wire::Request<'a> {
    let adopted = shared::adopt_common(&x.extra, ID, losses);
    losses.foreign_extra(&adopted, ID, "");
    let mut extra = adopted.get(ID).cloned().unwrap_or_default();
    let stored_system = extra.remove("system");
    let layout = extra.remove("tools");
    let choice_extra = extra.remove("tool_choice");
    for k in [
        "model",
        "max_tokens",
        "messages",
        "temperature",
        "top_p",
        "stop_sequences",
    ] {
        if extra.remove(k).is_some() {
            losses.dropped(
                format!("/extra/{ID}/{k}"),
                format!("extra field {k:?}"),
                "the encoder writes this field from the model itself",
            );
        }
    }

    encode_reasoning_options(x, &mut extra, losses);
    let system = encode_system(x, stored_system, losses);
    let tools = encode_tools(x, layout, losses);
    let tool_choice = encode_tool_choice(x, choice_extra, losses);

    let model = crate::model::encoder_model(
        x,
        crate::model::ModelFamily::Anthropic,
        "/model",
        "model",
        "the Messages API requires a model",
        losses,
    );
    let max_tokens = match x.options.max_tokens {
        Some(n) => n,
        None => {
            losses
                .added(
                    option_pointer(x, "max_tokens"),
                    format!("max_tokens {PLACEHOLDER_MAX_TOKENS}"),
                    "the Messages API requires max_tokens",
                )
                .at("/max_tokens");
            PLACEHOLDER_MAX_TOKENS
        }
    };
    if let Some(t) = x.options.temperature {
        losses.dropped(
            "/options/temperature",
            format!("temperature {t}"),
            WHY_SAMPLING,
        );
    }
    if let Some(t) = x.options.top_p {
        losses.dropped("/options/top_p", format!("top_p {t}"), WHY_SAMPLING);
    }
    let stop_sequences = (!x.options.stop.is_empty()).then(|| x.options.stop.clone());

    let messages = encode_messages(&x.messages, losses);

    wire::Request {
        model: Some(model),
        max_tokens: Some(max_tokens),
        system,
        tools,
        tool_choice,
        temperature: None,
        top_p: None,
        stop_sequences,
        messages,
        extra,
    }
}

/// Effort levels of `output_config.effort` (SDK `OutputConfigParam`).
const EFFORTS: [&str; 5] = ["low", "medium", "high", "xhigh", "max"];

/// `Options.reasoning` as `thinking` (`enabled` with `budget_tokens`, `adaptive`, `disabled`)
/// and `output_config.effort`, merged with the fields of a pasted document kept beside them
/// (`thinking.display`, `output_config.format`, a `thinking` type the model does not map).
fn encode_reasoning_options(x: &Exchange, extra: &mut Map<String, Value>, losses: &mut Losses) {
    let r = &x.options.reasoning;
    if r.enabled.is_some() || r.budget.is_some() {
        let mut m = match extra.remove("thinking") {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        m.remove("budget_tokens");
        let kind = match (r.enabled, r.budget) {
            (Some(false), budget) => {
                if let Some(b) = budget {
                    losses.dropped(
                        "/options/reasoning/budget",
                        format!("thinking budget {b}"),
                        "thinking is off: Anthropic's disabled thinking takes no budget",
                    );
                }
                "disabled"
            }
            (_, Some(b)) => {
                m.insert("budget_tokens".into(), Value::from(b));
                "enabled"
            }
            (_, None) => "adaptive",
        };
        m.insert("type".into(), Value::String(kind.into()));
        extra.insert("thinking".into(), Value::Object(m));
    }
    if let Some(effort) = &r.effort {
        let (level, loss) = match effort.as_str() {
            e if EFFORTS.contains(&e) => (Some(e), None),
            "minimal" => (
                Some("low"),
                Some("Anthropic's lowest effort is low; minimal is sent as low"),
            ),
            _ => (
                None,
                Some("Anthropic's effort levels are low, medium, high, xhigh and max"),
            ),
        };
        if let Some(why) = loss {
            let p = "/options/reasoning/effort";
            match level {
                Some(l) => losses.rewritten(p, format!("effort {effort} sent as {l}"), why),
                None => losses.dropped(p, format!("effort {effort}"), why),
            };
        }
        if let Some(level) = level {
            let mut m = match extra.remove("output_config") {
                Some(Value::Object(m)) => m,
                _ => Map::new(),
            };
            m.insert("effort".into(), Value::String(level.into()));
            extra.insert("output_config".into(), Value::Object(m));
        }
    }
    if let Some(summary) = &r.summary {
        losses.dropped(
            "/options/reasoning/summary",
            format!("reasoning summary setting {summary:?}"),
            "Anthropic has no such setting (thinking.display says only whether thinking is \
             shown or omitted)",
        );
    }
    if let Some(inc) = r.include_encrypted {
        losses.dropped(
            "/options/reasoning/include_encrypted",
            format!("include encrypted reasoning: {inc}"),
            "Anthropic always returns its thinking signatures; there is nothing to ask for",
        );
    }
}

/// `thinking` and `output_config.effort` of a request → `Options.reasoning`; fields the model
/// has no place for (`display`, `output_config.format`) stay in `extra`.
fn decode_reasoning_options(
    extra: &mut Map<String, Value>,
    r: &mut crate::model::ReasoningOptions,
) {
    if let Some(Value::Object(t)) = extra.get_mut("thinking") {
        let budget = t.get("budget_tokens").and_then(Value::as_u64);
        let mapped = match t.get("type").and_then(Value::as_str) {
            Some("enabled") if budget.is_some() => {
                r.enabled = Some(true);
                r.budget = budget;
                t.remove("budget_tokens");
                true
            }
            Some("adaptive") if !t.contains_key("budget_tokens") => {
                r.enabled = Some(true);
                true
            }
            Some("disabled") if !t.contains_key("budget_tokens") => {
                r.enabled = Some(false);
                true
            }
            _ => false,
        };
        if mapped {
            t.remove("type");
            if t.is_empty() {
                extra.remove("thinking");
            }
        }
    }
    if let Some(Value::Object(o)) = extra.get_mut("output_config") {
        if let Some(Value::String(e)) = o.get("effort") {
            r.effort = Some(e.clone());
            o.remove("effort");
            if o.is_empty() {
                extra.remove("output_config");
            }
        }
    }
}

fn encode_system<'a>(
    x: &'a Exchange,
    stored: Option<Value>,
    losses: &mut Losses,
) -> Option<System<'a>> {
    if let Some(v) = stored {
        // The block form of a pasted document, kept while its text still matches the model.
        match serde_json::from_value::<Vec<Block>>(v) {
            Ok(blocks) if x.system.as_deref() == Some(blocks_text(&blocks).as_str()) => {
                return Some(System::Blocks(blocks));
            }
            _ => {
                losses.dropped(
                    format!("/extra/{ID}/system"),
                    "system prompt blocks (cache_control, …)",
                    "they no longer match the system text; the text is sent as a string",
                );
            }
        }
    }
    match &x.system {
        Some(s) if s.is_empty() => {
            losses.dropped(
                "/system",
                "empty system prompt",
                "an empty system prompt is the same as none",
            );
            None
        }
        Some(s) => Some(System::Text(Cow::Borrowed(s))),
        None => None,
    }
}

/// The kind of a server tool, from its `type` without the version date
/// (`web_search_20250305` → `web_search`, `tool_search_tool_regex_20251119` → `tool_search`,
/// `mcp_toolset` → `mcp`).
fn server_tool_kind(v: &Value) -> String {
    let t = v.get("type").and_then(Value::as_str).unwrap_or("");
    let base = match t.rsplit_once('_') {
        Some((b, date)) if !date.is_empty() && date.bytes().all(|c| c.is_ascii_digit()) => b,
        _ => t,
    };
    if base.starts_with("tool_search") {
        "tool_search".into()
    } else if base == "mcp_toolset" {
        "mcp".into()
    } else {
        base.to_string()
    }
}

fn encode_tool<'a>(
    x: &Exchange,
    i: usize,
    t: &'a Tool,
    losses: &mut Losses,
) -> Option<ToolDef<'a>> {
    let p = format!("/tools/{i}");
    if let Some(h) = &t.hosted {
        if h.format == ID {
            return Some(ToolDef::Server(Cow::Borrowed(&h.value)));
        }
        losses.dropped(
            blocks::hosted_drop_pointer::<Messages>(x, i),
            h.what(),
            h.why_dropped(
                "Anthropic has no such tool (a function of that name would be called on the \
                 client)",
            ),
        );
        return None;
    }
    let input_schema = shared::object_schema(
        i,
        t,
        "Anthropic input_schema must be a JSON object",
        format!("{p}/input_schema"),
        losses,
    );
    shared::drop_mcp_tool_parts(
        t,
        &p,
        "Anthropic tools have no output schema",
        "Anthropic tools have no annotations",
        losses,
    );
    let extra = shared::own_fields(
        ID,
        &t.extra,
        &["name", "description", "input_schema", "strict"],
        &p,
        losses,
    );
    Some(ToolDef::Custom(CustomTool {
        name: Cow::Borrowed(&t.name),
        description: t.description.as_deref().map(Cow::Borrowed),
        input_schema,
        strict: t.strict,
        extra,
    }))
}

/// Client tools in the model's order; server tools of a pasted document (kept in
/// `extra.anthropic.tools` as the document's tool list, client tools named by a string) back at
/// their places.
fn encode_tools<'a>(
    x: &'a Exchange,
    layout: Option<Value>,
    losses: &mut Losses,
) -> Option<Vec<ToolDef<'a>>> {
    let mut custom = x.tools.iter().enumerate();
    let mut out = Vec::new();
    match layout {
        Some(Value::Array(entries)) => {
            for e in entries {
                if e.is_object() {
                    out.push(ToolDef::Server(Cow::Owned(e)));
                } else if let Some((i, t)) = custom.next() {
                    out.extend(encode_tool(x, i, t, losses));
                }
            }
        }
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/tools"),
                "server tool list",
                "it is not an array of tools",
            );
        }
        None => {}
    }
    for (i, t) in custom {
        out.extend(encode_tool(x, i, t, losses));
    }
    (!out.is_empty()).then_some(out)
}

fn encode_tool_choice(
    x: &Exchange,
    stored: Option<Value>,
    losses: &mut Losses,
) -> Option<wire::ToolChoice> {
    let extra = match stored {
        Some(Value::Object(m)) => m,
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/tool_choice"),
                "tool_choice fields",
                "they are not an object",
            );
            Map::new()
        }
        None => Map::new(),
    };
    let disable = x.parallel_tool_calls.map(|p| !p);
    let Some(choice) = &x.tool_choice else {
        return match x.parallel_tool_calls {
            Some(false) => {
                losses
                    .added(
                        "/tool_choice",
                        "tool_choice auto",
                        "Anthropic states disable_parallel_tool_use inside tool_choice",
                    )
                    .at("/tool_choice");
                Some(wire::ToolChoice::Auto {
                    disable_parallel_tool_use: Some(true),
                    extra,
                })
            }
            Some(true) => {
                losses.dropped(
                    "/parallel_tool_calls",
                    "parallel_tool_calls: true",
                    "parallel calls are Anthropic's default; without a tool_choice there is no \
                     field to state it",
                );
                None
            }
            None => {
                if !extra.is_empty() {
                    losses.dropped(
                        format!("/extra/{ID}/tool_choice"),
                        "tool_choice fields",
                        "the exchange has no tool_choice",
                    );
                }
                None
            }
        };
    };
    let restriction = |losses: &mut Losses, mode: &str| {
        if !choice.tools.is_empty() {
            losses
                .dropped(
                    "/tool_choice/tools",
                    format!("restriction to tools {:?}", choice.tools),
                    format!("Anthropic tool_choice {mode} cannot restrict the tools"),
                )
                .at("/tool_choice");
        }
    };
    Some(match choice.mode {
        ChoiceMode::Auto => {
            restriction(losses, "auto");
            wire::ToolChoice::Auto {
                disable_parallel_tool_use: disable,
                extra,
            }
        }
        ChoiceMode::None => {
            restriction(losses, "none");
            if let Some(p) = x.parallel_tool_calls {
                losses.dropped(
                    "/parallel_tool_calls",
                    format!("parallel_tool_calls: {p}"),
                    "Anthropic tool_choice none has no disable_parallel_tool_use",
                );
            }
            wire::ToolChoice::None {
                disable_parallel_tool_use: None,
                extra,
            }
        }
        ChoiceMode::Required => match choice.tools.as_slice() {
            [] => wire::ToolChoice::Any {
                disable_parallel_tool_use: disable,
                extra,
            },
            [name] => wire::ToolChoice::Tool {
                name: name.clone(),
                disable_parallel_tool_use: disable,
                extra,
            },
            several => {
                losses
                    .rewritten(
                        "/tool_choice/tools",
                        format!("required call among {several:?} sent as any tool"),
                        "Anthropic can force one named tool or any tool, not a subset",
                    )
                    .at("/tool_choice");
                wire::ToolChoice::Any {
                    disable_parallel_tool_use: disable,
                    extra,
                }
            }
        },
        ChoiceMode::Validated => {
            losses
                .rewritten(
                    "/tool_choice/mode",
                    "tool_choice validated sent as auto",
                    "Anthropic has no validated mode (schema-constrained calls or text); auto \
                     lets the model choose without the constraint (use strict tools for it)",
                )
                .at("/tool_choice");
            restriction(losses, "auto");
            wire::ToolChoice::Auto {
                disable_parallel_tool_use: disable,
                extra,
            }
        }
    })
}

/// The canonical messages as Anthropic turns: a Tool message (and any Tool messages right after
/// it) and the User message after them become one user message, results first.
fn encode_messages<'a>(msgs: &'a [Message], losses: &mut Losses) -> Vec<MessageParam<'a>> {
    let out: Vec<MessageParam> = blocks::encode_turns::<Messages>(msgs, losses)
        .into_iter()
        .map(|t| {
            let content = match t.blocks.as_slice() {
                [Block::Text(b)] if t.plain_text_only && b.extra.is_empty() => {
                    Content::Text(b.text.clone())
                }
                _ => Content::Blocks(t.blocks),
            };
            MessageParam {
                role: t.role,
                content,
                extra: t.extra,
            }
        })
        .collect();
    turns::report_regrouped::<Messages>(msgs, read_back_shape(&out), losses);
    out
}

/// (role, number of parts) of the messages [`decode_request`] makes of these wire messages.
fn read_back_shape(msgs: &[MessageParam]) -> Vec<(Role, usize)> {
    blocks::read_back_shape(msgs, |m, results| {
        match &m.content {
            Content::Text(_) => results.push(false),
            Content::Blocks(b) => {
                results.extend(b.iter().map(|b| matches!(b, Block::ToolResult(_))));
            }
        }
        match m.role {
            WireRole::Assistant => ReadsAs::Assistant,
            WireRole::System => ReadsAs::OneUser,
            WireRole::User => ReadsAs::User,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Decoding: request

/// Request body → model.
pub fn decode_request(doc: wire::Request<'static>) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut losses = Losses::new();
    let mut extra = doc.extra;
    let mut x = Exchange::default();
    x.options.model = doc.model;
    x.options.max_tokens = doc.max_tokens;
    x.options.temperature = doc.temperature;
    x.options.top_p = doc.top_p;
    x.options.stop = doc.stop_sequences.unwrap_or_default();
    decode_reasoning_options(&mut extra, &mut x.options.reasoning);

    match doc.system {
        Some(System::Text(s)) => x.system = Some(s.into_owned()),
        Some(System::Blocks(blocks)) => {
            x.system = Some(blocks_text(&blocks));
            // Kept so the blocks (and their cache_control) are written back as they were.
            extra.insert(
                "system".into(),
                serde_json::to_value(&blocks).unwrap_or(Value::Null),
            );
        }
        None => {}
    }

    if let Some(tools) = doc.tools {
        for t in tools {
            match t {
                ToolDef::Custom(t) => {
                    x.tools.push(Tool {
                        name: t.name.into_owned(),
                        description: t.description.map(Cow::into_owned),
                        input_schema: t.input_schema.into_owned(),
                        strict: t.strict,
                        output_schema: None,
                        annotations: None,
                        hosted: None,
                        custom: None,
                        extra: shared::wrap(ID, t.extra),
                    });
                }
                ToolDef::Server(v) => {
                    let v = v.into_owned();
                    let kind = server_tool_kind(&v);
                    let name = v
                        .get("name")
                        .and_then(Value::as_str)
                        .map_or_else(|| kind.clone(), str::to_string);
                    x.tools.push(Tool::of_hosted(
                        name,
                        HostedTool {
                            provider: PROVIDER.into(),
                            format: ID.into(),
                            kind,
                            value: v,
                        },
                    ));
                }
            }
        }
    }

    if let Some(choice) = doc.tool_choice {
        let (tc, disable, fields) = match choice {
            wire::ToolChoice::Auto {
                disable_parallel_tool_use,
                extra,
            } => (
                ToolChoice::mode(ChoiceMode::Auto),
                disable_parallel_tool_use,
                extra,
            ),
            wire::ToolChoice::Any {
                disable_parallel_tool_use,
                extra,
            } => (
                ToolChoice::mode(ChoiceMode::Required),
                disable_parallel_tool_use,
                extra,
            ),
            wire::ToolChoice::Tool {
                name,
                disable_parallel_tool_use,
                extra,
            } => (ToolChoice::force(name), disable_parallel_tool_use, extra),
            wire::ToolChoice::None {
                disable_parallel_tool_use,
                extra,
            } => (
                ToolChoice::mode(ChoiceMode::None),
                disable_parallel_tool_use,
                extra,
            ),
        };
        x.tool_choice = Some(tc);
        x.parallel_tool_calls = disable.map(|d| !d);
        if !fields.is_empty() {
            extra.insert("tool_choice".into(), Value::Object(fields));
        }
    }

    let mut call_ids: HashSet<String> = HashSet::new();
    for (wi, m) in doc.messages.into_iter().enumerate() {
        decode_message(
            wi,
            m,
            x.options.model.as_deref(),
            &mut call_ids,
            &mut x.messages,
            &mut losses,
        )?;
    }
    x.extra = shared::wrap(ID, extra);
    Ok((x, losses.into_vec()))
}

/// The blocks of a message's content (the string shorthand as one text block).
fn content_blocks(content: Content) -> Vec<Block> {
    match content {
        Content::Text(s) => vec![Block::Text(TextBlock {
            text: s,
            extra: Map::new(),
        })],
        Content::Blocks(b) => b,
    }
}

/// A text part; `marker` (a lone text block in an array) gives it an empty `extra.anthropic`
/// so the encoder writes it back as an array rather than the string shorthand.
fn decode_text(t: TextBlock, marker: bool) -> Part {
    let mut extra = shared::wrap(ID, t.extra);
    if marker && extra.is_empty() {
        extra.insert(ID.to_string(), Map::new());
    }
    Part::Text {
        text: t.text.into_owned(),
        extra,
    }
}

fn decode_call(b: ToolUseBlock) -> Part {
    Part::ToolCall(ToolCall {
        id: Some(b.id.into_owned()),
        name: b.name.into_owned(),
        arguments: b.input.into_owned(),
        arguments_raw: None,
        extra: shared::wrap(ID, b.extra),
    })
}

/// An assistant block that is not text, a call or a result: thinking and redacted thinking
/// become reasoning parts (their state issued by Anthropic, for `model`), server and MCP tool
/// steps hosted parts, anything else a raw part.
fn decode_assistant_raw(value: Value, model: Option<&str>) -> Part {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "thinking" | "redacted_thinking" => {
            let (key, ok) = if kind == "thinking" {
                (
                    "signature",
                    value.get("thinking").is_some_and(Value::is_string),
                )
            } else {
                ("data", true)
            };
            if ok && value.get(key).is_some_and(Value::is_string) {
                let Value::Object(mut m) = value else {
                    unreachable!("a block with a type is an object")
                };
                m.remove("type");
                let text = match m.remove("thinking") {
                    Some(Value::String(t)) => Some(t),
                    _ => None,
                };
                let data = match m.remove(key) {
                    Some(Value::String(d)) => d,
                    _ => String::new(),
                };
                let kind = if key == "data" {
                    OpaqueKind::Redacted
                } else {
                    OpaqueKind::Signature
                };
                let mut opaque = Opaque::new(kind, data, PROVIDER);
                opaque.model = model.map(str::to_string);
                return Part::Reasoning(Reasoning {
                    text,
                    summary: Vec::new(),
                    opaque: Some(opaque),
                    attached: false,
                    extra: shared::wrap(ID, m),
                });
            }
        }
        _ => {
            if let Some(step) = hosted_step(kind, &value) {
                let (kind, tool, id) = step;
                return Part::Hosted(HostedStep {
                    provider: PROVIDER.into(),
                    format: ID.into(),
                    kind,
                    tool,
                    id,
                    value,
                });
            }
        }
    }
    Part::Raw {
        format: ID.into(),
        value,
    }
}

/// Kind, tool and pairing id of a server-tool or MCP block (`server_tool_use`,
/// `*_tool_result`, `mcp_tool_use`, `mcp_tool_result`).
fn hosted_step(kind: &str, v: &Value) -> Option<(HostedKind, String, Option<String>)> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    match kind {
        "server_tool_use" => Some((HostedKind::Call, s("name").unwrap_or_default(), s("id"))),
        "mcp_tool_use" => {
            let tool = format!(
                "mcp:{}/{}",
                s("server_name").unwrap_or_default(),
                s("name").unwrap_or_default()
            );
            Some((HostedKind::Call, tool, s("id")))
        }
        "mcp_tool_result" => Some((HostedKind::Result, "mcp".into(), s("tool_use_id"))),
        "tool_result" => None,
        _ => {
            let tool = kind.strip_suffix("_tool_result")?;
            Some((HostedKind::Result, tool.to_string(), s("tool_use_id")))
        }
    }
}

fn decode_message(
    wi: usize,
    m: MessageParam,
    model: Option<&str>,
    call_ids: &mut HashSet<String>,
    out: &mut Vec<Message>,
    losses: &mut Losses,
) -> Result<(), DecodeError> {
    let base = format!("/messages/{wi}");
    let single_block = matches!(&m.content, Content::Blocks(b) if b.len() == 1);
    let blocks = content_blocks(m.content);
    let mut extra = m.extra;
    match m.role {
        WireRole::Assistant => {
            let mut parts = Vec::new();
            for (bi, b) in blocks.into_iter().enumerate() {
                parts.push(match b {
                    Block::Text(t) => decode_text(t, single_block),
                    Block::ToolUse(u) => {
                        call_ids.insert(u.id.to_string());
                        decode_call(u)
                    }
                    Block::ToolResult(_) => {
                        return Err(DecodeError::at(
                            ID,
                            format!("{base}/content/{bi}"),
                            "tool_result blocks belong in user messages, not assistant ones",
                        ))
                    }
                    Block::Raw(value) => decode_assistant_raw(value.into_owned(), model),
                });
            }
            let mut msg = Message::new(Role::Assistant, parts);
            msg.extra = shared::wrap(ID, extra);
            out.push(msg);
        }
        WireRole::User | WireRole::System => {
            let system = m.role == WireRole::System;
            // Consecutive runs: tool results → a Tool message, anything else → a User message.
            let mut runs: Vec<(Role, Vec<Part>)> = Vec::new();
            for (bi, b) in blocks.into_iter().enumerate() {
                let (role, part) = match b {
                    Block::ToolResult(r) if !system => {
                        if !call_ids.contains(r.tool_use_id.as_ref()) {
                            return Err(DecodeError::at(
                                ID,
                                format!("{base}/content/{bi}/tool_use_id"),
                                format!(
                                    "tool_result answers tool_use {:?}, which no earlier \
                                     assistant message has",
                                    r.tool_use_id
                                ),
                            ));
                        }
                        (Role::Tool, decode_result(r))
                    }
                    Block::ToolResult(_) => {
                        return Err(DecodeError::at(
                            ID,
                            format!("{base}/content/{bi}"),
                            "tool_result blocks belong in user messages, not system ones",
                        ))
                    }
                    Block::ToolUse(_) => {
                        return Err(DecodeError::at(
                            ID,
                            format!("{base}/content/{bi}"),
                            "tool_use blocks belong in assistant messages",
                        ))
                    }
                    Block::Text(t) => (Role::User, decode_text(t, single_block)),
                    Block::Raw(value) => (
                        Role::User,
                        Part::Raw {
                            format: ID.into(),
                            value: value.into_owned(),
                        },
                    ),
                };
                match runs.last_mut() {
                    Some((r, parts)) if *r == role => parts.push(part),
                    _ => runs.push((role, vec![part])),
                }
            }
            if runs.is_empty() {
                runs.push((Role::User, Vec::new()));
            }
            if system {
                extra.insert("role".into(), Value::String("system".into()));
                losses.rewritten(
                    format!("/messages/{}/role", out.len()),
                    "system message inside the conversation",
                    "the model has no system role inside the conversation: read as a user \
                     message (written back as a system message for Anthropic only)",
                );
            }
            // The message's own fields go with its first part of the split.
            let mut extra = Some(extra);
            for (role, parts) in runs {
                let mut msg = Message::new(role, parts);
                msg.extra = shared::wrap(ID, extra.take().unwrap_or_default());
                out.push(msg);
            }
        }
    }
    Ok(())
}

/// The form marker of a pasted `"is_error": false`.
const EXPLICIT_NO_ERROR: &str = "_toolscope:is_error";

fn decode_result(r: ToolResultBlock) -> Part {
    let mut extra = r.extra;
    if r.is_error == Some(false) {
        // Written back as it was; the model only knows "error or not". A form marker: the
        // spelling of "no error", which every format says in its own way (not a loss there).
        extra.insert(EXPLICIT_NO_ERROR.into(), Value::Bool(false));
    }
    let content = match r.content {
        None => ResultContent::Text(String::new()),
        Some(WireResult::Text(s)) => ResultContent::Text(s.into_owned()),
        Some(WireResult::Blocks(blocks)) => {
            ResultContent::Blocks(blocks.into_iter().map(decode_result_block).collect())
        }
    };
    Part::ToolResult(ToolResult {
        call_id: Some(r.tool_use_id.into_owned()),
        name: None,
        content,
        is_error: r.is_error == Some(true),
        extra: shared::wrap(ID, extra),
    })
}

fn decode_result_block(b: Block) -> ModelBlock {
    match b {
        Block::Text(t) if t.extra.is_empty() => ModelBlock::Text {
            text: t.text.into_owned(),
        },
        Block::Raw(v) => match serde_json::from_value::<ImageBlock>(v.clone().into_owned()) {
            Ok(img) => ModelBlock::Image {
                media_type: img.source.media_type,
                data: img.source.data,
            },
            Err(_) => ModelBlock::Raw {
                format: ID.into(),
                value: v.into_owned(),
            },
        },
        other => ModelBlock::Raw {
            format: ID.into(),
            value: serde_json::to_value(&other).unwrap_or(Value::Null),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Response

/// The exchange's last assistant message → response body.
pub fn encode_response(x: &Exchange) -> (wire::Response<'static>, Vec<Loss>) {
    let mut losses = Losses::new();
    let view = x.response_view();
    let (with_ids, l) = assign_missing_ids(&view, WHY_IDS);
    losses.extend(l);
    let (view, l) = rewrite_ids(&with_ids, &IdRule::ANTHROPIC);
    losses.extend(l);

    let msg = match view.messages.first() {
        Some(m) => m.clone(),
        None => {
            losses.added(
                "/messages",
                "an empty assistant message",
                "the exchange does not end with an assistant turn, and an Anthropic response \
                 is one",
            );
            Message::new(Role::Assistant, Vec::new())
        }
    };
    let model = crate::model::encoder_model(
        &view,
        crate::model::ModelFamily::Anthropic,
        "/model",
        "model",
        "an Anthropic response names its model",
        &mut losses,
    );

    let content =
        blocks::encode_response_parts::<Messages>(&msg, &Ptr::ROOT.key("content"), &mut losses);
    let stop_reason = blocks::encode_stop::<Messages>(&msg, &mut losses);

    let mut fields = msg.extra.get(ID).cloned().unwrap_or_default();
    let id = match fields.remove("id") {
        Some(Value::String(s)) if !s.is_empty() => s,
        None => PLACEHOLDER_ID.to_string(),
        Some(other) => {
            losses.dropped(
                format!("/messages/0/extra/{ID}/id"),
                format!("response id {other}"),
                "an Anthropic message id is a non-empty string; the placeholder is sent",
            );
            PLACEHOLDER_ID.to_string()
        }
    };
    let stop_sequence = match fields.remove("stop_sequence") {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    let usage_extra = match fields.remove("usage") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let usage = match &msg.usage {
        Some(u) => wire::Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            extra: usage_extra,
        },
        None => {
            losses
                .added(
                    "/messages/0/usage",
                    "usage of 0 input and 0 output tokens",
                    "an Anthropic response always reports usage",
                )
                .at("/usage");
            wire::Usage {
                input_tokens: 0,
                output_tokens: 0,
                extra: usage_extra,
            }
        }
    };
    let mut own = msg.extra.clone();
    own.insert(ID.to_string(), fields);
    let extra = shared::own_fields(
        ID,
        &own,
        &["type", "role", "model", "content", "stop_reason"],
        "/messages/0",
        &mut losses,
    );

    let doc = wire::Response {
        id,
        kind: MessageTag::Message,
        role: AssistantTag::Assistant,
        model: Some(model),
        content: content.into_iter().map(Block::into_owned).collect(),
        stop_reason: Some(stop_reason),
        stop_sequence,
        usage: Some(usage),
        extra,
    };
    (doc, losses.into_vec())
}

/// Response body → an exchange of the model name and the one assistant message.
pub fn decode_response(doc: wire::Response<'static>) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut extra = Map::new();
    if !doc.id.is_empty() && doc.id != PLACEHOLDER_ID {
        extra.insert("id".into(), Value::String(doc.id));
    }
    if let Some(s) = doc.stop_sequence {
        extra.insert("stop_sequence".into(), Value::String(s));
    }
    let usage = match doc.usage {
        // The placeholder the encoder writes when the model has no usage.
        Some(u) if u.input_tokens == 0 && u.output_tokens == 0 && u.extra.is_empty() => None,
        Some(u) => {
            if !u.extra.is_empty() {
                extra.insert("usage".into(), Value::Object(u.extra));
            }
            Some(Usage {
                input_tokens: u.input_tokens,
                output_tokens: u.output_tokens,
            })
        }
        None => None,
    };
    extra.extend(doc.extra);

    let mut parts = Vec::new();
    for (bi, b) in doc.content.into_iter().enumerate() {
        parts.push(match b {
            Block::Text(t) => decode_text(t, false),
            Block::ToolUse(u) => decode_call(u),
            Block::ToolResult(_) => {
                return Err(DecodeError::at(
                    ID,
                    format!("/content/{bi}"),
                    "tool_result blocks belong in user messages, not in a response",
                ))
            }
            Block::Raw(value) => decode_assistant_raw(value.into_owned(), doc.model.as_deref()),
        });
    }
    let mut msg = Message::new(Role::Assistant, parts);
    msg.stop_reason = doc.stop_reason.map(|w| FINISH.read(&w));
    msg.usage = usage;
    msg.extra = shared::wrap(ID, extra);
    let mut x = Exchange::default();
    x.options.model = doc.model;
    x.messages.push(msg);
    Ok((x, Vec::new()))
}

// ---------------------------------------------------------------------------------------------
// Detection

/// Request: `messages` 50, +3 with `max_tokens`, +42 with an Anthropic marker; response:
/// `type: "message"` with a `content` array, 98.
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let o = v.as_object()?;
    if o.get("type").and_then(Node::as_str) == Some("message")
        && o.get("content").is_some_and(Node::is_array)
    {
        return Some((Kind::Response, 98));
    }
    if !o.contains_key("messages") {
        return None;
    }
    let mut score = 50;
    if o.contains_key("max_tokens") {
        score += 3;
    }
    if has_marker(o) {
        score += 42;
    }
    Some((Kind::Request, score))
}

fn has_marker(o: &Object) -> bool {
    let tools = o.get("tools").and_then(Node::as_array).is_some_and(|ts| {
        ts.iter().any(|t| {
            t.get("input_schema").is_some()
                || t.get("type").and_then(Node::as_str).is_some_and(|k| {
                    // Versioned server tools (`web_search_20250305`) and MCP toolsets.
                    k == "mcp_toolset"
                        || k.rsplit_once('_').is_some_and(|(_, d)| {
                            d.len() == 8 && d.bytes().all(|c| c.is_ascii_digit())
                        })
                })
        })
    });
    let choice = o
        .get("tool_choice")
        .and_then(|c| c.get("type"))
        .and_then(Node::as_str)
        .is_some_and(|t| matches!(t, "auto" | "any" | "tool" | "none"));
    let blocks = o
        .get("messages")
        .and_then(Node::as_array)
        .is_some_and(|ms| {
            ms.iter()
                .filter_map(|m| m.get("content").and_then(Node::as_array))
                .flatten()
                .any(|b| {
                    b.get("type").and_then(Node::as_str).is_some_and(|t| {
                        matches!(
                            t,
                            "tool_use"
                                | "tool_result"
                                | "thinking"
                                | "redacted_thinking"
                                | "server_tool_use"
                                | "mcp_tool_use"
                        ) || t.ends_with("_tool_result")
                    })
                })
        });
    // Anthropic's thinking settings: a budget or adaptive thinking (chat dialects that take a
    // `thinking` switch spell only `{"type": "enabled"|"disabled"}`).
    let thinking = o.get("thinking").is_some_and(|t| {
        t.get("budget_tokens").is_some() || t.get("type").and_then(Node::as_str) == Some("adaptive")
    });
    o.contains_key("system")
        || o.contains_key("stop_sequences")
        || o.contains_key("mcp_servers")
        || o.contains_key("output_config")
        || thinking
        || tools
        || choice
        || blocks
}

// Format-bound forms of the shared helpers.

fn encode_arguments<'a>(
    call: &'a ToolCall,
    p: &Ptr,
    target: &Ptr,
    losses: &mut Losses,
) -> Cow<'a, Value> {
    shared::object_arguments(
        call,
        p,
        target.key("input"),
        "Anthropic tool_use input",
        losses,
    )
}
