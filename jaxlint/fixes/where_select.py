"""A traced ``if``/ternary that only selects between two values -> ``jnp.where`` (JAX101, unsafe).

Handled shapes: ``a if cond else b``; ``if cond: return a`` with ``else: return b`` or with
``return b`` as the next statement; ``if cond: y = a`` / ``else: y = b``.  A chained
comparison condition becomes ``(lo < x) & (x < hi)``.

``jnp.where`` takes arrays (or numbers) and broadcasts them to one shape, so the fix is
offered only where the code shows both values are such arrays and that their shapes
broadcast together (:class:`_Operands`).  A branch that gives a pytree (a NamedTuple, a
tuple, a dict, an object) makes ``jnp.where`` raise TypeError, and two arrays of different
shapes (``x[:n]`` and ``x``, ``x.value`` and ``jnp.zeros(n)``) a ValueError: the program
that failed under jit would fail again with another error, and one that ran eagerly would
now fail.  ``lax.cond`` would need both branches to give the same pytree structure, shapes
and dtypes, and a scalar condition, which the code rarely shows either; where ``jnp.where``
is not known to fit there is no fix, and the advice names both.

Unsafe: ``jnp.where`` computes both values, so a branch that is costly, or fails or gives NaN
on the other branch's inputs (a ``log`` guarded by ``x > 0``, and its gradient), behaves
differently; ``lax.cond`` is then the right fix, and it is a choice the author makes.
Statements with comments inside get no fix.
"""

from __future__ import annotations

from typing import Callable, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_api import ELEMENTWISE_FUNCS
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.traced.values import DICT, OPAQUE, PYSEQ, REF, TEXT
from jaxlint.fixes.declare import UNSAFE, AddImport, Fix, Replace, ReplaceSpan
from jaxlint.fixes.names import code as _code, jnp_reference


def condition_code(test: cst.BaseExpression) -> str:
    """``test`` as an array condition: ``lo < x < hi`` -> ``(lo < x) & (x < hi)``."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) > 1:
        parts = []
        left = test.left
        for c in test.comparisons:
            parts.append(f"({_code(left).strip()} {_code(c.operator).strip()} {_code(c.comparator).strip()})")
            left = c.comparator
        return " & ".join(parts)
    return _code(test).strip()


# Functions whose result has the broadcast shape of their array arguments: the elementwise ones,
# and those that keep their argument's shape.
_ELEMENTWISE = ELEMENTWISE_FUNCS | frozenset({"clip", "round", "zeros_like", "ones_like", "full_like", "nan_to_num"})
# Keywords of those functions that leave the shape alone.
_ELEMENTWISE_KEYWORDS = frozenset({"min", "max", "a_min", "a_max", "dtype", "fill_value", "nan", "posinf", "neginf"})
# Reductions: without arguments (or, as ``jnp.f(x)``, with the array alone) they give a scalar.
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "median"})
# Array makers that take a shape: with ``x.shape`` they make an array of the shape of ``x``.
_SHAPED = frozenset({"zeros", "ones", "empty", "full"})
_ARRAY_MODULES = ("jax.numpy", "numpy")
_CONSTANTS = frozenset({"inf", "nan", "pi", "e", "euler_gamma"})
_NUMBERS = (cst.Integer, cst.Float, cst.Imaginary)
# Operators under which a tuple, list or string operand fails: an operand that passed them is a
# number or an array.  ``+`` and ``*`` are left out (concatenation, repetition); ``%`` too
# (string formatting).
_PROVING_OPERATORS = (cst.Subtract, cst.Divide, cst.FloorDivide, cst.Power)
_SHAPE_OPERATORS = _PROVING_OPERATORS + (cst.Add, cst.Multiply, cst.Modulo)
_ORDERING = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
# Flags of a value that is no array (a Python container, text, a mutable Ref, an object).
_NOT_AN_ARRAY = PYSEQ | DICT | TEXT | REF | OPAQUE


def _key(e) -> str:
    """An operand's identity: its code without the parentheses around it."""
    if getattr(e, "lpar", None):
        e = e.with_changes(lpar=[], rpar=[])
    return " ".join(_code(e).split())


def _shape_of(e) -> Optional[cst.BaseExpression]:
    """``x`` for ``x.shape``."""
    if isinstance(e, cst.Attribute) and e.attr.value == "shape":
        return e.value
    return None


def _number(e) -> bool:
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        e = e.expression
    return isinstance(e, _NUMBERS)


