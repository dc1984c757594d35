#!/usr/bin/env python3
"""The wall time of a fresh `make test` on 2 idle cores, modelled from its stage graph.

A fresh clone cannot be timed honestly on a shared machine, but each stage's CPU can: make test
prints it (scripts/test-all.sh, the table "CPU per stage"). This model takes those figures and
the order scripts/test-all.sh runs the stages in, and schedules them on 2 cores:
- a stage needs C core-seconds and uses at most p cores at a time (its CPU over its wall when it
  ran uncontended: about 2 for a cargo build, less for a browser test that waits on pages);
- a stage starts once the stages it waits for have ended;
- the run's own priority-0 stages share the cores first, the low-priority ones (start --low,
  nice 10) get what is left.
It prints the wall time, the core-seconds left idle and, with -v, each stage's start and end.
The figures are the fresh clone's of 2026-12-05 (BENCHMARKS.md, make test); modelled, the old
schedule gives 905 s against the 918 s that run took.
  scripts/make-test-model.py [-v]
"""

import sys


def stage(cpu, cores, after=(), nice=0):
    return {"C": cpu, "p": cores, "after": list(after), "nice": nice}


def run(stages, cores=2.0, dt=0.1):
    """Schedules the stages; returns (wall, idle core-seconds, starts, ends)."""
    t, idle = 0.0, 0.0
    started, ended = {}, {}
    left = {name: s["C"] for name, s in stages.items()}
    while len(ended) < len(stages):
        for name, s in stages.items():
            if name not in started and all(d in ended for d in s["after"]):
                started[name] = t
        running = [n for n in started if n not in ended]
        free = cores
        for nice in (0, 10):
            # The free cores shared evenly, each stage taking at most its p.
            want = {n: stages[n]["p"] for n in running if stages[n]["nice"] == nice}
            got = dict.fromkeys(want, 0.0)
            while free > 1e-9 and want:
                share = free / len(want)
                for n in list(want):
                    g = min(share, want[n])
                    got[n] += g
                    want[n] -= g
                    free -= g
                    if want[n] <= 1e-9:
                        del want[n]
            for n, g in got.items():
                left[n] -= g * dt
                if left[n] <= 1e-9:
                    ended[n] = t + dt
        idle += free * dt
        t += dt
    return t, idle, started, ended


# The stages every schedule starts with (CPU seconds and cores, from the fresh clone's table).
FIRST = {
    "installs": stage(9.4, 0.34),
    "consumer-deps": stage(35.5, 0.57),
    "host-deps": stage(14.3, 0.45),
    "tools": stage(4.5, 0.5),
    "frameworks": stage(1.5, 0.25, ["tools"]),
    "lint-scripts": stage(5.1, 0.34, ["tools"]),
    "rustfmt": stage(0.5, 0.25, ["tools"]),
    "native": stage(252.3, 1.9, ["rustfmt"]),
}
AFTER_NATIVE = ["native", "installs", "frameworks", "lint-scripts"]


def before():
    """scripts/test-all.sh at 9672c4f: the wasm tests and the site in the foreground, the browser
    stages one file at a time after every background job ended."""
    bg_done = ["python", "training", "pre-commit", "fuzz-runs"]
    return FIRST | {
        "fuzz": stage(169.3, 1.8, ["native"]),
        "fuzz-runs": stage(48, 1, ["fuzz"]),
        "python": stage(13.8, 0.5, AFTER_NATIVE),
        "training": stage(139.7, 1.2, AFTER_NATIVE),
        "wheel": stage(104.6, 1.5, AFTER_NATIVE),
        "sdist": stage(49.3, 1.5, ["wheel"]),
        "pre-commit": stage(28.5, 1.2, ["sdist"]),
        "browser": stage(76.9, 1.5, AFTER_NATIVE),
        "lint-wasm": stage(18.5, 1.5, ["browser"]),
        "dist": stage(210.8, 1.4, ["lint-wasm"]),
        "host-sites": stage(9.9, 0.5, ["dist", "host-deps", *bg_done]),
        "consumer-sites": stage(33.9, 0.92, ["dist", "consumer-deps", *bg_done]),
        "e2e": stage(91.9, 0.44, ["dist", *bg_done]),
        "hosts-run": stage(26.9, 0.61, ["e2e", "host-sites"]),
        "consumers-run": stage(28.7, 0.8, ["hosts-run", "consumer-sites"]),
    }


def after(e2e_cores=0.88, fuzz_cores=2):
    """scripts/test-all.sh now: the site right after the native tests; the CPU work that waits
    on no browser (fuzzing, Python, training, wheel, wasm tests) at low priority beside it; e2e
    two files at a time (twice the cores: 105 s instead of 210); the two sites' tests side by
    side; the fuzz targets two at a time."""
    return FIRST | {
        # node_modules kept once per machine: a copy of hard links (scripts/build-consumers.sh).
        "consumer-deps": stage(0.9, 0.4),
        "fuzz": stage(169.3, 1.8, ["native"], 10),
        "fuzz-runs": stage(48, fuzz_cores, ["fuzz"], 10),
        "python": stage(13.8, 0.5, AFTER_NATIVE, 10),
        "training": stage(139.7, 1.2, AFTER_NATIVE, 10),
        "wheel": stage(104.6, 1.5, AFTER_NATIVE, 10),
        "sdist": stage(49.3, 1.5, ["wheel"], 10),
        "pre-commit": stage(28.5, 1.2, ["sdist"], 10),
        "dist": stage(210.8, 1.4, AFTER_NATIVE),
        "browser": stage(76.9, 1.5, ["dist"], 10),
        "lint-wasm": stage(18.5, 1.5, ["browser"], 10),
        "host-sites": stage(9.9, 0.5, ["dist", "host-deps"]),
        "consumer-sites": stage(33.9, 0.92, ["dist", "consumer-deps"]),
        "e2e": stage(91.9, e2e_cores, ["dist"]),
        "hosts-run": stage(26.9, 0.61, ["e2e", "host-sites", "consumer-sites"]),
        "consumers-run": stage(28.7, 0.8, ["e2e", "host-sites", "consumer-sites"]),
    }


def main():
    verbose = "-v" in sys.argv[1:]
    for name, stages in (("before (9672c4f)", before()), ("after", after())):
        wall, idle, started, ended = run(stages)
        cpu = sum(s["C"] for s in stages.values())
        print(f"{name}: {wall:.0f} s wall ({wall / 60:.1f} min), {idle:.0f} core-s idle, {cpu:.0f} s CPU")
        if verbose:
            for n in stages:
                print(f"  {n:15s} {started[n]:5.0f} -> {ended[n]:5.0f} s")


if __name__ == "__main__":
    main()
