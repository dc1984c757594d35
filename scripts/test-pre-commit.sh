#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) as a user meets it: `pre-commit try-repo` of this
# repository on a scratch git repository of manifests. It must fail on an invalid TrainJob,
# printing the field and the message, and pass once the file is fixed. pre-commit comes from
# PyPI into a cached venv ($PRE_COMMIT_VENV); its hook environment (a build of this repository's
# Python package) is cached in target/python/pre-commit-home, and cargo reuses
# target/python/sdist for the build.
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

rm -rf "$work"
mkdir -p "$work"
cd "$work"
git init -q
git config user.email test@example.com
git config user.name test
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

say "pre-commit try-repo on an invalid TrainJob: must fail with the field and the message"
rc=0
"$venv/bin/pre-commit" try-repo "$repo" trainer-explorer-validate --all-files >"$work/fail.log" 2>&1 || rc=$?
cat "$work/fail.log"
((rc != 0)) || die "the hook passed an invalid TrainJob"
grep -q 'trainer-explorer validate.*Failed' "$work/fail.log" || die "pre-commit did not run the hook to a failure"
grep -q 'trainjob.yaml:1: TrainJob/fine-tune: spec.trainer.env: must not have reserved envs' "$work/fail.log" ||
  die "the hook's output does not name the file, the TrainJob and the field"

say "the same, fixed: must pass"
sed -i '/env:/,$d' trainjob.yaml
git commit -qam fixed
"$venv/bin/pre-commit" try-repo "$repo" trainer-explorer-validate --all-files >"$work/pass.log" 2>&1 ||
  { cat "$work/pass.log"; die "the hook failed on a valid TrainJob"; }
cat "$work/pass.log"
grep -q 'Passed' "$work/pass.log" || die "pre-commit did not say Passed"
say "pre-commit: fails on the invalid TrainJob, passes once fixed"
