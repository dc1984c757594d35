#!/usr/bin/env python3
"""Runs the data scientist's Python panes with the real SDKs and checks that each creates the
job its YAML neighbour shows.

For every Trainer release line and selection: the explorer's export gives the four panes. The V2
Python pane runs in a venv with the real kubeflow SDK that release pairs with (the newest whose
METADATA admits the release's tag, see sdk_pairing.py; the pane's title must name it), the V1
Python pane in one with the real kubeflow-training SDK
(only transformers and peft are stand-ins, see stubs/README.md). Nothing in the SDKs is patched:
the panes talk HTTP to a fake Kubernetes API server in this process, named by a kubeconfig.
  - Runtimes are read from the shipped manifests of that Trainer release
    ($TRAINER_REFERENCE/v2-runtimes/<tag>, with that folder's overlay applied as
    crates/core/tests/it/builtin_runtimes.rs does) or, for a custom or namespaced
    runtime, from the platform engineer's pane for the same selection.
  - Creates (TrainJob, PyTorchJob, TFJob, PVC) are recorded. Gets answer with the created object,
    already Complete/Succeeded, so waits and logs return at once.
Then the recorded job must equal the YAML pane.

V2 compared fields: metadata name, namespace (a YAML without one lands in the kubeconfig's
namespace, `default`), labels, annotations; spec.runtimeRef (kind defaults to
ClusterTrainingRuntime, apiGroup to trainer.kubeflow.org), and every other spec field the
YAML or the SDK writes: trainer numNodes, resourcesPerNode (quantities by value, requests
default to limits), image, env, args, numProcPerNode; initializer storage URIs and env;
runtimePatches; suspend.
V1 compared fields: name, namespace, labels, nprocPerNode, and per replica type the replica
count, the container's image, command, args, resources (as above) and env, and train()'s
init container (image, args: the model and dataset URIs) and PVC (name, size, access modes).
Not compared in V1: restartPolicy, runPolicy, ports, volumes and the pod template's Istio
annotation, which the SDK sets or leaves to the operator's defaults. Kinds the V1 SDK cannot
build (MPIJob, JAXJob, XGBoostJob, PaddleJob) are applied from the YAML pane first, as its
comment tells the reader to; the pane must then create nothing and its wait must find the job.

command: the SDKs embed the pane's train() into the container command (`bash -c` writes it to
a file and starts it with the runtime's launcher). The check: the embedded code is exactly the
pane's train() followed by `train()`, and the YAML's command is the same launcher (mpirun
prefix, torchrun or python; `python`/`python3` and `-u` count as one) followed by the script
the YAML names as a placeholder for that code. A command the SDK takes as given
(TrainerCommand) must equal the YAML's.

A difference is accepted only where the Python pane says why in a top-level comment that names
the field by at least its last two path components (e.g. `trainer.numProcPerNode`,
`model.env`, `spec.suspend`).

Waits: an LLM fine-tuning pane (framework torchtune) must wait at least
MIN_LLM_WAIT_SECONDS (a model download plus fine-tuning outlasts the SDKs' 600 s default):
V2 `wait_for_job_status(timeout=...)`, V1 `wait_for_job_conditions(wait_timeout=...)`; V1's
`timeout` is the per-request API timeout, not the wait.

A namespaced TrainingRuntime with an SDK whose `Runtime` has no `kind` (before 0.5.0): that SDK's
TrainJob would name a ClusterTrainingRuntime, so the pane must watch the TrainJob the reader
applied from the YAML pane (applied first here) and create nothing; a TrainJob it does create is
compared as usual, so its spec.runtimeRef.kind shows.

The V1 panes do not depend on the Trainer release (the V1 job runs the newest release's framework
image whichever release is picked): they run once, with the newest release, and every other
release's V1 panes must be the same text.

Each SDK venv runs one long-lived sdk_child.py that imports the SDK once and forks a fresh child
per pane, so a pane costs its own run and not the SDK's import.

Usage: run_snippets.py [--explorer CMD] [--jobs N] [--release LINE ...] [--self-test] [QUERY ...]
  QUERY: the selection minus the persona, e.g. 'framework=pytorch&nodes=4'.
"""
import argparse
import atexit
import copy
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import sdk_pairing
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MIN_LLM_WAIT_SECONDS = 60 * 60

