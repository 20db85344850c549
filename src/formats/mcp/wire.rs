//! Serde types of MCP (protocol revision 2026-07-28) JSON-RPC messages, as `schema.json` of
//! that revision and the Python SDK `mcp` 2.3.0 (`mcp.types`) declare them.
//!
//! The JSON-RPC envelope is typed once ([`Message`]); its `params`, `result` and `error` stay
//! JSON values until the converter knows which method they belong to and reads them as
//! [`ListToolsResult`], [`CallToolParams`], [`CallToolResult`] or [`RpcError`]. Unknown fields
//! land in flattened `extra` maps and unknown content blocks are kept verbatim
//! ([`Content::Raw`]), so a pasted transcript is emitted back unchanged.

use crate::formats::field::Field;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// A document: a transcript (a JSON array of JSON-RPC messages) or one message on its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// The document was one message, not an array (written back the same way while it still
    /// holds exactly one message).
    pub single: bool,
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.messages.as_slice() {
            [one] if self.single => one.serialize(s),
            all => all.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Document;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC message or an array of them")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Document, A::Error> {
                let mut messages = Vec::new();
                while let Some(m) = seq.next_element::<Message>()? {
                    messages.push(m);
                }
                Ok(Document {
                    messages,
                    single: false,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Document, A::Error> {
                let m = Message::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Document {
                    messages: vec![m],
                    single: true,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// One JSON-RPC 2.0 message: a request (`id` + `method`), a notification (`method` only), a
/// result response (`id` + `result`) or an error response (`error`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Always `"2.0"`.
    pub jsonrpc: String,
    /// Request id: a string or an integer (`null` in an error response whose request is unknown).
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub id: Field<Value>,
    /// Method of a request or notification (`tools/list`, `tools/call`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Parameters of a request or notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
    /// Result of a successful response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Error of a failed response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// Anything else.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Message {
    /// A message with only the `jsonrpc` marker set.
    pub fn empty() -> Self {
        Message {
            jsonrpc: "2.0".into(),
            id: Field::Absent,
            method: None,
            params: None,
            result: None,
            error: None,
            extra: Map::new(),
        }
    }
}

/// `result` of `tools/list` (`ListToolsResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListToolsResult {
    /// The tools.
    pub tools: Vec<Tool>,
    /// `resultType`, `ttlMs`, `cacheScope`, `nextCursor`, `_meta`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool definition (`Tool`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// Tool name.
    pub name: String,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments (`type: "object"` at the root).
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`.
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// `ToolAnnotations` (`readOnlyHint`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// `title`, `icons`, `_meta`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `params` of `tools/call` (`CallToolRequestParams`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallToolParams {
    /// Request metadata (`io.modelcontextprotocol/protocolVersion`, …; required in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
    /// Tool name.
    pub name: String,
    /// Arguments (a JSON object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// `inputResponses`, `requestState`, `task`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `result` of `tools/call` (`CallToolResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallToolResult {
    /// Unstructured content blocks.
    pub content: Vec<Content>,
    /// Structured result: any JSON value, `null` included.
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Field::is_absent"
    )]
    pub structured_content: Field<Value>,
    /// The tool failed.
    #[serde(rename = "isError", default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `resultType` (required in 2026-07-28: `"complete"`).
    #[serde(
        rename = "resultType",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub result_type: Option<String>,
    /// `_meta`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// Error code (`-32602` invalid params, …).
    pub code: i64,
    /// What went wrong.
    pub message: String,
    /// `data`, …
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A content block of a tool result (`ContentBlock`).
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// `{"type": "text", "text": …}` without other fields.
    Text(String),
    /// `{"type": "image", "data": …, "mimeType": …}` without other fields.
    Image {
        /// Base64 data.
        data: String,
        /// MIME type.
        mime_type: String,
    },
    /// Anything else (audio, resource links, embedded resources, blocks with `annotations` or
    /// `_meta`), verbatim.
    Raw(Value),
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum PlainContent {
    Text {
        text: String,
    },
    Image {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Content::Text(text) => PlainContent::Text { text: text.clone() }.serialize(s),
            Content::Image { data, mime_type } => PlainContent::Image {
                data: data.clone(),
                mime_type: mime_type.clone(),
            }
            .serialize(s),
            Content::Raw(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(match serde_json::from_value::<PlainContent>(v.clone()) {
            Ok(PlainContent::Text { text }) => Content::Text(text),
            Ok(PlainContent::Image { data, mime_type }) => Content::Image { data, mime_type },
            Err(_) => Content::Raw(v),
        })
    }
}
