#!/usr/bin/env bash
# Builds copies of the three real sites that would embed the widget, each with its kit copied
# in exactly as INSTALL.md says, into dist/hosts/<site>/ for tests/e2e/hosts.test.mjs:
#   kubeflow-blog      Jekyll, with the blog's own CI command (any warning fails the build)
#   trainer-docs       Sphinx/Furo/MyST, the directive on operator-guides/migration.md
#   kubeflow-website   Hugo/Docsy, the shortcode on docs/components/trainer/overview.md
# The sites come from $TRAINER_HOSTS (default ../shared/hosts); a missing one is an error.
#   scripts/build-hosts.sh --deps   only the Hugo site's npm dependencies (below)
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=${TRAINER_HOSTS:-../shared/hosts}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The Hugo site's npm dependencies (PostCSS for Docsy's styles; 123 MB, about 40 s of npm ci),
# kept in target/hosts-deps while its lock file is the same, and linked into each build's copy.
# With --deps this is all the script does: scripts/test-all.sh runs it while cargo builds, so
# the sites' build later needs no npm.
# They are kept once per machine too, beside the consumer sites' ($TRAINER_NODE_CACHE, default
# ~/.cache/trainer-v2-explorer/node-modules; empty: not kept; scripts/build-consumers.sh): a fresh
# clone makes a copy of hard links instead of running npm ci (14.8 s of CPU in the last fresh
# make test). Hugo's PostCSS only reads them.
node_cache=${TRAINER_NODE_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/trainer-v2-explorer/node-modules}
website_npm_ci() { # DIR: the site's package files and npm ci in the new folder DIR
  local src=$hosts/kubeflow-website
  mkdir -p "$1"
  cp "$src/package.json" "$src/package-lock.json" "$1/"
  (cd "$1" && npm ci --silent --no-audit --no-fund >/dev/null) || die "npm ci failed for the kubeflow-website copy"
}
website_deps() {
  local src=$hosts/kubeflow-website dir=target/hosts-deps/kubeflow-website lock_sum
  [[ -f $src/package-lock.json ]] || die "no host site copy at $src: set TRAINER_HOSTS"
  lock_sum=$(sha256sum <"$src/package-lock.json" | cut -c1-64)
  [[ -d $dir/node_modules && "$(cat "$dir/.stamp-lock" 2>/dev/null)" == "$lock_sum" ]] && return
  rm -rf "$dir"
  if [[ -z $node_cache ]]; then
    website_npm_ci "$dir"
  else
    # Named by the lock, filled under a lock, used only once complete (as the consumer sites').
    local cached=$node_cache/host-kubeflow-website-${lock_sum:0:16}
    mkdir -p "$node_cache"
    (
      flock 9
      if [[ ! -f $cached/.complete ]]; then
        rm -rf "$cached"
        website_npm_ci "$cached"
        touch "$cached/.complete"
      fi
    ) 9>"$cached.lock"
    mkdir -p "$dir"
    cp "$cached/package.json" "$cached/package-lock.json" "$dir/"
    # Hard links need the cache on this file system; elsewhere, a plain copy.
    cp -al "$cached/node_modules" "$dir/node_modules" 2>/dev/null ||
      { rm -rf "$dir/node_modules" && cp -a "$cached/node_modules" "$dir/node_modules"; }
  fi
  echo "$lock_sum" >"$dir/.stamp-lock"
}
if [[ ${1:-} == --deps ]]; then
  website_deps
  exit 0
fi
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
website_deps
ln -s "$PWD/target/hosts-deps/kubeflow-website/node_modules" "$work/node_modules"
# HUGO_TIMEOUT: Hugo stops a template that renders for longer than its `timeout` (30 s by default)
# as "most likely infinite recursion"; on a loaded 2-core machine the site's head.html partial
# took that long once (this machine's first make test, load 20, 5 Dec), so the build waits longer.
(cd "$work" && HUGO_TIMEOUT=300s hugo --quiet --minify --config config.toml,config.local.toml -d "$out")

echo "host sites in dist/hosts/{kubeflow-blog,trainer-docs,kubeflow-website}"
