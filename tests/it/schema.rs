//! Schema checks: argument validation, every lint rule (one schema that breaks it, one that
//! passes), fixes (idempotent, making the lint pass), hostile schemas, and the SDKs' word on the
//! fixed schemas (`tests/sdk/lint_fixes.py`).

use crate::common;

use serde_json::{json, Value};
use std::process::Command;
use toolscope::formats::gemini::parameters::fit as fit_gemini_parameters;
use toolscope::formats::gemini::parameters::{self as gemini, check as gemini_parameters};
use toolscope::formats::openai_chat::strict as openai;
use toolscope::formats::{Format, Kind};
use toolscope::model::{
    ChoiceMode, Exchange, Message, Part, ResultContent, Role, Tool, ToolCall, ToolChoice,
    ToolResult,
};
use toolscope::schema::{
    check, fix_all, fix_for_targets, has_errors, lint, side_effects, validate_arguments, Finding,
    Fix, LintOptions, Severity, Target,
};

fn tool(name: &str, schema: Value) -> Tool {
    Tool {
        name: name.into(),
        description: Some(format!("The {name} tool")),
        input_schema: schema,
        strict: None,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Default::default(),
    }
}

fn strict_tool(name: &str, schema: Value) -> Tool {
    Tool {
        strict: Some(true),
        ..tool(name, schema)
    }
}

fn with_tools(tools: Vec<Tool>) -> Exchange {
    Exchange {
        tools,
        messages: vec![Message::new(Role::User, vec![Part::text("hi")])],
        ..Default::default()
    }
}

fn call(id: &str, name: &str, args: Value) -> Part {
    Part::ToolCall(ToolCall::new(Some(id.into()), name, args))
}

fn result(id: &str) -> Part {
    Part::ToolResult(ToolResult::new(
        Some(id.into()),
        ResultContent::Text("ok".into()),
    ))
}

fn target(id: &str) -> Target {
    Target::from_id(id).expect("known target")
}

fn rules(fs: &[Finding]) -> Vec<&'static str> {
    fs.iter().map(|f| f.rule).collect()
}

fn lint_one(id: &str, t: Tool) -> Vec<Finding> {
    lint(&with_tools(vec![t]), target(id), LintOptions::default())
}

/// What Gemini's `parameters` subset would need of one tool.
fn gemini_one(t: Tool) -> Vec<Finding> {
    gemini_parameters(&with_tools(vec![t]))
}

fn has_rule(fs: &[Finding], rule: &str) -> bool {
    fs.iter().any(|f| f.rule == rule)
}

fn fixture(name: &str) -> Exchange {
    let path = common::fixtures().join("schema").join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    serde_json::from_str(&text).expect("canonical fixture")
}

const OBJ: fn(Value) -> Value = |props| json!({"type": "object", "properties": props});

// ---------------------------------------------------------------- argument validation

#[test]
fn schema_args_errors_carry_instance_and_schema_paths() {
    let x = fixture("bad_args.json");
    let fs = validate_arguments(&x);
    let qty = fs
        .iter()
        .find(|f| f.pointer == "/messages/1/parts/0/arguments/items/1/qty")
        .expect("qty finding");
    assert_eq!(qty.rule, "args.schema");
    assert_eq!(qty.severity, Severity::Error);
    assert_eq!(qty.instance_path.as_deref(), Some("/items/1/qty"));
    assert_eq!(
        qty.schema_path.as_deref(),
        Some("/properties/items/items/properties/qty/minimum")
    );
    let express = fs
        .iter()
        .find(|f| f.instance_path.as_deref() == Some("/express"))
        .expect("express finding");
    assert!(express.message.contains("boolean"), "{}", express.message);
    assert_eq!(
        rules(&fs),
        [
            "args.schema",
            "args.schema",
            "args.invalid-json",
            "args.unknown-tool",
            "args.orphan-result"
        ]
    );
    assert_eq!(fs[2].pointer, "/messages/1/parts/1/arguments_raw");
    assert_eq!(fs[3].pointer, "/messages/1/parts/2/name");
    assert_eq!(fs[4].pointer, "/messages/2/parts/1/call_id");
}

#[test]
fn schema_args_valid_calls_and_paired_results_pass() {
    let mut x = with_tools(vec![tool(
        "add",
        json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
    )]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "add", json!({"a": 1}))],
    ));
    x.messages
        .push(Message::new(Role::Tool, vec![result("c1")]));
    assert_eq!(validate_arguments(&x), vec![]);
}

#[test]
fn schema_args_missing_required_points_at_the_arguments() {
    let mut x = with_tools(vec![tool(
        "add",
        json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
    )]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "add", json!({}))],
    ));
    let fs = validate_arguments(&x);
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].pointer, "/messages/1/parts/0/arguments");
    assert_eq!(fs[0].instance_path.as_deref(), Some(""));
    assert_eq!(fs[0].schema_path.as_deref(), Some("/required"));
}

#[test]
fn schema_args_result_before_its_call_is_an_orphan() {
    let mut x = with_tools(vec![tool("t", OBJ(json!({})))]);
    x.messages
        .push(Message::new(Role::Tool, vec![result("c1")]));
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "t", json!({}))],
    ));
    let fs = validate_arguments(&x);
    assert_eq!(rules(&fs), ["args.orphan-result"]);
    assert_eq!(fs[0].pointer, "/messages/1/parts/0/call_id");
}

#[test]
fn schema_args_unknown_tool_only_when_tools_are_declared() {
    let mut x = with_tools(vec![]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "anything", json!({}))],
    ));
    assert_eq!(
        validate_arguments(&x),
        vec![],
        "a response document has no tools"
    );
    x.tools.push(tool("other", OBJ(json!({}))));
    assert_eq!(rules(&validate_arguments(&x)), ["args.unknown-tool"]);
}

#[test]
fn schema_args_invalid_schema_is_a_finding_on_the_tool() {
    let mut x = with_tools(vec![tool("bad", json!({"type": 5}))]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "bad", json!({}))],
    ));
    let fs = validate_arguments(&x);
    assert_eq!(rules(&fs), ["args.invalid-schema"]);
    assert_eq!(fs[0].pointer, "/tools/0/input_schema");
}