# A spread over every framework and parameter the data scientist can set.
DEFAULT_QUERIES = [
    "framework=pytorch",
    "framework=pytorch&nodes=1&gpus=0",
    "framework=pytorch&nodes=4&gpus=2&procs=4&queue=team-q&namespace=team-a&image=registry.example.com/t:1",
    "framework=pytorch&scope=namespaced&namespace=team-a&name=my-ddp",
    "framework=tensorflow",
    "framework=tensorflow&nodes=3&gpus=1&procs=2&queue=q&namespace=ml&image=tensorflow/tensorflow:2.16.1",
    "framework=deepspeed",
    "framework=deepspeed&gpus=0&namespace=ml&queue=q&nodes=3&procs=2",
    "framework=mlx&nodes=2&gpus=0",
    "framework=jax&nodes=3&gpus=4&image=nvcr.io/nvidia/jax:25.10-py3",
    "framework=xgboost",
    "framework=xgboost&scope=namespaced&namespace=team-a&procs=2",
    "framework=mpi",
    "framework=mpi&nodes=3&procs=2&image=registry.example.com/mpi:1",
    "framework=paddle&nodes=2",
    "framework=torchtune",
    "framework=torchtune&model=qwen2.5-1.5b&dataset=hf://org/ds&gpus=4&queue=q&namespace=ml",
    "framework=torchtune&model=llama3.2-3b&gpus=0&name=tune-3b",
    "framework=torchtune&dataset=hf://org/ds/train.parquet",
]


class Mismatch(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The fake Kubernetes API.


class FakeKube:
    """The API objects one pane sees, and what it created."""

    def __init__(self, cluster_runtimes, namespaced_runtimes):
        self.cluster_runtimes = cluster_runtimes  # name -> object
        self.namespaced_runtimes = namespaced_runtimes  # (namespace, name) -> object
        self.created = []  # (plural, namespace, body)
        self.applied = []  # the same, for what the reader applied as YAML before the pane ran
        self.unexpected = []

    def find_created(self, plural, namespace, name):
        for p, ns, body in self.created + self.applied:
            if p == plural and ns == namespace and body["metadata"]["name"] == name:
                return body
        return None

    def handle(self, method, path, body):
        parts = [p for p in urlparse(path).path.split("/") if p]
        # /apis/<group>/<version>/[namespaces/<ns>/]<plural>[/<name>] or /api/v1/...
        core = parts[:2] == ["api", "v1"]
        rest = parts[2:] if core else parts[3:]
        namespace = None
        if rest[:1] == ["namespaces"] and len(rest) >= 3:
            namespace, rest = rest[1], rest[2:]
        plural, name, sub = rest[0], (rest[1] if len(rest) > 1 else None), rest[2:]
        if method == "POST" and name is None:
            body.setdefault("metadata", {})["namespace"] = namespace
            self.created.append((plural, namespace, copy.deepcopy(body)))
            return 201, body
        if method == "GET":
            if plural == "configmaps" and name == "kubeflow-trainer-public":
                return 200, {"metadata": {"name": name}, "data": {"kubeflow_trainer_version": "fake"}}
            if plural == "clustertrainingruntimes" and name in self.cluster_runtimes:
                return 200, self.cluster_runtimes[name]
            if plural == "trainingruntimes" and (namespace, name) in self.namespaced_runtimes:
                return 200, self.namespaced_runtimes[(namespace, name)]
            if plural in ("clustertrainingruntimes", "trainingruntimes"):
                return 404, {"kind": "Status", "code": 404, "reason": "NotFound"}
            if plural == "localqueues":
                return 200, {"metadata": {"name": name, "namespace": namespace}}
            if name is not None and not sub and self.find_created(plural, namespace, name):
                return 200, finished(plural, self.find_created(plural, namespace, name))
            if plural == "pods" and name is None:
                return 200, self.pods(namespace, path)
            if plural == "pods" and sub == ["log"]:
                return 200, "training done\n"
            if plural == "events":
                return 200, {"items": []}
        self.unexpected.append(f"{method} {path}")
        return 404, {"kind": "Status", "code": 404, "reason": "NotFound"}

    def pods(self, namespace, path):
        """The TrainJob's node-0 pod, finished, so that get_job_logs reads one log."""
        match = re.search(r"jobset-name%3D([a-z0-9-]+)", path)
        if not match:
            return {"items": []}
        return {
            "items": [
                {
                    "metadata": {
                        "name": f"{match.group(1)}-node-0-0",
                        "namespace": namespace,
                        "creationTimestamp": "2026-01-01T00:00:00Z",
                        "labels": {
                            "jobset.sigs.k8s.io/jobset-name": match.group(1),
                            "jobset.sigs.k8s.io/replicatedjob-name": "node",
                            "jobset.sigs.k8s.io/job-index": "0",
                            "batch.kubernetes.io/job-completion-index": "0",
                        },
                    },
                    "spec": {"containers": [{"name": "node", "image": "x"}]},
                    "status": {"phase": "Succeeded"},
                }
            ]
        }

    def serve(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, method):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                try:
                    status, out = fake.handle(method, self.path, body)
                except Exception as e:  # noqa: BLE001 - reported as an unexpected request
                    fake.unexpected.append(f"{method} {self.path}: {e!r}")
                    status, out = 500, {"kind": "Status", "code": 500}
                data = out.encode() if isinstance(out, str) else json.dumps(out).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/plain" if isinstance(out, str) else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.reply("GET")

            def do_POST(self):
                self.reply("POST")

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


def finished(plural, body):
    out = copy.deepcopy(body)
    out["metadata"].setdefault("creationTimestamp", "2026-01-01T00:00:00Z")
    now = "2026-01-01T00:00:00Z"
    if plural == "trainjobs":
        out["status"] = {"conditions": [{"type": "Complete", "status": "True", "lastTransitionTime": now,
                                         "reason": "Done", "message": "done"}]}
    else:
        out["status"] = {"conditions": [{"type": "Succeeded", "status": "True", "lastTransitionTime": now}]}
    return out


KUBECONFIG = """apiVersion: v1
kind: Config
clusters: [{{name: fake, cluster: {{server: "http://127.0.0.1:{port}"}}}}]
users: [{{name: fake, user: {{token: fake}}}}]
contexts: [{{name: fake, context: {{cluster: fake, user: fake}}}}]
current-context: fake
"""
DEFAULT_NAMESPACE = "default"  # The kubeconfig's context names none.


# ---------------------------------------------------------------------------------------------
# Shipped runtimes.


def apply_overlay(doc, overlay):
    """manifests/overlays/runtimes: kustomize `labels` pairs and `images` newTag."""
    for pair in overlay.get("labels", []):
        doc["metadata"].setdefault("labels", {}).update(pair["pairs"])
    rules = {r["name"]: r["newTag"] for r in overlay.get("images", [])}

    def retag(v):
        if isinstance(v, dict):
            if isinstance(v.get("image"), str) and v["image"] in rules:
                v["image"] = f"{v['image']}:{rules[v['image']]}"
            for x in v.values():
                retag(x)
        elif isinstance(v, list):
            for x in v:
                retag(x)

    retag(doc)
    return doc


def shipped_runtimes(folder):
    folder = Path(folder)
    overlay_file = folder / "overlay-kustomization.yaml"
    overlay = yaml.safe_load(overlay_file.read_text()) if overlay_file.exists() else {}
    out = {}
    for f in sorted(folder.rglob("*.yaml")):
        for doc in yaml.safe_load_all(f.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "ClusterTrainingRuntime":
                out[doc["metadata"]["name"]] = apply_overlay(doc, overlay)
    if not out:
        raise SystemExit(f"no ClusterTrainingRuntime in {folder}")
    return out


# ---------------------------------------------------------------------------------------------
# Running one pane.


class SdkProcess:
    """One `sdk_child.py --serve` in a venv: it imported the SDK once and forks per pane. The
    kubeconfig it names (through $KUBECONFIG, read by the kubernetes client at import) is
    rewritten before each pane with that pane's fake API server."""

    def __init__(self, venv, stubs):
        self.home = Path(tempfile.mkdtemp(prefix="sdk-child-"))
        atexit.register(shutil.rmtree, self.home, True)
        self.kubeconfig = self.home / "kubeconfig"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "PYTHON"))}
        env["KUBECONFIG"] = str(self.kubeconfig)
        if stubs:
            env["PYTHONPATH"] = str(HERE / "stubs")
        self.env = env
        self.venv = venv
        self.proc = subprocess.Popen(
            [os.path.join(os.path.abspath(venv), "bin", "python"), str(HERE / "sdk_child.py"), "--serve"],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, pane, record, workdir, port):
        self.kubeconfig.write_text(KUBECONFIG.format(port=port))
        stderr = workdir / "stderr.txt"
        env = {**self.env, "HF_TOKEN": "<HF_TOKEN>", "HOME": str(workdir)}
        request = {"pane": str(pane), "record": str(record), "cwd": str(workdir), "env": env,
                   "output": str(workdir / "stdout.txt"), "stderr": str(stderr), "timeout": 120}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise Mismatch(f"the SDK process in {self.venv} exited")
        return json.loads(answer)["returncode"], stderr.read_text() if stderr.exists() else ""


