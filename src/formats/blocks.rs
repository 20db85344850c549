//! The kit of the block formats (Anthropic Messages, Bedrock Converse): APIs whose messages are
//! a role and a list of typed content blocks, with tool results in user turns and reasoning as
//! signed blocks of the assistant. A format implements [`BlockFormat`] on its [`Turns`] type;
//! the kit walks the messages, drops reasoning the format cannot take back, and writes the stop
//! reason, so the two converters keep only what their wire shapes spell differently.

use crate::formats::shared::{self, drop_pointer, Finish};
use crate::formats::turns::{self, Turns};
use crate::model::{
    Exchange, Extra, Losses, Message, Opaque, Part, Reasoning, Role, StopReason, ToolCall,
    ToolResult,
};
use crate::text::Ptr;
use serde_json::{Map, Value};

/// What a block format declares beside its turns; the kit's functions read it.
pub(crate) trait BlockFormat: Turns {
    /// A content block of the wire message, borrowing from the model where it can.
    type Block<'a>;
    /// Family id of the provider that issues this format's reasoning state.
    const ISSUER: &'static str;
    /// The stop reasons the format has.
    const FINISH: Finish;
    /// Where a response document states its stop reason.
    const STOP_AT: &'static str;
    /// Why a response needs a stop reason (when the model has none).
    const WHY_STOP: &'static str;
    /// Keys a decoded response leaves in a message's own fields that a request message
    /// cannot carry.
    const RESPONSE_ONLY: &'static [&'static str];
    /// Why those keys are dropped from a request message.
    const WHY_REQUEST_MESSAGE: &'static str;
    /// Own message fields the encoder writes from the model (reported when present).
    const MESSAGE_RESERVED: &'static [&'static str];
    /// Why reasoning in a user turn is dropped.
    const WHY_REASONING_ROLE: &'static str;
    /// Why reasoning without the format's own state is dropped.
    const WHY_UNSIGNED: &'static str;

    /// Why an empty text part is not written into a request.
    const WHY_EMPTY_TEXT: &'static str;
    /// Why a tool call outside an assistant turn is dropped.
    const WHY_CALL_ROLE: &'static str;
    /// Why a tool result outside a user turn of a request is dropped.
    const WHY_RESULT_ROLE: &'static str;

    /// A text part as a block (an empty one only in a response).
    fn text<'a>(
        ctx: &PartCtx<Self::Role>,
        text: &'a str,
        extra: &'a Extra,
        losses: &mut Losses,
    ) -> Self::Block<'a>;
    /// A tool call as a block, in an assistant turn.
    fn call<'a>(
        ctx: &PartCtx<Self::Role>,
        call: &'a ToolCall,
        losses: &mut Losses,
    ) -> Self::Block<'a>;
    /// A tool result as a block, in a user turn of a request.
    fn result<'a>(
        ctx: &PartCtx<Self::Role>,
        r: &'a ToolResult,
        losses: &mut Losses,
    ) -> Self::Block<'a>;
    /// A reasoning part as a block, or `None` when dropped (see [`drop_reasoning`]).
    fn reasoning<'a>(
        ctx: &PartCtx<Self::Role>,
        r: &'a Reasoning,
        losses: &mut Losses,
    ) -> Option<Self::Block<'a>>;
    /// A block of the format kept verbatim (a raw part or a provider-run step of its own).
    fn raw(v: &Value) -> Self::Block<'_>;

    /// Own message fields dropped without a report (a form marker the encoder reads itself).
    fn strip_message_fields(_fields: &mut Map<String, Value>) {}

    /// The loss (what, why) of the format's own state of a kind its blocks do not carry;
    /// `None` words it as any other provider's state.
    fn own_state_dropped(_o: &Opaque) -> Option<(String, &'static str)> {
        None
    }
}

/// Where a part is and what it becomes; `response` relaxes the request-only rules (empty text
/// is kept). Pointers are written only when a loss is reported.
pub(crate) struct PartCtx<'a, R> {
    /// The wire role of the message the part goes to.
    pub role: R,
    /// The part in the model (`/messages/{mi}/parts/{pi}`).
    pub pointer: Ptr<'a>,
    /// Whether a part after it is kept (see [`drop_pointer`]).
    pub later: bool,
    /// Where the block goes in the document.
    pub target: Ptr<'a>,
    /// Whether the block goes into a response.
    pub response: bool,
}

impl<R> PartCtx<'_, R> {
    /// Pointer for dropping the part (see [`drop_pointer`]).
    pub fn drop_at(&self) -> String {
        shared::drop_pointer_at(&self.pointer, self.later)
    }

    /// Where the block goes, written out.
    pub fn target(&self) -> String {
        self.target.to_string()
    }
}

