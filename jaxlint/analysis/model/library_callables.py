"""Callables a library makes from a function of the module, which call that function with the
arguments that follow the library's own leading ones; and library calls that run a function
they are given right where they are called (``RUN_AT_CALL``, ``LINEN_INITIALISERS``).

* A Flax Linen module's ``model.apply(variables, *inputs)`` and ``model.init(rngs, *inputs)``
  run its ``__call__`` on the inputs, bound to ``model``.
* Haiku's ``hk.transform(f)`` gives ``init(rng, *inputs)`` and ``apply(params, rng, *inputs)``,
  ``hk.transform_with_state(f)`` ``apply(params, state, rng, *inputs)``; both run ``f(*inputs)``.
  ``hk.without_apply_rng`` drops the ``rng`` of ``apply``.

Under ``jax.jit`` (or any transform) of such a callable, or called from traced code, the inputs
reach the function as they are: tracers where the callable's arguments are (checked with haiku
0.0.17 and flax 0.12.8: ``jax.jit(hk.transform(f).init)(key, x)`` traces ``f`` with ``x``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.names import resolve

if TYPE_CHECKING:  # annotations only: transforms reads this module
    from jaxlint.analysis.model.transforms import FnRef, TransformFinder
    from jaxlint.analysis.syntax.scopes import Scope

# The library's own leading parameters of each callable, by the callable's attribute.
LINEN_LEADING = {"apply": ("variables",), "init": ("rngs",)}
HAIKU_LEADING = {
    "haiku.transform": {"init": ("rng",), "apply": ("params", "rng")},
    "haiku.transform_with_state": {"init": ("rng",), "apply": ("params", "state", "rng")},
}
HAIKU_WITHOUT_RNG = "haiku.without_apply_rng"
HAIKU_METHODS = frozenset(m for methods in HAIKU_LEADING.values() for m in methods)

# Library calls that run a function they are given right where they are called, on a tuple of
# positional and a dict of keyword arguments they are also given: (the parameters holding the
# function, the tuple, the dict).  NumPyro computes a model's density by running the model
# under its effect handlers, ``trace(substitute(model, params)).get_trace(*args, **kwargs)``
# (numpyro.infer.util), so the model's body runs in the caller's trace.
RUN_AT_CALL = {
    "numpyro.infer.util.log_density": ("model", "model_args", "model_kwargs"),
    "numpyro.infer.util.compute_log_probs": ("model", "model_args", "model_kwargs"),
    "numpyro.infer.util.potential_energy": ("model", "model_args", "model_kwargs"),
}

# A Linen module's ``self.param(name, init_fn, *init_args, **init_kwargs)`` calls
# ``init_fn(rng, *init_args, **init_kwargs)`` on every call: where it creates the parameter (at
# ``init``), in the caller's trace; where the parameter exists, under ``jax.eval_shape`` (with
# ``random.key(0)``), to check its shape.  ``self.variable(col, name, init_fn, *init_args,
# **init_kwargs)`` calls ``init_fn(*init_args, **init_kwargs)`` only where it creates the
# variable (flax/core/scope.py, flax 0.12.8).  By method: (the position of ``init_fn``, whether
# an rng key goes first and the call happens on every call).
LINEN_INITIALISERS = {"param": (1, True), "variable": (2, False)}

# ``self.param(...)`` and ``self.get_variable(col, name)`` hand out the array a collection holds:
# what ``init``'s initialiser made, or what ``apply`` was given in ``variables``.  Where the
# module runs under a transform that is a tracer (the variables are its arguments, or the
# initialiser's output is a staged JAX operation).
LINEN_VARIABLE_READS = frozenset({"param", "get_variable"})


def library_callable(finder: "TransformFinder", expr, scope: "Scope") -> Optional[Tuple["FnRef", Tuple[str, ...]]]:
    """``(the function of the module run, the library's leading parameters)`` for ``expr`` a
    callable that a library made of a function of the module (``model.apply``,
    ``hk.transform(f).init``); None for anything else.  A function that has a parameter of the
    same name as a leading one is left alone: the arguments would not line up as read here."""
    if not isinstance(expr, cst.Attribute):
        return None
    return _lined_up(_linen(finder, expr, scope)) or haiku_callable(finder, expr, scope)


def haiku_callable(finder: "TransformFinder", expr: cst.Attribute, scope: "Scope") -> Optional[Tuple["FnRef", Tuple[str, ...]]]:
    """``library_callable`` for Haiku's transformed functions alone."""
    return _lined_up(_haiku(finder, expr, scope))


def _lined_up(found):
    if found is None or set(found[1]) & set(found[0].func.all_param_names()):
        return None
    return found


def _linen(finder, expr: cst.Attribute, scope):
    attr = expr.attr.value
    if attr not in LINEN_LEADING:
        return None
    receiver = finder.receivers.receiver_of(expr.value, scope)
    cls = receiver.cls if receiver is not None else None
    if cls is None or not finder.classes.is_linen_module(cls) or finder.classes.member(cls, attr) is not None:
        return None
    # ``model.__call__`` bound to ``model``, as the finder reads any bound method
    ref = finder.resolve_fn(cst.Attribute(value=expr.value, attr=cst.Name("__call__")), scope)
    if ref is None or not ref.func.is_method:
        return None
    return ref, LINEN_LEADING[attr]


def _haiku(finder, expr: cst.Attribute, scope):
    """``t.init`` / ``t.apply`` with ``t`` bound once to ``hk.transform(f)`` (maybe under
    ``hk.without_apply_rng``), or the attribute of that call itself."""
    made = expr.value
    if isinstance(made, cst.Name):
        found = scope.sole_binding(made.value)
        if found is None:
            return None
        made, scope = found
    without_rng = False
    if isinstance(made, cst.Call) and made.args and resolve(made.func, scope) == HAIKU_WITHOUT_RNG:
        without_rng = True
        made = made.args[0].value
    if not isinstance(made, cst.Call) or not made.args or made.args[0].keyword is not None:
        return None
    leading = HAIKU_LEADING.get(resolve(made.func, scope) or "", {}).get(expr.attr.value)
    if leading is None:
        return None
    if without_rng and expr.attr.value == "apply":
        leading = tuple(p for p in leading if p != "rng")
    ref = finder.resolve_fn(made.args[0].value, scope)
    if ref is None or ref.bound_self or ref.bound_pos or ref.bound_kw or ref.jit is not None:
        return None  # a def as it is: what a partial or a jit binds is not carried here
    return ref, leading
