//! Gemini's OpenAPI-subset `Schema` (`parameters`, `response`) ↔ JSON Schema.
//!
//! Decoding turns a `Schema` into the JSON Schema it means: type names in lower case,
//! `nullable: true` folded into `type: [T, "null"]`, everything else as written. Encoding goes
//! the other way only when the JSON Schema fits what the API accepts in `parameters` *and*
//! decodes back to itself exactly; anything else is sent as `parametersJsonSchema`, so no
//! keyword is ever dropped. What the API rejects in `parameters` (learned from its 400s):
//! `additionalProperties`, `$ref`, `oneOf`…, string formats other than `enum`/`date-time`,
//! an `OBJECT` with no properties, a schema without a type.

use serde_json::{Map, Value};

const TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];
const COUNTS: [&str; 6] = [
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
];

fn known_type(t: &str) -> Option<&'static str> {
    TYPES.iter().copied().find(|k| k.eq_ignore_ascii_case(t))
}

/// Deeper schemas are left as they are (decoding) or sent as `parametersJsonSchema`
/// (encoding): the walkers recurse, and a page's stack is small.
const MAX_DEPTH: usize = 64;

/// The JSON Schema a Gemini `Schema` means.
pub fn from_gemini(v: &Value) -> Value {
    from_gemini_at(v, 0)
}

fn from_gemini_at(v: &Value, depth: usize) -> Value {
    let Value::Object(m) = v else {
        return v.clone();
    };
    if depth > MAX_DEPTH {
        return v.clone();
    }
    let from_gemini = |s: &Value| from_gemini_at(s, depth + 1);
    let ty = m.get("type").and_then(Value::as_str).and_then(known_type);
    let fold_nullable =
        matches!(m.get("nullable"), Some(Value::Bool(true))) && ty.is_some_and(|t| t != "null");
    let mut out = Map::new();
    for (k, val) in m {
        match k.as_str() {
            "type" => {
                let t = ty.map_or_else(|| val.clone(), |t| Value::String(t.into()));
                let t = if fold_nullable {
                    Value::Array(vec![t, Value::String("null".into())])
                } else {
                    t
                };
                out.insert(k.clone(), t);
            }
            "nullable" if fold_nullable => {}
            "properties" => {
                let props = match val {
                    Value::Object(p) => Value::Object(
                        p.iter()
                            .map(|(name, s)| (name.clone(), from_gemini(s)))
                            .collect(),
                    ),
                    other => other.clone(),
                };
                out.insert(k.clone(), props);
            }
            "items" => {
                out.insert(k.clone(), from_gemini(val));
            }
            "anyOf" => {
                let any = match val {
                    Value::Array(a) => Value::Array(a.iter().map(&from_gemini).collect()),
                    other => other.clone(),
                };
                out.insert(k.clone(), any);
            }
            _ => {
                out.insert(k.clone(), val.clone());
            }
        }
    }
    Value::Object(out)
}

/// The Gemini `Schema` for a JSON Schema, if it fits the subset and decodes back to the same
/// JSON Schema; `None` means "send it as JSON Schema".
pub fn to_gemini(s: &Value) -> Option<Value> {
    let out = convert(s, 0)?;
    (from_gemini(&out) == *s).then_some(out)
}

fn strings(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
}

fn convert(s: &Value, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    let m = s.as_object()?;
    // The base type: `"string"` or `["string", "null"]`.
    let base = match m.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(a)) => a.first().and_then(Value::as_str),
        _ => None,
    };
    if base.is_none() && !m.contains_key("anyOf") {
        return None;
    }
    let has_properties = m
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if base == Some("object") && !has_properties {
        return None;
    }
    let mut out = Map::new();
    for (k, v) in m {
        match k.as_str() {
            "type" => match v {
                Value::String(t) if TYPES.contains(&t.as_str()) => {
                    out.insert(k.clone(), Value::String(t.to_uppercase()));
                }
                Value::Array(a) if !m.contains_key("nullable") => match a.as_slice() {
                    [Value::String(t), Value::String(n)]
                        if n == "null" && t != "null" && TYPES.contains(&t.as_str()) =>
                    {
                        out.insert(k.clone(), Value::String(t.to_uppercase()));
                        out.insert("nullable".into(), Value::Bool(true));
                    }
                    _ => return None,
                },
                _ => return None,
            },
            "properties" => {
                let props = v.as_object()?;
                let mut conv = Map::new();
                for (name, p) in props {
                    conv.insert(name.clone(), convert(p, depth + 1)?);
                }
                out.insert(k.clone(), Value::Object(conv));
            }
            "items" => {
                out.insert(k.clone(), convert(v, depth + 1)?);
            }
            "anyOf" => {
                let items = v
                    .as_array()?
                    .iter()
                    .map(|item| convert(item, depth + 1))
                    .collect::<Option<Vec<_>>>()?;
                out.insert(k.clone(), Value::Array(items));
            }
            "enum" | "required" | "propertyOrdering" if strings(v) => {
                out.insert(k.clone(), v.clone());
            }
            "description" | "title" | "pattern" if v.is_string() => {
                out.insert(k.clone(), v.clone());
            }
            "format" => {
                let ok = matches!(
                    (base, v.as_str()),
                    (Some("string"), Some("enum" | "date-time"))
                        | (Some("number"), Some("float" | "double"))
                        | (Some("integer"), Some("int32" | "int64"))
                );
                if !ok {
                    return None;
                }
                out.insert(k.clone(), v.clone());
            }
            "minimum" | "maximum" if v.is_number() => {
                out.insert(k.clone(), v.clone());
            }
            "default" | "example" => {
                out.insert(k.clone(), v.clone());
            }
            key if COUNTS.contains(&key) && v.is_u64() => {
                out.insert(k.clone(), v.clone());
            }
            _ => return None,
        }
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gemini_schema_deep_nesting_falls_back_without_overflow() {
        let mut s = json!({"type": "string"});
        // Deeper than any parsed document can be (serde_json stops at 128 levels).
        for _ in 0..200 {
            s = json!({"type": "array", "items": s});
        }
        assert!(to_gemini(&s).is_none());
        let back = from_gemini(&s);
        assert_eq!(back, s);
    }

    #[test]
    fn gemini_schema_subset_round_trips() {
        let s = json!({
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "City"},
                "unit": {"type": ["string", "null"], "enum": ["c", "f"]},
                "days": {"type": "integer", "minimum": 1, "maxItems": 3},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["location"]
        });
        let g = to_gemini(&s).unwrap();
        assert_eq!(g["type"], "OBJECT");
        assert_eq!(
            g["properties"]["unit"],
            json!({"type": "STRING", "nullable": true, "enum": ["c", "f"]})
        );
        assert_eq!(from_gemini(&g), s);
    }

    #[test]
    fn gemini_schema_outside_subset_is_refused() {
        for s in [
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {}}),
            json!({"type": "object", "properties": {"a": {"type": "string", "format": "email"}}}),
            json!({"type": "object", "properties": {"a": {"type": ["null", "string"]}}}),
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}}),
            json!({"type": "object", "properties": {"a": {"enum": [1, 2]}}}),
        ] {
            assert_eq!(to_gemini(&s), None, "{s}");
        }
    }

    #[test]
    fn gemini_schema_lower_case_and_nullable_decode() {
        let g = json!({"type": "object", "properties": {"a": {"type": "STRING", "nullable": true}, "b": {"type": "string", "nullable": false}}});
        assert_eq!(
            from_gemini(&g),
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "string", "nullable": false}}})
        );
    }
}
