//! TEMPORARY stand-in until the schemaval branch merges (same API).
use crate::formats::{Format, Kind};
use crate::model::Exchange;
/// Element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element { Tool(usize), Call { message: usize, part: usize }, Result { message: usize, part: usize } }
impl Element { /// from.
 pub fn from_pointer(_p: &str) -> Option<Element> { None } }
/// Span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span { pub start: usize, pub end: usize }
/// spans.
pub fn spans(_x: &Exchange, _f: Format, _k: Kind) -> Vec<(Element, Span)> { Vec::new() }
/// spans.
pub fn canonical_spans(_x: &Exchange, _t: &str) -> Vec<(Element, Span)> { Vec::new() }
/// at.
pub fn element_at(_s: &[(Element, Span)], _o: usize) -> Option<Element> { None }
