//! Version 2 of the link, frozen like [`super::v1`]: `tests/fixtures/share/v2.txt` must decode
//! to `v2.state.json` forever, and [`DICTIONARY`] never changes (a v2 link's back-references
//! point into it).
//!
//! `v2.<base64url(deflate-raw(json, preset dictionary))>`. Shorter than v1 in two ways:
//!
//! - the document leaves out what a reader can fill in: the `toolscope`/`version` header (the
//!   prefix says it), `kind` when it is `request`, `panes` when they are every format in display
//!   order; `{"exchange": {…}}` is a whole v2 document;
//! - the DEFLATE stream starts with [`DICTIONARY`] in its window: the canonical model's keys and
//!   the strings every exchange repeats (`{"type":"object","properties":`, `"role":"assistant"`,
//!   …), so even the first occurrence of each is a short back-reference. The writer compresses
//!   the dictionary, flushes (a sync flush ends on a byte boundary) and keeps only what follows;
//!   the reader inflates into a buffer that already holds the dictionary.
//!
//! Files stay v1 (pretty, self-describing); v2 is a link's form only.

use super::v1::KindV1;
use super::{CostState, Origin, ShareError, State, MAX_EXPANDED};
use crate::formats::{Format, Kind};
use crate::model::Exchange;
use miniz_oxide::deflate::core::{
    compress_to_output, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;
use serde::{Deserialize, Serialize};

/// The preset dictionary: what a state's JSON repeats most, the most frequent last (DEFLATE
/// codes near distances in fewer bits), kept as bytes in `v2.dictionary.txt`. Frozen: changing
/// one byte breaks every v2 link.
pub const DICTIONARY: &str = include_str!("v2.dictionary.txt");

/// DEFLATE level of links: miniz's best.
pub const LEVEL: u8 = 10;

/// The document as written: borrowed; defaults left out.
#[derive(Serialize)]
struct DocRef<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<KindV1>,
    #[serde(skip_serializing_if = "Option::is_none")]
    panes: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<(&'a str, &'a str)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    replay: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<&'a CostState>,
    exchange: &'a Exchange,
}

/// The document as read. Unknown fields are ignored, as in v1: a later v2 writer may add
/// optional ones.
#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    kind: Option<KindV1>,
    #[serde(default)]
    panes: Option<Vec<String>>,
    #[serde(default)]
    compare: Option<(String, String)>,
    #[serde(default)]
    replay: Option<String>,
    #[serde(default)]
    cost: Option<CostState>,
    exchange: Exchange,
}

/// True when `panes` are every format in display order (what [`State::new`] shows).
fn default_panes(panes: &[String]) -> bool {
    panes.len() == Format::ALL.len() && panes.iter().zip(Format::ALL).all(|(p, f)| p == f.id())
}

/// The compact document of a state.
pub fn to_compact(s: &State) -> String {
    let doc = DocRef {
        kind: (s.kind == Kind::Response).then_some(KindV1::Response),
        panes: (!default_panes(&s.panes)).then_some(s.panes.as_slice()),
        compare: s.compare.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
        replay: s.replay.as_deref(),
        cost: s.cost.as_ref(),
        exchange: &s.exchange,
    };
    // Plain data with string keys: serialising cannot fail.
    serde_json::to_string(&doc).unwrap_or_default()
}

/// Read a v2 document (its depth was checked). Shape errors carry the JSON pointer.
pub fn read(text: &str) -> Result<State, ShareError> {
    let d: Doc = super::parse_doc(text, Origin::Link)?;
    Ok(State {
        exchange: d.exchange,
        kind: match d.kind {
            Some(KindV1::Response) => Kind::Response,
            Some(KindV1::Request) | None => Kind::Request,
        },
        panes: d
            .panes
            .unwrap_or_else(|| Format::ALL.iter().map(|f| f.id().to_string()).collect()),
        compare: d.compare,
        replay: d.replay,
        cost: d.cost,
    })
}

