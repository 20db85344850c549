//! Streamed Gemini (`streamGenerateContent?alt=sse`): every chunk is a whole
//! `GenerateContentResponse` whose candidate holds the *new* parts. Text parts continue the
//! previous text part; function calls arrive whole (`functionCall: {name, args}`), or on
//! Vertex with streamed arguments: `{name, willContinue: true}`, then chunks of
//! `partialArgs: [{jsonPath, stringValue|numberValue|boolValue|nullValue, willContinue}]`,
//! then an empty `functionCall: {}` that closes the call. `finishReason` ends the stream;
//! `usageMetadata`, `modelVersion` and `responseId` of the last chunk are kept.

use crate::stream::{
    arguments_value, get_str, get_u64, AnomalyKind, Assembler, Event, Tracker, Update,
};
use crate::stream::{fields, fragments};
use serde_json::{json, Map, Value};

/// Deepest `jsonPath` followed.
const MAX_PATH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    value: Value,
    call: Option<usize>,
    /// Arguments built from `partialArgs`.
    args: Option<Value>,
}

/// Assembler for Gemini stream chunks.
#[derive(Debug, Clone, PartialEq)]
pub struct GeminiAssembler {
    t: Tracker,
    top: Map<String, Value>,
    candidate: Map<String, Value>,
    role: Option<Value>,
    parts: Vec<Entry>,
    /// The entry of a call whose arguments are still streaming (`willContinue`).
    open: Option<usize>,
    /// The `jsonPath` whose string value continues in the next partial argument.
    continuing: Option<String>,
}

impl Default for GeminiAssembler {
    fn default() -> Self {
        GeminiAssembler {
            t: Tracker::new(true),
            top: Map::new(),
            candidate: Map::new(),
            role: None,
            parts: Vec::new(),
            open: None,
            continuing: None,
        }
    }
}

impl GeminiAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        GeminiAssembler::default()
    }

    fn function_call(&mut self, part: &Value, fc: &Value) {
        let name = get_str(fc, "name").unwrap_or("");
        let will_continue = fc.get("willContinue") == Some(&Value::Bool(true));
        let partial = fc.get("partialArgs").and_then(Value::as_array);
        if let Some(pos) = self.open {
            if name.is_empty() {
                for pa in partial.into_iter().flatten() {
                    self.partial_arg(pos, pa);
                }
                if !will_continue {
                    self.close_open();
                }
                return;
            }
            // A named call while another streams: the other ended without its closing chunk.
            self.close_open();
        }
        if name.is_empty() && partial.is_none() {
            if fc.as_object().is_some_and(|m| m.is_empty()) {
                self.t.anomaly(
                    AnomalyKind::OutOfOrder,
                    "an empty functionCall closes no streaming call".into(),
                );
            }
            return;
        }
        let id = get_str(fc, "id").map(str::to_string);
        let Some(c) = self.t.open_call(id, name) else {
            return;
        };
        let mut value = part.clone();
        if let Some(Value::Object(f)) = value.get_mut("functionCall") {
            f.remove("willContinue");
            f.remove("partialArgs");
            f.remove("args");
        }
        let args = fc.get("args").cloned();
        if let Some(a) = &args {
            let text = serde_json::to_string(a).unwrap_or_default();
            self.t.set_args(c, &text);
        }
        self.parts.push(Entry {
            value,
            call: Some(c),
            args: None,
        });
        let pos = self.parts.len() - 1;
        for pa in partial.into_iter().flatten() {
            self.partial_arg(pos, pa);
        }
        if will_continue {
            self.open = Some(pos);
            self.continuing = None;
        } else {
            self.t.close_call(c);
        }
    }

    fn close_open(&mut self) {
        if let Some(pos) = self.open.take() {
            if let Some(c) = self.parts.get(pos).and_then(|e| e.call) {
                self.t.close_call(c);
            }
        }
        self.continuing = None;
    }

    fn partial_arg(&mut self, pos: usize, pa: &Value) {
        let path = get_str(pa, "jsonPath").unwrap_or("$").to_string();
        let value = if let Some(s) = pa.get("stringValue") {
            s.clone()
        } else if let Some(n) = pa.get("numberValue") {
            n.clone()
        } else if let Some(b) = pa.get("boolValue") {
            b.clone()
        } else if pa.get("nullValue").is_some() {
            Value::Null
        } else {
            return;
        };
        let append = self.continuing.as_deref() == Some(path.as_str());
        self.continuing =
            (pa.get("willContinue") == Some(&Value::Bool(true))).then(|| path.clone());
        let Some(entry) = self.parts.get_mut(pos) else {
            return;
        };
        let args = entry.args.get_or_insert_with(|| Value::Object(Map::new()));
        if !set_path(args, &path, value, append) {
            self.t.anomaly(
                AnomalyKind::Malformed,
                format!("partialArgs jsonPath {path:?} cannot be followed"),
            );
            return;
        }
        let text = serde_json::to_string(args).unwrap_or_default();
        if let Some(c) = entry.call {
            self.t.set_args(c, &text);
        }
    }

    fn text_part(&mut self, part: &Value, text: &str) {
        let thought = part.get("thought") == Some(&Value::Bool(true));
        let signature = part.get("thoughtSignature");
        if thought {
            self.t.reasoning(text);
        } else {
            self.t.text(text);
        }
        // Continue the previous text part of the same kind.
        if let Some(last) = self.parts.last_mut() {
            let same = last.call.is_none()
                && last.value.get("text").is_some()
                && (last.value.get("thought") == Some(&Value::Bool(true))) == thought;
            if same {
                if let Some(Value::Object(m)) = Some(&mut last.value) {
                    if let Some(Value::String(s)) = m.get_mut("text") {
                        s.push_str(text);
                    }
                    if let Some(sig) = signature {
                        m.insert("thoughtSignature".into(), sig.clone());
                    }
                }
                return;
            }
        }
        if text.is_empty() && signature.is_none() {
            return;
        }
        self.parts.push(Entry {
            value: part.clone(),
            call: None,
            args: None,
        });
    }
}

