"""The facts of a finding about the traced callable behind it: how the dynamic worker reaches it
from the imported module (a module-level name, a method of an instance built by a constructor
call, a factory called with example arguments, a function nested in a host function), its
signature and static spec, and example argument sets for it.

A mixin of ``FactsDeriver``, separate because reaching and calling a callable is the same for
every finding, whatever the call site the finding points at.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.dynamic.examples.params import Param, params_of
from jaxlint.dynamic.examples.values import value_of_src
from jaxlint.analysis.syntax.functions import return_values
from jaxlint.analysis.syntax.scopes import FuncInfo
from jaxlint.analysis.model.transforms import Application


class CallableFacts:
    """The callables' part of ``FactsDeriver``; reads ``analysis``, ``index``, ``finder``,
    ``analyzer``, ``examples``, ``_callees`` and the lookups of the class it is mixed into."""

    def statics(self, app: Application) -> Tuple[set, bool]:
        names, opaque = self.analyzer.static_names(app)
        own = [p.name.value for p in app.func.positional_params()][app.skipped :]
        names = set(names) | set(app.bound_kw) | {own[i] for i in app.unbatched if 0 <= i < len(own)}
        if app.transform.differentiated and app.argnums is not None:
            # jax.grad differentiates only its argnums: the others stay concrete values
            names |= {n for i, n in enumerate(own) if i not in app.argnums}
        return names, opaque

    def target(self, f: FuncInfo) -> Optional[dict]:
        """How the worker finds the function object: a name reachable from the module."""
        if f.is_lambda:
            for (sid, name), app in self.finder.aliases.items():
                if app.func is f and sid == id(self.index.module_scope):
                    return {"qualname": name, "cls": None, "def_line": self.line_of(f.node), "method": False, "lambda": True}
            return None
        s = f.scope
        if s.kind == "module":
            return {"qualname": f.name, "cls": None, "def_line": self.line_of(f.node.name), "method": False}
        if s.kind == "class" and s.parent is not None and s.parent.kind == "module":
            static = any(
                isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod") for d in f.node.decorators
            )
            return {
                "qualname": f.name,
                "cls": s.name,
                "def_line": self.line_of(f.node.name),
                "method": not static,
                "ctors": self.constructor_calls(s.name),
            }
        return None

    def constructor_calls(self, cls_name: str) -> List[dict]:
        """Arguments of ``Cls(...)`` calls in the module (simple values only); the empty call last."""
        out = []
        for call, _scope, _ in self.index.calls:
            built = self._construction(call, cls_name)
            if built is not None and built not in out:
                out.append(built)
        if {"pos": [], "kw": {}} not in out:
            out.append({"pos": [], "kw": {}})
        return out[:4]

    def _construction(self, call: cst.Call, cls_name: str) -> Optional[dict]:
        """The arguments of ``call`` when it is ``Cls(...)`` of the module's class ``cls_name``
        and each argument is a simple value."""
        where = self.examples.where(call)
        if where is None or not (isinstance(call.func, cst.Name) and call.func.value == cls_name):
            return None
        if where[0].lookup_scope(cls_name) is not self.index.module_scope:
            return None
        pos, kw = [], {}
        for a in call.args:
            src = self.examples.render_at(a.value, call) if not a.star else None
            if src is None:
                return None
            if a.keyword is None:
                pos.append(value_of_src(src))
            else:
                kw[a.keyword.value] = value_of_src(src)
        return {"pos": pos, "kw": kw}

    def instance(self, node, cls_name: str, attr: str) -> Optional[dict]:
        """The module's constructions of its class ``cls_name``, with their lines: only the
        construction ``node`` is an argument of, when it is one (what that call passes is the
        finding); else every construction of the module whose arguments are simple values."""
        if self.index.module_scope.classes.get(cls_name) is None:
            return None
        hit = self._arg_of(node)
        calls = [hit[0]] if hit is not None and self._construction(hit[0], cls_name) is not None else [c for c, _s, _o in self.index.calls]
        built = [(call, self._construction(call, cls_name)) for call in calls]
        return {"cls": cls_name, "attr": attr, "ctors": [dict(b, line=self.line_of(c)) for c, b in built if b is not None][:4]}

    def _app_called_by(self, call: cst.Call) -> Optional[Application]:
        """The application a call of host code calls: a call site of it, or a call of the
        method on an instance of its class (``obj.method(...)``, ``obj(...)`` for ``__call__``)."""
        methods = (a for a in self.finder.applications if a.func.cls is not None)
        return self._app_reached_by(call) or next((a for a in methods if any(c is call for c, _s in self.examples.call_sites(a.func, []))), None)

    def related_call(self, node, inner=()) -> Optional[dict]:
        """``node`` (a related location) as a call of a jitted callable: the callable and the
        module-level function around the call.  A call of a wrapper reaches the callable
        through one of the ``inner`` related locations (its call in the wrapper)."""
        if not isinstance(node, cst.Call):
            return None
        app = self._app_called_by(node)
        for n in inner:
            if app is not None:
                break
            app = self._app_called_by(n) if isinstance(n, cst.Call) else None
        if app is None:
            return None
        callee = self.entry(app) or self._made_inside(app)
        if callee is None:
            # made where no name of the module reaches it, nor its enclosing function
            what = f"{app.transform.label} {app.func.qualname}()"
            return {"line": self.line_of(node), "callee": None, "why": f"{what} is made inside a function: no name of the module reaches it to watch its calls"}
        host = self._enclosing_function(node)
        if host is None and self._in_main_block(node):
            # the script's ``if __name__ == "__main__":`` block makes the calls: it runs them
            return {"line": self.line_of(node), "callee": callee, "main": True}
        runner = self.runner(host)
        if runner is None:
            return None
        return {"line": self.line_of(node), "callee": callee, "runner": runner}

    def _made_inside(self, app: Application) -> Optional[dict]:
        """A callable to watch, not to call: the lambda or def made inside a module-level
        function or a method of a module-level class (``jax.jit(lambda ...)`` in ``__init__``),
        which the worker finds by its code in that function's."""
        f = app.func
        outer = f.scope.func if f.scope.kind == "function" else None
        where = self.target(outer) if outer is not None and not outer.is_lambda else None
        if where is None:
            return None
        target = {
            "qualname": f.name if not f.is_lambda else "<lambda>",
            "cls": None,
            "def_line": self.line_of(f.node),
            "method": False,
            "lambda": f.is_lambda,
            "made_in": {"qualname": where["qualname"], "cls": where["cls"]},
        }
        return {"target": target, "label": f"{app.transform.label} {f.qualname}()", "argsets": [], "guessed": []}

    def _in_main_block(self, node) -> bool:
        pos = self.analysis.positions
        where = pos.get(node)
        blocks = [pos.get(s.body) for s in self.analysis.module.body if isinstance(s, cst.If) and _is_main_test(s.test)]
        return where is not None and any(b is not None and b.start.line <= where.start.line <= b.end.line for b in blocks)

    def _aliases(self, app: Application) -> List[str]:
        mid = id(self.index.module_scope)
        return [name for (sid, name), a in self.finder.aliases.items() if a is app and sid == mid]

    def entry(self, app: Application) -> Optional[dict]:
        """The transformed function as the worker calls it, with its example arguments."""
        key = (id(app), "entry")
        if key not in self._callees:
            self._callees[key] = self._entry(app)
        return self._callees[key]

    def _entry(self, app: Application) -> Optional[dict]:
        f = app.func
        target = self.target(f)
        if target is None:
            return None
        receiver = getattr(app, "receiver_cls", None)
        if target["method"] and receiver is not None and receiver is not f.cls and receiver.scope is self.index.module_scope:
            # A method bound to an object of a subclass (``jax.jit(SoftGate().apply)`` of a
            # method defined on ``Gate``): the worker builds that subclass, whose overrides apply.
            target = dict(target, instance_cls=receiver.name, ctors=self.constructor_calls(receiver.name))
        statics, opaque = self.statics(app)
        skip = app.bound_pos + (1 if target["method"] else 0)
        first = f.positional_params()
        self_static = bool(target["method"] and (app.bound_self or (first and first[0].name.value in statics)))
        return self._transformed_entry(app, target, statics, opaque, skip, self_static, self._aliases(app))

    def _transformed_entry(
        self, app: Application, target: dict, statics: set, opaque: bool, skip: int, self_static: bool, aliases: List[str]
    ) -> dict:
        """What the worker is told of a transformed function: how to reach it (``target``), the
        transform's traits, example arguments for its parameters past the first ``skip``."""
        f = app.func
        params = self._callable_params(app, statics, skip)
        argsets, guessed = self.examples.argsets(f, params, self.examples.apps_of(f))
        return {
            "target": target,
            "label": f"{app.transform.label} {f.qualname}()",
            "differentiated": bool(app.transform.differentiated),
            "cached": bool(app.transform.cached),
            "filtered": bool(app.transform.filtered),
            "self_static": self_static,
            "opaque": opaque,
            "argsets": argsets,
            "guessed": guessed,
            "statics": self.spec(app),
            "aliases": aliases,
        }

    def _callable_params(self, app: Application, statics: set, skip: int) -> List[Param]:
        params = params_of(app.func, statics, skip)
        if app.bound_kw:
            params = [p for p in params if p.name not in app.bound_kw]
        return params

    def runner(self, f: Optional[FuncInfo]) -> Optional[dict]:
        """The module-level function (or method) around ``f``, called as it is."""
        top = top_level(f)
        return self.plain(top) if top is not None else None

    def plain(self, f: FuncInfo) -> Optional[dict]:
        """A host function of the module, called as it is."""
        key = (id(f.node), "plain")
        if key in self._callees:
            return self._callees[key]
        target = self.target(f)
        out = None
        if target is not None:
            params = params_of(f, set(), 1 if target["method"] else 0)
            argsets, guessed = self.examples.argsets(f, params, self.examples.apps_of(f))
            out = {
                "target": target,
                "label": f"{f.qualname}()",
                "filtered": False,
                "self_static": True,
                "opaque": False,
                "argsets": argsets,
                "guessed": guessed,
            }
        self._callees[key] = out
        return out

    def site(self, app: Application) -> Optional[dict]:
        """The module-level function whose body applies the transform (``lax.scan(body, ...)``)."""
        # a decorator applies where the def statement runs
        scope = app.func.scope if isinstance(app.site, cst.Decorator) else app.site_scope
        holder = scope.func if scope.kind == "function" else None
        d = self.runner(holder)
        if d is not None and isinstance(app.site, cst.Decorator) and app.func.scope.func is top_level(holder):
            # a factory that returns the jitted function: call what it returns
            statics, _ = self.statics(app)
            params = params_of(app.func, statics, app.bound_pos)
            d = dict(d)
            d["then"], _ = self.examples.argsets(app.func, params, self.examples.apps_of(app.func))
        return d

    def factory(self, app: Application) -> Tuple[Optional[dict], str]:
        """A transformed function nested in a module-level factory (a def that returns something):
        the worker calls the factory and looks for the function in what it returns."""
        f = app.func
        fac = top_level(f)
        if fac is None or fac is f or fac.scope.kind != "module" or fac.is_lambda:
            return None, "no entry point reachable from the module (nested function or lambda)"
        shown = "the lambda" if f.is_lambda else f"{f.name}()"
        if self.examples.apps_of(fac):
            return None, f"{shown} is nested in {fac.name}(), which is itself transformed"
        if all(v is None for v in return_values(fac.node)):
            return None, f"{shown} is nested in {fac.name}(), which returns nothing: it cannot be reached from outside"
        if f.is_lambda:
            lines = [self.line_of(f.node)]
        else:
            lines = [self.line_of(f.node.name)]
            if f.node.decorators:
                lines.insert(0, self.line_of(f.node.decorators[0]))  # co_firstlineno of a decorated def
        fac_argsets, fac_guessed = self._factory_argsets(fac)
        statics, opaque = self.statics(app)
        target = {
            "qualname": f.name,
            "cls": None,
            "def_line": lines[-1],
            "method": False,
            "lambda": f.is_lambda,
            "factory": {"qualname": fac.name, "argsets": fac_argsets, "guessed": fac_guessed, "lines": lines},
        }
        return self._transformed_entry(app, target, statics, opaque, app.bound_pos, True, []), ""

    def nested(self, app: Application) -> Optional[dict]:
        """A transformed def nested in a module-level function that returns nothing (it makes
        the jitted function and calls it itself): the def's name and lines, and the outer
        function as the worker calls it."""
        f = app.func
        fac = top_level(f)
        if f.is_lambda or fac is None or fac is f or fac.scope.kind != "module" or fac.is_lambda or any(v is not None for v in return_values(fac.node)):
            return None
        runner = self.plain(fac)
        if runner is None:
            return None
        lines = [self.line_of(f.node.name)]
        if f.node.decorators:
            lines.insert(0, self.line_of(f.node.decorators[0]))
        return {"name": f.name, "lines": lines, "runner": runner}

    def _factory_argsets(self, fac: FuncInfo) -> Tuple[List[dict], List[str]]:
        """Arguments for calling a factory: Python numbers where nothing better is known, then arrays."""
        out: List[dict] = []
        seen = set()
        guessed: List[str] = []
        for static in (True, False):
            params = params_of(fac, set(), 0)
            for p in params:
                p.static = static
            sets, g = self.examples.argsets(fac, params, self.examples.apps_of(fac))
            if static:
                guessed = g
            for s in sets:
                key = repr([(a["name"], a["value"]) for a in s["args"]])
                if key not in seen:
                    seen.add(key)
                    out.append(s)
        return out[:8], guessed

    @staticmethod
    def spec(app: Application) -> dict:
        return {"nums": [i for i, _ in app.statics.nums], "names": [n for n, _ in app.statics.names]}

    def signature(self, app: Application) -> dict:
        """The jitted callable's signature: a stub def (defaults replaced by None) and its
        parameters, enough for ``jax.jit``'s own checks."""
        statics, _ = self.statics(app)
        params = params_of(app.func, statics, app.skipped)
        return {
            "stub": _stub(app),
            "filtered": bool(app.transform.filtered),
            "spec": self.spec(app),
            "params": [{"name": p.name, "kind": p.kind, "static": p.static, "has_default": p.has_default} for p in params],
        }


