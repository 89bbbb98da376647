"""JAX204 changing-static-arg."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.model.classes import annotated_names, class_named
from jaxlint.analysis.facts.static_arguments import ATTRIBUTE, KEY, arguments_by_parameter, used_only_in_arithmetic
from jaxlint.analysis.host.host_value import DICT, INSTANCE, LIST, SCALAR, TUPLE
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.syntax.functions import single_return
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles
from jaxlint.analysis.syntax.nodes import simple_statements


# Wrappers of wrappers followed from the jitted call out to the call that changes the value.
WRAPPER_DEPTH = 4


class ChangingStaticArg(Rule):
    """
    What it does
        Flags a value that changes on every iteration of a loop passed for a static parameter
        of a jitted (or pmapped, ``static_broadcasted_argnums``) function inside that loop: the
        loop counter (``for step in range(1000): train(x, step)``), a variable the loop updates
        from itself (``lr = lr * 0.9``, ``n += 1``) or sets to a Python float of what it binds
        (``t0 = float(sol.ts[-1])``, read off each step's data), also when it reaches the static parameter
        through a wrapper function's parameter, or through wrappers of the wrapper; and a Python ``int`` field of an
        ``equinox.Module`` (static under ``eqx.filter_jit``) incremented on each step, or a
        Python number passed to an ``eqx.filter_jit`` function itself (it keeps every leaf that
        is no array static); and a
        loop over a literal list of different values (``for lr in (1e-2, 1e-3)``, through
        ``enumerate`` or ``zip``) when the jitted function only computes with the parameter
        (``w * (1 - lr)``), where a traced argument would compile once.  A static value the
        function tests, counts with or passes on (``for causal in (False, True)`` then ``if
        causal:``) needs a program per value, and updates under an ``if`` (a schedule that
        changes now and then) are what static arguments are for: neither is flagged.  The same
        holds of a static field of a pytree argument (``meta_fields``, ``pytree_node=False``:
        part of the treedef, compared with ``==``) that the loop draws, where every read of
        the field only computes (also of the pytrees in a list or a dict passed), and of a
        Python number in a dict item or a Module field under ``eqx.filter_jit``; and a value
        that is new on every call (``uuid.uuid4()``, ``time.time()``) made in the loop and
        passed for a static parameter is flagged whatever the function does with it.  The loop
        may be in a caller of the function that makes the jitted call, handing it the value
        (``for tol in (1e-4, 1e-3): solve(x, {"tol": tol})``, then ``Cfg(tol=opts["tol"])``
        passed to the filter-jitted function), or in a caller of a helper that builds the
        argument from its parameters.

    Why is this bad?
        Each new static value is a new cache key: JAX traces and compiles the function again
        on every iteration, which is usually slower than not using ``jit`` at all.

    Example
        step_fn = jax.jit(update, static_argnums=(1,))
        for step in range(1000):
            params = step_fn(params, step)

    Use instead
        Pass the changing value as a traced argument (drop it from ``static_argnums``) and
        branch with ``jnp.where``/``lax.cond`` if needed; keep static arguments for values that
        take a few distinct values.

    References
        https://jax.readthedocs.io/en/latest/jit-compilation.html#caching
    """

    code = "JAX204"
    name = "changing-static-arg"
    message = "{static} of {func}() gets {what}: a new compilation on every iteration"
    fix = "pass the changing value as a traced argument (drop it from static_argnums/static_argnames; keep an equinox counter as an array)"
    prevents = recompiles()
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step):
            return w * 0.99 + step

        update_jit = jax.jit(update, static_argnums=(1,))
        w = jnp.ones(3)
        lr = 0.1
        for step in range(5):
            w = update_jit(w, step)  # error: JAX204
            w = update_jit(w, lr)  # error: JAX204
            lr = lr * 0.9
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def update(w, step, mode):
            return w * 0.99 + step if mode == "sgd" else w

        update_jit = jax.jit(update, static_argnums=(2,))
        w = jnp.ones(3)
        lr = 0.1
        for step in range(5):
            w = update_jit(w, step, "sgd")
            if step % 100 == 99:
                lr = lr * 0.5
            w = update_jit(w, lr, "sgd")
        """
    ]

    def check_module(self, m):
        if not any(s.loops for _c, s, _o in m.index.calls):
            return  # nothing called in a loop
        filtered = any(a.transform.cached and a.transform.filtered for a in m.finder.applications)
        call_of = {id(a): c for c, _s, _o in m.index.calls for a in c.args}
        reported = set()
        for app, arg, pname, scope, order, _call in m.static_arguments:
            if m.finder.in_traced_code(scope):
                continue  # a loop in traced code is traced once into the outer program
            v = arg.value
            static = f"Static parameter `{pname}`" if app.transform.statics else f"Parameter `{pname}` (a Python scalar: static under `eqx.filter_jit`)"
            call = call_of.get(id(arg))
            if call is None:
                continue
            changing = _changing_name(v, call, m, app, pname)
            if changing is not None:
                m.report(self, v, static=static, func=app.func.name, what=changing[0] + changing[1])
                reported.add(id(arg))
                continue
            if isinstance(v, cst.Name):
                self._through_wrapper(m, app, pname, v.value, scope, (call,))
        if filtered:
            self._equinox_counters(m)
        self._varying_keys(m, reported)

    def _varying_keys(self, m, reported):
        """What JAX hashes of each argument of a jitted call in a loop (a static argument, the
        static metadata of a pytree: its treedef compares them with ``==``; under
        ``eqx.filter_jit``, every leaf that is no array, in a dict or a Module too), when it is
        a value that the loop makes new on every iteration: drawn by the loop, or returned by
        a call that gives a new one each time (``uuid.uuid4()``) made in the loop's body.  The
        loop may be around a call of the function that makes the jitted call, passing it the
        value (read there with the parameters bound to what that call passes)."""
        for app, statics in m.analyzer.cached_applications():
            for call, scope in m.analyzer.call_sites_with_scopes(app):
                if m.finder.in_traced_code(scope):
                    continue
                for loops, value, through in _entries(m, call, scope):
                    for a, pname in arguments_by_parameter(app, call, app.jit_positional()):
                        if pname is None or id(a) in reported:
                            continue
                        if through and pname in statics and isinstance(a.value, cst.Name) and scope.unrebound_param(a.value.value):
                            continue  # a parameter handed on as it is: reported where it is passed
                        v = value(a.value)
                        if v is None:
                            continue
                        parts = [(None, v, None)] if pname in statics else _static_parts(m, v, None, 0, app.transform.filtered)
                        for field, x, meta_of in parts:
                            why = _new_each_iteration(m, x, loops, app, pname, field)
                            if why is None:
                                continue
                            shown = m.module.code_for_node(a.value)
                            if field is None:
                                static = f"Static parameter `{pname}`" if pname in statics else f"Parameter `{pname}` (a Python scalar: static under `eqx.filter_jit`)"
                            elif meta_of is None:
                                static = f"`{field[2]}` of the `{shown}` argument (a Python scalar: static under `eqx.filter_jit`)"
                            else:
                                static = f"Static field `{field[2]}` of the `{shown}` argument (metadata of `{meta_of.name}`, part of its treedef)"
                            m.report(self, a.value, static=static, func=app.func.name, what=why + through)
                            reported.add(id(a))
                            break

    def _through_wrapper(self, m, app, pname, param, scope, chain, depth=WRAPPER_DEPTH):
        """``def train_step(x, lr): return step_jit(x, lr)`` called in a loop with a changing ``lr``,
        directly or through wrappers of the wrapper that hand their own parameter on
        (``chain``: the forwarding calls, outermost first, down to the call of the jitted
        function: the related locations)."""
        g = scope.func if scope.kind == "function" else None
        if g is None or isinstance(g.node, cst.Lambda) or m.finder.is_traced_def(g):
            return
        if not scope.unrebound_param(param):
            return
        ct = m.finder.call_targets
        # every call that reaches the wrapper: by its name, as a method or ``__call__``, through
        # an alias or a bound method (``run = Runner().apply``)
        for call, s, t in ct.callers(g):
            bound = ct.bind(t, call, s)
            passed = bound.get(param) if bound is not None else None
            if passed is None or passed.expr is None or passed.call is not call:
                continue  # not this call's argument (a partial's, a default)
            changing = _changing_name(passed.expr, call, m, app, pname)
            if changing is not None:
                what = f"{changing[0]} through {g.name}(){changing[1]}"
                related = [(c, "forwarded here") for c in chain[:-1]]
                related.append((chain[-1], f"forwarded to {app.func.name}() here"))
                m.report(
                    self, passed.expr, static=f"Static parameter `{pname}`", func=app.func.name, what=what,
                    related=related, jitted_call=chain[-1],
                )
            elif depth > 1 and isinstance(passed.expr, cst.Name):
                # the caller is a wrapper too, handing on its own parameter
                self._through_wrapper(m, app, pname, passed.expr.value, s, (call,) + chain, depth - 1)

    def _equinox_counters(self, m):
        """An ``int`` field of an equinox Module, static under ``eqx.filter_jit``, incremented in the loop."""
        classes = m.analyzer.classes
        for app in m.finder.applications:
            t = app.transform
            if not (t.cached and t.filtered):
                continue
            for call in m.analyzer.call_sites(app):
                loops = m.loop_updates.loops.get(id(call))
                if not loops:
                    continue
                for a, _pname in arguments_by_parameter(app, call, app.jit_positional()):
                    if not isinstance(a.value, cst.Name):
                        continue
                    found = _incremented_field(m, classes, a.value.value, loops[-1], call)
                    if found is not None:
                        cls, field = found
                        m.report(
                            self,
                            a.value,
                            static=f"Static field `{field}` of the `{a.value.value}` argument",
                            func=app.func.name,
                            what=f"a new value (`{cls.name}.{field}` is a Python number incremented in the loop, and `eqx.filter_jit` treats non-array fields as static)",
                        )


