//! The history of kept states and the stored form of a state: what the page keeps in
//! localStorage is known to restore, nothing grows without bound, the same state is kept once.

use crate::common;

use toolscope::history::{removed, summary, Entry, History, Slot, MAX_CHARS, MAX_ENTRIES};
use toolscope::model::{Exchange, Tool};
use toolscope::share::{from_stored, to_stored, State, MAX_EXPANDED};

fn entry(at: f64, state: &str) -> Entry {
    Entry {
        at,
        summary: format!("state {state}"),
        why: "test".into(),
        tab: "t1".into(),
        state: state.into(),
    }
}

fn exchange(messages: usize, tools: usize) -> Exchange {
    let mut x = Exchange::default();
    for i in 0..messages {
        x.messages.push(common::user(&format!("message {i}")));
    }
    for i in 0..tools {
        let mut t: Tool = serde_json::from_value(serde_json::json!({
            "name": "t", "input_schema": {"type": "object"}
        }))
        .expect("tool");
        t.name = format!("tool_{i}");
        x.tools.push(t);
    }
    x
}

#[test]
fn history_keeps_fifty_distinct_states_newest_last() {
    let mut h = History::default();
    for i in 0..(MAX_ENTRIES + 20) {
        assert!(h.push(entry(i as f64, &format!("s{i}"))));
    }
    assert_eq!(h.entries.len(), MAX_ENTRIES);
    assert_eq!(h.entries[0].state, "s20");
    assert_eq!(h.newest().map(|e| e.state.as_str()), Some("s69"));
    // The same state again moves up instead of being kept twice.
    h.push(entry(100.0, "s30"));
    assert_eq!(h.entries.len(), MAX_ENTRIES);
    assert_eq!(h.entries.iter().filter(|e| e.state == "s30").count(), 1);
    assert_eq!(h.newest().map(|e| e.at), Some(100.0));
    // It survives its stored form; an unreadable one starts empty.
    let again = History::from_stored(Some(&h.to_stored()));
    assert_eq!(again, h);
    assert_eq!(History::from_stored(Some("{not json")), History::default());
    assert_eq!(History::from_stored(None), History::default());
}

#[test]
fn history_stays_within_its_size_and_merges_other_tabs() {
    let mut h = History::default();
    let big = "x".repeat(MAX_CHARS / 3 + 1);
    for i in 0..5 {
        h.push(entry(i as f64, &format!("{i}{big}")));
    }
    let total: usize = h.entries.iter().map(|e| e.state.len()).sum();
    assert!(total <= MAX_CHARS, "{total}");
    assert_eq!(h.entries.len(), 2);
    assert!(
        !h.push(entry(9.0, &"y".repeat(MAX_CHARS + 1))),
        "one state over the limit is not kept"
    );

    // Another tab kept states meanwhile: both lines of work are in the merged history, in time order.
    let mut a = History::default();
    a.push(entry(1.0, "a1"));
    a.push(entry(3.0, "a3"));
    let mut b = History::default();
    b.push(entry(2.0, "b2"));
    b.push(entry(3.5, "a3"));
    a.merge(b);
    let states: Vec<&str> = a.entries.iter().map(|e| e.state.as_str()).collect();
    assert_eq!(states, ["a1", "b2", "a3"]);
    assert!(a.drop_oldest());
    assert_eq!(a.entries.len(), 2);
}

#[test]
fn history_summary_and_what_a_replacement_removes() {
    let x = exchange(3, 3);
    let s = summary(&x);
    assert_eq!(s, "3 messages · 3 tools (tool_0, tool_1, …) · “message 0”");
    let one = exchange(1, 0);
    assert_eq!(summary(&one), "1 message · 0 tools · “message 0”");
    let long = {
        let mut x = Exchange::default();
        x.messages.push(common::user(&"word ".repeat(40)));
        x
    };
    assert!(summary(&long).ends_with("…”"), "{}", summary(&long));
    assert_eq!(removed(&x, &exchange(1, 3)).as_deref(), Some("2 messages"));
    assert_eq!(removed(&x, &exchange(3, 2)).as_deref(), Some("1 tool"));
    assert_eq!(
        removed(&x, &exchange(0, 0)).as_deref(),
        Some("3 messages and 3 tools")
    );
    assert_eq!(removed(&x, &exchange(5, 3)), None);
    let slot = Slot {
        at: 1.0,
        summary: s,
        state: "v1.x".into(),
    };
    assert_eq!(Slot::from_stored(&slot.to_stored()), Some(slot));
}

#[test]
fn stored_states_restore_and_what_cannot_restore_is_refused() {
    let s = State::new(exchange(1000, 50));
    let stored = to_stored(&s).expect("kept");
    assert!(stored.starts_with("v2."), "a compact link form");
    assert_eq!(from_stored(&stored).expect("restores"), s);
    // A replay a link cannot carry is kept as a state file, which restores too.
    let mut with_replay = State::new(exchange(2, 1));
    with_replay.replay = Some("data: {}\n\n".repeat(150_000));
    let stored = to_stored(&with_replay).expect("kept as a file");
    assert!(stored.starts_with('{'));
    assert_eq!(from_stored(&stored).expect("restores"), with_replay);
    // Over the limit of every reader: refused, never saved to fail on reload.
    let mut huge = State::new(Exchange::default());
    huge.exchange.system = Some("s".repeat(MAX_EXPANDED));
    assert!(to_stored(&huge).is_err());
    let mut replay_too_big = State::new(Exchange::default());
    replay_too_big.replay = Some("r".repeat(MAX_EXPANDED));
    assert!(to_stored(&replay_too_big).is_err());
    // Earlier autosaves (pretty state files) still read.
    let file = toolscope::share::to_file(&s);
    assert_eq!(from_stored(&file).expect("old autosave"), s);
}
