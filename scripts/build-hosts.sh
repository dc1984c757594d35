#!/usr/bin/env bash
# Builds copies of the three real sites that would embed the widget, each with its kit copied
# in exactly as INSTALL.md says, into dist/hosts/<site>/ for tests/e2e/hosts.test.mjs:
#   kubeflow-blog      Jekyll, with the blog's own CI command (any warning fails the build)
#   trainer-docs       Sphinx/Furo/MyST, the directive on operator-guides/migration.md
#   kubeflow-website   Hugo/Docsy, the shortcode on docs/components/trainer/overview.md
# The sites come from $TRAINER_HOSTS (default ../shared/hosts); a missing one is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=${TRAINER_HOSTS:-../shared/hosts}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
for site in kubeflow-blog trainer-docs kubeflow-website; do
  [[ -d "$hosts/$site" ]] || die "no host site copy at $hosts/$site: set TRAINER_HOSTS to the folder holding kubeflow-blog, trainer-docs and kubeflow-website"
  [[ -f "dist/kits/$site/INSTALL.md" ]] || die "no kit in dist/kits/$site: run make kits"
done
hosts=$(cd "$hosts" && pwd)
rm -rf target/hosts dist/hosts && mkdir -p target/hosts dist/hosts

# The usage line goes in before a heading, so the page has sections below the widget.
insert_before() { # file, heading line, text
  python3 - "$@" <<'PY'
import sys
path, heading, text = sys.argv[1:]
lines = open(path).read().split("\n")
at = lines.index(heading)
lines[at:at] = text.split("\n") + [""]
open(path, "w").write("\n".join(lines))
PY
}

# blog.kubeflow.org: the kit brings the post itself.
work=target/hosts/kubeflow-blog
cp -r "$hosts/kubeflow-blog" "$work" && cp -r dist/kits/kubeflow-blog/. "$work/"
(cd "$work" && JEKYLL_ENV=production JEKYLL_NO_BUNDLER_REQUIRE=true jekyll build -V --strict_front_matter --trace \
  --config _config.yml,_config.local.yml -d "$PWD/../../../dist/hosts/kubeflow-blog") > target/hosts/kubeflow-blog.log 2>&1 \
  || { tail -30 target/hosts/kubeflow-blog.log; die "the blog build failed"; }
if grep -inE 'warn|deprecat|error' target/hosts/kubeflow-blog.log; then
  die "the blog's CI build printed the warnings above"
fi

# trainer.kubeflow.org: the one step besides copying is the extension's name in conf.py.
work=target/hosts/trainer-docs
cp -r "$hosts/trainer-docs" "$work" && cp -r dist/kits/trainer-docs/. "$work/"
sed -i 's|^    "kubeflow_topnav",\(.*\)$|    "kubeflow_topnav",\1\n    "trainer_v2_explorer",|' "$work/conf.py"
grep -q '"trainer_v2_explorer",' "$work/conf.py" || die "could not add the extension to conf.py"
insert_before "$work/operator-guides/migration.md" "## Migration Paths" \
  $'```{trainer-v2-explorer}\n:persona: data-scientist\n:framework: pytorch\n```'
venv=.tools/venv-hosts-sphinx
[[ -x $venv/bin/sphinx-build ]] || die "no $venv: run scripts/install-tools.sh hosts"
$venv/bin/sphinx-build -q -W --keep-going -b html "$work" dist/hosts/trainer-docs

# www.kubeflow.org
work=target/hosts/kubeflow-website
cp -r "$hosts/kubeflow-website" "$work" && cp -r dist/kits/kubeflow-website/. "$work/"
insert_before "$work/content/en/docs/components/trainer/overview.md" "## Kubeflow Trainer Introduction" \
  '{{< trainer-v2-explorer persona="platform-engineer" framework="jax" >}}'
# Hugo finds PostCSS (Docsy's styles) in node_modules from the site's folder.
out=$PWD/dist/hosts/kubeflow-website
(cd "$work" && npm ci --silent --no-audit --no-fund >/dev/null && hugo --quiet --minify --config config.toml,config.local.toml -d "$out")

echo "host sites in dist/hosts/{kubeflow-blog,trainer-docs,kubeflow-website}"
