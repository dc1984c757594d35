#!/usr/bin/env bash
# Packs the widget as the npm package `trainer-v2-explorer` into dist/npm/ (npm pack): the
# element (element.js, define.js), the widget's wasm and glue, the converter and "What Kubernetes
# runs" modules, with npm/'s package.json, README, types, custom-elements.json and license.
# The files are dist/'s (scripts/build-dist.sh, minified), so the kits, the post and the
# package ship one build. Checks the package with publint and @arethetypeswrong/cli when
# installed (scripts/install-tools.sh package).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
[[ -f dist/element.js && -f dist/pkg/trainer_v2_explorer_bg.wasm && -f dist/pkg-migrate/converter.js ]] || die "run scripts/build-dist.sh first"
stage=target/npm-package
rm -rf "$stage" && mkdir -p "$stage/pkg" "$stage/pkg-migrate"
cp npm/package.json npm/README.md npm/LICENSE npm/element.d.ts npm/define.d.ts npm/custom-elements.json "$stage/"
cp dist/element.js dist/define.js "$stage/"
cp dist/pkg/trainer_v2_explorer.js dist/pkg/trainer_v2_explorer_bg.wasm "$stage/pkg/"
cp dist/pkg-migrate/*.js dist/pkg-migrate/*.wasm dist/pkg-migrate/*.css "$stage/pkg-migrate/"

# The package's version is the widget crate's; its manifest names the element's attributes.
cargo_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
node scripts/check-package.mjs "$stage" "$cargo_version"

rm -rf dist/npm && mkdir -p dist/npm
(cd "$stage" && npm pack --silent --pack-destination "$OLDPWD/dist/npm" >/dev/null)
tarball=$(echo dist/npm/trainer-v2-explorer-*.tgz)
[[ -f $tarball ]] || die "npm pack wrote no tarball"

tools=.tools/package-node/node_modules/.bin
if [[ -x $tools/publint && -x $tools/attw ]]; then
  # publint: the exports, files and types; attw: that TypeScript resolves the types of every
  # entry point, under node16 (ESM), bundler and node10 resolution. The package is ESM only:
  # a `require()` of it is not a supported use, so attw's CommonJS rule is left out.
  $tools/publint run --strict "$tarball"
  $tools/attw --profile esm-only "$tarball"
else
  echo "note: publint and attw are not installed (scripts/install-tools.sh package); the tarball is unchecked" >&2
fi
printf 'npm package: %s (%s bytes)\n' "$tarball" "$(wc -c <"$tarball")"
