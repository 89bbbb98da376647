"""Every path by which a value reaches a slot that JAX hashes (JAX202).

A static parameter hashes what it is given.  The value is rarely written at the call: it is
built in host code a few lines earlier, or it travels there

* directly, through a name (``sizes = [64, 64]; step(x, sizes)``);
* through a wrapper, a plain function that forwards its parameter to the static slot;
* through a factory, a function that returns a jitted function;
* through ``functools.partial(jitted, a, b)``, whose bound arguments shift the caller's;
* as a tracer, when another transform (``jax.make_jaxpr``, ``jax.vmap``, ``jax.jit``,
  ``jax.grad`` over the parameter) wraps the jitted function and traces that position;
* as ``self`` of a method jitted with ``static_argnums=0``;
* as a non-array leaf of an ``equinox.filter_jit`` argument, which equinox hashes.

Each path gives a ``StaticPath``: the node where JAX raises (the call that hands the value to
the slot), what the value is and where it was built.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.traced.calls import Analyzer
from jaxlint.analysis.jax.jax_api import KNOWN_APIS
from jaxlint.analysis.host.host_value import INSTANCE, JITTED, NAMESPACE, PARAM, SET, SLICE, TUPLE, HostValue
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.nodes import argument_for, arguments_by_position, dotted_name
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.syntax.tested_names import tested_names
from jaxlint.analysis.facts.outer_transforms import TRACING_LABELS, function_argument, outer_label, outer_static_positions, remedy, traces_position
from jaxlint.analysis.facts.static_arguments import arguments_by_parameter
from jaxlint.analysis.model.transforms import TransformFinder
from jaxlint.analysis.model.names import resolve

MAX_WRAPPERS = 3
# Unhashable values that JAX's pytrees keep whole as leaves (a list or dict is a node, split)
LEAF_KINDS = frozenset({SET, SLICE, NAMESPACE})


class StaticPath(NamedTuple):
    node: cst.CSTNode  # where JAX raises: the argument handed to the slot
    what: str  # "a list", "a tracer", "an instance of `Cfg` (...)"
    param: str  # the static parameter
    func: FuncInfo  # the jitted function
    built: Optional[cst.CSTNode]  # where the value was built, when elsewhere
    via: str  # how it got there, for the message: "" or " through run()"
    kind: str  # for FindingFacts.value_kind


def _kind_word(what: str) -> str:
    """The value's kind in one word or two, for FindingFacts.value_kind."""
    for prefix, word in (
        ("an instance", "instance"),
        ("a tuple", "tuple"),
        ("an optimiser state", "optimiser state"),
        ("a tracer", "tracer"),
        ("a list", "list"),
        ("a dict", "dict"),
        ("a set", "set"),
        ("an argparse.Namespace", "namespace"),
        ("a slice", "slice"),
    ):
        if what.startswith(prefix):
            return word
    return "array" if "array" in what else what


