//! One exchange in two formats, compared: a row per tool, call and result pairing the
//! element's text in each document and saying what differs (key spellings, ids, where results
//! live, what a format drops), and a line diff when both documents are of the same protocol.

use crate::anchors::{self, Element};
use crate::formats::{Format, Kind};
use crate::model::{Exchange, Part};
use serde_json::Value;

/// One element in both documents.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The element.
    pub element: Element,
    /// For a person: "tool get_weather", "call get_weather (call_1)", "result of call_1".
    pub label: String,
    /// The element's text in the left document (`None`: the format leaves it out).
    pub left: Option<String>,
    /// The element's text in the right document.
    pub right: Option<String>,
    /// What differs, one short line each; empty when both carry it alike.
    pub differences: Vec<String>,
}

/// A line of a text diff.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// In both.
    Same(String),
    /// Only in the left document.
    Left(String),
    /// Only in the right document.
    Right(String),
}

/// The comparison of two formats' documents.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Element by element.
    pub rows: Vec<Row>,
    /// A line diff of the two documents (only when both formats share a protocol).
    pub lines: Option<Vec<Line>>,
}

/// Beyond this many elements the rows stop (the page would not read them anyway).
const MAX_ROWS: usize = 400;
/// Beyond this many line pairs the line diff falls back to one replaced block.
const MAX_CELLS: usize = 4_000_000;

/// Compare `x` rendered as `left` and as `right` (`kind` bodies).
pub fn compare(x: &Exchange, kind: Kind, left: Format, right: Format) -> Comparison {
    let a = left.encode(x, kind);
    let b = right.encode(x, kind);
    let sa = anchors::spans_in(x, left, kind, &a.text);
    let sb = anchors::spans_in(x, right, kind, &b.text);
    let mut rows = Vec::new();
    for el in anchors::elements(x).into_iter().take(MAX_ROWS) {
        let frag = |spans: &[(Element, anchors::Span)], text: &str| {
            spans
                .iter()
                .find(|(e, _)| *e == el)
                .and_then(|(_, s)| text.get(s.start..s.end))
                .map(str::to_string)
        };
        let (fa, fb) = (frag(&sa, &a.text), frag(&sb, &b.text));
        let tidy = |f: &Option<String>| {
            f.as_ref().map(|t| match serde_json::from_str::<Value>(t) {
                Ok(v) => crate::formats::json::pretty(&v),
                Err(_) => t.clone(),
            })
        };
        let mut differences = Vec::new();
        match (&fa, &fb) {
            (Some(l), Some(r)) => {
                differences.extend(keys_differ(l, r, left, right));
                differences.extend(ids_differ(l, r, left, right));
                if matches!(el, Element::Result { .. }) {
                    let (pl, pr) = (place(&a.text, &sa, el), place(&b.text, &sb, el));
                    if pl != pr {
                        differences.push(format!(
                            "results live {} in {}, {} in {}",
                            pl,
                            left.name(),
                            pr,
                            right.name()
                        ));
                    }
                }
            }
            (Some(_), None) => differences.push(format!("{} leaves it out", right.name())),
            (None, Some(_)) => differences.push(format!("{} leaves it out", left.name())),
            (None, None) => differences.push("neither format shows it as its own element".into()),
        }
        let p = el.pointer();
        for (f, losses) in [(left, &a.losses), (right, &b.losses)] {
            for l in losses.iter().filter(|l| l.pointer.starts_with(&p)) {
                let how = match l.kind {
                    crate::model::LossKind::Dropped => "drops",
                    crate::model::LossKind::Rewritten => "rewrites",
                    crate::model::LossKind::Added => "adds",
                    crate::model::LossKind::Note => "notes",
                    crate::model::LossKind::Reasoning => "drops reasoning:",
                };
                differences.push(format!("{} {how} {}", f.name(), l.what));
            }
        }
        rows.push(Row {
            element: el,
            label: label(x, el),
            left: tidy(&fa),
            right: tidy(&fb),
            differences,
        });
    }
    let lines = (left.protocol() == right.protocol()).then(|| diff_lines(&a.text, &b.text));
    Comparison { rows, lines }
}