class _Operands:
    """Whether ``jnp.where(test, a, b)`` is known to take arrays (or numbers) whose shapes
    broadcast together.

    A value is read as an elementwise expression (numbers, ``-``, arithmetic, the functions of
    ``_ELEMENTWISE``) over operands: names, attributes, subscripts and other calls, each
    identified by its code.  Its shape is the broadcast of its operands' shapes, and a
    reduction without arguments is a scalar.  The two values fit when the operands of one are
    among those of the other (``x`` and ``-x``, ``x`` and ``0.0 * x``, ``x * scale`` and
    ``x``, ``1.0`` and ``x``): the broadcast of both is then the broadcast of the larger set,
    which that branch computes already.  ``x[:n]`` and ``x``, or ``x.value`` and
    ``jnp.zeros(n)``, are different operands, whose shapes nothing relates.

    And every operand must be known to be an array or a number, not a pytree: the code uses
    it where a tuple, list, dict or object would have failed already (``-x``, ``x / n``,
    ``x > 0``, ``jnp.exp(x)``, ``x.sum()``), or next to such an array in ``x * scale``.  The
    analysis' values only rule operands out (a Python container, an instance, a function):
    what a call returns, unpacked, may be a pytree the code does not show (the gradients of
    a model)."""

    def __init__(self, scope, lookup: Optional[Callable[[str], object]]):
        self.scope = scope
        self.lookup = lookup
        self.proven: Set[str] = set()
        self.rejected = False
        # (operand, other operand) of ``+``, ``*``, ``%``: an array on one side makes the
        # result an array whatever the other side is (a number, or what broadcasts with it)
        self.pairs: List[Tuple[cst.BaseExpression, cst.BaseExpression]] = []
        # operand sets an expression of the condition has broadcast already (``x > floor``)
        self.broadcast: List[FrozenSet[str]] = []

    def _resolved(self, func) -> Optional[str]:
        """``f`` for ``jnp.f`` / ``np.f`` (by the module's imports), else None."""
        q = resolve(func, self.scope) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if q is None:
            return None
        module, _, name = q.rpartition(".")
        return name if module in _ARRAY_MODULES else None

    def prove(self, e) -> None:
        self.proven.add(_key(e))

    def operands(self, e) -> Optional[FrozenSet[str]]:
        """The operands whose broadcast is the shape of ``e``; None when ``e`` is not known to
        be an array of that shape."""
        if isinstance(e, _NUMBERS) or isinstance(e, cst.Name) and e.value in ("True", "False"):
            return frozenset()
        if isinstance(e, cst.UnaryOperation):
            if isinstance(e.operator, cst.Not):
                return None  # a Python bool of the operand's truth: no array
            inner = self.operands(e.expression)
            if inner is not None and not _number(e.expression):
                self.prove(e.expression)
            return inner
        if isinstance(e, cst.BinaryOperation):
            if not isinstance(e.operator, _SHAPE_OPERATORS):
                return None  # ``@`` changes the shape; ``|``, ``&``, ``<<``: no reason to guess
            left, right = self.operands(e.left), self.operands(e.right)
            if left is None or right is None:
                return None
            for side, other in ((e.left, e.right), (e.right, e.left)):
                if _number(side):
                    continue
                if isinstance(e.operator, _PROVING_OPERATORS):
                    self.prove(side)
                elif isinstance(e.operator, cst.Add) and _number(other):
                    self.prove(side)  # a tuple or a string plus a number fails
                elif isinstance(e.operator, cst.Multiply) and isinstance(other, cst.Float):
                    self.prove(side)  # a sequence times a float fails
                else:
                    self.pairs.append((side, other))
            return left | right
        if isinstance(e, cst.Comparison):
            if not all(isinstance(c.operator, _ORDERING + (cst.Equal, cst.NotEqual)) for c in e.comparisons):
                return None  # ``in``, ``is``: a Python bool
            self.ordering(e)
            sides = [self.operands(side) for side in [e.left] + [c.comparator for c in e.comparisons]]
            if any(side is None for side in sides):
                return None
            return frozenset().union(*sides)
        if isinstance(e, cst.Attribute):
            if self._resolved(e) in _CONSTANTS:
                return frozenset()  # jnp.inf, np.pi
            return self.operand(e)
        if isinstance(e, cst.Call):
            name = self._resolved(e.func)
            positional = [a for a in e.args if a.keyword is None and not a.star]
            if any(a.star for a in e.args):
                return self.operand(e)
            if name in _ELEMENTWISE and all(a.keyword is None or a.keyword.value in _ELEMENTWISE_KEYWORDS for a in e.args):
                found: FrozenSet[str] = frozenset()
                for a in e.args:
                    inner = self.operands(a.value)
                    if inner is None:
                        return None
                    if not _number(a.value):
                        self.prove(a.value)  # NumPy-style functions take no tuple of arrays
                    found |= inner
                return found
            if name in _SHAPED and positional and _shape_of(positional[0].value) is not None:
                # ``jnp.zeros(x.shape)``: the shape of ``x`` (which a tuple would not have)
                base = _shape_of(positional[0].value)
                found = self.operands(base)
                if found is None or any(a.keyword is not None and a.keyword.value not in ("dtype", "fill_value") for a in e.args):
                    return None
                self.prove(base)
                return found
            if name in _REDUCTIONS and len(e.args) == 1 and positional:
                self.prove(positional[0].value)
                return frozenset()  # a scalar
            if isinstance(e.func, cst.Attribute) and e.func.attr.value in _REDUCTIONS and not e.args:
                # ``x.sum()``: tuples, lists and dicts have no such method
                self.prove(e.func.value)
                return frozenset()
            return self.operand(e)
        if isinstance(e, (cst.Name, cst.Subscript)):
            return self.operand(e)
        return None  # a tuple, list, dict, string, lambda...: no array

    def operand(self, e) -> FrozenSet[str]:
        if isinstance(e, cst.Name) and self.lookup is not None:
            v = self.lookup(e.value)
            if v is not None and (v.flags & _NOT_AN_ARRAY or v.items is not None or v.cls is not None or v.fn is not None):
                self.rejected = True  # a container, an instance, a function: no array
        return frozenset({_key(e)})

    def ordering(self, n: cst.Comparison) -> None:
        """``x > 0`` fails for a tuple, a list, a dict or None: ``x`` is a number or an array."""
        left = n.left
        for c in n.comparisons:
            if isinstance(c.operator, _ORDERING):
                for side, other in ((left, c.comparator), (c.comparator, left)):
                    if _number(other) and not _number(side):
                        self.prove(side)
            left = c.comparator

    def condition(self, test) -> None:
        """What the test proves of its operands: ``x > 0`` fails for a tuple, a list, a dict or
        None (an ordering against a number); ``x.sum() > 0`` needs an array for ``x``."""
        stack = [test]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Comparison):
                self.ordering(n)
                sides = [self.operands(side) for side in [n.left] + [c.comparator for c in n.comparisons]]
                if all(side is not None for side in sides):
                    # ``x > floor`` broadcast ``x`` and ``floor`` together
                    self.broadcast.append(frozenset().union(*sides))
            elif isinstance(n, (cst.BooleanOperation, cst.UnaryOperation)):
                stack.extend(n.children)
            elif isinstance(n, cst.BaseExpression):
                self.operands(n)

    def fit(self, test, a, b) -> bool:
        if a is None or b is None:
            return False
        first, second = self.operands(a), self.operands(b)
        if first is None or second is None or self.rejected:
            return False
        self.condition(test)
        both = first | second
        if not any(both <= known for known in [first, second] + self.broadcast):
            return False
        changed = True
        while changed:
            changed = False
            for side, other in self.pairs:
                if _key(other) in self.proven and not _number(other) and _key(side) not in self.proven:
                    self.prove(side)
                    changed = True
        return all(k in self.proven for k in both)


