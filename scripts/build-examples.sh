#!/usr/bin/env bash
# Builds a small example site with each real generator from the kits in dist/kits (make kits)
# into dist/examples: Jekyll (as the Kubeflow blog), Hugo (as kubeflow.org) and Sphinx with
# MyST (as trainer.kubeflow.org). scripts/build-hosts.sh does the same in copies of the real sites.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d dist/kits ]] || { echo "error: run scripts/build-dist.sh first (it writes dist/kits)" >&2; exit 1; }

rm -rf dist/examples target/examples
mkdir -p dist/examples target/examples

# The blog kit's post needs the blog's layouts; the example takes only the include and assets.
site=target/examples/jekyll
cp -r www/examples/jekyll "$site"
cp -r dist/kits/kubeflow-blog/_includes dist/kits/kubeflow-blog/assets "$site/"
jekyll build --quiet --source "$site" --destination dist/examples/jekyll

site=target/examples/hugo
cp -r www/examples/hugo "$site" && cp -r dist/kits/kubeflow-website/. "$site/"
hugo --quiet --source "$site" --destination "$PWD/dist/examples/hugo" --baseURL /examples/hugo/

site=target/examples/sphinx
cp -r www/examples/sphinx "$site" && cp -r dist/kits/trainer-docs/. "$site/"
.tools/venv/bin/sphinx-build -q -W -b html "$site" dist/examples/sphinx

echo "example sites in dist/examples/{jekyll,hugo,sphinx}"
