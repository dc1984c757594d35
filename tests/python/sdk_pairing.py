"""Which `kubeflow` SDK a Trainer release pairs with, read from the SDK wheels themselves.

Each `kubeflow` wheel's METADATA pins the Trainer API it speaks to (`Requires-Dist:
kubeflow-trainer-api<2.2.0,>=2.0.0`); kubeflow-trainer-api is versioned like Trainer. A release
pairs with the newest SDK whose range admits its tag. The test harnesses take that pairing from
here, not from the explorer, so a pane that names or binds to another SDK is caught.
"""
import re
from pathlib import Path

REQUIREMENT = re.compile(r"^Requires-Dist:\s*kubeflow-trainer-api\s*([^;]*?)\s*$", re.MULTILINE)
CLAUSE = re.compile(r"(>=|<=|==|<|>)\s*([0-9][0-9.]*)")


def version(text):
    """'v2.1.0' or '2.4' as a comparable tuple: (2, 1, 0), (2, 4, 0)."""
    parts = [int(p) for p in text.lstrip("v").split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def trainer_api_range(metadata):
    """The `kubeflow-trainer-api` requirement in a wheel's METADATA text, e.g. '<2.2.0,>=2.0.0'."""
    match = REQUIREMENT.search(metadata)
    if not match:
        raise ValueError("the METADATA pins no kubeflow-trainer-api")
    return match.group(1).strip("() ")


def admits(spec, tag):
    clauses = CLAUSE.findall(spec)
    if not clauses:
        raise ValueError(f"cannot read the requirement {spec!r}")
    v = version(tag)
    checks = {">=": v.__ge__, "<=": v.__le__, "==": v.__eq__, "<": v.__lt__, ">": v.__gt__}
    return all(checks[op](version(bound)) for op, bound in clauses)


def newest_sdk(tag, ranges):
    """ranges: SDK version -> its trainer-api requirement. The newest version admitting `tag`."""
    fitting = [sdk for sdk, spec in ranges.items() if admits(spec, tag)]
    if not fitting:
        raise ValueError(f"no kubeflow SDK among {sorted(ranges)} admits Trainer {tag}")
    return max(fitting, key=version)


def wheel_ranges(wheels):
    """Unpacked wheels (one folder each, as scripts/fetch-wheels.sh leaves them): version -> range."""
    out = {}
    for meta in Path(wheels).glob("kubeflow-*/kubeflow-*.dist-info/METADATA"):
        sdk = meta.parent.name[len("kubeflow-"): -len(".dist-info")]
        out[sdk] = trainer_api_range(meta.read_text(encoding="utf-8"))
    return out


def venv_ranges(tools):
    """SDK venvs (scripts/fetch-sdk-venvs.sh): version -> (range, venv folder)."""
    out = {}
    for meta in Path(tools).glob("venv-kubeflow-*/lib/python*/site-packages/kubeflow-*.dist-info/METADATA"):
        sdk = meta.parent.name[len("kubeflow-"): -len(".dist-info")]
        out[sdk] = (trainer_api_range(meta.read_text(encoding="utf-8")), meta.parents[4])
    return out
