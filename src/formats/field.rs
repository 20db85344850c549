//! `Field<T>`: a wire field that is absent, `null`, or a value. A pasted `"content": null` must
//! come back as `null`, not disappear, so `Option` is not enough. Use it with
//! `#[serde(default, skip_serializing_if = "Field::is_absent")]`.

use crate::model::{Extra, FORM_KEY};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

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

/// A format's own round-trip fields of one element, `extra[id]`: the document fields the model
/// has no place for, and the form markers ([`FORM_KEY`]) saying how the document spelled it.
/// Encoders read them through this view.
#[derive(Debug, Clone, Copy)]
pub struct Own<'a> {
    fields: Option<&'a Map<String, Value>>,
}

impl<'a> Own<'a> {
    /// Format `id`'s fields of `extra`.
    pub fn of(extra: &'a Extra, id: &str) -> Self {
        Own {
            fields: extra.get(id),
        }
    }
    /// The whole map, if the element has one.
    pub fn map(&self) -> Option<&'a Map<String, Value>> {
        self.fields
    }
    /// The map, or an empty one.
    pub fn cloned(&self) -> Map<String, Value> {
        self.fields.cloned().unwrap_or_default()
    }
    /// One field.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.fields?.get(key)
    }
    /// One field, if it is a string.
    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }
    /// Whether a field is `true`.
    pub fn flag(&self, key: &str) -> bool {
        self.get(key).and_then(Value::as_bool) == Some(true)
    }
    /// Whether the field is there, whatever its value.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// A field that is an object, copied (empty when absent or not an object).
    pub fn object(&self, key: &str) -> Map<String, Value> {
        self.get(key)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    }
    /// The form markers (`extra[id][FORM_KEY]`), copied.
    pub fn forms(&self) -> Map<String, Value> {
        self.object(FORM_KEY)
    }
    /// Whether the form marker `key` is `true`.
    pub fn form_flag(&self, key: &str) -> bool {
        self.get(FORM_KEY)
            .and_then(|f| f.get(key))
            .and_then(Value::as_bool)
            == Some(true)
    }
}

/// The fields a decoder keeps for an element's round trip, gathered in a map as it reads the
/// element and stored with [`wrap`] as `extra[id]`.
#[derive(Debug)]
pub struct Keep<'m>(pub &'m mut Map<String, Value>);

impl<'m> Keep<'m> {
    /// The fields format `id` keeps in `extra` (made when missing).
    pub fn of(extra: &'m mut Extra, id: &str) -> Self {
        Keep(extra.entry(id.to_string()).or_default())
    }
    /// Keep a field.
    pub fn put(&mut self, key: &str, v: Value) {
        self.0.insert(key.into(), v);
    }
    /// Keep a typed field as it was in the document (absent stays absent).
    pub fn field<T: Serialize>(&mut self, key: &str, f: &Field<T>) {
        if let Some(v) = f.to_json() {
            self.0.insert(key.into(), v);
        }
    }
    /// Keep a `null` typed field, so it comes back as `null`.
    pub fn null<T>(&mut self, key: &str, f: &Field<T>) {
        if matches!(f, Field::Null) {
            self.0.insert(key.into(), Value::Null);
        }
    }
    /// The value of a typed field; a `null` is kept (emitted again when the model leaves the
    /// field unset).
    pub fn take<T>(&mut self, key: &str, f: Field<T>) -> Option<T> {
        self.null(key, &f);
        f.into_value()
    }
    /// Set the form marker `key` to `v`.
    pub fn form(&mut self, key: &str, v: Value) {
        let form = self
            .0
            .entry(FORM_KEY.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(f) = form {
            f.insert(key.to_string(), v);
        }
    }
}

/// `extra` holding `fields` under the format id `id`, or nothing when there are none.
pub fn wrap(id: &str, fields: Map<String, Value>) -> Extra {
    let mut e = Extra::new();
    if !fields.is_empty() {
        e.insert(id.to_string(), fields);
    }
    e
}
