//! Bedrock's `ToolSpecification` rules beyond names and the object root: its schema dialect.

use crate::model::Tool;
use crate::schema::{Dialect, Finding, Fix, Severity};

/// The dialect of Converse tool specs.
pub const DIALECT: Dialect = Dialect {
    root_object: Some("bedrock.root-object"),
    strict: None,
    tool: Some(description),
};

/// `bedrock.description`: botocore's `ToolSpecification.description` is a `NonEmptyString`
/// (an empty one is rejected); a missing one is allowed but leaves the model guessing. Fix: the
/// tool name with `_`/`-` as spaces.
pub fn description(tool: &Tool, i: usize) -> Vec<Finding> {
    let text = tool.name.replace(['_', '-'], " ");
    let text = if text.trim().is_empty() {
        "tool".to_string()
    } else {
        text.trim().to_string()
    };
    let fix = Some(Fix::Description { tool: i, text });
    match tool.description.as_deref() {
        Some(d) if !d.is_empty() => Vec::new(),
        Some(_) => vec![Finding::new(
            format!("/tools/{i}/description"),
            Severity::Error,
            "bedrock.description",
            "Bedrock rejects an empty description (ToolSpecification.description: min length 1)",
        )
        .with_fix(fix)],
        None => vec![Finding::new(
            format!("/tools/{i}/description"),
            Severity::Warning,
            "bedrock.description",
            "no description: Bedrock accepts it, but the model only has the name to go on",
        )
        .with_fix(fix)],
    }
}
