#!/usr/bin/env bash
# Builds wasm-release (Cargo.toml) for the browser: `cargo build --profile wasm-release --target
# wasm32-unknown-unknown` with the arguments given. Every wasm-release build goes through here
# (scripts/build-dist.sh, scripts/bench-floor.sh), so they share one set of flags and cargo never
# rebuilds one's dependencies for the other.
# -Zlocation-detail=none: a panic in our code and the crates compiled here no longer carries its
# file, line and column (the module only passes a panic's text to the page's console; the debug
# builds of the browser tests keep them). The widget's wasm: 147,172 -> 144,578 B gzip -9 (one
# build each, 2026-12-05). RUSTC_BOOTSTRAP=1 lets the pinned stable toolchain take this unstable
# flag, as scripts/fuzz.sh does for cargo-fuzz's. With the two, rustc names symbols the v0 way
# (`explorer_core[0123456789abcdef]::…`): scripts/name-functions-for-order.py drops such `[hash]`
# and scripts/bench.mjs's twiggy table skips it when it names a part.
# Not -Zfmt-debug=none: it took 38 B off the widget's gzipped wasm (145,657 -> 145,619 B, one
# build each, 2026-12-05), and the converter and explain modules print Debug text to the reader
# (crates/data/src/served.rs), so the widget would need a build of its own with other flags.
set -euo pipefail
RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zlocation-detail=none" exec cargo build --profile wasm-release --target wasm32-unknown-unknown "$@"
