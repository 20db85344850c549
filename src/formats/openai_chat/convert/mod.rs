//! Encoding the canonical model into Chat Completions bodies and decoding them back.
//!
//! Every function takes a [`Profile`], so OpenAI-compatible APIs (DeepSeek, Mistral, Cohere,
//! Ollama) become small variations of the same code rather than copies: the code asks the
//! profile what the API does and never names a dialect.
//!
//! What a pasted document spells in a way the model does not record (a `developer` system
//! message, `max_tokens` instead of `max_completion_tokens`, `stop` as one string, content as a
//! one-element array, absent rather than `null` content, …) is remembered in the element's
//! `extra[ID]`: pure spelling under form-marker keys `_toolscope:<name>` (not compared by the
//! round-trip check, not reported by other formats), kept provider data that has no field in
//! the model (response id, other choices, a developer system message as it was) under keys
//! starting with `toolscope:`. Both are read by the encoder and never emitted; every other key
//! of `extra[ID]` is a field of the document, emitted verbatim.
//! Dialect spellings that carry no meaning (Cohere's `tool_plan` text, Mistral's object
//! arguments and `required` word) are form markers under [`FORM_KEY`], which the round-trip
//! check ignores.

//!
//! The module is split by direction: [`encode`] writes documents, [`decode`] reads them, and
//! `extra` holds the keys of what a document spells that the model does not record.

mod decode;
mod encode;
mod extra;

pub use decode::{decode_request, decode_response};
pub use encode::{encode_request, encode_response};

use super::profile::{ObjectArguments, Profile, Strict, MAX_COMPLETION_TOKENS, MAX_TOKENS};
use super::reasoning::{self, Spelling};
use super::wire::{self, Content, ContentPart, Field, Fields, NamedToolChoice, TextPart};
use crate::formats::field::{wrap, Keep, Own};
use crate::formats::json::escape;
use crate::formats::shared;
use crate::formats::sniff::Node;
use crate::formats::{DecodeError, Kind};
use crate::model::{
    empty_object_schema, is_form_key, settle_ids, Block, ChoiceMode, Exchange, Extra, Loss, Losses,
    Message, OpaqueKind, Part, Reasoning, ResultContent, Role, StopReason, Tool, ToolCall,
    ToolChoice, ToolResult, Usage,
};
use crate::text::Ptr;
use extra::*;
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;

/// Response id sent when the exchange has none; read back as none.
pub const PLACEHOLDER_ID: &str = "chatcmpl-toolscope";
const OBJECT: &str = "chat.completion";

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// Whether a model takes reasoning settings: OpenAI's older chat models (`gpt-4*`, `gpt-3.5`,
/// `chatgpt-4o`) reject `reasoning_effort`; every other name may be a reasoning model.
fn reasons(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    !["gpt-4", "gpt-3.5", "chatgpt-4o"]
        .iter()
        .any(|p| m.starts_with(p))
}

/// True for a thinking content item (Mistral, Cohere): reasoning, not text.
fn is_thinking(c: &ContentPart) -> bool {
    matches!(c, ContentPart::Other(v) if v.get("type").and_then(Value::as_str) == Some("thinking"))
}

/// The text of a system or developer message: its string, or its text parts joined.
fn instruction_text(content: &Content) -> String {
    match content {
        Content::Text(s) => s.clone(),
        Content::Parts(parts) => parts
            .iter()
            .filter_map(|p| match p {
                ContentPart::Text(t) => Some(t.text.as_str()),
                ContentPart::Other(_) => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Losses for parts whose decoded position differs from their position in the model (texts go
/// before calls, dropped parts shift the ones after them). `order` lists the model indices of
/// the parts in the order they are emitted.
fn check_order(order: &[usize], pointer: impl std::fmt::Display, losses: &mut Losses) {
    if order.iter().enumerate().any(|(pos, &j)| pos != j) {
        losses.rewritten(
            format!("{pointer}/parts"),
            "order of the parts",
            "Chat Completions puts a message's text before its tool calls, and dropped parts shift the rest",
        );
    }
}

/// How sure we are that `v` is a Chat Completions request or response.
pub fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let o = v.as_object()?;
    if o.contains_key("choices") {
        return Some((Kind::Response, 95));
    }
    let messages = o.get("messages")?;
    let role_marker = messages.as_array().is_some_and(|ms| {
        ms.iter().any(|m| {
            matches!(
                m.get("role").and_then(Node::as_str),
                Some("system" | "developer" | "tool" | "function")
            ) || m.get("tool_calls").is_some()
                || m.get("function_call").is_some()
        })
    });
    let tool_marker = o
        .get("tools")
        .and_then(Node::as_array)
        .is_some_and(|ts| ts.iter().any(|t| t.get("function").is_some()));
    let marker = role_marker || tool_marker || o.contains_key("functions");
    Some((Kind::Request, if marker { 95 } else { 55 }))
}
