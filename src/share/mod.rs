//! Share and keep: the whole playground state as a link fragment, a file or a localStorage
//! value, and back, with limits that make a hostile link fail fast with a clear message.
//!
//! A link fragment is `v2.<base64url(deflate-raw(json))>` ([`v2`]: a compact document without
//! defaults, compressed with a preset dictionary): the version first, so [`from_fragment`]
//! dispatches on it. `v1.` links ([`v1`]: the same document a file holds, compact, plain raw
//! DEFLATE) open exactly as they always did.
//!
//! Opening a link checks, in order and before any parsing: the fragment length, the version,
//! base64url, the size after decompression (the inflater stops at [`MAX_EXPANDED`], so a zip
//! bomb costs 4 MiB, not 100 MB), the nesting depth (a scanner of our own, so serde never
//! recurses deeper than [`MAX_DEPTH`]); then the document's shape (errors carry the JSON
//! pointer), the numbers of messages and tools, and the replay size. Making a link checks the
//! same limits, so every link Toolscope makes, it also opens.

pub mod base64url;
pub mod media;
pub mod v1;
pub mod v2;

use crate::formats::{json, Format, Kind};
use crate::model::Exchange;
use serde::Deserialize;
use serde_json::Value;
use std::fmt;

/// Longest fragment accepted or made, in characters. Browsers cap a URL at about 2 MB
/// (Chromium: 2 MiB), and the origin and path need room.
pub const MAX_LINK_LEN: usize = 2_000_000;
/// Largest state document accepted or made, in bytes of JSON: the limit on decompression of a
/// link and on the size of an imported file.
pub const MAX_EXPANDED: usize = 4 * 1024 * 1024;
/// Deepest nesting of JSON arrays and objects in a state document. The exchange sits at level
/// 2, a call's arguments at level 7: schemas and arguments keep over 90 levels, and serde_json
/// (which stops at 128) never gets near its own limit. The same as every JSON parse's
/// ([`json::MAX_DEPTH`]), checked first here for the message in the words of links and files.
pub const MAX_DEPTH: usize = json::MAX_DEPTH;
/// Most messages in a state.
pub const MAX_MESSAGES: usize = 5_000;
/// Most tools in a state.
pub const MAX_TOOLS: usize = 1_000;
/// Largest replay (raw stream text) a link carries, in bytes. Files carry any replay within
/// [`MAX_EXPANDED`].
pub const MAX_REPLAY: usize = 1024 * 1024;
/// The link version this Toolscope writes and the newest it reads (files are version 1).
pub const VERSION: u64 = 2;

/// DEFLATE level: miniz's best (`UberCompression`); links are made on a click, rarely, and a
/// few percent shorter is worth the milliseconds.
const LEVEL: u8 = v2::LEVEL;

/// Everything a link, an export file or localStorage restores.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The exchange being edited.
    pub exchange: Exchange,
    /// Request or response view.
    pub kind: Kind,
    /// Visible format panes, by format id, in order.
    pub panes: Vec<String>,
    /// Two format ids shown side by side, if any.
    pub compare: Option<(String, String)>,
    /// Raw stream text for the replay view, if any.
    pub replay: Option<String>,
    /// The Cost view's choices, when it was open or models were picked in it.
    pub cost: Option<CostState>,
}

/// What the Cost view keeps in a link (every field optional: older links have none of it).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, Deserialize)]
pub struct CostState {
    /// The Cost view was the open tab.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// The model shown in detail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Models added to the rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// The open-weight (Hugging Face) model id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hf: Option<String>,
}

impl State {
    /// A fresh state: request view, every format's pane in display order, no comparison and no
    /// replay.
    pub fn new(exchange: Exchange) -> Self {
        State {
            exchange,
            kind: Kind::Request,
            panes: Format::ALL.iter().map(|f| f.id().to_string()).collect(),
            compare: None,
            replay: None,
            cost: None,
        }
    }
}

/// A state read back, with what was adjusted on the way (unknown pane ids left out, …), for
/// the UI to show once.
#[derive(Debug, Clone, PartialEq)]
pub struct Restored {
    /// The state.
    pub state: State,
    /// One sentence per adjustment; empty when the state came back exactly.
    pub notes: Vec<String>,
}

/// Where the text being read or written goes or comes from; it words the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Opening a link.
    Link,
    /// Importing a file (or a localStorage value).
    File,
    /// Making a link.
    Share,
}

