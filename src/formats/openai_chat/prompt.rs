//! The tool definitions as OpenAI models read them (their prompt tokens: [`super::tokens`]):
//! a TypeScript `namespace functions` block in the system (or developer) message, under
//! `# Tools` / `## functions`.
//!
//! Two dialects, one walk:
//! - [`Dialect::Harmony`]: gpt-oss, byte for byte as OpenAI's harmony renderer
//!   (github.com/openai/harmony, `src/encoding.rs`, `template_tools_section` and
//!   `json_schema_to_typescript`; fixtures `test-data/test_render_functions_with_parameters.txt`,
//!   `test_browser_and_function_tool.txt`): `//` comments for descriptions, titles, examples and
//!   defaults, `?` for optional, string enums as unions, `oneOf` as a `|` list, `nullable`,
//!   type arrays, nested objects indented by four spaces.
//! - [`Dialect::Api`]: the hosted models of Chat Completions and Responses. The same text, except
//!   where the prompt token counts the API reported prove otherwise (hmarr/openai-chat-tokens,
//!   `tests/token-counts.test.ts`: nested objects 68, array of objects 106, `anyOf` 158, 80,
//!   52, 44;
//!   rubenselander/openai-function-tokens, `testing.ipynb`: nested descriptions 46 and 96):
//!   nested objects are indented by two spaces with the closing brace at the line start, only
//!   top-level properties carry their description, objects carry none, numeric enums are unions,
//!   arrays without `items` are `any[]`, `null` is `null`, and a tool without properties is
//!   `() => any`, `anyOf` is an inline union `a | b` (harmony has no branch for it).

use crate::formats::prompt::{nonempty, Framing, Known, Reader, ToolText};
use crate::formats::Format;
use crate::model::{ChoiceMode, Exchange, Tool};
use serde_json::{Map, Value};

/// gpt-oss: the harmony format.
pub fn harmony(model: &str) -> bool {
    model.to_ascii_lowercase().starts_with("gpt-oss")
}

/// How OpenAI's models read tools: the `namespace functions` block, counted by the Chat
/// Completions rules.
pub struct OpenAi;

impl Reader for OpenAi {
    fn render(&self, x: &Exchange, model: &str) -> ToolText {
        let tools = &x.tools;
        if harmony(model) {
            ToolText {
                text: nonempty(tools, || section(tools, Dialect::Harmony)),
                known: Known::Exact,
                note: "harmony format (gpt-oss): the developer message's tools section, byte for \
                       byte as OpenAI's harmony renderer"
                    .to_string(),
            }
        } else {
            ToolText {
                text: nonempty(tools, || section(tools, Dialect::Api)),
                known: Known::Proven,
                note: "TypeScript namespace in the system message, as harmony renders it; the \
                       layout of nested objects, numeric enums and tools without properties \
                       follows the prompt token counts the API reported \
                       (hmarr/openai-chat-tokens, OpenAI cookbook)"
                    .to_string(),
            }
        }
    }

    fn choice(&self, mode: ChoiceMode, forced: usize) -> &'static str {
        match (mode, forced) {
            (ChoiceMode::None, _) => "1 token in the prompt (API-recorded)",
            (ChoiceMode::Required, 1) => {
                "the tool's name plus 4 tokens in the prompt (API-recorded)"
            }
            _ => "enforced by the sampler; its prompt text is not published",
        }
    }

    fn source_note(&self, source: Format) -> Option<&'static str> {
        (source == Format::OpenAiResponses)
            .then_some("a Responses request, counted with the Chat Completions rules")
    }

    fn framing(&self, x: &Exchange, model: &str, n: &dyn Fn(&str) -> u64) -> Option<Framing> {
        super::tokens::framing(x, model, n)
    }
}

/// Which renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// gpt-oss (harmony format).
    Harmony,
    /// Hosted OpenAI models (Chat Completions, Responses, legacy `functions`).
    Api,
}

/// The `namespace functions { … } // namespace functions` block alone.
pub fn namespace(tools: &[Tool], dialect: Dialect) -> String {
    let mut lines = vec!["namespace functions {\n".to_string()];
    for t in tools {
        if let Some(d) = &t.description {
            for line in d.lines() {
                lines.push(format!("// {line}"));
            }
        }
        match params(&t.input_schema, dialect) {
            Some(p) => lines.push(format!("type {} = (_: {p}) => any;\n", t.name)),
            None => lines.push(format!("type {} = () => any;\n", t.name)),
        }
    }
    lines.push("} // namespace functions".to_string());
    lines.join("\n")
}

/// The whole tools section as it appears in the message: `# Tools`, `## functions`, the block.
pub fn section(tools: &[Tool], dialect: Dialect) -> String {
    format!("# Tools\n\n## functions\n\n{}", namespace(tools, dialect))
}