#[test]
fn schema_args_draft_comes_from_dollar_schema() {
    // Tuple `items` is draft-07; in 2020-12 (the default) an array is no valid `items`.
    let tuple = json!({"type": "object", "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}});
    let mut draft7 = tuple.clone();
    draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let mut x = with_tools(vec![tool("t7", draft7), tool("t20", tuple)]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![call("c1", "t7", json!({"pair": ["a", "b"]}))],
    ));
    let fs = validate_arguments(&x);
    assert_eq!(
        rules(&fs),
        ["args.invalid-schema", "args.schema"],
        "{fs:#?}"
    );
    assert_eq!(fs[0].pointer, "/tools/1/input_schema");
    assert_eq!(fs[1].instance_path.as_deref(), Some("/pair/1"));
}

#[test]
fn schema_args_remote_ref_is_a_finding_not_a_fetch() {
    let x = with_tools(vec![tool(
        "remote",
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
    )]);
    assert_eq!(rules(&validate_arguments(&x)), ["args.invalid-schema"]);
}

#[test]
fn schema_args_invalid_json_is_not_validated_further() {
    let mut x = with_tools(vec![tool("t", OBJ(json!({})))]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![Part::ToolCall(ToolCall::from_text(
            Some("c".into()),
            "t",
            "{oops",
        ))],
    ));
    assert_eq!(rules(&validate_arguments(&x)), ["args.invalid-json"]);
}

#[test]
fn schema_args_unchecked_parts_are_warnings_not_passes() {
    // A look-ahead pattern our regex engine cannot run, and a `oneOf` nest past the step budget.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"oneOf": [{"$ref": next}, {"$ref": next, "title": "x"}]}),
        );
    }
    defs.insert("d40".into(), json!({"type": "string"}));
    let mut x = with_tools(vec![
        tool(
            "look",
            json!({"type": "object", "properties": {"p": {"type": "string", "pattern": "^(?!x)"}}}),
        ),
        tool(
            "nest",
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}),
        ),
    ]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![
            call("c1", "look", json!({"p": 5})),
            call("c2", "nest", json!({"a": 1})),
        ],
    ));
    let fs = validate_arguments(&x);
    let unchecked: Vec<&str> = fs
        .iter()
        .filter(|f| f.rule == "args.not-checked")
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(
        unchecked,
        [
            "/tools/0/input_schema/properties/p/pattern",
            "/messages/1/parts/1/arguments"
        ],
        "{fs:#?}"
    );
    assert!(fs
        .iter()
        .filter(|f| f.rule == "args.not-checked")
        .all(|f| f.severity == Severity::Warning));
    // The rest of the look-ahead schema is still checked.
    assert!(fs
        .iter()
        .any(|f| f.rule == "args.schema" && f.pointer == "/messages/1/parts/0/arguments/p"));
}

// ---------------------------------------------------------------- OpenAI strict mode

fn strict_ok() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "pattern": "^[A-Z]", "format": "email"},
            "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
            "days": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}
        },
        "required": ["city", "unit", "days"],
        "additionalProperties": false
    })
}

#[test]
fn schema_openai_strict_valid_schema_passes() {
    assert_eq!(
        lint_one("openai-chat", strict_tool("t", strict_ok())),
        vec![]
    );
    assert_eq!(
        lint_one("openai-responses", strict_tool("t", strict_ok())),
        vec![]
    );
}

#[test]
fn schema_openai_strict_only_for_strict_tools() {
    let loose = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(lint_one("openai-chat", tool("t", loose.clone())), vec![]);
    assert!(has_rule(
        &lint_one("openai-chat", strict_tool("t", loose)),
        "openai.strict.required"
    ));
}

#[test]
fn schema_openai_strict_root_object() {
    let fs = lint_one(
        "openai-chat",
        strict_tool("t", json!({"type": "array", "items": {"type": "string"}})),
    );
    assert!(has_rule(&fs, "openai.strict.root-object"));
    let fs = lint_one(
        "openai-chat",
        strict_tool("t", json!({"anyOf": [strict_ok(), {"type": "null"}]})),
    );
    assert!(has_rule(&fs, "openai.strict.root-object"));
    // `properties` without a type: fixable.
    let fs = lint_one(
        "openai-chat",
        strict_tool(
            "t",
            json!({"properties": {}, "required": [], "additionalProperties": false}),
        ),
    );
    let f = fs
        .iter()
        .find(|f| f.rule == "openai.strict.root-object")
        .expect("finding");
    assert!(f.fix.is_some());
}

#[test]
fn schema_openai_strict_additional_properties() {
    let mut s = strict_ok();
    s.as_object_mut().unwrap().remove("additionalProperties");
    let fs = lint_one("openai-chat", strict_tool("t", s));
    assert_eq!(rules(&fs), ["openai.strict.additional-properties"]);
    assert_eq!(fs[0].pointer, "/tools/0/input_schema");
    let mut s = strict_ok();
    s["additionalProperties"] = json!({"type": "string"});
    assert!(has_rule(
        &lint_one("openai-chat", strict_tool("t", s)),
        "openai.strict.additional-properties"
    ));
}

