#!/usr/bin/env bash
# Seed the fuzz targets' corpora from the golden files, the stream fixtures, the fuzz
# regression inputs and the recorded provider streams and specs. Files are named by content
# hash, so running it again adds nothing twice. Inputs over 64 KiB are left out: they slow
# every execution, and libFuzzer's mutations work on small inputs.
#   fuzz/seed.sh                       every target, into fuzz/corpus/<target>/
#   fuzz/seed.sh stream har            only these
#   SEED_DIR=somewhere fuzz/seed.sh    into somewhere/<target>/ (the smoke run's seeds)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=..
OUT=${SEED_DIR:-corpus}
# tests/fixtures holds everything: golden files, streams, the recorded provider streams, specs.
SOURCES=("$ROOT/tests/fixtures")
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(read_any decode xml stream har share edit schema)

# One hash per file, computed once: "<sha1>  <path>".
mapfile -t hashed < <(find "${SOURCES[@]}" -type f -size -65k \
  \( -name '*.json' -o -name '*.jsonl' -o -name '*.sse' -o -name '*.txt' \) -print0 |
  xargs -0 -r sha1sum | sort -u -k1,1)

# HAR wrappers around the recorded SSE streams, for the HAR and stream targets.
har_seeds=$(mktemp -d)
trap 'rm -rf "$har_seeds"' EXIT
python3 - "$har_seeds" "$ROOT"/tests/fixtures/streams/*.sse <<'PY'
import hashlib, json, os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    body = open(path, encoding="utf-8", errors="replace").read()
    har = json.dumps({"log": {"entries": [{
        "request": {"method": "POST", "url": "https://api.example/v1/chat",
                    "postData": {"text": json.dumps({"model": "m", "stream": True,
                                                     "messages": [{"role": "user", "content": "hi"}]})}},
        "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": body}}}]}})
    name = "har-" + hashlib.sha1(har.encode()).hexdigest()
    open(os.path.join(out, name), "w").write(har)
PY

# Every seed once under its hash, then one bulk copy per target.
seeds=$(mktemp -d)
trap 'rm -rf "$har_seeds" "$seeds"' EXIT
for line in "${hashed[@]}"; do
  ln -s "$(realpath "${line#*  }")" "$seeds/${line%% *}"
done
for t in "${TARGETS[@]}"; do
  dir="$OUT/$t"
  mkdir -p "$dir"
  cp -nL "$seeds"/* "$dir"/
  case "$t" in
    har | stream) cp -n "$har_seeds"/* "$dir"/ ;;
  esac
done
echo "seeded $OUT: $(for t in "${TARGETS[@]}"; do printf '%s=%s ' "$t" "$(ls "$OUT/$t" | wc -l)"; done)"
