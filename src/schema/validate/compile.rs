//! Schema → nodes. Each subschema becomes one [`Node`] holding its keywords, parsed and checked
//! as the draft's meta-schema requires; `$ref`s are resolved to node ids. Subschemas and `$ref`
//! targets are reserved by pointer and compiled from a worklist: nothing recurses, however deep
//! the schema, and each location compiles once.

use super::pattern::{self, Pattern};
use super::value::{self, non_negative_integer, short};
use super::{CompileError, Draft, Unchecked, Validator, MAX_VALUE_DEPTH};
use crate::schema::walk::value_depth;
use crate::text::escape;
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

/// Index of a node in `Validator::nodes`.
pub type Id = usize;

/// One compiled (sub)schema.
#[derive(Debug)]
pub struct Node {
    /// Absolute JSON pointer of the subschema in the document (`""` for the root).
    pub path: String,
    /// What it checks.
    pub kind: Kind,
}

/// A boolean schema or a schema object.
#[derive(Debug)]
pub enum Kind {
    /// `true` / `false`.
    Bool(bool),
    /// The keywords of an object schema.
    Schema(Box<Keywords>),
}

/// A numeric bound.
#[derive(Debug)]
pub struct Bound {
    /// The limit.
    pub limit: Number,
    /// Lower (`minimum`) or upper (`maximum`) bound.
    pub lower: bool,
    /// Strict comparison.
    pub exclusive: bool,
    /// The keyword reported.
    pub keyword: &'static str,
}

/// A dependency of `dependentRequired` / `dependentSchemas` / `dependencies`.
#[derive(Debug)]
pub struct Dependency<T> {
    /// The property that triggers it.
    pub property: String,
    /// What it requires.
    pub then: T,
    /// The keyword reported.
    pub keyword: &'static str,
}

/// The keywords of one schema object that the validator checks.
#[derive(Debug, Default)]
pub struct Keywords {
    pub reference: Option<Id>,
    pub types: Option<u8>,
    pub enumeration: Option<Vec<Value>>,
    pub constant: Option<Value>,
    pub bounds: Vec<Bound>,
    pub multiple_of: Option<f64>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(String, Pattern)>,
    /// `prefixItems`, or array-form `items` (keyword name kept for paths).
    pub prefix_items: Vec<Id>,
    pub prefix_keyword: &'static str,
    /// `items` (2020-12 or schema form), or `additionalItems` after array-form `items`.
    pub items: Option<Id>,
    pub items_keyword: &'static str,
    pub contains: Option<Id>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub unevaluated_items: Option<Id>,
    pub properties: Vec<(String, Id)>,
    pub pattern_properties: Vec<(String, Pattern, Id)>,
    pub additional_properties: Option<Id>,
    pub property_names: Option<Id>,
    pub required: Vec<String>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub dependent_required: Vec<Dependency<Vec<String>>>,
    pub dependent_schemas: Vec<Dependency<Id>>,
    pub unevaluated_properties: Option<Id>,
    pub all_of: Vec<Id>,
    pub any_of: Vec<Id>,
    pub one_of: Vec<Id>,
    pub not: Option<Id>,
    pub if_: Option<Id>,
    pub then_: Option<Id>,
    pub else_: Option<Id>,
}

