//! Gemini's `parameters` subset (the OpenAPI-style `Schema`).
//!
//! The Gemini encoder sends a tool's JSON Schema as `parameters` only when
//! [`super::schema::to_gemini`] accepts it, else as `parametersJsonSchema`
//! (not every model or endpoint takes that). This lint says why a schema is not in the subset,
//! and the fix rewrites it so it is: `$ref`s inlined (`$defs` dropped; a recursive `$ref` cut to a
//! described string), `anyOf` with a null branch and type lists with `null` folded into
//! `type: [T, "null"]` (sent as `nullable: true`), `oneOf` → `anyOf`, a one-string `const` →
//! `enum`, a missing type inferred from `properties`/`items`/`enum`, and every keyword outside
//! google-genai's `types.Schema` fields that the API takes in `parameters` removed
//! (`additionalProperties`, `$schema`, `exclusiveMinimum`, `examples`, unsupported `format`s …).
//!
//! The Gemini pane sends a schema outside the subset as `parametersJsonSchema`, which takes
//! JSON Schema as written (`additionalProperties`, `$ref`, type lists, …). So these findings are
//! not among the Gemini target's lints: they are infos saying what `parameters` (which every
//! Gemini model takes) would need, with the rewrite as the fix, asked for apart
//! ([`check`], `toolscope lint --gemini-parameters`).

use super::schema::to_gemini;
use crate::model::{empty_object_schema, Exchange};
use crate::schema::walk::{merge_into, one_of_into_any_of, resolve, types, value_depth};
use crate::schema::{esc, Finding, Fix, Severity, MAX_DEPTH};
use serde_json::{Map, Value};

/// Said before each subset finding: what the pane sends, and that the rest is about
/// `parameters`.
const SENT_AS_JSON_SCHEMA: &str =
    "sent as `parametersJsonSchema`, which takes it; for `parameters`: ";

struct Ctx<'a> {
    root: &'a Value,
    /// Pointer of the root schema: issues inside an inlined `$ref` point at its definition.
    base: String,
    refs: Vec<String>,
    issues: Vec<(String, &'static str, String, bool)>,
}

impl Ctx<'_> {
    fn issue(&mut self, at: &str, rule: &'static str, msg: String, fixable: bool) {
        self.issues.push((at.to_string(), rule, msg, fixable));
    }
}

/// What the `parameters` subset would need of each tool whose schema the encoder sends as
/// `parametersJsonSchema` (infos, each with the rewrite as its fix): for models and endpoints
/// that take only `parameters`. Not among the target's lints, since the document does not send
/// these schemas as `parameters`.
pub fn check(x: &Exchange) -> Vec<Finding> {
    x.tools
        .iter()
        .enumerate()
        .flat_map(|(i, t)| lint(&t.input_schema, i, &format!("/tools/{i}/input_schema")))
        .collect()
}

/// Rewrite every tool schema the encoder would send as `parametersJsonSchema` into the
/// `parameters` subset, as far as it goes (see [`fix`]); returns the exchange and what remains
/// of [`check`].
pub fn fit(x: &Exchange) -> (Exchange, Vec<Finding>) {
    crate::schema::fit_with(x, check)
}

/// The schema rewritten into the `parameters` subset (as far as it can be; see the module doc).
pub fn fix(s: &Value) -> Value {
    let mut cx = Ctx {
        root: s,
        base: String::new(),
        refs: Vec::new(),
        issues: Vec::new(),
    };
    go(&mut cx, s, "", 0)
}

/// Gemini findings for one tool's schema.
pub fn lint(s: &Value, tool: usize, at: &str) -> Vec<Finding> {
    // `to_gemini` recurses without a bound; text-parsed schemas are at most 128 deep anyway.
    let shallow = value_depth(s, 2 * MAX_DEPTH) <= 2 * MAX_DEPTH;
    if *s == empty_object_schema() || (shallow && to_gemini(s).is_some()) {
        return Vec::new(); // sent as `parameters` (or left out when empty)
    }
    let mut cx = Ctx {
        root: s,
        base: at.to_string(),
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
            Finding::new(
                p,
                Severity::Info,
                rule,
                format!("{SENT_AS_JSON_SCHEMA}{msg}"),
            )
            .with_fix(if fixable { fix.clone() } else { None }),
        );
    }
    if out.is_empty() {
        out.push(
            Finding::new(
                at,
                Severity::Info,
                "gemini.subset",
                "this schema does not fit Gemini's `parameters` exactly; it is sent as \
                 `parametersJsonSchema`",
            )
            .with_fix(fix),
        );
    }
    out
}

