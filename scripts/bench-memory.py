#!/usr/bin/env python3
"""Peak memory and time of each command on each worst-case input, for `make bench`.

Usage: bench-memory.py CLI SHAPES_DIR > memory.jsonl

Runs every command that reads input, `migrate`, `upgrade`, `explain` and `validate`, each in text
and in JSON (the CLI, one process per run, so the peak resident set GNU time reports is that run's
alone; `export` reads no input) on every shape tests/shapes writes (examples/migrate_throughput --shapes), and prints one
JSON line per run: shape, command, bytes, exit code, peak RSS in KiB, wall-clock seconds, CPU
seconds (user + system: what a shared machine's load does not stretch) and the first line of
stderr (what a refused input was told; validate's exit-2 line is on stdout). First, one line
per command for the floor: the same command on one small ConfigMap (`"floor": true`).
"""

import json
import os
import subprocess
import sys
import tempfile

# Each in the formats whose answer grows with the input: the text report and the JSON (explain's
# default is JSON; validate's JSON lists each resource's errors).
COMMANDS = {
    "migrate": ["migrate"],
    "migrate -o json": ["migrate", "-o", "json"],
    "upgrade": ["upgrade", "--from", "v2.0"],
    "upgrade -o json": ["upgrade", "--from", "v2.0", "-o", "json"],
    "explain": ["explain"],
    "explain -o text": ["explain", "-o", "text"],
    "validate": ["validate"],
    "validate -o json": ["validate", "-o", "json"],
}


def run(cli, args, path):
    with tempfile.NamedTemporaryFile("r") as measured:
        proc = subprocess.run(
            ["/usr/bin/time", "-o", measured.name, "-f", "%M %e %U %S", cli, *args, path],
            capture_output=True,
            text=True,
            errors="replace",
        )
        peak_kib, seconds, user, system = measured.read().split()[-4:]
    first = next((line for line in proc.stderr.splitlines() if line.startswith("trainer-explorer:")), "")
    if not first and proc.returncode == 2:
        # validate reports a file it could not read on stdout, as `FILE: why`, exit 2; in JSON,
        # as the first error of its resources.
        first = next(iter(proc.stdout.splitlines()), "")
        try:
            errors = [e for r in json.loads(proc.stdout)["resources"] for e in r["errors"]]
            first = errors[0]["message"] if errors else first
        except (ValueError, KeyError, TypeError):
            pass
    return proc.returncode, int(peak_kib), float(seconds), float(user) + float(system), first


# The floor: what a bare run of each command takes, on the smallest manifest (one ConfigMap). The
# goal of issue 36 (peak ≤ 10× the input) is judged on what a run takes above it.
FLOOR = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: floor\n"


def report(shape, command, size, measured, **flags):
    """Prints one run's JSON line: the shape, any flags (`floor`), then what `run` measured."""
    code, peak, seconds, cpu, first = measured
    row = {"shape": shape, **flags, "command": command, "bytes": size}
    row.update({"exit": code, "peak_kib": peak, "seconds": seconds, "cpu": cpu, "stderr": first})
    print(json.dumps(row), flush=True)


def main():
    cli, shapes = sys.argv[1:3]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as floor:
        floor.write(FLOOR)
        floor.flush()
        for command, args in COMMANDS.items():
            report("(floor: one ConfigMap)", command, len(FLOOR), run(cli, args, floor.name), floor=True)
    for name in sorted(os.listdir(shapes)):
        path = os.path.join(shapes, name)
        for command, args in COMMANDS.items():
            report(name.removesuffix(".yaml"), command, os.path.getsize(path), run(cli, args, path))


if __name__ == "__main__":
    main()
