"""``python -m trainer_explorer ARGS``: runs the installed ``trainer-explorer`` with ARGS."""

import os
import subprocess
import sys

from trainer_explorer._find import find_bin


def _run() -> "int":
    binary = find_bin()
    if sys.platform == "win32":
        # Windows has no exec: run it as a child and hand back its exit code.
        return subprocess.run([binary, *sys.argv[1:]]).returncode
    os.execvp(binary, [binary, *sys.argv[1:]])
    return 1  # not reached: exec replaces this process


if __name__ == "__main__":
    sys.exit(_run())
