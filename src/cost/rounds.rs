//! Per round of a tool loop: a conversation with tool calls is several requests, each resending
//! the tool definitions and everything said so far.
//!
//! A round is the request that produced an assistant message (the messages before it), plus the
//! pending request when the conversation does not end with the model. For each: its prompt
//! tokens, the tools' share, and the running totals over the loop — the figure that shows what
//! the tool definitions cost an agent.

use super::count::{breakdown, Vocabs};
use super::Model;
use crate::formats::Format;
use crate::model::{Exchange, Role};
use serde::Serialize;

/// One request of the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    /// 1-based.
    pub round: usize,
    /// How many messages the request carries.
    pub messages: usize,
    /// Its prompt tokens.
    pub prompt: u64,
    /// Of which the tool definitions.
    pub tools: u64,
    /// Prompt tokens of this and every earlier round.
    pub running_total: u64,
    /// Tool-definition tokens of this and every earlier round.
    pub running_tools: u64,
}

/// The rounds of `x` for `model`, with whether the counts are exact and how they were made.
pub fn rounds(x: &Exchange, model: &str, vocabs: &Vocabs) -> (Vec<Round>, bool, String) {
    rounds_in(x, model, vocabs, None)
}

/// [`rounds`] for an exchange read from a `source` format (see [`super::count::count_in`]).
pub fn rounds_in(
    x: &Exchange,
    model: &str,
    vocabs: &Vocabs,
    source: Option<Format>,
) -> (Vec<Round>, bool, String) {
    let m = Model::parse(model);
    let b = breakdown(x, &m, vocabs, source);
    let mut ends: Vec<usize> = x
        .messages
        .iter()
        .enumerate()
        .filter(|(_, msg)| msg.role == Role::Assistant)
        .map(|(i, _)| i)
        .collect();
    if x.messages
        .last()
        .is_none_or(|msg| msg.role != Role::Assistant)
    {
        ends.push(x.messages.len());
    }
    let mut out = Vec::with_capacity(ends.len());
    let (mut total, mut tools) = (0, 0);
    for (k, n) in ends.into_iter().enumerate() {
        let prompt = b.prompt(n);
        total += prompt;
        tools += b.tools;
        out.push(Round {
            round: k + 1,
            messages: n,
            prompt,
            tools: b.tools,
            running_total: total,
            running_tools: tools,
        });
    }
    (out, b.exact, b.method)
}
