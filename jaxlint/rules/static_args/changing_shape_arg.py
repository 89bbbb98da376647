"""JAX205: a jitted callable called in a loop with an argument whose shape follows the loop."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.host.host_shapes import drifting, drifting_source, shape_follows, takes_distinct_sizes
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.model.names import resolve
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles
from jaxlint.analysis.syntax.nodes import simple_statements

# Constructors whose shape is their first argument (for the batch arithmetic below).
SHAPE_FIRST = frozenset({"zeros", "ones", "empty", "full", "eye", "identity"})
ARRAY_MODULES = ("jax.numpy.", "numpy.")


class ChangingShapeArg(Rule):
    """
    What it does
        Flags a call of a jitted function inside a ``for i in range(...)`` loop (or a loop over a
        list of sizes, ``for n in [8, 16, 32]``) whose argument has a shape that depends on the
        loop variable: a slice bounded by it (``f(x[:i])``) or an array built with it as a size
        (``f(jnp.zeros(i))``, ``f(jnp.arange(i))``, ``jax.random.normal(key, (n, 3))``: every
        shape argument of JAX's and NumPy's constructors), directly or through a name assigned
        before the call (``x = jnp.ones((n, 3))`` then ``f(x)``); an array or
        list that the loop's body grows on every iteration (``xs = jnp.concatenate([xs, y])``,
        ``hist.append(y)`` then ``f(jnp.stack(hist))``); and batches cut without padding
        (``for i in range(0, len(x), bs): f(x[i:i + bs])``), whose last one is shorter unless
        the length is provably a multiple of ``bs``.  A window of fixed width (``x[i:i + 8]``),
        an index (``x[i]``) and full batches only (``range(0, len(x) - bs + 1, bs)``) keep
        their shape and are not flagged.

    Why is this bad?
        ``jax.jit`` caches a compilation per input shape.  A shape that changes every
        iteration means a new trace and compilation every iteration, which is usually slower
        than not using ``jit`` at all.

    Example
        for i in range(1, 100):
            loss = loss_fn(params, data[:i])

    Use instead
        Pad to a fixed shape and pass a mask (or the valid length as a traced value), bucket
        the lengths into a few sizes so that only a few shapes are ever compiled, or drop (or
        pad) the incomplete last batch.

    References
        https://docs.jax.dev/en/latest/jit-compilation.html#caching
    """

    code = "JAX205"
    name = "changing-shape-arg"
    message = "argument `{arg}` of {func}() {how}"
    fix = "pad `{arg}` to a fixed shape (with a mask or a traced length), bucket the sizes, or drop the incomplete last batch"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(10.0)
        for i in range(1, 4):
            total(data[:i])  # error: JAX205
            total(jnp.zeros(i))  # error: JAX205

        for n in [8, 16, 32]:
            x = jax.random.normal(jax.random.PRNGKey(n), (n, 3))
            total(x)  # error: JAX205
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def total(x):
            return x.sum()

        data = jnp.arange(10.0)
        for i in range(3):
            total(data[i : i + 4])
            total(data[i])
            total(jnp.zeros(4) + i)
        """
    ]

    def check_module(self, m):
        reported = self._growing_and_ragged(m)
        drift_of = {}
        for lc in m.looped_calls:
            counters = _loop_counters(lc.scope, lc.order)
            for a, pname in lc.arguments():
                if pname is None or pname in lc.statics or id(a.value) in reported:
                    continue
                var = shape_follows(a.value, counters, lc.scope, lc.order) if counters else None
                if var is not None:
                    how = f"changes shape with the loop variable `{var}`: a new compilation on every iteration"
                    m.report(self, a.value, arg=a.value, func=lc.app.func.name, var=var, how=how, related=lc.related())
                    continue
                for span in lc.loops:
                    key = (id(lc.scope), span)
                    if key not in drift_of:
                        drift_of[key] = drifting(lc.scope, span)
                    var = drifting_source(a.value, lc.scope, drift_of[key])
                    if var is not None:
                        how = f"changes shape from one iteration to the next (`{var}` is rebound in the loop to a longer or shorter array made from its last value): a new compilation for each new shape"
                        m.report(self, a.value, arg=a.value, func=lc.app.func.name, var=var, how=how, related=lc.related())
                        break

    def _growing_and_ragged(self, m):
        """Arguments that grow on every iteration, and batches whose last one is shorter (the
        ids of the arguments reported)."""
        reported = set()
        looped = m.looped_calls
        if not looped:
            return reported
        loops_of = m.loop_updates.loops
        for lc in looped:
            loops = loops_of.get(id(lc.call))
            if not loops:
                continue
            loop, span = loops[-1], lc.innermost
            for a, pname in lc.arguments():
                if pname is None or pname in lc.statics:
                    continue
                how = _grows(a.value, loop, span, lc.scope) or _ragged_batch(a.value, loop, lc.scope)
                if how is not None:
                    m.report(self, a.value, arg=a.value, func=lc.app.func.name, var="", how=how, related=lc.related())
                    reported.add(id(a.value))
        return reported


