//! Signed reasoning in a block format: the checks and fixes are the same wherever the model's
//! thinking rides in the conversation as signed content blocks (`messages[].content[]`), only
//! the spelling of the blocks differs. A format describes its spelling once ([`Shape`]) and
//! its rules call these with their own ids:
//!
//! - with thinking on, the assistant turn of the current tool loop starts with its reasoning
//!   ([`first`]);
//! - every reasoning block carries its signature ([`signatures`]);
//! - the tool choice does not force a tool while thinking is on ([`forced_choice`], fixed by
//!   [`choice_auto`]);
//! - with thinking off, the final assistant message holds no reasoning ([`in_final`], fixed
//!   by [`drop_final`]).

use super::{arr, edit_items, seg, str_at, Finding};
use serde_json::Value;

/// How a block format spells signed reasoning, tool results and the tool choice.
pub(crate) trait Shape {
    /// A user message's `content` may be a plain string (the user's own words).
    const TEXT_CONTENT: bool;
    /// The reasoning block, for a person (`thinking block`).
    const BLOCK: &'static str;
    /// The part that carries the signature, for a person.
    const SIGNED: &'static str;
    /// JSON pointer of the tool choice (`/tool_choice`); its last segment names it.
    const CHOICE: &'static str;
    /// Thinking is on in this request.
    fn enabled(doc: &Value) -> bool;
    /// The block is a tool result.
    fn is_result(b: &Value) -> bool;
    /// The block is reasoning (signed or redacted).
    fn is_thinking(b: &Value) -> bool;
    /// The part of the block that must hold a `signature`, with its pointer below the block;
    /// `None` when the block carries no signed reasoning.
    fn signed(b: &Value) -> Option<(&Value, &'static str)>;
    /// The tool choice forces a tool.
    fn forced(choice: &Value) -> bool;
    /// The tool choice that lets the model choose, keeping what of `choice` still applies.
    fn auto(choice: &Value) -> Value;
}

fn role(m: &Value) -> &str {
    str_at(m, "role").unwrap_or("")
}

fn content(m: &Value) -> &[Value] {
    arr(m, "content")
}

/// With thinking on, the assistant turn of the current tool loop must start with reasoning.
pub(crate) fn first<S: Shape>(doc: &Value, rule: &'static str) -> Vec<Finding> {
    if !S::enabled(doc) {
        return Vec::new();
    }
    let msgs = arr(doc, "messages");
    // The user's last own turn: a user message with something other than tool results.
    let turn = msgs
        .iter()
        .rposition(|m| {
            role(m) == "user"
                && ((S::TEXT_CONTENT && m.get("content").is_some_and(Value::is_string))
                    || content(m).iter().any(|b| !S::is_result(b)))
        })
        .map_or(0, |u| u + 1);
    let in_loop = msgs[turn.min(msgs.len())..]
        .iter()
        .any(|m| role(m) == "user" && content(m).iter().any(S::is_result));
    if !in_loop {
        return Vec::new();
    }
    match msgs
        .iter()
        .enumerate()
        .skip(turn)
        .find(|(_, m)| role(m) == "assistant")
    {
        Some((a, m)) if !content(m).first().is_some_and(S::is_thinking) => {
            vec![Finding::new(
                rule,
                format!("/messages/{a}/content/0"),
                format!(
                    "with thinking on, the assistant turn of this tool loop must start with its {}",
                    S::BLOCK
                ),
            )]
        }
        _ => Vec::new(),
    }
}

/// Every reasoning block carries a signature.
pub(crate) fn signatures<S: Shape>(doc: &Value, rule: &'static str) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, m) in arr(doc, "messages").iter().enumerate() {
        for (j, b) in content(m).iter().enumerate() {
            let Some((part, below)) = S::signed(b) else {
                continue;
            };
            if str_at(part, "signature").is_none_or(str::is_empty) {
                out.push(Finding::new(
                    rule,
                    format!("/messages/{i}/content/{j}{below}"),
                    format!("this {} has no signature", S::SIGNED),
                ));
            }
        }
    }
    out
}

/// The tool choice does not force a tool while thinking is on.
pub(crate) fn forced_choice<S: Shape>(doc: &Value, rule: &'static str) -> Vec<Finding> {
    let forced = doc.pointer(S::CHOICE).is_some_and(S::forced);
    if S::enabled(doc) && forced {
        let name = S::CHOICE.rsplit('/').next().unwrap_or(S::CHOICE);
        vec![Finding::new(
            rule,
            S::CHOICE.into(),
            format!("{name} forces a tool while thinking is on"),
        )]
    } else {
        Vec::new()
    }
}

