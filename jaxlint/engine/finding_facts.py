"""The structured facts of a finding, derived from what its rule reported.

A rule reports a node, the frame of the traced function it was in (if any) and its message
fields.  From those alone -- the same for every rule -- this module says what the dynamic mode
needs to know, without reading the message: the traced entry point and how to reach it from
the imported module, the enclosing host function, the call of a jitted callable the finding
points at (the parameter, the values passed, the loop that changes them), the jitted
function's signature and static spec, the ``jax.jit(...)`` of a fresh function, and example
arguments for each callable (jaxlint.analysis.facts.examples).  A new rule gets them without edits
here.  Computed only for the findings of a module, when their positions are known.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.facts.example_params import Param, params_of
from jaxlint.analysis.facts.example_render import render
from jaxlint.analysis.facts.example_values import value_of_src
from jaxlint.analysis.facts.examples import Examples
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope, dotted_name
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.model.names import resolve
from jaxlint.findings import FindingFacts

RETRACE_VALUES = 3
# An array of unknown contents that a shape-changing argument is cut from (``data[:i]``).
UNKNOWN_ARRAY = "jax.numpy.arange(16.0)"
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class FactsDeriver:
    """Facts for the reports of one module (``analysis``: its ModuleAnalysis)."""

    def __init__(self, analysis):
        self.analysis = analysis
        self.index = analysis.index
        self.finder = analysis.finder
        self.analyzer = analysis.analyzer
        self.examples = Examples(analysis)
        self._args: Optional[Dict[int, Tuple[cst.Call, Scope, cst.Arg]]] = None
        self._callees: Dict[Tuple[int, str], Optional[dict]] = {}

    # -- positions and lookups ---------------------------------------------------------------
    def line_of(self, node) -> Optional[int]:
        return self.examples.line_of(node)

    def _arg_of(self, node) -> Optional[Tuple[cst.Call, Scope, cst.Arg]]:
        """The call whose argument ``node`` is."""
        if self._args is None:
            self._args = {}
            for call, scope, _ in self.index.calls:
                for a in call.args:
                    self._args.setdefault(id(a.value), (call, scope, a))
        return self._args.get(id(node))

    def _app_reached_by(self, call: cst.Call) -> Optional[Application]:
        for a in self.finder.applications:
            if call in self.analyzer.call_sites(a):
                return a
        return None

    def _app_declaring(self, node) -> Optional[Application]:
        """The application whose static spec or parameter list holds ``node``."""
        for app in self.finder.applications:
            if not app.transform.statics:
                continue
            nodes = [n for _, n in app.statics.nums] + [n for _, n in app.statics.names]
            nodes += list(app.func.positional_params()) + list(app.func.params.kwonly_params)
            if any(n is node for n in nodes):
                return app
        return None

    def _enclosing_function(self, node) -> Optional[FuncInfo]:
        """The innermost def around ``node`` (by the spans the engine computed)."""
        pos = self.analysis.positions
        where = pos.get(node)
        if where is None:
            return None
        line = where.start.line
        best, best_start = None, -1
        for f in self.index.functions:
            if f.is_lambda:
                continue
            span = pos.get(f.node)
            if span is not None and span.start.line <= line <= span.end.line and span.start.line >= best_start:
                best, best_start = f, span.start.line
        return best

    # -- callables -------------------------------------------------------------------------
    def statics(self, app: Application) -> Tuple[set, bool]:
        names, opaque = self.analyzer.static_names(app)
        names = set(names)
        f = app.func
        pos = [p.name.value for p in f.positional_params()]
        skip = app.skipped
        for i in app.unbatched:
            if 0 <= i < len(pos) - skip:
                names.add(pos[skip + i])
        names |= set(app.bound_kw)
        if app.transform.differentiated and app.argnums is not None:
            # jax.grad differentiates only its argnums: the others stay concrete values
            callable_pos = pos[skip:]
            names |= {n for i, n in enumerate(callable_pos) if i not in app.argnums}
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
        ctors: List[dict] = []
        for call in calls:
            built = self._construction(call, cls_name)
            if built is not None and built not in ctors:
                ctors.append(dict(built, line=self.line_of(call)))
        return {"cls": cls_name, "attr": attr, "ctors": ctors[:4]}

    def _app_called_by(self, call: cst.Call) -> Optional[Application]:
        """The application a call of host code calls: a call site of it, or a call of the
        method on an instance of its class (``obj.method(...)``, ``obj(...)`` for ``__call__``)."""
        app = self._app_reached_by(call)
        if app is not None:
            return app
        for a in self.finder.applications:
            if a.func.cls is not None and any(c is call for c, _s in self.examples.call_sites(a.func, [])):
                return a
        return None

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
            # ``trainer.step(...)``: a jitted function stored on the instance by its class
            app = self.analysis.static_objects.stored_apps.get(id(node))
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
        top = top_level(host) if host is not None else None
        runner = self.plain(top) if top is not None else None
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
        where = self.analysis.positions.get(node)
        if where is None:
            return False
        for stmt in self.analysis.module.body:
            if isinstance(stmt, cst.If) and _is_main_test(stmt.test):
                span = self.analysis.positions.get(stmt.body)
                if span is not None and span.start.line <= where.start.line <= span.end.line:
                    return True
        return False

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
        params = self._callable_params(app, statics, skip)
        argsets, guessed = self.examples.argsets(f, params, self.examples.apps_of(f))
        first = f.positional_params()
        return {
            "target": target,
            "label": f"{app.transform.label} {f.qualname}()",
            "differentiated": bool(app.transform.differentiated),
            "cached": bool(app.transform.cached),
            "filtered": bool(app.transform.filtered),
            "self_static": bool(target["method"] and (app.bound_self or (first and first[0].name.value in statics))),
            "opaque": opaque,
            "argsets": argsets,
            "guessed": guessed,
            "statics": self.spec(app),
            "aliases": self._aliases(app),
        }

    def _callable_params(self, app: Application, statics: set, skip: int) -> List[Param]:
        params = params_of(app.func, statics, skip)
        if app.bound_kw:
            params = [p for p in params if p.name not in app.bound_kw]
        return params

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
        if isinstance(app.site, cst.Decorator):
            holder = app.func.scope.func if app.func.scope.kind == "function" else None
        else:
            holder = app.site_scope.func if app.site_scope.kind == "function" else None
        if holder is None:
            return None
        top = top_level(holder)
        d = self.plain(top) if top is not None else None
        if d is not None and isinstance(app.site, cst.Decorator) and app.func.scope.func is top:
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
        if not _returns_value(fac):
            return None, f"{shown} is nested in {fac.name}(), which returns nothing: it cannot be reached from outside"
        if f.is_lambda:
            lines = [self.line_of(f.node)]
        else:
            lines = [self.line_of(f.node.name)]
            if f.node.decorators:
                lines.insert(0, self.line_of(f.node.decorators[0]))  # co_firstlineno of a decorated def
        fac_argsets, fac_guessed = self._factory_argsets(fac)
        statics, opaque = self.statics(app)
        params = self._callable_params(app, statics, app.bound_pos)
        argsets, guessed = self.examples.argsets(f, params, self.examples.apps_of(f))
        target = {
            "qualname": f.name,
            "cls": None,
            "def_line": lines[-1],
            "method": False,
            "lambda": f.is_lambda,
            "factory": {"qualname": fac.name, "argsets": fac_argsets, "guessed": fac_guessed, "lines": lines},
        }
        return {
            "target": target,
            "label": f"{app.transform.label} {f.qualname}()",
            "differentiated": bool(app.transform.differentiated),
            "cached": bool(app.transform.cached),
            "filtered": bool(app.transform.filtered),
            "self_static": True,
            "opaque": opaque,
            "argsets": argsets,
            "guessed": guessed,
            "statics": self.spec(app),
            "aliases": [],
        }, ""

    def nested(self, app: Application) -> Optional[dict]:
        """A transformed def nested in a module-level function that returns nothing (it makes
        the jitted function and calls it itself): the def's name and lines, and the outer
        function as the worker calls it."""
        f = app.func
        fac = top_level(f)
        if f.is_lambda or fac is None or fac is f or fac.scope.kind != "module" or fac.is_lambda or _returns_value(fac):
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

    # -- one report --------------------------------------------------------------------------
    def derive(self, node, frame, fields: dict, given: Optional[FindingFacts]) -> FindingFacts:
        out: Dict[str, object] = {}
        var = fields.get("var")
        if isinstance(var, str) and _DOTTED.match(var):
            out["variable"] = var
        context = fields.get("context") or {}
        if context.get("old_api"):
            out["api"] = {k: context.get(k) for k in ("old_api", "deprecated_in", "removed_in")}
        if frame is not None:
            entry = frame.entry
            out["entry"] = entry.func.qualname
            out["in_entry"] = frame.func is entry.func
            if not isinstance(entry, Application):
                out["unreachable"] = f"its traced entry point, {entry.func.qualname}, is in another file (dynamic mode imports one file at a time)"
                origin = getattr(entry, "origin", None)
                if origin is not None:
                    out["remote_entry"] = {"label": origin[0], "path": origin[1]}
            else:
                traced = self.entry(entry)
                reason = "no entry point reachable from the module (nested function or lambda)"
                if traced is None:
                    traced, reason = self.factory(entry)
                if traced is not None:
                    out["traced"] = traced
                else:
                    out["unreachable"] = reason
                    nested = self.nested(entry)
                    if nested is not None:
                        out["nested"] = nested
                site = self.site(entry)
                if site is not None:
                    out["site"] = site
        else:
            host = self._enclosing_function(node)
            top = top_level(host) if host is not None else None
            if top is not None:
                plain = self.plain(top)
                if plain is not None:
                    out["host"] = plain
            elif host is None:
                out["module_level"] = True
        hit = self._arg_of(node)
        if hit is not None:
            self._call_facts(hit, out, fields)
        declaring = self._app_declaring(node)
        if declaring is not None:
            out["jitted"] = self.signature(declaring)
            if isinstance(node, cst.Param):
                out["parameter"] = node.name.value
        if given is not None and given.value_kind is not None:
            # where the value is built: the first related location, else the finding itself
            related = fields.get("related")
            builder = self._builder(related[0][0] if related else node)
            if builder is not None:
                out["builder"] = builder
        rebuild = self._rebuild(node)
        if rebuild is not None:
            out["rebuild"] = rebuild
        if isinstance(node, cst.Attribute):
            attribute = dotted_name(node)
            if attribute is not None:
                out["attribute"] = attribute
        cls_name = fields.get("cls")
        if isinstance(cls_name, str) and isinstance(var, str) and var.isidentifier():
            instance = self.instance(node, cls_name, var)
            if instance is not None:
                out["instance"] = instance
        related = fields.get("related")
        if frame is None and related:
            rc = self.related_call(related[0][0], [r[0] for r in related[1:2]])
            if rc is not None and rc.get("main"):
                # the lines of the block that make the change (``solver.set_rhs(growth)``)
                rc["lines"] = sorted({self.line_of(n) for n, _ in related[1:] if self._in_main_block(n)} - {None})
            if rc is not None:
                out["related_call"] = rc
        loop_call = fields.get("repeated_by")
        if isinstance(loop_call, cst.Call):
            around = self._enclosing_function(loop_call)
            top = top_level(around) if around is not None else None
            repeater = self.plain(top) if top is not None else None
            if repeater is not None:
                out["repeater"] = repeater
        change = fields.get("convention")
        if change is not None:
            callee = self.entry(change.app)
            if callee is not None:
                out["convention"] = {"callee": callee, "param": change.param, "by_keyword": change.by_keyword}
        if given is not None:
            for k in ("value_kind", "entry", "parameter"):
                v = getattr(given, k)
                if v is not None:
                    out[k] = v
        return FindingFacts(**out)

    def _builder(self, node) -> Optional[dict]:
        """The module-level function around ``node``, when it can run as it is: not a method,
        and no required parameters (guessed arguments could take another path and refute a
        real finding)."""
        f = self._enclosing_function(node)
        if f is None or top_level(f) is not f or f.is_method:
            return None
        p = f.params
        if any(x.default is None for x in list(p.posonly_params) + list(p.params) + list(p.kwonly_params)):
            return None
        return self.plain(f)

    def _call_facts(self, hit, out: dict, fields: dict) -> None:
        """The finding points at an argument of a call: of which jitted callable, for which
        parameter, with which values; and, in a loop, the values the argument takes.  A rule
        that reports ``start`` (the expression the argument starts as, before a loop that
        passes the call's result back in its place) and ``part`` (which element of the
        result, None for all of it) gets the start's value too."""
        call, scope, arg = hit
        app = self._app_reached_by(call)
        if app is None:
            return
        statics, _ = self.statics(app)
        params = self._callable_params(app, statics, app.skipped)
        pname = _param_for_arg(call, arg, params)
        sig = self.signature(app)
        sig["params"] = [p for p in sig["params"] if p["name"] not in app.bound_kw]
        out["jitted"] = sig
        values = self.examples.call_args(call, params) or {}
        facts = {
            "line": self.line_of(call),
            "callee": self.entry(app),
            "values": values,
            "keywords": [a.keyword.value for a in call.args if a.keyword is not None],
        }
        if pname is not None:
            out.setdefault("parameter", pname)
            loop = self._loop(arg.value, call, scope)
            if loop is not None:
                facts["loop"] = loop
            start = fields.get("start")
            if isinstance(start, cst.BaseExpression):
                src = self.examples.render_at(start, call)
                if src is not None:
                    facts["start"] = value_of_src(src)
                    facts["result_part"] = fields.get("part")
                    facts["first_values"] = self._first_values(call, scope, params, pname, values)
        out["call"] = facts

    def _first_values(self, call: cst.Call, scope: Scope, params: List[Param], skip: str, values: dict) -> Dict[str, dict]:
        """The other arguments of ``call`` on the first pass of the loops around it: the
        loop's own first value for its variable.  Only arguments built without a guess."""
        out: Dict[str, dict] = {}
        positional = [p for p in params if p.kind != "kw"]
        for i, a in enumerate(call.args):
            if a.star:
                return {}
            name = a.keyword.value if a.keyword is not None else positional[i].name if i < len(positional) else None
            if name is None or name == skip:
                continue
            if values.get(name) is not None:
                out[name] = values[name]
                continue
            loop = self._loop(a.value, call, scope)
            if loop and loop.get("values") and loop.get("values_known") and not loop.get("guessed"):
                out[name] = loop["values"][0]
        return out

    def _loop(self, expr, call: cst.Call, scope: Scope) -> Optional[dict]:
        """The values ``expr`` takes over the innermost ``for`` loop around ``call`` whose
        variable it reads: the loop's first values substituted for the variable."""
        where = self.examples.where(call)
        if where is None:
            return None
        order = where[1]
        names = _names_in(expr)
        best = None
        for name in names:
            for b in scope.bindings.get(name, ()):
                if b.kind != "for" or b.order is None or not isinstance(b.value, cst.For):
                    continue
                if any(start == b.order and start <= order <= end for start, end in scope.loops):
                    if best is None or b.order > best[1].order:
                        best = (name, b)
        if best is None:
            return None
        var, b = best
        values, where_from, known = _loop_values(b.value, var, scope)
        guessed = []
        rendered = []
        for v in values:
            subst = {var: v}
            src = self.examples.render_at(expr, call, subst)
            if src is None:
                # names the example cannot build (a parameter nobody passes): an array of ones
                for n in sorted(names - {var}):
                    if self.examples.render_at(cst.Name(n), call) is None and scope.lookup_scope(n) is not None:
                        subst[n] = UNKNOWN_ARRAY
                        if n not in guessed:
                            guessed.append(n)
                src = self.examples.render_at(expr, call, subst)
            if src is None:
                return {"var": var, "values": [], "from": where_from, "guessed": guessed, "values_known": known}
            rendered.append(value_of_src(src))
        direct = isinstance(expr, cst.Name) and expr.value == var
        return {"var": var, "values": rendered, "from": where_from, "guessed": guessed, "direct": direct, "values_known": known}

    def _rebuild(self, node) -> Optional[dict]:
        """``jax.jit(f)`` of a function built anew: how the worker builds it twice."""
        if isinstance(node, cst.Decorator):
            app = next((a for a in self.finder.applications if a.site is node), None)
            if app is None or not app.transform.cached:
                return None
            # the decorator runs each time the def statement does, in the code around it
            return {"reason": f"the decorated {app.func.name}() is made by the code around it, not on its own"}
        if not isinstance(node, cst.Call):
            return None
        call = None
        for cand in (node, node.func):
            if isinstance(cand, cst.Call) and self.examples.where(cand) is not None:
                scope = self.examples.where(cand)[0]
                if self.finder.transform_of(cand.func, scope) is not None:
                    call = cand
                    break
        if call is None:
            return None
        scope = self.examples.where(call)[0]
        if not call.args or call.args[0].keyword is not None:
            return {"reason": "could not find the function passed to jax.jit"}
        api = resolve(call.func, scope)
        if api != "jax.jit":
            shown = api or cst.Module([]).code_for_node(call.func)
            return {"reason": f"only jax.jit is rebuilt, not {shown}"}
        jit_kw: Dict[str, str] = {}
        for a in call.args[1:]:
            r = render(a.value, scope) if a.keyword is not None and not a.star else None
            try:
                ast.literal_eval(r) if r is not None else None
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                r = None
            if r is None:
                return {"reason": "an argument of jax.jit(...) is not a literal"}
            jit_kw[a.keyword.value] = r
        fn_expr = call.args[0].value
        empty = cst.Module([])
        if isinstance(fn_expr, cst.Lambda):
            f = self.index.func_by_node.get(id(fn_expr))
            what = "lambda"
        elif isinstance(fn_expr, cst.Name):
            f = scope.lookup_def(fn_expr.value)
            what = f"{fn_expr.value}()"
        else:
            f = None
        if f is None:
            return {"reason": "could not find the function passed to jax.jit"}
        out: Dict[str, object] = {"jit_kw": jit_kw, "what": what}
        if not f.is_lambda and f.scope.kind == "module":
            # the same function object every time: jax.jit(f) twice should reuse the trace
            out["global"] = f.name
        else:
            if not f.is_lambda and f.node.decorators:
                return {"reason": f"{f.name}() is decorated: rebuilding it would run the decorators"}
            local = _enclosing_local(f, scope)
            if local is not None:
                encl = scope.func.qualname + "()" if scope.kind == "function" and scope.func is not None else "the enclosing code"
                return {"reason": f"the {what} reads `{local}`, a local variable of {encl}: it cannot be rebuilt on its own"}
            fnode = f.node
            for prm in list(fnode.params.params) + list(fnode.params.posonly_params) + list(fnode.params.kwonly_params):
                if prm.default is not None and render(prm.default, scope) is None:
                    return {"reason": f"the default of `{prm.name.value}` is not a literal"}
            if f.is_lambda:
                out["src"] = empty.code_for_node(fnode)
                out["mode"] = "eval"
            else:
                out["src"] = empty.code_for_node(fnode.with_changes(leading_lines=()))
                out["mode"] = "exec"
                out["name"] = f.name
            out["src_line"] = self.line_of(fnode)
        params = params_of(f, set(), 0)
        statics = _static_positions(jit_kw, params)
        for p in params:
            p.static = p.name in statics
        app = next((a for a in self.finder.applications if a.site is call), None)
        apps = [app] if app is not None else []
        if not f.is_lambda:
            apps += [a for a in self.examples.apps_of(f) if a is not app]
        out["argsets"], out["guessed"] = self.examples.argsets(f, params, apps)
        return out