#[test]
fn schema_openai_strict_required_and_nullable_fix() {
    let s = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "integer", "enum": [1, 2]},
            "c": {"$ref": "#/$defs/c", "description": "see c"},
            "d": {"anyOf": [{"type": "string"}, {"type": "number"}]},
            "e": {"const": "x"},
            "f": {"type": ["string", "integer"]}
        },
        "required": ["a"],
        "$defs": {"c": {"type": "object", "properties": {"z": {"type": "string"}}, "required": ["z"], "additionalProperties": false}}
    });
    let fs = lint_one("openai-chat", strict_tool("t", s.clone()));
    let req: Vec<_> = fs
        .iter()
        .filter(|f| f.rule == "openai.strict.required")
        .map(|f| f.pointer.as_str())
        .collect();
    assert_eq!(
        req,
        [
            "/tools/0/input_schema/properties/b",
            "/tools/0/input_schema/properties/c",
            "/tools/0/input_schema/properties/d",
            "/tools/0/input_schema/properties/e",
            "/tools/0/input_schema/properties/f"
        ]
    );
    let fixed = openai::make_strict(&s);
    assert_eq!(fixed["required"], json!(["a", "b", "c", "d", "e", "f"]));
    assert_eq!(
        fixed["properties"]["a"],
        json!({"type": "string"}),
        "required stays as is"
    );
    assert_eq!(
        fixed["properties"]["b"],
        json!({"type": ["integer", "null"], "enum": [1, 2, null]})
    );
    // A `$ref` with siblings is inlined first (as the SDK does), then made nullable.
    assert_eq!(
        fixed["properties"]["c"],
        json!({"type": ["object", "null"], "properties": {"z": {"type": "string"}}, "required": ["z"], "additionalProperties": false, "description": "see c"})
    );
    assert_eq!(
        fixed["properties"]["d"],
        json!({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]})
    );
    assert_eq!(
        fixed["properties"]["e"],
        json!({"anyOf": [{"const": "x"}, {"type": "null"}]})
    );
    assert_eq!(
        fixed["properties"]["f"],
        json!({"type": ["string", "integer", "null"]})
    );
    assert_eq!(openai::violations(&fixed, ""), vec![]);
}

#[test]
fn schema_openai_strict_unsupported_keywords() {
    for (k, v) in [
        ("allOf", json!([{"type": "string"}])),
        ("not", json!({"type": "string"})),
        ("if", json!({"type": "string"})),
        ("then", json!({"type": "string"})),
        ("else", json!({"type": "string"})),
        ("dependentRequired", json!({"a": ["b"]})),
        ("dependentSchemas", json!({"a": {}})),
        ("oneOf", json!([{"type": "string"}, {"type": "integer"}])),
    ] {
        let mut s = strict_ok();
        s["properties"]["city"][k] = v;
        let fs = lint_one("openai-chat", strict_tool("t", s));
        let f = fs
            .iter()
            .find(|f| f.rule == "openai.strict.unsupported-keyword")
            .unwrap_or_else(|| panic!("{k}: {fs:#?}"));
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            f.pointer,
            format!("/tools/0/input_schema/properties/city/{k}")
        );
        assert!(f.fix.is_some(), "{k}");
    }
}

#[test]
fn schema_openai_strict_limited_keywords_and_formats() {
    for (k, v) in [
        ("minLength", json!(1)),
        ("maxLength", json!(9)),
        ("format", json!("uri")),
    ] {
        let mut s = strict_ok();
        s["properties"]["city"][k] = v;
        let fs = lint_one("openai-chat", strict_tool("t", s));
        assert_eq!(rules(&fs), ["openai.strict.limited-keyword"], "{k}");
        assert_eq!(fs[0].severity, Severity::Warning);
    }
    let mut s = strict_ok();
    s["properties"]["days"]["uniqueItems"] = json!(true);
    s["patternProperties"] = json!({"^x": {"type": "string"}});
    let fs = lint_one("openai-chat", strict_tool("t", s));
    assert_eq!(
        rules(&fs),
        [
            "openai.strict.limited-keyword",
            "openai.strict.limited-keyword"
        ]
    );
}

#[test]
fn schema_openai_strict_refs() {
    let mut s = strict_ok();
    s["$defs"] = json!({"u": {"type": ["string", "null"], "enum": ["c", "f", null]}});
    s["properties"]["unit"] = json!({"$ref": "#/$defs/u"});
    assert_eq!(
        lint_one("openai-chat", strict_tool("t", s.clone())),
        vec![],
        "a bare local $ref is fine"
    );
    s["properties"]["unit"]["description"] = json!("Unit");
    let fs = lint_one("openai-chat", strict_tool("t", s.clone()));
    assert_eq!(rules(&fs), ["openai.strict.ref-siblings"]);
    let fixed = openai::make_strict(&s);
    assert_eq!(
        fixed["properties"]["unit"],
        json!({"type": ["string", "null"], "enum": ["c", "f", null], "description": "Unit"})
    );
    s["properties"]["unit"] = json!({"$ref": "#/$defs/nowhere"});
    let fs = lint_one("openai-chat", strict_tool("t", s));
    assert_eq!(rules(&fs), ["openai.strict.ref"]);
    assert!(fs[0].fix.is_none());
}

fn nest(levels: usize) -> Value {
    let mut s = json!({"type": "string"});
    for _ in 0..levels {
        s = json!({"type": "object", "properties": {"n": s}, "required": ["n"], "additionalProperties": false});
    }
    s
}

#[test]
fn schema_openai_strict_limits() {
    assert_eq!(lint_one("openai-chat", strict_tool("t", nest(10))), vec![]);
    let fs = lint_one("openai-chat", strict_tool("t", nest(11)));
    assert_eq!(rules(&fs), ["openai.strict.limits"]);
    assert!(fs[0].message.contains("11 levels"), "{}", fs[0].message);
    assert!(fs[0].fix.is_none());

    let many = |n: usize| {
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let req: Vec<Value> = (0..n).map(|i| json!(format!("p{i}"))).collect();
        json!({"type": "object", "properties": props, "required": req, "additionalProperties": false})
    };
    assert_eq!(
        lint_one("openai-chat", strict_tool("t", many(5000))),
        vec![]
    );
    assert_eq!(
        rules(&lint_one("openai-chat", strict_tool("t", many(5001)))),
        ["openai.strict.limits"]
    );

    let with_enum = |values: Vec<Value>| json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"], "additionalProperties": false});
    let short = |n: usize| (0..n).map(|i| json!(format!("v{i}"))).collect::<Vec<_>>();
    assert_eq!(
        lint_one("openai-chat", strict_tool("t", with_enum(short(1000)))),
        vec![]
    );
    let fs = lint_one("openai-chat", strict_tool("t", with_enum(short(1001))));
    assert!(
        fs.iter().any(|f| f.message.contains("1001 enum values")),
        "{fs:#?}"
    );
    // 251 values of 60 characters: over 15,000 characters in one big enum.
    let long: Vec<Value> = (0..251).map(|i| json!(format!("{i:060}"))).collect();
    let fs = lint_one("openai-chat", strict_tool("t", with_enum(long)));
    assert!(
        fs.iter()
            .any(|f| f.message.contains("more than 250 values")),
        "{fs:#?}"
    );
    // 120,001 characters of names.
    let big: Vec<Value> = (0..600).map(|i| json!(format!("{i:0200}"))).collect();
    let fs = lint_one("openai-chat", strict_tool("t", with_enum(big)));
    assert!(
        fs.iter().any(|f| f.message.contains("characters of names")),
        "{fs:#?}"
    );
}

