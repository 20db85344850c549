//! JSON plumbing shared by the JSON formats: parsing with line, column and JSON pointer in the
//! error, pretty rendering, finding the text position of a JSON pointer, and the nesting-depth
//! scan every parse runs first.

use super::DecodeError;
use serde::{de::DeserializeOwned, Serialize};

/// Pretty-print with two-space indentation (the form shown in the panes and golden files):
/// byte for byte serde_json's `to_string_pretty`, with each line break and its indentation
/// written at once (see [`Pretty`]).
pub fn pretty<T: Serialize>(doc: &T) -> String {
    let mut out = Vec::with_capacity(4096);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Pretty::default());
    match doc.serialize(&mut ser) {
        // serde_json writes only UTF-8; the check cannot fail.
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("\"serialisation failed: {e}\""),
    }
}

/// serde_json's `PrettyFormatter` with two spaces, writing a line break and the indentation
/// after it as one slice of a run of spaces instead of one write per level.
#[derive(Debug, Default)]
pub struct Pretty {
    level: usize,
    has_value: bool,
}

/// `,` then a line break then indentation: `&BREAK[1..]` starts with the line break.
const BREAK: [u8; 2 + 2 * 64] = {
    let mut b = [b' '; 2 + 2 * 64];
    b[0] = b',';
    b[1] = b'\n';
    b
};

impl Pretty {
    /// An opening bracket: one level deeper, nothing in it yet.
    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    /// A closing bracket, on its own line unless the array or object is empty.
    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            Pretty::newline(w, true, self.level)?;
        }
        w.write_all(bracket)
    }

    /// A line break (after a comma unless `first`) and the indentation of `level`.
    fn newline<W: ?Sized + std::io::Write>(
        writer: &mut W,
        first: bool,
        level: usize,
    ) -> std::io::Result<()> {
        let start = usize::from(first);
        match BREAK.get(start..2 + 2 * level) {
            Some(run) => writer.write_all(run),
            None => {
                writer.write_all(&BREAK[start..2])?;
                for _ in 0..level {
                    writer.write_all(b"  ")?;
                }
                Ok(())
            }
        }
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        Pretty::newline(writer, first, self.level)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        Pretty::newline(writer, first, self.level)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

pub use crate::text::{escape, line_column};

/// `v[key]` when `v` is an object. A small object is searched by comparing keys in order,
/// which is cheaper than hashing the key (`Value::get`): the sniffers look into every message
/// of a document this way.
pub fn member<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    let o = v.as_object()?;
    if o.len() > 8 {
        return o.get(key);
    }
    o.iter().find_map(|(k, v)| (k == key).then_some(v))
}

/// Deepest nesting of JSON arrays and objects [`parse`] accepts. Ours, checked by a flat scan
/// before serde runs, so the error is a clear message at the bracket past the limit and no
/// recursion (serde's, or our walkers' over the parsed value) ever goes deeper. serde_json's
/// own limit (128) stays as a backstop. Canonical arguments sit at level 6 and a Gemini call's
/// at level 7, so schemas and arguments keep over 90 levels.
pub const MAX_DEPTH: usize = 100;

