//! Checks shared by the content-block formats, Anthropic Messages and Bedrock Converse: the
//! same hard cases, read where each format spells a call's id (`use_id`) and a result's call id
//! (`result_id`). `exchange` wraps the messages with the test file's tools and model.

use serde_json::json;
use toolscope::formats::{Format, Kind};
use toolscope::model::{
    Exchange, IdRule, LossKind, Message, Part, ResultContent, Role, ToolResult,
};

use super::{call, checked_trip, has_loss, result, strs, user};

/// Where a format puts a call's id inside a call block and inside a result block (JSON pointers).
pub type Ids<'a> = (&'a str, &'a str);

/// Call ids that `rule` refuses (a dotted one, one of 80 characters) are rewritten to accepted
/// ones, the same in the call and in its result, each with a loss; the accepted id `ok` stays as
/// it is, unreported.
#[track_caller]
pub fn ids_rewritten_in_pairs(
    format: Format,
    exchange: impl Fn(Vec<Message>) -> Exchange,
    ok: &str,
    (use_id, result_id): Ids,
    rule: IdRule,
) {
    let long = "x".repeat(80);
    let dotted = "functions.get_weather:0";
    let calls = [dotted, &long, ok].map(|id| call(Some(id), "get_weather", json!({})));
    let results = [(&*long, "b"), (dotted, "a"), (ok, "c")].map(|(id, t)| result(Some(id), t));
    let x = exchange(vec![
        user("go"),
        Message::new(Role::Assistant, calls.to_vec()),
        Message::new(Role::Tool, results.to_vec()),
    ]);
    let t = checked_trip(format, &x, Kind::Request);
    let uses = strs(&t.doc["messages"][1]["content"], use_id);
    let results = strs(&t.doc["messages"][2]["content"], result_id);
    assert_eq!(uses[0], "functions_get_weather_0");
    assert_eq!(uses[1].len(), 64);
    assert_eq!(uses[2], ok);
    assert_eq!(results, [uses[1], uses[0], uses[2]]);
    assert!(uses.iter().all(|id| rule.accepts(id)));
    let losses = &t.all;
    crate::assert_losses!(losses; Rewritten "/messages/1/parts/0/id", Rewritten "/messages/1/parts/1/id");
    crate::assert_losses!(losses; Rewritten "/messages/2/parts/0/call_id", Rewritten "/messages/2/parts/1/call_id");
    assert!(!losses
        .iter()
        .any(|l| l.pointer.starts_with("/messages/1/parts/2")));
}

/// Two tool messages in a row become one user turn of both results, reported at `/messages`;
/// read back, one tool message of two results.
#[track_caller]
pub fn tool_messages_merge(format: Format, exchange: impl Fn(Vec<Message>) -> Exchange) {
    let x = exchange(vec![
        user("Both?"),
        Message::new(
            Role::Assistant,
            vec![
                call(Some("a1"), "get_weather", json!({"location": "Oslo"})),
                call(Some("a2"), "get_weather", json!({"location": "Rome"})),
            ],
        ),
        Message::new(Role::Tool, vec![result(Some("a1"), "cold")]),
        Message::new(Role::Tool, vec![result(Some("a2"), "warm")]),
    ]);
    let t = checked_trip(format, &x, Kind::Request);
    assert!(
        has_loss(&t.all, LossKind::Rewritten, "/messages"),
        "{:#?}",
        t.all
    );
    let msgs = t.doc["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3);
    assert_eq!(msgs[2]["content"].as_array().unwrap().len(), 2);
    assert_eq!(t.back.messages.len(), 3);
    assert_eq!(t.back.messages[2].role, Role::Tool);
    assert_eq!(t.back.messages[2].tool_results().count(), 2);
}

/// Calls without ids get `call_1`, `call_2`, …; results without call ids are paired with them by
/// tool name (the names themselves are not sent).
#[track_caller]
pub fn missing_ids_paired_by_name(
    format: Format,
    exchange: impl Fn(Vec<Message>) -> Exchange,
    (use_id, result_id): Ids,
) {
    let named = |text: &str, name: &str| {
        let mut r = ToolResult::new(None, ResultContent::Text(text.into()));
        r.name = Some(name.into());
        Part::ToolResult(r)
    };
    let x = exchange(vec![
        user("time and weather"),
        Message::new(
            Role::Assistant,
            vec![
                call(None, "get_weather", json!({"location": "Paris"})),
                call(None, "get_time", json!({})),
            ],
        ),
        Message::new(
            Role::Tool,
            vec![named("12:00", "get_time"), named("sunny", "get_weather")],
        ),
    ]);
    let t = checked_trip(format, &x, Kind::Request);
    let results = strs(&t.doc["messages"][2]["content"], result_id);
    assert_eq!(results, ["call_2", "call_1"]);
    assert_eq!(strs(&t.doc["messages"][1]["content"], use_id)[0], "call_1");
    let losses = &t.all;
    crate::assert_losses!(losses; Added "/messages/1/parts/0/id", Added "/messages/2/parts/0/call_id");
    crate::assert_losses!(losses; Dropped "/messages/2/parts/0/name");
    let first = t.back.messages[2].tool_results().next().unwrap();
    assert_eq!(first.call_id.as_deref(), Some("call_2"));
}

/// Arguments that are not a JSON object (invalid JSON, an array) are sent as `{}`, reported;
/// arguments spelled with odd spacing are sent as the object, their text reported as dropped.
/// `input` points at the arguments inside a call block. Returns all losses.
#[track_caller]
pub fn bad_arguments_become_empty_objects(
    format: Format,
    exchange: impl Fn(Vec<Message>) -> Exchange,
    input: &str,
) -> Vec<toolscope::model::Loss> {
    let calls = super::odd_arguments(["t1", "t2", "t3"], "Rome");
    let x = exchange(vec![user("go"), Message::new(Role::Assistant, calls)]);
    let t = checked_trip(format, &x, Kind::Request);
    let content = t.doc["messages"][1]["content"].as_array().unwrap();
    let inputs: Vec<_> = content.iter().map(|b| b.pointer(input).unwrap()).collect();
    assert_eq!(
        inputs,
        [&json!({}), &json!({"location": "Rome"}), &json!({})]
    );
    let losses = t.all;
    crate::assert_losses!(&losses; Dropped "/messages/1/parts/0/arguments_raw", Rewritten "/messages/1/parts/0/arguments");
    crate::assert_losses!(&losses; Dropped "/messages/1/parts/1/arguments_raw", Rewritten "/messages/1/parts/2/arguments");
    assert!(!has_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/1/parts/1/arguments"
    ));
    let calls: Vec<_> = t.back.messages[1].tool_calls().collect();
    assert_eq!(calls[1].arguments, json!({"location": "Rome"}));
    assert!(calls.iter().all(|c| c.arguments_raw.is_none()));
    losses
}