# -- helpers ----------------------------------------------------------------------------------


def _is_main_test(test) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = [test.left, test.comparisons[0].comparator]
    names = [x for x in sides if isinstance(x, cst.Name) and x.value == "__name__"]
    strings = [x for x in sides if isinstance(x, cst.SimpleString) and x.evaluated_value == "__main__"]
    return len(names) == 1 and len(strings) == 1


def top_level(f: FuncInfo) -> Optional[FuncInfo]:
    """The module-level function (or method of a module-level class) that contains ``f``."""
    cur = f
    while cur is not None:
        s = cur.scope
        if s.kind == "module":
            return cur
        if s.kind == "class" and s.parent is not None and s.parent.kind == "module":
            return cur
        if s.kind == "function":
            cur = s.func
        else:
            return None
    return None


class _Returns(cst.CSTVisitor):
    """Whether a function's own body returns a value (nested defs, classes and lambdas left out)."""

    def __init__(self):
        self.found = False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.found = True

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False


def _returns_value(f: FuncInfo) -> bool:
    v = _Returns()
    body = f.node.body
    if isinstance(body, cst.BaseSuite):
        body.visit(v)
    return v.found


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


def _param_for_arg(call: cst.Call, arg: cst.Arg, params: List[Param]) -> Optional[str]:
    if arg.keyword is not None:
        return arg.keyword.value
    positional = [p for p in params if p.kind != "kw"]
    i = 0
    for a in call.args:
        if a.keyword is not None or a.star:
            break
        if a is arg:
            return positional[i].name if i < len(positional) else None
        i += 1
    return None


