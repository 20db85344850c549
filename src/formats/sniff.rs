//! What the sniffers read: a borrowed view of a JSON document ([`Node`]), built in one pass over
//! the text. Detection asks only which keys an element has and what some strings say, so the
//! view keeps no copy of the text's strings (it borrows them; only a string with an escape is
//! copied) and no number's value; the document is then decoded from the text by the format
//! detected, so a paste is read about once instead of as a `serde_json::Value` and again from
//! that value.
//!
//! [`Node`]'s methods are named after `serde_json::Value`'s and answer the same: a sniffer reads
//! a view as it would read the value (tests compare the two on every fixture).

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

/// A JSON element of a text, borrowing its strings.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (its value is never asked).
    Number,
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// An object.
    Object(Object<'a>),
}

/// A JSON object: its members in the order of the text. A key written twice reads as its last
/// value, as in a parsed `serde_json::Value`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object<'a>(Vec<(Cow<'a, str>, Node<'a>)>);

impl<'a> Object<'a> {
    /// The value of `key`, if the object has it.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        // The last one written wins, as when a map is built from the text.
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// True when the object has `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }
}

impl<'a> Node<'a> {
    /// The member `key` of an object (`None` for anything else).
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.as_object()?.get(key)
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Node::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Node<'a>]> {
        match self {
            Node::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// True for an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Node::Object(_))
    }

    /// True for an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Node::Array(_))
    }

    /// True for a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Node::String(_))
    }

    /// The view of a value already parsed (tests, and the odd text only the value reads).
    pub fn of(v: &'a serde_json::Value) -> Node<'a> {
        use serde_json::Value;
        match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(_) => Node::Number,
            Value::String(s) => Node::String(Cow::Borrowed(s)),
            Value::Array(a) => Node::Array(a.iter().map(Node::of).collect()),
            Value::Object(o) => Node::Object(Object(
                o.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Node::of(v)))
                    .collect(),
            )),
        }
    }
}

/// The view of `text`, when it is one JSON document nested at most `max_depth` levels of
/// arrays and objects deep: `None` exactly when `serde_json` would not parse it into a `Value`
/// (the same parser reads every string and number) or it nests deeper.
pub fn parse(text: &str, max_depth: usize) -> Option<Node<'_>> {
    let deepest = Cell::new(0);
    let mut de = serde_json::Deserializer::from_str(text);
    let node = Seed {
        depth: 0,
        deepest: &deepest,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    (deepest.get() <= max_depth).then_some(node)
}

/// Reads one element at `depth` levels of containers, noting the deepest level reached.
#[derive(Clone, Copy)]
struct Seed<'c> {
    depth: usize,
    deepest: &'c Cell<usize>,
}

impl Seed<'_> {
    /// The seed of the elements of a container at this depth.
    fn inner(self) -> Self {
        let depth = self.depth + 1;
        if depth > self.deepest.get() {
            self.deepest.set(depth);
        }
        Seed { depth, ..self }
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Node<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Node<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(b))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Node<'de>, E> {
        Ok(Node::Number)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Node<'de>, E> {
        Ok(Node::Number)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Node<'de>, E> {
        Ok(Node::Number)
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Node<'de>, E> {
        Ok(Node::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Node<'de>, E> {
        Ok(Node::String(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Node<'de>, E> {
        Ok(Node::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let inner = self.inner();
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let inner = self.inner();
        let mut members = Vec::new();
        while let Some(key) = map.next_key_seed(Key)? {
            members.push((key, map.next_value_seed(inner)?));
        }
        Ok(Node::Object(Object(members)))
    }
}

/// Reads a key, borrowing it unless it has an escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}