/// Set `value` at a `jsonPath` (`$.a.b[0]`, `$['a']`) inside `root`, creating objects and
/// arrays on the way; strings are appended when `append`. False when the path is unusable.
fn set_path(root: &mut Value, path: &str, value: Value, append: bool) -> bool {
    let Some(segs) = parse_path(path) else {
        return false;
    };
    let mut cur = root;
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        let next_is_index = matches!(segs.get(i + 1), Some(Seg::Index(_)));
        let fresh = || {
            if next_is_index {
                Value::Array(Vec::new())
            } else {
                Value::Object(Map::new())
            }
        };
        match seg {
            Seg::Key(k) => {
                if !cur.is_object() {
                    *cur = Value::Object(Map::new());
                }
                let Value::Object(m) = cur else { return false };
                if last {
                    match (m.get_mut(k), &value) {
                        (Some(Value::String(s)), Value::String(v)) if append => s.push_str(v),
                        _ => {
                            m.insert(k.clone(), value);
                        }
                    }
                    return true;
                }
                cur = m.entry(k.clone()).or_insert_with(fresh);
            }
            Seg::Index(ix) => {
                if !cur.is_array() {
                    *cur = Value::Array(Vec::new());
                }
                let Value::Array(a) = cur else { return false };
                if *ix > a.len() + 1024 {
                    return false;
                }
                while a.len() <= *ix {
                    a.push(Value::Null);
                }
                let Some(slot) = a.get_mut(*ix) else {
                    return false;
                };
                if last {
                    match (slot, &value) {
                        (Value::String(s), Value::String(v)) if append => s.push_str(v),
                        (slot, _) => *slot = value,
                    }
                    return true;
                }
                if slot.is_null() {
                    *slot = fresh();
                }
                cur = slot;
            }
        }
    }
    // `$` itself.
    match (cur, value) {
        (Value::String(s), Value::String(v)) if append => s.push_str(&v),
        (cur, v) => *cur = v,
    }
    true
}

enum Seg {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Option<Vec<Seg>> {
    let rest = path.strip_prefix('$')?;
    let b = rest.as_bytes();
    let mut segs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if segs.len() >= MAX_PATH {
            return None;
        }
        match b[i] {
            b'.' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'.' && b[j] != b'[' {
                    j += 1;
                }
                segs.push(Seg::Key(rest.get(start..j)?.to_string()));
                i = j;
            }
            b'[' => {
                let close = rest.get(i..)?.find(']')? + i;
                let inner = rest.get(i + 1..close)?;
                if let Some(q) = inner
                    .strip_prefix('\'')
                    .and_then(|s| s.strip_suffix('\''))
                    .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
                {
                    segs.push(Seg::Key(q.to_string()));
                } else {
                    segs.push(Seg::Index(inner.trim().parse().ok()?));
                }
                i = close + 1;
            }
            _ => return None,
        }
    }
    Some(segs)
}