/// Why a state could not be shared or restored. `Display` is the message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// Nothing after `#`.
    Empty,
    /// The fragment does not start with `v<version>.`.
    NotALink,
    /// A file without the `"toolscope": "state"` marker.
    NotAStateFile,
    /// Written by a newer Toolscope.
    NewerVersion {
        /// Link or file.
        origin: Origin,
        /// The version it says.
        version: u64,
    },
    /// The fragment is longer than [`MAX_LINK_LEN`] (or would be, when making one).
    LinkTooLong {
        /// Opening or making.
        origin: Origin,
        /// Its length in characters.
        length: usize,
        /// [`MAX_LINK_LEN`].
        limit: usize,
    },
    /// A character outside base64url.
    NotBase64 {
        /// 1-based position of the character in the fragment (after `#`).
        position: usize,
    },
    /// The link was cut: base64 or the compressed data ends early.
    Truncated,
    /// The compressed data is not valid DEFLATE.
    Corrupt,
    /// The document is larger than [`MAX_EXPANDED`].
    TooLarge {
        /// Link, file or making a link.
        origin: Origin,
        /// [`MAX_EXPANDED`].
        limit: usize,
    },
    /// The document nests deeper than [`MAX_DEPTH`].
    TooDeep {
        /// Link, file or making a link.
        origin: Origin,
        /// [`MAX_DEPTH`].
        limit: usize,
        /// 1-based line of the bracket past the limit (files).
        line: Option<usize>,
        /// 1-based column of that bracket (files).
        column: Option<usize>,
    },
    /// The document is not a valid state.
    Invalid {
        /// Link or file.
        origin: Origin,
        /// JSON pointer of the element that does not fit, if it is a shape error.
        pointer: Option<String>,
        /// 1-based line (files: in the file; links: in the compact JSON, rarely useful).
        line: Option<usize>,
        /// 1-based column.
        column: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// More messages or tools than the limit.
    TooMany {
        /// Link, file or making a link.
        origin: Origin,
        /// `messages` or `tools`.
        what: &'static str,
        /// How many there are.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// Making a link: the replay is larger than [`MAX_REPLAY`]. The UI can offer to share
    /// without it (or to export a file).
    ReplayTooLarge {
        /// Its size in bytes.
        size: usize,
        /// [`MAX_REPLAY`].
        limit: usize,
    },
    /// Opening a link whose replay is larger than [`MAX_REPLAY`].
    LinkReplayTooLarge {
        /// Its size in bytes.
        size: usize,
        /// [`MAX_REPLAY`].
        limit: usize,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Origin::*;
        match self {
            ShareError::Empty => f.write_str("This link holds no state (nothing after #)"),
            ShareError::NotALink => {
                f.write_str("This link is not a Toolscope link (expected #v1.…)")
            }
            ShareError::NotAStateFile => f.write_str(
                "This file is not a Toolscope state file (expected {\"toolscope\": \"state\", …})",
            ),
            ShareError::NewerVersion {
                origin: File,
                version,
            } => write!(
                f,
                "This file was made by a newer Toolscope (version {version})"
            ),
            ShareError::NewerVersion { version, .. } => {
                write!(f, "This link was made by a newer Toolscope (v{version})")
            }
            ShareError::LinkTooLong {
                origin: Share,
                length,
                limit,
            } => write!(
                f,
                "The link would be {} characters long; browsers take at most {}",
                count(*length),
                count(*limit)
            ),
            ShareError::LinkTooLong { length, limit, .. } => write!(
                f,
                "The link is {} characters long; links over {} characters are refused",
                count(*length),
                count(*limit)
            ),
            ShareError::NotBase64 { position } => {
                write!(f, "The link is damaged: not base64 at character {position}")
            }
            ShareError::Truncated => f.write_str("The link is damaged: it is cut short"),
            ShareError::Corrupt => f.write_str("The link is damaged: compressed data is corrupt"),
            ShareError::TooLarge { origin, limit } => match origin {
                Link => write!(f, "The link expands beyond {}; refused", size(*limit)),
                File => write!(f, "The file is larger than {}; refused", size(*limit)),
                Share => write!(
                    f,
                    "The state is larger than {}; too large to share as a link",
                    size(*limit)
                ),
            },
            ShareError::TooDeep {
                origin,
                limit,
                line,
                column,
            } => match (origin, line, column) {
                (Link, ..) => write!(
                    f,
                    "The state in the link is nested deeper than {limit} levels; refused"
                ),
                (File, Some(l), Some(c)) => write!(
                    f,
                    "The file is nested deeper than {limit} levels (line {l}, column {c}); refused"
                ),
                (File, ..) => write!(f, "The file is nested deeper than {limit} levels; refused"),
                (Share, ..) => write!(
                    f,
                    "The state is nested deeper than {limit} levels; too deep to share"
                ),
            },
            ShareError::Invalid {
                origin,
                pointer,
                line,
                column,
                message,
            } => {
                match origin {
                    File => f.write_str("The file is not valid: ")?,
                    Link | Share => f.write_str("The state in the link is not valid: ")?,
                }
                if let (File, Some(l), Some(c)) = (origin, line, column) {
                    write!(f, "line {l}, column {c}: ")?;
                }
                if let Some(p) = pointer {
                    write!(f, "{p}: ")?;
                }
                f.write_str(message)
            }
            ShareError::TooMany {
                origin,
                what,
                count: n,
                limit,
            } => match origin {
                Link => write!(
                    f,
                    "The link holds {} {what}; at most {} are accepted",
                    count(*n),
                    count(*limit)
                ),
                File => write!(
                    f,
                    "The file holds {} {what}; at most {} are accepted",
                    count(*n),
                    count(*limit)
                ),
                Share => write!(
                    f,
                    "The state has {} {what}; a link carries at most {}",
                    count(*n),
                    count(*limit)
                ),
            },
            ShareError::ReplayTooLarge { size: s, limit } => write!(
                f,
                "The replay is {}, more than the {} a link carries; share without the replay or \
                 export a file",
                size(*s),
                size(*limit)
            ),
            ShareError::LinkReplayTooLarge { size: s, limit } => write!(
                f,
                "The replay in the link is {}; at most {} is accepted",
                size(*s),
                size(*limit)
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// `6,000`.
fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `4 MiB`, `1.3 MiB`, `900 KiB`, `12 bytes`; fractions round up, so a size just over a
/// limit never reads as the limit.
fn size(n: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    let scaled = |unit: usize, name: &str| {
        if n.is_multiple_of(unit) {
            format!("{} {name}", n / unit)
        } else {
            let tenths = (n.saturating_mul(10)).div_ceil(unit);
            format!("{}.{} {name}", tenths / 10, tenths % 10)
        }
    };
    if n >= MIB {
        scaled(MIB, "MiB")
    } else if n >= KIB {
        scaled(KIB, "KiB")
    } else {
        format!("{n} bytes")
    }
}

/// The state as a link fragment, `v2.<base64url(deflate-raw(json))>` (without the `#`).
/// Fails when the link would break a limit its reader enforces; a replay over [`MAX_REPLAY`]
/// fails first, with [`ShareError::ReplayTooLarge`], so the UI can offer to share without it.
pub fn to_fragment(s: &State) -> Result<String, ShareError> {
    pack(s, LEVEL, 2)
}

/// The state as a `v1.` link, as Toolscope made them before `v2` (which [`from_fragment`]
/// still opens): for the tests and the link benchmark.
pub fn v1_fragment(s: &State) -> Result<String, ShareError> {
    pack(s, LEVEL, 1)
}

/// The state in the form the page keeps it in localStorage (the autosave, the history): a
/// link fragment made with fast compression, so an autosave of a large state stays short, or
/// the state file where a link cannot carry it. It has the limits of its reader, so whatever
/// is kept is known to restore with [`from_stored`]; a state no reader accepts is refused.
pub fn to_stored(s: &State) -> Result<String, ShareError> {
    match pack(s, STORED_LEVEL, 2) {
        // What a link cannot carry but a file can (a replay over the link's limit, text that
        // does not compress): the state file, which [`from_stored`] reads within its limit.
        Err(ShareError::ReplayTooLarge { .. } | ShareError::LinkTooLong { .. }) => {
            let file = to_file(s);
            if file.len() > MAX_EXPANDED {
                return Err(ShareError::TooLarge {
                    origin: Origin::File,
                    limit: MAX_EXPANDED,
                });
            }
            Ok(file)
        }
        other => other,
    }
}

/// A state kept by [`to_stored`] (or an earlier autosave, a pretty state file).
pub fn from_stored(text: &str) -> Result<State, ShareError> {
    if text.trim_start().starts_with('{') {
        from_file(text)
    } else {
        from_fragment(text)
    }
}

/// DEFLATE level of [`to_stored`]: fast (it runs after each pause in typing).
const STORED_LEVEL: u8 = 1;

fn pack(s: &State, level: u8, version: u64) -> Result<String, ShareError> {
    let redacted = without_secrets(s);
    let s = redacted.as_ref().unwrap_or(s);
    if let Some(replay) = &s.replay {
        if replay.len() > MAX_REPLAY {
            return Err(ShareError::ReplayTooLarge {
                size: replay.len(),
                limit: MAX_REPLAY,
            });
        }
    }
    check_counts(s, Origin::Share)?;
    let json = match version {
        1 => v1::to_compact(s),
        _ => v2::to_compact(s),
    };
    if json.len() > MAX_EXPANDED {
        return Err(ShareError::TooLarge {
            origin: Origin::Share,
            limit: MAX_EXPANDED,
        });
    }
    check_depth(&json, Origin::Share)?;
    let packed = match version {
        1 => miniz_oxide::deflate::compress_to_vec(json.as_bytes(), level),
        _ => v2::deflate(json.as_bytes(), level),
    };
    let fragment = format!("v{version}.{}", base64url::encode(&packed));
    if fragment.len() > MAX_LINK_LEN {
        return Err(ShareError::LinkTooLong {
            origin: Origin::Share,
            length: fragment.len(),
            limit: MAX_LINK_LEN,
        });
    }
    Ok(fragment)
}

/// The state of a link fragment (with or without the leading `#`; a whole pasted URL works
/// too: everything up to its `#` is skipped).
pub fn from_fragment(f: &str) -> Result<State, ShareError> {
    open_fragment(f).map(|r| r.state)
}

/// [`from_fragment`], with the notes on what was adjusted.
pub fn open_fragment(f: &str) -> Result<Restored, ShareError> {
    let f = f.trim();
    let f = match f.split_once('#') {
        Some((_, after)) => after,
        None => f,
    };
    if f.is_empty() {
        return Err(ShareError::Empty);
    }
    if f.len() > MAX_LINK_LEN {
        return Err(ShareError::LinkTooLong {
            origin: Origin::Link,
            length: f.chars().count(),
            limit: MAX_LINK_LEN,
        });
    }
    let (version, payload) = split_version(f)?;
    match version {
        1 => {
            let json = unpack(payload, f.len() - payload.len())?;
            read_document(&json, Origin::Link, Some(version))
        }
        2 => {
            let packed = base64(payload, f.len() - payload.len())?;
            let json = utf8(v2::inflate(&packed)?)?;
            check_depth(&json, Origin::Link)?;
            restore(v2::read(&json)?, Origin::Link)
        }
        v => Err(ShareError::NewerVersion {
            origin: Origin::Link,
            version: v,
        }),
    }
}

/// `v<digits>.` → the version and the rest.
fn split_version(f: &str) -> Result<(u64, &str), ShareError> {
    let rest = f.strip_prefix('v').ok_or(ShareError::NotALink)?;
    let (digits, payload) = rest.split_once('.').ok_or(ShareError::NotALink)?;
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ShareError::NotALink);
    }
    match digits.parse::<u64>() {
        Ok(0) | Err(_) => Err(ShareError::NotALink),
        Ok(v) => Ok((v, payload)),
    }
}

/// base64url → inflate (stopping at the size limit) → UTF-8. `prefix` is the length of `v1.`
/// for positions in messages.
fn unpack(payload: &str, prefix: usize) -> Result<String, ShareError> {
    let packed = base64(payload, prefix)?;
    use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
    let too_large = ShareError::TooLarge {
        origin: Origin::Link,
        limit: MAX_EXPANDED,
    };
    // One byte over the limit tells "exactly the limit" from "more".
    let bytes = match decompress_to_vec_with_limit(&packed, MAX_EXPANDED + 1) {
        Ok(bytes) if bytes.len() > MAX_EXPANDED => return Err(too_large),
        Ok(bytes) => bytes,
        Err(e) => {
            return Err(match e.status {
                TINFLStatus::HasMoreOutput => too_large,
                TINFLStatus::NeedsMoreInput | TINFLStatus::FailedCannotMakeProgress => {
                    ShareError::Truncated
                }
                _ => ShareError::Corrupt,
            })
        }
    };
    utf8(bytes)
}

/// base64url → bytes; `prefix` is the length of `v1.` for positions in messages.
fn base64(payload: &str, prefix: usize) -> Result<Vec<u8>, ShareError> {
    base64url::decode(payload).map_err(|e| match e {
        base64url::Base64Error::Invalid { offset } => ShareError::NotBase64 {
            // Everything before `offset` is ASCII, so bytes count characters.
            position: prefix + offset + 1,
        },
        base64url::Base64Error::Truncated => ShareError::Truncated,
    })
}

/// Inflated bytes → text.
fn utf8(bytes: Vec<u8>) -> Result<String, ShareError> {
    String::from_utf8(bytes).map_err(|e| ShareError::Invalid {
        origin: Origin::Link,
        pointer: None,
        line: None,
        column: None,
        message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })
}

/// The state as a file: pretty JSON `{"toolscope": "state", "version": 1, …}`. Also the form
/// to keep in localStorage. Files have the limits of links except the replay's; a state over
/// [`MAX_EXPANDED`] is written but refused by [`from_file`].
pub fn to_file(s: &State) -> String {
    v1::to_pretty(without_secrets(s).as_ref().unwrap_or(s))
}

/// The state with its replay's secrets redacted ([`crate::redact::replay_text`]), or `None`
/// when there were none. The page redacts a HAR when it is opened; this is the second lock,
/// so no link or file can carry a devtools export's tokens whatever path the text took.
fn without_secrets(s: &State) -> Option<State> {
    let (text, n) = crate::redact::replay_text(s.replay.as_deref()?);
    (n > 0).then(|| State {
        replay: Some(text),
        ..s.clone()
    })
}

/// The state of a file (or a localStorage value). Errors carry line and column.
pub fn from_file(text: &str) -> Result<State, ShareError> {
    open_file(text).map(|r| r.state)
}

/// [`from_file`], with the notes on what was adjusted.
pub fn open_file(text: &str) -> Result<Restored, ShareError> {
    // Editors on some systems save a byte order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > MAX_EXPANDED {
        return Err(ShareError::TooLarge {
            origin: Origin::File,
            limit: MAX_EXPANDED,
        });
    }
    if text.trim().is_empty() {
        return Err(ShareError::NotAStateFile);
    }
    read_document(text, Origin::File, None)
}

/// The two fields every version has, read before the rest decides how to read the document.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    toolscope: Option<Value>,
    #[serde(default)]
    version: Option<Value>,
}

/// Depth check, header, the version's reader, then the count limits and pane ids.
/// `link_version` is the version a link's prefix names, which its document must repeat.
fn read_document(
    text: &str,
    origin: Origin,
    link_version: Option<u64>,
) -> Result<Restored, ShareError> {
    check_depth(text, origin)?;
    let invalid = |pointer: &str, message: String| ShareError::Invalid {
        origin,
        pointer: Some(pointer.to_string()),
        line: None,
        column: None,
        message,
    };
    let header: Header = parse_doc(text, origin)?;
    match header.toolscope.as_ref().and_then(Value::as_str) {
        Some(v1::MARKER) => {}
        _ if origin == Origin::File => return Err(ShareError::NotAStateFile),
        _ => {
            return Err(invalid(
                "/toolscope",
                format!("expected \"{}\"", v1::MARKER),
            ))
        }
    }
    let version = match header.version.as_ref().and_then(Value::as_u64) {
        Some(v) if v >= 1 => v,
        _ => {
            return Err(invalid(
                "/version",
                "expected a version number (1)".to_string(),
            ))
        }
    };
    if let Some(named) = link_version.filter(|&n| n != version) {
        return Err(invalid(
            "/version",
            format!("the link says v{named} but its state says version {version}"),
        ));
    }
    let state = match version {
        1 => v1::read(text, origin)?,
        v => return Err(ShareError::NewerVersion { origin, version: v }),
    };
    restore(state, origin)
}

/// What every version's reader does with the state it read: the count and replay limits,
/// the pane ids, the replay's secrets.
fn restore(state: State, origin: Origin) -> Result<Restored, ShareError> {
    check_counts(&state, origin)?;
    if origin == Origin::Link {
        if let Some(replay) = &state.replay {
            if replay.len() > MAX_REPLAY {
                return Err(ShareError::LinkReplayTooLarge {
                    size: replay.len(),
                    limit: MAX_REPLAY,
                });
            }
        }
    }
    let mut restored = normalise(state);
    // A link or file made elsewhere may carry a HAR with its tokens: they stop here.
    if let Some(replay) = restored.state.replay.as_deref() {
        let (text, n) = crate::redact::replay_text(replay);
        if n > 0 {
            restored.state.replay = Some(text);
            restored.notes.push(format!(
                "{n} secret value{} removed from the replay.",
                if n == 1 { " was" } else { "s were" }
            ));
        }
    }
    Ok(restored)
}

fn check_counts(s: &State, origin: Origin) -> Result<(), ShareError> {
    let checks = [
        ("messages", s.exchange.messages.len(), MAX_MESSAGES),
        ("tools", s.exchange.tools.len(), MAX_TOOLS),
    ];
    for (what, n, limit) in checks {
        if n > limit {
            return Err(ShareError::TooMany {
                origin,
                what,
                count: n,
                limit,
            });
        }
    }
    Ok(())
}

/// Parse a share document, turning a shape error into [`ShareError::Invalid`] with the JSON
/// pointer (none for the root) and, for files, the line and column.
fn parse_doc<T: serde::de::DeserializeOwned>(text: &str, origin: Origin) -> Result<T, ShareError> {
    json::parse("share", text).map_err(|e| ShareError::Invalid {
        origin,
        pointer: e.pointer.filter(|p| !p.is_empty()),
        line: e.line,
        column: e.column,
        message: e.message,
    })
}

fn check_depth(text: &str, origin: Origin) -> Result<(), ShareError> {
    match json::too_deep(text.as_bytes(), MAX_DEPTH) {
        None => Ok(()),
        Some(offset) => {
            let (line, column) = match origin {
                Origin::File => {
                    let (l, c) = json::line_column(text, offset);
                    (Some(l), Some(c))
                }
                _ => (None, None),
            };
            Err(ShareError::TooDeep {
                origin,
                limit: MAX_DEPTH,
                line,
                column,
            })
        }
    }
}

/// Leave out pane ids this Toolscope does not know (a link from a newer one) and repeated
/// ones, and a comparison naming an unknown format, each with a note.
fn normalise(mut state: State) -> Restored {
    let mut notes = Vec::new();
    let mut panes: Vec<String> = Vec::with_capacity(state.panes.len().min(Format::ALL.len()));
    for id in std::mem::take(&mut state.panes) {
        if Format::from_id(&id).is_none() {
            notes.push(format!(
                "Pane \"{}\" is not a format this Toolscope knows; left out",
                clip(&id)
            ));
        } else if panes.contains(&id) {
            notes.push(format!("Pane \"{id}\" was listed twice; shown once"));
        } else {
            panes.push(id);
        }
    }
    state.panes = panes;
    if let Some((a, b)) = &state.compare {
        let unknown: Vec<&String> = [a, b]
            .into_iter()
            .filter(|id| Format::from_id(id).is_none())
            .collect();
        if let Some(id) = unknown.first() {
            notes.push(format!(
                "Comparison with \"{}\", a format this Toolscope does not know; left out",
                clip(id)
            ));
            state.compare = None;
        }
    }
    Restored { state, notes }
}

/// At most 40 characters of a foreign id, for a note.
fn clip(id: &str) -> String {
    match id.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", id.get(..i).unwrap_or_default()),
        None => id.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_count_and_size_read_well() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(6000), "6,000");
        assert_eq!(count(2_000_000), "2,000,000");
        assert_eq!(size(4 * 1024 * 1024), "4 MiB");
        assert_eq!(size(1024 * 1024 + 1), "1.1 MiB");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(12), "12 bytes");
    }

    #[test]
    fn share_version_prefix_is_strict() {
        assert_eq!(split_version("v1.abc"), Ok((1, "abc")));
        assert_eq!(split_version("v12."), Ok((12, "")));
        for bad in [
            "1.abc",
            "v.abc",
            "v0.abc",
            "vx.abc",
            "v1abc",
            "v+1.a",
            "v1234567890.a",
        ] {
            assert_eq!(split_version(bad), Err(ShareError::NotALink), "{bad}");
        }
    }

    #[test]
    fn share_notes_clip_long_ids() {
        let long = "x".repeat(100);
        assert_eq!(clip(&long).chars().count(), 41);
        assert_eq!(clip("gemini"), "gemini");
    }
}
