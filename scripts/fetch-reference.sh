#!/usr/bin/env bash
# Fetches the pinned upstream reference files the tests read, into $1, when the shared
# reference folder is not there (a user's clone). The commits are the ones the reference
# README pins: kubeflow/trainer v2.3.0 and v1.9.4, kubeflow/mpi-operator v0.8.0.
set -euo pipefail
dest=${1:?usage: fetch-reference.sh DEST}
T230=658725bdae5c7e3a0854d93ac6ff492e109a22ab
T194=4445c12aa62e4345b0c2c6ac9b215a70eca46ed7
MPI=101db144e019e1de65aaded07745e9d805c2852a
raw=https://raw.githubusercontent.com
files=(
  "kubeflow/trainer $T230 manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml v2-crds/v2.3.0/trainer.kubeflow.org_trainjobs.yaml"
  "kubeflow/trainer $T230 manifests/base/crds/trainer.kubeflow.org_trainingruntimes.yaml v2-crds/v2.3.0/trainer.kubeflow.org_trainingruntimes.yaml"
  "kubeflow/trainer $T230 manifests/base/crds/trainer.kubeflow.org_clustertrainingruntimes.yaml v2-crds/v2.3.0/trainer.kubeflow.org_clustertrainingruntimes.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/torch_distributed.yaml v2-runtimes/v2.3.0/torch_distributed.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/deepspeed_distributed.yaml v2-runtimes/v2.3.0/deepspeed_distributed.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/mlx_distributed.yaml v2-runtimes/v2.3.0/mlx_distributed.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/jax_distributed.yaml v2-runtimes/v2.3.0/jax_distributed.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/xgboost_distributed.yaml v2-runtimes/v2.3.0/xgboost_distributed.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/torchtune/llama3_2/llama3_2_1B.yaml v2-runtimes/v2.3.0/torchtune/llama3_2/llama3_2_1B.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/torchtune/llama3_2/llama3_2_3B.yaml v2-runtimes/v2.3.0/torchtune/llama3_2/llama3_2_3B.yaml"
  "kubeflow/trainer $T230 manifests/base/runtimes/torchtune/qwen2_5/qwen2_5_1.5B.yaml v2-runtimes/v2.3.0/torchtune/qwen2_5/qwen2_5_1.5B.yaml"
  "kubeflow/trainer $T230 manifests/overlays/runtimes/kustomization.yaml v2-runtimes/v2.3.0/overlay-kustomization.yaml"
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
for entry in "${files[@]}"; do
  read -r repo commit src out <<<"$entry"
  mkdir -p "$tmp/$(dirname "$out")"
  curl -fsSL --retry 2 "$raw/$repo/$commit/$src" -o "$tmp/$out" \
    || { echo "error: could not fetch $repo@$commit:$src (no network?)" >&2; exit 1; }
done
mkdir -p "$(dirname "$dest")"
rm -rf "$dest" && mv "$tmp" "$dest"
echo "reference data fetched into $dest"
