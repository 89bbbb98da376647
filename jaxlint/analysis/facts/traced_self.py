"""Jitted methods called on instances of classes that are not pytrees.

``@jax.jit`` on a method traces every parameter that is not static, ``self`` too: JAX flattens
the instance as a pytree and needs array leaves.  An instance of a plain class is one leaf that
is not an array, and the call fails: ``TypeError: Error interpreting argument to <function
Solver.run> as an abstract array``.  (``@classmethod`` under the jit passes the class the same
way.)  Declaring ``self`` static, registering the class as a pytree, or using a pytree class
(an ``equinox.Module``, a ``flax.struct`` dataclass, a registered dataclass) avoids it.

Only what the module shows counts: the receiver is built from the class itself in host code,
the class and its bases are classes of the module (or ``object``) without decorators, no call
in the module is handed the class (``register_pytree_node(Solver, ...)``,
``register_static(Solver)``), and the method is jitted by ``jax.jit`` / ``jax.pmap`` directly.

Any other parameter that is not static is traced the same way: an instance of such a class
passed for it (``step(Model(...), x)`` for ``@jax.jit def step(model, x)``) fails alike, and so
does a function (a def or a lambda): to JAX it is one leaf that is no array, passed itself or
held in a NamedTuple or tuple, which are pytrees whose items are leaves ("The problematic value
is of type <class 'function'>").
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import ClassModel
from jaxlint.analysis.host.host_value import FUNCTION, INSTANCE, PARAM, TUPLE, HostValue
from jaxlint.analysis.host.host_calls import plain_jit
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo
from jaxlint.analysis.facts.static_arguments import arguments_by_parameter
from jaxlint.analysis.facts.static_paths import MAX_WRAPPERS, StaticPaths
from jaxlint.analysis.model.transforms import TransformFinder


class TracedSelfCall(NamedTuple):
    call: cst.Call
    receiver: cst.BaseExpression  # the instance: the receiver of a method, or an argument
    func: FuncInfo
    cls: Optional[ClassInfo]  # the leaf's class; None for a function
    param: str  # the traced parameter it lands on
    built: object = None  # where the instance is built, when a caller passes it in through a parameter
    path: str = ""  # where the leaf sits in the argument (``.field``, ``[1]``); "" for the argument itself


class TracedSelf:
    def __init__(self, index: ModuleIndex, finder: TransformFinder, analyzer, hv: HostValues):
        self.index = index
        self.finder = finder
        self.analyzer = analyzer
        self.hv = hv
        self.classes: ClassModel = hv.classes
        self._handed: Set[str] = set()
        self._paths = StaticPaths(index, finder, analyzer, hv)  # its walk from a parameter to the callers' arguments

    def calls(self) -> Iterator[TracedSelfCall]:
        methods = {}
        for app in self.finder.applications:
            f = app.func
            if not isinstance(app.site, cst.Decorator) or not f.is_method or app.bound_self or not plain_jit(app):
                continue
            pos = app.jit_positional()
            statics, opaque = self.analyzer.static_names(app) if app.transform.statics else (set(), False)
            if opaque or not pos or pos[0] in statics or app.skipped:
                continue
            methods.setdefault(f.name, []).append(f)
        self._handed = self._classes_handed_to_calls()
        yield from self._arguments()
        if not methods:
            return
        for call, scope, _o in self.index.calls:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in methods:
                receiver, name = func.value, func.attr.value
            elif isinstance(func, cst.Name) and "__call__" in methods:
                receiver, name = func, "__call__"  # calling the instance runs its __call__
            else:
                continue
            if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls"):
                continue
            if self.finder.in_traced_code(scope):
                continue
            v = self.hv.value(receiver, scope, call)
            if v is None or v.kind != INSTANCE or v.cls is None:
                continue
            f = self.classes.member(v.cls, name)
            if f not in methods[name] or not self._plain_class(v.cls):
                continue
            yield TracedSelfCall(call, receiver, f, v.cls, f.positional_params()[0].name.value)

    def _arguments(self) -> Iterator[TracedSelfCall]:
        """Instances of plain classes passed, in host code, for a traced parameter of a jitted
        function (``self`` excepted: a method's receiver is the loop above)."""
        where = self.analyzer.module_ctx.call_sites.sites
        for app in self.finder.applications:
            if not plain_jit(app) or app.leading:
                continue
            statics, opaque = self.analyzer.static_names(app)
            if opaque:
                continue
            pos = app.jit_positional()
            receiver = pos[0] if app.func.is_method and not app.bound_self and not app.skipped and pos else None
            for call in self.analyzer.call_sites(app):
                scope, _order = where.get(id(call), (None, None))
                if scope is None or self.finder.in_traced_code(scope):
                    continue
                for arg, pname in arguments_by_parameter(app, call, pos):
                    if pname is None or pname in statics or pname == receiver:
                        continue
                    for node, (path, cls) in self._leaf_objects(arg.value, scope, call, 0):
                        # reported where JAX raises: the argument of the jitted call
                        yield TracedSelfCall(call, arg.value, app.func, cls, pname, None if node is arg.value else node, path)

    def _leaf_objects(self, expr, scope, call, depth: int) -> Iterator[Tuple[cst.BaseExpression, Tuple[str, Optional[ClassInfo]]]]:
        """(argument, (path, class)) for a non-array leaf reaching ``expr``: built there, or
        passed in by the callers of the plain function whose parameter ``expr`` is."""
        v = self.hv.value(expr, scope, call)
        if v is None:
            return
        if v.kind == PARAM and depth < MAX_WRAPPERS and scope.func is not None and not scope.func.is_lambda:
            for outer_call, outer_scope, arg in self._paths.calls_of(scope.func, v.name):
                if not self.finder.in_traced_code(outer_scope):
                    yield from self._leaf_objects(arg.value, outer_scope, outer_call, depth + 1)
            return
        leaf = self._non_array_leaf(v, "", 0)
        if leaf is not None:
            yield expr, leaf

    def _non_array_leaf(self, v: Optional[HostValue], path: str, depth: int) -> Optional[Tuple[str, Optional[ClassInfo]]]:
        """(path, class) of a leaf of ``v``'s pytree that JAX cannot trace: an instance of a
        class that is no pytree, or a function (class None); the items of a tuple and the
        fields of a NamedTuple are leaves of their own."""
        if v is None or depth > 3:
            return None
        if v.kind == FUNCTION:
            return path, None
        if v.kind == TUPLE and v.items is not None:
            parts = [(f"[{i}]", it) for i, it in enumerate(v.items)]
        elif v.kind != INSTANCE or v.cls is None:
            return None
        elif self._leaf_object(v.cls):
            return path, v.cls
        elif v.fields is not None and self.classes.pytree_kind(v.cls) == "namedtuple":
            parts = [(f".{k}", fv) for k, fv in v.fields.items()]
        else:
            return None
        return next((leaf for part, it in parts if (leaf := self._non_array_leaf(it, path + part, depth + 1)) is not None), None)

    def _leaf_object(self, cls: ClassInfo) -> bool:
        """An instance is one pytree leaf that is not an array: a plain class's, or a Flax
        Linen module's (a dataclass that Flax does not register: ``Model(3)`` flattens to
        itself, and ``jax.jit`` cannot interpret it as an array)."""
        if self._plain_class(cls):
            return True
        return self.classes.is_linen_module(cls) and self.classes.pytree_kind(cls) is None and not any(c.name in self._handed for c in self.classes.mro(cls))

    def _plain_class(self, cls: ClassInfo) -> bool:
        """Not a pytree, and nothing the module does could make it one."""
        if self.classes.pytree_kind(cls) is not None:
            return False
        for c in self.classes.mro(cls):
            if c.node.decorators or c.name in self._handed:
                return False
            if "__jax_array__" in c.body_scope.defs:
                return False
            known = {b.name for b in self.classes.bases(c)}
            for b in c.bases:
                if not (isinstance(b, cst.Name) and (b.value in known or b.value == "object" and c.scope.lookup_scope("object") is None)):
                    return False
            if c.node.keywords:
                return False  # a metaclass or __init_subclass__ keywords
        return True

    def _classes_handed_to_calls(self) -> Set[str]:
        out: Set[str] = set()
        for call, _s, _o in self.index.calls:
            for a in call.args:
                if isinstance(a.value, cst.Name):
                    out.add(a.value.value)
        return out