class _NameReads(cst.CSTVisitor):
    """Names an expression reads (attribute names and keywords left out)."""

    def __init__(self):
        self.names: set = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False


def _names_in(expr) -> set:
    v = _NameReads()
    expr.visit(v)
    return v.names


def _loop_values(loop: cst.For, var: str, scope: Scope) -> Tuple[List[str], str, bool]:
    """Source of the first values the loop gives ``var`` (a literal ``range`` or list), else
    three distinct ints; and whether they are the loop's own values."""
    it = loop.iter
    counted = isinstance(loop.target, cst.Name) and loop.target.value == var
    if (
        counted
        and isinstance(it, cst.Call)
        and isinstance(it.func, cst.Name)
        and it.func.value == "range"
        and scope.lookup_scope("range") is None
        and 1 <= len(it.args) <= 3
        and not any(a.keyword is not None or a.star for a in it.args)
    ):
        nums = []
        for a in it.args:
            r = render(a.value, scope)
            try:
                n = ast.literal_eval(r) if r is not None else None
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                n = None
            if not isinstance(n, int) or isinstance(n, bool):
                nums = None
                break
            nums.append(n)
        if nums is not None and (len(nums) < 3 or nums[2] != 0):
            vals = list(range(*nums)[:RETRACE_VALUES])
            return [repr(v) for v in vals], "the loop's values " + ", ".join(map(repr, vals)), True
    if counted and isinstance(it, (cst.List, cst.Tuple)):
        srcs: Optional[List[str]] = []
        for el in it.elements:
            r = render(el.value, scope) if not isinstance(el, cst.StarredElement) else None
            if r is None:
                srcs = None
                break
            if r not in srcs:
                srcs.append(r)
        if srcs is not None:
            srcs = srcs[:RETRACE_VALUES]
            return srcs, "the loop's values " + ", ".join(srcs), True
    return ["0", "1", "2"], "the values 0, 1, 2", False


