"""JAX3xx: values and effects frozen at trace time.

``jax.jit`` runs the Python function once per input signature and replays the compiled result.
Everything the Python code read from outside its arguments is baked in as a constant, and every
side effect happens once, while tracing.  References: JAX docs, "JIT mechanics: tracing and
static variables" and "Pure functions" in "Common gotchas".
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.scopes import CONTAINER_CTORS, MUTATING_METHODS, VALUE_KINDS, Scope
from jaxlint.analysis.jax_api import STATIC_FUNCS
from jaxlint.analysis.values import DICT, OPAQUE, PYSEQ, REF, TEXT, TRACED
from jaxlint.analysis.transforms import resolve
from jaxlint.fixes.at_update import at_update_fix
from jaxlint.fixes.debug_print import debug_print_call
from jaxlint.fixes.declare import SAFE, replace
from jaxlint.fixes.names import module_reference
from jaxlint.rules.base import Rule


def _is_container_value(expr, scope: Scope) -> bool:
    if isinstance(expr, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Name) and scope.lookup_scope(expr.func.value) is None:
            return expr.func.value in ("list", "dict", "set")
        q = resolve(expr.func, scope)
        return q in CONTAINER_CTORS
    return False


def _all_container_bindings(owner: Scope, name: str) -> bool:
    binds = [b for b in owner.bindings.get(name, ()) if b.kind in VALUE_KINDS]
    return bool(binds) and all(b.value is not None and _is_container_value(b.value, owner) for b in binds)


class _TracedCallables:
    """Which calls, made in a scope, run a cached (jitted) traced function."""

    def __init__(self, m):
        self.finder = m.finder
        self.index = m.index
        self.reach: dict = {}

    def cached_def(self, f) -> bool:
        return any(a.transform.cached for a in self.finder.by_func.get(id(f.node), ()))

    def runs_traced(self, func_expr, scope: Scope, depth: int = 0) -> bool:
        if isinstance(func_expr, cst.Call):
            # jax.jit(f)(x)
            return any(a.site is func_expr and a.transform.cached for a in self.finder.applications)
        if not isinstance(func_expr, cst.Name):
            return False
        name = func_expr.value
        owner = scope.lookup_scope(name)
        if owner is None:
            return False
        app = self.finder.aliases.get((id(owner), name))
        if app is not None and app.transform.cached:
            return True
        f = owner.defs.get(name)
        if f is None:
            return False
        if self.cached_def(f):
            return True
        return depth < 4 and self.reaches(f, depth + 1)

    def reaches(self, f, depth: int) -> bool:
        key = id(f.node)
        if key in self.reach:
            return self.reach[key]
        self.reach[key] = False  # recursion guard
        body = f.body_scope
        r = body is not None and any(self.runs_traced(fx, body, depth) for fx, _ in body.calls)
        self.reach[key] = r
        return r

    def call_orders(self, scope: Scope):
        return [o for fx, o in scope.calls if self.runs_traced(fx, scope)]


def is_rebound(m, owner: Scope, name: str, attr: Optional[str] = None) -> bool:
    """Is ``name`` (bound in ``owner``) rebound or mutated after a traced function could have run?

    ``attr``: the read is ``name.attr``; then setting another attribute (``FLAGS.verbose = 1``)
    does not change what was read."""
    cache = m.cache.setdefault("rebound", {})
    key = (id(owner), name, attr)
    if key in cache:
        return cache[key]
    tc = m.cache.get("traced_callables")
    if tc is None:
        tc = m.cache["traced_callables"] = _TracedCallables(m)
    binds = [b for b in owner.bindings.get(name, ()) if b.kind in VALUE_KINDS]
    muts = owner.mutations.get(name, [])
    containers = _all_container_bindings(owner, name)
    # Mutations made inside traced functions are JAX303's business, not a rebinding between calls.
    muts = [
        o
        for o, kind, where in muts
        if (kind == "store" or kind.startswith("attr:") and attr in (None, kind[5:]) or kind == "method" and containers)
        and not (where.func is not None and tc.finder.is_traced_def(where.func))
    ]
    result = False
    if any(b.order is None for b in binds) or any(o is None for o in muts):
        result = True  # written from another function, at any time
    else:
        writes = sorted([b.order for b in binds] + muts)
        if len(writes) > 1 or muts:
            calls = tc.call_orders(owner)
            if calls:
                first = min(calls)
                first_write = writes[0]
                later = [w for w in writes if w > first and (muts or w != first_write)]
                if later:
                    result = True
                else:
                    for start, end in owner.loops:
                        if any(start <= w <= end for w in writes) and any(start <= c <= end for c in calls):
                            result = True
                            break
    cache[key] = result
    if result:
        m.cache.setdefault("rebound-witness", {})[key] = _rebinding_witness(binds)
    return result


def _rebinding_witness(binds) -> Optional[cst.CSTNode]:
    """The value of a rebinding that is not the first assignment (the place a reader should
    look at), when the scope facts hold one; None when only mutations change the name."""
    ordered = sorted(binds, key=lambda b: (b.order is None, b.order if b.order is not None else 0))
    for b in ordered[1:] if len(ordered) > 1 else [b for b in ordered if b.order is None]:
        if b.value is not None:
            return b.value
    return None


class FrozenCapture(Rule):
    """
    What it does
        Flags a global or closure variable read inside a jitted function when the variable is
        rebound or mutated elsewhere after the function may have been traced (reassigned at module
        level after a call, written through ``global``/``nonlocal``, mutated with ``.append``,
        ``[k] = v``, ``.attr = v``).

    Why is this bad?
        The value is read once, at trace time, and baked into the compiled function as a
        constant.  Later changes are silently ignored while shapes and dtypes of the arguments
        stay the same: the learning-rate schedule that never decays.

    Example
        lr = 0.1

        @jax.jit
        def step(w, g):
            return w - lr * g

        step(w, g)
        lr = 0.01   # step still uses 0.1

    Use instead
        Pass the value as an argument: ``def step(w, g, lr)``.  A module constant that is never
        rebound is fine and is not flagged.

    References
        https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions
    """

    code = "JAX301"
    name = "frozen-capture"
    message = "`{var}` is read by {where} but changed elsewhere; the value seen at trace time is frozen into the compiled function"
    fix = "pass `{var}` as an argument (or make it static if it is configuration) so that changes take effect"
    prevents = "stale values silently baked into the compiled function"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        lr = 0.1

        @jax.jit
        def step(w, g):
            return w - lr * g  # error: JAX301

        w = step(jnp.ones(3), jnp.ones(3))
        lr = 0.01
        w = step(w, jnp.ones(3))
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        LR = 0.1

        @jax.jit
        def step(w, g, lr):
            return w - lr * g * LR

        w = step(jnp.ones(3), jnp.ones(3), 0.1)
        w = step(w, jnp.ones(3), 0.01)
        """
    ]

    def on_capture(self, ctx, node, name, owner, attr):
        if not ctx.cached or name in ctx.frame.declared:
            return
        seen = ctx.analyzer.cache.setdefault("301-seen", set())
        key = (id(ctx.func.node), name)
        if key in seen:
            return
        if is_rebound(ctx.analyzer.module_ctx, owner, name, attr):
            seen.add(key)
            witness = ctx.analyzer.module_ctx.cache.get("rebound-witness", {}).get((id(owner), name, attr))
            related = [(witness, f"`{name}` gets a new value here")] if witness is not None else []
            ctx.report(self, node, var=name, related=related)


