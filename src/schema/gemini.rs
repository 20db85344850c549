//! Gemini's `parameters` subset (the OpenAPI-style `Schema`).
//!
//! The Gemini encoder sends a tool's JSON Schema as `parameters` only when
//! [`crate::formats::gemini::schema::to_gemini`] accepts it, else as `parametersJsonSchema`
//! (not every model or endpoint takes that). This lint says why a schema is not in the subset,
//! and the fix rewrites it so it is: `$ref`s inlined (`$defs` dropped; a recursive `$ref` cut to a
//! described string), `anyOf` with a null branch and type lists with `null` folded into
//! `type: [T, "null"]` (sent as `nullable: true`), `oneOf` → `anyOf`, a one-string `const` →
//! `enum`, a missing type inferred from `properties`/`items`/`enum`, and every keyword outside
//! google-genai's `types.Schema` fields that the API takes in `parameters` removed
//! (`additionalProperties`, `$schema`, `exclusiveMinimum`, `examples`, unsupported `format`s …).
//!
//! Severity is warning: the request still works through `parametersJsonSchema` where supported.

use super::walk::{resolve, types};
use super::{esc, Finding, Fix, Severity, MAX_DEPTH};
use crate::formats::gemini::schema::to_gemini;
use crate::model::empty_object_schema;
use serde_json::{Map, Value};

struct Ctx<'a> {
    root: &'a Value,
    refs: Vec<String>,
    issues: Vec<(String, &'static str, String, bool)>,
}

impl Ctx<'_> {
    fn issue(&mut self, at: &str, rule: &'static str, msg: String, fixable: bool) {
        self.issues.push((at.to_string(), rule, msg, fixable));
    }
}

/// The schema rewritten into the `parameters` subset (as far as it can be; see the module doc).
pub fn fix(s: &Value) -> Value {
    let mut cx = Ctx {
        root: s,
        refs: Vec::new(),
        issues: Vec::new(),
    };
    go(&mut cx, s, "", 0)
}

/// Gemini findings for one tool's schema.
pub fn lint(s: &Value, tool: usize, at: &str) -> Vec<Finding> {
    if *s == empty_object_schema() || to_gemini(s).is_some() {
        return Vec::new(); // sent as `parameters` (or left out when empty)
    }
    let mut cx = Ctx {
        root: s,
        refs: Vec::new(),
        issues: Vec::new(),
    };
    let fixed = go(&mut cx, s, at, 0);
    let fix = (fixed != *s).then(|| Fix::Schema {
        tool,
        schema: fixed,
    });
    let mut out: Vec<Finding> = Vec::new();
    for (p, rule, msg, fixable) in cx.issues {
        if out
            .iter()
            .any(|f| f.pointer == p && f.rule == rule && f.message == msg)
        {
            continue;
        }
        out.push(
            Finding::new(p, Severity::Warning, rule, msg)
                .with_fix(if fixable { fix.clone() } else { None }),
        );
    }
    if out.is_empty() {
        out.push(
            Finding::new(
                at,
                Severity::Warning,
                "gemini.subset",
                "this schema does not fit Gemini's `parameters` exactly; it is sent as \
                 `parametersJsonSchema`",
            )
            .with_fix(fix),
        );
    }
    out
}

