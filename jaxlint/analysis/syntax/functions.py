"""Questions about a def's own syntax: the values its ``return`` statements give, whether a
decorator may wrap it, and the names it reads from where it is made."""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from jaxlint.analysis.syntax.comprehensions import clauses, repeated_parts
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import named_params, parameter_names, target_names
from jaxlint.analysis.syntax.scopes import FuncInfo


class OwnCodeVisitor(FastVisitor):
    """Visits the code under a node that runs with it: not the bodies of the defs, classes and
    lambdas it defines."""

    def visit_FunctionDef(self, n) -> bool:
        return False

    visit_ClassDef = visit_Lambda = visit_FunctionDef


class _Returns(OwnCodeVisitor):
    """The ``return`` statements under a node, not of nested defs, classes or lambdas."""

    def __init__(self) -> None:
        self.found: List[cst.Return] = []
        self.yields = False

    def visit_Return(self, r: cst.Return) -> None:
        self.found.append(r)

    def visit_Yield(self, y: cst.Yield) -> None:
        self.yields = True


def own_returns(node) -> List[cst.Return]:
    """A def's own ``return`` statements, in order."""
    v = _Returns()
    v.walk(node.body)
    return v.found


def return_values(node) -> List[Optional[cst.BaseExpression]]:
    """The values of a def's own ``return`` statements, in order (None for a bare ``return``)."""
    return [r.value for r in own_returns(node)]


def single_return(func_node) -> Optional[cst.BaseExpression]:
    """The value of the function's only ``return``, when it is the last statement of its body."""
    if isinstance(func_node, cst.Lambda):
        return func_node.body
    body = func_node.body.body if isinstance(func_node.body, cst.IndentedBlock) else ()
    if not body:
        return None
    found = own_returns(func_node)
    last = body[-1]
    if len(found) != 1 or not isinstance(last, cst.SimpleStatementLine) or found[0] not in last.body:
        return None
    return found[0].value


def possible_returns(node) -> List[Optional[cst.BaseExpression]]:
    """The values of the ``return`` statements of a def (None for a bare ``return``), not of
    nested functions or classes; a body that can end without ``return`` adds None.  A generator
    or ``async def`` gives only None: calling it returns a generator or coroutine, never what
    its ``return`` statements name."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    out: List[Optional[cst.BaseExpression]] = []
    if body:
        v = _Returns()
        v.walk(node.body)
        if v.yields or node.asynchronous is not None:
            return [None]
        out = [r.value for r in v.found]
    if not body or not _ends_in_return(body[-1]):
        out.append(None)
    return out


def _ends_in_return(st) -> bool:
    if isinstance(st, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in st.body)
    if isinstance(st, cst.If):
        if st.orelse is None:
            return False
        other = st.orelse.body.body if isinstance(st.orelse, cst.Else) else [st.orelse]
        return bool(st.body.body) and _ends_in_return(st.body.body[-1]) and bool(other) and _ends_in_return(other[-1])
    return False


def rewrapped(f: FuncInfo, site, transforms) -> bool:
    """A decorator above ``site`` (one of ``f``'s) is neither a transform's (``transforms``: the
    applications of transforms to ``f``) nor ``staticmethod``/``classmethod``: the def's name is
    bound to what that decorator returns, which may change the arguments (pad, convert them)
    before they reach the function ``site`` transforms."""
    decorators = f.node.decorators
    transform_sites = {id(a.site) for a in transforms}
    for d in decorators[: decorators.index(site)]:
        e = d.decorator
        if id(d) in transform_sites or isinstance(e, cst.Name) and e.value in ("staticmethod", "classmethod"):
            continue
        return True
    return False


def _undecorated(f: FuncInfo) -> bool:
    """A def whose name is the function itself: no decorator (other than ``staticmethod``)
    that could wrap it and call it differently."""
    if f.is_lambda:
        return True
    return all(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod" for d in f.node.decorators)


def free_names(index, node) -> set:
    """The names ``node`` reads from where it is evaluated: not an attribute's name or a
    keyword's, nor what a lambda, def or comprehension in it binds for itself (its parameters
    or variables, and a def's locals: a name it assigns is local to all of its body unless
    declared ``global`` / ``nonlocal``), though its parameter defaults, decorators and first
    iterable are read where it runs.  ``index``: the module's, which knows each def's locals."""
    walk = _FreeNames(index)
    walk.walk(node)
    return walk.free


class _FreeNames(FastVisitor):
    def __init__(self, index):
        self.index = index
        self.free = set()
        self._own: List[set] = []

    def _function(self, node, body, outer) -> bool:
        for x in outer:
            self.walk(x)
        own = set(parameter_names(node.params))
        f = self.index.func_by_node.get(id(node))
        if f is not None and f.body_scope is not None:
            own |= {n for n in f.body_scope.bindings if n not in f.body_scope.globals and n not in f.body_scope.nonlocals}
        self._own.append(own)
        self.walk(body)
        self._own.pop()
        return False

    def visit_Lambda(self, node) -> bool:
        return self._function(node, node.body, [p.default for p in named_params(node.params) if p.default is not None])

    def visit_FunctionDef(self, node) -> bool:
        defaults = [p.default for p in named_params(node.params) if p.default is not None]
        return self._function(node, node.body, [d.decorator for d in node.decorators] + defaults)

    def _comprehension(self, node) -> bool:
        fors = clauses(node)
        self.walk(fors[0].iter)
        self._own.append({n for f in fors for n in target_names(f.target)})
        for i, f in enumerate(fors):
            for part in ([f.iter] if i else []) + [c.test for c in f.ifs]:
                self.walk(part)
        for part in repeated_parts(node):
            self.walk(part)
        self._own.pop()
        return False

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Attribute(self, node) -> bool:
        self.walk(node.value)
        return False

    def visit_Arg(self, node) -> bool:
        self.walk(node.value)  # not the keyword's name
        return False

    def visit_Name(self, node) -> None:
        if not any(node.value in own for own in self._own):
            self.free.add(node.value)
