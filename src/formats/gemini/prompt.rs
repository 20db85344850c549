//! The tool definitions as Gemini models read them: Google does not publish how function
//! declarations enter the prompt, so they are shown as sent.

use crate::formats::prompt::{nonempty, Known, Reader, ToolText};
use crate::model::Exchange;
use serde_json::json;

/// How Gemini models read tools (not published).
pub struct Gemini;

impl Reader for Gemini {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        let tools = &x.tools;
        ToolText {
            text: nonempty(tools, || {
                crate::formats::json::pretty(&json!({"functionDeclarations":
                    tools.iter().map(|t| json!({
                        "name": t.name,
                        "description": t.description.clone().unwrap_or_default(),
                        "parameters": t.input_schema,
                    })).collect::<Vec<_>>()}))
            }),
            known: Known::Approximate,
            note: "Google does not publish how function declarations enter Gemini's prompt; \
                   shown as sent. Exact counts come from the countTokens endpoint"
                .to_string(),
        }
    }
}
