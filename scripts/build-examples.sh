#!/usr/bin/env bash
# Assembles the three embed kits in dist/embed (recipe + generated static fallbacks + widget
# assets) and builds an example site with each real generator into dist/examples:
# Jekyll (the Kubeflow blog), Hugo (kubeflow.org) and Sphinx with MyST (trainer.kubeflow.org).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/explorer.js && -d dist/pkg ]] || { echo "error: run scripts/build-dist.sh first" >&2; exit 1; }
cli() { cargo run -q --bin trainer-explorer -- "$@"; }
assets() { mkdir -p "$1" && cp dist/explorer.js "$1/" && cp -r dist/pkg dist/pkg-migrate "$1/"; }

rm -rf dist/embed dist/examples target/examples
mkdir -p dist/embed dist/examples target/examples

# Kits for docs maintainers.
cp -r embed/jekyll dist/embed/jekyll
cli fallback-files --out dist/embed/jekyll/_includes/trainer-v2-explorer >/dev/null
assets dist/embed/jekyll/assets/trainer-v2-explorer
cp -r embed/hugo dist/embed/hugo
cli fallback-files --out dist/embed/hugo/layouts/partials/trainer-v2-explorer >/dev/null
assets dist/embed/hugo/static/trainer-v2-explorer
cp -r embed/sphinx dist/embed/sphinx
assets dist/embed/sphinx/_static/trainer-v2-explorer

# Example sites, each built from its kit by the real generator.
site=target/examples/jekyll
cp -r www/examples/jekyll "$site" && cp -r dist/embed/jekyll/. "$site/"
jekyll build --quiet --source "$site" --destination dist/examples/jekyll

site=target/examples/hugo
cp -r www/examples/hugo "$site" && cp -r dist/embed/hugo/. "$site/"
hugo --quiet --source "$site" --destination "$PWD/dist/examples/hugo" --baseURL /examples/hugo/

site=target/examples/sphinx
cp -r www/examples/sphinx "$site" && cp -r dist/embed/sphinx/. "$site/"
.tools/venv/bin/sphinx-build -q -b html "$site" dist/examples/sphinx

echo "embed kits in dist/embed; example sites in dist/examples/{jekyll,hugo,sphinx}"
