"""Entry points and calls: every traced function of a module is interpreted from here, and a
call from traced code into a function of the module is evaluated with its abstract arguments
(memoised per abstract signature).

The Analyzer is one class put together from one mixin per concern: ``entry_points.py``,
``passed_arguments.py``, ``function_calls.py`` and ``instances.py``.  This module combines
them and holds the state they share, the module's host values, and the events it publishes.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_api import REF_MAKERS
from jaxlint.analysis.model.classes import class_named
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import Application, TransformFinder
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.traced.effects import Effects
from jaxlint.analysis.traced.entry_points import EntryPoints
from jaxlint.analysis.traced.events import Context
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced.function_calls import FunctionCalls
from jaxlint.analysis.traced.instances import Instances
from jaxlint.analysis.traced.passed_arguments import PassedArguments
from jaxlint.analysis.traced.values import REF, STATIC, Val
from jaxlint.analysis.traced.traced_fields import TracedFields
from jaxlint.analysis.host.host_value import JAX_ARRAY, PARAM
from jaxlint.analysis.traced.from_host import host_val


class Analyzer(EntryPoints, PassedArguments, FunctionCalls, Instances):
    """Interprets every traced function of a module and publishes events to the rules."""

    def __init__(
        self,
        index: ModuleIndex,
        finder: TransformFinder,
        handlers: Dict[str, List[Callable]],
        report: Callable,
        external=None,
    ):
        self.index = index
        self.finder = finder
        self.handlers = handlers
        self._report = report
        self.external = external  # cross-module resolver, or None
        self.memo: Dict[tuple, Val] = {}
        self.effect_memo: Dict[tuple, list] = {}  # what each memoised call wrote (``effects``)
        # the memo keys of the calls whose body refused a tracer (``Frame.refusals``)
        self.refusing: set = set()
        self.active: set = set()
        self.analyzed_entries: List[Tuple[Application, Frame]] = []
        self.classes = finder.classes
        self.receivers = finder.receivers
        self.container_cache: Dict[int, frozenset] = {}
        self.structure_cache: Dict[int, frozenset] = {}
        self._outer_flags: Dict[Tuple[int, str], int] = {}
        self._outer_values: Dict[Tuple[int, str], Val] = {}
        self._constructed_attrs: Dict[int, object] = {}
        # id(def or lambda node) -> the names it reads from the functions around it
        self.free_names: Dict[int, List[str]] = {}
        # Classes of other modules, by the name this module imports them with: given by the
        # cross-module phase when it interprets the module again knowing them.
        self.foreign: Dict[str, object] = {}
        self._passed_arguments: Dict[Tuple[int, str], list] = {}
        self._traced_fields = None
        self.effects = Effects()  # writes to Python state, held until the trace ends
        self.leaves: Dict[int, bool] = {}  # compound statements that may ``return`` (``may_leave``)

    @property
    def traced_fields(self):
        """What attributes hold where only arrays and Variables are traced (built on first use)."""
        if self._traced_fields is None:
            self._traced_fields = TracedFields(self.classes, self.receivers, lambda: self.host_values)
        return self._traced_fields

    # -- plumbing ----------------------------------------------------------------
    @property
    def host_values(self):
        """Host-mode values of the module (the module analysis's)."""
        return self.module_ctx.host_values

    def attribute_is_jax_array(self, cls, attr: str) -> bool:
        """Every value ``self.attr`` is given is one JAX array: what the methods of ``cls``
        assign to it, where a parameter of ``__init__`` copied there stands for what each
        construction of the class in the module passes; and for a dataclass without an
        ``__init__`` (a pytree's static metadata field), the constructions' arguments."""
        key = (id(cls), "." + attr)
        known = self._outer_flags.get(key)
        if known is None:
            writes = self.receivers.attribute_values(cls, attr)
            c = self.classes.constructor(cls)
            if not writes and c is not None and c.init is None and attr in c.stores:
                writes = self._constructed(cls, c.stores[attr])
            else:
                writes = [w for value, scope in writes for w in self._copied_parameter(c, cls, value, scope)]
            hv = self.host_values
            known = bool(writes) and all(
                value is not None and (v := hv.value(value, scope)) is not None and v.kind == JAX_ARRAY for value, scope in writes
            )
            self._outer_flags[key] = known
        return bool(known)

    def _copied_parameter(self, c, cls, value, scope) -> list:
        """``self.a = a`` in ``__init__`` (``c``: the class's constructor): what the
        constructions pass for ``a``; any other write as it is."""
        if isinstance(value, cst.Name) and c is not None and c.init is not None and scope is c.init.body_scope and scope.unrebound_param(value.value):
            return self._constructed(cls, value.value)
        return [(value, scope)]

    def _constructed(self, cls, name: str) -> list:
        """(argument, scope) that each call of ``cls`` in the module passes for its
        constructor's parameter ``name``; an argument that cannot be told (left to its default,
        in a ``*args``) as None."""
        out = []
        for call, scope, _order in self.index.calls:
            if not isinstance(call.func, cst.Name) or class_named(scope, call.func.value) is not cls:
                continue
            given = self.classes.parameter_arguments(cls, call.args) if not any(a.star for a in call.args) else None
            out.append((given[name].value if given and name in given else None, scope))
        return out

    def outer_flags(self, name: str, owner) -> int:
        """What traced code reading the global or closure variable ``name`` of ``owner`` can
        rely on, wherever it reads it: JAXARR for one concrete JAX array (``W = jnp.ones(3)``
        at module level), NPARR for a NumPy array, PYSEQ for a Python list or tuple (indexing
        it needs a Python int), DICT for a Python dict (a key lookup hashes the key)."""
        return self.outer_value(name, owner).flags

    def outer_instance(self, name: str, owner) -> Optional[Val]:
        """The global or closure variable ``name`` of ``owner`` when it holds one instance of a
        class of the module (``SGD = Optimizer(clip_update, 0.1)``): that object, its fields
        as traced code sees them where the construction shows them; None otherwise."""
        v = self.outer_value(name, owner)
        return v if v.cls is not None else None

    def outer_value(self, name: str, owner) -> Val:
        """What the global or closure variable ``name`` of ``owner`` holds wherever traced code
        reads it, as host code made it (a parameter of the enclosing host function: what every
        call of it passes)."""
        key = (id(owner), name)
        if key not in self._outer_values:
            v = self.host_values.outer_value(name, owner)
            binds = owner.bindings.get(name, ())
            if v is None and owner.func is not None and owner.unrebound_param(name):
                v = self.host_values.passed_value(owner.func, name)
            elif v is not None and v.kind == PARAM:
                v = self.host_values.passed_value(owner.func, v.name)
            known = host_val(v, self.classes)
            if known.cls is not None and not known.items:
                # built by its own ``__init__``: what its constructor stored there
                known = Val(STATIC, None, known.flags, cls=known.cls, attrs=self.constructed_attributes(v))
            if binds and all(b.kind == "assign" and isinstance(b.value, cst.Call) and resolve(b.value.func, owner) in REF_MAKERS for b in binds):
                known = Val(STATIC, None, REF)  # ``counter = jax.new_ref(...)``: written in place by design
            self._outer_values[key] = known
        return self._outer_values[key]

    def emit(self, event: str, frame: Frame, *args) -> None:
        hs = self.handlers.get(event)
        if not hs:
            return
        ctx = Context(frame, self)
        for h in hs:
            h(ctx, *args)

    def report(self, rule, node, frame: Frame, fields, state=None, stmt=None) -> None:
        """``state``: the Python state the finding's write changes (``effects.state_of``); the
        finding waits for the end of the trace, which may replace what was written."""
        # ``unhashable=True``: the value fails where JAX hashes it, tracer or concrete array; a
        # concrete array the caller passed fails where it fails anywhere
        unhashable = fields.pop("unhashable", False)
        facts = fields.get("facts")
        concrete = facts is not None and getattr(facts, "value_kind", None) == "array"
        # what the rule prevents says whether JAX raises it under grad, and whether it is a
        # tracer conversion TypeError (jaxlint/rules/prevents.py)
        prevents = rule.prevents
        # ``under_grad=True``: this finding's error is raised under grad alone too, although
        # its rule's others are not (``float()`` of a JVP tracer, where ``int()`` works)
        under_grad = fields.pop("under_grad", False) or prevents.under_grad
        if frame.entry.transform.differentiated and not frame.staged and not under_grad and not (unhashable or concrete):
            # JVP tracers carry concrete values: only NumPy's conversion and item assignment
            # fail on them.  Decided per frame: a lax body (or a jit) inside the differentiated
            # function is staged all the same, and its values are abstract tracers.
            return
        if prevents.kind == "raises" and prevents.stage == "trace" and prevents.at == "mark":
            frame.refusals += 1  # JAX raises here while tracing: a handler around it runs
        if frame.catches_tracer_errors and prevents.tracer_type_error:
            return  # ``try: int(x) except TypeError:``: the check only when concrete, on purpose
        if frame.unsure:
            return  # reached at trace time only if the code's own test for tracers is wrong
        if state is not None:
            left = self.effects.write(state, (rule, node, frame, fields), stmt)
            if left is not None:
                self._report(*left)
            return
        self._report(rule, node, frame, fields)
