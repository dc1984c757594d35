#!/usr/bin/env python3
"""Runs the post's local-execution snippet with the SDK it is written for, for real, and checks
what the post says about SDK 0.5.0's LocalProcessBackendConfig.

The snippet is the explorer's (`trainer-explorer export --topics`, topic `local-execution`), run
unchanged by the `kubeflow` 0.5.0 venv (scripts/fetch-sdk-venvs.sh). Its backend makes a new venv
for the job, pip-installs into it, writes the training function to a file and starts it with the
venv's `torchrun`. Passing:
  - the snippet's call completes, and the job's log holds the line its function prints:
    "rank 0 of 1" (one process, one node) and the torch version;
  - the same call without `packages_to_install` fails, and its log says why: the job's venv has
    no `torchrun` (the post: "without it, the job fails");
  - a call without `runtime=` is refused with the SDK's message (the post: "you have to name it").

Where torch comes from: PyPI's Linux torch pulls gigabytes of CUDA, so the job's own
`pip install` finds, instead of PyPI, a wheelhouse made here holding one wheel, `torch` 1.13.0,
that stands for Debian's CPU torch (python3-torch): a .pth file that puts Debian's torch (and the
two packages it imports) on the venv's path, and the `torchrun` entry point torch's wheel has.
pip is pointed there by a pip.conf in the job's venv (a site configuration, which pip reads
before its command line's index), written by the `python` the SDK finds on PATH: Debian's
python3 (the one its torch is built for), behind a wrapper that writes the file right after
`python -m venv`. The SDK and the snippet run as they are. Debian's torch 1.13 needs one mend under
Python 3.11 (mend/sitecustomize.py, as in run_training.py), which the .pth runs.

Usage: run_local.py [--explorer CMD] [--venv DIR]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import textwrap
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
DEBIAN_SITE = Path("/usr/lib/python3/dist-packages")
# What Debian's torch imports from outside itself.
TORCH_AND_ITS_IMPORTS = ["torch", "typing_extensions.py", "numpy"]
# The snippet's call, written by crates/core/src/snippets/topics.rs local_execution().
WITH_PACKAGES = 'packages_to_install=["torch"]'


def snippet(explorer):
    out = subprocess.run(shlex.split(explorer) + ["export", "--topics"], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"export --topics failed: {out.stderr}")
    for s in json.loads(out.stdout)["snippets"]:
        if s["topic"] == "local-execution":
            return s["code"]
    raise SystemExit("the export has no local-execution topic")


def debian_torch_wheel(work):
    """A wheelhouse with one wheel, torch 1.13.0, standing for Debian's CPU torch."""
    site = work / "debian-torch"
    site.mkdir()
    for name in TORCH_AND_ITS_IMPORTS:
        (site / name).symlink_to(DEBIAN_SITE / name)
    version = subprocess.run([SYSTEM_PYTHON, "-c", "import torch; print(torch.__version__.split('a')[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    house = work / "wheelhouse"
    house.mkdir()
    dist = f"torch-{version}.dist-info"
    files = {
        "debian_torch.pth": f"{site}\nimport runpy; runpy.run_path({str(HERE / 'mend' / 'sitecustomize.py')!r})\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: run_local.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/entry_points.txt": "[console_scripts]\ntorchrun = torch.distributed.run:main\n",
    }
    files[f"{dist}/RECORD"] = "".join(f"{name},,\n" for name in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(house / f"torch-{version}-py3-none-any.whl", "w") as whl:
        for name, text in files.items():
            whl.writestr(name, text)
    return house


def python_on_path(work, house):
    """A directory whose `python` is Debian's, and which gives each venv it makes a pip.conf that
    installs from `house` only."""
    bin_dir = work / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python"
    wrapper.write_text(textwrap.dedent(f"""\
        #!/bin/bash
        {SYSTEM_PYTHON} "$@" || exit
        # After `python -m venv [--without-pip] DIR`: the venv's pip reads DIR/pip.conf.
        if [[ $1 == -m && $2 == venv ]]; then
          printf '[global]\\nno-index = true\\nfind-links = {house}\\n' > "${{@: -1}}/pip.conf"
        fi
        """))
    wrapper.chmod(0o755)
    return bin_dir


def run(python, code, bin_dir, work, timeout):
    script = work / f"job_{abs(hash(code))}.py"
    script.write_text(code)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONUNBUFFERED": "1"}
    return subprocess.run([python, str(script)], capture_output=True, text=True, env=env, cwd=work, timeout=timeout)


# The harness's own calls, next to the snippet's: the SDK's status of a job that failed, read
# without the snippet's wait (which waits for Complete until its timeout).
WITHOUT_PACKAGES = """\
import time
from kubeflow.trainer import CustomTrainer, LocalProcessBackendConfig, TrainerClient


def train():
    import torch


client = TrainerClient(backend_config=LocalProcessBackendConfig())
job_name = client.train(runtime=RUNTIME, trainer=CustomTrainer(func=train))
while client.get_job(job_name).status not in ("Complete", "Failed"):
    time.sleep(1)
print("STATUS", client.get_job(job_name).status)
for line in client.get_job_logs(job_name):
    print(line)
"""

WITHOUT_RUNTIME = """\
from kubeflow.trainer import CustomTrainer, LocalProcessBackendConfig, TrainerClient


def train():
    pass


try:
    TrainerClient(backend_config=LocalProcessBackendConfig()).train(trainer=CustomTrainer(func=train))
except ValueError as e:
    print("REFUSED", e)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--explorer", default=str(ROOT / "target/debug/trainer-explorer"))
    parser.add_argument("--venv", default=str(ROOT / ".tools/venv-kubeflow-0.5.0"))
    args = parser.parse_args()
    python = str(Path(args.venv) / "bin/python")
    if not Path(python).exists():
        raise SystemExit(f"{python} is missing: run scripts/fetch-sdk-venvs.sh kubeflow==0.5.0")
    code = snippet(args.explorer)
    if WITH_PACKAGES not in code:
        raise SystemExit(f"the snippet no longer sets {WITH_PACKAGES}:\n{code}")
    runtime = re.search(r'runtime="([^"]+)"', code).group(1)
    failures = []
    with tempfile.TemporaryDirectory(prefix="run-local-") as tmp:
        work = Path(tmp)
        bin_dir = python_on_path(work, debian_torch_wheel(work))

        out = run(python, code, bin_dir, work, timeout=600)
        print(f"== the snippet (exit {out.returncode})\n{out.stdout}{out.stderr}")
        if out.returncode != 0 or "rank 0 of 1, torch " not in out.stdout:
            failures.append("the snippet's job did not print 'rank 0 of 1, torch ...'")

        out = run(python, WITHOUT_PACKAGES.replace("RUNTIME", repr(runtime)), bin_dir, work, timeout=600)
        print(f"== without packages_to_install (exit {out.returncode})\n{out.stdout}{out.stderr}")
        if "STATUS Failed" not in out.stdout or "torchrun" not in out.stdout:
            failures.append("without packages_to_install the job did not fail for want of torchrun")

        out = run(python, WITHOUT_RUNTIME, bin_dir, work, timeout=120)
        print(f"== without runtime= (exit {out.returncode})\n{out.stdout}{out.stderr}")
        if "REFUSED Runtime must be provided" not in out.stdout:
            failures.append("a call without runtime= was not refused")
    if failures:
        print("run_local: FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("run_local: the snippet's call works; without packages_to_install or runtime= it does not")
    return 0


if __name__ == "__main__":
    sys.exit(main())
