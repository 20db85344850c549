//! A form for a tool's arguments, generated from its input schema: one field per top-level
//! property (text, number, integer, yes/no, a choice of `enum` values, or JSON for anything
//! nested), read back into the arguments object and validated against the whole schema by our
//! own validator before anything is sent. The page draws the fields; this decides them.

use crate::schema::validate::Validator;
use serde_json::{Map, Value};

/// What a field takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Free text (a JSON string).
    Text,
    /// A number.
    Number,
    /// A whole number.
    Integer,
    /// true / false.
    Boolean,
    /// One of these values (the schema's `enum`, as JSON text).
    Choice(Vec<String>),
    /// Any JSON (objects, arrays, unions): typed as JSON text.
    Json,
}

/// One field of the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The property's name.
    pub name: String,
    /// What it takes.
    pub kind: Kind,
    /// Listed in `required`.
    pub required: bool,
    /// The schema's `description` or `title`.
    pub help: String,
    /// The schema's `default`, as the field's text (JSON text for a choice or JSON field).
    pub default: String,
}

/// Most fields drawn (a schema with more properties is typed as one JSON object).
pub const MAX_FIELDS: usize = 64;

/// The fields of `schema` (an object schema with `properties`); `None` when the form should
/// be one JSON text instead (no properties, too many, or not an object schema).
pub fn fields(schema: &Value) -> Option<Vec<Field>> {
    let props = schema.get("properties")?.as_object()?;
    if props.len() > MAX_FIELDS {
        return None;
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Some(
        props
            .iter()
            .map(|(name, s)| {
                let kind = kind_of(s);
                // A choice or JSON field holds JSON text; the others hold the value's text.
                let default = match (&kind, s.get("default")) {
                    (Kind::Choice(_) | Kind::Json, Some(v)) => v.to_string(),
                    (_, Some(v)) => text_of(v),
                    (_, None) => String::new(),
                };
                Field {
                    name: name.clone(),
                    kind,
                    required: required.contains(&name.as_str()),
                    help: s
                        .get("description")
                        .or_else(|| s.get("title"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    default,
                }
            })
            .collect(),
    )
}

fn kind_of(s: &Value) -> Kind {
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return Kind::Choice(values.iter().map(|v| v.to_string()).collect());
    }
    match s.get("type").and_then(Value::as_str) {
        Some("string") => Kind::Text,
        Some("number") => Kind::Number,
        Some("integer") => Kind::Integer,
        Some("boolean") => Kind::Boolean,
        _ => Kind::Json,
    }
}

/// A value as a field shows it: a string as itself, anything else as JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The arguments the fields' texts say, in field order. An empty field is left out; a text that does not read as its kind is an error naming the field.
pub fn read(fields: &[Field], texts: &[String]) -> Result<Value, String> {
    let mut out = Map::new();
    for (f, t) in fields
        .iter()
        .zip(texts.iter().chain(std::iter::repeat(&String::new())))
    {
        let t = t.trim();
        if t.is_empty() {
            // Left out: the validator reports a required one as missing.
            continue;
        }
        let v = match &f.kind {
            Kind::Text => Value::String(t.to_string()),
            Kind::Number => t
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .ok_or_else(|| format!("{}: \"{t}\" is not a number", f.name))?,
            Kind::Integer => t
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("{}: \"{t}\" is not a whole number", f.name))?,
            Kind::Boolean => match t {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(format!("{}: choose true or false", f.name)),
            },
            Kind::Choice(_) | Kind::Json => {
                serde_json::from_str(t).map_err(|e| format!("{}: not JSON ({e})", f.name))?
            }
        };
        out.insert(f.name.clone(), v);
    }
    Ok(Value::Object(out))
}

/// What is wrong with `args` under `schema`, one line per error (`/city: … is required`);
/// empty when they may be sent. A schema that does not compile is one error.
pub fn check(schema: &Value, args: &Value) -> Vec<String> {
    match Validator::new(schema) {
        Ok(v) => v
            .errors(args)
            .into_iter()
            .map(|e| {
                if e.instance_path.is_empty() {
                    e.message
                } else {
                    format!("{}: {}", e.instance_path, e.message)
                }
            })
            .collect(),
        Err(e) => vec![format!("the tool's input schema does not compile: {e}")],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "Where"},
                "unit": {"enum": ["celsius", "fahrenheit"], "default": "celsius"},
                "days": {"type": "integer"},
                "exact": {"type": "boolean"},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["city"]
        })
    }

    #[test]
    fn fields_follow_the_schema() {
        let f = fields(&schema()).unwrap();
        let by = |n: &str| f.iter().find(|x| x.name == n).unwrap().clone();
        assert_eq!(by("city").kind, Kind::Text);
        assert!(by("city").required);
        assert_eq!(by("city").help, "Where");
        assert_eq!(
            by("unit").kind,
            Kind::Choice(vec!["\"celsius\"".into(), "\"fahrenheit\"".into()])
        );
        assert_eq!(by("unit").default, "\"celsius\"");
        assert_eq!(by("days").kind, Kind::Integer);
        assert_eq!(by("tags").kind, Kind::Json);
        assert_eq!(fields(&json!({"type": "object"})), None);
    }

    #[test]
    fn texts_read_back_and_are_checked() {
        let f = fields(&schema()).unwrap();
        let names: Vec<&str> = f.iter().map(|x| x.name.as_str()).collect();
        let mut texts = vec![String::new(); f.len()];
        let set = |texts: &mut Vec<String>, n: &str, v: &str| {
            let i = names.iter().position(|x| *x == n).unwrap();
            texts[i] = v.into();
        };
        // Nothing typed: the required city is missing, and the validator says so.
        let args = read(&f, &texts).unwrap();
        assert_eq!(args, json!({}));
        set(&mut texts, "days", "two");
        assert!(read(&f, &texts).unwrap_err().contains("days"));
        set(&mut texts, "days", "2");
        set(&mut texts, "city", "Paris");
        set(&mut texts, "unit", "\"kelvin\"");
        set(&mut texts, "tags", "[\"a\"]");
        let args = read(&f, &texts).unwrap();
        assert_eq!(
            args,
            json!({"city": "Paris", "unit": "kelvin", "days": 2, "tags": ["a"]})
        );
        let errors = check(&schema(), &args);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("/unit"), "{errors:?}");
        set(&mut texts, "unit", "\"celsius\"");
        assert!(check(&schema(), &read(&f, &texts).unwrap()).is_empty());
        let missing = check(&schema(), &json!({}));
        assert!(missing.iter().any(|e| e.contains("city")), "{missing:?}");
    }
}
