#!/usr/bin/env python3
"""Runs the training code of the data scientist's panes the way the cluster runs it, on CPU, and
checks that the processes form one job.

For every Trainer release line and every framework whose V2 pane holds a training function
(`CustomTrainer(func=train)`), with two nodes and no GPUs:
  - the pods, their commands and env are what `trainer-explorer explain` says the controller of
    that release gives each pod for the pane's TrainJob (its YAML neighbour, whose command
    tests/python/run_snippets.py checks is the launcher the SDK starts the function with);
  - each pod that runs something is a local process; a value the controller sets from the pod's
    Job completion index (`fieldRef`) is that pod's index;
  - the script at the YAML's placeholder path (/workspace/train.py, /home/mpiuser/train.py for
    MPI) is what the SDK writes: the pane's `def train():` and a call `train()`. That path and the
    MPI hostfile's mount path are rewritten to the case's folder; commands and env are otherwise
    exactly the explanation's;
  - hostnames: a resolver shim, not a rewrite. Each case runs in a network and mount namespace
    of its own (`unshare --net --mount`) whose /etc/hosts (a bind mount seen only there) gives
    every pod a loopback address of its own (127.0.0.2, 127.0.0.3, ...). The env keeps the real
    hostnames, and two runs never share a port;
  - MPI runtimes (MLX): the launcher pod runs its mpirun; the node pods' sshd is stood in for by
    an ssh stand-in that runs the command here. MPI_HARNESS_ENV lists what the harness adds to
    mpirun's env for this machine (root, loopback transport, Debian's libmpi name).
The same for the V1 PyTorchJob pane, whose env is the Training Operator's (cited in
v1_pytorch_env). The migrated TFJob (tests/python/jobs/tfjob-mwms.yaml): `migrate` writes its
TrainJob and plain-ML runtime, `explain` gives each pod's command and env (TF_CONFIG expands
$(JOB_COMPLETION_INDEX), as the kubelet does here), and the same script trains with
MultiWorkerMirroredStrategy under V2's env and under V1's (`explain` of the TFJob: the
operator's TF_CONFIG, per pod); each pod gets a network namespace of its own, since every
TensorFlow task listens on port 2222. The same for the parameter-server TFJob (tfjob-ps.yaml: 1 PS
and 2 Workers, between-graph replication under tf.compat.v1), the collective PaddleJob and the
parameter-server PaddleJob (paddlejob-ps.yaml: launch's PS mode; PyPI's CPU build has no PS
runtime, see PADDLE_PS_SCRIPT); each migrated job's V1 side must train the weights its V2 side did. Debian's torch 1.13 needs one mend under Python 3.11, made on the harness's
PYTHONPATH (mend/sitecustomize.py), never in a pane.

Passing: every process exits 0, and each prints one line from a step the harness adds to the
pane's own code (which stays as it is): a tiny model and data made here, trained one step across
the group the pane's code formed; the line carries the process's rank, the world size, an
all-reduced sum and the trained weights (or the model's digest), which must agree across the
processes. Processes that each formed a job of their own show world=1, or weights of their own.

Frameworks that cannot run here are listed with why (NOT_RUN); one that should run but is not
installed fails.
Usage: run_training.py [--explorer CMD] [--release LINE ...] [--self-test] [FRAMEWORK ...]
"""
import argparse
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from run_snippets import train_source  # the SDK's view of the pane's function

# The controller's per-pod value (crates/core/src/explain/build.rs COMPLETION_INDEX).
COMPLETION_INDEX = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
# Where the YAML panes name the script (crates/core/src/snippets/workload.rs script_path); the SDK writes the
# function to a file there and starts it the same way.
PLACEHOLDERS = ("/workspace/train.py", "/home/mpiuser/train.py")
# Where the MPI plugin mounts the hostfile it writes (the explanation's ConfigMap).
MPI_HOSTFILE = "/etc/mpi/hostfile"
NODES = 2
# A safety bound only: the harness waits for the processes to exit, and kills them all when any
# fails; this ends a run whose processes wait on each other forever.
HANG_SECONDS = 600
VENV = ROOT / ".tools" / "venv-frameworks"
SYSTEM_PYTHON = "/usr/bin/python3"

# ---------------------------------------------------------------------------------------------
# The step each framework's processes run after the pane's code: one job means equal lines.

TORCH_STEP = '''
# run_training.py: before the pane's code leaves the group, one step of a tiny model across it.
import torch.distributed as _dist

_leave = _dist.destroy_process_group


def _one_job_step(*args, **kwargs):
    import torch

    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 1))
    data = torch.Generator().manual_seed(_dist.get_rank())
    x, y = torch.randn(8, 4, generator=data), torch.randn(8, 1, generator=data)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    weights = " ".join(f"{w:.6f}" for p in model.parameters() for w in p.detach().flatten().tolist())
    total = torch.tensor([_dist.get_rank() + 1.0])
    _dist.all_reduce(total)
    line = f"ONE-JOB rank={_dist.get_rank()} world={_dist.get_world_size()} sum={total.item():g} weights={weights}\\n"
    # One write of the whole line: the processes of a pod (numProcPerNode auto starts one per CPU)
    # share its output, and print under PYTHONUNBUFFERED writes the text and its newline apart, so
    # two ranks' lines could join into one ("...-0.175338ONE-JOB rank=2 ..."; a make test run).
    import os as _os
    import sys as _sys

    _sys.stdout.flush()
    _os.write(1, line.encode())
    _leave(*args, **kwargs)


_dist.destroy_process_group = _one_job_step
'''