/// One wire message the kit built: its role, blocks and own fields.
pub(crate) struct Turn<R, B> {
    /// Wire role.
    pub role: R,
    /// Blocks, in order.
    pub blocks: Vec<B>,
    /// Own fields of the messages it was grouped from.
    pub extra: Map<String, Value>,
    /// Whether every block came from a text part without own fields (a plain string content
    /// may stand for it).
    pub plain_text_only: bool,
}

/// The canonical messages as the format's turns (grouped by [`turns::group`]), each part
/// encoded by [`BlockFormat::encode_part`], response-only message fields dropped with a report.
pub(crate) fn encode_turns<'a, F: BlockFormat>(
    msgs: &'a [Message],
    losses: &mut Losses,
) -> Vec<Turn<F::Role, F::Block<'a>>> {
    let groups = turns::group::<F>(msgs, losses);
    let mut out = Vec::with_capacity(groups.len());
    let messages = Ptr::ROOT.key("messages");
    for (wi, group) in groups.iter().enumerate() {
        let role = group
            .first()
            .and_then(|&k| msgs.get(k))
            .map_or(F::USER, F::wire_role);
        let mut blocks = Vec::new();
        let mut plain_text_only = true;
        let mut extra = Map::new();
        let wm = messages.index(wi);
        let content = wm.key("content");
        for &mi in group {
            let Some(m) = msgs.get(mi) else { continue };
            let mp = messages.index(mi);
            let list = mp.key("parts");
            for (pi, part) in m.parts.iter().enumerate() {
                let later = m.parts.iter().skip(pi + 1).any(|p| F::kept(role, false, p));
                let ctx = PartCtx {
                    role,
                    pointer: list.index(pi),
                    later,
                    target: content.index(blocks.len()),
                    response: false,
                };
                if let Some(b) = encode_part::<F>(&ctx, part, losses) {
                    // A text part that came from a block array carries an (often empty)
                    // own field map: it is written back as a block.
                    plain_text_only &=
                        matches!(part, Part::Text { extra, .. } if !extra.contains_key(F::ID));
                    blocks.push(b);
                }
            }
            // stop_reason and usage of past turns are response data (`Exchange::request_view`);
            // so are the other fields a pasted response leaves on its message.
            if m.extra.is_empty() {
                continue;
            }
            let mut own = m.extra.clone();
            if let Some(fields) = own.get_mut(F::ID) {
                F::strip_message_fields(fields);
                for k in F::RESPONSE_ONLY {
                    if fields.remove(*k).is_some() {
                        losses.dropped(
                            format!("{mp}/extra/{}/{k}", F::ID),
                            format!("response field {k}"),
                            F::WHY_REQUEST_MESSAGE,
                        );
                    }
                }
            }
            extra.extend(shared::own_fields(
                F::ID,
                &own,
                F::MESSAGE_RESERVED,
                mp,
                losses,
            ));
        }
        out.push(Turn {
            role,
            blocks,
            extra,
            plain_text_only,
        });
    }
    out
}

/// A part as a block of a turn of this role, or `None` when the turn cannot hold it (reported):
/// empty text in a request, a call outside an assistant turn, a result outside a user turn of
/// a request, another format's raw part or provider-run step.
pub(crate) fn encode_part<'a, F: BlockFormat>(
    ctx: &PartCtx<F::Role>,
    part: &'a Part,
    losses: &mut Losses,
) -> Option<F::Block<'a>> {
    let (what, why) = match part {
        Part::Text { text, .. } if text.is_empty() && !ctx.response => (
            "empty text block".to_string(),
            F::WHY_EMPTY_TEXT.to_string(),
        ),
        Part::Text { text, extra } => return Some(F::text(ctx, text, extra, losses)),
        Part::ToolCall(call) if ctx.role != F::ASSISTANT => (
            format!("tool call {}", call.name),
            F::WHY_CALL_ROLE.to_string(),
        ),
        Part::ToolCall(call) => return Some(F::call(ctx, call, losses)),
        Part::ToolResult(_) if ctx.role != F::USER || ctx.response => {
            ("tool result".to_string(), F::WHY_RESULT_ROLE.to_string())
        }
        Part::ToolResult(r) => return Some(F::result(ctx, r, losses)),
        Part::Reasoning(r) => return F::reasoning(ctx, r, losses),
        Part::Hosted(h) if h.format == F::ID && ctx.role == F::ASSISTANT => {
            return Some(F::raw(&h.value))
        }
        Part::Hosted(h) => {
            shared::drop_hosted(h, ctx.drop_at(), losses).at(ctx.target());
            return None;
        }
        Part::Raw { format, value } if format == F::ID => return Some(F::raw(value)),
        Part::Raw { format, value } => (
            crate::model::media_label(format, value),
            crate::model::raw_why(
                format,
                value,
                format!("only {format} has this kind of block"),
            ),
        ),
    };
    losses.dropped(ctx.drop_at(), what, why).at(ctx.target());
    None
}

