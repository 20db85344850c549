#!/usr/bin/env python3
"""For each provider, the code files outside its own folder that name it.

Counts Rust files under src/ whose code (comments, doc comments and `#[cfg(test)]` items
removed) mentions the provider's name, case-insensitively (`Anthropic`, `ANTHROPIC`,
`anthropic-xml`). A provider's own folder is its format folder(s) under src/formats/.

    python3 scripts/provider-mentions.py [--files]
"""
import os
import re
import sys

PROVIDERS = {
    "openai": ["src/formats/openai_chat", "src/formats/openai_responses"],
    "anthropic": ["src/formats/anthropic", "src/formats/anthropic_xml"],
    "gemini": ["src/formats/gemini"],
    "bedrock": ["src/formats/bedrock"],
    "mistral": ["src/formats/openai_chat"],
    "cohere": ["src/formats/openai_chat"],
    "deepseek": ["src/formats/openai_chat"],
    "ollama": ["src/formats/openai_chat"],
}


def strip_comments(src):
    """The code of a Rust file: comments removed, string literals kept."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"' or (c == "r" and re.match(r'r#*"', src[i:i + 10]) and not src[i - 1:i].isalnum()):
            m = re.match(r'r(#*)"', src[i:]) if c == "r" else None
            if m:
                end = '"' + m.group(1)
                j = src.find(end, i + len(m.group(0)))
                j = n if j < 0 else j + len(end)
            else:
                j = i + 1
                while j < n and src[j] != '"':
                    j += 2 if src[j] == "\\" else 1
                j += 1
            out.append(src[i:j])
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", src[i:i + 4]):
            m = re.match(r"'(\\.|[^\\'])'", src[i:i + 4])
            out.append(m.group(0))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_tests(code):
    """Code without `#[cfg(test)]` items (the attribute, then the item to its closing brace or
    `;`; braces inside string literals are not counted)."""
    out, i = [], 0
    while True:
        j = code.find("#[cfg(test)]", i)
        if j < 0:
            out.append(code[i:])
            return "".join(out)
        out.append(code[i:j])
        k, depth = j + len("#[cfg(test)]"), 0
        while k < len(code):
            c = code[k]
            if c == '"':
                k += 1
                while k < len(code) and code[k] != '"':
                    k += 2 if code[k] == "\\" else 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            elif c == ";" and depth == 0:
                k += 1
                break
            k += 1
        i = k


def code_files(root="src"):
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                yield p, strip_tests(strip_comments(open(p, encoding="utf-8").read())).lower()


def main():
    files = list(code_files())
    show = "--files" in sys.argv
    for name, folders in PROVIDERS.items():
        hits = [p for p, code in files
                if name in code and not any(p.startswith(f + "/") for f in folders)]
        print(f"{name:10} {len(hits):3}")
        if show:
            for p in hits:
                print("    " + p)


if __name__ == "__main__":
    main()
