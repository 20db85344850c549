//! The conformance suite of the Chat Completions dialects: what every dialect does as the
//! protocol does, checked the same way for each. A dialect's test file calls these with its
//! format, its model and a call id it accepts, then checks what it does otherwise.

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::*;

use super::{assert_loss, assistant, call, error_result, tool_msg, user};

/// A dialect under test.
#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    /// Its format.
    pub format: Format,
    /// A model it serves.
    pub model: &'static str,
    /// A call id it accepts as it is.
    pub id: &'static str,
}

impl Dialect {
    fn exchange(&self, messages: Vec<Message>) -> Exchange {
        Exchange {
            options: Options {
                model: Some(self.model.into()),
                ..Options::default()
            },
            messages,
            ..Exchange::default()
        }
    }

    fn encode(&self, x: &Exchange) -> (Value, Vec<Loss>) {
        let t = super::checked_trip(self.format, x, Kind::Request);
        (t.doc, t.encoder)
    }
}

/// A call whose arguments are not JSON is sent with its arguments as written. Returns what
/// encoding reported.
pub fn invalid_arguments_are_sent_as_written(d: &Dialect, raw: &str) -> Vec<Loss> {
    let mut broken = ToolCall::new(Some(d.id.into()), "f", Value::Null);
    broken.arguments_raw = Some(raw.into());
    let x = d.exchange(vec![user("go"), assistant(vec![Part::ToolCall(broken)])]);
    let (doc, losses) = d.encode(&x);
    assert_eq!(
        doc["messages"][1]["tool_calls"][0]["function"]["arguments"],
        raw
    );
    losses
}

/// Empty (or blank) arguments of a call in a pasted request (`assistant`: the dialect's
/// assistant message with that call as its only tool call, after a user message) read as
/// `{}`, reported at the call's arguments.
pub fn empty_arguments_read_as_an_empty_object(d: &Dialect, assistant: Value) {
    let doc = json!({"model": d.model, "messages": [
        {"role": "user", "content": "time?"},
        assistant]});
    let (x, losses) = super::decode_doc(d.format, &doc, Kind::Request);
    assert_eq!(
        x.messages[1].tool_calls().next().unwrap().arguments,
        json!({})
    );
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/1/parts/1/arguments",
    );
}

/// An error result becomes text starting `Error: `, reported. Returns the document.
pub fn error_results_fold_into_text(d: &Dialect, why: &str) -> Value {
    let x = d.exchange(vec![
        user("go"),
        assistant(vec![call(Some(d.id), "f", json!({}))]),
        tool_msg(vec![Part::ToolResult(error_result(Some(d.id), why))]),
    ]);
    let (doc, losses) = d.encode(&x);
    assert_eq!(doc["messages"][2]["content"], format!("Error: {why}"));
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/0");
    doc
}

/// A call and a result without ids get one id, the same in both, reported as added. Returns
/// the document and what encoding reported.
pub fn missing_ids_are_assigned_and_paired(d: &Dialect, x: &Exchange) -> (Value, Vec<Loss>) {
    let mut x = x.clone();
    x.options.model = Some(d.model.into());
    let (doc, losses) = d.encode(&x);
    let id = &doc["messages"][1]["tool_calls"][0]["id"];
    assert!(id.is_string(), "{doc:#}");
    assert_eq!(doc["messages"][2]["tool_call_id"], *id);
    super::assert_losses(
        &losses,
        &[
            (LossKind::Added, "/messages/1/parts/0/id"),
            (LossKind::Added, "/messages/2/parts/0/call_id"),
        ],
    );
    (doc, losses)
}