/// Byte offset of the first `[` or `{` opening a level deeper than `limit`, if any. A flat
/// scan (strings and escapes skipped), so it costs no stack whatever the input. Brackets in
/// text that is not JSON count as well: the scan only ever refuses what nests too deep.
pub fn too_deep(text: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    loop {
        // The next bracket or quote; none: the scan is over.
        i = find(
            text,
            i,
            |w| has(w, b'"') | has(w | SPACE, b'{') | has(w | SPACE, b'}'),
            |b| matches!(b, b'"' | b'{' | b'[' | b'}' | b']'),
        )?;
        match text.get(i)? {
            b'"' => {
                // Skip the string: to its closing quote, over escapes. An unterminated string
                // runs to the end, where no bracket counts.
                i += 1;
                loop {
                    i = find(
                        text,
                        i,
                        |w| has(w, b'"') | has(w, b'\\'),
                        |b| matches!(b, b'"' | b'\\'),
                    )?;
                    if text.get(i) == Some(&b'\\') {
                        i += 2;
                    } else {
                        break;
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            _ => depth = depth.saturating_sub(1),
        }
        i += 1;
    }
}

/// Each byte's bit 5: `[` | it is `{`, `]` | it is `}` (and no other byte becomes either).
const SPACE: u64 = 0x2020_2020_2020_2020;

/// Non-zero when a byte of the word `w` is `b` (exact: a borrow only starts at a zero byte).
fn has(w: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & (LO << 7)
}

/// Offset of the first byte from `i` on that `byte` accepts: eight bytes at a time while the
/// word test `word` says none of them is one (the scan's whitespace and string text), then
/// byte by byte.
fn find(
    text: &[u8],
    mut i: usize,
    word: impl Fn(u64) -> u64,
    byte: impl Fn(u8) -> bool,
) -> Option<usize> {
    while let Some(chunk) = text.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        if word(u64::from_le_bytes(chunk)) != 0 {
            break;
        }
        i += 8;
    }
    text.get(i..)?
        .iter()
        .position(|&b| byte(b))
        .map(|at| i + at)
}

/// The error for text nesting deeper than [`MAX_DEPTH`], at the bracket past the limit.
pub fn check_depth(format: &'static str, text: &str) -> Result<(), DecodeError> {
    match too_deep(text.as_bytes(), MAX_DEPTH) {
        None => Ok(()),
        Some(offset) => {
            let (line, column) = line_column(text, offset);
            Err(DecodeError {
                format: Some(format),
                pointer: None,
                line: Some(line),
                column: Some(column),
                message: format!(
                    "nested deeper than {MAX_DEPTH} levels of arrays and objects; refused"
                ),
            })
        }
    }
}

/// Parse `text` as `T`. On failure the error names the line, column and, when the text is JSON
/// of the wrong shape, the JSON pointer of the element that did not fit. Text nesting deeper
/// than [`MAX_DEPTH`] is refused before serde sees it.
pub fn parse<T: DeserializeOwned>(format: &'static str, text: &str) -> Result<T, DecodeError> {
    check_depth(format, text)?;
    // Fast path (native): serde_json alone. Tracking the path costs a third of a typed parse,
    // and only an error needs it: then the text is read again, with the path, for the pointer.
    // The wasm keeps the one path: a second deserialiser per wire type would grow it.
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(value) = serde_json::from_str(text) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let pointer = path_pointer(e.path());
        let inner = e.into_inner();
        let syntax = inner.is_syntax() || inner.is_eof();
        // For a shape error serde stops at the end of the element; point at its start instead.
        let (line, column) = match locate(text, &pointer).filter(|_| !syntax) {
            Some(offset) => line_column(text, offset),
            None => (inner.line(), inner.column()),
        };
        DecodeError {
            format: Some(format),
            pointer: (!syntax).then_some(pointer),
            line: (line > 0).then_some(line),
            column: (line > 0).then_some(column),
            message: strip_position(&inner.to_string()),
        }
    })?;
    de.end().map_err(|e| DecodeError {
        format: Some(format),
        pointer: None,
        line: Some(e.line()),
        column: Some(e.column()),
        message: strip_position(&e.to_string()),
    })?;
    Ok(value)
}

/// [`parse`] into a `Value`, with the depth checked on the parsed value instead of by a scan of
/// the text first (the value has far fewer nodes than the text has bytes); the scan runs only
/// to place an error. Same results as `parse::<Value>`.
pub fn parse_value(format: &'static str, text: &str) -> Result<serde_json::Value, DecodeError> {
    match serde_json::from_str::<serde_json::Value>(text) {
        // serde_json stops at 128 levels, so this walk never goes deeper.
        Ok(v) if depth(&v) <= MAX_DEPTH => Ok(v),
        _ => parse(format, text),
    }
}

