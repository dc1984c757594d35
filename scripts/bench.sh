#!/usr/bin/env bash
# make bench: sizes, time to interactive, toggle latency and migrate throughput, with a bare
# Yew hello-world built the same way as the floor. Writes BENCHMARKS.md; exits 1 if a budget
# (not a machine-speed figure) is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/.tools/node/node_modules/.bin:$PATH"
out=dist/_bench
rm -rf "$out" && mkdir -p "$out/hello/pkg"
# A blank page of the served origin, where scripts/bench-shapes.mjs times a reader's first paste
# with nothing else rendering beside it.
printf '<!doctype html>\n<html lang="en"><title>blank</title></html>\n' > "$out/blank.html"

# The floor (bare Yew, built like the widget) and where the widget's bytes go.
scripts/bench-floor.sh "$out"

# A 1 MB manifest: the PyTorch example, renamed per copy.
python3 - "$TRAINER_REFERENCE/v1-examples/pytorch/simple.yaml" "$out/1mb.yaml" <<'PY'
import sys
job = open(sys.argv[1]).read()
parts, n = [], 0
while sum(map(len, parts)) < 1024 * 1024:
    parts.append(job.replace("name: pytorch-simple", f"name: pytorch-simple-{n}") + "\n---\n")
    n += 1
open(sys.argv[2], "w").write("".join(parts))
PY
cargo run -q --release --example migrate_throughput -- "$out/1mb.yaml" > "$out/native.json"
# The worst-case shapes near the 4 MiB limit: written to $out/shapes/ and timed natively.
cargo run -q --release --example migrate_throughput -- --shapes "$out/shapes" > "$out/shapes.jsonl"
# Peak memory of each command on each of those shapes, one CLI process per run.
cargo build -q --release -p explorer-cli
python3 scripts/bench-memory.py target/release/trainer-explorer "$out/shapes" > "$out/memory.jsonl"
# validate against check-jsonschema on 1,000 TrainJobs and their runtimes: the wheel's binary.
scripts/build-wheel.sh >&2
scripts/bench-validate.sh "$out/validate.json"

source scripts/serving.sh
# Compressed, as the post's and the docs sites' hosts send it (the sizes above count gzip -9 too):
# Lighthouse, time to interactive and the floor's all load from it.
serve base --dir dist --gzip
# shellcheck disable=SC2154 # serve (scripts/serving.sh) sets base with printf -v
LIGHTHOUSE="$PWD/.tools/bench-node/node_modules/.bin/lighthouse" \
BASE_URL="$base" PLAYWRIGHT_CORE="$PWD/.tools/node/node_modules/playwright-core" \
  node scripts/bench.mjs "$out/native.json" "$out/shapes.jsonl" BENCHMARKS.md "$out/memory.jsonl" "$out/validate.json"
