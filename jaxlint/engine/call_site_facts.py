"""The facts of a finding that points at an argument of a call of a jitted callable: the
parameter it lands on, the values passed first, the loop that changes them (its values, where
they come from), and how to build a ``jax.jit(...)`` of a fresh function twice.

A mixin of ``FactsDeriver``, separate because reading call sites and loops is its own concern,
with its own helpers over the syntax of loops and names.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.dynamic.examples.params import Param, bound_names, params_of
from jaxlint.dynamic.examples.render import render
from jaxlint.dynamic.examples.values import value_of_src
from jaxlint.analysis.syntax.nodes import arguments_by_position, named_params
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.names import resolve

RETRACE_VALUES = 3
# An array of unknown contents that a shape-changing argument is cut from (``data[:i]``).
UNKNOWN_ARRAY = "jax.numpy.arange(16.0)"


class CallSiteFacts:
    """The call sites' part of ``FactsDeriver``; reads ``index``, ``finder``, ``examples``, the
    lookups and the callables' facts of the class it is mixed into."""

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
        # ``obj.step(x)`` of a jitted method: the receiver fills ``self``, the call's own
        # arguments start after it (as the static checks bind them)
        receiver = params[:1] if isinstance(call.func, cst.Attribute) and app.func.is_method and not app.bound_self else []
        at_call = [p for p in params if p not in receiver]
        pname = _param_for_arg(call, arg, at_call)
        sig = self.signature(app)
        sig["params"] = [p for p in sig["params"] if p["name"] not in app.bound_kw]
        out["jitted"] = sig
        values = self.examples.call_args(call, at_call) or {}
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
                else:
                    facts["fed_back"] = True
            elif "start" in fields:
                # the call's result comes back in the argument's place, from a first value no
                # one expression holds (``state, info = env.reset()``)
                facts["fed_back"] = True
        out["call"] = facts

    def _first_values(self, call: cst.Call, scope: Scope, params: List[Param], skip: str, values: dict) -> Dict[str, dict]:
        """The other arguments of ``call`` on the first pass of the loops around it: the
        loop's own first value for its variable.  Only arguments built without a guess."""
        out: Dict[str, dict] = {}
        for a, name in zip(call.args, bound_names(call, params) or ()):
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
            for b in scope.loop_bindings(name):
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
        for call in (node, node.func):
            where = self.examples.where(call) if isinstance(call, cst.Call) else None
            if where is not None and self.finder.transform_of(call.func, where[0]) is not None:
                scope = where[0]
                break
        else:
            return None
        if not call.args or call.args[0].keyword is not None:
            return {"reason": "could not find the function passed to jax.jit"}
        api = resolve(call.func, scope)
        if api != "jax.jit":
            shown = api or cst.Module([]).code_for_node(call.func)
            return {"reason": f"only jax.jit is rebuilt, not {shown}"}
        jit_kw: Dict[str, str] = {}
        for a in call.args[1:]:
            lit = _literal(a.value, scope) if a.keyword is not None and not a.star else None
            if lit is None:
                return {"reason": "an argument of jax.jit(...) is not a literal"}
            jit_kw[a.keyword.value] = lit[0]
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
            for prm in named_params(fnode.params):
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


def _param_for_arg(call: cst.Call, arg: cst.Arg, params: List[Param]) -> Optional[str]:
    if arg.keyword is not None:
        return arg.keyword.value  # even past a star argument
    positional = [p.name for p in params if p.kind != "kw"]
    return next((name for a, name in arguments_by_position(call.args, positional) if a is arg), None)


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


def _loop_values(loop, var: str, scope: Scope) -> Tuple[List[str], str, bool]:
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
        nums = [(_literal(a.value, scope) or (None, None))[1] for a in it.args]
        if all(isinstance(n, int) and not isinstance(n, bool) for n in nums) and (len(nums) < 3 or nums[2] != 0):
            vals = list(range(*nums)[:RETRACE_VALUES])
            return [repr(v) for v in vals], "the loop's values " + ", ".join(map(repr, vals)), True
    if counted and isinstance(it, (cst.List, cst.Tuple)):
        srcs = [render(el.value, scope) if not isinstance(el, cst.StarredElement) else None for el in it.elements]
        if None not in srcs:
            srcs = list(dict.fromkeys(srcs))[:RETRACE_VALUES]
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
        # the scopes seen from the function are its own and those around it
        owner = (f.body_scope or site_scope).lookup_scope(n)
        if owner is not None and owner.kind != "module" and owner is not f.body_scope:
            return n
    return None


def _literal(expr, scope: Scope) -> Optional[Tuple[str, object]]:
    """The source ``expr`` renders to in ``scope`` and its value, when that is a Python literal."""
    r = render(expr, scope)
    try:
        return (r, ast.literal_eval(r)) if r is not None else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
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
