//! Partial JSON: parse the prefix of a document as far as it goes (for the growing argument
//! text of a streamed call), and propose a repair for argument text that ended invalid.
//!
//! Both are iterative (an explicit stack, bounded by [`MAX_DEPTH`]) and never panic.
//! A repair is a proposal — the new text plus what was changed — and is never applied
//! silently: the assembled call keeps the text as received.

use serde::Serialize;
use serde_json::{Map, Value};

/// Deepest nesting parsed or repaired; deeper input stops there.
pub const MAX_DEPTH: usize = 256;

enum Frame {
    Array(Vec<Value>),
    Object(Map<String, Value>, Option<String>),
}

/// Parse `text` as far as it goes: open strings, arrays and objects are closed, a key without
/// value is left out, a literal prefix (`tr`) is completed, a number keeps its valid prefix.
/// Parsing stops at the first syntax error, keeping what came before. `None` when not even
/// the start of a value is there.
pub fn parse_partial(text: &str) -> Option<Value> {
    let b = text.as_bytes();
    let mut pos = 0usize;
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Value> = None;
    // What the parser expects next inside the top frame.
    #[derive(PartialEq)]
    enum Want {
        Value,
        KeyOrEnd,
        Key,
        Colon,
        CommaOrEnd,
        ValueOrEnd,
    }
    let mut want = Want::Value;
    'outer: loop {
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let Some(&c) = b.get(pos) else { break };
        let value: Value = match want {
            Want::Colon => {
                if c != b':' {
                    break;
                }
                pos += 1;
                want = Want::Value;
                continue;
            }
            Want::CommaOrEnd | Want::KeyOrEnd | Want::ValueOrEnd if c == b'}' || c == b']' => {
                let Some(frame) = stack.pop() else { break };
                let v = match (frame, c) {
                    (Frame::Array(a), b']') => Value::Array(a),
                    (Frame::Object(o, _), b'}') => Value::Object(o),
                    _ => break,
                };
                pos += 1;
                v
            }
            Want::CommaOrEnd => {
                if c != b',' {
                    break;
                }
                pos += 1;
                want = match stack.last() {
                    Some(Frame::Object(..)) => Want::Key,
                    _ => Want::Value,
                };
                continue;
            }
            Want::KeyOrEnd | Want::Key => {
                if c != b'"' {
                    break;
                }
                let (s, end, closed) = string(b, pos);
                if !closed {
                    break;
                }
                if let Some(Frame::Object(_, key)) = stack.last_mut() {
                    *key = Some(s);
                }
                pos = end;
                want = Want::Colon;
                continue;
            }
            Want::Value | Want::ValueOrEnd => match c {
                b'{' | b'[' => {
                    if stack.len() >= MAX_DEPTH {
                        break;
                    }
                    stack.push(if c == b'{' {
                        Frame::Object(Map::new(), None)
                    } else {
                        Frame::Array(Vec::new())
                    });
                    pos += 1;
                    want = if c == b'{' {
                        Want::KeyOrEnd
                    } else {
                        Want::ValueOrEnd
                    };
                    continue;
                }
                b'"' => {
                    let (s, end, closed) = string(b, pos);
                    pos = end;
                    if !closed {
                        // An open string is kept as far as it goes, then everything closes.
                        place(&mut stack, &mut root, Value::String(s));
                        break 'outer;
                    }
                    Value::String(s)
                }
                b't' | b'f' | b'n' => {
                    let word: &[u8] = match c {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    let rest = b.get(pos..).unwrap_or(&[]);
                    let n = rest.iter().zip(word).take_while(|(x, y)| x == y).count();
                    let v = match c {
                        b't' => Value::Bool(true),
                        b'f' => Value::Bool(false),
                        _ => Value::Null,
                    };
                    if n == word.len() {
                        pos += n;
                        v
                    } else if pos + n == b.len() {
                        place(&mut stack, &mut root, v);
                        break 'outer;
                    } else {
                        break;
                    }
                }
                b'-' | b'0'..=b'9' => {
                    let start = pos;
                    while pos < b.len()
                        && matches!(b[pos], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        pos += 1;
                    }
                    let mut num = text.get(start..pos).unwrap_or("");
                    let mut parsed = serde_json::from_str::<Value>(num).ok();
                    while parsed.is_none() && !num.is_empty() {
                        num = num.get(..num.len() - 1).unwrap_or("");
                        parsed = serde_json::from_str::<Value>(num).ok();
                    }
                    match parsed {
                        Some(v @ Value::Number(_)) => v,
                        _ => break,
                    }
                }
                _ => break,
            },
        };
        if stack.is_empty() {
            root = Some(value);
            break;
        }
        place(&mut stack, &mut root, value);
        want = Want::CommaOrEnd;
    }
    // Close what is open, innermost first.
    while let Some(frame) = stack.pop() {
        let v = match frame {
            Frame::Array(a) => Value::Array(a),
            Frame::Object(o, _) => Value::Object(o),
        };
        if stack.is_empty() {
            root = Some(v);
        } else {
            place(&mut stack, &mut root, v);
        }
    }
    root
}

