"""OpenAI Responses documents against the `openai` SDK's own types.

Requests: `ResponseCreateParamsNonStreaming` (the body of `POST /v1/responses`); responses:
`Response`. Both are checked strictly (unknown keys fail) by `strict.validate`.
"""

from __future__ import annotations

from openai.types.responses import Response
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

import strict


def validate_request(doc) -> list[str]:
    return strict.validate(ResponseCreateParamsNonStreaming, doc)


def validate_response(doc) -> list[str]:
    return strict.validate(Response, doc)