_sdk_processes = threading.local()


def sdk_process(venv, stubs):
    """This thread's SDK process for the venv (a process runs one pane at a time)."""
    pool = _sdk_processes.__dict__.setdefault("pool", {})
    key = (str(venv), stubs)
    if key not in pool or pool[key].proc.poll() is not None:
        pool[key] = SdkProcess(venv, stubs)
    return pool[key]


def run_pane(code, venv, fake, workdir, stubs):
    server = fake.serve()
    try:
        workdir.mkdir(parents=True, exist_ok=True)
        # Named train.py: the V2 SDK names the file it writes after the pane's file.
        pane = workdir / "train.py"
        pane.write_text(code)
        record = workdir / "record.json"
        returncode, stderr = sdk_process(venv, stubs).run(pane, record, workdir, server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
    if returncode == -signal.SIGALRM:
        raise Mismatch("the pane did not finish within 120 s with the real SDK")
    if returncode != 0:
        raise Mismatch(f"the pane failed with the real SDK:\n{stderr.strip()[-3000:]}")
    if fake.unexpected:
        raise Mismatch(f"the pane made requests the fake API does not know: {fake.unexpected}")
    return json.loads(record.read_text())


# ---------------------------------------------------------------------------------------------
# Comparing.

SUFFIX = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60,
          "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "": 1,
          "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}


def quantity(v):
    m = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(v).strip())
    if not m or m.group(2) not in SUFFIX:
        raise Mismatch(f"not a Kubernetes quantity: {v!r}")
    return Decimal(m.group(1)) * Decimal(SUFFIX[m.group(2)])


