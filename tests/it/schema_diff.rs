//! Our JSON Schema validator (`toolscope::schema::validate`) against the reference, the
//! `jsonschema` crate (a dev-dependency only): the same compile verdict, the same valid/invalid
//! verdict and the same set of instance paths of errors, on
//! 1. a table of hand-written schema/instance pairs covering every keyword and both drafts;
//! 2. generated schemas and instances (proptest; 256 cases from a fixed seed, `PROPTEST_CASES`
//!    for a deeper run from a random seed);
//! 3. every tool schema of the fixtures, the MCP spec's examples, and the MCP schema itself
//!    validating those examples.
//!
//! The reference is built with `should_validate_formats(false)`: we treat `format` as an
//! annotation in every draft, as `jsonschema` does by default for 2019-09 and 2020-12 (for
//! drafts 04–07 it asserts formats unless told not to).

use crate::common;

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use toolscope::schema::validate::{Draft, Validator};

/// Instance paths of the errors, or `Err` when the schema does not compile.
type Verdict = Result<BTreeSet<String>, String>;

fn reference(schema: &Value, instance: &Value) -> Verdict {
    let v = jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .map_err(|e| e.to_string())?;
    Ok(reference_paths(&v, instance))
}

fn reference_paths(v: &jsonschema::Validator, instance: &Value) -> BTreeSet<String> {
    v.iter_errors(instance)
        .map(|e| e.instance_path().as_str().to_string())
        .collect()
}

fn our_paths(v: &Validator, instance: &Value) -> BTreeSet<String> {
    let report = v.validate(instance);
    assert!(
        report.stopped.is_none(),
        "stopped: {:?} on {instance}",
        report.stopped
    );
    let paths: BTreeSet<String> = report.errors.into_iter().map(|e| e.instance_path).collect();
    assert_eq!(
        v.is_valid(instance),
        paths.is_empty(),
        "is_valid disagrees with validate on {instance}"
    );
    paths
}

/// Where the reference and we disagree on `schema` (compiled once) over `instances`.
fn disagreements(schema: &Value, instances: &[Value]) -> Vec<String> {
    let r = jsonschema::options()
        .should_validate_formats(false)
        .build(schema);
    let o = Validator::new(schema);
    match (r, o) {
        (Err(_), Err(_)) => Vec::new(),
        (Ok(_), Err(e)) => vec![format!(
            "schema {schema}\nthe reference compiles it, we do not: {e}"
        )],
        (Err(e), Ok(_)) => vec![format!(
            "schema {schema}\nwe compile it, the reference does not: {e}"
        )],
        (Ok(r), Ok(o)) => instances
            .iter()
            .filter_map(|i| {
                let want = reference_paths(&r, i);
                let got = our_paths(&o, i);
                (want != got).then(|| {
                    format!("schema {schema}\ninstance {i}\nreference {want:?}\nours      {got:?}")
                })
            })
            .collect(),
    }
}

const D7: &str = "http://json-schema.org/draft-07/schema#";

fn d7(mut s: Value) -> Value {
    if let Some(m) = s.as_object_mut() {
        m.insert("$schema".into(), json!(D7));
    }
    s
}

// ------------------------------------------------------------------ 1. the table

/// Instances every table schema is tried on, besides its own.
fn common_instances() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(1.0),
        json!(2.5),
        json!(-3),
        json!(""),
        json!("ab"),
        json!([]),
        json!([1, "a"]),
        json!({}),
        json!({"a": 1, "b": "x"}),
    ]
}