/// "tool get_weather", "call get_weather (call_1)", "result of call_1".
fn label(x: &Exchange, el: Element) -> String {
    match el {
        Element::Tool(i) => x
            .tools
            .get(i)
            .map_or_else(|| format!("tool {i}"), |t| format!("tool {}", t.name)),
        Element::Call { message, part } | Element::Result { message, part } => {
            match x.messages.get(message).and_then(|m| m.parts.get(part)) {
                Some(Part::ToolCall(c)) => match &c.id {
                    Some(id) => format!("call {} ({id})", c.name),
                    None => format!("call {}", c.name),
                },
                Some(Part::ToolResult(r)) => match (&r.call_id, &r.name) {
                    (Some(id), _) => format!("result of {id}"),
                    (None, Some(n)) => format!("result of {n}"),
                    (None, None) => format!("result in message {message}"),
                },
                _ => format!("message {message} part {part}"),
            }
        }
    }
}

/// Every key of a JSON fragment, at any depth (`prefix` is the path, for recursion).
fn key_paths(v: &Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.push(k.clone());
                // Argument and schema contents are the user's, alike in every format.
                if !matches!(
                    k.as_str(),
                    "properties" | "arguments" | "input" | "args" | "parameters_json"
                ) {
                    key_paths(v, &p, out);
                }
            }
        }
        Value::Array(a) => {
            for v in a {
                key_paths(v, prefix, out);
            }
        }
        _ => {}
    }
}

/// The fragment as JSON: an object as is, a `"key": value` member wrapped into one.
fn as_json(s: &str) -> Option<Value> {
    serde_json::from_str(s)
        .ok()
        .or_else(|| serde_json::from_str(&format!("{{{s}}}")).ok())
}

fn keys_differ(l: &str, r: &str, left: Format, right: Format) -> Vec<String> {
    let (Some(vl), Some(vr)) = (as_json(l), as_json(r)) else {
        return Vec::new();
    };
    let (mut kl, mut kr) = (Vec::new(), Vec::new());
    key_paths(&vl, "", &mut kl);
    key_paths(&vr, "", &mut kr);
    kl.sort();
    kl.dedup();
    kr.sort();
    kr.dedup();
    let only_l: Vec<&String> = kl.iter().filter(|k| !kr.contains(k)).collect();
    let only_r: Vec<&String> = kr.iter().filter(|k| !kl.contains(k)).collect();
    if only_l.is_empty() && only_r.is_empty() {
        return Vec::new();
    }
    let show = |v: &[&String]| {
        let mut s: Vec<String> = v.iter().take(6).map(|k| k.to_string()).collect();
        if v.len() > 6 {
            s.push(format!("{} more", v.len() - 6));
        }
        if s.is_empty() {
            "nothing else".to_string()
        } else {
            s.join(", ")
        }
    };
    vec![format!(
        "fields: {} has {}; {} has {}",
        left.name(),
        show(&only_l),
        right.name(),
        show(&only_r)
    )]
}

/// Every string value under a key naming an id.
fn ids(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let lk = k.to_ascii_lowercase();
                if lk == "id" || lk.ends_with("_id") || lk.ends_with("id") && lk.len() > 2 {
                    if let Value::String(s) = v {
                        out.push((k.clone(), s.clone()));
                    }
                }
                if !matches!(k.as_str(), "arguments" | "input" | "args") {
                    ids(v, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| ids(v, out)),
        _ => {}
    }
}