class PrintInTraced(Rule):
    """
    What it does
        Flags ``print()`` of a traced value inside a traced function.

    Why is this bad?
        ``print`` runs while JAX traces: it shows ``Traced<ShapedArray(...)>`` instead of
        numbers, and under ``jax.jit`` it runs only when the function is (re)compiled, not on
        every call.

    Example
        @jax.jit
        def f(x):
            print("x =", x)
            return x * 2

    Use instead
        ``jax.debug.print("x = {}", x)`` prints the runtime value on every call.

    References
        https://jax.readthedocs.io/en/latest/debugging/print_breakpoint.html
    """

    code = "JAX302"
    name = "print-in-traced"
    message = "`print()` of traced value `{var}` in {where} runs only while tracing and shows a tracer, not its value"
    fix = 'use jax.debug.print("... {{}}", {var}) to print the runtime value on every call'
    prevents = "debug output that shows tracers and disappears after the first call"
    fix_safety = "safe"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def f(x):
            print("tracing with", x)  # error: JAX302
            return x * 2

        f_jit = jax.jit(f)
        f_jit(jnp.array([1.0, 2.0, 3.0]))
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def f(x):
            print("compiling f for shape", x.shape)
            jax.debug.print("x = {}", x)
            return x * 2
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if q != "builtins.print" or not ctx.frame.entry.transform.effects:
            return
        for a, v in argvals:
            if a.keyword is None and (v.kind == TRACED or v.flags & TEXT):
                text, fix = _debug_print_fix(ctx, node)
                ctx.report(self, node, var=v.name or a.value, suggestion=text, autofix=fix)
                return


