//! A compact JSON Schema validator: tool-call arguments checked against their tool's schema, in
//! the browser as natively, without the `jsonschema` crate (whose size the wasm cannot afford; it
//! stays the reference of the differential tests in `tests/it/schema_diff.rs`).
//!
//! - Drafts 2020-12 (the default), 2019-09, 07, 06 and 04, taken from the root's `$schema`; an
//!   unknown `$schema` is a compile error, as it is for `jsonschema`.
//! - Every validation keyword of those drafts, the applicators, `$ref` to the same document (JSON
//!   pointers with `~` and percent escapes, `$anchor`, `$id`-named subschemas), boolean schemas,
//!   and `unevaluatedProperties` / `unevaluatedItems` (annotations are collected only for schemas
//!   that use them). `format` is an annotation, as `jsonschema` treats it by default in 2020-12
//!   (it asserts formats for drafts 04–07: we do not). `$dynamicRef` / `$recursiveRef` resolve
//!   as a plain `$ref` (exact for a single-document schema without competing dynamic anchors).
//! - Compiling checks what the draft's meta-schema requires of each known keyword (types, non-
//!   negative integers, unique `required`, non-empty `anyOf`, regex syntax…) and resolves every
//!   `$ref`: a `$ref` to another document (http, file, a relative name) is a compile error,
//!   never a fetch.
//! - `pattern` uses `regex-lite` (linear time, ASCII classes as in ECMA-262 `\d\w\s`); a pattern
//!   it cannot run (look-around, back-references, `\p{…}`, too big) is reported by
//!   [`Validator::unchecked`] and skipped, never silently passed as checked.
//! - Bounded: values deeper than [`MAX_VALUE_DEPTH`] are refused, a `$ref` cycle that does not
//!   consume the instance is cut (and counts as valid, as in `jsonschema`), and a validation that
//!   exceeds [`MAX_STEPS`] subschema visits or [`MAX_EVAL_DEPTH`] nested evaluations stops with
//!   [`Report::stopped`] set instead of running away (e.g. on a `oneOf` nest multiplied by `$ref`s).
//!
//! Error paths follow `jsonschema`: the instance path is a JSON pointer into the instance, the
//! schema path the absolute pointer of the failing keyword in the schema document
//! (`/properties/unit/enum`, `/$defs/x/type` for a keyword reached through a `$ref`).

mod check;
mod compile;
mod pattern;
mod value;

use serde_json::Value;
use std::fmt;
use std::rc::Rc;

/// JSON values (schemas, instances) nested deeper than this are not compiled or validated, so a
/// hostile document cannot overflow the stack. Text parsed by serde_json cannot exceed 128 anyway.
pub const MAX_VALUE_DEPTH: usize = 128;

/// Subschema visits one validation may make before it stops (tool arguments need hundreds).
pub const MAX_STEPS: usize = 200_000;

/// Nested subschema evaluations (through `$ref`s and applicators) before a validation stops.
/// Each costs about 2.5 KB of stack in a debug build (much less in release): 256 of them fit
/// well in the 1 MB stack of a wasm module (`validate_deepest_evaluation_fits_in_1_mb`).
pub const MAX_EVAL_DEPTH: usize = 256;

/// The JSON Schema dialect a schema is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Draft {
    /// Draft 04: boolean `exclusiveMinimum`/`exclusiveMaximum`, `1.0` is no integer.
    Draft4,
    /// Draft 06.
    Draft6,
    /// Draft 07: `$ref` ignores its siblings, array-form `items` with `additionalItems`.
    Draft7,
    /// Draft 2019-09.
    Draft201909,
    /// Draft 2020-12, the default.
    Draft202012,
}

impl Draft {
    /// The draft a `$schema` URI names (with or without a trailing `#`, http or https).
    pub fn from_uri(uri: &str) -> Option<Draft> {
        let uri = uri.trim_end_matches('#');
        let uri = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))?;
        match uri {
            "json-schema.org/draft/2020-12/schema" | "json-schema.org/schema" => {
                Some(Draft::Draft202012)
            }
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            _ => None,
        }
    }
}

/// A schema that cannot be compiled: what is wrong and where (a JSON pointer into the schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// Where in the schema (`/properties/a/type`; empty for the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{} (at {at})", self.message)
    }
}

impl std::error::Error for CompileError {}

/// One way the instance fails the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON pointer into the instance (`/items/1/qty`; empty for the root).
    pub instance_path: String,
    /// Absolute JSON pointer of the failing keyword in the schema (`/properties/unit/enum`).
    pub schema_path: String,
    /// For a person: `"kelvin" is not one of ["celsius","fahrenheit"]`.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A part of a schema this validator does not check (a pattern `regex-lite` cannot run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// The keyword's pointer in the schema (`/properties/a/pattern`).
    pub schema_path: String,
    /// Why it is not checked.
    pub message: String,
}

