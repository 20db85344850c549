#!/usr/bin/env bash
# Checks the curl snippets of tests/snippets.rs, all cases in one bash process.
#
# Usage: check.sh DIR — DIR/<n>/snippet.sh for each case. Each snippet is sourced in a subshell
# with `curl` replaced by a function that records its arguments (one per line, in
# DIR/<n>/call_<k>.args) and its standard input (DIR/<n>/call_<k>.body); nothing is sent.
# A snippet that bash cannot parse or that fails leaves DIR/<n>/error.
set -u
dir="$1"
for case in "$dir"/*/; do
  (
    calls=0
    curl() {
      calls=$((calls + 1))
      printf '%s\n' "$@" > "${case}call_${calls}.args"
      cat > "${case}call_${calls}.body"
    }
    # shellcheck disable=SC1091
    source "${case}snippet.sh"
  ) 2> "${case}stderr" || echo "exit $?" > "${case}error"
done
