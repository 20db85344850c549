//! The prompt tokens of a request to an OpenAI model (the Chat Completions rules: the
//! framing of [`super::prompt::OpenAi`]), exact with the model's tiktoken encoding:
//! - every message costs 3 tokens of framing plus its role and content, a `name` 1 more plus
//!   the name (OpenAI cookbook, "How to count tokens with tiktoken", `num_tokens_from_messages`);
//!   the reply is primed with 3 tokens;
//! - tools: the `namespace functions` text ([`namespace`], API dialect) plus 9;
//!   with a system message 4 fewer, and the system text counted with a `\n` appended;
//!   `tool_choice`/`function_call` `none` adds 1, a forced function its name plus 4; a legacy
//!   `function_call` in an assistant message adds 3 plus its name and arguments, a `function`
//!   result message 2 fewer than a plain message (hmarr/openai-chat-tokens, `src/index.ts`;
//!   rubenselander/openai-function-tokens: both reproduce prompt token counts the API
//!   reported, which `tests/fixtures/cost/recorded_counts.json` holds, 44 of them).
//!
//! "Exact" means proven: a count is marked exact only for a model and a request shape that
//! published prompt counts confirm ([`PROVEN`] names them), 75 of them in
//! `tests/fixtures/cost/recorded_counts.json` (hmarr/openai-chat-tokens, the OpenAI cookbook,
//! rubenselander/openai-function-tokens, pamelafox/openai-messages-token-helper). The rules
//! reproduce 65 of them; the other 10 are requests of a system message alone with tools whose
//! schemas nest objects, have numeric enums or undescribed properties, or force a tool: those
//! shapes are estimates, off by up to [`MARGIN`] tokens.
//!
//! What those sources do not prove is counted with the nearest rule and makes the figure an
//! estimate ±[`MARGIN`], with the reason in the method line: `tool_calls` with ids (counted
//! like one legacy `function_call` each), `tool` result messages (counted as plain messages), schema
//! keywords outside the recorded cases, `required` tool choice, the shapes above, tools for
//! gpt-4o beyond the cookbook's (flat described properties, string enums, `auto`), models with
//! no published counts (gpt-4.1, gpt-5, o-series, …), Responses requests, gpt-oss (harmony
//! framing), unknown model ids. Other families are estimates (`cost::count`).

use super::prompt::{harmony, namespace, unproven_keywords, Dialect};
use crate::formats::prompt::{text_of, Framing};
use crate::model::{ChoiceMode, Exchange, Message, Part, Role};

