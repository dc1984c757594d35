#!/usr/bin/env bash
# Installs the CPU builds of the training frameworks that tests/python/run_training.py runs the
# panes' training code with. Idempotent: what is installed with the same pins is kept.
#   - torch: Debian's python3-torch (1.13, CPU only, about 250 MB installed) for /usr/bin/python3.
#     PyPI's Linux torch wheels pull gigabytes of CUDA libraries, so none comes from pip. As root
#     through apt; elsewhere the harness fails, saying torch is missing.
#   - OpenMPI (Debian's openmpi-bin), whose mpirun the MPI runtimes' launcher runs.
#   - JAX, XGBoost and MLX: PyPI's CPU wheels (jax[cpu], xgboost-cpu, mlx[cpu]) in
#     .tools/venv-frameworks.
#   - TensorFlow and PaddlePaddle (the migrated TFJob and PaddleJob): PyPI's CPU wheels
#     (tensorflow-cpu, paddlepaddle) in venvs of their own, .tools/venv-tensorflow and
#     .tools/venv-paddle: each pins its own numpy and protobuf, which clash with JAX's.
# DeepSpeed is not installed: run_training.py says why it cannot run its pane.
set -euo pipefail
cd "$(dirname "$0")/.."
pins=("jax[cpu]==0.10.2" "xgboost-cpu==3.2.0" "mlx[cpu]==0.32.4")
venv=.tools/venv-frameworks

missing=()
/usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || missing+=(python3-torch)
command -v mpirun >/dev/null || missing+=(openmpi-bin)
# run_training.py brings up loopback in each case's network namespace with ip.
command -v ip >/dev/null || missing+=(iproute2)
if (( ${#missing[@]} )); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "fetch-framework-venvs: installing ${missing[*]} (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "fetch-framework-venvs: ${missing[*]} missing and need root and apt; run_training.py will fail on them"
  fi
fi

# A venv with these pins, kept when its .complete names the same pins (and linked from the
# machine's venv cache when it has one: scripts/venv-cache.sh).
source scripts/venv-cache.sh
pip_install() { "$new_venv/bin/python" -m pip install --quiet "$@"; }
install_venv() {
  local dir=$1
  shift
  if [[ -f $dir/.complete ]] && [[ "$(cat "$dir/.complete")" == "$*" ]]; then
    return 0
  fi
  echo "fetch-framework-venvs: installing $* into $dir"
  cached_venv "$dir" "$@" -- pip_install "$@"
}

# wanted FRAMEWORK: whether make test-training runs it (TRAINING_FRAMEWORKS, the Makefile's, empty
# for every one).
wanted() { [[ -z ${TRAINING_FRAMEWORKS:-} || " $TRAINING_FRAMEWORKS " == *" $1 "* ]]; }
install_venv "$venv" "${pins[@]}"
if wanted tensorflow; then install_venv .tools/venv-tensorflow "tensorflow-cpu==2.21.0"; fi
if wanted paddle; then install_venv .tools/venv-paddle "paddlepaddle==3.3.1"; fi