def _could_be_traced(app, pname: str) -> bool:
    """The jitted function only computes with the static parameter (``x * lr``): a few literal
    values for it are a compilation each that a traced argument avoids.  Used in a condition,
    a ``range`` or a call, it may need each value's own program (``for causal in (False,
    True)``), which is what static arguments are for."""
    node = getattr(app.func, "node", None)
    return isinstance(node, cst.FunctionDef) and used_only_in_arithmetic(node, pname)


def _entries(m, call, scope):
    """(the loops around, how to read an argument of ``call``, how the value gets there) for
    each way loops repeat it: the loops of its own function around it; else each call of that
    function made in a loop, its parameters bound to what that call passes."""
    loops = m.loop_updates.loops.get(id(call))
    if loops:
        yield loops, lambda e: m.host_values.value(e, scope, call), ""
        return  # (a caller's loop around one of its own is left alone: the dynamic check reruns the inner one)
    f = scope.func if scope.kind == "function" else None
    for caller, where, _t in m.finder.call_targets.callers(f) if f is not None else ():
        around = m.loop_updates.loops.get(id(caller))
        if around and not m.finder.in_traced_code(where):
            yield around, lambda e, entry=(caller, where): m.host_values.value_on_entry(e, scope, call, entry), f" (passed in by the call of {f.name}() there)"


