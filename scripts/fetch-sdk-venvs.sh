#!/usr/bin/env bash
# Installs the pinned SDKs, with their real dependencies, into one venv each under .tools, for
# tests/python/run_snippets.py to run the Python panes with. kubeflow (V2) and kubeflow-training
# (V1) both ship the `kubeflow` package, so they cannot share a venv. Idempotent: a venv whose
# marker names the same pin is kept, so a second run costs a few stat calls.
# Usage: fetch-sdk-venvs.sh [PIN...]   (default: every kubeflow SDK a Trainer release pairs
# with in crates/data/src/releases.rs, and the V1 SDK; crates/data/tests/it/release_facts.rs fails when they differ)
set -euo pipefail
cd "$(dirname "$0")/.."
# Linked from the machine's venv cache when it has one (scripts/venv-cache.sh).
source scripts/venv-cache.sh
pip_install() { "$new_venv/bin/python" -m pip install --quiet "$@"; }
pins=("$@")
[[ ${#pins[@]} -gt 0 ]] || pins=(kubeflow==0.3.1 kubeflow==0.4.1 kubeflow==0.5.0 kubeflow-training==1.9.4)
for pin in "${pins[@]}"; do
  name=${pin%%==*}
  version=${pin##*==}
  case $name in
    kubeflow) venv=.tools/venv-kubeflow-$version ;;
    kubeflow-training) venv=.tools/venv-training-$version ;;
    *) echo "fetch-sdk-venvs: no venv name for $pin" >&2; exit 2 ;;
  esac
  if [[ -f $venv/.complete ]] && [[ "$(cat "$venv/.complete")" == "$pin" ]]; then
    continue
  fi
  echo "fetch-sdk-venvs: installing $pin into $venv"
  # PyYAML: the harness reads the shipped runtimes with it; the SDKs depend on it already.
  cached_venv "$venv" "$pin" -- pip_install "$pin" pyyaml
done