fn table() -> Vec<(Value, Vec<Value>)> {
    vec![
        // type
        (
            json!({"type": "integer"}),
            vec![json!(1), json!(1.0), json!(1.5), json!("1")],
        ),
        (
            json!({"type": ["string", "null"]}),
            vec![json!(null), json!("x"), json!(0)],
        ),
        (
            json!({"type": "number"}),
            vec![json!(1), json!(1e300), json!("1")],
        ),
        (d7(json!({"type": "integer"})), vec![json!(1.0), json!(2.5)]),
        (
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}),
            vec![json!(1.0), json!(1)],
        ),
        // enum, const
        (
            json!({"enum": ["celsius", "fahrenheit"]}),
            vec![json!("kelvin"), json!("celsius")],
        ),
        (
            json!({"enum": [1, [1, 2], {"a": 1.0}, null]}),
            vec![
                json!(1.0),
                json!([1.0, 2]),
                json!({"a": 1}),
                json!({"a": 1, "b": 2}),
                json!(false),
            ],
        ),
        (json!({"enum": []}), vec![json!(1)]),
        (
            json!({"const": {"a": [1, 2]}}),
            vec![json!({"a": [1.0, 2.0]}), json!({"a": [2, 1]})],
        ),
        (json!({"const": false}), vec![json!(0), json!(false)]),
        (d7(json!({"const": 2})), vec![json!(2.0), json!(3)]),
        // numbers
        (
            json!({"minimum": 1, "maximum": 3}),
            vec![json!(1), json!(3.0), json!(0.99), json!(3.01)],
        ),
        (
            json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}),
            vec![json!(1), json!(1.01), json!(3), json!(2.99)],
        ),
        (
            d7(json!({"exclusiveMinimum": 0})),
            vec![json!(0), json!(0.1)],
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": true, "maximum": 2, "exclusiveMaximum": true}),
            vec![json!(1), json!(1.5), json!(2)],
        ),
        (
            json!({"multipleOf": 0.1}),
            vec![json!(0.3), json!(0.35), json!(3)],
        ),
        (
            json!({"multipleOf": 0.01}),
            vec![json!(19.99), json!(19.999)],
        ),
        (
            json!({"multipleOf": 3}),
            vec![json!(9), json!(10), json!(9.0), json!(-6), json!(4.5)],
        ),
        (
            json!({"maximum": 18446744073709551615u64}),
            vec![
                json!(18446744073709551615u64),
                json!(-9223372036854775808i64),
                json!(1e20),
            ],
        ),
        // strings
        (
            json!({"minLength": 2, "maxLength": 3}),
            vec![json!("é"), json!("éé"), json!("😀😀😀"), json!("abcd")],
        ),
        (json!({"minLength": 1.0}), vec![json!("")]),
        (
            json!({"pattern": "^[A-Z]{2}-\\d+$"}),
            vec![json!("FR-12"), json!("fr-12"), json!("FR-")],
        ),
        (json!({"pattern": "b"}), vec![json!("abc"), json!("xyz")]),
        (json!({"pattern": "^\\/x$"}), vec![json!("/x")]),
        (json!({"pattern": "\\d"}), vec![json!("٣"), json!("3")]),
        (json!({"pattern": "^\\w+$"}), vec![json!("é"), json!("a_1")]),
        (json!({"format": "email"}), vec![json!("not an email")]),
        (d7(json!({"format": "date-time"})), vec![json!("yesterday")]),
        // arrays
        (
            json!({"items": {"type": "string"}}),
            vec![json!([1, "a", 2]), json!([])],
        ),
        (
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}),
            vec![
                json!(["a", 1]),
                json!(["a", 1, 2]),
                json!([1]),
                json!(["a", "b", "c"]),
            ],
        ),
        (
            json!({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}),
            vec![json!(["a", 1, "b"])],
        ),
        (
            d7(
                json!({"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}),
            ),
            vec![json!(["a", 1]), json!(["a", 1, 2, 3])],
        ),
        (
            d7(json!({"items": [{"type": "string"}], "additionalItems": {"type": "integer"}})),
            vec![json!(["a", 1, "x"])],
        ),
        (d7(json!({"additionalItems": false})), vec![json!([1, 2])]),
        (
            d7(json!({"items": {"type": "integer"}, "additionalItems": false})),
            vec![json!([1, 2]), json!([1, "a"])],
        ),
        (
            json!({"additionalItems": false, "prefixItems": [{}]}),
            vec![json!([1, 2])],
        ),
        (
            json!({"contains": {"type": "string"}}),
            vec![json!([1, 2]), json!([1, "a"]), json!([])],
        ),
        (
            json!({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}),
            vec![json!(["a"]), json!(["a", "b"]), json!(["a", "b", "c", "d"])],
        ),
        (
            json!({"contains": {"type": "string"}, "minContains": 0}),
            vec![json!([]), json!([1])],
        ),
        (json!({"maxContains": 1}), vec![json!([1, 2])]),
        (
            d7(json!({"contains": {"minimum": 5}, "minContains": 2})),
            vec![json!([5]), json!([1])],
        ),
        (
            json!({"minItems": 1, "maxItems": 2}),
            vec![json!([]), json!([1, 2, 3])],
        ),
        (
            json!({"uniqueItems": true}),
            vec![
                json!([1, 1.0]),
                json!([{"a": 1}, {"a": 1.0}]),
                json!([1, "1"]),
                json!([[1], [true]]),
            ],
        ),
        (json!({"uniqueItems": false}), vec![json!([1, 1])]),
        // objects
        (
            json!({"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "c"]}),
            vec![json!({"a": 1}), json!({"b": 1.5, "c": 0})],
        ),
        (
            json!({"properties": {"a": {}}, "additionalProperties": false}),
            vec![json!({"a": 1, "b": 2, "c": 3}), json!({"a": 1})],
        ),
        (
            json!({"additionalProperties": {"type": "string"}}),
            vec![json!({"a": 1, "b": "x"})],
        ),
        (
            json!({"patternProperties": {"^a": {"type": "string"}, "b$": {"minLength": 2}}, "additionalProperties": false}),
            vec![json!({"ab": 1, "b": "x", "zz": 1})],
        ),
        (
            json!({"propertyNames": {"maxLength": 2, "pattern": "^[a-z]+$"}}),
            vec![json!({"abc": 1, "A": 2, "ok": 3})],
        ),
        (
            json!({"propertyNames": false}),
            vec![json!({}), json!({"a": 1})],
        ),
        (
            json!({"minProperties": 1, "maxProperties": 2}),
            vec![json!({}), json!({"a": 1, "b": 2, "c": 3})],
        ),
        (
            json!({"dependentRequired": {"a": ["b", "c"]}}),
            vec![
                json!({"a": 1}),
                json!({"b": 1}),
                json!({"a": 1, "b": 1, "c": 1}),
            ],
        ),
        (
            json!({"dependentSchemas": {"x": {"required": ["y"], "properties": {"x": {"type": "string"}}}}}),
            vec![json!({"x": 2}), json!({"x": "s", "y": 1})],
        ),
        (
            d7(json!({"dependencies": {"a": ["b"], "x": {"required": ["y"]}}})),
            vec![json!({"a": 1, "x": 2}), json!({"a": 1, "b": 2})],
        ),
        (json!({"dependencies": {"a": ["b"]}}), vec![json!({"a": 1})]),
        (
            d7(json!({"dependentRequired": {"a": ["b"]}})),
            vec![json!({"a": 1})],
        ),
        // applicators
        (
            json!({"allOf": [{"type": "string"}, {"minLength": 3}]}),
            vec![json!(1), json!("ab"), json!("abc")],
        ),
        (
            json!({"anyOf": [{"type": "integer"}, {"minimum": 2}]}),
            vec![json!(1.5), json!(3), json!("x")],
        ),
        (
            json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}),
            vec![json!(1.1), json!(3), json!(1), json!(2.5)],
        ),
        (
            json!({"not": {"type": "string"}}),
            vec![json!("x"), json!(1)],
        ),
        (
            json!({"if": {"type": "integer"}, "then": {"minimum": 3}, "else": {"type": "string"}}),
            vec![json!(1), json!(5), json!(1.5), json!("x")],
        ),
        (json!({"then": {"minimum": 3}}), vec![json!(1)]),
        (json!({"if": {"minimum": 3}}), vec![json!(1)]),
        (
            json!({"$schema": "http://json-schema.org/draft-06/schema#", "if": {"type": "string"}, "then": false}),
            vec![json!("x")],
        ),
        // $ref
        (
            json!({"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}),
            vec![json!({"a": 1}), json!({"a": "s"})],
        ),
        (
            json!({"$ref": "#/$defs/x", "type": "object", "$defs": {"x": {"required": ["a"]}}}),
            vec![json!(1), json!({}), json!({"a": 1})],
        ),
        (
            d7(
                json!({"$ref": "#/definitions/x", "type": "object", "definitions": {"x": {"required": ["a"]}}}),
            ),
            vec![json!(1), json!({})],
        ),
        (json!({"$ref": "#"}), vec![json!({"a": 1})]),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
            vec![json!({"a": {"a": {"a": 5}}}), json!({"a": {"a": {}}})],
        ),
        (
            json!({"$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}, "$ref": "#/$defs/x"}),
            vec![json!(1)],
        ),
        (
            json!({"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}}}, "$ref": "#/$defs/node"}),
            vec![json!({"v": 1, "next": {"v": "x", "next": {"v": 2.5}}})],
        ),
        (
            json!({"$ref": "#/$defs/a~1b", "$defs": {"a/b": {"type": "object"}}}),
            vec![json!(1)],
        ),
        (
            json!({"$ref": "#/$defs/a%25b", "$defs": {"a%b": {"type": "string"}}}),
            vec![json!(1)],
        ),
        (
            json!({"$ref": "#/$defs/t~0x", "$defs": {"t~x": {"type": "string"}}}),
            vec![json!(1)],
        ),
        (
            json!({"$ref": "#/properties/a", "properties": {"a": {"type": "integer"}}}),
            vec![json!(1), json!("x"), json!({"a": "x"})],
        ),
        (
            json!({"$ref": "#/items/0", "items": [{"type": "integer"}], "$schema": D7}),
            vec![json!("x")],
        ),
        (
            json!({"$ref": "#foo", "$defs": {"s": {"$anchor": "foo", "type": "string"}}}),
            vec![json!(1), json!("x")],
        ),
        (
            json!({"$id": "http://x.com/a.json", "$ref": "http://x.com/a.json#/$defs/s", "$defs": {"s": {"type": "string"}}}),
            vec![json!(1)],
        ),
        (
            json!({"$id": "http://x.com/root.json", "$defs": {"s": {"$id": "s.json", "type": "string"}}, "$ref": "s.json"}),
            vec![json!(1), json!("x")],
        ),
        (
            d7(
                json!({"definitions": {"s": {"$id": "#str", "type": "string"}}, "properties": {"a": {"$ref": "#str"}}}),
            ),
            vec![json!({"a": 1})],
        ),
        // unevaluated*
        (
            json!({"properties": {"a": {}}, "unevaluatedProperties": false}),
            vec![json!({"a": 1, "b": 2})],
        ),
        (
            json!({"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}),
            vec![json!({"a": 1}), json!({"a": 1, "b": 2})],
        ),
        (
            json!({"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {"type": "string"}}}], "unevaluatedProperties": false}),
            vec![json!({"a": 1, "b": 2, "c": 3}), json!({"a": 1, "b": "s"})],
        ),
        (
            json!({"oneOf": [{"properties": {"a": {}}, "required": ["a"]}, {"properties": {"b": {}}, "required": ["b"]}], "unevaluatedProperties": false}),
            vec![
                json!({"a": 1}),
                json!({"a": 1, "b": 1}),
                json!({"a": 1, "c": 1}),
            ],
        ),
        (
            json!({"if": {"properties": {"k": {"const": 1}}}, "then": {"properties": {"x": {}}}, "else": {"properties": {"y": {}}}, "unevaluatedProperties": false}),
            vec![
                json!({"k": 1, "x": 1}),
                json!({"k": 2, "y": 1}),
                json!({"k": 2, "x": 1}),
            ],
        ),
        (
            json!({"$ref": "#/$defs/base", "unevaluatedProperties": false, "$defs": {"base": {"properties": {"a": {}}}}}),
            vec![json!({"a": 1, "z": 1})],
        ),
        (
            json!({"dependentSchemas": {"a": {"properties": {"b": {}}}}, "unevaluatedProperties": false}),
            vec![json!({"a": 1, "b": 1}), json!({"b": 1})],
        ),
        (
            json!({"unevaluatedProperties": {"type": "string"}, "properties": {"a": {}}}),
            vec![json!({"a": 1, "b": 2, "c": "x"})],
        ),
        (
            json!({"additionalProperties": true, "unevaluatedProperties": false}),
            vec![json!({"z": 1})],
        ),
        (
            json!({"patternProperties": {"^x": {}}, "unevaluatedProperties": false}),
            vec![json!({"x1": 1, "y": 1})],
        ),
        (
            json!({"properties": {"o": {"properties": {"a": {}}, "unevaluatedProperties": false}}}),
            vec![json!({"o": {"a": 1, "b": 1}})],
        ),
        (
            json!({"prefixItems": [{}], "unevaluatedItems": false}),
            vec![json!([1]), json!([1, 2, 3])],
        ),
        (
            json!({"allOf": [{"prefixItems": [{}, {}]}], "unevaluatedItems": false}),
            vec![json!([1, 2]), json!([1, 2, 3])],
        ),
        (
            json!({"contains": {"type": "string"}, "unevaluatedItems": {"type": "integer"}}),
            vec![json!(["a", 1, "b"]), json!(["a", 1.5])],
        ),
        (
            json!({"items": {}, "unevaluatedItems": false}),
            vec![json!([1, 2])],
        ),
        (
            json!({"not": {"not": {"properties": {"a": {}}}}, "unevaluatedProperties": false}),
            vec![json!({"a": 1})],
        ),
        (
            d7(json!({"properties": {"a": {}}, "unevaluatedProperties": false})),
            vec![json!({"b": 1})],
        ),
        // boolean schemas
        (json!(true), vec![json!(1)]),
        (json!(false), vec![json!(1)]),
        (
            json!({"properties": {"a": false, "b": true}}),
            vec![json!({"a": 1, "b": 1}), json!({})],
        ),
        // unknown keywords are ignored
        (
            json!({"x-foo": {"type": 5}, "nullable": true, "discriminator": 1}),
            vec![json!(1)],
        ),
        (
            json!({"examples": [1], "title": "t", "description": "d", "default": 1, "deprecated": true, "readOnly": true}),
            vec![json!(1)],
        ),
    ]
}

/// Schemas both must refuse.
fn invalid_schemas() -> Vec<Value> {
    vec![
        json!({"type": 5}),
        json!({"type": "strin"}),
        json!({"type": ["object", "object"]}),
        json!({"type": []}),
        json!({"required": "a"}),
        json!({"required": ["a", "a"]}),
        json!({"required": [1]}),
        json!({"minLength": -1}),
        json!({"minLength": 1.5}),
        json!({"maxItems": "2"}),
        json!({"multipleOf": 0}),
        json!({"multipleOf": -2}),
        json!({"minimum": "1"}),
        json!({"exclusiveMinimum": true}),
        json!({"pattern": "["}),
        json!({"pattern": 5}),
        json!({"patternProperties": {"(": {}}}),
        json!({"properties": {"a": 5}}),
        json!({"properties": []}),
        json!({"items": [{}]}),
        json!({"prefixItems": []}),
        json!({"anyOf": []}),
        json!({"allOf": {}}),
        json!({"not": 1}),
        json!({"enum": 1}),
        json!({"uniqueItems": 1}),
        json!({"title": 5}),
        json!({"$ref": "#/$defs/nope"}),
        json!({"$ref": "other.json"}),
        json!({"$ref": "https://example.com/schema.json"}),
        json!({"$ref": "file:///etc/passwd"}),
        json!({"$ref": "#nowhere"}),
        json!({"$ref": 5}),
        json!({"$schema": "https://example.com/custom"}),
        json!({"$anchor": "1bad"}),
        json!({"dependentRequired": {"a": "b"}}),
        json!({"dependencies": {"a": 5}}),
        json!({"$defs": {"x": 5}}),
        json!(5),
        json!(null),
        json!("object"),
        json!([]),
        d7(json!({"items": []})),
        d7(json!({"definitions": {"x": {"type": 5}}})),
        d7(json!({"dependencies": {"a": ["b", "b"]}})),
    ]
}

#[test]
fn schema_diff_table_agrees_with_the_reference() {
    let mut failures = Vec::new();
    let mut pairs = 0;
    for (schema, own) in table() {
        assert!(
            Validator::new(&schema).is_ok(),
            "table schema must compile: {schema}"
        );
        let mut instances = own;
        instances.extend(common_instances());
        pairs += instances.len();
        failures.extend(disagreements(&schema, &instances));
    }
    assert!(
        failures.is_empty(),
        "{} of {pairs}:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn schema_diff_invalid_schemas_fail_to_compile_in_both() {
    for schema in invalid_schemas() {
        assert!(
            reference(&schema, &json!(1)).is_err(),
            "the reference accepts {schema}"
        );
        let e = Validator::new(&schema).expect_err(&schema.to_string());
        assert!(!e.message.is_empty());
    }
}

#[test]
fn schema_diff_schema_paths_match_the_reference() {
    // Beyond instance paths: the failing keyword's location, for one case of each keyword.
    let cases = [
        (
            json!({"properties": {"unit": {"enum": ["celsius", "fahrenheit"]}}}),
            json!({"unit": "kelvin"}),
        ),
        (
            json!({"properties": {"items": {"items": {"properties": {"qty": {"minimum": 1}}}}}}),
            json!({"items": [{"qty": 1}, {"qty": 0}]}),
        ),
        (
            json!({"properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}),
            json!({"a": 1}),
        ),
        (json!({"required": ["a"]}), json!({})),
        (json!({"additionalProperties": false}), json!({"a": 1})),
        (
            json!({"additionalProperties": {"type": "string"}}),
            json!({"a": 1}),
        ),
        (json!({"allOf": [{"type": "string"}]}), json!(1)),
        (json!({"anyOf": [{"type": "string"}]}), json!(1)),
        (json!({"if": true, "then": {"type": "string"}}), json!(1)),
        (json!({"if": false, "else": {"type": "string"}}), json!(1)),
        (
            json!({"dependentSchemas": {"a": {"required": ["b"]}}}),
            json!({"a": 1}),
        ),
        (json!({"dependentRequired": {"a": ["b"]}}), json!({"a": 1})),
        (json!({"propertyNames": {"maxLength": 1}}), json!({"ab": 1})),
        (
            json!({"prefixItems": [{"type": "string"}], "items": false}),
            json!(["a", 1]),
        ),
        (
            d7(json!({"items": [{"type": "string"}], "additionalItems": {"type": "string"}})),
            json!(["a", 1]),
        ),
        (json!({"unevaluatedProperties": false}), json!({"a": 1})),
        (json!({"contains": {"type": "string"}}), json!([1])),
        (json!({"properties": {"a": false}}), json!({"a": 1})),
        (
            json!({"exclusiveMaximum": 3, "multipleOf": 2, "pattern": "^a", "maxLength": 1}),
            json!(3),
        ),
        (json!({"pattern": "^a", "maxLength": 1}), json!("bb")),
    ];
    for (schema, instance) in cases {
        let r = jsonschema::options()
            .build(&schema)
            .expect("reference compiles");
        let mut want: Vec<(String, String)> = r
            .iter_errors(&instance)
            .map(|e| {
                (
                    e.instance_path().as_str().to_string(),
                    e.schema_path().as_str().to_string(),
                )
            })
            .collect();
        let mut got: Vec<(String, String)> = Validator::new(&schema)
            .expect("compiles")
            .errors(&instance)
            .into_iter()
            .map(|e| (e.instance_path, e.schema_path))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{schema} / {instance}");
    }
}

// ------------------------------------------------------------------ 2. generated

/// 256 cases from a fixed seed (deterministic in `make test`); `PROPTEST_CASES` for a deep run
/// from a random seed. About one generated schema in ten has an empty `$ref` cycle and is
/// skipped (see `has_empty_ref_cycle`).
fn config() -> ProptestConfig {
    let base = common::gen::config_seeded(256, 0x5c4e_3a01);
    ProptestConfig {
        max_global_rejects: base.cases.max(1024),
        ..base
    }
}

fn small_number() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(-1),
        json!(1.5),
        json!(2.0),
        json!(0.5),
        json!(10),
    ])
}

fn small_string() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!(""),
        json!("a"),
        json!("ab"),
        json!("abc"),
        json!("b"),
        json!("x1"),
        json!("é"),
        json!("A"),
    ])
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "aa", "x"]).prop_map(String::from)
}

/// Instances over a small domain, so generated schemas hold for a fair share of them.
fn instance() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(Value::Bool),
        small_number(),
        small_string(),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn type_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "null", "boolean", "integer", "number", "string", "array", "object",
    ])
}

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A schema with one assertion keyword (or a boolean schema, or a reference).
fn leaf_schema() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({})),
        type_name().prop_map(|t| json!({"type": t})),
        (type_name(), type_name())
            .prop_filter("distinct", |(a, b)| a != b)
            .prop_map(|(a, b)| json!({"type": [a, b]})),
        prop::collection::vec(
            prop_oneof![small_number(), small_string(), Just(json!(null))],
            1..4
        )
        .prop_map(|v| json!({"enum": v})),
        prop_oneof![
            small_number(),
            small_string(),
            Just(json!([1, "a"])),
            Just(json!({"a": 1}))
        ]
        .prop_map(|v| json!({"const": v})),
        (
            prop::sample::select(vec![
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum"
            ]),
            small_number()
        )
            .prop_map(|(k, n)| obj(vec![(k, n)])),
        prop::sample::select(vec![json!(2), json!(0.5), json!(1.5), json!(3)])
            .prop_map(|m| json!({"multipleOf": m})),
        (
            prop::sample::select(vec![
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "minProperties",
                "maxProperties"
            ]),
            0u64..3
        )
            .prop_map(|(k, n)| obj(vec![(k, json!(n))])),
        prop::sample::select(vec![
            "^a", "b$", "^[a-z]+$", "\\d", "^.{2}$", "x|y", "^(a|b)*$", "[^a]"
        ])
        .prop_map(|p| json!({"pattern": p})),
        any::<bool>().prop_map(|b| json!({"uniqueItems": b})),
        prop::collection::btree_set(key(), 1..3)
            .prop_map(|r| json!({"required": r.into_iter().collect::<Vec<_>>()})),
        Just(json!({"format": "email"})),
        Just(json!({"$ref": "#/DEFS/d"})),
        Just(json!({"$ref": "#"})),
    ]
    .boxed()
}

