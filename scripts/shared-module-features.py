#!/usr/bin/env python3
"""shared-module-features.py PACKAGE...: the features that give PACKAGEs' dependencies one feature
set, as `cargo build --features` takes them (`explorer-core/migrate,explorer-html/migrate`).

scripts/build-dist.sh builds each lazy wasm module by itself (`cargo rustc`, one package per call,
so that link-time optimization runs: scripts/cargo-wasm-release.sh says why), and cargo resolves
each call's features alone: with every module's own features, a cold build compiled the core and
the views once per module. Built with the union of their features, every dependency the modules
share is the same unit in each call, compiled by the first and found fresh by the others. The
modules' Cargo.toml files stay the one source of what each needs (their tests, clippy and
scripts/check-light-core.sh hold each to its own); this only reads them.

Only the workspace's own crates are looked at (the third-party crates' features are written once,
in the root Cargo.toml's [workspace.dependencies]), and of them only those whose features differ
between the packages are named. Such a crate must be a direct dependency of every package (cargo
takes `dep/feature` only for a package's own dependencies); otherwise this stops and says which.
"""

import json
import subprocess
import sys


def member_dependency_features(package, members):
    """{crate: the features PACKAGE asks of it} for PACKAGE's normal dependencies among `members`
    (the workspace's packages by name)."""
    wanted = {}
    for dependency in package["dependencies"]:
        member = members.get(dependency["name"])
        if dependency["kind"] is not None or member is None:
            continue  # dev- and build-dependencies are not in a library build; third-party crates: above
        features = set(dependency["features"])
        if dependency["uses_default_features"] and "default" in member["features"]:
            features.add("default")
        wanted.setdefault(dependency.get("rename") or dependency["name"], set()).update(features)
    return wanted


def main(names):
    if not names:
        sys.exit("usage: shared-module-features.py PACKAGE...")
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1"], check=True, capture_output=True, text=True
        ).stdout
    )
    by_name = {package["name"]: package for package in metadata["packages"]}
    missing = [name for name in names if name not in by_name]
    if missing:
        sys.exit(f"shared-module-features.py: no workspace package named {', '.join(missing)}")
    # A package's own features can turn on its dependencies' (`ui = ["explorer-core/js-floats"]`),
    # which the dependency lists do not show: refused rather than left out of the union.
    featured = [name for name in names if by_name[name]["features"]]
    if featured:
        sys.exit(f"shared-module-features.py: {', '.join(featured)} has features of its own, which this does not read")
    asked = {name: member_dependency_features(by_name[name], by_name) for name in names}
    shared = []
    for dependency in sorted(set().union(*asked.values())):
        sets = [asked[name].get(dependency) for name in names]
        if all((features or set()) == (sets[0] or set()) for features in sets):
            continue  # the same unit already (a crate asked for no feature is what a lacking package gets too)
        lacking = [name for name, features in zip(names, sets) if features is None]
        if lacking:
            sys.exit(
                f"shared-module-features.py: {dependency} is built with other features per package, "
                f"and {', '.join(lacking)} does not depend on it directly, so its features cannot be given "
                "on the command line: make it a direct dependency there"
            )
        shared += [f"{dependency}/{feature}" for feature in sorted(set().union(*sets))]
    print(",".join(shared))


if __name__ == "__main__":
    main(sys.argv[1:])