#[test]
fn schema_openai_responses_default_strict_warns() {
    let loose = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    assert_eq!(lint_one("openai-chat", tool("t", loose.clone())), vec![]);
    let fs = lint_one("openai-responses", tool("t", loose.clone()));
    assert!(!fs.is_empty());
    assert!(
        fs.iter()
            .all(|f| f.severity == Severity::Warning && f.message.contains("by default")),
        "{fs:#?}"
    );
    let explicit = Tool {
        strict: Some(false),
        ..tool("t", loose)
    };
    assert_eq!(lint_one("openai-responses", explicit), vec![]);
}

#[test]
fn schema_openai_make_strict_is_opt_in() {
    let loose = json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}});
    let x = with_tools(vec![tool("t", loose)]);
    assert_eq!(
        lint(&x, target("openai-chat"), LintOptions::default()),
        vec![]
    );
    let opts = LintOptions { make_strict: true };
    let fs = lint(&x, target("openai-chat"), opts);
    assert_eq!(rules(&fs), ["openai.make-strict"]);
    assert_eq!(fs[0].severity, Severity::Info);
    assert!(matches!(fs[0].fix, Some(Fix::MakeStrict { tool: 0, .. })));
    let (fixed, left) = fix_all(&x, target("openai-chat"), opts);
    assert_eq!(fixed.tools[0].strict, Some(true));
    assert_eq!(left, vec![]);
    // Too deep: cannot be made strict.
    let x = with_tools(vec![tool("t", nest(12))]);
    let fs = lint(&x, target("openai-chat"), opts);
    assert_eq!(fs[0].severity, Severity::Warning);
    assert!(fs[0].fix.is_none());
}

// ---------------------------------------------------------------- Gemini subset

fn gemini_ok() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City"},
            "unit": {"type": ["string", "null"], "enum": ["c", "f"]},
            "when": {"type": "string", "format": "date-time"},
            "days": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 7}
        },
        "required": ["city"]
    })
}

#[test]
fn schema_gemini_subset_passes() {
    assert_eq!(gemini_one(tool("t", gemini_ok())), vec![]);
    assert_eq!(
        gemini_one(tool("t", toolscope::model::empty_object_schema())),
        vec![]
    );
}

#[test]
fn schema_gemini_refs_inlined_with_recursion_guard() {
    let s = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}
    });
    let fs = gemini_one(tool("t", s.clone()));
    // Sent as parametersJsonSchema: what `parameters` would need is a suggestion, not a problem,
    // and not a lint of the Gemini target.
    assert!(fs.iter().all(|f| f.severity == Severity::Info));
    assert_eq!(
        lint(
            &with_tools(vec![tool("t", s.clone())]),
            target("gemini"),
            LintOptions::default()
        ),
        vec![]
    );
    assert!(fs
        .iter()
        .all(|f| f.message.contains("parametersJsonSchema")));
    assert!(fs
        .iter()
        .any(|f| f.rule == "gemini.ref" && f.message.contains("recursive")));
    let fixed = gemini::fix(&s);
    assert_eq!(fixed.get("$defs"), None);
    assert_eq!(
        fixed["properties"]["node"]["properties"]["name"],
        json!({"type": "string"})
    );
    assert_eq!(
        fixed["properties"]["node"]["properties"]["kids"]["items"]["type"],
        "string"
    );
    assert!(
        toolscope::formats::gemini::schema::to_gemini(&fixed).is_some(),
        "{fixed:#}"
    );
}

#[test]
fn schema_gemini_nullable_forms() {
    let s = OBJ(json!({
        "a": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A"},
        "b": {"type": ["null", "integer"]},
        "c": {"type": ["string", "integer"]},
        "d": {"type": "string", "nullable": true}
    }));
    let fs = gemini_one(tool("t", s.clone()));
    assert_eq!(
        fs.iter().filter(|f| f.rule == "gemini.nullable").count(),
        4,
        "{fs:#?}"
    );
    let fixed = gemini::fix(&s);
    assert_eq!(
        fixed["properties"]["a"],
        json!({"description": "A", "type": ["string", "null"]})
    );
    assert_eq!(
        fixed["properties"]["b"],
        json!({"type": ["integer", "null"]})
    );
    assert_eq!(
        fixed["properties"]["c"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    );
    assert_eq!(
        fixed["properties"]["d"],
        json!({"type": ["string", "null"]})
    );
    let g = toolscope::formats::gemini::schema::to_gemini(&fixed).expect("in the subset");
    assert_eq!(
        g["properties"]["a"],
        json!({"description": "A", "type": "STRING", "nullable": true})
    );
}

#[test]
fn schema_gemini_unsupported_keywords_removed() {
    let s = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 2},
            "s": {"type": "string", "format": "email", "examples": ["a"]},
            "k": {"const": "x"},
            "e": {"enum": ["a", "b"]},
            "o": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "additionalProperties": false
    });
    let fs = gemini_one(tool("t", s.clone()));
    for rule in ["gemini.unsupported-keyword", "gemini.format", "gemini.type"] {
        assert!(has_rule(&fs, rule), "{rule}: {fs:#?}");
    }
    let fixed = gemini::fix(&s);
    assert_eq!(
        fixed,
        json!({
            "type": "object",
            "properties": {
                "n": {"type": "number"},
                "s": {"type": "string"},
                "k": {"enum": ["x"], "type": "string"},
                "e": {"enum": ["a", "b"], "type": "string"},
                "o": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            }
        })
    );
    assert_eq!(gemini_one(tool("t", fixed)), vec![]);
}

