//! Bedrock Converse ⇄ canonical model.
//!
//! Encoding reports everything Converse cannot carry; decoding is faithful and reports what it
//! normalises. Pointers of losses are into the serialised canonical `Exchange`; targets are
//! into the emitted document.

use super::wire::{
    self, Block, ImageBlock, ImageSource, InferenceConfig, InputSchema, ResultBlock, ToolConfig,
    ToolEntry, ToolResultBlock, ToolSpec, ToolUse, WireRole,
};
use crate::formats::blocks::{self, BlockFormat, ReadsAs};
use crate::formats::json::escape;
use crate::formats::shared::{self, drop_pointer, Finish};
use crate::formats::sniff::Node;
use crate::formats::turns::{self, Turns};
use crate::formats::{DecodeError, Kind};
use crate::model::{
    assign_missing_ids, empty_object_schema, rewrite_ids, Block as ModelBlock, ChoiceMode,
    Exchange, Extra, HostedKind, HostedStep, HostedTool, IdRule, Loss, Losses, Message, Opaque,
    OpaqueKind, Part, Reasoning, ResultContent, Role, Tool, ToolCall, ToolChoice, ToolResult,
    Usage, FORM_KEY,
};
use crate::text::Ptr;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::HashSet;

/// Format id.
pub const ID: &str = "bedrock";
/// Provider family id of the state Bedrock issues (reasoning signatures, redacted content).
const PROVIDER: &str = "bedrock";
/// `type` of a `toolUse` the provider ran itself (a system tool such as Nova's code
/// interpreter); its `toolResult` follows in the same assistant message.
const SERVER_TOOL_USE: &str = "server_tool_use";
/// `modelId` emitted when the exchange names no model (boto3 requires one).
pub const PLACEHOLDER_MODEL: &str = crate::model::ModelFamily::Bedrock.default_model();
/// `toolUseId` emitted for a result that answers no call at all.
pub const UNPAIRED_ID: &str = "tooluse_unpaired";
/// Name of the tool spec added for calls when the exchange defines no tools and no call
/// names one (a lone result).
pub const PLACEHOLDER_TOOL: &str = "tool";
/// Form marker (under [`FORM_KEY`]): the pasted request had no `modelId` (it was in the URL).
const MODEL_IN_URL: &str = "modelIdInUrl";

const WHY_IDS: &str = "Bedrock pairs every toolResult with its toolUse by toolUseId";
/// Image formats of `ImageFormat`.
const IMAGE_FORMATS: [&str; 4] = ["png", "jpeg", "gif", "webp"];
/// Values of `StopReason`.
const FINISH: Finish = Finish {
    end_turn: "end_turn",
    tool_use: "tool_use",
    max_tokens: "max_tokens",
    stop_sequence: Some("stop_sequence"),
    content_filter: Some("content_filtered"),
    others: &[
        "end_turn",
        "tool_use",
        "max_tokens",
        "stop_sequence",
        "guardrail_intervened",
        "content_filtered",
        "malformed_model_output",
        "malformed_tool_use",
        "model_context_window_exceeded",
    ],
};
/// Key of a response's unknown top-level fields in the message's `extra.bedrock` (the
/// message's own unknown fields are there directly, as in a request).
const RESPONSE_KEY: &str = "response";
/// Top-level response fields Bedrock documents, kept under their names.
const RESPONSE_FIELDS: [&str; 4] = [
    "additionalModelResponseFields",
    "trace",
    "performanceConfig",
    "serviceTier",
];
/// Keys a decoded response keeps in the message's `extra.bedrock` that a request message
/// cannot carry.
const RESPONSE_ONLY: [&str; 9] = [
    "output",
    "stopReason",
    "usage",
    "metrics",
    RESPONSE_KEY,
    "additionalModelResponseFields",
    "trace",
    "performanceConfig",
    "serviceTier",
];

// ---------------------------------------------------------------------------------------------
// Small helpers

/// The wire role a canonical message is written with.
fn wire_role(m: &Message) -> WireRole {
    match m.role {
        Role::Assistant => WireRole::Assistant,
        _ => WireRole::User,
    }
}

/// Bedrock's turns for the shared grouping.
struct Messages;

impl Turns for Messages {
    type Role = WireRole;
    const ID: &'static str = ID;
    const PROVIDER: &'static str = "Bedrock";
    const USER: WireRole = WireRole::User;
    const ASSISTANT: WireRole = WireRole::Assistant;
    fn wire_role(m: &Message) -> WireRole {
        wire_role(m)
    }
    fn kept(role: WireRole, response: bool, part: &Part) -> bool {
        match part {
            Part::Reasoning(r) => role == WireRole::Assistant && reasoning_own(r),
            Part::Hosted(h) => h.format == ID && role == WireRole::Assistant,
            Part::Text { text, .. } => response || !text.is_empty(),
            Part::ToolCall(_) => role == WireRole::Assistant,
            Part::ToolResult(_) => role == WireRole::User && !response,
            Part::Raw { format, .. } => format == ID,
        }
    }
}

impl BlockFormat for Messages {
    type Block<'a> = Block;
    const ISSUER: &'static str = PROVIDER;
    const FINISH: Finish = FINISH;
    const STOP_AT: &'static str = "/stopReason";
    const WHY_STOP: &'static str = "a Converse response states why the model stopped";
    const RESPONSE_ONLY: &'static [&'static str] = &RESPONSE_ONLY;
    const WHY_REQUEST_MESSAGE: &'static str =
        "a Bedrock request message has only a role and content";
    const MESSAGE_RESERVED: &'static [&'static str] = &["role", "content"];
    const WHY_REASONING_ROLE: &'static str =
        "Bedrock reasoningContent belongs in assistant messages";
    const WHY_UNSIGNED: &'static str = WHY_UNSIGNED;

    const WHY_EMPTY_TEXT: &'static str = "Bedrock rejects blank text content blocks";
    const WHY_CALL_ROLE: &'static str = "Bedrock toolUse blocks belong in assistant messages";
    const WHY_RESULT_ROLE: &'static str = "Bedrock toolResult blocks belong in user messages";

    fn text(ctx: &PartCtx, text: &str, extra: &Extra, losses: &mut Losses) -> Block {
        let p = &ctx.pointer;
        for k in shared::own_fields(ID, extra, &[], p, losses).keys() {
            losses.dropped(
                format!("{p}/extra/{ID}/{}", escape(k)),
                format!("text block field {k}"),
                "a Bedrock text block is a bare {\"text\": …} union member",
            );
        }
        Block::Text(text.to_string())
    }

    fn call(ctx: &PartCtx, call: &ToolCall, losses: &mut Losses) -> Block {
        let p = &ctx.pointer;
        let input = encode_arguments(call, p, &ctx.target.key("toolUse"), losses);
        let fields =
            shared::own_fields(ID, &call.extra, &["toolUseId", "name", "input"], p, losses);
        Block::ToolUse(ToolUse {
            tool_use_id: call.id.clone().unwrap_or_default(),
            name: call.name.clone(),
            input,
            extra: fields,
        })
    }

    fn result(ctx: &PartCtx, r: &ToolResult, losses: &mut Losses) -> Block {
        Block::ToolResult(encode_result(r, ctx, losses))
    }

    fn reasoning(ctx: &PartCtx, r: &Reasoning, losses: &mut Losses) -> Option<Block> {
        encode_reasoning(ctx, r, losses)
    }

    fn raw(v: &Value) -> Block {
        Block::Raw(v.clone())
    }
}