def _loop_counters(scope, order: int) -> set:
    """Names counted by ``for name in range(...)`` / ``enumerate(...)`` loops around ``order``."""
    out = set()
    for name in set(scope.bindings) | set(scope.comprehension_bindings):
        for b in scope.loop_bindings(name):
            loop = b.value
            it = loop.iter
            if takes_distinct_sizes(it, scope) and isinstance(loop.target, cst.Name) and loop.target.value == name:
                # ``for n in [9, 7, 11]``: the name takes a new value on every iteration
                if any(start == b.order and start <= order <= end for start, end in scope.loops):
                    out.add(name)
                continue
            if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("range", "enumerate")):
                continue
            if scope.lookup_scope(it.func.value) is not None:
                continue  # a local function shadows the builtin
            t = loop.target
            counted = (it.func.value == "range" and isinstance(t, cst.Name) and t.value == name) or (
                it.func.value == "enumerate"
                and isinstance(t, cst.Tuple)
                and t.elements
                and isinstance(t.elements[0].value, cst.Name)
                and t.elements[0].value.value == name
            )
            if counted and any(start == b.order and start <= order <= end for start, end in scope.loops):
                out.add(name)
    return out


GROWING = frozenset({"concatenate", "append", "vstack", "hstack", "row_stack", "column_stack"})
STACKING = frozenset({"stack", "array", "asarray", "concatenate", "vstack", "hstack"})


def _array_call(expr, scope) -> Optional[str]:
    """``jnp.concatenate`` -> "concatenate" (jax.numpy or numpy)."""
    if not isinstance(expr, cst.Call):
        return None
    q = resolve(expr.func, scope)
    for prefix in ARRAY_MODULES:
        if q is not None and q.startswith(prefix):
            return q[len(prefix) :]
    return None


def _grows(expr, loop, span, scope) -> Optional[str]:
    """``xs`` rebound as ``jnp.concatenate([xs, y])`` in the loop's body, or a list ``hist`` that
    the body appends to, passed as ``hist`` or ``jnp.stack(hist)``."""
    name = None
    if isinstance(expr, cst.Name):
        name = expr.value
    elif _array_call(expr, scope) in STACKING and expr.args and isinstance(expr.args[0].value, cst.Name) and not expr.args[0].keyword:
        name = expr.args[0].value.value
    if name is None:
        return None
    start, end = span
    rebinds = [b for b in scope.bindings.get(name, ()) if b.order is None or start <= b.order <= end]
    changes = [mu for mu in scope.mutations.get(name, ()) if mu[0] is None or start <= mu[0] <= end]
    for small in simple_statements(getattr(loop, "body", None)):  # a comprehension has none
        if (
            isinstance(small, cst.Assign)
            and isinstance(expr, cst.Name)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and small.targets[0].target.value == name
            and _array_call(small.value, scope) in GROWING
            and len(rebinds) == 1
            and not changes
            and _first_part_is(small.value, name)
        ):
            return f"grows on every iteration (`{name}` is extended by {_array_call(small.value, scope)}): a new compilation on every iteration"
        if (
            isinstance(small, cst.Expr)
            and isinstance(small.value, cst.Call)
            and isinstance(small.value.func, cst.Attribute)
            and small.value.func.attr.value == "append"
            and isinstance(small.value.func.value, cst.Name)
            and small.value.func.value.value == name
            and not rebinds
            and len(changes) == 1
            and _bound_to_list(scope, name, start)
        ):
            return f"grows on every iteration (`{name}.append(...)` in the loop): a new compilation on every iteration"
    return None


def _first_part_is(call: cst.Call, name: str) -> bool:
    """``concatenate([xs, y])`` / ``append(xs, y)``: the growing array is one of the parts."""
    if not call.args:
        return False
    first = call.args[0].value
    if isinstance(first, cst.Name):
        return first.value == name
    if isinstance(first, (cst.List, cst.Tuple)):
        return any(isinstance(e.value, cst.Name) and e.value.value == name for e in first.elements)
    return False


def _bound_to_list(scope, name: str, start: int) -> bool:
    before = [b for b in scope.bindings.get(name, ()) if b.order is not None and b.order < start]
    if not before:
        return False
    last = max(before, key=lambda b: b.order)
    return last.kind == "assign" and (
        isinstance(last.value, cst.List) or (isinstance(last.value, cst.Call) and isinstance(last.value.func, cst.Name) and last.value.func.value == "list" and not last.value.args)
    )


def _same(a, b) -> bool:
    return a is not None and b is not None and a.deep_equals(b)