def _is_main_test(test) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = [test.left, test.comparisons[0].comparator]
    names = [x for x in sides if isinstance(x, cst.Name) and x.value == "__name__"]
    strings = [x for x in sides if isinstance(x, cst.SimpleString) and x.evaluated_value == "__main__"]
    return len(names) == 1 and len(strings) == 1


def top_level(f: Optional[FuncInfo]) -> Optional[FuncInfo]:
    """The module-level function (or method of a module-level class) that contains ``f``."""
    while f is not None and f.scope.kind == "function":
        f = f.scope.func
    s = f.scope if f is not None else None
    return f if s is not None and (s.kind == "module" or s.kind == "class" and s.parent is not None and s.parent.kind == "module") else None


def _stub(app: Application) -> str:
    f = app.func
    p = f.params
    skip = app.skipped
    parts = []
    posonly = list(p.posonly_params)
    allpos = posonly + list(p.params)
    for i, x in enumerate(allpos):
        if i < skip:
            continue
        parts.append(x.name.value + ("=None" if x.default is not None else ""))
        if i == len(posonly) - 1 and i >= skip:
            parts.append("/")
    if isinstance(p.star_arg, cst.Param):
        parts.append("*" + p.star_arg.name.value)
    elif p.kwonly_params:
        parts.append("*")
    for x in p.kwonly_params:
        if x.name.value in app.bound_kw:
            continue
        parts.append(x.name.value + ("=None" if x.default is not None else ""))
    if p.star_kwarg is not None:
        parts.append("**" + p.star_kwarg.name.value)
    return f"def {f.name if not f.is_lambda else '_lambda'}({', '.join(parts)}):\n    return None\n"
