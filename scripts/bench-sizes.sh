#!/usr/bin/env bash
# make bench-sizes: only the download sizes of make bench (the widget against its floor, the two
# lazy modules, their budgets), for a change that moves bytes and nothing else: no browser and no
# native runs, so it is fair on a loaded machine. Rewrites those rows of BENCHMARKS.md in place
# (scripts/bench-sizes.mjs); exits 1 if a size budget is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=dist/_bench
rm -rf "$out" && mkdir -p "$out"
scripts/bench-floor.sh "$out"
node scripts/bench-sizes.mjs BENCHMARKS.md "$(git rev-parse --short HEAD)"