fn go(cx: &mut Ctx, s: &Value, at: &str, depth: usize) -> Value {
    let Value::Object(m) = s else {
        cx.issue(
            at,
            "gemini.not-a-schema",
            "a boolean or non-object schema has no `parameters` form".into(),
            false,
        );
        return s.clone();
    };
    if depth > MAX_DEPTH {
        cx.issue(
            at,
            "schema.too-deep",
            format!("nested deeper than {MAX_DEPTH} levels; not checked below"),
            false,
        );
        return s.clone();
    }
    // `$ref`: inline the target (siblings win), with a guard against recursion.
    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
        let r = r.to_string();
        if cx.refs.contains(&r) {
            cx.issue(
                at,
                "gemini.ref",
                format!("recursive `$ref` {r} cannot be inlined; fix: cut to a described string"),
                true,
            );
            let mut cut = Map::new();
            cut.insert("type".into(), "string".into());
            cut.insert(
                "description".into(),
                Value::String(format!("JSON value of the recursive schema {r}")),
            );
            return Value::Object(cut);
        }
        let Some(target) = resolve(cx.root, &r).cloned() else {
            cx.issue(
                at,
                "gemini.ref",
                format!("`$ref` {r} does not resolve inside the schema"),
                false,
            );
            let mut rest = m.clone();
            rest.remove("$ref");
            return go(cx, &Value::Object(rest), at, depth + 1);
        };
        cx.issue(
            at,
            "gemini.ref",
            format!("`parameters` has no `$ref`; fix: inline {r}"),
            true,
        );
        let mut merged = target.as_object().cloned().unwrap_or_default();
        for (k, v) in m {
            if k != "$ref" {
                merged.insert(k.clone(), v.clone());
            }
        }
        cx.refs.push(r);
        let out = go(cx, &Value::Object(merged), at, depth + 1);
        cx.refs.pop();
        return out;
    }
    let mut m = m.clone();
    // allOf: merged into the node (properties and required united).
    if let Some(all) = m.remove("allOf") {
        cx.issue(
            at,
            "gemini.unsupported-keyword",
            "`allOf` is not in `parameters`; fix: merge its schemas".into(),
            true,
        );
        for part in all.as_array().into_iter().flatten() {
            merge_into(&mut m, part);
        }
    }
    if let Some(one) = m.remove("oneOf") {
        cx.issue(
            at,
            "gemini.unsupported-keyword",
            "`oneOf` is not in `parameters`; fix: `anyOf`".into(),
            true,
        );
        let mut any = m.remove("anyOf").and_then(|a| a.as_array().cloned()).unwrap_or_default();
        any.extend(one.as_array().cloned().unwrap_or_default());
        m.insert("anyOf".into(), Value::Array(any));
    }
    if let Some(c) = m.remove("const") {
        if let Value::String(_) = c {
            cx.issue(at, "gemini.unsupported-keyword", "`const` is not in `parameters`; fix: a one-value `enum`".into(), true);
            m.insert("enum".into(), Value::Array(vec![c]));
            m.entry("type").or_insert_with(|| "string".into());
        } else {
            cx.issue(at, "gemini.unsupported-keyword", "`const` is not in `parameters` (and `enum` holds strings only); fix: remove it".into(), true);
        }
    }
    if let Some(n) = m.remove("nullable") {
        cx.issue(at, "gemini.nullable", "`nullable` is written `type: [T, \"null\"]` in JSON Schema; fix: fold it".into(), true);
        if n == Value::Bool(true) {
            if let Some(Value::String(t)) = m.get("type").cloned() {
                m.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
            }
        }
    }
    let mut out = Map::new();
    let mut nullable = false;
    for (k, v) in &m {
        let here = format!("{at}/{}", esc(k));
        match k.as_str() {
            "type" => match v {
                Value::String(_) => {
                    out.insert(k.clone(), v.clone());
                }
                Value::Array(a) => {
                    let non_null: Vec<&Value> = a.iter().filter(|t| *t != "null").collect();
                    nullable |= non_null.len() < a.len();
                    let ok = matches!(a.as_slice(), [t, n] if n == "null" && t != "null");
                    if !ok {
                        cx.issue(&here, "gemini.nullable", "`parameters` takes one type, optionally nullable; fix: one type, or `anyOf` of several".into(), true);
                    }
                    match non_null.as_slice() {
                        [t] => {
                            out.insert(k.clone(), (*t).clone());
                        }
                        [] => {
                            out.insert(k.clone(), "null".into());
                            nullable = false;
                        }
                        many => {
                            let mut any: Vec<Value> = many
                                .iter()
                                .map(|t| {
                                    let mut o = Map::new();
                                    o.insert("type".into(), (*t).clone());
                                    Value::Object(o)
                                })
                                .collect();
                            if nullable {
                                let mut o = Map::new();
                                o.insert("type".into(), "null".into());
                                any.push(Value::Object(o));
                                nullable = false;
                            }
                            out.insert("anyOf".into(), Value::Array(any));
                        }
                    }
                }
                _ => cx.issue(&here, "gemini.unsupported-keyword", "`type` must be a type name".into(), true),
            },
            "properties" => {
                let Some(p) = v.as_object() else {
                    cx.issue(&here, "gemini.unsupported-keyword", "`properties` must be an object".into(), true);
                    continue;
                };
                let mut props = Map::new();
                for (name, ps) in p {
                    let child = go(cx, ps, &format!("{here}/{}", esc(name)), depth + 1);
                    props.insert(name.clone(), child);
                }
                out.insert(k.clone(), Value::Object(props));
            }
            "items" => {
                if v.is_object() {
                    let child = go(cx, v, &here, depth + 1);
                    out.insert(k.clone(), child);
                } else {
                    cx.issue(&here, "gemini.unsupported-keyword", "`items` must be one schema".into(), true);
                }
            }
            "anyOf" => {
                let Some(a) = v.as_array() else {
                    cx.issue(&here, "gemini.unsupported-keyword", "`anyOf` must be a list".into(), true);
                    continue;
                };
                let is_null = |b: &Value| b.get("type").is_some_and(|t| t == "null") && b.as_object().is_some_and(|o| o.len() == 1);
                let branches: Vec<Value> = a
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| !is_null(b))
                    .map(|(i, b)| go(cx, b, &format!("{here}/{i}"), depth + 1))
                    .collect();
                let had_null = branches.len() < a.len();
                if had_null && branches.len() == 1 {
                    cx.issue(&here, "gemini.nullable", "`anyOf` with a null branch is `nullable: true` in `parameters`; fix: fold it".into(), true);
                    nullable = true;
                    if let Some(Value::Object(b)) = branches.into_iter().next() {
                        for (bk, bv) in b {
                            out.entry(bk).or_insert(bv);
                        }
                    }
                } else {
                    let mut all = branches;
                    if had_null {
                        let mut o = Map::new();
                        o.insert("type".into(), "null".into());
                        all.push(Value::Object(o));
                    }
                    out.insert(k.clone(), Value::Array(all));
                }
            }
            "enum" | "required" | "propertyOrdering" => {
                if v.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
                    out.insert(k.clone(), v.clone());
                } else {
                    cx.issue(&here, "gemini.unsupported-keyword", format!("`{k}` holds strings only in `parameters`; fix: remove it"), true);
                }
            }
            "description" | "title" | "pattern" => {
                if v.is_string() {
                    out.insert(k.clone(), v.clone());
                } else {
                    cx.issue(&here, "gemini.unsupported-keyword", format!("`{k}` must be a string; fix: remove it"), true);
                }
            }
            "minimum" | "maximum" => {
                if v.is_number() {
                    out.insert(k.clone(), v.clone());
                } else {
                    cx.issue(&here, "gemini.unsupported-keyword", format!("`{k}` must be a number; fix: remove it"), true);
                }
            }
            "minItems" | "maxItems" | "minLength" | "maxLength" | "minProperties" | "maxProperties" => {
                if v.is_u64() {
                    out.insert(k.clone(), v.clone());
                } else {
                    cx.issue(&here, "gemini.unsupported-keyword", format!("`{k}` must be a count; fix: remove it"), true);
                }
            }
            "format" => {
                // The formats the API takes in `parameters` (see formats::gemini::schema).
                let whole = Value::Object(m.clone());
                let base = types(&whole).into_iter().find(|t| *t != "null");
                let ok = matches!(
                    (base, v.as_str()),
                    (Some("string"), Some("enum" | "date-time"))
                        | (Some("number"), Some("float" | "double"))
                        | (Some("integer"), Some("int32" | "int64"))
                );
                if ok {
                    out.insert(k.clone(), v.clone());
                } else {
                    cx.issue(&here, "gemini.format", format!("format {v} is not one `parameters` takes for this type; fix: remove it"), true);
                }
            }
            "default" | "example" => {
                out.insert(k.clone(), v.clone());
            }
            _ => {
                cx.issue(&here, "gemini.unsupported-keyword", format!("`{k}` is not in Gemini's `parameters` schema; fix: remove it"), true);
            }
        }
    }
    if nullable {
        match out.get("type").cloned() {
            Some(Value::String(t)) if t != "null" => {
                out.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
            }
            _ => {}
        }
    }
    if !out.contains_key("type") && !out.contains_key("anyOf") {
        let inferred = if out.contains_key("properties") {
            Some("object")
        } else if out.contains_key("items") {
            Some("array")
        } else if out.contains_key("enum") {
            Some("string")
        } else {
            None
        };
        match inferred {
            Some(t) => {
                cx.issue(at, "gemini.type", format!("`parameters` needs a type; fix: `{t}`"), true);
                out.insert("type".into(), t.into());
            }
            None => cx.issue(at, "gemini.type", "`parameters` needs a type and none can be inferred".into(), false),
        }
    }
    let is_object = out.get("type").is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.first().is_some_and(|f| f == "object")));
    let no_props = out.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty);
    if is_object && no_props && depth > 0 {
        cx.issue(at, "gemini.empty-object", "Gemini rejects an OBJECT without properties in `parameters`; no automatic fix".into(), false);
    }
    Value::Object(out)
}

/// Merge an `allOf` member into a schema: properties and required united, other keys kept
/// where the schema has none.
pub(crate) fn merge_into(m: &mut Map<String, Value>, part: &Value) {
    let Some(p) = part.as_object() else { return };
    for (k, v) in p {
        match (k.as_str(), m.get_mut(k), v) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (n, s) in theirs {
                    mine.entry(n.clone()).or_insert_with(|| s.clone());
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for n in theirs {
                    if !mine.contains(n) {
                        mine.push(n.clone());
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, _) => {
                m.insert(k.clone(), v.clone());
            }
        }
    }
}
