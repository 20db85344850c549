"""OpenAI Chat Completions documents against the `openai` SDK's own types."""

from __future__ import annotations

from openai.types.chat import ChatCompletion
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

import strict


def validate_request(doc) -> list[str]:
    """Errors of a request body (`POST /v1/chat/completions`, not streaming)."""
    return strict.validate(CompletionCreateParamsNonStreaming, doc)


def validate_response(doc) -> list[str]:
    """Errors of a `chat.completion` response body."""
    return strict.validate(ChatCompletion, doc)