/// Let the model choose.
pub(crate) fn choice_auto<S: Shape>(doc: &mut Value, _f: &Finding) -> bool {
    match doc.pointer_mut(S::CHOICE) {
        Some(c) => {
            *c = S::auto(c);
            true
        }
        None => false,
    }
}

/// With thinking off, the final assistant message holds no reasoning.
pub(crate) fn in_final<S: Shape>(doc: &Value, rule: &'static str) -> Vec<Finding> {
    if S::enabled(doc) {
        return Vec::new();
    }
    let msgs = arr(doc, "messages");
    let Some(last) = msgs.last() else {
        return Vec::new();
    };
    let i = msgs.len() - 1;
    if role(last) != "assistant" {
        return Vec::new();
    }
    content(last)
        .iter()
        .position(S::is_thinking)
        .map(|j| {
            Finding::new(
                rule,
                format!("/messages/{i}/content/{j}"),
                format!(
                    "thinking is off, but the final assistant message holds a {}",
                    S::BLOCK
                ),
            )
        })
        .into_iter()
        .collect()
}

/// Drop the reasoning of the message a finding points at, and the message when that leaves it
/// empty.
pub(crate) fn drop_final<S: Shape>(doc: &mut Value, f: &Finding) -> bool {
    let Some(i) = seg(&f.pointer, 1) else {
        return false;
    };
    edit_items(doc, "messages", i, "content", |content| {
        content.retain(|b| !S::is_thinking(b));
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A made-up spelling: `{"think": …, "signature": …}` blocks, `{"result": …}` blocks,
    /// thinking on in `reason`, the choice in `/choice`.
    struct Toy;

    impl Shape for Toy {
        const TEXT_CONTENT: bool = false;
        const BLOCK: &'static str = "think block";
        const SIGNED: &'static str = "think block";
        const CHOICE: &'static str = "/choice";
        fn enabled(doc: &Value) -> bool {
            doc.get("reason") == Some(&json!(true))
        }
        fn is_result(b: &Value) -> bool {
            b.get("result").is_some()
        }
        fn is_thinking(b: &Value) -> bool {
            b.get("think").is_some()
        }
        fn signed(b: &Value) -> Option<(&Value, &'static str)> {
            Self::is_thinking(b).then_some((b, ""))
        }
        fn forced(choice: &Value) -> bool {
            choice == "required"
        }
        fn auto(_choice: &Value) -> Value {
            json!("auto")
        }
    }

    fn loop_doc(first: Value) -> Value {
        json!({
            "reason": true,
            "choice": "required",
            "messages": [
                {"role": "user", "content": [{"text": "hi"}]},
                {"role": "assistant", "content": [first, {"call": "c1"}]},
                {"role": "user", "content": [{"result": "c1"}]},
            ],
        })
    }

    #[test]
    fn any_block_shape_gets_the_same_checks() {
        let bad = loop_doc(json!({"think": "…"}));
        assert!(first::<Toy>(&bad, "toy/first").is_empty());
        let sig = signatures::<Toy>(&bad, "toy/sig");
        assert_eq!(sig[0].pointer, "/messages/1/content/0");
        assert_eq!(sig[0].message, "this think block has no signature");
        let unsigned_first = loop_doc(json!({"text": "…"}));
        let f = first::<Toy>(&unsigned_first, "toy/first");
        assert_eq!(f[0].rule, "toy/first");
        assert!(f[0].message.ends_with("must start with its think block"));
        let mut doc = bad.clone();
        let forced = forced_choice::<Toy>(&doc, "toy/forced");
        assert_eq!(
            forced[0].message,
            "choice forces a tool while thinking is on"
        );
        assert!(choice_auto::<Toy>(&mut doc, &forced[0]));
        assert_eq!(doc["choice"], "auto");
        assert!(forced_choice::<Toy>(&doc, "toy/forced").is_empty());
    }

    #[test]
    fn reasoning_in_the_final_message_with_thinking_off_is_dropped() {
        let mut doc = json!({"messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"think": "…", "signature": "s"}]},
        ]});
        let found = in_final::<Toy>(&doc, "toy/final");
        assert_eq!(found[0].pointer, "/messages/1/content/0");
        assert!(drop_final::<Toy>(&mut doc, &found[0]));
        // The message held nothing else, so it goes too.
        assert_eq!(doc["messages"].as_array().map(Vec::len), Some(1));
        assert!(in_final::<Toy>(&doc, "toy/final").is_empty());
    }
}
