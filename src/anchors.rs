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
        for (n, e) in elements.iter().enumerate() {
            if let Some(span) = xml_span(&marked, text, &sentinel(n), tag_of(e)) {
                out.push((*e, span));
            }
        }
        return out;
    }
    let Ok(doc) = serde_json::from_str::<Value>(&marked) else {
        return out;
    };
    let real = serde_json::from_str::<Value>(text).ok();
    let found = first_occurrences(&doc, elements.len());
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
        let Some(pointer) = real.as_ref().and_then(|r| same_place(&doc, r, &pointer)) else {
            continue;
        };
        if let Some((start, end)) = json::span(text, &pointer) {
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
    elements(x)
        .into_iter()
        .filter_map(|e| {
            let (start, end) = json::span(text, &e.pointer())?;
            Some((e, Span { start, end }))
        })
        .collect()
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
    format!("zqx7m{n:04}q")
}

const PREFIX: &str = "zqx7m";
const WIDTH: usize = 10;

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

/// Record `at` for each sentinel in `s` not seen before.
fn note_sentinels(s: &str, at: &str, found: &mut [Option<String>]) {
    let mut rest = s;
    while let Some(i) = rest.find(PREFIX) {
        let tail = rest.get(i..).unwrap_or_default();
        let n = tail
            .get(PREFIX.len()..WIDTH - 1)
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|_| tail.as_bytes().get(WIDTH - 1) == Some(&b'q'));
        if let Some(slot) = n.and_then(|n| found.get_mut(n)) {
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

/// The span in `real` of the `<tag>…</tag>` element that encloses the first occurrence of
/// `mark` in `marked` (same rank among the `<tag>`s of both texts).
fn xml_span(marked: &str, real: &str, mark: &str, tag: &str) -> Option<Span> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let at = marked.find(mark)?;
    let before = marked.get(..at)?;
    let opened = before.rfind(&open)?;
    // The sentinel must sit inside that element, not after its close.
    if before.get(opened..)?.contains(&close) {
        return None;
    }
    let rank = before.matches(&open).count().checked_sub(1)?;
    let (start, _) = real.match_indices(&open).nth(rank)?;
    let end = start + real.get(start..)?.find(&close)? + close.len();
    Some(Span { start, end })
}
