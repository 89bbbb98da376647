"""Host mode's shapes: whether the shape of an array built where code runs eagerly follows a
loop's counter, so that each iteration hands a jitted function a new shape.

``jax.jit`` keys its cache on every argument's shape (and a pytree's on each leaf's), so what
matters is which values' shapes are an expression of a name that changes per iteration: an
array made with it as a size (``jnp.zeros(n)``, a NumPy sampler's ``size``), a slice bounded
by it on one side, an array indexed by such an array (``x[idx]``: the index's shape is the
result's), a list as long as a ``range`` of it or holding such arrays, and what keeps its
input's shape (a conversion, ``astype``, elementwise arithmetic with a fixed-shape operand).
A name is followed to the assignment that reaches the use.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.jax.jax_signatures import shape_args
from jaxlint.analysis.jax.numpy_random_sizes import DIMENSIONS_AS_ARGUMENTS, GENERATOR_MAKERS, SIZE_POSITION, size_argument
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in

# Functions and methods whose result has their input's shape.
SHAPE_KEEPING = frozenset(
    {m + f for m in ("jax.numpy.", "numpy.") for f in ("asarray", "array", "copy", "ascontiguousarray", "asanyarray")} | {"jax.device_put"}
)
SHAPE_KEEPING_METHODS = frozenset({"astype", "copy", "block_until_ready"})


class _Mentions(FastVisitor):
    def __init__(self, names):
        self.names = names
        self.found: Optional[str] = None

    def visit_Name(self, node: cst.Name) -> None:
        if self.found is None and node.value in self.names:
            self.found = node.value


def mentions(expr, names) -> Optional[str]:
    """The first of ``names`` that ``expr`` reads, or None."""
    if expr is None:
        return None
    v = _Mentions(names)
    v.walk(expr)
    return v.found


def shape_follows(expr, counters: set, scope, order: int, depth: int = 0) -> Optional[str]:
    """The loop counter the shape of ``expr`` depends on, or None.  A name is followed to the
    assignment that reaches ``order`` (``x = jnp.arange(n)`` then ``f(x)``), three deep."""
    if isinstance(expr, cst.Name) and depth < 3:
        b = reaching_assignment(scope, expr.value, order)
        return shape_follows(b.value, counters, scope, b.order, depth + 1) if b is not None else None
    if isinstance(expr, cst.Subscript):
        return _subscript_follows(expr, counters, scope, order, depth)
    if isinstance(expr, cst.Call):
        return _call_follows(expr, counters, scope, order, depth)
    if isinstance(expr, (cst.List, cst.Tuple)):
        # a pytree: each leaf's shape is part of the cache key
        return next((c for c in (shape_follows(e.value, counters, scope, order, depth) for e in expr.elements if not isinstance(e, cst.StarredElement)) if c), None)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return _comprehension_follows(expr, counters, scope, order, depth)
    if isinstance(expr, cst.BinaryOperation):
        return _elementwise((expr.left, expr.right), counters, scope, order, depth)
    if isinstance(expr, cst.Comparison):
        return _elementwise((expr.left, *(c.comparator for c in expr.comparisons)), counters, scope, order, depth)
    if isinstance(expr, cst.UnaryOperation):
        return shape_follows(expr.expression, counters, scope, order, depth)
    return None


def _elementwise(parts, counters: set, scope, order: int, depth: int) -> Optional[str]:
    """Broadcasting keeps a moving shape unless another operand's shape moves too (two shapes
    that move together may cancel, as a window's bounds do)."""
    moving = [c for c in (shape_follows(p, counters, scope, order, depth) for p in parts) if c]
    return moving[0] if len(moving) == 1 else None


def _subscript_follows(expr: cst.Subscript, counters: set, scope, order: int, depth: int) -> Optional[str]:
    for el in expr.slice:
        s = el.slice
        if isinstance(s, cst.Slice):
            lower, upper = follows(s.lower, counters, scope, order), follows(s.upper, counters, scope, order)
            if s.step is not None and mentions(s.step, counters):
                return mentions(s.step, counters)
            # Both bounds moving with the counter: a window, usually of fixed width.
            if (lower is None) != (upper is None):
                return lower or upper
        elif isinstance(s, cst.Index) and len(expr.slice) == 1:
            # an array index: the result has the index's shape
            found = shape_follows(s.value, counters, scope, order, depth)
            if found is not None:
                return found
    return None


