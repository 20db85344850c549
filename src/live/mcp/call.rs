//! A `tools/call` result: its content blocks, its `structuredContent` checked against the tool's
//! `outputSchema` (our own validator, [`crate::schema::validate`]), `isError`, and the canonical
//! tool result the conversation gets (read as the MCP transcript format reads it, so the MCP
//! pane shows the server's answer field for field).

use super::Error;
use crate::model::ToolResult;
use crate::schema::validate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One content block of a result, for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// `text`.
    Text {
        /// The text.
        text: String,
    },
    /// `image` (base64 `data`).
    Image {
        /// MIME type.
        mime_type: String,
        /// Base64 data.
        data: String,
    },
    /// `audio` (base64 `data`).
    Audio {
        /// MIME type.
        mime_type: String,
        /// Base64 data.
        data: String,
    },
    /// `resource_link`: a URI the server can read.
    ResourceLink {
        /// The URI.
        uri: String,
        /// Its name.
        name: String,
        /// MIME type, if given.
        mime_type: Option<String>,
    },
    /// `resource`: embedded resource contents (text or base64 blob).
    Resource {
        /// The URI.
        uri: String,
        /// MIME type, if given.
        mime_type: Option<String>,
        /// The text, for text contents.
        text: Option<String>,
        /// The base64 blob, for binary contents.
        blob: Option<String>,
    },
    /// A block of another type, as sent.
    Other {
        /// The block.
        value: Value,
    },
}

impl Content {
    fn read(v: &Value) -> Content {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let r = |k: &str| {
            v.pointer(&format!("/resource/{k}"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        match v.get("type").and_then(Value::as_str) {
            Some("text") if s("text").is_some() => Content::Text {
                text: s("text").unwrap_or_default(),
            },
            Some("image") if s("data").is_some() => Content::Image {
                mime_type: s("mimeType").unwrap_or_default(),
                data: s("data").unwrap_or_default(),
            },
            Some("audio") if s("data").is_some() => Content::Audio {
                mime_type: s("mimeType").unwrap_or_default(),
                data: s("data").unwrap_or_default(),
            },
            Some("resource_link") if s("uri").is_some() => Content::ResourceLink {
                uri: s("uri").unwrap_or_default(),
                name: s("name").unwrap_or_default(),
                mime_type: s("mimeType"),
            },
            Some("resource") if r("uri").is_some() => Content::Resource {
                uri: r("uri").unwrap_or_default(),
                mime_type: r("mimeType"),
                text: r("text"),
                blob: r("blob"),
            },
            _ => Content::Other { value: v.clone() },
        }
    }
}

/// How `structuredContent` compares with the tool's `outputSchema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Structured {
    /// No `structuredContent` in the result.
    Absent,
    /// Present, and the tool declares no `outputSchema`.
    Unchecked,
    /// Present and valid against the `outputSchema`.
    Valid,
    /// Present and invalid: the validator's errors (instance and schema paths).
    Invalid {
        /// What failed.
        errors: Vec<Failure>,
    },
    /// Present, and the tool has an `outputSchema` our validator cannot compile.
    BadSchema {
        /// The compile error.
        message: String,
    },
    /// The tool declares an `outputSchema` but the (successful) result has no
    /// `structuredContent`, which the spec says a server MUST provide.
    Missing,
}

/// One way `structuredContent` fails the `outputSchema`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// JSON pointer into `structuredContent` (empty for the root).
    pub instance_path: String,
    /// JSON pointer of the failing keyword in the `outputSchema`.
    pub schema_path: String,
    /// For a person.
    pub message: String,
}

/// A `tools/call` result as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallResult {
    /// The content blocks, in order.
    pub content: Vec<Content>,
    /// `structuredContent`, if any.
    pub structured_content: Option<Value>,
    /// Its check against the tool's `outputSchema`.
    pub structured: Structured,
    /// `isError`: the tool ran and failed (the model should see the error).
    pub is_error: bool,
    /// The canonical tool result: what goes into the conversation.
    pub part: ToolResult,
    /// The `result` object as received.
    pub raw: Value,
}

