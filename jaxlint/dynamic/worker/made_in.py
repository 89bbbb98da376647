"""A function made inside another one (``self._forward = jax.jit(lambda w, x: ...)`` in
``__init__``), for the worker to watch its calls: a new function object is made on each run of
the outer function, all of them with one code object, which the outer function's code holds as
a constant.  That code is found without running anything; a function object built on it stands
for the ones the run makes (jaxlint.dynamic.worker compares jitted functions by their code).
It is never called: its closure cells are empty.
"""

from __future__ import annotations

import inspect
import types


def _codes(code):
    for const in code.co_consts:
        if inspect.iscode(const):
            yield const
            yield from _codes(const)


def stand_in(mod, target, path):
    """(a function with the code of the function ``target`` describes, or None; why not)."""
    outer = target["made_in"]
    holder = getattr(mod, outer["cls"], None) if outer.get("cls") else mod
    fn = inspect.getattr_static(holder, outer["qualname"], None) if holder is not None else None
    fn = getattr(fn, "__func__", fn)
    if not inspect.isfunction(fn) or fn.__code__.co_filename != path:
        where = f"{outer['cls']}.{outer['qualname']}" if outer.get("cls") else outer["qualname"]
        return None, f"{where}() is not defined where the module defines it after import"
    name = "<lambda>" if target.get("lambda") else target["qualname"]
    for code in _codes(fn.__code__):
        if code.co_name == name and code.co_firstlineno == target["def_line"]:
            cells = tuple(types.CellType() for _ in code.co_freevars)
            return types.FunctionType(code, vars(mod), code.co_name, None, cells), None
    return None, f"the code of {name} on line {target['def_line']} is not in {fn.__qualname__}()"
