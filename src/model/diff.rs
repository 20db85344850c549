//! Structural difference between two exchanges, and which differences the reported losses do
//! not explain. This is the round-trip contract: `decode(encode(x))` may differ from `x` only
//! under the pointers of the losses reported on the way.

use super::{Exchange, Loss};
use serde_json::Value;

/// JSON pointers where `a` and `b` differ: leaves that changed, keys present on one side only,
/// array elements beyond the shorter array.
pub fn differences(a: &Value, b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(a, b, &mut String::new(), &mut out);
    out
}

fn walk(a: &Value, b: &Value, path: &mut String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let len = path.len();
                path.push('/');
                path.push_str(&crate::formats::json::escape(k));
                match y.get(k) {
                    Some(vb) => walk(va, vb, path, out),
                    None => absent(va, path, out),
                }
                path.truncate(len);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                let len = path.len();
                path.push('/');
                path.push_str(&crate::formats::json::escape(k));
                absent(vb, path, out);
                path.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                match (x.get(i), y.get(i)) {
                    (Some(va), Some(vb)) => walk(va, vb, path, out),
                    _ => out.push(path.clone()),
                }
                path.truncate(len);
            }
        }
        _ if a == b => {}
        _ => out.push(path.clone()),
    }
}

/// A value present on one side only: its leaves are the differences (so a loss at
/// `/options/model` covers an `options` object that exists only because of that field).
fn absent(v: &Value, path: &mut String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            walk(v, &Value::Object(serde_json::Map::new()), path, out);
        }
        Value::Array(a) if !a.is_empty() => walk(v, &Value::Array(Vec::new()), path, out),
        _ => out.push(path.clone()),
    }
}

/// Differences between `before` and `after` that no loss pointer covers (a loss covers its own
/// pointer and everything below it). Form markers ([`super::FORM_KEY`]) record how a document
/// was spelled, not what it says, and are not compared.
pub fn unexplained(before: &Exchange, after: &Exchange, losses: &[Loss]) -> Vec<String> {
    let a = serde_json::to_value(before).unwrap_or(Value::Null);
    let b = serde_json::to_value(after).unwrap_or(Value::Null);
    differences(&a, &b)
        .into_iter()
        .filter(|d| !d.split('/').any(|token| token == super::FORM_KEY))
        .filter(|d| {
            !losses.iter().any(|l| {
                d == &l.pointer
                    || d.strip_prefix(l.pointer.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn model_differences_finds_leaves_keys_and_lengths() {
        let a = json!({"a": [1, 2, 3], "b": {"c": 1, "d": 2}, "x~": 1});
        let b = json!({"a": [1, 5], "b": {"c": 1, "e": 2}, "x~": 2});
        assert_eq!(
            differences(&a, &b),
            ["/a/1", "/a/2", "/b/d", "/b/e", "/x~0"]
        );
        assert!(differences(&a, &a).is_empty());
    }
}