JAX_STEP = '''
# run_training.py: after the pane's code, one step of a tiny model across its processes.
import jax as _jax
import jax.numpy as _jnp
from jax.experimental import multihost_utils as _hosts

_x = _jax.random.normal(_jax.random.PRNGKey(_jax.process_index()), (8, 4))
_y = _x @ _jnp.arange(4.0)
_grad = _jax.grad(lambda w: _jnp.mean((_x @ w - _y) ** 2))(_jnp.zeros(4))
_weights = -0.1 * _hosts.process_allgather(_grad).mean(axis=0)
_total = _hosts.process_allgather(_jnp.array([_jax.process_index() + 1.0])).sum()
print(f"ONE-JOB rank={_jax.process_index()} world={_jax.process_count()} sum={float(_total):g} "
      f"weights={' '.join(f'{w:.6f}' for w in _weights.tolist())}", flush=True)
'''

XGBOOST_STEP = '''
# run_training.py: before the pane's code leaves the collective, a tiny model trained across it.
from xgboost import collective as _coll

_leave = _coll.finalize


def _one_job_step():
    import hashlib

    import numpy as np
    import xgboost as xgb

    rank, world = _coll.get_rank(), _coll.get_world_size()
    rng = np.random.default_rng(rank)
    x = rng.normal(size=(64, 4))
    y = (x[:, 0] + x[:, 1] > 0).astype(float)
    params = {"tree_method": "hist", "max_depth": 2, "objective": "binary:logistic", "nthread": 1}
    booster = xgb.train(params, xgb.DMatrix(x, label=y), num_boost_round=2)
    total = _coll.allreduce(np.array([rank + 1.0]), _coll.Op.SUM)
    digest = hashlib.sha256(booster.save_raw("json")).hexdigest()[:16]
    print(f"ONE-JOB rank={rank} world={world} sum={total[0]:g} weights={digest}", flush=True)
    _leave()


_coll.finalize = _one_job_step
'''

MLX_STEP = '''
# run_training.py: after the pane's code, one step of a tiny model across its processes.
import mlx.core as _mx

_world = _mx.distributed.init()
_x = _mx.random.normal((8, 4), key=_mx.random.key(_world.rank()))
_y = _x @ _mx.arange(4.0)
_grad = _mx.grad(lambda w: _mx.mean((_x @ w - _y) ** 2))(_mx.zeros((4,)))
_weights = -0.1 * _mx.distributed.all_sum(_grad) / _world.size()
_total = _mx.distributed.all_sum(_mx.array([_world.rank() + 1.0]))
print(f"ONE-JOB rank={_world.rank()} world={_world.size()} sum={_total.item():g} "
      f"weights={' '.join(f'{w:.6f}' for w in _weights.tolist())}", flush=True)
'''

# The migrated TFJob's and PaddleJob's training code (tests/python/jobs): the whole script, which
# reads only the contract the operator (V1) or the generated runtime (V2) gives each pod.
TENSORFLOW_SCRIPT = """
# run_training.py: MultiWorkerMirroredStrategy from TF_CONFIG, one step of a tiny model.
import json
import os

import numpy as np
import tensorflow as tf

task = json.loads(os.environ["TF_CONFIG"])["task"]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    # MEAN: each worker's update is averaged across the workers, so all hold the same weights.
    w = tf.Variable(tf.zeros([4, 1]), aggregation=tf.VariableAggregation.MEAN)
rank = task["index"]
data = np.random.default_rng(rank)
x = tf.constant(data.normal(size=(8, 4)).astype("float32"))
y = tf.constant(data.normal(size=(8, 1)).astype("float32"))


@tf.function
def step():
    def replica():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
        w.assign_sub(0.1 * tape.gradient(loss, w))
        context = tf.distribute.get_replica_context()
        return context.all_reduce(tf.distribute.ReduceOp.SUM, tf.constant(rank + 1.0))

    return strategy.run(replica)


total = strategy.experimental_local_results(step())[0]
weights = " ".join(f"{v:.6f}" for v in w.numpy().ravel())
print(f"ONE-JOB rank={rank} world={strategy.num_replicas_in_sync} sum={float(total):g} weights={weights}",
      flush=True)
"""

PADDLE_SCRIPT = """
# run_training.py: paddle.distributed from what paddle.distributed.launch set up, one step.
import numpy as np
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank, world = dist.get_rank(), dist.get_world_size()
paddle.seed(0)
model = paddle.DataParallel(paddle.nn.Linear(4, 1))
data = np.random.default_rng(rank)
x = paddle.to_tensor(data.normal(size=(8, 4)).astype("float32"))
y = paddle.to_tensor(data.normal(size=(8, 1)).astype("float32"))
optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
paddle.nn.functional.mse_loss(model(x), y).backward()
optimizer.step()
total = paddle.to_tensor([rank + 1.0])
dist.all_reduce(total)
weights = " ".join(f"{v:.6f}" for p in model.parameters() for v in p.numpy().ravel())
print(f"ONE-JOB rank={rank} world={world} sum={float(total.numpy()[0]):g} weights={weights}", flush=True)
"""

