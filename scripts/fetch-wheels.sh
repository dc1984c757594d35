#!/usr/bin/env bash
# Downloads the pinned SDK wheels (no dependencies, nothing installed) and unpacks them for the
# static signature checker in tests/python/check_snippets.py.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tools/wheels
pins=(kubeflow==0.5.0 kubeflow-training==1.9.4 transformers==4.50.2 peft==0.15.1)
if [[ -f $dest/.complete ]] && [[ "$(cat $dest/.complete)" == "${pins[*]}" ]]; then
  exit 0
fi
rm -rf "$dest" .tools/dl
python3 -m pip download --quiet --no-deps --only-binary=:all: -d .tools/dl "${pins[@]}"
for whl in .tools/dl/*.whl; do
  python3 -m zipfile -e "$whl" "$dest/$(basename "$whl" .whl)"
done
echo "${pins[*]}" > "$dest/.complete"