def _debug_print_fix(ctx, node: cst.Call):
    """(suggestion text, Fix) for ``print(...)`` -> ``jax.debug.print(...)``, or (None, None)."""
    ref = module_reference(ctx.frame.scope, "jax", "jax")
    if ref is None:
        return None, None
    text = debug_print_call(node, ref[0])
    if text is None:
        return None, None
    return text, replace(node, text, f"Replace with `{ref[0]}.debug.print`", SAFE, ref[1])


class OuterStateMutation(Rule):
    """
    What it does
        Flags writes to state outside a traced function: assignment to a ``global`` or
        ``nonlocal`` name, ``.append``/``.update``/``[k] = v``/``.attr = v`` on a global or
        closure container, and ``self.attr = ...`` in a traced method.

    Why is this bad?
        The write happens once per trace, not once per call: counters stop counting, logs stay
        empty after the first call, and the stored values are tracers that leak out of the
        transformation (``UnexpectedTracerError`` when used later).

    Example
        history = []

        @jax.jit
        def step(x):
            history.append(x)
            return x * 2

    Use instead
        Return the new state from the function and keep it in the caller
        (``x, history_item = step(x)``); use ``jax.debug.callback`` for genuine side effects.

    References
        https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions
    """

    code = "JAX303"
    name = "outer-state-mutation"
    message = "{what} in {where} runs once per trace, not once per call"
    fix = "return the new value from the function instead of mutating outer state; use jax.debug.callback for real side effects"
    prevents = "side effects lost after the first call; leaked tracers (UnexpectedTracerError)"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        history = []
        calls = 0

        @jax.jit
        def step(x):
            global calls
            calls += 1  # error: JAX303
            history.append(x)  # error: JAX303
            return x * 2

        step(jnp.ones(3))
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def step(x):
            parts = []
            for i in range(3):
                parts.append(x * i)
            return jnp.stack(parts)
        """
    ]

    def on_name_write(self, ctx, target, name, v, stmt):
        if not ctx.frame.entry.transform.effects:
            return
        kind = "nonlocal" if self._is_nonlocal(ctx, name) else "global"
        ctx.report(self, stmt, what=f"Assignment to {kind} `{name}`")

    @staticmethod
    def _is_nonlocal(ctx, name):
        body = ctx.func.body_scope
        return body is not None and name in body.nonlocals

    def _outer(self, ctx, name: str) -> Optional[Scope]:
        if ctx.is_local(name):
            return None
        if ctx.frame.lookup(name) is not None:
            return None
        owner = ctx.frame.scope.lookup_scope(name)
        if owner is None or owner is ctx.frame.scope:
            return None
        binds = owner.bindings.get(name, ())
        if not any(b.kind in VALUE_KINDS for b in binds):
            return None
        return owner

    def on_method(self, ctx, node, base, meth, argvals):
        # Recording static facts at trace time (shapes, names) is deliberate and harmless;
        # storing a tracer outside is the bug (it leaks, and it happens once per trace).
        if meth not in MUTATING_METHODS or not ctx.frame.entry.transform.effects:
            return
        if not any(v.kind == TRACED for _, v in argvals):
            return
        obj = node.func.value
        if isinstance(obj, cst.Name):
            owner = self._outer(ctx, obj.value)
            if owner is not None and _all_container_bindings(owner, obj.value):
                ctx.report(self, node, what=f"`{obj.value}.{meth}()` on outer `{obj.value}`")
        elif (
            isinstance(obj, cst.Attribute)
            and isinstance(obj.value, cst.Name)
            and self._is_self(ctx, obj.value.value)
            and meth in ("append", "extend", "insert", "appendleft")
        ):
            ctx.report(self, node, what=f"`self.{obj.attr.value}.{meth}()`")

    @staticmethod
    def _is_self(ctx, name: str) -> bool:
        f = ctx.func
        if f.is_lambda or not f.is_method:
            return False
        pos = f.positional_params()
        return bool(pos) and pos[0].name.value == name and ctx.frame.lookup(name) is not None

    def on_store(self, ctx, kind, target, base, idx, v, stmt, aug):
        obj = target.value
        if not isinstance(obj, cst.Name) or not ctx.frame.entry.transform.effects:
            return
        name = obj.value
        if kind == "attr" and self._is_self(ctx, name):
            if ctx.frame.entry.transform.opaque_attrs:
                return  # nnx modules carry mutable state through nnx transforms by design
            ctx.report(self, stmt, what=f"`self.{target.attr.value} = ...`")
            return
        owner = self._outer(ctx, name)
        if owner is None or v.kind != TRACED:
            return
        if kind == "attr":
            ctx.report(self, stmt, what=f"Attribute assignment on outer `{name}`")
        else:
            ctx.report(self, stmt, what=f"Item assignment into outer `{name}`")


_ARRAY_MAKER_PREFIXES = ("jax.numpy.", "jax.random.")


def _is_jax_array_expr(expr, scope: Scope) -> bool:
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q is None:
            # x.at[i].set(v) keeps it a JAX array
            f = expr.func
            return (
                isinstance(f, cst.Attribute)
                and f.attr.value in ("set", "add", "multiply", "divide", "min", "max", "power")
                and isinstance(f.value, cst.Subscript)
                and isinstance(f.value.value, cst.Attribute)
                and f.value.value.attr.value == "at"
            )
        if q in STATIC_FUNCS or not q.startswith(_ARRAY_MAKER_PREFIXES):
            return False
        last = q.rsplit(".", 1)[-1]
        return last[:1].islower() and last not in ("PRNGKey", "key", "split", "fold_in", "key_data")
    return False


class InplaceArrayUpdate(Rule):
    """
    What it does
        Flags ``x[i] = v`` and ``x[i] += v`` where ``x`` is a JAX array: a traced value inside a
        traced function, or a variable bound only to ``jnp.*`` results anywhere.

    Why is this bad?
        JAX arrays are immutable: ``TypeError: JAX arrays are immutable and do not support
        in-place item assignment``.

    Example
        x = jnp.zeros(3)
        x[0] = 1.0

    Use instead
        ``x = x.at[0].set(1.0)`` (``.add``, ``.multiply``, ``.min``, ``.max`` for the others).

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.ndarray.at.html
    """

    code = "JAX304"
    name = "inplace-array-update"
    message = "In-place update of JAX array `{var}`; JAX arrays are immutable"
    fix = "use `{var} = {var}.at[...].{method}(...)` instead"
    prevents = "TypeError: JAX arrays are immutable and do not support in-place item assignment"
    fix_safety = "safe"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def bump(x):
            x[0] = 1.0  # error: JAX304
            return x

        buf = jnp.zeros(4)
        buf[1] += 2.0  # error: JAX304
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        @jax.jit
        def bump(x, d):
            d["seen"] = x
            x = x.at[0].set(1.0)
            return x

        buf = np.zeros(4)
        buf[1] += 2.0
        """
    ]

    def on_store(self, ctx, kind, target, base, idx, v, stmt, aug):
        if kind != "subscript" or base.kind != TRACED or base.flags & (DICT | PYSEQ | OPAQUE | REF):
            return
        if len(target.slice) == 1:
            sl = target.slice[0].slice
            if isinstance(sl, cst.Index) and isinstance(sl.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                return  # a dict pytree
        var = cst.Module([]).code_for_node(target.value)
        local = isinstance(target.value, cst.Name) and ctx.is_local(target.value.value)
        ctx.report(self, stmt, var=var, method=_at_method(stmt), autofix=at_update_fix(stmt) if local else None)

    def check_module(self, m):
        for target, stmt, scope, aug in m.index.subscript_stores:
            obj = target.value
            if not isinstance(obj, cst.Name) or stmt is None:
                continue
            binds = scope.bindings.get(obj.value, ())
            if not binds:
                continue
            ok = True
            for b in binds:
                if b.kind == "param":
                    ok = False
                    break
                if b.kind != "assign" or b.value is None or not _is_jax_array_expr(b.value, scope):
                    ok = False
                    break
            if ok:
                small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else stmt
                m.report(self, small, var=obj.value, method=_at_method(small), autofix=at_update_fix(small))


def _at_method(stmt) -> str:
    if isinstance(stmt, cst.AugAssign):
        op = type(stmt.operator).__name__
        return {"AddAssign": "add", "SubtractAssign": "subtract", "MultiplyAssign": "multiply", "DivideAssign": "divide", "PowerAssign": "power"}.get(op, "set")
    return "set"


_RANDOM_CLOCK_PREFIXES = ("random.", "numpy.random.")
_RANDOM_OK = frozenset(
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
    }
)
_CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "uuid.uuid4",
        "os.urandom",
    }
)