fn ids_differ(l: &str, r: &str, left: Format, right: Format) -> Vec<String> {
    let (Some(vl), Some(vr)) = (as_json(l), as_json(r)) else {
        return Vec::new();
    };
    let (mut il, mut ir) = (Vec::new(), Vec::new());
    ids(&vl, &mut il);
    ids(&vr, &mut ir);
    if il == ir {
        return Vec::new();
    }
    let show = |v: &[(String, String)]| {
        if v.is_empty() {
            "no id".to_string()
        } else {
            v.iter()
                .map(|(k, s)| format!("{k} {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    vec![format!(
        "ids: {} {}; {} {}",
        left.name(),
        show(&il),
        right.name(),
        show(&ir)
    )]
}

/// Where an element sits: the role of the message around it ("in a tool message").
fn place(text: &str, spans: &[(Element, anchors::Span)], el: Element) -> String {
    let Some((_, s)) = spans.iter().find(|(e, _)| *e == el) else {
        return "nowhere".into();
    };
    // The element is itself a message (OpenAI's `tool` message), or sits in one.
    if let Some(Value::String(r)) = text
        .get(s.start..s.end)
        .and_then(as_json)
        .as_ref()
        .and_then(|v| v.get("role"))
    {
        return format!("in {} {r} message", article(r));
    }
    let before = &text[..s.start.min(text.len())];
    let role = before.rfind("\"role\"").and_then(|i| {
        let rest = &before[i + 6..];
        let q = rest.find('"')?;
        let rest = &rest[q + 1..];
        let e = rest.find('"')?;
        Some(rest[..e].to_string())
    });
    match role {
        Some(r) => format!("in {} {r} message", article(&r)),
        None => "in the document".into(),
    }
}

/// "a" or "an" before `word`.
fn article(word: &str) -> &'static str {
    // "a user", "an assistant": a leading u sounds like "you" in these words.
    if word.starts_with(['a', 'e', 'i', 'o', 'A', 'E', 'I', 'O']) {
        "an"
    } else {
        "a"
    }
}

/// A line diff (longest common subsequence), falling back to one replaced block when large.
pub fn diff_lines(a: &str, b: &str) -> Vec<Line> {
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let pre = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    let suf = la[pre..]
        .iter()
        .rev()
        .zip(lb[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&la[pre..la.len() - suf], &lb[pre..lb.len() - suf]);
    let mut out: Vec<Line> = la[..pre]
        .iter()
        .map(|l| Line::Same(l.to_string()))
        .collect();
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        out.extend(ma.iter().map(|l| Line::Left(l.to_string())));
        out.extend(mb.iter().map(|l| Line::Right(l.to_string())));
    } else {
        let (n, m) = (ma.len(), mb.len());
        let mut t = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                t[i * (m + 1) + j] = if ma[i] == mb[j] {
                    t[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && ma[i] == mb[j] {
                out.push(Line::Same(ma[i].to_string()));
                i += 1;
                j += 1;
            } else if j < m && (i == n || t[i * (m + 1) + j + 1] >= t[(i + 1) * (m + 1) + j]) {
                out.push(Line::Right(mb[j].to_string()));
                j += 1;
            } else {
                out.push(Line::Left(ma[i].to_string()));
                i += 1;
            }
        }
    }
    out.extend(
        la[la.len() - suf..]
            .iter()
            .map(|l| Line::Same(l.to_string())),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_any;

    fn example() -> Exchange {
        let e = crate::examples::EXAMPLES.first().expect("an example");
        read_any(e.source).expect("reads").0.exchange
    }

    #[test]
    fn openai_and_anthropic_pair_each_tool_and_mark_what_differs() {
        let x = example();
        let c = compare(&x, Kind::Request, Format::OpenAiChat, Format::Anthropic);
        assert_eq!(c.rows.len(), anchors::elements(&x).len());
        assert!(c.lines.is_none());
        let tool = c
            .rows
            .iter()
            .find(|r| matches!(r.element, Element::Tool(_)))
            .expect("a tool");
        assert!(tool.left.is_some() && tool.right.is_some());
        assert!(
            tool.differences.iter().any(|d| d.contains("input_schema")),
            "{:?}",
            tool.differences
        );
        let result = c
            .rows
            .iter()
            .find(|r| matches!(r.element, Element::Result { .. }))
            .expect("a result");
        assert!(
            result
                .differences
                .iter()
                .any(|d| d.contains("in a tool message") && d.contains("in a user message")),
            "{:?}",
            result.differences
        );
    }

    #[test]
    fn a_line_diff_marks_only_what_changed() {
        let d = diff_lines("a\nb\nc", "a\nB\nc");
        assert_eq!(
            d,
            vec![
                Line::Same("a".into()),
                Line::Right("B".into()),
                Line::Left("b".into()),
                Line::Same("c".into())
            ]
        );
        assert!(diff_lines("x", "x")
            .iter()
            .all(|l| matches!(l, Line::Same(_))));
    }
}
