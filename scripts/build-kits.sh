#!/usr/bin/env bash
# Writes the drop-in kits into dist/kits/, one overlay per real site: copying a kit onto the
# site's root is the whole installation (INSTALL.md in each says so). Every persona × framework
# fallback is pre-generated, so no maintainer needs Rust.
#   kubeflow-blog/      Jekyll: the post, the include, the fallbacks, the assets, the social card
#   trainer-docs/       Sphinx: the _ext/ extension with its fallbacks, the assets under _static/
#   kubeflow-website/   Hugo: the shortcode, the fallbacks, the assets under static/
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/explorer.js ]] || { echo "error: run scripts/build-dist.sh first" >&2; exit 1; }
tarball=$(echo dist/npm/trainer-v2-explorer-*.tgz)
[[ -f $tarball ]] || { echo "error: no npm package in dist/npm (scripts/build-package.sh)" >&2; exit 1; }
command -v rsvg-convert >/dev/null || { echo "error: rsvg-convert is missing (scripts/install-tools.sh examples)" >&2; exit 1; }
cli() { scripts/explorer.sh "$@" >/dev/null; }
# The widget's files come from the npm package's tarball (one artifact for the kits and npm's
# users); each kit adds the pages' loader (explorer.js: the package's element, joined with the
# post's own lines by build-dist.sh) and the fallback's stylesheet, and serves them from one folder.
package=target/npm-unpacked
rm -rf "$package" && mkdir -p "$package"
tar -xzf "$tarball" --strip-components=1 -C "$package"
assets() {
  mkdir -p "$1"
  cp dist/explorer.js embed/common/trainer-v2-explorer.css "$1/"
  cp -r "$package/pkg" "$package/pkg-migrate" "$1/"
}

kits=dist/kits
rm -rf "$kits" && mkdir -p "$kits"

kit=$kits/kubeflow-blog
cp -r embed/kubeflow-blog "$kit"
cli fallback-files --out "$kit/_includes/trainer-v2-explorer"
assets "$kit/assets/trainer-v2-explorer"
cli post --out target/post-check.html --export "$kit"
# The social card the post's front matter names, drawn from the post's first diagram.
for svg in "$kit"/images/*/social-card.svg; do
  rsvg-convert --format png --output "${svg%.svg}.png" "$svg"
  rm "$svg"
done

kit=$kits/trainer-docs
cp -r embed/trainer-docs "$kit"
cli fallback-files --out "$kit/_ext/trainer_v2_explorer/fallbacks"
assets "$kit/_static/trainer-v2-explorer"

kit=$kits/kubeflow-website
cp -r embed/kubeflow-website "$kit"
cli fallback-files --out "$kit/layouts/partials/trainer-v2-explorer"
assets "$kit/static/trainer-v2-explorer"

# What a kit costs, measured on what it ships, in the part of INSTALL.md every kit shares
# (embed/common/INSTALL-readers.md), so the figures never drift from the files.
size() { python3 -c 'import sys; n = int(sys.argv[1]); print(f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{round(n / 1e3)} KB")' "$1"; }
bytes() { find "$@" -type f -print0 | xargs -0 cat | wc -c; }
gzipped() { local total=0 f; for f in "$@"; do total=$((total + $(gzip -9c "$f" | wc -c))); done; echo "$total"; }
widget_gzip=$(size "$(gzipped dist/pkg/trainer_v2_explorer_bg.wasm dist/pkg/trainer_v2_explorer.js dist/explorer.js)")
converter_gzip=$(size "$(gzipped dist/pkg-migrate/trainer_v2_migrate_bg.wasm dist/pkg-migrate/trainer_v2_migrate.js dist/pkg-migrate/converter*.js dist/pkg-migrate/sources.js dist/pkg-migrate/copy-blocks.js)")
explain_gzip=$(size "$(gzipped dist/pkg-migrate/trainer_v2_explain_bg.wasm dist/pkg-migrate/trainer_v2_explain.js dist/pkg-migrate/converter.js dist/pkg-migrate/sources.js dist/pkg-migrate/copy-blocks.js)")
upgrade_gzip=$(size "$(gzipped dist/pkg-migrate/trainer_v2_upgrade_bg.wasm dist/pkg-migrate/trainer_v2_upgrade.js dist/pkg-migrate/converter.js dist/pkg-migrate/sources.js dist/pkg-migrate/copy-blocks.js)")
readers() { # kit folder, its assets folder, its fallbacks folder
  sed -e "s/{{assets_size}}/$(size "$(bytes "$1/$2")")/" -e "s/{{fallbacks_size}}/$(size "$(bytes "$1/$3")")/" \
    -e "s/{{widget_gzip}}/$widget_gzip/" -e "s/{{converter_gzip}}/$converter_gzip/" -e "s/{{explain_gzip}}/$explain_gzip/" -e "s/{{upgrade_gzip}}/$upgrade_gzip/" \
    embed/common/INSTALL-readers.md >>"$1/INSTALL.md"
}
readers "$kits/kubeflow-blog" assets/trainer-v2-explorer _includes/trainer-v2-explorer
readers "$kits/trainer-docs" _static/trainer-v2-explorer _ext/trainer_v2_explorer/fallbacks
readers "$kits/kubeflow-website" static/trainer-v2-explorer layouts/partials/trainer-v2-explorer

find "$kits" -name __pycache__ -prune -exec rm -rf {} +
printf 'kits in %s: %s\n' "$kits" "$(cd "$kits" && echo *)"