class TraceTimeRandomness(Rule):
    """
    What it does
        Flags Python or NumPy randomness (``random.random()``, ``np.random.normal()``) and clock
        reads (``time.time()``) inside a traced function.

    Why is this bad?
        They run once, at trace time; the compiled function replays the same "random" number
        or timestamp on every call.

    Example
        @jax.jit
        def noisy(x):
            return x + np.random.normal()

    Use instead
        ``jax.random`` with a key passed in as an argument
        (``x + jax.random.normal(key, x.shape)``); pass timestamps as arguments.

    References
        https://jax.readthedocs.io/en/latest/random-numbers.html
    """

    code = "JAX306"
    name = "trace-time-randomness"
    message = "`{func}()` in {where} is evaluated once at trace time; every call reuses the same value"
    fix = "use jax.random with a key passed as an argument; pass times and other host values as arguments"
    prevents = "the same random number or timestamp replayed on every call"
    bad = [
        """
        import jax
        import numpy as np

        @jax.jit
        def noisy(x):
            return x + np.random.normal()  # error: JAX306
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def noisy(x, key):
            return x + jax.random.normal(key, x.shape)
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if not ctx.frame.entry.transform.effects:
            return
        if q in _CLOCKS or (q.startswith(_RANDOM_CLOCK_PREFIXES) and q not in _RANDOM_OK):
            short = q.replace("numpy.", "np.")
            ctx.report(self, node, func=short)
