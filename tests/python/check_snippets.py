#!/usr/bin/env python3
"""Checks the Python snippets the core exports against the real, pinned SDK source.

For every Python snippet: it must parse; every imported name must exist in the pinned wheels
(the `kubeflow` SDK paired with the export's Trainer release, kubeflow-training 1.9.4, and the
transformers/peft versions the V1 [huggingface] extra pins); every top-level name must be
defined; and every call to an SDK class, function or method must bind (inspect.Signature.bind)
to the signature read from that source. The pairing is read from the wheels' METADATA
(sdk_pairing.py): the newest `kubeflow` whose `kubeflow-trainer-api` range admits the release's
tag. The V2 pane's title must name that SDK.

Why static: importing peft needs torch, which is gigabytes. Reading the wheels' own source with
`ast` gives the same signatures without installing anything. The body of the user's training
function is the user's workload (torch, jax, mlx, ...), not SDK calls, and is not checked here:
tests/python/run_training.py runs it with the real frameworks.

Usage: check_snippets.py --wheels DIR EXPORT.json...
       check_snippets.py --wheels DIR --explorer CMD [QUERY...]
         every release line the explorer knows x (each framework at defaults + each QUERY),
         for the data scientist
       check_snippets.py --wheels DIR --self-test
"""
import argparse
import ast
import builtins
import inspect
import json
import shlex
import subprocess
import sys
from pathlib import Path

import sdk_pairing


class CheckError(Exception):
    pass


class Sym:
    """A resolved name: a module, a class or a function, with its AST and home module."""

    def __init__(self, kind, module, node=None, name=None):
        self.kind, self.module, self.node, self.name = kind, module, node, name

    def __repr__(self):
        return f"{self.kind} {self.module}.{self.name or ''}"