class StaticPaths:
    def __init__(self, index: ModuleIndex, finder: TransformFinder, analyzer: Analyzer, hv: HostValues):
        self.index = index
        self.finder = finder
        self.analyzer = analyzer
        self.hv = hv
        self.found: List[StaticPath] = []
        self._reported: Set[int] = set()
        self._factory_ids: Optional[Set[int]] = None
        # id(def) of a module-level function -> [(parameter, jitted function, static
        # parameter, the argument at the slot)]: the wrappers whose parameter reaches a static
        # slot, for callers in other modules
        self.forwards: Dict[int, List[Tuple[str, FuncInfo, str, cst.CSTNode]]] = {}

    def run(self) -> List[StaticPath]:
        wrappers = []
        for s in self.analyzer.module_ctx.static_arguments:
            app, call, arg, pname, scope = s.application, s.call, s.arg, s.param, s.scope
            self._reported.add(id(call))
            slot = self._check(arg.value, scope, call, pname, app.func, arg.value, "")
            if slot is not None and scope.func is not None:
                wrappers.append((scope.func, slot, app.func, pname, arg.value, 0))
        self._wrappers(wrappers)
        self._jitted_values()
        self._outer_transforms()
        self._static_self()
        self._filter_jit()
        self._record_imported_callees()
        self._record_exports()
        return self.found

    # -- callees in other modules ---------------------------------------------------------
    def _imported_callee(self, call: cst.Call, scope: Scope) -> Optional[Tuple[str, bool]]:
        """(the imported name, whether the call is of what it returns) for ``wrap(...)``,
        ``utils.wrap(...)``, ``make_step()(...)`` and ``step(...)`` after ``step = make_step()``."""
        func = call.func
        returned = False
        if isinstance(func, cst.Name):
            owner = scope.lookup_scope(func.value)
            if owner is None:
                return None
            if func.value not in owner.imports:
                binds = owner.bindings.get(func.value, ())
                values = [b.value for b in binds]
                if not values or any(not isinstance(v, cst.Call) for v in values):
                    return None
                names = {resolve(v.func, owner) for v in values}
                if len(names) != 1 or None in names:
                    return None
                return names.pop(), True
        elif isinstance(func, cst.Call):
            func, returned = func.func, True
        q = resolve(func, scope)
        return (q, returned) if q is not None else None

    def _record_imported_callees(self) -> None:
        """Host calls of imported functions (or of what they return) with arguments: recorded
        by name, so that the cross-module phase checks them when the callee turns out to be a
        wrapper or a factory.  The arguments are not looked at here: that costs an
        interpretation of the calling scope, paid only for the few calls whose callee is one."""
        host_call = getattr(self.analyzer.external, "host_call", None)
        if host_call is None:
            return
        for call, scope, _ in self.index.calls:
            if not call.args or id(call) in self._reported:
                continue
            callee = self._imported_callee(call, scope)
            if callee is None or callee[0].startswith(KNOWN_APIS) or self.finder.in_traced_code(scope):
                continue
            host_call(callee[0])

    def _record_exports(self) -> None:
        """The module-level wrappers and factories of the module, recorded for callers in
        other modules: plain values (names), a pure function of this module's source."""
        provides = getattr(self.analyzer.external, "provides", None)
        if provides is None:
            return
        for f in self.index.module_scope.defs.values():
            if f.is_lambda or f.is_method:
                continue
            forwards = self.forwards.get(id(f.node))
            if forwards:
                names = [p.name.value for p in f.positional_params()]
                provides(
                    {
                        "provides": "wrapper",
                        "name": f.name,
                        "params": names,
                        "forwards": sorted({(param, func.name, func.qualname, pname) for param, func, pname, _ in forwards}),
                    }
                )
            if id(f.node) not in self._factories():
                continue
            v = self.hv.returned(f)
            statics = self._jitted_statics(v)
            if not statics:
                continue
            app = v.app
            provides(
                {
                    "provides": "factory",
                    "name": f.name,
                    "jitted": [app.func.name, app.func.qualname],
                    "positional": app.jit_positional()[len(v.bound) :],
                    "statics": sorted(statics),
                }
            )

    def imported(self, lookup) -> List[StaticPath]:
        """The paths into static slots of functions of other modules.  ``lookup(name,
        returned)`` gives, for an imported name, what its module recorded
        (:meth:`_record_exports`): a wrapper when ``returned`` is False, a factory when True;
        else None.  ``func`` of each path is a stand-in with the jitted function's names."""
        wrappers = []
        for call, scope, _ in self.index.calls:
            if not call.args:
                continue
            callee = self._imported_callee(call, scope)
            if callee is None or self.finder.in_traced_code(scope):
                continue
            q, returned = callee
            found = lookup(q, returned)
            if not found:
                continue
            checks = []
            if returned:
                func = _JittedElsewhere(*found["jitted"])
                via = f" (the jitted function returned by {_origin(call.func, scope)})"
                checks = [(a, pname, func) for a, pname in arguments_by_position(call.args, found["positional"]) if pname in found["statics"]]
            else:
                # JAX raises inside the wrapper, where the value reaches the slot: the path ends
                # there, in the wrapper's module (``RemoteSlot``)
                via = ""
                for param, name, qualname, pname in found["forwards"]:
                    func = _JittedElsewhere(name, qualname)
                    slot_node = RemoteSlot(found, param, pname)
                    checks.extend((a, pname, func, slot_node) for a in _passed(call, found["params"], param))
            for a, pname, func, *remote in checks:
                at = remote[0] if remote else a.value
                slot = self._check(a.value, scope, call, pname, func, at, via)
                if slot is not None and scope.func is not None:
                    wrappers.append((scope.func, slot, func, pname, at, 0))
        self._wrappers(wrappers)
        return self.found

    # -- helpers ------------------------------------------------------------------------
    def _tracer_reported(self, v: HostValue, what: str) -> bool:
        """In traced code an array is a tracer, reported by the traced-value interpreter."""
        return v.kind in ("JAX array", "NumPy array", "jit result", "optimiser state") or v.kind == TUPLE and "array" in what

    def _check(self, expr, scope: Scope, call: cst.Call, pname: str, func: FuncInfo, at, via: str) -> Optional[str]:
        """Report ``expr`` (an argument of ``call`` in ``scope``) when unhashable; the name of the
        enclosing function's parameter when it is that parameter as received (a wrapper)."""
        v = self.hv.value(expr, scope, call)
        if v is None:
            return None
        if v.kind == PARAM:
            f = scope.func
            if f is not None and not f.is_lambda and not self.finder.in_traced_code(scope):
                return v.name
            return None
        what = v.unhashable(self.hv.classes)
        if what is None:
            return None
        if self.finder.in_traced_code(scope) and self._tracer_reported(v, what):
            return None  # a tracer there: the traced-value interpreter reports it
        self._add(at, what, pname, func, v.node if v.node is not at else None, via)
        return None

    def _add(self, node, what: str, pname: str, func: FuncInfo, built, via: str) -> None:
        self.found.append(StaticPath(node, what, pname, func, built, via, _kind_word(what)))

    # -- wrappers -----------------------------------------------------------------------
    def _wrappers(self, todo) -> None:
        """A plain function passing its parameter on to a static slot, called with a bad value."""
        seen = set()
        while todo:
            wrapper, param, func, pname, target, depth = todo.pop()
            key = (id(wrapper.node), param, id(target))
            if key in seen or depth >= MAX_WRAPPERS or any(b.kind != "param" for b in wrapper.body_scope.bindings.get(param, ())):
                continue
            if param in tested_names(wrapper):
                continue  # ``if isinstance(sizes, list): ...``: the wrapper looks at what it gets
            seen.add(key)
            if wrapper.scope.kind == "module" and not wrapper.is_method:
                self.forwards.setdefault(id(wrapper.node), []).append((param, func, pname, target))
            for call, scope, arg in self.calls_of(wrapper, param):
                via = f" through {wrapper.name}()"
                slot = self._check(arg.value, scope, call, pname, func, target, via)
                if slot is not None and scope.func is not None:
                    todo.append((scope.func, slot, func, pname, target, depth + 1))

    def calls_of(self, f: FuncInfo, param: str) -> Iterator[Tuple[cst.Call, Scope, cst.Arg]]:
        """Calls of the plain function ``f`` with the argument each passes for ``param``: every
        call the call-target resolver finds (by name, ``self.f(...)``, through an instance, a
        bound method kept in a name, a closure a factory returned, a partial)."""
        if self.finder.by_func.get(id(f.node)):
            return  # a traced function: what it receives is the interpreter's business
        targets = self.finder.call_targets
        for call, scope, t in targets.callers(f):
            b = targets.bind(t, call, scope)
            p = b.get(param) if b is not None else None
            if p is not None and p.call is call:
                yield call, scope, cst.Arg(value=p.expr)

    def _jitted_statics(self, v: Optional[HostValue]) -> set:
        """The static parameters of the jitted function a host value holds, when they can be
        read and the function is not a method; else an empty set."""
        if v is None or v.kind != JITTED:
            return set()
        app = v.app
        statics, opaque = self.analyzer.static_names(app)
        if opaque or app.func.is_method:
            return set()
        return statics

    def _jitted_values(self) -> None:
        for call, scope, _ in self.index.calls:
            if id(call) in self._reported:
                continue
            func = call.func
            if isinstance(func, cst.Name):
                owner = scope.lookup_scope(func.value)
                if owner is None or func.value in owner.defs or func.value in owner.classes or func.value in owner.imports:
                    continue
                if (id(owner), func.value) in self.finder.aliases:
                    continue  # ``g = jax.jit(f, ...)``: a direct call, checked above
                if not any(self._may_make_jitted(b.value, owner) for b in owner.bindings.get(func.value, ())):
                    continue
            elif not self._may_make_jitted(func, scope):
                continue
            if self.finder.in_traced_code(scope):
                continue
            v = self.hv.value(func, scope, call)
            statics = self._jitted_statics(v)
            if not statics:
                continue
            app = v.app
            pos = app.jit_positional()
            via = " through functools.partial" if v.bound else f" (the jitted function returned by {_origin(func, scope)})"
            for i, (expr, bv) in enumerate(v.bound):
                if i < len(pos) and pos[i] in statics and bv is not None:
                    what = bv.unhashable(self.hv.classes)
                    if what is not None:
                        self._add(call, what, pos[i], app.func, expr, " bound by functools.partial")
            for a, pname in arguments_by_parameter(app, call, pos[len(v.bound):]):
                if pname in statics:
                    self._check(a.value, scope, call, pname, app.func, a.value, via)

    def _may_make_jitted(self, e, scope: Scope) -> bool:
        """A cheap look before interpreting: ``functools.partial(...)``, or a call of a function
        of the module that jits something inside it (a factory)."""
        if not isinstance(e, cst.Call):
            return False
        f = e.func
        if isinstance(f, (cst.Name, cst.Attribute)) and (f.value if isinstance(f, cst.Name) else f.attr.value) == "partial":
            return True
        if isinstance(f, cst.Name):
            d = scope.lookup_def(f.value)
            return d is not None and id(d.node) in self._factories()
        return False

    def _factories(self) -> Set[int]:
        """Functions of the module inside which a jit with static parameters is applied."""
        if self._factory_ids is None:
            out: Set[int] = set()
            for app in self.finder.applications:
                if not app.transform.statics:
                    continue
                s = app.func.scope if isinstance(app.site, cst.Decorator) else app.site_scope
                while s is not None:
                    if s.kind == "function" and s.func is not None:
                        out.add(id(s.func.node))
                    s = s.parent
            self._factory_ids = out
        return self._factory_ids

    # -- transforms over a jitted function -------------------------------------------------
    def _outer_transforms(self) -> None:
        for outer in self.finder.applications:
            site = outer.site
            if not isinstance(site, cst.Call) or outer.transform.label not in TRACING_LABELS:
                continue
            fn = function_argument(site)
            if fn is None:
                continue
            inner = self.hv.value(fn, outer.site_scope, site)
            if inner is None or inner.kind != JITTED or inner.app is outer:
                continue
            app = inner.app
            statics, opaque = self.analyzer.static_names(app)
            if opaque or not statics or app.func.is_method:
                continue
            outer_statics, outer_opaque = outer_static_positions(outer)
            if outer_opaque:
                continue
            params = {p.name.value: p for p in app.func.positional_params()}
            for k, pname in enumerate(app.jit_positional()):
                if pname not in statics or params[pname].default is not None:
                    continue  # a parameter with a default may be left out by the caller
                j = k - len(inner.bound)
                if j < 0 or not traces_position(outer, j, pname, outer_statics):
                    continue
                label = outer_label(outer)
                self._add(fn, "a tracer", pname, app.func, None, f": {label} traces its argument {j} ({remedy(outer)})")

    # -- static self ---------------------------------------------------------------------
    def _static_self(self) -> None:
        methods: Dict[str, List[FuncInfo]] = {}
        for app in self.finder.applications:
            f = app.func
            if not isinstance(app.site, cst.Decorator) or not f.is_method or not app.transform.statics:
                continue
            statics, opaque = self.analyzer.static_names(app)
            first = f.positional_params()[:1]
            if not opaque and first and first[0].name.value in statics:
                methods.setdefault(f.name, []).append(f)
        if not methods:
            return
        for name, funcs in methods.items():
            calls = self.index.calls_of("." + name)
            if name == "__call__":
                calls = [(c, s) for c, s, _ in self.index.calls if isinstance(c.func, (cst.Name, cst.Call))]
            for call, scope in calls:
                receiver = call.func.value if isinstance(call.func, cst.Attribute) else call.func
                if self.finder.in_traced_code(scope) or not _may_hold_instance(receiver, scope):
                    continue
                v = self.hv.value(receiver, scope, call)
                if v is None or v.kind != INSTANCE or v.cls is None:
                    continue
                f = self.hv.classes.member(v.cls, name)
                if f not in funcs:
                    continue
                what = v.unhashable(self.hv.classes)
                if what is not None:
                    self._add(receiver, what, f.positional_params()[0].name.value, f, v.node if v.node is not receiver else None, "")

    # -- equinox filter_jit --------------------------------------------------------------
    def _filter_jit(self) -> None:
        """``eqx.filter_jit`` hashes every leaf that is not an array: an instance of a class that
        is not a pytree and has no ``__hash__`` fails there (lists and dicts are pytrees: their
        leaves are split, so they are fine)."""
        where = {id(c): s for c, s, _ in self.index.calls}
        for app in self.finder.applications:
            t = app.transform
            if not (t.filtered and t.cached):
                continue
            pos = app.jit_positional()
            for call in self.analyzer.call_sites(app):
                scope = where.get(id(call))
                if scope is None or self.finder.in_traced_code(scope):
                    continue
                for a, pname in arguments_by_parameter(app, call, pos):
                    v = self.hv.value(a.value, scope, call)
                    leaf = self._unhashable_leaf(v)
                    if leaf is not None and pname is not None:
                        what, node = leaf
                        self._add(a.value, what, pname, app.func, node if node is not a.value else None, ": filter_jit hashes the non-array leaves of its arguments")

    def _unhashable_leaf(self, v: Optional[HostValue], depth: int = 0):
        if v is None or depth > 3:
            return None
        if v.kind in LEAF_KINDS:  # no pytree node: a leaf, and no array
            return v.unhashable(self.hv.classes), v.node
        if v.kind == INSTANCE and v.cls is not None:
            classes = self.hv.classes
            if classes.pytree_kind(v.cls) is None:
                what = v.unhashable(classes)
                return (what, v.node) if what is not None and what.startswith("an instance") else None
            # a pytree: its fields are split into leaves; one the construction does not show
            # holds what every write of the attribute (its own __init__'s) agrees on
            fields = v.fields or {}
            for name in list(fields) + [n for n in classes.field_names(v.cls) if n not in fields]:
                field = fields.get(name) or self.hv.attribute_value(v.cls, name)
                r = self._unhashable_leaf(field, depth + 1)
                if r is not None:
                    return r
            return None
        if v.kind == TUPLE and v.items:
            for it in v.items:
                r = self._unhashable_leaf(it, depth + 1)
                if r is not None:
                    return r
        return None