/// The outcome of one validation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// Every failure found.
    pub errors: Vec<ValidationError>,
    /// Set when validation stopped early (step or depth budget): what was found so far is in
    /// `errors`, the rest is unchecked.
    pub stopped: Option<String>,
}

/// A compiled schema.
#[derive(Debug)]
pub struct Validator {
    nodes: Vec<compile::Node>,
    draft: Draft,
    unchecked: Vec<Unchecked>,
    /// Some subschema uses `unevaluatedProperties`/`unevaluatedItems`: collect annotations.
    annotations: bool,
}

impl Validator {
    /// Compile `schema` (the draft from its `$schema`, 2020-12 when absent).
    pub fn new(schema: &Value) -> Result<Validator, CompileError> {
        compile::compile(schema)
    }

    /// The draft the schema is read in.
    pub fn draft(&self) -> Draft {
        self.draft
    }

    /// Keywords of the schema that are not checked (see [`Unchecked`]), by schema path.
    pub fn unchecked(&self) -> &[Unchecked] {
        &self.unchecked
    }

    /// Validate `instance`: every error, and whether validation stopped early.
    pub fn validate(&self, instance: &Value) -> Report {
        check::run(self, instance, true).1
    }

    /// Every error (see [`Validator::validate`] for an early stop).
    pub fn errors(&self, instance: &Value) -> Vec<ValidationError> {
        self.validate(instance).errors
    }

    /// True when `instance` has no error (stops at the first). An early stop counts as valid:
    /// nothing wrong was found.
    pub fn is_valid(&self, instance: &Value) -> bool {
        check::run(self, instance, false).0
    }
}

/// Schemas compiled recently, by their JSON text: a check that runs on every keystroke compiles
/// only the schema that changed (the tool being edited), not every tool's.
const CACHED: usize = 4096;

thread_local! {
    static CACHE: std::cell::RefCell<std::collections::HashMap<String, Rc<Result<Validator, CompileError>>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

impl Validator {
    /// [`Validator::new`] through a cache keyed by the schema's text: the same schema compiles
    /// once. Shared, since a compiled schema may serve many checks.
    pub fn cached(schema: &Value) -> Rc<Result<Validator, CompileError>> {
        let key = serde_json::to_string(schema).unwrap_or_default();
        if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
            return hit;
        }
        let v = Rc::new(Validator::new(schema));
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            // Bounded: past the limit, start over (a keystroke in a schema makes a new one).
            if c.len() >= CACHED {
                c.clear();
            }
            c.insert(key, v.clone());
        });
        v
    }
}

