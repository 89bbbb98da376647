"""One scope's statements interpreted in order for host mode: assignments, branches joined,
loops run to a fixpoint of two passes, paths that ``return`` or ``raise`` left out of the join,
and the environment recorded before each call.

Separate from ``host_values`` (which evaluates expressions and answers the questions) because
the statements' walk is its own concern: it only asks the evaluator for each expression's value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.host.host_value import DICT, JAX_ARRAY, JIT_RESULT, LIST, NUMPY_ARRAY, PARAM, SCALAR, SCALAR_VAL, TUPLE, HostValue, join
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.functions import OwnCodeVisitor
from jaxlint.analysis.syntax.loop_targets import per_iteration_targets
from jaxlint.analysis.syntax.nodes import named_params, parallel_values, subscript_key, target_names
from jaxlint.analysis.syntax.scopes import Scope

if TYPE_CHECKING:
    from jaxlint.analysis.host.host_values import HostValues


class _CallCollector(FastVisitor):
    """The calls of one simple statement or expression (never holding a ``def`` or ``class``),
    each with the names that a lambda or comprehension around it binds (those shadow the scope's)."""

    def __init__(self, out: Dict[int, frozenset], in_lambda: Dict[int, bool]):
        self.out = out
        self.in_lambda = in_lambda
        self.shadow: List[frozenset] = [frozenset()]
        self.lambdas = 0

    def visit_Call(self, node: cst.Call) -> None:
        self.out[id(node)] = self.shadow[-1]
        if self.lambdas:
            self.in_lambda[id(node)] = True

    def visit_Lambda(self, node: cst.Lambda) -> None:
        p = node.params
        names = {x.name.value for x in named_params(p)}
        self.shadow.append(self.shadow[-1] | names)
        self.lambdas += 1

    def leave_Lambda(self, node) -> None:
        self.shadow.pop()
        self.lambdas -= 1

    def _comp(self, node) -> None:
        names = set()
        f = node.for_in
        while f is not None:
            names.update(target_names(f.target))
            f = f.inner_for_in
        self.shadow.append(self.shadow[-1] | names)

    def _uncomp(self, node) -> None:
        self.shadow.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _uncomp


class _SharedArguments(OwnCodeVisitor):
    """The names a statement hands to calls as plain arguments (``f(d)``, ``f(cfg=d)``), but
    not to a jitted function's call."""

    def __init__(self, run: "ScopeRun", known: set, out: list):
        self.run = run
        self.known = known  # the names whose contents are known: no other is looked for
        self.out = out

    def visit_Call(self, node: cst.Call) -> None:
        names = [a.value.value for a in node.args if isinstance(a.value, cst.Name) and not a.star and a.value.value in self.known]
        if names:
            t = self.run.hv.finder.call_targets.target(node, self.run.scope)
            if t is None or t.app is None:
                self.out.extend(names)


Env = Dict[str, Optional[HostValue]]
# methods of a list or dict that change what it holds
CONTAINER_MUTATORS = frozenset({"append", "extend", "insert", "update", "pop", "popitem", "setdefault", "clear", "remove"})
_MISSING = object()


def _join_env(a: Optional[Env], b: Optional[Env]) -> Optional[Env]:
    if a is None:
        return b
    if b is None or a is b:
        return a
    out = {}
    for k in a.keys() | b.keys():
        x, y = a.get(k, _MISSING), b.get(k, _MISSING)
        out[k] = None if x is _MISSING or y is _MISSING else join(x, y)
    return out


class ScopeRun:
    """One scope's body interpreted once: the environment before each call, the values its
    ``return`` statements give, and every value each name is bound to anywhere in the scope
    (what an inner function reading the name may see)."""

    def __init__(self, hv: "HostValues", scope: Scope, given: Optional[Env] = None):
        """``given``: what some parameters hold on one call of the function (what that call
        passes); the others hold what they receive (``PARAM``)."""
        self.hv = hv
        self.scope = scope
        self.at_call: Dict[int, Env] = {}
        # the environment the first time each call is reached: in a loop, its first iteration
        # (what the first call of a jitted function is compiled for)
        self.first_at_call: Dict[int, Env] = {}
        self.shadow: Dict[int, frozenset] = {}
        self.in_lambda: Dict[int, bool] = {}
        self.assigned: Dict[str, Optional[HostValue]] = {}
        self.returns: List[Tuple[cst.BaseExpression, Env]] = []
        self._loop_exits: List[List[Env]] = []
        self._loop_depth = 0
        env: Env = {}
        func = scope.func
        if func is not None and not func.is_lambda:
            for n in func.all_param_names():
                env[n] = given[n] if given and given.get(n) is not None else HostValue(PARAM, name=n)
        node = scope.node
        if isinstance(node, cst.Module):
            stmts = node.body
        elif isinstance(node.body, cst.IndentedBlock):
            stmts = node.body.body
        else:
            stmts = ()  # ``def f(): return x`` on one line: nothing to follow
        self.final: Env = self.block(stmts, env) or {}

    # -- statements ------------------------------------------------------------------
    def block(self, stmts, env: Optional[Env]) -> Optional[Env]:
        for st in stmts:
            if env is None:
                return None
            env = self.stmt(st, env)
        return env

    def _record(self, node, env: Env) -> None:
        found = self.hv.calls_in.get(id(node))
        if found is None or found[0] is not node:
            calls: Dict[int, frozenset] = {}
            in_lambda: Dict[int, bool] = {}
            _CallCollector(calls, in_lambda).walk(node)
            found = self.hv.calls_in[id(node)] = (node, calls, in_lambda)
        _node, calls, in_lambda = found
        self.in_lambda.update(in_lambda)
        for cid, shadow in calls.items():
            old = self.at_call.get(cid, _MISSING)
            self.at_call[cid] = env if old is _MISSING else _join_env(old, env)
            if old is _MISSING:
                self.first_at_call[cid] = env
            if shadow:
                self.shadow[cid] = shadow

    def _bind(self, env: Env, name: str, v: Optional[HostValue]) -> None:
        env[name] = v
        old = self.assigned.get(name, _MISSING)
        self.assigned[name] = v if old is _MISSING else join(old, v)

    def _assign(self, env: Env, target, v: Optional[HostValue], value_node) -> None:
        if isinstance(target, cst.Name):
            self._bind(env, target.value, v)
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            values = parallel_values(target, value_node)
            items = [self.eval(e, env) for e in values] if values is not None else None
            starred = any(isinstance(el, cst.StarredElement) for el in els)
            if items is None and not starred and v is not None and v.kind == TUPLE and v.items is not None and len(v.items) == len(els):
                items = list(v.items)
            if items is None and not starred and v is not None and v.kind == JIT_RESULT:
                items = [HostValue(JIT_RESULT, el.value) for el in els]  # each part of a jitted function's outputs: arrays
            for i, el in enumerate(els):
                self._assign(env, el.value, items[i] if items is not None else None, None)
        elif isinstance(target, cst.StarredElement):
            self._assign(env, target.value, None, None)
        elif isinstance(target, cst.Subscript):
            self._store_item(env, target, v)
        # attribute stores change no name's kind

    def _store_item(self, env: Env, target, v) -> None:
        """What a container holds after ``d["k"] = v`` (``target``: the subscript), or after
        ``xs.append(v)`` or another of its methods changes it (``target``: the call): a dict's
        item under a key written out is replaced, an appended value is one more element
        (``v``: its value); any other change leaves what it holds unknown."""
        call = target if isinstance(target, cst.Call) else None
        base = target.func.value if call is not None else target.value
        old = env.get(base.value) if isinstance(base, cst.Name) else None
        if old is None or old.kind not in (LIST, DICT) or (old.items if old.kind == LIST else old.fields) is None:
            return
        new = HostValue(old.kind, old.node)
        key = subscript_key(target) if call is None else None
        if old.kind == DICT and key is not None and v is not _MISSING:
            new = HostValue(DICT, old.node, fields={**old.fields, key: v})
        elif old.kind == LIST and call is not None and call.func.attr.value == "append" and len(call.args) == 1 and not call.args[0].star:
            v = self.eval(call.args[0].value, env)
            new = HostValue(LIST, old.node, items=(join(old.items[0], v) if old.items else v,))
        self._bind(env, base.value, new)

    def stmt(self, st, env: Env) -> Optional[Env]:
        """The environment after ``st`` (None: no path goes on).  A recorded environment is
        never changed afterwards: a statement that binds works on a copy."""
        run = self._STATEMENTS.get(type(st))
        return run(self, st, env) if run is not None else env

    def _simple_line(self, st: cst.SimpleStatementLine, env: Env) -> Optional[Env]:
        self._record(st, env)
        env = dict(env)
        for small in st.body:
            if not self._small_statement(small, env):
                return None
            self._forget_shared(small, env)
        return env

    def _forget_shared(self, small, env: Env) -> None:
        """A list or dict whose contents are known stops being known once other code can change
        it: after it is handed to a call (other than of a jitted function, which works on a
        flattened copy) or bound to another name or place (an alias, which then knows no more).
        What the call saw is recorded before."""
        known = {n for n, v in env.items() if v is not None and v.kind in (LIST, DICT) and (v.items if v.kind == LIST else v.fields) is not None}
        if not known:
            return
        shared = []
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.Name):
            shared.append(small.value.value)
        _SharedArguments(self, known, shared).walk(small)
        for n in known.intersection(shared):
            v = env[n]
            forgotten = HostValue(v.kind, v.node)
            for alias in [m for m, w in env.items() if w is v]:
                env[alias] = forgotten

    def _small_statement(self, small, env: Env) -> bool:
        """Run one small statement on ``env`` in place; False when no path goes on after it."""
        if isinstance(small, cst.Assign):
            v = self.eval(small.value, env)
            for t in small.targets:
                self._assign(env, t.target, v, small.value)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self._assign(env, small.target, self.eval(small.value, env), small.value)
        elif isinstance(small, cst.AugAssign):
            if isinstance(small.target, cst.Subscript):
                self._store_item(env, small.target, _MISSING)
            elif isinstance(small.target, cst.Name):
                old = env.get(small.target.value)
                rhs = self.eval(small.value, env)
                keep = old is not None and (
                    old.kind in (LIST, JAX_ARRAY, NUMPY_ARRAY) or old.kind == SCALAR and rhs is not None and rhs.kind == SCALAR
                )
                self._bind(env, small.target.value, (HostValue(LIST, old.node) if old.kind == LIST else old) if keep else None)  # ``xs += ys``: elements not known
        elif isinstance(small, cst.Del):
            for el in small.target.elements if isinstance(small.target, cst.Tuple) else (small.target,):
                t = el.value if isinstance(el, cst.Element) else el
                if isinstance(t, cst.Subscript):
                    self._store_item(env, t, _MISSING)
            for n in target_names(small.target):
                env.pop(n, None)
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Attribute) and small.value.func.attr.value in CONTAINER_MUTATORS:
            self._store_item(env, small.value, _MISSING)
        elif isinstance(small, cst.Return):
            if small.value is not None:
                self.returns.append((small.value, env))
            return False
        elif isinstance(small, cst.Raise):
            return False
        elif isinstance(small, (cst.Break, cst.Continue)):
            if self._loop_exits:
                self._loop_exits[-1].append(env)
            return False
        elif isinstance(small, (cst.Global, cst.Nonlocal)):
            for n in small.names:
                self._bind(env, n.name.value, None)
        elif isinstance(small, cst.Expr) and isinstance(small.value, cst.NamedExpr):
            t = small.value.target
            if isinstance(t, cst.Name):
                self._bind(env, t.value, self.eval(small.value.value, env))
        return True

    def _if(self, st: cst.If, env: Env) -> Optional[Env]:
        self._record(st.test, env)
        yes = self.block(st.body.body, env)
        if st.orelse is None:
            no = env
        elif isinstance(st.orelse, cst.If):
            no = self.stmt(st.orelse, env)
        else:
            no = self.block(st.orelse.body.body, env)
        return _join_env(yes, no)

    def _loop(self, st, env: Env) -> Optional[Env]:
        self._record(st.iter if isinstance(st, cst.For) else st.test, env)
        after = env
        self._loop_depth += 1
        # two passes, so that values of the previous iteration reach the body (one when deep)
        for _ in range(2 if self._loop_depth <= 3 else 1):
            start = dict(_join_env(env, after))
            if isinstance(st, cst.For):
                self._assign(start, st.target, self._element(st, env), None)
            self._loop_exits.append([])
            out = self.block(st.body.body, start)
            exits = self._loop_exits.pop()
            after = start if out is None else _join_env(start, out)
            for e in exits:
                after = _join_env(after, e)
        self._loop_depth -= 1
        out = _join_env(env, after)
        if st.orelse is not None:
            out = self.block(st.orelse.body.body, out)
        return out

    def _with(self, st: cst.With, env: Env) -> Optional[Env]:
        env = dict(env)
        for item in st.items:
            self._record(item.item, env)
            if item.asname is not None:
                self._assign(env, item.asname.name, None, None)
        return self.block(st.body.body, env)

    def _try(self, st, env: Env) -> Optional[Env]:
        body = self.block(st.body.body, env)
        out = body
        base = _join_env(env, body)
        for h in st.handlers:
            henv = dict(base)
            if h.name is not None:
                self._assign(henv, h.name.name, None, None)
            out = _join_env(out, self.block(h.body.body, henv))
        if st.orelse is not None and body is not None:
            out = _join_env(self.block(st.orelse.body.body, body), out)
        if st.finalbody is not None:
            out = self.block(st.finalbody.body.body, out if out is not None else base)
        return out

    def _function_def(self, st: cst.FunctionDef, env: Env) -> Optional[Env]:
        for d in st.decorators:
            self._record(d.decorator, env)
        f = self.scope.defs.get(st.name.value)
        env = dict(env)
        self._bind(env, st.name.value, self.hv.function_value(f) if f is not None and f.node is st else SCALAR_VAL)
        return env

    def _class_def(self, st: cst.ClassDef, env: Env) -> Optional[Env]:
        env = dict(env)
        self._bind(env, st.name.value, SCALAR_VAL)
        return env

    def _match(self, st: cst.Match, env: Env) -> Optional[Env]:
        self._record(st.subject, env)
        out = env
        for case in st.cases:
            out = _join_env(out, self.block(case.body.body, env))
        # names a pattern captures are not followed
        return {k: (v if k in env else None) for k, v in out.items()} if out is not None else None

    _STATEMENTS = {
        cst.SimpleStatementLine: _simple_line,
        cst.If: _if,
        cst.For: _loop,
        cst.While: _loop,
        cst.With: _with,
        cst.Try: _try,
        cst.TryStar: _try,
        cst.FunctionDef: _function_def,
        cst.ClassDef: _class_def,
        cst.Match: _match,
    }

    def _element(self, loop: cst.For, env: Env) -> Optional[HostValue]:
        """A value of the loop variable of ``for x in it``; one that is new on every
        iteration (a count, a literal of different values) carries the loop as what varies it."""
        it = loop.iter
        if isinstance(it, (cst.List, cst.Tuple)) and it.elements:
            if any(isinstance(e, cst.StarredElement) for e in it.elements):
                return None
            vals = [self.eval(e.value, env) for e in it.elements]
            out = vals[0]
            for v in vals[1:]:
                out = join(out, v)
            if out is not None and isinstance(loop.target, cst.Name) and dict(per_iteration_targets(loop)).get(loop.target.value):
                out = HostValue(out.kind, out.node, out.cls, out.items, out.fields, out.app, out.bound, out.name, out.func, out.meta, out.typ, loop, out.shaped, out.every)
            return out
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" and self.scope.lookup_scope("range") is None:
            return HostValue(SCALAR, varies=loop)
        # a row of an array matters only for its type (weak types' questions): others do not
        # pay for evaluating the iterable
        whole = self.eval(it, env) if self.hv.types else None
        if whole is not None and whole.kind in (JAX_ARRAY, NUMPY_ARRAY) and whole.typ is not None:
            return HostValue(whole.kind, it, typ=whole.typ)  # a row: an array of the same dtype and weak type
        return None

    def eval(self, e, env: Env) -> Optional[HostValue]:
        return self.hv.eval(e, self.scope, env, frozenset())