# The parameter-server TFJob's script (tests/python/jobs/tfjob-ps.yaml: 1 PS, 2 Workers, no Chief).
# Between-graph replication under tf.compat.v1, the way such a job trains: TensorFlow 2.21's
# tf.distribute.experimental.ParameterServerStrategy needs a coordinator task named "chief"
# apart from the workers (parameter_server_strategy_v2.py, _connect_to_cluster(coordinator_name=
# "chief")), which this job shape has not. Every task (the PS too) checks that TF_CONFIG names
# it where its pod is, joins one cluster and adds rank + 1 to a sum held on the PS; each worker
# takes the gradient of its own data at the initial weights, then all apply them to the PS's
# weights (one synchronous step); every task prints what it reads back from the PS, and the
# cluster it was given. The PS stays up until every task has read.
TENSORFLOW_PS_SCRIPT = """
# run_training.py: parameter servers from TF_CONFIG, one step of a tiny model.
import json
import os
import socket
import time

import numpy as np
import tensorflow as tf

config = json.loads(os.environ["TF_CONFIG"])
task, cluster = config["task"], config["cluster"]
me = cluster[task["type"]][task["index"]]
assert me.split(".")[0] == socket.gethostname(), f"TF_CONFIG says {me}, this pod is {socket.gethostname()}"
tasks = [(t, i) for t in sorted(cluster) for i in range(len(cluster[t]))]
rank, workers = tasks.index((task["type"], task["index"])), len(cluster["worker"])
tf.compat.v1.disable_eager_execution()
server = tf.distribute.Server(tf.train.ClusterSpec(cluster), job_name=task["type"], task_index=task["index"])
with tf.device("/job:ps/task:0"):
    zeros = tf.compat.v1.zeros_initializer()
    w = tf.compat.v1.get_variable("w", [4, 1], initializer=zeros)
    total, joined, stepped, left = (tf.compat.v1.get_variable(n, [], initializer=zeros)
                                    for n in ("total", "joined", "stepped", "left"))
data = np.random.default_rng(rank)
x = tf.constant(data.normal(size=(8, 4)).astype("float32"))
y = tf.constant(data.normal(size=(8, 1)).astype("float32"))
grad = tf.gradients(tf.reduce_mean((tf.matmul(x, w) - y) ** 2), w)[0]
update = tf.compat.v1.placeholder(tf.float32, [4, 1])
apply = w.assign_sub(0.1 * update)
session = tf.compat.v1.Session(server.target)


def wait_for(condition):
    while not condition():
        time.sleep(0.05)


# Without a Chief replica the first worker is the chief: it initializes the PS's variables.
if task["type"] == "worker" and task["index"] == 0:
    session.run(tf.compat.v1.global_variables_initializer())
wait_for(lambda: len(session.run(tf.compat.v1.report_uninitialized_variables())) == 0)
# A worker takes its gradient at the initial weights before it joins, and applies it once every
# task has joined: one synchronous step, whatever the order the tasks run in.
g = session.run(grad) if task["type"] == "worker" else None
session.run([total.assign_add(rank + 1.0), joined.assign_add(1.0)])
if g is not None:
    wait_for(lambda: session.run(joined) == len(tasks))
    session.run(apply, {update: g})
    session.run(stepped.assign_add(1.0))
wait_for(lambda: session.run(stepped) == workers and session.run(joined) == len(tasks))
weights = " ".join(f"{v:.6f}" for v in session.run(w).ravel())
print(f"ONE-JOB rank={rank} world={len(tasks)} sum={session.run(total):g} weights={weights} "
      f"cluster={json.dumps(cluster, sort_keys=True, separators=(',', ':'))}", flush=True)
session.run(left.assign_add(1.0))
if task["type"] == "ps":
    # The variables live here: the PS stays until every task has read them.
    wait_for(lambda: session.run(left) == len(tasks))
"""

# The parameter-server PaddleJob's script (tests/python/jobs/paddlejob-ps.yaml: a Master, two
# Workers). What it proves is the contract: v1.9's PADDLE_MASTER, PADDLE_NNODES and
# PADDLE_SERVER_NUM or PADDLE_TRAINER_NUM put paddle.distributed.launch in PS mode, every pod
# meets the others at the Master, and launch gives each process its role, its index and the same
# server and trainer endpoints (PaddlePaddle 3.3.1's launch runs a server and a trainer in every
# pod: ps.py takes `server_num or 1` and `trainer_num or 1`). The PS runtime itself cannot run
# here: PyPI's paddlepaddle 3.3.1 (CPU) is built without PSCore, so fleet's
# distributed_optimizer(...).minimize fails with "ImportError: cannot import name 'CommContext'
# from 'paddle.base.libpaddle'" (FLAGS_enable_pir_api=0; under the default PIR, "TypeError:
# clone(): incompatible function arguments" first), and paddle.base.core has no
# DistFleetWrapper, which fleet.init_server/init_worker build. So the trainers take their step
# over the group launch formed for them (fleet.util's gloo "worker" world). launch shows only
# a pod's first process (its server) on the pod's output: the server prints its pod's trainer's line.
PADDLE_PS_SCRIPT = """
# run_training.py: paddle.distributed.launch's PS mode from the PaddleJob's contract, one step.
import os
import time

import numpy as np
import paddle
import paddle.distributed.fleet as fleet

paddle.enable_static()  # PS mode is static-graph: fleet.init then forms no collective group.
fleet.init()  # The PS role maker, from the roles and endpoints paddle.distributed.launch set.
servers = os.environ["PADDLE_PSERVERS_IP_PORT_LIST"].split(",")
trainers = os.environ["PADDLE_TRAINER_ENDPOINTS"].split(",")
pods = int(os.environ["PADDLE_NNODES"])
assert len(servers) == len(trainers) == pods, f"{pods} pods, servers {servers}, trainers {trainers}"
handoff = "one-job.txt"
if fleet.is_worker():
    rank, world = fleet.worker_index(), fleet.worker_num()
    data = np.random.default_rng(rank)
    x, y = data.normal(size=(8, 4)), data.normal(size=(8, 1))
    # The mean gradient at zero weights, one SGD step: the same weights in every trainer.
    weights = -0.1 * fleet.util.all_reduce(2 * x.T @ -y / 8, "sum", "worker") / world
    total = fleet.util.all_reduce(np.array([rank + 1.0]), "sum", "worker")
    line = (f"ONE-JOB rank={rank} world={world} sum={total[0]:g} "
            f"weights={' '.join(f'{v:.6f}' for v in weights.ravel())} cluster=servers={servers} trainers={trainers}")
    with open(handoff + ".tmp", "w") as f:
        f.write(line)
    os.rename(handoff + ".tmp", handoff)
else:
    while not os.path.exists(handoff):
        time.sleep(0.1)
    with open(handoff) as f:
        print(f.read(), flush=True)
"""

