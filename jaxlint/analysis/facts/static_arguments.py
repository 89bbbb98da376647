"""Arguments passed for static parameters at the call sites of the module's jitted functions."""

from __future__ import annotations

from typing import List, NamedTuple

import libcst as cst

from jaxlint.analysis.host.host_value import SCALAR
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import subscript_key
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.traced.calls import Analyzer
from jaxlint.analysis.model.transforms import Application, arguments_by_parameter


class StaticArgument(NamedTuple):
    application: Application  # the jit the parameter is static for
    arg: cst.Arg  # the argument at the call site
    param: str  # the static parameter it is passed for
    scope: Scope  # where the call is made
    order: int  # the call's position in that scope
    call: cst.Call  # the call site


def find_static_arguments(analyzer: Analyzer, host: HostValues) -> List[StaticArgument]:
    """Every argument passed for a static parameter at a call site of a jitted function, and
    every Python scalar passed to an ``eqx.filter_jit`` function: it hashes each leaf that is
    no array into its cache key, as ``static_argnums`` would."""
    found: List[StaticArgument] = []
    where = analyzer.module_ctx.call_sites.sites
    statics_of = {id(app): statics for app, statics in analyzer.static_applications()}
    for app in analyzer.finder.applications:
        statics = statics_of.get(id(app))
        filtered = app.transform.filtered and app.transform.cached
        if statics is None and not filtered:
            continue
        pos = app.jit_positional()
        for call in analyzer.call_sites(app):
            so = where.get(id(call))
            if so is None:
                continue
            scope, order = so
            for a, pname in arguments_by_parameter(app, call, pos):
                if pname is not None and (pname in (statics or ()) or filtered and _python_scalar(host.value(a.value, scope, call))):
                    found.append(StaticArgument(app, a, pname, scope, order, call))
    return found


def _python_scalar(v) -> bool:
    """A Python number, string, bool or None: a leaf equinox's filters keep static (a NumPy
    scalar is an array to them)."""
    return v is not None and v.kind == SCALAR


ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Power, cst.MatrixMultiply)


# what ``used_only_in_arithmetic`` reads: a name, an attribute, a dict's item by its key
NAME, ATTRIBUTE, KEY = "name", "attribute", "key"


def used_only_in_arithmetic(func: cst.CSTNode, name: str, part: str = NAME) -> bool:
    """Every read of ``name`` in ``func``'s body (``part``: of an attribute ``name`` of any
    object, or of the item under the key ``"name"`` of any dict, in all of ``func``) is an
    operand of arithmetic (``x * lr``) or of a comparison with an array, outside a test
    (``jnp.arange(n) < k``): a traced value would do, so a static value used so compiles per
    value for nothing.  A read in a test, a ``range``, a shape or a call may need the Python
    value; a store is no read."""
    uses = _Uses(name, part)
    uses.walk(func.body if isinstance(func.body, cst.BaseSuite) else func)
    return uses.total > 0 and uses.total == uses.arithmetic


class _Uses(FastVisitor):
    def __init__(self, name: str, part: str):
        self.name = name
        self.part = part
        self.total = 0
        self.arithmetic = 0
        self._tested = 0

    def _reads(self, node) -> bool:
        if self.part == ATTRIBUTE:
            return isinstance(node, cst.Attribute) and node.attr.value == self.name
        if self.part == KEY:
            return subscript_key(node) == self.name
        return isinstance(node, cst.Name) and node.value == self.name

    def visit_AssignTarget(self, node) -> bool:
        if self.part != NAME and self._reads(node.target):
            self.walk(node.target.value)  # ``d["lr"] = v`` stores the item, it reads ``d``
            return False
        return True

    def visit_Subscript(self, node) -> None:
        if self.part == KEY and self._reads(node):
            self.total += 1

    def visit_Name(self, node) -> None:
        if self._reads(node):
            self.total += 1

    def visit_Attribute(self, node) -> bool:
        if self._reads(node):
            self.total += 1
        self.walk(node.value)  # ``x.lr`` reads ``x``, not ``lr``
        return False

    def visit_Arg(self, node) -> bool:
        self.walk(node.value)  # ``f(lr=x)`` names a keyword, it reads ``x``
        return False

    def visit_BinaryOperation(self, node) -> None:
        if isinstance(node.operator, ARITHMETIC):
            self.arithmetic += sum(1 for side in (node.left, node.right) if self._reads(side))

    def visit_Comparison(self, node) -> None:
        sides = (node.left, *(c.comparator for c in node.comparisons))
        # against an array made by a call (``jnp.arange(n) < k``), not a literal or a
        # builtin's Python result: an array of truth values, which a traced value makes too
        if not self._tested and any(isinstance(side, cst.Call) and isinstance(side.func, cst.Attribute) for side in sides):
            self.arithmetic += sum(1 for side in sides if self._reads(side))

    def _test(self, test, rest) -> bool:
        """A test asks for the Python truth of what it reads."""
        self._tested += 1
        self.walk(test)
        self._tested -= 1
        for part in rest:
            self.walk(part)
        return False

    def visit_If(self, node) -> bool:
        return self._test(node.test, (node.body, node.orelse) if node.orelse is not None else (node.body,))

    def visit_While(self, node) -> bool:
        return self._test(node.test, (node.body,) if node.orelse is None else (node.body, node.orelse))

    def visit_IfExp(self, node) -> bool:
        return self._test(node.test, (node.body, node.orelse))

    def visit_Assert(self, node) -> bool:
        return self._test(node.test, ())

    def visit_BooleanOperation(self, node) -> bool:
        # ``and``/``or`` ask for the truth of each operand
        return self._test(node.left, ()) or self._test(node.right, ())

    def visit_UnaryOperation(self, node) -> bool:
        if isinstance(node.operator, cst.Not):
            return self._test(node.expression, ())
        return True
