//! `pattern` and `patternProperties` regexes: ECMA-262 syntax run by `regex-lite` (linear-time
//! matching, no Unicode tables). ECMA's `\d`, `\w`, `\s` are ASCII classes there too; the few ECMA
//! escapes `regex-lite` reads differently are translated. What it cannot run at all (look-around,
//! back-references, Unicode property classes) is "unchecked", not a compile error.

use regex_lite::{Regex, RegexBuilder};

/// Longest pattern compiled; longer ones are unchecked.
const MAX_PATTERN_LEN: usize = 4096;
/// Compiled program size limit (bytes) of one regex.
const MAX_REGEX_SIZE: usize = 1 << 20;
/// Group nesting limit of one regex.
const MAX_REGEX_NEST: u32 = 64;

/// A compiled pattern, or why it is not checked.
#[derive(Debug)]
pub enum Pattern {
    /// Runs.
    Regex(Regex),
    /// Syntax this engine does not run: skipped, reported.
    Unsupported(String),
}

impl Pattern {
    /// `Some(matches)` when the pattern runs, `None` when it is unchecked.
    pub fn test(&self, s: &str) -> Option<bool> {
        match self {
            Pattern::Regex(r) => Some(r.is_match(s)),
            Pattern::Unsupported(_) => None,
        }
    }
}

/// Compile an ECMA-262 pattern; `Err` when it is no valid regex at all.
pub fn compile(source: &str) -> Result<Pattern, String> {
    if source.len() > MAX_PATTERN_LEN {
        return Ok(Pattern::Unsupported(format!(
            "pattern longer than {MAX_PATTERN_LEN} bytes"
        )));
    }
    let translated = translate(source);
    match RegexBuilder::new(&translated)
        .size_limit(MAX_REGEX_SIZE)
        .nest_limit(MAX_REGEX_NEST)
        .build()
    {
        Ok(r) => Ok(Pattern::Regex(r)),
        Err(e) => {
            let msg = e.to_string();
            // regex-lite says "… not supported" for valid syntax it lacks (look-around,
            // back-references, \p{…}, class set operations) and names its size limits.
            if msg.contains("not supported") || msg.contains("limit") {
                Ok(Pattern::Unsupported(msg))
            } else {
                Err(msg)
            }
        }
    }
}

/// Rewrite the ECMA escapes `regex-lite` reads otherwise: `\<` `\>` are literals in ECMA (word
/// boundaries in regex-lite), `\0` is NUL (a back-reference there), `\cX` a control character.
fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('<') => out.push('<'),
            Some('>') => out.push('>'),
            Some('0') if !chars.peek().is_some_and(|d| d.is_ascii_digit()) => {
                out.push_str("\\x00");
            }
            Some('c') if chars.peek().is_some_and(|l| l.is_ascii_alphabetic()) => {
                let l = chars.next().map_or(0, |l| l as u32 % 32);
                out.push_str(&format!("\\x{l:02X}"));
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(p: &str, s: &str) -> Option<bool> {
        compile(p).ok()?.test(s)
    }

    #[test]
    fn pattern_ecma_basics_run() {
        assert_eq!(runs("^[A-Z]{2}$", "FR"), Some(true));
        assert_eq!(runs("^\\/x$", "/x"), Some(true));
        assert_eq!(runs("\\d", "٣"), Some(false), "ECMA \\d is ASCII");
        assert_eq!(runs("a\\<b", "a<b"), Some(true));
        assert_eq!(runs("^\\0$", "\0"), Some(true));
        assert_eq!(runs("^\\cJ$", "\n"), Some(true));
        assert_eq!(runs("\\u0041", "A"), Some(true));
        assert_eq!(runs("b", "abc"), Some(true), "unanchored, like ECMA test()");
    }

    #[test]
    fn pattern_unsupported_is_unchecked_invalid_is_error() {
        assert!(matches!(compile("(?=a)b"), Ok(Pattern::Unsupported(_))));
        assert!(matches!(compile("(a)\\1"), Ok(Pattern::Unsupported(_))));
        assert!(matches!(compile("\\p{L}"), Ok(Pattern::Unsupported(_))));
        assert!(matches!(
            compile(&"a".repeat(5000)),
            Ok(Pattern::Unsupported(_))
        ));
        assert!(compile("[").is_err());
        assert!(compile("a)").is_err());
    }

    #[test]
    fn pattern_size_limit_is_unchecked_not_a_hang() {
        let p = "(a{1,100}){1,100}{1,100}";
        assert!(matches!(compile(p), Ok(Pattern::Unsupported(_))));
    }
}
