#!/usr/bin/env bash
# `make test`: every check the Makefile's test-* targets run, each exactly once, ordered so that
# both cores stay busy to the end (BENCHMARKS.md, make test: the stage graph and its figures):
#   1. background: the pip installs (the SDK wheels and venvs, the Sphinx venvs, maturin, the npm
#      package's linters; nothing in the
#      foreground needs them, or runs pip, before `finish installs`), and the training
#      frameworks (apt and pip, started once the foreground's apt installs are done);
#      foreground: rustfmt, then the native tests, linted as they build (below), which build
#      the CLI everything below runs;
#   2. background, at a lower priority (nice): the bounded fuzzing (fuzz/), the Python checks and
#      the training runs (only the CLI and the venvs), and the wheel and sdist, built and checked
#      against that CLI (scripts/test-wheel.sh), then the pre-commit hook
#      (scripts/test-pre-commit.sh): CPU work that waits on no clock of a browser test;
#      foreground: the site and the example sites, which the browser stages below need;
#   3. background: the wasm tests in Chromium and Firefox and the lazy modules' clippy (low
#      priority too), the three host sites' builds and the npm package's consumer sites' builds
#      (their registry dependencies were installed in the background during step 1);
#      foreground: the end-to-end tests, two files at a time;
#   4. the host sites' tests beside the consumer sites' tests; then the background's ends.
# The browser stages (3 and 4) mostly wait on pages: the low-priority CPU work of step 2 fills the
# cores they leave idle, and takes the CPU only when a browser test does not want it, so their
# waits see what they saw before.
# A background job's output is printed whole when it is waited for, and its failure fails the run.
# --baseline (make test-baseline): the same without the checks this round added (the wheel, sdist
# and pre-commit hook; the npm package's consumer sites; the TensorFlow and PaddlePaddle training
# runs; bounded fuzzing), which issue 37 times apart from the whole suite.
set -euo pipefail
with_additions=true
case ${1:-} in
  --baseline) with_additions=false ;;
  '') ;;
  *) echo "usage: scripts/test-all.sh [--baseline]" >&2 && exit 2 ;;
