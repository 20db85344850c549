//! Limits on what the decoders read, so a hostile or accidental paste fails fast with a message
//! naming the limit instead of freezing the page: the size of the text (checked before any
//! parsing), the nesting depth ([`super::json::MAX_DEPTH`], checked by every JSON parse), and
//! the numbers of messages and tools of a decoded exchange.

use super::DecodeError;
use crate::model::Exchange;

/// Largest document read, in bytes. A 2,000-message exchange is about 1 MB in any format;
/// a replayed response may be larger ([`crate::replay::MAX_INPUT`]) but its body as a
/// whole document stays within this.
pub const MAX_INPUT: usize = 16 * 1024 * 1024;
/// Most messages in a decoded exchange.
pub const MAX_MESSAGES: usize = 10_000;
/// Most tools in a decoded exchange.
pub const MAX_TOOLS: usize = 1_000;

/// The error for text over [`MAX_INPUT`].
pub fn check_size(format: Option<&'static str>, text: &str) -> Result<(), DecodeError> {
    if text.len() <= MAX_INPUT {
        return Ok(());
    }
    Err(DecodeError {
        format,
        pointer: None,
        line: None,
        column: None,
        message: format!(
            "the document is {} bytes; at most {} MiB ({MAX_INPUT} bytes) is read",
            text.len(),
            MAX_INPUT / (1024 * 1024)
        ),
    })
}

/// The error for an exchange with more than [`MAX_MESSAGES`] messages or [`MAX_TOOLS`] tools.
pub fn check_counts(format: &'static str, x: &Exchange) -> Result<(), DecodeError> {
    let checks = [
        ("messages", "/messages", x.messages.len(), MAX_MESSAGES),
        ("tools", "/tools", x.tools.len(), MAX_TOOLS),
    ];
    for (what, pointer, n, limit) in checks {
        if n > limit {
            return Err(DecodeError {
                format: Some(format),
                pointer: (format == "canonical").then(|| pointer.to_string()),
                line: None,
                column: None,
                message: format!("the document holds {n} {what}; at most {limit} are read"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Message, Part, Role};

    #[test]
    fn limits_size_names_the_limit() {
        assert!(check_size(None, "{}").is_ok());
        let big = " ".repeat(MAX_INPUT + 1);
        let e = check_size(Some("anthropic"), &big).unwrap_err();
        assert_eq!(e.format, Some("anthropic"));
        assert!(e.message.contains("at most 16 MiB"), "{}", e.message);
    }

    #[test]
    fn limits_counts_name_the_limit() {
        let mut x = Exchange {
            messages: vec![Message::new(Role::User, vec![Part::text("hi")]); MAX_MESSAGES],
            ..Exchange::default()
        };
        assert!(check_counts("openai-chat", &x).is_ok());
        x.messages.push(Message::new(Role::User, vec![]));
        let e = check_counts("openai-chat", &x).unwrap_err();
        assert_eq!(
            e.message,
            "the document holds 10001 messages; at most 10000 are read"
        );
        assert_eq!(e.pointer, None);
        let e = check_counts("canonical", &x).unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("/messages"));
    }
}
