#!/usr/bin/env bash
# Downloads the pinned SDK wheels (no dependencies, nothing installed) and unpacks them for the
# static signature checker in tests/python/check_snippets.py: every `kubeflow` SDK a Trainer
# release pairs with (crates/data/src/releases.rs `sdk`; the checker itself reads the pairing from each
# wheel's METADATA), kubeflow-training for V1 and the transformers/peft its [huggingface] extra pins.
# crates/data/tests/it/release_facts.rs fails when the SDK pins below differ from crates/data/src/releases.rs and V1_SDK.
# Each wheel gets its own folder and is fetched once. .tools is shared by the worktrees: this
# folder is not the older .tools/wheels (one SDK only), which other checkouts may still use.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.tools/sdk-wheels
pins=(kubeflow==0.3.1 kubeflow==0.4.1 kubeflow==0.5.0 kubeflow-training==1.9.4 transformers==4.50.2 peft==0.15.1)
mkdir -p "$dest" .tools/dl
for pin in "${pins[@]}"; do
  name=${pin%%==*}
  version=${pin##*==}
  folder=$(compgen -G "$dest/${name//-/_}-$version-*" || compgen -G "$dest/$name-$version-*" || true)
  [[ -n $folder && -f $folder/.complete ]] && continue
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d .tools/dl "$pin"
  whl=$(compgen -G ".tools/dl/${name//-/_}-$version-*.whl" || compgen -G ".tools/dl/$name-$version-*.whl")
  folder=$dest/$(basename "$whl" .whl)
  rm -rf "$folder"
  python3 -m zipfile -e "$whl" "$folder"
  touch "$folder/.complete"
done
