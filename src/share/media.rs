//! Images, audio and documents inside an exchange: what a block holds (for the page's chips and
//! thumbnails) and the link form without them (each replaced by a labelled placeholder).
//!
//! The canonical model keeps a base64 image of a tool result as [`Block::Image`]; every other
//! media block (a user's image, a URL image, audio, a PDF) is a raw block in its source format's
//! spelling. [`of_value`] reads the spellings of the twelve formats: Anthropic `image` /
//! `document` with a `source`, OpenAI `image_url` / `input_audio` / `file`, Responses
//! `input_image` / `input_file`, Gemini `inlineData` / `fileData`, Bedrock `image` / `document`
//! with `format` and `source.bytes`, MCP `image` / `audio` / `resource` / `resource_link`, and
//! the AI SDK's `image` / `file`.

use crate::model::{Block, Exchange, Part, ResultContent};
use serde_json::{json, Map, Value};

/// The raw-block format id of a placeholder (a [`Part::Raw`] or [`Block::Raw`] of this format).
pub const PLACEHOLDER_FORMAT: &str = "toolscope";
/// The `type` of a placeholder's value.
const PLACEHOLDER_TYPE: &str = "media_placeholder";
/// How deep [`of_value`] looks for the data, the address and the media type.
const DEPTH: usize = 4;

/// What kind of media.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// A picture.
    Image,
    /// Sound.
    Audio,
    /// A file (PDF, text, …).
    Document,
}

impl MediaKind {
    /// The word a placeholder keeps.
    fn id(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Audio => "audio",
            MediaKind::Document => "document",
        }
    }

    fn from_id(s: &str) -> Option<Self> {
        match s {
            "image" => Some(MediaKind::Image),
            "audio" => Some(MediaKind::Audio),
            "document" => Some(MediaKind::Document),
            _ => None,
        }
    }
}

/// Where the media's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Inline, base64.
    Data(String),
    /// At an address (`https:`, `gs:`, `file:`, …).
    Url(String),
    /// A provider's file id (OpenAI `file_id`).
    FileId(String),
    /// Left out of a shared link: only its size in bytes is known.
    LeftOut(usize),
}

/// An image, audio or document found in a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// What it is.
    pub kind: MediaKind,
    /// Its MIME type, when the block says.
    pub media_type: Option<String>,
    /// Its file name, when the block says.
    pub name: Option<String>,
    /// Where its bytes are.
    pub source: Source,
}

impl Media {
    /// What to call it: "image", "audio", "PDF document", "document".
    pub fn label(&self) -> &'static str {
        match self.kind {
            MediaKind::Image => "image",
            MediaKind::Audio => "audio",
            MediaKind::Document if self.media_type.as_deref() == Some("application/pdf") => {
                "PDF document"
            }
            MediaKind::Document => "document",
        }
    }

    /// Its size in bytes, when known (inline data, or kept by a placeholder).
    pub fn bytes(&self) -> Option<usize> {
        match &self.source {
            Source::Data(d) => Some(base64_bytes(d)),
            Source::LeftOut(n) => Some(*n),
            _ => None,
        }
    }

    /// The host of a URL source (`example.com`), or its scheme when it has none.
    pub fn host(&self) -> Option<String> {
        let Source::Url(u) = &self.source else {
            return None;
        };
        let (scheme, rest) = u.split_once("://")?;
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = host.rsplit('@').next().unwrap_or(host);
        Some(if host.is_empty() {
            format!("{scheme}:")
        } else {
            host.to_string()
        })
    }

    /// A `data:` URL an `<img>` can show (the page's policy allows `data:` images, not remote
    /// ones): inline images of the raster types browsers decode, else `None`.
    pub fn thumbnail(&self) -> Option<String> {
        const SHOWN: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];
        let (MediaKind::Image, Source::Data(d), Some(t)) =
            (self.kind, &self.source, self.media_type.as_deref())
        else {
            return None;
        };
        let body = d.trim_end_matches('=');
        let ok = SHOWN.contains(&t)
            && !body.is_empty()
            && d.len().is_multiple_of(4)
            && d.len() - body.len() <= 2
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'));
        ok.then(|| format!("data:{t};base64,{d}"))
    }

    /// Left out of a shared link (a placeholder).
    pub fn left_out(&self) -> bool {
        matches!(self.source, Source::LeftOut(_))
    }

    /// One line: "image · image/png · 12.3 kB", "image · example.com", "PDF document · a.pdf".
    pub fn summary(&self) -> String {
        let mut s = vec![self.label().to_string()];
        if let Some(n) = &self.name {
            s.push(n.clone());
        }
        if let Some(t) = &self.media_type {
            s.push(t.clone());
        }
        match &self.source {
            Source::Data(_) => {}
            Source::Url(_) => s.extend(self.host()),
            Source::FileId(id) => s.push(format!("file {id}")),
            Source::LeftOut(_) => {}
        }
        if let Some(b) = self.bytes() {
            s.push(size(b));
        }
        if self.left_out() {
            s.push("left out of the link".into());
        }
        s.join(" · ")
    }
}

