//! TEMPORARY stand-in until the share branch merges (same API).
use crate::formats::Kind;
use crate::model::Exchange;
/// State.
pub struct State { pub exchange: Exchange, pub kind: Kind, pub panes: Vec<String>, pub compare: Option<(String, String)>, pub replay: Option<String> }
/// Error.
#[derive(Debug)]
pub struct ShareError(pub String);
impl std::fmt::Display for ShareError { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(&self.0) } }
/// to.
pub fn to_fragment(s: &State) -> Result<String, ShareError> { Ok(format!("v1.{}", to_file(s).len())) }
/// from.
pub fn from_fragment(_f: &str) -> Result<State, ShareError> { Err(ShareError("stub".into())) }
/// to.
pub fn to_file(s: &State) -> String { serde_json::to_string(&s.exchange).unwrap_or_default() }
/// from.
pub fn from_file(_t: &str) -> Result<State, ShareError> { Err(ShareError("stub".into())) }