/// The parts of a response's assistant message as blocks; `blocks` is where the list goes.
pub(crate) fn encode_response_parts<'a, F: BlockFormat>(
    msg: &'a Message,
    blocks: &Ptr,
    losses: &mut Losses,
) -> Vec<F::Block<'a>> {
    let mut content = Vec::new();
    let list = Ptr::written("/messages/0/parts");
    for (pi, part) in msg.parts.iter().enumerate() {
        let later = msg
            .parts
            .iter()
            .skip(pi + 1)
            .any(|p| F::kept(F::ASSISTANT, true, p));
        let ctx = PartCtx {
            role: F::ASSISTANT,
            pointer: list.index(pi),
            later,
            target: blocks.index(content.len()),
            response: true,
        };
        if let Some(b) = encode_part::<F>(&ctx, part, losses) {
            content.push(b);
        }
    }
    content
}

/// How a wire message reads back: as an assistant message, as one user message, or as the
/// user messages and tool messages its result flags make.
pub(crate) enum ReadsAs {
    /// One assistant message.
    Assistant,
    /// One user message, whatever its blocks.
    OneUser,
    /// User and tool messages (see [`turns::user_shape`]).
    User,
}

/// (role, number of parts) of the messages a decoder makes of these wire messages; `of` says
/// how one reads and pushes one flag a block (whether it is a tool result).
pub(crate) fn read_back_shape<M>(
    msgs: &[M],
    of: impl Fn(&M, &mut Vec<bool>) -> ReadsAs,
) -> Vec<(Role, usize)> {
    let mut shape = Vec::with_capacity(msgs.len());
    // One buffer for every message's flags.
    let mut results = Vec::new();
    for m in msgs {
        results.clear();
        match of(m, &mut results) {
            ReadsAs::Assistant => shape.push((Role::Assistant, results.len())),
            ReadsAs::OneUser => shape.push((Role::User, results.len())),
            ReadsAs::User => turns::user_shape(&results, &mut shape),
        }
    }
    shape
}

/// Where the loss of a dropped hosted tool points: the tool, or the list when a tool after it
/// is written (and moves up one place).
pub(crate) fn hosted_drop_pointer<F: BlockFormat>(x: &Exchange, i: usize) -> String {
    let later = x
        .tools
        .iter()
        .skip(i + 1)
        .any(|t| t.hosted.as_ref().is_none_or(|h| h.format == F::ID));
    drop_pointer("/tools", i, later)
}

/// Reports a reasoning part the format does not write (not its own, or not in an assistant
/// turn): its state and its text, each with the reason.
pub(crate) fn drop_reasoning<F: BlockFormat>(
    ctx: &PartCtx<F::Role>,
    r: &Reasoning,
    losses: &mut Losses,
) {
    let p = &ctx.pointer;
    if ctx.role != F::ASSISTANT {
        losses
            .reasoning(ctx.drop_at(), "reasoning", F::WHY_REASONING_ROLE)
            .at(ctx.target());
        return;
    }
    if let Some(o) = &r.opaque {
        let own = o.replayable_to(F::ISSUER).then(|| F::own_state_dropped(o));
        match own.flatten() {
            Some((what, why)) => losses.reasoning(format!("{p}/opaque"), what, why),
            None => losses.reasoning(format!("{p}/opaque"), o.what(), o.why_dropped()),
        }
        .at(ctx.target());
    }
    if !r.is_opaque_only() || r.opaque.is_none() {
        let what = match &r.opaque {
            Some(o) => format!(
                "{} reasoning text",
                crate::model::provider_name(&o.provider)
            ),
            None => "reasoning text".to_string(),
        };
        losses
            .reasoning(ctx.drop_at(), what, F::WHY_UNSIGNED)
            .at(ctx.target());
    }
}

/// The response's stop reason in the format's words: the model's, or the one its calls imply
/// (reported as added or rewritten).
pub(crate) fn encode_stop<F: BlockFormat>(msg: &Message, losses: &mut Losses) -> String {
    let f = F::FINISH;
    let derived = if msg.tool_calls().next().is_some() {
        f.tool_use
    } else {
        f.end_turn
    };
    match &msg.stop_reason {
        None => {
            losses
                .added(
                    "/messages/0/stop_reason",
                    format!("stop reason {derived}"),
                    F::WHY_STOP,
                )
                .at(F::STOP_AT);
            derived.to_string()
        }
        Some(r) => match f.write(r) {
            Some(s) => s.to_string(),
            None => {
                losses
                    .rewritten(
                        "/messages/0/stop_reason",
                        format!("stop reason {} sent as {derived}", stop_name(r)),
                        format!("{} has no such stop reason", F::PROVIDER),
                    )
                    .at(F::STOP_AT);
                derived.to_string()
            }
        },
    }
}

/// The model's name of a stop reason, for messages.
fn stop_name(r: &StopReason) -> String {
    match serde_json::to_value(r) {
        Ok(Value::String(s)) => s,
        _ => format!("{r:?}"),
    }
}