/// A byte count for people: "812 B", "12.3 kB", "4.1 MB".
pub fn size(bytes: usize) -> String {
    match bytes {
        0..=999 => format!("{bytes} B"),
        1_000..=999_999 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// The bytes a base64 text decodes to.
fn base64_bytes(d: &str) -> usize {
    let pad = d.bytes().rev().take_while(|b| *b == b'=').count();
    (d.len() / 4 * 3 + (d.len() % 4).saturating_sub(1)).saturating_sub(pad)
}

/// The media a raw block holds, in any format's spelling; `None` for anything else (thinking,
/// citations, signatures, …).
pub fn of_value(v: &Value) -> Option<Media> {
    let obj = v.as_object()?;
    if obj.get("type").and_then(Value::as_str) == Some(PLACEHOLDER_TYPE) {
        return placeholder(obj);
    }
    // The block's own word: its `type`, or its one key (Gemini `inlineData`, Bedrock `image`).
    let word = match obj.get("type").and_then(Value::as_str) {
        Some(t) => t.to_ascii_lowercase(),
        None if obj.len() == 1 => obj.keys().next().map(|k| k.to_ascii_lowercase())?,
        None => String::new(),
    };
    let mut found = Found::default();
    found.walk(v, 0);
    let mut media_type = found.media_type.clone();
    let mut data = found.data.clone();
    let mut url = found.url.clone();
    // A `data:` URL is inline data with its type.
    let inline = [&data, &url]
        .into_iter()
        .find_map(|s| s.as_deref().and_then(split_data_url));
    if let Some((t, d)) = inline {
        media_type.get_or_insert(t);
        data = Some(d);
        url = None;
    }
    let kind = kind_of(&word)
        .or_else(|| media_type.as_deref().and_then(kind_of_type))
        .or_else(|| (word == "inlinedata" || word == "filedata").then_some(MediaKind::Document))?;
    if media_type.is_none() {
        media_type = found.format.as_deref().map(|f| type_of_format(kind, f));
    }
    let source = if let Some(d) = data {
        Source::Data(d)
    } else if let Some(u) = url {
        Source::Url(u)
    } else if let Some(id) = found.file_id.clone() {
        Source::FileId(id)
    } else {
        return None;
    };
    Some(Media {
        kind,
        media_type,
        name: found.name,
        source,
    })
}

/// The media of a tool result's block.
pub fn of_block(b: &Block) -> Option<Media> {
    match b {
        Block::Image { media_type, data } => Some(Media {
            kind: MediaKind::Image,
            media_type: Some(media_type.clone()),
            name: None,
            source: Source::Data(data.clone()),
        }),
        Block::Raw { value, .. } => of_value(value),
        Block::Text { .. } => None,
    }
}

/// What [`Found::walk`] collects, the first of each.
#[derive(Default)]
struct Found {
    media_type: Option<String>,
    format: Option<String>,
    data: Option<String>,
    url: Option<String>,
    file_id: Option<String>,
    name: Option<String>,
}

impl Found {
    fn walk(&mut self, v: &Value, depth: usize) {
        let Some(obj) = v.as_object() else { return };
        for (k, val) in obj {
            if let Some(s) = val.as_str() {
                let slot = match k.as_str() {
                    "media_type" | "mediaType" | "mimeType" | "mime_type" => &mut self.media_type,
                    "format" => &mut self.format,
                    "data" | "bytes" | "file_data" | "fileData" | "image" | "blob" => {
                        // An AI SDK `image` may be a URL.
                        if s.contains("://") {
                            &mut self.url
                        } else {
                            &mut self.data
                        }
                    }
                    "url" | "uri" | "image_url" | "fileUri" | "file_url" => &mut self.url,
                    "file_id" | "fileId" => &mut self.file_id,
                    "filename" | "name" | "title" => &mut self.name,
                    _ => continue,
                };
                if slot.is_none() {
                    *slot = Some(s.to_string());
                }
            } else if val.is_object() && depth < DEPTH {
                self.walk(val, depth + 1);
            }
        }
    }
}

/// `data:image/png;base64,AAAA` → (`image/png`, `AAAA`).
fn split_data_url(s: &str) -> Option<(String, String)> {
    let rest = s.strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let t = head.strip_suffix(";base64")?;
    Some((t.to_string(), data.to_string()))
}

/// The kind a block's word names.
fn kind_of(word: &str) -> Option<MediaKind> {
    if word.contains("image") {
        Some(MediaKind::Image)
    } else if word.contains("audio") {
        Some(MediaKind::Audio)
    } else if ["document", "file", "resource", "pdf"]
        .iter()
        .any(|w| word.contains(w))
        && word != "filedata"
    {
        Some(MediaKind::Document)
    } else {
        None
    }
}

/// The kind a MIME type names.
fn kind_of_type(t: &str) -> Option<MediaKind> {
    if t.starts_with("image/") {
        Some(MediaKind::Image)
    } else if t.starts_with("audio/") {
        Some(MediaKind::Audio)
    } else if t.contains('/') {
        Some(MediaKind::Document)
    } else {
        None
    }
}

/// A Bedrock / OpenAI `format` word as a MIME type (`png` → `image/png`, `pdf` →
/// `application/pdf`).
fn type_of_format(kind: MediaKind, f: &str) -> String {
    let f = f.to_ascii_lowercase();
    match (kind, f.as_str()) {
        (_, "pdf") => "application/pdf".into(),
        (MediaKind::Image, "jpg") => "image/jpeg".into(),
        (MediaKind::Image, _) => format!("image/{f}"),
        (MediaKind::Audio, "mp3") => "audio/mpeg".into(),
        (MediaKind::Audio, _) => format!("audio/{f}"),
        (MediaKind::Document, "txt") => "text/plain".into(),
        (MediaKind::Document, "html" | "csv" | "md") => format!("text/{f}"),
        (MediaKind::Document, _) => format!("application/{f}"),
    }
}

/// A placeholder's value: what it stood for.
fn placeholder(obj: &Map<String, Value>) -> Option<Media> {
    Some(Media {
        kind: MediaKind::from_id(obj.get("media")?.as_str()?)?,
        media_type: obj
            .get("media_type")
            .and_then(Value::as_str)
            .map(str::to_string),
        name: obj.get("name").and_then(Value::as_str).map(str::to_string),
        source: Source::LeftOut(
            obj.get("bytes")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(0),
        ),
    })
}

/// The placeholder of inline media `m`: a raw block of format [`PLACEHOLDER_FORMAT`].
fn placeholder_value(m: &Media) -> Value {
    let mut v = json!({
        "type": PLACEHOLDER_TYPE,
        "media": m.kind.id(),
        "bytes": m.bytes().unwrap_or(0),
    });
    if let Some(t) = &m.media_type {
        v["media_type"] = json!(t);
    }
    if let Some(n) = &m.name {
        v["name"] = json!(n);
    }
    v
}

/// Is this a placeholder block (left out of a link)?
pub fn is_placeholder(format: &str, v: &Value) -> bool {
    format == PLACEHOLDER_FORMAT && v.get("type").and_then(Value::as_str) == Some(PLACEHOLDER_TYPE)
}

/// `x` with every inline image, audio and document (in messages and tool results) replaced by
/// a labelled placeholder, and how many were replaced. Media given by URL or file id stays:
/// it is a short reference, not the bytes.
pub fn without_media(x: &Exchange) -> (Exchange, usize) {
    let mut out = x.clone();
    let mut n = 0;
    let swap = |m: Media, n: &mut usize| {
        *n += 1;
        placeholder_value(&m)
    };
    for msg in &mut out.messages {
        for part in &mut msg.parts {
            match part {
                Part::Raw { format, value } if !is_placeholder(format, value) => {
                    if let Some(m) = of_value(value).filter(|m| matches!(m.source, Source::Data(_)))
                    {
                        *part = Part::Raw {
                            format: PLACEHOLDER_FORMAT.into(),
                            value: swap(m, &mut n),
                        };
                    }
                }
                Part::ToolResult(r) => {
                    if let ResultContent::Blocks(blocks) = &mut r.content {
                        for b in blocks.iter_mut() {
                            if matches!(b, Block::Raw { format, value } if is_placeholder(format, value))
                            {
                                continue;
                            }
                            if let Some(m) =
                                of_block(b).filter(|m| matches!(m.source, Source::Data(_)))
                            {
                                *b = Block::Raw {
                                    format: PLACEHOLDER_FORMAT.into(),
                                    value: swap(m, &mut n),
                                };
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Message, Role, ToolResult};

    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    #[test]
    fn reads_each_formats_spelling() {
        let cases = [
            (
                json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}),
                "image",
                true,
            ),
            (
                json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}),
                "image",
                false,
            ),
            (
                json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}}),
                "PDF document",
                false,
            ),
            (
                json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}}),
                "image",
                true,
            ),
            (
                json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}),
                "audio",
                false,
            ),
            (
                json!({"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"}}),
                "PDF document",
                false,
            ),
            (
                json!({"type": "input_image", "image_url": "https://example.com/b.jpg"}),
                "image",
                false,
            ),
            (
                json!({"inlineData": {"mimeType": "image/png", "data": PNG}}),
                "image",
                true,
            ),
            (
                json!({"fileData": {"mimeType": "application/pdf", "fileUri": "gs://b/a.pdf"}}),
                "PDF document",
                false,
            ),
            (
                json!({"image": {"format": "png", "source": {"bytes": PNG}}}),
                "image",
                true,
            ),
            (
                json!({"document": {"format": "pdf", "name": "a", "source": {"bytes": "JVBERi0="}}}),
                "PDF document",
                false,
            ),
            (
                json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}),
                "audio",
                false,
            ),
            (
                json!({"type": "image", "image": "https://example.com/c.png", "mediaType": "image/png"}),
                "image",
                false,
            ),
        ];
        for (v, label, thumb) in cases {
            let m = of_value(&v).unwrap_or_else(|| panic!("not media: {v}"));
            assert_eq!(m.label(), label, "{v}");
            assert_eq!(m.thumbnail().is_some(), thumb, "{v}");
        }
    }

    #[test]
    fn other_blocks_are_not_media() {
        for v in [
            json!({"type": "thinking", "thinking": "…", "signature": "abc"}),
            json!({"type": "redacted_thinking", "data": "abc"}),
            json!({"type": "text", "text": "hi"}),
            json!({"type": "image"}),
            json!("image"),
        ] {
            assert_eq!(of_value(&v), None, "{v}");
        }
    }

    #[test]
    fn url_media_names_its_host_and_is_never_a_thumbnail() {
        let m = of_value(&json!({"type": "image", "source": {"type": "url", "url": "https://user@cdn.example.com:8443/a.png?x=1"}})).unwrap();
        assert_eq!(m.host().as_deref(), Some("cdn.example.com:8443"));
        assert_eq!(m.thumbnail(), None);
        assert_eq!(m.summary(), "image · cdn.example.com:8443");
    }

    #[test]
    fn a_thumbnail_is_refused_for_text_that_is_not_base64() {
        let m = Media {
            kind: MediaKind::Image,
            media_type: Some("image/png".into()),
            name: None,
            source: Source::Data("AAAA\"><script>".into()),
        };
        assert_eq!(m.thumbnail(), None);
        // Padding inside the text: not base64 (the browser would refuse the data URL).
        let padded = Media {
            source: Source::Data("QQ==QUJD".into()),
            ..m.clone()
        };
        assert_eq!(padded.thumbnail(), None);
        let svg = Media {
            media_type: Some("image/svg+xml".into()),
            source: Source::Data("PHN2Zz4=".into()),
            ..m
        };
        assert_eq!(svg.thumbnail(), None);
    }

    #[test]
    fn base64_sizes() {
        assert_eq!(base64_bytes("QQ=="), 1);
        assert_eq!(base64_bytes("QUI="), 2);
        assert_eq!(base64_bytes("QUJD"), 3);
        assert_eq!(base64_bytes(""), 0);
        assert_eq!(size(12_345), "12.3 kB");
    }

    #[test]
    fn without_media_leaves_placeholders_that_read_back_as_what_they_were() {
        let mut x = Exchange::default();
        x.messages.push(Message::new(
            Role::User,
            vec![
                Part::text("look"),
                Part::Raw {
                    format: "anthropic".into(),
                    value: json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}),
                },
                Part::Raw {
                    format: "anthropic".into(),
                    value: json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}),
                },
            ],
        ));
        x.messages.push(Message::new(
            Role::Tool,
            vec![Part::ToolResult(ToolResult::new(
                Some("c1".into()),
                ResultContent::Blocks(vec![
                    Block::Text { text: "two".into() },
                    Block::Image {
                        media_type: "image/jpeg".into(),
                        data: PNG.into(),
                    },
                ]),
            ))],
        ));
        let (y, n) = without_media(&x);
        assert_eq!(n, 2);
        let Part::Raw { format, value } = &y.messages[0].parts[1] else {
            panic!("{:?}", y.messages[0].parts[1])
        };
        assert!(is_placeholder(format, value));
        let m = of_value(value).unwrap();
        assert_eq!(m.label(), "image");
        assert!(m.left_out());
        assert_eq!(m.bytes(), Some(base64_bytes(PNG)));
        assert_eq!(
            m.summary(),
            format!(
                "image · image/png · {} · left out of the link",
                size(base64_bytes(PNG))
            )
        );
        // The URL image stays, and so does the text.
        assert_eq!(y.messages[0].parts[2], x.messages[0].parts[2]);
        assert_eq!(y.messages[0].parts[0], x.messages[0].parts[0]);
        let Part::ToolResult(r) = &y.messages[1].parts[0] else {
            panic!()
        };
        let ResultContent::Blocks(b) = &r.content else {
            panic!()
        };
        assert_eq!(b[0], Block::Text { text: "two".into() });
        assert_eq!(
            of_block(&b[1]).map(|m| m.media_type),
            Some(Some("image/jpeg".into()))
        );
        // Done twice, nothing more is replaced.
        assert_eq!(without_media(&y), (y.clone(), 0));
    }
}
