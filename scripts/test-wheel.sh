#!/usr/bin/env bash
# `make test-wheel`: the wheel and the sdist of dist/python (scripts/build-wheel.sh; $WHEEL_OUT when
# set, as make test does) as a pip user gets them:
#   1. auditwheel: the wheel claims manylinux_2_17 (manylinux2014) or older;
#   2. a new venv with no cargo on PATH: `trainer-explorer --help`, `python -m trainer_explorer
#      --help` and `trainer_explorer.find_bin()`;
#   3. `migrate` over the real V1 jobs ($TRAINER_REAL_V1, default ../shared/real-v1) with the
#      wheel's binary and with the cargo-built one ($TRAINER_EXPLORER, default
#      target/debug/trainer-explorer): stdout, stderr and exit code equal byte for byte;
#   4. the sdist resolves the CLI's dependencies, features included, as this workspace does;
#   5. the sdist installs with pip (it builds with cargo, into a reused target dir) and runs.
set -euo pipefail
cd "$(dirname "$0")/.."
venv_tools=${WHEEL_VENV:-.tools/venv-maturin}
real_v1=${TRAINER_REAL_V1:-../shared/real-v1}
explorer=${TRAINER_EXPLORER:-target/debug/trainer-explorer}
work=target/python/test
say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

shopt -s nullglob
out=${WHEEL_OUT:-dist/python}
wheels=("$out"/trainer_explorer-*.whl)
sdists=("$out"/trainer_explorer-*.tar.gz)
((${#wheels[@]} == 1)) || die "expected one wheel in $out (make wheel), found ${#wheels[@]}"
((${#sdists[@]} == 1)) || die "expected one sdist in $out (make wheel), found ${#sdists[@]}"
wheel=$(realpath "${wheels[0]}")
sdist=$(realpath "${sdists[0]}")
[[ -x $explorer ]] || die "no cargo-built CLI at $explorer to compare with (cargo build, or set TRAINER_EXPLORER)"
[[ -d $real_v1 ]] || die "no real V1 jobs at $real_v1 (set TRAINER_REAL_V1)"
explorer=$(realpath "$explorer")
real_v1=$(realpath "$real_v1")

say "auditwheel show $(basename "$wheel")"
shown=$("$venv_tools/bin/auditwheel" show "$wheel")
echo "$shown"
# "... constrains the platform tag to "manylinux_2_17_x86_64"": glibc 2.17 or older.
glibc=$(grep -o 'manylinux_2_[0-9]*_x86_64' <<<"$shown" | head -1 | sed 's/manylinux_2_\([0-9]*\)_x86_64/\1/')
[[ -n $glibc ]] || die "auditwheel named no manylinux tag"
((glibc <= 17)) || die "the wheel needs glibc 2.$glibc: newer than manylinux2014 (2.17)"
[[ $(basename "$wheel") == *manylinux2014_x86_64* || $(basename "$wheel") == *manylinux_2_17_x86_64* ]] ||
  die "the wheel's file name carries no manylinux2014 tag: $(basename "$wheel")"

rm -rf "$work"
mkdir -p "$work"
say "a new venv with the wheel, and no cargo on PATH"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index "$wheel"
bin=$work/venv/bin
clean_path="$PWD/$bin:/usr/bin:/bin"
run() { env -i HOME="$HOME" PATH="$clean_path" LANG=C.UTF-8 "$@"; }
! run bash -c 'command -v cargo rustc' >/dev/null || die "cargo is on the test's PATH"

help=$(run trainer-explorer --help)
for command in migrate explain upgrade validate export; do
  grep -q "^  $command " <<<"$help" || die "trainer-explorer --help lists no $command:
$help"
done
! grep -qE '^  (post|fallback)' <<<"$help" || die "the wheel's CLI has the site's commands:
$help"
echo "trainer-explorer --help: lists migrate, explain, upgrade, validate, export; no post, no fallback"
module_help=$(run python -m trainer_explorer --help)
[[ $module_help == "$help" ]] || die "python -m trainer_explorer --help differs from trainer-explorer --help"
echo "python -m trainer_explorer --help: the same text"
found=$(run python -c 'import trainer_explorer; print(trainer_explorer.find_bin())')
[[ $(realpath "$found") == $(realpath "$bin/trainer-explorer") ]] || die "find_bin() gave $found, not $bin/trainer-explorer"
echo "find_bin(): $found"
# python -m passes the exit code and stderr through.
rc=0
run python -m trainer_explorer migrate /nonexistent.yaml 2>/dev/null || rc=$?
((rc == 1)) || die "python -m trainer_explorer migrate on a missing file exited $rc, not 1"

say "migrate over $real_v1: the wheel's binary against $explorer"
mapfile -t jobs < <(find "$real_v1" -maxdepth 1 -name '*.yaml' | sort)
((${#jobs[@]} > 0)) || die "no YAML files in $real_v1"
compare() {
  local name=$1
  shift
  local rc_wheel=0 rc_cargo=0
  run trainer-explorer "$@" >"$work/$name.wheel.out" 2>"$work/$name.wheel.err" || rc_wheel=$?
  "$explorer" "$@" >"$work/$name.cargo.out" 2>"$work/$name.cargo.err" || rc_cargo=$?
  ((rc_wheel == rc_cargo)) || die "$name: exit $rc_wheel (wheel) against $rc_cargo (cargo)"
  cmp "$work/$name.wheel.out" "$work/$name.cargo.out" || die "$name: stdout differs"
  cmp "$work/$name.wheel.err" "$work/$name.cargo.err" || die "$name: stderr differs"
  [[ -s $work/$name.wheel.out ]] || die "$name: no output"
  echo "$name: exit $rc_wheel, stdout $(wc -c <"$work/$name.wheel.out") bytes, stderr $(wc -l <"$work/$name.wheel.err") lines: equal"
}
compare migrate-yaml migrate "${jobs[@]}"
compare migrate-json migrate --format json "${jobs[@]}"

say "the sdist resolves the CLI's dependencies as this workspace does"
# maturin rewrites the sdist's Cargo.toml as a workspace of the CLI's crates only; one without the
# workspace's `resolver` fell back to resolver 1, which unified the tests' dependency features
# into the CLI's (serde_json's float_roundtrip among them), so pip built another CLI than the wheel.
# features DIR: every package of the CLI's build from DIR's workspace with its features, paths
# dropped. Not --locked: the old sdist's resolver 1 wanted another Cargo.lock, and this check
# should show the packages that differ, not stop at the lock file.
features() {
  (cd "$1" && cargo tree -p explorer-cli --no-default-features -e normal,build -f '{p} [{f}]' --prefix none) \
    >"$work/cargo-tree.txt" || die "cargo tree failed in $1"
  sed 's/ ([^)]*)//' "$work/cargo-tree.txt" | sort -u
}
mkdir -p "$work/sdist-tree"
tar -xzf "$sdist" -C "$work/sdist-tree"
sdist_root=("$work"/sdist-tree/*/)
ours=$(features .)
theirs=$(features "${sdist_root[0]}")
if [[ $ours != "$theirs" ]]; then
  diff <(echo "$ours") <(echo "$theirs") || true
  die "the sdist's workspace resolves the CLI's dependencies otherwise (< this workspace, > the sdist)"
fi
echo "sdist: the same $(wc -l <<<"$ours") packages and features as this workspace"

say "the sdist installs (pip builds it with cargo)"
python3 -m venv "$work/venv-sdist"
# Every dependency comes from this target dir after the first run, but our own crates must not:
# maturin stamps each file of the sdist 2006-07-24 (a reproducible archive), and cargo names a
# workspace crate's build by its path inside the workspace and judges it fresh by mtime, so an
# earlier run's build of a crate that changed since would be linked in. Ours are removed first.
cargo clean --quiet --release --target-dir "$PWD/target/python/sdist" \
  -p explorer-data -p explorer-core -p explorer-html -p explorer-cli
# This checks that the sdist builds with pip and cargo and runs, not how fast its binary is (the
# wheel above is the optimized one users download): its build, and the pre-commit hook's in the
# same target dir (scripts/test-pre-commit.sh), leave out the release profile's optimization and
# LTO, which were most of their CPU time.
CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false CARGO_TARGET_DIR=$PWD/target/python/sdist \
  "$work/venv-sdist/bin/pip" install --quiet "$sdist"
version=$("$work/venv-sdist/bin/trainer-explorer" --version)
[[ $version == "$(run trainer-explorer --version)" ]] || die "the sdist's binary says $version"
"$work/venv-sdist/bin/python" -c 'import trainer_explorer; print(trainer_explorer.find_bin())'
echo "sdist: $version"
say "the wheel and the sdist: every check passed"
