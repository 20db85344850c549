//! Gemini `generateContent`: a function call turn follows a user turn or a function response
//! turn; the turn after it answers every call (as many `functionResponse` parts as
//! `functionCall` parts); Gemini 3's `thoughtSignature` on the first function call of each step;
//! what the OpenAPI `parameters` form rejects (`const`, exclusive bounds); function names.
//!
//! The request body does not name the model (it is in the URL), so the signature rule knows it
//! is talking to Gemini 3 only when the document says so: a `model` member naming it, a
//! `thinkingLevel` (a Gemini 3 setting), or signatures on other parts.

use crate::model::GEMINI_SKIP_SIGNATURE;
use crate::rules::{arr, edit_items, esc, seg, str_at, Finding, Rule, Severity, Source, NO_RESULT};
use serde_json::{json, Value};
use std::collections::HashSet;

const SIGNATURES: &str = "https://ai.google.dev/gemini-api/docs/thought-signatures";

/// The rules.
pub const RULES: &[Rule] = &[
    Rule {
        id: "gemini/response-count",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."),
        matches: &["number of function response parts is equal to the number of function call parts"],
        source: Source::Reported("https://github.com/google-gemini/gemini-cli/issues/4217"),
        advice: "fix: answer each call once (an error response for a call without one; a response without its call dropped)",
        check: response_count,
        fix: Some(balance),
    },
    Rule {
        id: "gemini/call-turn-order",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Please ensure that function call turn comes immediately after a user turn or after a function response turn."),
        matches: &["function call turn comes immediately after a user turn"],
        source: Source::Reported("https://github.com/google-gemini/gemini-cli/issues/11814"),
        advice: "no mechanical fix: put the user's message (or the function responses) this call answers before it, or merge it into the model turn before",
        check: call_order,
        fix: None,
    },
    Rule {
        id: "gemini/response-turn-order",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Please ensure that function response turn comes immediately after a function call turn"),
        matches: &["function response turn comes immediately after a function call turn"],
        source: Source::Reported("https://github.com/langchain-ai/langchain/issues/27799"),
        advice: "fix: drop the function responses that follow no function call turn",
        check: response_order,
        fix: Some(drop_responses),
    },
    Rule {
        id: "gemini/thought-signature",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:shell` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."),
        matches: &["Function call is missing a thought_signature"],
        source: Source::Docs(SIGNATURES),
        advice: "fix: send back the signature Gemini returned on this part; when it is lost, the documented placeholder (skip_thought_signature_validator) lets the request through",
        check: |d| signatures(d).0,
        fix: Some(placeholder),
    },
    Rule {
        id: "gemini/thought-signature-history",
        provider: "Gemini",
        severity: Severity::Warning,
        error: None,
        matches: &[],
        source: Source::Docs(SIGNATURES),
        advice: "fix: send back the signatures of earlier turns too (Gemini documents degraded answers without them; the placeholder silences the check, not the loss)",
        check: |d| signatures(d).1,
        fix: Some(placeholder),
    },
    Rule {
        id: "gemini/parameters-const",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[5].parameters.properties[8].value.any_of[0]': Cannot find field."),
        matches: &["Unknown name \"const\"", "Cannot find field"],
        source: Source::Reported("https://github.com/zed-industries/zed/issues/44875"),
        advice: "fix: send this schema as parametersJsonSchema (full JSON Schema) instead of parameters",
        check: |d| unknown_keywords(d, "gemini/parameters-const", &["const"]),
        fix: Some(to_json_schema),
    },
    Rule {
        id: "gemini/parameters-exclusive-bounds",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("Invalid JSON payload received. Unknown name \"exclusiveMinimum\" at 'tools[0].function_declarations[17].parameters.properties[2].value': Cannot find field."),
        matches: &["Unknown name \"exclusiveM", "Cannot find field"],
        source: Source::Reported("https://github.com/pollinations/pollinations/issues/6307"),
        advice: "fix: send this schema as parametersJsonSchema (full JSON Schema) instead of parameters",
        check: |d| {
            unknown_keywords(
                d,
                "gemini/parameters-exclusive-bounds",
                &["exclusiveMinimum", "exclusiveMaximum"],
            )
        },
        fix: Some(to_json_schema),
    },
    Rule {
        id: "gemini/function-name",
        provider: "Gemini",
        severity: Severity::Error,
        error: Some("* GenerateContentRequest.tools[0].function_declarations[37].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64."),
        matches: &["Invalid function name. Must start with a letter or an underscore"],
        source: Source::Reported("https://github.com/google-gemini/gemini-cli/issues/6704"),
        advice: "fix: rename the function (and its calls and responses) to a name Gemini accepts",
        check: names,
        fix: Some(rename),
    },
];

fn role(c: &Value) -> &str {
    str_at(c, "role").unwrap_or("")
}

fn parts(c: &Value) -> &[Value] {
    arr(c, "parts")
}

fn call(p: &Value) -> Option<&Value> {
    p.get("functionCall").or_else(|| p.get("function_call"))
}

fn response(p: &Value) -> Option<&Value> {
    p.get("functionResponse")
        .or_else(|| p.get("function_response"))
}

fn calls(c: &Value) -> usize {
    parts(c).iter().filter(|p| call(p).is_some()).count()
}

fn responses(c: &Value) -> usize {
    parts(c).iter().filter(|p| response(p).is_some()).count()
}

/// A model turn with function calls.
fn is_call_turn(c: &Value) -> bool {
    role(c) == "model" && calls(c) > 0
}

fn response_count(doc: &Value) -> Vec<Finding> {
    let contents = arr(doc, "contents");
    let mut out = Vec::new();
    for (k, c) in contents.iter().enumerate() {
        if !is_call_turn(c) {
            continue;
        }
        let Some(next) = contents.get(k + 1) else {
            continue;
        };
        let (n, r) = (calls(c), responses(next));
        if n != r {
            out.push(Finding::new(
                "gemini/response-count",
                format!("/contents/{}", k + 1),
                format!("the function call turn before has {n} call(s), this turn {r} response(s)"),
            ));
        }
    }
    out
}

/// The key a call and its response pair on: the id when there is one, else the name.
fn key(v: &Value) -> String {
    match str_at(v, "id") {
        Some(id) if !id.is_empty() => format!("id:{id}"),
        _ => format!("name:{}", str_at(v, "name").unwrap_or("")),
    }
}

/// Make the turn after a call turn answer each call once.
fn balance(doc: &mut Value, f: &Finding) -> bool {
    let Some(n) = seg(&f.pointer, 1) else {
        return false;
    };
    let Some(k) = n.checked_sub(1) else {
        return false;
    };
    let wanted: Vec<Value> = arr(doc, "contents")
        .get(k)
        .map(|c| parts(c).iter().filter_map(call).cloned().collect())
        .unwrap_or_default();
    let Some(contents) = doc.get_mut("contents").and_then(Value::as_array_mut) else {
        return false;
    };
    if contents
        .get(n)
        .is_some_and(|c| role(c) != "user" || responses(c) == 0)
    {
        contents.insert(n, json!({"role": "user", "parts": []}));
    }
    let Some(ps) = contents
        .get_mut(n)
        .and_then(|c| c.get_mut("parts"))
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    // Keep one response per call (in the order given), drop the rest; answer what is left.
    let mut open: Vec<String> = wanted.iter().map(key).collect();
    ps.retain(|p| match response(p) {
        Some(r) => match open.iter().position(|k| *k == key(r)) {
            Some(i) => {
                open.remove(i);
                true
            }
            None => false,
        },
        None => true,
    });
    let lead = ps.iter().take_while(|p| response(p).is_some()).count();
    let mut at = lead;
    for c in &wanted {
        let k = key(c);
        if let Some(i) = open.iter().position(|o| *o == k) {
            open.remove(i);
            let mut r =
                json!({"name": str_at(c, "name").unwrap_or(""), "response": {"error": NO_RESULT}});
            if let Some(id) = str_at(c, "id") {
                r["id"] = json!(id);
            }
            ps.insert(at, json!({"functionResponse": r}));
            at += 1;
        }
    }
    true
}

fn call_order(doc: &Value) -> Vec<Finding> {
    let contents = arr(doc, "contents");
    let mut out = Vec::new();
    for (k, c) in contents.iter().enumerate() {
        if !is_call_turn(c) {
            continue;
        }
        let ok = k
            .checked_sub(1)
            .and_then(|p| contents.get(p))
            .is_some_and(|p| role(p) == "user");
        if !ok {
            out.push(Finding::new(
                "gemini/call-turn-order",
                format!("/contents/{k}"),
                "a function call turn must come right after a user turn or a function response turn",
            ));
        }
    }
    out
}

fn response_order(doc: &Value) -> Vec<Finding> {
    let contents = arr(doc, "contents");
    let mut out = Vec::new();
    for (k, c) in contents.iter().enumerate() {
        if responses(c) == 0 {
            continue;
        }
        let ok = k
            .checked_sub(1)
            .and_then(|p| contents.get(p))
            .is_some_and(is_call_turn);
        if !ok {
            out.push(Finding::new(
                "gemini/response-turn-order",
                format!("/contents/{k}"),
                "these function responses follow no function call turn",
            ));
        }
    }
    out
}

fn drop_responses(doc: &mut Value, f: &Finding) -> bool {
    let Some(k) = seg(&f.pointer, 1) else {
        return false;
    };
    edit_items(doc, "contents", k, "parts", |ps| {
        ps.retain(|p| response(p).is_none());
        true
    })
}

/// True when the document says it is for Gemini 3.
fn gemini3(doc: &Value) -> bool {
    if let Some(m) = str_at(doc, "model") {
        return m.contains("gemini-3");
    }
    let level = doc
        .get("generationConfig")
        .and_then(|g| g.get("thinkingConfig"))
        .is_some_and(|t| t.get("thinkingLevel").is_some());
    level
        || arr(doc, "contents")
            .iter()
            .flat_map(parts)
            .any(|p| p.get("thoughtSignature").is_some())
}

/// (first calls of a step without a signature in the current turn, in earlier turns).
fn signatures(doc: &Value) -> (Vec<Finding>, Vec<Finding>) {
    if !gemini3(doc) {
        return (Vec::new(), Vec::new());
    }
    let contents = arr(doc, "contents");
    // The current turn starts after the user's last own message (not function responses).
    let turn = contents
        .iter()
        .rposition(|c| role(c) == "user" && parts(c).iter().any(|p| response(p).is_none()))
        .unwrap_or(0);
    let (mut now, mut before) = (Vec::new(), Vec::new());
    for (k, c) in contents.iter().enumerate() {
        if role(c) != "model" {
            continue;
        }
        let Some((j, p)) = parts(c).iter().enumerate().find(|(_, p)| call(p).is_some()) else {
            continue;
        };
        let signed = p
            .get("thoughtSignature")
            .or_else(|| p.get("thought_signature"))
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if signed {
            continue;
        }
        let name = call(p).and_then(|c| str_at(c, "name")).unwrap_or("");
        let at = format!("/contents/{k}/parts/{j}");
        if k > turn {
            now.push(Finding::new(
                "gemini/thought-signature",
                at,
                format!("the first function call of this step ({name}) has no thoughtSignature"),
            ));
        } else {
            before.push(Finding::new(
                "gemini/thought-signature-history",
                at,
                format!(
                    "the first function call of this earlier step ({name}) has no thoughtSignature"
                ),
            ));
        }
    }
    (now, before)
}

fn placeholder(doc: &mut Value, f: &Finding) -> bool {
    match doc.pointer_mut(&f.pointer).and_then(Value::as_object_mut) {
        Some(p) => {
            p.insert("thoughtSignature".into(), json!(GEMINI_SKIP_SIGNATURE));
            true
        }
        None => false,
    }
}

/// The function declarations: (tool index, declaration index, declaration).
fn declarations(doc: &Value) -> impl Iterator<Item = (usize, usize, &Value)> {
    arr(doc, "tools").iter().enumerate().flat_map(|(t, tool)| {
        let ds = tool
            .get("functionDeclarations")
            .or_else(|| tool.get("function_declarations"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        ds.iter().enumerate().map(move |(d, decl)| (t, d, decl))
    })
}

fn decl_key(doc: &Value, t: usize) -> &'static str {
    let snake = arr(doc, "tools")
        .get(t)
        .is_some_and(|tool| tool.get("function_declarations").is_some());
    if snake {
        "function_declarations"
    } else {
        "functionDeclarations"
    }
}

fn unknown_keywords(doc: &Value, rule: &'static str, words: &[&str]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (t, d, decl) in declarations(doc) {
        if let Some(p) = decl.get("parameters") {
            let base = format!("/tools/{t}/{}/{d}/parameters", decl_key(doc, t));
            walk(p, &base, 0, &mut |at, key| {
                if words.contains(&key) {
                    out.push(Finding::new(
                        rule,
                        format!("{at}/{key}"),
                        format!("`parameters` (Gemini's OpenAPI subset) has no `{key}`"),
                    ));
                }
            });
        }
    }
    out
}

/// Every keyword of a schema and its subschemas (not the names of its properties).
fn walk(s: &Value, at: &str, depth: usize, f: &mut dyn FnMut(&str, &str)) {
    let Some(obj) = s.as_object() else {
        return;
    };
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    for (k, v) in obj {
        f(at, k);
        let here = format!("{at}/{}", esc(k));
        match k.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Some(m) = v.as_object() {
                    for (name, sub) in m {
                        walk(sub, &format!("{here}/{}", esc(name)), depth + 1, f);
                    }
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, sub) in v
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                {
                    walk(sub, &format!("{here}/{i}"), depth + 1, f);
                }
            }
            "items" | "not" | "additionalProperties" => walk(v, &here, depth + 1, f),
            _ => {}
        }
    }
}

/// Send a declaration's schema as `parametersJsonSchema` (lower-case JSON Schema types).
fn to_json_schema(doc: &mut Value, f: &Finding) -> bool {
    let (Some(t), Some(d)) = (seg(&f.pointer, 1), seg(&f.pointer, 3)) else {
        return false;
    };
    let key = decl_key(doc, t);
    let Some(decl) = doc
        .pointer_mut(&format!("/tools/{t}/{key}/{d}"))
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    if decl.contains_key("parametersJsonSchema") {
        return false;
    }
    let Some(mut p) = decl.remove("parameters") else {
        return false;
    };
    lower_types(&mut p, 0);
    decl.insert("parametersJsonSchema".into(), p);
    true
}

fn lower_types(v: &mut Value, depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if k == "type" {
                    if let Value::String(s) = x {
                        *s = s.to_ascii_lowercase();
                    }
                } else if !matches!(
                    k.as_str(),
                    "enum" | "const" | "default" | "example" | "examples"
                ) {
                    lower_types(x, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| lower_types(x, depth + 1)),
        _ => {}
    }
}

/// A name Gemini accepts: a letter or `_` first, then letters, digits, `_ . - :`, at most 64.
pub fn valid_name(n: &str) -> bool {
    let mut b = n.bytes();
    let first_ok = b
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_');
    first_ok
        && n.len() <= 64
        && n.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b':'))
}

fn names(doc: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    for (t, d, decl) in declarations(doc) {
        let n = str_at(decl, "name").unwrap_or("");
        if !valid_name(n) {
            out.push(
                Finding::new(
                    "gemini/function-name",
                    format!("/tools/{t}/{}/{d}/name", decl_key(doc, t)),
                    format!("{n:?} is not a function name Gemini accepts"),
                )
                .about(n),
            );
        }
    }
    out
}

/// The name `n` made valid, not among `taken`.
fn valid_from(n: &str, taken: &HashSet<String>) -> String {
    let mut s: String = n
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | ':') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    s.truncate(60);
    let mut out = s.clone();
    let mut i = 2;
    while taken.contains(&out) {
        out = format!("{s}_{i}");
        i += 1;
    }
    out
}

fn rename(doc: &mut Value, f: &Finding) -> bool {
    let Some(old) = f.subject.clone() else {
        return false;
    };
    let taken: HashSet<String> = declarations(doc)
        .filter_map(|(_, _, d)| str_at(d, "name").map(str::to_string))
        .collect();
    let new = valid_from(&old, &taken);
    match doc.pointer_mut(&f.pointer) {
        Some(v) => *v = json!(new),
        None => return false,
    }
    if let Some(contents) = doc.get_mut("contents").and_then(Value::as_array_mut) {
        for c in contents {
            let Some(ps) = c.get_mut("parts").and_then(Value::as_array_mut) else {
                continue;
            };
            for p in ps {
                for k in [
                    "functionCall",
                    "function_call",
                    "functionResponse",
                    "function_response",
                ] {
                    if let Some(x) = p
                        .get_mut(k)
                        .filter(|x| str_at(x, "name") == Some(old.as_str()))
                    {
                        x["name"] = json!(new);
                    }
                }
            }
        }
    }
    if let Some(names) = doc
        .pointer_mut("/toolConfig/functionCallingConfig/allowedFunctionNames")
        .and_then(Value::as_array_mut)
    {
        for n in names
            .iter_mut()
            .filter(|n| n.as_str() == Some(old.as_str()))
        {
            *n = json!(new);
        }
    }
    true
}