def value(v):
    """A quantity as a plain decimal: 1, "1" and 1.0 are one GPU."""
    return f"{quantity(v).normalize():f}"


def resources(r, literal=False):
    """requests default to limits (the API server's defaulting), unless `literal`: a YAML pane
    that shows the very object an SDK call wrote must show its requests too; quantities by value."""
    if not r:
        return None
    limits = {k: value(v) for k, v in (r.get("limits") or {}).items()}
    requests = {k: value(v) for k, v in (r.get("requests") or {}).items()}
    return {"limits": limits, "requests": requests if literal else {**limits, **requests}}


def flatten(value, prefix, out):
    """Dotted paths to scalars; lists are kept whole (their order is their meaning)."""
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif value not in (None, [], {}):
        out[prefix] = value
    return out


def comments(code):
    """Top-level comment lines: the pane's own notes, not the user's train() body."""
    return [line for line in code.splitlines() if line.startswith("#")]


def named_in(path, notes):
    parts = path.split(".")
    return any(".".join(parts[-n:]) in note for n in range(2, len(parts) + 1) for note in notes)


def train_source(code):
    """`def train():` and its body as inspect.getsource gives it: up to the next top-level line,
    trailing comments included (the AST would end the body at the last statement)."""
    lines = code.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("def train(")), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()), len(lines))
    return "\n".join(lines[start:end]).rstrip()


HEREDOC = re.compile(r"read -r -d '' SCRIPT << EOM\n\n(?P<code>.*)\nEOM\n.*\n(?P<entry>.+?) \"(?P<file>[^\"]+)\"\s*$", re.DOTALL)


def launcher(tokens):
    """python and python3 are one interpreter; -u only unbuffers output."""
    return ["python3" if t == "python" else t for t in tokens if t != "-u"]


def check_command(sdk_command, yaml_command, code):
    """Returns a problem, or None when the YAML runs what the SDK runs."""
    sdk_command = list(sdk_command or [])
    if "bash" not in sdk_command:
        if sdk_command != list(yaml_command or []):
            return f"the SDK runs {sdk_command}, the YAML {yaml_command}"
        return None
    i = sdk_command.index("bash")
    if sdk_command[i + 1] != "-c" or len(sdk_command) != i + 3:
        return f"unexpected SDK command {sdk_command}"
    m = HEREDOC.search(sdk_command[i + 2])
    if not m:
        return f"no embedded function in the SDK command {sdk_command}"
    expected = f"{train_source(code)}\n\ntrain()"
    if m.group("code").strip() != expected.strip():
        return f"the SDK embeds {m.group('code')!r}, not the pane's train() {expected!r}"
    want = launcher(sdk_command[:i] + shlex.split(m.group("entry")))
    yaml_command = list(yaml_command or [])
    if not yaml_command or launcher(yaml_command[:-1]) != want or not yaml_command[-1].endswith(".py"):
        return f"the YAML runs {yaml_command}; the SDK runs train() with {want}"
    return None


def compare(label, expected, actual, code, problems):
    """expected/actual: flat dicts. Differences need a comment naming them."""
    notes = comments(code)
    for path in sorted(set(expected) | set(actual)):
        if expected.get(path) != actual.get(path) and not named_in(path, notes):
            problems.append(f"{label}: {path}: YAML {expected.get(path)!r}, SDK {actual.get(path)!r}")


def trainjob_fields(job):
    meta = job.get("metadata") or {}
    spec = copy.deepcopy(job.get("spec") or {})
    ref = spec.pop("runtimeRef", {}) or {}
    trainer = spec.pop("trainer", None) or {}
    command = trainer.pop("command", None)
    trainer["resourcesPerNode"] = resources(trainer.get("resourcesPerNode"))
    init = spec.pop("initializer", None) or {}
    out = {
        "metadata.name": meta.get("name"),
        "metadata.namespace": meta.get("namespace") or DEFAULT_NAMESPACE,
        "spec.runtimeRef.name": ref.get("name"),
        "spec.runtimeRef.kind": ref.get("kind") or "ClusterTrainingRuntime",
        "spec.runtimeRef.apiGroup": ref.get("apiGroup") or "trainer.kubeflow.org",
    }
    flatten(meta.get("labels") or {}, "metadata.labels", out)
    flatten(meta.get("annotations") or {}, "metadata.annotations", out)
    flatten(trainer, "spec.trainer", out)
    flatten(init, "spec.initializer", out)
    flatten(spec, "spec", out)
    return {k: v for k, v in out.items() if v is not None}, command


