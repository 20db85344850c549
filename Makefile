# Toolscope: two commands do everything on a fresh Debian machine with rustup, cargo, node, npm.
#   make serve   install what is missing, build, serve on http://127.0.0.1:8080
#   make test    install what is missing (plus Chromium and the SDKs), run every test layer
# Single layers: make lint | test-native | test-sdk | test-wasm | test-e2e; make dist; make size.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(HOME)/.pyenv/shims:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export CHROMEDRIVER := /usr/bin/chromedriver

.PHONY: serve dist test setup setup-test lint test-native test-sdk test-wasm test-e2e size screenshots clean

serve: setup
	trunk serve

dist: setup
	trunk build --release --public-url ./

setup:
	@scripts/setup.sh build

setup-test:
	@scripts/setup.sh test

test: setup-test
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory dist
	$(MAKE) --no-print-directory test-e2e
	$(MAKE) --no-print-directory size

lint:
	cargo fmt --check
	cargo clippy --all-targets --locked -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --all-targets --locked -- -D warnings

# Native: unit tests, golden files, round-trip properties, CLI, and the SDK checks (python).
test-native:
	cargo test --locked

test-sdk:
	cargo test --locked --test sdk --test sdk_stream -- --nocapture

# Components in headless Chromium (wasm-bindgen-test).
test-wasm:
	cargo test --locked --target wasm32-unknown-unknown --test web

# The release build in dist/, served on 127.0.0.1, driven by playwright-core in Chromium.
test-e2e:
	node --test e2e/

size:
	@node scripts/size.mjs dist

screenshots:
	node e2e/screenshots.mjs target/screenshots

clean:
	cargo clean
	rm -rf dist
