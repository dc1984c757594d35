#!/usr/bin/env bash
# Builds the npm package's consumer sites (tests/consumers/) into target/consumers/<site>, each
# installing the package from dist/npm's tarball with `npm ci` on its own lock file:
#   html         a plain page loading node_modules/trainer-v2-explorer/define.js (no build step)
#   vite         `vite build` into dist/ (the dev server is started by the test)
#   docusaurus   `docusaurus build` into build/ (any warning fails the build)
# The slow parts are kept between runs: node_modules while the lock file is the same (a new
# tarball only replaces the package in it), a build while its sources and the tarball are.
# CONSUMERS="vite html" builds only those.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
work=target/consumers
mkdir -p "$work"
# --deps: only each site's registry dependencies (npm ci on its lock without the package), which
# need no tarball yet: scripts/test-all.sh runs this while cargo builds.
deps_only=false
[[ ${1:-} == --deps ]] && deps_only=true
sources_sum() { (cd "tests/consumers/$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64); }

# The registry dependencies, kept while the lock file is the same: npm ci with the package taken
# out of package.json and the lock, so that it needs no tarball (the next step installs it).
# They are kept once per machine too ($TRAINER_NODE_CACHE, default
# ~/.cache/trainer-v2-explorer/node-modules; empty: not kept), as the venvs are
# (scripts/venv-cache.sh): a fresh clone then makes a copy of hard links (0.9 s of CPU for the
# three sites) instead of running npm ci (35.5 s of CPU in a fresh make test).
# Nothing writes into a file of the copy: npm adds the package as a new folder, the builds write
# new folders (.cache, .vite), and npm's own record of the tree, which it rewrites, is a real copy.
node_cache=${TRAINER_NODE_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/trainer-v2-explorer/node-modules}
# install_deps SITE DIR: the registry dependencies of SITE by npm ci in the new folder DIR.
install_deps() {
  local src=tests/consumers/$1 dir=$2
  mkdir -p "$dir"
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
pkg = json.load(open(f"{d}/package.json")); pkg["dependencies"].pop("trainer-v2-explorer")
json.dump(pkg, open(f"{d}/package.json", "w"), indent=2)
lock = json.load(open(f"{d}/package-lock.json"))
lock["packages"][""]["dependencies"].pop("trainer-v2-explorer")
lock["packages"].pop("node_modules/trainer-v2-explorer")
json.dump(lock, open(f"{d}/package-lock.json", "w"), indent=2)
PY
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed in $dir"
}
deps() { # site
  local src=tests/consumers/$1 dir=$work/$1
  [[ -f $src/package-lock.json ]] || die "$src has no package-lock.json"
  local lock_sum; lock_sum=$(sha256sum <"$src/package-lock.json" | cut -c1-64)
  [[ -d $dir/node_modules && "$(cat "$dir/.stamp-lock" 2>/dev/null)" == "$lock_sum" ]] && return
  rm -rf "$dir"
  if [[ -z $node_cache ]]; then
    install_deps "$1" "$dir"
  else
    # Named by the site and its lock, filled under a lock, and used only once complete, so two
    # clones installing at once, or an npm ci that failed halfway, never share a broken copy.
    local cached=$node_cache/consumer-$1-${lock_sum:0:16}
    mkdir -p "$node_cache"
    (
      flock 9
      if [[ ! -f $cached/.complete ]]; then
        rm -rf "$cached"
        install_deps "$1" "$cached"
        touch "$cached/.complete"
      fi
    ) 9>"$cached.lock"
    mkdir -p "$dir"
    cp "$cached/package.json" "$cached/package-lock.json" "$dir/"
    # (The plain page's site has no registry dependency, so no node_modules.) Hard links need the
    # cache on this file system; elsewhere, a plain copy.
    if [[ -d $cached/node_modules ]]; then
      cp -al "$cached/node_modules" "$dir/node_modules" 2>/dev/null ||
        { rm -rf "$dir/node_modules" && cp -a "$cached/node_modules" "$dir/node_modules"; }
    fi
    if [[ -f $cached/node_modules/.package-lock.json ]]; then
      rm "$dir/node_modules/.package-lock.json"
      cp "$cached/node_modules/.package-lock.json" "$dir/node_modules/"
    fi
  fi
  echo "$lock_sum" >"$dir/.stamp-lock"
}

for site in ${CONSUMERS:-html vite docusaurus}; do deps "$site"; done
$deps_only && exit 0

tarball=$(echo dist/npm/trainer-v2-explorer-*.tgz)
[[ -f $tarball ]] || die "no package in dist/npm: run make package"
cp "$tarball" "$work/trainer-v2-explorer.tgz"
package_sum=$(sha256sum <"$tarball" | cut -c1-64)

for site in ${CONSUMERS:-html vite docusaurus}; do
  src=tests/consumers/$site dir=$work/$site
  # The site's own files, fresh; what npm and the build made stays.
  find "$dir" -mindepth 1 -maxdepth 1 ! -name node_modules ! -name build ! -name dist ! -name .docusaurus ! -name '.stamp-*' -exec rm -rf {} +
  cp -r "$src/." "$dir/"
  # The package from the tarball, as its users install it (the lock names it as a file: dependency).
  if [[ "$(cat "$dir/.stamp-package" 2>/dev/null)" != "$package_sum" ]]; then
    # webpack's cache (Docusaurus) takes a package in node_modules as unchanged while its
    # version is: a new build of the same version must not be served from it.
    rm -rf "$dir/node_modules/trainer-v2-explorer" "$dir/node_modules/.cache" "$dir/.docusaurus"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error ../trainer-v2-explorer.tgz >/dev/null) || die "npm install of the package failed in $dir"
    cmp -s "$src/package.json" "$dir/package.json" || die "installing the tarball changed $src/package.json"
    echo "$package_sum" >"$dir/.stamp-package"
  fi
  stamp="$package_sum $(sources_sum "$site")"
  [[ "$(cat "$dir/.stamp-build" 2>/dev/null)" == "$stamp" ]] && { echo "consumer $site: up to date"; continue; }
  log=$dir.log
  case $site in
    html) : >"$log" ;; # served as it is
    vite) (cd "$dir" && node_modules/.bin/vite build) >"$log" 2>&1 || { cat "$log"; die "vite build failed"; } ;;
    docusaurus) (cd "$dir" && node_modules/.bin/docusaurus build) >"$log" 2>&1 || { tail -40 "$log"; die "docusaurus build failed"; } ;;
    *) die "unknown consumer $site" ;;
  esac
  # The issue's bar: no build warns, about the element or anything else.
  if grep -inE 'warn' "$log"; then die "the $site build printed the warnings above ($log)"; fi
  echo "$stamp" >"$dir/.stamp-build"
  echo "consumer $site: built"
done
