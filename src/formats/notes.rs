//! "How this format differs": one short note per format, shown next to its pane. Each field is
//! one sentence, taken from the format's `mod.rs` doc and converter (which say it in full,
//! with every loss). The notes are prose, so each is Markdown in its format's folder
//! (`NOTE.md`, the `Spec::NOTE`): `# Name`, then one `## Label` section per field.

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

/// The section labels, in display order (the `##` headings of a `NOTE.md`).
const LABELS: [&str; 5] = ["Arguments", "Results", "Ids", "Tool choice", "Other"];

impl Note {
    /// The fields with labels, in display order.
    pub fn rows(&self) -> [(&'static str, &'static str); 5] {
        let fields = [
            self.arguments,
            self.results,
            self.ids,
            self.choice,
            self.other,
        ];
        std::array::from_fn(|i| (LABELS[i], fields[i]))
    }

    /// The note a `NOTE.md` says: each `## Label` section's text (trimmed); a missing
    /// section is empty (the unit test below keeps every format's note whole).
    pub fn parse(md: &'static str) -> Note {
        let mut fields = [""; 5];
        for section in md.split("\n## ").skip(1) {
            let (label, text) = section.split_once('\n').unwrap_or((section, ""));
            if let Some(i) = LABELS.iter().position(|l| *l == label.trim()) {
                fields[i] = text.trim();
            }
        }
        let [arguments, results, ids, choice, other] = fields;
        Note {
            arguments,
            results,
            ids,
            choice,
            other,
        }
    }
}

/// The `# Title` of a `NOTE.md`: the format's human name.
pub fn title(md: &'static str) -> &'static str {
    md.lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or_default()
        .trim()
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
    fn notes_every_note_md_has_a_title_and_all_sections() {
        for f in Format::ALL {
            let md = f.entry().note;
            assert!(!title(md).is_empty(), "{}", f.id());
            for label in LABELS {
                assert!(
                    md.contains(&format!("\n## {label}\n")),
                    "{} {label}",
                    f.id()
                );
            }
        }
        assert_eq!(Format::OpenAiChat.name(), "OpenAI Chat Completions");
        assert_eq!(Format::Mcp.name(), "MCP (JSON-RPC)");
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