def _comprehension_follows(expr, counters: set, scope, order: int, depth: int) -> Optional[str]:
    """``[f(x) for _ in range(n)]``: as long as the range; ``[jnp.zeros(n) for ...]``: leaves
    whose shape follows."""
    comp = expr.for_in
    if comp.inner_for_in is None and not comp.ifs and isinstance(comp.iter, cst.Call) and isinstance(comp.iter.func, cst.Name):
        if comp.iter.func.value == "range" and scope.lookup_scope("range") is None and comp.iter.args:
            bounds = [a.value for a in comp.iter.args[:2]]
            moving = [c for c in (follows(b, counters, scope, order) for b in bounds) if c]
            if len(moving) == 1:  # both bounds moving: a window
                return moving[0]
    return shape_follows(expr.elt, counters, scope, order, depth)


def _sampler_size(expr: cst.Call, scope, order: int):
    """The ``size`` argument of a NumPy random sampler (``np.random.choice(n, k)``,
    ``rng.normal(size=k)`` of a ``np.random.default_rng()`` / ``RandomState``), or None.
    ``rand``/``randn`` give their dimensions: the call itself."""
    func = expr.func
    if not isinstance(func, cst.Attribute):
        return None
    name = func.attr.value
    if name not in SIZE_POSITION and name not in DIMENSIONS_AS_ARGUMENTS:
        return None
    receiver = func.value
    if isinstance(receiver, cst.Name) and resolve(receiver, scope) is None:
        b = reaching_assignment(scope, receiver.value, order)
        receiver = b.value if b is not None else receiver
    made = receiver.func if isinstance(receiver, cst.Call) else None
    if resolve(receiver, scope) != "numpy.random" and (made is None or resolve(made, scope) not in GENERATOR_MAKERS):
        return None
    return size_argument(name, expr.args)


def _call_follows(expr: cst.Call, counters: set, scope, order: int, depth: int) -> Optional[str]:
    size = _sampler_size(expr, scope, order)
    if size is not None:
        return follows(size, counters, scope, order)
    q = resolve(expr.func, scope) or ""
    func = expr.func
    positional = [a.value for a in expr.args if a.keyword is None and not a.star]
    if isinstance(func, cst.Attribute) and func.attr.value in SHAPE_KEEPING_METHODS and not q:
        return shape_follows(func.value, counters, scope, order, depth)
    builtin = isinstance(func, cst.Name) and func.value in ("list", "tuple") and scope.lookup_scope(func.value) is None
    if q in SHAPE_KEEPING or builtin:
        return shape_follows(positional[0], counters, scope, order, depth) if positional else None
    # NumPy's constructors take their shapes where jax.numpy's do
    spec = shape_args("jax." + q if q.startswith("numpy.") else q)
    if not spec:
        return None
    keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    # a size given (jnp.repeat's total_repeat_length=) fixes the shape
    spec = [(k, n) for k, n, unless in spec if not any(u in keywords or p is not None and p < len(positional) for p, u in unless)]
    if q.endswith(".arange") and len(positional) >= 2:
        # arange(i, i + n) has a fixed length: only a one-sided bound changes it.
        lo, hi = mentions(positional[0], counters), mentions(positional[1], counters)
        return (lo or hi) if (lo is None) != (hi is None) else None
    args = [positional[k] if k is not None and k < len(positional) else keywords.get(n) for k, n in spec]
    found = next((c for c in (mentions(a, counters) for a in args if a is not None) if c is not None), None)
    # an input whose shape moves with the counter too may make up for it, as arange's two
    # bounds do: jnp.pad(x[:i], (0, 8 - i)) pads every prefix to one length
    shape_positions = {k for k, _ in spec}
    inputs = [a for k, a in enumerate(positional) if k not in shape_positions]
    if found is not None and any(may_follow(a, counters, scope, order, depth) for a in inputs):
        return None
    return found