def check_v2(panes, platform, runtimes, args, workdir):
    problems = []
    trainjob = yaml.safe_load(panes["yaml"])
    cluster = dict(runtimes)
    namespaced = {}
    for rt in platform:
        if rt["kind"] == "TrainingRuntime":
            namespaced[(rt["metadata"].get("namespace") or DEFAULT_NAMESPACE, rt["metadata"]["name"])] = rt
        else:
            cluster[rt["metadata"]["name"]] = rt
    fake = FakeKube(cluster, namespaced)
    release = args.release
    if f"kubeflow {release.sdk}" not in panes["python_title"]:
        problems.append(f"Trainer {release.tag} pairs with kubeflow {release.sdk}; the pane's title is "
                        f"{panes['python_title']!r}")
    watch_only = (trainjob["spec"]["runtimeRef"].get("kind") == "TrainingRuntime"
                  and not release.writes_runtime_kind)
    if watch_only:
        applied = copy.deepcopy(trainjob)
        applied["metadata"].setdefault("namespace", DEFAULT_NAMESPACE)
        fake.applied.append(("trainjobs", applied["metadata"]["namespace"], applied))
    record = run_pane(panes["python"], release.venv, fake, workdir, stubs=False)
    if watch_only and not fake.created:
        return problems + check_waits(record, "wait_for_job_status", "timeout", args.framework)
    jobs = [(ns, body) for plural, ns, body in fake.created if plural == "trainjobs"]
    if len(jobs) != 1 or len(fake.created) != 1:
        raise Mismatch(f"expected one TrainJob created, got {[(p, b['metadata'].get('name')) for p, _, b in fake.created]}")
    created = jobs[0][1]
    want, want_cmd = trainjob_fields(trainjob)
    got, got_cmd = trainjob_fields(created)
    compare("TrainJob", want, got, panes["python"], problems)
    if want_cmd is not None or got_cmd is not None:
        issue = check_command(got_cmd, want_cmd, panes["python"])
        if issue and not named_in("spec.trainer.command", comments(panes["python"])):
            problems.append(f"TrainJob: spec.trainer.command: {issue}")
    problems += check_waits(record, "wait_for_job_status", "timeout", args.framework)
    return problems


def container_fields(prefix, c, out, literal=False):
    """A container with a command: its args belong to the command (`bash -c SCRIPT`)."""
    args = None if c.get("command") else c.get("args")
    out[f"{prefix}.image"] = c.get("image")
    flatten({"resources": resources(c.get("resources"), literal), "env": c.get("env"), "args": args}, prefix, out)


# The Training Operator's defaulting webhook fills in a replica's restartPolicy by kind
# (pkg/apis/kubeflow.org/v1/*_types.go at v1.9.4). The SDK never sets one, so the job it creates
# gets this default; the YAML pane must say the same.
DEFAULT_RESTART_POLICY = {
    "PyTorchJob": "OnFailure",
    "PaddleJob": "OnFailure",
    "TFJob": "Never",
    "MPIJob": "Never",
    "JAXJob": "Never",
    "XGBoostJob": "Never",
}


def v1_job_fields(job, literal=False):
    meta = job.get("metadata") or {}
    spec = job.get("spec") or {}
    out = {
        "metadata.name": meta.get("name"),
        "metadata.namespace": meta.get("namespace") or DEFAULT_NAMESPACE,
        "kind": job.get("kind"),
        "spec.nprocPerNode": spec.get("nprocPerNode"),
    }
    flatten(meta.get("labels") or {}, "metadata.labels", out)
    commands = {}
    for key, specs in spec.items():
        if not key.endswith("ReplicaSpecs"):
            continue
        for rtype, rs in (specs or {}).items():
            out[f"{rtype}.replicas"] = rs.get("replicas", 1)
            out[f"{rtype}.restartPolicy"] = rs.get("restartPolicy") or DEFAULT_RESTART_POLICY.get(job.get("kind"))
            pod = rs["template"]["spec"]
            (c,) = pod["containers"]
            container_fields(rtype, c, out, literal)
            if c.get("command"):
                commands[rtype] = c["command"] + (c.get("args") or [])
            for init in pod.get("initContainers") or []:
                container_fields(f"{rtype}.initContainers.{init['name']}", init, out)
    return {k: v for k, v in out.items() if v is not None}, commands


def pvc_fields(pvc):
    return {
        "pvc.name": pvc["metadata"]["name"],
        "pvc.namespace": pvc["metadata"].get("namespace") or DEFAULT_NAMESPACE,
        "pvc.accessModes": pvc["spec"]["accessModes"],
        "pvc.storage": value(pvc["spec"]["resources"]["requests"]["storage"]),
    }


# What kubeflow-training 1.9.4 builds itself (create_job from a function, train()).
SDK_BUILT_KINDS = {"PyTorchJob", "TFJob"}