/// Compile a whole schema document.
pub fn compile(schema: &Value) -> Result<Validator, CompileError> {
    if value_depth(schema, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH {
        return Err(err(
            "",
            format!("schema nested deeper than {MAX_VALUE_DEPTH} levels; not compiled"),
        ));
    }
    let draft = match schema.get("$schema") {
        None => Draft::Draft202012,
        Some(Value::String(uri)) => Draft::from_uri(uri).ok_or_else(|| {
            err(
                "/$schema",
                format!(
                    "unknown meta-schema {}: only the JSON Schema drafts 04 to 2020-12 are known",
                    value::quoted(uri)
                ),
            )
        })?,
        Some(other) => {
            return Err(err(
                "/$schema",
                format!("{} is not of type \"string\"", short(other)),
            ))
        }
    };
    let mut c = Compiler {
        root: schema,
        draft,
        nodes: Vec::new(),
        ids: HashMap::new(),
        filled: Vec::new(),
        queue: Vec::new(),
        resources: Vec::new(),
        anchors: HashMap::new(),
        unchecked: Vec::new(),
        annotations: false,
    };
    c.index();
    c.subschema(String::new());
    while let Some((id, ptr)) = c.queue.pop() {
        if c.filled.get(id).copied().unwrap_or(true) {
            continue;
        }
        let Some(target) = schema.pointer(&ptr) else {
            return Err(err(&ptr, "reference target vanished".to_string()));
        };
        c.fill(id, target, &ptr)?;
    }
    c.unchecked
        .sort_by(|a, b| a.schema_path.cmp(&b.schema_path));
    Ok(Validator {
        nodes: c.nodes,
        draft,
        unchecked: c.unchecked,
        annotations: c.annotations,
    })
}

fn err(pointer: &str, message: String) -> CompileError {
    CompileError {
        pointer: pointer.to_string(),
        message,
    }
}

struct Compiler<'s> {
    root: &'s Value,
    draft: Draft,
    nodes: Vec<Node>,
    /// Node of each compiled or reserved pointer.
    ids: HashMap<String, Id>,
    filled: Vec<bool>,
    /// Reserved `$ref` targets still to compile.
    queue: Vec<(Id, String)>,
    /// Resources (`$id`): pointer and absolute URI without fragment, root first.
    resources: Vec<(String, String)>,
    /// Anchors: (resource URI, name) → pointer.
    anchors: HashMap<(String, String), String>,
    unchecked: Vec<Unchecked>,
    annotations: bool,
}

