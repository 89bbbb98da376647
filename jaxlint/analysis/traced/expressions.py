"""Expressions of traced code, evaluated to abstract values: names (locals, globals, closures),
attributes, subscripts, operators, comparisons, literals and comprehensions.

Separate from statements (``statements.py``) and from calls (``call_expressions.py``), which
are the largest kind of expression and follow other functions.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.jax.jax_api import ARRAY_ATTRS, DISABLE_JIT_FLAGS, STATIC_ATTRS
from jaxlint.analysis.host.host_value import INSTANCE as HOST_INSTANCE
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.syntax.nodes import const_index, dotted_name, is_none_literal, is_string_literal, string_value
from jaxlint.analysis.syntax.scopes import VALUE_KINDS
from jaxlint.analysis.traced.from_host import host_val
from jaxlint.analysis.traced.shapes import compared, indexed_dims, shape_val, size_of
from jaxlint.analysis.traced.value_checks import plain_traced, string_conversions_only
from jaxlint.analysis.traced.values import (
    ARRAY,
    ARRAY_MODULES,
    BOOL,
    DICT,
    FALSE,
    JAXARR,
    KEPT,
    KNOWN_CONSTANTS,
    MODULE,
    NONE,
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
    default_val,
    empty_sequence,
    first_traced_name,
    int_val,
    join,
    joinall,
    negated_test,
    NO_TRACER_IF_FALSE,
    NO_TRACER_IF_TRUE,
    SPREAD,
    dict_of,
    surely_empty,
    surely_not_none,
)

BITWISE_LOGICAL = (cst.BitAnd, cst.BitOr, cst.BitXor, cst.BitAndAssign, cst.BitOrAssign, cst.BitXorAssign)


class Expressions:
    """The expression part of the interpreter (combined into ``Interp``)."""

    __slots__ = ()

    def eval(self, e, in_test: bool = False) -> Val:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            return UNKNOWN_VAL
        v = m(e, in_test)
        if v.flags & KEPT:
            # the call (or property read) ``e`` hands out what its memo keeps: reported here,
            # where a later run reads the stale tracer, and once
            self.emit("kept", self.frame, e, v)
            v = v.with_flags(v.flags & ~KEPT)
        return v

    def e_Integer(self, e, t) -> Val:
        return int_val(e.evaluated_value)

    def e_Float(self, e, t) -> Val:
        return STATIC_VAL

    e_Imaginary = e_SimpleString = e_ConcatenatedString = e_Ellipsis = e_Float

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
        foreign = owner is not self.frame.scope or self.frame.func.is_lambda  # a lambda shares its scope
        if not variable and foreign and owner.func is not None and owner.unrebound_param(name):
            # A parameter of the host function around this one (a lax body reading it): what
            # every call of that function passes (a concrete JAX array is staged here too; the
            # function a factory is given is that function).
            star = owner.func.params.star_arg
            if isinstance(star, cst.Param) and star.name.value == name:
                # ``*args`` of the closure a factory returns: what the closure's calls pass
                vals = self.analyzer.host_values.star_values(owner.func)
                if vals is not None:
                    return Val(STATIC, name, PYSEQ, tuple(host_val(v, self.analyzer.classes) for v in vals))
                return STATIC_VAL
            outer = self.frame.outer
            fn = outer.fns.get((id(owner), name)) if outer is not None else None
            if fn is not None:
                # the callable the factory was given in the signature this frame is interpreted under
                return Val(STATIC, name, 0, None, fn)
            passed = self.analyzer.host_values.passed_value(owner.func, name)
            fn = host_val(passed).fn
            if fn is not None:
                return Val(STATIC, name, 0, None, fn)
            # Otherwise an object the host function was given: it was there before the trace and
            # outlives it, as a variable of that function would (``self`` of the method around
            # a nested def: what the nested def writes to it stays after the trace).  Only when
            # the module shows it is a Python object (``self``, what every caller passes, a
            # container): a parameter nothing shows may be a mutable Ref of a kernel traced
            # elsewhere, which is meant to be written.
            flags = self.analyzer.outer_flags(name, owner)
            params = owner.func.positional_params()
            is_self = owner.func.is_method and bool(params) and params[0].name.value == name
            if flags or is_self or passed is not None:
                node = e if e is self.receiver and self.deferring else None
                attrs = self.analyzer.constructed_attributes(passed) if passed is not None and passed.kind == HOST_INSTANCE else None
                # an object every call builds the same way: what its constructor stored
                return Val(STATIC, None, flags, cls=passed.cls if attrs else None, outer=(owner, name, node), attrs=attrs)
        module = module_val(e, self.frame.scope)
        if module is not None:
            return module
        if variable and foreign:
            # Not a local bound later in this function (a lambda binds only its parameters, so
            # a variable of the scope it shares is another function's): the outer variable's
            # object itself.
            node = e if e is self.receiver and self.deferring else None
            instance = self.analyzer.outer_instance(name, owner)
            if instance is not None:
                # ``SGD = Optimizer(clip_update, 0.1)`` at module level: the object with the
                # fields it was built with (``SGD.update(g)`` calls ``clip_update``)
                return Val(STATIC, None, instance.flags, instance.items, None, instance.cls, outer=(owner, name, node), attrs=instance.attrs)
            return Val(STATIC, None, self.analyzer.outer_flags(name, owner), outer=(owner, name, node))
        return STATIC_VAL

    def array_op(self, vals, flags: int = 0) -> Val:
        """A JAX computation with a concrete JAX array among its inputs (``W.sum()``, ``W[0]``,
        ``W + 1`` on a global ``W``) and the other inputs ``vals``: a tracer where the frame
        is staged (omnistaging: JAX stages every operation under jit, concrete inputs too), a
        concrete array under vmap or grad alone and inside ``ensure_compile_time_eval()``."""
        traced = first_traced_name(vals)
        if traced is not None or any(v.kind == TRACED for v in vals):
            return Val(TRACED, traced, ARRAY | flags)
        if self.frame.staged and not self.frame.concrete:
            # staged, a JAX operation gives a tracer whatever its inputs are
            return Val(TRACED, None, ARRAY | flags)
        if any(v.kind == UNKNOWN for v in vals):
            return UNKNOWN_VAL
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
                    # a module attribute: jnp.float32, jnp.pi, lax.add; or a module (jax.numpy)
                    return Val(STATIC, q, MODULE) if q in ARRAY_MODULES else STATIC_VAL
        attr = e.attr.value
        if isinstance(base_expr, cst.Name):
            self.attr_hint = (base_expr, attr)
        base = self.eval(base_expr)
        if base.cls is None and base.ext is not None and base.kind == TRACED and not base.flags & ARRAY and attr not in STATIC_ATTRS:
            self.foreign_member(e, base, attr, [], attribute=True)  # a property is read where its class is
        return self.attribute_of(base, attr, dotted_name(e) or base.name)

    def attribute_of(self, base: Val, attr: str, name: Optional[str]) -> Val:
        """``base.attr``, written so or as ``getattr(base, "attr")`` (``name``: the value's
        name in messages)."""
        if base.cls is not None and base.kind != UNKNOWN:
            member = self.analyzer.instance_attribute(self.frame, base, attr, name)
            if member is not None:
                return member
        if base.fn is not None and base.fn[1] is None and base.fn[0].func.scope.kind == "module" and attr not in STATIC_ATTRS:
            # an attribute of a function of the module (``fn._cache``): it lives as long as
            # the module does, past any trace
            f = base.fn[0].func
            return Val(STATIC, None, 0, outer=(f.scope, f"{f.name}.{attr}", None))
        if attr in STATIC_ATTRS:
            if base.dims is not None and attr in ("shape", "ndim", "size"):
                # the shape of an array the code shows: Python ints, under every transform
                size = size_of(base.dims) if attr == "size" else len(base.dims)
                if attr == "shape":
                    return shape_val(base.dims)
                if size is not None:
                    return int_val(size)
            return Val(STATIC, None, SHAPE | PYSEQ if attr == "shape" else 0)
        if base.kind == STATIC:
            if base.flags & JAXARR and attr in ARRAY_ATTRS:
                # ``W.T``, ``W.at``: still the concrete array's view (``W.T`` of a vector is ``W``)
                return Val(STATIC, None, JAXARR)
            return STATIC_VAL
        if base.kind == TRACED and not base.flags & OPAQUE and (base.flags & ARRAY or attr in ARRAY_ATTRS):
            # ``ref.at``: views of the Ref; ``mask.at``, ``mask.T``: of the array's dtype
            return Val(TRACED, name, ARRAY | (base.flags & (REF | BOOL) if attr == "at" else base.flags & BOOL if attr in ("T", "mT") else 0))
        # A field of a pytree whose class the model cannot place: a leaf or static metadata,
        # only the class can tell.
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
            if key in base.keys:
                return base.items[base.keys.index(key)]
            if base.elem is not None and key is not None:
                return base.elem  # an entry the keys do not list: one of the others
            return None
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
            if base.elem is not None and base.keys is None and idx[0].kind == STATIC:
                # ``self.blocks[0]`` is an element; ``self.blocks[1:]`` the same kind of list
                return base if isinstance(e.slice[0].slice, cst.Slice) else base.elem
        if base.kind == TRACED:
            if base.flags & PYSEQ and len(idx) == 1 and isinstance(e.slice[0].slice, cst.Slice):
                return Val(TRACED, base.name, base.flags & (PYSEQ | REF), None)  # lst[:] is a list
            if base.flags & (PYSEQ | DICT) and (base.items is None or base.keys is not None):
                # an element the code does not show: a leaf (a tracer), a subtree (a container)
                # or a Python value kept beside the arrays
                return Val(TRACED, base.name, (base.flags & REF) | RAW)
            # an element of a traced value that is not a container: of an array, an array; of
            # a parameter (a jit argument: every leaf a tracer), a leaf or a subtree of tracers
            dims = indexed_dims(base.dims, e.slice, idx) if base.dims is not None else None
            # ``ref.at[i]`` is a view of the Ref, written in place as the Ref is (reading
            # ``ref[i]`` gives an array)
            view = base.flags & REF if isinstance(e.value, cst.Attribute) and e.value.attr.value == "at" else 0
            return Val(TRACED, base.name, base.flags & (ARRAY | BOOL) | view, dims=dims)
        if base.kind == STATIC:
            if base.flags & JAXARR:
                return self.array_op(idx)
            if any(v.kind in (TRACED, UNKNOWN) for v in idx):
                return UNKNOWN_VAL
            if base.outer is not None and len(e.slice) == 1:
                # ``STATE["hist"]`` of a global ``STATE = {"hist": []}``: the outer list itself
                el = self.analyzer.host_values.container_element(base.outer[0], base.outer[1], e.slice[0])
                if el is not None:
                    return Val(STATIC, None, DICT if isinstance(el, (cst.Dict, cst.DictComp)) else PYSEQ, outer=base.outer)
            return STATIC_VAL
        return UNKNOWN_VAL

    def binop(self, a: Val, b: Val, op) -> Val:
        if a.kind == TRACED or b.kind == TRACED:
            if a.container and b.container and isinstance(op, (cst.Add, cst.AddAssign)):
                return Val(TRACED, a.name or b.name, PYSEQ)
            if a.flags & PYSEQ and isinstance(op, (cst.Multiply, cst.MultiplyAssign)):
                return Val(TRACED, a.name, PYSEQ)  # [x] * n: a Python list
            name = a.name if a.kind == TRACED else b.name
            # arithmetic on a tracer gives an array; ``&``, ``|`` and ``^`` of two boolean arrays
            # a boolean one (with a Python int, ``mask & 1``, an integer array)
            logical = isinstance(op, BITWISE_LOGICAL) and a.flags & b.flags & BOOL
            return Val(TRACED, name, ARRAY | BOOL if logical else ARRAY)
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
            if traced is not None and string_conversions_only(e.left):
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
            return negated_test(v)
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
        with self.analyzer.effects.branch():  # (not evaluated where ``e.left`` decides)
            b = self._with_narrowed(e.left, names, lambda: self.eval(e.right, t)) if names else self.eval(e.right, t)
        self.emit("boolop", self.frame, e, a, b, t)
        v = join(a, b)
        # ``not traced and ok`` is true only where ``not traced`` is; ``traced or ok`` false
        # only where ``traced`` is
        keep = NO_TRACER_IF_TRUE if isinstance(e.operator, cst.And) else NO_TRACER_IF_FALSE
        if v.kind == STATIC and (a.flags | b.flags) & keep and not v.flags & (TRUE | FALSE):
            return Val(STATIC, None, keep)
        return v

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
                # A traced value that may be a container, None or a Python value kept beside
                # the arrays (a leaf or a subtree): looked up in a dict it is hashed, which only
                # a Python value survives; in another Python container its elements are compared
                # with it, a traced bool only where it is an array.
                undecided = vals[-1].kind == TRACED and not plain_traced(vals[-1])
                if isinstance(e.left, cst.SimpleString) or (vals[-1].kind != TRACED or undecided) and r.flags & DICT:
                    vals.append(STATIC_VAL)
                    continue
                static = False
                if vals[-1].kind != TRACED and r.kind == TRACED and not r.flags & ARRAY or undecided and r.kind == STATIC:
                    # ``KEY in batch``: a key lookup in a pytree dict (its structure is static),
                    # or a search in an array; the value cannot tell which.
                    vals[-1] = UNKNOWN_VAL
                    vals.append(UNKNOWN_VAL)
                    continue
            elif not isinstance(op, (cst.Is, cst.IsNot)):
                static = False
                arrays = arrays or bool((vals[-1].flags | r.flags) & JAXARR)
            vals.append(r)
        if len(vals) == 2:
            # two Python ints the code shows (``x.ndim == 1`` of an array of known shape)
            known = compared(vals[0], vals[1], e.comparisons[0].operator)
            if known is not None:
                return KNOWN_CONSTANTS["True" if known else "False"]
        if len(e.comparisons) > 1:
            # ``0 < x < 1`` is ``(0 < x) and (x < 1)``: the first comparison is made a bool.
            if (vals[0].flags | vals[1].flags) & JAXARR:
                first = self.array_op(vals[:2], BOOL)
            else:
                first = Val(max(vals[0].kind, vals[1].kind), first_traced_name(vals[:2]), BOOL | ARRAY)
            self.emit("chained_compare", self.frame, e, first, t)
        if static:
            if len(vals) == 2 and isinstance(e.comparisons[0].operator, (cst.Is, cst.IsNot)) and is_none_literal(e.comparisons[0].comparator):
                # ``x is None`` on a value that shows whether it is None: a Python bool
                left = vals[0]
                # a name the transform's call site tests for None before it (``frame.notnone``)
                guarded = isinstance(e.left, cst.Name) and self.frame.lookup(e.left.value) is None and e.left.value in self.frame.notnone
                none = True if left.kind == STATIC and left.flags & NONE else False if guarded or surely_not_none(left) else None
                if none is not None:
                    same = none == isinstance(e.comparisons[0].operator, cst.Is)
                    return KNOWN_CONSTANTS["True" if same else "False"]
            if len(vals) == 2 and all(v.flags & MODULE and v.name for v in vals):
                # ``xp is jnp`` with ``xp`` a module handed over: one module object per name
                same = (vals[0].name == vals[1].name) == isinstance(e.comparisons[0].operator, cst.Is)
                return KNOWN_CONSTANTS["True" if same else "False"]
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
        if v.kind == STATIC and v.flags & (TRUE | FALSE):
            # a test decided while tracing: the other branch is never evaluated
            return self.eval(e.body if v.flags & TRUE else e.orelse)
        names = self.narrow(e.test)
        with self.unsure_if(v, NO_TRACER_IF_TRUE):
            body = self._with_narrowed(e.test, names, lambda: self.eval(e.body)) if names else self.eval(e.body)
        with self.unsure_if(v, NO_TRACER_IF_FALSE):
            return join(body, self.eval(e.orelse))

    def e_Lambda(self, e: cst.Lambda, t) -> Val:
        f = self.analyzer.index.func_by_node.get(id(e))
        if f is None:
            return STATIC_VAL
        closure = [self.frame.env] + (self.frame.closure or [])
        return Val(STATIC, None, 0, None, (FnRef(f), closure, [], {}))

    def _seq(self, e, flags) -> Val:
        items = [self.eval(el.value) for el in e.elements]
        plain = not any(isinstance(el, cst.StarredElement) for el in e.elements)
        k = max((v.kind for v in items), default=STATIC)
        return Val(k, first_traced_name(items), flags, tuple(items) if plain else None)

    def e_Tuple(self, e, t) -> Val:
        return self._seq(e, PYSEQ)

    e_List = e_Tuple

    def e_Set(self, e, t) -> Val:
        v = self._seq(e, PYSEQ)
        return Val(v.kind, v.name, PYSEQ)

    def e_Dict(self, e, t) -> Val:
        entries = []
        for el in e.elements:
            if isinstance(el, cst.DictElement):
                self.eval(el.key)
                entries.append((string_value(el.key), self.eval(el.value)))
            else:
                entries.append((SPREAD, self.eval(el.value)))
        return dict_of(entries)

    def _comp(self, e, elts) -> Val:
        fr = e.for_in
        it = self.eval(fr.iter)
        if surely_empty(it):
            return empty_sequence()  # over nothing: the element is never computed
        if len(elts) == 1 and fr.inner_for_in is None and not fr.ifs and isinstance(fr.target, cst.Name) and it.items is not None and it.keys is None and len(it.items) <= 8:
            # over a tuple the code shows: one element per item (``a, b = (f(v) for v in (x, y))``)
            items = tuple(self._comp_element(fr.target.value, item, elts[0]) for item in it.items)
            # instances of one class (``[Clip(b) for b in (0.5, 2.0)]``): what iterating gives
            alike = all(v.cls is not None and v.cls is items[0].cls for v in items)
            return Val(max((v.kind for v in items), default=STATIC), first_traced_name(items), PYSEQ, items, elem=items[0] if alike else None)
        saved = self.frame.env
        self.frame.env = dict(saved)
        try:
            while fr is not None:
                it = it if fr is e.for_in else self.eval(fr.iter)
                self.assign(fr.target, self.element_of(fr.iter, it), None, None)
                for cond in fr.ifs:
                    v = self.eval(cond.test, True)
                    self.emit("test", self.frame, "comprehension", cond.test, v, cond)
                fr = fr.inner_for_in
            vals = [self.eval(x) for x in elts]
        finally:
            self.frame.env = saved
        k = max((v.kind for v in vals), default=STATIC)
        # Every element is the value of the one element expression: ``[Block(k) for k in keys]``
        # an instance of one class of the module, ``[[z] * n for _ in rows]`` a list
        elem = vals[0] if len(vals) == 1 and vals[0].kind != UNKNOWN else None
        return Val(k, first_traced_name(vals), PYSEQ, elem=elem)

    def _comp_element(self, name: str, item: Val, elt) -> Val:
        saved = self.frame.env
        self.frame.env = dict(saved)
        try:
            self.frame.env[name] = item
            return self.eval(elt)
        finally:
            self.frame.env = saved

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
        if it.elem is not None:
            return it.elem  # ``for block in self.blocks``: an instance of the element class
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
            if all(v.kind == it.items[0].kind for v in it.items) or _same_shape_rows(it.items):
                return joinall(it.items)
            return Val(it.kind, it.name)
        if it.kind == TRACED:
            if it.flags & RAW and not it.flags & ARRAY:
                return Val(TRACED, it.name, RAW)  # rows of an array, or keys of a dict: cannot tell yet
            return Val(TRACED, it.name, it.flags & ARRAY if not it.container else 0)
        if it.flags & JAXARR:
            return self.array_op([])  # the rows of a concrete array are sliced out by JAX
        return Val(it.kind) if it.kind != STATIC else STATIC_VAL


def _same_shape_rows(rows) -> bool:
    """Tuples of one length whose positions the loop unpacks (``for x, n in ((a, 1), (b, 3))``):
    each position joined over the rows, a Python value where every row holds one."""
    return all(r.items is not None and r.keys is None and len(r.items) == len(rows[0].items) for r in rows)


def module_val(expr, scope) -> Optional[Val]:
    """``jnp`` or ``np`` (an imported module the interpreter knows) as a value handed around:
    ``stable_sum(x, xp=jnp)``, ``def f(x, xp=np)``."""
    if not isinstance(expr, (cst.Name, cst.Attribute)):
        return None
    q = resolve(expr, scope)
    return Val(STATIC, q, MODULE) if q in ARRAY_MODULES else None


def parameter_default(default, scope) -> Val:
    """A parameter left at its default, evaluated where the ``def`` is: an array module it
    names (``xp=np``), a literal bool or None, else some Python value."""
    return module_val(default, scope) or default_val(default)

