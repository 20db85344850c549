"""MCP transcripts (protocol 2026-07-28) against the spec's own `schema.json` and the `mcp` SDK's
types (strictly: unknown keys fail).

A document is a JSON array of JSON-RPC messages, or one message. Each message is checked
twice: by the JSON Schema of its MCP type (`ListToolsRequest`, `ListToolsResultResponse`,
`CallToolRequest`, `CallToolResultResponse`, `JSONRPCErrorResponse`, else `JSONRPCMessage`),
found by its method or by the request it answers; and by the SDK: the envelope as
`mcp.types.jsonrpc.JSONRPCRequest` / `JSONRPCResponse` / `JSONRPCError`, its params or result
as `PaginatedRequestParams` / `CallToolRequestParams` / `ListToolsResult` / `CallToolResult`.
Requests and responses are the same kind of document (a response holds the model's
`tools/call` requests), so both are validated alike.

validate.py loads this file under a private module name, but runs with this folder first on
`sys.path` (it is the script's folder), where `import mcp` would find this file: the SDK is
therefore imported with this folder off `sys.path`.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import jsonschema

import strict

_HERE = pathlib.Path(__file__).resolve().parent
# The MCP schema kept in the repository (tests/fixtures/spec/mcp-2026-07-28/NOTICE.md).
_SCHEMA_PATH = _HERE.parent / "fixtures" / "spec" / "mcp-2026-07-28" / "schema.json"


def _load_sdk():
    saved_path = list(sys.path)
    stale = sys.modules.get("mcp")
    if stale is not None and pathlib.Path(getattr(stale, "__file__", "") or "").resolve().parent == _HERE:
        sys.modules.pop("mcp", None)
    sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _HERE]
    try:
        types = importlib.import_module("mcp.types")
        jsonrpc = importlib.import_module("mcp.types.jsonrpc")
    finally:
        sys.path[:] = saved_path
    if pathlib.Path(types.__file__).resolve().parent.parent == _HERE:
        raise ImportError("tests/sdk/mcp.py shadowed the mcp package")
    return types, jsonrpc


_TYPES, _JSONRPC = _load_sdk()


_SCHEMA = json.loads(_SCHEMA_PATH.read_text())


def _schema_errors(name: str, value, path: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{name}", "$defs": _SCHEMA["$defs"]}
    )
    return [
        f"{path}{''.join('/' + str(p) for p in e.absolute_path)}: {name}: {e.message}"
        for e in validator.iter_errors(value)
    ]


def _sdk_errors(tp, value, path: str) -> list[str]:
    return [f"{path}{e}" if e.startswith("/") else f"{path}: {e}" for e in strict.validate(tp, value)]


def _meta_errors(meta, path: str) -> list[str]:
    # `RequestParamsMeta` is an open TypedDict (`extra_items=Any`), which strict.py cannot
    # express: check it is an object and leave its keys to the JSON Schema.
    return [] if isinstance(meta, dict) else [f"{path}/_meta: expected an object"]


def _params_errors(tp, params, path: str) -> list[str]:
    if not isinstance(params, dict):
        return [f"{path}: expected an object"]
    rest = {k: v for k, v in params.items() if k != "_meta"}
    errors = _meta_errors(params.get("_meta", {}), path)
    return errors + _sdk_errors(tp, rest, path)


def validate_message(msg, path: str, pending: dict) -> list[str]:
    if not isinstance(msg, dict):
        return [f"{path}: expected a JSON-RPC message object"]
    errors = _schema_errors("JSONRPCMessage", msg, path)
    key = json.dumps(msg.get("id"))
    if "method" in msg:
        method = msg["method"]
        if "id" in msg:
            errors += _sdk_errors(_JSONRPC.JSONRPCRequest, msg, path)
            pending[key] = method
        else:
            errors += _sdk_errors(_JSONRPC.JSONRPCNotification, msg, path)
        if method == "tools/list":
            errors += _schema_errors("ListToolsRequest", msg, path)
            errors += _params_errors(_TYPES.PaginatedRequestParams, msg.get("params"), path + "/params")
        elif method == "tools/call":
            errors += _schema_errors("CallToolRequest", msg, path)
            errors += _params_errors(_TYPES.CallToolRequestParams, msg.get("params"), path + "/params")
        return errors
    if "error" in msg:
        pending.pop(key, None)
        errors += _schema_errors("JSONRPCErrorResponse", msg, path)
        return errors + _sdk_errors(_JSONRPC.JSONRPCError, msg, path)
    errors += _sdk_errors(_JSONRPC.JSONRPCResponse, msg, path)
    method = pending.pop(key, None)
    result = msg.get("result")
    if method is None and isinstance(result, dict):
        method = "tools/list" if "tools" in result else "tools/call" if "content" in result else None
    if method == "tools/list":
        errors += _schema_errors("ListToolsResultResponse", msg, path)
        errors += _sdk_errors(_TYPES.ListToolsResult, result, path + "/result")
    elif method == "tools/call":
        errors += _schema_errors("CallToolResultResponse", msg, path)
        errors += _sdk_errors(_TYPES.CallToolResult, result, path + "/result")
    return errors


def validate_transcript(doc) -> list[str]:
    pending: dict = {}
    if isinstance(doc, list):
        errors = []
        for i, msg in enumerate(doc):
            errors += validate_message(msg, f"/{i}", pending)
        return errors
    return validate_message(doc, "", pending)


def validate_request(doc) -> list[str]:
    return validate_transcript(doc)


def validate_response(doc) -> list[str]:
    errors = validate_transcript(doc)
    messages = doc if isinstance(doc, list) else [doc]
    for i, msg in enumerate(messages):
        if isinstance(msg, dict) and msg.get("method") != "tools/call":
            errors.append(f"/{i}: a response holds tools/call requests only")
    return errors
