"""JAX401 jit-of-fresh-function."""

from __future__ import annotations

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis import facts
from jaxlint.analysis.syntax.memo_guards import memoised
from jaxlint.analysis.facts.fresh_callables import FILTERED, GRAPH, TREE_PARTIAL, built_anew, built_anew_for_slot, callable_slots, made_anew, made_by_def, reads_loop_variables, repetition
from jaxlint.analysis.syntax.fast_walk import names_in
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.syntax.statement_paths import block_key, scope_body, statement_path
from jaxlint.analysis.model.attribute_values import attribute_values
from jaxlint.analysis.model.names import decorator_name, resolve

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import recompiles

# The fix builders (jaxlint.fixes) are imported where a finding is made: a clean run does not
# load the fix machinery.


# The setup of the second pair of examples: a callable passed to a filtered jit and to a static
# parameter, built anew in the loop (flagged) or once (not flagged).
_TRAIN_STEP = """
        import functools
        import equinox as eqx
        import jax
        import jax.numpy as jnp

        @eqx.filter_jit
        def train_step(w, x, loss_fn):
            return w - 0.1 * jax.grad(loss_fn)(w, x)

        def loss(w, x, reg):
            return ((w * x) ** 2).sum() + reg * (w**2).sum()

        evaluate = jax.jit(lambda w, x, reduce: reduce(w * x), static_argnums=2)
"""


