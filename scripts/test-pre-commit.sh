#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) as a user meets it: a .pre-commit-config.yaml that
# names this repository at a commit, and `pre-commit run` on a scratch git repository of
# manifests. It must fail on an invalid TrainJob, printing the field and the message, and pass
# once the file is fixed. pre-commit comes from PyPI into a cached venv ($PRE_COMMIT_VENV).
# The repository pre-commit installs is a snapshot of this working tree (its tracked and
# untracked, not ignored, files: what `pre-commit try-repo` would take), committed with fixed
# dates, so one tree is one commit. pre-commit keeps the hook's environment (a release build of
# this repository's Python package) in its store, target/python/pre-commit-home, by repository
# and commit: the second run reuses the first's build, as a user's second commit does. (try-repo
# makes a new store each time, so it built the CLI twice: 174 CPU-seconds for this script, 71
# now, dependencies built.) cargo builds into target/python/sdist, whose dependencies the sdist's
# install (scripts/test-wheel.sh) built.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
venv=$(realpath -m "${PRE_COMMIT_VENV:-.tools/venv-pre-commit}")
work=$repo/target/python/pre-commit-test
say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

if ! "$venv/bin/pre-commit" --version >/dev/null 2>&1; then
  say "installing pre-commit into $venv (PyPI)"
  python3 -m venv --clear "$venv"
  "$venv/bin/pip" install --quiet pre-commit==4.7.0
fi
export PRE_COMMIT_HOME=$repo/target/python/pre-commit-home
export CARGO_TARGET_DIR=$repo/target/python/sdist
# The sdist's check builds there without the release profile's optimization and LTO
# (scripts/test-wheel.sh says why): the same settings, so the dependencies it built are reused.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false

# The snapshot: every file `git ls-files` names that exists (a deleted tracked file is left out).
snapshot=$repo/target/python/pre-commit-repo
rm -rf "$snapshot" "$work"
mkdir -p "$snapshot" "$work"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do [[ -e $file || -L $file ]] && printf '%s\0' "$file"; done |
  xargs -0 cp -P --parents -t "$snapshot")
commit() {
  GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
    git -c user.email=test@example.com -c user.name=test commit -q "$@"
}
(cd "$snapshot" && git init -q && git add -A && commit -m snapshot)
rev=$(git -C "$snapshot" rev-parse HEAD)

cd "$work"
git init -q
git config user.email test@example.com
git config user.name test
# The config is YAML too: left out of the files the hook checks, which are the two below.
cat >.pre-commit-config.yaml <<YAML
exclude: ^\.pre-commit-config\.yaml\$
repos:
  - repo: $snapshot
    rev: $rev
    hooks:
      - id: trainer-explorer-validate
YAML
cat >trainjob.yaml <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: fine-tune
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: 2
    env:
    - name: PET_NNODES
      value: "4"
YAML
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n' >configmap.yaml
git add -A
git commit -qm manifests

say "pre-commit run on an invalid TrainJob: must fail with the field and the message"
rc=0
"$venv/bin/pre-commit" run trainer-explorer-validate --all-files >"$work/fail.log" 2>&1 || rc=$?
cat "$work/fail.log"
((rc != 0)) || die "the hook passed an invalid TrainJob"
grep -q 'trainer-explorer validate.*Failed' "$work/fail.log" || die "pre-commit did not run the hook to a failure"
grep -q 'trainjob.yaml:1: TrainJob/fine-tune: spec.trainer.env: must not have reserved envs' "$work/fail.log" ||
  die "the hook's output does not name the file, the TrainJob and the field"

say "the same, fixed: must pass"
sed -i '/env:/,$d' trainjob.yaml
git commit -qam fixed
"$venv/bin/pre-commit" run trainer-explorer-validate --all-files >"$work/pass.log" 2>&1 ||
  { cat "$work/pass.log"; die "the hook failed on a valid TrainJob"; }
cat "$work/pass.log"
grep -q 'Passed' "$work/pass.log" || die "pre-commit did not say Passed"
# The hook's environment was built once, by the first run.
! grep -q 'Installing environment' "$work/pass.log" || die "pre-commit built the hook's environment again"
say "pre-commit: fails on the invalid TrainJob, passes once fixed"