/// Compile and validate in one go.
pub fn validate(schema: &Value, instance: &Value) -> Result<Report, CompileError> {
    Ok(Validator::new(schema)?.validate(instance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    #[test]
    fn validate_messages_and_paths() {
        let v = Validator::new(&json!({
            "type": "object",
            "properties": {"unit": {"enum": ["celsius", "fahrenheit"]}},
            "required": ["city"]
        }))
        .expect("compiles");
        let errors = v.errors(&json!({"unit": "kelvin"}));
        assert_eq!(
            errors,
            vec![
                ValidationError {
                    instance_path: String::new(),
                    schema_path: "/required".into(),
                    message: "\"city\" is a required property".into(),
                },
                ValidationError {
                    instance_path: "/unit".into(),
                    schema_path: "/properties/unit/enum".into(),
                    message: "\"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]".into(),
                },
            ]
        );
    }

    #[test]
    fn validate_compile_errors_point_into_the_schema() {
        let e = Validator::new(&json!({"properties": {"a/b": {"items": {"minItems": -1}}}}))
            .expect_err("invalid");
        assert_eq!(e.pointer, "/properties/a~1b/items/minItems");
        assert_eq!(
            e.to_string(),
            "-1 is less than the minimum of 0 (at /properties/a~1b/items/minItems)"
        );
        let e = Validator::new(&json!({"$ref": "https://example.com/s.json"})).expect_err("remote");
        assert_eq!(e.pointer, "/$ref");
        assert!(e.message.contains("never fetches"), "{e}");
    }

    #[test]
    fn validate_oneof_blow_up_stops_at_the_budget() {
        // 2^40 paths through the references: the step budget stops it quickly.
        let mut defs = Map::new();
        for i in 0..40 {
            let next = format!("#/$defs/d{}", i + 1);
            defs.insert(
                format!("d{i}"),
                json!({"oneOf": [{"$ref": next}, {"$ref": next, "title": "x"}]}),
            );
        }
        defs.insert("d40".into(), json!({"type": "string"}));
        let v = Validator::new(&json!({"$defs": defs, "$ref": "#/$defs/d0"})).expect("compiles");
        let start = std::time::Instant::now();
        let report = v.validate(&json!(5));
        assert!(report.stopped.is_some(), "{report:?}");
        assert!(start.elapsed().as_secs() < 5);
        assert!(v.is_valid(&json!(5)), "stopping finds nothing wrong");
    }

    #[test]
    fn validate_deepest_evaluation_fits_in_1_mb() {
        // Properties through a `$ref` per level: two nested evaluations per instance level, up
        // to the evaluation depth limit, on a thread with the wasm stack size.
        let run = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                let v = Validator::new(&json!({"$defs": {"n": {"properties": {"n": {"$ref": "#/$defs/n"}}, "required": ["n"]}}, "$ref": "#/$defs/n"}))
                    .expect("compiles");
                let mut deep = json!({});
                for _ in 0..MAX_VALUE_DEPTH - 1 {
                    deep = json!({"n": deep});
                }
                v.validate(&deep)
            })
            .expect("thread");
        let report = run.join().expect("no stack overflow");
        assert!(
            report.stopped.is_some() || !report.errors.is_empty(),
            "{report:?}"
        );
    }

    #[test]
    fn validate_deepest_schema_compiles_in_1_mb() {
        let run = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                let mut s = json!({"type": "string", "pattern": "^a"});
                // Each level is two values deep (`properties`, then the name).
                for _ in 0..(MAX_VALUE_DEPTH / 2) - 1 {
                    s = json!({"type": "object", "properties": {"n": s}, "required": ["n"]});
                }
                Validator::new(&s).map(|v| v.errors(&json!({"n": {}})).len())
            })
            .expect("thread");
        assert_eq!(run.join().expect("no stack overflow"), Ok(1));
    }

    #[test]
    fn validate_long_reference_chains_stop_at_the_depth_limit() {
        let mut defs = Map::new();
        for i in 0..1000 {
            defs.insert(
                format!("d{i}"),
                json!({"$ref": format!("#/$defs/d{}", i + 1)}),
            );
        }
        defs.insert("d1000".into(), json!({"type": "string"}));
        let v = Validator::new(&json!({"$defs": defs, "$ref": "#/$defs/d0"})).expect("compiles");
        let report = v.validate(&json!(5));
        assert!(
            report
                .stopped
                .as_deref()
                .is_some_and(|s| s.contains("nested")),
            "{report:?}"
        );
        // A short chain is followed to its end.
        let v = Validator::new(&json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}}, "$ref": "#/$defs/a"}))
            .expect("compiles");
        assert_eq!(v.errors(&json!(5)).len(), 1);
    }

    #[test]
    fn validate_cycles_through_properties_consume_the_instance() {
        let v = Validator::new(&json!({"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["v"]}}, "$ref": "#/$defs/n"}))
            .expect("compiles");
        let mut deep = json!({"v": 1});
        for _ in 0..100 {
            deep = json!({"v": 1, "next": deep});
        }
        assert!(v.is_valid(&deep));
        deep["next"]["next"]["next"] = json!({});
        let errors = v.errors(&deep);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].instance_path, "/next/next/next");
    }

    #[test]
    fn validate_too_deep_values_are_refused() {
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        assert!(Validator::new(&json!({"enum": [deep.clone()]})).is_err());
        let v = Validator::new(&json!({"items": {"items": {"type": "string"}}})).expect("compiles");
        assert!(v.validate(&deep).stopped.is_some());
    }

    #[test]
    fn validate_unsupported_patterns_are_listed_and_skipped() {
        let v = Validator::new(&json!({
            "type": "object",
            "properties": {"a": {"pattern": "^(?!x)"}},
            "patternProperties": {"(?<=a)b": {"type": "string"}},
            "additionalProperties": false
        }))
        .expect("compiles");
        let paths: Vec<&str> = v
            .unchecked()
            .iter()
            .map(|u| u.schema_path.as_str())
            .collect();
        assert_eq!(
            paths,
            ["/patternProperties/(?<=a)b", "/properties/a/pattern"]
        );
        // Not checked, not failed: "xy" would fail the look-ahead, "ab" might match the pattern
        // property, so it is not called additional.
        assert!(v.is_valid(&json!({"a": "xy", "ab": 1})));
        assert!(!v.is_valid(&json!([])), "the other keywords still hold");
    }

    #[test]
    fn validate_draft7_ref_ignores_siblings_2020_does_not() {
        let s = json!({"$ref": "#/definitions/s", "maxLength": 1, "definitions": {"s": {"type": "string"}}});
        assert!(Validator::new(&s).expect("2020").errors(&json!("ab")).len() == 1);
        let mut d7 = s.clone();
        d7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        assert!(Validator::new(&d7).expect("07").is_valid(&json!("ab")));
    }
}