def check_v1(panes, args, workdir):
    problems = []
    docs = [d for d in yaml.safe_load_all(panes["yaml"]) if d]
    yaml_jobs = [d for d in docs if d["kind"].endswith("Job")]
    yaml_pvcs = [d for d in docs if d["kind"] == "PersistentVolumeClaim"]
    fake = FakeKube({}, {})
    if yaml_jobs and yaml_jobs[0]["kind"] not in SDK_BUILT_KINDS:
        # The pane says the job was applied as YAML and only watches it: apply it first, then
        # the pane must create nothing and find that job.
        job = copy.deepcopy(yaml_jobs[0])
        job["metadata"].setdefault("namespace", DEFAULT_NAMESPACE)
        fake.applied.append((job["kind"].lower() + "s", job["metadata"]["namespace"], job))
        record = run_pane(panes["python"], args.v1_venv, fake, workdir, stubs=True)
        if fake.created:
            problems.append(f"the pane created {[b['kind'] for _, _, b in fake.created]} next to the applied YAML")
        return problems + check_waits(record, "wait_for_job_conditions", "wait_timeout", args.framework)
    record = run_pane(panes["python"], args.v1_venv, fake, workdir, stubs=True)
    jobs = [b for p, _, b in fake.created if p.endswith("jobs")]
    pvcs = [b for p, _, b in fake.created if p == "persistentvolumeclaims"]
    if len(jobs) != 1 or len(yaml_jobs) != 1:
        raise Mismatch(f"expected one job from the SDK and the YAML, got {len(jobs)} and {len(yaml_jobs)}")
    # The fine-tuning pane's YAML is the PyTorchJob train() created, so it is compared as written.
    literal = args.framework == "torchtune"
    want, want_cmds = v1_job_fields(yaml_jobs[0], literal)
    got, got_cmds = v1_job_fields(jobs[0], literal)
    if args.framework == "torchtune":
        for d in (want, got):
            for k in [k for k in d if k.endswith(".args") and "initContainers" not in k]:
                d[k] = abridged_trainer_args(d[k])
    compare(yaml_jobs[0]["kind"], want, got, panes["python"], problems)
    for rtype in sorted(set(want_cmds) | set(got_cmds)):
        if args.framework == "torchtune":
            continue  # train() runs the image's entrypoint with args, compared above.
        issue = check_command(got_cmds.get(rtype), want_cmds.get(rtype), panes["python"])
        if issue and not named_in(f"{rtype}.command", comments(panes["python"])):
            problems.append(f"{yaml_jobs[0]['kind']}: {rtype}.command: {issue}")
    if len(pvcs) != len(yaml_pvcs):
        problems.append(f"PVCs: the YAML shows {len(yaml_pvcs)}, the SDK created {len(pvcs)}")
    for a, b in zip(yaml_pvcs, pvcs):
        compare("PersistentVolumeClaim", pvc_fields(a), pvc_fields(b), panes["python"], problems)
    problems += check_waits(record, "wait_for_job_conditions", "wait_timeout", args.framework)
    return problems


# train() serialises the whole TrainingArguments and LoraConfig into these; the YAML pane
# abridges them (its title says so), and the transformers/peft stand-ins could not reproduce them.
ABRIDGED = {"--lora_config", "--training_parameters"}


def abridged_trainer_args(argv):
    """The trainer's flag/value pairs, in order, without the abridged JSON ones."""
    return [x for k, v in zip(argv[::2], argv[1::2]) if k not in ABRIDGED for x in (k, v)]


def check_waits(record, method, argument, framework):
    waits = [w for w in record["waits"] if w["method"] == method]
    if not waits:
        return [f"the pane never calls {method}"]
    if framework != "torchtune":
        return []
    short = [w["arguments"][argument] for w in waits if int(w["arguments"][argument]) < MIN_LLM_WAIT_SECONDS]
    if short:
        return [(f"{method}({argument}={short[0]}) gives up before an LLM download plus fine-tuning "
                 f"(at least {MIN_LLM_WAIT_SECONDS} s)")]
    return []


# ---------------------------------------------------------------------------------------------


def export(explorer, query):
    out = subprocess.run(shlex.split(explorer) + ["export", "--query", query],
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"export {query} failed: {out.stderr}")
    return json.loads(out.stdout)["snippets"]


def selection_panes(query, args, release):
    """The data scientist's panes by api and language (and the Python pane's title), the
    framework, and the platform engineer's V2 runtime for the same selection."""
    query = f"release={release.line}&{query}"
    snippets = export(args.explorer, f"persona=data-scientist&{query}")
    panes = {}
    for s in snippets:
        panes.setdefault(s["api"], {})[s["language"]] = s["code"]
        if s["language"] == "python":
            panes[s["api"]]["python_title"] = s["title"]
    platform = [yaml.safe_load(s["code"]) for s in export(args.explorer, f"persona=platform-engineer&{query}")
                if s["api"] == "v2" and s["language"] == "yaml"]
    return panes, snippets[0]["framework"], platform


