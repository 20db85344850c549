//! Anthropic's legacy prompt-based tool use (Claude 2 era, Text Completions API): tools, calls
//! and results as XML inside one text prompt.
//!
//! Spec: <https://docs.anthropic.com/claude/docs/legacy-tool-use> and the prompt constructors
//! of <https://github.com/anthropics/anthropic-tools> (`prompt_constructors.py`,
//! `tool_user.py`), which this follows exactly:
//! - the system prompt holds the tool-use preamble and a `<tools>` block of
//!   `<tool_description>`s (`<tool_name>`, `<description>`, `<parameters>` of `<parameter>`
//!   with `<name>`, `<type>`, `<description>`), then the user's own system text;
//! - turns are `\n\nHuman: …` and `\n\nAssistant: …`; a request (the whole prompt) ends with
//!   `\n\nAssistant:` when the model speaks next;
//! - the model calls tools with `<function_calls>` of `<invoke>`s (`<tool_name>`, `<parameters>`
//!   of `<param_name>value</param_name>`), several invokes for parallel calls;
//! - results are injected right after the calls, in the same Assistant turn, as
//!   `<function_results>` of `<result>`s (`<tool_name>`, `<stdout>` or `<error>`); the model
//!   goes on after them in that turn. The decoder also reads results placed in a Human turn,
//!   a bare `<error>` and the `anthropic-tools` error injection `<system>`;
//! - a response is the completion text of the model's turn (`</function_calls>` may be missing:
//!   it is the stop sequence).
//!
//! What is lossy (all reported):
//! - no call ids: calls and results pair by order and name (ids dropped; results get the name
//!   of the call they answer); decoded ids are `None`;
//! - the parameter list is flat: nested schemas, `required`, `additionalProperties`, type
//!   unions lose everything but name, type and description; no `strict`. The `<type>` element
//!   is free text, so it says what the list otherwise cannot and is read back: `string or null`
//!   (a `[T, "null"]` type), `array of integer` (the item type), `string, one of "c" | "f"`
//!   (the `enum`, as JSON values);
//! - no tool_choice, no parallel-calls switch, no options (model, max_tokens, temperature,
//!   stop: API parameters, not prompt text), no stop reason or usage in a completion;
//! - parameter values are text: strings as they are, other JSON compact. Reading back, `null`
//!   under a type that says `or null` is null, a listed value is that value, a parameter
//!   declared `string` stays text; otherwise text that is non-string JSON becomes
//!   that JSON, so the string `"42"` of an undeclared parameter comes back as 42 (reported);
//!   invalid argument text, non-object arguments and names that are no tag names are dropped;
//! - results are text: JSON results are written as compact JSON, content blocks joined (images
//!   dropped);
//! - empty texts vanish; adjacent texts are joined; text containing turn markers or block tags
//!   is rewritten (`\n\nH:`, `&lt;function_calls>`) so it is not read as structure;
//! - blocks of other formats (thinking, images) are dropped.
//!
//! Unknown child elements (`<important_usage_notes>` of a tool, extra elements of an invoke or
//! result) are kept in the element's `extra["anthropic-xml"]` and written back; a preamble
//! worded differently is kept as a form marker.

mod convert;
pub mod wire;

pub use convert::{read_value, ID};

use crate::formats::spec::Send;
use crate::formats::{DecodeError, Kind};
use crate::model::ModelFamily;
use crate::model::{Exchange, Loss};

/// The legacy XML codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = ID;
    type Request = wire::Prompt;
    type Response = wire::Completion;

    fn encode_request(x: &Exchange) -> (wire::Prompt, Vec<Loss>) {
        convert::encode_request(x)
    }

    fn decode_request(doc: wire::Prompt) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        Ok(convert::decode_request(doc))
    }

    fn encode_response(x: &Exchange) -> (wire::Completion, Vec<Loss>) {
        convert::encode_response(x)
    }

    fn decode_response(doc: wire::Completion) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        Ok(convert::decode_response(doc))
    }

    /// Never JSON.
    fn sniff_view(_v: &crate::formats::sniff::Node) -> Option<(Kind, u8)> {
        None
    }

    /// 90 with a block tag or a turn marker (a prompt when it has turns, tools or results, else
    /// a completion); other text that does not look like JSON is at best a plain completion
    /// (10).
    fn sniff_text(text: &str) -> Option<(Kind, u8)> {
        if has_prompt_markers(text) {
            Some((Kind::Request, 90))
        } else if text.contains("<function_calls>") {
            Some((Kind::Response, 90))
        } else if text.trim_start().starts_with(['{', '[']) {
            // Broken JSON, not a completion: let the JSON syntax error speak.
            None
        } else {
            Some((Kind::Response, 10))
        }
    }

    fn render_request(doc: &wire::Prompt) -> String {
        wire::render_prompt(doc)
    }

    fn render_response(doc: &wire::Completion) -> String {
        wire::render_completion(doc)
    }

    fn parse_request(text: &str) -> Result<wire::Prompt, DecodeError> {
        wire::parse_prompt(text)
    }

    fn parse_response(text: &str) -> Result<wire::Completion, DecodeError> {
        wire::parse_completion(text)
    }
}

/// True when `text` carries the legacy prompt's own markers (turn headers, a tool block,
/// results or calls): it is this format's document, not just any prose, which also reads as a
/// plain completion.
pub fn has_markers(text: &str) -> bool {
    has_prompt_markers(text) || text.contains("<function_calls>")
}

fn has_prompt_markers(text: &str) -> bool {
    let prompt_markers = [
        "\n\nHuman:",
        "\n\nAssistant:",
        "<tools>",
        "<function_results>",
    ];
    prompt_markers.iter().any(|m| text.contains(m)) || text.starts_with("Human:")
}

impl crate::formats::spec::Spec for Codec {
    const NOTE: &'static str = include_str!("NOTE.md");
    const RULES: crate::rules::RuleSet = crate::rules::RuleSet::NONE;
    const MODELS: Option<ModelFamily> = Some(ModelFamily::Anthropic);
    const SEND: Send = Send::Prompt(crate::formats::anthropic::API);
    const TEXT: bool = true;
}