esac
# The frameworks the training runs had before TensorFlow and PaddlePaddle (Makefile, test-training).
$with_additions || export TRAINING_FRAMEWORKS="pytorch jax xgboost mlx"
cd "$(dirname "$0")/.."
logs=target/test-logs
mkdir -p "$logs"
m() { make --no-print-directory "$@"; }
stamp() { printf '\n==> %s %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# CPU per stage: each stage runs in a subshell whose EXIT trap writes `times` (its children's user
# and system seconds: everything the stage ran and waited for), the stage's wall seconds and the
# core-seconds the whole machine left idle meanwhile (/proc/stat) to $logs/NAME.cpu, failed or
# not; `cpu_table` prints them at the end (BENCHMARKS.md, make test). On an otherwise idle machine
# the idle column shows where the stages leave a core unused.
: >"$logs/stages"
# The machine's idle time so far, in clock ticks (idle + iowait of /proc/stat's first line).
idle_ticks() { awk '/^cpu / { print $5 + $6; exit }' /proc/stat 2>/dev/null || echo 0; }
# Its busy time so far (user, nice, system, irq, softirq and steal): every process's, the ones the
# stages' `times` cannot count (whatever a stage started and did not wait for) and any other
# user's included. The last fresh clone's stages counted 1,486 s of CPU while 2 cores x 944 s,
# less 22 idle, were used: this shows where the rest went in the next run.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat 2>/dev/null || echo 0; }
# measured NAME CMD...: runs CMD (a command or a function) as stage NAME.
measured() {
  local name=$1
  shift
  echo "$name" >>"$logs/stages"
  (
    began=$(date +%s) idle_began=$(idle_ticks)
    # `times` itself, not in a pipe: a forked subshell's counters start at zero.
    # shellcheck disable=SC2329 # called by the EXIT trap
    record() {
      times >"$logs/$name.cpu" &&
        echo "$(($(date +%s) - began)) $((($(idle_ticks) - idle_began) / $(getconf CLK_TCK)))" >>"$logs/$name.cpu"
    }
    trap record EXIT
    "$@"
  )
}
# The table of $logs/NAME.cpu, in the order the stages started, and their sum.
cpu_table() {
  local name
  printf '\nCPU per stage (user + system seconds; background stages overlap the others):\n'
  while read -r name; do
    if [[ -s $logs/$name.cpu ]]; then echo "$name" && cat "$logs/$name.cpu"; fi
  done <"$logs/stages" | awk '
    function sec(t) { split(t, a, /[ms]/); return a[1] * 60 + a[2] }
    NR % 4 == 1 { name = $1 }
    NR % 4 == 3 { user = sec($1); sys = sec($2) }
    NR % 4 == 0 {
      printf "  %-16s %7.1f s CPU (%6.1f user + %5.1f sys) %5d s wall, machine idle %5d core-s\n", name, user + sys, user, sys, $1, $2
      total += user + sys
    }
    END { printf "  %-16s %7.1f s CPU\n", "all stages", total }'
  printf '  %-16s %7d s wall, machine idle %5d core-s\n' "the whole run" $(($(date +%s) - run_began)) \
    $((($(idle_ticks) - run_idle) / $(getconf CLK_TCK)))
  printf '  %-16s %7d core-s busy meanwhile (every process on it, counted by the stages or not)\n' "the machine" \
    $((($(busy_ticks) - run_busy) / $(getconf CLK_TCK)))
}
run_began=$(date +%s) run_idle=$(idle_ticks) run_busy=$(busy_ticks)

declare -A pids
# start NAME CMD...: runs CMD in the background, its output to $logs/NAME.log.
# start --low NAME CMD...: the same at a lower priority (nice 10 more than the run's own), so
# that CMD gets the CPU the foreground leaves; CMD may be a function this script exports.
start() {
  local low=()
  if [[ $1 == --low ]]; then
    low=(nice -n 10 bash -c '"$@"' low)
    shift
  fi
  local name=$1
  shift
  stamp "started in the background${low:+ (low priority)}: $name"
  set -m # job control: the job gets a process group of its own (its id is the job's pid)
  measured "$name" "${low[@]}" "$@" >"$logs/$name.log" 2>&1 &
  pids[$name]=$!
  set +m
}
# finish NAME: waits for NAME, prints its output, and stops here if it failed.
finish() {
  local name=$1 rc=0
  wait "${pids[$name]}" || rc=$?
  stamp "background job $name ended (exit $rc); its output:"
  cat "$logs/$name.log"
  if ((rc != 0)); then
    echo "error: $name failed (exit $rc)" >&2
    exit "$rc"
  fi
}
# On any exit, no background job is left running, nor anything it started (make, cargo, pip,
# a browser): each job's whole process group is ended.
stop_jobs() {
  local p
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
}
trap stop_jobs EXIT

# The npm package's linters (publint, attw: `package`) too, which make dist would otherwise install
# on the critical path (npm ci: 7.7 s wall, 2.9 s CPU).
# The wheel's tools (maturin: `wheel`) only for the wheel's stage.
installs() {
  scripts/fetch-wheels.sh
  scripts/fetch-sdk-venvs.sh
  if $with_additions; then scripts/install-tools.sh venvs wheel package; else scripts/install-tools.sh venvs package; fi
}
start installs installs
# The npm consumer sites' dependencies (Vite, Docusaurus) from the registry: network-bound, and
# they need no tarball yet.
if $with_additions; then start consumer-deps scripts/build-consumers.sh --deps; fi
# The same for the Hugo host site (scripts/build-hosts.sh --deps), which the host sites' build,
# during the end-to-end tests, then only links.
start host-deps scripts/build-hosts.sh --deps

# Lint while building: clippy is the compiler wrapper of the test builds below, as `cargo clippy`
# makes it of a check build, so every dependency is compiled once, not checked and then built
# again (about 5 minutes of this run). The targets are make lint's: `cargo test` builds the lib,
# the CLI, the examples and every test natively, and the wasm tests build the lib and its browser
# tests for wasm (the two lazily loaded modules get a check of their own, below). CLIPPY_ARGS is
# how cargo clippy passes `-D warnings` to clippy-driver.
clippy_driver=$(command -v clippy-driver) || { echo "error: clippy-driver not found: rustup component add clippy" >&2; exit 1; }
linted() { RUSTC_WORKSPACE_WRAPPER=$clippy_driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__ "$@"; }

# The wasm tests, built for wasm32 (CPU) and run in Chromium and Firefox under wasm-bindgen's own
# timeout (WASM_BINDGEN_TEST_TIMEOUT); then the lazily loaded modules, which are in no test build
# for wasm, and the core feature by feature: clippy checks them (make lint's). One job, since all
# build in target/.
browser_tests() {
  stamp "test-browser, linted by clippy as it builds"
  linted m test-browser || return
  stamp "clippy for the converter, explain and upgrade modules (wasm32)"
  m lint-wasm-modules || return
  # The core and its views with no feature and each feature alone, as the lazily loaded modules
  # build them: an item one feature compiles and only another uses warns in no other check.
  stamp "clippy for explorer-core and explorer-html, feature by feature"
  m lint-core-features
}
# What a low-priority job (start --low) runs in a bash of its own.
export clippy_driver
export -f m stamp linted browser_tests

# Every tool first, outside the wrapper: a `cargo install` under it would lint the tool it builds.
measured tools scripts/install-tools.sh build browser firefox
# After the apt installs above, so that no two apt-get runs meet.
start frameworks scripts/fetch-framework-venvs.sh

# make lint's lint-scripts (shellcheck, ruff and eslint on our scripts; their PyPI install and
# about 10 s of linting), beside cargo.
start lint-scripts m lint-scripts
stamp "rustfmt"
measured rustfmt cargo fmt --check
stamp "test-native, linted by clippy as it builds"
measured native linted m test-native
# The CLI the rest runs, as test-native's `cargo test` built it (scripts/explorer.sh says why).
TRAINER_EXPLORER=$(m -s print-explorer)
[[ $TRAINER_EXPLORER == /* ]] || TRAINER_EXPLORER=$PWD/$TRAINER_EXPLORER
export TRAINER_EXPLORER

# Fuzzing, bounded (8 s per target, two targets at a time, plus its own build): beside the rest.
if $with_additions; then start --low fuzz scripts/fuzz.sh 8; fi
finish lint-scripts
finish installs
finish frameworks
start --low python m test-python
start --low training m test-training
# The wheel (a release build into its own target dir, target/python) and the sdist, checked as a
# pip user gets them against the CLI test-native built; CPU heavy, so it fills the cores the
# browser stages leave idle rather than waits for them. The wheel is built without the release
# profile's optimization and LTO, into target/python/check-dist (scripts/build-wheel.sh,
# WHEEL_OPTIMIZE=0, says why): none of the checks depends on them, and they were most of its CPU.
if $with_additions; then
  start --low wheel bash -c 'WHEEL_OPTIMIZE=0 WHEEL_OUT=target/python/check-dist make --no-print-directory test-wheel &&
    make --no-print-directory test-pre-commit'
fi
# The site first: the browser stages (e2e, host and consumer sites) wait for it, the wasm tests
# do not. Its cargo build holds the target dir's lock, which the wasm tests' build would wait for.
stamp "dist and the example sites"
measured dist m examples

finish host-deps
start host-sites bash -c 'scripts/install-tools.sh hosts && scripts/build-hosts.sh'
if $with_additions; then
  finish consumer-deps
  start consumer-sites scripts/build-consumers.sh
fi
start --low browser browser_tests
stamp "end-to-end tests"
measured e2e m e2e-run
finish host-sites
# The two sites' tests side by side: each mostly waits on its pages.
if $with_additions; then
  finish consumer-sites
  start consumers-run m consumers-run
fi
stamp "the host sites' tests"
measured hosts-run m hosts-run
if $with_additions; then finish consumers-run; fi
finish browser
finish python
finish training
if $with_additions; then
  finish wheel
  finish fuzz
  stamp "make test: every check passed"
else
  stamp "make test-baseline: every check passed (not run: the wheel, sdist and pre-commit hook, the consumer sites, TensorFlow and PaddlePaddle training, fuzzing)"
fi
cpu_table || echo "note: the CPU table could not be written" >&2
