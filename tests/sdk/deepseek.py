"""DeepSeek Chat Completions documents: the `openai` SDK's types (DeepSeek has no Python SDK of
its own and documents the OpenAI one) plus explicit checks of what DeepSeek does differently
(https://api-docs.deepseek.com/api/create-chat-completion)."""

from __future__ import annotations

import copy

from openai.types.chat import ChatCompletion
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

import strict

TOOL_CHOICE_WORDS = {"none", "auto", "required"}


def _reasoning(message: dict, path: str) -> list[str]:
    """`reasoning_content` is DeepSeek's own message field: a string; removed before the
    OpenAI types see the message."""
    if "reasoning_content" not in message:
        return []
    value = message.pop("reasoning_content")
    return [] if value is None or isinstance(value, str) else [f"{path}/reasoning_content: expected a string"]


def validate_request(doc) -> list[str]:
    """Errors of a request body (`POST https://api.deepseek.com/chat/completions`)."""
    doc = copy.deepcopy(doc)
    errors = []
    if "parallel_tool_calls" in doc:
        errors.append("/parallel_tool_calls: not a DeepSeek parameter")
    if "max_completion_tokens" in doc:
        errors.append("/max_completion_tokens: DeepSeek reads max_tokens")
    choice = doc.get("tool_choice")
    if isinstance(choice, str) and choice not in TOOL_CHOICE_WORDS:
        errors.append(f"/tool_choice: {choice!r} is not one of {sorted(TOOL_CHOICE_WORDS)}")
    if isinstance(choice, dict) and choice.get("type") != "function":
        errors.append("/tool_choice: DeepSeek names one function (no allowed_tools)")
    if "thinking" in doc:
        # DeepSeek's own switch (thinking mode), sent by the OpenAI SDK in `extra_body`:
        # https://api-docs.deepseek.com/guides/thinking_mode
        thinking = doc.pop("thinking")
        if not (isinstance(thinking, dict) and thinking.get("type") in {"enabled", "disabled"}
                and set(thinking) <= {"type"}):
            errors.append(f"/thinking: expected {{\"type\": \"enabled\" | \"disabled\"}}, got {thinking!r}")
    for i, m in enumerate(doc.get("messages", [])):
        if isinstance(m, dict):
            if m.get("role") == "developer":
                errors.append(f"/messages/{i}/role: DeepSeek has no developer role")
            errors += _reasoning(m, f"/messages/{i}")
    return errors + strict.validate(CompletionCreateParamsNonStreaming, doc)


def validate_response(doc) -> list[str]:
    """Errors of a `chat.completion` response body as DeepSeek sends it."""
    doc = copy.deepcopy(doc)
    errors = []
    for i, c in enumerate(doc.get("choices", [])):
        if isinstance(c, dict) and isinstance(c.get("message"), dict):
            errors += _reasoning(c["message"], f"/choices/{i}/message")
            if c.get("finish_reason") not in {
                "stop", "length", "tool_calls", "content_filter", "insufficient_system_resource"
            }:
                errors.append(f"/choices/{i}/finish_reason: {c.get('finish_reason')!r}")
    if errors:
        return errors
    if any(c.get("finish_reason") == "insufficient_system_resource" for c in doc.get("choices", [])):
        return []
    return strict.validate(ChatCompletion, doc)
