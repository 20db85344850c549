//! OpenAI strict mode (`strict: true` function tools; Structured Outputs' schema subset).
//!
//! Rules, from OpenAI's Structured Outputs guide ("Supported schemas") and the `openai` SDK's
//! `openai.lib._pydantic._ensure_strict_json_schema`:
//! - the root is an object schema, not `anyOf` (`openai.strict.root-object`);
//! - every object has `additionalProperties: false` (`openai.strict.additional-properties`) and
//!   lists every property in `required` (`openai.strict.required`); the fix makes a property
//!   that was optional accept `null` instead (`type: [T, "null"]`, `null` added to its `enum`, or
//!   `anyOf: [S, {"type": "null"}]`);
//! - unsupported keywords (`openai.strict.unsupported-keyword`, error): `allOf`, `not`, `if`,
//!   `then`, `else`, `dependentRequired`, `dependentSchemas`; `oneOf` (only `anyOf` is listed).
//!   The fix merges `allOf` (like the SDK for one member), turns `oneOf` into `anyOf`, drops the
//!   rest;
//! - keywords supported only outside fine-tuned models, or not in the supported list
//!   (`openai.strict.limited-keyword`, warning, dropped by the fix): `minLength`, `maxLength`,
//!   `patternProperties`, `unevaluatedProperties`, `propertyNames`, `minProperties`,
//!   `maxProperties`, `unevaluatedItems`, `contains`, `minContains`, `maxContains`,
//!   `uniqueItems`, and `format` values other than date-time, time, date, duration, email,
//!   hostname, ipv4, ipv6, uuid (`pattern`, `format`, `minimum`…, `minItems`/`maxItems`,
//!   `multipleOf` are supported);
//! - `$ref` with sibling keywords (`openai.strict.ref-siblings`): the SDK inlines it, so does
//!   the fix; a `$ref` outside the schema (`openai.strict.ref`) is an error;
//! - size limits (`openai.strict.limits`, no fix): at most 10 levels of object nesting, 5000
//!   object properties in total, 1000 enum values in total, 120,000 characters of property
//!   names, definition names, enum and const values, and 15,000 characters for one string enum
//!   of more than 250 values.

use crate::schema::walk::{
    children, is_object_schema, merge_into, one_of_into_any_of, ref_cycle, resolve,
};
use crate::schema::{esc, str_items, Dialect, Finding, Fix, Severity, Strict, MAX_DEPTH};
use serde_json::{Map, Value};

/// Strict structured outputs as a schema dialect: a strict tool's rules (its root among them),
/// and the "make strict" offer.
pub const DIALECT: Dialect = Dialect {
    root_object: None,
    strict: Some(Strict {
        lint: lint_strict,
        offer: offer_strict,
    }),
    tool: None,
};

const UNSUPPORTED: [&str; 8] = [
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "oneOf",
];
const LIMITED: [&str; 12] = [
    "minLength",
    "maxLength",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
];
const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// Documented limits.
pub const MAX_NESTING: usize = 10;
/// Documented limits.
pub const MAX_PROPERTIES: usize = 5000;
/// Documented limits.
pub const MAX_ENUM_VALUES: usize = 1000;
/// Documented limits.
pub const MAX_STRING_LENGTH: usize = 120_000;
/// Documented limits: one string enum of more than [`BIG_ENUM`] values.
pub const MAX_BIG_ENUM_LENGTH: usize = 15_000;
/// Documented limits.
pub const BIG_ENUM: usize = 250;

