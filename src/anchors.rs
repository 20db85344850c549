//! Anchors: where each canonical element (a tool, a tool call, a tool result) sits in each pane's
//! text, so the page can highlight one element in every pane at once.
//!
//! The converters are not touched. For a format, the exchange is encoded a second time with each
//! element carrying a unique sentinel (a tool's or call's name replaced by `zqx7m0003q`, a
//! result's text content by one); every sentinel is found in that marked rendering, the JSON path
//! of the string holding it is walked up to the enclosing element object (the tool call object,
//! the content block, the `tool` message, the function declaration…), and the same path is
//! located in the real rendering, whose structure is the same (only strings changed). For the
//! legacy XML text the enclosing `<invoke>`, `<result>` or `<tool_description>` is taken, by its
//! rank among the tags of its kind. An element a format drops has no span there.

use crate::formats::{json, Format, Kind};
use crate::model::{Block, Exchange, Part, ResultContent};
use serde_json::Value;
use std::collections::HashMap;

/// A canonical element that panes can highlight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    /// `tools[i]`.
    Tool(usize),
    /// A tool call: `messages[message].parts[part]`.
    Call {
        /// Message index.
        message: usize,
        /// Part index in the message.
        part: usize,
    },
    /// A tool result: `messages[message].parts[part]`.
    Result {
        /// Message index.
        message: usize,
        /// Part index in the message.
        part: usize,
    },
}

impl Element {
    /// The element's JSON pointer in the canonical exchange (`/tools/0`, `/messages/2/parts/0`).
    pub fn pointer(&self) -> String {
        match self {
            Element::Tool(i) => format!("/tools/{i}"),
            Element::Call { message, part } | Element::Result { message, part } => {
                format!("/messages/{message}/parts/{part}")
            }
        }
    }

    /// The innermost element containing a canonical pointer (a loss's or a finding's), or
    /// `None` outside tools and parts. A part is a call unless the pointer names a field only a
    /// result has (`call_id`, `content`, `is_error`); [`Element::in_exchange`] is exact.
    pub fn from_pointer(p: &str) -> Option<Element> {
        let mut t = p.strip_prefix('/')?.split('/');
        match t.next()? {
            "tools" => Some(Element::Tool(t.next()?.parse().ok()?)),
            "messages" => {
                let message = t.next()?.parse().ok()?;
                if t.next()? != "parts" {
                    return None;
                }
                let part = t.next()?.parse().ok()?;
                match t.next() {
                    Some("call_id" | "content" | "is_error") => {
                        Some(Element::Result { message, part })
                    }
                    _ => Some(Element::Call { message, part }),
                }
            }
            _ => None,
        }
    }

    /// The innermost element of `x` containing the canonical pointer `p` (the part's type
    /// decides call or result); `None` when it names no tool, call or result of `x`.
    pub fn in_exchange(x: &Exchange, p: &str) -> Option<Element> {
        match Element::from_pointer(p)? {
            Element::Tool(i) => (i < x.tools.len()).then_some(Element::Tool(i)),
            Element::Call { message, part } | Element::Result { message, part } => {
                match x.messages.get(message)?.parts.get(part)? {
                    Part::ToolCall(_) => Some(Element::Call { message, part }),
                    Part::ToolResult(_) => Some(Element::Result { message, part }),
                    _ => None,
                }
            }
        }
    }
}

/// A byte range `[start, end)` of a pane's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// Just past the last byte.
    pub end: usize,
}