def may_follow(expr, counters: set, scope, order: int, depth: int) -> bool:
    """The shape of ``expr`` may move with a loop counter: it does (``shape_follows``), or it
    is arithmetic on a value whose shape does (``jnp.eye(n) * 0.5``).  Enough to stay silent,
    not to report."""
    if isinstance(expr, cst.Name) and depth < 3:
        b = reaching_assignment(scope, expr.value, order)
        return b is not None and may_follow(b.value, counters, scope, b.order, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return may_follow(expr.left, counters, scope, order, depth) or may_follow(expr.right, counters, scope, order, depth)
    return shape_follows(expr, counters, scope, order, depth) is not None


def follows(expr, counters: set, scope, order: int, depth: int = 0) -> Optional[str]:
    """The loop counter ``expr`` mentions, directly or through the assignments of the names it
    reads, however many (``end = min(i + bs, n)``; ``start = i * bs; end = start + bs``)."""
    found = mentions(expr, counters)
    if found is not None or expr is None or depth > 3:
        return found
    for name in names_in(expr):
        b = reaching_assignment(scope, name, order)
        if b is not None:
            found = follows(b.value, counters, scope, b.order, depth + 1)
            if found is not None:
                return found
    return None


def reaching_assignment(scope, name: str, order: int):
    """The last plain assignment of ``name`` in ``scope`` before ``order``, if any."""
    best = None
    for b in scope.bindings.get(name, ()):
        if b.kind == "assign" and b.value is not None and b.order is not None and b.order < order:
            if best is None or b.order > best.order:
                best = b
    return best


# NumPy and jax.numpy functions whose result extends, or cuts, the arrays they are given.
GROWING = frozenset({"append", "concatenate", "concat", "hstack", "vstack", "row_stack", "column_stack", "pad", "insert"})
CUTTING = frozenset({"delete"})
MIXED = "mixed"  # grown and cut on the way: the length may come back to what it was


def _sources(expr, scope, out: dict, change) -> None:
    """The names whose arrays ``expr``'s shape is made from, each with how the shape changes on
    the way (+1 longer: an append, a concatenation; -1 shorter: a slice off one end, a delete;
    0 kept; MIXED both), into ``out``."""
    if isinstance(expr, cst.Name):
        before = out.get(expr.value, change)
        out[expr.value] = change if before == change else MIXED
    elif isinstance(expr, (cst.BinaryOperation, cst.Comparison)):
        parts = (expr.left, expr.right) if isinstance(expr, cst.BinaryOperation) else (expr.left, *(c.comparator for c in expr.comparisons))
        for p in parts:
            _sources(p, scope, out, change)
    elif isinstance(expr, cst.UnaryOperation):
        _sources(expr.expression, scope, out, change)
    elif isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Slice):
        s = expr.slice[0].slice
        # ``x[:-1]``, ``x[1:]``: a fixed number of rows off one end; a slice bounded by
        # anything else is not this
        fixed = [b for b in (s.lower, s.upper) if b is not None]
        if s.step is None and len(fixed) == 1 and not names_in(fixed[0]):
            _sources(expr.value, scope, out, -1 if change in (0, -1) else MIXED)
    elif isinstance(expr, cst.Call):
        q = resolve(expr.func, scope) or ""
        func = expr.func
        positional = [a.value for a in expr.args if a.keyword is None and not a.star]
        short = q.rpartition(".")[2] if q.startswith(("jax.numpy.", "numpy.")) and q.count(".") == q.startswith("jax.") + 1 else ""
        if isinstance(func, cst.Attribute) and func.attr.value in SHAPE_KEEPING_METHODS and not q:
            _sources(func.value, scope, out, change)
        elif q in SHAPE_KEEPING and positional:
            _sources(positional[0], scope, out, change)
        elif positional and (short in GROWING or short in CUTTING):
            step = 1 if short in GROWING else -1
            first = positional[0]
            for part in first.elements if isinstance(first, (cst.List, cst.Tuple)) else (first,):
                _sources(part.value if isinstance(part, cst.BaseElement) else part, scope, out, step if change in (0, step) else MIXED)


