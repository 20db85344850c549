#!/usr/bin/env bash
# Install what building and testing Toolscope needs, skipping whatever is already present.
#   scripts/setup.sh build   wasm target, trunk, wasm-bindgen-cli, npm packages (wasm-opt, esbuild, CodeMirror),
#                            Debian binaryen (wasm-split) and chromium (the split's profile run)
#   scripts/setup.sh test    all of the above, plus Chromium + ChromeDriver and the Python SDKs
# Every step checks first, so a warm machine spends a second or two here.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen that Cargo.lock resolved.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/"/, "", $3); print $3; exit}' Cargo.lock)
# pyenv's shims (when the machine has pyenv) so python3 is the one with pip.
export PATH="$HOME/.cargo/bin:$HOME/.pyenv/shims:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 3 minutes)"
  # A debug build of trunk installs twice as fast and is no slower in use.
  CARGO_PROFILE_DEV_DEBUG=false cargo install trunk --locked --debug --version "$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
  # Not --locked: its lock pins a webpki-roots version the registry here lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -d node_modules/playwright-core ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen's wasm-opt, esbuild and CodeMirror, playwright-core)"
  npm ci --no-audit --no-fund
fi

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
# `make dist` splits the main wasm by what a first visit runs (scripts/split.mjs): Binaryen's
# wasm-split (Debian's binaryen; npm's binaryen has no wasm-split) and a headless Chromium to
# record that run in.
if ! command -v wasm-split >/dev/null 2>&1 || [ ! -x /usr/bin/chromium ]; then
  say "installing Debian binaryen (wasm-split) and chromium"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends binaryen chromium
fi

# Dependencies are fetched once, so Trunk (offline) and the tests build without the network.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked

if [ "${1:-build}" = test ]; then
  # The fuzz smoke run (make fuzz-smoke) needs the nightly toolchain (rustup's dist server is
  # reachable here) and cargo-fuzz; if nightly cannot be had, the smoke run says so and skips.
  if ! cargo +nightly --version >/dev/null 2>&1; then
    say "installing the nightly toolchain for the fuzz smoke run"
    rustup toolchain install nightly --profile minimal ||
      say "nightly could not be installed: make fuzz-smoke will skip"
  fi
  if ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (about 2 minutes)"
    cargo install cargo-fuzz --locked --version 0.13.2
  fi
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian chromium and chromium-driver"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium chromium-driver
  fi
  if ! python3 tests/sdk/check_requirements.py tests/sdk/requirements.txt; then
    say "installing the providers' Python SDKs"
    if ! python3 -m pip --version >/dev/null 2>&1; then
      $SUDO apt-get update
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends python3-pip
    fi
    PIP_FLAGS=(--quiet --disable-pip-version-check)
    # Debian's own python3 is "externally managed" (PEP 668); the SDKs are test tools only.
    if python3 -c 'import sys, sysconfig, os; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'; then
      PIP_FLAGS+=(--break-system-packages)
    fi
    python3 -m pip install "${PIP_FLAGS[@]}" -r tests/sdk/requirements.txt
  fi
fi
