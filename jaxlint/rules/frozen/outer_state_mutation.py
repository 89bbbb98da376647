"""JAX303 outer-state-mutation."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.memo_guards import memoised
from jaxlint.analysis.model.name_mentions import module_mentions
from jaxlint.analysis.model.attribute_values import attribute_values
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS
from jaxlint.analysis.syntax.statement_paths import contains
from jaxlint.analysis.traced.values import DICT, MADE_IN_TRACE, PYSEQ, REF, STATIC, TRACED, carries_tracer
from jaxlint.rules.base import Rule
from jaxlint.rules.frozen._frame_crossings import report_frame_crossings
from jaxlint.rules.prevents import frozen


# Methods that take a value out of a container: the traced code uses what they return.
CONSUMING_METHODS = frozenset({"pop", "popleft", "popitem"})


class OuterStateMutation(Rule):
    """
    What it does
        Flags writes to state outside a traced function, in it or in any function it calls:
        assignment to a ``global`` or ``nonlocal`` name; ``.append``/``.update``/``[k] = v``/
        ``.attr = v`` of a traced value (or of an object, tuple or dict the trace built around
        one) on a global or closure container or object, also through
        a local alias (``buf = STATE; buf.append(x)``) or a helper's parameter
        (``add_to(STATE, x)``); ``COUNTS["calls"] += 1`` and ``.pop()``/``.popleft()`` on one,
        whatever the value; and ``self.attr = ...`` in a traced method, as well as
        ``self.cache[k] = x`` and ``self.metrics.update(...)`` on an attribute that only ever
        holds a list, dict or set, or an object whose class defines ``__setitem__``; and
        ``setattr(obj, name, x)`` of a tracer on an object from outside the trace (a
        ``lazy_property`` descriptor's ``__get__`` caching on its instance).  A Python value
        pushed onto a module's list (``SHAPES.append(x.shape)``) is flagged as well: the record
        is made once per trace.
        Values taken out of state the trace did not make (``next(ITERATOR)``, ``.pop()``) are
        taken once per trace, and so are those a lax loop body takes out of a list or iterator
        of the function around it (every iteration replays the one value).  A function traced
        by a transform of its own inside a trace (a lax body, ``jax.remat(g)()``) that stores
        a tracer into a list, dict or object of the function around it leaks the tracer out
        of its trace.  So does code under a plain JAX transform (``jax.jit``, ``jax.checkpoint``,
        a lax body or branch, ``odeint``) inside ``hk.transform`` or a Linen module that writes
        the library's frame: a module that creates parameters (``hk.Linear``, ``nn.Dense``),
        ``hk.next_rng_key()``, ``hk.set_state``, ``self.sow``; the message names the library's
        lifted transform (``hk.scan``, ``nn.remat``...), which carries the frame through.
        Not flagged: a list made again with each trace (one of the function around a
        ``lax.scan`` body, given Python values), an object the traced code builds itself (``rec = Recorder()``
        in the jitted function: its methods' writes to ``self`` die with the trace), a function pushed
        (a hook: ``JAX309`` judges what it holds), and Python values under ``vmap`` alone,
        which traces on every call.  Nor a write whose result does not outlive the run or
        would be the same once per call: a Python value stored where a lookup of a lasting
        memo missed, into that memo (``if key in self.ids: return`` before the registration;
        a second run would find it and write nothing), a ``nonlocal`` of a function that runs
        while tracing, written by a helper only it calls as plain Python (a fold over a
        pytree's leaves), and ``self.attr`` that only later code of the same run reads.
        Nor a write that later code of the same trace undoes on every path to its end: a scope
        pushed onto a stack and popped, a value put in a module's store and cleared
        (``CONTEXT.update(t=t)`` ... ``CONTEXT.clear()``),
        a global or attribute assigned again or given back what it held (``saved = SCALE;
        SCALE = s; ...; SCALE = saved``); nor one on a branch that the object's constructor
        arguments make dead (``if self.record is not None:`` on an object built without
        ``record``).  A Ref (``jax.new_ref``) is written in place on every call, by design.

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
        https://dm-haiku.readthedocs.io/en/latest/notebooks/transforms.html
    """

    code = "JAX303"
    name = "outer-state-mutation"
    message = "{what} in {where} runs once per trace, not once per call"
    fix = "return the new value from the function instead of mutating outer state; use jax.debug.callback for real side effects"
    prevents = frozen("side effects lost after the first call; leaked tracers (UnexpectedTracerError)")
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

    def check_module(self, m):
        # Haiku's and Linen's frames written from inside a plain JAX trace
        report_frame_crossings(self, m)

    def on_name_write(self, ctx, target, name, v, stmt):
        if not ctx.frame.entry.transform.effects:
            return
        if not carries_tracer(v) and (_runs_per_call(ctx) or _fills_memo(ctx, stmt)):
            return  # ``calls += 1`` under vmap alone: the function runs on every call
        nonlocal_ = self._is_nonlocal(ctx, name)
        if nonlocal_ and _local_to_the_trace(ctx, name):
            return
        kind = "nonlocal" if nonlocal_ else "global"
        ctx.report_effect(self, stmt, target, stmt, what=f"Assignment to {kind} `{name}`")

    @staticmethod
    def _is_nonlocal(ctx, name):
        body = ctx.func.body_scope
        return body is not None and name in body.nonlocals

    def on_method(self, ctx, node, base, meth, argvals):
        # A tracer stored outside leaks, and any record kept past the trace is made once per
        # trace (``_records_past_the_trace``).
        if meth not in MUTATING_METHODS or not ctx.frame.entry.transform.effects:
            return
        traced = any(carries_tracer(v) for _, v in argvals)
        obj = node.func.value
        if isinstance(obj, cst.Name) and meth in CONSUMING_METHODS and _taken_from_enclosing_trace(ctx, obj.value):
            ctx.report(self, node, what=f"`{obj.value}.{meth}()` on `{obj.value}` of the enclosing function")
            return
        if isinstance(obj, cst.Name) and meth in PUSHES and traced and _escapes_to_enclosing_trace(ctx, obj.value):
            ctx.report(self, node, what=f"`{obj.value}.{meth}()` of a tracer onto `{obj.value}` of the enclosing function")
            return
        if isinstance(obj, (cst.Name, cst.Subscript)):
            # ``STATE.append(x)``, or the same list through a local alias or a helper's parameter;
            # ``SCHEDULE.pop(0)`` takes a value out once per trace, whatever it is called with
            if base.outer is None or not ctx.analyzer.host_values.only_containers(*base.outer[:2]):
                return
            owner, name = base.outer[:2]
            if not traced and meth not in CONSUMING_METHODS and not (
                meth in PUSHES and _records_past_the_trace(ctx, owner) and _records_data(argvals)
            ):
                return
            shown = obj.value if isinstance(obj, cst.Name) else cst.Module([]).code_for_node(obj)
            ctx.report_effect(self, node, obj, node, what=f"`{shown}.{meth}()` on outer `{name}`")
            return
        if not traced and meth not in CONSUMING_METHODS:
            return
        if (
            isinstance(obj, cst.Attribute)
            and isinstance(obj.value, cst.Name)
            and self._is_self(ctx, obj.value.value)
            # ``self.history.append(x)`` is a list's; ``self.metrics.update(...)`` only when
            # ``self.metrics`` is a dict (``self.tx.update(grads, state)`` is optax's, pure)
            and (meth in ("append", "extend", "insert", "appendleft") or self._holds_container(ctx, obj))
        ):
            ctx.report_effect(self, node, obj, node, what=f"`self.{obj.attr.value}.{meth}()`")

    def on_call(self, ctx, node, q, argvals):
        if q == "builtins.setattr" and len(argvals) == 3 and ctx.frame.entry.transform.effects:
            # ``setattr(obj, name, x)`` of a tracer on an object from outside the trace (a
            # descriptor's ``__get__`` caching on the instance): the tracer leaks as with ``obj.attr = x``
            obj, v = argvals[0][1], argvals[2][1]
            if carries_tracer(v) and obj.kind == STATIC and obj.cls is not None and not obj.flags & MADE_IN_TRACE and not ctx.frame.entry.transform.opaque_attrs:
                ctx.report(self, node, what=f"`setattr({cst.Module([]).code_for_node(argvals[0][0].value)}, ...)` of a tracer")
            return
        # ``next(it)`` advances an iterator as ``.pop()`` empties a list: once per trace, and
        # the compiled function (or every iteration of a loop body) replays the one value taken.
        if q != "builtins.next" or not argvals or not ctx.frame.entry.transform.effects:
            return
        arg, v = argvals[0]
        if not isinstance(arg.value, cst.Name) or arg.keyword is not None:
            return
        name = arg.value.value
        if _taken_from_enclosing_trace(ctx, name):
            ctx.report(self, node, what=f"`next({name})` on `{name}` of the enclosing function")
        elif v.outer is not None and not _runs_per_call(ctx):
            ctx.report(self, node, what=f"`next({name})` on outer `{name}`")

    def _holds_container(self, ctx, target) -> bool:
        """``self.cache`` is only ever bound to a list, dict or set (``self.cache = {}``)."""
        known = attribute_values(ctx.analyzer.finder.index, ctx.analyzer.classes)
        values = known.values(target, ctx.func.body_scope or ctx.func.scope)
        return bool(values) and all(ctx.analyzer.host_values.is_container(v, s) for v, s in values)

    @staticmethod
    def _is_self(ctx, name: str) -> bool:
        """``name`` is the receiver of the traced method, an object that outlives the trace
        (one the traced code built itself is made again by every trace: its state is not
        host state)."""
        f = ctx.func
        if f.is_lambda or not f.is_method:
            return False
        pos = f.positional_params()
        if not pos or pos[0].name.value != name:
            return False
        receiver = ctx.frame.lookup(name)
        return receiver is not None and not receiver.flags & MADE_IN_TRACE

    def on_store(self, ctx, kind, target, base, idx, v, stmt, aug):
        obj = target.value
        if not ctx.frame.entry.transform.effects or base.flags & REF:
            return  # a Ref (``jax.new_ref``) is written in place by design, on every call
        if (
            kind == "subscript"
            and isinstance(obj, cst.Attribute)
            and isinstance(obj.value, cst.Name)
            and self._is_self(ctx, obj.value.value)
            and not ctx.frame.entry.transform.opaque_attrs
            and (carries_tracer(v) or aug and not _runs_per_call(ctx))
            and (base.flags & (DICT | PYSEQ) or self._holds_container(ctx, obj) or _sets_items(ctx, base))
        ):
            # ``self.cache[key] = x``: the container lives on the Python object, past the trace
            # (the tracer leaks); ``self.counts[k] += 1`` counts traces.  So does an object of
            # a class of the module whose ``__setitem__`` the assignment runs.
            ctx.report_effect(self, stmt, obj, stmt, what=f"Item assignment into `self.{obj.attr.value}`")
            return
        if not isinstance(obj, cst.Name):
            return
        name = obj.value
        if carries_tracer(v) and _escapes_to_enclosing_trace(ctx, name) and _python_state(kind, base):
            where = "Attribute assignment of a tracer on" if kind == "attr" else "Item assignment of a tracer into"
            ctx.report(self, stmt, what=f"{where} `{name}` of the enclosing function")
            return
        if kind == "attr" and self._is_self(ctx, name):
            if ctx.frame.entry.transform.opaque_attrs:
                return  # nnx modules carry mutable state through nnx transforms by design
            if not carries_tracer(v) and _fills_memo(ctx, stmt) or _scratch_of_the_run(ctx, target.attr.value, stmt):
                return
            ctx.report_effect(self, stmt, target, stmt, what=f"`self.{target.attr.value} = ...`")
            return
        if base.outer is None:
            return
        # A tracer stored outside leaks; ``COUNTS["calls"] += 1`` counts traces, not calls
        # (except where every call is a trace of its own).
        if not carries_tracer(v) and (not aug or _runs_per_call(ctx)):
            return
        outer = base.outer[1]
        if kind == "attr":
            ctx.report_effect(self, stmt, target, stmt, what=f"Attribute assignment on outer `{outer}`")
        else:
            ctx.report_effect(self, stmt, obj, stmt, what=f"Item assignment into outer `{outer}`")


def _sets_items(ctx, base) -> bool:
    """``base`` is an object of a class of the module that defines ``__setitem__``: an item
    assignment runs that method, which keeps the value in the object."""
    return base.cls is not None and not base.flags & REF and ctx.analyzer.classes.member(base.cls, "__setitem__") is not None


def _taken_from_enclosing_trace(ctx, name) -> bool:
    """``name`` belongs to the traced function around a lax loop body that takes values out of
    it (``next(it)``, ``items.pop()``): the body is traced once, so the value taken then is
    the one every iteration uses, not one per iteration as the Python loop would take."""
    return ctx.frame.loop_body and _of_enclosing_trace(ctx.frame, name)


def _escapes_to_enclosing_trace(ctx, name) -> bool:
    """``name`` belongs to the traced function around one traced by a transform of its own
    (a lax body, ``jax.remat(g)()``, a nested ``jax.vmap``) that stores a tracer in it: the
    tracer outlives its trace, and the enclosing function reads an escaped tracer
    (``UnexpectedTracerError``)."""
    return ctx.frame.own_trace and _of_enclosing_trace(ctx.frame, name)


def _python_state(kind: str, base) -> bool:
    """A store into a Python list or dict, or onto a Python object: not an array's item
    (``JAX304``) nor a Ref's, which a kernel writes by design."""
    if base.flags & REF:
        return False
    return bool(base.flags & (DICT | PYSEQ)) if kind == "subscript" else base.kind != TRACED


def _of_enclosing_trace(frame, name) -> bool:
    """``name`` is a variable of a traced function around this one, not of this one."""
    return name not in frame.env and name not in frame.declared and any(name in env for env in frame.closure or ())


def _records_past_the_trace(ctx, owner) -> bool:
    """``HISTORY.append(limit)`` of a Python value on a module's list records once per trace,
    not once per call, as ``calls += 1`` counts traces (only pushes: ``SEEN.add(key)`` or
    ``CACHE.update(...)`` with the same values again leave the state as it was, so once per
    trace is as good as once per call).  A list of an enclosing function
    (``shapes = []`` before a ``lax.scan`` whose body appends) is made again with each trace of
    the body, and where every call is a trace of its own (``vmap`` alone) the record is per
    call: both keep one entry per call."""
    return owner.kind == "module" and not _runs_per_call(ctx)


def _records_data(argvals) -> bool:
    """What is pushed is Python data, not a callable: a function stored while tracing registers
    a hook, and what its closure holds is ``JAX309``'s to judge."""
    return bool(argvals) and all(v.fn is None for _, v in argvals)


PUSHES = frozenset({"append", "appendleft", "extend", "insert"})


def _local_to_the_trace(ctx, name) -> bool:
    """``nonlocal name`` in a helper that only the function owning ``name`` calls (or the
    helper itself, recursively), by name and as plain Python: the helper runs only inside a
    run of that function, which is being traced here, so the variable is made afresh by each
    trace and written as often as the code says (a fold over a pytree's leaves into a local
    that the function returns).  Called from another function, a lambda or a transform, the
    write may be once per trace of a body that runs many times."""
    f = ctx.func
    owner = f.scope
    if f.is_lambda or f.body_scope is None or owner.kind != "function" or owner.lookup_scope(name) is not owner:
        return False
    finder = ctx.analyzer.finder
    targets = finder.call_targets
    if finder.is_traced_def(f) or not targets.only_called(f):
        return False
    positions = ctx.analyzer.module_ctx.positions
    lambdas = [positions.get(g.node) for g in finder.index.func_by_node.values() if g.is_lambda and g.scope in (owner, f.body_scope)]
    for call, scope, _target in targets.callers(f):
        if scope is not owner and scope is not f.body_scope:
            return False
        at = positions.get(call)
        if at is None or any(lam is not None and contains(lam, at) for lam in lambdas):
            return False
    return True


def _scratch_of_the_run(ctx, attr: str, stmt) -> bool:
    """``self.attr = ...`` in a method whose every read of ``.attr`` in the module comes later
    in the same run of that method: in its own body after the write, or in a method of its
    class that only such code names (``self._draw`` handed to ``lax.switch`` after the write,
    and what that one names in turn).  The value lives and dies within one run, as a local
    would, and no call reads what an earlier trace left behind.  One that nothing in the module
    reads is kept for a reader elsewhere."""
    f = ctx.func
    if f.is_lambda or f.cls is None:
        return False
    m = ctx.analyzer.module_ctx
    mentions = module_mentions(m.index)[1]
    at = m.positions.get(stmt)
    if at is None:
        return False
    done = (at.end.line, at.end.column)
    inside: set = set()  # methods that run only within a run of ``f``, after the write

    def later(node, holder) -> bool:
        if holder is f.node:
            pos = m.positions.get(node)
            return pos is not None and (pos.start.line, pos.start.column) > done
        return holder is not None and id(holder) in inside

    grew = True
    while grew:
        grew = False
        for name, g in f.cls.body_scope.defs.items():
            named = mentions.get(name, ())
            if g is not f and id(g.node) not in inside and named and all(later(n, h) for n, h in named):
                inside.add(id(g.node))
                grew = True
    reads = mentions.get(attr, ())
    return bool(reads) and all(later(n, h) for n, h in reads)


def _fills_memo(ctx, stmt) -> bool:
    """A Python value written only when a lookup of a lasting memo missed, by code that fills
    it (``if _handle is None: _handle = create()``; ``if key in self.ids: return`` before the
    code that stores ``self.ids[key]``): a second run would find the entry and write nothing,
    so the state after one run per trace is the state after one run per call."""
    scope = ctx.func.body_scope
    return scope is not None and memoised(ctx.analyzer.module_ctx, stmt, scope)


def _runs_per_call(ctx) -> bool:
    """A write of a Python value where the function runs on every call (``vmap`` alone)
    happens once per call, as written; a tracer stored outside still leaks."""
    return ctx.frame.runs_per_call
