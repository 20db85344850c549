//! Requests shaped like real provider traffic (as the SDKs and docs send them), one or more per
//! provider, converted to every format: each converts, and converting back keeps every tool,
//! every call (name and arguments) and every result paired with its call. `tests/it/sdk.rs` runs
//! the same documents through the providers' SDK types.

use serde_json::Value;

use crate::common;

use common::real::{real_requests, real_responses};
use toolscope::formats::{read_any, Format, Kind, Source};
use toolscope::model::{Exchange, Part};

/// A call as `(id, name, arguments)`.
type Call = (Option<String>, String, Value);
/// A result as `(call_id, name)`.
type Answer = (Option<String>, Option<String>);

/// Every call as `(id, name, arguments)` and every result as `(call_id, name)`, in order.
fn calls_and_results(x: &Exchange) -> (Vec<Call>, Vec<Answer>) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for m in &x.messages {
        for p in &m.parts {
            match p {
                Part::ToolCall(c) => {
                    calls.push((c.id.clone(), c.name.clone(), c.arguments.clone()))
                }
                Part::ToolResult(r) => results.push((r.call_id.clone(), r.name.clone())),
                _ => {}
            }
        }
    }
    (calls, results)
}

/// Each result answers one call: by id where it has one, else the oldest unanswered call of
/// its name.
fn paired(x: &Exchange) -> Result<Vec<usize>, String> {
    let (calls, results) = calls_and_results(x);
    let mut answered = vec![false; calls.len()];
    let mut out = Vec::new();
    for (id, name) in results {
        let i = match &id {
            Some(id) => calls
                .iter()
                .position(|c| c.0.as_deref() == Some(id.as_str())),
            None => calls
                .iter()
                .enumerate()
                .position(|(i, c)| !answered[i] && name.as_deref().is_none_or(|n| n == c.1)),
        }
        .ok_or_else(|| format!("result {id:?} {name:?} answers no call"))?;
        if answered[i] {
            return Err(format!("call {i} answered twice"));
        }
        answered[i] = true;
        out.push(i);
    }
    Ok(out)
}

/// `x` encoded to every format as `kind` and read back: (format, document, exchange read back).
fn via_every_format(source: &str, x: &Exchange, kind: Kind) -> Vec<(Format, String, Exchange)> {
    let trip = |f: Format| {
        let text = f.encode(x, kind).text;
        let back = f
            .decode(&text, kind)
            .unwrap_or_else(|err| panic!("{source} → {}: {err}\n{text}", f.id()))
            .exchange;
        (f, text, back)
    };
    Format::ALL.into_iter().map(trip).collect()
}

#[test]
fn real_traffic_converts_to_every_format_and_back() {
    for (source, doc) in real_requests() {
        let (d, detected) = read_any(&doc.to_string()).unwrap_or_else(|e| panic!("{source}: {e}"));
        let x = d.exchange;
        assert!(!x.tools.is_empty(), "{source}: {detected:?} read no tools");
        let (calls, _) = calls_and_results(&x);
        let pairs = paired(&x).unwrap_or_else(|e| panic!("{source}: {e}"));
        for (f, text, back) in via_every_format(source, &x, Kind::Request) {
            let at = format!("{source} → {}", f.id());
            let names = |x: &Exchange| x.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&back), names(&x), "{at}: tools");
            let (back_calls, _) = calls_and_results(&back);
            if f == Format::Mcp {
                // A transcript of tools/call: only calls that were answered are in it.
                continue;
            }
            assert_eq!(back_calls.len(), calls.len(), "{at}: calls\n{}", text);
            for (a, b) in calls.iter().zip(&back_calls) {
                assert_eq!((&a.1, &a.2), (&b.1, &b.2), "{at}: call\n{}", text);
            }
            assert_eq!(
                paired(&back).as_ref(),
                Ok(&pairs),
                "{at}: pairing\n{}",
                text
            );
        }
    }
}

#[test]
fn real_traffic_responses_convert_to_every_format_and_back() {
    for (source, doc) in real_responses() {
        let (d, detected) = read_any(&doc.to_string()).unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(
            detected,
            Source::Wire(Format::from_id(source).unwrap(), Kind::Response),
            "{source}"
        );
        let x = d.exchange;
        let (calls, _) = calls_and_results(&x);
        assert!(!calls.is_empty(), "{source}");
        for (f, text, back) in via_every_format(source, &x, Kind::Response) {
            let at = format!("{source} → {} response", f.id());
            let (back_calls, _) = calls_and_results(&back);
            assert_eq!(back_calls.len(), calls.len(), "{at}\n{}", text);
            for (a, b) in calls.iter().zip(&back_calls) {
                assert_eq!((&a.1, &a.2), (&b.1, &b.2), "{at}: call\n{}", text);
            }
        }
    }
}
