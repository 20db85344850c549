//! A compact JSON Schema validator: tool-call arguments checked against their tool's schema, in
//! the browser as natively, without the `jsonschema` crate (whose size the wasm cannot afford; it
//! stays the reference of the differential tests in `tests/schema_diff.rs`).
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

/// JSON values (schemas, instances) nested deeper than this are not compiled or validated, so a
/// hostile document cannot overflow the stack. Text parsed by serde_json cannot exceed 128 anyway.
pub const MAX_VALUE_DEPTH: usize = 128;

/// Subschema visits one validation may make before it stops (tool arguments need hundreds).
pub const MAX_STEPS: usize = 200_000;

/// Nested subschema evaluations (through `$ref`s and applicators) before a validation stops.
pub const MAX_EVAL_DEPTH: usize = 320;

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

    /// Keywords of the schema that are not checked (see [`Unchecked`]).
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

/// Compile and validate in one go.
pub fn validate(schema: &Value, instance: &Value) -> Result<Report, CompileError> {
    Ok(Validator::new(schema)?.validate(instance))
}