#[test]
fn schema_gemini_null_in_enum_becomes_nullable() {
    let s = OBJ(
        json!({"u": {"enum": ["c", "f", null]}, "v": {"type": ["string", "null"], "enum": ["a", null]}}),
    );
    let fixed = gemini::fix(&s);
    assert_eq!(
        fixed["properties"]["u"],
        json!({"enum": ["c", "f"], "type": ["string", "null"]})
    );
    assert_eq!(
        fixed["properties"]["v"],
        json!({"type": ["string", "null"], "enum": ["a"]})
    );
    assert_eq!(gemini_one(tool("t", fixed)), vec![]);
}

#[test]
fn schema_gemini_root_without_properties_becomes_no_parameters() {
    let s =
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false});
    let fs = gemini_one(tool("t", s));
    assert!(has_rule(&fs, "gemini.empty-object"), "{fs:#?}");
    let (fixed, left) = fit_gemini_parameters(&with_tools(vec![tool(
        "t",
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
    )]));
    assert_eq!(left, vec![]);
    assert_eq!(
        fixed.tools[0].input_schema,
        toolscope::model::empty_object_schema()
    );
    let doc: Value =
        serde_json::from_str(&Format::Gemini.encode(&fixed, Kind::Request).text).unwrap();
    let decl = &doc["tools"][0]["functionDeclarations"][0];
    assert!(
        decl.get("parameters").is_none() && decl.get("parametersJsonSchema").is_none(),
        "{decl}"
    );
}

#[test]
fn schema_fix_all_applies_one_schema_fix_per_tool_per_round() {
    // Root-object (add the type) and the Gemini subset (drop `$schema`) both replace the schema.
    let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"type": "string"}}});
    let (rooted, left) = fix_all(
        &with_tools(vec![tool("t", s)]),
        target("gemini"),
        LintOptions::default(),
    );
    assert_eq!(left, vec![]);
    assert_eq!(rooted.tools[0].input_schema["type"], "object");
    let (fixed, left) = fit_gemini_parameters(&rooted);
    assert_eq!(left, vec![]);
    assert_eq!(
        fixed.tools[0].input_schema,
        json!({"properties": {"a": {"type": "string"}}, "type": "object"})
    );
}

#[test]
fn schema_gemini_unfixable_shapes_have_no_fix() {
    let s = OBJ(json!({"free": {"description": "anything"}, "bag": {"type": "object"}}));
    let fs = gemini_one(tool("t", s));
    let ty = fs.iter().find(|f| f.rule == "gemini.type").expect("type");
    assert!(ty.fix.is_none());
    let empty = fs
        .iter()
        .find(|f| f.rule == "gemini.empty-object")
        .expect("empty object");
    assert_eq!(empty.pointer, "/tools/0/input_schema/properties/bag");
    assert!(empty.fix.is_none());
}

#[test]
fn schema_gemini_fixed_schema_is_sent_as_parameters() {
    let x = fixture("tools.json");
    let (fixed, _) = fix_all(&x, target("gemini"), LintOptions::default());
    let (fixed, _) = fit_gemini_parameters(&fixed);
    let doc: Value =
        serde_json::from_str(&Format::Gemini.encode(&fixed, Kind::Request).text).unwrap();
    let decls = doc["tools"][0]["functionDeclarations"]
        .as_array()
        .expect("declarations");
    for (i, d) in decls.iter().enumerate() {
        assert!(d.get("parametersJsonSchema").is_none(), "tool {i}: {d:#}");
    }
    assert_eq!(
        decls[0]["parameters"]["properties"]["days"],
        json!({"type": "INTEGER", "nullable": true})
    );
}

// ---------------------------------------------------------------- names, Bedrock, root object

#[test]
fn schema_names_per_provider() {
    let long64 = "a".repeat(64);
    let long65 = "a".repeat(65);
    let long128 = "a".repeat(128);
    let cases: [(&str, &str, bool); 14] = [
        ("openai-chat", "get_weather-2", true),
        ("openai-chat", "get.weather", false),
        ("openai-chat", &long64, true),
        ("openai-chat", &long65, false),
        ("openai-responses", "", false),
        ("anthropic", &long128, true),
        ("anthropic", "a:b", false),
        ("gemini", "ns.get:weather-1", true),
        ("gemini", "_x", true),
        ("gemini", "1x", false),
        ("gemini", "-x", false),
        ("bedrock", &long64, true),
        ("bedrock", "a b", false),
        ("mcp", "files.read", true),
    ];
    for (t, name, ok) in cases {
        let fs: Vec<_> = lint_one(t, tool(name, OBJ(json!({}))))
            .into_iter()
            .filter(|f| f.rule.ends_with(".name"))
            .collect();
        assert_eq!(fs.is_empty(), ok, "{t} {name:?}: {fs:#?}");
        if let Some(f) = fs.first() {
            let Some(Fix::Rename { to, .. }) = &f.fix else {
                panic!("no rename")
            };
            let again = lint_one(t, tool(to, OBJ(json!({}))));
            assert!(
                !again.iter().any(|f| f.rule.ends_with(".name")),
                "{t}: {to} still breaks"
            );
        }
    }
}

#[test]
fn schema_names_rename_is_unique_and_follows_calls() {
    let mut x = with_tools(vec![
        tool("get weather", OBJ(json!({}))),
        tool("get_weather", OBJ(json!({}))),
        tool("get?weather", OBJ(json!({}))),
    ]);
    x.tool_choice = Some(ToolChoice::force("get weather"));
    let mut r = ToolResult::new(Some("c1".into()), ResultContent::Text("ok".into()));
    r.name = Some("get weather".into());
    x.messages.push(Message::new(
        Role::Assistant,
        vec![
            call("c1", "get weather", json!({})),
            call("c2", "get?weather", json!({})),
        ],
    ));
    x.messages
        .push(Message::new(Role::Tool, vec![Part::ToolResult(r)]));
    let (fixed, left) = fix_all(&x, target("openai-chat"), LintOptions::default());
    assert_eq!(left, vec![]);
    let names: Vec<_> = fixed.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get_weather_2", "get_weather", "get_weather_3"]);
    assert_eq!(
        fixed.tool_choice,
        Some(ToolChoice {
            mode: ChoiceMode::Required,
            tools: vec!["get_weather_2".into()]
        })
    );
    let calls: Vec<_> = fixed.messages[1]
        .tool_calls()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(calls, ["get_weather_2", "get_weather_3"]);
    assert_eq!(
        fixed.messages[2]
            .tool_results()
            .next()
            .unwrap()
            .name
            .as_deref(),
        Some("get_weather_2")
    );
}