impl Span {
    /// True when `offset` lies inside.
    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// True for an empty span.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Every element of `x`, in canonical order (tools, then the calls and results of each message).
pub fn elements(x: &Exchange) -> Vec<Element> {
    let mut out: Vec<Element> = (0..x.tools.len()).map(Element::Tool).collect();
    for (message, m) in x.messages.iter().enumerate() {
        for (part, p) in m.parts.iter().enumerate() {
            match p {
                Part::ToolCall(_) => out.push(Element::Call { message, part }),
                Part::ToolResult(_) => out.push(Element::Result { message, part }),
                _ => {}
            }
        }
    }
    out
}

/// Every element of `x` and its span in `format`'s rendering (the text of
/// `format.encode(x, kind)`). Elements the format drops are left out.
pub fn spans(x: &Exchange, format: Format, kind: Kind) -> Vec<(Element, Span)> {
    spans_in(x, format, kind, &format.encode(x, kind).text)
}

/// [`spans`] for a rendering the caller already has (`text` must be
/// `format.encode(x, kind).text`): one encode instead of two.
pub fn spans_in(x: &Exchange, format: Format, kind: Kind, text: &str) -> Vec<(Element, Span)> {
    let elements = elements(x);
    if elements.is_empty() {
        return Vec::new();
    }
    let marked = format.encode(&mark(x, &elements), kind).text;
    let mut out = Vec::new();
    if format.is_text() {
        return xml_spans(&marked, text, &elements);
    }
    let Ok(doc) = serde_json::from_str::<Value>(&marked) else {
        return out;
    };
    let real = serde_json::from_str::<Value>(text).ok();
    let found = first_occurrences(&doc, elements.len());
    // Each element's pointer in the real rendering, then every span in one pass over the text.
    let mut wanted: Vec<(Element, String)> = Vec::new();
    for (n, e) in elements.iter().enumerate() {
        let Some(Some(path)) = found.get(n) else {
            continue;
        };
        let Some(pointer) = enclosing_element(&doc, path, matches!(e, Element::Result { .. }))
        else {
            continue;
        };
        // The real rendering has the same structure (keys named by a sentinel, as AI SDK tool
        // records, are found by position): the value there must be an object too.
        if let Some(pointer) = real.as_ref().and_then(|r| same_place(&doc, r, &pointer)) {
            wanted.push((*e, pointer));
        }
    }
    let found = spans_at(text, wanted.iter().map(|(_, p)| p.as_str()));
    for ((e, _), span) in wanted.iter().zip(found) {
        if let Some((start, end)) = span {
            if text.as_bytes().get(start) == Some(&b'{') {
                out.push((*e, Span { start, end }));
            }
        }
    }
    out
}

/// Spans of the elements in the canonical JSON text (the exchange as the editor shows it, e.g.
/// `formats::json::pretty(x)`, or text the user typed that parses to `x`).
pub fn canonical_spans(x: &Exchange, text: &str) -> Vec<(Element, Span)> {
    let elements = elements(x);
    let pointers: Vec<String> = elements.iter().map(Element::pointer).collect();
    let found = spans_at(text, pointers.iter().map(String::as_str));
    elements
        .into_iter()
        .zip(found)
        .filter_map(|(e, s)| s.map(|(start, end)| (e, Span { start, end })))
        .collect()
}

/// The byte range of the value at each of `pointers` in the JSON `text` (`None` where there is
/// none), found in one pass over the text: linear in its size whatever the number of pointers
/// (locating them one by one from the start was quadratic at thousands of elements).
pub fn spans_at<'a>(
    text: &str,
    pointers: impl IntoIterator<Item = &'a str>,
) -> Vec<Option<(usize, usize)>> {
    let mut wanted: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut n = 0;
    for (i, p) in pointers.into_iter().enumerate() {
        wanted.entry(p).or_default().push(i);
        n = i + 1;
    }
    let mut out = vec![None; n];
    if !wanted.is_empty() {
        scan_values(text.as_bytes(), |path, start, end| {
            if let Some(slots) = wanted.get(path) {
                for &i in slots {
                    if let Some(o) = out.get_mut(i) {
                        *o = Some((start, end));
                    }
                }
            }
        });
    }
    out
}

/// A container being scanned: where its pointer ends in the path, its next item's index, where
/// it started.
struct Open {
    array: bool,
    base: usize,
    index: usize,
    start: usize,
}

