"""Statements and expressions of traced code, evaluated to abstract values.

The interpreter walks statements once (loops twice, so loop-carried values propagate), follows
calls into functions of the same module through the Analyzer, and reports what it sees as
*events* (jaxlint.analysis.traced.events) that the rule classes subscribe to; it never decides what is
a finding itself.
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.traced.annotations import is_ref_name
from jaxlint.analysis.model.classes import annotation_class, class_named, is_classmethod, is_property
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.host.host_value import JAX_ARRAY, NUMPY_ARRAY, NUMPY_ARRAY_MAKERS, SCALAR
from jaxlint.analysis.jax.jax_api import (
    ARRAY_ATTRS,
    AXIS_DEPENDENT,
    ARRAY_METHODS,
    CONCRETE_CONTEXTS,
    CLASS_NAMESPACES,
    DISABLE_JIT_FLAGS,
    TRACER_ERROR_CLASSES,
    TRACER_ERROR_HANDLERS,
    CALLBACKS,
    DICT_METHODS,
    NUMPY_SAFE,
    NUMPY_STATIC,
    PALLAS_TRACED,
    STATIC_ATTRS,
    STATIC_FUNCS,
    STATIC_PREFIXES,
    TRACED_PREFIXES,
    TREE_MAPS,
    is_layer_class,
)
from jaxlint.analysis.traced.lax_operands import lax_operands
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS, VALUE_KINDS, FastVisitor, Scope, dotted_name
from jaxlint.analysis.syntax.nodes import const_index, is_none_literal, is_string_literal, string_value
from jaxlint.analysis.model.transform_arguments import StaticSpec, parse_statics
from jaxlint.analysis.model.transform_table import PASS_THROUGH, TRANSFORMS, Transform
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.model.names import PARTIAL, resolve
from jaxlint.analysis.traced.traced_fields import LAYER
from jaxlint.analysis.traced.values import (
    NONE,
    ARRAY,
    BOOL,
    DICT,
    FALSE,
    JAXARR,
    KNOWN_CONSTANTS,
    NPARR,
    NOTNONE,
    OPAQUE,
    PYSEQ,
    RAW,
    REF,
    SHAPE,
    STATIC,
    STATIC_VAL,
    TEXT,
    TRACED,
    TRUE,
    UNKNOWN,
    UNKNOWN_VAL,
    Val,
    first_traced_name,
    join,
    joinall,
    merge,
    same_kinds,
)

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.analysis.traced.calls import Analyzer


class Interp:
    """Interprets one function body in a Frame."""

    __slots__ = ("analyzer", "frame", "emit", "receiver", "attr_hint", "deferring")

    def __init__(self, analyzer: Analyzer, frame: Frame):
        self.analyzer = analyzer
        self.frame = frame
        self.emit = analyzer.emit
        # The name being mutated in place (``h.append(x)``, ``d[k] = v``): not a value read.
        self.receiver: Optional[cst.Name] = None
        # (name node, attribute) while evaluating ``name.attribute``: captures say which field is read
        self.attr_hint: Optional[tuple] = None
        # While an outer variable is only bound to a name (see ``outer_object``).
        self.deferring = False

    # -- statements --------------------------------------------------------------
    def block(self, body) -> None:
        if isinstance(body, cst.IndentedBlock) or isinstance(body, cst.SimpleStatementSuite):
            stmts = body.body
        else:
            stmts = body
        for st in stmts:
            self.stmt(st)

    def stmt(self, st) -> None:
        m = getattr(self, "s_" + type(st).__name__, None)
        if m is not None:
            m(st)

    def s_SimpleStatementLine(self, st) -> None:
        for small in st.body:
            m = getattr(self, "x_" + type(small).__name__, None)
            if m is not None:
                m(small, st)

    def s_SimpleStatementSuite(self, st) -> None:
        self.s_SimpleStatementLine(st)

    def x_Expr(self, n, st) -> None:
        self.eval(n.value)

    def x_Assign(self, n, st) -> None:
        if len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            v = self.outer_object(n.value)  # ``buf = STATE``: read when ``buf`` is read
        else:
            v = self.eval(n.value)
        for t in n.targets:
            self.assign(t.target, v, st, n)

    def x_AnnAssign(self, n, st) -> None:
        if n.value is not None:
            self.assign(n.target, self.eval(n.value), st, n)

    def x_AugAssign(self, n, st) -> None:
        v = self.eval(n.value)
        t = n.target
        if isinstance(t, cst.Name):
            old = self.frame.lookup(t.value)
            if old is None:
                old = self.name_val(t) if t.value in self.frame.declared else STATIC_VAL
            new = self.binop(old, v, n.operator)
            self.assign(t, new, st, n, aug=True)
        else:
            self.assign(t, v, st, n, aug=True)

    def x_Return(self, n, st) -> None:
        self.frame.returns.append(self.eval(n.value) if n.value is not None else STATIC_VAL)

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

    # -- narrowing: tests after which a name is surely a Python value -----------------
    _SCALAR_TYPES = frozenset(
        {
            "int",
            "float",
            "bool",
            "complex",
            "str",
            "bytes",
            "numbers.Number",
            "numbers.Integral",
            "numbers.Real",
            "numbers.Complex",
            "numpy.integer",
            "numpy.floating",
            "numpy.number",
            "numpy.generic",
            "numpy.bool_",
        }
    )
    _ARRAY_TYPES = frozenset({"jax.core.Tracer", "jax.Array", "jax.numpy.ndarray"})

    def _type_names(self, e) -> List[str]:
        items = [el.value for el in e.elements] if isinstance(e, cst.Tuple) else [e]
        out = []
        for it in items:
            q = resolve(it, self.frame.scope)
            if q is None and isinstance(it, cst.Name) and self.frame.scope.lookup_scope(it.value) is None:
                q = it.value
            out.append(q or "")
        return out

    def narrow(self, test, negated: bool = False) -> List[str]:
        """Names that hold Python values wherever ``test`` is true (``negated``: false)."""
        if not negated and isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self.narrow(test.left) + self.narrow(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated, call = not negated, test.expression
        else:
            call = test
        if not isinstance(call, cst.Call) or not call.args or not isinstance(call.args[0].value, cst.Name):
            return []
        name = call.args[0].value.value
        func = call.func
        fname = dotted_name(func) or ""
        if fname == "isinstance" and len(call.args) == 2 and self.frame.scope.lookup_scope("isinstance") is None:
            if not negated and annotation_class(call.args[1].value, self.frame.scope) is not None:
                return [name]  # an instance of a class of the module (see ``narrowed``)
            types = self._type_names(call.args[1].value)
            if not negated and types and not any(t in self._ARRAY_TYPES or t in ("", "object", "numpy.ndarray") for t in types):
                return [name]  # a Python scalar, or an instance of a Python class: not a tracer
            if negated and types and any(t in self._ARRAY_TYPES for t in types):
                # not an instance of a type every tracer is an instance of: not a tracer
                return [name]
            return []
        last = fname.rsplit(".", 1)[-1].lower()
        if "tracer" in last and (negated and last.startswith("is") or not negated and last.startswith("not")):
            return [name]  # ``not is_tracer(x)``, ``not_jax_tracer(x)``
        if not negated and last in ("is_concrete", "is_constant"):
            return [name]
        return []

    def narrow_false(self, test) -> List[str]:
        """Names that hold Python values wherever ``test`` is false."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.narrow(test.expression)
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            return self.narrow_false(test.left) + self.narrow_false(test.right)
        if isinstance(test, cst.Call):
            return self.narrow(test, negated=True)  # past ``if isinstance(x, Tracer): return``
        return []

    def narrowed(self, name: str, test) -> Val:
        """What ``name`` holds where ``test`` narrowed it: an instance of a pytree class of the
        module when the test is ``isinstance(name, Cls)`` on a traced value (a tree leaf picked
        out with ``is_leaf=``, a pytree argument), whose leaves stay traced and whose static
        fields are Python values (the class's field model); otherwise a Python value."""
        call = test.expression if isinstance(test, cst.UnaryOperation) else test
        if (
            call is test
            and isinstance(call, cst.Call)
            and dotted_name(call.func) == "isinstance"
            and len(call.args) == 2
            and isinstance(call.args[0].value, cst.Name)
            and call.args[0].value.value == name
        ):
            v = self.frame.lookup(name)
            cls = annotation_class(call.args[1].value, self.frame.scope)
            if v is not None and v.kind == TRACED and cls is not None:
                kind = self.analyzer.classes.pytree_kind(cls)
                if kind is not None and kind != "static":
                    return Val(TRACED, name, 0, cls=cls)
        return STATIC_VAL

    def _with_narrowed(self, test, names, fn):
        """``fn()`` with ``names`` holding what ``test`` narrowed them to (see ``narrowed``)."""
        saved = {n: self.frame.env.get(n) for n in names}
        values = {n: self.narrowed(n, test) for n in names}
        for n in names:
            self.frame.env[n] = values[n]
        try:
            return fn()
        finally:
            for n, v in saved.items():
                if v is None:
                    self.frame.env.pop(n, None)
                else:
                    self.frame.env[n] = v

    def _none_test(self, test) -> Optional[bool]:
        """For ``x is None`` / ``x is not None`` on a value known not to be None: the outcome."""
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)):
            return None
        c = test.comparisons[0]
        if not is_none_literal(c.comparator) or not isinstance(c.operator, (cst.Is, cst.IsNot)):
            return None
        v = self.frame.lookup(test.left.value)
        if v is None:
            if test.left.value not in self.frame.notnone:
                return None
        elif v.kind == STATIC and v.flags & NONE:
            return isinstance(c.operator, cst.Is)  # a default None the caller left alone
        elif not (v.flags & NOTNONE or v.items is not None or v.fn is not None or v.kind == TRACED and v.flags & ARRAY):
            return None
        return isinstance(c.operator, cst.IsNot)

    def s_If(self, st: cst.If, kind: str = "if") -> None:
        known = self._none_test(st.test)
        v = self.eval(st.test, True)
        self.emit("test", self.frame, kind, st.test, v, st)
        if known is None and v.kind == STATIC and v.flags & (TRUE | FALSE):
            # A Python value known here (``if not apply_softmax:`` with the default True).
            known = bool(v.flags & TRUE)
        if known is True:
            self.block(st.body)  # the else branch cannot run at trace time
            return
        if known is False:
            if isinstance(st.orelse, cst.If):
                self.s_If(st.orelse, "if")
            elif isinstance(st.orelse, cst.Else):
                self.block(st.orelse.body)
            return
        before = dict(self.frame.env)
        narrowed = {n: self.narrowed(n, st.test) for n in self.narrow(st.test)}
        self.frame.env.update(narrowed)
        self.block(st.body)
        after_body = self.frame.env
        self.frame.env = dict(before)
        if isinstance(st.orelse, cst.If):
            self.s_If(st.orelse, "elif")
        elif isinstance(st.orelse, cst.Else):
            self.block(st.orelse.body)
        if st.orelse is None and _exits(st.body):
            # ``if not isinstance(x, C): raise ...``: past it, x is a C (a Python object)
            self.frame.env = dict(self.frame.env)
            for n in self.narrow_false(st.test):
                self.frame.env[n] = STATIC_VAL
            return
        self.frame.env = merge(after_body, self.frame.env)

    def s_For(self, st: cst.For) -> None:
        it = self.eval(st.iter)
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
        for _ in range(2):
            head()
            snapshot = dict(self.frame.env)
            self.block(st.body)
            self.frame.env = merge(before, self.frame.env)
            if same_kinds(snapshot, self.frame.env):
                break
        if st.orelse is not None:
            self.block(st.orelse.body)

    def s_Try(self, st) -> None:
        before = dict(self.frame.env)
        guarded = any(self.catches_tracer_errors(h) for h in st.handlers)
        self.frame.catches_tracer_errors += guarded
        try:
            self.block(st.body)
        finally:
            self.frame.catches_tracer_errors -= guarded
        if st.orelse is not None:
            self.block(st.orelse.body)
        envs = [self.frame.env]
        for h in st.handlers:
            self.frame.env = dict(before)
            if h.name is not None and isinstance(h.name.name, cst.Name):
                self.frame.env[h.name.name.value] = STATIC_VAL
            self.block(h.body)
            envs.append(self.frame.env)
        env = envs[0]
        for e in envs[1:]:
            env = merge(env, e)
        self.frame.env = env
        if st.finalbody is not None:
            self.block(st.finalbody.body)

    s_TryStar = s_Try

    def catches_tracer_errors(self, handler) -> bool:
        """A bare ``except:``, or one naming TypeError, Exception or a JAX tracer error."""
        if handler.type is None:
            return True
        types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        for t in types:
            e = t.value if isinstance(t, cst.Element) else t
            q = resolve(e, self.frame.scope) or dotted_name(e) or ""
            if q in TRACER_ERROR_HANDLERS or q.rsplit(".", 1)[-1] in TRACER_ERROR_CLASSES:
                return True
        return False

    def s_With(self, st: cst.With) -> None:
        concrete = False
        for item in st.items:
            e = item.item
            if isinstance(e, cst.Call) and resolve(e.func, self.frame.scope) in CONCRETE_CONTEXTS:
                concrete = True
                v = STATIC_VAL
            else:
                v = self.eval(e)
            if item.asname is not None:
                self.assign(item.asname.name, UNKNOWN_VAL if v.kind != STATIC else STATIC_VAL, st, None)
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
        for d in st.decorators:
            self.eval(d.decorator)
        closure = [self.frame.env] + (self.frame.closure or [])
        ref = FnRef(f)
        fnval = (ref, closure, [], {})
        self.frame.env[st.name.value] = Val(STATIC, st.name.value, 0, None, fnval)
        apps = self.analyzer.finder.by_func.get(id(st))
        if apps:
            for app in apps:
                if isinstance(app.site, cst.Decorator):
                    statics, _ = self.analyzer.static_names(app)
                    self.analyzer.trace_inline(self.frame, fnval, app.transform.label, statics, stages=app.stages)

    def s_ClassDef(self, st) -> None:
        self.frame.env[st.name.value] = STATIC_VAL

    def s_Match(self, st) -> None:
        self.eval(st.subject)
        before = dict(self.frame.env)
        env = None
        for case in st.cases:
            self.frame.env = dict(before)
            self.block(case.body)
            env = self.frame.env if env is None else merge(env, self.frame.env)
        if env is not None:
            self.frame.env = env

    # -- binding ---------------------------------------------------------------
    def assign(self, target, v: Val, st, node, aug: bool = False) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            if name in self.frame.declared:
                self.emit("name_write", self.frame, target, name, v, node or st)
            if v.kind == TRACED and v.fn is None and (v.name != name or is_ref_name(name)):
                # messages name the variable the user wrote; ``*_ref`` variables are Pallas Refs
                v = v.renamed(name, REF if is_ref_name(name) else 0)
            self.frame.env[name] = v
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in els)
            if v.items is not None and v.keys is None and not starred and len(v.items) == len(els):
                for e, item in zip(els, v.items):
                    self.assign(e.value, item, st, node)
            else:
                sub = Val(v.kind, v.name, v.flags & REF) if v.kind != STATIC else STATIC_VAL
                for e in els:
                    if isinstance(e, cst.StarredElement):
                        self.assign(e.value, Val(sub.kind, sub.name, PYSEQ), st, node)
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
        elif isinstance(target, cst.Attribute):
            if isinstance(target.value, cst.Name):
                self.receiver = target.value
            base = self.eval(target.value)
            self.emit("store", self.frame, "attr", target, base, [], v, node or st, aug)

    # -- expressions -------------------------------------------------------------
    def eval(self, e, in_test: bool = False) -> Val:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            return UNKNOWN_VAL
        return m(e, in_test)

    def e_Integer(self, e, t) -> Val:
        return STATIC_VAL

    e_Float = e_Imaginary = e_SimpleString = e_ConcatenatedString = e_Ellipsis = e_Integer

    def e_FormattedString(self, e, t) -> Val:
        traced = None
        for part in e.parts:
            if isinstance(part, cst.FormattedStringExpression):
                v = self.eval(part.expression)
                if v.kind == TRACED and traced is None:
                    traced = v
                if part.format_spec:
                    self.emit("format_spec", self.frame, part, v)
        return Val(STATIC, traced.name, TEXT) if traced is not None else STATIC_VAL

    def e_Name(self, e: cst.Name, t) -> Val:
        if e.value in KNOWN_CONSTANTS:
            return KNOWN_CONSTANTS[e.value]
        v = self.frame.lookup(e.value)
        if v is not None and e.value not in self.frame.declared:
            if v.outer is not None and v.outer[2] is not None and e is not self.receiver:
                # ``buf = STATE`` (or a helper's parameter given ``STATE``), and now ``buf`` is
                # read as a value: that is where ``STATE`` is read.
                owner, name, node = v.outer
                self.emit("capture", self.frame, node, name, owner, None)
            return v
        return self.name_val(e)

    def name_val(self, e: cst.Name) -> Val:
        """A name that is not local to the traced computation: a global or a closure."""
        name = e.value
        owner = self.frame.scope.lookup_scope(name)
        if owner is None:
            return STATIC_VAL  # builtins
        binds = owner.bindings.get(name)
        variable = bool(binds) and any(b.kind in VALUE_KINDS for b in binds)
        if e is not self.receiver and variable:
            hint = self.attr_hint
            attr = hint[1] if hint is not None and hint[0] is e else None
            self.emit("capture", self.frame, e, name, owner, attr)
        f = owner.defs.get(name)
        if f is not None:
            return Val(STATIC, name, 0, None, (FnRef(f), None, [], {}))
        outer = owner is not self.frame.scope or self.frame.func.is_lambda  # a lambda shares its scope
        if binds and not variable and outer and owner.func is not None and all(b.kind == "param" for b in binds):
            # A parameter of the host function around this one (a lax body reading it): what
            # every call of that function passes (a concrete JAX array is staged here too; the
            # function a factory is given is that function).
            star = owner.func.params.star_arg
            if isinstance(star, cst.Param) and star.name.value == name:
                # ``*args`` of the closure a factory returns: what the closure's calls pass
                vals = self.analyzer.host_values.star_values(owner.func)
                if vals is not None:
                    return Val(STATIC, name, PYSEQ, tuple(_host_val(v) for v in vals))
                return STATIC_VAL
            passed = self.analyzer.host_values.passed_value(owner.func, name)
            if passed is not None and passed.func is not None and not passed.func.is_lambda:
                return Val(STATIC, name, 0, None, (FnRef(passed.func), None, [], {}))
            flags = self.analyzer.outer_flags(name, owner)
            if flags:
                return Val(STATIC, None, flags)
        if variable and owner is not self.frame.scope:
            # Not a local bound later in this function: the outer variable's object itself.
            flags = self.analyzer.outer_flags(name, owner)
            return Val(STATIC, None, flags, outer=(owner, name, e if e is self.receiver and self.deferring else None))
        return STATIC_VAL

    def array_op(self, vals, flags: int = 0) -> Val:
        """A JAX computation with a concrete JAX array among its inputs (``W.sum()``, ``W[0]``,
        ``W + 1`` on a global ``W``) and the other inputs ``vals``: a tracer where the frame
        is staged (omnistaging: JAX stages every operation under jit, concrete inputs too), a
        concrete array under vmap or grad alone and inside ``ensure_compile_time_eval()``."""
        traced = first_traced_name(vals)
        if traced is not None or any(v.kind == TRACED for v in vals):
            return Val(TRACED, traced, ARRAY | flags)
        if any(v.kind == UNKNOWN for v in vals):
            return UNKNOWN_VAL
        if self.frame.staged and not self.frame.concrete:
            return Val(TRACED, None, ARRAY | flags)
        return Val(STATIC, None, JAXARR | flags)

    def outer_object(self, e) -> Val:
        """``e`` evaluated where it may only be bound to a name (``buf = STATE``, a helper's
        parameter): a global or closure variable there is not read yet.  Its value keeps the
        read, and reports it where the new name is read as a value; writing through the new
        name (``buf.append(x)``) is no read of ``STATE``."""
        if not isinstance(e, cst.Name) or self.frame.lookup(e.value) is not None and e.value not in self.frame.declared:
            return self.eval(e)
        owner = self.frame.scope.lookup_scope(e.value)
        if owner is None or owner is self.frame.scope or e.value in owner.defs:
            return self.eval(e)
        self.receiver = e
        self.deferring = True
        try:
            return self.eval(e)
        finally:
            self.deferring = False

    def e_Attribute(self, e: cst.Attribute, t) -> Val:
        base_expr = e.value
        if isinstance(base_expr, (cst.Name, cst.Attribute)):
            head = base_expr
            while isinstance(head, cst.Attribute):
                head = head.value
            if isinstance(head, cst.Name) and self.frame.lookup(head.value) is None:
                q = resolve(e, self.frame.scope)
                if q in DISABLE_JIT_FLAGS:
                    return KNOWN_CONSTANTS["False"]  # jit traces only while jit is enabled
                if q is not None:
                    return STATIC_VAL  # a module attribute: jnp.float32, jnp.pi, lax.add
        attr = e.attr.value
        if isinstance(base_expr, cst.Name):
            self.attr_hint = (base_expr, attr)
        base = self.eval(base_expr)
        if base.cls is not None and base.kind != UNKNOWN:
            member = self.analyzer.instance_attribute(self.frame, base, attr, dotted_name(e) or base.name)
            if member is not None:
                return member
        elif base.ext is not None and base.kind == TRACED and not base.flags & ARRAY and attr not in STATIC_ATTRS:
            self.foreign_member(e, base, attr, [], attribute=True)  # a property is read where its class is
        if attr in STATIC_ATTRS:
            return Val(STATIC, None, SHAPE | PYSEQ if attr == "shape" else 0)
        if base.kind == STATIC:
            if base.flags & JAXARR and attr in ARRAY_ATTRS:
                # ``W.T``, ``W.at``: still the concrete array's view (``W.T`` of a vector is ``W``)
                return Val(STATIC, None, JAXARR)
            if base.fn is not None or base.flags & OPAQUE:
                return STATIC_VAL
            return STATIC_VAL
        if base.flags & OPAQUE:
            return UNKNOWN_VAL
        if base.kind == TRACED:
            name = dotted_name(e) or base.name
            if base.flags & ARRAY or attr in ARRAY_ATTRS:
                return Val(TRACED, name, ARRAY)
            # A field of a pytree whose class the model cannot place: a leaf or static
            # metadata, only the class can tell.
            return UNKNOWN_VAL
        return UNKNOWN_VAL

    def eval_slice(self, s: cst.SubscriptElement) -> Val:
        sl = s.slice
        if isinstance(sl, cst.Index):
            return self.eval(sl.value)
        vals = [self.eval(x) for x in (sl.lower, sl.upper, sl.step) if x is not None]
        return Val(max((v.kind for v in vals), default=STATIC), first_traced_name(vals), PYSEQ, tuple(vals))

    @staticmethod
    def member(base: Val, el: cst.SubscriptElement) -> Optional[Val]:
        """``base[el]`` when the structure of ``base`` knows it: a tuple position or a dict key."""
        if base.items is None:
            return None
        if base.keys is not None:
            key = string_value(el.slice.value) if isinstance(el.slice, cst.Index) else None
            return base.items[base.keys.index(key)] if key in base.keys else None
        i = const_index(el)
        if i is not None and -len(base.items) <= i < len(base.items):
            return base.items[i]
        return None

    def e_Subscript(self, e: cst.Subscript, t) -> Val:
        base = self.eval(e.value)
        idx = [self.eval_slice(s) for s in e.slice]
        self.emit("subscript", self.frame, e, base, idx)
        if len(idx) == 1 and (base.kind == TRACED or base.kind == STATIC and idx[0].kind != TRACED):
            known = self.member(base, e.slice[0])
            if known is not None:
                return known
        if base.kind == TRACED:
            if base.flags & PYSEQ and len(idx) == 1 and isinstance(e.slice[0].slice, cst.Slice):
                return Val(TRACED, base.name, base.flags & (PYSEQ | REF), None)  # lst[:] is a list
            if base.flags & (PYSEQ | DICT) and base.items is None:
                return Val(TRACED, base.name, base.flags & REF)
            return Val(TRACED, base.name, base.flags & ARRAY)
        if base.kind == STATIC:
            if base.flags & JAXARR:
                return self.array_op(idx)
            if any(v.kind == TRACED for v in idx):
                return UNKNOWN_VAL
            if any(v.kind == UNKNOWN for v in idx):
                return UNKNOWN_VAL
            return STATIC_VAL
        return UNKNOWN_VAL

    def binop(self, a: Val, b: Val, op) -> Val:
        if a.kind == TRACED or b.kind == TRACED:
            if a.container and b.container and isinstance(op, (cst.Add, cst.AddAssign)):
                return Val(TRACED, a.name or b.name, PYSEQ)
            if a.flags & PYSEQ and isinstance(op, (cst.Multiply, cst.MultiplyAssign)):
                return Val(TRACED, a.name, PYSEQ)  # [x] * n: a Python list
            name = a.name if a.kind == TRACED else b.name
            return Val(TRACED, name, ARRAY)  # arithmetic on a tracer gives an array
        if a.kind == UNKNOWN or b.kind == UNKNOWN:
            return UNKNOWN_VAL
        if (a.flags | b.flags) & JAXARR:
            return self.array_op([a, b])
        if a.container or b.container:
            return Val(STATIC, None, a.flags & (PYSEQ | DICT))
        return STATIC_VAL

    def e_BinaryOperation(self, e, t) -> Val:
        a = self.eval(e.left)
        if isinstance(e.left, (cst.SimpleString, cst.FormattedString)) and isinstance(e.operator, cst.Modulo):
            # ``"%s" % x``: text showing the tracer when every conversion is a string one
            # (``%d``/``%f`` convert the tracer to a number, which raises instead).
            operands = [el.value for el in e.right.elements] if isinstance(e.right, cst.Tuple) else [e.right]
            vals = [self.eval(o) for o in operands]
            traced = next((v for v in vals if v.kind == TRACED), None)
            if traced is not None and _string_conversions_only(e.left):
                return Val(STATIC, traced.name, TEXT)
            return STATIC_VAL
        b = self.eval(e.right)
        return self.binop(a, b, e.operator)

    def e_UnaryOperation(self, e, t) -> Val:
        v = self.eval(e.expression, t and isinstance(e.operator, cst.Not))
        if isinstance(e.operator, cst.Not):
            self.emit("not_", self.frame, e, v, t)
            if v.kind == STATIC and v.flags & (TRUE | FALSE):
                return Val(STATIC, None, FALSE if v.flags & TRUE else TRUE)
            if v.flags & (PYSEQ | DICT):
                return STATIC_VAL  # ``not args``: an emptiness check of a Python container
            if v.kind == TRACED:
                return Val(TRACED, v.name, BOOL | (v.flags & RAW))
            return Val(v.kind)
        if v.kind == TRACED:
            return Val(TRACED, v.name, v.flags & (ARRAY | BOOL))
        if v.flags & JAXARR:
            return self.array_op([v])
        return Val(v.kind)

    def e_BooleanOperation(self, e, t) -> Val:
        a = self.eval(e.left, t)
        if a.kind == STATIC and a.flags & (TRUE | FALSE):
            # A known Python bool short-circuits: ``False and x`` never reads ``x``.
            decided = bool(a.flags & TRUE) == isinstance(e.operator, cst.Or)
            return a if decided else self.eval(e.right, t)
        names = self.narrow(e.left) if isinstance(e.operator, cst.And) else []
        b = self._with_narrowed(e.left, names, lambda: self.eval(e.right, t)) if names else self.eval(e.right, t)
        self.emit("boolop", self.frame, e, a, b, t)
        return join(a, b)

    def e_Comparison(self, e: cst.Comparison, t) -> Val:
        if is_string_literal(e.left) or any(is_string_literal(c.comparator) for c in e.comparisons):
            # Comparing with strings: the other side is a Python string (a dict key, a mode).
            self.eval(e.left)
            for c in e.comparisons:
                self.eval(c.comparator)
            return STATIC_VAL
        left = self.eval(e.left)
        vals = [left]
        static = True
        arrays = False  # an elementwise comparison with a concrete JAX array
        for c in e.comparisons:
            op = c.operator
            if isinstance(op, (cst.In, cst.NotIn)) and isinstance(c.comparator, cst.Name):
                # ``key in REGISTRY``: a membership lookup in a table, not a value computed with
                self.receiver = c.comparator
            r = self.eval(c.comparator)
            if isinstance(op, (cst.In, cst.NotIn)):
                self.emit("compare_in", self.frame, e, vals[-1], r, c, t)
                # A key lookup in a Python dict (``name in kwargs``) gives a Python bool: the
                # keys are Python values, whatever the dict holds.
                if isinstance(e.left, cst.SimpleString) or vals[-1].kind != TRACED and r.flags & DICT:
                    vals.append(STATIC_VAL)
                    continue
                static = False
                if vals[-1].kind == STATIC and r.kind == TRACED and not r.flags & ARRAY:
                    # ``KEY in batch``: a key lookup in a pytree dict (its structure is static),
                    # or a search in an array; the value cannot tell which.
                    vals.append(UNKNOWN_VAL)
                    continue
            elif not isinstance(op, (cst.Is, cst.IsNot)):
                static = False
                arrays = arrays or bool((vals[-1].flags | r.flags) & JAXARR)
            vals.append(r)
        if len(e.comparisons) > 1:
            # ``0 < x < 1`` is ``(0 < x) and (x < 1)``: the first comparison is made a bool.
            if (vals[0].flags | vals[1].flags) & JAXARR:
                first = self.array_op(vals[:2], BOOL)
            else:
                first = Val(max(vals[0].kind, vals[1].kind), first_traced_name(vals[:2]), BOOL | ARRAY)
            self.emit("chained_compare", self.frame, e, first, t)
        if static:
            return STATIC_VAL
        k = max(v.kind for v in vals)
        if k == TRACED:
            return Val(TRACED, first_traced_name(vals), BOOL | ARRAY)
        if k == STATIC and arrays:
            return self.array_op([], BOOL)
        return Val(k)

    def e_IfExp(self, e: cst.IfExp, t) -> Val:
        v = self.eval(e.test, True)
        self.emit("test", self.frame, "ifexp", e.test, v, e)
        names = self.narrow(e.test)
        body = self._with_narrowed(e.test, names, lambda: self.eval(e.body)) if names else self.eval(e.body)
        return join(body, self.eval(e.orelse))

    def e_Lambda(self, e: cst.Lambda, t) -> Val:
        f = self.analyzer.index.func_by_node.get(id(e))
        if f is None:
            return STATIC_VAL
        closure = [self.frame.env] + (self.frame.closure or [])
        return Val(STATIC, None, 0, None, (FnRef(f), closure, [], {}))

    def _seq(self, e, flags) -> Val:
        items = []
        plain = True
        for el in e.elements:
            if isinstance(el, cst.StarredElement):
                plain = False
                items.append(self.eval(el.value))
            else:
                items.append(self.eval(el.value))
        k = max((v.kind for v in items), default=STATIC)
        return Val(k, first_traced_name(items), flags, tuple(items) if plain else None)

    def e_Tuple(self, e, t) -> Val:
        return self._seq(e, PYSEQ)

    e_List = e_Tuple

    def e_Set(self, e, t) -> Val:
        v = self._seq(e, PYSEQ)
        return Val(v.kind, v.name, PYSEQ)

    def e_Dict(self, e, t) -> Val:
        vals = []
        for el in e.elements:
            if isinstance(el, cst.DictElement):
                self.eval(el.key)
                vals.append(self.eval(el.value))
            else:
                vals.append(self.eval(el.value))
        k = max((v.kind for v in vals), default=STATIC)
        keys = tuple(string_value(el.key) for el in e.elements if isinstance(el, cst.DictElement))
        if len(keys) == len(vals) and None not in keys and len(set(keys)) == len(keys):
            # string keys: each value keeps its own kind (``cfg["n"]`` static next to ``cfg["w"]``)
            return Val(k, first_traced_name(vals), DICT, tuple(vals), None, None, keys)
        return Val(k, first_traced_name(vals), DICT)

    def _comp(self, e, elts) -> Val:
        saved = self.frame.env
        self.frame.env = dict(saved)
        try:
            fr = e.for_in
            while fr is not None:
                it = self.eval(fr.iter)
                self.assign(fr.target, self.element_of(fr.iter, it), None, None)
                for cond in fr.ifs:
                    v = self.eval(cond.test, True)
                    self.emit("test", self.frame, "comprehension", cond.test, v, cond)
                fr = fr.inner_for_in
            vals = [self.eval(x) for x in elts]
        finally:
            self.frame.env = saved
        k = max((v.kind for v in vals), default=STATIC)
        return Val(k, first_traced_name(vals), PYSEQ)

    def e_ListComp(self, e, t) -> Val:
        return self._comp(e, [e.elt])

    e_SetComp = e_GeneratorExp = e_ListComp

    def e_DictComp(self, e, t) -> Val:
        v = self._comp(e, [e.key, e.value])
        return Val(v.kind, v.name, DICT)

    def e_NamedExpr(self, e, t) -> Val:
        v = self.eval(e.value, t)
        if isinstance(e.target, cst.Name):
            self.frame.env[e.target.value] = v
        return v

    def e_Await(self, e, t) -> Val:
        self.eval(e.expression)
        return UNKNOWN_VAL

    def element_of(self, expr, it: Val) -> Val:
        """The value bound by ``for target in expr``."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and not expr.args:
            meth = expr.func.attr.value
            if meth == "keys":
                return STATIC_VAL  # dict keys are Python values, even in a pytree of tracers
            if meth == "items":
                base = self.eval(expr.func.value)
                return Val(base.kind, base.name, PYSEQ, (STATIC_VAL, Val(base.kind, base.name) if base.kind != STATIC else STATIC_VAL))
        if it.flags & DICT:
            return STATIC_VAL  # iterating a dict gives its keys
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
            fname = expr.func.value
            builtin = self.frame.lookup(fname) is None and self.frame.scope.lookup_scope(fname) is None
            if builtin and fname == "range":
                return STATIC_VAL
            if builtin and fname == "enumerate" and expr.args:
                inner = self.eval(expr.args[0].value)
                return Val(inner.kind, inner.name, PYSEQ, (STATIC_VAL, self.element_of(expr.args[0].value, inner)))
            if builtin and fname == "zip":
                items = tuple(self.element_of(a.value, self.eval(a.value)) for a in expr.args if a.keyword is None)
                return Val(max((v.kind for v in items), default=STATIC), first_traced_name(items), PYSEQ, items)
        if it.items is not None and it.items:
            return joinall(it.items) if all(v.kind == it.items[0].kind for v in it.items) else Val(it.kind, it.name)
        if it.kind == TRACED:
            if it.flags & RAW and not it.flags & ARRAY:
                return Val(TRACED, it.name, RAW)  # rows of an array, or keys of a dict: cannot tell yet
            return Val(TRACED, it.name, it.flags & ARRAY if not it.container else 0)
        if it.flags & JAXARR:
            return self.array_op([])  # the rows of a concrete array are sliced out by JAX
        return Val(it.kind) if it.kind != STATIC else STATIC_VAL

    # -- calls -----------------------------------------------------------------------
    def e_Call(self, e: cst.Call, t) -> Val:
        fr = self.frame
        func = e.func
        q = None
        head = func
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and fr.lookup(head.value) is None:
            q = resolve(func, fr.scope)
        if q is not None:
            return self.call_qualified(e, q)
        if isinstance(func, cst.Name):
            return self.call_name(e, func)
        if isinstance(func, cst.Attribute):
            return self.call_attribute(e, func)
        fv = self.eval(func)
        argvals = self.args(e)
        if fv.fn is not None:
            return self.invoke(e, fv, argvals)
        if isinstance(func, cst.Call) and self._is_layer(func):
            return self.layer_output(argvals)  # ``nn.Dense(4)(x)``
        return self.generic(argvals, fv)

    def _is_layer(self, expr) -> bool:
        """``expr`` is (or builds) an instance of a library's layer class (``nn.Dense(4)``, a
        name or attribute every assignment of which builds one)."""
        if isinstance(expr, cst.Call):
            return is_layer_class(resolve(expr.func, self.frame.scope))
        r = self.analyzer.receivers.receiver_of(expr, self.frame.scope)
        return r is not None and r.cls is None and is_layer_class(r.external)

    def layer_output(self, argvals) -> Val:
        """What a library layer returns: traced when an input is; with Python inputs it may
        still compute with traced parameters, or hand its input back (``Identity``): unknown.
        It may be a tuple (``LSTMCell``), so its bare truthiness is not an array's."""
        traced = [v for _, v in argvals if v.kind == TRACED]
        if self.frame.concrete or not traced:
            return UNKNOWN_VAL
        return Val(TRACED, first_traced_name(traced), RAW)

    def args(self, e: cst.Call) -> List[Tuple[cst.Arg, Val]]:
        return [(a, self.eval(a.value)) for a in e.args]

    def generic(self, argvals, fv: Val = STATIC_VAL) -> Val:
        k = max([fv.kind] + [v.kind for _, v in argvals])
        if k == STATIC:
            return STATIC_VAL
        return UNKNOWN_VAL

    def invoke(self, e, fv: Val, argvals, self_val: Optional[Val] = None) -> Val:
        ref = fv.fn[0]
        if ref.jit is not None:
            return self.analyzer.call_function(self.frame, e, fv.fn, argvals, self_val) if any(v.kind == TRACED for _, v in argvals) else UNKNOWN_VAL
        return self.analyzer.call_function(self.frame, e, fv.fn, argvals, self_val)

    def fn_from(self, expr) -> Optional[tuple]:
        """A function value for an expression handed to a transform."""
        v = self.eval(expr)
        if v.fn is not None:
            return v.fn
        ref = self.analyzer.finder.resolve_fn(expr, self.frame.scope)
        if ref is not None:
            return (ref, None, [], {})
        return None

    def call_qualified(self, e: cst.Call, q: str) -> Val:
        fr = self.frame
        argvals = self.args(e)
        self.emit("call", fr, e, q, argvals)
        t = TRANSFORMS.get(q)
        if t is not None:
            return self.call_transform(e, q, t, argvals)
        if q in PASS_THROUGH:
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    return Val(STATIC, None, 0, None, fn)
            return STATIC_VAL
        if q in PARTIAL:
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    ref, closure, bargs, bkw = fn
                    bargs = list(bargs) + [v for a, v in argvals[1:] if a.keyword is None and not a.star]
                    bkw = dict(bkw)
                    bkw.update(
                        {
                            a.keyword.value: v if is_none_literal(a.value) else Val(v.kind, v.name, v.flags | NOTNONE, v.items, v.fn)
                            for a, v in argvals[1:]
                            if a.keyword is not None
                        }
                    )
                    return Val(STATIC, None, 0, None, (ref, closure, bargs, bkw))
            return STATIC_VAL
        if q in TREE_MAPS:
            if argvals and e.args[0].keyword is None:
                trees = [v for a, v in argvals[1:] if a.keyword is None]
                leaf = joinall(trees) if trees else STATIC_VAL
                if leaf.kind == TRACED:
                    fn = self.fn_from(e.args[0].value)
                    if fn is None:
                        return UNKNOWN_VAL
                    vals = [(cst.Arg(value=cst.Name("_")), Val(t.kind, t.name) if t.kind == TRACED else t) for t in trees]
                    if q.endswith("with_path"):
                        vals = [(cst.Arg(value=cst.Name("_")), STATIC_VAL)] + vals
                    r = self.analyzer.call_function(fr, e, fn, vals)
                    return Val(r.kind, leaf.name, leaf.flags & (DICT | PYSEQ)) if r.kind != STATIC else STATIC_VAL
                return Val(leaf.kind, leaf.name, leaf.flags & (DICT | PYSEQ)) if leaf.kind != STATIC else STATIC_VAL
            return UNKNOWN_VAL
        if q in CALLBACKS:
            return Val(TRACED, None) if any(v.kind == TRACED for _, v in argvals) else STATIC_VAL
        if q in STATIC_FUNCS:
            return STATIC_VAL
        if q in ("jax.tree_util.tree_leaves", "jax.tree.leaves", "jax.tree_util.tree_flatten", "jax.tree.flatten"):
            k = max((v.kind for _, v in argvals), default=STATIC)
            leaves = Val(k, first_traced_name([v for _, v in argvals]), PYSEQ)
            if q.endswith("flatten"):
                return Val(k, leaves.name, PYSEQ, (leaves, STATIC_VAL))
            return leaves
        if q.startswith(("jax.tree_util.", "jax.tree.")):
            return self.generic(argvals)
        if q.startswith(STATIC_PREFIXES):
            return STATIC_VAL
        if q.startswith("jax.experimental.pallas."):
            if q.rsplit(".", 1)[-1] not in PALLAS_TRACED:
                return self.generic(argvals)
            return Val(TRACED, first_traced_name([v for _, v in argvals]), ARRAY)
        if q in ("jax.lax.psum", "jax.lax.axis_size") and argvals and argvals[0][1].kind == STATIC:
            return STATIC_VAL  # psum(1, axis) is the axis size, a Python int
        if q.startswith(CLASS_NAMESPACES) and q.rsplit(".", 1)[-1][:1].isupper():
            return self.generic(argvals)  # a class (lax.ConvDimensionNumbers, lax.Precision): a Python object
        if q == "jax.numpy.asarray" and len(argvals) == 1 and e.args[0].keyword is None and not e.args[0].star:
            v = argvals[0][1]
            if v.kind == STATIC and v.flags & JAXARR:
                # ``jnp.asarray`` of a JAX array (no dtype) returns that array itself: a concrete
                # array stays concrete even where the frame stages (``.item()`` of it works)
                return v
        if q.startswith(TRACED_PREFIXES):
            if q.rsplit(".", 1)[-1].startswith("_"):
                return self.generic(argvals)  # private helpers: often Python-level utilities
            flags = 0
            last = q.rsplit(".", 1)[-1]
            if last.startswith(("is", "logical_", "equal", "not_equal", "greater", "less")) or last in (
                "any",
                "all",
                "signbit",
            ):
                flags |= BOOL
            if q in AXIS_DEPENDENT and not fr.concrete:
                return Val(TRACED, None, ARRAY)
            # Traced where the frame stages (even ``jnp.ones(3)``), else traced only when an
            # input is: under vmap or grad alone JAX computes on concrete values eagerly.
            return self.array_op([v for _, v in argvals], flags)
        if q.startswith("numpy."):
            if q[6:] in NUMPY_ARRAY_MAKERS and all(v.kind == STATIC for _, v in argvals):
                return Val(STATIC, None, NPARR)
            if q.startswith("numpy.random.") or q[6:] in NUMPY_STATIC:
                return STATIC_VAL
            if any(v.kind == TRACED for _, v in argvals):
                return Val(TRACED, first_traced_name([v for _, v in argvals]), ARRAY) if q[6:] in NUMPY_SAFE else UNKNOWN_VAL
            return self.generic(argvals)
        if q.startswith(("math.", "random.", "time.", "operator.", "builtins.")):
            return STATIC_VAL if all(v.kind == STATIC for _, v in argvals) else UNKNOWN_VAL
        ext = self.analyzer.external
        if ext is not None and any(v.kind == TRACED for _, v in argvals):
            r = ext(self, e, q, argvals)
            if r is not None:
                return r
        return self.generic(argvals)

    def call_transform(self, e, q: str, t: Transform, argvals) -> Val:
        fr = self.frame
        # Transforms that return a function: jit, vmap, checkpoint, ...
        if t.fn_args and t.fn_args[0][0] == 0 and t.fn_args[0][1] in ("fun",) or q in (
            "jax.make_jaxpr",
        ):
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    ref, closure, bargs, bkw = fn
                    spec_nodes = [a for a in e.args if a.keyword is not None]
                    if spec_nodes and t.statics:
                        sp = StaticSpec()
                        parse_statics(spec_nodes, sp)
                        if sp.opaque or sp.nums or sp.names:
                            return STATIC_VAL  # static parameters by call: not followed further
                    if t.stages and not ref.stages:
                        # ``jax.jit(g)(x)`` inside a vmapped function: g's body is staged
                        ref = ref.copy()
                        ref.stages = True
                        fn = (ref, closure, bargs, bkw)
                    return Val(STATIC, None, 0, None, fn)
            return STATIC_VAL
        if q == "jax.eval_shape" or q == "equinox.filter_eval_shape":
            return STATIC_VAL
        # Control flow primitives: they trace the functions they are given, right here.
        pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
        fns = []
        for i, kw in t.fn_args:
            expr = None
            for a, _v in argvals:
                if a.keyword is not None and a.keyword.value == kw:
                    expr = a.value
            if expr is None and i < len(pos):
                expr = pos[i][0].value
            if expr is None:
                continue
            if isinstance(expr, (cst.List, cst.Tuple)):
                fns.extend(el.value for el in expr.elements)
            else:
                fns.append(expr)
        operands = self.lax_operands(q, t, e, argvals)
        for expr in fns:
            fn = self.fn_from(expr)
            if fn is not None:
                self.analyzer.trace_inline(fr, fn, t.label, frozenset(), operands, t.stages)
        if fr.concrete or not fr.staged and all(v.kind == STATIC for _, v in argvals):
            return STATIC_VAL  # run eagerly on concrete operands
        return Val(TRACED, first_traced_name([v for _, v in argvals]), 0)

    def lax_operands(self, q: str, t: Transform, e: cst.Call, argvals) -> Optional[List[Val]]:
        if t.arity is None:
            return None
        return lax_operands(q, argvals)

    BUILTIN_STATIC = frozenset(
        {
            "len",
            "isinstance",
            "issubclass",
            "type",
            "hasattr",
            "callable",
            "id",
            "repr",
            "str",
            "print",
            "super",
            "format",
            "hash",
            "vars",
            "dir",
            "setattr",
            "delattr",
            "iter",
            "next",
            "object",
            "NotImplementedError",
            "ValueError",
            "TypeError",
            "RuntimeError",
            "AssertionError",
        }
    )

    def call_name(self, e: cst.Call, func: cst.Name) -> Val:
        fr = self.frame
        name = func.value
        local = fr.lookup(name)
        if name in ("isinstance", "issubclass") and len(e.args) == 2 and isinstance(e.args[1].value, cst.Name):
            self.receiver = e.args[1].value  # a table of types consulted, not a value computed with
        if local is not None and name not in fr.declared:
            helper = local.fn is not None
        else:
            owner = fr.scope.lookup_scope(name)
            helper = owner is not None and name in owner.defs
        # A helper of the module reads its arguments where its body does: ``add_to(STATE, x)``
        # hands ``STATE`` over, and only the helper's use of it says whether it is read.
        argvals = [(a, self.outer_object(a.value) if not a.star else self.eval(a.value)) for a in e.args] if helper else self.args(e)
        if local is not None and name not in fr.declared:
            if local.fn is not None:
                return self.invoke(e, local, argvals)
            if local.cls is not None and local.kind != UNKNOWN and not local.flags & ARRAY:
                # Calling an instance of a class of the module (``net(x)`` on an eqx.Module):
                # its ``__call__``, evaluated with the real receiver.
                method = self.analyzer.instance_attribute(fr, local, "__call__", local.name)
                if method is not None and method.fn is not None:
                    return self.invoke(e, method, argvals)
            elif local.ext is not None and local.cls is None and local.kind != UNKNOWN and not local.flags & ARRAY:
                self.foreign_member(e, local, "__call__", argvals)
            if local.kind != UNKNOWN and local.fn is None and local.cls is None and self._is_layer(func):
                return self.layer_output(argvals)  # ``dense = nn.Dense(4)`` ... ``dense(x)``
            return self.generic(argvals, local)
        owner = fr.scope.lookup_scope(name)
        if owner is None:
            # A builtin.
            self.emit("call", fr, e, "builtins." + name, argvals)
            return self.builtin(e, name, argvals)
        f = owner.defs.get(name)
        if f is not None:
            return self.invoke(e, Val(STATIC, name, 0, None, (FnRef(f), None, [], {})), argvals)
        app = self.analyzer.finder.aliases.get((id(owner), name))
        if app is not None and not app.linen_apply:
            ref = FnRef(app.func)
            ref.bound_self = app.bound_self
            ref.stages = app.stages  # ``g = jax.jit(f)``: calling g stages f
            return self.invoke(e, Val(STATIC, name, 0, None, (ref, None, [], {})), argvals)
        v = self.name_val(func)
        if v.fn is not None:
            return self.invoke(e, v, argvals)
        ref = self.analyzer.finder.resolve_fn(func, fr.scope) or self._instance_call(func)
        if ref is not None:
            return self.invoke(e, Val(STATIC, name, 0, None, (ref, None, [], {})), argvals)
        passed = self._passed_callable(e)
        if passed is not None:
            return self.invoke(e, Val(STATIC, name, 0, None, passed), argvals)
        cls = owner.classes.get(name)
        if cls is not None:
            return self.analyzer.construct(fr, e, cls, argvals)
        if self._is_layer(func):
            return self.layer_output(argvals)  # a global ``mlp = eqx.nn.MLP(...)``
        return self.generic(argvals)

    def _is_layer_attribute(self, cls, attr: str) -> bool:
        held = self.analyzer.traced_fields.held(cls, attr, self.analyzer.classes.is_nnx_module(cls))
        return held is not None and held[0] == LAYER

    def _passed_callable(self, e: cst.Call) -> Optional[tuple]:
        """``fn(x)`` where ``fn`` is a parameter of an enclosing function (a factory's
        ``iterated(fn)``, a helper's ``apply_with(fn, x)``) that every call of it binds to the
        same plain function of the module, to the same ``functools.partial`` of one, or to the
        same bound method of an object of the module (``scanned(MODEL.kernel)``): the function
        value, with the partial's arguments as the host code bound them."""
        owner = self.frame.scope.lookup_scope(e.func.value)
        binds = owner.bindings.get(e.func.value, ()) if owner is not None else ()
        if len(binds) != 1 or binds[0].kind != "param":
            return None  # a class, an instance, a name bound to a callable: not a parameter
        t = self.analyzer.finder.call_targets.target(e, self.frame.scope)
        if t is None or t.app is not None or t.closure is not None:
            return None
        ref = FnRef(t.func)
        passed = list(t.bound)
        if t.func.is_method:
            if not passed or passed[0].expr is not None or passed[0].receiver is None:
                return None  # not bound to an object: what its first argument is, is not shown
            # the object the method is bound to is a Python object, not traced (as ``jax.jit(obj.method)``)
            ref.bound_self = True
            ref.receiver_cls = passed.pop(0).receiver
        elif t.func.scope.kind != "module":
            return None  # an inner def: it reads its factory's locals, which this frame does not hold
        hv = self.analyzer.host_values
        # A partial's arguments were computed by host code when it was made: concrete values,
        # not traced by whatever later traces the call.
        bound = [_host_val(hv.value(p.expr, p.scope, p.call)) if p.expr is not None else UNKNOWN_VAL for p in passed]
        keywords = {k: _host_val(hv.value(p.expr, p.scope, p.call)) if p.expr is not None else UNKNOWN_VAL for k, p in t.keywords}
        return (ref, None, bound, keywords)

    def _instance_call(self, func: cst.Name) -> Optional[FnRef]:
        """``model(x)`` on a global or captured instance of a class of the module
        (``model = Net(...)``): its ``__call__``, bound to the object as ``model.forward``
        would be."""
        receiver = self.analyzer.finder.receivers.receiver_of(func, self.frame.scope)
        cls = receiver.cls if receiver is not None else None
        f = self.analyzer.classes.member(cls, "__call__") if cls is not None else None
        if f is None or not f.is_method or is_property(f) or is_classmethod(f):
            return None
        ref = FnRef(f)
        ref.bound_self = True
        ref.receiver_cls = cls
        return ref

    def foreign_member(self, e, base: Val, member: str, argvals, attribute: bool = False, cls_name: Optional[str] = None) -> None:
        """``base.member(...)`` (or the attribute read ``base.member``) on an instance of a class
        imported from another module: handed to the cross-module phase, which interprets the
        member where the class is defined.  Here its result stays unknown."""
        ext = self.analyzer.external
        if ext is None:
            return
        if base.kind != TRACED and not any(v.kind == TRACED for _, v in argvals):
            return  # nothing traced goes in: what the member does is host code
        ext(self, e, cls_name or base.ext, argvals, member=member, self_val=base, attribute=attribute)

    def call_super(self, e: cst.Call, meth: str) -> Optional[Val]:
        """``super().meth(...)`` in a method: the next class in the module's MRO that has it."""
        fr = self.frame
        cls = fr.func.cls
        if cls is None or not fr.func.is_method:
            return None
        positional = fr.func.positional_params()
        self_val = fr.lookup(positional[0].name.value) if positional else None
        for c in self.analyzer.classes.mro(cls)[1:]:
            f = c.body_scope.defs.get(meth)
            if f is not None:
                ref = FnRef(f)
                ref.bound_self = True
                return self.invoke(e, Val(STATIC, meth, 0, None, (ref, None, [], {})), self.args(e), self_val or STATIC_VAL)
        base = self.analyzer.classes.imported_base(cls)
        if base is not None and self_val is not None:
            # The next class is in another module: followed there; here the result is unknown.
            self.foreign_member(e, self_val, meth, self.args(e), cls_name=base)
            return UNKNOWN_VAL
        return None

    def call_on_class(self, e: cst.Call, class_name: cst.Name, meth: str) -> Optional[Val]:
        """``Cls.meth(...)`` on a class of the module: a staticmethod gets the arguments as
        written, a classmethod the class first, and a plain method read off the class is a
        function whose first argument is the instance."""
        cls = class_named(self.frame.scope, class_name.value)
        if cls is None:
            return None
        f = self.analyzer.classes.member(cls, meth)
        if f is None:
            return None
        ref = FnRef(f)
        argvals = self.args(e)
        if is_classmethod(f):
            return self.invoke(e, Val(STATIC, meth, 0, None, (ref, None, [Val(STATIC, None, 0, cls=cls)], {})), argvals)
        return self.invoke(e, Val(STATIC, meth, 0, None, (ref, None, [], {})), argvals)

    # Python types no JAX array (tracer or concrete) is an instance of.
    _NOT_ARRAY_TYPES = frozenset({"int", "float", "bool", "complex", "str", "bytes"})

    def builtin(self, e, name: str, argvals) -> Val:
        vals = [v for _, v in argvals]
        if name == "isinstance" and len(argvals) == 2 and not any(a.star for a, _ in argvals):
            v = vals[0]
            array = v.kind == TRACED and not v.flags & (PYSEQ | DICT | OPAQUE | REF | RAW) and v.items is None and v.cls is None
            if array or v.kind == STATIC and v.flags & JAXARR:
                types = self._type_names(argvals[1][0].value)
                if types and all(t in self._NOT_ARRAY_TYPES for t in types):
                    # ``isinstance(x, (int, float))`` on an array is False, which JAX never
                    # changes: ``isinstance(x, float) and x > 0`` never reads ``x > 0``
                    return KNOWN_CONSTANTS["False"]
        if name in self.BUILTIN_STATIC or name in ("int", "float", "bool", "complex", "range"):
            if name == "range":
                return Val(STATIC, None, PYSEQ)
            if name in ("str", "repr", "format") and vals and vals[0].kind == TRACED:
                return Val(STATIC, vals[0].name, TEXT)
            return STATIC_VAL
        if name in ("abs", "round", "sum", "pow", "divmod") and any(v.flags & JAXARR for v in vals):
            return self.array_op(vals)  # ``abs(W)`` is ``W.__abs__()``: a JAX operation
        if name in ("abs", "round", "sum", "pow", "divmod", "min", "max"):
            v = joinall(vals) if vals else STATIC_VAL
            if v.kind == TRACED:
                return Val(TRACED, v.name, ARRAY)
            return Val(v.kind)
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
            v = vals[0] if vals else STATIC_VAL
            if v.items is not None:
                return Val(v.kind, v.name, PYSEQ, v.items if name in ("list", "tuple") else None)
            return Val(v.kind, v.name, PYSEQ)
        if name in ("zip", "enumerate", "map", "filter"):
            v = joinall(vals) if vals else STATIC_VAL
            return Val(v.kind, v.name, PYSEQ)
        if name == "dict":
            v = joinall(vals) if vals else STATIC_VAL
            return Val(v.kind, v.name, DICT)
        if name == "getattr" and vals:
            if len(argvals) >= 2 and isinstance(argvals[1][0].value, cst.SimpleString):
                attr = string_value(argvals[1][0].value)
                if attr in STATIC_ATTRS:
                    return STATIC_VAL
            base = vals[0]
            if base.kind == TRACED and not base.flags & OPAQUE:
                return Val(TRACED, base.name)
            return STATIC_VAL if base.kind == STATIC else UNKNOWN_VAL
        return self.generic(argvals)

    # Keywords of ``flax.linen.Module.apply`` that are not inputs of the method it runs.
    _LINEN_APPLY_OPTIONS = frozenset({"rngs", "method", "mutable", "capture_intermediates"})

    def _linen_apply(self, e: cst.Call, model: Val, argvals) -> Val:
        """``model.apply(variables, *inputs, method=..., mutable=...)`` on a linen module of
        the module: its ``__call__`` (or the method named by ``method=``) with the inputs."""
        name = "__call__"
        mutable = False
        for a, _v in argvals:
            if a.keyword is None:
                continue
            if a.keyword.value == "mutable":
                mutable = True
            elif a.keyword.value == "method":
                m = a.value
                if isinstance(m, cst.Attribute):
                    name = m.attr.value
                else:
                    name = string_value(m) if isinstance(m, cst.SimpleString) else None
        if name is None or not argvals or argvals[0][0].keyword is not None:
            return UNKNOWN_VAL
        bound = self.analyzer.instance_attribute(self.frame, model, name, model.name)
        if bound is None or bound.fn is None:
            return UNKNOWN_VAL
        inputs = [(a, v) for a, v in argvals[1:] if a.keyword is None or a.keyword.value not in self._LINEN_APPLY_OPTIONS]
        out = self.invoke(e, bound, inputs)
        # with ``mutable=`` apply returns (output, updated collections)
        return UNKNOWN_VAL if mutable else out

    # Methods of ``x.at[i]``: functional updates, they return arrays.
    _UPDATE_METHODS = frozenset({"set", "add", "multiply", "divide", "power", "min", "max", "apply", "get"})

    def call_attribute(self, e: cst.Call, func: cst.Attribute) -> Val:
        fr = self.frame
        meth = func.attr.value
        base_expr = func.value
        if isinstance(base_expr, cst.Call) and isinstance(base_expr.func, cst.Name) and base_expr.func.value == "super":
            r = self.call_super(e, meth)
            if r is not None:
                return r
        if isinstance(base_expr, cst.Name) and base_expr.value in ("self", "cls") and fr.lookup(base_expr.value) is None:
            # ``self.method(...)`` inside a nested function or lambda of a method
            cls = fr.scope.enclosing_class() if fr.func.cls is None else fr.func.cls
            f = self.analyzer.classes.member(cls, meth) if cls is not None else None
            if f is not None:
                ref = FnRef(f)
                ref.bound_self = True
                return self.invoke(e, Val(STATIC, meth, 0, None, (ref, None, [], {})), self.args(e), STATIC_VAL)
        if isinstance(base_expr, cst.Name) and fr.lookup(base_expr.value) is None:
            r = self.call_on_class(e, base_expr, meth)
            if r is not None:
                return r
        if meth in MUTATING_METHODS and isinstance(base_expr, cst.Name):
            self.receiver = base_expr
        base = self.eval(base_expr)
        if base.kind == STATIC and base.cls is None and base.fn is None and isinstance(base_expr, cst.Name) and fr.lookup(base_expr.value) is None:
            # A module-level object (``model = MLP(4)``) read by traced code: an instance of
            # the class it is built with, when every assignment agrees.
            r = self.analyzer.receivers.receiver_of(base_expr, fr.scope)
            if r is not None and r.cls is not None:
                base = Val(STATIC, None, 0, cls=r.cls)
            elif r is not None and r.external is not None:
                # maybe a class of another module of the run; the value keeps what it was read
                # as (the global whose object it is)
                known = self.analyzer.foreign.get(r.external)
                ext = r.external if known is None else None
                base = Val(base.kind, base.name, base.flags, base.items, base.fn, known, base.keys, base.outer, ext)
        argvals = self.args(e)
        self.emit("method", fr, e, base, meth, argvals)
        if base.fn is not None:
            return STATIC_VAL
        if base.ext is not None and base.cls is None and base.kind != UNKNOWN and not base.flags & ARRAY:
            self.foreign_member(e, base, meth, argvals)
        if base.cls is not None and base.kind != UNKNOWN and not base.flags & ARRAY:
            # A method of a class of the module, evaluated with the real receiver.
            method = self.analyzer.instance_attribute(fr, base, meth, base.name)
            if method is not None and method.fn is not None:
                return self.invoke(e, method, argvals)
            if method is not None and method.cls is not None and method.kind != UNKNOWN and not method.flags & ARRAY:
                # ``self.encoder(x)``: a field holding an instance of a class of the module
                called = self.analyzer.instance_attribute(fr, method, "__call__", method.name)
                if called is not None and called.fn is not None:
                    return self.invoke(e, called, argvals)
            if meth == "apply" and method is None and self.analyzer.classes.is_linen_module(base.cls):
                return self._linen_apply(e, base, argvals)
            if (method is None or method.fn is None and method.cls is None) and self._is_layer_attribute(base.cls, meth):
                return self.layer_output(argvals)  # ``self.linear(x)`` with ``self.linear = nnx.Linear(...)``
            if meth in ("replace", "_replace") and self.analyzer.classes.pytree_kind(base.cls) is not None:
                return self.analyzer.replaced(base, argvals)
            if method is None:
                inherited = self.analyzer.classes.imported_base(base.cls)
                if inherited is not None:
                    self.foreign_member(e, base, meth, argvals, cls_name=inherited)
            return UNKNOWN_VAL
        if base.kind == TRACED:
            if base.flags & OPAQUE:
                return UNKNOWN_VAL
            if meth in ("item", "tolist"):
                return STATIC_VAL
            if base.container:
                if meth in DICT_METHODS:
                    if meth == "get" and base.keys is not None and argvals and argvals[0][0].keyword is None:
                        key = string_value(argvals[0][0].value)
                        if key in base.keys:
                            return base.items[base.keys.index(key)]
                    if meth == "items":
                        return Val(TRACED, base.name, PYSEQ, None)
                    if meth == "keys":
                        return Val(STATIC, None, PYSEQ)
                    return Val(TRACED, base.name, PYSEQ if meth == "values" else 0)
                if meth in ("index", "count"):
                    return UNKNOWN_VAL
                return Val(TRACED, base.name)
            if meth in self._UPDATE_METHODS:
                return Val(TRACED, base.name, ARRAY)
            if fr.concrete:
                return STATIC_VAL
            if not base.flags & ARRAY and meth not in ARRAY_METHODS:
                # Not a jax.Array method, on a value whose class jaxlint cannot see: it may
                # return anything (``model.number_of_links()`` reads a static field).
                return UNKNOWN_VAL
            flags = ARRAY
            if meth in ("any", "all"):
                flags |= BOOL
            return Val(TRACED, base.name, flags)
        if base.kind == UNKNOWN:
            return UNKNOWN_VAL
        if base.flags & JAXARR:
            if meth in ("item", "tolist"):
                return STATIC_VAL  # a concrete array converts to Python values
            if meth in ARRAY_METHODS or meth in self._UPDATE_METHODS:
                return self.array_op([v for _, v in argvals], BOOL if meth in ("any", "all") else 0)
            return self.generic(argvals)
        if meth == "format" and isinstance(base_expr, (cst.SimpleString, cst.ConcatenatedString)):
            traced = next((v for _, v in argvals if v.kind == TRACED), None)
            return Val(STATIC, traced.name, TEXT) if traced is not None else STATIC_VAL
        # a method of a concrete Python object
        return self.generic(argvals)