def _static_parts(m, v, path, depth, scalars):
    """(how it is reached: (its last step's kind, name and the whole path shown), value, the
    class whose metadata it is or None) of each part of ``v`` that a jitted function's cache
    key compares: the static fields of the pytree instances in it, in lists, tuples, dicts
    and fields of other pytrees; and with ``scalars`` (``eqx.filter_jit``) every Python
    scalar there too, a leaf that is no array."""
    if v is None or depth > 3:
        return
    if v.kind == SCALAR and scalars:
        yield path, v, None
    prefix = path[2] if path else ""
    if v.kind in (LIST, TUPLE) and v.items:
        for i, x in enumerate(v.items):
            yield from _static_parts(m, x, (None, None, f"{prefix}[{i if v.kind == TUPLE else '...'}]"), depth + 1, scalars)
    elif v.kind == DICT and v.fields is not None:
        for k, x in v.fields.items():
            yield from _static_parts(m, x, (KEY, k, f"{prefix}[{k!r}]"), depth + 1, scalars)
    elif v.kind == INSTANCE and v.cls is not None and m.analyzer.classes.pytree_kind(v.cls) is not None:
        for n, x in (v.meta or {}).items():
            yield (ATTRIBUTE, n, f"{prefix}.{n}" if prefix else n), x, v.cls
        for n, x in (v.fields or {}).items():
            yield from _static_parts(m, x, (ATTRIBUTE, n, f"{prefix}.{n}" if prefix else n), depth + 1, scalars)