/// Keywords whose value is one subschema in some draft (for the `$id` / `$anchor` index).
const INDEX_ONE: [&str; 12] = [
    "additionalItems",
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
];
const INDEX_LIST: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const INDEX_MAP: [&str; 6] = [
    "$defs",
    "definitions",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

impl Compiler<'_> {
    // ------------------------------------------------------------------ $id / $anchor index

    /// Record every resource (`$id`) and anchor reachable through subschema keywords.
    fn index(&mut self) {
        let root_base = self
            .id_of(self.root)
            .map(|id| join("", id))
            .map(|u| strip_fragment(&u).to_string());
        let root_base = root_base.unwrap_or_default();
        self.resources.push((String::new(), String::new()));
        if !root_base.is_empty() {
            self.resources.push((String::new(), root_base.clone()));
        }
        let mut stack: Vec<(String, &Value, String)> = vec![(String::new(), self.root, root_base)];
        while let Some((ptr, v, base)) = stack.pop() {
            let Some(m) = v.as_object() else {
                continue;
            };
            let mut base = base;
            if let Some(id) = self.id_of(v) {
                let full = join(&base, id);
                match full.split_once('#') {
                    Some((doc, frag)) if !frag.is_empty() && self.draft <= Draft::Draft7 => {
                        // Draft 04–07: `"$id": "#name"` is a plain-name anchor.
                        self.anchors
                            .insert((doc.to_string(), frag.to_string()), ptr.clone());
                    }
                    _ => {
                        base = strip_fragment(&full).to_string();
                        if !ptr.is_empty() {
                            self.resources.push((ptr.clone(), base.clone()));
                        }
                    }
                }
            }
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(Value::String(a)) = m.get(key) {
                    if self.draft >= Draft::Draft201909 {
                        self.anchors.insert((base.clone(), a.clone()), ptr.clone());
                    }
                }
            }
            for (k, child) in m {
                let at = format!("{ptr}/{}", escape(k));
                if INDEX_ONE.contains(&k.as_str()) && (child.is_object() || child.is_boolean()) {
                    stack.push((at.clone(), child, base.clone()));
                }
                if INDEX_LIST.contains(&k.as_str()) {
                    if let Some(a) = child.as_array() {
                        for (i, c) in a.iter().enumerate() {
                            stack.push((format!("{at}/{i}"), c, base.clone()));
                        }
                    }
                }
                if INDEX_MAP.contains(&k.as_str()) {
                    if let Some(o) = child.as_object() {
                        for (name, c) in o {
                            stack.push((format!("{at}/{}", escape(name)), c, base.clone()));
                        }
                    }
                }
            }
        }
    }

    /// The `$id` (`id` in draft 04) of a schema object.
    fn id_of<'v>(&self, v: &'v Value) -> Option<&'v str> {
        let key = if self.draft == Draft::Draft4 {
            "id"
        } else {
            "$id"
        };
        v.get(key)?.as_str()
    }

    /// The base URI at a pointer: that of the innermost resource containing it.
    fn base_at(&self, ptr: &str) -> &str {
        let mut best: Option<&(String, String)> = None;
        for r in &self.resources {
            let inside = ptr == r.0
                || (ptr.starts_with(&r.0) && ptr.as_bytes().get(r.0.len()) == Some(&b'/'));
            if inside && best.is_none_or(|b| r.0.len() >= b.0.len()) {
                best = Some(r);
            }
        }
        best.map_or("", |b| b.1.as_str())
    }

    /// The pointer a `$ref` at `ptr` names, or why it cannot be followed.
    fn resolve(&self, reference: &str, ptr: &str) -> Result<String, String> {
        let full = join(self.base_at(ptr), reference);
        let (doc, frag) = full.split_once('#').unwrap_or((&full, ""));
        let Some(resource) = self
            .resources
            .iter()
            .rev()
            .find(|r| r.1 == doc)
            .map(|r| r.0.clone())
        else {
            return Err(format!(
                "$ref {} names another document: remote references are not supported (Toolscope never fetches schemas)",
                value::quoted(reference)
            ));
        };
        let frag = percent_decode(frag).ok_or_else(|| {
            format!(
                "$ref {} is not valid percent-encoding",
                value::quoted(reference)
            )
        })?;
        let target = if frag.is_empty() {
            resource
        } else if frag.starts_with('/') {
            format!("{resource}{frag}")
        } else {
            self.anchors
                .get(&(doc.to_string(), frag.clone()))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "$ref {}: no anchor named {}",
                        value::quoted(reference),
                        value::quoted(&frag)
                    )
                })?
        };
        match self.root.pointer(&target) {
            Some(v) if v.is_object() || v.is_boolean() => Ok(target),
            Some(v) => Err(format!(
                "$ref {} points at {}, which is not a schema",
                value::quoted(reference),
                short(v)
            )),
            None => Err(format!(
                "$ref {}: pointer {} does not exist",
                value::quoted(reference),
                value::quoted(&target)
            )),
        }
    }

    // ------------------------------------------------------------------ nodes

    /// The node of a reference target: compiled already, or reserved for the worklist.
    fn reserve(&mut self, ptr: String) -> Id {
        if let Some(id) = self.ids.get(&ptr) {
            return *id;
        }
        let id = self.push(ptr.clone());
        self.queue.push((id, ptr));
        id
    }

    fn push(&mut self, ptr: String) -> Id {
        let id = self.nodes.len();
        self.nodes.push(Node {
            path: ptr.clone(),
            kind: Kind::Bool(true),
        });
        self.filled.push(false);
        self.ids.insert(ptr, id);
        id
    }

    /// The node of a structural subschema at `ptr`: reserved now, compiled from the worklist
    /// (no recursion: a deep schema never deepens the stack).
    fn subschema(&mut self, ptr: String) -> Id {
        self.reserve(ptr)
    }

    fn fill(&mut self, id: Id, v: &Value, ptr: &str) -> Result<(), CompileError> {
        if let Some(f) = self.filled.get_mut(id) {
            *f = true;
        }
        let kind = match v {
            Value::Bool(b) => Kind::Bool(*b),
            Value::Object(m) => Kind::Schema(Box::new(self.keywords(m, ptr)?)),
            other => {
                return Err(err(
                    ptr,
                    format!(
                        "{} is not of types \"boolean\", \"object\": a schema is an object or a boolean",
                        short(other)
                    ),
                ))
            }
        };
        if let Some(node) = self.nodes.get_mut(id) {
            node.kind = kind;
        }
        Ok(())
    }

    /// Parse and check the keywords of a schema object.
    fn keywords(&mut self, m: &Map<String, Value>, ptr: &str) -> Result<Keywords, CompileError> {
        let d = self.draft;
        let mut k = Keywords {
            prefix_keyword: "prefixItems",
            items_keyword: "items",
            ..Keywords::default()
        };
        let at = |key: &str| format!("{ptr}/{}", escape(key));
        let sub_at = |key: &str, rest: &str| format!("{ptr}/{}/{}", escape(key), escape(rest));
        for (key, v) in m {
            let here = at(key);
            let bad = |msg: String| Err(err(&here, msg));
            let want = |ok: bool, ty: &str| -> Result<(), CompileError> {
                if ok {
                    Ok(())
                } else {
                    Err(err(&here, format!("{} is not of type \"{ty}\"", short(v))))
                }
            };
            match key.as_str() {
                // ---- metadata: checked as the meta-schema types them, otherwise inert
                "title" | "description" | "$comment" | "format" | "$schema" => {
                    want(v.is_string(), "string")?
                }
                "contentMediaType" | "contentEncoding" if d >= Draft::Draft7 => {
                    want(v.is_string(), "string")?
                }
                "readOnly" | "writeOnly" if d >= Draft::Draft7 => want(v.is_boolean(), "boolean")?,
                "deprecated" if d >= Draft::Draft201909 => want(v.is_boolean(), "boolean")?,
                "examples" if d >= Draft::Draft6 => want(v.is_array(), "array")?,
                "$id" if d >= Draft::Draft6 => {
                    want(v.is_string(), "string")?;
                    if d >= Draft::Draft201909
                        && v.as_str()
                            .is_some_and(|s| s.find('#').is_some_and(|i| i + 1 < s.len()))
                    {
                        return bad(format!(
                            "{} must not have a fragment (use $anchor)",
                            short(v)
                        ));
                    }
                }
                "id" if d == Draft::Draft4 => want(v.is_string(), "string")?,
                "$anchor" | "$dynamicAnchor" if d >= Draft::Draft201909 => {
                    want(v.is_string(), "string")?;
                    if !v.as_str().is_some_and(is_anchor_name) {
                        return bad(format!(
                            "{} does not match \"^[A-Za-z_][-A-Za-z0-9._]*$\"",
                            short(v)
                        ));
                    }
                }
                "contentSchema" if d >= Draft::Draft201909 => {
                    // An annotation: checked as a schema, never applied.
                    self.subschema(here.clone());
                }
                // ---- references
                "$ref" | "$dynamicRef" | "$recursiveRef" => {
                    let applies = match key.as_str() {
                        "$ref" => true,
                        "$dynamicRef" => d >= Draft::Draft202012,
                        _ => d == Draft::Draft201909,
                    };
                    if !applies {
                        continue;
                    }
                    let Value::String(r) = v else {
                        return Err(mistyped(&here, v, "string"));
                    };
                    let target = self.resolve(r, ptr).map_err(|m| err(&here, m))?;
                    k.reference = Some(self.reserve(target));
                }
                // ---- any instance
                "type" => k.types = Some(types(v).map_err(|m| err(&here, m))?),
                "enum" => {
                    want(v.is_array(), "array")?;
                    k.enumeration = v.as_array().cloned();
                }
                "const" if d >= Draft::Draft6 => k.constant = Some(v.clone()),
                // ---- numbers
                "multipleOf" => match v.as_f64() {
                    Some(f) if f > 0.0 => k.multiple_of = Some(f),
                    Some(_) => {
                        return bad(format!(
                            "{} is less than or equal to the minimum of 0",
                            short(v)
                        ))
                    }
                    None => return Err(mistyped(&here, v, "number")),
                },
                "minimum" | "maximum" => {
                    let Value::Number(n) = v else {
                        return Err(mistyped(&here, v, "number"));
                    };
                    let lower = key == "minimum";
                    let flag = if lower {
                        "exclusiveMinimum"
                    } else {
                        "exclusiveMaximum"
                    };
                    let exclusive = d == Draft::Draft4 && m.get(flag) == Some(&Value::Bool(true));
                    k.bounds.push(Bound {
                        limit: n.clone(),
                        lower,
                        exclusive,
                        keyword: match (lower, exclusive) {
                            (true, false) => "minimum",
                            (false, false) => "maximum",
                            (true, true) => "exclusiveMinimum",
                            (false, true) => "exclusiveMaximum",
                        },
                    });
                }
                "exclusiveMinimum" | "exclusiveMaximum" => {
                    if d == Draft::Draft4 {
                        want(v.is_boolean(), "boolean")?;
                        continue;
                    }
                    let Value::Number(n) = v else {
                        return Err(mistyped(&here, v, "number"));
                    };
                    let lower = key == "exclusiveMinimum";
                    k.bounds.push(Bound {
                        limit: n.clone(),
                        lower,
                        exclusive: true,
                        keyword: if lower {
                            "exclusiveMinimum"
                        } else {
                            "exclusiveMaximum"
                        },
                    });
                }
                // ---- strings
                "minLength" => k.min_length = Some(count(v, &here)?),
                "maxLength" => k.max_length = Some(count(v, &here)?),
                "pattern" => {
                    let Value::String(p) = v else {
                        return Err(mistyped(&here, v, "string"));
                    };
                    let compiled = self.pattern(p, &here)?;
                    k.pattern = Some((p.clone(), compiled));
                }
                // ---- arrays
                "items" => match v {
                    Value::Array(list) if d <= Draft::Draft201909 => {
                        if list.is_empty() {
                            return bad("[] has less than 1 item".to_string());
                        }
                        k.prefix_keyword = "items";
                        for i in 0..list.len() {
                            let id = self.subschema(format!("{here}/{i}"));
                            k.prefix_items.push(id);
                        }
                        if m.contains_key("additionalItems") {
                            k.items_keyword = "additionalItems";
                            k.items = Some(self.subschema(at("additionalItems")));
                        }
                    }
                    _ => {
                        k.items = Some(self.subschema(here.clone()));
                    }
                },
                // Applied with an array-form `items` (above); on its own it is inert, but the
                // meta-schema still wants a schema.
                "additionalItems"
                    if d <= Draft::Draft201909 && !m.get("items").is_some_and(Value::is_array) =>
                {
                    self.subschema(here.clone());
                }
                "prefixItems" if d >= Draft::Draft202012 => {
                    let list = schema_array(v, &here)?;
                    for i in 0..list.len() {
                        let id = self.subschema(format!("{here}/{i}"));
                        k.prefix_items.push(id);
                    }
                }
                "contains" if d >= Draft::Draft6 => k.contains = Some(self.subschema(here.clone())),
                "minContains" if d >= Draft::Draft201909 => k.min_contains = Some(count(v, &here)?),
                "maxContains" if d >= Draft::Draft201909 => k.max_contains = Some(count(v, &here)?),
                "minItems" => k.min_items = Some(count(v, &here)?),
                "maxItems" => k.max_items = Some(count(v, &here)?),
                "uniqueItems" => match v {
                    Value::Bool(b) => k.unique_items = *b,
                    _ => return Err(mistyped(&here, v, "boolean")),
                },
                "unevaluatedItems" if d >= Draft::Draft201909 => {
                    self.annotations = true;
                    k.unevaluated_items = Some(self.subschema(here.clone()));
                }
                // ---- objects
                "properties" | "patternProperties" | "definitions" | "$defs"
                | "dependentSchemas" => {
                    let applies = match key.as_str() {
                        "$defs" | "dependentSchemas" => d >= Draft::Draft201909,
                        _ => true,
                    };
                    if !applies {
                        continue;
                    }
                    let Value::Object(map) = v else {
                        return Err(mistyped(&here, v, "object"));
                    };
                    for name in map.keys() {
                        let id = self.subschema(sub_at(key, name));
                        match key.as_str() {
                            "properties" => k.properties.push((name.clone(), id)),
                            "patternProperties" => {
                                let compiled = self.pattern(name, &sub_at(key, name))?;
                                k.pattern_properties.push((name.clone(), compiled, id));
                            }
                            "dependentSchemas" => k.dependent_schemas.push(Dependency {
                                property: name.clone(),
                                then: id,
                                keyword: "dependentSchemas",
                            }),
                            _ => {}
                        }
                    }
                }
                "additionalProperties" => {
                    k.additional_properties = Some(self.subschema(here.clone()))
                }
                "propertyNames" if d >= Draft::Draft6 => {
                    k.property_names = Some(self.subschema(here.clone()))
                }
                "required" => {
                    let names = string_array(v, &here)?;
                    if d == Draft::Draft4 && names.is_empty() {
                        return bad("[] has less than 1 item".to_string());
                    }
                    k.required = names;
                }
                "minProperties" => k.min_properties = Some(count(v, &here)?),
                "maxProperties" => k.max_properties = Some(count(v, &here)?),
                "dependentRequired" if d >= Draft::Draft201909 => {
                    let Value::Object(map) = v else {
                        return Err(mistyped(&here, v, "object"));
                    };
                    for (name, list) in map {
                        k.dependent_required.push(Dependency {
                            property: name.clone(),
                            then: string_array(list, &sub_at(key, name))?,
                            keyword: "dependentRequired",
                        });
                    }
                }
                "dependencies" => {
                    let Value::Object(map) = v else {
                        return Err(mistyped(&here, v, "object"));
                    };
                    for (name, dep) in map {
                        let dep_at = sub_at(key, name);
                        if dep.is_array() {
                            k.dependent_required.push(Dependency {
                                property: name.clone(),
                                then: string_array(dep, &dep_at)?,
                                keyword: "dependencies",
                            });
                        } else {
                            let id = self.subschema(dep_at);
                            k.dependent_schemas.push(Dependency {
                                property: name.clone(),
                                then: id,
                                keyword: "dependencies",
                            });
                        }
                    }
                }
                "unevaluatedProperties" if d >= Draft::Draft201909 => {
                    self.annotations = true;
                    k.unevaluated_properties = Some(self.subschema(here.clone()));
                }
                // ---- applicators
                "allOf" | "anyOf" | "oneOf" => {
                    let list = schema_array(v, &here)?;
                    let mut ids = Vec::with_capacity(list.len());
                    for i in 0..list.len() {
                        ids.push(self.subschema(format!("{here}/{i}")));
                    }
                    match key.as_str() {
                        "allOf" => k.all_of = ids,
                        "anyOf" => k.any_of = ids,
                        _ => k.one_of = ids,
                    }
                }
                "not" => k.not = Some(self.subschema(here.clone())),
                "if" | "then" | "else" if d >= Draft::Draft7 => {
                    let id = Some(self.subschema(here.clone()));
                    match key.as_str() {
                        "if" => k.if_ = id,
                        "then" => k.then_ = id,
                        _ => k.else_ = id,
                    }
                }
                // Unknown keywords (and keywords of other drafts) are annotations.
                _ => {}
            }
        }
        if d <= Draft::Draft7 && k.reference.is_some() {
            // Drafts 04–07: `$ref` overrides its siblings (they were still checked above, as the
            // meta-schema checks them).
            return Ok(Keywords {
                reference: k.reference,
                ..Keywords::default()
            });
        }
        Ok(k)
    }

    fn pattern(&mut self, source: &str, ptr: &str) -> Result<Pattern, CompileError> {
        let p = pattern::compile(source).map_err(|e| {
            err(
                ptr,
                format!(
                    "{} is not a valid regular expression: {e}",
                    value::quoted(source)
                ),
            )
        })?;
        if let Pattern::Unsupported(why) = &p {
            self.unchecked.push(Unchecked {
                schema_path: ptr.to_string(),
                message: format!(
                    "pattern {} is not checked: {}",
                    value::quoted(source),
                    value::cut(why, 120)
                ),
            });
        }
        Ok(p)
    }
}

