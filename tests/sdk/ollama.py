"""Ollama `/api/chat` documents against the `ollama` SDK's own types (`ChatRequest`,
`ChatResponse`, `Message`, `Tool`). `ChatRequest.messages` also accepts any mapping, so each
message is checked against `Message` explicitly; tool parameters are checked as a JSON Schema
object (the SDK's `Tool.Parameters` declares only the keywords the server keeps)."""

from __future__ import annotations

import copy

import strict


_, _types = strict.import_sdk("ollama", "ollama._types")
ChatRequest, ChatResponse, Message, Tool = (
    _types.ChatRequest,
    _types.ChatResponse,
    _types.Message,
    _types.Tool,
)


def validate_request(doc) -> list[str]:
    """Errors of a request body (`POST /api/chat`)."""
    if not isinstance(doc, dict):
        return ["/: expected an object"]
    doc = copy.deepcopy(doc)
    errors = []
    for i, m in enumerate(doc.get("messages", [])):
        errors += [f"/messages/{i}{e}" for e in strict.validate(Message, m)]
        for k, c in enumerate((m or {}).get("tool_calls") or []):
            if set(c) != {"function"}:
                errors.append(f"/messages/{i}/tool_calls/{k}: Ollama calls are {{function}} alone")
    for k, t in enumerate(doc.get("tools", []) or []):
        params = (t.get("function") or {}).pop("parameters", None)
        if params is not None and not (isinstance(params, dict) and params.get("type") == "object"):
            errors.append(f"/tools/{k}/function/parameters: expected an object schema")
        errors += [f"/tools/{k}{e}" for e in strict.validate(Tool, t)]
    doc.pop("tools", None)
    return errors + strict.validate(ChatRequest, doc)


def validate_response(doc) -> list[str]:
    """Errors of a non-streamed chat response body."""
    errors = []
    if isinstance(doc, dict):
        if doc.get("done") is not True:
            errors.append("/done: a complete response says true")
        if doc.get("done_reason") not in (None, "stop", "length", "load", "unload"):
            errors.append(f"/done_reason: {doc.get('done_reason')!r}")
    return errors + strict.validate(ChatResponse, doc)