// The walk recurses once per schema level; its recursive frames (`go`, `nested`) hold little,
// and everything that formats messages or builds values lives in helpers that return before
// the next level starts (a debug build's frames are large, and wasm's stack is 1 MB).
fn go(cx: &mut Ctx, s: &Value, at: &str, depth: usize) -> Value {
    let Value::Object(m) = s else {
        return not_a_schema(cx, s, at);
    };
    if depth > MAX_DEPTH {
        return too_deep(cx, s, at);
    }
    if m.contains_key("$ref") {
        return match expand_ref(cx, m, at) {
            RefStep::Done(v) => v,
            RefStep::Expand(merged, r, inner) => {
                cx.refs.push(r);
                let out = go(cx, &merged, &inner, depth + 1);
                cx.refs.pop();
                out
            }
        };
    }
    let m = prelude(cx, m, at);
    let mut out = Map::new();
    let mut nullable = false;
    for (k, v) in &m {
        if matches!(k.as_str(), "properties" | "items" | "anyOf") {
            nested(cx, k, v, at, depth, &mut out, &mut nullable);
        } else {
            simple_key(cx, &m, k, v, at, &mut out, &mut nullable);
        }
    }
    finish(cx, out, nullable, at, depth)
}

#[inline(never)]
fn not_a_schema(cx: &mut Ctx, s: &Value, at: &str) -> Value {
    cx.issue(
        at,
        "gemini.not-a-schema",
        "a boolean or non-object schema has no `parameters` form".into(),
        false,
    );
    s.clone()
}

#[inline(never)]
fn too_deep(cx: &mut Ctx, s: &Value, at: &str) -> Value {
    cx.issue(
        at,
        "schema.too-deep",
        format!("nested deeper than {MAX_DEPTH} levels; not checked below"),
        false,
    );
    s.clone()
}

enum RefStep {
    Done(Value),
    /// The merged schema, the reference, and the pointer to walk it at.
    Expand(Value, String, String),
}

/// `$ref`: the target merged with the siblings (siblings win), to walk with the reference on
/// the recursion guard; a recursive or unresolvable reference is settled here.
#[inline(never)]
fn expand_ref(cx: &mut Ctx, m: &Map<String, Value>, at: &str) -> RefStep {
    let r = m
        .get("$ref")
        .map(|r| r.as_str().map_or_else(|| r.to_string(), String::from))
        .unwrap_or_default();
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
        return RefStep::Done(Value::Object(cut));
    }
    let mut inner = at.to_string();
    let mut merged = match resolve(cx.root, &r) {
        Some(target) => {
            if let Some(fragment) = r.strip_prefix('#') {
                inner = format!("{}{fragment}", cx.base);
            }
            cx.issue(
                at,
                "gemini.ref",
                format!("`parameters` has no `$ref`; fix: inline {r}"),
                true,
            );
            target.as_object().cloned().unwrap_or_default()
        }
        None => {
            cx.issue(
                at,
                "gemini.ref",
                format!("`$ref` {r} does not resolve inside the schema; fix: remove it"),
                true,
            );
            Map::new()
        }
    };
    for (k, v) in m {
        if k != "$ref" {
            merged.insert(k.clone(), v.clone());
        }
    }
    RefStep::Expand(Value::Object(merged), r, inner)
}

