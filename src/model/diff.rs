//! Structural difference between two exchanges, and which differences the reported losses do
//! not explain. This is the round-trip contract: `decode(encode(x))` may differ from `x` only
//! under the pointers of the losses reported on the way.

use super::{Exchange, Loss};
use serde_json::Value;

/// Deepest level [`differences`] descends to; below it two values that differ are one
/// difference at that level. The walk recurses, and a page's stack is small.
pub const MAX_DEPTH: usize = 128;

/// Longest pair of arrays aligned element by element (the product of their lengths); longer
/// ones are paired by position, so the alignment's table stays within a few megabytes.
const MAX_ALIGN: usize = 1 << 20;

/// JSON pointers where `a` and `b` differ: leaves that changed, keys present on one side only,
/// array elements beyond the shorter array.
pub fn differences(a: &Value, b: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(a, b, &mut String::new(), &mut out, 0);
    out
}

fn walk(a: &Value, b: &Value, path: &mut String, out: &mut Vec<String>, depth: usize) {
    if depth >= MAX_DEPTH {
        if a != b {
            out.push(path.clone());
        }
        return;
    }
    let depth = depth + 1;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let len = path.len();
                path.push('/');
                path.push_str(&crate::text::escape(k));
                match y.get(k) {
                    Some(vb) => walk(va, vb, path, out, depth),
                    None => absent(va, path, out, depth),
                }
                path.truncate(len);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                let len = path.len();
                path.push('/');
                path.push_str(&crate::text::escape(k));
                absent(vb, path, out, depth);
                path.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                walk(va, vb, path, out, depth);
                path.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            // Lengths differ: an element was dropped or added. Align the two sides so that the
            // elements after it are compared with their counterparts, not their neighbours.
            let mut next_before = 0;
            for (i, j) in align(x, y) {
                let len = path.len();
                match (i, j) {
                    (Some(i), Some(j)) => {
                        path.push_str(&format!("/{i}"));
                        if let (Some(va), Some(vb)) = (x.get(i), y.get(j)) {
                            walk(va, vb, path, out, depth);
                        }
                        next_before = i + 1;
                    }
                    (Some(i), None) => {
                        path.push_str(&format!("/{i}"));
                        out.push(path.clone());
                        next_before = i + 1;
                    }
                    // An element only `after` has: reported where it was inserted.
                    (None, _) => {
                        path.push_str(&format!("/{next_before}"));
                        out.push(path.clone());
                    }
                }
                path.truncate(len);
            }
        }
        _ if a == b => {}
        _ => out.push(path.clone()),
    }
}

/// What kind of element a value is, for alignment: its `type` or `role`, else its JSON kind.
fn shape(v: &Value) -> String {
    match v {
        Value::Object(m) => match m.get("type").or_else(|| m.get("role")) {
            Some(Value::String(s)) => s.clone(),
            _ => "object".into(),
        },
        Value::Array(_) => "array".into(),
        Value::String(_) => "string".into(),
        Value::Number(_) => "number".into(),
        Value::Bool(_) => "bool".into(),
        Value::Null => "null".into(),
    }
}

/// Pair the elements of `x` and `y` in order, maximising the pairs (equal elements count
/// double, elements of the same shape once); unpaired elements come with `None` opposite.
fn align(x: &[Value], y: &[Value]) -> Vec<(Option<usize>, Option<usize>)> {
    let (n, m) = (x.len(), y.len());
    if (n + 1).saturating_mul(m + 1) > MAX_ALIGN {
        let pair = |i: usize| (Some(i).filter(|&i| i < n), Some(i).filter(|&i| i < m));
        return (0..n.max(m)).map(pair).collect();
    }
    let xs: Vec<String> = x.iter().map(shape).collect();
    let ys: Vec<String> = y.iter().map(shape).collect();
    let score = |i: usize, j: usize| -> u32 {
        if x[i] == y[j] {
            2
        } else if xs[i] == ys[j] {
            1
        } else {
            0
        }
    };
    // best[i][j]: best total for x[i..] and y[j..].
    let mut best = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let pair = match score(i, j) {
                0 => 0,
                s => s + best[i + 1][j + 1],
            };
            best[i][j] = pair.max(best[i + 1][j]).max(best[i][j + 1]);
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n.max(m));
    while i < n || j < m {
        if i < n && j < m && score(i, j) > 0 && best[i][j] == score(i, j) + best[i + 1][j + 1] {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if i < n && (j == m || best[i][j] == best[i + 1][j]) {
            out.push((Some(i), None));
            i += 1;
        } else {
            out.push((None, Some(j)));
            j += 1;
        }
    }
    out
}

/// A value present on one side only: its leaves are the differences (so a loss at
/// `/options/model` covers an `options` object that exists only because of that field).
fn absent(v: &Value, path: &mut String, out: &mut Vec<String>, depth: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            walk(v, &Value::Object(serde_json::Map::new()), path, out, depth);
        }
        Value::Array(a) if !a.is_empty() => walk(v, &Value::Array(Vec::new()), path, out, depth),
        _ => out.push(path.clone()),
    }
}

/// Differences between `before` and `after` that no loss pointer covers (a loss covers its own
/// pointer and everything below it). Form markers ([`super::FORM_KEY`]) record how a document
/// was spelled, not what it says, and are not compared; nor are the models chosen per provider
/// (`/options/models`), settings no single request carries.
pub fn unexplained(before: &Exchange, after: &Exchange, losses: &[Loss]) -> Vec<String> {
    let a = serde_json::to_value(before).unwrap_or(Value::Null);
    let b = serde_json::to_value(after).unwrap_or(Value::Null);
    differences(&a, &b)
        .into_iter()
        .filter(|d| !d.split('/').any(super::is_form_key))
        .filter(|d| *d != "/options/models" && !d.starts_with("/options/models/"))
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

    #[test]
    fn model_differences_stops_at_the_depth_limit() {
        let nest = |leaf: Value| (0..MAX_DEPTH + 50).fold(leaf, |v, _| Value::Array(vec![v]));
        let d = differences(&nest(json!(1)), &nest(json!(2)));
        assert_eq!(d, ["/0".repeat(MAX_DEPTH)]);
    }

    #[test]
    fn model_differences_pairs_long_arrays_by_position() {
        let a = Value::Array((0..2000).map(|i| json!(i)).collect());
        let mut b = a.clone();
        b.as_array_mut().unwrap().truncate(1000);
        let d = differences(&a, &b);
        assert_eq!(d.len(), 1000);
        assert_eq!(d.first().map(String::as_str), Some("/1000"));
    }
}
