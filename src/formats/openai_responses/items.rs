//! Reasoning items, provider-defined tool items and tool definitions, and custom tools ⇄ the
//! canonical model.
//!
//! - `reasoning` items (`ResponseReasoningItem`: `id`, `summary` of `summary_text`, `content`
//!   of `reasoning_text`, `encrypted_content`, `status`) are [`Part::Reasoning`]: the text, the
//!   summaries, the encrypted content as opaque state of the provider that issued it, `id`,
//!   `status` and unknown fields in the part's `extra`. The API takes back only reasoning it
//!   issued: an item it stored (by `id`) or its own `encrypted_content`
//!   (<https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context>);
//!   `ResponseReasoningItemParam` requires `id` and `summary`. So a request carries a reasoning
//!   part only when its state goes back to its issuer; another model's reasoning is reported.
//! - Items of tools the provider defines (`web_search_call`, `file_search_call`,
//!   `code_interpreter_call`, `mcp_call`, `mcp_list_tools`, `mcp_approval_request`/`_response`,
//!   `image_generation_call`, `computer_call(_output)`, `local_shell_call(_output)`,
//!   `shell_call(_output)`, `apply_patch_call(_output)`, `tool_search_call`/`_output`,
//!   `program`/`program_output` of programmatic tool calling, xAI's `x_search_call`, …) are
//!   [`Part::Hosted`], the item verbatim.
//! - Tool definitions of any type other than `function` and `custom` are tools with
//!   [`Tool::hosted`]; `custom` tools (free-text input, `format` a grammar or text) have
//!   [`Tool::custom`] and the input schema [`custom_schema`], the shape they take elsewhere.
//! - A `custom_tool_call` is a [`ToolCall`] whose arguments are `{"input": <text>}`; it and its
//!   `custom_tool_call_output` carry the form marker `custom` so they come back as custom items.
//!
//! Who issued reasoning state and hosted steps is read from the document's model: DeepSeek and
//! xAI (Grok) serve Responses-compatible endpoints, and their state is theirs.

use super::convert::{own_join, own_split, Obj, ID};
use crate::formats::Kind;
use crate::model::{
    empty_object_schema, provider_name, HostedKind, HostedStep, HostedTool, Losses, Opaque,
    OpaqueKind, Part, Reasoning, Tool,
};
use crate::providers::Provider;
use serde_json::{json, Value};

/// Form marker of a custom tool call or output (in the private map).
pub(super) const CUSTOM: &str = "custom";

/// Key of a reasoning part's `extra` naming who issued an item that has no encrypted content
/// (read by the encoder, never emitted); absent for OpenAI.
const ISSUER: &str = "toolscope:issuer";

/// The provider family id that issues a model's reasoning state and runs its hosted tools on a
/// Responses endpoint: the owner of the model name (its `:tag` aside) when the table says its
/// own API serves it through OpenAI's ([`Row::served_by`](crate::providers::Row::served_by)),
/// `xai` for Grok, else `openai`.
pub(super) fn issuer(model: Option<&str>) -> &'static str {
    let n = model.unwrap_or_default().trim().to_ascii_lowercase();
    let n = n.rsplit('/').next().unwrap_or_default();
    let base = n.split(':').next().unwrap_or_default();
    match Provider::of_name(base) {
        Some(p) if p != Provider::OpenAi && p.row().served_by.contains(&Provider::OpenAi) => p.id(),
        _ if n.starts_with("grok") => "xai",
        _ => "openai",
    }
}

/// What the encoder needs to know about the whole exchange.
pub(super) struct Ctx {
    /// The provider the document goes to (see [`issuer`]).
    pub target: &'static str,
    /// Names of the custom tools.
    pub custom_tools: Vec<String>,
    /// Call ids of the calls written as `custom_tool_call`.
    pub custom_calls: Vec<String>,
}

impl Ctx {
    /// The context of encoding `x` for a document naming `model`.
    pub fn new(x: &crate::model::Exchange, model: Option<&str>) -> Ctx {
        let custom_tools: Vec<String> = x
            .tools
            .iter()
            .filter(|t| t.custom.is_some())
            .map(|t| t.name.clone())
            .collect();
        let mut ctx = Ctx {
            target: issuer(model),
            custom_tools,
            custom_calls: Vec::new(),
        };
        let ids: Vec<String> = x
            .messages
            .iter()
            .flat_map(|m| m.tool_calls())
            .filter(|c| ctx.is_custom_call(c))
            .filter_map(|c| c.id.clone())
            .collect();
        ctx.custom_calls = ids;
        ctx
    }

    /// Whether a call is written as `custom_tool_call`: it calls a custom tool, or it was one.
    pub fn is_custom_call(&self, c: &crate::model::ToolCall) -> bool {
        self.custom_tools.contains(&c.name) || marked_custom(&c.extra)
    }