class _ContainsCall(FastVisitor):
    def __init__(self, target: cst.Call):
        self.target = target
        self.found = False

    def visit_Call(self, node) -> None:
        if node is self.target:
            self.found = True

def _exits(block) -> bool:
    body = block.body if isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    if not body:
        return False
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], (cst.Return, cst.Raise))
    return False

def guarded_not_none(func_node, site) -> frozenset:
    """Names that ``if name is None: ... return`` guards make non-None before ``site``, among
    the top-level statements of ``func_node``."""
    out = set()
    alias = {}  # ``nbrs = neighbors``: a guard on one is a guard on the other
    for st in func_node.body.body:
        v = _ContainsCall(site)
        v.walk(st)
        if v.found:
            break
        if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and isinstance(st.body[0], cst.Assign):
            a = st.body[0]
            if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name) and isinstance(a.value, cst.Name):
                alias[a.targets[0].target.value] = a.value.value
        if isinstance(st, cst.If) and st.orelse is None and _exits(st.body):
            t = st.test
            if (
                isinstance(t, cst.Comparison)
                and isinstance(t.left, cst.Name)
                and len(t.comparisons) == 1
                and isinstance(t.comparisons[0].operator, cst.Is)
                and is_none_literal(t.comparisons[0].comparator)
            ):
                out.add(t.left.value)
                if t.left.value in alias:
                    out.add(alias[t.left.value])
    return frozenset(out)

