//! Instance validation over the compiled nodes.
//!
//! One recursive walk: `node` applies a subschema to an instance location and returns whether it
//! holds plus, for schemas using `unevaluated*`, the annotations (which properties / items it
//! evaluated). Errors go to a sink when one is given; without a sink (inside `anyOf`, `not`,
//! `contains`…) the walk stops at the first failure. Instance paths are a linked list on the
//! stack, rendered only for an error.

use super::compile::{Id, Keywords, Kind, Node};
use super::value::{has_type, is_multiple_of, json_eq, num_cmp, quoted, short, type_names};
use super::{
    Draft, Report, ValidationError, Validator, MAX_EVAL_DEPTH, MAX_STEPS, MAX_VALUE_DEPTH,
};
use crate::schema::walk::value_depth;
use crate::text::escape;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::HashSet;

/// Validate `instance`; `collect` gathers every error, otherwise the walk stops at the first.
/// Returns whether it is valid and the report.
pub fn run(v: &Validator, instance: &Value, collect: bool) -> (bool, Report) {
    if value_depth(instance, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH {
        let stopped =
            format!("instance nested deeper than {MAX_VALUE_DEPTH} levels; not validated");
        return (
            true,
            Report {
                errors: Vec::new(),
                stopped: Some(stopped),
            },
        );
    }
    let mut r = Run {
        v,
        steps: 0,
        depth: 0,
        stopped: None,
        active: Vec::new(),
    };
    let mut errors = Vec::new();
    let sink = if collect { Some(&mut errors) } else { None };
    let (valid, _) = r.node(0, instance, &Path::Root, sink);
    (
        valid,
        Report {
            errors,
            stopped: r.stopped,
        },
    )
}

/// A location in the instance.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// As a JSON pointer.
    fn render(&self) -> String {
        let mut parts = Vec::new();
        let mut p = self;
        loop {
            match p {
                Path::Root => break,
                Path::Key(parent, k) => {
                    parts.push(escape(k));
                    p = parent;
                }
                Path::Index(parent, i) => {
                    parts.push(i.to_string());
                    p = parent;
                }
            }
        }
        parts.iter().rev().map(|s| format!("/{s}")).collect()
    }
}

/// What a subschema evaluated at its instance location (for `unevaluated*`).
#[derive(Default)]
struct Ann<'i> {
    props: HashSet<&'i str>,
    all_props: bool,
    /// Items `0..items` were evaluated.
    items: usize,
    all_items: bool,
    /// Indices `contains` matched.
    contained: Vec<usize>,
}

impl<'i> Ann<'i> {
    fn everything() -> Self {
        Ann {
            all_props: true,
            all_items: true,
            ..Ann::default()
        }
    }

    fn merge(&mut self, o: Ann<'i>) {
        self.props.extend(o.props);
        self.all_props |= o.all_props;
        self.items = self.items.max(o.items);
        self.all_items |= o.all_items;
        self.contained.extend(o.contained);
    }
}

struct Run<'v> {
    v: &'v Validator,
    steps: usize,
    depth: usize,
    stopped: Option<String>,
    /// Schema nodes being evaluated: (node, instance address). A `$ref` to one of them at the
    /// same instance is a cycle that consumed nothing.
    active: Vec<(Id, usize)>,
}

type Sink<'e> = Option<&'e mut Vec<ValidationError>>;

/// The state of one schema object's evaluation, shared by its keyword families.
struct St<'i, 'e, 'p> {
    node: &'p Node,
    at: &'p Path<'p>,
    errs: Sink<'e>,
    valid: bool,
    ann: Ann<'i>,
    want_ann: bool,
}

/// A failure of the schema's own keyword `$kw`. The message is built in a closure, out of the
/// (recursive) frame. Without an error sink, the keyword family stops (`return true`).
macro_rules! fail {
    ($this:expr, $st:ident, $kw:expr, $msg:expr) => {{
        if $this.stopped.is_none() {
            $st.valid = false;
            match $st.errs.as_deref_mut() {
                Some(e) => push_error(e, $st.at, &$st.node.path, $kw, || $msg),
                None => return true,
            }
        }
    }};
}

/// The outcome of a subschema that reported its own errors.
macro_rules! outcome {
    ($st:ident, $ok:expr) => {{
        if !$ok {
            $st.valid = false;
            if $st.errs.is_none() {
                return true;
            }
        }
    }};
}

