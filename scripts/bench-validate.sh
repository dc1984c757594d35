#!/usr/bin/env bash
# make bench's validate row: `trainer-explorer validate` (the wheel's binary, a release build)
# against check-jsonschema (PyPI; schema only, the way people validate CRs today) on the same
# 1,000 TrainJobs and their 1,000 TrainingRuntimes, with the same release's CRD schemas, side by
# side in one run. Writes JSON to $1 (default dist/_bench/validate.json) for bench.mjs; run alone,
# `node scripts/bench-validate.mjs FILE BENCHMARKS.md` puts the row in BENCHMARKS.md.
#
# check-jsonschema is installed into its own venv under target/ ($CHECK_JSONSCHEMA_VENV), never
# into .tools. The wheel is dist/python's (make wheel), installed into its own venv too, so the
# binary measured is the one `pip install` gives.
set -euo pipefail
cd "$(dirname "$0")/.."
out_json=${1:-dist/_bench/validate.json}
work=target/bench-validate
venv=${CHECK_JSONSCHEMA_VENV:-target/bench-tools/venv-check-jsonschema}
wheel_venv=target/bench-tools/venv-wheel
reference=${TRAINER_REFERENCE:-../shared/reference}
release=v2.3.0
count=1000
runs=3

say() { printf '==> %s\n' "$*" >&2; }

if [ ! -x "$venv/bin/check-jsonschema" ]; then
  say "check-jsonschema into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q check-jsonschema
fi
wheels=(dist/python/trainer_explorer-*.whl)
wheel=${wheels[0]}
[ -e "$wheel" ] || { echo "no wheel in dist/python: run make wheel first" >&2; exit 2; }
rm -rf "$wheel_venv"
python3 -m venv "$wheel_venv"
"$wheel_venv/bin/pip" install -q --no-deps "$wheel"
bin="$wheel_venv/bin/trainer-explorer"

rm -rf "$work" && mkdir -p "$work/jobs" "$work/runtimes" "$work/schemas"
# The manifests: per i, the torch-distributed runtime of the release as a namespaced
# TrainingRuntime `rt-i`, and a TrainJob that references it. The schemas: each CRD's served
# version's openAPIV3Schema as a JSON Schema, made strict as `kubectl --validate=strict` is (an
# object with `properties` and no x-kubernetes-preserve-unknown-fields closes them) and with
# `nullable` spelled as JSON Schema spells it.
python3 - "$reference" "$release" "$count" "$work" "$bin" <<'PY'
import json, subprocess, sys, yaml
reference, release, count, work, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
runtime = yaml.safe_load(open(f"{reference}/v2-runtimes/{release}/torch_distributed.yaml"))

def strict(node):
    if isinstance(node, dict):
        if node.get("nullable") and "type" in node:
            node["type"] = [node["type"], "null"]
        if "properties" in node and not node.get("x-kubernetes-preserve-unknown-fields"):
            node.setdefault("additionalProperties", False)
        for v in node.values():
            strict(v)
    elif isinstance(node, list):
        for v in node:
            strict(v)
    return node

for kind, plural in [("TrainJob", "trainjobs"), ("TrainingRuntime", "trainingruntimes")]:
    crd = yaml.safe_load(open(f"{reference}/v2-crds/{release}/trainer.kubeflow.org_{plural}.yaml"))
    version = next(v for v in crd["spec"]["versions"] if v.get("served"))
    schema = strict(version["schema"]["openAPIV3Schema"])
    schema["$schema"] = "http://json-schema.org/draft-04/schema#"
    json.dump(schema, open(f"{work}/schemas/{kind.lower()}.json", "w"))

for i in range(count):
    rt = dict(runtime, kind="TrainingRuntime", metadata={"name": f"rt-{i}", "namespace": "team-a"})
    yaml.safe_dump(rt, open(f"{work}/runtimes/rt-{i:04}.yaml", "w"), sort_keys=False)
    job = {
        "apiVersion": "trainer.kubeflow.org/v1alpha1",
        "kind": "TrainJob",
        "metadata": {"name": f"job-{i}", "namespace": "team-a"},
        "spec": {
            "runtimeRef": {"name": f"rt-{i}", "kind": "TrainingRuntime"},
            "trainer": {
                "numNodes": 1 + i % 4,
                "image": "pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime",
                "command": ["torchrun", "train.py"],
                "resourcesPerNode": {"limits": {"nvidia.com/gpu": 1 + i % 2}},
            },
        },
    }
    yaml.safe_dump(job, open(f"{work}/jobs/job-{i:04}.yaml", "w"), sort_keys=False)
PY

# Each tool once first: both must find every file valid, or the comparison means nothing.
"$bin" validate --release "$release" --runtimes "$work/runtimes" "$work/jobs" "$work/runtimes" | tail -1 >&2
"$venv/bin/check-jsonschema" --schemafile "$work/schemas/trainjob.json" "$work"/jobs/*.yaml >&2
"$venv/bin/check-jsonschema" --schemafile "$work/schemas/trainingruntime.json" "$work"/runtimes/*.yaml >&2

# Best of $runs, wall clock, each tool in turn.
python3 - "$bin" "$venv/bin/check-jsonschema" "$work" "$release" "$runs" "$count" "$out_json" <<'PY'
import glob, json, os, subprocess, sys, time
binary, checker, work, release, runs, count, out = sys.argv[1:8]
jobs = sorted(glob.glob(f"{work}/jobs/*.yaml"))
runtimes = sorted(glob.glob(f"{work}/runtimes/*.yaml"))
ours = [[binary, "validate", "--release", release, "--runtimes", f"{work}/runtimes", f"{work}/jobs", f"{work}/runtimes"]]
theirs = [
    [checker, "--schemafile", f"{work}/schemas/trainjob.json", *jobs],
    [checker, "--schemafile", f"{work}/schemas/trainingruntime.json", *runtimes],
]
def timed(commands):
    start = time.perf_counter()
    for c in commands:
        subprocess.run(c, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start
best = {"ours": float("inf"), "theirs": float("inf")}
for _ in range(int(runs)):
    best["ours"] = min(best["ours"], timed(ours))
    best["theirs"] = min(best["theirs"], timed(theirs))
version = subprocess.run([checker, "--version"], capture_output=True, text=True).stdout.strip()
result = {
    "files": len(jobs) + len(runtimes), "trainjobs": int(count), "runtimes": len(runtimes), "release": release,
    "runs": int(runs), "ours_s": best["ours"], "check_jsonschema_s": best["theirs"],
    "ratio": best["theirs"] / best["ours"], "check_jsonschema": version,
}
os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
json.dump(result, open(out, "w"), indent=2)
print(json.dumps(result, indent=2))
PY