/// Call `seen(pointer, start, end)` for every value of the JSON text `b` (iterative: no
/// recursion on deep nesting). Stops quietly where the text is not JSON.
fn scan_values(b: &[u8], mut seen: impl FnMut(&str, usize, usize)) {
    let mut path = String::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut pos = skip_ws(b, 0);
    loop {
        // A value starts at `pos`; its pointer is `path`.
        match b.get(pos) {
            Some(&c @ (b'{' | b'[')) => {
                let array = c == b'[';
                stack.push(Open {
                    array,
                    base: path.len(),
                    index: 0,
                    start: pos,
                });
                pos = skip_ws(b, pos + 1);
                let close = if array { b']' } else { b'}' };
                if b.get(pos) != Some(&close) {
                    match enter(b, pos, &mut path, array, 0) {
                        Some(p) => pos = p,
                        None => return,
                    }
                    continue;
                }
                // Empty: closed below.
            }
            Some(_) => {
                let Some(end) = skip_scalar(b, pos) else {
                    return;
                };
                seen(&path, pos, end);
                pos = end;
            }
            None => return,
        }
        // After a value: the next item, or the end of containers.
        loop {
            let Some(top) = stack.last_mut() else {
                return;
            };
            path.truncate(top.base);
            pos = skip_ws(b, pos);
            match b.get(pos) {
                Some(b',') => {
                    top.index += 1;
                    let (array, index) = (top.array, top.index);
                    match enter(b, skip_ws(b, pos + 1), &mut path, array, index) {
                        Some(p) => pos = p,
                        None => return,
                    }
                    break;
                }
                Some(b']' | b'}') => {
                    pos += 1;
                    if let Some(o) = stack.pop() {
                        seen(&path, o.start, pos);
                    }
                }
                _ => return,
            }
        }
    }
}

/// Step into a container's item at `pos`: extend `path` with its index or key; the offset of
/// the item's value.
fn enter(b: &[u8], pos: usize, path: &mut String, array: bool, index: usize) -> Option<usize> {
    path.push('/');
    if array {
        path.push_str(&index.to_string());
        return Some(pos);
    }
    if *b.get(pos)? != b'"' {
        return None;
    }
    let end = skip_string(b, pos)?;
    let raw = b.get(pos + 1..end - 1)?;
    let key: String = if raw.contains(&b'\\') {
        serde_json::from_slice(b.get(pos..end)?).ok()?
    } else {
        String::from_utf8(raw.to_vec()).ok()?
    };
    path.push_str(&json::escape(&key));
    let colon = skip_ws(b, end);
    (*b.get(colon)? == b':').then(|| skip_ws(b, colon + 1))
}

fn skip_ws(b: &[u8], mut pos: usize) -> usize {
    while b.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

/// Offset just past the string starting at `pos`.
fn skip_string(b: &[u8], mut pos: usize) -> Option<usize> {
    pos += 1;
    loop {
        match *b.get(pos)? {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            _ => pos += 1,
        }
    }
}

/// Offset just past the string, number or literal starting at `pos`.
fn skip_scalar(b: &[u8], pos: usize) -> Option<usize> {
    if *b.get(pos)? == b'"' {
        return skip_string(b, pos);
    }
    let mut end = pos;
    while b
        .get(end)
        .is_some_and(|c| !matches!(c, b',' | b']' | b'}' | b':') && !c.is_ascii_whitespace())
    {
        end += 1;
    }
    (end > pos).then_some(end)
}

/// The innermost element whose span contains `offset`.
pub fn element_at(spans: &[(Element, Span)], offset: usize) -> Option<Element> {
    spans
        .iter()
        .filter(|(_, s)| s.contains(offset))
        .min_by_key(|(_, s)| s.len())
        .map(|(e, _)| *e)
}

// ---------------------------------------------------------------------- marking

/// The sentinel of element `n`: a valid tool name for every provider (letters and digits,
/// starting with a letter), fixed width so no sentinel is a prefix of another.
fn sentinel(n: usize) -> String {
    format!("zqx7m{n:06}q")
}

const PREFIX: &str = "zqx7m";
const WIDTH: usize = 12;

/// A copy of `x` where element `n` carries `sentinel(n)`: tools and calls in their name (a
/// forced `tool_choice` follows its tool), results in their text (the first string of JSON
/// content, the first text block), the content's kind unchanged so the rendering keeps its shape.
fn mark(x: &Exchange, elements: &[Element]) -> Exchange {
    let mut m = x.clone();
    for (n, e) in elements.iter().enumerate() {
        let s = sentinel(n);
        match *e {
            Element::Tool(i) => {
                if let Some(t) = m.tools.get_mut(i) {
                    if let Some(choice) = m.tool_choice.as_mut() {
                        for name in choice.tools.iter_mut().filter(|c| **c == t.name) {
                            name.clone_from(&s);
                        }
                    }
                    t.name = s;
                }
            }
            Element::Call { message, part } | Element::Result { message, part } => {
                match m
                    .messages
                    .get_mut(message)
                    .and_then(|msg| msg.parts.get_mut(part))
                {
                    Some(Part::ToolCall(c)) => c.name = s,
                    Some(Part::ToolResult(r)) => mark_content(&mut r.content, s),
                    _ => {}
                }
            }
        }
    }
    m
}

fn mark_content(c: &mut ResultContent, s: String) {
    match c {
        ResultContent::Text(t) => *t = s,
        ResultContent::Json(v) => {
            if !mark_first_string(v, &s) {
                match v {
                    Value::Object(o) => {
                        o.insert("zqx".into(), Value::String(s));
                    }
                    Value::Array(a) => a.insert(0, Value::String(s)),
                    other => *other = Value::String(s),
                }
            }
        }
        ResultContent::Blocks(blocks) => {
            let first_text = blocks.iter_mut().find_map(|b| match b {
                Block::Text { text } => Some(text),
                _ => None,
            });
            match first_text {
                Some(text) => *text = s,
                None => blocks.insert(0, Block::Text { text: s }),
            }
        }
    }
}

/// Replace the first string inside `v` (depth-first, bounded); false when there is none.
fn mark_first_string(v: &mut Value, s: &str) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(t) => {
                *t = s.to_string();
                return true;
            }
            Value::Array(a) => stack.extend(a.iter_mut().rev()),
            Value::Object(o) => stack.extend(o.values_mut().rev()),
            _ => {}
        }
    }
    false
}