type Issue = (String, Severity, &'static str, String, bool);

/// Strict-mode findings for one tool's schema (the tool has `strict: true`).
pub fn lint_strict(s: &Value, tool: usize, at: &str) -> Vec<Finding> {
    let issues = violations(s, at);
    if issues.is_empty() {
        return Vec::new();
    }
    let fixed = make_strict(s);
    let fix = (fixed != *s).then(|| Fix::Schema {
        tool,
        schema: fixed,
    });
    issues
        .into_iter()
        .map(|(p, sev, rule, msg, fixable)| {
            Finding::new(p, sev, rule, msg).with_fix(if fixable { fix.clone() } else { None })
        })
        .collect()
}

/// The opt-in "make strict" finding for a tool without `strict: true`: an info finding with a
/// [`Fix::MakeStrict`] when the fixed schema passes every strict rule, else a warning naming
/// what stands in the way.
pub fn offer_strict(s: &Value, tool: usize, at: &str) -> Vec<Finding> {
    let fixed = make_strict(s);
    let left = violations(&fixed, at);
    match left.iter().find(|i| i.1 == Severity::Error) {
        None => vec![Finding::new(
            at,
            Severity::Info,
            "openai.make-strict",
            "this tool can use strict mode; fix: make the schema strict and set `strict: true`",
        )
        .with_fix(Some(Fix::MakeStrict {
            tool,
            schema: fixed,
        }))],
        Some((p, _, rule, msg, _)) => vec![Finding::new(
            at,
            Severity::Warning,
            "openai.make-strict",
            format!("this tool cannot use strict mode: {msg} at {p} [{rule}]"),
        )],
    }
}

/// Every strict-mode violation: (pointer, severity, rule, message, fixable).
pub fn violations(s: &Value, at: &str) -> Vec<Issue> {
    let mut out = Vec::new();
    let root_ok = s.get("type").and_then(Value::as_str) == Some("object")
        || (s.get("type").is_none() && s.get("properties").is_some_and(Value::is_object));
    if !root_ok || s.get("anyOf").is_some() {
        let fixable = s.get("type").is_none() && s.get("properties").is_some_and(Value::is_object);
        out.push((
            at.to_string(),
            Severity::Error,
            "openai.strict.root-object",
            "strict mode needs an object schema at the root (not anyOf, not another type)".into(),
            fixable,
        ));
    } else if s.get("type").is_none() {
        out.push((
            at.to_string(),
            Severity::Error,
            "openai.strict.root-object",
            "the root object schema needs `\"type\": \"object\"`".into(),
            true,
        ));
    }
    let mut stats = Stats::default();
    walk(s, s, at, 0, 0, &mut out, &mut stats);
    let mut limit = |what: String| {
        out.push((
            at.to_string(),
            Severity::Error,
            "openai.strict.limits",
            what,
            false,
        ))
    };
    // (count, cap, words before and after the count), in the order they are reported.
    let caps = [
        (stats.nesting, MAX_NESTING, "objects nest ", " levels deep"),
        (
            stats.properties,
            MAX_PROPERTIES,
            "",
            " object properties in total",
        ),
        (
            stats.enum_values,
            MAX_ENUM_VALUES,
            "",
            " enum values in total",
        ),
        (
            stats.chars,
            MAX_STRING_LENGTH,
            "",
            " characters of names and enum/const values",
        ),
    ];
    for (n, cap, before, after) in caps {
        if n > cap {
            limit(format!("{before}{n}{after}; strict mode allows {cap}"));
        }
    }
    if let Some(p) = stats.big_enum {
        limit(format!(
            "the enum at {p} has more than {BIG_ENUM} values totalling over {MAX_BIG_ENUM_LENGTH} characters"
        ));
    }
    out
}

#[derive(Default)]
struct Stats {
    nesting: usize,
    properties: usize,
    enum_values: usize,
    chars: usize,
    big_enum: Option<String>,
}

fn str_len(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        other => other.to_string().len(),
    }
}

