"""Runs Python panes inside an SDK venv (started by run_snippets.py).

A pane runs as the reader would run it, against the Kubernetes API that $KUBECONFIG points to
(run_snippets.py's fake API server). Only the waits are watched: each call of the client's wait
method is recorded with its bound arguments, defaults applied, and then runs for real.

Usage: <venv>/bin/python sdk_child.py --serve
  Imports the SDK once, then reads one JSON request per line on stdin
  ({pane, record, cwd, env, output, stderr, timeout}), runs each pane in a forked child (a fresh
  process state per pane, the imports already done) and answers {"returncode": N} per line.
"""
import inspect
import json
import os
import runpy
import signal
import sys
import traceback

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


def run(pane, record, calls):
    try:
        runpy.run_path(pane, run_name="__main__")
    finally:
        with open(record, "w") as f:
            json.dump({"waits": calls}, f)


def run_forked(request, calls):
    """The child's exit status: the pane's, as `python PANE.py` would give it."""
    signal.alarm(request["timeout"])
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, path in ((1, request["output"]), (2, request["stderr"])):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    sys.argv = [request["pane"]]
    code = 0
    try:
        run(request["pane"], request["record"], calls)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001 (any failure of the pane is the result, reported as it is)
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def serve():
    calls = []
    watch_waits(calls)  # Imports the SDK: every forked child starts with it loaded.
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            os._exit(run_forked(request, calls))
        _, status = os.waitpid(pid, 0)
        returncode = os.waitstatus_to_exitcode(status)
        print(json.dumps({"returncode": returncode}), flush=True)


def main():
    if sys.argv[1:] != ["--serve"]:
        raise SystemExit(__doc__)
    serve()


if __name__ == "__main__":
    main()