/// `type`: one simple type name or a non-empty array of unique ones.
fn types(v: &Value) -> Result<u8, String> {
    let fail = || {
        format!(
            "{} is not a type name (\"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", \"string\") or a non-empty array of unique ones",
            short(v)
        )
    };
    match v {
        Value::String(t) => value::type_bit(t).ok_or_else(fail),
        Value::Array(list) if !list.is_empty() => {
            let mut mask = 0u8;
            for t in list {
                let bit = t.as_str().and_then(value::type_bit).ok_or_else(fail)?;
                if mask & bit != 0 {
                    return Err(fail());
                }
                mask |= bit;
            }
            Ok(mask)
        }
        _ => Err(fail()),
    }
}

/// "`v` is not of type `ty`" at `ptr`.
fn mistyped(ptr: &str, v: &Value, ty: &str) -> CompileError {
    err(ptr, format!("{} is not of type \"{ty}\"", short(v)))
}

/// A non-negative integer keyword (`minLength`, `maxItems`, …).
fn count(v: &Value, ptr: &str) -> Result<u64, CompileError> {
    non_negative_integer(v).map_err(|m| err(ptr, m))
}

/// A non-empty array of subschemas (`allOf`, `prefixItems`, …).
fn schema_array<'v>(v: &'v Value, ptr: &str) -> Result<&'v Vec<Value>, CompileError> {
    match v {
        Value::Array(list) if !list.is_empty() => Ok(list),
        Value::Array(_) => Err(err(ptr, "[] has less than 1 item".to_string())),
        other => Err(err(
            ptr,
            format!("{} is not of type \"array\"", short(other)),
        )),
    }
}