def _new_each_iteration(m, x, loops, app, pname, field):
    """Why the value ``x`` that a jitted call inside ``loops`` hashes is new on every iteration,
    or None.  One drawn from a literal of a few values (``for n in (3, 4, 5)``) is flagged only
    where a traced value would do: the function (for a static field: every read of the field in
    the module) only computes with it."""
    if x is None or x.varies is None:
        return None
    if x.varies in loops:
        literal = not isinstance(x.varies.iter, cst.Call)
        if literal and not (_could_be_traced(app, pname) if field is None else used_only_in_arithmetic(m.module, field[1], field[0])):
            return None
        return f"a new value on every iteration of the loop over `{m.module.code_for_node(x.varies.iter)}`"
    inner, made = m.spans.get(loops[-1]), m.spans.get(x.varies)
    if isinstance(x.varies, cst.Call) and inner is not None and made is not None and inner[0] <= made[0] <= inner[1]:
        return f"a new value on every iteration (`{m.module.code_for_node(x.varies)}` returns a new one on each call)"
    return None


def _changing_name(expr, call, m, app, pname):
    """``name``, or ``name + k``, where ``name`` changes on every iteration around ``call``."""
    core = expr
    while isinstance(core, cst.BinaryOperation) and isinstance(core.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)):
        core = core.left if isinstance(core.left, (cst.Name, cst.BinaryOperation)) else core.right
    if not isinstance(core, cst.Name):
        return None
    u = m.loop_updates.changing_at(call, core.value)
    if u is None or (u.from_literal and not _could_be_traced(app, pname)):
        return None
    if u.counter:
        return (f"the loop variable `{core.value}`" if core is expr else f"`{m.module.code_for_node(expr)}` of the loop variable `{core.value}`"), ""
    shown = m.module.code_for_node(u.statement).strip()
    return f"`{core.value}`", f", which changes on every iteration (`{shown}`)"


def _python_number_fields(classes, cls) -> dict:
    """Fields of an equinox Module annotated ``int``/``float``, with their literal defaults."""
    out = {}
    if classes.pytree_kind(cls) != "equinox":
        return out
    for c in classes.mro(cls):
        for small in annotated_names(c):
            ann = small.annotation.annotation
            if isinstance(ann, cst.Name) and ann.value in ("int", "float") and c.scope.lookup_scope(ann.value) is None:
                out.setdefault(small.target.value, small.value)
    return out


def _is_literal_number(expr) -> bool:
    if isinstance(expr, cst.UnaryOperation):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _bumps(expr, base: str, field: str) -> bool:
    """``base.field + k`` / ``base.field - k``."""
    return (
        isinstance(expr, cst.BinaryOperation)
        and isinstance(expr.operator, (cst.Add, cst.Subtract))
        and isinstance(expr.left, cst.Attribute)
        and isinstance(expr.left.value, cst.Name)
        and expr.left.value.value == base
        and expr.left.attr.value == field
    )