// ---------------------------------------------------------------------- JSON formats

/// For each sentinel number below `count`, the JSON pointer of the first string (in document
/// order) that contains it.
fn first_occurrences(doc: &Value, count: usize) -> Vec<Option<String>> {
    let mut found: Vec<Option<String>> = vec![None; count];
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), doc)];
    while let Some((at, v)) = stack.pop() {
        match v {
            Value::String(s) => note_sentinels(s, &at, &mut found),
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate().rev() {
                    stack.push((format!("{at}/{i}"), c));
                }
            }
            Value::Object(o) => {
                let children: Vec<_> = o.iter().collect();
                for (k, c) in children.into_iter().rev() {
                    let here = format!("{at}/{}", json::escape(k));
                    // A record keyed by name (AI SDK tools): the key names the element.
                    note_sentinels(k, &here, &mut found);
                    stack.push((here, c));
                }
            }
            _ => {}
        }
    }
    found
}

/// The pointer in `real` of the place `pointer` names in `marked`, a document of the same
/// shape: object keys are matched by position (a key may be a sentinel).
fn same_place(marked: &Value, real: &Value, pointer: &str) -> Option<String> {
    let (mut m, mut r) = (marked, real);
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let key = seg.replace("~1", "/").replace("~0", "~");
        match (m, r) {
            (Value::Object(mo), Value::Object(ro)) => {
                let i = mo.keys().position(|k| *k == key)?;
                let (rk, rv) = ro.iter().nth(i)?;
                out.push('/');
                out.push_str(&json::escape(rk));
                m = mo.get(&key)?;
                r = rv;
            }
            (Value::Array(ma), Value::Array(ra)) => {
                let i: usize = key.parse().ok()?;
                m = ma.get(i)?;
                r = ra.get(i)?;
                out.push('/');
                out.push_str(&key);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The number of the sentinel `s` starts with.
fn sentinel_number(s: &str) -> Option<usize> {
    s.get(PREFIX.len()..WIDTH - 1)
        .and_then(|d| d.parse::<usize>().ok())
        .filter(|_| s.as_bytes().get(WIDTH - 1) == Some(&b'q'))
}

/// Record `at` for each sentinel in `s` not seen before.
fn note_sentinels(s: &str, at: &str, found: &mut [Option<String>]) {
    let mut rest = s;
    while let Some(i) = rest.find(PREFIX) {
        let tail = rest.get(i..).unwrap_or_default();
        if let Some(slot) = sentinel_number(tail).and_then(|n| found.get_mut(n)) {
            if slot.is_none() {
                *slot = Some(at.to_string());
            }
        }
        rest = tail.get(PREFIX.len()..).unwrap_or_default();
    }
}

/// Fields that make an object a tool result in some format: OpenAI-style `tool` messages,
/// Anthropic `tool_result` blocks, Responses `function_call_output` items, Gemini
/// `functionResponse` parts, Bedrock `toolResult` blocks, MCP JSON-RPC responses, AI SDK
/// `tool-result` parts.
const RESULT_KEYS: [&str; 8] = [
    "tool_call_id",
    "toolCallId",
    "tool_use_id",
    "call_id",
    "functionResponse",
    "toolResult",
    "jsonrpc",
    "tool_name",
];

/// The pointer of the element object enclosing the string at `path`: the nearest object that
/// is an item of an array; for a result, the nearest such object that looks like a result
/// (its content may be an array of blocks, whose items are objects too).
fn enclosing_element(doc: &Value, path: &str, result: bool) -> Option<String> {
    // A record entry named by its key (AI SDK tools) is the element itself.
    if doc.pointer(path).is_some_and(Value::is_object) {
        return Some(path.to_string());
    }
    let mut nearest: Option<String> = None;
    let mut end = path.len();
    while let Some(cut) = path.get(..end).and_then(|p| p.rfind('/')) {
        let here = path.get(..end)?;
        let parent = path.get(..cut)?;
        let is_item = doc.pointer(parent).is_some_and(Value::is_array);
        if let (true, Some(Value::Object(o))) = (is_item, doc.pointer(here)) {
            if !result {
                return Some(here.to_string());
            }
            let looks_like_result = RESULT_KEYS.iter().any(|k| o.contains_key(*k))
                || matches!(
                    o.get("role").and_then(Value::as_str),
                    Some("tool" | "function")
                );
            if looks_like_result {
                return Some(here.to_string());
            }
            nearest.get_or_insert_with(|| here.to_string());
        }
        end = cut;
    }
    nearest
}

// ---------------------------------------------------------------------- legacy XML

fn tag_of(e: &Element) -> &'static str {
    match e {
        Element::Tool(_) => "tool_description",
        Element::Call { .. } => "invoke",
        Element::Result { .. } => "result",
    }
}

/// Where the `<tag>`s and `</tag>`s of a text start, in order.
struct Tags {
    open: Vec<usize>,
    close: Vec<usize>,
}

impl Tags {
    fn of(text: &str, tag: &str) -> Self {
        let starts = |t: String| text.match_indices(&t).map(|(i, _)| i).collect();
        Tags {
            open: starts(format!("<{tag}>")),
            close: starts(format!("</{tag}>")),
        }
    }
}

/// The span in `real` of the `<tag>…</tag>` element that encloses the first occurrence of each
/// element's sentinel in `marked` (same rank among the `<tag>`s of both texts). One pass over
/// each text, then a binary search per element.
fn xml_spans(marked: &str, real: &str, elements: &[Element]) -> Vec<(Element, Span)> {
    let mut first: Vec<Option<usize>> = vec![None; elements.len()];
    for (at, _) in marked.match_indices(PREFIX) {
        if let Some(slot) = marked
            .get(at..)
            .and_then(sentinel_number)
            .and_then(|n| first.get_mut(n))
        {
            slot.get_or_insert(at);
        }
    }
    let tags: Vec<(&str, Tags, Tags)> = ["tool_description", "invoke", "result"]
        .into_iter()
        .map(|t| (t, Tags::of(marked, t), Tags::of(real, t)))
        .collect();
    let mut out = Vec::new();
    for (e, at) in elements.iter().zip(first) {
        let (Some(at), Some((tag, m, r))) = (at, tags.iter().find(|(t, ..)| *t == tag_of(e)))
        else {
            continue;
        };
        let rank = m.open.partition_point(|&o| o < at);
        let Some(opened) = rank.checked_sub(1).and_then(|k| m.open.get(k)) else {
            continue;
        };
        // The sentinel must sit inside that element, not after its close.
        let closed = m.close.partition_point(|&c| c < *opened);
        if m.close.get(closed).is_some_and(|&c| c < at) {
            continue;
        }
        let Some(&start) = r.open.get(rank - 1) else {
            continue;
        };
        let Some(&close) = r.close.get(r.close.partition_point(|&c| c < start)) else {
            continue;
        };
        out.push((
            *e,
            Span {
                start,
                end: close + tag.len() + 3,
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Message, Role, Tool, ToolCall, ToolResult};
    use serde_json::json;

    /// Every pointer of `v` (values in document order).
    fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match v {
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    pointers(c, format!("{at}/{i}"), out);
                }
            }
            Value::Object(o) => {
                for (k, c) in o {
                    pointers(c, format!("{at}/{}", json::escape(k)), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn anchors_spans_at_agrees_with_locating_each_pointer() {
        let doc = json!({
            "a/b": [1, -2.5e3, true, null, "x\"y\\\\", [], {}],
            "k~\"q": {"nested": [{"deep": [[{"z": "é ünï"}]]}], "e": ""},
            "messages": [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c"}]
        });
        for text in [
            serde_json::to_string(&doc).unwrap(),
            serde_json::to_string_pretty(&doc).unwrap(),
        ] {
            let mut ps = Vec::new();
            pointers(&doc, String::new(), &mut ps);
            ps.push("/missing".into());
            ps.push("/messages/7".into());
            let found = spans_at(&text, ps.iter().map(String::as_str));
            for (p, f) in ps.iter().zip(found) {
                assert_eq!(f, json::span(&text, p), "{p} in {text}");
            }
        }
        // Cut short: the values before the cut, nothing for the unclosed ones, no panic.
        assert_eq!(
            spans_at("{\"a\": [1, 2", ["/a/0", "/a/1", "/a"]),
            vec![Some((7, 8)), Some((10, 11)), None]
        );
        assert_eq!(spans_at("", [""]), vec![None]);
    }

    /// An exchange of `rounds` rounds (question, call, result, answer) over `tools` tools.
    fn big(rounds: usize, tools: usize) -> Exchange {
        let mut x = Exchange {
            tools: (0..tools)
                .map(|i| Tool::new(format!("tool_{i}"), json!({"type": "object"})))
                .collect(),
            ..Exchange::default()
        };
        for n in 0..rounds {
            let id = format!("call_{n}");
            x.messages
                .push(Message::new(Role::User, vec![Part::text(format!("Q{n}"))]));
            x.messages.push(Message::new(
                Role::Assistant,
                vec![Part::ToolCall(ToolCall::new(
                    Some(id.clone()),
                    format!("tool_{}", n % tools),
                    json!({"q": n}),
                ))],
            ));
            x.messages.push(Message::new(
                Role::Tool,
                vec![Part::ToolResult(ToolResult::new(
                    Some(id),
                    ResultContent::Text(format!("R{n}")),
                ))],
            ));
            x.messages.push(Message::new(
                Role::Assistant,
                vec![Part::text(format!("A{n}"))],
            ));
        }
        x
    }

    #[test]
    fn anchors_every_element_of_a_large_exchange_has_its_span() {
        // 1,500 messages and 50 tools: 800 elements, past the 600 the page once stopped at.
        let x = big(375, 50);
        let all = elements(&x);
        assert_eq!(all.len(), 50 + 750);
        for format in [Format::OpenAiChat, Format::Anthropic, Format::AnthropicXml] {
            let text = format.encode(&x, Kind::Request).text;
            let spans = spans_in(&x, format, Kind::Request, &text);
            assert_eq!(spans.len(), all.len(), "{format:?}");
            // The last call's span holds its own id, in every format that writes one.
            let last = Element::Call {
                message: 1497,
                part: 0,
            };
            let (_, s) = spans.iter().find(|(e, _)| *e == last).expect("last call");
            let inside = &text[s.start..s.end];
            assert!(inside.contains("tool_24"), "{format:?}: {inside}");
            assert!(!inside.contains("tool_23\""), "{format:?}: {inside}");
        }
        let canonical = json::pretty(&x);
        assert_eq!(canonical_spans(&x, &canonical).len(), all.len());
    }
}
