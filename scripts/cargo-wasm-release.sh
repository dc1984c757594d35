#!/usr/bin/env bash
# cargo-wasm-release.sh PACKAGE [CARGO ARGS...]: builds PACKAGE's library for the browser,
# wasm-release (Cargo.toml) for wasm32-unknown-unknown, as a cdylib only. Every wasm-release build
# goes through here (scripts/build-dist.sh, scripts/bench-floor.sh), so they share one set of flags
# and cargo never rebuilds one's dependencies for the other.
# A cdylib only, through `cargo rustc --crate-type cdylib`: the shipped crates are also rlibs (for
# their native and wasm-bindgen tests and the fuzz targets), and cargo runs no link-time
# optimization for a crate that is both (rust-lang/rust#51009), so the profile's `lto = true` never
# ran for them. With it, gzip -9 after wasm-opt (one build each, 2026-12-06): the widget's wasm
# 142,079 -> 129,621 B, the converter's 487,427 -> 452,757 B (BENCHMARKS.md, "The shipped wasm
# modules with link-time optimization", has the others and the build's cost). `cargo rustc` builds
# one package per call, with that package's own features of the crates it shares with the others,
# so a cold build compiles the core once per feature set: scripts/build-dist.sh gives the converter
# and explain modules one set, so that they share theirs.
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
package=$1
shift
RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zlocation-detail=none" exec cargo rustc --profile wasm-release \
  --target wasm32-unknown-unknown --lib -p "$package" --crate-type cdylib "$@"