def _rebuilt_fields(classes, expr, base: str, scope):
    """(class, field) when ``expr`` rebuilds ``base`` with a number field bumped:
    ``Cls(..., field=base.field + 1)``, ``eqx.tree_at(lambda t: t.field, base, base.field + 1)``."""
    if not isinstance(expr, cst.Call):
        return None
    q = resolve(expr.func, scope)
    args = [a for a in expr.args if not a.star]
    if q == "equinox.tree_at" and len(args) >= 3 and isinstance(args[0].value, cst.Lambda):
        where = args[0].value.body
        if isinstance(where, cst.Attribute) and isinstance(args[1].value, cst.Name) and args[1].value.value == base:
            if _bumps(args[2].value, base, where.attr.value):
                return None, where.attr.value
        return None
    if isinstance(expr.func, cst.Name):
        cls = class_named(scope, expr.func.value)
        if cls is None:
            return None
        numbers = _python_number_fields(classes, cls)
        given = classes.constructor_arguments(cls, expr.args) or {}
        for field in numbers:
            if field in given and _bumps(given[field], base, field):
                return cls, field
    return None


def _incremented_field(m, classes, name: str, loop, call):
    """(class, field) when ``name`` starts as an equinox Module with a Python number in
    ``field`` and the loop's body rebinds it with that field incremented, directly or through
    a filter-jitted function that returns it so."""
    scope, _order = m.call_sites.sites.get(id(call), (None, None))
    if scope is None:
        return None
    bump = None
    for small in simple_statements(getattr(loop, "body", None)):
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
            continue
        t = small.targets[0].target
        if not (isinstance(t, cst.Name) and t.value == name):
            continue
        found = _rebuilt_fields(classes, small.value, name, scope)
        if found is None and isinstance(small.value, cst.Call):
            found = _bumped_by_jitted(m, classes, small.value, name)
        if found is None:
            return None  # another rebinding in the loop: cannot tell
        bump = found
    if bump is None:
        return None
    cls, field = bump
    init = _initial_number(m, classes, scope, name, field, call)
    if init is None or (cls is not None and init is not cls):
        return None
    return init, field


def _bumped_by_jitted(m, classes, value: cst.Call, name: str):
    """``model = step(model)`` where ``step``'s only return rebuilds its parameter bumped."""
    for app in m.finder.applications:
        if not (app.transform.cached and app.transform.filtered) or value not in m.analyzer.call_sites(app):
            continue
        for a, pname in arguments_by_parameter(app, value, app.jit_positional()):
            if pname is not None and isinstance(a.value, cst.Name) and a.value.value == name:
                ret = single_return(app.func.node)
                body = app.func.body_scope or app.func.scope
                if ret is not None:
                    return _rebuilt_fields(classes, ret, pname, body)
    return None


def _initial_number(m, classes, scope, name: str, field: str, call):
    """The equinox class of ``name`` when it is bound once before the loop to ``Cls(...)``
    with a number literal (given or defaulted) in ``field``."""
    order = m.call_sites.order(call)
    around = [lp for lp in scope.loops if order is not None and lp[0] <= order <= lp[1]]
    if not around:
        return None
    start = max(around)[0]
    before = [(b.order, b.value) for b in scope.bindings.get(name, ()) if b.kind == "assign" and isinstance(b.value, cst.Call) and b.order is not None and b.order < start]
    if not before:
        return None
    value = max(before, key=lambda x: x[0])[1]
    if not isinstance(value.func, cst.Name):
        return None
    cls = class_named(scope, value.func.value)
    if cls is None:
        return None
    numbers = _python_number_fields(classes, cls)
    if field not in numbers:
        return None
    given = classes.constructor_arguments(cls, value.args)
    literal = given.get(field, numbers[field]) if given is not None else None
    return cls if literal is not None and _is_literal_number(literal) else None