/// Merge the keywords of two schemas (the first wins on a clash); booleans stay as they are.
fn merge(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut x), Value::Object(y)) => {
            for (k, v) in y {
                x.entry(k).or_insert(v);
            }
            Value::Object(x)
        }
        (a, _) => a,
    }
}

fn schema() -> BoxedStrategy<Value> {
    leaf_schema()
        .prop_recursive(4, 40, 4, |inner| {
            let list = prop::collection::vec(inner.clone(), 1..3);
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| merge(a, b)),
                (
                    prop::collection::btree_map(key(), inner.clone(), 1..3),
                    prop::option::of(inner.clone())
                )
                    .prop_map(|(p, extra)| {
                        let mut s = json!({"properties": Value::Object(p.into_iter().collect())});
                        if let Some(e) = extra {
                            s["additionalProperties"] = e;
                        }
                        s
                    }),
                (inner.clone(), prop::option::of(inner.clone())).prop_map(|(p, extra)| {
                    let mut s = json!({"patternProperties": {"^a": p}});
                    if let Some(e) = extra {
                        s["additionalProperties"] = e;
                    }
                    s
                }),
                inner.clone().prop_map(|s| json!({"propertyNames": s})),
                inner
                    .clone()
                    .prop_map(|s| json!({"additionalProperties": s})),
                inner.clone().prop_map(|s| json!({"items": s})),
                (list.clone(), prop::option::of(inner.clone())).prop_map(|(p, rest)| {
                    let mut s = json!({"prefixItems": p});
                    if let Some(r) = rest {
                        s["items"] = r;
                    }
                    s
                }),
                (
                    inner.clone(),
                    prop::option::of(0u64..3),
                    prop::option::of(0u64..3)
                )
                    .prop_map(|(c, min, max)| {
                        let mut s = json!({"contains": c});
                        if let Some(m) = min {
                            s["minContains"] = json!(m);
                        }
                        if let Some(m) = max {
                            s["maxContains"] = json!(m);
                        }
                        s
                    }),
                list.clone().prop_map(|l| json!({"allOf": l})),
                list.clone().prop_map(|l| json!({"anyOf": l})),
                list.clone().prop_map(|l| json!({"oneOf": l})),
                inner.clone().prop_map(|s| json!({"not": s})),
                (
                    inner.clone(),
                    prop::option::of(inner.clone()),
                    prop::option::of(inner.clone())
                )
                    .prop_map(|(i, t, e)| {
                        let mut s = json!({"if": i});
                        if let Some(t) = t {
                            s["then"] = t;
                        }
                        if let Some(e) = e {
                            s["else"] = e;
                        }
                        s
                    }),
                (key(), prop::collection::btree_set(key(), 1..3)).prop_map(
                    |(k, r)| json!({"dependentRequired": {k: r.into_iter().collect::<Vec<_>>()}})
                ),
                (key(), inner.clone()).prop_map(|(k, s)| json!({"dependentSchemas": {k: s}})),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, u)| merge(a, json!({"unevaluatedProperties": u}))),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, u)| merge(a, json!({"unevaluatedItems": u}))),
            ]
        })
        .boxed()
}

