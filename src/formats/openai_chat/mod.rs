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
//! OpenAI-compatible dialects are variations of this codec ([`Profile`], one method per
//! difference with OpenAI's answer as default), each a codec and a profile in a file of its
//! own: DeepSeek and Mistral (the same wire
//! types), Cohere v2 ([`cohere`]: renamed fields on the model, its own response shape) and
//! Ollama's native chat ([`ollama`]: `options`, object arguments, no ids, its own response
//! shape). Each module's doc lists what is lossy in that dialect.
//!
//! Pasted documents survive decode → encode unchanged: unknown fields are kept in `extra`,
//! unknown part/tool/call kinds as raw values, and spelling choices the model does not record
//! (see [`convert`]) under `toolscope:` keys of `extra["openai-chat"]`.

pub mod cohere;
pub mod convert;
pub mod deepseek;
pub mod dialect_prompts;
pub mod dialects;
mod ids;
pub mod lenient;
pub mod mistral;
pub mod ollama;
pub mod profile;
pub mod prompt;
pub mod reasoning;
pub mod rules;
pub mod stream;
pub mod strict;
pub mod tokens;
pub mod wire;

pub use dialects::Dialect;
pub use profile::{FromSpec, Profile};

/// The [`Dialect`] of a codec's profile, recognised by the codec's `sniff_view`.
macro_rules! dialect_of {
    ($profile:expr) => {
        $crate::formats::openai_chat::Dialect::new(
            &$profile,
            <Self as $crate::formats::Codec>::sniff_view,
        )
    };
}
pub(crate) use dialect_of;

/// The codec methods of a dialect that speaks the Chat Completions wire types unchanged: its
/// [`Dialect`].
macro_rules! chat_codec {
    ($profile:expr, $id:literal) => {
        const ID: &'static str = $id;
        type Request = $crate::formats::openai_chat::wire::Request;
        type Response = $crate::formats::openai_chat::wire::Response;

        fn encode_request(x: &$crate::model::Exchange) -> $crate::formats::Encoding<Self::Request> {
            $crate::formats::openai_chat::dialect_of!($profile).encode_request(x)
        }

        fn decode_request(doc: Self::Request) -> $crate::formats::Decoding {
            $crate::formats::openai_chat::dialect_of!($profile).decode_request(doc)
        }

        fn encode_response(
            x: &$crate::model::Exchange,
        ) -> $crate::formats::Encoding<Self::Response> {
            $crate::formats::openai_chat::dialect_of!($profile).encode_response(x)
        }

        fn decode_response(doc: Self::Response) -> $crate::formats::Decoding {
            $crate::formats::openai_chat::dialect_of!($profile).decode_response(doc)
        }

        $crate::formats::openai_chat::within_depth!();
    };
}
pub(crate) use chat_codec;

/// The Chat Completions codecs read their bodies with [`crate::formats::json::parse`], so text
/// known to nest within its limit skips the depth scan.
macro_rules! within_depth {
    () => {
        fn parse_request_within_depth(
            text: &str,
        ) -> Result<Self::Request, $crate::formats::DecodeError> {
            $crate::formats::parse_within_depth(
                text,
                <Self as $crate::formats::Codec>::parse_request,
            )
        }

        fn parse_response_within_depth(
            text: &str,
        ) -> Result<Self::Response, $crate::formats::DecodeError> {
            $crate::formats::parse_within_depth(
                text,
                <Self as $crate::formats::Codec>::parse_response,
            )
        }
    };
}
pub(crate) use within_depth;

/// The codec methods of a dialect with shapes of its own around its [`Dialect`] (Cohere,
/// Ollama): `$before` adapts the model before encoding a request (reporting its losses),
/// `$lift` after decoding one; `$to` and `$from` convert the response to and from Chat
/// Completions' shape.
macro_rules! adapted_codec {
    ($profile:expr, $before:path, $lift:path, $to:path, $from:path) => {
        type Request = $crate::formats::openai_chat::wire::Request;
        type Response = serde_json::Value;

        fn encode_request(x: &$crate::model::Exchange) -> $crate::formats::Encoding<Self::Request> {
            let mut losses = $crate::model::Losses::new();
            let y = $before(x, &mut losses);
            let (req, more) =
                $crate::formats::openai_chat::dialect_of!($profile).encode_request(&y);
            losses.extend(more);
            (req, losses.into_vec())
        }

        fn decode_request(doc: Self::Request) -> $crate::formats::Decoding {
            let (mut x, losses) =
                $crate::formats::openai_chat::dialect_of!($profile).decode_request(doc)?;
            $lift(&mut x);
            Ok((x, losses))
        }

        fn encode_response(
            x: &$crate::model::Exchange,
        ) -> $crate::formats::Encoding<Self::Response> {
            let (r, losses) =
                $crate::formats::openai_chat::dialect_of!($profile).encode_response(x);
            ($to(r), losses)
        }

        fn decode_response(doc: Self::Response) -> $crate::formats::Decoding {
            $crate::formats::openai_chat::dialect_of!($profile).decode_response($from(doc)?)
        }

        $crate::formats::openai_chat::within_depth!();
    };
}
pub(crate) use adapted_codec;

use crate::formats::sniff::Node;
use crate::formats::spec::{Header, Http, Sdk, Send};
use crate::formats::Kind;
use crate::model::{Exchange, ModelFamily};

/// The OpenAI Chat Completions codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    chat_codec!(Codec, "openai-chat");

    fn sniff_view(v: &Node) -> Option<(Kind, u8)> {
        convert::sniff(v)
    }
}

/// The key header of OpenAI's own API.
const OPENAI_KEY: &[Header] = &[Header::bearer("OPENAI_API_KEY")];

/// The `openai` Python SDK with this client `constructor` (an instance of the `OpenAI` class
/// the package exports), taking the body in `call`.
pub(crate) const fn openai_sdk(constructor: &'static str, call: &'static str) -> Sdk {
    Sdk::new("openai", constructor, call).import("from openai import OpenAI")
}

/// An endpoint of OpenAI's own API: the key in `Authorization: Bearer $OPENAI_API_KEY`,
/// Python through the `openai` SDK's `call` at its default base URL.
pub(crate) const fn openai_api(title: &'static str, url: &'static str, call: &'static str) -> Http {
    Http::post(title, url).headers(OPENAI_KEY).sdk(openai_sdk(
        "OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])",
        call,
    ))
}

/// The API its requests are sent to, as the snippets call it.
const API: Http = openai_api(
    "OpenAI Chat Completions",
    "https://api.openai.com/v1/chat/completions",
    "chat.completions.create",
);

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet(&[rules::RULES]);
    const MODELS: Option<ModelFamily> = Some(ModelFamily::OpenAi);
    const SEND: Send = Send::Http(API);
    const LENIENT: Option<fn(&str) -> Option<Exchange>> = Some(lenient::read);
}