/// Read a `tools/call` result for the call `call_id`; `output_schema` is the tool's.
pub fn read(
    result: Value,
    call_id: Option<String>,
    output_schema: Option<&Value>,
) -> Result<CallResult, Error> {
    let part =
        crate::formats::mcp::call_result(call_id, result.clone(), "/result").map_err(|e| {
            Error::Protocol {
                message: e.to_string(),
            }
        })?;
    let content = result
        .get("content")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(Content::read).collect())
        .unwrap_or_default();
    let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
    let structured_content = result.get("structuredContent").cloned();
    let structured = match (&structured_content, output_schema) {
        (None, Some(_)) if !is_error => Structured::Missing,
        (None, _) => Structured::Absent,
        (Some(_), None) => Structured::Unchecked,
        (Some(v), Some(schema)) => match validate::validate(schema, v) {
            Ok(report) if report.errors.is_empty() && report.stopped.is_none() => Structured::Valid,
            Ok(report) => {
                let mut errors: Vec<Failure> = report
                    .errors
                    .into_iter()
                    .map(|e| Failure {
                        instance_path: e.instance_path,
                        schema_path: e.schema_path,
                        message: e.message,
                    })
                    .collect();
                if let Some(why) = report.stopped {
                    errors.push(Failure {
                        instance_path: String::new(),
                        schema_path: String::new(),
                        message: format!("validation stopped: {why}"),
                    });
                }
                Structured::Invalid { errors }
            }
            Err(e) => Structured::BadSchema {
                message: e.to_string(),
            },
        },
    };
    Ok(CallResult {
        content,
        structured_content,
        structured,
        is_error,
        part,
        raw: result,
    })
}

/// The canonical result answering a call that could not run (the server failed, timed out,
/// answered garbage, or a person denied it): an error result whose text says so, so the model
/// and the conversation go on.
pub fn error_result(call_id: Option<String>, message: &str) -> ToolResult {
    let mut r = ToolResult::new(
        call_id,
        crate::model::ResultContent::Text(message.to_string()),
    );
    r.is_error = true;
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Block, ResultContent};
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]})
    }

    #[test]
    fn structured_content_is_checked() {
        let ok = json!({"content": [{"type": "text", "text": "{\"t\":1}"}], "structuredContent": {"t": 1}, "resultType": "complete"});
        let r = read(ok, Some("c1".into()), Some(&schema())).unwrap();
        assert_eq!(r.structured, Structured::Valid);
        assert_eq!(r.part.content, ResultContent::Json(json!({"t": 1})));
        assert_eq!(r.part.call_id.as_deref(), Some("c1"));

        let bad = json!({"content": [], "structuredContent": {"t": "warm"}});
        match read(bad, None, Some(&schema())).unwrap().structured {
            Structured::Invalid { errors } => assert_eq!(errors[0].instance_path, "/t"),
            other => panic!("{other:?}"),
        }
        let missing = json!({"content": [{"type": "text", "text": "x"}]});
        assert_eq!(
            read(missing.clone(), None, Some(&schema()))
                .unwrap()
                .structured,
            Structured::Missing
        );
        assert_eq!(
            read(missing, None, None).unwrap().structured,
            Structured::Absent
        );
    }

    #[test]
    fn blocks_and_errors() {
        let v = json!({"content": [
            {"type": "text", "text": "one"},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "audio", "data": "AA==", "mimeType": "audio/wav"},
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            {"type": "resource", "resource": {"uri": "file:///b", "text": "B"}}
        ], "isError": true});
        let r = read(v, Some("c".into()), None).unwrap();
        assert!(r.is_error && r.part.is_error);
        assert_eq!(r.content.len(), 5);
        assert!(matches!(r.content[3], Content::ResourceLink { .. }));
        assert!(matches!(&r.content[4], Content::Resource { text: Some(t), .. } if t == "B"));
        let ResultContent::Blocks(b) = &r.part.content else {
            panic!()
        };
        assert!(matches!(b[1], Block::Image { .. }));
        assert!(matches!(b[2], Block::Raw { .. }));
        assert!(read(json!({"content": 3}), None, None).is_err());
        let e = error_result(Some("c".into()), "denied by the user");
        assert!(e.is_error);
    }
}
