#!/usr/bin/env bash
# The floor make bench and make bench-sizes measure the widget against, in $1/hello: a bare Yew
# hello-world built like the widget (wasm-release profile and flags, wasm-bindgen,
# scripts/wasm-opt.sh with the widget's function order, short names). And $1/twiggy.csv, where the widget's bytes go:
# twiggy reads function names, which wasm-opt strips, so it looks at wasm-bindgen's output for the
# same wasm-release build before wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/.tools/node/node_modules/.bin:$PATH"
out=$1
mkdir -p "$out/hello/pkg"
scripts/cargo-wasm-release.sh hello-yew -q
wasm-bindgen --target web --no-typescript --out-dir "$out/hello/pkg" target/wasm32-unknown-unknown/wasm-release/hello_yew.wasm
python3 scripts/name-functions-for-order.py "$out/hello/pkg/hello_yew_bg.wasm"
scripts/wasm-opt.sh "$out/hello/pkg/hello_yew_bg.wasm" --reorder-functions-by-name
python3 scripts/shorten-wasm-names.py "$out/hello/pkg/hello_yew_bg.wasm" "$out/hello/pkg/hello_yew.js"
cp bench/hello-site/* "$out/hello/"
wasm-bindgen --target web --no-typescript --out-dir "$out/named" target/wasm32-unknown-unknown/wasm-release/trainer_v2_explorer.wasm
twiggy top -n 1000000 -f csv "$out/named/trainer_v2_explorer_bg.wasm" > "$out/twiggy.csv"
