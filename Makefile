# Toolscope: two commands do everything on a fresh Debian machine with rustup, cargo, node, npm.
#   make serve   install what is missing, build, serve on http://127.0.0.1:8080
#   make test    install what is missing (plus Chromium and the SDKs), run every test layer
# Single layers: make lint | test-native | test-sdk | test-wasm | test-e2e; make dist; make size.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(HOME)/.pyenv/shims:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export CHROMEDRIVER := /usr/bin/chromedriver

.PHONY: serve dist test setup setup-test lint test-native fuzz-smoke test-sdk test-wasm test-e2e size bench bench-page screenshots clean

serve: setup
	trunk serve

# The wasm is built with Cargo.toml's size profile (opt-level "z"), native builds with the
# speed profile (`release`, opt-level 3). The profile is Trunk's `--cargo-profile`: it applies
# to every rust link of index.html, so a second wasm crate gets the same size settings.
WASM_PROFILE := wasm-release

# After Trunk: the first example's panes into index.html as static text (the native CLI in its
# debug build, which `cargo test` has already made), styles and boot script inline, the
# CSP hash again, the main wasm split by what a first visit runs (scripts/split.mjs: it leaves
# the inline scripts alone), the service worker's file list, then .br/.gz next to every file.
dist: setup
	trunk build --release --cargo-profile $(WASM_PROFILE) --public-url ./
	cargo build --locked --quiet --bin toolscope
	target/debug/toolscope prerender dist/index.html > dist/index.html.tmp
	mv dist/index.html.tmp dist/index.html
	node scripts/firstpaint.mjs dist
	node scripts/csp.mjs dist
	node scripts/split.mjs dist
	node scripts/sw.mjs dist
	node scripts/precompress.mjs dist

setup:
	@scripts/setup.sh build

setup-test:
	@scripts/setup.sh test

test: setup-test
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory dist
	$(MAKE) --no-print-directory test-e2e
	$(MAKE) --no-print-directory size

lint:
	scripts/check-standalone.sh
	cargo fmt --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy --workspace --target wasm32-unknown-unknown --all-targets --locked -- -D warnings

# Native: unit tests, golden files, round-trip properties, CLI, and the SDK checks (python).
test-native:
	cargo test --locked --workspace

# Every fuzz target (fuzz/) for a few seconds over seeds from the fixtures; fails on a crash.
# Skipped, saying so, without rustup's nightly or cargo-fuzz. Long runs: fuzz/README.md.
FUZZ_TARGETS := read_any decode xml stream har share edit schema
fuzz-smoke:
	@if ! cargo +nightly --version >/dev/null 2>&1 || ! cargo fuzz --version >/dev/null 2>&1; then \
	  echo "fuzz-smoke: skipped (needs the nightly toolchain and cargo-fuzz)"; exit 0; fi; \
	rm -rf fuzz/target/smoke && SEED_DIR=target/smoke/seeds fuzz/seed.sh >/dev/null && \
	cargo +nightly fuzz build -O && \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/target/smoke/new/$$t; \
	  if ! cargo +nightly fuzz run -O $$t fuzz/target/smoke/new/$$t fuzz/target/smoke/seeds/$$t -- \
	      -max_total_time=5 -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	      -artifact_prefix=fuzz/target/smoke/ -print_final_stats=1 >fuzz/target/smoke/$$t.log 2>&1; then \
	    tail -40 fuzz/target/smoke/$$t.log; \
	    echo "fuzz-smoke: $$t failed; the input is in fuzz/target/smoke/"; exit 1; fi; \
	  echo "fuzz-smoke: $$t $$(grep -o 'number_of_executed_units: [0-9]*' fuzz/target/smoke/$$t.log | cut -d' ' -f2) runs"; \
	done

test-sdk:
	cargo test --locked --test it -- --nocapture sdk:: sdk_stream::

# Components in headless Chromium (wasm-bindgen-test).
test-wasm:
	cargo test --locked --target wasm32-unknown-unknown --test web

# The release build in dist/, served on 127.0.0.1, driven by playwright-core in Chromium.
test-e2e:
	node --test e2e/

size:
	@node scripts/size.mjs dist

# The page's figures, median / worst: keystroke to frame, a 1,000-message paste, memory.
bench-page: dist
	node scripts/bench-page.mjs

screenshots:
	node e2e/screenshots.mjs target/screenshots

# Figures, not tests (nothing is asserted): OpenAI Chat -> Anthropic against its floor (a bare
# serde_json parse + pretty print) and LiteLLM; stream assembly against the openai and anthropic
# SDK accumulators; share-link length against lz-string. Everything runs under nice. LiteLLM
# lives in a venv under target/ (benches/requirements.txt, not the test requirements); the SDKs
# are the test ones (tests/sdk/requirements.txt: `make setup-test` installs them).
BENCH_VENV := target/bench-venv
bench: setup
	@test -x $(BENCH_VENV)/bin/python || { python3 -m venv $(BENCH_VENV) && \
	  $(BENCH_VENV)/bin/pip install --quiet --disable-pip-version-check -r benches/requirements.txt; }
	nice -n 10 cargo bench --locked --bench convert --bench stream --bench links
	nice -n 10 $(BENCH_VENV)/bin/python scripts/bench-competitors.py litellm
	nice -n 10 python3 scripts/bench-competitors.py sdk
	nice -n 10 node scripts/bench-links.mjs
	@node scripts/bench-table.mjs

clean:
	cargo clean
	rm -rf dist
