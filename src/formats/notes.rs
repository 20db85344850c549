//! "How this format differs": one short note per format, shown next to its pane. Each field is
//! one sentence, taken from the format's `mod.rs` doc and converter (which say it in full,
//! with every loss).

use super::Format;

/// What sets a format apart, field by field; each one plain-text sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Note {
    /// How call arguments travel (JSON string or object, …).
    pub arguments: &'static str,
    /// Where tool results live and how an error is said.
    pub results: &'static str,
    /// How calls and results pair (ids, their rules, or order and name).
    pub ids: &'static str,
    /// What tool_choice (and the parallel-calls switch) can say.
    pub choice: &'static str,
    /// The rest worth knowing first.
    pub other: &'static str,
}

impl Note {
    /// The fields with labels, in display order.
    pub fn rows(&self) -> [(&'static str, &'static str); 5] {
        [
            ("Arguments", self.arguments),
            ("Results", self.results),
            ("Ids", self.ids),
            ("Tool choice", self.choice),
            ("Other", self.other),
        ]
    }
}

/// The note of a format.
pub fn note(format: Format) -> Note {
    match format {
        Format::OpenAiChat => Note {
            arguments: "A JSON string (`function.arguments`), sent exactly as written, even when it is not valid JSON.",
            results: "One `tool` message per result right after the assistant message, text only; an error is folded into the text.",
            ids: "Every call needs an `id` (`call_…`), and its `tool` message names it in `tool_call_id`.",
            choice: "`auto`, `none`, `required`, one named function or `allowed_tools` for several; `parallel_tool_calls` is a separate flag.",
            other: "The system prompt is a `system` (or `developer`) message; the deprecated `functions` and `function_call` are read and written back in the current shape.",
        },
        Format::OpenAiResponses => Note {
            arguments: "A JSON string on a `function_call` item.",
            results: "`function_call_output` items in `input`, among the messages, with the output as text; an error is folded into it.",
            ids: "`call_id` (at most 64 characters) pairs a `function_call` with its output; the item's own `id` (`fc_…`) is a different thing.",
            choice: "`auto`, `none`, `required`, one named function or `allowed_tools`; `parallel_tool_calls` is a separate flag.",
            other: "The system prompt is `instructions`, tools are flat (`{type, name, parameters, strict}`), and there are no stop sequences.",
        },
        Format::Anthropic => Note {
            arguments: "A JSON object (`input` of a `tool_use` block); argument text that is not valid JSON becomes `{}`.",
            results: "`tool_result` blocks at the start of the next user message, with `is_error` for a failure.",
            ids: "`tool_use.id` (`^[a-zA-Z0-9_-]{1,64}$`) pairs with `tool_result.tool_use_id`; other ids are rewritten in both places.",
            choice: "`auto`, `any`, `tool` (one name) or `none`, with `disable_parallel_tool_use` inside tool_choice as the parallel switch.",
            other: "`system` is a top-level field, `model` and `max_tokens` are required, and the current API version takes no `temperature` or `top_p`.",
        },
        Format::Gemini => Note {
            arguments: "A JSON object (`functionCall.args`).",
            results: "`functionResponse` parts in the next user content, each one object: text as `{\"output\": …}`, an error as `{\"error\": …}`.",
            ids: "Ids are optional (`functionCall.id`, never invented here): without them results pair with calls by order and `name`.",
            choice: "`functionCallingConfig.mode` `AUTO`, `ANY`, `NONE` or `VALIDATED`, with `allowedFunctionNames` under `ANY` or `VALIDATED`; no parallel switch.",
            other: "The model is named in the URL, not the body, the roles are `user` and `model`, and schemas go as the OpenAPI subset `parameters` or as `parametersJsonSchema`.",
        },
        Format::Bedrock => Note {
            arguments: "A JSON object (`toolUse.input`).",
            results: "`toolResult` blocks at the start of the next user message, content as `text` or `json` blocks, `status: \"error\"` for a failure.",
            ids: "`toolUseId` (`^[a-zA-Z0-9_-]{1,64}$`) pairs call and result; other ids are rewritten in both places.",
            choice: "`toolChoice` `auto`, `any` or one `tool`; there is no `none` and no parallel switch.",
            other: "The request is what boto3's `converse` takes (`modelId` travels in the URL), tool names must match `[a-zA-Z0-9_-]{1,64}`, and sampling sits in `inferenceConfig`.",
        },
        Format::Mcp => Note {
            arguments: "A JSON object (`params.arguments` of a `tools/call` request).",
            results: "The JSON-RPC response to each `tools/call`: `content` blocks, `structuredContent` for JSON, `isError` for a failure.",
            ids: "The JSON-RPC `id` of the `tools/call` request is the call id, and its response repeats it.",
            choice: "None: the client decides which tools to call, so neither tool_choice nor a parallel switch has a place.",
            other: "A transcript between client and server, not a model request: `tools/list` carries the tools (`inputSchema`, `outputSchema`, annotations), and no system, user or assistant text.",
        },
        Format::AnthropicXml => Note {
            arguments: "XML parameters inside `<invoke>` (`<location>Paris</location>`): flat, every value as text.",
            results: "`<function_results>` right after the calls in the same Assistant turn, each result as `<stdout>` or `<error>`.",
            ids: "None: results pair with calls by order and `<tool_name>`.",
            choice: "None: tool use is a prompt convention, so there is no tool_choice, parallel switch or strict mode.",
            other: "Everything is one prompt text (tools described in the system part, then `Human:` and `Assistant:` turns), and nested schemas flatten to name, type and description.",
        },
        Format::DeepSeek => Note {
            arguments: "A JSON string, as in OpenAI Chat.",
            results: "`tool` messages with `tool_call_id`, as in OpenAI Chat; an error is folded into the text.",
            ids: "Any call id, paired by `tool_call_id`.",
            choice: "`auto`, `none`, `required` or one named function: no restriction to several tools and no `parallel_tool_calls`.",
            other: "OpenAI's wire shape, with `reasoning_content` on assistant messages and `strict` honoured only on the beta endpoint.",
        },
        Format::Mistral => Note {
            arguments: "A JSON string (some responses send an object, which is kept so).",
            results: "`tool` messages with `tool_call_id` and the tool's `name`; an error is folded into the text.",
            ids: "Exactly 9 letters and digits; other ids are rewritten in calls and results.",
            choice: "`auto`, `none`, `any` (what is sent for required) or one named function.",
            other: "OpenAI's wire shape plus `random_seed`, `safe_prompt` and `prompt_mode`.",
        },
        Format::Cohere => Note {
            arguments: "A JSON string, as in OpenAI Chat.",
            results: "`tool` messages with `tool_call_id`: JSON objects travel as documents, and an error is folded into the text.",
            ids: "Any call id, paired by `tool_call_id`.",
            choice: "Only `REQUIRED` or `NONE` (left out, the model decides); no named tool and no parallel switch.",
            other: "Chat Completions with other names: `p`, `stop_sequences`, one `strict_tools` flag for all tools, and the text before calls as `tool_plan`.",
        },
        Format::Ollama => Note {
            arguments: "A JSON object (`function.arguments`).",
            results: "`tool` messages with text content and `tool_name`; an error is folded into the text.",
            ids: "None: results pair with calls by order and `tool_name`.",
            choice: "None: there is no tool_choice and no parallel switch.",
            other: "The native `/api/chat`: sampling settings live in `options` (`num_predict` is the token limit), and tools keep OpenAI's function shape.",
        },
        Format::AiSdk => Note {
            arguments: "A JSON value (`input` of a `tool-call` part).",
            results: "`tool-result` parts in a `tool` message, with `toolName` and a typed `output`: `text`, `json`, `error-text`, `error-json` or `content`.",
            ids: "`toolCallId` pairs call and result: any string, always present.",
            choice: "`toolChoice` `auto`, `none`, `required` or one `tool`, with `activeTools` to restrict the set; no parallel switch.",
            other: "Provider-neutral messages apps store and pass to `generateText`: tools are a record keyed by name with an `inputSchema`, and `useChat` keeps `UIMessage`s with tool parts in states.",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_every_format_has_five_sentences() {
        for f in Format::ALL {
            for (label, text) in note(f).rows() {
                assert!(!text.trim().is_empty(), "{} {label}", f.id());
                assert!(text.ends_with('.'), "{} {label}: {text}", f.id());
                // One sentence: no full stop followed by a new sentence inside.
                assert!(!text.contains(". "), "{} {label}: {text}", f.id());
                assert!(
                    text.len() <= 200,
                    "{} {label}: {} chars",
                    f.id(),
                    text.len()
                );
            }
        }
    }

    #[test]
    fn notes_say_what_sets_formats_apart() {
        // Spot checks against the converters: argument type and pairing.
        assert!(note(Format::OpenAiChat).arguments.contains("JSON string"));
        assert!(note(Format::Anthropic).arguments.contains("JSON object"));
        assert!(note(Format::Gemini).ids.contains("order and `name`"));
        assert!(note(Format::Ollama).ids.starts_with("None"));
        assert!(note(Format::Mistral).ids.contains("9"));
        assert!(note(Format::Mcp).choice.starts_with("None"));
        // Formats that share a protocol still differ somewhere.
        for a in Format::ALL {
            for b in Format::ALL {
                if a != b {
                    assert_ne!(note(a), note(b), "{} and {}", a.id(), b.id());
                }
            }
        }
    }
}
