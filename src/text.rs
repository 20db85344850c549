//! Text helpers shared by the model, the streams and the formats (none of which this module
//! imports): JSON pointer tokens, XML escaping and positions in a text.

/// Escape one JSON pointer token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Escape text for XML element content: `&`, `<` and `>` as entities (quotes are left alone).
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    // Never slice inside a character: step back to the boundary.
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// A JSON pointer built as a chain of segments and rendered only when displayed: encoders and
/// decoders pass one down to every element, but only a loss or an error ever writes it out.
/// `Ptr::ROOT.key("messages").index(3)` displays as `/messages/3`.
#[derive(Debug, Clone, Copy)]
pub struct Ptr<'a> {
    parent: Option<&'a Ptr<'a>>,
    seg: Seg<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Root,
    /// A pointer already written out.
    Written(&'a str),
    Key(&'a str),
    Index(usize),
}

impl<'a> Ptr<'a> {
    /// The whole document (displays as the empty string).
    pub const ROOT: Ptr<'static> = Ptr {
        parent: None,
        seg: Seg::Root,
    };

    /// A pointer already written out, to extend.
    pub fn written(pointer: &'a str) -> Ptr<'a> {
        Ptr {
            parent: None,
            seg: Seg::Written(pointer),
        }
    }

    /// The member `key` of this object (escaped when displayed).
    pub fn key(&'a self, key: &'a str) -> Ptr<'a> {
        Ptr {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    /// The element `index` of this array.
    pub fn index(&'a self, index: usize) -> Ptr<'a> {
        Ptr {
            parent: Some(self),
            seg: Seg::Index(index),
        }
    }

    /// The pointer this one extends (`None` for the root and for a pointer written out).
    pub fn parent(&self) -> Option<&'a Ptr<'a>> {
        self.parent
    }
}

impl std::fmt::Display for Ptr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(parent) = self.parent {
            parent.fmt(f)?;
        }
        match self.seg {
            Seg::Root => Ok(()),
            Seg::Written(p) => f.write_str(p),
            Seg::Key(k) if k.contains(['~', '/']) => write!(f, "/{}", escape(k)),
            Seg::Key(k) => write!(f, "/{k}"),
            Seg::Index(i) => write!(f, "/{i}"),
        }
    }
}

/// Push `s` in double quotes with the escapes Python, JavaScript and JSON share (quote,
/// backslash, `\n`, `\r`, `\t`); `other` writes every other character.
pub fn push_quoted(s: &str, out: &mut String, other: impl Fn(char, &mut String)) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => other(c, out),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::Ptr;

    #[test]
    fn text_ptr_renders_like_a_built_pointer() {
        let root = Ptr::ROOT;
        assert_eq!(root.to_string(), "");
        let messages = root.key("messages");
        let m = messages.index(12);
        let calls = m.key("tool_calls");
        assert_eq!(calls.index(0).to_string(), "/messages/12/tool_calls/0");
        assert_eq!(
            calls.index(0).parent().map(Ptr::to_string).as_deref(),
            Some("/messages/12/tool_calls")
        );
        assert!(root.parent().is_none());
        let odd = m.key("extra");
        assert_eq!(odd.key("a/b~c").to_string(), "/messages/12/extra/a~1b~0c");
        let base = Ptr::written("/tools/3");
        assert_eq!(
            base.key("input_schema").to_string(),
            "/tools/3/input_schema"
        );
    }
}