fn walk(
    root: &Value,
    s: &Value,
    at: &str,
    depth: usize,
    nesting: usize,
    out: &mut Vec<Issue>,
    st: &mut Stats,
) {
    let Some(m) = s.as_object() else { return };
    if depth > MAX_DEPTH {
        out.push((
            at.into(),
            Severity::Error,
            "schema.too-deep",
            format!("nested deeper than {MAX_DEPTH} levels; not checked below"),
            false,
        ));
        return;
    }
    let object = is_object_schema(s);
    let nesting = nesting + usize::from(object);
    st.nesting = st.nesting.max(nesting);
    for (k, v) in m {
        let here = format!("{at}/{}", esc(k));
        if UNSUPPORTED.contains(&k.as_str()) {
            out.push((
                here,
                Severity::Error,
                "openai.strict.unsupported-keyword",
                format!(
                    "`{k}` is not supported in strict mode; fix: {}",
                    match k.as_str() {
                        "allOf" => "merge its schemas",
                        "oneOf" => "`anyOf`",
                        _ => "remove it",
                    }
                ),
                true,
            ));
        } else if LIMITED.contains(&k.as_str()) {
            out.push((here, Severity::Warning, "openai.strict.limited-keyword", format!("`{k}` is not in strict mode's supported keywords (rejected for fine-tuned models); fix: remove it"), true));
        } else if k == "format" && !v.as_str().is_some_and(|f| FORMATS.contains(&f)) {
            out.push((
                here,
                Severity::Warning,
                "openai.strict.limited-keyword",
                format!("format {v} is not one strict mode supports; fix: remove it"),
                true,
            ));
        } else if k == "$ref" {
            match v.as_str() {
                Some(r) if ref_cycle(root, r) => out.push((
                    here,
                    Severity::Error,
                    "openai.strict.ref",
                    format!("`$ref` {r} only leads to itself"),
                    false,
                )),
                Some(r) if resolve(root, r).is_some() => {
                    if m.len() > 1 {
                        out.push((here, Severity::Warning, "openai.strict.ref-siblings", "`$ref` with sibling keywords; fix: inline the reference (as the openai SDK does)".into(), true));
                    }
                }
                _ => out.push((
                    here,
                    Severity::Error,
                    "openai.strict.ref",
                    format!("`$ref` {v} does not resolve inside the schema"),
                    false,
                )),
            }
        } else if k == "enum" {
            if let Some(a) = v.as_array() {
                st.enum_values += a.len();
                let len: usize = a.iter().map(str_len).sum();
                st.chars += len;
                if a.len() > BIG_ENUM && a.iter().all(Value::is_string) && len > MAX_BIG_ENUM_LENGTH
                {
                    st.big_enum.get_or_insert(here);
                }
            }
        } else if k == "const" {
            st.chars += str_len(v);
        } else if k == "$defs" || k == "definitions" {
            st.chars += v
                .as_object()
                .map_or(0, |d| d.keys().map(|n| n.chars().count()).sum());
        }
    }
    if object {
        if m.get("additionalProperties") != Some(&Value::Bool(false)) {
            out.push((
                at.into(),
                Severity::Error,
                "openai.strict.additional-properties",
                "every object needs `additionalProperties: false` in strict mode; fix: set it"
                    .into(),
                true,
            ));
        }
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = m.get("properties").and_then(Value::as_object) {
            st.properties += props.len();
            st.chars += props.keys().map(|n| n.chars().count()).sum::<usize>();
            for name in props.keys() {
                if !required.contains(&name.as_str()) {
                    out.push((format!("{at}/properties/{}", esc(name)), Severity::Error, "openai.strict.required", format!("`{name}` is not in `required`; strict mode needs every property there; fix: require it and let it be null"), true));
                }
            }
        }
    }
    for (rel, child) in children(s) {
        if !child.is_object() && !child.is_boolean() {
            out.push((
                format!("{at}{rel}"),
                Severity::Error,
                "openai.strict.not-a-schema",
                format!("{child} is not a schema"),
                false,
            ));
            continue;
        }
        let child_nesting = if rel.starts_with("/$defs") || rel.starts_with("/definitions") {
            0
        } else {
            nesting
        };
        walk(
            root,
            child,
            &format!("{at}{rel}"),
            depth + 1,
            child_nesting,
            out,
            st,
        );
    }
}

/// The schema rewritten for strict mode as far as it can be (limits and unresolvable `$ref`s
/// stay): what the fix of [`lint_strict`] applies. Idempotent.
pub fn make_strict(s: &Value) -> Value {
    let mut out = go(s, s, 0);
    if let Value::Object(m) = &mut out {
        if !m.contains_key("type") && m.get("properties").is_some_and(Value::is_object) {
            m.insert("type".into(), "object".into());
        }
    }
    out
}