/// An array of unique strings (`required`, `dependentRequired` values).
fn string_array(v: &Value, ptr: &str) -> Result<Vec<String>, CompileError> {
    let Value::Array(list) = v else {
        return Err(err(ptr, format!("{} is not of type \"array\"", short(v))));
    };
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    for (i, s) in list.iter().enumerate() {
        let Value::String(s) = s else {
            return Err(err(
                &format!("{ptr}/{i}"),
                format!("{} is not of type \"string\"", short(s)),
            ));
        };
        if out.contains(s) {
            return Err(err(ptr, format!("{} has non-unique elements", short(v))));
        }
        out.push(s.clone());
    }
    Ok(out)
}

fn is_anchor_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(doc, _)| doc)
}

/// Resolve `reference` against `base` (RFC 3986 in the forms schemas use: absolute URIs,
/// fragments, absolute and relative paths; no dot segments).
fn join(base: &str, reference: &str) -> String {
    let base = strip_fragment(base);
    let has_scheme = reference.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            && s.starts_with(|c: char| c.is_ascii_alphabetic())
    });
    if has_scheme || base.is_empty() {
        return reference.to_string();
    }
    if reference.is_empty() {
        return base.to_string();
    }
    if reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    let scheme_end = base.find("://").map(|i| i + 3);
    if let Some(rest) = reference.strip_prefix("//") {
        let scheme = base.split_once(':').map_or("", |(s, _)| s);
        return format!("{scheme}://{rest}");
    }
    if reference.starts_with('/') {
        let authority_end = scheme_end
            .and_then(|s| base.get(s..).and_then(|r| r.find('/')).map(|i| s + i))
            .unwrap_or(base.len());
        return format!("{}{reference}", base.get(..authority_end).unwrap_or(base));
    }
    let dir_end = base.rfind('/').map_or(0, |i| i + 1);
    let dir_end = dir_end.max(scheme_end.unwrap_or(0));
    format!("{}{reference}", base.get(..dir_end).unwrap_or(base))
}

/// Decode `%XX` escapes; `None` on a bad escape or non-UTF-8 result.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_join_resolves_the_usual_forms() {
        assert_eq!(join("", "#/a"), "#/a");
        assert_eq!(
            join("http://x.com/a/b.json", "#/a"),
            "http://x.com/a/b.json#/a"
        );
        assert_eq!(
            join("http://x.com/a/b.json", "c.json"),
            "http://x.com/a/c.json"
        );
        assert_eq!(
            join("http://x.com/a/b.json", "/c.json"),
            "http://x.com/c.json"
        );
        assert_eq!(join("http://x.com/a/b.json", "urn:x"), "urn:x");
        assert_eq!(join("urn:root", "#foo"), "urn:root#foo");
    }

    #[test]
    fn compile_percent_decode() {
        assert_eq!(percent_decode("/a%25b").as_deref(), Some("/a%b"));
        assert_eq!(percent_decode("/a%2"), None);
        assert_eq!(percent_decode("/%FF"), None);
    }
}