#[test]
fn schema_names_duplicates_are_errors_without_fix() {
    let fs = lint_one_many(
        "anthropic",
        vec![tool("a", OBJ(json!({}))), tool("a", OBJ(json!({})))],
    );
    assert_eq!(rules(&fs), ["tool.duplicate-name"]);
    assert_eq!(fs[0].pointer, "/tools/1/name");
    assert!(fs[0].fix.is_none());
}

fn lint_one_many(id: &str, tools: Vec<Tool>) -> Vec<Finding> {
    lint(&with_tools(tools), target(id), LintOptions::default())
}

#[test]
fn schema_bedrock_description() {
    let mut t = tool("get_weather", OBJ(json!({})));
    assert_eq!(lint_one("bedrock", t.clone()), vec![]);
    t.description = Some(String::new());
    let fs = lint_one("bedrock", t.clone());
    assert_eq!(rules(&fs), ["bedrock.description"]);
    assert_eq!(fs[0].severity, Severity::Error);
    assert_eq!(
        fs[0].fix,
        Some(Fix::Description {
            tool: 0,
            text: "get weather".into()
        })
    );
    t.description = None;
    let fs = lint_one("bedrock", t);
    assert_eq!(fs[0].severity, Severity::Warning);
}

#[test]
fn schema_root_object_per_target() {
    for t in ["anthropic", "gemini", "bedrock", "mcp"] {
        assert!(!lint_one(t, tool("x", OBJ(json!({}))))
            .iter()
            .any(|f| f.rule.ends_with("root-object")));
        let fs = lint_one(t, tool("x", json!({"type": "string"})));
        let f = fs
            .iter()
            .find(|f| f.rule == format!("{t}.root-object"))
            .unwrap_or_else(|| panic!("{t}"));
        assert_eq!(f.severity, Severity::Error);
        assert!(f.fix.is_none());
        let fs = lint_one(
            t,
            tool("x", json!({"properties": {"a": {"type": "string"}}})),
        );
        let f = fs.iter().find(|f| f.rule.ends_with("root-object")).unwrap();
        assert!(f.fix.is_some(), "{t}");
    }
}

#[test]
fn schema_targets_by_format_id() {
    assert_eq!(Target::from_id("klingon"), None);
    assert_eq!(Target::from_id("canonical"), None);
    for f in Format::ALL {
        assert_eq!(Target::from_id(f.id()).map(|t| t.id()), Some(f.id()));
    }
    assert_eq!(
        target("mistral").family(),
        toolscope::schema::Family::OpenAi
    );
    assert_eq!(
        target("anthropic-xml").family(),
        toolscope::schema::Family::Anthropic
    );
}

// ---------------------------------------------------------------- fixes

#[test]
fn schema_fixes_are_idempotent_and_make_the_lint_pass() {
    let mut x = fixture("tools.json");
    // Strict everywhere so the strict rules are fixed too.
    for t in &mut x.tools {
        t.strict = Some(true);
    }
    for t in Target::all() {
        for opts in [LintOptions::default(), LintOptions { make_strict: true }] {
            let (once, _) = fix_all(&x, t, opts);
            let (twice, _) = fix_all(&once, t, opts);
            assert_eq!(once, twice, "{}: fix is not idempotent", t.id());
            let left = lint(&once, t, opts);
            let fixable: Vec<_> = left.iter().filter(|f| f.fix.is_some()).collect();
            assert!(fixable.is_empty(), "{}: {fixable:#?}", t.id());
        }
    }
}

#[test]
fn schema_fix_leaves_only_unfixable_findings() {
    let mut x = fixture("tools.json");
    x.tools[1].strict = Some(true);
    let (fixed, left) = fix_all(&x, target("openai-chat"), LintOptions::default());
    assert!(
        !has_errors(
            &left
                .iter()
                .filter(|f| !f.rule.starts_with("args."))
                .cloned()
                .collect::<Vec<_>>()
        ),
        "{left:#?}"
    );
    assert_eq!(
        fixed.tools[0].name, "get_weather__2",
        "collides with tool 1's name"
    );
    assert_eq!(
        fixed.messages[1].tool_calls().next().unwrap().name,
        "get_weather__2"
    );
    assert_eq!(fixed.tools[3].name.len(), 64);
}

// ---------------------------------------------------------------- hostile schemas

