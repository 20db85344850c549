"""Bedrock Converse documents against botocore's own service model for `bedrock-runtime`
(strictly: botocore's ParamValidator rejects unknown keys, missing required members and unions
with no or several members).

Requests are validated against the `Converse` operation's input shape as boto3's
`converse(**doc)` takes them: the JSON body plus `modelId` (which travels in the URL).
Responses are validated against the operation's output shape.

ParamValidator checks types, required members, lengths and ranges, but neither enums nor
patterns, and it takes blobs as bytes. This module walks the shape first: blob members (base64
text in JSON) must decode and are turned into bytes, strings must match their enum and pattern.
"""

from __future__ import annotations

import base64
import binascii
import re

import botocore.session
import botocore.validate

_MODEL = botocore.session.get_session().get_service_model("bedrock-runtime")
_OP = _MODEL.operation_model("Converse")
_VALIDATOR = botocore.validate.ParamValidator()


def _walk(value, shape, path: str, errors: list[str]):
    """Blobs → bytes; enums and patterns checked. Returns the converted value."""
    if value is None:
        return value
    t = shape.type_name
    if t == "structure":
        if shape.metadata.get("document") or not isinstance(value, dict):
            return value
        out = {}
        for k, v in value.items():
            member = shape.members.get(k)
            out[k] = _walk(v, member, f"{path}.{k}", errors) if member is not None else v
        return out
    if t == "list" and isinstance(value, list):
        return [_walk(v, shape.member, f"{path}[{i}]", errors) for i, v in enumerate(value)]
    if t == "map" and isinstance(value, dict):
        return {k: _walk(v, shape.value, f"{path}.{k}", errors) for k, v in value.items()}
    if t == "blob" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError) as e:
            errors.append(f"{path}: not base64 ({e})")
            return value
    if t == "string" and isinstance(value, str):
        if shape.enum and value not in shape.enum:
            errors.append(f"{path}: {value!r} is not one of {shape.enum}")
        pattern = shape.metadata.get("pattern")
        if pattern and not re.fullmatch(pattern, value):
            errors.append(f"{path}: {value!r} does not match {pattern}")
    return value


def _validate(doc, shape) -> list[str]:
    if not isinstance(doc, dict):
        return ["the document is not a JSON object"]
    errors: list[str] = []
    params = _walk(doc, shape, "", errors)
    report = _VALIDATOR.validate(params, shape)
    if report.has_errors():
        errors.extend(report.generate_report().splitlines())
    return errors


def validate_request(doc) -> list[str]:
    return _validate(doc, _OP.input_shape)


def validate_response(doc) -> list[str]:
    return _validate(doc, _OP.output_shape)
