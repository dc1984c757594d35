"""Runs one Python pane inside an SDK venv (started by run_snippets.py).

The pane runs as the reader would run it, against the Kubernetes API that $KUBECONFIG points to
(run_snippets.py's fake API server). Only the waits are watched: each call of the client's wait
method is recorded with its bound arguments, defaults applied, and then runs for real.

Usage: <venv>/bin/python sdk_child.py PANE.py RECORD.json
"""
import inspect
import json
import runpy
import sys

WAIT_METHODS = [
    ("kubeflow.trainer", "TrainerClient", "wait_for_job_status"),
    ("kubeflow.training", "TrainingClient", "wait_for_job_conditions"),
]


def watch_waits(calls):
    for module_name, class_name, method in WAIT_METHODS:
        try:
            module = __import__(module_name, fromlist=[class_name])
        except ImportError:
            continue  # The other SDK's venv.
        cls = getattr(module, class_name)
        original = getattr(cls, method)
        signature = inspect.signature(original)

        def wrapper(*args, __original=original, __signature=signature, __method=method, **kwargs):
            bound = __signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = {k: v for k, v in bound.arguments.items() if k != "self"}
            calls.append({"method": __method, "arguments": json.loads(json.dumps(arguments, default=repr))})
            return __original(*args, **kwargs)

        setattr(cls, method, wrapper)


def main():
    pane, record = sys.argv[1], sys.argv[2]
    calls = []
    watch_waits(calls)
    try:
        runpy.run_path(pane, run_name="__main__")
    finally:
        with open(record, "w") as f:
            json.dump({"waits": calls}, f)


if __name__ == "__main__":
    main()