/// Whether a reasoning part is Bedrock's own: state Bedrock issued, or visible reasoning read
/// from a Bedrock document (marked by its `extra.bedrock`, which unsigned reasoning text of a
/// Bedrock model has).
fn reasoning_own(r: &Reasoning) -> bool {
    match &r.opaque {
        Some(o) => {
            o.replayable_to(PROVIDER)
                && matches!(o.kind, OpaqueKind::Signature | OpaqueKind::Redacted)
        }
        None => r.extra.contains_key(ID),
    }
}

/// Why reasoning without Bedrock's state is not sent.
const WHY_UNSIGNED: &str = "Bedrock takes reasoning back only as the model returned it, with \
     its signature: Claude models on Bedrock reject unsigned reasoning";

/// A reasoning part as `reasoningContent` when it is Bedrock's own; else dropped with a
/// reasoning loss for its state and one for its text.
fn encode_reasoning(ctx: &PartCtx, r: &Reasoning, losses: &mut Losses) -> Option<Block> {
    let p = &ctx.pointer;
    if ctx.role == WireRole::Assistant && reasoning_own(r) {
        let mut fields = shared::own_fields(ID, &r.extra, &["text", "signature"], p, losses);
        if !r.summary.is_empty() {
            losses.reasoning(
                format!("{p}/summary"),
                "reasoning summary",
                "Bedrock reasoningContent has one text, no summaries",
            );
        }
        // Fields of `reasoningContent` itself (beside its one member) are kept under this key.
        let outer = match fields.remove(CONTENT_FIELDS) {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let member = match &r.opaque {
            Some(o) if o.kind == OpaqueKind::Redacted => {
                if r.text.as_deref().is_some_and(|t| !t.is_empty()) {
                    losses.reasoning(
                        format!("{p}/text"),
                        "reasoning text beside redacted content",
                        "Bedrock redactedContent has only its encrypted bytes",
                    );
                }
                json!({ "redactedContent": o.data })
            }
            o => {
                let mut m = Map::new();
                m.insert("text".into(), json!(r.text.clone().unwrap_or_default()));
                if let Some(o) = o {
                    m.insert("signature".into(), json!(o.data));
                }
                m.append(&mut fields);
                json!({ "reasoningText": m })
            }
        };
        let mut content = member.as_object().cloned().unwrap_or_default();
        content.extend(outer);
        return Some(Block::Raw(json!({ "reasoningContent": content })));
    }
    blocks::drop_reasoning::<Messages>(ctx, r, losses);
    None
}

/// Key (in a reasoning part's `extra.bedrock`) of the fields `reasoningContent` had beside
/// its member.
const CONTENT_FIELDS: &str = "reasoningContent";

/// `reasoningContent` → a reasoning part; the block back when it is not one Toolscope reads
/// (kept raw).
fn decode_reasoning(v: Value, model: Option<&str>) -> Result<Part, Value> {
    let Some(rc) = v.get("reasoningContent") else {
        return Err(v);
    };
    let signed_text = rc
        .pointer("/reasoningText/text")
        .is_some_and(Value::is_string)
        && rc
            .pointer("/reasoningText/signature")
            .is_none_or(Value::is_string);
    if !signed_text && !rc.get("redactedContent").is_some_and(Value::is_string) {
        return Err(v);
    }
    let Value::Object(mut block) = v else {
        unreachable!("checked above")
    };
    let Some(Value::Object(mut outer)) = block.remove("reasoningContent") else {
        unreachable!("checked above")
    };
    let opaque = |kind, data: String| {
        let mut o = Opaque::new(kind, data, PROVIDER);
        o.model = model.map(str::to_string);
        o
    };
    let member = if signed_text {
        outer.remove("reasoningText")
    } else {
        None
    };
    let (text, opaque, mut fields) = match member {
        Some(Value::Object(mut rt)) => {
            let text = match rt.remove("text") {
                Some(Value::String(t)) => Some(t),
                _ => None,
            };
            let sig = match rt.remove("signature") {
                Some(Value::String(s)) => Some(opaque(OpaqueKind::Signature, s)),
                _ => None,
            };
            (text, sig, rt)
        }
        _ => {
            // Redacted; a reasoningText beside it that cannot be read stays a field.
            let data = match outer.remove("redactedContent") {
                Some(Value::String(d)) => d,
                _ => String::new(),
            };
            (None, Some(opaque(OpaqueKind::Redacted, data)), Map::new())
        }
    };
    if !outer.is_empty() {
        fields.insert(CONTENT_FIELDS.into(), Value::Object(outer));
    }
    let mut extra = crate::model::Extra::new();
    // Always present: it marks the part as Bedrock's own (see `reasoning_own`).
    extra.insert(ID.to_string(), fields);
    Ok(Part::Reasoning(Reasoning {
        text,
        summary: Vec::new(),
        opaque,
        attached: false,
        extra,
    }))
}

/// The parts of an assistant message: reasoning, server tool steps (a `toolUse` of type
/// `server_tool_use` and the `toolResult` answering it in the same message), calls, text.
/// Ids of client calls are added to `call_ids`.
fn decode_assistant(
    content: Vec<Block>,
    model: Option<&str>,
    base: &str,
    call_ids: &mut HashSet<String>,
) -> Result<Vec<Part>, DecodeError> {
    let mut server_ids: HashSet<String> = HashSet::new();
    let mut parts = Vec::with_capacity(content.len());
    for (bi, b) in content.into_iter().enumerate() {
        parts.push(match b {
            Block::Text(t) => Part::text(t),
            Block::ToolUse(u)
                if u.extra.get("type").and_then(Value::as_str) == Some(SERVER_TOOL_USE) =>
            {
                server_ids.insert(u.tool_use_id.clone());
                let tool = u.name.clone();
                let id = Some(u.tool_use_id.clone());
                Part::Hosted(HostedStep {
                    provider: PROVIDER.into(),
                    format: ID.into(),
                    kind: HostedKind::Call,
                    tool,
                    id,
                    value: serde_json::to_value(Block::ToolUse(u)).unwrap_or(Value::Null),
                })
            }
            Block::ToolUse(u) => {
                call_ids.insert(u.tool_use_id.clone());
                decode_call(u)
            }
            Block::ToolResult(r) if server_ids.contains(&r.tool_use_id) => {
                let tool = r
                    .extra
                    .get("type")
                    .and_then(Value::as_str)
                    .map(|t| t.strip_suffix("_result").unwrap_or(t).to_string())
                    .unwrap_or_else(|| "server tool".into());
                let id = Some(r.tool_use_id.clone());
                Part::Hosted(HostedStep {
                    provider: PROVIDER.into(),
                    format: ID.into(),
                    kind: HostedKind::Result,
                    tool,
                    id,
                    value: serde_json::to_value(Block::ToolResult(r)).unwrap_or(Value::Null),
                })
            }
            Block::ToolResult(_) => {
                return Err(DecodeError::at(
                    ID,
                    format!("{base}/{bi}"),
                    "toolResult blocks belong in user messages; an assistant message has only \
                     the results of server tools it ran (toolUse of type server_tool_use)",
                ))
            }
            Block::Raw(value) => decode_reasoning(value, model).unwrap_or_else(|value| Part::Raw {
                format: ID.into(),
                value,
            }),
        });
    }
    Ok(parts)
}

/// Texts of the text blocks, joined by newlines; `None` when there is no text block.
fn blocks_text(blocks: &[Block]) -> Option<String> {
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// True when Bedrock accepts `name` as a tool name: `[a-zA-Z0-9_-]{1,64}`, the rule the
/// `bedrock.name` lint checks ([`crate::schema::names`]).
pub fn tool_name_ok(name: &str) -> bool {
    bedrock_names().ok(name)
}

fn bedrock_names() -> crate::providers::NameRule {
    crate::providers::Rules::Bedrock.names()
}

/// Rewrite every tool name Bedrock rejects (in tool specs, calls and the tool choice) into one
/// it accepts, the same name always to the same new name and never onto another tool's name.
/// Each rewrite is reported.
fn rewrite_names(x: &Exchange) -> (Cow<'_, Exchange>, Vec<Loss>) {
    let mut all: Vec<&str> = x.tools.iter().map(|t| t.name.as_str()).collect();
    for m in &x.messages {
        all.extend(m.tool_calls().map(|c| c.name.as_str()));
    }
    if let Some(tc) = &x.tool_choice {
        all.extend(tc.tools.iter().map(String::as_str));
    }
    let mut used: HashSet<String> = all
        .iter()
        .filter(|n| tool_name_ok(n))
        .map(|n| n.to_string())
        .collect();
    let mut map: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for name in all.iter().filter(|n| !tool_name_ok(n)) {
        if map.contains_key(*name) {
            continue;
        }
        // The lint's own fix: disallowed characters become `_`, cut to 64; an empty name
        // becomes the placeholder.
        let clean = if name.is_empty() {
            PLACEHOLDER_TOOL.to_string()
        } else {
            bedrock_names().sanitise(name)
        };
        let mut candidate = clean.clone();
        let mut n = 2;
        while used.contains(&candidate) {
            let suffix = format!("_{n}");
            let head: String = clean.chars().take(64 - suffix.len()).collect();
            candidate = head + &suffix;
            n += 1;
        }
        used.insert(candidate.clone());
        map.insert(name.to_string(), candidate);
    }
    if map.is_empty() {
        // Every name fits (the common case): no copy of the exchange.
        return (Cow::Borrowed(x), Vec::new());
    }
    let mut losses = Losses::new();
    let why = "Bedrock tool names must match [a-zA-Z0-9_-]{1,64}";
    let mut out = x.clone();
    let rename = |name: &mut String, pointer: String, losses: &mut Losses| {
        if let Some(new) = map.get(name.as_str()) {
            losses.rewritten(pointer, format!("tool name {name:?} sent as {new:?}"), why);
            *name = new.clone();
        }
    };
    for (i, t) in out.tools.iter_mut().enumerate() {
        rename(&mut t.name, format!("/tools/{i}/name"), &mut losses);
    }
    for (mi, m) in out.messages.iter_mut().enumerate() {
        for (pi, p) in m.parts.iter_mut().enumerate() {
            if let Part::ToolCall(c) = p {
                rename(
                    &mut c.name,
                    format!("/messages/{mi}/parts/{pi}/name"),
                    &mut losses,
                );
            }
        }
    }
    if let Some(tc) = &mut out.tool_choice {
        for (k, n) in tc.tools.iter_mut().enumerate() {
            rename(n, format!("/tool_choice/tools/{k}"), &mut losses);
        }
    }
    (Cow::Owned(out), losses.into_vec())
}

// ---------------------------------------------------------------------------------------------
// Encoding: parts

/// Where a part is and what it becomes (see [`blocks::PartCtx`]).
type PartCtx<'a> = blocks::PartCtx<'a, WireRole>;

/// The media type of a Bedrock image format (`png` → `image/png`).
fn media_type(format: &str) -> String {
    format!("image/{format}")
}

fn encode_result(r: &ToolResult, ctx: &PartCtx, losses: &mut Losses) -> ToolResultBlock {
    let p = ctx.pointer;
    let target = ctx.target.key("toolResult");
    let tool_use_id = match &r.call_id {
        Some(id) => id.clone(),
        None => {
            losses
                .added(
                    format!("{p}/call_id"),
                    format!("toolUseId {UNPAIRED_ID:?} for a result that answers no call"),
                    WHY_IDS,
                )
                .at(format!("{target}/toolUseId"));
            UNPAIRED_ID.to_string()
        }
    };
    if let Some(name) = &r.name {
        losses.dropped(
            format!("{p}/name"),
            format!("tool name {name:?} on the result"),
            "Bedrock toolResult blocks name only the toolUseId",
        );
    }
    let mut fields = shared::own_fields(ID, &r.extra, &["toolUseId", "content"], p, losses);
    // A pasted `"status": "success"` (or any non-error status) is written back as it was (a
    // form marker, or a plain field by older states).
    let marked = r.extra.get(ID).and_then(|m| m.get(STATUS_FORM)).cloned();
    let stored_status = match fields.remove("status").or(marked) {
        Some(Value::String(s)) if s != "error" => Some(s),
        _ => None,
    };
    let status = if r.is_error {
        Some("error".to_string())
    } else {
        stored_status
    };
    let content = match &r.content {
        ResultContent::Text(t) if t.is_empty() => Vec::new(),
        ResultContent::Text(t) => vec![ResultBlock::Text(t.clone())],
        ResultContent::Json(v) if v.is_object() => vec![ResultBlock::Json(v.clone())],
        ResultContent::Json(v) => {
            losses
                .rewritten(
                    format!("{p}/content"),
                    format!("non-object JSON result {v} sent as JSON text"),
                    "Bedrock json result blocks are meant for JSON objects; other values are \
                     sent as text",
                )
                .at(format!("{target}/content"));
            vec![ResultBlock::Text(
                serde_json::to_string(v).unwrap_or_else(|_| "null".into()),
            )]
        }
        ResultContent::Blocks(blocks) => {
            let out = encode_result_blocks(blocks, &p.to_string(), losses);
            if !matches!(decode_result_content(out.clone()), ResultContent::Blocks(_)) {
                losses
                    .rewritten(
                        format!("{p}/content"),
                        "content blocks sent as one text block or none",
                        "a Bedrock result of one text block (or none) reads back as plain text",
                    )
                    .at(format!("{target}/content"));
            }
            out
        }
    };
    ToolResultBlock {
        tool_use_id,
        content,
        status,
        extra: fields,
    }
}

fn encode_result_blocks(blocks: &[ModelBlock], p: &str, losses: &mut Losses) -> Vec<ResultBlock> {
    let format_of = |media: &str| {
        media
            .strip_prefix("image/")
            .filter(|f| IMAGE_FORMATS.contains(f))
            .map(str::to_string)
    };
    let keep = |b: &ModelBlock| match b {
        ModelBlock::Text { text } => !text.is_empty(),
        ModelBlock::Image { media_type, .. } => format_of(media_type).is_some(),
        ModelBlock::Raw { format, .. } => format == ID,
    };
    let list = format!("{p}/content/blocks");
    let mut out = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let bp = drop_pointer(&list, k, blocks.iter().skip(k + 1).any(keep));
        match b {
            ModelBlock::Text { text } if text.is_empty() => {
                losses.dropped(
                    bp,
                    "empty text block",
                    "Bedrock rejects blank text content blocks",
                );
            }
            ModelBlock::Text { text } => out.push(ResultBlock::Text(text.clone())),
            ModelBlock::Image { media_type, data } => match format_of(media_type) {
                Some(format) => out.push(ResultBlock::Image(ImageBlock {
                    format,
                    source: ImageSource {
                        bytes: data.clone(),
                    },
                })),
                None => {
                    losses.dropped(
                        bp,
                        format!("{media_type} image"),
                        "Bedrock accepts PNG, JPEG, GIF and WebP images",
                    );
                }
            },
            ModelBlock::Raw { format, value } if format == ID => {
                out.push(ResultBlock::Raw(value.clone()))
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
    out
}

// ---------------------------------------------------------------------------------------------
// Encoding: request

/// Model → request (body plus `modelId`).
pub fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
    let mut losses = Losses::new();
    let (with_ids, l) = crate::model::settle_ids(x, WHY_IDS, Some(&IdRule::BEDROCK));
    losses.extend(l);
    let (x, l) = rewrite_names(&with_ids);
    losses.extend(l);

    let model_in_url = x
        .extra
        .get(ID)
        .and_then(|e| e.get(FORM_KEY))
        .and_then(|f| f.get(MODEL_IN_URL))
        .and_then(Value::as_bool)
        == Some(true);
    let adopted = shared::adopt_common(&x.extra, ID, &mut losses);
    let mut extra = shared::own_fields(ID, &adopted, &[], "", &mut losses);
    let stored_system = extra.remove("system");
    let stored_config = extra.remove("toolConfig");
    let stored_inference = extra.remove("inferenceConfig");
    for k in ["modelId", "messages"] {
        if extra.remove(k).is_some() {
            losses.dropped(
                format!("/extra/{ID}/{k}"),
                format!("extra field {k:?}"),
                "the encoder writes this field from the model itself",
            );
        }
    }

    let model_id = match &x.options.model {
        None if model_in_url => None,
        _ => Some(crate::model::encoder_model(
            &x,
            crate::model::ModelFamily::Bedrock,
            "/modelId",
            "modelId",
            "Converse requires a modelId",
            &mut losses,
        )),
    };
    encode_reasoning_options(&x, &mut extra, &mut losses);
    let system = encode_system(&x, stored_system, &mut losses);
    let inference_config = encode_inference(&x, stored_inference, &mut losses);
    let messages = encode_messages(&x.messages, &mut losses);
    let tool_config = encode_tool_config(&x, &messages, stored_config, &mut losses);

    let doc = wire::Request {
        model_id,
        messages: Some(messages),
        system,
        inference_config,
        tool_config,
        extra,
    };
    (doc, losses.into_vec())
}

/// Keys of `additionalModelRequestFields` that hold reasoning settings: Claude's `thinking`
/// (and its older spelling `reasoning_config`) and Nova 2's `reasoningConfig`.
const REASONING_KEYS: [&str; 3] = ["thinking", "reasoning_config", "reasoningConfig"];
/// Where the reasoning settings of a request live.
const ADDITIONAL: &str = "additionalModelRequestFields";

/// Reasoning settings of `additionalModelRequestFields` → `Options.reasoning`. The settings'
/// object stays (emptied of what was read) so its spelling is written back.
fn decode_reasoning_options(
    extra: &mut Map<String, Value>,
    r: &mut crate::model::ReasoningOptions,
) {
    let Some(Value::Object(fields)) = extra.get_mut(ADDITIONAL) else {
        return;
    };
    let Some(key) = read_reasoning_fields(fields, r) else {
        return;
    };
    // An emptied settings object the encoder writes again under the same key is not kept.
    if fields
        .get(&key)
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
        && default_reasoning_key(r) == key
    {
        fields.remove(&key);
        if fields.is_empty() {
            extra.remove(ADDITIONAL);
        }
    }
}

/// The key the encoder writes reasoning settings under when the document had none: Nova's
/// `reasoningConfig` for an effort alone, Claude's `thinking` otherwise.
fn default_reasoning_key(r: &crate::model::ReasoningOptions) -> &'static str {
    if r.effort.is_some() && r.budget.is_none() {
        "reasoningConfig"
    } else {
        "thinking"
    }
}

/// Reads the first reasoning settings object of `fields` into `r`, removing what it read;
/// returns its key when it was read.
fn read_reasoning_fields(
    fields: &mut Map<String, Value>,
    r: &mut crate::model::ReasoningOptions,
) -> Option<String> {
    let (key, t) = fields
        .iter_mut()
        .find(|(k, v)| REASONING_KEYS.contains(&k.as_str()) && v.is_object())?;
    let t = t.as_object_mut()?;
    let kind = t.get("type").and_then(Value::as_str);
    let budget = t.get("budget_tokens").and_then(Value::as_u64);
    if key == "reasoningConfig" {
        let effort = t.get("maxReasoningEffort").and_then(Value::as_str);
        let enabled = match kind {
            Some("enabled") => true,
            Some("disabled") => false,
            _ => return None,
        };
        if t.get("maxReasoningEffort").is_some() && effort.is_none() {
            return None;
        }
        r.enabled = Some(enabled);
        r.effort = effort.map(str::to_string);
        t.remove("type");
        t.remove("maxReasoningEffort");
        return Some(key.clone());
    }
    match (kind, budget) {
        (Some("enabled"), Some(b)) => {
            r.enabled = Some(true);
            r.budget = Some(b);
            t.remove("budget_tokens");
        }
        (Some("adaptive"), None) if !t.contains_key("budget_tokens") => r.enabled = Some(true),
        (Some("disabled"), None) if !t.contains_key("budget_tokens") => r.enabled = Some(false),
        _ => return None,
    }
    t.remove("type");
    Some(key.clone())
}

/// `Options.reasoning` → `additionalModelRequestFields`: in the spelling the pasted document
/// had, else Nova's `reasoningConfig` for an effort alone and Claude's `thinking` otherwise.
fn encode_reasoning_options(x: &Exchange, extra: &mut Map<String, Value>, losses: &mut Losses) {
    let r = &x.options.reasoning;
    let mut fields = match extra.remove(ADDITIONAL) {
        Some(Value::Object(m)) => m,
        Some(other) => {
            extra.insert(ADDITIONAL.into(), other);
            return;
        }
        None => Map::new(),
    };
    let stored = REASONING_KEYS
        .iter()
        .find(|k| fields.get(**k).is_some_and(Value::is_object))
        .copied();
    let set = r.enabled.is_some() || r.budget.is_some() || r.effort.is_some();
    if !set {
        // An emptied settings object of a document whose settings were cleared.
        if let Some(k) = stored {
            if fields
                .get(k)
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
            {
                fields.remove(k);
            }
        }
    } else {
        let key = stored.unwrap_or(default_reasoning_key(r));
        let mut t = match fields.remove(key) {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        if key == "reasoningConfig" {
            let on = r.enabled.unwrap_or(true);
            t.insert(
                "type".into(),
                json!(if on { "enabled" } else { "disabled" }),
            );
            if let Some(e) = &r.effort {
                t.insert("maxReasoningEffort".into(), json!(e));
            }
            if let Some(b) = r.budget {
                losses.dropped(
                    "/options/reasoning/budget",
                    format!("thinking budget {b}"),
                    "Nova's reasoningConfig takes an effort, not a token budget",
                );
            }
        } else {
            let kind = match (r.enabled, r.budget) {
                (Some(false), _) => "disabled",
                (_, Some(b)) => {
                    t.insert("budget_tokens".into(), json!(b));
                    "enabled"
                }
                (_, None) => "adaptive",
            };
            t.insert("type".into(), json!(kind));
            if let Some(e) = &r.effort {
                losses.dropped(
                    "/options/reasoning/effort",
                    format!("effort {e}"),
                    format!("Bedrock's {key} setting takes a token budget, not an effort"),
                );
            }
        }
        fields.insert(key.to_string(), Value::Object(t));
    }
    if let Some(summary) = &r.summary {
        losses.dropped(
            "/options/reasoning/summary",
            format!("reasoning summary setting {summary:?}"),
            "Converse has no such setting",
        );
    }
    if let Some(inc) = r.include_encrypted {
        losses.dropped(
            "/options/reasoning/include_encrypted",
            format!("include encrypted reasoning: {inc}"),
            "Converse returns reasoning signatures without being asked",
        );
    }
    if !fields.is_empty() {
        extra.insert(ADDITIONAL.into(), Value::Object(fields));
    }
}

fn encode_system(x: &Exchange, stored: Option<Value>, losses: &mut Losses) -> Option<Vec<Block>> {
    if let Some(v) = stored {
        // The blocks of a pasted document (cachePoint, guardContent, several texts), kept while
        // their text still matches the model.
        match serde_json::from_value::<Vec<Block>>(v) {
            Ok(blocks) if blocks_text(&blocks) == x.system => return Some(blocks),
            _ => {
                losses.dropped(
                    format!("/extra/{ID}/system"),
                    "system prompt blocks (cachePoint, guardContent, …)",
                    "they no longer match the system text; the text is sent as one block",
                );
            }
        }
    }
    match &x.system {
        Some(s) if s.is_empty() => {
            losses
                .dropped(
                    "/system",
                    "empty system prompt",
                    "Bedrock system text must be non-empty; an empty prompt is the same as none",
                )
                .at("/system");
            None
        }
        Some(s) => Some(vec![Block::Text(s.clone())]),
        None => None,
    }
}

/// Clamp a sampling value to Bedrock's range 0–1, reporting a change.
fn unit_range(v: f64, pointer: &str, name: &str, target: &str, losses: &mut Losses) -> f64 {
    let clamped = v.clamp(0.0, 1.0);
    if clamped != v {
        losses
            .rewritten(
                pointer,
                format!("{name} {v} sent as {clamped}"),
                format!("Bedrock {name} ranges from 0 to 1"),
            )
            .at(target);
    }
    clamped
}

fn encode_inference(
    x: &Exchange,
    stored: Option<Value>,
    losses: &mut Losses,
) -> Option<InferenceConfig> {
    let extra = match stored {
        Some(Value::Object(m)) => m,
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/inferenceConfig"),
                "inferenceConfig fields",
                "they are not an object",
            );
            Map::new()
        }
        None => Map::new(),
    };
    let o = &x.options;
    let max_tokens = match o.max_tokens {
        Some(0) => {
            losses
                .dropped(
                    "/options/max_tokens",
                    "max_tokens 0",
                    "Bedrock maxTokens is at least 1",
                )
                .at("/inferenceConfig/maxTokens");
            None
        }
        n => n,
    };
    let temperature = o.temperature.map(|t| {
        unit_range(
            t,
            "/options/temperature",
            "temperature",
            "/inferenceConfig/temperature",
            losses,
        )
    });
    let top_p = o
        .top_p
        .map(|t| unit_range(t, "/options/top_p", "topP", "/inferenceConfig/topP", losses));
    let mut stop = Vec::new();
    for (i, s) in o.stop.iter().enumerate() {
        if s.is_empty() {
            losses.dropped(
                drop_pointer(
                    "/options/stop",
                    i,
                    o.stop.iter().skip(i + 1).any(|s| !s.is_empty()),
                ),
                "empty stop sequence",
                "Bedrock stop sequences must be non-empty",
            );
        } else {
            stop.push(s.clone());
        }
    }
    let config = InferenceConfig {
        max_tokens,
        temperature,
        top_p,
        stop_sequences: (!stop.is_empty()).then_some(stop),
        extra,
    };
    (config != InferenceConfig::default()).then_some(config)
}

fn encode_tool(x: &Exchange, i: usize, t: &Tool, losses: &mut Losses) -> Option<ToolEntry> {
    let p = format!("/tools/{i}");
    if let Some(h) = &t.hosted {
        if h.format == ID {
            return Some(ToolEntry::Raw(h.value.clone()));
        }
        losses.dropped(
            blocks::hosted_drop_pointer::<Messages>(x, i),
            h.what(),
            h.why_dropped(
                "Bedrock has no such tool (a tool spec of that name would be called on the \
                 client)",
            ),
        );
        return None;
    }
    let input_schema = shared::object_schema(
        i,
        t,
        "Bedrock inputSchema.json must be a JSON object",
        format!("/toolConfig/tools/{i}/toolSpec/inputSchema/json"),
        losses,
    )
    .into_owned();
    let description = match &t.description {
        Some(d) if d.is_empty() => {
            losses.dropped(
                format!("{p}/description"),
                "empty description",
                "Bedrock tool descriptions must be non-empty when present",
            );
            None
        }
        d => d.clone(),
    };
    shared::drop_mcp_tool_parts(
        t,
        &p,
        "Bedrock tool specs have no output schema",
        "Bedrock tool specs have no annotations",
        losses,
    );
    let extra = shared::own_fields(
        ID,
        &t.extra,
        &["name", "description", "inputSchema", "strict"],
        &p,
        losses,
    );
    Some(ToolEntry::Spec(ToolSpec {
        name: t.name.clone(),
        description,
        input_schema: InputSchema { json: input_schema },
        strict: t.strict,
        extra,
    }))
}

/// The tool choice as a Bedrock `toolChoice` value (reporting what it cannot state), or none.
fn wire_choice(x: &Exchange, losses: &mut Losses) -> Option<Value> {
    let choice = x.tool_choice.as_ref()?;
    let restriction = |losses: &mut Losses, mode: &str| {
        if !choice.tools.is_empty() {
            losses
                .dropped(
                    "/tool_choice/tools",
                    format!("restriction to tools {:?}", choice.tools),
                    format!("Bedrock toolChoice {mode} cannot restrict the tools"),
                )
                .at("/toolConfig/toolChoice");
        }
    };
    Some(match choice.mode {
        ChoiceMode::Auto => {
            restriction(losses, "auto");
            json!({"auto": {}})
        }
        ChoiceMode::None => {
            losses
                .dropped(
                    "/tool_choice",
                    "tool_choice none",
                    "Bedrock has no toolChoice that forbids calls; without one the model \
                     decides (auto)",
                )
                .at("/toolConfig/toolChoice");
            return None;
        }
        ChoiceMode::Required => match choice.tools.as_slice() {
            [] => json!({"any": {}}),
            [name] => json!({"tool": {"name": name}}),
            several => {
                losses
                    .rewritten(
                        "/tool_choice/tools",
                        format!("required call among {several:?} sent as any tool"),
                        "Bedrock can force one named tool or any tool, not a subset",
                    )
                    .at("/toolConfig/toolChoice");
                json!({"any": {}})
            }
        },
        ChoiceMode::Validated => {
            losses
                .rewritten(
                    "/tool_choice/mode",
                    "tool_choice validated sent as auto",
                    "Bedrock has no validated mode (schema-constrained calls or text); auto lets \
                     the model choose without the constraint (use strict tools for it)",
                )
                .at("/toolConfig/toolChoice");
            restriction(losses, "auto");
            json!({"auto": {}})
        }
    })
}

/// The model's reading of a `toolChoice` value; `None` for a member Bedrock may add later.
fn parse_choice(v: &Value) -> Option<ToolChoice> {
    let m = v.as_object()?;
    if m.len() != 1 {
        return None;
    }
    if m.get("auto").is_some_and(Value::is_object) {
        Some(ToolChoice::mode(ChoiceMode::Auto))
    } else if m.get("any").is_some_and(Value::is_object) {
        Some(ToolChoice::mode(ChoiceMode::Required))
    } else {
        m.get("tool")
            .and_then(|t| t.get("name"))
            .and_then(Value::as_str)
            .map(ToolChoice::force)
    }
}

/// Client tools in the model's order, other entries of a pasted document (cachePoint,
/// systemTool; kept in `extra.bedrock.toolConfig.tools`, client tools named by strings) at
/// their places; tool specs added for calls when there are no tools (Bedrock rejects toolUse
/// and toolResult blocks without a toolConfig).
fn encode_tool_config(
    x: &Exchange,
    messages: &[wire::Message],
    stored: Option<Value>,
    losses: &mut Losses,
) -> Option<ToolConfig> {
    let mut extra = match stored {
        Some(Value::Object(m)) => m,
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/toolConfig"),
                "toolConfig fields",
                "they are not an object",
            );
            Map::new()
        }
        None => Map::new(),
    };
    let layout = extra.remove("tools");
    let stored_choice = extra.remove("toolChoice");

    let mut custom = x.tools.iter().enumerate();
    let mut tools = Vec::new();
    match layout {
        Some(Value::Array(entries)) => {
            for e in entries {
                if e.is_object() {
                    tools.push(ToolEntry::Raw(e));
                } else if let Some((i, t)) = custom.next() {
                    tools.extend(encode_tool(x, i, t, losses));
                }
            }
        }
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/toolConfig/tools"),
                "tool entry list",
                "it is not an array of tool entries",
            );
        }
        None => {}
    }
    for (i, t) in custom {
        tools.extend(encode_tool(x, i, t, losses));
    }

    if tools.is_empty() {
        let names = tool_names(messages);
        if !names.is_empty() {
            losses
                .added(
                    "/tools",
                    format!("tool specs for {names:?} with an empty object schema"),
                    "Bedrock rejects toolUse and toolResult blocks in a request without a \
                     toolConfig",
                )
                .at("/toolConfig/tools");
            tools = names
                .into_iter()
                .map(|name| {
                    ToolEntry::Spec(ToolSpec {
                        name,
                        description: None,
                        input_schema: InputSchema {
                            json: empty_object_schema(),
                        },
                        strict: None,
                        extra: Map::new(),
                    })
                })
                .collect();
        }
    }

    if let Some(p) = x.parallel_tool_calls {
        losses.dropped(
            "/parallel_tool_calls",
            format!("parallel_tool_calls: {p}"),
            "Bedrock Converse has no switch for parallel tool calls (the model may make several)",
        );
    }

    if tools.is_empty() {
        if x.tool_choice.is_some() {
            losses
                .dropped(
                    "/tool_choice",
                    "tool_choice",
                    "Bedrock states the tool choice in toolConfig, which needs at least one tool",
                )
                .at("/toolConfig");
        }
        if !extra.is_empty() || stored_choice.is_some() {
            losses.dropped(
                format!("/extra/{ID}/toolConfig"),
                "toolConfig fields",
                "the exchange has no tools",
            );
        }
        return None;
    }

    let tool_choice = match stored_choice {
        // A pasted toolChoice (unknown members or fields) while it still says the same.
        Some(v) if parse_choice(&v) == x.tool_choice => Some(v),
        Some(_) => {
            losses.dropped(
                format!("/extra/{ID}/toolConfig/toolChoice"),
                "pasted toolChoice",
                "it no longer matches the tool choice",
            );
            wire_choice(x, losses)
        }
        None => wire_choice(x, losses),
    };
    Some(ToolConfig {
        tools,
        tool_choice,
        extra,
    })
}

