# Two commands set everything up on a fresh machine:
#   make serve   build the post and the widget, serve them on http://127.0.0.1:$(PORT)
#   make test    every check: fmt, clippy, native tests, Python SDK checks, browser tests
# Both install what is missing (wasm target, wasm-bindgen-cli, wasm-opt, Chromium) from the
# package registries only.

SHELL := /bin/bash
PORT ?= 8080
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/.tools/node/node_modules/.bin:$(PATH)

# Reference data (CRDs, shipped runtimes, examples): the shared folder when present, else the
# pinned upstream files fetched into .tools/reference.
SHARED_REFERENCE := $(abspath $(CURDIR)/../shared/reference)
TRAINER_REFERENCE ?= $(if $(wildcard $(SHARED_REFERENCE)/v2-crds),$(SHARED_REFERENCE),$(CURDIR)/.tools/reference)
export TRAINER_REFERENCE
# The real V1 jobs of other people (crates/core/tests/real_v1.rs): the shared folder beside the repository.
TRAINER_REAL_V1 ?= $(abspath $(CURDIR)/../shared/real-v1)
export TRAINER_REAL_V1

CHROMEDRIVER ?= $(shell command -v chromedriver 2>/dev/null || echo /usr/bin/chromedriver)
export WASM_BINDGEN_TEST_WEBDRIVER_JSON := $(CURDIR)/webdriver.json
export WASM_BINDGEN_TEST_TIMEOUT ?= 120

.PHONY: all serve dist kits package consumers consumers-run hosts test test-baseline test-native test-python test-training test-browser test-e2e test-hosts e2e-run hosts-run print-explorer examples bench bench-sizes lint lint-core-features lint-wasm-modules lint-scripts fuzz tools reference wheels post fallback clean wheel test-wheel test-pre-commit

all: test

tools:
	@scripts/install-tools.sh build browser

reference:
	@[[ -d "$(TRAINER_REFERENCE)/v2-crds" ]] || scripts/fetch-reference.sh "$(TRAINER_REFERENCE)"

wheels:
	@scripts/fetch-wheels.sh

# The site, and the drop-in kits for the three real sites in dist/kits (scripts/build-kits.sh).
dist:
	@scripts/install-tools.sh build kits package
	scripts/build-dist.sh

kits: dist

# The npm package `trainer-v2-explorer` in dist/npm/ (scripts/build-package.sh, run by make dist):
# npm pack of the element, the widget and its modules, checked by publint and attw.
package: dist

# The package's consumer sites (tests/consumers: plain HTML, Vite, Docusaurus), each installing
# the tarball, built into target/consumers; then their tests in Chromium and Firefox.
consumers: package
	scripts/build-consumers.sh
	@$(MAKE) --no-print-directory consumers-run

# The consumer sites' tests on what `make consumers` built.
consumers-run:
	@scripts/install-tools.sh browser firefox
	PLAYWRIGHT_CORE=$(CURDIR)/.tools/node/node_modules/playwright-core AXE_CORE=$(CURDIR)/.tools/node/node_modules/axe-core/axe.min.js \
	  GECKODRIVER=$$(command -v geckodriver) node --test tests/e2e/consumers.test.mjs

serve: dist
	python3 scripts/serve.py --dir dist --port $(PORT)

# Sizes, time to interactive, toggle latency, migrate throughput; writes BENCHMARKS.md and
# fails only when a budget is missed.
bench: dist
	@scripts/install-tools.sh browser bench
	scripts/bench.sh

# Only the download sizes of make bench and their budgets, rewritten in place in BENCHMARKS.md
# (scripts/bench-sizes.sh): no browser, no native runs.
bench-sizes: dist
	scripts/bench-sizes.sh

# libFuzzer on the input door, each command and each wasm front end (fuzz/, scripts/fuzz.sh):
# FUZZ_SECONDS per target. make test runs the same for 8 s each, in the background.
FUZZ_SECONDS ?= 300
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

# Regenerates the static snippets inside index.html's mount points from the core.
post:
	cargo run -q --bin trainer-explorer -- post --out index.html

fallback:
	cargo run -q --bin trainer-explorer -- fallback index.html --out index.html

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p trainer-v2-explorer --lib --tests -- -D warnings
	@$(MAKE) --no-print-directory lint-core-features
	@$(MAKE) --no-print-directory lint-wasm-modules
	@$(MAKE) --no-print-directory lint-scripts

