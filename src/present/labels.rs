//! One line per stream event saying what it changed ("call 0 args +12 chars", "text +5",
//! "finish: tool_calls"), from the assembler's updates: a list of eleven
//! `chat.completion.chunk` says nothing.

use crate::replay::Replay;
use crate::stream::{Assembler, Update};

/// What each event of `replay` in `from..from + n` changed, in order.
pub fn changes(replay: &Replay, from: usize, n: usize) -> Vec<String> {
    let mut a = replay.assembler_after(from);
    let mut stop = a.state().stop_reason;
    let mut out = Vec::new();
    for e in replay.events.iter().skip(from).take(n) {
        let updates = a.push(e);
        let metaish = updates
            .iter()
            .any(|u| matches!(u, Update::Meta | Update::Ended));
        let now = if metaish {
            a.state().stop_reason
        } else {
            stop.clone()
        };
        let finish = (now != stop).then(|| now.clone()).flatten();
        stop = now;
        out.push(describe(&updates, finish.as_deref()));
    }
    out
}

/// Say what `updates` changed; `finish` is the stop reason the event set, if it set one.
pub fn describe(updates: &[Update], finish: Option<&str>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut text = 0usize;
    let mut reasoning = 0usize;
    let mut args: Vec<(usize, usize)> = Vec::new();
    let mut ended = false;
    for u in updates {
        match u {
            Update::Text { delta } => text += delta.chars().count(),
            Update::Reasoning { delta } => reasoning += delta.chars().count(),
            Update::CallStarted { call } => parts.push(format!("call {call} starts")),
            Update::Arguments { call, delta } => {
                let n = delta.chars().count();
                match args.iter_mut().find(|(c, _)| c == call) {
                    Some((_, m)) => *m += n,
                    None => args.push((*call, n)),
                }
            }
            Update::Ended => ended = true,
            Update::Meta => {}
            Update::Anomaly(a) => parts.push(format!("anomaly: {}", a.kind.id())),
        }
    }
    if text > 0 {
        parts.push(format!("text +{text}"));
    }
    if reasoning > 0 {
        parts.push(format!("reasoning +{reasoning}"));
    }
    for (call, n) in args {
        parts.push(format!("call {call} args +{n} chars"));
    }
    if let Some(f) = finish {
        parts.push(format!("finish: {f}"));
    }
    if ended {
        parts.push("end of stream".into());
    }
    if parts.is_empty() {
        "metadata only".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::LoadOptions;

    #[test]
    fn deltas_are_counted_and_merged() {
        let u = vec![
            Update::CallStarted { call: 0 },
            Update::Arguments {
                call: 0,
                delta: "{\"ci".into(),
            },
            Update::Arguments {
                call: 0,
                delta: "ty\"".into(),
            },
        ];
        assert_eq!(describe(&u, None), "call 0 starts, call 0 args +7 chars");
        let t = vec![Update::Text {
            delta: "héllo".into(),
        }];
        assert_eq!(describe(&t, None), "text +5");
        assert_eq!(
            describe(&[Update::Meta], Some("tool_calls")),
            "finish: tool_calls"
        );
        assert_eq!(describe(&[Update::Meta], None), "metadata only");
    }

    #[test]
    fn a_chat_stream_is_labelled_by_what_each_chunk_changed() {
        let text = [
            r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"weather","arguments":""}}]}}]}"#,
            r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}}]}"#,
            r#"data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "data: [DONE]",
        ]
        .join("\n\n");
        let r = Replay::load(&text, LoadOptions::default()).expect("loads");
        let labels = changes(&r, 0, 10);
        assert_eq!(labels.len(), r.len());
        assert!(labels[0].contains("call 0 starts"), "{labels:?}");
        assert!(labels[1].contains("call 0 args +8 chars"), "{labels:?}");
        assert!(
            labels.iter().any(|l| l.contains("finish: tool_calls")),
            "{labels:?}"
        );
    }
}
