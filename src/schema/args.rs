//! Tool-call arguments against their tools' `input_schema`.

use super::validate::{CompileError, Validator};
use super::walk::value_depth;
use super::{Finding, Severity};
use crate::model::{Exchange, Part};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// JSON values (schemas, arguments) nested deeper than this are not validated: a hostile
/// document must not overflow the stack. Text parsed by serde_json cannot exceed 128 anyway.
pub use super::validate::MAX_VALUE_DEPTH;

/// Compile a tool's schema (the draft from `$schema`, 2020-12 when absent). A remote `$ref` is
/// a compile error, never a fetch.
pub fn compile(schema: &Value) -> Result<Validator, CompileError> {
    Validator::new(schema)
}

/// Validate every call of the exchange against its tool. Findings:
/// - `args.invalid-schema` on `/tools/i/input_schema`: the schema itself does not compile;
/// - `args.invalid-json` on `…/arguments_raw`: the argument text is not JSON;
/// - `args.unknown-tool` on `…/name`: no tool of that name (only checked when the exchange
///   declares tools at all: a response document carries none);
/// - `args.schema` on `…/arguments<instance path>`: a validation error, with its instance path
///   and schema path;
/// - `args.orphan-result` on `…/call_id`: a result whose id matches no earlier call;
/// - `args.not-checked` (warning) on `/tools/i/input_schema<schema path>`: a part of the schema
///   the validator cannot run (a look-around `pattern`…), once per tool; and on
///   `…/arguments` when a validation stopped at its budget.
///
/// Validators are compiled once per tool per check.
pub fn validate_arguments(x: &Exchange) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut validators: HashMap<&str, Option<std::rc::Rc<Result<Validator, CompileError>>>> =
        HashMap::new();
    for (i, tool) in x.tools.iter().enumerate() {
        if validators.contains_key(tool.name.as_str()) {
            continue; // a duplicate name: the first tool wins, as `names::duplicates` reports
        }
        // Cached by schema: a keystroke recompiles only the schema it changed.
        let cached = Validator::cached(&tool.input_schema);
        let v = match cached.as_ref() {
            Ok(v) => {
                for u in v.unchecked() {
                    out.push(Finding::new(
                        format!("/tools/{i}/input_schema{}", u.schema_path),
                        Severity::Warning,
                        "args.not-checked",
                        format!(
                            "{} (arguments of `{}` are checked without it)",
                            u.message, tool.name
                        ),
                    ));
                }
                Some(cached.clone())
            }
            Err(e) => {
                out.push(Finding::new(
                    format!("/tools/{i}/input_schema"),
                    Severity::Error,
                    "args.invalid-schema",
                    format!(
                        "the input schema of `{}` is not a valid JSON Schema: {e}",
                        tool.name
                    ),
                ));
                None
            }
        };
        validators.insert(tool.name.as_str(), v);
    }
    let mut seen_ids: HashSet<&str> = HashSet::new();
    for (m, msg) in x.messages.iter().enumerate() {
        for (p, part) in msg.parts.iter().enumerate() {
            let at = format!("/messages/{m}/parts/{p}");
            match part {
                Part::ToolCall(call) => {
                    if let Some(id) = &call.id {
                        seen_ids.insert(id.as_str());
                    }
                    if call.arguments_invalid() {
                        out.push(Finding::new(
                            format!("{at}/arguments_raw"),
                            Severity::Error,
                            "args.invalid-json",
                            format!(
                                "the arguments of this `{}` call are not valid JSON",
                                call.name
                            ),
                        ));
                        continue;
                    }
                    let Some(validator) = validators.get(call.name.as_str()) else {
                        if !x.tools.is_empty() {
                            out.push(Finding::new(
                                format!("{at}/name"),
                                Severity::Error,
                                "args.unknown-tool",
                                format!("call to `{}`, which is not among the tools", call.name),
                            ));
                        }
                        continue;
                    };
                    let Some(Ok(validator)) = validator.as_deref() else {
                        continue; // the schema finding says it all
                    };
                    if value_depth(&call.arguments, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH {
                        out.push(Finding::new(
                            format!("{at}/arguments"),
                            Severity::Warning,
                            "args.too-deep",
                            format!("arguments nested deeper than {MAX_VALUE_DEPTH} levels; not validated"),
                        ));
                        continue;
                    }
                    let report = validator.validate(&call.arguments);
                    for e in report.errors {
                        let instance = e.instance_path;
                        let schema = e.schema_path;
                        let mut f = Finding::new(
                            format!("{at}/arguments{instance}"),
                            Severity::Error,
                            "args.schema",
                            format!(
                                "`{}` arguments{}: {} (schema {})",
                                call.name,
                                if instance.is_empty() {
                                    String::new()
                                } else {
                                    format!(" at {instance}")
                                },
                                e.message,
                                if schema.is_empty() { "/" } else { &schema }
                            ),
                        );
                        f.instance_path = Some(instance);
                        f.schema_path = Some(schema);
                        out.push(f);
                    }
                    if let Some(why) = report.stopped {
                        out.push(Finding::new(
                            format!("{at}/arguments"),
                            Severity::Warning,
                            "args.not-checked",
                            format!("`{}` arguments: {why}", call.name),
                        ));
                    }
                }
                Part::ToolResult(r) => {
                    if let Some(id) = &r.call_id {
                        if !seen_ids.contains(id.as_str()) {
                            out.push(Finding::new(
                                format!("{at}/call_id"),
                                Severity::Error,
                                "args.orphan-result",
                                format!("result for call id `{id}`, which no earlier call has"),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}
