//! Model Context Protocol (MCP), protocol revision 2026-07-28: `tools/list` and `tools/call`
//! as a JSON-RPC 2.0 transcript.
//!
//! Spec: <https://modelcontextprotocol.io/specification/2026-07-28/server/tools>, schema:
//! `schema/2026-07-28/schema.json` of
//! <https://github.com/modelcontextprotocol/modelcontextprotocol>. Ground truth for the shapes is
//! that schema and the Python SDK `mcp` 2.3.0 (`mcp.types`: `ListToolsResult`, `Tool`,
//! `CallToolRequest`, `CallToolResult`, `JSONRPCRequest`, `JSONRPCResponse`, `JSONRPCError`).
//!
//! The documents:
//! - **Request** = the transcript so far, a JSON array of JSON-RPC messages: a `tools/list`
//!   request and its result (the tools), then per assistant turn one `tools/call` request per
//!   call (JSON-RPC id = the call id) and per Tool message one response per result, in order.
//!   One JSON-RPC message on its own (a pasted `CallToolResultResponse`, `ListToolsRequest`, …)
//!   reads as a transcript of one message and is written back as a single object.
//! - **Response** = the model's last turn as MCP sees it: its `tools/call` requests (an empty
//!   array when the turn made no calls). A transcript holding responses is read as a request.
//! - **Stream** (`stream.rs`): a Streamable HTTP capture, the SSE of JSON-RPC messages, assembles
//!   into the transcript of its messages (a response when they are only `tools/call` requests).
//!
//! What is lossy, encoding the model as MCP:
//! - Everything that is not a tool: system prompt, user messages, assistant text, tool_choice,
//!   `parallel_tool_calls`, model and sampling options, stop reasons and usage (a response's
//!   stop reason is derived from its calls), the `strict` flag of tools, result `name`s.
//! - Call ids: missing ones are assigned (`call_1`, …); a result that answers no call gets
//!   `unpaired-N`. Any string is a valid JSON-RPC id, so ids are never rewritten; integer ids
//!   of a paste are read as their decimal text and written back as integers.
//! - `arguments` is a JSON object: invalid argument text and non-object values become `{}`,
//!   the spelling of valid argument text is not kept.
//! - Results: text → one text block; JSON → `structuredContent` plus a text block with the
//!   JSON (as the spec recommends); blocks → content blocks (a single text block reads back as
//!   text). JSON-RPC error responses read as error results (reported), written back as errors.
//! - Turns of the same role in a row (once user turns are dropped) read back merged.
//!
//! Kept for a pasted transcript, in `extra.mcp` (so it is written back unchanged): messages
//! before the `tools/list` exchange (`preamble`, e.g. an `initialize` handshake); the
//! `tools/list` request and the result's other fields (`listRequest`, `listResult`: ids,
//! `_meta`, `ttlMs`, `cacheScope`, `nextCursor`, …) when they differ from what the encoder
//! writes; tool fields such as `title`, `icons`, `_meta`; request `_meta` other than the
//! default and other params fields; result `resultType`, `_meta`, the content next to
//! `structuredContent`; JSON-RPC error `code`/`data`; unknown envelope fields (`envelope`);
//! any other message (notifications, other methods) as a `Part::Raw` of an assistant turn.
//! Form markers: integer ids, absent `_meta`/`arguments`/`resultType`, explicit
//! `isError: false`, a single message, a transcript without `tools/list`.

mod convert;
pub mod rules;
mod stream;
pub mod wire;

pub use convert::{call_result, default_meta, LIST_ID, PROTOCOL_VERSION, UNPAIRED_PREFIX};

use crate::formats::spec::Send;
use crate::model::ModelFamily;
use crate::providers::Rules as Family;

/// The MCP (JSON-RPC transcript) codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = convert::ID;
    crate::formats::by_convert!(wire::Document, wire::Document);
}

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = None;
    // Names no model: its tools are checked by MCP's own rules.
    const LINTS: Family = Family::Mcp;
    const SEND: Send = Send::JsonRpc;
}