/// A subschema applied in place: its annotations are ours when it holds.
macro_rules! apply {
    ($this:expr, $st:ident, $inst:expr, $id:expr) => {{
        let (ok, a) = $this.node($id, $inst, $st.at, $st.errs.as_deref_mut());
        if ok && $st.want_ann {
            $st.ann.merge(a);
        }
        outcome!($st, ok);
    }};
}

impl<'v> Run<'v> {
    fn stop(&mut self, why: String) {
        if self.stopped.is_none() {
            self.stopped = Some(why);
        }
    }

    /// Apply node `id` to `inst` at `at`.
    fn node<'i>(
        &mut self,
        id: Id,
        inst: &'i Value,
        at: &Path<'_>,
        errs: Sink<'_>,
    ) -> (bool, Ann<'i>) {
        if self.stopped.is_some() {
            return (true, Ann::everything());
        }
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.stop(format!(
                "validation stopped after {MAX_STEPS} subschema visits (the schema branches too much); the rest is not checked"
            ));
            return (true, Ann::everything());
        }
        if self.depth >= MAX_EVAL_DEPTH {
            self.stop(format!(
                "validation stopped at {MAX_EVAL_DEPTH} nested subschemas; the rest is not checked"
            ));
            return (true, Ann::everything());
        }
        let v: &'v Validator = self.v;
        let Some(node) = v.nodes.get(id) else {
            return (true, Ann::default());
        };
        match &node.kind {
            Kind::Bool(true) => (true, Ann::default()),
            Kind::Bool(false) => {
                if let Some(e) = errs {
                    e.push(ValidationError {
                        instance_path: at.render(),
                        schema_path: node.path.clone(),
                        message: format!("False schema does not allow {}", short(inst)),
                    });
                }
                (false, Ann::default())
            }
            Kind::Schema(k) => {
                self.depth += 1;
                self.active.push((id, std::ptr::from_ref(inst) as usize));
                let r = self.keywords(node, k, inst, at, errs);
                self.active.pop();
                self.depth -= 1;
                r
            }
        }
    }

    fn is_false(&self, id: Id) -> bool {
        matches!(
            self.v.nodes.get(id).map(|n| &n.kind),
            Some(Kind::Bool(false))
        )
    }

    fn keywords<'i>(
        &mut self,
        node: &Node,
        k: &Keywords,
        inst: &'i Value,
        at: &Path<'_>,
        errs: Sink<'_>,
    ) -> (bool, Ann<'i>) {
        // Each family of keywords has its own function, so only the one that recurses sits on
        // the stack with its temporaries: debug builds give every temporary its own slot.
        let mut st = St {
            node,
            at,
            errs,
            valid: true,
            ann: Ann::default(),
            want_ann: self.v.annotations,
        };
        let stop = self.leaf(&mut st, k, inst)
            || self.array_leaf(&mut st, k, inst)
            || self.object_leaf(&mut st, k, inst)
            || self.array(&mut st, k, inst)
            || self.object(&mut st, k, inst)
            || self.in_place(&mut st, k, inst)
            || self.unevaluated(&mut st, k, inst);
        (st.valid && !stop, st.ann)
    }

    /// Keywords that assert on the instance itself (no subschema). True to stop (a failure without an error sink).
    #[inline(never)]
    fn leaf<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        // ---- any instance
        if let Some(mask) = k.types {
            if !has_type(inst, mask, self.v.draft == Draft::Draft4) {
                let names = type_names(mask);
                let msg = match names.as_slice() {
                    [one] => format!("{} is not of type \"{one}\"", short(inst)),
                    many => format!(
                        "{} is not of types {}",
                        short(inst),
                        many.iter()
                            .map(|n| format!("\"{n}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                fail!(self, st, "type", msg);
            }
        }
        if let Some(list) = &k.enumeration {
            if !list.iter().any(|e| json_eq(e, inst)) {
                fail!(
                    self,
                    st,
                    "enum",
                    format!(
                        "{} is not one of {}",
                        short(inst),
                        super::value::cut(&serde_json::to_string(list).unwrap_or_default(), 160)
                    )
                );
            }
        }
        if let Some(c) = &k.constant {
            if !json_eq(c, inst) {
                fail!(
                    self,
                    st,
                    "const",
                    format!("{} was expected, not {}", short(c), short(inst))
                );
            }
        }

        // ---- numbers
        if let Value::Number(n) = inst {
            for b in &k.bounds {
                let ok = match num_cmp(n, &b.limit) {
                    None => true,
                    Some(o) => match (b.lower, b.exclusive) {
                        (true, false) => o != Ordering::Less,
                        (true, true) => o == Ordering::Greater,
                        (false, false) => o != Ordering::Greater,
                        (false, true) => o == Ordering::Less,
                    },
                };
                if !ok {
                    let rel = match (b.lower, b.exclusive) {
                        (true, false) => "less than the minimum",
                        (true, true) => "less than or equal to the minimum",
                        (false, false) => "greater than the maximum",
                        (false, true) => "greater than or equal to the maximum",
                    };
                    fail!(self, st, b.keyword, format!("{n} is {rel} of {}", b.limit));
                }
            }
            if let Some(m) = k.multiple_of {
                if !is_multiple_of(n, m) {
                    fail!(
                        self,
                        st,
                        "multipleOf",
                        format!("{n} is not a multiple of {m}")
                    );
                }
            }
        }

        // ---- strings
        if let Value::String(s) = inst {
            if k.min_length.is_some() || k.max_length.is_some() {
                let len = s.chars().count() as u64;
                if let Some(min) = k.min_length.filter(|min| len < *min) {
                    fail!(
                        self,
                        st,
                        "minLength",
                        format!(
                            "{} is shorter than {min} character{}",
                            quoted(s),
                            plural(min)
                        )
                    );
                }
                if let Some(max) = k.max_length.filter(|max| len > *max) {
                    fail!(
                        self,
                        st,
                        "maxLength",
                        format!(
                            "{} is longer than {max} character{}",
                            quoted(s),
                            plural(max)
                        )
                    );
                }
            }
            if let Some((source, p)) = &k.pattern {
                if p.test(s) == Some(false) {
                    fail!(
                        self,
                        st,
                        "pattern",
                        format!("{} does not match {}", quoted(s), quoted(source))
                    );
                }
            }
        }
        false
    }

    /// Array keywords on the array itself (`minItems`, `maxItems`, `uniqueItems`). True to stop.
    #[inline(never)]
    fn array_leaf<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Array(a) = inst {
            let len = a.len() as u64;
            if let Some(min) = k.min_items.filter(|min| len < *min) {
                fail!(
                    self,
                    st,
                    "minItems",
                    format!("{} has fewer than {min} item{}", short(inst), plural(min))
                );
            }
            if let Some(max) = k.max_items.filter(|max| len > *max) {
                fail!(
                    self,
                    st,
                    "maxItems",
                    format!("{} has more than {max} item{}", short(inst), plural(max))
                );
            }
            if k.unique_items {
                if let Some((i, j)) = self.duplicate(a) {
                    fail!(
                        self,
                        st,
                        "uniqueItems",
                        format!(
                            "{} has non-unique elements (items {j} and {i} are equal)",
                            short(inst)
                        )
                    );
                }
            }
        }
        false
    }

    /// Array keywords (`unevaluatedItems` aside). True to stop (a failure without an error sink).
    #[inline(never)]
    fn array<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        // One function per keyword: only the one recursing sits on the stack.
        self.prefix_items(st, k, inst) || self.items(st, k, inst) || self.contains(st, k, inst)
    }

    /// `prefixItems` (array-form `items` before 2020-12), and its annotation.
    #[inline(never)]
    fn prefix_items<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Array(a) = inst {
            for (i, (item, id)) in a.iter().zip(&k.prefix_items).enumerate() {
                let p = Path::Index(st.at, i);
                let (ok, _) = self.node(*id, item, &p, st.errs.as_deref_mut());
                outcome!(st, ok);
            }
            if st.want_ann {
                st.ann.items = st.ann.items.max(k.prefix_items.len().min(a.len()));
            }
        }
        false
    }

    /// `items` after the prefix (or `additionalItems`).
    #[inline(never)]
    fn items<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Array(a) = inst {
            if let Some(id) = k.items {
                let start = k.prefix_items.len();
                if a.len() > start {
                    if k.items_keyword == "additionalItems" && self.is_false(id) {
                        fail!(
                            self,
                            st,
                            "additionalItems",
                            format!(
                                "Additional items are not allowed ({} unexpected)",
                                count_of(a.len() - start, "item")
                            )
                        );
                    } else {
                        for (i, item) in a.iter().enumerate().skip(start) {
                            let p = Path::Index(st.at, i);
                            let (ok, _) = self.node(id, item, &p, st.errs.as_deref_mut());
                            outcome!(st, ok);
                        }
                    }
                    st.ann.all_items |= st.want_ann;
                }
            }
        }
        false
    }

    /// `contains` with `minContains` / `maxContains`.
    #[inline(never)]
    fn contains<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Array(a) = inst {
            if let Some(id) = k.contains {
                let min = k.min_contains.unwrap_or(1);
                let mut matched = 0u64;
                for (i, item) in a.iter().enumerate() {
                    let p = Path::Index(st.at, i);
                    let (ok, _) = self.node(id, item, &p, None);
                    if ok {
                        matched += 1;
                        if st.want_ann {
                            st.ann.contained.push(i);
                        } else if matched >= min && k.max_contains.is_none() {
                            break;
                        }
                    }
                }
                if matched < min {
                    let kw = if k.min_contains.is_some() {
                        "minContains"
                    } else {
                        "contains"
                    };
                    fail!(
                        self,
                        st,
                        kw,
                        format!(
                            "{} contains {matched} matching item{}, at least {min} required",
                            short(inst),
                            plural(matched)
                        )
                    );
                }
                if let Some(max) = k.max_contains.filter(|max| matched > *max) {
                    fail!(
                        self,
                        st,
                        "maxContains",
                        format!(
                            "{} contains {matched} matching items, at most {max} allowed",
                            short(inst)
                        )
                    );
                }
            }
        }
        false
    }

    /// Object keywords on the object itself (sizes, `required`, `dependentRequired`). True to stop.
    #[inline(never)]
    fn object_leaf<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Object(o) = inst {
            let len = o.len() as u64;
            if let Some(min) = k.min_properties.filter(|min| len < *min) {
                fail!(
                    self,
                    st,
                    "minProperties",
                    format!(
                        "{} has fewer than {min} propert{}",
                        short(inst),
                        if min == 1 { "y" } else { "ies" }
                    )
                );
            }
            if let Some(max) = k.max_properties.filter(|max| len > *max) {
                fail!(
                    self,
                    st,
                    "maxProperties",
                    format!(
                        "{} has more than {max} propert{}",
                        short(inst),
                        if max == 1 { "y" } else { "ies" }
                    )
                );
            }
            for r in &k.required {
                if !o.contains_key(r) {
                    fail!(
                        self,
                        st,
                        "required",
                        format!("{} is a required property", quoted(r))
                    );
                }
            }
            for dep in &k.dependent_required {
                if o.contains_key(&dep.property) {
                    for r in &dep.then {
                        if !o.contains_key(r) {
                            fail!(
                                self,
                                st,
                                dep.keyword,
                                format!(
                                    "{} is a required property (because {} is present)",
                                    quoted(r),
                                    quoted(&dep.property)
                                )
                            );
                        }
                    }
                }
            }
        }
        false
    }

    /// Object keywords (`unevaluatedProperties` aside). True to stop (a failure without an error sink).
    #[inline(never)]
    fn object<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        // One function per keyword: only the one recursing sits on the stack.
        self.properties(st, k, inst)
            || self.pattern_properties(st, k, inst)
            || self.additional_properties(st, k, inst)
            || self.property_names(st, k, inst)
            || self.dependent_schemas(st, k, inst)
    }

    /// `properties`.
    #[inline(never)]
    fn properties<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Value::Object(o) = inst {
            for (name, id) in &k.properties {
                if let Some((key, child)) = o.get_key_value(name) {
                    let p = Path::Key(st.at, key);
                    let (ok, _) = self.node(*id, child, &p, st.errs.as_deref_mut());
                    outcome!(st, ok);
                    if st.want_ann {
                        st.ann.props.insert(key);
                    }
                }
            }
        }
        false
    }

    /// `patternProperties`.
    #[inline(never)]
    fn pattern_properties<'i>(
        &mut self,
        st: &mut St<'i, '_, '_>,
        k: &Keywords,
        inst: &'i Value,
    ) -> bool {
        if let Value::Object(o) = inst {
            if !k.pattern_properties.is_empty() {
                for (key, child) in o {
                    for (_, pattern, id) in &k.pattern_properties {
                        if pattern.test(key) == Some(true) {
                            let p = Path::Key(st.at, key);
                            let (ok, _) = self.node(*id, child, &p, st.errs.as_deref_mut());
                            outcome!(st, ok);
                            if st.want_ann {
                                st.ann.props.insert(key);
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// `additionalProperties`.
    #[inline(never)]
    fn additional_properties<'i>(
        &mut self,
        st: &mut St<'i, '_, '_>,
        k: &Keywords,
        inst: &'i Value,
    ) -> bool {
        if let Value::Object(o) = inst {
            if let Some(id) = k.additional_properties {
                // A key an unchecked pattern might match is not called additional.
                let extra = o.iter().filter(|(key, _)| {
                    !k.properties.iter().any(|(n, _)| n == *key)
                        && !k
                            .pattern_properties
                            .iter()
                            .any(|(_, p, _)| p.test(key) != Some(false))
                });
                if self.is_false(id) {
                    let names: Vec<String> = extra.map(|(key, _)| format!("'{key}'")).collect();
                    if !names.is_empty() {
                        let verb = if names.len() == 1 { "was" } else { "were" };
                        fail!(
                            self,
                            st,
                            "additionalProperties",
                            format!(
                                "Additional properties are not allowed ({} {verb} unexpected)",
                                super::value::cut(&names.join(", "), 160)
                            )
                        );
                    }
                } else {
                    for (key, child) in extra {
                        let p = Path::Key(st.at, key);
                        let (ok, _) = self.node(id, child, &p, st.errs.as_deref_mut());
                        outcome!(st, ok);
                    }
                }
                st.ann.all_props |= st.want_ann;
            }
        }
        false
    }

    /// `propertyNames`.
    #[inline(never)]
    fn property_names<'i>(
        &mut self,
        st: &mut St<'i, '_, '_>,
        k: &Keywords,
        inst: &'i Value,
    ) -> bool {
        if let Value::Object(o) = inst {
            if let Some(id) = k.property_names {
                for key in o.keys() {
                    let name = Value::String(key.clone());
                    let (ok, _) = self.node(id, &name, st.at, st.errs.as_deref_mut());
                    outcome!(st, ok);
                }
            }
        }
        false
    }

    /// `dependentSchemas` and the schema form of `dependencies`.
    #[inline(never)]
    fn dependent_schemas<'i>(
        &mut self,
        st: &mut St<'i, '_, '_>,
        k: &Keywords,
        inst: &'i Value,
    ) -> bool {
        if let Value::Object(o) = inst {
            for dep in &k.dependent_schemas {
                if o.contains_key(&dep.property) {
                    apply!(self, st, inst, dep.then);
                }
            }
        }
        false
    }

    /// Subschemas applied to the instance itself: `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`. True to stop (a failure without an error sink).
    #[inline(never)]
    fn in_place<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        // One function per keyword: only the one recursing sits on the stack.
        self.reference(st, k, inst)
            || self.all_of(st, k, inst)
            || self.any_of(st, k, inst)
            || self.one_of(st, k, inst)
            || self.not(st, k, inst)
            || self.if_then_else(st, k, inst)
    }

    /// `$ref`.
    #[inline(never)]
    fn reference<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Some(target) = k.reference {
            let key = (target, std::ptr::from_ref(inst) as usize);
            // A `$ref` back to a schema already being applied to this same instance consumed
            // nothing: the cycle is cut there and adds no constraint (as in `jsonschema`).
            if !self.active.contains(&key) {
                let (ok, a) = self.node(target, inst, st.at, st.errs.as_deref_mut());
                if ok && st.want_ann {
                    st.ann.merge(a);
                }
                outcome!(st, ok);
            }
        }
        false
    }

    /// `allOf`.
    #[inline(never)]
    fn all_of<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        for id in &k.all_of {
            apply!(self, st, inst, *id);
        }
        false
    }

    /// `anyOf`.
    #[inline(never)]
    fn any_of<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if !k.any_of.is_empty() {
            let mut any = false;
            for id in &k.any_of {
                let (ok, a) = self.node(*id, inst, st.at, None);
                if ok {
                    any = true;
                    if !st.want_ann {
                        break;
                    }
                    st.ann.merge(a);
                }
            }
            if !any {
                fail!(
                    self,
                    st,
                    "anyOf",
                    format!(
                        "{} is not valid under any of the schemas listed in the 'anyOf' keyword",
                        short(inst)
                    )
                );
            }
        }
        false
    }

    /// `oneOf`.
    #[inline(never)]
    fn one_of<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if !k.one_of.is_empty() {
            let mut first: Option<Ann<'i>> = None;
            let mut count = 0;
            for id in &k.one_of {
                let (ok, a) = self.node(*id, inst, st.at, None);
                if ok {
                    count += 1;
                    if count > 1 {
                        break;
                    }
                    first = Some(a);
                }
            }
            match (count, first) {
                (1, Some(a)) => {
                    if st.want_ann {
                        st.ann.merge(a);
                    }
                }
                (0, _) => fail!(self, st,
                    "oneOf",
                    format!(
                        "{} is not valid under any of the schemas listed in the 'oneOf' keyword",
                        short(inst)
                    )
                ),
                _ => fail!(self, st,
                    "oneOf",
                    format!(
                        "{} is valid under more than one of the schemas listed in the 'oneOf' keyword",
                        short(inst)
                    )
                ),
            }
        }
        false
    }

    /// `not`.
    #[inline(never)]
    fn not<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Some(id) = k.not {
            let (ok, _) = self.node(id, inst, st.at, None);
            if ok {
                fail!(
                    self,
                    st,
                    "not",
                    format!("{} must not be valid under the 'not' schema", short(inst))
                );
            }
        }
        false
    }

    /// `if` / `then` / `else`.
    #[inline(never)]
    fn if_then_else<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        if let Some(id) = k.if_ {
            let (ok, a) = self.node(id, inst, st.at, None);
            if ok {
                if st.want_ann {
                    st.ann.merge(a);
                }
                if let Some(then) = k.then_ {
                    apply!(self, st, inst, then);
                }
            } else if let Some(otherwise) = k.else_ {
                apply!(self, st, inst, otherwise);
            }
        }
        false
    }

    /// `unevaluatedItems` / `unevaluatedProperties`, once everything else has evaluated. True to stop (a failure without an error sink).
    #[inline(never)]
    fn unevaluated<'i>(&mut self, st: &mut St<'i, '_, '_>, k: &Keywords, inst: &'i Value) -> bool {
        // ---- unevaluated (after everything that evaluates)
        if let (Some(id), Value::Array(a)) = (k.unevaluated_items, inst) {
            if !st.ann.all_items {
                let mut bad = Vec::new();
                for (i, item) in a.iter().enumerate().skip(st.ann.items) {
                    if st.ann.contained.contains(&i) {
                        continue;
                    }
                    let p = Path::Index(st.at, i);
                    if !self.node(id, item, &p, None).0 {
                        bad.push(i.to_string());
                    }
                }
                if !bad.is_empty() {
                    fail!(
                        self,
                        st,
                        "unevaluatedItems",
                        format!(
                            "Unevaluated items are not allowed (items {} unexpected)",
                            super::value::cut(&bad.join(", "), 160)
                        )
                    );
                }
            }
            st.ann.all_items = true;
        }
        if let (Some(id), Value::Object(o)) = (k.unevaluated_properties, inst) {
            if !st.ann.all_props {
                let mut bad = Vec::new();
                for (key, child) in o {
                    if st.ann.props.contains(key.as_str()) {
                        continue;
                    }
                    let p = Path::Key(st.at, key);
                    if !self.node(id, child, &p, None).0 {
                        bad.push(format!("'{key}'"));
                    }
                }
                if !bad.is_empty() {
                    let verb = if bad.len() == 1 { "was" } else { "were" };
                    fail!(
                        self,
                        st,
                        "unevaluatedProperties",
                        format!(
                            "Unevaluated properties are not allowed ({} {verb} unexpected)",
                            super::value::cut(&bad.join(", "), 160)
                        )
                    );
                }
            }
            st.ann.all_props = true;
        }
        false
    }

    /// Indices of two equal items, if any. Quadratic, so it spends the step budget.
    fn duplicate(&mut self, a: &[Value]) -> Option<(usize, usize)> {
        for (i, x) in a.iter().enumerate() {
            for (j, y) in a.iter().enumerate().take(i) {
                self.steps += 1;
                if self.steps > MAX_STEPS {
                    self.stop(format!(
                        "validation stopped after {MAX_STEPS} steps (uniqueItems over a long array); the rest is not checked"
                    ));
                    return None;
                }
                if json_eq(x, y) {
                    return Some((i, j));
                }
            }
        }
        None
    }
}

/// Record a failure of keyword `kw` of the schema at `base`.
#[inline(never)]
fn push_error(
    errors: &mut Vec<ValidationError>,
    at: &Path<'_>,
    base: &str,
    kw: &str,
    message: impl FnOnce() -> String,
) {
    errors.push(ValidationError {
        instance_path: at.render(),
        schema_path: format!("{base}/{kw}"),
        message: message(),
    });
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn count_of(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what} was")
    } else {
        format!("{n} {what}s were")
    }
}