# Frameworks whose case runs a whole script of the harness's, not a pane's function.
SCRIPTS = {"tensorflow": TENSORFLOW_SCRIPT, "paddle": PADDLE_SCRIPT}

# How each framework's step is placed: "before" the `train()` call (a hook the pane's code
# triggers as it leaves the group) or "after" it.
STEPS = {"pytorch": ("before", TORCH_STEP), "jax": ("after", JAX_STEP), "xgboost": ("before", XGBOOST_STEP),
         "mlx": ("after", MLX_STEP)}


class Framework:
    def __init__(self, name, python_dir, module, install, commands=()):
        self.name, self.python_dir, self.module, self.install = name, python_dir, module, install
        self.commands = commands

    def missing(self):
        """Why this framework cannot run here, or None."""
        for command in self.commands:
            if shutil.which(command) is None:
                return f"{command} is missing ({self.install})"
        python = Path(self.python_dir) / "python3"
        if not python.exists():
            return f"{python} is missing ({self.install})"
        out = subprocess.run([str(python), "-c", f"import {self.module}"], capture_output=True, text=True)
        if out.returncode != 0:
            return f"{python} cannot import {self.module} ({self.install}): {out.stderr.strip().splitlines()[-1:]}"
        return None


FRAMEWORKS = {
    # Debian's torch and its torchrun, for /usr/bin/python3.
    "pytorch": Framework("pytorch", "/usr/bin", "torch",
                         "scripts/fetch-framework-venvs.sh installs python3-torch as root"),
    "jax": Framework("jax", VENV / "bin", "jax", "scripts/fetch-framework-venvs.sh"),
    "xgboost": Framework("xgboost", VENV / "bin", "xgboost", "scripts/fetch-framework-venvs.sh"),
    # mlx[cpu]; its MPI backend under Debian's OpenMPI, as the MPI runtime starts it.
    "mlx": Framework("mlx", VENV / "bin", "mlx.core", "scripts/fetch-framework-venvs.sh", commands=("mpirun",)),
    # The migrated TFJob and PaddleJob: PyPI's CPU builds, each in a venv of its own.
    "tensorflow": Framework("tensorflow", ROOT / ".tools" / "venv-tensorflow" / "bin", "tensorflow",
                            "scripts/fetch-framework-venvs.sh"),
    "paddle": Framework("paddle", ROOT / ".tools" / "venv-paddle" / "bin", "paddle",
                        "scripts/fetch-framework-venvs.sh"),
}

# The panes with a training function whose framework has no run here, and why.
NOT_RUN = {
    "deepspeed": "DeepSpeed 0.19.8 (the newest) requires torch>=2.0: pip, asked for it beside Debian's CPU "
                 "torch 1.13, fetches PyPI's torch 2 for Linux, which pulls gigabytes of CUDA",
}

# ---------------------------------------------------------------------------------------------
# The V1 PyTorchJob's env, as Training Operator v1.9.0 sets it on every container.


def v1_pytorch_env(job, rtype, index):
    """job: the V1 YAML pane; rtype: Master or Worker; index: the pod's index in its type.
    kubeflow/training-operator v1.9.0:
      pkg/controller.v1/pytorch/envvar.go:56-60 PYTHONUNBUFFERED=1;
      envvar.go:62-64 WORLD_SIZE = all replicas x nprocPerNode (1 when unset or not a number,
        envvar.go:132-140);
      master.go:42-59 MASTER_PORT, PET_MASTER_PORT (the master's pytorchjob-port, 23456 by the
        defaulting webhook, pytorch_defaults.go:34 and pytorch_types.go:29) and MASTER_ADDR,
        PET_MASTER_ADDR = <job>-master-0 (replicaName, envvar.go:150-153);
      envvar.go:76-96 RANK and PET_NODE_RANK = the index, +1 on Workers;
      envvar.go:99-104 PET_NPROC_PER_NODE = nprocPerNode when set;
      envvar.go:117-122 PET_NNODES = all replicas (no elasticPolicy)."""
    name = job["metadata"]["name"]
    spec = job["spec"]
    specs = spec["pytorchReplicaSpecs"]
    replicas = sum(int(rs.get("replicas", 1)) for rs in specs.values())
    nproc = spec.get("nprocPerNode")
    per_node = int(nproc) if nproc and str(nproc).isdigit() else 1
    port = "23456"
    for p in specs["Master"]["template"]["spec"]["containers"][0].get("ports") or []:
        if p.get("name") == "pytorchjob-port":
            port = str(p["containerPort"])
    rank = index + (1 if rtype == "Worker" else 0)
    env = {
        "PYTHONUNBUFFERED": "1",
        "MASTER_PORT": port,
        "PET_MASTER_PORT": port,
        "MASTER_ADDR": f"{name}-master-0",
        "PET_MASTER_ADDR": f"{name}-master-0",
        "WORLD_SIZE": str(replicas * per_node),
        "RANK": str(rank),
        "PET_NODE_RANK": str(rank),
    }
    if nproc is not None:
        env["PET_NPROC_PER_NODE"] = str(nproc)
    env["PET_NNODES"] = str(replicas)
    return env


# ---------------------------------------------------------------------------------------------


def explorer(args, *argv):
    out = subprocess.run(shlex.split(args.explorer) + list(argv), cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"trainer-explorer {' '.join(argv)} failed: {out.stderr}")
    return json.loads(out.stdout)