class RemoteSlot:
    """Where a path ends when the static slot is in a wrapper of another module: its export
    record, the wrapper's parameter and the static parameter it reaches."""

    def __init__(self, export: dict, param: str, pname: str):
        self.export = export
        self.param = param
        self.pname = pname


class _JittedElsewhere:
    """A jitted function of another module, by its names (what a path's message needs)."""

    is_method = False

    def __init__(self, name: str, qualname: str):
        self.name = name
        self.qualname = qualname


def _may_hold_instance(expr, scope: Scope) -> bool:
    """A cheap look before interpreting: ``Cls(...)``, or a name some binding of which is a call."""
    if isinstance(expr, cst.Call):
        return True
    if isinstance(expr, cst.Name):
        owner = scope.lookup_scope(expr.value)
        return owner is not None and any(isinstance(b.value, cst.Call) for b in owner.bindings.get(expr.value, ()))
    return False


def _origin(func, scope: Scope) -> str:
    """``make_step()`` for ``make_step(...)(x)`` or a name bound to ``make_step(...)``."""
    call = func if isinstance(func, cst.Call) else None
    if isinstance(func, cst.Name):
        owner = scope.lookup_scope(func.value)
        for b in owner.bindings.get(func.value, ()) if owner is not None else ():
            if isinstance(b.value, cst.Call):
                call = b.value
    name = dotted_name(call.func) if call is not None else None
    return f"{name}()" if name else "a call"


def _passed(call: cst.Call, names: List[str], param: str) -> List[cst.Arg]:
    """The argument ``call`` passes for ``param``, as a list of none or one."""
    a = argument_for(call, names, param)
    return [a] if isinstance(a, cst.Arg) else []
