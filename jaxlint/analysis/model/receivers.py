"""What an object is an instance of, read from how it was built.

``obj.method`` handed to ``jax.jit`` is a method of a class of the module only when ``obj`` can be
traced back to that class:

* ``obj = Cls(...)`` (every assignment of the name builds the same class);
* ``Cls(...).method`` directly;
* ``self`` (or whatever the first parameter of a method is called);
* an attribute set in a method of the class (``self.model = Model(...)`` in ``__init__``) or
  declared with an annotation in the class body (``model: Model``);
* a parameter annotated with the class (``def train(model: Model)``);
* what a jitted function returns (``state = step(state)`` with ``step = jax.jit(f)``): JAX
  rebuilds the output pytree with the classes ``f`` returns.  A name a loop carries through
  such a call (``state = step(state)`` after ``state = State(...)``) is an instance of the class
  its other assignments build: while a name's receiver is being asked, asking it again adds
  nothing (``_PENDING``), the least solution of the loop.

Anything else has no receiver: the analysis then says nothing about the call (unknown, never
traced).  Classes of other libraries are kept by their qualified name (``flax.nnx.Dropout``)
together with the call that built them, for rules that know those classes.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import ClassModel, annotation_class, class_named, declared_annotation, decorator_names, is_classmethod
from jaxlint.analysis.syntax.scopes import ClassInfo, Scope
from jaxlint.analysis.syntax.sequences import element_expressions
from jaxlint.analysis.syntax.functions import possible_returns, _undecorated
from jaxlint.analysis.model.names import resolve

_MAX_DEPTH = 6


# Flax NNX transforms whose result is what the function returns, as the same classes (a
# module built under ``nnx.vmap`` is that module, its Variables stacked): a def decorated only
# with them returns what its ``return`` builds.
NNX_KEEPS_OUTPUT = frozenset("flax.nnx." + n for n in "jit vmap pmap scan remat checkpoint shard_map split_rngs".split())


class Receiver:
    """An object's class: one of the module (``cls``) or an imported one (``external``, its
    qualified name), and the call that built it when a single one did (with the scope that
    call is in)."""

    __slots__ = ("cls", "external", "built", "scope")

    def __init__(
        self,
        cls: Optional[ClassInfo] = None,
        external: Optional[str] = None,
        built: Optional[cst.Call] = None,
        scope: Optional[Scope] = None,
    ):
        self.cls = cls
        self.external = external
        self.built = built
        self.scope = scope

    def same_class(self, other: "Receiver") -> bool:
        return self.cls is other.cls and self.external == other.external


# The receiver of a name asked for while it is being computed (a loop-carried value): no
# constraint on the answer.  Never returned by the public questions.
_PENDING = Receiver()


def _agreed(found: List[Optional[Receiver]]) -> Optional[Receiver]:
    """The one class every way of building the value agrees on, else None."""
    if not found or any(r is None for r in found):
        return None
    found = [r for r in found if r is not _PENDING]
    if not found:
        return _PENDING
    first = found[0]
    if not all(first.same_class(r) for r in found[1:]):
        return None
    if len(found) == 1:
        return first
    return Receiver(first.cls, first.external, None)


class ReceiverModel:
    """Receivers of the module's expressions, memoised per class attribute."""

    def __init__(self, classes: ClassModel):
        self.classes = classes
        # id(class) -> attribute -> [(value or None, scope of the method that writes it)]
        self._writes: Optional[Dict[int, Dict[str, List[Tuple[Optional[cst.BaseExpression], Scope]]]]] = None
        self._attributes: Dict[Tuple[int, str], Optional[Receiver]] = {}
        # the module's call targets (set by the transform finder): what reaches a method
        self.call_targets = None
        self._pending: set = set()  # (id(scope), name) of the names being asked
        # (id(function scope), parameter) -> what the call being followed passes for it
        self._passed: Dict[Tuple[int, str], object] = {}

    def receiver_of(self, expr, scope: Scope, depth: int = 0) -> Optional[Receiver]:
        """The class ``expr`` is an instance of, as far as the module shows it."""
        r = self._receiver_of(expr, scope, depth)
        return None if r is _PENDING else r

    def _receiver_of(self, expr, scope: Scope, depth: int = 0) -> Optional[Receiver]:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expr, cst.Call):
            return self._built_by(expr, scope, depth)
        if isinstance(expr, cst.Name):
            return self._name(expr.value, scope, depth)
        if isinstance(expr, cst.Attribute):
            base = self.receiver_of(expr.value, scope, depth + 1)  # (an unsolved base says nothing)
            if base is None or base.cls is None:
                return None
            return self.attribute_receiver(base.cls, expr.attr.value, depth + 1)
        return None

    def _built_by(self, call: cst.Call, scope: Scope, depth: int = 0) -> Optional[Receiver]:
        func = call.func
        if isinstance(func, cst.Name):
            owner = scope.lookup_scope(func.value)
            if owner is not None:
                if func.value in owner.classes:
                    # a rebound class name: cannot tell what is called
                    cls = class_named(scope, func.value, sole=True)
                    return Receiver(cls, None, call, scope) if cls is not None else None
                f = owner.defs.get(func.value)
                if f is not None and (_undecorated(f) or decorator_names(f.node, f.scope) <= NNX_KEEPS_OUTPUT):
                    return self._returned(f, owner, depth)
                made = self.classes.made_by_cls(call, scope)
                if made is not None:
                    return Receiver(made, None, call, scope)
            jitted = self._jitted_result(call, scope, depth)
            if jitted is not None:
                return jitted
        elif isinstance(func, cst.Attribute):
            m = self.classes.class_method(func, scope)
            if m is not None and depth < _MAX_DEPTH:
                # ``Cls.create(...)``: the class every ``return`` builds (``cls(...)``)
                return _agreed([self.receiver_of(r, m.body_scope, depth + 1) if r is not None else None for r in possible_returns(m.node)])
        q = resolve(func, scope)
        if q is not None:
            return Receiver(None, q, call, scope)
        return None

    def _returned(self, f, owner: Scope, depth: int) -> Optional[Receiver]:
        """What a function of the module returns (``def default_rng(seed): return Rng(seed)``):
        the class every ``return`` builds, when the def's name is bound once (its caller asks
        only of an undecorated def; a body that can end without ``return`` gives None: unknown)."""
        if owner.sole_def(f.name) is None or f.body_scope is None or depth >= _MAX_DEPTH:
            return None
        return _agreed([self._receiver_of(r, f.body_scope, depth + 1) if r is not None else None for r in possible_returns(f.node)])

    def _jitted_result(self, call: cst.Call, scope: Scope, depth: int) -> Optional[Receiver]:
        """``step(state)`` of a jitted ``step``: the class every ``return`` of the function builds
        (a transform that keeps the output's pytree classes: not a derivative's, nor a library
        callable's own output)."""
        targets = self.call_targets
        t = targets.target(call, scope) if targets is not None else None
        if t is None or t.app is None or t.app.leading or depth >= _MAX_DEPTH:
            return None
        tr = t.app.transform
        body = t.func.body_scope
        if tr.differentiated or tr.converts or tr.refs or tr.arity is not None or body is None:
            return None
        # The parameters hold what this call passes (``return state``, also after
        # ``state = State(...)`` in a branch).
        bound = targets.bind(t, call, scope) or {}
        saved = dict(self._passed)
        self._passed.update({(id(body), k): p for k, p in bound.items() if p.expr is not None})
        try:
            return _agreed([self._receiver_of(r, body, depth + 1) if r is not None else None for r in possible_returns(t.func.node)])
        finally:
            self._passed = saved

    def _name(self, name: str, scope: Scope, depth: int) -> Optional[Receiver]:
        owner = scope.lookup_scope(name)
        if owner is None or name in owner.classes or name in owner.defs or name in owner.imports:
            return None
        key = (id(owner), name)
        if key in self._pending:
            return _PENDING
        self._pending.add(key)
        try:
            return self._bound_name(name, owner, depth)
        finally:
            self._pending.discard(key)

    def _bound_name(self, name: str, owner: Scope, depth: int) -> Optional[Receiver]:
        binds = owner.bindings.get(name, ())
        if not binds:
            return None
        func = owner.func if owner.kind == "function" else None
        found: List[Optional[Receiver]] = []
        for b in binds:
            if b.kind == "param" and (id(owner), name) in self._passed:
                p = self._passed[(id(owner), name)]
                found.append(self._receiver_of(p.expr, p.scope, depth + 1))
            elif b.kind == "param" and func is not None:
                found.append(self._parameter(func, name, depth))
            elif b.kind == "assign" and b.value is not None:
                found.append(self._receiver_of(b.value, owner, depth + 1))
            else:
                return None  # a loop variable, a with-target, a write from elsewhere: unknown
        return _agreed(found)

    def _parameter(self, func, name: str, depth: int = 0) -> Optional[Receiver]:
        if func.receiver == name:
            # ``cls`` of a classmethod: the class itself, not an instance of it
            return None if is_classmethod(func) else Receiver(func.cls)
        positional = func.positional_params()
        for p in positional + list(func.params.kwonly_params):
            if p.name.value == name and p.annotation is not None:
                ann = p.annotation.annotation
                cls = annotation_class(ann, func.scope)
                if cls is not None:
                    return Receiver(cls)
                q = resolve(ann, func.scope)  # ``rngs: nnx.Rngs``: a class of another library
                return Receiver(None, q) if q is not None else None
        if not any(p.name.value == name for p in positional) or depth >= _MAX_DEPTH:
            return None
        return self._passed_by_callers(func, name, depth)

    def _passed_by_callers(self, func, name: str, depth: int) -> Optional[Receiver]:
        """An unannotated parameter (``__init__``'s ``config``, ``top_p(params, state)`` after
        ``state = State(...)``): the class of what every call reaching the function passes,
        by name, through instances, bound methods, partials and ``super().__init__``, when
        they agree."""
        targets = self.call_targets
        if targets is None or func.body_scope is None:
            return None
        me = cst.Name(name)
        origins = targets.origins(me, func.body_scope, None)
        if origins is None or any(p.expr is me for p in origins):
            return None  # not followed (a traced method's parameter)
        found: List[Optional[Receiver]] = []
        for p in origins:
            if p.expr is None or p.scope is None:
                return None
            found.append(self._receiver_of(p.expr, p.scope, depth + 1))
        return _agreed(found)

    def attribute_receiver(self, cls: ClassInfo, attr: str, depth: int = 0) -> Optional[Receiver]:
        """The class of ``instance.attr`` for an instance of ``cls``: from the class body's
        annotation, or from what the methods assign to it (all of them must agree)."""
        key = (id(cls), attr)
        if key in self._attributes:
            return self._attributes[key]
        self._attributes[key] = None  # a cycle (``self.a = self.a``) answers unknown
        # remembered for every question: read without what one followed call passes
        passed, self._passed = self._passed, {}
        try:
            result = self._attribute_receiver(cls, attr, depth)
        finally:
            self._passed = passed
        self._attributes[key] = result
        return result

    def _attribute_receiver(self, cls: ClassInfo, attr: str, depth: int) -> Optional[Receiver]:
        for c in self.classes.mro(cls):
            if self.classes.member(c, attr) is not None:
                return None  # a method or property, not an instance attribute
            declared = declared_annotation(c, attr)
            if declared is not None:
                found = annotation_class(declared, c.scope)
                return Receiver(found) if found is not None else None
        found: List[Optional[Receiver]] = []
        for c in self.classes.mro(cls):
            for value, scope in self._attribute_writes(c).get(attr, ()):
                found.append(self.receiver_of(value, scope, depth + 1) if value is not None else None)
        return _agreed(found)

    # -- elements of lists and tuples ---------------------------------------------------
    def element_receiver_of(self, expr, scope: Scope, depth: int = 0) -> Optional[Receiver]:
        """The class every element of the list or tuple ``expr`` is an instance of
        (``[Block(k) for k in keys]``, ``[Scale(2.0), Scale(0.5)]``: see
        jaxlint.analysis.syntax.sequences)."""
        elements = element_expressions(expr, scope)
        if elements is None:
            return None
        return _agreed([self.receiver_of(e, s, depth + 1) for e, s in elements])

    def attribute_element(self, cls: ClassInfo, attr: str) -> Optional[Receiver]:
        """The class of every element of ``instance.attr`` when it holds a list or tuple of
        instances: from the class body's annotation (``blocks: list[Block]``) or from what
        the methods assign to it (all of them must agree)."""
        key = (id(cls), "[]" + attr)
        if key in self._attributes:
            return self._attributes[key]
        self._attributes[key] = None
        found: List[Optional[Receiver]] = []
        for c in self.classes.mro(cls):
            if self.classes.member(c, attr) is not None:
                break
            declared = declared_annotation(c, attr)
            if declared is not None:
                inner = element_annotation(declared)
                found = [Receiver(annotation_class(inner, c.scope))] if inner is not None else [None]
                break
        else:
            for c in self.classes.mro(cls):
                for value, scope in self._attribute_writes(c).get(attr, ()):
                    found.append(self.element_receiver_of(value, scope) if value is not None else None)
        result = _agreed(found)
        if result is not None and result.cls is None:
            result = None
        self._attributes[key] = result
        return result

    def attribute_values(self, cls: ClassInfo, attr: str) -> List[Tuple[Optional[cst.BaseExpression], Scope]]:
        """What the methods of ``cls`` (and its bases) assign to ``self.attr``: (value, scope)
        pairs, the value None where it cannot be read (``self.a, self.b = pair``)."""
        return [w for c in self.classes.mro(cls) for w in self._attribute_writes(c).get(attr, ())]

    def _attribute_writes(self, cls: ClassInfo) -> Dict[str, List[Tuple[Optional[cst.BaseExpression], Scope]]]:
        """The module's writes of ``<me>.attr`` (rebinding it) in the body of a method of ``cls``
        whose first parameter is ``me`` (a nested function's ``self`` is its own business).
        Every class's are sorted out in one pass over the module's writes."""
        if self._writes is None:
            self._writes = {}
            for w in self.classes.index.attribute_writes:
                f = w.method
                if not w.in_place and f is not None and f.cls.body_scope.defs.get(f.name) is f:
                    self._writes.setdefault(id(f.cls), {}).setdefault(w.attr, []).append((w.value, w.scope))
        return self._writes.get(id(cls), {})


_SEQUENCE_ANNOTATIONS = frozenset({"list", "List", "Sequence", "tuple", "Tuple"})


def element_annotation(ann):
    """``Block`` of ``list[Block]``, ``List[Block]``, ``Sequence[Block]``, ``tuple[Block, ...]``."""
    if not isinstance(ann, cst.Subscript):
        return None
    head = ann.value.attr.value if isinstance(ann.value, cst.Attribute) else getattr(ann.value, "value", None)
    if head not in _SEQUENCE_ANNOTATIONS:
        return None
    parts = [el.slice.value for el in ann.slice if isinstance(el.slice, cst.Index)]
    if len(parts) == 2 and head in ("tuple", "Tuple") and isinstance(parts[1], cst.Ellipsis):
        return parts[0]
    return parts[0] if len(parts) == 1 and head not in ("tuple", "Tuple") else None
