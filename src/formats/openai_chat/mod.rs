//! OpenAI Chat Completions (`POST /v1/chat/completions`).
//!
//! Spec: <https://platform.openai.com/docs/api-reference/chat/create>, the function-calling
//! guide <https://platform.openai.com/docs/guides/function-calling>, and the types of the
//! `openai` Python SDK (`openai.types.chat`), which win where the prose differs.
//!
//! Shape: a `system` (or `developer`) message first, then `user` / `assistant` / `tool`
//! messages. Assistant calls are `tool_calls: [{id, type: "function", function: {name,
//! arguments}}]` with the arguments as JSON *text*; each result is its own `tool` message with
//! the `tool_call_id`, right after the assistant message with the calls.
//!
//! What is lossy:
//! - Tool results have no error flag (folded into the text as `Error: …`), no name (paired by
//!   `tool_call_id`), and text-only content (JSON becomes compact text, images are dropped).
//! - Calls need ids: calls without one get `call_1`, `call_2`, … and results are paired.
//! - Text goes before the tool calls in a message; parts after a call move up.
//! - The model has one system prompt: `system`/`developer` messages later in the conversation
//!   are read as user messages that remember their role (for this format only).
//! - tool_choice has no `validated` mode (sent as `auto`); a tool list with `none` is dropped.
//! - Response content is one string: several text parts are joined. `stop_sequence` and
//!   unknown stop reasons become `stop`/derived finish reasons.
//! - Deprecated `functions`, `function_call` and `role: "function"` messages are read and
//!   written back in the current shape.
//!
//! OpenAI-compatible dialects are variations of this codec ([`Dialect`], one method per
//! difference), each a codec of its own in [`dialects`]: DeepSeek and Mistral (the same wire
//! types), Cohere v2 ([`cohere`]: renamed fields on the model, its own response shape) and
//! Ollama's native chat ([`ollama`]: `options`, object arguments, no ids, its own response
//! shape). Each module's doc lists what is lossy in that dialect.
//!
//! Pasted documents survive decode → encode unchanged: unknown fields are kept in `extra`,
//! unknown part/tool/call kinds as raw values, and spelling choices the model does not record
//! (see [`convert`]) under `toolscope:` keys of `extra["openai-chat"]`.

pub mod cohere;
pub mod convert;
pub mod dialects;
pub mod ollama;
pub mod stream;
pub mod wire;

pub use convert::Dialect;

use crate::formats::{DecodeError, Kind};
use crate::model::{Exchange, Loss};
use serde_json::Value;

/// The OpenAI Chat Completions codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = "openai-chat";
    type Request = wire::Request;
    type Response = wire::Response;

    fn encode_request(x: &Exchange) -> (wire::Request, Vec<Loss>) {
        convert::encode_request(x, Dialect::OpenAi)
    }

    fn decode_request(doc: wire::Request) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_request(doc, Dialect::OpenAi)
    }

    fn encode_response(x: &Exchange) -> (wire::Response, Vec<Loss>) {
        convert::encode_response(x, Dialect::OpenAi)
    }

    fn decode_response(doc: wire::Response) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        convert::decode_response(doc, Dialect::OpenAi)
    }

    fn sniff(v: &Value) -> Option<(Kind, u8)> {
        convert::sniff(v)
    }
}