/// Names of the tools the encoded messages call (and, for a lone result, a placeholder), in
/// order of first use.
fn tool_names(messages: &[wire::Message]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut results = false;
    for b in messages.iter().flat_map(|m| &m.content) {
        match b {
            Block::ToolUse(u) if !names.contains(&u.name) => names.push(u.name.clone()),
            Block::ToolResult(_) => results = true,
            _ => {}
        }
    }
    if names.is_empty() && results {
        names.push(PLACEHOLDER_TOOL.to_string());
    }
    names
}

/// The canonical messages as Bedrock turns: a Tool message (and any Tool messages right after
/// it) and the User message after them become one user message, results first.
fn encode_messages(msgs: &[Message], losses: &mut Losses) -> Vec<wire::Message> {
    let out: Vec<wire::Message> = blocks::encode_turns::<Messages>(msgs, losses)
        .into_iter()
        .map(|t| wire::Message {
            role: t.role,
            content: t.blocks,
            extra: t.extra,
        })
        .collect();
    turns::report_regrouped::<Messages>(msgs, read_back_shape(&out), losses);
    out
}

/// (role, number of parts) of the messages [`decode_request`] makes of these wire messages.
fn read_back_shape(msgs: &[wire::Message]) -> Vec<(Role, usize)> {
    blocks::read_back_shape(msgs, |m, results| {
        results.extend(m.content.iter().map(|b| matches!(b, Block::ToolResult(_))));
        match m.role {
            WireRole::Assistant => ReadsAs::Assistant,
            WireRole::User => ReadsAs::User,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Decoding: request

/// Request (body, with or without `modelId`) → model.
pub fn decode_request(doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let losses = Losses::new();
    let mut extra = doc.extra;
    let mut x = Exchange::default();
    match doc.model_id {
        Some(m) => x.options.model = Some(m),
        None => {
            extra.insert(FORM_KEY.into(), json!({ MODEL_IN_URL: true }));
        }
    }
    if let Some(c) = doc.inference_config {
        x.options.max_tokens = c.max_tokens;
        x.options.temperature = c.temperature;
        x.options.top_p = c.top_p;
        x.options.stop = c.stop_sequences.unwrap_or_default();
        if !c.extra.is_empty() {
            extra.insert("inferenceConfig".into(), Value::Object(c.extra));
        }
    }
    decode_reasoning_options(&mut extra, &mut x.options.reasoning);

    if let Some(blocks) = doc.system {
        x.system = blocks_text(&blocks);
        if !matches!(blocks.as_slice(), [Block::Text(t)] if !t.is_empty()) {
            // Kept so the blocks (cachePoint, guardContent, …) are written back as they were.
            extra.insert(
                "system".into(),
                serde_json::to_value(&blocks).unwrap_or(Value::Null),
            );
        }
    }

    if let Some(config) = doc.tool_config {
        let mut kept_config = config.extra;
        let mut layout = Vec::new();
        let mut other = false;
        for entry in config.tools {
            match entry {
                ToolEntry::Spec(t) => {
                    layout.push(Value::String(t.name.clone()));
                    x.tools.push(Tool {
                        name: t.name,
                        description: t.description,
                        input_schema: t.input_schema.json,
                        strict: t.strict,
                        output_schema: None,
                        annotations: None,
                        hosted: None,
                        custom: None,
                        extra: shared::wrap(ID, t.extra),
                    });
                }
                ToolEntry::Raw(v) if v.get("systemTool").is_some_and(Value::is_object) => {
                    let name = v
                        .pointer("/systemTool/name")
                        .and_then(Value::as_str)
                        .unwrap_or("systemTool")
                        .to_string();
                    layout.push(Value::String(name.clone()));
                    x.tools.push(Tool::of_hosted(
                        name.clone(),
                        HostedTool {
                            provider: PROVIDER.into(),
                            format: ID.into(),
                            kind: name,
                            value: v,
                        },
                    ));
                }
                ToolEntry::Raw(v) => {
                    other = true;
                    layout.push(v);
                }
            }
        }
        if other {
            kept_config.insert("tools".into(), Value::Array(layout));
        }
        if let Some(choice) = config.tool_choice {
            x.tool_choice = parse_choice(&choice);
            let clean = x
                .tool_choice
                .as_ref()
                .is_some_and(|tc| wire_choice_plain(tc) == choice);
            if !clean {
                kept_config.insert("toolChoice".into(), choice);
            }
        }
        if !kept_config.is_empty() {
            extra.insert("toolConfig".into(), Value::Object(kept_config));
        }
    }

    let mut call_ids: HashSet<String> = HashSet::new();
    for (wi, m) in doc.messages.unwrap_or_default().into_iter().enumerate() {
        decode_message(
            wi,
            m,
            x.options.model.as_deref(),
            &mut call_ids,
            &mut x.messages,
        )?;
    }
    x.extra = shared::wrap(ID, extra);
    Ok((x, losses.into_vec()))
}

/// The plain `toolChoice` of a choice the model reads from one (without reports).
fn wire_choice_plain(tc: &ToolChoice) -> Value {
    match (tc.mode, tc.tools.as_slice()) {
        (ChoiceMode::Required, [name]) => json!({"tool": {"name": name}}),
        (ChoiceMode::Required, _) => json!({"any": {}}),
        _ => json!({"auto": {}}),
    }
}

fn decode_call(u: ToolUse) -> Part {
    Part::ToolCall(ToolCall {
        id: Some(u.tool_use_id),
        name: u.name,
        arguments: u.input,
        arguments_raw: None,
        extra: shared::wrap(ID, u.extra),
    })
}

fn decode_message(
    wi: usize,
    m: wire::Message,
    model: Option<&str>,
    call_ids: &mut HashSet<String>,
    out: &mut Vec<Message>,
) -> Result<(), DecodeError> {
    let base = format!("/messages/{wi}");
    match m.role {
        WireRole::Assistant => {
            let parts = decode_assistant(m.content, model, &format!("{base}/content"), call_ids)?;
            let mut msg = Message::new(Role::Assistant, parts);
            msg.extra = shared::wrap(ID, m.extra);
            out.push(msg);
        }
        WireRole::User => {
            // Consecutive runs: tool results → a Tool message, anything else → a User message.
            let mut runs: Vec<(Role, Vec<Part>)> = Vec::new();
            for (bi, b) in m.content.into_iter().enumerate() {
                let (role, part) = match b {
                    Block::ToolResult(r) => {
                        if !call_ids.contains(&r.tool_use_id) {
                            return Err(DecodeError::at(
                                ID,
                                format!("{base}/content/{bi}/toolResult/toolUseId"),
                                format!(
                                    "toolResult answers toolUse {:?}, which no earlier \
                                     assistant message has",
                                    r.tool_use_id
                                ),
                            ));
                        }
                        (Role::Tool, decode_result(r))
                    }
                    Block::ToolUse(_) => {
                        return Err(DecodeError::at(
                            ID,
                            format!("{base}/content/{bi}"),
                            "toolUse blocks belong in assistant messages",
                        ))
                    }
                    Block::Text(t) => (Role::User, Part::text(t)),
                    Block::Raw(value) => (
                        Role::User,
                        Part::Raw {
                            format: ID.into(),
                            value,
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
            // The message's own fields go with its first part of the split.
            let mut extra = Some(m.extra);
            for (role, parts) in runs {
                let mut msg = Message::new(role, parts);
                msg.extra = shared::wrap(ID, extra.take().unwrap_or_default());
                out.push(msg);
            }
        }
    }
    Ok(())
}

/// `toolResult.content` in the model: none → empty text, one text block → text, one `json`
/// block → JSON, anything else → blocks.
fn decode_result_content(content: Vec<ResultBlock>) -> ResultContent {
    match <[ResultBlock; 1]>::try_from(content) {
        Ok([ResultBlock::Text(t)]) => ResultContent::Text(t),
        Ok([ResultBlock::Json(v)]) => ResultContent::Json(v),
        Ok([b]) => ResultContent::Blocks(vec![decode_result_block(b)]),
        Err(blocks) if blocks.is_empty() => ResultContent::Text(String::new()),
        Err(blocks) => ResultContent::Blocks(blocks.into_iter().map(decode_result_block).collect()),
    }
}

fn decode_result_block(b: ResultBlock) -> ModelBlock {
    match b {
        ResultBlock::Text(text) => ModelBlock::Text { text },
        ResultBlock::Image(img) => ModelBlock::Image {
            media_type: media_type(&img.format),
            data: img.source.bytes,
        },
        other => ModelBlock::Raw {
            format: ID.into(),
            value: serde_json::to_value(&other).unwrap_or(Value::Null),
        },
    }
}

/// The form marker of a pasted non-error `status` (`"success"`).
const STATUS_FORM: &str = "_toolscope:status";

fn decode_result(r: ToolResultBlock) -> Part {
    let mut extra = r.extra;
    let is_error = r.status.as_deref() == Some("error");
    if let Some(s) = r.status.filter(|s| s != "error") {
        // Written back as it was; the model only knows "error or not". A form marker: how
        // "no error" was spelled, which other formats say their own way (not a loss there).
        extra.insert(STATUS_FORM.into(), Value::String(s));
    }
    Part::ToolResult(ToolResult {
        call_id: Some(r.tool_use_id),
        name: None,
        content: decode_result_content(r.content),
        is_error,
        extra: shared::wrap(ID, extra),
    })
}

// ---------------------------------------------------------------------------------------------
// Response

/// `metrics` emitted when the message has none; read back as none.
fn placeholder_metrics() -> Value {
    json!({"latencyMs": 0})
}

/// The exchange's last assistant message → response body.
pub fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
    let mut losses = Losses::new();
    let view = x.response_view();
    let (with_ids, l) = assign_missing_ids(&view, WHY_IDS);
    losses.extend(l);
    let (with_ids, l) = rewrite_ids(&with_ids, &IdRule::BEDROCK);
    losses.extend(l);
    let (view, l) = rewrite_names(&with_ids);
    losses.extend(l);

    if let Some(m) = &view.options.model {
        losses.dropped(
            "/options/model",
            format!("model {m:?}"),
            "a Converse response does not name the model (it is in the request URL)",
        );
    }
    let msg = match view.messages.first() {
        Some(m) => m.clone(),
        None => {
            losses.added(
                "/messages",
                "an empty assistant message",
                "the exchange does not end with an assistant turn, and a Converse response is \
                 one",
            );
            Message::new(Role::Assistant, Vec::new())
        }
    };

    let content = blocks::encode_response_parts::<Messages>(
        &msg,
        &Ptr::written("/output/message/content"),
        &mut losses,
    );
    let stop_reason = blocks::encode_stop::<Messages>(&msg, &mut losses);

    let mut fields = shared::own_fields(
        ID,
        &msg.extra,
        &["output", "stopReason", "role", "content"],
        "/messages/0",
        &mut losses,
    );
    let metrics = match fields.remove("metrics") {
        Some(m) if m.is_object() => m,
        _ => placeholder_metrics(),
    };
    // Top-level: the documented response fields and the unknown ones of a pasted response;
    // everything else is the message's own.
    let mut top = match fields.remove(RESPONSE_KEY) {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for k in RESPONSE_FIELDS {
        if let Some(v) = fields.remove(k) {
            top.insert(k.to_string(), v);
        }
    }
    let mut usage_extra = match fields.remove("usage") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let total = usage_extra.remove("totalTokens").and_then(|v| v.as_u64());
    let usage = match &msg.usage {
        Some(u) => wire::Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            total_tokens: total.unwrap_or(u.input_tokens.saturating_add(u.output_tokens)),
            extra: usage_extra,
        },
        None => {
            losses
                .added(
                    "/messages/0/usage",
                    "usage of 0 input and 0 output tokens",
                    "a Converse response always reports usage",
                )
                .at("/usage");
            wire::Usage {
                input_tokens: 0,
                output_tokens: 0,
                total_tokens: 0,
                extra: usage_extra,
            }
        }
    };

    let doc = wire::Response {
        output: wire::Output {
            message: wire::Message {
                role: WireRole::Assistant,
                content,
                extra: fields,
            },
        },
        stop_reason,
        usage,
        metrics,
        extra: top,
    };
    (doc, losses.into_vec())
}

/// Response body → an exchange of the one assistant message.
pub fn decode_response(doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut top = doc.extra;
    let mut extra = Map::new();
    for k in RESPONSE_FIELDS {
        if let Some(v) = top.remove(k) {
            extra.insert(k.to_string(), v);
        }
    }
    if !top.is_empty() {
        extra.insert(RESPONSE_KEY.into(), Value::Object(top));
    }
    if doc.metrics != placeholder_metrics() {
        extra.insert("metrics".into(), doc.metrics);
    }
    let u = doc.usage;
    let mut usage_extra = u.extra;
    if Some(u.total_tokens) != u.input_tokens.checked_add(u.output_tokens) {
        usage_extra.insert("totalTokens".into(), json!(u.total_tokens));
    }
    // The placeholder the encoder writes when the model has no usage.
    let usage = if u.input_tokens == 0 && u.output_tokens == 0 && usage_extra.is_empty() {
        None
    } else {
        Some(Usage {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
        })
    };
    if !usage_extra.is_empty() {
        extra.insert("usage".into(), Value::Object(usage_extra));
    }
    let m = doc.output.message;
    if m.role != WireRole::Assistant {
        return Err(DecodeError::at(
            ID,
            "/output/message/role",
            "a Converse response message is the assistant's",
        ));
    }
    extra.extend(m.extra);

    let parts = decode_assistant(
        m.content,
        None,
        "/output/message/content",
        &mut HashSet::new(),
    )?;
    let mut msg = Message::new(Role::Assistant, parts);
    msg.stop_reason = Some(FINISH.read(&doc.stop_reason));
    msg.usage = usage;
    msg.extra = shared::wrap(ID, extra);
    let mut x = Exchange::default();
    x.messages.push(msg);
    Ok((x, Vec::new()))
}

// ---------------------------------------------------------------------------------------------
// Detection

/// Request: 96 with a `toolConfig` of `tools`/`toolChoice`, an `inferenceConfig` or a
/// `modelId`, or a message content block with a `text`, `toolUse` or `toolResult` key and no
/// `type` (Anthropic and OpenAI blocks always have one); 0 for a document with Gemini's
/// `contents` (whose `toolConfig` holds `functionCallingConfig`); response: `output.message`,
/// 97.
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let o = v.as_object()?;
    if o.get("output")
        .and_then(Node::as_object)
        .is_some_and(|out| out.contains_key("message"))
    {
        return Some((Kind::Response, 97));
    }
    if o.contains_key("contents") {
        // Gemini: it has a `toolConfig` too (of `functionCallingConfig`).
        return Some((Kind::Request, 0));
    }
    let tool_config = o
        .get("toolConfig")
        .and_then(Node::as_object)
        .is_some_and(|c| c.contains_key("tools") || c.contains_key("toolChoice"));
    let config = tool_config || o.contains_key("inferenceConfig") || o.contains_key("modelId");
    let blocks = o
        .get("messages")
        .and_then(Node::as_array)
        .is_some_and(|ms| {
            ms.iter()
                .filter_map(|m| m.get("content").and_then(Node::as_array))
                .flatten()
                .filter_map(Node::as_object)
                .any(|b| {
                    !b.contains_key("type")
                        && ["text", "toolUse", "toolResult", "reasoningContent"]
                            .iter()
                            .any(|k| b.contains_key(k))
                })
        });
    Some((Kind::Request, if config || blocks { 96 } else { 0 }))
}

// Format-bound forms of the shared helpers.

fn encode_arguments(call: &ToolCall, p: &Ptr, target: &Ptr, losses: &mut Losses) -> Value {
    shared::object_arguments(
        call,
        p,
        target.key("input"),
        "Bedrock toolUse input",
        losses,
    )
    .into_owned()
}
