"""Gemini `generateContent` bodies against the google-genai SDK types.

The SDK has no type for the REST request body (it builds it from `GenerateContentParameters`),
so the request is checked key by key with the types the SDK writes there; any other top-level
key is a failure. The response is a `GenerateContentResponse`.
"""

from __future__ import annotations

from google.genai import types

import strict

# Top-level request fields and the SDK type of each (models.py `_GenerateContentConfig_to_mldev`
# writes these next to `contents`).
REQUEST_FIELDS = {
    "contents": list[types.Content],
    "systemInstruction": types.Content,
    "tools": list[types.Tool],
    "toolConfig": types.ToolConfig,
    "generationConfig": types.GenerationConfig,
    "safetySettings": list[types.SafetySetting],
    "cachedContent": str,
    "labels": dict[str, str],
}


def validate_request(doc) -> list[str]:
    if not isinstance(doc, dict):
        return ["/: expected an object"]
    errors = []
    if "contents" not in doc:
        errors.append("/: missing required key 'contents'")
    for key, value in doc.items():
        tp = REQUEST_FIELDS.get(key)
        if tp is None:
            errors.append(f"/{key}: unknown top-level key of a generateContent request")
            continue
        errors += [f"/{key}{e}" if e.startswith("/") else f"/{key}: {e}" for e in strict.validate(tp, value)]
    return errors


def validate_response(doc) -> list[str]:
    return strict.validate(types.GenerateContentResponse, doc)
