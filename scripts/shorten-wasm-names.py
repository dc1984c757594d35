#!/usr/bin/env python3
"""Shortens the names a wasm-bindgen module and its JS glue share, in place.

Usage: shorten-wasm-names.py MODULE_bg.wasm MODULE.js   (the glue before minification)

wasm-bindgen imports everything from the glue's module (`./MODULE_bg.js`) and names each import after the JS function it binds plus a 16-digit hash
(`__wbg_addEventListener_847fd86b8c33ec43`) and each closure export after its Rust path
(`wasm_bindgen__convert__closures_____invoke__h4ce2d8f326ea6216`). Every such name is written
twice, in the wasm's import or export section and in the glue, and the hashes do not compress:
a few KB of the widget's gzipped transfer. Here each import the glue provides and each export the
glue calls becomes a one- or two-letter name, in the wasm and in the glue alike (an export the
glue does not call, such as wasm-bindgen's `__abort_handler`, keeps its name).

binaryen's --minify-imports-and-exports only renames Emscripten's `env` imports, hence this.

The glue is rewritten only where it names them: an import as a key of the imports object
(`__wbg_x_123: function`), an export as `wasm.name`. Any name not found exactly where expected
aborts with both files untouched, so a new wasm-bindgen layout fails the build instead of
shipping a module whose imports do not resolve.
"""
import os
import re
import string
import sys
from pathlib import Path

ALPHABET = string.ascii_letters
# The glue's own module name (`./<module>_bg.js`), repeated in every import, becomes this.
SHORT_MODULE = "."


def short_names():
    """a, b, ..., Z, aa, ab, ...: valid JS identifiers, never `__proto__` or a keyword's spelling
    that matters here (object keys and member names may be keywords)."""
    for n in range(1, 3):
        if n == 1:
            yield from ALPHABET
        else:
            for first in ALPHABET:
                for second in ALPHABET + string.digits:
                    yield first + second
    raise SystemExit("shorten-wasm-names: more names than two letters give")


def read_leb(data, i):
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def leb(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def read_name(data, i):
    length, i = read_leb(data, i)
    return data[i : i + length].decode(), i + length


def name_bytes(name):
    raw = name.encode()
    return leb(len(raw)) + raw


def skip_limits(data, i):
    flags, i = read_leb(data, i)
    _, i = read_leb(data, i)
    if flags & 1:
        _, i = read_leb(data, i)
    return i


def skip_import_desc(data, i):
    kind = data[i]
    i += 1
    if kind == 0:  # function: type index
        _, i = read_leb(data, i)
    elif kind == 1:  # table: reftype, limits
        i = skip_limits(data, i + 1)
    elif kind == 2:  # memory: limits
        i = skip_limits(data, i)
    elif kind == 3:  # global: valtype, mutability
        i += 2
    elif kind == 4:  # tag: attribute, type index
        _, i = read_leb(data, i + 1)
    else:
        raise SystemExit(f"shorten-wasm-names: unknown import kind {kind}")
    return i


def rewrite_entries(body, rewrite_entry):
    """A section's vector of entries, each rewritten by `rewrite_entry(body, i)`, which returns
    the bytes of the entry starting at `i` as they are to be and where the next one starts."""
    count, i = read_leb(body, 0)
    out = bytearray(leb(count))
    for _ in range(count):
        entry, i = rewrite_entry(body, i)
        out += entry
    return bytes(out)


def rewrite_imports(body, module, names):
    renamed = {}

    def rewrite_import(body, i):
        mod, i = read_name(body, i)
        field, i = read_name(body, i)
        start = i
        i = skip_import_desc(body, i)
        if mod == module:
            renamed[field] = renamed.get(field) or next(names)
            mod, field = SHORT_MODULE, renamed[field]
        return name_bytes(mod) + name_bytes(field) + body[start:i], i

    return rewrite_entries(body, rewrite_import), renamed


def rewrite_exports(body, names, used):
    """Renames the exports that `used` (the glue) calls; any other keeps its name."""
    renamed = {}

    def rewrite_export(body, i):
        field, i = read_name(body, i)
        start = i
        _, i = read_leb(body, i + 1)  # kind, index
        if used(field):
            renamed[field] = next(names)
            field = renamed[field]
        return name_bytes(field) + body[start:i], i

    return rewrite_entries(body, rewrite_export), renamed


def glue_calls(js, export):
    return re.search(rf"(?<![\w$])wasm\.{re.escape(export)}(?![\w$])", js) is not None


def replace_each_once(js, renamed, pattern):
    for old, new in renamed.items():
        regex = re.compile(pattern.format(re.escape(old)))
        js, count = regex.subn(lambda m, old=old, new=new: m.group(0).replace(old, new), js)
        if count == 0:
            raise SystemExit(f"shorten-wasm-names: {old} is not where the glue should name it")
    return js


def main():
    wasm_path, js_path = sys.argv[1:3]
    data = Path(wasm_path).read_bytes()
    js = Path(js_path).read_text(encoding="utf-8")
    module = "./" + os.path.basename(wasm_path).removesuffix(".wasm") + ".js"
    # The imports object's one key: `"./<module>_bg.js": import0`.
    js, count = re.subn(rf'"{re.escape(module)}"(?=\s*:)', f'"{SHORT_MODULE}"', js)
    if count != 1:
        raise SystemExit(f"shorten-wasm-names: the glue does not provide {module} once")

    out = bytearray(data[:8])
    i = 8
    imports = exports = {}
    while i < len(data):
        section = data[i]
        size, body_start = read_leb(data, i + 1)
        body = data[body_start : body_start + size]
        if section == 2:
            body, imports = rewrite_imports(body, module, short_names())
        elif section == 7:
            body, exports = rewrite_exports(body, short_names(), lambda name: glue_calls(js, name))
        out += bytes([section]) + leb(len(body)) + body
        i = body_start + size

    # An import: a key of the imports object (`name: function`); an export: `wasm.name`.
    js = replace_each_once(js, imports, r"(?<![\w$]){}(?=\s*:)")
    js = replace_each_once(js, exports, r"(?<![\w$])wasm\.{}(?![\w$])")
    leftover = [old for old in imports if re.search(rf"(?<![\w$]){re.escape(old)}(?![\w$])", js)]
    leftover += [old for old in exports if glue_calls(js, old)]
    if leftover:
        raise SystemExit(f"shorten-wasm-names: the glue still names {leftover[:3]}")
    Path(wasm_path).write_bytes(out)
    Path(js_path).write_text(js, encoding="utf-8")
    print(f"shorten-wasm-names: {len(imports)} imports, {len(exports)} exports in {wasm_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