/// `allOf`, `oneOf`, `const`, `nullable`: rewritten before the keys are walked.
#[inline(never)]
fn prelude(cx: &mut Ctx, m: &Map<String, Value>, at: &str) -> Map<String, Value> {
    let mut m = m.clone();
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
        one_of_into_any_of(&mut m, &one);
    }
    if let Some(c) = m.remove("const") {
        if let Value::String(_) = c {
            cx.issue(
                at,
                "gemini.unsupported-keyword",
                "`const` is not in `parameters`; fix: a one-value `enum`".into(),
                true,
            );
            m.insert("enum".into(), Value::Array(vec![c]));
            m.entry("type").or_insert_with(|| "string".into());
        } else {
            cx.issue(
                at,
                "gemini.unsupported-keyword",
                "`const` is not in `parameters` (and `enum` holds strings only); fix: remove it"
                    .into(),
                true,
            );
        }
    }
    if let Some(n) = m.remove("nullable") {
        cx.issue(
            at,
            "gemini.nullable",
            "`nullable` is written `type: [T, \"null\"]` in JSON Schema; fix: fold it".into(),
            true,
        );
        if n == Value::Bool(true) {
            if let Some(Value::String(t)) = m.get("type").cloned() {
                m.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
            }
        }
    }
    m
}

/// The keys holding subschemas: `properties`, `items`, `anyOf` (a null branch folded).
fn nested(
    cx: &mut Ctx,
    k: &str,
    v: &Value,
    at: &str,
    depth: usize,
    out: &mut Map<String, Value>,
    nullable: &mut bool,
) {
    let here = format!("{at}/{}", esc(k));
    match (k, v) {
        ("properties", Value::Object(p)) => {
            let mut props = Map::new();
            for (name, ps) in p {
                let child = go(cx, ps, &format!("{here}/{}", esc(name)), depth + 1);
                props.insert(name.clone(), child);
            }
            out.insert(k.into(), Value::Object(props));
        }
        ("items", Value::Object(_)) => {
            let child = go(cx, v, &here, depth + 1);
            out.insert(k.into(), child);
        }
        ("anyOf", Value::Array(a)) => {
            let mut branches = Vec::new();
            for (i, b) in a.iter().enumerate() {
                if !is_null_branch(b) {
                    branches.push(go(cx, b, &format!("{here}/{i}"), depth + 1));
                }
            }
            fold_any_of(cx, &here, branches, branches_had_null(a), out, nullable);
        }
        _ => bad_shape(cx, &here, k),
    }
}

fn is_null_branch(b: &Value) -> bool {
    b.get("type").is_some_and(|t| t == "null") && b.as_object().is_some_and(|o| o.len() == 1)
}

fn branches_had_null(a: &[Value]) -> bool {
    a.iter().any(is_null_branch)
}

#[inline(never)]
fn bad_shape(cx: &mut Ctx, here: &str, k: &str) {
    let want = match k {
        "properties" => "an object",
        "items" => "one schema",
        _ => "a list",
    };
    cx.issue(
        here,
        "gemini.unsupported-keyword",
        format!("`{k}` must be {want} in `parameters`; fix: remove it"),
        true,
    );
}

#[inline(never)]
fn fold_any_of(
    cx: &mut Ctx,
    here: &str,
    branches: Vec<Value>,
    had_null: bool,
    out: &mut Map<String, Value>,
    nullable: &mut bool,
) {
    if had_null && branches.len() == 1 {
        cx.issue(
            here,
            "gemini.nullable",
            "`anyOf` with a null branch is `nullable: true` in `parameters`; fix: fold it".into(),
            true,
        );
        *nullable = true;
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
        out.insert("anyOf".into(), Value::Array(all));
    }
}