def panes(args, query):
    found = {}
    for s in explorer(args, "export", "--query", query)["snippets"]:
        found.setdefault(s["api"], {})[s["language"]] = s["code"]
    return found


def resolve(value, index):
    """`explain`'s V2 env value for pod `index`: text as is; a downward-API `valueFrom.fieldRef`
    is the pod's completion index, or the pod's address (`fieldRef:status.podIP`, which run_case
    gives it)."""
    if isinstance(value, str):
        return value
    path = value.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
    if path == "status.podIP":
        return "fieldRef:status.podIP"
    if path != COMPLETION_INDEX:
        raise SystemExit(f"no per-pod value for {json.dumps(value)}")
    return str(index)


KUBELET_REF = re.compile(r"\$\((\w+)\)")


def expand(env):
    """The kubelet's `$(NAME)` expansion: a reference to a variable declared before it takes its
    value; any other stays as written."""
    out = {}
    for name, value in env.items():
        out[name] = KUBELET_REF.sub(lambda m: out.get(m.group(1), m.group(0)), value)
    return out


def per_pod(value, index):
    """`explain`'s V1 env value for one pod: `{"perPod": [v0, v1, ...]}` lists them, `null`
    where a pod lacks the variable (None here)."""
    if isinstance(value, dict) and "perPod" in value:
        value = value["perPod"][index]
    return value if value is None else resolve(value, index)


def v1_pods(explanation, namespace):
    """The V1 operator's pods as `explain` models them (training-operator v1.9): each one's
    command and env; the name each is reached at is its Service's, also as <svc>.<ns>.svc."""
    pods = []
    for group in explanation["pods"]:
        for index, host in enumerate(group["hostnames"]):
            for c in group["containers"]:
                env = {k: per_pod(v, index) for k, v in c["env"].items()}
                # A variable only some pods have (Paddle's POD_IP_DUMMY) is null on the others.
                env = {k: v for k, v in env.items() if v is not None}
                pods.append({"host": host, "aliases": [f"{host}.{namespace}.svc"],
                             "argv": c["command"] + c["args"], "env": env})
    return pods


def v2_pods(explanation):
    """The pods: hostname, what runs (argv, or None for an MPI node whose sshd the ssh stand-in
    replaces) and env; and the MPI hostfile the controller writes, if any."""
    pods = []
    for group in explanation["pods"]:
        containers = [c for c in group["containers"] if not c.get("init")]
        for index, host in enumerate(group["hostnames"]):
            for c in containers:
                argv = c["command"] + c["args"]
                if argv[:1] == ["/usr/sbin/sshd"]:
                    argv = None
                elif not set(argv) & set(PLACEHOLDERS):
                    raise SystemExit(f"{group['replicatedJob']}: {c['name']} runs {argv}, not the training code")
                env = {k: resolve(v, index) for k, v in c["env"].items()}
                pods.append({"host": host, "argv": argv, "env": env})
    hostfile = next((o["data"]["hostfile"] for o in explanation["objects"]
                     if o["kind"] == "ConfigMap" and "hostfile" in (o.get("data") or {})), None)
    return pods, hostfile


SSH_STAND_IN = """#!/bin/sh
# run_training.py's stand-in for ssh and the node's sshd: drops ssh's options and the host name
# and runs the command here (the host's name resolves to this machine anyway). Each host's
# OpenMPI daemon gets a session folder of its own: on one machine they would race for one.
while [ $# -gt 0 ]; do
  case $1 in
    -o|-p|-i|-l) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
shift
export OMPI_MCA_orte_tmpdir_base="$(dirname "$0")/session-$host"
mkdir -p "$OMPI_MCA_orte_tmpdir_base"
exec sh -c "$*"
"""

# Added to mpirun's env (the controller's stays as it is): what a cluster gives the launcher
# and this machine does not.
MPI_HARNESS_ENV = {
    # The pods run as mpiuser; the harness runs as root.
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    # Every pod's address is a loopback one here, which OpenMPI's TCP transport (btl) and its
    # daemons' own channel (oob) skip by default.
    "OMPI_MCA_btl": "self,tcp",
    "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_oob_tcp_if_include": "lo",
    # Two PMIx servers (the launcher's and the node's) share this machine's /dev/shm.
    "PMIX_MCA_gds": "hash",
    # The image has libmpi.so; Debian's runtime package names it libmpi.so.40.
    "MLX_MPI_LIBNAME": "libmpi.so.40",
}


def script(code, framework):
    """What the SDK writes (the pane's function, then its call) with the harness's step; for the
    migrated jobs, the harness's own script."""
    if framework in SCRIPTS:
        return code
    where, step = STEPS[framework]
    func = train_source(code)
    if func is None:
        raise SystemExit("the pane has no `def train():`")
    if where == "before":
        return f"{func}\n\n{step}\ntrain()\n"
    return f"{func}\n\ntrain()\n{step}"


