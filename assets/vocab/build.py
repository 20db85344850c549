"""Builds the compact vocabularies of src/cost/bpe.rs from tiktoken's `.tiktoken` files.

Usage: python3 assets/vocab/build.py DIR   (DIR holds cl100k_base.tiktoken, o200k_base.tiktoken,
as shipped in tiktoken-rs's assets/ or downloaded by tiktoken)

Output format (`<name>.bin`): raw DEFLATE of
  b"TSV1" | u32 little-endian token count n | n × (u8 length | token bytes), ordered by rank.
Ranks are 0..n-1 without gaps (checked), so a token's rank is its position.
"""
import base64, struct, sys, zlib, hashlib
from pathlib import Path

src = Path(sys.argv[1])
out = Path(__file__).resolve().parent
for name in ["cl100k_base", "o200k_base"]:
    ranks = {}
    for line in (src / f"{name}.tiktoken").read_bytes().splitlines():
        if not line:
            continue
        tok, rank = line.split()
        ranks[int(rank)] = base64.b64decode(tok)
    n = len(ranks)
    assert sorted(ranks) == list(range(n)), "ranks must be contiguous"
    raw = bytearray(b"TSV1" + struct.pack("<I", n))
    for r in range(n):
        t = ranks[r]
        assert 0 < len(t) < 256
        raw += bytes([len(t)]) + t
    c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    data = c.compress(bytes(raw)) + c.flush()
    (out / f"{name}.bin").write_bytes(data)
    print(name, n, "tokens", len(raw), "raw", len(data), "deflated", hashlib.sha256(data).hexdigest()[:16])
