//! The tool definitions as the models of the OpenAI-compatible dialects read them: Mistral's
//! documented `[AVAILABLE_TOOLS]` block; for Cohere, DeepSeek and Ollama, whose hosted prompts
//! or model templates are not published, the tool list as JSON.

use crate::formats::prompt::{
    function_json, nonempty, pretty_functions, py_json, Estimate, Known, Reader, ToolText,
};
use crate::model::Exchange;
use serde_json::Value;

/// How Mistral models read tools (mistral-common).
pub struct Mistral;

impl Reader for Mistral {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        let tools = &x.tools;
        ToolText {
            text: nonempty(tools, || {
                format!(
                    "[AVAILABLE_TOOLS]{}[/AVAILABLE_TOOLS]",
                    py_json(&Value::Array(tools.iter().map(function_json).collect()))
                )
            }),
            known: Known::Documented,
            note: "mistral-common (tokenizer v3+) puts the tool list as JSON between \
                   [AVAILABLE_TOOLS] control tokens before the last user message; spacing \
                   follows Python's json.dumps"
                .to_string(),
        }
    }

    /// The documented shape is counted: JSON between `[AVAILABLE_TOOLS]` tokens.
    fn estimate(&self, x: &Exchange, model: &str) -> Estimate {
        Estimate::text(self.render(x, model).text)
    }
}

/// How Cohere's hosted models read tools (not published).
pub struct Cohere;

impl Reader for Cohere {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        ToolText {
            text: pretty_functions(&x.tools),
            known: Known::Approximate,
            note: "Cohere's hosted tool-use preamble is not published; the tool list shown as JSON"
                .to_string(),
        }
    }
}

/// How DeepSeek's hosted models read tools (not published).
pub struct DeepSeek;

impl Reader for DeepSeek {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        ToolText {
            text: pretty_functions(&x.tools),
            known: Known::Approximate,
            note: "DeepSeek's hosted API does not publish its tool prompt (the open-weights chat \
                   template lists the tools as JSON in the system prompt); shown as JSON"
                .to_string(),
        }
    }
}

/// How a model served by Ollama reads tools: its chat template's `{{ .Tools }}`.
pub struct Ollama;

impl Reader for Ollama {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        let tools = &x.tools;
        ToolText {
            text: nonempty(tools, || {
                tools
                    .iter()
                    .map(|t| serde_json::to_string(&function_json(t)).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            known: Known::Approximate,
            note: "Ollama hands the tools to the model's chat template (`{{ .Tools }}`), which \
                   most templates print as one JSON object per tool; the wording around them \
                   depends on the model"
                .to_string(),
        }
    }
}