def run_case(label, framework, pods, code, workdir, hostfile=None):
    """Runs the pods in a namespace of their own; returns (problems, outputs of the pods that
    ran something)."""
    fw = FRAMEWORKS[framework]
    workdir.mkdir(parents=True)
    (workdir / "train.py").write_text(script(code, framework))
    # Each pod its own loopback address, as each pod has its own IP (OpenMPI takes two names of
    # one address for one node); the machine's own name stays 127.0.0.1. The migrated jobs' pods
    # each get a network namespace of their own on a bridge (every TensorFlow task listens on
    # the same port, 2222, as in the cluster).
    own_net = framework in SCRIPTS
    address = (lambda i: f"10.77.0.{2 + i}") if own_net else (lambda i: f"127.0.0.{2 + i}")
    lines = [f"127.0.0.1 localhost {socket.gethostname()}"]
    for i, pod in enumerate(pods):
        names = [pod["host"], pod["host"].split(".")[0], *pod.get("aliases", [])]
        lines.append(f"{address(i)} {' '.join(dict.fromkeys(names))}")
    (workdir / "hosts").write_text("\n".join(lines) + "\n")
    rewrites = {p: str(workdir / "train.py") for p in PLACEHOLDERS}
    if hostfile is not None:
        (workdir / "hostfile").write_text(hostfile)
        rewrites[MPI_HOSTFILE] = str(workdir / "hostfile")
        (workdir / "ssh").write_text(SSH_STAND_IN)
        (workdir / "ssh").chmod(0o755)
    spec = []
    for i, pod in enumerate(pods):
        if pod["argv"] is None:
            continue
        home = workdir / f"pod-{i}"
        home.mkdir()
        env = {"PATH": f"{fw.python_dir}:/usr/bin:/bin", "HOME": str(home),
               # Mends Debian's torch 1.13 under Python 3.11 (see mend/sitecustomize.py).
               "PYTHONPATH": str(HERE / "mend")}
        # The pod's own IP (status.podIP) is its address here; then the kubelet's $(NAME) expansion.
        pod_env = {k: address(i) if v == "fieldRef:status.podIP" else rewrites.get(v, v)
                   for k, v in pod["env"].items()}
        env.update(expand(pod_env))
        if pod["argv"][0] == "mpirun":
            (workdir / "session-mpirun").mkdir()
            # mpirun's session folder (TMPDIR: an MCA setting would reach the daemons too).
            env.update(MPI_HARNESS_ENV, OMPI_MCA_plm_rsh_agent=str(workdir / "ssh"),
                       TMPDIR=str(workdir / "session-mpirun"))
        spec.append({"pod": i, "host": pod["host"], "argv": [rewrites.get(a, a) for a in pod["argv"]],
                     "env": env, "cwd": str(home), "netns": f"pod{i}" if own_net else None,
                     "address": address(i)})
    (workdir / "pods.json").write_text(json.dumps(spec, indent=2))
    inside = ["unshare", "--net", "--mount", "--", sys.executable, str(Path(__file__).resolve()),
              "--inside", str(workdir)]
    subprocess.run(inside, check=False)
    outputs = [(p["pod"], (workdir / f"pod-{p['pod']}.log").read_text()
                if (workdir / f"pod-{p['pod']}.log").exists() else "") for p in spec]
    result = json.loads((workdir / "result.json").read_text()) if (workdir / "result.json").exists() else {}
    problems = list(result.get("problems", ["the namespace runner did not report"]))
    if not problems:
        problems = one_job(outputs)
    return problems, outputs


LINE = re.compile(r"^ONE-JOB rank=(\d+) world=(\d+) sum=(\S+) weights=(.+)$", re.MULTILINE)


def one_job(outputs):
    """outputs: (pod, output) of each pod that ran something. The step lines must say one job:
    every such pod took part, the ranks are 0..W-1 once each, all say world W (at least one
    process per node), and the sums and weights agree. A pod may start several processes
    (torchrun with numProcPerNode `auto` starts one per CPU; mpirun all of them)."""
    lines, problems = [], []
    for pod, out in outputs:
        found = LINE.findall(out)
        if not found:
            problems.append(f"pod {pod} printed no ONE-JOB line")
        lines += found
    if problems:
        return problems
    n = len(lines)
    worlds = {int(w) for _, w, _, _ in lines}
    if len(worlds) != 1 or worlds.pop() != n or n < NODES:
        problems.append(f"world sizes {[w for _, w, _, _ in lines]}, but {n} processes trained on {NODES} nodes")
    if sorted(int(r) for r, _, _, _ in lines) != list(range(n)):
        problems.append(f"ranks {[r for r, _, _, _ in lines]}, not 0..{n - 1}")
    if {s for _, _, s, _ in lines} != {f"{n * (n + 1) // 2:g}"}:
        problems.append(f"all-reduced sums {[s for _, _, s, _ in lines]}, not {n * (n + 1) // 2}")
    if len({w for _, _, _, w in lines}) != 1:
        problems.append(f"the processes trained different weights: {[w for _, _, _, w in lines]}")
    return problems


def pod_networks(spec):
    """A network namespace per pod, each with its address on one bridge (as pods on one node)."""
    ip = lambda *a: subprocess.run(["ip", *a], check=True)
    # `ip netns add` keeps its namespaces under /run/netns: a tmpfs seen only in this case's mount
    # namespace, so nothing is left on the machine and two cases never meet.
    os.makedirs("/run/netns", exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "netns", "/run/netns"], check=True)
    ip("link", "add", "pods", "type", "bridge")
    ip("link", "set", "pods", "up")
    for pod in spec:
        ns, veth = pod["netns"], f"v{pod['pod']}"
        ip("netns", "add", ns)
        ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
        ip("link", "set", veth, "master", "pods")
        ip("link", "set", veth, "up")
        ip("-n", ns, "addr", "add", f"{pod['address']}/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "link", "set", "lo", "up")


def inside(workdir):
    """In the case's own network and mount namespace: loopback up, /etc/hosts naming the pods,
    then every pod at once; when one fails, the rest are stopped."""
    workdir = Path(workdir)
    problems = []
    try:
        subprocess.run(["mount", "--bind", str(workdir / "hosts"), "/etc/hosts"], check=True)
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        spec = json.loads((workdir / "pods.json").read_text())
        if any(pod["netns"] for pod in spec):
            pod_networks(spec)
        running = {}
        for pod in spec:
            log = open(workdir / f"pod-{pod['pod']}.log", "w")  # noqa: SIM115 (open while the pod runs)
            argv = pod["argv"]
            if pod["netns"]:
                # Its own network and hostname, as a pod has (paddle.distributed.launch finds its
                # IP from its hostname).
                name = pod["host"].split(".")[0]
                argv = ["ip", "netns", "exec", pod["netns"], "unshare", "--uts", "--", "sh", "-c",
                        'hostname "$0" && exec "$@"', name, *argv]
            proc = subprocess.Popen(argv, env=pod["env"], cwd=pod["cwd"], stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            running[proc.pid] = pod
        signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError()))
        signal.alarm(HANG_SECONDS)
        try:
            while running:
                pid, status = os.wait()
                pod = running.pop(pid, None)
                code = os.waitstatus_to_exitcode(status)
                if pod is not None and code != 0:
                    problems.append(f"pod {pod['pod']} ({pod['host']}) exited {code}")
                    break
        except TimeoutError:
            problems.append(f"still running after {HANG_SECONDS} s: pods {[p['pod'] for p in running.values()]}")
        for pid, pod in running.items():
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            problems.append(f"pod {pod['pod']} ({pod['host']}) stopped: another pod failed or the run hung")
    except (OSError, subprocess.CalledProcessError) as e:
        problems.append(f"the namespace could not be set up: {e}")
    (workdir / "result.json").write_text(json.dumps({"problems": problems}))