class _Names(_NameReads):
    """Names a function reads (attribute names and keywords left out) and the parameters it binds."""

    def __init__(self):
        super().__init__()
        self.params: set = set()

    def visit_Param(self, node: cst.Param) -> bool:
        self.params.add(node.name.value)
        if node.annotation is not None:
            node.annotation.visit(self)
        if node.default is not None:
            node.default.visit(self)
        return False


def _enclosing_local(f: FuncInfo, site_scope: Scope) -> Optional[str]:
    """A variable of an enclosing function the fresh function reads (it cannot be rebuilt alone)."""
    v = _Names()
    f.node.visit(v)
    if not f.is_lambda:
        v.names.discard(f.name)
    for n in sorted(v.names - v.params):
        owner = (f.body_scope or site_scope).lookup_scope(n)
        if owner is None or owner.kind == "module":
            continue
        s: Optional[Scope] = owner
        inside = False
        while s is not None and f.body_scope is not None:
            if s is f.body_scope:
                inside = True
                break
            s = s.parent
        if not inside:
            return n
    return None


def _static_positions(jit_kw: Dict[str, str], params: List[Param]) -> set:
    out = set()
    nums = ast.literal_eval(jit_kw["static_argnums"]) if "static_argnums" in jit_kw else ()
    names = ast.literal_eval(jit_kw["static_argnames"]) if "static_argnames" in jit_kw else ()
    nums = (nums,) if isinstance(nums, int) else tuple(nums or ())
    names = (names,) if isinstance(names, str) else tuple(names or ())
    positional = [p.name for p in params if p.kind != "kw"]
    for i in nums:
        if isinstance(i, int) and -len(positional) <= i < len(positional):
            out.add(positional[i])
    out.update(n for n in names if isinstance(n, str))
    return out

