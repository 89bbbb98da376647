"""What call sites pass: where the module calls a traced callable (by its name, an alias,
``self.``, an attribute or parameter bound to it, a partial), and what each call passes for a
parameter, followed through the wrappers that forward it.

Separate from the entry points that ask it (``entry_points.py``): these questions read host
code, the calls around a traced function, never its body.
"""

from __future__ import annotations

import functools
from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_api import KNOWN_APIS
from jaxlint.analysis.model.transforms import Application, arguments_by_parameter
from jaxlint.analysis.syntax.nodes import arguments_by_position
from jaxlint.analysis.syntax.scopes import ClassInfo, Scope
from jaxlint.analysis.traced.from_host import FILTERED, host_val
from jaxlint.analysis.traced import values as lattice
from jaxlint.analysis.host import host_value as host_value


class PassedArguments:
    """The Analyzer's questions about the calls of a traced callable (combined into ``Analyzer``)."""

    def passed_params(self, app: Application) -> Optional[set]:
        """Parameter names some call site of the module passes; None when unknowable (every
        parameter then counts as passed)."""
        t = app.transform
        at_site = t.calls_at_site and isinstance(app.site, cst.Call) and bool(app.site.args) and app.site.args[0].keyword is None
        if not t.statics and not t.in_axes and not t.filtered and not at_site:
            return None  # lax bodies and the like receive every operand
        f = app.func
        # At a call site a method's self is the object the method is called on.
        callable_pos = list(app.leading) + [p.name.value for p in f.positional_params()][app.bound_pos + (1 if f.is_method else 0) :]
        names: set = set()
        # ``jax.eval_shape(f, x)`` is itself the one call: what follows ``f`` there is passed
        calls = [app.site.with_changes(args=app.site.args[1:])] if at_site else self.call_sites(app)
        for call in calls:
            if any(a.star for a in call.args):
                return None
            names.update(p for _a, p in arguments_by_position(call.args, callable_pos) if p is not None)
        return names

    def call_sites(self, app: Application) -> List[cst.Call]:
        """Calls of the traced callable within this module."""
        return [call for call, _scope in self.call_sites_with_scopes(app)]

    def call_sites_with_scopes(self, app: Application) -> List[Tuple[cst.Call, Scope]]:
        """Calls of the traced callable within this module, with the scope each is in: every
        call the call targets resolve to it (by its name, an alias, ``obj.method``, an
        attribute or parameter bound to it) but through a partial (see ``_bound_passed``)."""
        # (``arguments_by_parameter`` skips ``self`` in ``obj.step(...)`` of a method: a jitted
        # unbound method kept in an attribute, ``self._f = jax.jit(Cls.f)``, binds none)
        unbound = app.func.is_method and not app.bound_self
        out = [(c, s) for c, s, t in self.finder.call_targets.app_callers(app) if not _partial(t) and bool(t.bound) == (unbound and isinstance(c.func, cst.Attribute))]
        if app.transform.converts:
            out = [(call, scope) for call, scope in out if not _reapplies_primals(call, scope, self.index)]
        return out

    def arrays_or_numbers_passed(self, app: Application, name: str) -> bool:
        """Every call site of the module passes a JAX or NumPy array or a Python number for
        ``name`` (followed through the wrappers that forward it): under nnx.jit that is a plain
        traced array, no module whose attributes may be static."""

        values = self.passed_values(app, name)
        return bool(values) and all(h.kind in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY, host_value.NUMPY_SCALAR) or host_value.is_number(h) for h in values)

    def concrete_passed(self, app: Application, name: str) -> Optional[lattice.Val]:
        """A concrete JAX (or NumPy) array, or an instance of a class of the module with its
        known fields, when every visible call passes one for ``name`` to a transform that hands
        it over untouched; else None."""

        kind = self.passed_kind(app, name) if name in app.jit_positional() else None
        if kind not in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY, host_value.INSTANCE):
            return None
        # an object of a class of the module, its fields as it was built (a JAX array in one
        # stays concrete)
        v = host_val(functools.reduce(host_value.join, self.passed_values(app, name)), self.classes)
        return v if v.kind == lattice.STATIC else None

    def converted_passed(self, app: Application, name: str, converted: bool) -> Optional[lattice.Val]:
        """What a custom derivative called on its own receives for ``name``: a JAX array as
        passed, a NumPy array, and a NumPy scalar turned into a NumPy array where the position
        is converted (checked with jax 0.10.2); else None."""

        known = self.concrete_passed(app, name)
        if known is None and converted and name in app.jit_positional() and self.passed_kind(app, name) == host_value.NUMPY_SCALAR:
            return lattice.Val(lattice.STATIC, None, lattice.NPARR)
        return known

    def passed_kind(self, app: Application, name: str) -> Optional[str]:
        """The host kind of what every call site of the module passes for ``name`` (followed
        through the wrappers that forward it), when they all agree; else None."""
        kinds = {h.kind for h in self.passed_values(app, name) or ()}
        return kinds.pop() if len(kinds) == 1 else None

    def passed_values(self, app: Application, name: str) -> Optional[List]:
        """The host value each call site of the module passes for ``name`` (a wrapper's
        parameter followed to what the wrapper's callers pass); None when one does not show it."""

        passed = self.passed_arguments(app, name)
        if not passed:
            return None
        out = []
        for call, scope, arg in passed:
            if arg is None or arg.star:
                return None
            h = self.host_values.value(arg.value, scope, call)
            if h is not None and h.kind == host_value.PARAM:
                h = self.host_values.passed_value(scope.func, h.name)
            if h is None:
                return None
            out.append(h)
        return out

    def built_at_call_sites(self, app: Application, name: str) -> Optional[str]:
        """The imported class every call of the jitted function in the module builds the
        argument for ``name`` with (``arm = Arm(w, 3)`` ... ``gate(arm, x)``), if they agree."""
        if name not in app.jit_positional() or app.bound_pos:
            return None
        found = set()
        for call, scope, arg in self.passed_arguments(app, name):
            if arg is None or isinstance(call.func, cst.Attribute):
                return None
            r = self.receivers.receiver_of(arg.value, scope)
            if r is None or r.cls is not None or r.external is None or r.built is None or r.external.startswith(KNOWN_APIS):
                return None
            found.add(r.external)
        return found.pop() if len(found) == 1 else None

    def filtered_argument(self, app: Application, name: str) -> lattice.Val:
        """A parameter of a function under equinox's filter_jit / filter_vmap, from what every
        call site of the module passes: a JAX or NumPy array is traced, a Python scalar or
        string stays the Python value (filter_jit makes it static), an instance of an
        eqx.Module class of the module is that instance with its array fields traced.  Unknown
        when a call site does not show it, or two disagree."""
        found: Optional[lattice.Val] = None
        passed = self.passed_arguments(app, name)
        if not passed:
            return lattice.UNKNOWN_VAL
        for call, scope, arg in passed:
            if arg is None:
                return lattice.UNKNOWN_VAL  # left at its default there, or behind ``*args``
            v = self.filtered_value(arg.value, scope, call, name)
            if v is None:
                return lattice.UNKNOWN_VAL
            if found is None:
                found = v
            elif lattice.signature(found) != lattice.signature(v):
                return lattice.UNKNOWN_VAL
        return found if found is not None else lattice.UNKNOWN_VAL

    def filtered_value(self, expr, scope: Scope, call: cst.Call, name: str) -> Optional[lattice.Val]:
        h = self.host_values.value(expr, scope, call)
        if h is not None and h.kind == host_value.PARAM:
            # a wrapper's parameter handed on: what every call of the wrapper passes
            h = self.host_values.passed_value(scope.func, h.name)
        v = host_val(h, self.classes, FILTERED, name, self.filtered_instance)
        if v.kind != lattice.UNKNOWN:
            return v
        r = self.receivers.receiver_of(expr, scope)
        if r is not None and r.cls is not None:
            return self.filtered_instance(r.cls, name, None)
        return None

    def passed_class(self, app: Application, param, any_class: bool = False) -> Optional[ClassInfo]:
        """The pytree class of the module whose instances the call sites pass for ``param``
        (``run(Cfg(w, 3))``, or a name built as one), when every call site that shows what it
        passes agrees on one.  Each such call is a trace of its own, with that class.
        ``any_class``: a static parameter, which holds the object itself, of any class."""
        f = app.func
        # (a bound method, ``jax.jit(opt.step)``, takes the arguments after ``self``)
        if f.is_method and not app.bound_self or app.bound_pos or not isinstance(app.site, (cst.Decorator, cst.Call)):
            return None
        found = None
        for _call, scope, arg in self.passed_arguments(app, param.name.value):
            if arg is None:
                continue
            r = self.receivers.receiver_of(arg.value, scope)
            cls = r.cls if r is not None else None
            if cls is None or not any_class and self.classes.pytree_kind(cls) is None and not self.classes.is_nnx_module(cls):
                continue
            if found is not None and found is not cls:
                return None
            found = cls
        return found

    def passed_arguments(self, app: Application, name: str) -> List[Tuple[cst.Call, Scope, Optional[cst.Arg]]]:
        """(call, scope, argument) for each call site of the traced callable in the module: the
        argument it passes for parameter ``name``, or None where it leaves the parameter out or
        a star argument may carry it.  Computed once per parameter; the parameter's class and
        its value under a filtered transform are both read from it."""
        key = (id(app), name)
        passed = self._passed_arguments.get(key)
        if passed is None:
            pos = app.jit_positional()
            passed = []
            origins = self.finder.call_targets.origins
            for call, scope in self.call_sites_with_scopes(app):
                arg = next((a for a, lands_on in arguments_by_parameter(app, call, pos) if lands_on == name), None)
                up = origins(arg.value, scope, call) if arg is not None else None
                if up is None or len(up) == 1 and up[0].expr is arg.value:
                    passed.append((call, scope, arg))
                    continue
                # a parameter of a function that forwards it (a method, ``__call__``, a closure
                # a factory returns, a function handed on by partial): what its callers pass
                for p in up:
                    passed.append((p.call if p.call is not None else call, p.scope, cst.Arg(value=p.expr)))
            passed.extend(self._bound_passed(app, name))
            self._passed_arguments[key] = passed
        return passed

    def _bound_passed(self, app: Application, name: str) -> List[Tuple[cst.Call, Scope, Optional[cst.Arg]]]:
        """What calls through a ``functools.partial`` of the jitted callable pass for
        ``name`` (``fn = partial(apply_fn, model)`` ... ``fn(x)``): the partial's bound
        argument or the call's own, followed to its origins as a forwarded parameter is."""
        ct = self.finder.call_targets
        out: List[Tuple[cst.Call, Scope, Optional[cst.Arg]]] = []
        for call, scope, t in ct.app_callers(app):
            if not _partial(t):
                continue  # a plain call: among the call sites
            b = ct.bind(t, call, scope)
            p = b.get(name) if b is not None else None
            if p is None or p.expr is None:
                out.append((call, scope, None))
                continue
            up = ct.origins(p.expr, p.scope, p.call) if p.call is not None else [p]
            if up is None:
                out.append((call, scope, None))
                continue
            for q in up:
                out.append((q.call if q.call is not None else call, q.scope, cst.Arg(value=q.expr)))
        return out


