"""Which Flax NNX objects change their own state when called, and what state that is.

An NNX object keeps its state in Variables: ``nnx.Rngs`` counts the keys it has handed out,
``nnx.Dropout`` draws from its Rngs on every call, ``nnx.BatchNorm`` updates its batch
statistics in training mode, and a module's own methods can write ``self.count.value``.  Flax
refuses such a write when the Variable was created outside the JAX trace doing it
(``TraceContextError: Cannot mutate ... from a different trace level``), which is what happens
when a function transformed by ``jax.jit``, ``jax.vmap``, ``nnx.jit`` or any other transform
reads the object from its closure instead of receiving it as an argument.

Only what the code shows counts: a Dropout built with ``rngs=`` and no ``deterministic=True``,
a BatchNorm without ``use_running_average=True``, calls made on every path through the method
(a Dropout behind ``if train:`` may never run), classes that derive from ``nnx.Module`` through
imports jaxlint can resolve.  ``.eval()`` on the object turns Dropout and BatchNorm off.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.jax.jax_api import NNX_DATA_CLASSES
from jaxlint.analysis.model.classes import NNX_MODULE_BASES, decorator_names
from jaxlint.analysis.model.receivers import Receiver, ReceiverModel
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import dotted_name, is_none_literal, keyword_value
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo
from jaxlint.analysis.model.names import resolve

# Every NNX graph object (a Module is one) refuses an attribute assignment from a trace other
# than the one it was made in.
NNX_PYTREE = NNX_MODULE_BASES | {"flax.nnx.Pytree", "flax.nnx.Object", "flax.nnx.pytreelib.Pytree"}
NNX_VARIABLE = frozenset(
    {
        "flax.nnx.Variable",
        "flax.nnx.Param",
        "flax.nnx.BatchStat",
        "flax.nnx.Cache",
        "flax.nnx.Intermediate",
        "flax.nnx.variablelib.Variable",
    }
)
# Flax NNX's lifted transforms: each takes the state of the NNX objects passed to it, and
# writes it back when the transformed function returns.
NNX_LIFTED = frozenset(
    "flax.nnx." + name
    for name in (
        "jit grad value_and_grad vmap pmap scan remat checkpoint cond switch fori_loop while_loop "
        "shard_map eval_shape custom_vjp"
    ).split()
)
# The method a CapturedCall names when the object is passed to one of them.
LIFTED = "<passed to an NNX transform>"
OPTIMIZER = frozenset({"flax.nnx.Optimizer", "flax.nnx.ModelAndOptimizer", "flax.nnx.training.optimizer.Optimizer"})
RNGS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs"})
DROPOUT = frozenset({"flax.nnx.Dropout", "flax.nnx.nn.stochastic.Dropout"})
BATCH_NORM = frozenset({"flax.nnx.BatchNorm", "flax.nnx.nn.normalization.BatchNorm"})
SEQUENTIAL = frozenset({"flax.nnx.Sequential"})
# Methods of nnx.Rngs that read without drawing a key.
RNGS_READS = frozenset({"items", "keys", "values"})

_MAX_DEPTH = 4


def _keyword(call: Optional[cst.Call], name: str):
    return keyword_value(call.args, name) if call is not None else None


def _off_or_absent(call: Optional[cst.Call], name: str) -> bool:
    """The keyword is not given, or given as the literal False / None (the default)."""
    v = _keyword(call, name)
    return v is None or isinstance(v, cst.Name) and v.value == "False" or is_none_literal(v)


def _is_zero(e) -> bool:
    return isinstance(e, (cst.Integer, cst.Float)) and float(e.value) == 0.0


class NnxState:
    """What calling a method of an NNX object mutates, memoised per class and method."""

    def __init__(self, receivers: ReceiverModel):
        self.receivers = receivers
        self.classes = receivers.classes
        self._methods: dict = {}

    def mutation(self, r: Receiver, method: str, call: Optional[cst.Call], switchable: bool = True, depth: int = 0) -> Optional[str]:
        """What calling ``method`` on the object ``r`` mutates, described for a message; None
        when no mutation is visible.  ``switchable=False``: the object was put in eval mode
        somewhere, so its Dropout and BatchNorm may be off."""
        if depth > _MAX_DEPTH:
            return None
        ext = r.external
        if method == "__setattr__":
            return self._assignment(r)
        if method == LIFTED:
            return "it takes the object's state and writes it back" if self._assignment(r) else None
        if ext in OPTIMIZER and method == "update":
            return "nnx.Optimizer.update writes its step, its optimizer state and the parameters"
        if ext in RNGS:
            if method == "__call__" or not method.startswith("_") and method not in RNGS_READS:
                return "an nnx.Rngs hands out a key and counts it"
            return None
        if method != "__call__" and ext is not None:
            return None
        if ext in DROPOUT:
            return self._dropout(r.built, call) if switchable else None
        if ext in BATCH_NORM:
            return self._batch_norm(r.built, call) if switchable else None
        if ext in SEQUENTIAL and r.built is not None:
            for a in r.built.args:
                if a.keyword is None and not a.star and isinstance(a.value, cst.Call):
                    q = resolve(a.value.func, r.scope) if r.scope is not None else None
                    found = self.mutation(Receiver(None, q, a.value, r.scope), "__call__", None, switchable, depth + 1)
                    if found is not None:
                        return found
            return None
        if r.cls is not None and self.classes.is_nnx_module(r.cls):
            return self._method(r.cls, method, switchable, depth)
        return None

    def _assignment(self, r: Receiver) -> Optional[str]:
        """What assigning an attribute (or an item) of the object ``r`` writes."""
        ext = r.external
        if ext in NNX_VARIABLE or r.cls is not None and self.classes.derives(r.cls, NNX_VARIABLE):
            return "an nnx.Variable's value"
        nnx_class = ext is not None and ext.startswith("flax.nnx.") and ext.rpartition(".")[2] in NNX_DATA_CLASSES
        if nnx_class or r.cls is not None and self.classes.derives(r.cls, NNX_PYTREE):
            return "an attribute of an NNX object"
        return None

    def _dropout(self, built: Optional[cst.Call], call: Optional[cst.Call]) -> Optional[str]:
        if built is None:
            return None
        if _keyword(built, "rngs") is None and _keyword(call, "rngs") is None:
            return None  # no random stream: Flax raises a different error, or the call passes one
        rate = _keyword(built, "rate")
        if rate is None and built.args and built.args[0].keyword is None:
            rate = built.args[0].value
        if rate is not None and _is_zero(rate):
            return None  # rate 0 returns the input without drawing a key
        if not (_off_or_absent(built, "deterministic") and _off_or_absent(call, "deterministic")):
            return None
        return "an nnx.Dropout draws a key from its Rngs"

    def _batch_norm(self, built: Optional[cst.Call], call: Optional[cst.Call]) -> Optional[str]:
        if built is None:
            return None
        if not (_off_or_absent(built, "use_running_average") and _off_or_absent(call, "use_running_average")):
            return None
        return "an nnx.BatchNorm updates its batch statistics"

    def _method(self, cls: ClassInfo, method: str, switchable: bool, depth: int) -> Optional[str]:
        key = (id(cls), method, switchable)
        if key in self._methods:
            return self._methods[key]
        self._methods[key] = None  # recursion answers "nothing seen"
        f = self.classes.member(cls, method)
        found = None
        if f is not None and f.is_method and not f.is_lambda and f.positional_params():
            lifted = _lifted_by(f)
            if lifted is None:
                found = self._body(cls, f, switchable, depth)
            elif self._holds_state(Receiver(cls)):
                # ``@nnx.jit`` on the method: each call hands the object itself to the transform
                found = f"{f.name}() passes the object to {lifted}, which {_LIFTS}"
        self._methods[key] = found
        return found

    def _body(self, cls: ClassInfo, f: FuncInfo, switchable: bool, depth: int) -> Optional[str]:
        me = f.positional_params()[0].name.value
        for st in _unconditional(f.node.body.body):
            v = _SelfUses(me)
            v.walk(st)
            for attr, kind in v.writes:
                if kind == "attribute":  # the module itself is written: any NNX object refuses that
                    return f"{f.name}() sets `self.{attr}`"
                r = self.receivers.attribute_receiver(cls, attr)
                if r is not None and (r.external in NNX_VARIABLE or r.cls is not None and self.classes.derives(r.cls, NNX_VARIABLE)):
                    return f"{f.name}() writes the nnx.Variable `self.{attr}`"
            for attr, lifted in self._lifted_arguments(f, v):
                r = Receiver(cls) if attr is None else self.receivers.attribute_receiver(cls, attr)
                if r is not None and self._holds_state(r):
                    shown = me if attr is None else f"{me}.{attr}"
                    return f"{f.name}() passes `{shown}` to {lifted}, which {_LIFTS}"
            for attr, meth, call in v.calls:
                if meth is None and self.classes.member(cls, attr) is not None:
                    found = self._method(cls, attr, switchable, depth + 1)  # self.helper(...)
                else:
                    r = self.receivers.attribute_receiver(cls, attr)
                    if r is None:
                        continue
                    found = self.mutation(r, meth or "__call__", call, switchable, depth + 1)
                    if found is not None and meth is None and r.external is not None:
                        found = f"`self.{attr}`: {found}"
                if found is not None:
                    return found
        return None

    def _holds_state(self, r: Receiver, depth: int = 0) -> bool:
        """The object has Variables for a lifted transform to write back: it is an NNX
        Variable, an ``nnx.Rngs``, a layer of ``flax.nnx``, or a module of the module that
        stores one of those (a module of Python attributes only has nothing to write)."""
        if r.external is not None:
            return r.external.startswith("flax.nnx.")
        if r.cls is None or depth > _MAX_DEPTH or not self.classes.is_nnx_module(r.cls):
            return False
        for c in self.classes.mro(r.cls):
            for values in self.receivers._attribute_writes(c).values():
                for value, scope in values:
                    held = self.receivers.receiver_of(value, scope) if value is not None else None
                    if held is not None and self._holds_state(held, depth + 1):
                        return True
        return False

    def _lifted_arguments(self, f: FuncInfo, v: "_SelfUses"):
        """(attribute or None for the object itself, transform) for each ``self`` or
        ``self.attr`` the method hands to a function under an NNX lifted transform: a def of
        the method decorated with one (``@nnx.scan def step(...)`` ... ``step(x, self.blocks)``)
        or one applied on the spot (``nnx.vmap(g)(self.layers)``)."""
        scope = f.body_scope
        for call in v.passed:
            func = call.func
            lifted = None
            if isinstance(func, cst.Call) and resolve(func.func, scope) in NNX_LIFTED:
                lifted = resolve(func.func, scope).replace("flax.", "", 1)
            elif isinstance(func, cst.Name):
                g = scope.lookup_def(func.value)
                lifted = _lifted_by(g) if g is not None and g.scope is scope else None
            for a in call.args if lifted is not None else ():
                if isinstance(a.value, cst.Name) and a.value.value == v.me or v._self_attr(a.value) is not None:
                    yield v._self_attr(a.value), lifted


# What a lifted transform does with the NNX objects it is given.
_LIFTS = "takes its state and writes it back"


def _lifted_by(f: FuncInfo) -> Optional[str]:
    """The NNX lifted transform that decorates ``f`` (``nnx.jit``), if one does."""
    for q in decorator_names(f.node, f.scope):
        if q in NNX_LIFTED:
            return q.replace("flax.", "", 1)
    return None


def _unconditional(stmts):
    """The statements of a body that run on every call: up to the first exit or conditional
    exit, entering ``with`` blocks; the bodies of ``if``, loops and ``try`` are not among them."""
    for st in stmts:
        if isinstance(st, cst.SimpleStatementLine):
            yield st
            if any(isinstance(small, (cst.Return, cst.Raise)) for small in st.body):
                return
        elif isinstance(st, cst.With):
            yield from _unconditional(st.body.body)
        elif _has_exit(st):
            return
        # other compound statements may not run: their calls are not counted


class _Exits(FastVisitor):
    def __init__(self):
        self.found = False

    def visit_Return(self, node) -> None:
        self.found = True

    def visit_FunctionDef(self, node) -> bool:
        return False

    visit_Raise = visit_Return
    visit_Lambda = visit_FunctionDef


def _has_exit(st) -> bool:
    v = _Exits()
    v.walk(st)
    return v.found


class _SelfUses(FastVisitor):
    """In one statement: ``self.a(...)`` / ``self.a.m(...)`` calls, writes to Variables
    ``self.a.value = ...`` / ``self.a[...] = ...`` / ``self.a.value += ...``, and assignments
    to the module's own attributes ``self.a = ...``."""

    def __init__(self, me: str):
        self.me = me
        self.calls = []  # (attribute, method or None, call)
        self.writes = []  # (attribute, "value" | "item")
        self.passed = []  # calls of other callees

    def _self_attr(self, e) -> Optional[str]:
        if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == self.me:
            return e.attr.value
        return None

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        attr = self._self_attr(func)
        if attr is not None:
            self.calls.append((attr, None, node))
        elif isinstance(func, cst.Attribute):
            attr = self._self_attr(func.value)
            if attr is not None:
                self.calls.append((attr, func.attr.value, node))
        else:
            self.passed.append(node)  # ``step(x, self.blocks)`` may hand the module on

    def _write(self, target) -> None:
        if self._self_attr(target) is not None:
            self.writes.append((target.attr.value, "attribute"))
        elif isinstance(target, cst.Attribute) and target.attr.value == "value":
            attr = self._self_attr(target.value)
            if attr is not None:
                self.writes.append((attr, "value"))
        elif isinstance(target, cst.Subscript):
            attr = self._self_attr(target.value)
            if attr is not None:
                self.writes.append((attr, "item"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._write(t.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._write(node.target)

    def visit_FunctionDef(self, node) -> bool:
        return False

    visit_Lambda = visit_FunctionDef


# Calls that may switch a module's Dropout and BatchNorm off.
_MODE_SWITCHES = frozenset({"eval", "set_attributes"})


def object_key(obj, scope) -> Optional[tuple]:
    """One object as seen from different functions: ``model`` of one scope, or ``self.model``
    of any method of one class."""
    head = obj
    while isinstance(head, cst.Attribute):
        head = head.value
    if not isinstance(head, cst.Name):
        return None
    text = dotted_name(obj)
    owner = scope.lookup_scope(head.value)
    if text is None or owner is None:
        return None
    f = owner.func if owner.kind == "function" else None
    if f is not None and f.receiver == head.value:
        return ("self", id(f.cls), text.partition(".")[2])
    return ("scope", id(owner), text)


def mode_switched_objects(index) -> set:
    """Keys of the objects the module calls ``.eval()`` (or ``.set_attributes(...)``) on."""
    out = set()
    for call, scope, _ in index.calls:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _MODE_SWITCHES:
            key = object_key(func.value, scope)
            if key is not None:
                out.add(key)
    return out