fn place(stack: &mut [Frame], root: &mut Option<Value>, v: Value) {
    match stack.last_mut() {
        Some(Frame::Array(a)) => a.push(v),
        Some(Frame::Object(o, key)) => {
            if let Some(k) = key.take() {
                o.insert(k, v);
            }
        }
        None => *root = Some(v),
    }
}

/// Read the string starting at the quote at `pos`: (content so far, offset after it, closed).
/// A cut escape sequence at the end is left out.
fn string(b: &[u8], pos: usize) -> (String, usize, bool) {
    let mut i = pos + 1;
    let mut out: Vec<u8> = Vec::new();
    while i < b.len() {
        match b[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), i + 1, true),
            b'\\' => {
                let Some(&e) = b.get(i + 1) else { break };
                let simple = match e {
                    b'"' => Some(b'"'),
                    b'\\' => Some(b'\\'),
                    b'/' => Some(b'/'),
                    b'b' => Some(8),
                    b'f' => Some(12),
                    b'n' => Some(b'\n'),
                    b'r' => Some(b'\r'),
                    b't' => Some(b'\t'),
                    _ => None,
                };
                if let Some(s) = simple {
                    out.push(s);
                    i += 2;
                } else if e == b'u' {
                    let Some(hex) = b.get(i + 2..i + 6) else {
                        break;
                    };
                    let code = std::str::from_utf8(hex)
                        .ok()
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    let Some(mut code) = code else { break };
                    i += 6;
                    // A surrogate pair: combine with the low half when it is there.
                    if (0xD800..0xDC00).contains(&code) && b.get(i) == Some(&b'\\') {
                        if let Some(low) = b
                            .get(i + 2..i + 6)
                            .and_then(|h| std::str::from_utf8(h).ok())
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                            .filter(|l| (0xDC00..0xE000).contains(l))
                        {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                            i += 6;
                        }
                    }
                    let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                } else {
                    out.push(e);
                    i += 2;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), b.len(), false)
}

/// A proposed repair of invalid JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// The repaired text (valid JSON).
    pub text: String,
    /// What was changed, in text order.
    pub changes: Vec<Change>,
}

impl Repair {
    /// The changes as one short phrase.
    pub fn summary(&self) -> String {
        let mut whats: Vec<&str> = Vec::new();
        for c in &self.changes {
            if !whats.contains(&c.what.as_str()) {
                whats.push(&c.what);
            }
        }
        whats.join(", ")
    }
}

/// One change of a [`Repair`], located in the original text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// 1-based line in the original text.
    pub line: usize,
    /// 1-based column (characters) in the original text.
    pub column: usize,
    /// What was done (`removed trailing comma`, `closed string`, …).
    pub what: String,
}

/// Propose a repair of invalid JSON: trailing commas removed, single-quoted strings
/// double-quoted, raw newlines in strings escaped, unclosed strings and brackets closed,
/// mismatched closers fixed, a key without value given `null`. `None` when the text is
/// already valid or the repaired text still does not parse.
pub fn repair(text: &str) -> Option<Repair> {
    if serde_json::from_str::<Value>(text).is_ok() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut changes: Vec<Change> = Vec::new();
    let mut stack: Vec<char> = Vec::new();
    // Some(quote) inside a string.
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let at = |offset: usize, what: &str| {
        let (line, column) = crate::text::line_column(text, offset);
        Change {
            line,
            column,
            what: what.to_string(),
        }
    };
    for (i, ch) in text.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                    if q == '\'' && ch == '\'' {
                        // `\'` is not a JSON escape: the quote itself.
                        out.pop();
                        out.push('\'');
                    } else {
                        out.push(ch);
                    }
                    continue;
                }
                match ch {
                    '\\' => {
                        escaped = true;
                        out.push(ch);
                    }
                    c if c == q => {
                        quote = None;
                        out.push('"');
                    }
                    '"' => out.push_str("\\\""),
                    '\n' => {
                        changes.push(at(i, "escaped newline in string"));
                        out.push_str("\\n");
                    }
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c => out.push(c),
                }
            }
            None => match ch {
                '"' => {
                    quote = Some('"');
                    out.push('"');
                }
                '\'' => {
                    quote = Some('\'');
                    changes.push(at(i, "single quotes replaced by double quotes"));
                    out.push('"');
                }
                '{' | '[' => {
                    if stack.len() >= MAX_DEPTH {
                        return None;
                    }
                    stack.push(if ch == '{' { '}' } else { ']' });
                    out.push(ch);
                }
                '}' | ']' => {
                    if drop_trailing_comma(&mut out) {
                        changes.push(at(i, "removed trailing comma"));
                    }
                    if !stack.contains(&ch) {
                        changes.push(at(i, "removed unmatched closing bracket"));
                        continue;
                    }
                    while let Some(top) = stack.pop() {
                        if top == ch {
                            break;
                        }
                        changes.push(at(i, "closed unclosed bracket"));
                        out.push(top);
                    }
                    out.push(ch);
                }
                c => out.push(c),
            },
        }
    }
    let end = text.len();
    if quote.is_some() {
        if escaped {
            out.pop();
        }
        changes.push(at(end, "closed unterminated string"));
        out.push('"');
    }
    if drop_trailing_comma(&mut out) {
        changes.push(at(end, "removed trailing comma"));
    }
    if out.trim_end().ends_with(':') {
        changes.push(at(end, "gave the last key the value null"));
        out.push_str(" null");
    }
    if stack.last() == Some(&'}') {
        // `{"a"` — a key without colon: give it a value too.
        let t = out.trim_end();
        if t.ends_with('"') && key_without_value(t) {
            changes.push(at(end, "gave the last key the value null"));
            out.push_str(": null");
        }
    }
    while let Some(top) = stack.pop() {
        changes.push(at(end, "closed unclosed bracket"));
        out.push(top);
    }
    if changes.is_empty() || serde_json::from_str::<Value>(&out).is_err() {
        return None;
    }
    Some(Repair { text: out, changes })
}