def structure_of(expr, scope: Scope, depth: int = 0) -> Val:
    """The pytree structure of an expression outside traced code, as far as literals show it."""
    if isinstance(expr, (cst.Tuple, cst.List)) and not any(isinstance(el, cst.StarredElement) for el in expr.elements):
        items = tuple(structure_of(el.value, scope, depth + 1) for el in expr.elements)
        return Val(STATIC, None, PYSEQ, items)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return Val(STATIC, None, PYSEQ)
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return Val(STATIC, None, DICT)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        cls = class_named(scope, expr.func.value)
        if cls is not None:
            return Val(STATIC, None, 0, cls=cls)  # ``State(x, 0)``: an instance of the class
    if isinstance(expr, cst.Name) and depth < 4:
        if expr.value == "None":
            return STATIC_VAL
        owner = scope.lookup_scope(expr.value)
        binds = owner.bindings.get(expr.value, ()) if owner is not None else ()
        assigns = sorted(
            (b for b in binds if b.kind == "assign" and b.value is not None and b.order is not None),
            key=lambda b: b.order,
        )
        if assigns:
            # The structure a variable is created with (``x = [a, b]``) is the one a loop carries.
            return structure_of(assigns[0].value, owner, depth + 1)
    return Val(UNKNOWN)


_PERCENT_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-+ 0#]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)", re.S)


def _string_conversions_only(template) -> bool:
    """Every %-conversion of the literal ``template`` is ``%s``/``%r``/``%a`` (or ``%%``)."""
    if not isinstance(template, cst.SimpleString):
        return False
    try:
        text = template.evaluated_value
    except Exception:  # noqa: BLE001 - odd literals: unknown
        return False
    if not isinstance(text, str):
        return False
    kinds = [m.group(1) for m in _PERCENT_CONVERSION.finditer(text)]
    return bool(kinds) and all(k in "sra%" for k in kinds) and any(k != "%" for k in kinds)


def _host_val(h) -> Val:
    """A value host code hands over, as traced code sees it before any JAX operation."""
    if h is None:
        return UNKNOWN_VAL
    if h.kind == JAX_ARRAY:
        return Val(STATIC, None, JAXARR)
    if h.kind == NUMPY_ARRAY:
        return Val(STATIC, None, NPARR)
    if h.kind == SCALAR:
        return STATIC_VAL
    return UNKNOWN_VAL