def _ragged_batch(expr, loop, scope) -> Optional[str]:
    """``x[i:i + bs]`` in ``for i in range(0, len(x), bs)``: the last batch is shorter unless
    the length is provably a multiple of ``bs``."""
    if not (isinstance(expr, cst.Subscript) and len(expr.slice) >= 1 and isinstance(expr.slice[0].slice, cst.Slice)):
        return None
    if not isinstance(loop, (cst.For, cst.CompFor)) or not isinstance(loop.target, cst.Name):
        return None
    it = loop.iter
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" and scope.lookup_scope("range") is None):
        return None
    rargs = [a.value for a in it.args]
    if len(rargs) != 3 or any(a.keyword is not None or a.star for a in it.args):
        return None
    _start, stop, step = rargs
    sl = expr.slice[0].slice
    i = loop.target.value
    lower, upper = sl.lower, sl.upper
    if not (isinstance(lower, cst.Name) and lower.value == i and sl.step is None):
        return None
    if not (
        isinstance(upper, cst.BinaryOperation)
        and isinstance(upper.operator, cst.Add)
        and isinstance(upper.left, cst.Name)
        and upper.left.value == i
        and _same(upper.right, step)
    ):
        return None
    base = expr.value
    if not _length_of(stop, base, scope):
        return None
    if _divisible(base, step, scope):
        return None
    shown = cst.Module([]).code_for_node(step)
    return f"is a batch of `{shown}` rows with no padding: the last batch is shorter when the length is not a multiple of `{shown}`, a second compilation"


def _length_of(stop, base, scope) -> bool:
    """``len(base)`` / ``base.shape[0]`` (or a name bound once to one of them)."""
    if isinstance(stop, cst.Name):
        stop = scope.sole_value(stop.value) or stop
    if isinstance(stop, cst.Call) and isinstance(stop.func, cst.Name) and stop.func.value == "len" and len(stop.args) == 1:
        return _same(stop.args[0].value, base)
    if (
        isinstance(stop, cst.Subscript)
        and isinstance(stop.value, cst.Attribute)
        and stop.value.attr.value == "shape"
        and len(stop.slice) == 1
        and isinstance(stop.slice[0].slice, cst.Index)
        and isinstance(stop.slice[0].slice.value, cst.Integer)
        and stop.slice[0].slice.value.evaluated_value == 0
    ):
        return _same(stop.value.value, base)
    return False


def _divisible(base, step, scope) -> bool:
    """The array's first dimension and the batch size are literals, and one divides the other;
    or the array was cut to a multiple of the batch size (``x = x[: n // bs * bs]``)."""
    if not isinstance(base, cst.Name):
        return False
    for b in scope.bindings.get(base.value, ()):
        if isinstance(b.value, cst.Subscript) and _cut_to_multiple(b.value, step):
            return True
    step = _literal(step, scope)
    if not isinstance(step, cst.Integer):
        return False
    b = scope.only_binding(base.value)
    if b is None or b.kind != "assign" or not isinstance(b.value, cst.Call):
        return False
    ctor = b.value
    q = _array_call(ctor, scope)
    if q not in SHAPE_FIRST and q not in ("arange",) or not ctor.args:
        return False
    shape = ctor.args[0].value
    first = _literal(shape.elements[0].value if isinstance(shape, cst.Tuple) and shape.elements else shape, scope)
    if not isinstance(first, (cst.Integer, cst.Float)) or (q == "arange" and len(ctor.args) != 1):
        return False
    size, bs = first.evaluated_value, step.evaluated_value
    # ``jnp.arange(12.0)`` has 12 rows too
    return bs > 0 and float(size).is_integer() and int(size) % bs == 0


def _literal(expr, scope):
    """A name bound once to a number literal stands for the literal."""
    value = scope.sole_value(expr.value) if isinstance(expr, cst.Name) else None
    return value if isinstance(value, (cst.Integer, cst.Float)) else expr


class _Rounds(FastVisitor):
    def __init__(self, step):
        self.step = step
        self.rounds = False
        self.mentions = False

    def visit_BinaryOperation(self, node) -> None:
        if isinstance(node.operator, (cst.FloorDivide, cst.Modulo)):
            self.rounds = True

    def visit_Name(self, node) -> None:
        if _same(node, self.step):
            self.mentions = True

    visit_Integer = visit_Name


def _cut_to_multiple(sub: cst.Subscript, step) -> bool:
    """``x[: n // bs * bs]`` / ``x[: n - n % bs]``: a length rounded down to the batch size."""
    if len(sub.slice) < 1 or not isinstance(sub.slice[0].slice, cst.Slice) or sub.slice[0].slice.upper is None:
        return False
    v = _Rounds(step)
    v.walk(sub.slice[0].slice.upper)
    return v.rounds and v.mentions