/// Rewrite a generated 2020-12 schema into draft 07's spelling of the same keywords.
fn to_draft7(s: Value) -> Value {
    let Value::Object(m) = s else {
        return s;
    };
    let mut out = Map::new();
    let rec = to_draft7;
    let each = |v: Value| {
        Value::Array(
            v.as_array()
                .into_iter()
                .flatten()
                .cloned()
                .map(rec)
                .collect(),
        )
    };
    for (k, v) in m {
        match k.as_str() {
            "prefixItems" => {
                out.insert("items".into(), each(v));
            }
            "items" if out.contains_key("items") || v.is_object() || v.is_boolean() => {
                // After prefixItems, 2020-12 `items` is 07's `additionalItems`.
                let key = if out.get("items").is_some_and(Value::is_array) {
                    "additionalItems"
                } else {
                    "items"
                };
                out.insert(key.into(), rec(v));
            }
            "dependentRequired" | "dependentSchemas" => {
                let entry = out.entry("dependencies").or_insert_with(|| json!({}));
                if let (Some(e), Value::Object(d)) = (entry.as_object_mut(), v) {
                    for (name, dep) in d {
                        let dep = if dep.is_array() { dep } else { rec(dep) };
                        e.entry(name).or_insert(dep);
                    }
                }
            }
            "$ref" => {
                out.insert(
                    k,
                    Value::String(v.as_str().unwrap_or("#").replace("DEFS", "definitions")),
                );
            }
            "properties" | "patternProperties" | "dependencies" => {
                let map = v.as_object().cloned().unwrap_or_default();
                out.insert(
                    k,
                    Value::Object(map.into_iter().map(|(n, s)| (n, rec(s))).collect()),
                );
            }
            "allOf" | "anyOf" | "oneOf" => {
                out.insert(k, each(v));
            }
            "const" | "enum" | "required" | "type" | "pattern" => {
                out.insert(k, v);
            }
            _ if v.is_object() || v.is_boolean() => {
                out.insert(k, rec(v));
            }
            _ => {
                out.insert(k, v);
            }
        }
    }
    // The rewritten `items` may come after `additionalItems` was decided: fix the order case.
    if out.get("items").is_some_and(|i| !i.is_array()) && out.contains_key("additionalItems") {
        out.remove("additionalItems");
    }
    Value::Object(out)
}

