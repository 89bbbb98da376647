"""Modules imported the first time they are named (PEP 562).

A package whose ``__getattr__`` is ``submodules(__name__)`` imports ``package.name`` when
``package.name`` is first read.  What only some runs need is reached this way: the command line's
optional parts (``jaxlint.review.baseline`` under ``--baseline``), the fix builders a rule calls
once it makes a finding, the module facts a rule asks for.  A run then pays for what it uses,
and the use names the module where it happens, which the layer test reads as an import
(tests/unit/test_layers.py).
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import PathFinder
from typing import Any, Callable, Mapping


def submodules(package: str, exports: Mapping[str, str] = {}) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: a name of ``exports`` is read from the module it maps
    to, any other name is a submodule; each is imported on first use and then kept."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            setattr(sys.modules[package], name, value)
            return value
        if name.startswith("__"):  # probes such as __path__ or __wrapped__ name no submodule
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        full = f"{package}.{name}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as e:
            if e.name != full or PathFinder.find_spec(full, sys.modules[package].__path__) is not None:
                raise  # the submodule is there, and could not be imported
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__
