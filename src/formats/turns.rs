//! Turns of the block formats (Anthropic Messages, Bedrock Converse): tool results travel as
//! blocks at the start of the user message after the calls, so canonical Tool messages and
//! the User message after them are grouped into one wire message, and whatever reads back
//! grouped otherwise is reported once. One implementation of the grouping for both formats;
//! each says its roles and which parts it writes through [`Turns`].

use crate::model::{Losses, Message, Part, Role};

/// What the grouping needs to know of a block format.
pub(crate) trait Turns {
    /// The wire role type.
    type Role: Copy + PartialEq;
    /// Format id (raw parts of this format are written back).
    const ID: &'static str;
    /// Provider name, for the reports.
    const PROVIDER: &'static str;
    /// The user role on the wire.
    const USER: Self::Role;
    /// The assistant role on the wire.
    const ASSISTANT: Self::Role;
    /// The wire role a canonical message is written with.
    fn wire_role(m: &Message) -> Self::Role;
    /// Whether a part is written in a message of this role (the encoder's rules, without the
    /// reports): calls in assistant messages, results in user messages of a request, text
    /// unless empty in a request, raw parts of this format.
    fn kept(role: Self::Role, response: bool, part: &Part) -> bool {
        match part {
            Part::Text { text, .. } => response || !text.is_empty(),
            Part::ToolCall(_) => role == Self::ASSISTANT,
            Part::ToolResult(_) => role == Self::USER && !response,
            Part::Raw { format, .. } => format == Self::ID,
            Part::Reasoning(_) | Part::Hosted(_) => false,
        }
    }
    /// Whether a User message may join the tool results before it (besides having something
    /// to write and no results of its own).
    fn joins(_next: &Message) -> bool {
        true
    }
}

/// Which source messages make up each wire message: a Tool message, any Tool messages right
/// after it and the User message after them become one user message, results first.
pub(crate) fn group<T: Turns>(msgs: &[Message], losses: &mut Losses) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < msgs.len() {
        let mut group = vec![i];
        let mut j = i + 1;
        let is_tool = |k: usize| msgs.get(k).is_some_and(|m| m.role == Role::Tool);
        if is_tool(i) {
            while is_tool(j) {
                group.push(j);
                j += 1;
            }
            if group.len() > 1 {
                losses.rewritten(
                    "/messages",
                    format!("tool messages {i}–{} sent as one user message", j - 1),
                    format!(
                        "{} expects all tool results of a turn together in the one user \
                         message after it; they read back as one tool message",
                        T::PROVIDER
                    ),
                );
            }
            if let Some(next) = msgs.get(j) {
                let merges = next.role == Role::User
                    && T::joins(next)
                    && next.parts.iter().any(|p| T::kept(T::USER, false, p))
                    && !next.parts.iter().any(|p| matches!(p, Part::ToolResult(_)));
                if merges {
                    group.push(j);
                    j += 1;
                }
            }
        }
        groups.push(group);
        i = j;
    }
    groups
}

/// The (role, number of parts) a user message of blocks reads back as: runs of results are
/// Tool messages, runs of other blocks User messages; `results` flags each block.
pub(crate) fn user_shape(results: &[bool], shape: &mut Vec<(Role, usize)>) {
    if results.is_empty() {
        shape.push((Role::User, 0));
    }
    for run in results.chunk_by(|a, b| a == b) {
        let role = if run.first() == Some(&true) {
            Role::Tool
        } else {
            Role::User
        };
        shape.push((role, run.len()));
    }
}

/// Report once, for the whole list, when the wire messages (read back as `read_back`) group
/// differently from the canonical ones (results inside a user message, text inside a tool
/// message, an empty tool message, …) and no grouping was reported yet.
pub(crate) fn report_regrouped<T: Turns>(
    msgs: &[Message],
    read_back: Vec<(Role, usize)>,
    losses: &mut Losses,
) {
    let expected: Vec<(Role, usize)> = msgs
        .iter()
        .map(|m| {
            let role = T::wire_role(m);
            (
                m.role,
                m.parts.iter().filter(|p| T::kept(role, false, p)).count(),
            )
        })
        .collect();
    if read_back != expected && !losses.0.iter().any(|l| l.pointer == "/messages") {
        losses.rewritten(
            "/messages",
            "messages regrouped",
            format!(
                "{} carries tool results inside user messages: these messages read back \
                 split or joined differently",
                T::PROVIDER
            ),
        );
    }
}
