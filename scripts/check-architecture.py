#!/usr/bin/env python3
"""make lint (lint-scripts): every file, folder and Rust path ARCHITECTURE.md names exists.

ARCHITECTURE.md is the map a newcomer reads before the tree; a name in it that moved sends them
nowhere. scripts/check-paths.py already checks the repository paths every file names from the
root (`crates/core/src/yaml.rs`); this reads ARCHITECTURE.md's code spans for what it cannot:
- paths inside a crate's src/ (`migrate/pods/facts.rs`, `explain/plugins/`), found under one of
  the workspace's src/ folders;
- Rust paths (`explain::selection::linked`, `pipeline::input`, `V2Pods::metadata_source`): the
  leading segments are modules of one crate (a `name.rs` or `name/mod.rs` under its src/, nested),
  and the rest must be defined in that module's file (a fn, type, const, static, trait or mod of
  that name), or, when the first segment is a type, a method of it somewhere.
Built outputs (under dist/ and target/) are not in the repository and are not read.
"""

import glob
import os
import re
import sys

SPAN = re.compile(r"`([^`\n]+)`")
RUST_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+$")
FILE_LIKE = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?$")
EXTENSIONS = (".rs", ".sh", ".py", ".mjs", ".js", ".toml", ".css", ".json", ".md", ".yaml", ".html")
BUILT = ("dist/", "target/")


def src_roots() -> list[str]:
    """Every workspace crate's src/ folder, the root package's first."""
    return ["src"] + sorted(glob.glob("crates/*/src"))


def module_file(root: str, segments: list[str]) -> str | None:
    """The file of module `segments` under `root` (`a/b.rs` or `a/b/mod.rs`), or None."""
    if not segments:
        return os.path.join(root, "lib.rs")
    base = os.path.join(root, *segments)
    for candidate in (base + ".rs", os.path.join(base, "mod.rs")):
        if os.path.isfile(candidate):
            return candidate
    return None


def defines(path: str, name: str) -> bool:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    item = rf"\b(fn|struct|enum|const|static|type|trait|mod|union)\s+{re.escape(name)}\b"
    # An enum variant or a re-export names it too (`pub use x::{Name}`).
    variant = rf"^\s*{re.escape(name)}\s*[,({{]"
    reexport = rf"\buse\s[^;]*\b{re.escape(name)}\b[^;]*;"
    return any(re.search(p, text, re.MULTILINE) for p in (item, variant, reexport))


def rust_path_exists(token: str) -> bool:
    segments = token.split("::")
    if segments[0] in ("crate", "self", "super", "std"):
        return True
    roots = src_roots()
    # A crate name first (`explorer_core::…`) picks that crate's src/.
    crate_src = {f"explorer_{d}": f"crates/{d}/src" for d in ("core", "html", "data", "cli", "judges")}
    if segments[0] in crate_src:
        roots, segments = [crate_src[segments[0]]], segments[1:]
    for root in roots:
        # Modules may start anywhere in the tree (`facts::v1_pod` is migrate::pods::facts).
        starts = [root] + [d for d in glob.glob(os.path.join(root, "**/"), recursive=True)]
        for start in starts:
            for split in range(len(segments), 0, -1):
                path = module_file(start, segments[:split])
                if path is None:
                    continue
                rest = segments[split:]
                if not rest or (len(rest) == 1 and defines(path, rest[0])):
                    return True
                if len(rest) == 2 and defines(path, rest[0]) and defines(path, rest[1]):
                    return True
    # `Type::method`: a type defined somewhere, with the method in the same file.
    if len(segments) == 2:
        for root in roots:
            for path in glob.glob(os.path.join(root, "**/*.rs"), recursive=True):
                if defines(path, segments[0]) and defines(path, segments[1]):
                    return True
    return False


def file_exists(token: str) -> bool:
    if token.startswith(BUILT):
        return True
    if os.path.exists(token):
        return True
    return any(os.path.exists(os.path.join(root, token)) for root in src_roots())


def problems(text: str) -> list[str]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in SPAN.finditer(line):
            token = m.group(1).strip()
            if RUST_PATH.match(token):
                if not rust_path_exists(token):
                    out.append(f"ARCHITECTURE.md:{number}: `{token}`: no such module or item")
            elif FILE_LIKE.match(token) and ("/" in token) and (token.endswith("/") or token.endswith(EXTENSIONS)):
                if not file_exists(token):
                    out.append(f"ARCHITECTURE.md:{number}: `{token}`: no such file or folder")
    return out


def main() -> int:
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open("ARCHITECTURE.md", encoding="utf-8") as f:
        found = problems(f.read())
    for entry in found:
        print(entry, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