/// Nesting depth of arrays and objects (`1` for `[]`, `0` for a scalar).
fn depth(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        serde_json::Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Deserialise a document already parsed (by [`parse`], so its depth was checked) as `T`,
/// moving its strings. `None` on a shape error: the caller reads the text again with
/// [`parse`] (or the format's own parser) for the error with its pointer, line and column.
pub fn from_value<T: DeserializeOwned>(v: serde_json::Value) -> Option<T> {
    T::deserialize(v).ok()
}

/// The JSON pointer of a serde path (sequence indexes and map keys; other segments carry no
/// place in the document).
pub fn path_pointer(path: &serde_path_to_error::Path) -> String {
    path.iter()
        .filter_map(|seg| match seg {
            serde_path_to_error::Segment::Seq { index } => Some(format!("/{index}")),
            serde_path_to_error::Segment::Map { key } => Some(format!("/{}", escape(key))),
            _ => None,
        })
        .collect()
}

/// Deserialise `v` as `T`; a shape error is the pointer (relative to `v`) of the element that
/// does not fit, and serde's message. The one place every format reads a sub-document.
pub fn typed<T: DeserializeOwned>(v: serde_json::Value) -> Result<T, (String, String)> {
    serde_path_to_error::deserialize(v)
        .map_err(|e| (path_pointer(e.path()), e.into_inner().to_string()))
}

/// serde_json appends " at line L column C"; we report those as fields.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Fill in the line and column of an error that has a pointer but no position.
pub fn locate_error(mut e: DecodeError, text: &str) -> DecodeError {
    if e.line.is_none() {
        if let Some(offset) = e.pointer.as_deref().and_then(|p| locate(text, p)) {
            let (line, column) = line_column(text, offset);
            e.line = Some(line);
            e.column = Some(column);
        }
    }
    e
}

/// The 1-based line where the element at `pointer` starts in the JSON `text`.
pub fn line_of(text: &str, pointer: &str) -> Option<usize> {
    let at = locate(text, pointer)?;
    Some(
        text.as_bytes()[..at.min(text.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1,
    )
}

/// Byte offset where the value at `pointer` starts in the JSON `text`, if it is there.
/// A small scanner: it does not build the document, so it works on any size of text.
pub fn locate(text: &str, pointer: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut pos = skip_ws(b, 0);
    if pointer.is_empty() {
        return Some(pos);
    }
    for raw in pointer.strip_prefix('/')?.split('/') {
        let token = raw.replace("~1", "/").replace("~0", "~");
        match *b.get(pos)? {
            b'{' => {
                pos = skip_ws(b, pos + 1);
                loop {
                    if *b.get(pos)? != b'"' {
                        return None;
                    }
                    let end = skip_string(b, pos)?;
                    let key: String = serde_json::from_str(text.get(pos..end)?).ok()?;
                    pos = skip_ws(b, end);
                    if *b.get(pos)? != b':' {
                        return None;
                    }
                    pos = skip_ws(b, pos + 1);
                    if key == token {
                        break;
                    }
                    pos = skip_ws(b, skip_value(b, pos)?);
                    match *b.get(pos)? {
                        b',' => pos = skip_ws(b, pos + 1),
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let index: usize = token.parse().ok()?;
                pos = skip_ws(b, pos + 1);
                for _ in 0..index {
                    pos = skip_ws(b, skip_value(b, pos)?);
                    match *b.get(pos)? {
                        b',' => pos = skip_ws(b, pos + 1),
                        _ => return None,
                    }
                }
                if *b.get(pos)? == b']' {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(pos)
}

/// Byte range `[start, end)` of the value at `pointer` in the JSON `text` (from its first byte
/// to just past its last: the braces of an object, the quotes of a string), if it is there.
pub fn span(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let start = locate(text, pointer)?;
    let end = skip_value(text.as_bytes(), start)?;
    (end > start && end <= text.len()).then_some((start, end))
}

fn skip_ws(b: &[u8], mut pos: usize) -> usize {
    while pos < b.len() && b[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// Offset just past the string starting at `pos`.
fn skip_string(b: &[u8], mut pos: usize) -> Option<usize> {
    pos += 1;
    while pos < b.len() {
        match b[pos] {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            _ => pos += 1,
        }
    }
    None
}

/// Offset just past the value starting at `pos` (iterative: no recursion on deep nesting).
fn skip_value(b: &[u8], mut pos: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *b.get(pos)? {
            b'"' => pos = skip_string(b, pos)?,
            b'{' | b'[' => {
                depth += 1;
                pos += 1;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                pos += 1;
            }
            b',' | b':' if depth > 0 => pos += 1,
            c if c.is_ascii_whitespace() && depth > 0 => pos += 1,
            _ if depth == 0 => {
                // A scalar: runs to the next delimiter.
                while pos < b.len()
                    && !matches!(b[pos], b',' | b'}' | b']')
                    && !b[pos].is_ascii_whitespace()
                {
                    pos += 1;
                }
                return Some(pos);
            }
            _ => pos += 1,
        }
        if depth == 0 {
            return Some(pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn json_locate_finds_nested_pointer() {
        let text = "{\n  \"a\": [1, {\"b~/c\": \"x\"}],\n  \"d\": {\"e\": true}\n}";
        let off = locate(text, "/a/1/b~0~1c").unwrap();
        assert_eq!(&text[off..off + 3], "\"x\"");
        assert_eq!(line_column(text, off), (2, 21));
        let off = locate(text, "/d/e").unwrap();
        assert_eq!(&text[off..off + 4], "true");
        assert_eq!(locate(text, "/a/5"), None);
        assert_eq!(locate(text, "/zz"), None);
    }

    #[test]
    fn json_span_covers_the_whole_value() {
        let text =
            "{\n  \"a\": [1, {\"b\": \"x]\"}],\n  \"d\": {\"e\": [true, null]} ,\"n\": -1.5e3\n}";
        let at = |p: &str| span(text, p).map(|(s, e)| &text[s..e]);
        assert_eq!(at("/a"), Some("[1, {\"b\": \"x]\"}]"));
        assert_eq!(at("/a/1"), Some("{\"b\": \"x]\"}"));
        assert_eq!(at("/a/1/b"), Some("\"x]\""));
        assert_eq!(at("/d/e/1"), Some("null"));
        assert_eq!(at("/n"), Some("-1.5e3"));
        assert_eq!(at(""), Some(text));
        assert_eq!(at("/zz"), None);
        assert_eq!(span("{\"a\": [1,", "/a"), None, "unterminated");
    }

    #[test]
    fn json_line_column_inside_a_character_does_not_panic() {
        assert_eq!(line_column("é\nx", 1), (1, 1));
        assert_eq!(line_column("ab", 99), (1, 3));
    }

    #[test]
    fn json_parse_error_has_line_column() {
        let e = parse::<Value>("t", "{\n  \"a\": [1,,]\n}").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(11)));
        assert!(e.pointer.is_none());
    }

    #[test]
    fn json_shape_error_has_pointer() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            a: Vec<u32>,
        }
        let e = parse::<T>("t", "{\"a\": [1,\n  \"two\"]}").unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("/a/1"));
        assert_eq!((e.line, e.column), (Some(2), Some(3)));
    }

    #[test]
    fn json_depth_scanner_skips_strings() {
        assert_eq!(too_deep(b"[[[]]]", 3), None);
        assert_eq!(too_deep(b"[[[[]]]]", 3), Some(3));
        assert_eq!(too_deep(br#"["[[[[\"[[", {"a": "{{{{"}]"#, 2), None);
        assert_eq!(too_deep(br#"[{"a\\": [[]]}]"#, 3), Some(10));
    }

    #[test]
    fn json_parse_refuses_deep_nesting_at_the_bracket() {
        let text = format!(
            "{{\"a\":\n{}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        let e = parse::<Value>("t", &text).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(MAX_DEPTH)));
        assert!(
            e.message.contains("deeper than 100 levels"),
            "{}",
            e.message
        );
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse::<Value>("t", &ok).is_ok());
    }

    #[test]
    fn json_parse_value_is_parse_of_a_value() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        for text in [
            "{\"a\": [1, {\"b\": null}]}".to_string(),
            "{} x".into(),
            "[1,,]".into(),
            deep(MAX_DEPTH),
            deep(MAX_DEPTH + 1),
            deep(130),
            format!("{{\"a\": {}", deep(120)),
        ] {
            assert_eq!(
                parse_value("t", &text),
                parse::<Value>("t", &text),
                "{text}"
            );
        }
    }

    #[test]
    fn json_pretty_is_serde_json_pretty() {
        let deep = (0..80).fold(
            serde_json::json!([1, {}, []]),
            |v, i| serde_json::json!({"k": v, "i": i, "e": [], "o": {}, "s": "a\"b\n", "f": 1.5}),
        );
        for v in [
            deep,
            serde_json::json!(null),
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!([[], {}, [[1]], {"a": {"b": []}}]),
        ] {
            assert_eq!(pretty(&v), serde_json::to_string_pretty(&v).unwrap());
        }
    }

    #[test]
    fn json_trailing_garbage_is_an_error() {
        assert!(parse::<Value>("t", "{} x").is_err());
    }
}
