#!/usr/bin/env bash
# `make wheel`: the CLI as a Python wheel (manylinux2014 x86_64, built with zig: no Docker) and
# the sdist, both into dist/python/. Publishing is one command away:
#   .tools/venv-maturin/bin/maturin upload dist/python/*
# maturin, ziglang and auditwheel come from PyPI into a cached venv ($WHEEL_VENV). The release
# build reuses its own target dir ($WHEEL_TARGET_DIR, default target/python), so a second run
# only relinks what changed.
# make test (scripts/test-all.sh) checks a wheel built the same way but with WHEEL_OPTIMIZE=0: the
# release profile without its optimization and LTO (its panic strategy, overflow checks and
# debug assertions stay the release's), into WHEEL_OUT=target/python/check-dist, never into
# dist/python, where a wheel is one upload away from users and make bench measures it. What
# scripts/test-wheel.sh checks (the manylinux tag of the zig link, a cargo-less venv, the same
# output as the cargo-built CLI, the sdist) does not depend on optimization, which was most of
# the build's CPU. make wheel, make bench (its validate row runs the wheel) and a plain
# `make test-wheel` build and use the optimized one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
venv=${WHEEL_VENV:-.tools/venv-maturin}
target_dir=${WHEEL_TARGET_DIR:-target/python}
out=${WHEEL_OUT:-dist/python}

say() { printf '==> %s\n' "$*"; }

WHEEL_VENV=$venv scripts/install-tools.sh wheel

# maturin finds zig as `python3 -m ziglang`: the venv's python first.
PATH="$(cd "$venv/bin" && pwd):$PATH"

rm -rf "$out"
mkdir -p "$out"
unoptimized=
if [[ ${WHEEL_OPTIMIZE:-1} == 0 ]]; then
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false
  unoptimized="; WHEEL_OPTIMIZE=0: the release profile without its optimization and LTO"
fi
# The features come from pyproject.toml (no `site`); --zig links against glibc 2.17 with zig's
# own sysroot, the oldest manylinux2014 allows.
say "maturin build --release --zig --compatibility manylinux2014 (target dir $target_dir$unoptimized)"
"$venv/bin/maturin" build --release --zig --compatibility manylinux2014 \
  --target x86_64-unknown-linux-gnu --target-dir "$target_dir" --out "$out"
say "maturin sdist"
"$venv/bin/maturin" sdist --out "$out"
ls -l "$out"
