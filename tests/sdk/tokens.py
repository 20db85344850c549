"""External truth for src/cost: OpenAI's own `tiktoken` and `openai_harmony` packages.

Usage:
  python3 tests/sdk/tokens.py tokens CASES.json    # [{"encoding", "text", "tokens"}]
  python3 tests/sdk/tokens.py harmony CASES.json   # [{"tools": [...], "section": "..."}]

Both read the vocabularies from the repository's compact files (assets/vocab/*.bin, see
assets/vocab/build.py), so nothing is downloaded: `tokens` builds a `tiktoken.Encoding` with
tiktoken's published patterns; `harmony` writes o200k_base.tiktoken into a temporary directory
for openai_harmony (TIKTOKEN_ENCODINGS_BASE) and renders a developer message with the tools.
Exit 1 with the first differences on any mismatch.
"""

import base64
import json
import os
import struct
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# tiktoken_ext/openai_public.py (tiktoken 0.14).
PATTERNS = {
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k_base": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
}
SPECIAL = {"cl100k_base": {"<|endoftext|>": 100257}, "o200k_base": {"<|endoftext|>": 199999}}


def ranks(name):
    raw = zlib.decompress((ROOT / "assets" / "vocab" / f"{name}.bin").read_bytes(), -15)
    assert raw[:4] == b"TSV1"
    (n,) = struct.unpack("<I", raw[4:8])
    out, pos = {}, 8
    for rank in range(n):
        ln = raw[pos]
        out[raw[pos + 1 : pos + 1 + ln]] = rank
        pos += 1 + ln
    return out


def check_tokens(cases):
    import tiktoken

    encs = {}
    bad = []
    for c in cases:
        name = c["encoding"]
        if name not in encs:
            encs[name] = tiktoken.Encoding(
                name=name, pat_str=PATTERNS[name], mergeable_ranks=ranks(name), special_tokens=SPECIAL[name]
            )
        want = encs[name].encode_ordinary(c["text"])
        if want != c["tokens"]:
            bad.append((name, c["text"], want, c["tokens"]))
    for name, text, want, got in bad[:10]:
        print(f"{name} {text!r}\n  tiktoken {want}\n  ours     {got}")
    print(f"tokens: {len(cases) - len(bad)}/{len(cases)} agree with tiktoken {tiktoken.__version__}")
    return not bad


def check_harmony(cases):
    tmp = tempfile.mkdtemp()
    with open(os.path.join(tmp, "o200k_base.tiktoken"), "wb") as f:
        for tok, rank in sorted(ranks("o200k_base").items(), key=lambda kv: kv[1]):
            f.write(base64.b64encode(tok) + b" " + str(rank).encode() + b"\n")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = tmp
    from openai_harmony import (
        Conversation,
        DeveloperContent,
        HarmonyEncodingName,
        Message,
        Role,
        ToolDescription,
        load_harmony_encoding,
    )

    enc = load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)
    bad = 0
    for c in cases:
        tools = [ToolDescription.new(t["name"], t["description"], parameters=t.get("parameters")) for t in c["tools"]]
        dev = DeveloperContent.new().with_function_tools(tools)
        convo = Conversation.from_messages([Message.from_role_and_content(Role.DEVELOPER, dev)])
        text = enc.decode_utf8(enc.render_conversation(convo))
        want = text.removeprefix("<|start|>developer<|message|>").removesuffix("<|end|>")
        if want != c["section"]:
            bad += 1
            if bad <= 3:
                print(f"harmony differs:\n--- harmony\n{want}\n--- ours\n{c['section']}")
    print(f"harmony: {len(cases) - bad}/{len(cases)} renderings identical")
    return bad == 0


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    ok = check_tokens(cases) if mode == "tokens" else check_harmony(cases)
    sys.exit(0 if ok else 1)