def drifting(scope, span) -> frozenset:
    """Names whose arrays change shape from one iteration of the loop ``span`` to the next: a
    name rebound in the loop to an array made from its own last value, longer (or shorter)
    on the way and never the other way round along the cycle (``proposal = np.append(heights,
    x)`` or ``heights[:-1]`` in branches, then ``heights = proposal``; but not a window,
    ``x = np.delete(x, 0)`` then ``x = np.append(x, v)``).  A binding reads a name's binding
    earlier in the body if there is one, else the last one (the iteration before); a name
    rebound from a fresh value has none, and its cycle is broken."""
    start, end = span
    inside = {}
    for name, binds in scope.bindings.items():
        kept = sorted((b for b in binds if b.order is not None and start < b.order <= end), key=lambda b: b.order)
        if kept and all(b.kind == "assign" and b.value is not None for b in kept):
            inside[name] = kept
    edges = []  # (reader, read, change) between (name, order) bindings
    for name, binds in inside.items():
        for b in binds:
            made: dict = {}
            _sources(b.value, scope, made, 0)
            for m, change in made.items():
                if m not in inside or change == MIXED:
                    continue
                earlier = [x for x in inside[m] if x.order < b.order]
                for x in earlier or inside[m][-1:]:
                    edges.append(((name, b.order), (m, x.order), change))
    out = set()
    for direction in (1, -1):
        allowed = [(u, v, c) for u, v, c in edges if c in (0, direction)]
        succ: dict = {}
        for u, v, _c in allowed:
            succ.setdefault(u, []).append(v)
        for u, v, c in allowed:
            if c == direction and _reaches(succ, v, u):
                out.add(u[0])
                out.add(v[0])
    return frozenset(out)


def _reaches(succ: dict, frm, to) -> bool:
    seen, todo = set(), [frm]
    while todo:
        n = todo.pop()
        if n == to:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(succ.get(n, ()))
    return False


def drifting_source(expr, scope, drift: frozenset) -> Optional[str]:
    """The name of ``drift`` (``drifting``) that ``expr``'s shape is made from, or None."""
    if not drift:
        return None
    out: dict = {}
    _sources(expr, scope, out, 0)
    return next((n for n in out if n in drift), None)


def takes_distinct_sizes(expr, scope) -> bool:
    """``expr`` (or a name bound once to it) is a list or tuple of integers of which two surely
    differ: literals (``[8, 16]``), module constants (``[N, 2 * N]`` with ``N = 4``), or the
    same unknown integer at different offsets (``[ndev, ndev + 1]``, whatever ``ndev`` is).
    A loop over it hands each iteration another value."""
    if isinstance(expr, cst.Name):
        found = scope.sole_binding(expr.value, mutable=True)
        if found is None:
            return False
        expr = found[0]
    if not isinstance(expr, (cst.List, cst.Tuple)) or any(isinstance(e, cst.StarredElement) for e in expr.elements):
        return False
    forms = [_linear(e.value, scope, 0) for e in expr.elements]
    if any(f is None for f in forms):
        return False
    # two values differ for every value of their unknown when they are the same multiple of it
    # at different offsets (two known integers: the unknown's multiple is 0)
    seen = {}
    for symbol, coef, const in forms:
        seen.setdefault((symbol, coef), set()).add(const)
    return any(len(consts) > 1 for consts in seen.values())


def _linear(e, scope, depth: int):
    """``e`` as (unknown, multiple, offset): an integer literal is (None, 0, value); a name not
    bound once to such an expression is itself the unknown; ``+``, ``-`` and a product with a
    known integer combine them.  None for anything else (two unknowns, a float, a call)."""
    if isinstance(e, cst.Integer):
        return None, 0, e.evaluated_value
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        inner = _linear(e.expression, scope, depth)
        return (inner[0], -inner[1], -inner[2]) if inner is not None else None
    if isinstance(e, cst.Name):
        found = scope.sole_binding(e.value, mutable=True) if depth < 3 else None
        known = _linear(*found, depth + 1) if found is not None else None
        return known if known is not None else (e.value, 1, 0)
    if isinstance(e, cst.BinaryOperation):
        left, right = _linear(e.left, scope, depth), _linear(e.right, scope, depth)
        if left is None or right is None:
            return None
        if isinstance(e.operator, (cst.Add, cst.Subtract)):
            sign = 1 if isinstance(e.operator, cst.Add) else -1
            if left[0] is not None and right[0] is not None and left[0] != right[0]:
                return None
            return left[0] or right[0], left[1] + sign * right[1], left[2] + sign * right[2]
        if isinstance(e.operator, cst.Multiply):
            known, other = (left, right) if left[1] == 0 else (right, left) if right[1] == 0 else (None, None)
            if known is None:
                return None
            return other[0], other[1] * known[2], other[2] * known[2]
    return None
