"""Narrowing: the tests after which a name surely holds a Python value (``isinstance(x, int)``),
or an instance of a pytree class of the module.  Whether a value is a tracer is not narrowed
here: ``isinstance(x, Tracer)`` is decided where it is evaluated (``CallExpressions.builtin``),
as ``x is None`` is (``Expressions.e_Comparison``).

Separate from the statements that use it (``if``, a conditional expression, ``and``) because it
is one question, asked of a test expression, with its own tables of types.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import List

import libcst as cst

from jaxlint.analysis.jax.jax_api import TRACER_TYPES
from jaxlint.analysis.model.classes import annotation_class
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.traced.values import STATIC, STATIC_VAL, TRACED, Val


class Narrowing:
    """The narrowing part of the interpreter (combined into ``Interp``)."""

    __slots__ = ()

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
    _ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray"}) | TRACER_TYPES

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
        known = self.frame.lookup(name)
        if known is not None and known.kind == STATIC and known.cls is not None:
            return known  # already a Python object of a module class: it keeps what it holds
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

    @contextmanager
    def unsure_if(self, test: Val, flag: int):
        """Code run only where ``test`` rules tracers out (``flag``: where it is true, or where
        it is false), the interpreter not knowing whether it does: reached by the tracers it
        sees only if the code's own test is wrong (see ``Frame.unsure``)."""
        unsure = bool(test.kind == STATIC and test.flags & flag)
        self.frame.unsure += unsure
        try:
            with self.analyzer.effects.branch():  # (a branch of a test decided at run time)
                yield
        finally:
            self.frame.unsure -= unsure