class Resolver:
    def __init__(self, roots):
        self.roots = roots
        self.cache = {}

    def module_file(self, module):
        rel = Path(*module.split("."))
        for root in self.roots:
            for cand in (root / rel / "__init__.py", root / rel.with_suffix(".py")):
                if cand.is_file():
                    return cand
        return None

    def module_ast(self, module):
        if module not in self.cache:
            path = self.module_file(module)
            self.cache[module] = ast.parse(path.read_text(encoding="utf-8")) if path else None
        return self.cache[module]

    def is_package(self, module):
        path = self.module_file(module)
        return path is not None and path.name == "__init__.py"

    def absolute(self, module, level, target):
        if level == 0:
            return target
        base = module.split(".")
        if not self.is_package(module):
            base = base[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([target] if target else []))

    def resolve(self, module, name, depth=0):
        """Finds `name` in `module`, following re-exports and lazy import structures."""
        if depth > 30:
            raise CheckError(f"import cycle resolving {module}.{name}")
        tree = self.module_ast(module)
        if tree is None:
            raise CheckError(f"module {module} not found in the pinned wheels")
        star_sources = []
        for node in walk_top(tree.body):
            if isinstance(node, ast.ClassDef) and node.name == name:
                return Sym("class", module, node, name)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return Sym("function", module, node, name)
            if isinstance(node, ast.ImportFrom):
                src = self.absolute(module, node.level, node.module or "")
                for alias in node.names:
                    if alias.name == "*":
                        star_sources.append(src)
                    elif (alias.asname or alias.name) == name:
                        if self.module_file(f"{src}.{alias.name}"):
                            return Sym("module", f"{src}.{alias.name}")
                        return self.resolve(src, alias.name, depth + 1)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name.split(".")[0]) == name:
                        return Sym("module", alias.name if alias.asname else name)
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    return Sym("value", module, node, name)
        if self.module_file(f"{module}.{name}"):
            return Sym("module", f"{module}.{name}")
        lazy = lazy_structure(tree).get(name)
        if lazy is not None:
            return self.resolve(f"{module}.{lazy}", name, depth + 1)
        for src in star_sources:
            try:
                return self.resolve(src, name, depth + 1)
            except CheckError:
                pass
        raise CheckError(f"{name} is not defined in {module}")

    def attribute(self, sym, attr):
        if sym.kind == "module":
            return self.resolve(sym.module, attr)
        if sym.kind == "class":
            found = self.class_member(sym, attr)
            if found is None:
                raise CheckError(f"{sym.name} has no attribute {attr}")
            return found
        raise CheckError(f"cannot look up {attr} on {sym}")

    def bases(self, cls):
        out = []
        for b in cls.node.bases:
            dotted = dotted_name(b)
            if not dotted:
                continue
            head, *rest = dotted.split(".")
            try:
                sym = self.resolve(cls.module, head)
                for part in rest:
                    sym = self.attribute(sym, part)
            except CheckError:
                continue  # A base from outside the wheels (e.g. typing.Generic) adds nothing we check.
            if sym.kind == "class":
                out.append(sym)
        return out

    def class_member(self, cls, attr):
        for node in cls.node.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == attr:
                return Sym("method", cls.module, node, attr)
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
                return Sym("value", cls.module, node, attr)
        for base in self.bases(cls):
            found = self.class_member(base, attr)
            if found is not None:
                return found
        return None

    def signature(self, sym):
        if sym.kind in ("function", "method"):
            return function_signature(sym.node, drop_self=sym.kind == "method")
        if sym.kind == "class":
            return self.class_signature(sym)
        raise CheckError(f"{sym} is not callable")

    def is_dataclass(self, cls):
        return any("dataclass" in (dotted_name(d.func if isinstance(d, ast.Call) else d) or "") for d in cls.node.decorator_list)

    def is_pydantic(self, cls):
        return any((dotted_name(b) or "").endswith("BaseModel") for b in cls.node.bases) or any(
            self.is_pydantic(b) for b in self.bases(cls)
        )

    def fields(self, cls):
        """Dataclass or pydantic fields, bases first, as (name, has_default)."""
        out = {}
        for base in reversed(self.bases(cls)):
            if self.is_dataclass(base) or self.is_pydantic(base):
                out.update(self.fields(base))
        for node in cls.node.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                ann = ast.unparse(node.annotation)
                if "ClassVar" in ann:
                    continue
                if isinstance(node.value, ast.Call) and dotted_name(node.value.func) in ("field", "dataclasses.field"):
                    if any(k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False for k in node.value.keywords):
                        continue
                out[node.target.id] = node.value is not None
        return out

    def class_signature(self, cls):
        if self.is_dataclass(cls) or self.is_pydantic(cls):
            kw_only = self.is_pydantic(cls)
            kind = inspect.Parameter.KEYWORD_ONLY if kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            params = [inspect.Parameter(n, kind, **({"default": None} if d else {})) for n, d in self.fields(cls).items()]
            if not kw_only:
                # Dataclasses allow a defaulted field before a required one only across bases;
                # order by presence of defaults so Signature accepts it, as dataclasses would fail otherwise.
                params.sort(key=lambda p: p.default is not inspect.Parameter.empty)
            return inspect.Signature(params)
        init = self.class_member(cls, "__init__")
        if init is not None and init.kind == "method":
            return function_signature(init.node, drop_self=True)
        return inspect.Signature([])


