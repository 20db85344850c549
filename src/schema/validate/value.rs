//! JSON value helpers: types, JSON equality with numeric equality, number comparison,
//! `multipleOf`, short renderings for messages. Nothing recurses deeper than the values it is
//! given, which the validator bounds by `MAX_VALUE_DEPTH`.

use serde_json::{Number, Value};
use std::cmp::Ordering;

/// Type bits of `type`.
pub const NULL: u8 = 1;
pub const BOOLEAN: u8 = 2;
pub const INTEGER: u8 = 4;
pub const NUMBER: u8 = 8;
pub const STRING: u8 = 16;
pub const ARRAY: u8 = 32;
pub const OBJECT: u8 = 64;

/// The bit of a type name.
pub fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "integer" => INTEGER,
        "number" => NUMBER,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => return None,
    })
}

/// Type names of a mask, in `type` order.
pub fn type_names(mask: u8) -> Vec<&'static str> {
    [
        (NULL, "null"),
        (BOOLEAN, "boolean"),
        (INTEGER, "integer"),
        (NUMBER, "number"),
        (STRING, "string"),
        (ARRAY, "array"),
        (OBJECT, "object"),
    ]
    .into_iter()
    .filter(|(b, _)| mask & b != 0)
    .map(|(_, n)| n)
    .collect()
}

/// True when the number is an integer; `1.0` counts unless `strict` (draft 04).
pub fn is_integer(n: &Number, strict: bool) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    !strict
        && n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Whether `v` has one of the types of `mask`.
pub fn has_type(v: &Value, mask: u8, strict_integers: bool) -> bool {
    let bit = match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(n) => {
            if mask & NUMBER != 0 {
                return true;
            }
            return mask & INTEGER != 0 && is_integer(n, strict_integers);
        }
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    };
    mask & bit != 0
}

/// Order of two numbers, exact for integers of either sign and size.
pub fn num_cmp(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return Some(x.cmp(&y));
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

/// JSON equality where `1` equals `1.0` (as `enum`, `const` and `uniqueItems` compare).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => num_cmp(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| json_eq(p, q)))
        }
        _ => a == b,
    }
}

/// `value` is a multiple of `multiple` (> 0), decided on the decimal forms both print as where
/// they fit, as `jsonschema` does: `0.3` is a multiple of `0.1`, `19.99` of `0.01`.
pub fn is_multiple_of(value: &Number, multiple: f64) -> bool {
    if multiple > 0.0 && multiple.fract() == 0.0 && multiple <= 9_007_199_254_740_992.0 {
        if let Some(v) = value.as_u64() {
            return v % (multiple as u64) == 0;
        }
        if let Some(v) = value.as_i64() {
            return v % (multiple as i64) == 0;
        }
    }
    let Some(v) = value.as_f64() else {
        return true;
    };
    if v == 0.0 {
        return true;
    }
    if v.abs() < multiple {
        return false;
    }
    if let Some(answer) = divides_exactly(v, multiple) {
        return answer;
    }
    let q = v / multiple;
    q.is_finite() && q.fract() == 0.0
}

/// `value / multiple` is an integer, on the shortest decimal forms; `None` past `i128`.
fn divides_exactly(value: f64, multiple: f64) -> Option<bool> {
    let (vm, vd) = decimal_parts(value)?;
    let (mm, md) = decimal_parts(multiple)?;
    if mm == 0 {
        return None;
    }
    let shared = vd.min(md);
    let scale = |mantissa: i128, decimals: u32| -> Option<i128> {
        mantissa.checked_mul(10_i128.checked_pow(decimals - shared)?)
    };
    Some(scale(vm, md)?.checked_rem(scale(mm, vd)?)? == 0)
}

/// Mantissa and number of decimals of the shortest decimal form of `f` (`19.99` → `(1999, 2)`).
fn decimal_parts(f: f64) -> Option<(i128, u32)> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{}", f.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if int.len() + frac.len() > 38 {
        return None;
    }
    let digits: String = [int, frac].concat();
    let mantissa: i128 = digits.parse().ok()?;
    Some((mantissa, u32::try_from(frac.len()).ok()?))
}

/// Compact JSON of `v` for a message, cut to about `max` characters.
pub fn short(v: &Value) -> String {
    cut(&v.to_string(), 80)
}

/// `s` cut at a character boundary near `max` bytes, with an ellipsis.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", s.get(..end).unwrap_or_default())
}

/// A JSON string literal of `s` for a message.
pub fn quoted(s: &str) -> String {
    cut(&Value::String(s.to_string()).to_string(), 80)
}

/// Numeric value of a JSON value that must be a non-negative integer (`2` or `2.0`).
pub fn non_negative_integer(v: &Value) -> Result<u64, String> {
    let Value::Number(n) = v else {
        return Err(format!("{} is not of type \"integer\"", short(v)));
    };
    if let Some(u) = n.as_u64() {
        return Ok(u);
    }
    if n.as_i64().is_some_and(|i| i < 0) {
        return Err(format!("{n} is less than the minimum of 0"));
    }
    match n.as_f64() {
        Some(f) if f.is_finite() && f.fract() == 0.0 => {
            if f < 0.0 {
                Err(format!("{n} is less than the minimum of 0"))
            } else {
                // Saturates past u64: any length is below it anyway.
                Ok(f as u64)
            }
        }
        _ => Err(format!("{n} is not of type \"integer\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => unreachable!("test numbers only"),
        }
    }

    #[test]
    fn value_multiple_of_uses_decimal_forms() {
        assert!(is_multiple_of(&n(json!(0.3)), 0.1));
        assert!(is_multiple_of(&n(json!(19.99)), 0.01));
        assert!(!is_multiple_of(&n(json!(0.35)), 0.1));
        assert!(is_multiple_of(&n(json!(10)), 2.0));
        assert!(!is_multiple_of(&n(json!(7)), 2.0));
        assert!(is_multiple_of(&n(json!(-4.0)), 2.0));
        assert!(!is_multiple_of(&n(json!(1e308)), 0.123));
    }

    #[test]
    fn value_json_eq_is_numeric_and_order_free() {
        assert!(json_eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_eq(&json!(1), &json!(true)));
        assert!(json_eq(
            &json!({"x": 1, "y": 2}),
            &json!({"y": 2, "x": 1.0})
        ));
    }

    #[test]
    fn value_cut_respects_char_boundaries() {
        assert_eq!(cut("ééé", 3), "é…");
        assert_eq!(cut("abc", 3), "abc");
    }
}
