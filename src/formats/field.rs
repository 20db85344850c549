//! `Field<T>`: a wire field that is absent, `null`, or a value. A pasted `"content": null` must
//! come back as `null`, not disappear, so `Option` is not enough. Use it with
//! `#[serde(default, skip_serializing_if = "Field::is_absent")]`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A field that is absent, `null`, or a value.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Field<T> {
    /// Not in the document.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// A value.
    Value(T),
}

impl<T> Field<T> {
    /// True when the field is not in the document (then it is not serialised).
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }
    /// `Value(v)` for `Some(v)`, else absent.
    pub fn from_option(v: Option<T>) -> Self {
        v.map_or(Field::Absent, Field::Value)
    }
    /// The value, if there is one.
    pub fn value(&self) -> Option<&T> {
        match self {
            Field::Value(v) => Some(v),
            _ => None,
        }
    }
    /// The value, if there is one, by value.
    pub fn into_value(self) -> Option<T> {
        match self {
            Field::Value(v) => Some(v),
            _ => None,
        }
    }
}

impl<T: Serialize> Field<T> {
    /// The field as a JSON value (`None` when absent), for storing in an `extra` map.
    pub fn to_json(&self) -> Option<Value> {
        match self {
            Field::Absent => None,
            Field::Null => Some(Value::Null),
            Field::Value(v) => Some(serde_json::to_value(v).unwrap_or(Value::Null)),
        }
    }
}

impl Field<Value> {
    /// A field from an optional JSON value (`None` → absent, `null` → null).
    pub fn from_json(v: Option<Value>) -> Self {
        match v {
            None => Field::Absent,
            Some(Value::Null) => Field::Null,
            Some(v) => Field::Value(v),
        }
    }
}

impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Value(v) => v.serialize(s),
            _ => s.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(d)? {
            Some(v) => Field::Value(v),
            None => Field::Null,
        })
    }
}