def dotted_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def walk_top(body):
    """Top-level statements, including those under if/try (TYPE_CHECKING, optional deps)."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from walk_top(node.body)
            yield from walk_top(node.orelse)
        elif isinstance(node, ast.Try):
            yield from walk_top(node.body)
            for h in node.handlers:
                yield from walk_top(h.body)
            yield from walk_top(node.orelse)
            yield from walk_top(node.finalbody)


def lazy_structure(tree):
    """transformers-style `_import_structure = {"sub": ["Name"]}` plus `.extend`/`.append` calls."""
    out = {}

    def add(key, value):
        for elt in getattr(value, "elts", [value]):
            if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                out.setdefault(elt.value, key)

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_import_structure" for t in node.targets):
            if isinstance(node.value, ast.Dict):
                for k, v in zip(node.value.keys, node.value.values):
                    if isinstance(k, ast.Constant):
                        add(k.value, v)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            t = node.targets[0]
            if isinstance(t.value, ast.Name) and t.value.id == "_import_structure" and isinstance(t.slice, ast.Constant):
                add(t.slice.value, node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("extend", "append"):
            target = node.func.value
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == "_import_structure":
                if isinstance(target.slice, ast.Constant) and node.args:
                    add(target.slice.value, node.args[0])
    return out


def function_signature(fn, drop_self):
    a = fn.args
    params = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        if drop_self and i == 0 and not any(isinstance(x, ast.Name) and x.id == "staticmethod" for x in fn.decorator_list):
            continue
        kind = inspect.Parameter.POSITIONAL_ONLY if arg in a.posonlyargs else inspect.Parameter.POSITIONAL_OR_KEYWORD
        params.append(inspect.Parameter(arg.arg, kind, **({} if d is None else {"default": None})))
    if a.vararg:
        params.append(inspect.Parameter(a.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY, **({} if d is None else {"default": None})))
    if a.kwarg:
        params.append(inspect.Parameter(a.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params)


STDLIB = set(sys.stdlib_module_names)


def check_code(code, resolver):
    """Returns the number of SDK calls bound; raises CheckError on the first problem."""
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        raise CheckError(f"does not parse: {e}")
    names = {n: Sym("builtin", "builtins") for n in dir(builtins)}
    instances = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if node.module.split(".")[0] in STDLIB:
                    names[alias.asname or alias.name] = Sym("stdlib", node.module)
                else:
                    names[alias.asname or alias.name] = resolver.resolve(node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top not in STDLIB and resolver.module_file(alias.name) is None:
                    raise CheckError(f"module {alias.name} not found in the pinned wheels")
                names[alias.asname or top] = Sym("stdlib" if top in STDLIB else "module", alias.name)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = Sym("local", "__main__")

    bound = 0

    def resolve_expr(expr):
        if isinstance(expr, ast.Name):
            if expr.id in instances:
                return instances[expr.id]
            if expr.id not in names:
                raise CheckError(f"name {expr.id} is used but never imported or defined")
            return names[expr.id]
        if isinstance(expr, ast.Attribute):
            base = resolve_expr(expr.value)
            if base is None or base.kind in ("stdlib", "builtin", "local", "value", "var"):
                return None
            if base.kind == "instance":
                member = resolver.class_member(base.node, expr.attr)
                if member is None:
                    raise CheckError(f"{base.node.name} has no method {expr.attr}")
                return member
            return resolver.attribute(base, expr.attr)
        if isinstance(expr, ast.Call):
            # `TrainerClient().train(...)`: a call on a fresh instance.
            callee = resolve_expr(expr.func)
            if callee is not None and callee.kind == "class":
                return Sym("instance", callee.module, callee, None)
        return None

    def visit(node):
        nonlocal bound
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return  # the user's workload
        if isinstance(node, ast.Assign):
            visit(node.value)
            for t in node.targets:
                if isinstance(t, ast.Name):
                    callee = resolve_expr(node.value.func) if isinstance(node.value, ast.Call) else None
                    if callee is not None and callee.kind == "class":
                        instances[t.id] = Sym("instance", callee.module, callee, t.id)
                    else:
                        names[t.id] = Sym("var", "__main__")
                elif isinstance(t, ast.Tuple):
                    for elt in t.elts:
                        if isinstance(elt, ast.Name):
                            names[elt.id] = Sym("var", "__main__")
            return
        if isinstance(node, ast.For):
            visit(node.iter)
            if isinstance(node.target, ast.Name):
                names[node.target.id] = Sym("var", "__main__")
            for s in node.body + node.orelse:
                visit(s)
            return
        if isinstance(node, ast.Call):
            callee = resolve_expr(node.func)
            for child in node.args + [k.value for k in node.keywords]:
                visit(child)
            if callee is not None and callee.kind in ("class", "function", "method"):
                sig = resolver.signature(callee)
                args = [object()] * len(node.args)
                kwargs = {k.arg: object() for k in node.keywords if k.arg}
                try:
                    sig.bind(*args, **kwargs)
                except TypeError as e:
                    raise CheckError(f"{ast.unparse(node.func)}(...) does not bind to {callee.name}{sig}: {e}")
                bound += 1
            return
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(getattr(node, "ctx", None), ast.Load):
            resolve_expr(node)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in tree.body:
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            visit(stmt)
    return bound


# Upstream snippets that are wrong (FACTS.md §i). Each must be refused.
KNOWN_BAD = {
    "V1 create_job takes train_func, not func": "from kubeflow.training import TrainingClient\nTrainingClient().create_job(name='x', func=print)\n",
    "Runtime(name=...) without trainer fails since SDK 0.1.0": "from kubeflow.trainer import Runtime\nRuntime(name='torchtune-llama3.2-1b')\n",
    "the blog forgot to import CustomTrainer": "from kubeflow.trainer import TrainerClient\nTrainerClient().train(trainer=CustomTrainer(func=print))\n",
    "get_job_logs has no node_index in SDK 0.5.0": "from kubeflow.trainer import TrainerClient\nc = TrainerClient()\nc.get_job_logs('j', node_index=0, follow=True)\n",
    "no such export": "from kubeflow.trainer import TrainingClient\n",
    "no such method": "from kubeflow.trainer import TrainerClient\nTrainerClient().submit_job('x')\n",
    "mlPolicy-era kwarg": "from kubeflow.trainer import CustomTrainer\nCustomTrainer(func=print, num_procs_per_node=2)\n",
}
# Names that exist in one paired SDK and not in another: each must be refused against the SDKs
# listed and accepted against the others, which shows each release is checked against its own wheel.
PER_SDK = [
    ("RuntimePatch arrived in 0.4.0", "from kubeflow.trainer.options import RuntimePatch\n", {"0.3.1"}),
    ("PodTemplateOverrides left in 0.4.0", "from kubeflow.trainer.options import PodTemplateOverrides\n", {"0.4.1", "0.5.0"}),
    ("ActiveDeadlineSeconds arrived in 0.5.0", "from kubeflow.trainer.options import ActiveDeadlineSeconds\n", {"0.3.1", "0.4.1"}),
    ("RuntimeKind arrived in 0.5.0", "from kubeflow.trainer import RuntimeKind\n", {"0.3.1", "0.4.1"}),
]
KNOWN_GOOD = {
    "V2 CustomTrainer": "from kubeflow.trainer import CustomTrainer, TrainerClient\nc = TrainerClient()\nj = c.train(runtime='torch-distributed', trainer=CustomTrainer(func=print, num_nodes=2))\nc.wait_for_job_status(j)\n",
    "V1 LLM params": "import transformers\nfrom peft import LoraConfig\nfrom kubeflow.storage_initializer.hugging_face import HuggingFaceTrainerParams\nHuggingFaceTrainerParams(training_parameters=transformers.TrainingArguments(output_dir='o'), lora_config=LoraConfig(r=8))\n",
}


class Wheels:
    """The unpacked wheels: one `kubeflow` per paired SDK, the rest shared by every release."""

    def __init__(self, folder):
        dirs = sorted(p for p in folder.iterdir() if p.is_dir())
        self.sdks = {p.name.split("-")[1]: p for p in dirs if p.name.startswith("kubeflow-")}
        self.shared = [p for p in dirs if not p.name.startswith("kubeflow-")]
        self.ranges = sdk_pairing.wheel_ranges(folder)
        self.resolvers = {}

    def newest(self):
        return max(self.sdks, key=sdk_pairing.version)

    def resolver(self, sdk):
        if sdk not in self.resolvers:
            self.resolvers[sdk] = Resolver(self.shared + [self.sdks[sdk]])
        return self.resolvers[sdk]

    def paired(self, tag):
        return sdk_pairing.newest_sdk(tag, self.ranges)


def self_test(wheels):
    failures = total = 0

    def expect(label, code, resolver, refused):
        nonlocal failures, total
        total += 1
        try:
            check_code(code, resolver)
            error = None
        except CheckError as e:
            error = e
        if refused and error is None:
            print(f"FAIL self-test: accepted a known-bad snippet ({label})")
            failures += 1
        elif not refused and error is not None:
            print(f"FAIL self-test: refused a good snippet ({label}): {error}")
            failures += 1
        else:
            print(f"ok   {'refused' if refused else 'accepted'}: {label}{f': {error}' if error else ''}")

    newest = wheels.resolver(wheels.newest())
    for label, code in KNOWN_BAD.items():
        expect(label, code, newest, True)
    for label, code in KNOWN_GOOD.items():
        expect(label, code, newest, False)
    for label, code, refused_by in PER_SDK:
        for sdk in sorted(wheels.sdks, key=sdk_pairing.version):
            expect(f"{label} (kubeflow {sdk})", code, wheels.resolver(sdk), sdk in refused_by)
    # The pairing check itself: an export for v2.1 whose pane names the newest SDK.
    total += 1
    bad_title = {"trainer": "v2.1.0", "snippets": [{"language": "python", "api": "v2", "persona": "data-scientist",
                 "framework": "pytorch", "title": f"Python SDK (kubeflow {wheels.newest()})",
                 "code": "from kubeflow.trainer import TrainerClient\n"}]}
    problems = check_export(bad_title, wheels, quiet=True)[1]
    if problems:
        print(f"ok   refused: a v2.1 pane naming kubeflow {wheels.newest()}")
    else:
        print(f"FAIL self-test: accepted a v2.1 pane naming kubeflow {wheels.newest()}")
        failures += 1
    print(f"python-checker self-test: {total - failures} passed, {failures} failed")
    return 1 if failures else 0


def check_export(data, wheels, quiet=False):
    """Returns (passed, failed, calls) for one export's Python snippets."""
    sdk = wheels.paired(data["trainer"])
    resolver = wheels.resolver(sdk)
    passed = failed = calls = 0
    for s in data["snippets"]:
        if s["language"] != "python":
            continue
        label = f"{data['trainer']} {s['persona']}/{s['framework']}/{s['api']} {s['title']}"
        try:
            if s["api"] == "v2" and f"kubeflow {sdk}" not in s["title"]:
                raise CheckError(f"Trainer {data['trainer']} pairs with kubeflow {sdk} (the wheels' METADATA); "
                                 f"the pane's title says {s['title']!r}")
            calls += check_code(s["code"], resolver)
            passed += 1
        except CheckError as e:
            failed += 1
            if not quiet:
                print(f"FAIL {label}: {e}\n{s['code']}")
    return passed, failed, calls


