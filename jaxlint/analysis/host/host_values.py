"""Host mode: what a name holds where code runs eagerly (module level, ``__main__`` blocks,
ordinary functions, methods and tests), as far as JAX's static slots care.

A static slot hashes what it is given, so the question is narrow: is the value surely
unhashable (a list, a dict, a set, a JAX or NumPy array, an optimiser state, an instance of a
class without ``__hash__``), surely hashable (a Python scalar, a string, a tuple of hashables, a
frozen dataclass of hashables), or not known.  Values that are callables carry what is needed
to follow them into a static slot: a jitted function (with its ``functools.partial`` bindings),
a parameter of the enclosing function (for wrappers that forward it).

Statements are interpreted in order (``scope_run``), with reassignment (``n = 3`` then ``n = jnp.array(3)``),
branches joined (``if``/``else`` that disagree give *unknown*), loops run to a fixpoint of two
passes, and paths that ``return`` or ``raise`` left out of the join.  A scope is interpreted only
when a question about one of its names is asked, once; a function is also run with its
parameters bound to what one call passes (``value_on_entry``; a call of a module function
gives what it returns so, ``returned_on_entry``), a few calls deep.  This module evaluates expressions and
answers the questions; the kinds and ``HostValue`` are in ``host_value``, calls in ``host_calls``.
``HostValues.value`` is the main question (``returned``, ``passed_value``, ``outer_value`` and
``star_values`` ask it of a function's returns, parameters, outer names and ``*args``)::

    hv = HostValues(index, finder, classes)
    v = hv.value(arg_expr, scope, call)   # HostValue or None (unknown)
    v.unhashable(hv.classes)              # "a list" / "an instance of `Cfg` (...)" / None
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Dict, Iterator, Optional, Tuple

import libcst as cst

from jaxlint.analysis.host.array_values import ARRAY_ATTRS, jax_array_type
from jaxlint.analysis.host.host_calls import HostCalls, plain_jit
from jaxlint.analysis.host import host_value as host_value
from jaxlint.analysis.host.scope_run import Env, ScopeRun
from jaxlint.analysis.model.weak_types import ANY_ARRAY, ARITHMETIC, INT, Fields, Typ, TypeEvaluator, literal_type, promote, TUPLE
from jaxlint.analysis.model.classes import ClassModel, declared_annotation
from jaxlint.analysis.syntax.functions import return_values
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.nodes import const_index, string_literal, string_value, subscript_key
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.model.transforms import Application, TransformFinder


def _calls_module_code(callee, module: Scope) -> bool:
    """The callee of a module-level call may be code of the module (a function or class it
    defines, or any name it binds other than an import): calling it may run traced code."""
    while isinstance(callee, (cst.Attribute, cst.Subscript, cst.Call)):
        callee = callee.value if not isinstance(callee, cst.Call) else callee.func
    if not isinstance(callee, cst.Name):
        return True
    name = callee.value
    if name in module.imports:
        return False
    return name in module.bindings


# How many calls deep a function's run with its parameters bound to what a call passes is
# followed (each such run is one per call and environment: deeper, their number multiplies).
ENTRY_DEPTH = 2


class HostValues(HostCalls):
    """Host-mode values of one module, computed per scope on the first question."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder, classes: ClassModel, types: bool = False, slices_hash: bool = False):
        """``types``: also give numbers and JAX arrays their dtype kind and weak type, and take
        what a function or method returns whatever it is (an instance, a tuple of scalars): what
        a jitted function's cache key holds of a value is the type of each of its leaves.  The
        hashability questions take only the kinds whose hash does not depend on the callee.
        ``slices_hash``: every Python the code must run on hashes a ``slice`` (3.12 and later)."""
        self.types = types
        self.slices_hash = slices_hash
        self.index = index
        self.finder = finder
        self.classes = classes
        self._runs: Dict[int, Optional[ScopeRun]] = {}
        self._active: set = set()
        self._returns: Dict[int, Optional[host_value.HostValue]] = {}
        self._sites: Optional[Dict[int, Application]] = None
        self._attributes: Dict[Tuple[int, str], Optional[host_value.HostValue]] = {}
        self._passed: Dict[Tuple[int, str], Optional[host_value.HostValue]] = {}
        # runs of a function entered by one call, its parameters bound to what that call
        # passes (by the call, and the environment it is evaluated in: kept alive meanwhile)
        self._entered: Dict[Tuple[int, int], Optional[ScopeRun]] = {}
        self._kept: list = []
        # id of a statement or expression -> (it, its calls) (ScopeRun._record): a loop's body and
        # the functions entered once per call are run again over the same nodes
        self.calls_in: Dict[int, tuple] = {}
        self._entering = 0  # such runs under way, one inside another

    # -- the API ---------------------------------------------------------------------
    def value(self, expr, scope: Scope, call: Optional[cst.Call] = None) -> Optional[host_value.HostValue]:
        """The value of ``expr``, written in ``scope`` inside ``call`` (the call it is an
        argument or the callee of; None: at the end of the scope).  None when not known."""
        run = self._run(scope)
        if run is None:
            return self.eval(expr, scope, {}, frozenset())
        env = run.at_call.get(id(call)) if call is not None else run.final
        if env is None:
            return None  # unreachable, or not in a statement the run saw
        shadow = run.shadow.get(id(call), frozenset()) if call is not None else frozenset()
        v = self.eval(expr, scope, env, shadow)
        if call is not None and run.in_lambda.get(id(call)) and v is not None:
            # a lambda runs later: the names it reads may have been rebound since
            v = host_value.join(v, self.eval(expr, scope, run.final, shadow))
        return v

    def value_on_entry(self, expr, scope: Scope, call: cst.Call, entry: Tuple[cst.Call, Scope]) -> Optional[host_value.HostValue]:
        """The value of ``expr`` inside ``call`` of the function ``scope`` runs, on its runs
        entered by the call ``entry`` (the caller's call and scope): the parameters hold what
        that call passes (a loop's variable, a dict made there) instead of what every caller
        may pass.  None when not known."""
        run = self._entered_run(scope, entry)
        env = run.at_call.get(id(call)) if run is not None else None
        if env is None:
            return None
        return self.eval(expr, scope, env, run.shadow.get(id(call), frozenset()))

    def _entered_run(self, scope: Scope, entry: Tuple[cst.Call, Scope], env: Optional[Env] = None, shadow: frozenset = frozenset()) -> Optional[ScopeRun]:
        """``scope``'s function run with its parameters bound to what the call ``entry`` passes
        (evaluated in ``env`` when given, else where the call is made)."""
        call, where = entry
        f = scope.func if scope.kind == "function" else None
        if f is None or f.is_lambda or f.body_scope is not scope:
            return None
        key = (id(scope), id(call), None if env is None else id(env))
        if key in self._entered:
            return self._entered[key]
        if self._too_deep(scope):
            return None
        targets = self.finder.call_targets
        t = targets.target(call, where)
        bound = targets.bind(t, call, where) if t is not None and t.func is f and t.app is None else None
        given: Env = {}
        for name, passed in (bound or {}).items():
            if passed.expr is None:
                continue  # the receiver: what ``self`` holds is read from the class
            if passed.call is call and env is not None:
                given[name] = self.eval(passed.expr, where, env, shadow)
            else:
                given[name] = self.value(passed.expr, passed.scope, passed.call)
        if not any(v is not None and v.kind != host_value.PARAM for v in given.values()):
            self._entered[key] = None
            return None
        with self._entered_into(scope):
            run = ScopeRun(self, scope, given)
        self._entered[key] = run
        if env is not None:
            self._kept.append(env)  # its id is part of the key: not reused while kept
        return run

    def returned_on_entry(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        """What the call ``e`` of a plain function or method of the module returns, its
        parameters bound to what ``e`` passes (evaluated in ``env``): every ``return`` agrees
        on it, and it holds nothing the function received unbound."""
        t = self.finder.call_targets.target(e, scope)
        if t is None or t.app is not None or t.func.is_lambda or t.func.body_scope is None:
            return None
        if self.finder.by_func.get(id(t.func.node)) or self.finder.is_traced_def(t.func) or t.func.node.decorators:
            return None
        body = t.func.body_scope
        run = None if self._too_deep(body) else self._entered_run(body, (e, scope), env, shadow)
        if run is None or not run.returns:
            return None
        out = None
        with self._entered_into(body):  # what the returns call is followed no deeper than the run
            for i, (r, renv) in enumerate(run.returns):
                v = self.eval(r, body, renv, frozenset())
                out = v if i == 0 else host_value.join(out, v)
        return _held(out, 0)

    def _too_deep(self, body: Scope) -> bool:
        """Is ``body`` being run already (recursion), or are such runs nested too deep?"""
        return id(body) in self._active or self._entering >= ENTRY_DEPTH

    @contextmanager
    def _entered_into(self, body: Scope) -> Iterator[None]:
        self._active.add(id(body))
        self._entering += 1
        try:
            yield
        finally:
            self._active.discard(id(body))
            self._entering -= 1

    def is_array(self, expr, scope: Scope) -> bool:
        """Is ``expr`` certainly a JAX array wherever ``scope`` reads it (a store ``x[i] = v``, a
        loop over it)?  A parameter annotated ``jax.Array`` is one as received."""
        v = self.bound_value(expr, scope, lambda ann, s: host_value.HostValue(host_value.JAX_ARRAY, ann) if jax_array_type(ann, s) else None)
        return v is not None and v.kind == host_value.JAX_ARRAY

    def is_container(self, expr, scope: Scope) -> bool:
        """Does evaluating ``expr`` give a list, a dict or a set?"""
        v = self.eval(expr, scope, {}, frozenset())
        return v is not None and v.kind in (host_value.LIST, host_value.DICT, host_value.SET)

    def only_containers(self, owner: Scope, name: str) -> bool:
        """Is every value ``owner`` binds to ``name`` a list, a dict or a set?"""
        binds = owner.value_bindings(name)
        return bool(binds) and all(b.value is not None and self.is_container(b.value, owner) for b in binds)

    def container_element(self, owner: Scope, name: str, el: cst.SubscriptElement):
        """The container display ``name[el]`` holds when ``name`` is bound once, to a literal that
        shows it (``STATE = {"hist": []}`` and ``STATE["hist"]``, ``LOGS = [[], []]`` and
        ``LOGS[0]``): an element alias keeps its link to the outer object.  Else None."""
        binds = owner.value_bindings(name)
        if len(binds) != 1 or binds[0].value is None or not isinstance(el.slice, cst.Index):
            return None
        outer, key = binds[0].value, el.slice.value
        found = None
        if isinstance(outer, cst.Dict) and isinstance(key, cst.SimpleString):
            want = string_value(key)
            for item in outer.elements:
                if isinstance(item, cst.DictElement) and isinstance(item.key, cst.SimpleString) and string_value(item.key) == want:
                    found = item.value
        elif isinstance(outer, (cst.List, cst.Tuple)):
            i = const_index(el)
            if i is not None and not any(isinstance(x, cst.StarredElement) for x in outer.elements) and -len(outer.elements) <= i < len(outer.elements):
                found = outer.elements[i].value
        return found if found is not None and self.is_container(found, owner) else None

    def bound_value(self, expr, scope: Scope, annotated) -> Optional[host_value.HostValue]:
        """The value of ``expr`` wherever ``scope`` reads it: each name it reads holds what every
        value the scope binds it to has in common, a parameter also what it receives, which is
        what ``annotated(annotation, scope)`` makes of its annotation (None: not known)."""
        run = self._run(scope)
        env: Env = dict(run.assigned) if run is not None else {}
        f = scope.func if scope.kind == "function" else None
        for n in f.all_param_names() if f is not None else ():
            p = f.param(n)
            given = annotated(p.annotation.annotation, f.scope) if p is not None and p.annotation is not None else None
            env[n] = host_value.join(given, env[n]) if n in env else given
        return self.eval(expr, scope, env, frozenset())

    def first_value(self, expr, scope: Scope, call: cst.Call) -> Optional[host_value.HostValue]:
        """The value of ``expr`` the first time ``call`` is reached (in a loop: on its first
        iteration, where later ones may see a value the loop rebinds).  None when not known."""
        run = self._run(scope)
        env = run.first_at_call.get(id(call)) if run is not None else None
        return self.eval(expr, scope, env, frozenset()) if env is not None else None

    # -- scopes ----------------------------------------------------------------------
    def _run(self, scope: Scope) -> Optional[ScopeRun]:
        if scope.kind == "class":
            return None
        key = id(scope)
        if key in self._runs:
            return self._runs[key]
        if key in self._active:
            return None  # asked again while being interpreted: not known
        self._active.add(key)
        try:
            run = ScopeRun(self, scope)
        finally:
            self._active.discard(key)
        self._runs[key] = run
        return run

    def outer_value(self, name: str, owner: Scope) -> Optional[host_value.HostValue]:
        """What ``name`` of ``owner`` holds where an inner function (traced code reading a
        global or a closure variable) reads it: every value it is ever bound to must agree (the
        inner function may run at any time); None when not known."""
        if name in owner.imports:
            return None
        binds = owner.bindings.get(name, ())
        if any(b.order is None for b in binds):
            return None  # also written from another function
        if len(binds) == 1:
            if name in owner.defs:
                return self.function_value(owner.defs[name])
            if name in owner.classes:
                return host_value.SCALAR_VAL
        run = self._run(owner)
        if run is None:
            return None
        if owner.kind == "module" and len(binds) > 1 and name in run.final:
            # ``TABLE = np.array(...)`` then ``TABLE = jnp.asarray(TABLE)``: a function that runs
            # after the module has run reads the last value.  Only when nothing the module
            # defines is called before that last binding (it could run the function earlier).
            last = max(b.order for b in binds)
            if not any(order < last and _calls_module_code(callee, owner) for callee, order in owner.calls):
                return run.final[name]
        if owner.func is not None and name in owner.func.all_param_names():
            # a parameter holds what every call of its function passes
            return self.passed_value(owner.func, name) if owner.unrebound_param(name) else None
        return run.assigned.get(name)

    # -- parameters of plain functions, from their call sites ------------------------------
    def passed_value(self, f: Optional[FuncInfo], name: str) -> Optional[host_value.HostValue]:
        """What parameter ``name`` of the plain function ``f`` holds, from every call of ``f``
        in the module (``def run(x, cfg): return step(x, cfg)`` ... ``run(x, Cfg(1.0))``): the
        value all of them pass, followed through callers that forward their own parameter.
        None when a call is not visible (``f`` is also used as a value), a call leaves the
        parameter out or passes it through ``*args``, or two calls disagree on its kind."""
        if f is None or f.is_lambda or f.is_method or f.body_scope is None:
            return None
        if self.finder.by_func.get(id(f.node)) or self.finder.is_traced_def(f):
            return None  # a transform's function: what it receives is traced, not passed
        if name not in [p.name.value for p in f.positional_params()] or not f.body_scope.unrebound_param(name):
            return None
        key = (id(f.node), name)
        if key not in self._passed:
            self._passed[key] = None  # while being computed: a recursive call is not known
            self._passed[key] = self._agreed(self.finder.call_targets.param_origins(f, name, only_called=True))
        return self._passed[key]

    def _agreed(self, origins) -> Optional[host_value.HostValue]:
        """The value every origin of an argument (``Passed``) agrees on; None when one is not
        known, is a receiver or a parameter, or two disagree on the kind."""
        if not origins:
            return None
        out: Optional[host_value.HostValue] = None
        for p in origins:
            if p.expr is None:
                return None  # a receiver: an object, not an argument
            v = self.value(p.expr, p.scope, p.call)
            if v is None or v.kind == host_value.PARAM or out is not None and v.kind != out.kind:
                return None
            out = v if out is None else host_value.join(out, v)
            if out is None:
                return None
        return out

    def star_values(self, g: Optional[FuncInfo]) -> Optional[Tuple[Optional[host_value.HostValue], ...]]:
        """What the ``*args`` of ``g`` hold, when ``g`` is the closure a factory returns
        (``def scanned(fn): def run(x, *args): ...; return run``), from every call the module
        makes of it, however the closure is reached (``step = scanned(kernel)`` at module
        level, in another factory, on ``self._step`` in ``__init__``) and through callers that
        forward their own parameters: the extra positional arguments, the same number at
        every call, each the value the calls agree on (None where they do not).  None when
        not known."""
        if g is None or g.is_lambda or g.is_method or not isinstance(g.params.star_arg, cst.Param):
            return None
        key = (id(g.node), "*")
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = None
        out = self._star_values(g)
        self._passed[key] = out
        return out

    def _star_values(self, g: FuncInfo) -> Optional[Tuple[Optional[host_value.HostValue], ...]]:
        factory = g.scope.func
        if factory is None or factory.is_lambda or factory.is_method:
            return None
        if g.scope.sole_def(g.name) is not g:
            return None
        returns = return_values(factory.node)
        if not returns or any(not (isinstance(r, cst.Name) and r.value == g.name) for r in returns):
            return None
        targets = self.finder.call_targets
        sites = targets.callers(g)
        if not sites:
            return None
        fixed = len(g.positional_params())
        out: Optional[list] = None
        for call, scope, t in sites:
            if t.app is not None or any(a.star or a.keyword is not None for a in call.args):
                return None
            vals = [self._agreed(targets.origins(a.value, scope, call)) for a in call.args[max(fixed - len(t.bound), 0):]]
            if out is None:
                out = vals
            elif len(out) != len(vals):
                return None
            else:
                out = [x if x is not None and y is not None and x.kind == y.kind and host_value.join(x, y) is not None else None for x, y in zip(out, vals)]
        return tuple(out) if out is not None else None

    # -- values of definitions ---------------------------------------------------------
    def function_value(self, f: FuncInfo) -> host_value.HostValue:
        """A def as a value: a jitted callable when ``jax.jit`` (or ``pmap``) decorates it."""
        for app in self.finder.by_func.get(id(f.node), ()):
            if isinstance(app.site, cst.Decorator) and plain_jit(app):
                return host_value.HostValue(host_value.JITTED, None, app=app)
        return host_value.HostValue(host_value.FUNCTION, None, func=f)

    def returned(self, f: FuncInfo) -> Optional[host_value.HostValue]:
        """What a plain function of the module returns, when every ``return`` agrees on a
        jitted callable (a factory), on arrays, or on a list, dict or set (a container is
        what it is whatever it holds), or a tuple of these; else not known."""
        key = id(f.node)
        if key in self._returns:
            return self._returns[key]
        self._returns[key] = None
        out = None
        run = self._run(f.body_scope) if f.body_scope is not None and not f.is_lambda else None
        if run is not None and run.returns:
            vals = [self.eval(r, f.body_scope, env, frozenset()) for r, env in run.returns]
            out = vals[0]
            for v in vals[1:]:
                out = host_value.join(out, v)
            out = out if self.types else _returnable(out)
        self._returns[key] = out
        return out

    # -- expressions -------------------------------------------------------------------
    def eval(self, e, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        t = type(e)  # exact types: LibCST's concrete node classes have no subclasses
        if t is cst.List:
            return host_value.HostValue(host_value.LIST, e, items=self._elements(e, scope, env, shadow))
        if t is cst.ListComp:
            return host_value.HostValue(host_value.LIST, e)
        if t is cst.Dict:
            return host_value.HostValue(host_value.DICT, e, fields=self._items(e, scope, env, shadow))
        if t is cst.DictComp:
            return host_value.HostValue(host_value.DICT, e)
        if t in (cst.Set, cst.SetComp):
            return host_value.HostValue(host_value.SET, e)
        if t is cst.Tuple:
            if any(isinstance(el, cst.StarredElement) for el in e.elements):
                return host_value.HostValue(host_value.TUPLE, e)
            return host_value.HostValue(host_value.TUPLE, e, items=tuple(self.eval(el.value, scope, env, shadow) for el in e.elements))
        if t in (cst.Integer, cst.Float):
            # a number: the literal is kept, so ``is_number`` can tell
            return host_value.HostValue(host_value.SCALAR, e, typ=literal_type(e) if self.types else None)
        if t in (cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
            return host_value.SCALAR_VAL
        if t is cst.Lambda:
            # a function like a def's (hashable; to jit's tracing a leaf that is no array)
            f = self.index.func_by_node.get(id(e))
            return host_value.HostValue(host_value.FUNCTION, e, func=f) if f is not None else host_value.SCALAR_VAL
        if t is cst.Name:
            return self._name(e, scope, env, shadow)
        if t is cst.Call:
            return self._call(e, scope, env, shadow)
        if t is cst.Attribute:
            attr = e.attr.value
            if attr in ("shape", "ndim", "size", "dtype") or attr in ARRAY_ATTRS:
                base = self.eval(e.value, scope, env, shadow)
                if base is None or base.kind not in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY):
                    return None
                return host_value.SCALAR_VAL if attr in ("ndim", "size", "dtype") else host_value.HostValue(host_value.TUPLE if attr == "shape" else base.kind, e)
            return self._object_attribute(e, scope, env, shadow)
        if t is cst.Subscript:
            base = self.eval(e.value, scope, env, shadow)
            if base is not None and base.kind == host_value.JAX_ARRAY:
                return self.array(e, scope, env, shadow)  # indexing a JAX array gives an array
            if base is not None and base.kind == host_value.DICT and base.fields is not None:
                return base.fields.get(subscript_key(e))
            if base is not None and base.kind == host_value.LIST and base.items and not any(isinstance(el.slice, cst.Slice) for el in e.slice):
                return base.items[0]  # an element: what every element of the list is
            if base is not None and base.kind == host_value.NUMPY_ARRAY and any(isinstance(el.slice, cst.Slice) for el in e.slice):
                return host_value.HostValue(base.kind, e)  # slicing a NumPy array gives one (an integer index, a scalar)
            if self.types and base is not None and base.kind == host_value.TUPLE and _is_shape(base.node):
                return host_value.HostValue(host_value.SCALAR, e, typ=Typ(INT, True))  # ``x.shape[0]``: a Python int
            return None
        if t is cst.BinaryOperation:
            return self._binary(e, scope, env, shadow)
        if t is cst.Comparison and len(e.comparisons) == 1 and isinstance(e.comparisons[0].operator, ORDERINGS):
            # an array compared element by element is an array of booleans, as arithmetic gives one
            v = self.eval(e.left, scope, env, shadow)
            if v is not None and v.kind in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY):
                return self.array(e, scope, env, shadow) if v.kind == host_value.JAX_ARRAY else host_value.HostValue(v.kind, e)
            return None
        if t is cst.UnaryOperation:
            v = self.eval(e.expression, scope, env, shadow)
            if isinstance(e.operator, cst.Not):
                return host_value.SCALAR_VAL if v is not None and v.kind == host_value.SCALAR else None
            if v is not None and v.kind == host_value.JAX_ARRAY:
                return self.array(e, scope, env, shadow)
            if v is not None and v.kind == host_value.NUMPY_ARRAY:
                return host_value.HostValue(v.kind, e)
            return v if v is not None and v.kind == host_value.SCALAR else None
        if t is cst.IfExp:
            return host_value.join(self.eval(e.body, scope, env, shadow), self.eval(e.orelse, scope, env, shadow))
        return None

    def _elements(self, e: cst.List, scope: Scope, env: Env, shadow: frozenset) -> Optional[tuple]:
        """What every element of a list display is, as a list's ``items``."""
        if any(isinstance(el, cst.StarredElement) for el in e.elements):
            return None
        out: tuple = ()
        for el in e.elements:
            v = self.eval(el.value, scope, env, shadow)
            out = (host_value.join(out[0], v) if out else v,)
        return out

    def _items(self, e: cst.Dict, scope: Scope, env: Env, shadow: frozenset) -> Optional[Dict[str, Optional[host_value.HostValue]]]:
        """The values of a dict display whose keys are all strings written out, by key."""
        out: Dict[str, Optional[host_value.HostValue]] = {}
        for el in e.elements:
            key = string_literal(el.key) if isinstance(el, cst.DictElement) else None
            if key is None:
                return None
            out[key] = self.eval(el.value, scope, env, shadow)
        return out

    # -- objects -----------------------------------------------------------------------
    def _object_attribute(self, e: cst.Attribute, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        """``obj.attr`` / ``self.attr`` of an instance of a class of the module: the field its
        constructor was given, else what every write of the attribute by the class's methods
        stores (a parameter of ``__init__`` followed to what its callers pass)."""
        attr = e.attr.value
        base = self.eval(e.value, scope, env, shadow)
        if base is not None and base.kind == host_value.INSTANCE and base.fields is not None and base.fields.get(attr) is not None:
            return base.fields[attr]
        if base is not None and base.kind not in (host_value.INSTANCE, host_value.PARAM):
            return None
        r = self.finder.receivers.receiver_of(e.value, scope)
        if r is None or r.cls is None:
            return None
        return self.attribute_value(r.cls, attr)

    def attribute_value(self, cls: ClassInfo, attr: str) -> Optional[host_value.HostValue]:
        """What every write of ``<instance>.attr`` stores, when they agree; None when it is a
        method or property, is written from outside the class or by a subclass, or a write
        cannot be read."""
        key = (id(cls), attr)
        if key in self._attributes:
            return self._attributes[key]
        self._attributes[key] = None  # a cycle answers unknown
        self._attributes[key] = self._attribute_value(cls, attr)
        return self._attributes[key]

    def _attribute_value(self, cls: ClassInfo, attr: str) -> Optional[host_value.HostValue]:
        targets = self.finder.call_targets
        if self.classes.member(cls, attr) is not None or attr in targets.members.outside_writes():
            return None
        receivers = self.finder.receivers
        for c in self.index.classes:
            if c is not cls and cls in self.classes.mro(c) and len(receivers.attribute_values(c, attr)) != len(receivers.attribute_values(cls, attr)):
                return None  # a subclass writes it too
        writes = receivers.attribute_values(cls, attr)
        if not writes:
            return self._class_attribute(cls, attr)
        out: Optional[host_value.HostValue] = None
        for i, (value, scope) in enumerate(writes):
            if value is None:
                return None
            origins = targets.origins(value, scope, None)
            if origins is None:
                return None
            for p in origins:
                if p.expr is None or p.scope is None:
                    return None
                v = self.value(p.expr, p.scope, p.call)
                if v is None or v.kind == host_value.PARAM:
                    return None
                out = v if out is None else host_value.join(out, v)
                if out is None:
                    return None
        return out

    def _class_attribute(self, cls: ClassInfo, attr: str) -> Optional[host_value.HostValue]:
        """What an instance that never stores ``attr`` reads: the class attribute, bound once
        in the body of its class or of a base (``rules = [...]``), unless a subclass binds it
        again.  An annotated name is left out: a dataclass-like class makes it a field, which
        the constructor sets."""
        if self.finder.call_targets.members.overridden(cls, attr):
            return None
        for c in self.classes.mro(cls):
            binds = c.body_scope.bindings.get(attr)
            if binds:
                if declared_annotation(c, attr) is not None:
                    return None
                only = binds[0] if len(binds) == 1 and binds[0].kind == "assign" else None
                return self.value(only.value, c.body_scope) if only is not None and only.value is not None else None
        return None

    def _binary(self, e: cst.BinaryOperation, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        a = self.eval(e.left, scope, env, shadow)
        b = self.eval(e.right, scope, env, shadow)
        if a is None or b is None or host_value.PARAM in (a.kind, b.kind):
            # an array on one side makes an array, whatever the other (a scalar, an array, a
            # parameter as received)
            if host_value.JAX_ARRAY in (a and a.kind, b and b.kind) and not isinstance(e.operator, (cst.BitOr, cst.BitAnd)):
                return host_value.HostValue(host_value.JAX_ARRAY, e)
            return None
        kinds = {a.kind, b.kind}
        if kinds <= {host_value.JAX_ARRAY, host_value.NUMPY_ARRAY, host_value.SCALAR} and kinds & {host_value.JAX_ARRAY, host_value.NUMPY_ARRAY}:
            if host_value.JAX_ARRAY in kinds:
                return self.array(e, scope, env, shadow)
            return host_value.HostValue(host_value.NUMPY_ARRAY, e)
        if kinds == {host_value.SCALAR}:
            typ = promote(a.typ, b.typ, isinstance(e.operator, cst.Divide)) if self.types and isinstance(e.operator, ARITHMETIC) else None
            return host_value.HostValue(host_value.SCALAR, e, typ=typ) if typ is not None else host_value.SCALAR_VAL
        if a.kind == host_value.LIST and (b.kind == host_value.LIST and isinstance(e.operator, cst.Add) or b.kind == host_value.SCALAR and isinstance(e.operator, cst.Multiply)):
            return host_value.HostValue(host_value.LIST, e)
        if a.kind == b.kind == host_value.TUPLE and isinstance(e.operator, cst.Add) and a.items is not None and b.items is not None:
            return host_value.HostValue(host_value.TUPLE, e, items=a.items + b.items)
        return None

    def array(self, e, scope: Scope, env: Env, shadow: frozenset, shaped: bool = False) -> host_value.HostValue:
        """The JAX array ``e`` makes, with its dtype kind and weak type when asked for types;
        ``shaped``: it has more than one element."""
        typ = None
        if self.types:
            typ = TypeEvaluator(scope, lambda n: weak_value(self._name(cst.Name(n), scope, env, shadow)), self.classes, self.finder.call_targets).of(e)
        return host_value.HostValue(host_value.JAX_ARRAY, e, typ=typ if isinstance(typ, Typ) else None, shaped=shaped)

    def _name(self, e: cst.Name, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        n = e.value
        if n in shadow:
            return None
        owner = scope.lookup_scope(n)
        if owner is None:
            return host_value.SCALAR_VAL if n in ("True", "False", "None") else None
        if owner is scope and scope.kind != "class":
            if any(b.order is None for b in scope.bindings.get(n, ())):
                return None  # rebound from an inner function (nonlocal / global): at an unknown time
            if n in env:
                return env[n]
            f = scope.sole_def(n)
            return self.function_value(f) if f is not None else None
        return self.outer_value(n, owner)


ORDERINGS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


# What a function's result is taken to be when its returns agree: a factory's jitted callable,
# arrays (``return jnp.mean(values)``), a container made there, an instance built there (by a
# classmethod's ``cls(...)`` or a helper); not a scalar or a parameter, whose meaning at the
# caller is the callee's business.
RETURNED_KINDS = frozenset(
    {host_value.JITTED, host_value.JAX_ARRAY, host_value.NUMPY_ARRAY, host_value.JIT_RESULT, host_value.LIST, host_value.DICT, host_value.SET}
)


def weak_value(v: Optional[host_value.HostValue], depth: int = 0):
    """What a jitted function's cache key holds of ``v``: the type of a number or array, field by
    field for an instance whose fields are known (weak_types' values); None when not known."""
    if v is None or depth > 4:
        return None
    if v.kind == host_value.INSTANCE and v.fields is not None:
        return Fields(v.cls, {n: weak_value(f, depth + 1) for n, f in v.fields.items()})
    if v.kind == host_value.TUPLE and v.items is not None:
        return Fields(TUPLE, {i: weak_value(it, depth + 1) for i, it in enumerate(v.items)})
    if v.kind == host_value.JIT_RESULT:
        return ANY_ARRAY
    return v.typ


def _is_shape(node) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "shape"


def _returnable(v: Optional[host_value.HostValue], depth: int = 0) -> Optional[host_value.HostValue]:
    if v is not None and v.kind in (host_value.LIST, host_value.DICT):
        return _held(v, depth)  # what it holds, as far as it is not the callee's parameters
    if v is None or v.kind in RETURNED_KINDS:
        return v
    if v.kind == host_value.TUPLE and (v.items is not None or v.every is not None) and depth < 3:
        return _each_item(v, _returnable, depth)
    if v.kind == host_value.INSTANCE:
        return _held(v, depth)
    return None


def _each_item(v: host_value.HostValue, f, depth: int) -> Optional[host_value.HostValue]:
    """A tuple with ``f`` applied to what it holds: each item, or what every item is."""
    if v.items is not None:
        return host_value.HostValue(host_value.TUPLE, v.node, items=tuple(f(it, depth + 1) for it in v.items))
    return host_value.HostValue(host_value.TUPLE, v.node, every=f(v.every, depth + 1) if v.every is not None else None)


def _held(v: Optional[host_value.HostValue], depth: int) -> Optional[host_value.HostValue]:
    """What a returned instance holds is what the callee gave it; only the callee's parameters
    mean something else at the caller (not known there)."""
    if v is None or v.kind == host_value.PARAM or depth > 3:
        return None
    if v.kind == host_value.TUPLE:
        return _each_item(v, _held, depth)
    if v.kind == host_value.DICT and v.fields is not None:
        return host_value.HostValue(host_value.DICT, v.node, fields={k: _held(f, depth + 1) for k, f in v.fields.items()})
    if v.kind == host_value.LIST and v.items:
        return host_value.HostValue(host_value.LIST, v.node, items=(_held(v.items[0], depth + 1),))
    if v.kind == host_value.INSTANCE:

        def each(fields):
            return {n: _held(f, depth + 1) for n, f in fields.items()} if fields is not None else None

        return host_value.HostValue(host_value.INSTANCE, v.node, cls=v.cls, fields=each(v.fields), meta=each(v.meta))
    return v