_GUARDS = frozenset({"isinstance", "hasattr", "callable"})


def _guard(e) -> bool:
    """A Python bool about what a value is (``x is not None``, ``isinstance(x, jax.Array)``),
    which may guard the operand after it."""
    if isinstance(e, cst.Comparison):
        return all(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in e.comparisons)
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value in _GUARDS


def _array_condition(test, jnp: str) -> Optional[str]:
    """``test`` as the condition of ``jnp.where``, where a tracer has no truth value either:
    ``not`` becomes ``jnp.logical_not``, ``and``/``or`` ``jnp.logical_and``/``logical_or``, a
    chained comparison ``(lo < x) & (x < hi)``.  A guard on the left of ``and``/``or``
    (``isinstance(x, jax.Array) and ...``) stays a Python operator: it is a Python bool, and it
    may be what makes the other operand safe to compute.  None for a condition the fix cannot
    write as an array (a ternary, a lambda, a walrus)."""
    if isinstance(test, cst.BooleanOperation):
        left, right = _array_condition(test.left, jnp), _array_condition(test.right, jnp)
        if right is None:
            return None
        word = "and" if isinstance(test.operator, cst.And) else "or"
        if _guard(test.left):
            return f"{_code(test.left).strip()} {word} {right}"
        if left is None:
            return None
        return f"{jnp}.logical_{word}({left}, {right})"
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _array_condition(test.expression, jnp)
        return None if inner is None else f"{jnp}.logical_not({inner})"
    if getattr(test, "lpar", None):
        inner = test.with_changes(lpar=[], rpar=[])
        if isinstance(inner, (cst.BooleanOperation, cst.UnaryOperation)):
            return _array_condition(inner, jnp)
    if isinstance(test, cst.Comparison) and not _guard(test) or isinstance(test, cst.Call):
        return condition_code(test)
    if isinstance(test, (cst.Name, cst.Attribute, cst.Subscript)):
        return condition_code(test)
    return None


