//! What a kept provider block is, for a person: "image", "audio", "PDF document", … rather
//! than "anthropic block". The block is read by its own shape (each provider's content types:
//! Anthropic `image`/`document`, OpenAI `image_url`/`input_audio`/`file`, Responses
//! `input_image`/`input_file`, Gemini `inlineData`/`fileData`, Bedrock `image`/`document`/
//! `video`, MCP `image`/`audio`/`resource`, AI SDK `image`/`file`).

use serde_json::Value;

/// A short name for the raw block `value` kept from format `format`: the kind of media when
/// it is media (`image`, `audio`, `video`, `PDF document`, `document`, `file`), else its type
/// (`thinking block`), else `<format> block`.
pub fn media_label(format: &str, value: &Value) -> String {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    // A media type, wherever the format keeps it.
    let mime = [
        "/source/media_type",
        "/media_type",
        "/mediaType",
        "/mimeType",
        "/inlineData/mimeType",
        "/fileData/mimeType",
        "/resource/mimeType",
        "/file/mime_type",
    ]
    .iter()
    .find_map(|p| value.pointer(p).and_then(Value::as_str))
    .unwrap_or("");
    let pdf = mime == "application/pdf"
        || value.pointer("/document/format").and_then(Value::as_str) == Some("pdf")
        || [
            "/file/filename",
            "/filename",
            "/file/file_data",
            "/file_data",
        ]
        .iter()
        .filter_map(|p| value.pointer(p).and_then(Value::as_str))
        .any(|s| s.ends_with(".pdf") || s.starts_with("data:application/pdf"));
    if let Some(from_mime) = by_mime(mime, pdf) {
        return from_mime.into();
    }
    let label = match kind {
        "image" | "image_url" | "input_image" => "image",
        "audio" | "input_audio" => "audio",
        "document" | "file" | "input_file" | "resource" | "resource_link" => {
            if pdf {
                "PDF document"
            } else if kind == "document" {
                "document"
            } else {
                "file"
            }
        }
        "thinking" | "redacted_thinking" | "reasoning" => "thinking block",
        "" => {
            // Bedrock and Gemini name the content by its key.
            let key = value
                .as_object()
                .and_then(|o| o.keys().next())
                .map(String::as_str);
            match key {
                Some("image") => "image",
                Some("video") => "video",
                Some("document") if pdf => "PDF document",
                Some("document") => "document",
                Some("reasoningContent") => "thinking block",
                _ => return format!("{format} block"),
            }
        }
        other => return format!("{format} {other} block"),
    };
    label.into()
}

/// Why a kept block of another format is not in a target's document: for media the truth is
/// that it is kept in its source format's own form and not converted (the target may well
/// carry images); for anything else, `otherwise`.
pub fn raw_why(format: &str, value: &Value, otherwise: String) -> String {
    let label = media_label(format, value);
    if is_media(&label) {
        format!("this {label} is kept in {format}'s own block form, which is not converted to this format's")
    } else {
        otherwise
    }
}

fn is_media(label: &str) -> bool {
    matches!(
        label,
        "image" | "audio" | "video" | "PDF document" | "document" | "file"
    )
}

fn by_mime(mime: &str, pdf: bool) -> Option<&'static str> {
    if pdf {
        return Some("PDF document");
    }
    let top = mime.split('/').next().unwrap_or("");
    match top {
        "image" => Some("image"),
        "audio" => Some("audio"),
        "video" => Some("video"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn media_blocks_are_named_by_what_they_hold() {
        for (format, v, want) in [
            (
                "anthropic",
                json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}}),
                "image",
            ),
            (
                "anthropic",
                json!({"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}),
                "image",
            ),
            (
                "anthropic",
                json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"}}),
                "PDF document",
            ),
            (
                "openai-chat",
                json!({"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}),
                "image",
            ),
            (
                "openai-chat",
                json!({"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}}),
                "audio",
            ),
            (
                "openai-chat",
                json!({"type": "file", "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBE"}}),
                "PDF document",
            ),
            (
                "gemini",
                json!({"inlineData": {"mimeType": "audio/mp3", "data": "SUQz"}}),
                "audio",
            ),
            (
                "bedrock",
                json!({"document": {"format": "pdf", "name": "a", "source": {"bytes": "JVBE"}}}),
                "PDF document",
            ),
            (
                "bedrock",
                json!({"video": {"format": "mp4", "source": {"bytes": "AAAA"}}}),
                "video",
            ),
            (
                "anthropic",
                json!({"type": "thinking", "thinking": "…", "signature": "x"}),
                "thinking block",
            ),
            (
                "anthropic",
                json!({"type": "web_search_tool_result"}),
                "anthropic web_search_tool_result block",
            ),
            ("gemini", json!({"executableCode": {}}), "gemini block"),
        ] {
            assert_eq!(media_label(format, &v), want, "{v}");
        }
    }
}
