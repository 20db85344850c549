//! Bounded walks over JSON Schemas and JSON values, and the rewrites the dialects' fixes share.

use super::esc;
use serde_json::{Map, Value};

/// Keywords whose value is one subschema.
pub const ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is an array of subschemas.
pub const LIST: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];
/// Keywords whose value is a map of subschemas.
pub const MAP: [&str; 5] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

/// The direct subschemas of a schema with their relative pointers (`/properties/a`).
pub fn children(s: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    let Some(m) = s.as_object() else {
        return out;
    };
    for (k, v) in m {
        if ONE.contains(&k.as_str()) && (v.is_object() || v.is_boolean()) {
            out.push((format!("/{}", esc(k)), v));
        } else if LIST.contains(&k.as_str()) || k == "items" {
            if let Some(a) = v.as_array() {
                for (i, c) in a.iter().enumerate() {
                    out.push((format!("/{}/{i}", esc(k)), c));
                }
            }
        } else if MAP.contains(&k.as_str()) {
            if let Some(p) = v.as_object() {
                for (name, c) in p {
                    out.push((format!("/{}/{}", esc(k), esc(name)), c));
                }
            }
        }
    }
    out
}

/// How deeply a JSON value nests (a scalar is 0), counted without recursion so hostile input
/// cannot overflow the stack; stops counting at `limit + 1`.
pub fn value_depth(v: &Value, limit: usize) -> usize {
    let mut max = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        if max > limit {
            return max;
        }
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, d + 1))),
            Value::Object(m) => stack.extend(m.values().map(|c| (c, d + 1))),
            _ => {}
        }
    }
    max
}

/// True when the schema describes an object (`type: "object"`, a type list with it, or
/// `properties` without a type).
pub fn is_object_schema(s: &Value) -> bool {
    match s.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(a)) => a.iter().any(|t| t == "object"),
        _ => s.get("properties").is_some_and(Value::is_object),
    }
}

/// The non-null type names of a schema's `type`.
pub fn types(s: &Value) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Resolve a local `$ref` (`#`, `#/$defs/x`) against the root schema.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    if !pointer.starts_with('/') {
        return None;
    }
    root.pointer(pointer)
}

/// True when a `$ref` leads, through schemas that are nothing but another `$ref` (siblings
/// aside), back to itself: inlining it would never end.
pub fn ref_cycle(root: &Value, reference: &str) -> bool {
    let mut seen = vec![reference.to_string()];
    let mut current = reference.to_string();
    while let Some(next) = resolve(root, &current)
        .and_then(|t| t.get("$ref"))
        .and_then(Value::as_str)
    {
        if seen.iter().any(|s| s == next) || seen.len() > 64 {
            return true;
        }
        seen.push(next.to_string());
        current = next.to_string();
    }
    false
}

/// Merge an `allOf` member into a schema: properties and required united, other keys kept
/// where the schema has none.
pub fn merge_into(m: &mut Map<String, Value>, part: &Value) {
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

/// A removed `oneOf`'s branches appended to the `anyOf` of `m` (made when absent): the fix
/// where `oneOf` is not supported.
pub fn one_of_into_any_of(m: &mut Map<String, Value>, one: &Value) {
    let mut any = m
        .remove("anyOf")
        .and_then(|a| a.as_array().cloned())
        .unwrap_or_default();
    any.extend(one.as_array().cloned().unwrap_or_default());
    m.insert("anyOf".into(), Value::Array(any));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walk_depth_is_iterative_and_capped() {
        let mut v = json!(1);
        for _ in 0..10 {
            v = json!([v]);
        }
        assert_eq!(value_depth(&v, 100), 10);
        assert_eq!(value_depth(&v, 3), 4, "stops counting past the limit");
    }

    #[test]
    fn walk_ref_cycles_and_resolution() {
        let root = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}, "c": {"type": "string"}, "d/e": {"type": "integer"}}});
        assert!(ref_cycle(&root, "#/$defs/a"));
        assert!(!ref_cycle(&root, "#/$defs/c"));
        assert_eq!(
            resolve(&root, "#/$defs/d~1e"),
            Some(&json!({"type": "integer"}))
        );
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(resolve(&root, "other.json#/x"), None);
        assert!(ref_cycle(&json!({"$ref": "#"}), "#"));
    }

    #[test]
    fn walk_children_cover_every_subschema_keyword() {
        let s = json!({"properties": {"a/b": {}}, "items": [{}, {}], "anyOf": [{}], "not": {}, "$defs": {"x": {}}, "enum": [{}]});
        let paths: Vec<String> = children(&s).into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            [
                "/properties/a~1b",
                "/items/0",
                "/items/1",
                "/anyOf/0",
                "/not",
                "/$defs/x"
            ]
        );
    }
}