# ---------------------------------------------------------------------------------------------


class Case:
    def __init__(self, label, framework, pods, code, hostfile=None, agrees_with=None):
        self.label, self.framework, self.pods, self.code, self.hostfile = label, framework, pods, code, hostfile
        # The label of a case run before this one whose step must train the same weights (a
        # migrated job's V1 side and its V2 side).
        self.agrees_with = agrees_with

    def run(self, workdir, code=None):
        return run_case(self.label, self.framework, self.pods, code or self.code, workdir, self.hostfile)

    def key(self):
        """Cases with the same key run the same processes."""
        return json.dumps([self.framework, script(self.code, self.framework), self.pods, self.hostfile])


def v2_cases(args, lines):
    """The cases of each release line and framework, and those not run with why."""
    cases, skipped = [], []
    for line in lines:
        for framework in [f for f in FRAMEWORKS if f not in SCRIPTS] + list(NOT_RUN):
            if args.frameworks and framework not in args.frameworks:
                continue
            query = f"persona=data-scientist&release={line}&framework={framework}&nodes={NODES}&gpus=0"
            code = panes(args, query).get("v2", {}).get("python", "")
            if "def train(" not in code:
                continue
            label = f"{line} v2 {framework}"
            if framework in NOT_RUN:
                skipped.append((label, NOT_RUN[framework]))
                continue
            explanation = explorer(args, "explain", "--query", query, "--format", "json")
            if explanation.get("rejected"):
                raise SystemExit(f"{label}: the explanation is a rejection: {explanation['rejected']}")
            pods, hostfile = v2_pods(explanation)
            # With MPI the hostfile lists the nodes (the launcher is one with runLauncherAsNode).
            nodes = len(hostfile.splitlines()) if hostfile else len(pods)
            if nodes != NODES:
                raise SystemExit(f"{label}: {nodes} node pods, not {NODES}")
            cases.append(Case(label, framework, pods, code, hostfile))
    return cases, skipped


def v1_cases(args, newest):
    """The V1 panes with training code: the PyTorchJob's (its env is the operator's). V1 does not
    depend on the release but for images, so the newest release's panes stand for all."""
    import yaml

    cases, skipped = [], []
    if not args.frameworks or "pytorch" in args.frameworks:
        query = f"persona=data-scientist&release={newest}&framework=pytorch&nodes={NODES}&gpus=0"
        found = panes(args, query)["v1"]
        job = yaml.safe_load(found["yaml"])
        pods = []
        for rtype, rs in job["spec"]["pytorchReplicaSpecs"].items():
            (container,) = rs["template"]["spec"]["containers"]
            for index in range(int(rs.get("replicas", 1))):
                pods.append({"host": f"{job['metadata']['name']}-{rtype.lower()}-{index}",
                             "argv": container["command"] + (container.get("args") or []),
                             "env": v1_pytorch_env(job, rtype, index)})
        cases.append(Case("v1 pytorch (PyTorchJob)", "pytorch", pods, found["python"]))
    for framework, kind in (("jax", "JAXJob"), ("xgboost", "XGBoostJob")):
        if not args.frameworks or framework in args.frameworks:
            skipped.append((f"v1 {framework} ({kind})",
                            (f"the V1 pane applies a {kind} that runs the reader's own {PLACEHOLDERS[0]}: it shows "
                             "no training code to run (kubeflow-training builds only PyTorchJob and TFJob)")))
    return cases, skipped


# The migrated TFJobs and PaddleJob: (framework, file under tests/python/jobs, the script each pod runs).
MIGRATED = (("tensorflow", "tfjob-mwms.yaml", TENSORFLOW_SCRIPT), ("tensorflow", "tfjob-ps.yaml", TENSORFLOW_PS_SCRIPT),
            ("paddle", "paddlejob-collective.yaml", PADDLE_SCRIPT), ("paddle", "paddlejob-ps.yaml", PADDLE_PS_SCRIPT))