class JitOfFreshFunction(Rule):
    """
    What it does
        Flags ``jax.jit`` applied to a callable that is a new object every time it runs, and
        used right away: a lambda, a ``functools.partial``, a ``jax.grad``/``jax.vmap``
        result, a bound method (``jax.jit(self.apply)``: every attribute access binds a new
        method object) or a function defined in the loop, jitted (by call or ``@jax.jit``) and called
        inside a loop; the same (or a nested ``def``) jitted and called in a function that is
        itself called in a loop, or stored on ``self`` there and called by the class's methods
        (``self._step = jax.jit(self._apply)`` in an ``__init__`` of a class built in a loop); a name bound to one of these there
        (``grad_fn = jax.value_and_grad(loss_fn)``, then ``jax.jit(grad_fn)``).  Also a value
        that compares by identity, built anew in such a place (directly, or bound to a name
        there, also before a loop of a function that runs in a loop) for a static slot: a
        lambda or ``partial`` object, an optax optimiser (a tuple of new closures), an
        instance of a class of the module without ``__eq__`` or ``__hash__``, an instance of
        a class hashed by its fields that holds one of these (given to it directly, or bound
        to a name right before; one its own ``__init__`` converts first is not held as it is),
        or any of these returned by a function of the module (its nested ``def`` is a new
        function on each call), or read from an attribute of ``self`` that a method runs again
        and again stores such an object in.  A static slot is a static parameter, any argument of an
        ``eqx.filter_jit`` function (a callable is not an array, so it is static there), the
        function of a ``jax.tree_util.Partial`` (static treedef data; its arguments are
        leaves), or the optax transformation of an ``nnx.Optimizer`` passed to an ``nnx.jit``
        function (a static attribute of its graph definition); and the same
        ``partial(...)`` or lambda written out at two calls in a row of one body, which compile
        twice.  A nested ``def`` passed for a static slot is one of these too, also when the
        function making the jitted call receives it from a caller that builds it anew (it is
        reported where that caller passes it); so is a conditional expression with such a
        branch (``fn if fn else (lambda x: x)``).  A function runs again and again when it is
        called in a loop, twice in one block of statements, or from a function that does; a
        jitted function made before a loop of such a function is new on each of its calls.  It
        is a needless compilation only when one jit made outside the repetition would hit its
        cache: a callable that reads a value the loop changes as configuration (a count, a
        string, a path, a preset: anything but data, which is a JAX array of a shape the loop
        does not change, or a float) is a different program in each iteration and is not
        flagged, also when the loop is in a caller and the value reaches the callable through
        the parameters of the functions on the way; an outer loop around an inner one that
        walks the same configurations each time repeats their programs.  Not flagged either: a
        callable built where a lookup of a memo missed and stored there (``if self._fn is None:
        self._fn = self._build()``: built once per entry), or built by a call made only when a
        test reads the attribute it is kept in, nor two different callables.  JAX compiles when
        the jitted object is called: the finding is at its first call there (a call by name, a
        ``lax.fori_loop`` / ``scan`` / ``while_loop`` / ``cond`` it is handed to, or a call
        through the attribute of ``self`` it is stored in), with the ``jax.jit`` (or decorator)
        that made it as the related location; for a static slot, at the call that gets the new
        callable, with the callable as the related location.

    Why is this bad?
        JAX caches compilations by function object, and static arguments by hash and
        equality; lambdas, partial objects and bound methods compare by identity.  A new one
        each time means every call traces and compiles again.

    Example
        def predict(params, x):
            return jax.jit(lambda p, v: p @ v)(params, x)

        for batch in batches:
            loss = jax.jit(partial(loss_fn, model))(params, batch)

    Use instead
        Build the function and jit it once, at module level, in ``__init__`` or before the
        loop, and call the jitted function; pass one callable object for a static parameter.

    References
        https://docs.jax.dev/en/latest/jit-compilation.html#caching
    """

    code = "JAX401"
    name = "jit-of-fresh-function"
    message = "{subject} compiles again every time this runs{detail}"
    fix_safety = "unsafe"
    fix = "build the function and jit it once (at module level, in __init__, or before the loop) and reuse the jitted function"
    prevents = recompiles()
    bad = [
        """
        import functools
        import jax
        import jax.numpy as jnp

        def predict(params, x):
            return jax.jit(lambda p, v: p @ v)(params, x)  # error: JAX401

        def loss(w, v):
            return (w * v).sum()

        xs = jnp.ones((3, 2))
        for i in range(3):
            double = jax.jit(lambda v: v * 2)
            double(xs[i])  # error: JAX401
            predict(xs, xs[i])
            jax.jit(functools.partial(loss, xs[0]))(xs[i])  # error: JAX401
            jax.jit(jax.grad(loss))(xs[0], xs[i])  # error: JAX401
        """,
        _TRAIN_STEP
        + """
        w = jnp.ones(2)
        for x in jnp.ones((3, 2)):
            w = train_step(w, x, functools.partial(loss, reg=1e-4))  # error: JAX401
        first = evaluate(w, w, functools.partial(jnp.mean, axis=0))
        second = evaluate(w, w, functools.partial(jnp.mean, axis=0))  # error: JAX401

        def fit(w, xs):
            reduce_fn = make_reducer(0)
            for x in xs:
                w = evaluate(w, x, reduce_fn)  # error: JAX401
            return w

        def make_reducer(axis):
            def reduce_fn(v):
                return v.sum(axis)

            return reduce_fn

        for epoch in range(3):
            w = fit(w, jnp.ones((4, 2)))
        """,
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        matvec = jax.jit(lambda p, v: p @ v)

        def predict(params, x):
            return matvec(params, x)

        def scale(v):
            return v * 2

        xs = jnp.ones((3, 2))
        for i in range(3):
            jax.jit(scale)(xs[i])

        def setup_once(x):
            return jax.jit(lambda v: v + 1)(x)

        table = {n: jax.jit(lambda v, n=n: v * n) for n in range(3)}
        fns = []
        for n in range(3):
            fns.append(jax.jit(lambda v, n=n: v * n))
        """,
        _TRAIN_STEP
        + """
        w = jnp.ones(2)
        loss_fn = functools.partial(loss, reg=1e-4)
        for x in jnp.ones((3, 2)):
            w = train_step(w, x, loss_fn)
        per_feature = evaluate(w, w, functools.partial(jnp.mean, axis=0))
        overall = evaluate(w, w, functools.partial(jnp.mean, axis=None))

        import dataclasses

        @dataclasses.dataclass(frozen=True)
        class SumOver:
            axis: int

            def __call__(self, v):
                return v.sum(self.axis)

        def fit(w, xs):
            reduce_fn = SumOver(0)  # equal instances: one cache entry
            for x in xs:
                w = evaluate(w, x, reduce_fn)
            return w

        for epoch in range(3):
            w = fit(w, jnp.ones((4, 2)))
        """,
    ]

    def check_module(self, m):
        for call, scope, order in m.index.calls:
            fn_expr = call.args[0].value if call.args and call.args[0].keyword is None else None
            if fn_expr is None:
                continue
            found = m.finder.transform_of(call.func, scope)
            api = resolve(call.func, scope) or "jax.jit"
            if found is None:
                # a function that hands what it is given to a jit (``def maybe_jit(fn):
                # return jax.jit(fn)``) jits it anew at each of its calls
                app = m.finder.call_targets.app_at(call)
                ref = m.finder.resolve_fn(fn_expr, scope) if app is not None and app.transform.cached else None
                if ref is None or ref.func is not app.func:
                    continue  # no such function, or it jits another of its arguments
                api = dotted_name(call.func) or api
            elif not found[0].cached or found[1]:
                continue
            if m.finder.in_traced_code(scope):
                continue  # a loop inside a traced function runs only while that one is traced
            rewraps = api in REWRAPPING_JITS
            made = made_anew(m, fn_expr, scope, order, (lambda e, s: built_anew(m, e, s) or _rewrapped(e)) if rewraps else None)
            if made is not None:
                names = {n for n, binds in scope.bindings.items() for b in binds if b.value is call}
                at_once = m.call_sites.is_called_at_once(call)
                self._check_made(m, call, scope, order, api, made, names, at_once, fn_expr, "" if rewraps else " created in a loop")
        self._check_decorated_defs(m)
        self._check_static_callables(m)

    def _check_decorated_defs(self, m):
        """``@jax.jit`` on a ``def`` that runs again and again: inside a function called in a
        loop, or inside a loop, and called right there.  Each run makes a new function object,
        and JAX caches compilations by function object."""
        for app in m.finder.applications:
            f, site = app.func, app.site
            if not isinstance(site, cst.Decorator) or not app.transform.cached or f.is_lambda:
                continue
            scope = f.scope
            if scope.kind not in ("function", "module") or m.finder.in_traced_code(scope) or scope.lookup_def(f.name) is not f:
                continue
            made = made_by_def(f)
            api = decorator_name(site.decorator, scope) or "jax.jit"
            self._check_made(m, site, scope, f.order, api, made, {f.name}, subject=f"`{api}` of {made.what}")

    def _check_made(self, m, site, scope, order, api, made, names, at_once=False, fn_expr=None, in_loop=" created in a loop", subject=None) -> None:
        """The jit at ``site`` (``jax.jit(...)`` or a decorator, at ``order`` of ``scope``) of
        the callable ``made``, its result bound to ``names`` (or called ``at_once``): report it
        when ``made`` is new in every iteration of a loop around the jit, or on every call of
        the function around it that runs again and again, and the jitted object is called
        there.  A jit run only when a lookup of a memo missed runs once per entry."""
        loops = [(start, end) for start, end in scope.loops if start <= order <= end]
        # made anew in each iteration of a loop around the jit; else, made before the loop,
        # it is still new on each call of the function around it (below)
        loop = max((lp for lp in loops if lp[0] <= made.order <= lp[1]), default=None)
        if loop is not None:
            if reads_loop_variables(m, made.reads, scope, loop):
                # Each iteration jits a different program (it reads the loop's variables): a
                # compilation per iteration is what the code asks for.
                return
            # Only when the jitted function is used right there, in the same iteration; a
            # loop that builds a table of jitted functions compiles each one once.
            at, fields = (site, {}) if at_once else self._first_call(m, site, scope, names, loops[-1])
            if at is site and not at_once or memoised(m, site, scope, order):
                return
            fresh = "function defined inside the loop" if isinstance(made.node, cst.FunctionDef) else made.what + in_loop
            m.report(self, at, subject=f"`{api}` of a {fresh}", detail="", autofix=self._hoist(m, site, scope, fn_expr), **fields)
            return
        if scope.kind != "function" or scope.func is None or memoised(m, site, scope):
            return
        # Built on every call of the enclosing function and used there, or stored on the
        # object and called by its methods (``self._step = jax.jit(self._apply)`` in
        # ``__init__``: one per instance): a new compilation per call, which matters when that
        # function itself runs repeatedly (in a loop).
        at, fields = (site, {}) if at_once else self._first_call(m, site, scope, names, (order, 1 << 62))
        stored_in = frozenset()
        if at is site and not at_once:
            stored_in, stored = facts.jitted_uses.attribute_stores(m, scope, names, site)
            if not stored:
                return
            at, fields = _compiled_at(stored[0], site)
        loop_call = facts.repeated_programs.same_program_repetition(m, scope.func, made.reads, stored_in)
        if loop_call is not None:
            detail = f" (a new object on every call of {scope.func.name}(), which {repetition(m, loop_call)})"
            m.report(self, at, subject=subject or f"`{api}` of a {made.what}", detail=detail, repeated_by=loop_call, **fields)

    def _check_static_callables(self, m):
        """A lambda or partial object passed for a static slot (a static parameter, an
        argument of an ``eqx.filter_jit`` function, the function of a ``jax.tree_util.Partial``):
        hashed by identity, so a new one is a new cache key.  Built in a loop, or in a function
        that runs in one, it compiles on every call; two equal ones built at two calls in a row
        compile twice.  A parameter of the function that makes the call carries what that
        function's callers pass: a callable built anew where they run again and again is a new
        key just the same (reported where it is passed)."""
        once = []  # built where the call is made, by code that runs once: compared below
        for slot in callable_slots(m):
            if m.finder.in_traced_code(slot.scope):
                continue
            found = _fresh_for_slot(m, slot.arg.value, slot.scope, slot.order, slot.kind)
            through = ""
            if found is None:
                origins = m.finder.call_targets.origins(slot.arg.value, slot.scope, None)
                if not origins or origins[0].expr is slot.arg.value:
                    continue
                for passed in origins:
                    order = m.call_sites.order(passed.call) if passed.call is not None else None
                    if order is None or m.finder.in_traced_code(passed.scope):
                        continue
                    found = _fresh_for_slot(m, passed.expr, passed.scope, order, slot.kind)
                    if found is not None and found[0] is not None:
                        through = f" through {slot.scope.func.name}()"
                        break
                else:
                    continue
            where, built, node = found
            if where is None:
                once.append((slot, built))
                continue
            # JAX compiles at the call that gets the new key: the call of the jitted function,
            # or, for a callable its caller hands on, the caller's call that hands it
            at = passed.call if through else slot.call
            m.report(
                self,
                at,
                subject=f"{slot.app.func.name}()",
                detail=f": its {_slot_phrase(slot)} gets a new {built[0]} {where}{through}, and JAX compares {_compared(built)} by identity",
                related=[(node, f"the new {built[0]}, made here")],
                passed_at=node,
            )
        self._check_equal_callables(m, once)

    def _check_equal_callables(self, m, once):
        """Two calls in a row in one block, each with its own ``partial(loss, w=1)`` (the same
        text, reading the same variables): equal in meaning, distinct objects, two
        compilations."""
        groups = {}
        for slot, built in once:
            path = statement_path(scope_body(m.module, slot.scope), slot.arg, m.spans)
            if path is None:
                continue
            # in two blocks (an ``if`` and its ``else``), whether both calls run is not known
            text = "".join(m.module.code_for_node(slot.arg.value).split())
            groups.setdefault((id(slot.app), slot.param, id(slot.scope), block_key(path), text), []).append((slot, built))
        for members in groups.values():
            members.sort(key=lambda sb: sb[0].order)
            first = members[0][0]
            for slot, built in members[1:]:
                if _rebound_between(built[1], slot.scope, first.order, slot.order):
                    continue  # the same text reads other values
                line = m.positions.get(first.arg.value)
                at = f" at line {line.start.line}" if line is not None else ""
                m.report(
                    self,
                    slot.call,
                    subject=f"{slot.app.func.name}()",
                    detail=f": its {_slot_phrase(slot)} gets a second {built[0]}, equal to the one passed{at} but a distinct object, and JAX compares {_compared(built)} by identity",
                    related=[(first.arg.value, f"the first {built[0]}, compiled for here"), (slot.arg.value, f"the second {built[0]}, made here")],
                    passed_at=slot.arg.value,
                )

    @staticmethod
    def _hoist(m, call, scope, fn_expr):
        """The unsafe fix: a lambda that reads none of the loop's variables, jitted before the loop."""
        if not isinstance(fn_expr, cst.Lambda):
            return None
        order = m.call_sites.order(call)
        if order is None or any(a <= order <= b for a, b in scope.comprehension_loops):
            return None  # a comprehension: no statement to hoist it out of
        body = scope_body(m.module, scope)
        loop = fixes.hoist_jit.innermost_loop(body, call)
        if loop is None:
            return None
        rng = m.positions.get(loop)
        if rng is None:
            return None
        taken = set(m.index.module_scope.bindings) | set(scope.bindings) | set(m.index.module_scope.defs)
        lines = m.text.splitlines()
        tail = lines[rng.end.line - 1][rng.end.column :] if rng.end.line <= len(lines) else ""
        return fixes.hoist_jit.hoist_fix(call, loop, rng.start.column, taken, tail)

    @staticmethod
    def _first_call(m, made, scope, names, span):
        """(node, fields) of a finding about the jitted object made at ``made``: JAX compiles
        when it is called, so the finding is at its first call by one of ``names`` in ``scope``
        within the order ``span``, with ``made`` as the related location (and the lines the
        dynamic mode runs); ``made`` itself when no such call is found."""
        first = min(facts.jitted_uses.uses(m, scope, names, span), key=lambda use: use[1], default=None)
        if first is None:
            return made, {}
        return _compiled_at(first[0], made)


def _compiled_at(at, made):
    """(node, fields) of a finding at ``at``, where the jitted object made at ``made`` compiles:
    ``made`` is the related location (and where the dynamic mode starts running)."""
    return at, {"made_at": made, "related": [(made, "the jitted function, made anew here")]}


def _fresh_for_slot(m, expr, scope, order, kind):
    """(where, what, node) when ``expr``, passed by the call at ``order`` of ``scope``, is a
    callable built anew where it runs again and again: ``where`` says how often (None: built
    right at a call that runs once, for the check of equal callables at two calls); ``node``
    is ``expr``, where it is reported.  None when it is not such a callable."""
    made = made_anew(m, expr, scope, order, lambda e, s: built_anew_for_slot(m, e, s, kind))
    if made is None:
        return _stored_anew(m, expr, scope, kind) if isinstance(expr, cst.Attribute) else None
    loops = [(start, end) for start, end in scope.loops if start <= order <= end]
    # built before the loop around the call: one object, passed again and again in it,
    # yet a new one on each run of the code around the loop
    if loops and loops[-1][0] <= made.order <= loops[-1][1]:
        if reads_loop_variables(m, made.reads, scope, loops[-1]):
            return None
        return "in every iteration", made, expr
    if scope.kind == "function" and scope.func is not None and facts.repeated_programs.same_program_repetition(m, scope.func, made.reads) is not None:
        return "on every call of " + scope.func.name + "()", made, expr
    if made.node is expr and not loops:
        return None, made, expr
    return None


def _stored_anew(m, expr, scope, kind):
    """``self.cfg`` where every store of the attribute builds a new object in a method
    (``self.cfg = Cfg(...)`` in ``__init__``): one per run of that method, so a new key for
    each new instance when ``__init__`` runs again and again.  One store of an object made
    once, or none known: None."""
    stores = attribute_values(m.index, m.analyzer.classes).values(expr, scope)
    found = []
    for value, where in stores or ():
        built = built_anew_for_slot(m, value, where, kind) if where.kind == "function" and where.func is not None else None
        if built is None:
            return None
        found.append((where.func, built))
    for func, built in found:
        if facts.repeated_programs.same_program_repetition(m, func, built[1], frozenset({expr.attr.value})) is not None:
            return f"on every call of {func.name}()", built, expr
    return None


def _compared(built) -> str:
    """What the message says JAX compares by identity: the callables, or an object's class."""
    return "such objects" if built[0].startswith("instance of") else "static callables"


def _slot_phrase(slot) -> str:
    if slot.kind == FILTERED:
        return f"parameter `{slot.param}` (static under eqx.filter_jit: a callable is not an array)"
    if slot.kind == GRAPH:
        return f"parameter `{slot.param}` (an NNX object, whose attributes that are no Variables are static under nnx.jit)"
    if slot.kind == TREE_PARTIAL:
        return f"parameter `{slot.param}`, a `jax.tree_util.Partial` whose function is static treedef data,"
    return f"static parameter `{slot.param}`"


def _rebound_between(nodes, scope, first: int, last: int) -> bool:
    """Do the nodes read a variable of ``scope`` bound between the orders ``first`` and ``last``?"""
    read = set().union(*(names_in(node) for node in nodes))
    return any(b.order is not None and first < b.order <= last for n in read for b in scope.bindings.get(n, ()))


def _rewrapped(expr):
    """What a jit that wraps the function in a new one on every application makes of ``expr``:
    each result is a new cache, whatever the function."""
    name = dotted_name(expr)
    return (f"function `{name}` that it wraps anew on each application" if name else "function it wraps anew on each application"), (expr,)


# Jits that wrap the function they are given in a new function on every application, so that
# even a module-level function compiles again under each new result (flax 0.12: ``nnx.jit``).
# ``jax.jit`` and ``eqx.filter_jit`` of one function object share their cache.
REWRAPPING_JITS = frozenset({"flax.nnx.jit"})