/// The Chat Completions framing rules (see the module doc).
pub(super) fn framing(x: &Exchange, model: &str, tok: &dyn Fn(&str) -> u64) -> Option<Framing> {
    let mut why: Vec<String> = Vec::new();
    let harmony = harmony(model);
    if harmony {
        why.push(
            "gpt-oss reads the harmony format; its system message depends on the server, \
             counted with the Chat Completions framing"
                .into(),
        );
    }
    // A system message as sent: its role and `name` are kept aside by the decoder.
    let sent = x
        .extra
        .get("openai-chat")
        .and_then(|e| e.get("toolscope:system"));
    let system_role = sent
        .and_then(|m| m.get("role"))
        .and_then(|r| r.as_str())
        .unwrap_or("system");
    let system_name = sent.and_then(|m| m.get("name")).and_then(|n| n.as_str());
    let system = x
        .system
        .as_deref()
        .map(|s| 3 + tok(system_role) + tok(s) + system_name.map_or(0, |n| 1 + tok(n)))
        .unwrap_or(0);

    let mut tools: i64 = 0;
    if !x.tools.is_empty() {
        let dialect = if harmony {
            Dialect::Harmony
        } else {
            Dialect::Api
        };
        tools += tok(&namespace(&x.tools, dialect)) as i64 + 9;
        if let Some(s) = &x.system {
            tools -= 4;
            // The system text is padded with a newline when functions are present.
            tools += tok(&format!("{s}\n")) as i64 - tok(s) as i64;
        }
        let mut unproven: Vec<String> = Vec::new();
        for t in &x.tools {
            for k in unproven_keywords(&t.input_schema) {
                if !unproven.contains(&k) {
                    unproven.push(k);
                }
            }
        }
        if !unproven.is_empty() {
            why.push(format!(
                "schema keywords without recorded counts: {}",
                unproven.join(", ")
            ));
        }
        match &x.tool_choice {
            Some(tc) if tc.mode == ChoiceMode::None => tools += 1,
            Some(tc) if tc.mode == ChoiceMode::Required && tc.tools.len() == 1 => {
                tools += tok(&tc.tools[0]) as i64 + 4;
            }
            Some(tc) if tc.mode == ChoiceMode::Required => {
                why.push("tool_choice required has no recorded count (counted as 0)".into())
            }
            Some(tc) if !tc.tools.is_empty() || tc.mode == ChoiceMode::Validated => {
                why.push("this tool_choice has no recorded count (counted as 0)".into())
            }
            _ => {}
        }
    }

    let mut tool_calls = false;
    let mut tool_results = false;
    let mut raw = false;
    let messages = x
        .messages
        .iter()
        .map(|msg| match msg.role {
            Role::User => {
                let mut n = 3 + tok(role_of(msg)) + tok(&text_of(msg));
                if let Some(name) = name_of(msg) {
                    n += 1 + tok(name);
                }
                for p in &msg.parts {
                    if let Part::Raw { value, .. } = p {
                        raw = true;
                        n += tok(&value.to_string());
                    }
                }
                n
            }
            Role::Assistant => {
                let mut n = 3 + tok("assistant") + tok(&text_of(msg));
                if let Some(name) = name_of(msg) {
                    n += 1 + tok(name);
                }
                let calls: Vec<_> = msg.tool_calls().collect();
                if calls.len() > 1 || calls.iter().any(|k| k.id.is_some()) {
                    tool_calls = true;
                }
                for k in calls {
                    n += 3 + tok(&k.name) + tok(&k.arguments_text());
                }
                for p in &msg.parts {
                    if let Part::Raw { value, .. } = p {
                        raw = true;
                        n += tok(&value.to_string());
                    }
                }
                n
            }
            Role::Tool => msg
                .tool_results()
                .map(|r| {
                    let content = tok(&r.content.to_text());
                    match (&r.call_id, &r.name) {
                        // A legacy `function` message: role, name, content, 3 + 1 − 2.
                        (None, Some(name)) => 3 + tok("function") + content + tok(name) + 1 - 2,
                        _ => {
                            tool_results = true;
                            3 + tok("tool") + content
                        }
                    }
                })
                .sum(),
        })
        .collect();
    if tool_calls {
        why.push("tool_calls counted like one legacy function_call each (not recorded)".into());
    }
    if tool_results {
        why.push("tool messages counted as plain messages (not recorded)".into());
    }
    if raw {
        why.push("content blocks counted as their JSON".into());
    }
    Some(Framing {
        system,
        messages,
        primer: 3,
        tools: tools.max(0) as u64,
        why,
        unproven_shape: unproven_shape(x, model),
        rules: if harmony {
            "harmony tools section"
        } else {
            "Chat Completions rules (OpenAI cookbook; hmarr/openai-chat-tokens)"
        },
        proven: PROVEN,
        margin: MARGIN,
    })
}

/// The role as sent: a system or developer message inside the conversation is read as a user
/// message that remembers its role.
fn role_of(m: &Message) -> &str {
    m.extra
        .get("openai-chat")
        .and_then(|e| e.get("toolscope:role"))
        .and_then(|v| v.as_str())
        .unwrap_or("user")
}

fn name_of(m: &Message) -> Option<&str> {
    m.extra
        .get("openai-chat")
        .and_then(|e| e.get("name"))
        .and_then(|v| v.as_str())
}

/// The largest deviation of the OpenAI rules from the published prompt counts: what an
/// OpenAI estimate may be off by (measured: 7 of `inner_object_and_string` and
/// `inner_object_with_enum`, pamelafox/openai-messages-token-helper tests/functions.py).
pub const MARGIN: u64 = 7;

/// The models and request shapes the published counts prove, for the method.
pub const PROVEN: &str = "gpt-3.5-turbo and gpt-4: messages, and tools or functions with a \
     user or assistant message (nested objects, enums, arrays, forced and none tool choice), or \
     with a system message alone when their properties are described, not nested, with string \
     enums only and tool choice auto or none; gpt-4o and gpt-4o-mini: messages, and tools of \
     described flat properties with string enums and tool choice auto beside a user message";

