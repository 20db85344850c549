//! The examples gallery: the scenarios of the function-calling literature, each one click in
//! the page. Most are canonical exchanges of `tests/fixtures/exchanges/` (so the page offers
//! exactly what the golden files test); some are documents in a provider's own format (the
//! legacy XML prompt, an MCP transcript), read like a paste, so the gallery shows detection too.

/// One example of the gallery.
pub struct Example {
    /// Stable id, used in the picker and in tests (`weather`).
    pub id: &'static str,
    /// Shown in the picker.
    pub title: &'static str,
    /// What it shows, one sentence.
    pub blurb: &'static str,
    /// The document: canonical JSON or any provider's request (read with `formats::read_any`).
    pub source: &'static str,
}

macro_rules! canonical {
    ($id:literal, $title:literal, $blurb:literal) => {
        Example {
            id: $id,
            title: $title,
            blurb: $blurb,
            source: include_str!(concat!("../tests/fixtures/exchanges/", $id, ".json")),
        }
    };
}

/// Every example; the first is what a first visit opens.
pub const EXAMPLES: &[Example] = &[
    canonical!(
        "weather",
        "Weather lookup",
        "One tool, one call, its result and the model's answer: the hello world of tool calling."
    ),
    canonical!(
        "nested_schema",
        "send_email with an array of addresses",
        "Arrays, nested objects and formats in the schema: where Gemini's subset and the XML prompt lose detail."
    ),
    canonical!(
        "parallel_calls",
        "Two cities in parallel",
        "Two calls in one assistant turn and two results: how each provider groups and pairs them."
    ),
    canonical!(
        "error_result",
        "A tool error and the model's recovery",
        "A failing tool result (is_error) and the retry: providers without an error flag fold it into text."
    ),
    canonical!(
        "forced_choice",
        "Forced tool choice",
        "tool_choice forcing one tool, parallel calls off, strict mode on."
    ),
    Example {
        id: "stock_chain",
        title: "Legacy XML: ticker lookup then price",
        blurb: "Anthropic's legacy function-calling prompt: a chain of two calls written as XML in the text.",
        source: include_str!("../tests/fixtures/gallery/stock_chain.txt"),
    },
    Example {
        id: "mcp_weather",
        title: "MCP tools/list + tools/call",
        blurb: "A Model Context Protocol transcript: the server's tool list and one JSON-RPC call with its result.",
        source: include_str!("../tests/fixtures/gallery/mcp_weather.json"),
    },
    Example {
        id: "strict_mode",
        title: "OpenAI strict-mode schema",
        blurb: "A schema that strict mode accepts: every property required, nullable instead of optional, no extra keys.",
        source: include_str!("../tests/fixtures/gallery/strict_mode.json"),
    },
    canonical!(
        "thinking_tools",
        "Claude thinks, then calls a tool",
        "A reasoning-model tool loop: signed thinking before the call, which only Anthropic can verify; every other pane says what it drops."
    ),
    canonical!(
        "hosted_search",
        "Web search run by the provider",
        "Anthropic's web_search server tool, recorded: the call and its results run on Anthropic's side and exist in no other format."
    ),
    canonical!(
        "no_args",
        "Tool without arguments",
        "An empty schema and empty arguments: {} versus \"\" versus nothing."
    ),
    canonical!(
        "multi_turn",
        "Multi-turn travel booking",
        "Several rounds of calls and results: the largest example."
    ),
];

/// A stream of the replay gallery: real recorded provider streams and hand-written anomalies.
pub struct StreamExample {
    /// Stable id (`anthropic-json-tool`).
    pub id: &'static str,
    /// Shown in the picker.
    pub title: &'static str,
    /// The stream as captured: JSON lines or SSE text.
    pub text: &'static str,
}

macro_rules! stream {
    ($id:literal, $file:literal, $title:literal) => {
        StreamExample {
            id: $id,
            title: $title,
            text: include_str!(concat!("../tests/fixtures/", $file)),
        }
    };
}

/// The replay gallery; the first is what the replay view opens with.
pub const STREAMS: &[StreamExample] = &[
    stream!(
        "anthropic-json-tool",
        "recorded/anthropic/anthropic-json-tool.1.jsonl",
        "Anthropic: a tool call, input_json_delta fragments"
    ),
    stream!(
        "groq-tool-call",
        "recorded/openai-chat/groq-tool-call.jsonl",
        "OpenAI Chat (Groq): a whole call in one chunk"
    ),
    stream!(
        "gemini-tool-call",
        "recorded/gemini/google-stream-tool-call-arguments.jsonl",
        "Gemini: whole calls per chunk"
    ),
    stream!(
        "responses-parallel",
        "recorded/openai-responses/parallel-tool-call-wrapper.1.jsonl",
        "OpenAI Responses: parallel calls (two lines arrive damaged)"
    ),
    stream!(
        "bedrock-tool-call",
        "recorded/bedrock/amazon-bedrock-tool-call.1.jsonl",
        "Bedrock ConverseStream: toolUse deltas"
    ),
    stream!(
        "cohere-tool-call",
        "recorded/cohere/cohere-tool-call.jsonl",
        "Cohere v2: tool-call-start / delta / end"
    ),
    stream!(
        "mistral-tool-call",
        "recorded/mistral/mistral-tool-call.jsonl",
        "Mistral: a call without an index"
    ),
    stream!(
        "anthropic-duplicate-start",
        "recorded/anthropic/duplicate-message-start.jsonl",
        "Anthropic: a duplicated message_start"
    ),
    stream!(
        "chat-interleaved",
        "streams/chat-interleaved.sse",
        "Anomaly: parallel calls interleaved by index (SSE)"
    ),
    stream!(
        "chat-args-before-name",
        "streams/chat-args-before-name.jsonl",
        "Anomaly: arguments before the name"
    ),
    stream!(
        "anthropic-invalid-args",
        "streams/anthropic-invalid-args.sse",
        "Anomaly: arguments end as invalid JSON"
    ),
    stream!(
        "anthropic-cut",
        "streams/anthropic-cut.sse",
        "Anomaly: the stream stops early"
    ),
];

/// The example of this id.
pub fn example(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_any;

    #[test]
    fn examples_read_and_cover_every_canonical_case() {
        for e in EXAMPLES {
            let (d, _) = read_any(e.source).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            assert!(!d.exchange.messages.is_empty(), "{}", e.id);
            assert!(!d.exchange.tools.is_empty(), "{}", e.id);
        }
        for st in STREAMS {
            let r = crate::replay::Replay::load(st.text, Default::default())
                .unwrap_or_else(|e| panic!("{}: {e}", st.id));
            assert!(!r.events.is_empty(), "{}", st.id);
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/exchanges");
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().replace(".json", "");
            assert!(example(&name).is_some(), "{name} is offered as an example");
        }
    }
}
