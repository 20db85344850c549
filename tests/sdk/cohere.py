"""Cohere Chat v2 documents against the `cohere` SDK's own types: the parameters of
`cohere.ClientV2.chat` (the request body has no type of its own) and `V2ChatResponse`. The
SDK's unions for `tool_choice` and `finish_reason` end in `Any`, so their values are checked
explicitly."""

from __future__ import annotations

import inspect

import strict


cohere, _response = strict.import_sdk("cohere", "cohere.v2.types.v2chat_response")
V2ChatResponse = _response.V2ChatResponse

TOOL_CHOICE = {"REQUIRED", "NONE"}
FINISH = {"COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR", "TIMEOUT"}


def _params():
    sig = inspect.signature(cohere.ClientV2.chat)
    return {
        name: p
        for name, p in sig.parameters.items()
        if name not in ("self", "request_options")
    }


def validate_request(doc) -> list[str]:
    """Errors of a request body (`POST https://api.cohere.com/v2/chat`)."""
    if not isinstance(doc, dict):
        return ["/: expected an object"]
    params = _params()
    errors = []
    for key, value in doc.items():
        if key not in params:
            errors.append(f"/{key}: unknown key for V2 chat")
            continue
        errors += strict.check(params[key].annotation, value, f"/{key}")
    for name, p in params.items():
        if p.default is inspect.Parameter.empty and name not in doc:
            errors.append(f"/: missing required key {name!r}")
    if "tool_choice" in doc and doc["tool_choice"] not in TOOL_CHOICE:
        errors.append(f"/tool_choice: {doc['tool_choice']!r} is not one of {sorted(TOOL_CHOICE)}")
    for i, m in enumerate(doc.get("messages", [])):
        if isinstance(m, dict) and m.get("role") == "tool" and not m.get("tool_call_id"):
            errors.append(f"/messages/{i}/tool_call_id: required")
    return errors


def validate_response(doc) -> list[str]:
    """Errors of a chat response body."""
    errors = []
    if isinstance(doc, dict) and doc.get("finish_reason") not in FINISH:
        errors.append(f"/finish_reason: {doc.get('finish_reason')!r} is not one of {sorted(FINISH)}")
    return errors + strict.validate(V2ChatResponse, doc)
