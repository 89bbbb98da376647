"""What a transform applied over a jitted function (``jax.vmap(step)``, ``jax.grad(step)``,
``jax.make_jaxpr(step)``) does to the positions it is given: which it traces, and the advice
that keeps a static parameter out of its reach."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.nodes import argument_at, dotted_name, keyword_value
from jaxlint.analysis.model.transforms import Application

# Outer transforms that trace the positions they are given (unless told otherwise).
TRACING_LABELS = frozenset({"jitted", "make_jaxpr-traced", "vmapped", "differentiated"})


def function_argument(site: cst.Call):
    return argument_at(site.args, 0, "fun") or keyword_value(site.args, "f")


def outer_static_positions(outer: Application):
    spec = outer.statics
    return ({i for i, _ in spec.nums}, {n for n, _ in spec.names}), spec.opaque


def traces_position(outer: Application, j: int, pname: str, statics) -> bool:
    nums, names = statics
    label = outer.transform.label
    if label == "differentiated":
        return outer.argnums is not None and j in outer.argnums
    if label == "vmapped":
        return not outer.opaque_axes and j not in outer.unbatched
    return j not in nums and pname not in names


def remedy(outer: Application) -> str:
    label = outer.transform.label
    if label == "vmapped":
        return "give it in_axes=None, or bind it with a lambda"
    if label == "differentiated":
        return "leave it out of argnums"
    return "make it static there too, or bind it with a lambda"


def outer_label(outer: Application) -> str:
    site = outer.site
    return (dotted_name(site.func) or outer.transform.label) if isinstance(site, cst.Call) else outer.transform.label
