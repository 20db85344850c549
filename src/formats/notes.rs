//! "How this format differs": one short note per format, shown next to its pane. Each field is
//! one sentence, taken from the format's `mod.rs` doc and converter (which say it in full,
//! with every loss); each format's note is its `Spec::NOTE`.

use super::Format;

/// What sets a format apart, field by field; each one plain-text sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Note {
    /// How call arguments travel (JSON string or object, …).
    pub arguments: &'static str,
    /// Where tool results live and how an error is said.
    pub results: &'static str,
    /// How calls and results pair (ids, their rules, or order and name).
    pub ids: &'static str,
    /// What tool_choice (and the parallel-calls switch) can say.
    pub choice: &'static str,
    /// The rest worth knowing first.
    pub other: &'static str,
}

impl Note {
    /// The fields with labels, in display order.
    pub fn rows(&self) -> [(&'static str, &'static str); 5] {
        [
            ("Arguments", self.arguments),
            ("Results", self.results),
            ("Ids", self.ids),
            ("Tool choice", self.choice),
            ("Other", self.other),
        ]
    }
}

/// The note of a format (each format's `Spec::NOTE`, in its folder).
pub fn note(format: Format) -> Note {
    format.note()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_every_format_has_five_sentences() {
        for f in Format::ALL {
            for (label, text) in note(f).rows() {
                assert!(!text.trim().is_empty(), "{} {label}", f.id());
                assert!(text.ends_with('.'), "{} {label}: {text}", f.id());
                // One sentence: no full stop followed by a new sentence inside.
                assert!(!text.contains(". "), "{} {label}: {text}", f.id());
                assert!(
                    text.len() <= 200,
                    "{} {label}: {} chars",
                    f.id(),
                    text.len()
                );
            }
        }
    }

    #[test]
    fn notes_say_what_sets_formats_apart() {
        // Spot checks against the converters: argument type and pairing.
        assert!(note(Format::OpenAiChat).arguments.contains("JSON string"));
        assert!(note(Format::Anthropic).arguments.contains("JSON object"));
        assert!(note(Format::Gemini).ids.contains("order and `name`"));
        assert!(note(Format::Ollama).ids.starts_with("None"));
        assert!(note(Format::Mistral).ids.contains("9"));
        assert!(note(Format::Mcp).choice.starts_with("None"));
        // Formats that share a protocol still differ somewhere.
        for a in Format::ALL {
            for b in Format::ALL {
                if a != b {
                    assert_ne!(note(a), note(b), "{} and {}", a.id(), b.id());
                }
            }
        }
    }
}