def migrated_cases(args, newest):
    """Each job as Training Operator v1.9 runs it (explain's V1 model) and as Trainer runs what
    `migrate` makes of it (explain of the TrainJob and its generated runtime), at the newest
    release: the contract is written the same for every release (crates/core/tests/it/migrate_tf_paddle.rs)."""
    import yaml

    cases = []
    for framework, file, code in MIGRATED:
        if args.frameworks and framework not in args.frameworks:
            continue
        path = HERE / "jobs" / file
        job = yaml.safe_load(path.read_text())
        kind, namespace = job["kind"], job["metadata"].get("namespace", "default")
        out = subprocess.run(shlex.split(args.explorer) + ["migrate", "--target", newest, str(path)], cwd=ROOT,
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"migrate {file} failed: {out.stderr}")
        with tempfile.NamedTemporaryFile("w", suffix=".yaml") as converted:
            converted.write(out.stdout)
            converted.flush()
            explanation = explorer(args, "explain", "--release", newest, converted.name, "--format", "json")
        if explanation.get("rejected"):
            raise SystemExit(f"{file}: the explanation is a rejection: {explanation['rejected']}")
        pods, _ = v2_pods(explanation)
        name = job["metadata"]["name"]
        cases.append(Case(f"{newest} v2 {framework} (migrated {kind} {name})", framework, pods, code))
        v1 = v1_pods(explorer(args, "explain", str(path), "--format", "json"), namespace)
        cases.append(Case(f"v1 {framework} ({kind} {name})", framework, v1, code, agrees_with=cases[-1].label))
    return cases


def run(cases, workroot):
    """Runs each case; a case whose processes are another's (same script, commands and env:
    releases whose controller sets the same) takes that one's result."""
    failed, done, trained = 0, {}, {}
    for n, case in enumerate(cases):
        if case.key() in done:
            same, problems = done[case.key()]
            print(f"{'FAIL' if problems else 'ok  '} {case.label}: the same processes as {same}")
            failed += bool(problems)
            continue
        missing = FRAMEWORKS[case.framework].missing()
        if missing:
            print(f"FAIL {case.label}: cannot run: {missing}")
            failed += 1
            continue
        started = time.monotonic()
        problems, outputs = case.run(workroot / f"case-{n}")
        # The weights a passing case trained (without the PS scripts' cluster, which names each
        # side's hosts), against those of the case it must agree with, if that one passed.
        weights = {w.split(" cluster=")[0] for _, out in outputs for *_, w in LINE.findall(out)}
        twin = trained.get(case.agrees_with)
        if not problems and twin is not None and twin != weights:
            problems.append(f"trained {sorted(weights)}, but {case.agrees_with} trained {sorted(twin)}")
        if not problems:
            trained[case.label] = weights
        done[case.key()] = (case.label, problems)
        print(f"{'FAIL' if problems else 'ok  '} {case.label}: {len(case.pods)} pods "
              f"({time.monotonic() - started:.0f} s)")
        report(case, problems, outputs)
        failed += bool(problems)
    return failed


def report(case, problems, outputs):
    """The problems; then each pod's step lines, or the tail of its output when the case failed."""
    for p in problems:
        print(f"     {p}")
    for pod, out in outputs:
        shown = out.strip().splitlines()[-25:] if problems else [m.group(0) for m in LINE.finditer(out)]
        print(f"     pod {pod} ({case.pods[pod]['host']}):")
        for line in shown:
            print(f"       | {line}")


def self_test(args, workroot):
    """The harness must fail on the defects it guards: the JAX pane as it was (no arguments to
    jax.distributed.initialize), and processes that each form a job of their own."""
    line = args.lines[-1] if args.lines else release_lines(args)[-1]
    (case,), _ = v2_cases(argparse.Namespace(**{**vars(args), "frameworks": ["jax"]}), [line])
    call = re.compile(r"jax\.distributed\.initialize\((.|\n)*?\n    \)")
    if not call.search(case.code):
        raise SystemExit("self-test: the JAX pane has no multi-line jax.distributed.initialize(...) call to undo")
    own_job = ("jax.distributed.initialize(\n"
               "        f\"127.0.0.1:{29400 + int(os.environ['JAX_PROCESS_ID'])}\", 1, 0\n    )")
    defects = [
        ("the JAX pane before the fix", call.sub("jax.distributed.initialize()", case.code), "exited 1"),
        ("each process a job of its own", call.sub(lambda _: own_job, case.code), "world sizes"),
    ]
    failures = 0
    for n, (what, broken, expected) in enumerate(defects):
        problems, outputs = case.run(workroot / f"self-{n}", broken)
        caught = any(expected in p for p in problems)
        print(f"{'ok  ' if caught else 'FAIL'} self-test {case.label}, {what}: "
              f"{'fails as it must' if caught else 'must fail with ' + repr(expected)}")
        report(case, problems, outputs)
        failures += not caught
    print(f"training self-test: {len(defects) - failures} passed, {failures} failed")
    return failures


def release_lines(args):
    return explorer(args, "export", "--query", "framework=pytorch")["releases"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--explorer", default="cargo run -q --bin trainer-explorer --")
    ap.add_argument("--release", action="append", dest="lines", help="a release line (default: every one)")
    ap.add_argument("--self-test", action="store_true", help="show that the harness fails on its defects")
    ap.add_argument("--inside", help=argparse.SUPPRESS)
    ap.add_argument("frameworks", nargs="*")
    args = ap.parse_args()
    if args.inside:
        return inside(args.inside)
    if shutil.which("unshare") is None or os.geteuid() != 0:
        raise SystemExit("run_training.py needs root and unshare: each case runs in a network and mount "
                         "namespace of its own, so the pods' hostnames resolve to 127.0.0.1")
    with tempfile.TemporaryDirectory(prefix="run-training-") as tmp:
        workroot = Path(tmp)
        if args.self_test:
            return 1 if self_test(args, workroot) else 0
        lines = args.lines or release_lines(args)
        cases, skipped = v2_cases(args, lines)
        v1, v1_skipped = v1_cases(args, lines[-1])
        cases += v1
        cases += migrated_cases(args, lines[-1])
        skipped += v1_skipped
        failed = run(cases, workroot)
        for label, why in skipped:
            print(f"not run {label}: {why}")
    print(f"training: {len(cases) - failed} passed, {failed} failed, {len(skipped)} skipped")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
