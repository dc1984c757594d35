#!/usr/bin/env bash
# Builds the self-contained static site in dist/: the post, its CSS and loader, and the widget
# (wasm-bindgen --target web output, shrunk with wasm-opt when available).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/.tools/node/node_modules/.bin:$PATH"

# The widget, the converter as a second module that loads only in migrate mode, and "What
# Kubernetes runs" and the upgrade notes as a third and a fourth that load when a reader opens
# them, built for
# size (Cargo.toml's wasm-release profile; the release profile is the native CLI's, for speed).
# Each by itself (scripts/cargo-wasm-release.sh builds one package's library, as a cdylib only so
# that link-time optimization runs, with the flags every wasm-release build shares): the widget's
# build compiles no YAML parser or CEL, as it would with the modules' features unified.
#
# Each must come out a cdylib alone: cargo hands the library it builds to target/…/wasm-release/
# whether it compiled it or found it fresh, so an rlib there after the build means this build made
# one too, and for a crate that is both cargo runs no link-time optimization (the widget's transfer
# is then about 12.5 KB larger: BENCHMARKS.md, "The shipped wasm modules with link-time
# optimization"). The stale copy is removed first, so only this build's can be found.
#
# The converter and "What Kubernetes runs" are built with one feature set, the union of theirs
# (scripts/shared-module-features.py), so that the core, the views, CEL and serde_json they share
# are compiled once for the two, not once per module. The upgrade notes keep their own: with the
# converter's features their module reached the migrator's refusals through the pipeline's failure
# types and came out 8.9 KB larger gzipped (BENCHMARKS.md, "make test: the lazy modules' shared
# core"); the widget keeps its own too, without the YAML parser and CEL.
release_dir=target/wasm32-unknown-unknown/wasm-release
shared_modules=(trainer-v2-migrate trainer-v2-explain)
shared_features=$(python3 scripts/shared-module-features.py "${shared_modules[@]}")
for package in trainer-v2-explorer "${shared_modules[@]}" trainer-v2-upgrade; do
  rlib="$release_dir/lib${package//-/_}.rlib"
  rm -f "$rlib"
  features=()
  if [[ " ${shared_modules[*]} " == *" $package "* && -n $shared_features ]]; then
    features=(--features "$shared_features")
  fi
  scripts/cargo-wasm-release.sh "$package" "${features[@]}"
  if [[ -e $rlib ]]; then
    echo "build-dist.sh: $package was built as an rlib too, so cargo ran no link-time optimization for it (rust-lang/rust#51009); build it with scripts/cargo-wasm-release.sh, as a cdylib alone" >&2
    exit 1
  fi
done
# Only what this script writes is replaced: dist/kits (make kits) and dist/examples stay.
rm -rf dist/pkg dist/pkg-migrate dist/blog && mkdir -p dist/pkg dist/pkg-migrate
wasm-bindgen --target web --no-typescript --out-dir dist/pkg \
  target/wasm32-unknown-unknown/wasm-release/trainer_v2_explorer.wasm
wasm-bindgen --target web --no-typescript --out-dir dist/pkg-migrate \
  target/wasm32-unknown-unknown/wasm-release/trainer_v2_migrate.wasm
wasm-bindgen --target web --no-typescript --out-dir dist/pkg-migrate \
  target/wasm32-unknown-unknown/wasm-release/trainer_v2_explain.wasm
wasm-bindgen --target web --no-typescript --out-dir dist/pkg-migrate \
  target/wasm32-unknown-unknown/wasm-release/trainer_v2_upgrade.wasm
