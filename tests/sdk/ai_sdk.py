"""AI SDK documents, checked by the npm `ai` package's own zod schemas: this module hands each
document to one long-lived `node tests/sdk/ai_sdk.mjs` (needs `npm ci` for `ai`)."""

from __future__ import annotations

import json
import pathlib
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
_node = None


def _check(kind: str, doc) -> list[str]:
    global _node
    if _node is None:
        _node = subprocess.Popen(
            ["node", str(HERE / "ai_sdk.mjs")],
            cwd=HERE.parent.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    _node.stdin.write(json.dumps({"kind": kind, "doc": doc}) + "\n")
    _node.stdin.flush()
    line = _node.stdout.readline()
    if not line:
        return ["node tests/sdk/ai_sdk.mjs stopped (is `ai` installed? run npm ci)"]
    return json.loads(line)["errors"]


def validate_request(doc) -> list[str]:
    return _check("request", doc)


def validate_response(doc) -> list[str]:
    return _check("response", doc)
