"""Anthropic Messages documents against the `anthropic` SDK's own types (strictly: unknown keys
fail). Requests: `MessageCreateParamsNonStreaming` (a TypedDict); responses: `Message` (a
pydantic model).

validate.py imports this file as the module `anthropic` (named after the format id), which
shadows the SDK package of the same name. The SDK is therefore imported with this folder off
`sys.path`, and put back under its name while a document is validated (the SDK resolves its
own annotations and lazy imports through `sys.modules["anthropic"]`).
"""

from __future__ import annotations

import contextlib
import importlib
import pathlib
import sys

import strict

_HERE = pathlib.Path(__file__).resolve().parent


def _load_sdk():
    me = sys.modules.get(__name__)
    saved_path = list(sys.path)
    sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _HERE]
    sys.modules.pop("anthropic", None)
    try:
        sdk = importlib.import_module("anthropic")
        params = importlib.import_module("anthropic.types.message_create_params")
        types = importlib.import_module("anthropic.types")
    finally:
        sys.path[:] = saved_path
        if me is not None:
            sys.modules[__name__] = me
    return sdk, params.MessageCreateParamsNonStreaming, types.Message


_SDK, _REQUEST, _RESPONSE = _load_sdk()


@contextlib.contextmanager
def _sdk_in_place():
    me = sys.modules.get("anthropic")
    sys.modules["anthropic"] = _SDK
    try:
        yield
    finally:
        if me is not None:
            sys.modules["anthropic"] = me


def validate_request(doc) -> list[str]:
    with _sdk_in_place():
        return strict.validate(_REQUEST, doc)


def validate_response(doc) -> list[str]:
    with _sdk_in_place():
        return strict.validate(_RESPONSE, doc)