/// The parameter type of a tool, or `None` for `() => any`.
fn params(schema: &Value, dialect: Dialect) -> Option<String> {
    let props_empty = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    match dialect {
        // The API renders a tool without properties as `() => any` (hmarr's recorded case
        // "foo": 31 tokens).
        Dialect::Api
            if props_empty && schema.get("type").and_then(Value::as_str) == Some("object") =>
        {
            None
        }
        // Harmony renders `() => any` only when no parameters were given; Toolscope's model
        // spells "no parameters" as exactly `{"type":"object","properties":{}}`.
        Dialect::Harmony if *schema == crate::model::empty_object_schema() => None,
        _ => Some(ts(schema, "", 0, dialect)),
    }
}

fn is_enum(v: &Value) -> bool {
    v.get("enum")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn nullable(v: &Value) -> bool {
    v.get("nullable").and_then(Value::as_bool).unwrap_or(false)
}

/// Harmony's default comments, spelled three ways: a string default of a non-enum as `"x"`,
/// of an enum as `x` (property lines) or as JSON (variant lines); anything else as JSON.
fn default_text(v: &Value, default: &Value, variant: bool) -> String {
    match default.as_str() {
        Some(s) if !is_enum(v) => format!("default: \"{s}\""),
        Some(s) if !variant => format!("default: {s}"),
        _ => format!("default: {default}"),
    }
}

/// The variants of a `oneOf` union (harmony's multi-line form, in both dialects).
fn variants(v: &Value) -> Option<&Vec<Value>> {
    v.get("oneOf").and_then(Value::as_array)
}

/// One variant line's type, with ` | null` for a nullable variant.
fn variant_type(variant: &Value, indent: &str, depth: usize, dialect: Dialect) -> String {
    let mut t = ts(variant, &format!("{indent}   "), depth, dialect);
    if nullable(variant) && !t.contains("null") {
        t.push_str(" | null");
    }
    t
}

/// A JSON Schema as a TypeScript type.
fn ts(schema: &Value, indent: &str, depth: usize, dialect: Dialect) -> String {
    if let Some(vs) = variants(schema) {
        let mut out = String::new();
        for variant in vs {
            out.push_str(&format!("\n{indent} | "));
            out.push_str(&variant_type(variant, indent, depth, dialect));
            let mut trailing = Vec::new();
            if let Some(d) = str_of(variant, "description") {
                trailing.push(d.to_string());
            }
            if let Some(def) = variant.get("default") {
                trailing.push(match def.as_str() {
                    Some(s) if !is_enum(variant) => format!("default: \"{s}\""),
                    _ => format!("default: {def}"),
                });
            }
            if !trailing.is_empty() {
                out.push_str(&format!(" // {}", trailing.join(" ")));
            }
        }
        return out;
    }
    // The API writes `anyOf` inline, `a | b` (hmarr/openai-chat-tokens' recorded counts 158, 80,
    // 52, 44); harmony has no branch for it and falls through to `type`.
    if let (Dialect::Api, Some(vs)) = (dialect, schema.get("anyOf").and_then(Value::as_array)) {
        return vs
            .iter()
            .map(|v| ts(v, indent, depth, dialect))
            .collect::<Vec<_>>()
            .join(" | ");
    }
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        let names: Vec<&str> = types
            .iter()
            .filter_map(Value::as_str)
            .map(|t| if t == "integer" { "number" } else { t })
            .collect();
        if !names.is_empty() {
            return names.join(" | ");
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => object(schema, indent, depth, dialect),
        Some("string") => {
            let enums: Vec<String> = crate::schema::str_items(schema.get("enum"))
                .map(|s| format!("\"{s}\""))
                .collect();
            if enums.is_empty() {
                "string".into()
            } else {
                enums.join(" | ")
            }
        }
        Some("number" | "integer") => {
            if dialect == Dialect::Api && is_enum(schema) {
                let vals: Vec<String> = schema["enum"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|v| v.to_string())
                    .collect();
                return vals.join(" | ");
            }
            "number".into()
        }
        Some("boolean") => "boolean".into(),
        Some("null") if dialect == Dialect::Api => "null".into(),
        Some("array") => match schema.get("items") {
            Some(items) => format!("{}[]", ts(items, indent, depth, dialect)),
            None if dialect == Dialect::Api => "any[]".into(),
            None => "Array<any>".into(),
        },
        _ => "any".into(),
    }
}

/// An object type: `{`, one line per property, `}`.
fn object(schema: &Value, indent: &str, depth: usize, dialect: Dialect) -> String {
    let mut out = String::new();
    // The API leaves object descriptions out (rubenselander/openai-function-tokens,
    // testing.ipynb: recorded counts 96 and 46).
    if let Some(d) = str_of(schema, "description").filter(|_| dialect == Dialect::Harmony) {
        out.push_str(&format!("{indent}// {d}\n"));
    }
    out.push_str("{\n");
    // The API dialect indents by nesting depth (two spaces a level) and closes at the line start.
    let pad = match dialect {
        Dialect::Harmony => indent.to_string(),
        Dialect::Api => "  ".repeat(depth),
    };
    let mut lines = String::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (key, val) in props {
            let opt = if required.contains(&key.as_str()) {
                ""
            } else {
                "?"
            };
            property(&mut lines, key, opt, val, &pad, indent, depth, dialect);
        }
    }
    match dialect {
        Dialect::Harmony => {
            out.push_str(&lines);
            out.push_str(&format!("{indent}}}"));
        }
        Dialect::Api => {
            // hmarr: `["{", properties.join("\n"), "}"].join("\n")`, so an empty object is
            // `{\n\n}` and the closing brace carries no indent.
            if depth == 0 || !lines.is_empty() {
                out.push_str(&lines);
            } else {
                out.push('\n');
            }
            out.push('}');
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn property(
    out: &mut String,
    key: &str,
    opt: &str,
    val: &Value,
    pad: &str,
    indent: &str,
    depth: usize,
    dialect: Dialect,
) {
    if let Some(title) = str_of(val, "title") {
        out.push_str(&format!("{pad}// {title}\n{pad}//\n"));
    }
    let union = variants(val);
    // The API comments descriptions of top-level properties only (same recorded counts).
    let described = dialect == Dialect::Harmony || depth == 0;
    if union.is_none() && described {
        if let Some(d) = str_of(val, "description") {
            out.push_str(&format!("{pad}// {d}\n"));
        }
    }
    if let Some(examples) = val.get("examples").and_then(Value::as_array) {
        if !examples.is_empty() {
            out.push_str(&format!("{pad}// Examples:\n"));
            for ex in examples.iter().filter_map(Value::as_str) {
                out.push_str(&format!("{pad}// - \"{ex}\"\n"));
            }
        }
    }
    if let Some(vs) = union {
        let prop_desc = str_of(val, "description");
        let first_desc = vs.first().and_then(|v| str_of(v, "description"));
        let mut above = false;
        if let Some(d) = prop_desc.filter(|d| Some(*d) != first_desc) {
            out.push_str(&format!("{pad}// {d}\n"));
            above = true;
        }
        if let Some(def) = val.get("default") {
            out.push_str(&format!("{pad}// {}\n", default_text(val, def, false)));
        }
        out.push_str(&format!("{pad}{key}{opt}:\n"));
        for (i, variant) in vs.iter().enumerate() {
            out.push_str(&format!("{pad} | "));
            out.push_str(&variant_type(variant, pad, depth + 1, dialect));
            let mut trailing = Vec::new();
            if !(i == 0 && above) {
                if let Some(d) = str_of(variant, "description").filter(|d| Some(*d) != prop_desc) {
                    trailing.push(d.to_string());
                }
            }
            if let Some(def) = variant.get("default") {
                trailing.push(default_text(variant, def, false));
            }
            if !trailing.is_empty() {
                out.push_str(&format!(" // {}", trailing.join(" ")));
            }
            out.push('\n');
        }
        out.push_str(&format!("{pad},\n"));
        return;
    }
    let mut t = ts(val, &format!("{indent}    "), depth + 1, dialect);
    if nullable(val) && !t.contains("null") {
        t.push_str(" | null");
    }
    out.push_str(&format!("{pad}{key}{opt}: {t},"));
    if let Some(def) = val.get("default") {
        out.push_str(&format!(" // {}", default_text(val, def, false)));
    }
    out.push('\n');
}

/// The schema keywords the API-recorded counts cover; a tool set using others is counted with
/// the same rendering but labelled an estimate.
pub const PROVEN_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "description",
    "enum",
    "items",
    "additionalProperties",
    "anyOf",
    "const",
];

/// Keywords of `schema` (at any depth) outside [`PROVEN_KEYWORDS`], sorted, without repeats.
pub fn unproven_keywords(schema: &Value) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        let Some(o) = v.as_object() else { return };
        for (k, val) in o {
            if !PROVEN_KEYWORDS.contains(&k.as_str()) && !out.contains(k) {
                out.push(k.clone());
            }
            match k.as_str() {
                "properties" => {
                    for p in val.as_object().into_iter().flat_map(|m| m.values()) {
                        walk(p, out);
                    }
                }
                "items" => walk(val, out),
                "anyOf" => {
                    for v in val.as_array().into_iter().flatten() {
                        walk(v, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut out);
    out.sort();
    out
}