fn go(root: &Value, s: &Value, depth: usize) -> Value {
    let Value::Object(orig) = s else {
        return s.clone();
    };
    if depth > MAX_DEPTH {
        return s.clone();
    }
    let mut m = orig.clone();
    // `$ref` with siblings: inline (siblings win), then fix the result, like the SDK.
    if m.len() > 1 {
        let inline = m
            .get("$ref")
            .and_then(Value::as_str)
            .filter(|r| !ref_cycle(root, r))
            .and_then(|r| resolve(root, r));
        if let Some(target) = inline {
            let mut merged = target.as_object().cloned().unwrap_or_default();
            // A `$defs` inside the target belongs to the root, not to the inlined copy.
            merged.remove("$defs");
            merged.remove("definitions");
            for (k, v) in &m {
                if k != "$ref" {
                    merged.insert(k.clone(), v.clone());
                }
            }
            return go(root, &Value::Object(merged), depth + 1);
        }
    }
    if let Some(all) = m.remove("allOf") {
        for part in all.as_array().into_iter().flatten() {
            let part = match part
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(root, r))
            {
                Some(t) => t.clone(),
                None => part.clone(),
            };
            merge_into(&mut m, &part);
        }
    }
    if let Some(one) = m.remove("oneOf") {
        one_of_into_any_of(&mut m, &one);
    }
    for k in UNSUPPORTED.iter().chain(LIMITED.iter()) {
        m.remove(*k);
    }
    // The SDK strips `default: null` too: the property is nullable and required anyway.
    if m.get("default") == Some(&Value::Null) {
        m.remove("default");
    }
    if m.get("format")
        .is_some_and(|f| !f.as_str().is_some_and(|f| FORMATS.contains(&f)))
    {
        m.remove("format");
    }
    let was_required: Vec<String> = str_items(m.get("required")).map(String::from).collect();
    let object = is_object_schema(&Value::Object(m.clone()));
    let mut out = Map::new();
    for (k, v) in m {
        let v = match (k.as_str(), v) {
            ("properties" | "$defs" | "definitions", Value::Object(p)) => Value::Object(
                p.into_iter()
                    .map(|(n, c)| {
                        let mut c = go(root, &c, depth + 1);
                        if k == "properties" && object && !was_required.contains(&n) {
                            c = nullable(c);
                        }
                        (n, c)
                    })
                    .collect(),
            ),
            ("anyOf" | "prefixItems", Value::Array(a)) => {
                Value::Array(a.iter().map(|c| go(root, c, depth + 1)).collect())
            }
            ("items" | "additionalProperties", v @ Value::Object(_)) => go(root, &v, depth + 1),
            (_, v) => v,
        };
        out.insert(k, v);
    }
    if object {
        out.insert("additionalProperties".into(), Value::Bool(false));
        let names: Vec<Value> = out
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().map(Value::String).collect())
            .unwrap_or_default();
        out.insert("required".into(), Value::Array(names));
    }
    Value::Object(out)
}

/// Let a schema also accept `null`.
fn nullable(s: Value) -> Value {
    let Value::Object(mut m) = s else { return s };
    let null = Value::String("null".into());
    let typed = match m.get_mut("type") {
        Some(Value::String(t)) => {
            if t != "null" {
                let t = std::mem::take(t);
                m.insert(
                    "type".into(),
                    Value::Array(vec![Value::String(t), null.clone()]),
                );
            }
            true
        }
        Some(Value::Array(a)) => {
            if !a.contains(&null) {
                a.push(null.clone());
            }
            true
        }
        _ => false,
    };
    if typed && !m.contains_key("const") {
        if let Some(Value::Array(e)) = m.get_mut("enum") {
            if !e.contains(&Value::Null) {
                e.push(Value::Null);
            }
        }
        return Value::Object(m);
    }
    if !typed && !m.contains_key("const") && !m.contains_key("$ref") && !m.contains_key("anyOf") {
        if let Some(Value::Array(e)) = m.get_mut("enum") {
            if !e.contains(&Value::Null) {
                e.push(Value::Null);
            }
            return Value::Object(m);
        }
    }
    if !typed && !m.contains_key("const") && !m.contains_key("enum") && !m.contains_key("$ref") {
        if let Some(Value::Array(any)) = m.get_mut("anyOf") {
            let n = serde_json::json!({"type": "null"});
            if !any.contains(&n) {
                any.push(n);
            }
            return Value::Object(m);
        }
    }
    // A `$ref`, `const` or anything else: wrap, keeping the description outside.
    let description = m.remove("description");
    let mut out = Map::new();
    out.insert(
        "anyOf".into(),
        Value::Array(vec![Value::Object(m), serde_json::json!({"type": "null"})]),
    );
    if let Some(d) = description {
        out.insert("description".into(), d);
    }
    Value::Object(out)
}