def _where(jnp: str, test, a, b) -> Optional[str]:
    condition = _array_condition(test, jnp)
    if condition is None:
        return None
    return f"{jnp}.where({condition}, {_code(a).strip()}, {_code(b).strip()})"


def _single(block) -> Optional[cst.BaseSmallStatement]:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    return line.body[0]


def _comments(*nodes) -> str:
    """The comments inside ``nodes`` (the first one's leading lines excepted: they stay above
    the replacement), as one trailing comment, so that the fix drops none."""
    found = []
    for i, node in enumerate(nodes):
        if i == 0 and hasattr(node, "leading_lines"):
            node = node.with_changes(leading_lines=())
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Comment):
                found.append(n.value)
            else:
                stack.extend(reversed(n.children))
    return "".join("  " + c for c in found)


def where_fix_ifexp(e: cst.IfExp, scope, lookup=None) -> Optional[Fix]:
    """``lookup(name)``: the value a name holds where ``e`` is (the traced frame's)."""
    if isinstance(e.body, cst.IfExp) or isinstance(e.orelse, cst.IfExp):
        # A chain (``a if p else b if q else c``) is fixed from the inside out, one link per
        # round of ``--fix``: the inner ternary's fix and this one's would overlap, and writing
        # this one's text now would cost each link of a long chain the whole chain's length.
        return None
    if not _Operands(scope, lookup).fit(e.test, e.body, e.orelse) or _comments(e):
        return None
    ref = jnp_reference(scope)
    if ref is None:
        return None
    text = _where(ref[0], e.test, e.body, e.orelse)
    if text is None:
        return None
    return Fix("Replace with `jnp.where`", (Replace(e, text),) + tuple(AddImport(i) for i in ref[1]), UNSAFE)


def where_fix_if(st: cst.If, following: Optional[cst.CSTNode], scope, lookup=None) -> Optional[Fix]:
    """``following``: the statement after ``st`` in its block (for ``if c: return a`` /
    ``return b``); ``lookup(name)``: the value a name holds at the ``if``."""
    if isinstance(st.orelse, cst.If):
        return None
    first = _single(st.body)
    ref = jnp_reference(scope)
    if first is None or ref is None:
        return None
    jnp, imports = ref

    def fix(a, b, head: str, *replaced) -> Optional[Fix]:
        """``replaced`` (the if, or the if and the return after it) as ``{head}jnp.where(...)``."""
        where = _where(jnp, st.test, a, b) if _Operands(scope, lookup).fit(st.test, a, b) else None
        if where is None:
            return None
        text = f"{head}{where}{_comments(*replaced)}"
        edit = Replace(st, text) if len(replaced) == 1 else ReplaceSpan(st, following, text)
        return Fix(f"Replace with `{head}jnp.where(...)`", (edit,) + tuple(AddImport(i) for i in imports), UNSAFE)

    if st.orelse is not None:
        second = _single(st.orelse.body)
        if isinstance(first, cst.Return) and isinstance(second, cst.Return):
            return fix(first.value, second.value, "return ", st)
        if isinstance(first, cst.Assign) and isinstance(second, cst.Assign) and len(first.targets) == len(second.targets) == 1:
            t1, t2 = first.targets[0].target, second.targets[0].target
            if isinstance(t1, cst.Name) and isinstance(t2, cst.Name) and t1.value == t2.value:
                return fix(first.value, second.value, f"{t1.value} = ", st)
        return None
    # if c: return a
    # return b
    if not isinstance(first, cst.Return) or not isinstance(following, cst.SimpleStatementLine):
        return None
    if len(following.body) != 1 or not isinstance(following.body[0], cst.Return):
        return None
    return fix(first.value, following.body[0].value, "return ", st, following)  # one return for both


def next_statement(root: cst.CSTNode, st: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The statement after ``st`` in the block of ``root`` (a function) that holds it."""
    stack = [root]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(body, (list, tuple)):
            for i, s in enumerate(body):
                if s is st:
                    return body[i + 1] if i + 1 < len(body) else None
        if isinstance(node, cst.BaseCompoundStatement) or isinstance(node, (cst.IndentedBlock, cst.Else, cst.ExceptHandler, cst.Finally)):
            stack.extend(c for c in node.children if isinstance(c, (cst.BaseSuite, cst.BaseCompoundStatement, cst.Else, cst.ExceptHandler, cst.Finally)))
    return None
