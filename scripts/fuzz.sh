#!/usr/bin/env bash
# Fuzzing with libFuzzer (`cargo fuzz`, fuzz/): each target for SECONDS, seeded with the public V1
# manifests (../shared/real-v1), the upstream conformance cases (crates/core/tests/conformance), the reference
# examples and a few widget queries. A crash, a hang (-timeout) or a blow-up (-rss_limit_mb) fails
# the run, and libFuzzer writes the input to fuzz/artifacts/TARGET/.
#   scripts/fuzz.sh SECONDS [TARGET...]    # make test: 8 s each; make fuzz: 300 s each
# Two targets run at a time (FUZZ_JOBS).
# cargo-fuzz passes nightly-only flags; RUSTC_BOOTSTRAP=1 lets the stable toolchain take them.
# No sanitizer (-s none): coverage-guided only, which is what finds panics, hangs and memory
# growth in safe Rust, at several times the speed of an ASan build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
((${#targets[@]})) || targets=(door migrate upgrade explain converter explain_query)
scripts/install-tools.sh fuzz

seeds=fuzz/corpus/seeds
rm -rf "$seeds" && mkdir -p "$seeds"
reference=${TRAINER_REFERENCE:-../shared/reference}
real_v1=${TRAINER_REAL_V1:-../shared/real-v1}
n=0
while IFS= read -r -d '' f; do
  cp "$f" "$seeds/$n.yaml"
  n=$((n + 1))
done < <(find "$real_v1" crates/core/tests/conformance "$reference/v1-examples" "$reference/v2-examples" -type f \( -name '*.yaml' -o -name '*.yml' \) -size -256k -print0 2>/dev/null)
for q in "framework=pytorch" "persona=data-scientist&framework=jax&nodes=4&release=v2.1" "framework=deepspeed&nodes=2" "release=v9"; do
  printf '%s' "$q" > "$seeds/query-$n"
  n=$((n + 1))
done
echo "fuzz: $n seeds; ${#targets[@]} targets, $seconds s each"

export RUSTC_BOOTSTRAP=1
# libFuzzer itself, the 26 C++ files libfuzzer-sys's build script compiles (about 34 s of CPU,
# a fifth of this script's build), is kept once per machine, as the venvs and the consumer
# sites' npm dependencies are (scripts/venv-cache.sh): $TRAINER_LIBFUZZER_CACHE, default
# ~/.cache/trainer-v2-explorer/libfuzzer; set it empty to compile it every time. The archive kept
# is the one libfuzzer-sys's own build wrote, named by what decides its bytes (the versions of
# libfuzzer-sys, cc, cargo-fuzz and the C++ compiler, the compiler variables, and
# fuzz/Cargo.toml's profile), and a later build links it through libfuzzer-sys's
# CUSTOM_LIBFUZZER_PATH instead of compiling it again. Only this third-party archive is kept:
# a target dir shared by clones would let cargo judge our own crates fresh by mtime across
# checkouts (scripts/test-wheel.sh says how).
# A CUSTOM_LIBFUZZER_PATH of the caller's own is left as it is.
libfuzzer_cache=${TRAINER_LIBFUZZER_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/trainer-v2-explorer/libfuzzer}
libfuzzer_fill=
if [[ -n $libfuzzer_cache && -z ${CUSTOM_LIBFUZZER_PATH:-} ]]; then
  libfuzzer_key=$( {
    grep -A1 -E '^name = "(libfuzzer-sys|cc)"$' fuzz/Cargo.lock
    cargo fuzz --version
    c++ --version | head -1
    echo "${CC:-} ${CXX:-} ${CFLAGS:-} ${CXXFLAGS:-}"
    cat fuzz/Cargo.toml
  } | sha256sum | cut -c1-16)
  libfuzzer_cached=$libfuzzer_cache/$libfuzzer_key/libfuzzer.a
  if [[ -f $libfuzzer_cached ]]; then
    echo "fuzz: libFuzzer from $libfuzzer_cached"
    export CUSTOM_LIBFUZZER_PATH=$libfuzzer_cached
  else
    libfuzzer_fill=1
  fi
fi
cargo fuzz build -s none # every target at once
if [[ -n $libfuzzer_fill ]]; then
  # The archive this build compiled (the newest, should an older build's be there too), copied
  # whole before it is named, so that a build beside this one never links half a file.
  built=$(find "${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release/build" -path '*/libfuzzer-sys-*/out/libfuzzer.a' \
    -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-)
  if [[ -n $built ]]; then
    mkdir -p "${libfuzzer_cached%/*}"
    cp "$built" "$libfuzzer_cached.$$" && mv -f "$libfuzzer_cached.$$" "$libfuzzer_cached"
    echo "fuzz: libFuzzer kept in $libfuzzer_cached"
  fi
fi
mkdir -p fuzz/logs
# fuzz_target T: fuzzes T for $seconds, its output in fuzz/logs/T.log.
fuzz_target() {
  mkdir -p "fuzz/corpus/$1"
  # -max_len: room for the alias and nesting shapes; -timeout: one input over 20 s is a hang;
  # -rss_limit_mb: the door bounds what an input may cost (BENCHMARKS.md, Peak memory).
  cargo fuzz run -s none "$1" "fuzz/corpus/$1" "$seeds" -- \
    -max_total_time="$seconds" -max_len=262144 -timeout=20 -rss_limit_mb=1536 -print_final_stats=1 \
    >"fuzz/logs/$1.log" 2>&1
}
# FUZZ_JOBS targets at a time (default 2): libFuzzer runs one thread, so one target at a time left
# a core idle for the whole run (make test's last minute; half of make fuzz's 30).
jobs=${FUZZ_JOBS:-2}
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
  batch=("${targets[@]:i:jobs}")
  pids=()
  set -m # each target in a process group of its own (its id is the pid), for the kill below
  for t in "${batch[@]}"; do
    fuzz_target "$t" &
    pids+=("$!")
  done
  set +m
  for j in "${!batch[@]}"; do
    t=${batch[j]}
    rc=0
    wait "${pids[j]}" || rc=$?
    echo "==> fuzz $t ($seconds s)"
    grep -E 'INFO: seed corpus|DONE|stat::number_of_executed_units|panicked|ERROR|SUMMARY|Test unit written' "fuzz/logs/$t.log" || true
    if ((rc != 0)); then
      tail -40 "fuzz/logs/$t.log"
      echo "error: fuzz target $t failed (exit $rc); the input is in fuzz/artifacts/$t/" >&2
      # The other target of the batch ends with this script, its cargo and libFuzzer too.
      for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
      exit "$rc"
    fi
  done
done
echo "fuzz: every target ran $seconds s without a crash, hang or blow-up"