fn hostile() -> Vec<Value> {
    let mut deep = json!({"type": "string"});
    for _ in 0..600 {
        deep = json!({"type": "object", "properties": {"n": deep}});
    }
    let mut deep_items = json!(true);
    for _ in 0..600 {
        deep_items = json!({"items": deep_items, "anyOf": [{"not": {}}]});
    }
    let huge_enum: Vec<Value> = (0..20_000).map(|i| json!(i.to_string())).collect();
    vec![
        deep,
        deep_items,
        json!({"$ref": "#"}),
        json!({"type": "object", "properties": {"a": {"$ref": "#"}}, "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"$ref": "#/$defs/y", "description": "d"}, "y": {"$ref": "#/$defs/x", "description": "e"}}}),
        json!({"type": "object", "properties": {"e": {"enum": huge_enum}}}),
        json!(true),
        json!(false),
        json!(null),
        json!(5),
        json!("object"),
        json!([]),
        json!({"type": ["object", "object"], "properties": []}),
        json!({"type": "object", "properties": {"a": 5, "b": {"items": [1, 2]}}, "required": "a"}),
        json!({"$ref": "#/$defs/a~1b", "$defs": {"a/b": {"type": "object"}}}),
        json!({"$ref": "http://169.254.169.254/"}),
    ]
}

#[test]
fn schema_hostile_schemas_give_findings_never_panics() {
    let tools: Vec<Tool> = hostile()
        .into_iter()
        .enumerate()
        .map(|(i, s)| Tool {
            strict: Some(true),
            ..tool(&format!("t{i}"), s)
        })
        .collect();
    let mut x = with_tools(tools);
    let calls: Vec<Part> = (0..x.tools.len())
        .map(|i| {
            call(
                &format!("c{i}"),
                &format!("t{i}"),
                json!({"a": {"a": 1}, "e": "5"}),
            )
        })
        .collect();
    x.messages.push(Message::new(Role::Assistant, calls));
    let all = Target::all();
    let fs = check(&x, &all, LintOptions { make_strict: true });
    for i in [0, 1, 6, 9, 12] {
        assert!(
            fs.iter()
                .any(|f| f.pointer.starts_with(&format!("/tools/{i}/"))),
            "tool {i} has no finding"
        );
    }
    // One target per rule family (the dialects lint as their protocol).
    for id in ["openai-chat", "anthropic", "gemini", "bedrock", "mcp"] {
        let t = target(id);
        let (once, _) = fix_all(&x, t, LintOptions { make_strict: true });
        let (twice, _) = fix_all(&once, t, LintOptions { make_strict: true });
        assert_eq!(once, twice, "{}", t.id());
    }
}

#[test]
fn schema_hostile_self_reference_validates_without_overflow() {
    let mut x = with_tools(vec![
        tool("t", json!({"$ref": "#"})),
        tool(
            "u",
            json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
        ),
    ]);
    x.messages.push(Message::new(
        Role::Assistant,
        vec![
            call("c1", "t", json!({"a": 1})),
            call("c2", "u", json!({"a": {"a": {"a": 5}}})),
        ],
    ));
    let fs = validate_arguments(&x);
    assert!(
        fs.iter()
            .any(|f| f.instance_path.as_deref() == Some("/a/a/a")),
        "{fs:#?}"
    );
}

// ---------------------------------------------------------------- external truth, benchmark

#[test]
fn schema_sdk_accepts_fixed_schemas() {
    // The fixed tools of the fixture and of the hostile corpus, as each provider's SDK sees them.
    let mut x = fixture("tools.json");
    x.tools.extend(fixture("bad_args.json").tools);
    // Only what a parsed document can hold (serde_json stops at 128 levels): the format
    // encoders themselves recurse without a bound.
    x.tools.extend(
        hostile()
            .into_iter()
            .filter(|s| serde_json::from_str::<Value>(&s.to_string()).is_ok())
            .enumerate()
            .map(|(i, s)| tool(&format!("h{i}"), s)),
    );
    let strictable: Vec<Value> = {
        let (fixed, _) = fix_all(&x, target("openai-chat"), LintOptions { make_strict: true });
        fixed
            .tools
            .iter()
            .filter(|t| t.strict == Some(true))
            .map(|t| json!({"name": t.name, "description": t.description.clone().unwrap_or_default(), "parameters": t.input_schema, "strict": true}))
            .collect()
    };
    assert!(strictable.len() >= 6, "{}", strictable.len());
    let gemini_params: Vec<Value> = {
        let (fixed, _) = fix_all(&x, target("gemini"), LintOptions::default());
        let (fixed, _) = fit_gemini_parameters(&fixed);
        let doc: Value =
            serde_json::from_str(&Format::Gemini.encode(&fixed, Kind::Request).text).unwrap();
        doc["tools"][0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d.get("parameters").cloned())
            .collect()
    };
    assert!(gemini_params.len() >= 6, "{}", gemini_params.len());
    let bedrock_specs: Vec<Value> = {
        let (fixed, left) = fix_all(&x, target("bedrock"), LintOptions::default());
        fixed
            .tools
            .iter()
            .enumerate()
            .filter(|(i, _)| !left.iter().any(|f| f.pointer.starts_with(&format!("/tools/{i}/")) && f.severity == Severity::Error))
            .map(|(_, t)| json!({"name": t.name, "description": t.description, "inputSchema": {"json": t.input_schema}}))
            .collect()
    };
    assert!(bedrock_specs.len() >= 6, "{}", bedrock_specs.len());
    let cases = json!({"openai_strict": strictable, "gemini_parameters": gemini_params, "bedrock_tool_specs": bedrock_specs});
    let dir = std::env::temp_dir().join(format!("toolscope-lint-fixes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cases.json");
    std::fs::write(&file, serde_json::to_string(&cases).unwrap()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk/lint_fixes.py");
    let what = "python3 with the SDKs (make test installs them) for the SDK checks";
    println!(
        "{}",
        common::run_ok(Command::new("python3").arg(script).arg(&file), what)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_bench_lint_fifty_tools() {
    // Not a timing assertion: `cargo test --test schema schema_bench -- --nocapture` prints it.
    let base = fixture("tools.json");
    let mut x = Exchange {
        messages: vec![],
        ..base.clone()
    };
    for i in 0..50 {
        let mut t = base.tools[i % base.tools.len()].clone();
        t.name = format!("{}_{i}", t.name);
        t.strict = Some(i % 2 == 0);
        x.tools.push(t);
    }
    x.tools.drain(..base.tools.len());
    let calls: Vec<Part> = x
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            call(
                &format!("c{i}"),
                &t.name,
                json!({"city": "Paris", "q": "x"}),
            )
        })
        .collect();
    x.messages = vec![
        Message::new(Role::User, vec![Part::text("go")]),
        Message::new(Role::Assistant, calls),
    ];
    let text = toolscope::formats::json::pretty(&x);
    let start = std::time::Instant::now();
    let mut out = String::new();
    let mut err = String::new();
    let args: Vec<String> = ["lint", "-"].iter().map(|s| s.to_string()).collect();
    let code = toolscope::cli::run_with(&args, || Ok(text.clone()), &mut out, &mut err);
    let all = start.elapsed();
    let start = std::time::Instant::now();
    let fs = check(&x, &[target("openai-chat")], LintOptions::default());
    let one = start.elapsed();
    let start = std::time::Instant::now();
    let _ = fix_all(&x, target("gemini"), LintOptions::default());
    let fix = start.elapsed();
    assert_eq!(code, 1);
    println!(
        "lint of 50 tools / 50 calls: every target via the CLI {all:?} ({} lines); openai-chat check {one:?} ({} findings); gemini fix_all {fix:?}",
        out.lines().count(),
        fs.len()
    );
}

// ---------------------------------------------------------------- several targets at once

/// A tool as OpenAI users write it: an optional enum parameter, no `strict`, no
/// `additionalProperties` — which the Responses API's default strict mode flags.
fn forecast() -> Exchange {
    with_tools(vec![tool(
        "get_forecast",
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 14}
            },
            "required": ["city"]
        }),
    )])
}