/// Every key without subschemas.
#[inline(never)]
fn simple_key(
    cx: &mut Ctx,
    m: &Map<String, Value>,
    k: &str,
    v: &Value,
    at: &str,
    out: &mut Map<String, Value>,
    nullable: &mut bool,
) {
    let here = format!("{at}/{}", esc(k));
    let drop = |cx: &mut Ctx, rule: &'static str, msg: String| cx.issue(&here, rule, msg, true);
    // Keep `k` as it is when it has the shape `parameters` takes; otherwise drop it.
    let keep_or = |cx: &mut Ctx, out: &mut Map<String, Value>, ok, rule, msg: String| {
        if ok {
            out.insert(k.into(), v.clone());
        } else {
            drop(cx, rule, msg);
        }
    };
    let keep = |cx: &mut Ctx, out: &mut Map<String, Value>, ok, what: &str| {
        let msg = format!("`{k}` {what}; fix: remove it");
        keep_or(cx, out, ok, "gemini.unsupported-keyword", msg);
    };
    match k {
        "type" => match v {
            Value::String(_) => {
                out.insert(k.into(), v.clone());
            }
            Value::Array(a) => {
                let non_null: Vec<&Value> = a.iter().filter(|t| *t != "null").collect();
                *nullable |= non_null.len() < a.len();
                let ok = matches!(a.as_slice(), [t, n] if n == "null" && t != "null");
                if !ok {
                    drop(cx, "gemini.nullable", "`parameters` takes one type, optionally nullable; fix: one type, or `anyOf` of several".into());
                }
                match non_null.as_slice() {
                    [t] => {
                        out.insert(k.into(), (*t).clone());
                    }
                    [] => {
                        out.insert(k.into(), "null".into());
                        *nullable = false;
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
                        if *nullable {
                            let mut o = Map::new();
                            o.insert("type".into(), "null".into());
                            any.push(Value::Object(o));
                            *nullable = false;
                        }
                        out.insert("anyOf".into(), Value::Array(any));
                    }
                }
            }
            _ => drop(
                cx,
                "gemini.unsupported-keyword",
                "`type` must be a type name; fix: remove it".into(),
            ),
        },
        "enum"
            if v.as_array().is_some_and(|a| {
                a.contains(&Value::Null) && a.iter().all(|e| e.is_string() || e.is_null())
            }) =>
        {
            // `null` in the enum of a nullable string: `nullable` already says it.
            drop(
                cx,
                "gemini.nullable",
                "`enum` holds strings only in `parameters`; fix: `null` leaves it, the type says nullable".into(),
            );
            let strings: Vec<Value> = v
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| e.is_string())
                .cloned()
                .collect();
            out.insert(k.into(), Value::Array(strings));
            *nullable = true;
        }
        "enum" | "required" | "propertyOrdering" => {
            keep(
                cx,
                out,
                v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
                "holds strings only in `parameters`",
            );
        }
        "description" | "title" | "pattern" => {
            keep(cx, out, v.is_string(), "must be a string");
        }
        "minimum" | "maximum" => {
            keep(cx, out, v.is_number(), "must be a number");
        }
        "minItems" | "maxItems" | "minLength" | "maxLength" | "minProperties" | "maxProperties" => {
            keep(cx, out, v.is_u64(), "must be a count");
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
            let msg =
                format!("format {v} is not one `parameters` takes for this type; fix: remove it");
            keep_or(cx, out, ok, "gemini.format", msg);
        }
        "default" | "example" => {
            out.insert(k.into(), v.clone());
        }
        _ => drop(
            cx,
            "gemini.unsupported-keyword",
            format!("`{k}` is not in Gemini's `parameters` schema; fix: remove it"),
        ),
    }
}

/// Nullable folded into the type, a missing type inferred, empty nested objects reported.
#[inline(never)]
fn finish(
    cx: &mut Ctx,
    mut out: Map<String, Value>,
    nullable: bool,
    at: &str,
    depth: usize,
) -> Value {
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
                cx.issue(
                    at,
                    "gemini.type",
                    format!("`parameters` needs a type; fix: `{t}`"),
                    true,
                );
                out.insert("type".into(), t.into());
            }
            None => cx.issue(
                at,
                "gemini.type",
                "`parameters` needs a type and none can be inferred".into(),
                false,
            ),
        }
    }
    if nullable {
        if let Some(Value::String(t)) = out.get("type").cloned() {
            if t != "null" {
                out.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
            }
        }
    }
    let is_object = out.get("type").is_some_and(|t| {
        t == "object"
            || t.as_array()
                .is_some_and(|a| a.first().is_some_and(|f| f == "object"))
    });
    let no_props = out
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    if is_object && no_props && depth == 0 {
        // The encoder leaves `parameters` out for exactly the empty object schema.
        if Value::Object(out.clone()) != empty_object_schema() {
            cx.issue(
                at,
                "gemini.empty-object",
                "an OBJECT without properties has no `parameters` form; fix: the plain empty \
                 object schema, which is sent as no parameters"
                    .into(),
                true,
            );
        }
        return empty_object_schema();
    }
    if is_object && no_props && depth > 0 {
        cx.issue(
            at,
            "gemini.empty-object",
            "Gemini rejects an OBJECT without properties in `parameters`; no automatic fix".into(),
            false,
        );
    }
    Value::Object(out)
}
