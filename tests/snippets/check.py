"""Checks the Python snippets of tests/snippets.rs, all cases in one process.

Usage: check.py MANIFEST.json — a list of {"id", "snippet", "var"}. For each snippet:
1. it parses (ast.parse);
2. the literal assigned to `var` (`body`, or `prompt` for the legacy XML) evaluates with
   ast.literal_eval; its value is reported as JSON;
3. the snippet runs with the providers' modules replaced by stubs that record every call
   (SDK method and keyword arguments, client constructor arguments, httpx URL/headers/json);
   nothing leaves the machine.
Prints one JSON object {id: {"literal": …, "calls": […], "error": …}}.
"""

import ast
import contextlib
import io
import json
import sys
import types

CALLS = []


class Recorder:
    """An object whose attribute chains end in a call that is recorded."""

    def __init__(self, path, client_args):
        self._path = path
        self._client_args = client_args

    def __getattr__(self, name):
        return Recorder(self._path + [name], self._client_args)

    def __call__(self, *args, **kwargs):
        CALLS.append(
            {
                "kind": "sdk",
                "call": ".".join(self._path),
                "client": self._client_args,
                "args": list(args),
                "kwargs": kwargs,
            }
        )
        return Response()


class Response(dict):
    text = "{}"

    def model_dump_json(self, **_):
        return "{}"


def client_class(module, name):
    def make(*args, **kwargs):
        return Recorder([], {"module": module, "class": name, "args": list(args), "kwargs": kwargs})

    return make


def stub_modules():
    mods = {}

    def module(name, **attrs):
        m = types.ModuleType(name)
        for k, v in attrs.items():
            setattr(m, k, v)
        mods[name] = m
        return m

    module("openai", OpenAI=client_class("openai", "OpenAI"))
    module("anthropic", Anthropic=client_class("anthropic", "Anthropic"))
    module("mistralai")
    module("mistralai.client", Mistral=client_class("mistralai.client", "Mistral"))
    module("cohere", ClientV2=client_class("cohere", "ClientV2"))
    module("ollama", Client=client_class("ollama", "Client"))
    module("boto3", client=client_class("boto3", "client"))

    def post(url, headers=None, json=None, timeout=None, **rest):
        CALLS.append({"kind": "httpx", "url": url, "headers": headers, "json": json, "rest": sorted(rest)})
        return Response()

    module("httpx", post=post)
    return mods


def literal_of(tree, var):
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == var for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"no top-level assignment to {var}")


def main():
    cases = json.load(open(sys.argv[1], encoding="utf-8"))
    saved = {k: sys.modules.get(k) for k in stub_modules()}
    out = {}
    for case in cases:
        result = {"literal": None, "calls": [], "error": None}
        try:
            tree = ast.parse(case["snippet"])
            result["literal"] = literal_of(tree, case["var"])
            CALLS.clear()
            sys.modules.update(stub_modules())
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(tree, case["id"], "exec"), {"__name__": "__main__"})
            result["calls"] = list(CALLS)
        except Exception as e:  # reported per case
            result["error"] = f"{type(e).__name__}: {e}"
        out[case["id"]] = result
    for k, v in saved.items():
        if v is None:
            sys.modules.pop(k, None)
        else:
            sys.modules[k] = v
    json.dump(out, sys.stdout, ensure_ascii=False)


main()