def check_panes(panes, framework, platform, args, release, workdir, v1=True):
    """v1=False: the V1 panes were checked with another release (they must be the same)."""
    args = argparse.Namespace(**vars(args), framework=framework, release=release)
    results = []
    for api in ("v2", "v1") if v1 else ("v2",):
        if "python" not in panes.get(api, {}):
            continue
        try:
            if api == "v2":
                problems = check_v2(panes[api], platform, release.runtimes, args, workdir / api)
            else:
                problems = check_v1(panes[api], args, workdir / api)
        except Mismatch as e:
            problems = [str(e)]
        results.append((api, problems))
    return results


class Release:
    """One Trainer release line as the harness runs it: its tag (from the explorer's export), the
    SDK it pairs with and that SDK's venv (from the venvs' METADATA), its shipped runtimes."""

    def __init__(self, line, tag, venvs, reference):
        self.line, self.tag = line, tag
        self.sdk = sdk_pairing.newest_sdk(tag, {v: r for v, (r, _) in venvs.items()})
        self.venv = venvs[self.sdk][1]
        self.runtimes = shipped_runtimes(f"{reference}/v2-runtimes/{tag}")
        # Whether the SDK's train() can name a namespaced TrainingRuntime (`Runtime.kind`).
        probe = ("import dataclasses, kubeflow.trainer as t; "
                 "print(any(f.name == 'kind' for f in dataclasses.fields(t.Runtime)))")
        out = subprocess.run([str(self.venv / "bin" / "python"), "-c", probe], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"cannot import kubeflow.trainer from {self.venv}: {out.stderr}")
        self.writes_runtime_kind = out.stdout.strip() == "True"


def releases(args):
    """Every release line the explorer knows (or those --release names), oldest first."""
    reference = os.environ.get("TRAINER_REFERENCE", str(ROOT.parent / "shared" / "reference"))
    venvs = sdk_pairing.venv_ranges(ROOT / ".tools")
    every = json.loads(subprocess.run(shlex.split(args.explorer) + ["export", "--query", "framework=pytorch"],
                                      cwd=ROOT, capture_output=True, text=True, check=True).stdout)["releases"]
    lines = args.lines or every
    unknown = sorted(set(lines) - set(every))
    if unknown:
        raise SystemExit(f"unknown release lines {unknown}; the explorer knows {every}")

    def one(line):
        tag = json.loads(subprocess.run(shlex.split(args.explorer) + ["export", "--query", f"release={line}"],
                                        cwd=ROOT, capture_output=True, text=True, check=True).stdout)["trainer"]
        return Release(line, tag, venvs, reference)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        return {r.line: r for r in pool.map(one, [line for line in every if line in lines])}


class OtherRelease:
    """A defect: the pane of another release for the same selection."""

    def __init__(self, line):
        self.line = line


# Each guard must be able to fail: the defect put back into a pane that passes, and the
# problem the harness must report for it. None: the newest release.
SELF_TEST = [
    ("the SDK's default image", "framework=pytorch", None, "v1",
     lambda code: re.sub(r'\n    base_image="[^"]*",', "", code), "Master.image"),
    ("procs on a TFJob", "framework=tensorflow&procs=2", None, "v1",
     lambda code: code.replace("num_workers=2,", "num_workers=2, num_procs_per_worker=2,"),
     "num_procs_per_worker can't be set for TFJob"),
    ("the LLM wait left at its default", "framework=torchtune", None, "v2",
     lambda code: re.sub(r", timeout=[^)]*\)", ")", code), "wait_for_job_status(timeout=600)"),
    ("the V1 LLM wait left at its default", "framework=torchtune", None, "v1",
     lambda code: re.sub(r", wait_timeout=[^)]*\)", ")", code), "wait_for_job_conditions(wait_timeout=600)"),
    ("a node count the YAML does not show", "framework=jax&nodes=3", None, "v2",
     lambda code: code.replace("num_nodes=3", "num_nodes=2"), "spec.trainer.numNodes"),
    ("a process count the YAML does not set", "framework=pytorch&nodes=1", None, "v1",
     lambda code: code.replace("num_workers=1,", "num_workers=1,\n    num_procs_per_worker=1,"), "nprocPerNode"),
    ("a difference no comment names", "framework=pytorch&procs=2", None, "v2",
     lambda code: code.replace("spec.trainer.numProcPerNode", "the per-node field"), "spec.trainer.numProcPerNode"),
    # Per release: kubeflow 0.3.1 (v2.1) has no RuntimePatch option (0.4.0 added it).
    ("the v2.1 pane importing what kubeflow 0.3.1 lacks", "framework=pytorch", "v2.1", "v2",
     lambda code: code.replace("import Name\n", "import Name, RuntimePatch\n"), "cannot import name 'RuntimePatch'"),
    # kubeflow 0.4.1 (v2.2) reads a namespaced runtime but its TrainJob names a ClusterTrainingRuntime.
    ("the v2.2 namespaced pane calling train() as v2.3's does", "framework=pytorch&scope=namespaced&namespace=team-a",
     "v2.2", "v2", OtherRelease("v2.3"), "spec.runtimeRef.kind"),
]