/// A root schema: `$defs/d` (or `definitions/d`) for the references, the draft, the body.
fn root(body: Value, def: Value, draft7: bool) -> Value {
    let (body, def) = if draft7 {
        (to_draft7(body), to_draft7(def))
    } else {
        (body, def)
    };
    let text = body.to_string().replace(
        "#/DEFS/d",
        if draft7 {
            "#/definitions/d"
        } else {
            "#/$defs/d"
        },
    );
    let def_text = def.to_string().replace(
        "#/DEFS/d",
        if draft7 {
            "#/definitions/d"
        } else {
            "#/$defs/d"
        },
    );
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Bool(true));
    let def: Value = serde_json::from_str(&def_text).unwrap_or(Value::Bool(true));
    let mut m = match body {
        Value::Object(m) => m,
        // A boolean root cannot carry the definitions: wrap it.
        other => {
            let mut m = Map::new();
            m.insert("allOf".into(), json!([other]));
            m
        }
    };
    if draft7 {
        m.insert("$schema".into(), json!(D7));
        m.insert("definitions".into(), json!({"d": def}));
    } else {
        m.insert("$defs".into(), json!({"d": def}));
    }
    Value::Object(m)
}

/// The references (`"#"` → `'r'`, `".../d"` → `'d'`) a schema applies at its own instance,
/// through in-place applicators only.
fn in_place_refs(s: &Value, out: &mut BTreeSet<char>) {
    let Some(m) = s.as_object() else {
        return;
    };
    if let Some(Value::String(r)) = m.get("$ref") {
        out.insert(if r == "#" { 'r' } else { 'd' });
    }
    for (k, v) in m {
        match k.as_str() {
            "allOf" | "anyOf" | "oneOf" => v
                .as_array()
                .into_iter()
                .flatten()
                .for_each(|c| in_place_refs(c, out)),
            "not" | "if" | "then" | "else" => in_place_refs(v, out),
            "dependentSchemas" | "dependencies" => v
                .as_object()
                .into_iter()
                .flat_map(|o| o.values())
                .for_each(|c| in_place_refs(c, out)),
            _ => {}
        }
    }
}