    /// Whether a result is written as `custom_tool_call_output`.
    pub fn is_custom_result(&self, r: &crate::model::ToolResult) -> bool {
        marked_custom(&r.extra)
            || r.call_id
                .as_ref()
                .is_some_and(|id| self.custom_calls.contains(id))
    }
}

fn marked_custom(extra: &crate::model::Extra) -> bool {
    extra
        .get(ID)
        .and_then(|m| m.get(super::PRIVATE))
        .and_then(|pv| pv.get(CUSTOM))
        == Some(&Value::Bool(true))
}

// ---------------------------------------------------------------------------------------------
// reasoning

fn text_part<'v>(v: &'v Value, kind: &str) -> Option<&'v str> {
    let o = v.as_object()?;
    if o.len() != 2 || o.get("type").and_then(Value::as_str) != Some(kind) {
        return None;
    }
    o.get("text").and_then(Value::as_str)
}

fn texts(v: Option<&Value>, kind: &str) -> Option<Vec<String>> {
    v?.as_array()?
        .iter()
        .map(|p| text_part(p, kind).map(str::to_string))
        .collect()
}

/// Placeholder id of a reasoning item in a response that has none.
fn reasoning_placeholder(index: usize) -> String {
    format!("rs_toolscope_{index}")
}

/// A reasoning item as a reasoning part; `None` when its shape has no canonical form (kept
/// verbatim by the caller). `issuer` and `model` say who issued its state; `response_index` is
/// the item's place in a response's output (for the id placeholder).
pub(super) fn decode_reasoning(
    v: &Value,
    issuer: &str,
    model: Option<&str>,
    response_index: Option<usize>,
) -> Option<Part> {
    let o = v.as_object()?;
    let summary = match o.get("summary") {
        None => Some(Vec::new()),
        s => texts(s, "summary_text"),
    }?;
    let content = match o.get("content") {
        None | Some(Value::Null) => None,
        c => Some(texts(c, "reasoning_text")?),
    };
    let data = match o.get("encrypted_content") {
        Some(Value::String(s)) => Some(s.clone()),
        None | Some(Value::Null) => None,
        Some(_) => return None,
    };
    let mut w = o.clone();
    let mut pv = Obj::new();
    w.remove("type");
    if w.remove("summary").is_none() {
        pv.insert("summary".into(), Value::from("absent"));
    }
    let text = match content {
        Some(parts) => {
            w.remove("content");
            match parts.as_slice() {
                [] => {
                    pv.insert("content".into(), Value::from("empty"));
                    None
                }
                [one] => Some(one.clone()),
                many => {
                    let joined = many.join("\n\n");
                    pv.insert("content_parts".into(), json!(many));
                    Some(joined)
                }
            }
        }
        None => None,
    };
    if data.is_some() {
        w.remove("encrypted_content");
    }
    if let Some(k) = response_index {
        match w.get("id") {
            Some(Value::String(id)) if *id == reasoning_placeholder(k) => {
                w.remove("id");
            }
            None => {
                pv.insert("id".into(), Value::from("absent"));
            }
            _ => {}
        }
    }
    let opaque = data.map(|d| Opaque {
        kind: OpaqueKind::Encrypted,
        data: d,
        provider: issuer.to_string(),
        model: model.map(str::to_string),
    });
    if opaque.is_none() && issuer != "openai" {
        w.insert(ISSUER.into(), Value::from(issuer));
    }
    Some(Part::Reasoning(Reasoning {
        text,
        summary,
        opaque,
        attached: false,
        extra: own_join(w, pv),
    }))
}