def _partial(t) -> bool:
    """A call target with arguments bound ahead by a partial (a method's receiver aside)."""
    return bool(t.keywords) or any(p.expr is not None for p in t.bound)


_RULE_REGISTRARS = ("defjvp", "defvjp")


def _reapplies_primals(call: cst.Call, scope: Scope, index) -> bool:
    """``wrapped(*primals)`` (or ``wrapped(primals[0], n)`` with nondiff arguments) in the
    derivative rule of ``wrapped`` itself (``@wrapped.defjvp`` or ``wrapped.defjvp(rule)``):
    it runs only while a call of ``wrapped`` is differentiated, on that call's own arguments,
    so it passes nothing the other calls do not."""
    f = scope.func
    if f is None or f.is_lambda or not isinstance(call.func, cst.Name) or not call.args:
        return False
    if not all(a.keyword is None and _rule_parameter(a.value, scope) for a in call.args):
        return False
    name = call.func.value
    for d in f.node.decorators:
        dec = d.decorator
        if isinstance(dec, cst.Attribute) and dec.attr.value in _RULE_REGISTRARS and isinstance(dec.value, cst.Name) and dec.value.value == name:
            return True
    for registrar in _RULE_REGISTRARS:
        for reg, reg_scope in index.calls_of("." + registrar):
            target = reg.func.value
            if not (isinstance(target, cst.Name) and target.value == name):
                continue
            if any(isinstance(a.value, cst.Name) and reg_scope.lookup_def(a.value.value) is f for a in reg.args):
                return True
    return False


def _rule_parameter(e, scope: Scope) -> bool:
    """``p`` or ``p[0]`` for a parameter ``p`` of the function ``scope`` belongs to, as received."""
    if isinstance(e, cst.Subscript) and len(e.slice) == 1 and isinstance(e.slice[0].slice, cst.Index):
        if not isinstance(e.slice[0].slice.value, cst.Integer):
            return False
        e = e.value
    if not isinstance(e, cst.Name):
        return False
    return scope.unrebound_param(e.value)