/// Remove a comma that ends `out` (after whitespace); true when one was removed.
fn drop_trailing_comma(out: &mut String) -> bool {
    let trimmed = out.trim_end().len();
    if out.get(..trimmed).is_some_and(|t| t.ends_with(',')) {
        let tail = out.get(trimmed..).unwrap_or("").to_string();
        out.truncate(trimmed - 1);
        out.push_str(&tail);
        return true;
    }
    false
}

/// True when the string closing `t` is an object key with no colon after it: the token
/// before its opening quote is `{` or `,`.
fn key_without_value(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = b.len().saturating_sub(1);
    // Find the opening quote of the last string (skip escaped quotes).
    while i > 0 {
        i -= 1;
        if b[i] == b'"' && (i == 0 || b[i - 1] != b'\\') {
            break;
        }
    }
    let before = t.get(..i).unwrap_or("").trim_end();
    before.ends_with('{') || before.ends_with(',')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn partial_prefixes_parse_as_far_as_they_go() {
        assert_eq!(parse_partial(""), None);
        assert_eq!(parse_partial("{"), Some(json!({})));
        assert_eq!(parse_partial("{\"loc"), Some(json!({})));
        assert_eq!(
            parse_partial("{\"loc\": \"San Fr"),
            Some(json!({"loc": "San Fr"}))
        );
        assert_eq!(parse_partial("{\"a\": [1, 2"), Some(json!({"a": [1, 2]})));
        assert_eq!(parse_partial("{\"a\": 1.5e"), Some(json!({"a": 1.5})));
        assert_eq!(parse_partial("{\"a\": tr"), Some(json!({"a": true})));
        assert_eq!(parse_partial("{\"a\": \"x\\"), Some(json!({"a": "x"})));
        assert_eq!(
            parse_partial("[{\"a\": {}}, nul"),
            Some(json!([{"a": {}}, null]))
        );
        assert_eq!(parse_partial("{\"a\": 1} trailing"), Some(json!({"a": 1})));
        assert_eq!(parse_partial("{\"a\": 1, x"), Some(json!({"a": 1})));
    }

    #[test]
    fn partial_deep_nesting_stops_without_overflow() {
        let deep = "[".repeat(100_000);
        let v = parse_partial(&deep).unwrap();
        assert!(v.is_array());
    }

    #[test]
    fn partial_unicode_escapes() {
        assert_eq!(parse_partial("\"\\u00e9\\ud83d\\ude00"), Some(json!("é😀")));
    }

    #[test]
    fn repair_trailing_comma_single_quotes_and_unclosed() {
        let r = repair("{\"a\": [1, 2,], }").unwrap();
        assert_eq!(r.text, "{\"a\": [1, 2] }");
        assert_eq!(r.changes.len(), 2);
        let r = repair("{'a': 'it\\'s \"x\"'}").unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&r.text).unwrap(),
            json!({"a": "it's \"x\""})
        );
        assert!(r.summary().contains("single quotes"));
        let r = repair("{\"a\": {\"b\": \"c").unwrap();
        assert_eq!(r.text, "{\"a\": {\"b\": \"c\"}}");
        assert!(repair("{\"a\": 1}").is_none());
        assert!(repair("not json at all").is_none());
    }

    #[test]
    fn repair_mismatched_and_dangling_key() {
        let r = repair("{\"a\": [1, 2}").unwrap();
        assert_eq!(r.text, "{\"a\": [1, 2]}");
        let r = repair("{\"a\": 1, \"b\":").unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&r.text).unwrap(),
            json!({"a": 1, "b": null})
        );
        let r = repair("{\"a\": 1, \"b\"").unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&r.text).unwrap(),
            json!({"a": 1, "b": null})
        );
        assert_eq!((r.changes[0].line, r.changes[0].column), (1, 13));
    }
}
