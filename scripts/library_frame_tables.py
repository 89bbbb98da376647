#!/usr/bin/env python3
"""Print the classes of Haiku and Flax Linen whose call writes the library's frame, read from the
installed libraries; ``jaxlint/analysis/jax/library_frames.py`` holds the result as data.

    python scripts/library_frame_tables.py          # print the two tables
    python scripts/library_frame_tables.py --check  # exit 1 when the package's tables differ

A public subclass of ``hk.Module`` (of ``haiku``, ``haiku.nets``) or of ``nn.Module`` (of
``flax.linen``) writes the frame when the code of its classes (and of the module-level helpers
they call, as LayerNorm's ``_normalize``) calls one of the library's frame writers
(``hk.get_parameter``, ``hk.next_rng_key``, ``hk.set_state``...; ``self.param``,
``self.variable``, ``self.sow``...), or builds and calls another class that does (``Dense`` in
``LSTMCell``, also through ``functools.partial``).  Pooling, reshaping and plain containers of
cells write nothing.  The calls are read from the syntax trees, not the text, so a docstring that
names ``Dense`` does not count.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import textwrap

from jaxlint.analysis.jax.library_frames import LINEN_SELF_WRITERS

HAIKU_WRITERS = frozenset({"get_parameter", "next_rng_key", "next_rng_keys", "maybe_next_rng_key", "reserve_rng_keys", "set_state", "get_state"})
LINEN_WRITERS = frozenset(LINEN_SELF_WRITERS)


def _public_classes(namespaces, base):
    out = {}
    for ns in namespaces:
        mod = importlib.import_module(ns)
        for name in dir(mod):
            obj = getattr(mod, name)
            if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, base) and obj is not base:
                out[f"{ns}.{name}"] = obj
    return out


def _trees(cls, base):
    """The syntax trees of ``cls``'s classes up to ``base``, and of the module-level functions
    of their modules that those classes call by name (followed to a fixed point)."""
    trees, done, todo = [], set(), []
    for k in cls.__mro__:
        if k is base or not issubclass(k, base):
            continue
        try:
            trees.append(ast.parse(textwrap.dedent(inspect.getsource(k))))
        except (OSError, TypeError, SyntaxError):
            continue
        todo.append((trees[-1], sys.modules[k.__module__]))
    while todo:
        tree, mod = todo.pop()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (mod.__name__, node.func.id) not in done:
                done.add((mod.__name__, node.func.id))
                f = getattr(mod, node.func.id, None)
                if inspect.isfunction(f) and f.__module__ == mod.__name__:
                    sub = ast.parse(textwrap.dedent(inspect.getsource(f)))
                    trees.append(sub)
                    todo.append((sub, mod))
    return trees


def _called_names(trees):
    """Names called (``f(...)``, ``x.f(...)``) and classes handed to ``partial``."""
    out = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = _called_names_of(node.func)
                out |= called
                if "partial" in called and node.args:
                    out |= _called_names_of(node.args[0])
    return out


def _called_names_of(e):
    if isinstance(e, ast.Name):
        return {e.id}
    if isinstance(e, ast.Attribute):
        return {e.attr}
    return set()


def frame_writers(namespaces, base, writers):
    """The qualified names of the public ``base`` subclasses of ``namespaces`` that write."""
    found = _public_classes(namespaces, base)
    called = {q: _called_names(_trees(c, base)) for q, c in found.items()}
    writing = {q for q, names in called.items() if names & writers}
    grew = True
    while grew:
        grew = False
        names = {found[q].__name__ for q in writing}
        for q, c in called.items():
            if q not in writing and c & names:
                writing.add(q)
                grew = True
    return sorted(writing)


def tables():
    import flax.linen as nn
    import haiku as hk

    return {
        "HAIKU_WRITING_MODULES": frame_writers(["haiku", "haiku.nets"], hk.Module, HAIKU_WRITERS),
        "LINEN_WRITING_MODULES": frame_writers(["flax.linen"], nn.Module, LINEN_WRITERS),
    }


def main(argv) -> int:
    found = tables()
    if "--check" in argv:
        from jaxlint.analysis.jax import library_frames

        bad = [k for k, v in found.items() if sorted(getattr(library_frames, k)) != v]
        for k in bad:
            print(f"{k} differs from the installed library: {found[k]}")
        return 1 if bad else 0
    for k, v in found.items():
        print(f"{k} = {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
