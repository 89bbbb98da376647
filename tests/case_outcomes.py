"""What each case of some fixtures does under the installed JAX: runs, or raises (which error,
at which line of the tree).  Run as a program on one tree at a time
(``python case_outcomes.py TREE MODULE...``, JSON on standard output): a fixed copy of the
fixtures has the same module names as the original, so the two are run in two processes.

Each module is a fixture that defines ``CASES`` (and maybe ``HOST_CASES``), given by its path
relative to TREE; a module of a package folder is imported by its dotted name, as the oracle
test imports it."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import os
import sys
import traceback
from typing import Dict, List, Sequence


def _load(tree: str, path: str):
    folder = os.path.dirname(path)
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        parts = [os.path.splitext(os.path.basename(path))[0]]
        while os.path.isfile(os.path.join(folder, "__init__.py")):
            folder, pkg = os.path.split(folder)
            parts.insert(0, pkg)
        sys.path.insert(0, folder)
        try:
            return importlib.import_module(".".join(parts))
        finally:
            sys.path.remove(folder)
    name = "case_" + os.path.relpath(path, tree).replace(os.sep, "_").replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(folder)
    return mod


def outcomes(tree: str, modules: Sequence[str]) -> Dict[str, List]:
    """``"module CASES[i]"`` -> ``["ok"]`` or ``["raised", error type, [file, line] or None]``
    (the innermost frame of the tree the error passed through)."""
    import jax

    tree = os.path.realpath(tree)
    out: Dict[str, List] = {}
    for rel in modules:
        with contextlib.redirect_stdout(io.StringIO()):
            mod = _load(tree, os.path.join(tree, rel))
        for attr in ("CASES", "HOST_CASES"):
            for i, case in enumerate(getattr(mod, attr, [])):
                jax.clear_caches()
                try:
                    with contextlib.redirect_stdout(io.StringIO()):
                        case()
                        jax.effects_barrier()
                    result = ["ok"]
                except Exception as e:  # noqa: BLE001 - every failure is an outcome
                    frames = [
                        [os.path.relpath(os.path.realpath(f.filename), tree), f.lineno]
                        for f in traceback.extract_tb(e.__traceback__)
                        if os.path.realpath(f.filename).startswith(tree + os.sep)
                    ]
                    result = ["raised", type(e).__name__, frames[-1] if frames else None]
                out[f"{rel} {attr}[{i}]"] = result
    return out


if __name__ == "__main__":
    json.dump(outcomes(sys.argv[1], sys.argv[2:]), sys.stdout)
