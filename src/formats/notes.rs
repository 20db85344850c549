//! TEMPORARY stand-in until the share branch merges (same API).
use super::Format;
/// Note.
pub struct Note { pub arguments: &'static str, pub results: &'static str, pub ids: &'static str, pub choice: &'static str, pub other: &'static str }
/// note.
pub fn note(_f: Format) -> Note { Note { arguments: "", results: "", ids: "", choice: "", other: "" } }
