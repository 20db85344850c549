#!/usr/bin/env bash
# The repository stands alone: no tracked file may read from a directory beside or above the
# checkout (a fresh clone has nothing there) or from an absolute path of one machine.
set -euo pipefail
cd "$(dirname "$0")/.."
hits=$(git grep -nE '\.\./shared|/work/(shared|wt|main)\b|/root/|/home/[a-z]+/' -- \
  ':!*.md' ':!scripts/check-standalone.sh' ':!package-lock.json' ':!Cargo.lock' || true)
if [ -n "$hits" ]; then
  echo "These lines reach outside the repository; copy what they need into it:" >&2
  echo "$hits" >&2
  exit 1
fi
