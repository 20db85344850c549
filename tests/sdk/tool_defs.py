"""Validate a provider's tool definitions (what `toolscope mcp tools --to <format>` prints)
against that provider's SDK types: the definitions go into a minimal request of the format,
which the format's validator (validate.py's modules, strict: unknown keys fail) checks.

Usage: python3 tests/sdk/tool_defs.py FORMAT FILE
Exit status 1 when the SDK refuses them.
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.append(str(pathlib.Path(__file__).resolve().parent))

import validate  # noqa: E402

# The smallest request of each format around a `tools` array.
REQUESTS = {
    "anthropic": lambda tools: {
        "model": "claude-sonnet-4-5",
        "max_tokens": 16,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": tools,
    },
    "openai-chat": lambda tools: {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": tools,
    },
    "openai-responses": lambda tools: {"model": "gpt-4o", "input": "hi", "tools": tools},
}


def main(argv: list[str]) -> int:
    fmt, path = argv
    tools = json.loads(pathlib.Path(path).read_text())
    if not isinstance(tools, list) or not tools:
        print(f"FAIL {fmt}: expected a non-empty array of tool definitions")
        return 1
    errors = validate.validator(fmt, "request")(REQUESTS[fmt](tools))
    for e in errors[:20]:
        print(f"FAIL {fmt}: {e}")
    if not errors:
        print(f"sdk: {len(tools)} {fmt} tool definitions accepted")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
