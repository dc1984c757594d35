#!/usr/bin/env python3
"""Peak memory and time of each command on each worst-case input, for `make bench`.

Usage: bench-memory.py CLI SHAPES_DIR > memory.jsonl

Runs `migrate`, `upgrade` and `explain` (the CLI, one process per run, so the peak resident set
GNU time reports is that run's alone) on every shape tests/shapes writes (examples/migrate_throughput
--shapes), and prints one JSON line per run: shape, command, bytes, exit code, peak RSS in KiB,
wall-clock seconds and the first line of stderr (what a refused input was told). First, one line
per command for the floor: the same command on one small ConfigMap (`"floor": true`).
"""
import json
import os
import subprocess
import sys
import tempfile

COMMANDS = {
    "migrate": ["migrate"],
    "upgrade": ["upgrade", "--from", "v2.0"],
    "explain": ["explain"],
}


def run(cli, args, path):
    with tempfile.NamedTemporaryFile("r") as measured:
        proc = subprocess.run(
            ["/usr/bin/time", "-o", measured.name, "-f", "%M %e", cli, *args, path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
        )
        peak_kib, seconds = measured.read().split()[-2:]
    first = next((line for line in proc.stderr.splitlines() if line.startswith("trainer-explorer:")), "")
    return proc.returncode, int(peak_kib), float(seconds), first


# The floor: what a bare run of each command takes, on the smallest manifest (one ConfigMap). The
# goal of issue 36 (peak ≤ 10× the input) is judged on what a run takes above it.
FLOOR = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: floor\n"


def main():
    cli, shapes = sys.argv[1:3]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as floor:
        floor.write(FLOOR)
        floor.flush()
        for command, args in COMMANDS.items():
            code, peak, seconds, first = run(cli, args, floor.name)
            print(json.dumps({
                "shape": "(floor: one ConfigMap)", "floor": True, "command": command, "bytes": len(FLOOR),
                "exit": code, "peak_kib": peak, "seconds": seconds, "stderr": first,
            }), flush=True)
    for name in sorted(os.listdir(shapes)):
        path = os.path.join(shapes, name)
        for command, args in COMMANDS.items():
            code, peak, seconds, first = run(cli, args, path)
            print(json.dumps({
                "shape": name.removesuffix(".yaml"), "command": command, "bytes": os.path.getsize(path),
                "exit": code, "peak_kib": peak, "seconds": seconds, "stderr": first,
            }), flush=True)


if __name__ == "__main__":
    main()