/// True when following references can come back to the same schema at the same instance.
///
/// Such a cycle consumes nothing, and its outcome is undefined: JSON Schema 2020-12 (§9.4.1)
/// says an implementation should detect it and refuse, `jsonschema` instead answers with a
/// result that depends on how deep its compiler inlined the cycle before guarding it (e.g.
/// `{"oneOf": [{"minimum": 0}, {"$ref": "#"}]}` is invalid for `null` there, though following
/// the reference once or twice before cutting gives "valid" either way). We cut the cycle where
/// it closes (it adds no constraint) and do not compare such schemas.
fn has_empty_ref_cycle(root: &Value, def: &Value) -> bool {
    let mut from_root = BTreeSet::new();
    in_place_refs(root, &mut from_root);
    let mut from_def = BTreeSet::new();
    in_place_refs(def, &mut from_def);
    from_root.contains(&'r')
        || from_def.contains(&'d')
        || (from_root.contains(&'d') && from_def.contains(&'r'))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn schema_diff_generated_schemas_agree(
        body in schema(),
        def in leaf_schema(),
        draft7 in any::<bool>(),
        instances in prop::collection::vec(instance(), 6),
    ) {
        let s = root(body, def, draft7);
        let d = s.pointer("/$defs/d").or_else(|| s.pointer("/definitions/d")).cloned().unwrap_or(Value::Null);
        prop_assume!(!has_empty_ref_cycle(&s, &d));
        let found = disagreements(&s, &instances);
        prop_assert!(found.is_empty(), "{}", found.join("\n\n"));
    }
}

