"""Statements of traced code: each kind of statement, the branches and loops that merge what
names hold, and binding a value to an assignment target.

Separate from expressions (``expressions.py``) and calls (``call_expressions.py``): a statement
moves values between names and decides which blocks run; what a value is, is asked of them.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.jax.jax_api import CONCRETE_CONTEXTS, TRACER_ERROR_CLASSES, TRACER_ERROR_HANDLERS
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.syntax.functions import OwnCodeVisitor
from jaxlint.analysis.syntax.nodes import block_exits, dotted_name
from jaxlint.analysis.traced.annotations import is_ref_name
from jaxlint.analysis.traced.effects import state_of
from jaxlint.analysis.traced.escapes import fills_memo
from jaxlint.analysis.traced import values as lattice


class Statements:
    """The statement part of the interpreter (combined into ``Interp``)."""

    __slots__ = ()

    def block(self, body) -> None:
        if isinstance(body, cst.IndentedBlock):
            stmts = body.body
        elif isinstance(body, cst.SimpleStatementSuite):
            stmts = [body]  # ``def f(x): return int(x)``: the statements after the colon
        else:
            stmts = body
        unsure = self.frame.unsure  # (an ``if`` may make the rest of the block unsure)
        effects = self.analyzer.effects
        path = effects.path
        try:
            for st in stmts:
                if self.stmt(st):
                    break  # what follows cannot run at trace time
                if not isinstance(st, cst.SimpleStatementLine) and may_leave(st, self.analyzer.leaves):
                    effects.fork()  # the rest runs only where ``st`` did not return
        finally:
            self.frame.unsure = unsure
            effects.path = path

    def stmt(self, st) -> bool:
        """Interpret ``st``; True when it surely leaves the block (a ``return`` or ``raise``, or
        an ``if`` whose test is known and whose taken branch leaves)."""
        m = getattr(self, "s_" + type(st).__name__, None)
        if m is not None:
            return bool(m(st))
        return False

    def s_SimpleStatementLine(self, st) -> bool:
        for small in st.body:
            m = getattr(self, "x_" + type(small).__name__, None)
            if m is not None:
                m(small, st)
        return bool(st.body) and isinstance(st.body[-1], (cst.Return, cst.Raise))

    def s_SimpleStatementSuite(self, st) -> bool:
        return self.s_SimpleStatementLine(st)

    def x_Expr(self, n, st) -> None:
        self.eval(n.value)

    def x_Assign(self, n, st) -> None:
        kept = None
        if len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            if isinstance(n.value, (cst.Name, cst.Attribute)):
                kept = state_of(self.frame, n.value)  # ``prev = self.mode``: what the state holds now
            v = self.outer_object(n.value)  # ``buf = STATE``: read when ``buf`` is read
        else:
            v = self.eval(n.value)
        for t in n.targets:
            self.assign(t.target, v, st, n)
        if kept is not None:
            self.analyzer.effects.snapshot(self.frame, n.targets[0].target.value, kept)

    def x_AnnAssign(self, n, st) -> None:
        if n.value is not None:
            self.assign(n.target, self.eval(n.value), st, n)

    def x_AugAssign(self, n, st) -> None:
        v = self.eval(n.value)
        t = n.target
        if isinstance(t, cst.Name):
            old = self.frame.lookup(t.value)
            if old is None:
                old = self.name_val(t) if t.value in self.frame.declared else lattice.STATIC_VAL
            new = self.binop(old, v, n.operator)
            self.assign(t, new, st, n, aug=True)
        elif isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and self.frame.is_local(t.value.value):
            # ``seq[0] += 1`` on a list of the trace stores what the element held combined with
            # the value: a tracer where the element is one
            self.assign(t, self.binop(self.eval(t), v, n.operator), st, n, aug=True)
        else:
            self.assign(t, v, st, n, aug=True)

    def x_Return(self, n, st) -> None:
        v = self.eval(n.value) if n.value is not None else lattice.STATIC_VAL
        keeps = self.frame.keeps
        if keeps is not None and n.value is not None and _code(n.value) == keeps[0]:
            v = keeps[1]  # ``return self._key`` after the memo was filled: what was stored
        self.frame.returns.append(v)

    def x_Assert(self, n, st) -> None:
        v = self.eval(n.test, True)
        self.emit("test", self.frame, "assert", n.test, v, n)

    def x_Raise(self, n, st) -> None:
        if n.exc is not None:
            self.eval(n.exc)

    def x_Global(self, n, st) -> None:
        for name in n.names:
            self.frame.declared.add(name.name.value)

    x_Nonlocal = x_Global

    def x_Import(self, n, st) -> None:
        for alias in n.names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.frame.env.pop(alias.asname.name.value, None)

    def x_Del(self, n, st) -> None:
        pass

    def s_If(self, st: cst.If, kind: str = "if") -> bool:
        v = self.eval(st.test, True)
        self.emit("test", self.frame, kind, st.test, v, st)
        known = None
        if v.kind == lattice.STATIC and v.flags & (lattice.TRUE | lattice.FALSE):
            # A Python value known here (``if not apply_softmax:`` with the default True,
            # ``if x is None:`` on a value that shows whether it is None).
            known = bool(v.flags & lattice.TRUE)
        if known is True:
            self.block(st.body)  # the else branch cannot run at trace time
            return block_exits(st.body)
        if known is False:
            if isinstance(st.orelse, cst.If):
                return self.s_If(st.orelse, "if")
            if isinstance(st.orelse, cst.Else):
                self.block(st.orelse.body)
                return block_exits(st.orelse.body)
            return False
        before = dict(self.frame.env)
        narrowed = {n: self.narrowed(n, st.test) for n in self.narrow(st.test)}
        self.frame.env.update(narrowed)
        with self.unsure_if(v, lattice.NO_TRACER_IF_TRUE):
            self.block(st.body)
        after_body = self.frame.env
        self.frame.env = dict(before)
        with self.unsure_if(v, lattice.NO_TRACER_IF_FALSE):
            if isinstance(st.orelse, cst.If):
                self.s_If(st.orelse, "elif")
            elif isinstance(st.orelse, cst.Else):
                self.block(st.orelse.body)
        if st.orelse is None and block_exits(st.body):
            # ``if not isinstance(x, C): raise ...``: past it, x is a C (a Python object)
            self.frame.env = dict(self.frame.env)
            for n in self.narrow_false(st.test):
                self.frame.env[n] = lattice.STATIC_VAL
            if v.kind == lattice.STATIC and v.flags & lattice.NO_TRACER_IF_FALSE:
                # ``if traced: return ...``: the rest of the block runs where the test is false
                self.frame.unsure += 1
            return False
        self.frame.env = lattice.merge(after_body, self.frame.env)
        return False

    def s_For(self, st: cst.For) -> None:
        it = self.eval(st.iter)
        if lattice.surely_empty(it):
            # over an empty sequence (a loop over an array's 0 columns): the body never runs
            if st.orelse is not None:
                self.block(st.orelse.body)
            return
        elem = self.element_of(st.iter, it)
        self._loop(st, lambda: self.assign(st.target, elem, st, None))

    def s_While(self, st: cst.While) -> None:
        def head() -> None:
            v = self.eval(st.test, True)
            self.emit("test", self.frame, "while", st.test, v, st)

        self._loop(st, head)

    def _loop(self, st, head) -> None:
        """A loop body twice at most (until the kinds stop changing), so that loop-carried
        values reach the next iteration; ``head`` runs before each pass."""
        before = dict(self.frame.env)
        with self.analyzer.effects.branch():  # (the body may not run at all)
            for _ in range(2):
                head()
                snapshot = dict(self.frame.env)
                self.block(st.body)
                self.frame.env = lattice.merge(before, self.frame.env)
                if lattice.same_kinds(snapshot, self.frame.env):
                    break
        if st.orelse is not None:
            self.block(st.orelse.body)

    def s_Try(self, st) -> None:
        before = dict(self.frame.env)
        guarded = any(self.catches_tracer_errors(h) for h in st.handlers)
        self.frame.catches_tracer_errors += guarded
        refusals = self.frame.refusals
        effects = self.analyzer.effects
        with effects.branch():  # (it may raise part way, and a handler go on from there)
            try:
                self.block(st.body)
            finally:
                self.frame.catches_tracer_errors -= guarded
            refused = self.frame.refusals > refusals
            if st.orelse is not None:
                self.block(st.orelse.body)
        envs = [self.frame.env]
        for h in st.handlers:
            self.frame.env = dict(before)
            if h.name is not None and isinstance(h.name.name, cst.Name):
                self.frame.env[h.name.name.value] = lattice.STATIC_VAL
            # A handler runs only where its body raises.  One that catches what a refused
            # tracer raises (a TypeError) is the fallback for values that are not arrays: with
            # tracers it surely runs where the body refuses one, and otherwise whether the
            # trace gets there is not known.  A handler of other failures (ValueError,
            # RuntimeError) runs where they happen, tracers or not.
            unsure = self.catches_refusals(h) and not refused
            self.frame.unsure += unsure
            try:
                with effects.branch():
                    self.block(h.body)
            finally:
                self.frame.unsure -= unsure
            envs.append(self.frame.env)
        env = envs[0]
        for e in envs[1:]:
            env = lattice.merge(env, e)
        self.frame.env = env
        if st.finalbody is not None:
            self.block(st.finalbody.body)

    s_TryStar = s_Try

    def catches_refusals(self, handler) -> bool:
        """A bare ``except:``, or one naming TypeError, Exception or a JAX tracer error: what a
        refused tracer raises.  (IndexError, KeyError and AttributeError are left out: a
        handler of those is also what an index out of range, a missing key or an attribute
        set on first use runs, tracers or not.)"""
        if handler.type is None:
            return True
        types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        for t in types:
            e = t.value if isinstance(t, cst.Element) else t
            q = resolve(e, self.frame.scope) or dotted_name(e) or ""
            if q in TRACER_ERROR_HANDLERS or q.rsplit(".", 1)[-1] in TRACER_ERROR_CLASSES:
                return True
        return False

    def catches_tracer_errors(self, handler) -> bool:
        """A handler of tracer errors (``catches_refusals``) whose body does not end by
        raising: a handler that re-raises (``raise``, ``raise ValueError(...) from e``) lets
        the trace fail all the same."""
        return not _ends_by_raising(handler.body) and self.catches_refusals(handler)

    def s_With(self, st: cst.With) -> None:
        concrete = False
        for item in st.items:
            e = item.item
            if isinstance(e, cst.Call) and resolve(e.func, self.frame.scope) in CONCRETE_CONTEXTS:
                concrete = True
                v = lattice.STATIC_VAL
            else:
                v = self.eval(e)
            if item.asname is not None:
                self.assign(item.asname.name, lattice.UNKNOWN_VAL if v.kind != lattice.STATIC else lattice.STATIC_VAL, st, None)
        if concrete:
            self.frame.concrete += 1
        try:
            self.block(st.body)
        finally:
            if concrete:
                self.frame.concrete -= 1

    def s_FunctionDef(self, st: cst.FunctionDef) -> None:
        f = self.analyzer.index.func_by_node.get(id(st))
        if f is None:
            return
        decorators = [self.eval(d.decorator) for d in st.decorators]
        closure = [self.frame.env] + (self.frame.closure or [])
        ref = FnRef(f)
        fnval = (ref, closure, [], {})
        made = lattice.Val(lattice.STATIC, st.name.value, 0, None, fnval)
        for d in reversed(decorators):
            if d.fn is not None:
                # ``@cached_by(key)`` runs the decorator on the new function while tracing (what
                # it does with it, a registry or cache filled, happens here); the name keeps the
                # def's own value
                self.analyzer.call_function(self.frame, None, d.fn, [(cst.Arg(st.name), made)])
        self.frame.env[st.name.value] = made
        apps = self.analyzer.finder.by_func.get(id(st))
        if apps:
            for app in apps:
                if isinstance(app.site, cst.Decorator):
                    statics, _ = self.analyzer.static_names(app)
                    self.analyzer.trace_inline(self.frame, fnval, app.transform.label, statics, stages=app.stages)

    def s_ClassDef(self, st) -> None:
        self.frame.env[st.name.value] = lattice.STATIC_VAL

    def s_Match(self, st) -> None:
        self.eval(st.subject)
        before = dict(self.frame.env)
        env = None
        for case in st.cases:
            self.frame.env = dict(before)
            with self.analyzer.effects.branch():
                self.block(case.body)
            env = self.frame.env if env is None else lattice.merge(env, self.frame.env)
        if env is not None:
            self.frame.env = env

    # -- binding ---------------------------------------------------------------
    def assign(self, target, v: lattice.Val, st, node, aug: bool = False) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            self.analyzer.effects.snapshot(self.frame, name, None)
            if name in self.frame.declared:
                self._replaces(target, node or st, aug)
                self.emit("name_write", self.frame, target, name, v, node or st)
                self._keeps(target, lattice.STATIC_VAL, v, node or st)
            if v.kind == lattice.TRACED and v.fn is None and (v.name != name or is_ref_name(name)):
                # messages name the variable the user wrote; ``*_ref`` variables are Pallas Refs
                v = v.renamed(name, lattice.REF if is_ref_name(name) else 0)
            self.frame.env[name] = v
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in els)
            if v.items is not None and v.keys is None and not starred and len(v.items) == len(els):
                for e, item in zip(els, v.items):
                    self.assign(e.value, item, st, node)
            else:
                # Unpacked without its structure shown, as indexing it gives: the rows of an
                # array are arrays; the elements of a container a leaf, a subtree or a Python
                # value kept beside the arrays
                if v.kind == lattice.STATIC:
                    sub = lattice.STATIC_VAL
                elif v.elem is not None:
                    sub = v.elem
                elif v.container:
                    sub = lattice.Val(v.kind, v.name, (v.flags & lattice.REF) | lattice.RAW)
                else:
                    sub = lattice.Val(v.kind, v.name, v.flags & (lattice.REF | lattice.ARRAY))
                for e in els:
                    if isinstance(e, cst.StarredElement):
                        self.assign(e.value, lattice.Val(sub.kind, sub.name, lattice.PYSEQ), st, node)
                    else:
                        self.assign(e.value, sub, st, node)
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, v, st, node)
        elif isinstance(target, cst.Subscript):
            if isinstance(target.value, cst.Name):
                self.receiver = target.value
            base = self.eval(target.value)
            idx = [self.eval_slice(s) for s in target.slice]
            self.emit("store", self.frame, "subscript", target, base, idx, v, node or st, aug)
            self._keeps(target, base, v, node or st)
        elif isinstance(target, cst.Attribute):
            if isinstance(target.value, cst.Name):
                self.receiver = target.value
            base = self.eval(target.value)
            if base.attrs is not None:
                base.attrs.store(target.attr.value, v)
            self._replaces(target, node or st, aug)
            self.emit("store", self.frame, "attr", target, base, [], v, node or st, aug)
            self._keeps(target, base, v, node or st)

    def _replaces(self, target, stmt, aug: bool) -> None:
        """``target = ...`` gives the variable or attribute a new value: what the trace wrote
        there before is gone (``effects``); writing back what it held before the trace
        wrote it (``prev = self.mode`` ... ``self.mode = prev``) leaves it as it was."""
        if aug:
            return  # ``n += 1`` reads what was there
        effects = self.analyzer.effects
        state = state_of(self.frame, target)
        value = stmt.value if isinstance(stmt, (cst.Assign, cst.AnnAssign)) else None
        effects.restores(self.frame, state, value, stmt)
        effects.replace(state)

    def _keeps(self, target, base: lattice.Val, v: lattice.Val, stmt) -> None:
        if self.frame.keeps is None and fills_memo(self, target, base, v, stmt):
            self.frame.keeps = (_code(target), v)


_code = cst.Module([]).code_for_node


class _Leaves(OwnCodeVisitor):
    """Finds a ``return``, ``break`` or ``continue`` of the function (not of a nested one)."""

    found = False

    def visit_Return(self, node) -> bool:
        self.found = True
        return False

    visit_Break = visit_Continue = visit_Return


def may_leave(st, memo: dict) -> bool:
    """The compound statement ``st`` holds a ``return``, ``break`` or ``continue``: the
    statements after it may not run."""
    known = memo.get(id(st))
    if known is None:
        v = _Leaves()
        v.walk(st)
        known = memo[id(st)] = v.found
    return known


def _ends_by_raising(body) -> bool:
    """The block is one path (simple statements only: nothing returns early) that ends with a
    ``raise``."""
    if isinstance(body, cst.SimpleStatementSuite):  # ``except TypeError: raise``
        return bool(body.body) and isinstance(body.body[-1], cst.Raise)
    stmts = body.body if isinstance(body, cst.IndentedBlock) else ()
    if not stmts or not all(isinstance(st, cst.SimpleStatementLine) for st in stmts):
        return False
    last = stmts[-1].body
    return bool(last) and isinstance(last[-1], cst.Raise)
