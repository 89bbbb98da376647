"""JAX402 weak-type-flip."""

from __future__ import annotations

from typing import Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.weak_types import ANY_ARRAY, KIND_NAMES, NOT_PASSED, TUPLE, Fields, Typ, item_of, literal_type, returned_type
from jaxlint.analysis.syntax.functions import single_return
from jaxlint.analysis.host.host_values import weak_value
from jaxlint.analysis.model.classes import STATIC_FIELD
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles


class WeakTypeFlip(Rule):
    """
    What it does
        Flags a jitted function called in a loop as ``x = f(x)`` when ``x`` starts as a Python
        scalar (``x = 0.0``, a parameter default, a ``NamedTuple`` field such as
        ``State(count=0)``, or an item of a tuple such as ``(0.0, 0)``) and ``f`` returns it strongly typed or with another dtype: reduced
        (``jnp.sum``, ``jnp.linalg.norm``, ``jnp.argmax``, ``cumsum``), cast (``astype``, ``jnp.asarray(x, jnp.float32)``) or mixed with a
        strongly typed array.  Results that stay weak (``x * 0.5``, ``jnp.sin(x)``,
        ``state.count + 1``) compile once and are not flagged.  A value that starts as an
        array is flagged when the result changes its dtype's kind (an ``int32`` count that
        comes back ``float32``) or makes it weakly typed (``jnp.where(c, 1.0, 0.5)``); what a
        jitted initialiser returns keeps its weak types (its Python numbers come out weakly
        typed arrays).  The same for ``nnx.jit``, and
        for ``eqx.filter_jit``, which keeps a Python scalar static: there only a result that is
        surely an array (strongly typed) is flagged.

    Why is this bad?
        ``jax.jit`` keys its cache on each argument's dtype and weak type.  A Python scalar is
        weakly typed; the function's own result is not, so the first call and the second each
        trace and compile.  In a training loop that doubles the compile time of the step.

    Example
        total = 0.0
        for batch in batches:
            total = accumulate(total, batch)   # returns total + batch.sum()

    Use instead
        Start from an array of the result's type: ``total = jnp.zeros((), jnp.float32)`` or
        ``jnp.asarray(0.0, jnp.float32)`` (``jnp.asarray(0.0)`` alone is still weakly typed).

    References
        https://docs.jax.dev/en/latest/type_promotion.html#weak-types
    """

    code = "JAX402"
    name = "weak-type-flip"
    message = "`{arg}` is {was} on the first call of {func}() and its result ({now}) on the next ones: a second compilation"
    fix = "start `{arg}` as an array of the result's dtype (`jnp.asarray(v, dtype)` or `jnp.zeros((), dtype)`)"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def accumulate(total, batch):
            return total + batch.sum()

        batches = jnp.ones((4, 3))
        total = 0.0
        for i in range(4):
            total = accumulate(total, batches[i])  # error: JAX402
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def accumulate(total, batch):
            return total + batch.sum()

        @jax.jit
        def decay(x):
            return x * 0.5

        batches = jnp.ones((4, 3))
        total = jnp.zeros((), jnp.float32)
        x = 1.0
        for i in range(4):
            total = accumulate(total, batches[i])
            x = decay(x)
        """
    ]

    def check_module(self, m):
        classes = m.analyzer.classes
        returns = {}
        for lc in m.looped_calls:
            app, statics, call, scope, order = lc.app, lc.statics, lc.call, lc.scope, lc.order
            t = app.transform
            if t.in_axes or not (t.statics or t.filtered):
                continue
            if not lc.returns_result:
                continue  # a wrapper that returns something else: the next call gets that
            # jax.jit and nnx.jit trace a Python scalar as a weakly typed array; equinox's
            # filter_jit keeps it static, so an array result is a new signature either way
            if id(app) not in returns:
                # jax.jit(jax.grad(f)) returns the gradients, not what f's body returns
                returns[id(app)] = None if app.gradient else single_return(app.func.node)
            ret = returns[id(app)]
            if ret is None:
                continue
            loop = lc.innermost
            args = list(lc.arguments())
            for a, pname in args:
                if pname is None or pname in statics or not isinstance(a.value, cst.Name):
                    continue
                name = a.value.value
                taken = _taken(scope, name, call)
                if taken is None:
                    continue
                part, width = taken
                initial = _initial_type(m, scope, name, loop, order, call, classes)
                if initial is None:
                    continue
                init, start = initial
                if t.opaque_attrs and not isinstance(init, Typ):
                    continue  # nnx.jit: attributes of an object argument may be static
                out = _output_type(m, app, ret, pname, init, args, scope, call, classes)
                if part is not None:
                    out = item_of(out, part, width)  # ``a, b = step(a, b)``: the item of the returned tuple
                change = _flip(init, out, classes, strong_only=t.filtered)
                if change is not None:
                    was, now = change
                    # start, part: what the first call gets and which part of the result the
                    # next ones get (the dynamic mode calls the function both ways)
                    m.report(self, a.value, arg=name, was=was, now=now, func=app.func.name, start=start, part=part, related=lc.related())


def _taken(scope, name: str, call) -> Optional[Tuple[Optional[int], Optional[int]]]:
    """How the assignment of ``call``'s result binds ``name``: (None, None) for the whole result
    (``x = step(x)``), (position, how many names) for an item of it (``a, b = step(a, b)``);
    None when it does not bind ``name``."""
    for b in scope.bindings.get(name, ()):
        if b.value is call:
            return None, None
        if b.unpacked is not None and b.unpacked[0] is call:
            return b.unpacked[1:]
    return None


def _initial_type(m, scope, name: str, loop, order: int, call, classes):
    """The type ``name`` has when the loop starts, if every rebinding in the loop is the call's,
    and the expression it starts as (an assigned value or a parameter's default)."""
    start, end = loop
    before = None
    for b in scope.bindings.get(name, ()):
        if b.order is None:
            return None
        if start <= b.order <= end:
            if b.order != order:
                return None
        elif b.order < start and (before is None or b.order > before.order):
            before = b
    if before is None:
        return None
    if before.kind == "param":
        return _default_type(m, scope, name)
    if before.kind != "assign":
        return None
    # what the name holds when the call is first reached, however it was bound (``state, ts =
    # env.reset(key)`` too): every later binding in the loop is the call's own
    t = weak_value(m.typed_host_values.first_value(cst.Name(name), scope, call))
    if isinstance(t, Typ) and t.kind is not None or _pytree(t, classes):
        return t, before.value
    return None


def _pytree(t, classes) -> bool:
    """A tuple, or an instance of a NamedTuple or dataclass pytree of the module: its items and
    fields are leaves (another object is no valid argument of a jitted function at all)."""
    return isinstance(t, Fields) and (t.cls is TUPLE or classes.pytree_kind(t.cls) in ("namedtuple", "dataclass"))


def _default_type(m, scope, name: str):
    """A parameter whose literal default is used: the module never calls the function, or
    calls it somewhere without that argument."""
    f = scope.func
    if f is None or isinstance(f.node, cst.Lambda):
        return None
    params = f.node.params
    plain = list(params.posonly_params) + list(params.params)
    names = [p.name.value for p in plain]
    param = next((p for p in plain + list(params.kwonly_params) if p.name.value == name), None)
    if param is None or param.default is None:
        return None
    t = literal_type(param.default)
    if t is None:
        return None
    index = names.index(name) if name in names else None
    calls = omitted = 0
    for call, _s, _o in m.index.calls:
        fn = call.func
        callee = fn.value if isinstance(fn, cst.Name) else fn.attr.value if isinstance(fn, cst.Attribute) else None
        if callee != f.name:
            continue
        calls += 1
        if any(a.star for a in call.args):
            continue
        positional = [a for a in call.args if a.keyword is None]
        by_name = any(a.keyword is not None and a.keyword.value == name for a in call.args)
        bound_self = 1 if f.is_method and isinstance(fn, cst.Attribute) else 0
        by_position = index is not None and len(positional) > index - bound_self
        omitted += not (by_name or by_position)
    return (t, param.default) if omitted or not calls else None


def _output_type(m, app, expr, pname: str, init, args, host_scope, call, classes):
    """The type of ``expr``, returned by the jitted function, when ``pname`` comes in as
    ``init`` and the other parameters as the call passes them."""
    host = m.typed_host_values
    passed = {p: a.value for a, p in args if p is not None}
    skipped = {p.name.value for p in app.func.positional_params()[: app.skipped]} | set(app.bound_kw)

    def incoming(n: str):
        if n == pname:
            return init
        if n in skipped:
            return None
        if n not in passed:
            return NOT_PASSED
        # a traced argument: an array inside, whatever its type on the host
        return weak_value(host.value(passed[n], host_scope, call)) or ANY_ARRAY

    def outer(n: str, owner):
        return weak_value(host.outer_value(n, owner))

    return returned_type(app.func, expr, incoming, outer, classes, m.finder.call_targets, m.finder.receivers)


def _describe(t: Typ) -> str:
    kind = KIND_NAMES.get(t.kind, "array")
    return f"a weakly typed {kind}" if t.weak else f"a strongly typed {kind}"


def _first(t: Typ) -> str:
    return f"a Python {KIND_NAMES[t.kind]} (weakly typed)" if t.weak and t.kind is not None else _describe(t)


def _flip(init, out, classes, strong_only: bool = False):
    """(what the first call gets, what the next ones get), or None when they are the same.
    ``strong_only``: only a strongly typed result counts (equinox's filter_jit hands a Python
    scalar result back as it is, so only a result that is surely an array changes the key)."""
    if isinstance(init, Typ):
        if isinstance(out, Typ) and _changed(init, out, strong_only):
            return _first(init), _describe(out)
        return None
    if isinstance(init, Fields):
        hit = _changed_field(init, out, classes, strong_only)
        if hit is not None:
            path, t, o = hit
            what = "a tuple" if init.cls is TUPLE else f"an instance of `{init.cls.name}`"
            return f"{what} whose `{path}` is {_first(t)}", f"`{path}` {_describe(o)}"
    return None


def _changed(t: Typ, o: Typ, strong_only: bool) -> bool:
    """The cache key of ``t`` and ``o`` differ: the weak type, or the dtype's kind."""
    if strong_only:
        return t.weak and not o.weak
    if t.weak != o.weak:
        return True
    if t.kind is not None and o.kind is not None:
        return t.kind != o.kind
    return t.kind is not None and o.least > t.kind or o.kind is not None and t.least > o.kind


def _changed_field(init: Fields, out, classes, strong_only: bool, depth: int = 0):
    """(path, first type, next type) of a leaf of ``init`` that is weakly typed and comes back
    of another type in ``out``, an instance of the same class; fields of static metadata are
    no leaves."""
    if not isinstance(out, Fields) or out.cls is not init.cls or depth > 3:
        return None
    for name, t in init.fields.items():
        if init.cls is not TUPLE and classes.field_kind(init.cls, name) == STATIC_FIELD:
            continue
        o = out.fields.get(name)
        name = f"[{name}]" if init.cls is TUPLE else name
        if isinstance(t, Typ) and isinstance(o, Typ) and _changed(t, o, strong_only):
            return name, t, o
        if _pytree(t, classes):
            inner = _changed_field(t, o, classes, strong_only, depth + 1)
            if inner is not None:
                return (f"{name}{'' if inner[0].startswith('[') else '.'}{inner[0]}",) + inner[1:]
    return None
