"""The SDKs' word on schemas fixed by `toolscope::schema::fix_all` (run by tests/it/schema.rs).

Usage: lint_fixes.py CASES.json, where CASES.json holds
  {"openai_strict": [FunctionDefinition…], "gemini_parameters": [Schema…],
   "bedrock_tool_specs": [ToolSpecification…]}
Exit 0 when every case passes; each failure is printed.

- OpenAI strict: the tool is a `FunctionDefinition` (strictly, unknown keys fail), the name
  matches `^[a-zA-Z0-9_-]{1,64}$`, and the schema is a fixed point of the SDK's own strict-schema
  helper (`openai.lib._pydantic._ensure_strict_json_schema`, which adds
  `additionalProperties: false`, requires every property, inlines `$ref`s with siblings, merges a
  one-member `allOf`): a schema it would still change is not strict. On top, the rules the helper
  implies and the docs state: an object root, every object closed and fully required, no
  `allOf`/`not`/`if`/`then`/`else`/`dependent*`/`oneOf`, every local `$ref` resolving.
- Gemini: every `parameters` validates strictly as google-genai `types.Schema`.
- Bedrock: every tool spec passes botocore's ParamValidator against bedrock-runtime's
  `ToolSpecification`, plus the `ToolName` pattern (which ParamValidator does not check).
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import strict  # noqa: E402

import botocore.session  # noqa: E402
from botocore.validate import ParamValidator  # noqa: E402
from google.genai import types as gtypes  # noqa: E402
from openai.lib._pydantic import _ensure_strict_json_schema, resolve_ref  # noqa: E402
from openai.types.shared_params import FunctionDefinition  # noqa: E402

UNSUPPORTED = {"allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "oneOf"}
SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")
SUBSCHEMA_LISTS = ("anyOf", "prefixItems")


def _is_object(s: dict) -> bool:
    t = s.get("type")
    return t == "object" or (isinstance(t, list) and "object" in t) or (t is None and isinstance(s.get("properties"), dict))


def strict_rules(s, root, path: str, errors: list[str]) -> None:
    if not isinstance(s, dict):
        return
    for k in UNSUPPORTED & s.keys():
        errors.append(f"{path}/{k}: not supported in strict mode")
    ref = s.get("$ref")
    if ref is not None:
        if len(s) > 1:
            errors.append(f"{path}: $ref with siblings")
        try:
            # `#` (root recursion) is documented as supported; the SDK's helper only resolves
            # `#/…`, which it needs for `$ref`s with siblings alone.
            if ref != "#":
                resolve_ref(root=root, ref=ref)
        except Exception as e:  # noqa: BLE001 - any failure to resolve is the finding
            errors.append(f"{path}: $ref {ref!r} does not resolve: {e}")
    if _is_object(s):
        if s.get("additionalProperties") is not False:
            errors.append(f"{path}: additionalProperties is not false")
        props = s.get("properties", {})
        if list(s.get("required", [])) != list(props.keys()) and set(s.get("required", [])) != set(props.keys()):
            errors.append(f"{path}: required {s.get('required')} != properties {list(props)}")
    for key in SUBSCHEMA_MAPS:
        for name, sub in (s.get(key) or {}).items():
            strict_rules(sub, root, f"{path}/{key}/{name}", errors)
    for key in SUBSCHEMA_LISTS:
        for i, sub in enumerate(s.get(key) or []):
            strict_rules(sub, root, f"{path}/{key}/{i}", errors)
    for key in ("items", "additionalProperties"):
        if isinstance(s.get(key), dict):
            strict_rules(s[key], root, f"{path}/{key}", errors)


def check_openai(tool: dict) -> list[str]:
    errors = [f"FunctionDefinition{e}" for e in strict.validate(FunctionDefinition, tool)]
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", tool.get("name", "")):
        errors.append(f"name {tool.get('name')!r} breaks ^[a-zA-Z0-9_-]{{1,64}}$")
    schema = tool.get("parameters")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return errors + ["root is not an object schema"]
    again = copy.deepcopy(schema)
    try:
        again = _ensure_strict_json_schema(again, path=(), root=again)
    except Exception as e:  # noqa: BLE001
        errors.append(f"the SDK's strict helper fails: {e}")
    else:
        if again != schema:
            errors.append(f"the SDK's strict helper still changes it: {json.dumps(again)[:400]}")
    strict_rules(schema, schema, "", errors)
    return errors


def check_gemini(params: dict) -> list[str]:
    return [f"Schema{e}" for e in strict.validate(gtypes.Schema, params)]


_SPEC = botocore.session.get_session().get_service_model("bedrock-runtime").shape_for("ToolSpecification")


def check_bedrock(spec: dict) -> list[str]:
    spec = {k: v for k, v in spec.items() if v is not None}
    report = ParamValidator().validate(spec, _SPEC)
    errors = [report.generate_report()] if report.has_errors() else []
    if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", spec.get("name", "")):
        errors.append(f"name {spec.get('name')!r} breaks ToolName [a-zA-Z0-9_-]+ (1-64)")
    if spec.get("inputSchema", {}).get("json", {}).get("type") != "object":
        errors.append("inputSchema.json is not an object schema")
    return errors


def main() -> int:
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    failed = 0
    total = 0
    for kind, check in (
        ("openai_strict", check_openai),
        ("gemini_parameters", check_gemini),
        ("bedrock_tool_specs", check_bedrock),
    ):
        for i, case in enumerate(cases.get(kind, [])):
            total += 1
            errors = check(case)
            if errors:
                failed += 1
                print(f"FAIL {kind}[{i}]: " + "; ".join(errors))
                print("     " + json.dumps(case)[:600])
        print(f"{kind}: {len(cases.get(kind, []))} checked")
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