/// Raw DEFLATE of `data` with [`DICTIONARY`] as its preset dictionary.
pub fn deflate(data: &[u8], level: u8) -> Vec<u8> {
    // Raw DEFLATE (negative window bits), default strategy.
    let flags = create_comp_flags_from_zip_params(level.into(), -15, 0);
    let mut c = CompressorOxide::new(flags);
    // The dictionary goes through the compressor so its window and hash chains hold it; its
    // output, up to the sync flush's byte boundary, is not part of the link.
    let (status, _) = compress_to_output(&mut c, DICTIONARY.as_bytes(), TDEFLFlush::Sync, |_| true);
    debug_assert_eq!(status, TDEFLStatus::Okay);
    let mut out = Vec::with_capacity(data.len() / 4 + 16);
    let (status, _) = compress_to_output(&mut c, data, TDEFLFlush::Finish, |chunk| {
        out.extend_from_slice(chunk);
        true
    });
    debug_assert_eq!(status, TDEFLStatus::Done);
    out
}

/// Inflate a [`deflate`] stream, stopping past [`MAX_EXPANDED`] bytes of output.
pub fn inflate(mut input: &[u8]) -> Result<Vec<u8>, ShareError> {
    let dict = DICTIONARY.as_bytes();
    let limit = dict.len() + MAX_EXPANDED + 1;
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    // The output buffer starts with the dictionary: back-references reach into it.
    let mut out = dict.to_vec();
    out.resize((dict.len() + input.len().saturating_mul(4)).min(limit), 0);
    let mut d = Box::<DecompressorOxide>::default();
    let mut pos = dict.len();
    loop {
        let (status, consumed, produced) = decompress(&mut d, input, &mut out, pos, flags);
        pos += produced;
        match status {
            TINFLStatus::Done => break,
            TINFLStatus::HasMoreOutput => {
                input = input.get(consumed..).ok_or(ShareError::Corrupt)?;
                if out.len() >= limit {
                    return Err(ShareError::TooLarge {
                        origin: Origin::Link,
                        limit: MAX_EXPANDED,
                    });
                }
                let grown = out.len().saturating_mul(2).min(limit);
                out.resize(grown, 0);
            }
            TINFLStatus::NeedsMoreInput | TINFLStatus::FailedCannotMakeProgress => {
                return Err(ShareError::Truncated)
            }
            _ => return Err(ShareError::Corrupt),
        }
    }
    out.truncate(pos);
    out.drain(..dict.len());
    if out.len() > MAX_EXPANDED {
        return Err(ShareError::TooLarge {
            origin: Origin::Link,
            limit: MAX_EXPANDED,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_v2_dictionary_is_frozen() {
        // FNV-1a of the dictionary: a v2 link made today must open tomorrow.
        let hash = DICTIONARY.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        assert_eq!((DICTIONARY.len(), hash), (1717, 0x5a02732c4ccbd9c4));
    }

    #[test]
    fn share_v2_deflate_round_trips_and_uses_the_dictionary() {
        for text in ["", "x", "{\"exchange\":{}}", &"ab".repeat(40_000)] {
            let packed = deflate(text.as_bytes(), LEVEL);
            assert_eq!(inflate(&packed).expect("inflates"), text.as_bytes());
        }
        // A string of the dictionary costs a back-reference, not its bytes.
        let text = r#"{"role":"assistant","parts":[{"type":"tool_call","id":"call_"#;
        let with = deflate(text.as_bytes(), LEVEL).len();
        let without = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), LEVEL).len();
        assert!(with * 3 < without, "{with} vs {without}");
        // Plain DEFLATE (no dictionary) of other text reads as long as it refers to nothing
        // before its start; a reference into the dictionary without it does not.
        let plain = miniz_oxide::deflate::compress_to_vec(b"hello hello hello", LEVEL);
        assert_eq!(inflate(&plain).expect("plain"), b"hello hello hello");
    }
}
