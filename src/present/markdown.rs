//! A small, safe markdown reader for assistant text and the page's messages: blocks and
//! inlines as data, which the page renders as elements (never as HTML): raw HTML in the text
//! stays text, links keep only `http`, `https` and `mailto` targets.

/// A block of the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `#` … `######` heading (level 1 to 6).
    Heading(u8, Vec<Inline>),
    /// A paragraph (lines joined by spaces).
    Para(Vec<Inline>),
    /// A bulleted (`-`, `*`, `+`) or numbered (`1.`) list.
    List {
        /// Numbered.
        ordered: bool,
        /// Each item's inlines.
        items: Vec<Vec<Inline>>,
    },
    /// A fenced code block.
    Code {
        /// The info string after the fence ("json"), maybe empty.
        lang: String,
        /// The code, as written.
        text: String,
    },
    /// A `>` quote.
    Quote(Vec<Inline>),
}

/// A run of text inside a block.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    /// Plain text.
    Text(String),
    /// `code`.
    Code(String),
    /// **strong**.
    Strong(String),
    /// *emphasis* or _emphasis_.
    Em(String),
    /// [text](href), with a safe target.
    Link {
        /// What shows.
        text: String,
        /// Where it goes.
        href: String,
    },
}

/// Read `text` as markdown blocks.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Option<(bool, Vec<Vec<Inline>>)> = None;
    let mut lines = text.lines();
    let flush_para = |para: &mut Vec<&str>, out: &mut Vec<Block>| {
        if !para.is_empty() {
            out.push(Block::Para(inlines(&para.join(" "))));
            para.clear();
        }
    };
    let flush_list = |list: &mut Option<(bool, Vec<Vec<Inline>>)>, out: &mut Vec<Block>| {
        if let Some((ordered, items)) = list.take() {
            out.push(Block::List { ordered, items });
        }
    };
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            flush_para(&mut para, &mut out);
            flush_list(&mut list, &mut out);
            let mut code = Vec::new();
            for l in lines.by_ref() {
                if l.trim_start().starts_with("```") {
                    break;
                }
                code.push(l);
            }
            out.push(Block::Code {
                lang: info.trim().to_string(),
                text: code.join("\n"),
            });
            continue;
        }
        if t.is_empty() {
            flush_para(&mut para, &mut out);
            flush_list(&mut list, &mut out);
            continue;
        }
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            flush_para(&mut para, &mut out);
            flush_list(&mut list, &mut out);
            out.push(Block::Heading(hashes as u8, inlines(t[hashes..].trim())));
            continue;
        }
        if let Some(q) = t.strip_prefix('>') {
            flush_para(&mut para, &mut out);
            flush_list(&mut list, &mut out);
            out.push(Block::Quote(inlines(q.trim())));
            continue;
        }
        if let Some((ordered, item)) = list_item(t) {
            flush_para(&mut para, &mut out);
            match &mut list {
                Some((o, items)) if *o == ordered => items.push(inlines(item)),
                _ => {
                    flush_list(&mut list, &mut out);
                    list = Some((ordered, vec![inlines(item)]));
                }
            }
            continue;
        }
        flush_list(&mut list, &mut out);
        para.push(t.trim_end());
    }
    flush_para(&mut para, &mut out);
    flush_list(&mut list, &mut out);
    out
}

fn list_item(t: &str) -> Option<(bool, &str)> {
    for b in ["- ", "* ", "+ "] {
        if let Some(rest) = t.strip_prefix(b) {
            return Some((false, rest));
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits < 10 {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some((true, r));
        }
    }
    None
}

/// Read one line's inlines: `code`, **strong**, *em* / _em_, [text](href).
pub fn inlines(s: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = s;
    let push_plain = |plain: &mut String, out: &mut Vec<Inline>| {
        if !plain.is_empty() {
            out.push(Inline::Text(std::mem::take(plain)));
        }
    };
    while let Some(c) = rest.chars().next() {
        let found = match c {
            '`' => delimited(rest, "`").map(|(inner, n)| (Inline::Code(inner.into()), n)),
            '*' if rest.starts_with("**") => {
                delimited(rest, "**").map(|(inner, n)| (Inline::Strong(inner.into()), n))
            }
            '*' => delimited(rest, &rest[..1])
                .filter(|(inner, _)| !inner.starts_with(' '))
                .map(|(inner, n)| (Inline::Em(inner.into()), n)),
            '[' => link(rest),
            _ => None,
        };
        match found {
            Some((inline, n)) => {
                push_plain(&mut plain, &mut out);
                out.push(inline);
                rest = &rest[n..];
            }
            None => {
                plain.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    push_plain(&mut plain, &mut out);
    out
}

/// `rest` starts with `d`: the text up to the closing `d` and the bytes consumed.
fn delimited<'a>(rest: &'a str, d: &str) -> Option<(&'a str, usize)> {
    let body = rest.get(d.len()..)?;
    let end = body.find(d)?;
    (end > 0).then(|| (&body[..end], d.len() * 2 + end))
}

fn link(rest: &str) -> Option<(Inline, usize)> {
    let close = rest.find("](")?;
    let text = &rest[1..close];
    let after = &rest[close + 2..];
    let end = after.find(')')?;
    let href = after[..end].trim();
    let safe = ["http://", "https://", "mailto:"]
        .iter()
        .any(|p| href.to_ascii_lowercase().starts_with(p));
    let inline = if safe {
        Inline::Link {
            text: text.to_string(),
            href: href.to_string(),
        }
    } else {
        Inline::Text(text.to_string())
    };
    Some((inline, close + 2 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_inlines() {
        let b = blocks(
            "# Title\n\nIt is **18 °C** in `Paris`.\n\n- one\n- two\n\n```json\n{\"a\":1}\n```",
        );
        assert_eq!(b[0], Block::Heading(1, vec![Inline::Text("Title".into())]));
        assert_eq!(
            b[1],
            Block::Para(vec![
                Inline::Text("It is ".into()),
                Inline::Strong("18 °C".into()),
                Inline::Text(" in ".into()),
                Inline::Code("Paris".into()),
                Inline::Text(".".into()),
            ])
        );
        assert!(matches!(&b[2], Block::List { ordered: false, items } if items.len() == 2));
        assert_eq!(
            b[3],
            Block::Code {
                lang: "json".into(),
                text: "{\"a\":1}".into()
            }
        );
    }

    #[test]
    fn html_stays_text_and_unsafe_links_lose_their_target() {
        let b = blocks("<script>alert(1)</script> [x](javascript:alert(1)) [y](https://a.b)");
        let Block::Para(i) = &b[0] else {
            panic!("{b:?}")
        };
        assert_eq!(i[0], Inline::Text("<script>alert(1)</script> ".into()));
        assert_eq!(i[1], Inline::Text("x".into()));
        assert_eq!(
            i[3],
            Inline::Link {
                text: "y".into(),
                href: "https://a.b".into()
            }
        );
    }

    #[test]
    fn unclosed_marks_stay_text() {
        assert_eq!(inlines("a * b `c"), vec![Inline::Text("a * b `c".into())]);
    }
}
