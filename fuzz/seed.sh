#!/usr/bin/env bash
# Seed every fuzz target's corpus (fuzz/corpus/<target>/) from the golden files, the stream
# fixtures and the shared recorded streams and specs. Files are named by content hash, so
# running it again adds nothing twice. Inputs over 64 KiB are left out: they slow every
# execution and libFuzzer's mutations work on small inputs.
#   fuzz/seed.sh              all targets
#   fuzz/seed.sh stream har   only these
set -euo pipefail
cd "$(dirname "$0")"
ROOT=..
# ../shared/fixtures beside the repository (worktrees: /work/shared/fixtures).
SOURCES=("$ROOT/tests/fixtures")
for d in "$ROOT/../shared/fixtures" /work/shared/fixtures; do
  [ -d "$d" ] && SOURCES+=("$d")
done
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(read_any decode xml stream har share edit schema)

files=$(find "${SOURCES[@]}" -type f -size -65k \( -name '*.json' -o -name '*.jsonl' -o -name '*.sse' -o -name '*.txt' \) 2>/dev/null | sort -u)
for t in "${TARGETS[@]}"; do
  dir="corpus/$t"
  mkdir -p "$dir"
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    h=$(sha1sum "$f" | cut -c1-40)
    [ -e "$dir/$h" ] || cp "$f" "$dir/$h"
  done <<<"$files"
  # Target-specific seeds: HAR wrappers around the recorded streams, share links.
  case "$t" in
    har | stream)
      for s in "$ROOT"/tests/fixtures/streams/*.sse; do
        [ -e "$s" ] || continue
        h=$(sha1sum "$s" | cut -c1-40)
        python3 - "$s" >"$dir/har-$h" <<'PY'
import json, sys
body = open(sys.argv[1], encoding="utf-8", errors="replace").read()
print(json.dumps({"log": {"entries": [{
    "request": {"method": "POST", "url": "https://api.example/v1/chat",
                "postData": {"text": json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]})}},
    "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": body}}}]}}))
PY
      done
      ;;
  esac
done
echo "seeded: $(for t in "${TARGETS[@]}"; do printf '%s=%s ' "$t" "$(ls "corpus/$t" | wc -l)"; done)"