def self_test(args, by_line, workdir):
    newest = list(by_line.values())[-1]

    def one(item):
        i, (label, query, line, api, defect, expected) = item
        release = by_line[line] if line else newest
        panes, framework, platform = selection_panes(query, args, release)
        if isinstance(defect, OtherRelease):
            broken = selection_panes(query, args, by_line[defect.line])[0][api]["python"]
        else:
            broken = defect(panes[api]["python"])
        if broken == panes[api]["python"]:
            return f"FAIL self-test: {label}: the defect did not apply to the pane"
        clean = dict(check_panes(panes, framework, platform, args, release, workdir / f"clean{i}"))[api]
        panes[api] = {**panes[api], "python": broken}
        found = dict(check_panes(panes, framework, platform, args, release, workdir / f"broken{i}"))[api]
        lines = [line.strip() for p in found for line in p.splitlines() if expected in line]
        if clean or not lines:
            return f"FAIL self-test: {label}: as shipped {clean or 'ok'}; with the defect {found or 'ok'}"
        return f"ok   self-test: {label}: {lines[0]}"

    def v1_same_at_every_release():
        # Older releases' V1 panes are not run: the V1 job does not follow the Trainer release, so
        # each must equal the newest's, which was run.
        oldest = next(iter(by_line.values()))
        theirs = selection_panes("framework=pytorch", args, newest)[0]["v1"]
        ours = selection_panes("framework=pytorch", args, oldest)[0]["v1"]
        broken = {**ours, "python": ours["python"].replace("num_workers=2", "num_workers=3")}
        label = f"self-test: {oldest.line}'s V1 pane with another worker count"
        if ours != theirs:
            return f"FAIL {label}: as shipped, the V1 pane changes with the Trainer release"
        if broken == ours or broken == theirs:
            return f"FAIL {label}: the difference went unnoticed"
        return f"ok   {label}: differs from {newest.line}'s V1 pane, which was run"

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(one, enumerate(SELF_TEST)))
    outcomes.append(v1_same_at_every_release())
    for outcome in outcomes:
        print(outcome)
    failures = sum(o.startswith("FAIL") for o in outcomes)
    print(f"sdk-run self-test: {len(outcomes) - failures} passed, {failures} failed")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--v1-venv", default=str(ROOT / ".tools" / "venv-training-1.9.4"))
    ap.add_argument("--explorer", default="cargo run -q --bin trainer-explorer --")
    ap.add_argument("--jobs", type=int, default=2, help="selections checked at once")
    ap.add_argument("--release", action="append", dest="lines", help="a release line (default: every one the explorer knows)")
    ap.add_argument("--self-test", action="store_true", help="show that each guard fails on its defect")
    ap.add_argument("queries", nargs="*", default=DEFAULT_QUERIES)
    args = ap.parse_args()
    if args.self_test:
        args.lines = None  # The self-test's cases name their releases.
    by_line = releases(args)
    newest = list(by_line.values())[-1]
    with tempfile.TemporaryDirectory(prefix="run-snippets-") as tmp:
        if args.self_test:
            return self_test(args, by_line, Path(tmp))

        def one(item):
            i, (release, query) = item
            panes, framework, platform = selection_panes(query, args, release)
            v1_problems = []
            if release is not newest and "v1" in panes:
                if panes["v1"] != selection_panes(query, args, newest)[0].get("v1"):
                    v1_problems = [(f"the V1 panes differ from {newest.line}'s, which were run: "
                                    "the V1 job must not follow the Trainer release")]
            results = check_panes(panes, framework, platform, args, release, Path(tmp) / str(i),
                                  v1=release is newest)
            if v1_problems:
                results.append(("v1", v1_problems))
            return release, query, results

        jobs = [(r, q) for r in by_line.values() for q in args.queries]
        counts = {r.line: [0, 0] for r in by_line.values()}
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for release, query, results in pool.map(one, enumerate(jobs)):
                for api, problems in results:
                    label = f"{release.line} (kubeflow {release.sdk}) {api} {query}"
                    counts[release.line][bool(problems)] += 1
                    print(f"{'FAIL' if problems else 'ok  '} {label}")
                    for p in problems:
                        print(f"     {p}")
    for release in by_line.values():
        passed, failed = counts[release.line]
        print(f"sdk-run panes for Trainer {release.tag} (kubeflow {release.sdk}): "
              f"{passed} agree with their YAML, {failed} differ")
    failed = sum(f for _, f in counts.values())
    passed = sum(p for p, _ in counts.values())
    print(f"sdk-run panes: {passed} agree with their YAML, {failed} differ")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
