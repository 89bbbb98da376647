"""Python calls whose result differs from call to call (random numbers, clocks: host_value.CLOCKS): under a trace
they run once, and the compiled function replays the value they returned."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.names import resolve

RANDOM_PREFIXES = ("random.", "numpy.random.", "secrets.")
# Seeding and generator construction: not a draw.
RANDOM_SETUP = frozenset(
    {
        "random.seed",
        "random.Random",
        "random.getstate",
        "random.setstate",
        "numpy.random.seed",
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "numpy.random.SeedSequence",
        "numpy.random.PCG64",
        "numpy.random.get_state",
        "numpy.random.set_state",
        "random.SystemRandom",
        "secrets.SystemRandom",
        "secrets.compare_digest",
    }
)

# Host random generators: an object built by one of these draws a new number on each method
# call, except for the methods that seed it or save and restore its state.
RNG_CONSTRUCTORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
        "random.SystemRandom",
        "secrets.SystemRandom",
    }
)
RNG_SETUP_METHODS = frozenset({"seed", "getstate", "setstate", "get_state", "set_state", "spawn", "jumped"})


def is_host_rng(owner: Scope, name: str) -> bool:
    """Is every value ``name`` is bound to in ``owner`` a host random generator?"""
    binds = owner.value_bindings(name)
    return bool(binds) and all(b.kind == "assign" and is_rng_constructor(b.value, owner) for b in binds)


def is_rng_constructor(expr, scope: Scope) -> bool:
    """``np.random.default_rng(0)``, ``random.Random()``: a new host random generator."""
    return isinstance(expr, cst.Call) and resolve(expr.func, scope) in RNG_CONSTRUCTORS