# Our shell, Python and JS: shellcheck and ruff (PyPI, in .tools/venv-lint), eslint (npm, in
# .tools/node), at the versions tools/ pins; configured by ruff.toml and eslint.config.mjs. Then
# every repository path a file names must exist (scripts/check-paths.py), every path and Rust item
# ARCHITECTURE.md names too (scripts/check-architecture.py), and the widget and the core without
# features compile no CEL or YAML crate (scripts/check-light-core.sh).
lint-scripts:
	@scripts/install-tools.sh lint
	.tools/venv-lint/bin/shellcheck $$(git ls-files '*.sh') .ci/run
	.tools/venv-lint/bin/ruff check --quiet .
	eslint .
	python3 scripts/check-paths.py
	python3 scripts/check-architecture.py
	scripts/check-light-core.sh

# explorer-core, then explorer-html (its views), each with no feature, then each feature alone (the
# libraries only: their tests' dev-dependencies turn `migrate` on). An item one feature's modules
# use carries that feature's #[cfg], which a build with every feature cannot check: the
# explain-only build once failed while scripts/build-dist.sh built trainer-v2-explain in one cargo
# call beside the migrate module, and the views are built with `upgrade` alone by the upgrade
# module (lint-wasm-modules lints the four modules in one call, their features unified). Each
# feature set of the core is checked once here and reused for the views' check of the same set.
# The features are read from each crate's Cargo.toml, so a new one is linted without an edit here.
lint-core-features:
	for package in explorer-core explorer-html; do \
		echo "$$package with no feature"; \
		cargo clippy -p $$package --no-default-features -- -D warnings || exit 1; \
		features=$$(cargo metadata --no-deps --format-version 1 | python3 -c 'import json, sys; print(*(f for p in json.load(sys.stdin)["packages"] if p["name"] == sys.argv[1] for f in p["features"] if f != "default"))' $$package) && \
		test -n "$$features" || exit 1; \
		for feature in $$features; do \
			echo "$$package with only $$feature"; \
			cargo clippy -p $$package --no-default-features --features $$feature -- -D warnings || exit 1; \
		done; \
	done

# The converter, explain and upgrade modules (crates/migrate-wasm and its allocator
# crates/migrate-alloc, crates/explain-wasm, crates/upgrade-wasm), linted for wasm32
# with the features they ship with. A check of their own, not a linted dist build: clippy-driver
# compiles with MIR optimizations off, and the wasm readers download must be rustc's.
lint-wasm-modules:
	cargo clippy --target wasm32-unknown-unknown -p trainer-v2-migrate -p trainer-v2-migrate-alloc -p trainer-v2-explain -p trainer-v2-upgrade --all-targets -- -D warnings

# The CLI the checks below run: the one `cargo test` builds, or $TRAINER_EXPLORER when the caller
# built it already (scripts/test-all.sh). A plain `cargo build` would compile our crate and a few
# dependencies once more (scripts/explorer.sh says why).
EXPLORER := $(or $(TRAINER_EXPLORER),$(or $(CARGO_TARGET_DIR),target)/debug/trainer-explorer)
print-explorer:
	@echo $(EXPLORER)

test-native: reference
	cargo test
	$(EXPLORER) post --check

# For every Trainer release line: every Python snippet must parse and bind to the real signatures
# of the SDK that release pairs with (read from the wheels' METADATA). Then the data scientist's
# Python panes run with those real SDKs (venvs under .tools, only the Kubernetes API faked,
# runtimes from that release's manifests) and must create the job their YAML pane shows;
# --self-test first shows each guard fails on its defect.
test-python: wheels
	python3 tests/python/check_snippets.py --wheels .tools/sdk-wheels --self-test
	$(if $(TRAINER_EXPLORER),,cargo test -q --no-run)
	python3 tests/python/check_snippets.py --wheels .tools/sdk-wheels --explorer $(EXPLORER) \
	  'framework=pytorch&nodes=4&gpus=2&procs=4&queue=team-q&namespace=team-a&image=registry.example.com/t:1' \
	  'framework=pytorch&scope=namespaced&namespace=team-a' \
	  'framework=tensorflow&nodes=3&gpus=1&queue=q&namespace=ml&image=tensorflow/tensorflow:2.16.1' \
	  'framework=deepspeed&gpus=0&namespace=ml&queue=q' \
	  'framework=torchtune&model=qwen2.5-1.5b&dataset=hf://org/ds&gpus=4&queue=q&namespace=ml' \
	  'framework=torchtune&model=llama3.2-3b&gpus=0' \
	  'framework=xgboost&scope=namespaced&namespace=team-a&procs=2'
	@scripts/fetch-sdk-venvs.sh
	python3 tests/python/run_snippets.py --explorer $(EXPLORER) --self-test
	python3 tests/python/run_snippets.py --explorer $(EXPLORER)

