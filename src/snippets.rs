//! TEMPORARY stand-in until the share branch merges (same API).
use crate::formats::Format;
/// Lang.
#[derive(Clone, Copy)]
pub enum Lang { Curl, Python, TypeScript }
/// Unavailable.
#[derive(Debug)]
pub struct Unavailable(pub String);
impl std::fmt::Display for Unavailable { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(&self.0) } }
/// snippet.
pub fn snippet(_f: Format, _l: Lang, body: &str) -> Result<String, Unavailable> { Ok(body.to_string()) }
