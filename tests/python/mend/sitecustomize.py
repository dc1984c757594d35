"""Mends Debian's torch 1.13 under Python 3.11 for tests/python/run_training.py (on its
PYTHONPATH only; no pane is changed).

torchrun parses its --redirects and --tee options (default "0") with `Std.from_str`, which
returns the `Std` member equal to the number by iterating over `Std`. Since Python 3.11, iterating
over an IntFlag yields only its canonical (one-bit) members, so "0" (`Std.NONE`) finds nothing,
`from_str` returns None, and torchrun dies in `to_map` with
"AttributeError: 'NoneType' object has no attribute 'get'". Once the module is loaded, this
makes `from_str` build the member from the number (`Std(int(v))`) instead.
"""
import importlib.abc
import importlib.machinery
import sys

MODULE = "torch.distributed.elastic.multiprocessing.api"


def _mend(module):
    std = module.Std
    value = module._VALUE_REGEX
    mapping = module._MAPPING_REGEX
    import re

    def from_str(cls, vm):
        if re.match(value, vm):
            return cls(int(vm))
        if re.match(mapping, vm):
            return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
        raise ValueError(f"{vm} does not match: <{value}> or <{mapping}>")

    std.from_str = classmethod(from_str)


class _MendOnLoad(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            _mend(module)

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _MendOnLoad())
