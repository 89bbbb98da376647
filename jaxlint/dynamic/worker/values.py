"""The example values the checks pass: built from the plan's JSON specs (arrays, literals,
constructors, the module's own expressions and captured driver values), assembled into a
call's positional and keyword arguments, varied for a captured variable, and compared (two
jaxprs, two results, what a jitted function's cache sees of its arguments)."""

from __future__ import annotations

import ast
import math

from jaxlint.dynamic.worker import drivers
from jaxlint.dynamic.worker import runtime


def build_value(spec, abstract):
    k = spec["k"]
    if k == "array":
        dtype = runtime.jnp.dtype(spec["dtype"])
        shape = tuple(spec["shape"])
        if abstract:
            return runtime.jax.ShapeDtypeStruct(shape, dtype)
        return runtime.jnp.ones(shape, dtype)
    if k == "py":
        return ast.literal_eval(spec["src"])
    if k == "ctor":
        # a pytree class defined at module level in the checked file
        cls = getattr(runtime.MODULE, spec["cls"], None)
        if not isinstance(cls, type):
            raise ValueError(f"{spec['cls']} is not a class after import")
        return cls(*[build_value(v, abstract) for v in spec["pos"]])
    if k == "captured":
        # what the module's own driver code passed (jaxlint.dynamic.worker.drivers)
        return drivers.captured_value(spec)
    if k == "expr":
        # The engine lets through literals, jax/numpy/math calls, and the module's own globals
        # and class constructors (what the module's code would pass); nothing else.
        return eval(spec["src"], {"__builtins__": {}}, expr_namespace())  # noqa: S307
    raise ValueError(f"unknown value kind {k}")


def constructor_args(ctor):
    """(positional, keyword) values of a ``Cls(...)`` call the plan describes."""
    return [build_value(v, False) for v in ctor["pos"]], {k: build_value(v, False) for k, v in ctor["kw"].items()}


def expr_namespace():
    ns = dict(vars(runtime.MODULE)) if runtime.MODULE is not None else {}
    ns.update({"jax": runtime.jax, "numpy": runtime.np, "math": math})
    return ns


def is_arraylike(v):
    return isinstance(v, (runtime.jax.Array, runtime.np.ndarray, runtime.np.generic, runtime.jax.ShapeDtypeStruct))


def assemble(args, values):
    """Positional prefix while nothing is omitted, keywords after that."""
    pos, kw = [], {}
    omitted = False
    for a in args:
        name = a["name"]
        if name not in values:
            omitted = True
            continue
        if a["kind"] == "posonly" or (a["kind"] == "pos" and not omitted):
            pos.append(values[name])
        else:
            kw[name] = values[name]
    return pos, kw


def prepare(argset, driver, abstract):
    """(static values, traced values) by parameter name."""
    runtime.LAST_ARGSET = argset
    statics, traced = {}, {}
    for a in argset["args"]:
        v = a["value"]
        if v["k"] == "omit":
            continue
        static = a["static"]
        val = build_value(v, abstract and not static)
        if driver.get("filtered") and not is_arraylike(val):
            static = True
        (statics if static else traced)[a["name"]] = val
    return statics, traced


def built_call(argset, driver, overrides=None):
    statics, traced = prepare(argset, driver, abstract=False)
    vals = dict(statics)
    vals.update(traced)
    vals.update(overrides or {})
    return assemble(argset["args"], vals)


def variants(v):
    """Different values of the same type (and, for containers, of another length)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1]
    if isinstance(v, float):
        return [v + 1.0 if v + 1.0 != v else v * 2.0 + 1.0]
    if isinstance(v, complex):
        return [v + 1]
    if isinstance(v, str):
        return [v + "_"]
    if isinstance(v, (runtime.jax.Array, runtime.np.ndarray)):
        if v.dtype == bool:
            return [~v]
        return [v + 1]
    if isinstance(v, (list, tuple)):
        out = []
        inner = []
        for e in v:
            vs = variants(e)
            if not vs:
                inner = None
                break
            inner.append(vs[0])
        if inner is not None and v:
            out.append(type(v)(inner) if isinstance(v, list) else tuple(inner))
        if isinstance(v, list):
            out.append(v + v[-1:] if v else [1.0])
        return out
    if isinstance(v, dict):
        out = []
        new = {}
        for k, e in v.items():
            vs = variants(e)
            new[k] = vs[0] if vs else e
        if v and new != v:
            out.append(new)
        out.append({**v, "__jaxlint_extra__": 1.0})
        return out
    return []


def same_jaxpr(a, b):
    if str(a.jaxpr) != str(b.jaxpr):
        return False
    if len(a.consts) != len(b.consts):
        return False
    for x, y in zip(a.consts, b.consts):
        try:
            xa, ya = runtime.np.asarray(x), runtime.np.asarray(y)
        except Exception:  # noqa: BLE001
            if x is not y:
                return False
            continue
        if xa.shape != ya.shape or xa.dtype != ya.dtype or not runtime.np.array_equal(xa, ya):
            return False
    return True


def same_result(a, b):
    la, ta = runtime.jax.tree_util.tree_flatten(a)
    lb, tb = runtime.jax.tree_util.tree_flatten(b)
    if ta != tb or len(la) != len(lb):
        return False
    for x, y in zip(la, lb):
        try:
            xa, ya = runtime.np.asarray(x), runtime.np.asarray(y)
        except Exception:  # noqa: BLE001
            if x != y:
                return False
            continue
        if xa.shape != ya.shape or not runtime.np.allclose(xa, ya, rtol=1e-5, atol=1e-6, equal_nan=True):
            return False
    return True


def signature(args, kw, values=True):
    """What a jitted function's cache sees of its arguments, for arrays: the tree structure,
    shapes, dtypes and weak types; other leaves by type and value (``values``), else by type
    alone: what a trace depends on besides static values."""

    def leaf(v):
        if is_arraylike(v):
            return ("array", tuple(v.shape), str(v.dtype), bool(getattr(v, "weak_type", False)))
        return (type(v).__name__, repr(v)) if values else type(v).__name__

    leaves, tree = runtime.jax.tree_util.tree_flatten((args, kw))
    return str(tree), tuple(leaf(v) for v in leaves)


def array_signature(args, kw):
    return signature(args, kw, values=False)