# The training code of the data scientist's panes, run with the real frameworks' CPU builds (torch
# from Debian, JAX and XGBoost from PyPI, installed by scripts/fetch-framework-venvs.sh): every
# job as two local processes with the command and env the controller gives each pod, in a
# network namespace of its own (root). --self-test first shows it fails on the JAX pane's old defect.
# run_local.py runs the post's local-execution snippet with SDK 0.5.0's LocalProcessBackend, for real.
# TRAINING_FRAMEWORKS (default: every one) limits the runs to the frameworks it names, among
# pytorch, jax, xgboost, mlx, tensorflow and paddle (make test-baseline leaves out the last two).
test-training:
	$(if $(TRAINER_EXPLORER),,cargo test -q --no-run)
	@scripts/fetch-framework-venvs.sh
	python3 tests/python/run_training.py --explorer $(EXPLORER) --self-test
	python3 tests/python/run_training.py --explorer $(EXPLORER) $(TRAINING_FRAMEWORKS)
	@scripts/fetch-sdk-venvs.sh kubeflow==0.5.0
	python3 tests/python/run_local.py --explorer $(EXPLORER)

# The wasm-bindgen browser tests, in headless Chromium and then headless Firefox ESR.
test-browser:
	@scripts/install-tools.sh build browser firefox
	CHROMEDRIVER=$(CHROMEDRIVER) cargo test --target wasm32-unknown-unknown -p trainer-v2-explorer --test browser
	env -u CHROMEDRIVER GECKODRIVER=$$(command -v geckodriver) cargo test --target wasm32-unknown-unknown -p trainer-v2-explorer --test browser

# Every check above, each once: scripts/test-all.sh runs them in an order that overlaps the
# installs with cargo's work, and the CPU work that waits on no page (fuzzing, the Python checks,
# training, the wheel, the wasm tests) at a low priority beside the browser stages. It installs make
# tools' set itself, once its background installs have started (npm ci of the npm tools: 12.6 s
# wall on a fresh clone, no longer before everything else).
test:
	scripts/test-all.sh

# make test without the checks this round added to it (the wheel, sdist and pre-commit hook, the
# npm package's consumer sites, the TensorFlow and PaddlePaddle training runs, bounded fuzzing):
# issue 37 times what make test checked when it was filed (12 minutes on 2 idle cores) apart from
# the whole suite (25). Every other check runs as in make test, the ones added since included.
test-baseline:
	scripts/test-all.sh --baseline

clean:
	rm -rf dist target/python

# The CLI as a Python wheel (manylinux2014 x86_64) and its sdist, in dist/python/
# (scripts/build-wheel.sh): `pip install dist/python/trainer_explorer-*.whl`.
wheel:
	scripts/build-wheel.sh

# The wheel as a pip user gets it: auditwheel, a venv without cargo, --help, python -m,
# find_bin(), migrate over the real V1 jobs equal to the cargo-built CLI's, and the sdist.
test-wheel: wheel
	$(if $(TRAINER_EXPLORER),,cargo build -q --bin trainer-explorer)
	TRAINER_EXPLORER=$(EXPLORER) scripts/test-wheel.sh

# The pre-commit hook (.pre-commit-hooks.yaml) through `pre-commit run` on a scratch git repository
# whose config names a snapshot of this tree: it fails on an invalid TrainJob with the message,
# and passes once it is fixed (one build of the hook's environment for both runs).
test-pre-commit:
	scripts/test-pre-commit.sh

examples: dist
	@scripts/install-tools.sh examples
	scripts/build-examples.sh

# Copies of the three real sites ($$TRAINER_HOSTS, default ../shared/hosts) built with their kits.
TRAINER_HOSTS ?= $(abspath $(CURDIR)/../shared/hosts)
export TRAINER_HOSTS
hosts: dist
	@scripts/install-tools.sh hosts
	scripts/build-hosts.sh

# The widget in those real sites, in headless Chromium (each site served at its own root).
test-hosts: hosts
	@$(MAKE) --no-print-directory hosts-run

# The host sites' tests on what `make hosts` built.
hosts-run:
	@scripts/install-tools.sh browser
	PLAYWRIGHT_CORE=$(CURDIR)/.tools/node/node_modules/playwright-core node --test tests/e2e/hosts.test.mjs

# The built site in headless Chromium: no console errors, all instances mount and stay in
# sync, internal anchors resolve, the no-JS page shows snippets, the embed examples work.
test-e2e: examples
	@$(MAKE) --no-print-directory e2e-run

# The end-to-end tests on what `make examples` built.
e2e-run:
	@scripts/install-tools.sh browser
	scripts/e2e-run.sh