// ------------------------------------------------------------------ 3. fixtures and MCP

/// The instance, and variants of it: each location replaced by values of other types, each
/// property removed, and a few whole-value stand-ins.
fn mutants(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone(), json!({}), json!(null), json!([]), json!("x")];
    let mut paths = Vec::new();
    let mut stack = vec![(String::new(), v)];
    while let Some((p, x)) = stack.pop() {
        paths.push(p.clone());
        match x {
            Value::Object(m) => stack.extend(m.iter().map(|(k, c)| {
                (
                    format!("{p}/{}", k.replace('~', "~0").replace('/', "~1")),
                    c,
                )
            })),
            Value::Array(a) => {
                stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c)))
            }
            _ => {}
        }
    }
    for p in paths.iter().filter(|p| !p.is_empty()).take(40) {
        for repl in [
            json!(null),
            json!(5),
            json!(1.5),
            json!(-1),
            json!("x"),
            json!(""),
            json!([]),
            json!({}),
            json!(true),
        ] {
            let mut m = v.clone();
            if let Some(slot) = m.pointer_mut(p) {
                *slot = repl;
                out.push(m);
            }
        }
        if let Some((parent, last)) = p.rsplit_once('/') {
            let mut m = v.clone();
            if let Some(Value::Object(o)) = m.pointer_mut(parent) {
                o.remove(&last.replace("~1", "/").replace("~0", "~"));
                out.push(m);
            }
        }
    }
    out
}