/// Which published counts cover `model`: the cl100k chat models (gpt-3.5-turbo, gpt-4) or
/// gpt-4o and gpt-4o-mini (the cookbook's `num_tokens_for_tools` models).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Covered {
    Cl100k,
    Omni,
}

fn covered(model: &str) -> Option<Covered> {
    let l = model.to_ascii_lowercase();
    let l = l.strip_prefix("openai/").unwrap_or(&l);
    if l.starts_with("gpt-3.5-turbo") || l.starts_with("gpt-35-turbo") {
        return Some(Covered::Cl100k);
    }
    if l == "gpt-4" || l.starts_with("gpt-4-0613") || l.starts_with("gpt-4-0314") {
        return Some(Covered::Cl100k);
    }
    if l == "gpt-4o" || l.starts_with("gpt-4o-20") || l.starts_with("gpt-4o-mini") {
        return Some(Covered::Omni);
    }
    None
}

/// What the tool schemas of a request hold, for the shape check.
#[derive(Debug, Default)]
struct Shape {
    nested: bool,
    numeric_enum: bool,
    undescribed: bool,
    array: bool,
    other_types: bool,
}

fn shape_of(x: &Exchange) -> Shape {
    fn props(schema: &serde_json::Value, top: bool, s: &mut Shape) {
        let Some(ps) = schema.get("properties").and_then(|p| p.as_object()) else {
            return;
        };
        for p in ps.values() {
            if !top {
                s.nested = true;
            }
            if p.get("description").is_none() {
                s.undescribed = true;
            }
            if let Some(e) = p.get("enum").and_then(|e| e.as_array()) {
                if e.iter().any(|v| !v.is_string()) {
                    s.numeric_enum = true;
                }
            }
            match p.get("type").and_then(|t| t.as_str()) {
                Some("object") => {
                    s.nested = true;
                    props(p, false, s);
                }
                Some("array") => {
                    s.array = true;
                    if let Some(items) = p.get("items") {
                        if items.get("properties").is_some() {
                            s.nested = true;
                            props(items, false, s);
                        }
                    }
                }
                Some("string" | "number" | "integer") => {}
                _ => s.other_types = true,
            }
        }
    }
    let mut s = Shape::default();
    for t in &x.tools {
        props(&t.input_schema, true, &mut s);
    }
    s
}

/// Why the request's shape is not one the published counts prove for `model`, if it is not.
fn unproven_shape(x: &Exchange, model: &str) -> Option<String> {
    let Some(cover) = covered(model) else {
        return Some(format!(
            "no published prompt counts for {} (the gpt-4o rules)",
            model
        ));
    };
    if x.tools.is_empty() {
        return None;
    }
    let s = shape_of(x);
    let forced = x
        .tool_choice
        .as_ref()
        .is_some_and(|c| c.mode == ChoiceMode::Required);
    let none = x
        .tool_choice
        .as_ref()
        .is_some_and(|c| c.mode == ChoiceMode::None);
    let conversation = !x.messages.is_empty();
    let mut unproven: Vec<&str> = Vec::new();
    match cover {
        Covered::Cl100k if conversation => {}
        Covered::Cl100k => {
            // A system message alone with tools: only these shapes match their counts.
            if s.nested {
                unproven.push("nested objects");
            }
            if s.numeric_enum {
                unproven.push("numeric enums");
            }
            if s.undescribed {
                unproven.push("properties without a description");
            }
            if forced {
                unproven.push("a forced tool");
            }
        }
        Covered::Omni => {
            if !conversation {
                unproven.push("a system message alone");
            }
            if s.nested {
                unproven.push("nested objects");
            }
            if s.numeric_enum {
                unproven.push("numeric enums");
            }
            if s.undescribed {
                unproven.push("properties without a description");
            }
            if s.array || s.other_types {
                unproven.push("array, boolean or untyped properties");
            }
            if forced || none {
                unproven.push("a tool choice other than auto");
            }
        }
    }
    (!unproven.is_empty()).then(|| {
        format!(
            "tools with {} have no matching published count for {}",
            unproven.join(", "),
            model
        )
    })
}