impl Assembler for GeminiAssembler {
    crate::formats::assembler_basics!(crate::formats::Protocol::Gemini);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        self.t.begin_quiet();
        let Some(o) = self.t.read_or_report(event) else {
            return self.t.take_updates();
        };
        if let Some(err) = o.get("error") {
            self.t.anomaly(
                AnomalyKind::StreamError,
                format!("the provider sent an error: {err}"),
            );
            self.t.end();
            return self.t.take_updates();
        }
        for (k, v) in &o {
            if k != "candidates" {
                self.top.insert(k.clone(), v.clone());
            }
        }
        let candidates = o.get("candidates").and_then(Value::as_array);
        for cand in candidates.into_iter().flatten() {
            if get_u64(cand, "index").unwrap_or(0) != 0 {
                self.t.anomaly_once(
                    AnomalyKind::ExtraChoice,
                    "several candidates: only the first is assembled".into(),
                );
                continue;
            }
            if let Some(c) = cand.as_object() {
                for (k, v) in c {
                    if k != "content" {
                        self.candidate.insert(k.clone(), v.clone());
                    }
                }
            }
            let content = cand.get("content");
            if let Some(r) = content.and_then(|c| c.get("role")) {
                self.role = Some(r.clone());
            }
            let parts = content
                .and_then(|c| c.get("parts"))
                .and_then(Value::as_array);
            for part in parts.into_iter().flatten() {
                if let Some(fc) = part.get("functionCall") {
                    self.function_call(part, fc);
                } else if let Some(text) = part.get("text").and_then(Value::as_str) {
                    self.text_part(part, text);
                } else {
                    self.parts.push(Entry {
                        value: part.clone(),
                        call: None,
                        args: None,
                    });
                }
            }
            if let Some(r) = get_str(cand, "finishReason") {
                self.t.stop_reason = Some(r.to_string());
                self.close_open();
                self.t.end();
            }
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let parts: Vec<Value> = self
            .parts
            .iter()
            .map(|e| {
                let mut v = e.value.clone();
                if let Some(c) = e.call.and_then(|c| self.t.calls.get(c)) {
                    if let Some(Value::Object(f)) = v.get_mut("functionCall") {
                        if !c.arguments.trim().is_empty() {
                            f.insert("args".into(), arguments_value(&c.arguments));
                        }
                    }
                }
                v
            })
            .collect();
        let mut cand = Map::new();
        cand.insert(
            "content".into(),
            json!({"role": self.role.clone().unwrap_or(json!("model")), "parts": parts}),
        );
        for (k, v) in &self.candidate {
            cand.insert(k.clone(), v.clone());
        }
        let mut doc = Map::new();
        doc.insert("candidates".into(), json!([cand]));
        for (k, v) in &self.top {
            doc.insert(k.clone(), v.clone());
        }
        Value::Object(doc)
    }
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = GeminiAssembler;
    const SSE: bool = true;

    fn claims(_name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        o.is_some_and(|o| o.contains_key("candidates") || o.contains_key("usageMetadata"))
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        gemini(doc, n)
    }
}

/// Gemini chunks for a response: text in pieces, each call whole, the candidate's other fields and usage on the last.
fn gemini(doc: &Value, n: usize) -> Vec<Value> {
    let mut top = fields(doc);
    let candidates = top.remove("candidates");
    let usage = top.remove("usageMetadata");
    let cand = candidates
        .as_ref()
        .and_then(|c| c.get(0))
        .map(fields)
        .unwrap_or_default();
    let role = cand
        .get("content")
        .and_then(|c| c.get("role"))
        .cloned()
        .unwrap_or(json!("model"));
    let parts: Vec<Value> = cand
        .get("content")
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let chunk = |parts: Vec<Value>, last: bool| {
        let mut c = Map::new();
        c.insert("content".into(), json!({"role": role, "parts": parts}));
        if last {
            for (k, v) in &cand {
                if k != "content" {
                    c.insert(k.clone(), v.clone());
                }
            }
        }
        let mut d = Map::new();
        d.insert("candidates".into(), json!([c]));
        if let (true, Some(u)) = (last, &usage) {
            d.insert("usageMetadata".into(), u.clone());
        }
        for (k, v) in &top {
            d.insert(k.clone(), v.clone());
        }
        Value::Object(d)
    };
    let mut pieces: Vec<Vec<Value>> = Vec::new();
    for p in &parts {
        match p.get("text").and_then(Value::as_str) {
            Some(text) if p.get("functionCall").is_none() => {
                let frags = fragments(text, n);
                let count = frags.len();
                for (i, f) in frags.into_iter().enumerate() {
                    let mut q = fields(p);
                    q.insert("text".into(), json!(f));
                    if i + 1 < count {
                        // The signature comes with the text's last piece.
                        q.remove("thoughtSignature");
                    }
                    pieces.push(vec![Value::Object(q)]);
                }
                if count == 0 {
                    pieces.push(vec![p.clone()]);
                }
            }
            _ => pieces.push(vec![p.clone()]),
        }
    }
    let count = pieces.len();
    let mut out: Vec<Value> = pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| chunk(p, i + 1 == count))
        .collect();
    if out.is_empty() {
        out.push(chunk(Vec::new(), true));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_json_paths_create_and_append() {
        let mut v = json!({});
        assert!(set_path(&mut v, "$.a.b[1]", json!("x"), false));
        assert!(set_path(&mut v, "$.a.b[1]", json!("y"), true));
        assert!(set_path(&mut v, "$['c d']", json!(2), false));
        assert_eq!(v, json!({"a": {"b": [null, "xy"]}, "c d": 2}));
        assert!(!set_path(&mut v, "a.b", json!(1), false));
        assert!(!set_path(&mut v, "$[99999999]", json!(1), false));
    }
}