fn problems(x: &Exchange, id: &str) -> Vec<Finding> {
    lint(x, target(id), LintOptions::default())
        .into_iter()
        .filter(|f| f.severity != Severity::Info)
        .collect()
}

#[test]
fn schema_responses_fix_makes_no_gemini_finding() {
    let x = forecast();
    assert!(!problems(&x, "openai-responses").is_empty());
    // The Responses fix adds `additionalProperties: false` and null unions: the Gemini pane
    // sends that as parametersJsonSchema, which takes it, so Gemini has nothing to fix.
    let (fixed, left) = fix_all(&x, target("openai-responses"), LintOptions::default());
    assert!(
        left.iter().all(|f| f.severity == Severity::Info),
        "{left:#?}"
    );
    assert_eq!(problems(&fixed, "gemini"), vec![]);
    let doc: Value =
        serde_json::from_str(&Format::Gemini.encode(&fixed, Kind::Request).text).unwrap();
    let decl = &doc["tools"][0]["functionDeclarations"][0];
    assert_eq!(decl["parametersJsonSchema"], fixed.tools[0].input_schema);
    // Gemini's suggestion (fit `parameters`) would bring the Responses findings back: it says so
    // before it is applied.
    // Gemini's pane lints nothing about `parameters`, which it does not send.
    assert_eq!(
        lint(&fixed, target("gemini"), LintOptions::default()),
        vec![]
    );
    let gemini_fs = gemini_parameters(&fixed);
    let suggestion = gemini_fs
        .iter()
        .find_map(|f| f.fix.clone())
        .expect("a suggested rewrite for `parameters`");
    let effects = side_effects(
        &fixed,
        &suggestion,
        &[target("openai-responses")],
        LintOptions::default(),
    );
    assert!(!effects.is_empty());
    assert!(effects
        .iter()
        .all(|(t, f)| t.id() == "openai-responses" && f.severity != Severity::Info));
}

#[test]
fn schema_fix_for_every_visible_format_settles_in_one_step() {
    let x = forecast();
    let targets = [target("openai-responses"), target("gemini")];
    let r = fix_for_targets(&x, &targets, LintOptions::default());
    assert!(r.clean(), "{:#?}", r.remaining);
    assert_eq!(r.conflicts, vec![]);
    assert!(!r.applied.is_empty());
    for t in targets {
        assert_eq!(problems(&r.exchange, t.id()), vec![], "{}", t.id());
    }
    // One step: fixing again changes nothing, for these targets or for each alone (only
    // suggestions remain, such as Gemini's rewrite for `parameters`).
    let again = fix_for_targets(&r.exchange, &targets, LintOptions::default());
    assert_eq!(again.exchange, r.exchange);
    assert_eq!(again.applied, vec![]);
    for t in targets {
        let alone = fix_for_targets(&r.exchange, &[t], LintOptions::default());
        assert_eq!(alone.applied, vec![], "{}", t.id());
    }
    assert!(
        r.summary().contains("every shown format's checks pass"),
        "{}",
        r.summary()
    );
    // Every format at once, on the lint fixture (names, descriptions, $refs, strict tools).
    let all = Target::all();
    let r = fix_for_targets(&fixture("tools.json"), &all, LintOptions::default());
    assert_eq!(r.conflicts, vec![], "{}", r.summary());
    let again = fix_for_targets(&r.exchange, &all, LintOptions::default());
    assert_eq!(again.applied, vec![], "{}", again.summary());
    for t in &all {
        let left: Vec<Finding> = problems(&r.exchange, t.id())
            .into_iter()
            .filter(|f| f.fix.is_some())
            .collect();
        assert_eq!(left, vec![], "{}", t.id());
    }
}

#[test]
fn schema_fix_for_targets_states_a_conflict() {
    // Gemini's suggestion applied by hand (the `parameters` subset drops
    // `additionalProperties`); the Responses fix then restores strictness, and says before it
    // is applied what it does to the Gemini document; fixing for both settles.
    let x = forecast();
    let (for_gemini, _) = fit_gemini_parameters(&x);
    let finding = lint(
        &for_gemini,
        target("openai-responses"),
        LintOptions::default(),
    )
    .into_iter()
    .find(|f| f.fix.is_some() && f.severity != Severity::Info)
    .expect("a Responses fix");
    let fix = finding.fix.clone().expect("fix");
    let breaks = side_effects(
        &for_gemini,
        &fix,
        &[target("gemini")],
        LintOptions::default(),
    );
    // Gemini has no problem with it: the pane switches to parametersJsonSchema.
    assert_eq!(breaks, vec![]);
    let conflict = toolscope::schema::Conflict {
        target: target("gemini"),
        finding: Finding::new(
            "/tools/0/input_schema/additionalProperties",
            Severity::Warning,
            "gemini.unsupported-keyword",
            "additionalProperties is not in the subset",
        ),
        breaks: vec![(target("openai-responses"), finding.clone())],
    };
    let said = conflict.to_string();
    assert!(
        said.starts_with(
            "gemini and openai-responses conflict on /tools/0/input_schema/additionalProperties"
        ),
        "{said}"
    );
    assert!(said.contains(finding.rule), "{said}");
    let r = fix_for_targets(
        &for_gemini,
        &[target("openai-responses"), target("gemini")],
        LintOptions::default(),
    );
    assert!(r.clean(), "{}", r.summary());
}