wasm=dist/pkg/trainer_v2_explorer_bg.wasm
# npm's wasm-opt is binaryen compiled to wasm, run by node on one thread, and it is the longest
# step of a warm build (the converter alone takes about 90 s of CPU). The four modules are shrunk
# side by side, so both cores work; the widget's chain shortens its names after its wasm-opt.
widget() {
  # Functions sorted by name, the names first rewritten into keys that put the copies of one
  # generic function, and of one trait method, side by side, where gzip finds their shared code
  # (2.1 KB gzipped off the widget; scripts/name-functions-for-order.py says how; the floor is
  # built so too, scripts/bench-floor.sh).
  python3 scripts/name-functions-for-order.py "$wasm"
  scripts/wasm-opt.sh "$wasm" --reorder-functions-by-name
  # Short import and export names in the widget's wasm and glue (about 6 KB gzipped).
  python3 scripts/shorten-wasm-names.py "$wasm" dist/pkg/trainer_v2_explorer.js
}
# Job control gives each its own process group, so that a failure (or an interrupt) ends all
# four with everything they started, not only the first.
set -m
widget & widget_pid=$!
scripts/wasm-opt.sh dist/pkg-migrate/trainer_v2_migrate_bg.wasm & migrate_pid=$!
scripts/wasm-opt.sh dist/pkg-migrate/trainer_v2_explain_bg.wasm & explain_pid=$!
scripts/wasm-opt.sh dist/pkg-migrate/trainer_v2_upgrade_bg.wasm & upgrade_pid=$!
set +m
trap 'kill -- -$widget_pid -$migrate_pid -$explain_pid -$upgrade_pid 2>/dev/null || true' EXIT
# Each is waited for by itself, so that any one's failure stops the build (set -e).
wait "$widget_pid"
wait "$migrate_pid"
wait "$explain_pid"
wait "$upgrade_pid"
trap - EXIT
cp index.html dist/index.html
scripts/explorer.sh post --check
cp www/*.js www/*.css dist/
# The post's and the kits' loader is one script: explorer.js with the element (element.js and
# define.js, as the npm package has them) joined in front of it, their imports dropped, so a
# reader downloads one file, not three (about 0.2 KB gzipped less).
python3 - <<'PY'
import re
body = lambda path: re.sub(r"^import .*;\n", "", open(path).read(), flags=re.M)
element = re.sub(r"^export ", "", body("www/element.js"), flags=re.M)
open("dist/explorer.js", "w").write(element + body("www/define.js") + body("www/explorer.js"))
PY
# The converter's loader, worker and pane stylesheet sit next to the converter module they load.
cp www/pkg-migrate/*.js www/pkg-migrate/*.css dist/pkg-migrate/
# And its stylesheets once more as strings, which converter.js adopts into the widget's shadow
# root (a bundler that bundles the package takes a string as it is; the .css files are the
# pages' own, index.html and the kits link them).
python3 - <<'PY'
import json, re
out = ["// Written by scripts/build-dist.sh from explain.css, pods.css, migrate.css and upgrade.css."]
for name in ("explain", "pods", "migrate", "upgrade"):
    css = open(f"www/pkg-migrate/{name}.css").read()
    css = re.sub(r"\s+", " ", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).strip()
    out.append(f"export const {name.upper()} = {json.dumps(css)};")
open("dist/pkg-migrate/styles.js", "w").write("\n".join(out) + "\n")
PY
# Every script the reader downloads ships minified: the wasm-bindgen glue, the widget's loader
# and element (about 2 KB and 1 KB less gzipped for the widget) and the converter's scripts (about 3 KB off
# both lazy downloads, which count them). www/ keeps the readable ones.
if command -v terser >/dev/null; then
  # The comments kept tell bundlers not to follow the imports of a page-set asset location
  # (www/element.js).
  for js in dist/pkg/trainer_v2_explorer.js dist/explorer.js dist/element.js dist/define.js dist/pkg-migrate/*.js; do
    terser "$js" --module --compress --mangle --comments '/webpackIgnore|@vite-ignore/' -o "$js.min" && mv "$js.min" "$js"
  done
else
  echo "note: terser not found; shipping the unminified JS glue and loaders" >&2
fi
[[ -d www/assets ]] && cp -r www/assets dist/
# The page's static fallback must be what the core generates.
scripts/explorer.sh fallback dist/index.html --check
# The npm package (dist/npm), and the drop-in kits for the three sites made from its tarball
# (the blog's export lives in its kit).
scripts/build-package.sh
scripts/build-kits.sh
printf 'dist/ ready: %s bytes wasm, %s bytes js\n' "$(wc -c <"$wasm")" "$(wc -c <dist/pkg/trainer_v2_explorer.js)"
