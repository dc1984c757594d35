#!/usr/bin/env bash
# Fetches the pinned upstream reference files the tests read, into $1, when the shared
# reference folder is not there (a user's clone). The commits are the ones the reference
# README pins: kubeflow/trainer v2.3.0 and v1.9.4, kubeflow/mpi-operator v0.8.0, and for the
# CRDs and built-in runtimes every release line crates/data/src/releases.rs lists (one line each in
# `releases` below). REFERENCE_GIT_MIRROR=<git dir of kubeflow/trainer> reads the trainer files
# from a local mirror instead of the network.
set -euo pipefail
dest=${1:?usage: fetch-reference.sh DEST}
T230=658725bdae5c7e3a0854d93ac6ff492e109a22ab
T194=4445c12aa62e4345b0c2c6ac9b215a70eca46ed7
MPI=101db144e019e1de65aaded07745e9d805c2852a
raw=https://raw.githubusercontent.com
# The tag each release line serves (crates/data/src/releases.rs) and its commit.
releases=(
  "v2.0.1 332ad3939a000ecf837a37ecb1a56e3b0494562c"
  "v2.1.0 73c9bece741ce17d2124abda3ec6bfcf5b5b8e87"
  "v2.2.1 c505fc7ccec98bb326cee56144bc5ee92be5048d"
  "v2.3.0 $T230"
)
files=(
  "kubeflow/trainer $T230 examples/yaml/01-multi-node.yaml v2-examples/v2.3.0/01-multi-node.yaml"
  "kubeflow/trainer $T230 examples/yaml/02-runtime-patches.yaml v2-examples/v2.3.0/02-runtime-patches.yaml"
  "kubeflow/trainer $T230 examples/yaml/03-kueue-integration.yaml v2-examples/v2.3.0/03-kueue-integration.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_pytorchjobs.yaml v1-crds/kubeflow.org_pytorchjobs.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_tfjobs.yaml v1-crds/kubeflow.org_tfjobs.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_mpijobs.yaml v1-crds/kubeflow.org_mpijobs.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_xgboostjobs.yaml v1-crds/kubeflow.org_xgboostjobs.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_paddlejobs.yaml v1-crds/kubeflow.org_paddlejobs.yaml"
  "kubeflow/trainer $T194 manifests/base/crds/kubeflow.org_jaxjobs.yaml v1-crds/kubeflow.org_jaxjobs.yaml"
  "kubeflow/trainer $T194 examples/pytorch/simple.yaml v1-examples/pytorch/simple.yaml"
  "kubeflow/trainer $T194 examples/pytorch/cpu-demo/demo.yaml v1-examples/pytorch/cpu-demo/demo.yaml"
  "kubeflow/trainer $T194 examples/pytorch/elastic/echo/echo.yaml v1-examples/pytorch/elastic/echo/echo.yaml"
  "kubeflow/trainer $T194 examples/pytorch/mnist/v1/pytorch_job_mnist_gloo.yaml v1-examples/pytorch/mnist/v1/pytorch_job_mnist_gloo.yaml"
  "kubeflow/trainer $T194 examples/pytorch/deepspeed-demo/pytorch_deepspeed_demo.yaml v1-examples/pytorch/deepspeed-demo/pytorch_deepspeed_demo.yaml"
  "kubeflow/trainer $T194 examples/tensorflow/simple.yaml v1-examples/tensorflow/simple.yaml"
  "kubeflow/trainer $T194 examples/tensorflow/dist-mnist/tf_job_mnist.yaml v1-examples/tensorflow/dist-mnist/tf_job_mnist.yaml"
  "kubeflow/trainer $T194 examples/mpi/tensorflow-mnist.yaml v1-examples/mpi/tensorflow-mnist.yaml"
  "kubeflow/trainer $T194 examples/xgboost/xgboostjob.yaml v1-examples/xgboost/xgboostjob.yaml"
  "kubeflow/trainer $T194 examples/xgboost/smoke-dist/xgboostjob_v1_rabit_test.yaml v1-examples/xgboost/smoke-dist/xgboostjob_v1_rabit_test.yaml"
  "kubeflow/trainer $T194 examples/paddlepaddle/simple-cpu.yaml v1-examples/paddlepaddle/simple-cpu.yaml"
  "kubeflow/trainer $T194 examples/paddlepaddle/simple-gpu.yaml v1-examples/paddlepaddle/simple-gpu.yaml"
  "kubeflow/trainer $T194 examples/jax/cpu-demo/demo.yaml v1-examples/jax/cpu-demo/demo.yaml"
  "kubeflow/trainer $T194 examples/jax/jax-dist-spmd-mnist/jaxjob_dist_spmd_mnist_gloo.yaml v1-examples/jax/jax-dist-spmd-mnist/jaxjob_dist_spmd_mnist_gloo.yaml"
  "kubeflow/mpi-operator $MPI manifests/base/kubeflow.org_mpijobs.yaml mpi-operator-v2beta1/kubeflow.org_mpijobs.yaml"
  "kubeflow/mpi-operator $MPI examples/v2beta1/pi/pi.yaml mpi-operator-v2beta1/pi.yaml"
)
tmp=$(mktemp -d)
# get REPO COMMIT SRC OUT: one upstream file into $tmp/OUT.
get() {
  mkdir -p "$tmp/$(dirname "$4")"
  if [[ -n ${REFERENCE_GIT_MIRROR:-} && $1 == kubeflow/trainer ]]; then
    git -C "$REFERENCE_GIT_MIRROR" show "$2:$3" >"$tmp/$4"
  else
    curl -fsSL --retry 2 "$raw/$1/$2/$3" -o "$tmp/$4"
  fi || { echo "error: could not fetch $1@$2:$3 (no network?)" >&2; exit 1; }
}
# base_runtimes COMMIT DIR OUT: a kustomization and the resources it lists, folders recursively.
base_runtimes() {
  get kubeflow/trainer "$1" "$2/kustomization.yaml" "$3/kustomization.yaml"
  local res resources
  mapfile -t resources < <(sed -n 's/^  - //p' "$tmp/$3/kustomization.yaml")
  for res in "${resources[@]}"; do
    if [[ $res == *.yaml ]]; then
      get kubeflow/trainer "$1" "$2/$res" "$3/$res"
    else
      base_runtimes "$1" "$2/$res" "$3/$res"
    fi
  done
}
for entry in "${files[@]}"; do
  read -r repo commit src out <<<"$entry"
  get "$repo" "$commit" "$src" "$out"
done
for entry in "${releases[@]}"; do
  read -r tag commit <<<"$entry"
  for crd in trainjobs trainingruntimes clustertrainingruntimes; do
    f=trainer.kubeflow.org_$crd.yaml
    get kubeflow/trainer "$commit" "manifests/base/crds/$f" "v2-crds/$tag/$f"
  done
  get kubeflow/trainer "$commit" manifests/overlays/runtimes/kustomization.yaml "v2-runtimes/$tag/overlay-kustomization.yaml"
  base_runtimes "$commit" manifests/base/runtimes "v2-runtimes/$tag"
done
mkdir -p "$(dirname "$dest")"
rm -rf "$dest" && mv "$tmp" "$dest"
echo "reference data fetched into $dest"
