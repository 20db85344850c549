//! The tool definitions as models behind Bedrock read them: Converse passes `toolConfig` to
//! the model's own template, which AWS does not publish, so they are shown as sent.

use crate::formats::prompt::{nonempty, Known, Reader, ToolText};
use crate::model::Exchange;
use serde_json::json;

/// How models behind Bedrock read tools (not published).
pub struct Bedrock;

impl Reader for Bedrock {
    fn render(&self, x: &Exchange, _model: &str) -> ToolText {
        let tools = &x.tools;
        ToolText {
            text: nonempty(tools, || {
                crate::formats::json::pretty(&json!({"tools": tools.iter().map(|t| json!({
                    "toolSpec": {"name": t.name, "description": t.description,
                                 "inputSchema": {"json": t.input_schema}}
                })).collect::<Vec<_>>()}))
            }),
            known: Known::Approximate,
            note: "Bedrock passes toolConfig to the model's own template (Nova, Llama, …), \
                   which AWS does not publish; shown as sent"
                .to_string(),
        }
    }
}