/// A reasoning part as a reasoning item, or `None` when the document cannot carry it (each
/// dropped piece reported). `pp` is the part's pointer, `drop` the pointer of its loss when the
/// whole part is left out; `index` its place in a response's output.
pub(super) fn encode_reasoning(
    r: &Reasoning,
    pp: &str,
    drop: &str,
    kind: Kind,
    index: usize,
    ctx: &Ctx,
    losses: &mut Losses,
) -> Option<Value> {
    losses.foreign_extra(&r.extra, ID, pp);
    let (mut w, pv) = own_split(&r.extra);
    let item_issuer = match w.remove(ISSUER) {
        Some(Value::String(s)) => s,
        _ => match &r.opaque {
            Some(o) => o.provider.clone(),
            None => "openai".into(),
        },
    };
    let replayable = r
        .opaque
        .as_ref()
        .filter(|o| o.kind == OpaqueKind::Encrypted && o.replayable_to(ctx.target));
    let has_id = w.get("id").is_some_and(Value::is_string);
    let keep = kind == Kind::Response
        || replayable.is_some()
        || (r.opaque.is_none() && has_id && item_issuer == ctx.target);
    let target = provider_name(ctx.target);
    if let Some(o) = r.opaque.as_ref().filter(|_| replayable.is_none()) {
        let why = if o.replayable_to(ctx.target) {
            format!(
                "{}; the Responses API takes back only encrypted_content",
                o.why_dropped()
            )
        } else {
            o.why_dropped()
        };
        let at = if keep {
            format!("{pp}/opaque")
        } else {
            drop.to_string()
        };
        losses.reasoning(at, o.what(), why);
    }
    if !keep {
        if !r.is_opaque_only() || r.opaque.is_none() {
            let what = if r.text.as_deref().is_some_and(|t| !t.is_empty()) {
                "reasoning text"
            } else if r.summary.is_empty() {
                "empty reasoning"
            } else {
                "reasoning summary"
            };
            let why = if r.opaque.is_some() || has_id {
                format!(
                    "issued by {} and {target} cannot look it up: the Responses API takes back \
                     only reasoning items it issued (an id it stored, or its own \
                     encrypted_content)",
                    provider_name(&item_issuer)
                )
            } else {
                "the Responses API takes back only reasoning items it issued (an id it stored, \
                 or its own encrypted_content); reasoning from another model has no item to go \
                 in (ResponseReasoningItemParam requires an id)"
                    .to_string()
            };
            losses.reasoning(drop.to_string(), what, why);
        }
        return None;
    }
    let mut out = Obj::new();
    match w.remove("id") {
        Some(id) => {
            out.insert("id".into(), id);
        }
        None if kind == Kind::Response && pv.get("id").is_none() => {
            out.insert("id".into(), Value::from(reasoning_placeholder(index)));
        }
        None => {}
    }
    out.insert("type".into(), Value::from("reasoning"));
    w.remove("type");
    let summary_absent = pv.get("summary").is_some() && r.summary.is_empty();
    w.remove("summary");
    if !summary_absent {
        let parts: Vec<Value> = r
            .summary
            .iter()
            .map(|s| json!({"type": "summary_text", "text": s}))
            .collect();
        out.insert("summary".into(), Value::Array(parts));
    }
    match &r.text {
        Some(t) => {
            w.remove("content");
            let stored = pv
                .get("content_parts")
                .and_then(Value::as_array)
                .filter(|ps| {
                    let joined: Vec<&str> = ps.iter().filter_map(Value::as_str).collect();
                    joined.len() == ps.len() && joined.join("\n\n") == *t
                });
            let parts: Vec<Value> = match stored {
                Some(ps) => ps
                    .iter()
                    .map(|p| json!({"type": "reasoning_text", "text": p}))
                    .collect(),
                None => vec![json!({"type": "reasoning_text", "text": t})],
            };
            out.insert("content".into(), Value::Array(parts));
        }
        None if pv.get("content").is_some() => {
            w.remove("content");
            out.insert("content".into(), Value::Array(Vec::new()));
        }
        None => {}
    }
    if let Some(o) = replayable {
        w.remove("encrypted_content");
        out.insert("encrypted_content".into(), Value::from(o.data.clone()));
    }
    out.extend(w);
    Some(Value::Object(out))
}

// ---------------------------------------------------------------------------------------------
// hosted steps

/// Whether an item type is a step of a tool the provider defines (not a function or custom
/// call, a message, reasoning or a reference).
pub(super) fn is_hosted_item(t: &str) -> bool {
    !matches!(
        t,
        "function_call" | "function_call_output" | "custom_tool_call" | "custom_tool_call_output"
    ) && (t.ends_with("_call") || t.ends_with("_output") || t.starts_with("mcp_") || t == "program")
}

/// A provider-defined tool's item as a hosted step, or `None` when it is not one.
pub(super) fn decode_hosted(v: &Value, provider: &str) -> Option<Part> {
    let t = v.get("type")?.as_str()?;
    if !is_hosted_item(t) {
        return None;
    }
    let s = |k: &str| v.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let kind = match t {
        "mcp_list_tools" => HostedKind::List,
        "mcp_approval_response" => HostedKind::Result,
        _ if t.ends_with("_output") => HostedKind::Result,
        _ => HostedKind::Call,
    };
    let tool = if t.starts_with("mcp_") {
        match (s("server_label"), s("name")) {
            (Some(server), Some(name)) => format!("mcp:{server}/{name}"),
            (Some(server), None) => format!("mcp:{server}"),
            _ => "mcp".to_string(),
        }
    } else {
        let base = t
            .strip_suffix("_call_output")
            .or_else(|| t.strip_suffix("_call"))
            .or_else(|| t.strip_suffix("_output"))
            .unwrap_or(t);
        hosted_kind(base).to_string()
    };
    let id = s("call_id")
        .or_else(|| s("approval_request_id"))
        .or_else(|| s("id"))
        .map(str::to_string);
    Some(Part::Hosted(HostedStep {
        provider: provider.to_string(),
        format: ID.into(),
        kind,
        tool,
        id,
        value: v.clone(),
    }))
}

