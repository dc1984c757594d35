#!/usr/bin/env python3
"""make lint (lint-scripts): every path of this repository that a tracked file names exists.

Comments and docs send readers to files (`crates/core/src/explain/build.rs COMPLETION_INDEX`); a
file that moves leaves them pointing at nothing, as six comments did after the workspace split.
Only paths that start at one of the repository's top-level folders are read, so upstream paths
(`examples/pytorch/simple.yaml`) and shell variables (`$src/package.json`) are left alone. A
`src/...` path is found either from the root (the widget's crate) or in the crate of the file
that names it (as crates/core/Cargo.toml names its own src/ files); in Markdown it is not read, since the
READMEs' `src/...` are the reader's own project (a Docusaurus site's src/).
"""

import os
import re
import subprocess
import sys

ROOTS = "crates|scripts|www|tests|bench|fuzz|python|npm|embed|tools|src"
EXTENSIONS = "rs|sh|py|mjs|js|toml|css|json|md|yaml|html"
PATH = re.compile(rf"(?<![A-Za-z0-9_./${{-])(?:{ROOTS})/[A-Za-z0-9_./-]+\.(?:{EXTENSIONS})\b")
# Generated files: lock files, and insta's snapshots (their `source:` header is insta's own).
GENERATED = re.compile(r"(\.lock|package-lock\.json|\.snap)$")


def crate_of(name: str) -> str:
    """The folder of the nearest Cargo.toml above the file `name` (the root's when none)."""
    folder = os.path.dirname(name)
    while folder and not os.path.isfile(os.path.join(folder, "Cargo.toml")):
        folder = os.path.dirname(folder)
    return folder


def exists(path: str, named_in: str) -> bool:
    if os.path.exists(path):
        return True
    if not path.startswith("src/"):
        return False
    return named_in.endswith(".md") or os.path.exists(os.path.join(crate_of(named_in), path))


def main() -> int:
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    listed = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
    missing = []
    for name in listed.decode().split("\0"):
        if not name or GENERATED.search(name) or not os.path.isfile(name):
            continue
        try:
            with open(name, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            missing += [f"{name}:{number}: {m.group(0)}" for m in PATH.finditer(line) if not exists(m.group(0), name)]
    for entry in missing:
        print(f"{entry}: no such file in the repository", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