/// Every value under a key named like a tool schema, anywhere in `v`.
fn schemas_in(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                if [
                    "input_schema",
                    "inputSchema",
                    "outputSchema",
                    "output_schema",
                ]
                .contains(&k.as_str())
                    && c.is_object()
                {
                    out.push(c.clone());
                }
                schemas_in(c, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|c| schemas_in(c, out)),
        _ => {}
    }
}

/// Every call's arguments, anywhere in `v`.
fn arguments_in(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                if k == "arguments" && c.is_object() {
                    out.push(c.clone());
                }
                arguments_in(c, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|c| arguments_in(c, out)),
        _ => {}
    }
}

fn json_files(dir: &std::path::Path) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read");
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            (
                name,
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn schema_diff_fixture_and_mcp_tool_schemas_agree() {
    let mut docs = json_files(&common::fixtures().join("exchanges"));
    docs.extend(json_files(&common::fixtures().join("schema")));
    docs.extend(json_files(&common::mcp_spec_dir().join("examples")));
    let mut schemas = Vec::new();
    let mut args = Vec::new();
    for (_, d) in &docs {
        schemas_in(d, &mut schemas);
        arguments_in(d, &mut args);
    }
    assert!(schemas.len() >= 20, "{} schemas", schemas.len());
    let mut pairs = 0;
    let mut failures = Vec::new();
    for s in &schemas {
        let mut instances: Vec<Value> = args.iter().flat_map(mutants).collect();
        instances.truncate(400);
        pairs += instances.len();
        failures.extend(disagreements(s, &instances));
    }
    assert_no_failures(&failures, pairs);
    println!(
        "{} tool schemas × instances: {pairs} pairs agree",
        schemas.len()
    );
}

/// No disagreements among `of` checks (the first five are shown).
fn assert_no_failures(failures: &[String], of: usize) {
    let first: Vec<&str> = failures.iter().take(5).map(String::as_str).collect();
    assert!(
        failures.is_empty(),
        "{} of {of}:\n{}",
        failures.len(),
        first.join("\n\n")
    );
}

#[test]
fn schema_diff_mcp_schema_validates_the_spec_examples_alike() {
    // The MCP schema itself (2020-12, 150+ definitions) is a realistic large schema: each example
    // `Type--name.json` against `#/$defs/Type`, and mutants of it.
    let dir = common::mcp_spec_dir();
    let text = std::fs::read_to_string(dir.join("schema.json")).expect("schema.json");
    let spec: Value = serde_json::from_str(&text).expect("json");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, example) in json_files(&dir.join("examples")) {
        let Some((ty, _)) = name.split_once("--") else {
            continue;
        };
        let mut s = spec.clone();
        s["$ref"] = json!(format!("#/$defs/{ty}"));
        assert!(
            Validator::new(&s)
                .expect("the MCP schema compiles")
                .errors(&example)
                .is_empty(),
            "{name} is a valid {ty}"
        );
        let instances = mutants(&example);
        checked += instances.len();
        for d in disagreements(&s, &instances) {
            failures.push(format!(
                "{name}: {}",
                d.lines().skip(1).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    assert!(checked > 500, "{checked}");
    assert_no_failures(&failures, checked);
}

#[test]
fn schema_diff_drafts_are_detected() {
    for (uri, d) in [
        (
            "https://json-schema.org/draft/2020-12/schema",
            Draft::Draft202012,
        ),
        ("http://json-schema.org/draft-07/schema#", Draft::Draft7),
        ("https://json-schema.org/draft-07/schema", Draft::Draft7),
        (
            "http://json-schema.org/draft/2019-09/schema#",
            Draft::Draft201909,
        ),
        ("http://json-schema.org/draft-06/schema#", Draft::Draft6),
        ("http://json-schema.org/draft-04/schema#", Draft::Draft4),
    ] {
        let v = Validator::new(&json!({"$schema": uri})).expect(uri);
        assert_eq!(v.draft(), d, "{uri}");
    }
    assert_eq!(
        Validator::new(&json!({})).map(|v| v.draft()),
        Ok(Draft::Draft202012)
    );
}
