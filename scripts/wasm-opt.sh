#!/usr/bin/env bash
# Shrinks a wasm file in place, the same way for the widget, the converter and the benchmark's
# hello-world floor. Needs binaryen >= 120 (npm `binaryen`; Debian's 108 cannot read current
# rustc output): without it, says so and leaves the file as it is.
# -Os --converge came out smaller than -Oz for the widget (binaryen 132): re-measured on 2026-12-05
# on the same wasm-bindgen output, the widget's wasm was 145,657 B gzip -9 with -Os --converge,
# 145,978 B with -Oz --converge and 145,801 B with -Os --merge-similar-functions --converge (fewer raw
# bytes but more gzipped; likely because gzip already shared the near-identical copies it merges).
# Adding --gufa before --converge: 145,651 B, 6 B less, not worth another pass in every build.
# --low-memory-unused (1.1 KB gzipped off the widget) lets wasm-opt fold a constant added to a
# pointer into the load's offset. It assumes no address below 1024 is reached by wrapping
# arithmetic: rustc lays the 1 MiB stack out first, growing down to 0, so that memory is only
# the last KB of the stack, and no pointer in our code wraps around 4 GiB to get there.
# The producers and target_features sections are for tools (wasm-bindgen has run by now); the
# browser ignores them (0.2 KB gzipped off the widget).
# Usage: wasm-opt.sh FILE [FLAG...]: the flags after the file are added (the widget's and its floor's
# function order, scripts/build-dist.sh).
set -euo pipefail
file=$1
shift
if command -v wasm-opt >/dev/null && wasm-opt --version | grep -q 'version 1[2-9][0-9]'; then
  wasm-opt -Os --converge --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals "$@" "$file" -o "$file.opt"
  mv "$file.opt" "$file"
else
  echo "note: no wasm-opt >= 120 found; shipping the unoptimised $file" >&2
fi
