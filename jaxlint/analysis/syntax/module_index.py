"""One pass over a module: imports, scopes, functions, calls, bindings and mutations.

The pass records only what later stages ask for, so that a file costs one walk.  Names are
resolved by the import table built here (``import jax.numpy as jnp`` makes ``jnp.zeros``
resolve to ``jax.numpy.zeros``); LibCST's QualifiedNameProvider is not used on purpose: it
costs several times the parse on large files.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Set, Tuple, Union

import libcst as cst

from jaxlint.analysis.syntax.comprehensions import clauses, repeated_parts
from jaxlint.analysis.syntax.fast_walk import DottedAttributes, FastVisitor, record_dotted
from jaxlint.analysis.syntax.nodes import base_name, dotted_name, named_params, parallel_values, target_names
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS, Binding, ClassInfo, FuncInfo, Scope


def _import_module_name(node) -> str:
    if node is None:
        return ""
    return dotted_name(node) or ""


def _alias_target(scope: Scope, name: str) -> Optional[str]:
    """The variable ``name`` stands for when every binding of it in ``scope`` so far is
    ``name = OTHER``."""
    binds = scope.bindings.get(name)
    if not binds:
        return None
    targets = {b.value.value for b in binds if b.kind == "assign" and isinstance(b.value, cst.Name)}
    if len(targets) != 1 or len(binds) != sum(1 for b in binds if b.kind == "assign" and isinstance(b.value, cst.Name)):
        return None
    target = targets.pop()
    if target == name or target in ("None", "True", "False"):
        return None
    return target


class AttributeWrite(NamedTuple):
    name: str  # the variable: ``obj``
    attr: str  # its attribute that changes: ``a`` of ``obj.a.b = v``
    node: cst.CSTNode  # the assignment target, or the mutating call
    value: Optional[cst.BaseExpression]  # the assigned value (None for ``+=`` and calls)
    in_place: bool  # the object ``obj.a`` is changed (``obj.a.b = v``), not rebound
    scope: "Scope"
    order: int

    @property
    def method(self) -> Optional["FuncInfo"]:
        """The method whose receiver ``name`` is (``self.a = v`` in the body of a method, not
        of a function nested in it), else None."""
        f = self.scope.func if self.scope.kind == "function" else None
        return f if f is not None and f.receiver == self.name else None


class ModuleIndex(FastVisitor):
    """Collects the module facts in one walk."""

    def __init__(self, module: cst.Module):
        self.module_scope = Scope("module", module, None, "<module>")
        self.scope = self.module_scope
        self.functions: List[FuncInfo] = []
        self.func_by_node: Dict[int, FuncInfo] = {}
        self.classes: List[ClassInfo] = []
        # (call node, scope, order) for every call in the module
        self.calls: List[Tuple[cst.Call, Scope, int]] = []
        # Calls made inside ``with jax.disable_jit():``: JAX runs them eagerly, nothing is traced.
        self.eager_calls: set = set()
        self._eager_depth = 0
        # (target, statement, scope, is_aug) for every ``x[...] = v`` / ``x[...] op= v``
        self.subscript_stores: List[Tuple[cst.Subscript, cst.CSTNode, Scope, bool]] = []
        # Every change of an attribute of a variable: ``obj.a = v``, ``obj.a += v``,
        # ``obj.a.b = v``, ``obj.a[k] = v``, ``obj.a.append(v)``.
        self.attribute_writes: List[AttributeWrite] = []
        # Every ``import`` and ``from ... import`` statement, in any scope, in source order.
        self.import_statements: List[Union[cst.Import, cst.ImportFrom]] = []
        # Every plain dotted name written as an attribute (``jax.tree_util.tree_map``; the
        # dotted names of imports too), anywhere in the module: the outermost of each chain.
        self.dotted_attributes: Set[str] = set()
        self.order = 0
        self._loop_starts: List[Tuple[Scope, int]] = []
        # Where each enclosing block starts (None for a one-line suite), the ``try``/``with``
        # statements around (by scope), and the ``if`` statements around: [node, the order of
        # its test, the order its body ends at once its ``else`` is reached].
        self._blocks: List[Optional[int]] = []
        self._protected: List[Scope] = []
        self._ifs: List[list] = []
        self._stmt: Optional[cst.CSTNode] = None
        self._calls_by_callee: Optional[Dict[object, List[Tuple[cst.Call, Scope]]]] = None
        self.walk(module)

    def release(self) -> None:
        """Forget the module's facts once nothing will ask for them again.  Scopes and the
        functions and classes defined in them point at each other, and through them at the
        tree: left as they are, those cycles keep every node alive until the collector traces
        all of them (for a parsed module, several times the cost of freeing it)."""
        records = [self.module_scope]
        for f in self.functions:
            records.append(f)
            if f.body_scope is not None:
                records.append(f.body_scope)
        for c in self.classes:
            records.append(c)
            records.append(c.body_scope)
        for record in records:
            for name in type(record).__slots__:
                if hasattr(record, name):
                    delattr(record, name)
        self.__dict__.clear()

    def calls_of(self, callee) -> List[Tuple[cst.Call, "Scope"]]:
        """(call, scope) of the calls whose callee is the name ``callee`` (``f(...)``),
        ``"." + attr`` (``obj.attr(...)``), or for any other callee expression its ``id``.  The
        table is built once, on first use, so that finding one function's calls does not scan
        every call of the module."""
        table = self._calls_by_callee
        if table is None:
            table = self._calls_by_callee = {}
            for call, scope, _ in self.calls:
                func = call.func
                if isinstance(func, cst.Name):
                    key = func.value
                elif isinstance(func, cst.Attribute):
                    key = "." + func.attr.value
                else:
                    key = id(func)
                table.setdefault(key, []).append((call, scope))
        return table.get(callee, [])

    # -- scopes ---------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
        self.order += 1
        parent = self.scope
        for d in node.decorators:
            self.walk(d.decorator)
        self._visit_param_defaults(node.params)
        for star in (node.params.star_arg, node.params.star_kwarg):
            # not walked for the index (nothing there runs or binds), but written there
            if isinstance(star, cst.Param) and star.annotation is not None:
                DottedAttributes(self.dotted_attributes).walk(star.annotation)
        if node.returns is not None:
            self.walk(node.returns)
        body_scope = Scope("function", node, parent, node.name.value)
        cls = parent.node_info if parent.kind == "class" else None
        info = FuncInfo(node, node.name.value, parent, body_scope, cls, self.order)
        body_scope.func = info
        if not _property_accessor(node):
            # ``@x.setter def x`` (or ``.deleter``) gives the property another accessor; reading
            # ``obj.x`` still runs the getter that ``parent.defs`` holds
            parent.defs[node.name.value] = info
        parent.bind(node.name.value, self.order, "def")
        self.functions.append(info)
        self.func_by_node[id(node)] = info
        self.scope = body_scope
        for p in info.all_param_names():
            body_scope.bind(p, self.order, "param")
        self.walk(node.body)
        self.scope = parent
        return False

    def _visit_param_defaults(self, params: cst.Parameters) -> None:
        for p in named_params(params):
            if p.default is not None:
                self.walk(p.default)
            if p.annotation is not None:
                self.walk(p.annotation)

    def visit_Lambda(self, node: cst.Lambda) -> Optional[bool]:
        info = FuncInfo(node, "<lambda>", self.scope, None, order=self.order)
        self.func_by_node[id(node)] = info
        self._visit_param_defaults(node.params)
        self.walk(node.body)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> Optional[bool]:
        self.order += 1
        parent = self.scope
        for d in node.decorators:
            self.walk(d.decorator)
        for a in node.bases:
            self.walk(a)
        for k in node.keywords:
            DottedAttributes(self.dotted_attributes).walk(k)
        body_scope = Scope("class", node, parent, node.name.value)
        info = ClassInfo(node, parent, body_scope)
        body_scope.node_info = info
        parent.classes[node.name.value] = info
        parent.bind(node.name.value, self.order, "class")
        self.classes.append(info)
        self.scope = body_scope
        self.walk(node.body)
        self.scope = parent
        return False

    # -- statements -------------------------------------------------------------
    def visit_SimpleStatementLine(self, node) -> None:
        self.order += 1
        self._stmt = node

    def visit_If(self, node) -> None:
        self._else_reached(node)
        self.order += 1
        self._ifs.append([node, self.order, None])

    def leave_If(self, node) -> None:
        _node, test, body_end = self._ifs.pop()
        if body_end is not None:
            self.scope.alternatives.append(((test + 1, body_end), (body_end + 1, self.order)))

    def visit_Else(self, node) -> None:
        self._else_reached(node)

    def _else_reached(self, node) -> None:
        """``node`` may be the ``else`` (or ``elif``) of the innermost ``if``: its body ends here."""
        if self._ifs and self._ifs[-1][0].orelse is node:
            self._ifs[-1][2] = self.order

    def visit_IndentedBlock(self, node) -> None:
        self._blocks.append(self.order + 1)

    def leave_IndentedBlock(self, node) -> None:
        self._blocks.pop()

    def visit_SimpleStatementSuite(self, node) -> None:
        self._blocks.append(None)  # its statements share the order of the header

    leave_SimpleStatementSuite = leave_IndentedBlock

    def visit_Return(self, node) -> None:
        start = self._blocks[-1] if self._blocks else None
        scope = self.scope
        if start is None or any(s is scope for s, _ in self._loop_starts) or any(s is scope for s in self._protected):
            return
        scope.exits.append((self.order, start))

    visit_Raise = visit_Return

    def visit_Try(self, node) -> None:
        self._protected.append(self.scope)

    def leave_Try(self, node) -> None:
        self._protected.pop()

    visit_TryStar, leave_TryStar = visit_Try, leave_Try

    def visit_With(self, node: cst.With) -> None:
        self.order += 1
        self._protected.append(self.scope)
        if any(self._disables_jit(item.item) for item in node.items):
            self._eager_depth += 1
        for item in node.items:
            if item.asname is not None:
                for n in target_names(item.asname.name):
                    self.scope.bind(n, self.order, "with")
                    self.scope.writes.setdefault(n, []).append((item.asname.name, self.scope, self.order, "with"))

    def leave_With(self, node: cst.With) -> None:
        self._protected.pop()
        if any(self._disables_jit(item.item) for item in node.items):
            self._eager_depth -= 1

    def _disables_jit(self, e) -> bool:
        if not isinstance(e, cst.Call):
            return False
        name = dotted_name(e.func) or ""
        head, _, rest = name.partition(".")
        q = self.scope.resolve_import(head) if head else None
        return q is not None and (q + "." + rest if rest else q) == "jax.disable_jit"

    def visit_For(self, node: cst.For) -> None:
        self.order += 1
        self._loop_starts.append((self.scope, self.order))
        for n in target_names(node.target):
            self.scope.bind(n, self.order, "for", node)
            self.scope.writes.setdefault(n, []).append((node.target, self.scope, self.order, "for"))

    def leave_For(self, node) -> None:
        scope, start = self._loop_starts.pop()
        scope.loops.append((start, self.order))

    def visit_While(self, node) -> None:
        self.order += 1
        self._loop_starts.append((self.scope, self.order))

    leave_While = leave_For

    def visit_Global(self, node: cst.Global) -> None:
        for n in node.names:
            self.scope.globals.add(n.name.value)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for n in node.names:
            self.scope.nonlocals.add(n.name.value)

    def visit_Import(self, node: cst.Import) -> None:
        self.import_statements.append(node)
        for alias in node.names:
            full = _import_module_name(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
                self.scope.imports[local] = full
            else:
                local = full.split(".")[0]
                self.scope.imports[local] = local
            self.scope.bind(local, self.order, "import")

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.import_statements.append(node)
        mod = "." * len(node.relative) + _import_module_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = _import_module_name(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            else:
                local = name
            sep = "" if mod.endswith(".") else "."
            self.scope.imports[local] = f"{mod}{sep}{name}" if mod else name
            self.scope.bind(local, self.order, "import")

    def _bind_target(self, target, kind: str, value, unpacked=None) -> None:
        scope = self.scope
        if isinstance(target, cst.Name):
            self._bind_name(target.value, kind, value, target, unpacked)
        elif isinstance(target, (cst.Tuple, cst.List)):
            # ``a, b = f(), g()`` binds each name to its own element; any other value (a call,
            # a name) leaves the names without one, but each knows which item it unpacks, also
            # of an item that is unpacked again (``(a, b), c = f()``: item 0 of item 0)
            values = parallel_values(target, value)
            els = target.elements
            source = value if value is not None else unpacked
            whole = kind == "assign" and source is not None and values is None and not any(isinstance(el, cst.StarredElement) for el in els)
            for i, el in enumerate(els):
                self._bind_target(el.value, kind, values[i] if values else None, (source, i, len(els)) if whole else None)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, kind, None)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):
            b = base_name(target)
            if b is not None:
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                    self._mutate(b, "attr:" + target.attr.value, target)
                else:
                    self._mutate(b, "store", target)
            if isinstance(target, cst.Subscript):
                self.subscript_stores.append((target, self._stmt, scope, kind == "aug"))
            self._attribute_write(target, value)

    def _bind_name(self, name: str, kind: str, value, node: Optional[cst.CSTNode] = None, unpacked=None) -> None:
        scope = self.scope
        owner = scope
        if scope.kind == "function" and name in scope.globals:
            scope.bind(name, self.order, kind, value)
            owner = self.module_scope
            owner.bind(name, None, "global", value)
            owner.remote_writes.setdefault(name, []).append((scope, self.order, "global"))
            kind = "global"
        elif scope.kind == "function" and name in scope.nonlocals:
            scope.bind(name, self.order, kind, value)
            owner = scope.parent.lookup_scope(name) if scope.parent else None
            if owner is not None:
                owner.bind(name, None, "nonlocal", value)
                owner.remote_writes.setdefault(name, []).append((scope, self.order, "nonlocal"))
                kind = "nonlocal"
        else:
            scope.bind(name, self.order, kind, value, unpacked)
        if owner is not None and node is not None:
            owner.writes.setdefault(name, []).append((node, scope, self.order, kind))

    def _mutate(self, name: str, kind: str, node: cst.CSTNode) -> None:
        scope = self.scope
        owner = scope.lookup_scope(name)
        for _ in range(3):
            if owner is None:
                return
            order = self.order if owner is scope else None
            owner.mutations.setdefault(name, []).append((order, kind, scope))
            owner.writes.setdefault(name, []).append((node, scope, self.order, kind))
            if order is None:
                owner.remote_writes.setdefault(name, []).append((scope, self.order, kind))
            # ``t = TABLE; t["a"] = 1`` changes TABLE's object too.
            target = _alias_target(owner, name)
            if target is None:
                return
            name, owner = target, owner.lookup_scope(target)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind_target(t.target, "assign", node.value if len(node.targets) == 1 else None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind_target(node.target, "assign", node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, "aug", None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if isinstance(node.target, cst.Name):
            self._bind_name(node.target.value, "walrus", node.value, node.target)

    def visit_Del(self, node: cst.Del) -> None:
        t = node.target
        if isinstance(t, (cst.Subscript, cst.Attribute)):
            b = base_name(t)
            if b is not None:
                self._mutate(b, "store", t)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return record_dotted(self.dotted_attributes, node)

    def visit_Call(self, node: cst.Call) -> None:
        scope = self.scope
        self.calls.append((node, scope, self.order))
        if self._eager_depth:
            self.eager_calls.add(id(node))
        func = node.func
        scope.calls.append((func, self.order))
        if isinstance(func, cst.Attribute) and func.attr.value in MUTATING_METHODS:
            b = func.value
            if isinstance(b, cst.Name):
                self._mutate(b.value, "method", node)
            elif isinstance(b, (cst.Attribute, cst.Subscript)):
                self._attribute_write(b, None, node)

    def _attribute_write(self, target, value, call: Optional[cst.Call] = None) -> None:
        """Record ``obj.attr...`` changed by a store (``target``) or by a mutating method ``call``."""
        chain = target
        while isinstance(chain, (cst.Attribute, cst.Subscript)) and not (
            isinstance(chain, cst.Attribute) and isinstance(chain.value, cst.Name)
        ):
            chain = chain.value
        if isinstance(chain, cst.Attribute) and isinstance(chain.value, cst.Name):
            in_place = call is not None or chain is not target
            self.attribute_writes.append(
                AttributeWrite(chain.value.value, chain.attr.value, call or target, value, in_place, self.scope, self.order)
            )

    def _comprehension(self, node) -> bool:
        """A comprehension is a nest of loops (jaxlint.analysis.syntax.comprehensions): its first
        iterable is evaluated once, at the statement's place; each ``for`` clause then starts a
        loop span of its own, ending with the element.  Its variables belong to the
        comprehension, not to the scope: they are kept apart (``Scope.comprehension_bindings``),
        read only by the questions about loops."""
        scope = self.scope
        fors = clauses(node)
        self.walk(fors[0].iter)
        starts = []
        for i, f in enumerate(fors):
            if i:
                self.walk(f.iter)
            self.order += 1
            starts.append(self.order)
            for n in target_names(f.target):
                scope.comprehension_bindings.setdefault(n, []).append(Binding(self.order, "for", f))
            self.walk(f.target)
            for c in f.ifs:
                self.walk(c)
        for part in repeated_parts(node):
            self.walk(part)
        for start in starts:
            scope.loops.append((start, self.order))
            scope.comprehension_loops.add((start, self.order))
        self.order += 1  # what follows in the statement runs once, after the loop
        return False

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _property_accessor(node: cst.FunctionDef) -> bool:
    """``@x.setter`` / ``@x.deleter`` on ``def x``."""
    return any(
        isinstance(d.decorator, cst.Attribute)
        and d.decorator.attr.value in ("setter", "deleter")
        and isinstance(d.decorator.value, cst.Name)
        and d.decorator.value.value == node.name.value
        for d in node.decorators
    )