def explorer_exports(explorer, queries):
    """Every release line x (every framework at defaults + queries), for the data scientist."""

    def export(query):
        out = subprocess.run(shlex.split(explorer) + ["export"] + (["--query", query] if query else []),
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"export {query} failed: {out.stderr}")
        return json.loads(out.stdout)

    every = export(None)
    frameworks = sorted({s["framework"] for s in every["snippets"]})
    for release in every["releases"]:
        for q in [f"framework={f}" for f in frameworks] + queries:
            yield export(f"persona=data-scientist&release={release}&{q}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheels", required=True, type=Path, help="folder with one unpacked wheel per subfolder")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--explorer", help="command that runs trainer-explorer: check every release's panes")
    ap.add_argument("inputs", nargs="*", help="export JSON files, or with --explorer, queries")
    args = ap.parse_args()
    wheels = Wheels(args.wheels)
    if args.self_test:
        return self_test(wheels)

    if args.explorer:
        exports = explorer_exports(args.explorer, args.inputs)
    else:
        exports = (json.loads(Path(p).read_text()) for p in args.inputs)
    passed = failed = calls = 0
    by_release = {}
    for data in exports:
        p, f, c = check_export(data, wheels)
        passed, failed, calls = passed + p, failed + f, calls + c
        counts = by_release.setdefault(f"{data['trainer']} (kubeflow {wheels.paired(data['trainer'])})", [0, 0])
        counts[0] += p
        counts[1] += f
    for release, (p, f) in by_release.items():
        print(f"python snippets for Trainer {release}: {p} passed, {f} failed")
    print(f"python snippets: {passed} passed, {failed} failed ({calls} SDK calls bound)")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
