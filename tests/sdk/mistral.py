"""Mistral chat documents against the `mistralai` SDK's own types
(`mistralai.client.models.ChatCompletionRequest` / `ChatCompletionResponse`), plus the rules
the types do not spell: call ids of exactly 9 alphanumerics, paired in call and result, and
tool messages that name the tool.

Neither `mistral.py` nor the package path clash: the SDK is imported as `mistralai`."""

from __future__ import annotations

import re

from mistralai.client.models import ChatCompletionRequest, ChatCompletionResponse

import strict

ID = re.compile(r"^[A-Za-z0-9]{9}$")


def _ids(messages, prefix: str) -> list[str]:
    errors = []
    for i, m in enumerate(messages or []):
        if not isinstance(m, dict):
            continue
        for k, c in enumerate(m.get("tool_calls") or []):
            if not ID.match(str(c.get("id", ""))):
                errors.append(f"{prefix}/{i}/tool_calls/{k}/id: {c.get('id')!r} is not 9 alphanumerics")
        if m.get("role") == "tool":
            if not ID.match(str(m.get("tool_call_id", ""))):
                errors.append(f"{prefix}/{i}/tool_call_id: {m.get('tool_call_id')!r} is not 9 alphanumerics")
    return errors


def validate_request(doc) -> list[str]:
    """Errors of a request body (`POST https://api.mistral.ai/v1/chat/completions`)."""
    messages = doc.get("messages", [])
    errors = _ids(messages, "/messages")
    calls = {
        c.get("id"): c.get("function", {}).get("name")
        for m in messages
        if isinstance(m, dict)
        for c in (m.get("tool_calls") or [])
    }
    for i, m in enumerate(messages):
        if isinstance(m, dict) and m.get("role") == "tool" and m.get("tool_call_id") in calls:
            if not isinstance(m.get("name"), str):
                errors.append(f"/messages/{i}/name: a tool message names the tool")
    return errors + strict.validate(ChatCompletionRequest, doc)


def validate_response(doc) -> list[str]:
    """Errors of a chat completion response body."""
    errors = []
    for i, c in enumerate(doc.get("choices", [])):
        if isinstance(c, dict) and isinstance(c.get("message"), dict):
            errors += _ids([c["message"]], f"/choices/{i}/message")
    return errors + strict.validate(ChatCompletionResponse, doc)