/// A hosted step as an item, or `None` (reported) when this document cannot carry it.
pub(super) fn encode_hosted(
    h: &HostedStep,
    drop: &str,
    kind: Kind,
    ctx: &Ctx,
    losses: &mut Losses,
) -> Option<Value> {
    if h.format == ID && (kind == Kind::Response || h.provider == ctx.target) {
        return Some(h.value.clone());
    }
    let why = if h.format == ID {
        format!(
            "run by {} on its servers; {} has no record of it",
            provider_name(&h.provider),
            provider_name(ctx.target)
        )
    } else {
        h.why_dropped()
    };
    losses.dropped(drop.to_string(), h.what(), why);
    None
}

// ---------------------------------------------------------------------------------------------
// tool definitions

/// The kind of a provider-defined tool for people and for mapping between providers.
fn hosted_kind(t: &str) -> &str {
    match t {
        _ if t.starts_with("web_search") => "web_search",
        "code_interpreter" => "code_execution",
        "computer_use_preview" | "computer_use" | "computer" => "computer",
        "local_shell" | "shell" => "shell",
        other => other,
    }
}

/// The input schema of a custom tool: one string, `input`. Other formats send a custom tool
/// as a function taking it.
pub fn custom_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"input": {"type": "string"}},
        "required": ["input"],
        "additionalProperties": false
    })
}

/// A tool definition other than `function` as a canonical tool.
pub(super) fn decode_tool_def(v: Value, provider: &str) -> Tool {
    let t = v.get("type").and_then(Value::as_str).unwrap_or("");
    let str_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let mut tool = Tool::new(String::new(), empty_object_schema());
    let custom_ok = t == "custom"
        && v.get("name").is_some_and(Value::is_string)
        && v.get("description").is_none_or(Value::is_string)
        && v.get("format").is_none_or(Value::is_object);
    if custom_ok {
        let mut w = v.as_object().cloned().unwrap_or_default();
        let mut pv = Obj::new();
        tool.name = str_of("name").unwrap_or_default();
        tool.description = str_of("description");
        tool.input_schema = custom_schema();
        tool.custom = Some(match w.remove("format") {
            Some(f) => f,
            None => {
                pv.insert("format".into(), Value::from("absent"));
                json!({"type": "text"})
            }
        });
        for k in ["type", "name", "description"] {
            w.remove(k);
        }
        tool.extra = own_join(w, pv);
        return tool;
    }
    tool.name = match (t, str_of("server_label"), str_of("name")) {
        ("mcp", Some(server), _) => server,
        (_, _, Some(name)) => name,
        _ => t.to_string(),
    };
    tool.description = str_of("description").or_else(|| str_of("server_description"));
    tool.hosted = Some(HostedTool {
        provider: provider.to_string(),
        format: ID.into(),
        kind: hosted_kind(t).to_string(),
        value: v,
    });
    tool
}

/// A hosted or custom tool as a definition, or `None` (reported) when it is another format's.
pub(super) fn encode_tool_def(k: usize, t: &Tool, losses: &mut Losses) -> Option<Value> {
    let p = format!("/tools/{k}");
    if let Some(h) = &t.hosted {
        if h.format == ID {
            return Some(h.value.clone());
        }
        losses.dropped(
            p,
            h.what(),
            h.why_dropped("the Responses API declares its own tools"),
        );
        return None;
    }
    let format = t.custom.as_ref()?;
    losses.foreign_extra(&t.extra, ID, &p);
    let (mut w, pv) = own_split(&t.extra);
    if t.input_schema != custom_schema() {
        losses.dropped(
            format!("{p}/input_schema"),
            "input schema",
            "a custom tool takes free text shaped by its format, not JSON",
        );
    }
    if t.output_schema.is_some() {
        losses.dropped(
            format!("{p}/output_schema"),
            "output schema",
            "a custom tool has no output schema",
        );
    }
    if t.annotations.is_some() {
        losses.dropped(
            format!("{p}/annotations"),
            "tool annotations",
            "Responses tools have no annotations",
        );
    }
    if t.strict.is_some() {
        losses.dropped(
            format!("{p}/strict"),
            "strict flag",
            "a custom tool has no strict mode (its grammar constrains the input)",
        );
    }
    let mut out = Obj::new();
    out.insert("type".into(), Value::from("custom"));
    out.insert("name".into(), Value::from(t.name.clone()));
    if let Some(d) = &t.description {
        out.insert("description".into(), Value::from(d.clone()));
    }
    let absent = pv.get("format").is_some() && *format == json!({"type": "text"});
    if !absent {
        out.insert("format".into(), format.clone());
    }
    for key in ["type", "name", "description", "format"] {
        w.remove(key);
    }
    out.extend(w);
    Some(Value::Object(out))
}
