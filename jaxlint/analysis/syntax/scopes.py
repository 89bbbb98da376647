"""One pass over a module: imports, scopes, functions, calls, bindings and mutations.

The pass records only what later stages ask for, so that a file costs one walk.  Names are
resolved by the import table built here (``import jax.numpy as jnp`` makes ``jnp.zeros``
resolve to ``jax.numpy.zeros``); LibCST's QualifiedNameProvider is not used on purpose: it
costs several times the parse on large files.
"""

from __future__ import annotations

import dataclasses

from typing import Dict, List, NamedTuple, Optional, Set, Tuple, Union

import libcst as cst

from jaxlint.analysis.syntax.comprehensions import clauses, repeated_parts

# Binding kinds that make a name a *variable* (as opposed to an import, def or class).
VALUE_KINDS = frozenset({"assign", "aug", "for", "with", "walrus", "global", "nonlocal"})

CONTAINER_CTORS = frozenset(
    {
        "list",
        "dict",
        "set",
        "collections.deque",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.Counter",
    }
)


class Binding:
    __slots__ = ("order", "kind", "value")

    def __init__(self, order: Optional[int], kind: str, value: Optional[cst.BaseExpression]):
        self.order = order  # None: written from another function, at an unknown time
        self.kind = kind
        self.value = value


class Scope:
    __slots__ = (
        "kind",
        "node",
        "parent",
        "name",
        "imports",
        "defs",
        "classes",
        "bindings",
        "mutations",
        "globals",
        "nonlocals",
        "loops",
        "calls",
        "remote_writes",
        "writes",
        "comprehension_bindings",
        "comprehension_loops",
        "func",
        "node_info",
    )

    def __init__(self, kind: str, node, parent: Optional["Scope"], name: str):
        self.kind = kind  # "module" | "class" | "function"
        self.node = node
        self.parent = parent
        self.name = name
        self.imports: Dict[str, str] = {}
        self.defs: Dict[str, "FuncInfo"] = {}
        self.classes: Dict[str, "ClassInfo"] = {}
        self.bindings: Dict[str, List[Binding]] = {}
        # name -> (order, kind, scope) of in-place mutations; order None: from another function;
        # kind "method" (x.append(...)) or "store" (x[k] = v, x.attr = v, del x[k])
        self.mutations: Dict[str, List[Tuple[Optional[int], str, "Scope"]]] = {}
        self.globals: set = set()
        self.nonlocals: set = set()
        self.loops: List[Tuple[int, int]] = []
        # (callee expression, order) for every call made directly in this scope
        self.calls: List[Tuple[cst.BaseExpression, int]] = []
        # name -> (writer scope, order in the writer, kind) for each write to a variable of this
        # scope made from the body of another function or class (the bindings and mutations
        # recorded here with order None).  The write happens when the writer runs, so its order
        # is one of the writer's statements.  kind: "global" / "nonlocal" for a rebinding, else
        # the mutation kind ("method", "store", "attr:NAME").
        self.remote_writes: Dict[str, List[Tuple["Scope", int, str]]] = {}
        # name -> every write of this scope's variable, here or from another function, in
        # source order: (the node that writes, the writer scope, its order there, kind).  kind
        # is the binding kind ("assign", "global", ...) or the mutation kind; findings point
        # at these nodes.
        self.writes: Dict[str, List[Tuple[cst.CSTNode, "Scope", int, str]]] = {}
        # name -> the bindings of a comprehension's variable, each at the start of its clause's
        # loop span, its value the ``CompFor`` clause (``for``-kind, like a loop's target)
        self.comprehension_bindings: Dict[str, List[Binding]] = {}
        self.comprehension_loops: set = set()  # the spans of ``loops`` that are comprehensions'
        self.func: Optional["FuncInfo"] = None
        self.node_info: Optional["ClassInfo"] = None

    def bind(self, name: str, order: Optional[int], kind: str, value=None) -> None:
        lst = self.bindings.get(name)
        if lst is None:
            self.bindings[name] = [Binding(order, kind, value)]
        else:
            lst.append(Binding(order, kind, value))

    def loop_bindings(self, name: str) -> List[Binding]:
        """The bindings of ``name`` as a loop's variable: a ``for`` statement's target, or a
        comprehension's (each at the start of its loop's span in ``loops``)."""
        out = [b for b in self.bindings.get(name, ()) if b.kind == "for" and b.order is not None and isinstance(b.value, cst.For)]
        return out + self.comprehension_bindings.get(name, [])

    def lookup_scope(self, name: str) -> Optional["Scope"]:
        """The scope that owns ``name`` as seen from code in this scope (LEGB, classes skipped)."""
        s: Optional[Scope] = self
        first = True
        while s is not None:
            if s.kind != "class" or first:
                if name in s.globals:
                    return self.module()
                if name in s.bindings or name in s.defs or name in s.imports or name in s.classes:
                    return s
            first = False
            s = s.parent
        return None

    def sole_value(self, name: str) -> Optional[cst.BaseExpression]:
        """The expression every read of ``name`` here sees: the scope that owns it binds it
        once, by a plain assignment, and nothing rebinds or mutates it (here or from another
        function).  None otherwise."""
        found = self.sole_binding(name)
        return found[0] if found is not None else None

    def sole_binding(self, name: str) -> Optional[Tuple[cst.BaseExpression, "Scope"]]:
        """``sole_value``, with the scope the expression is in (the one that owns ``name``)."""
        owner = self.lookup_scope(name)
        if owner is None or name in owner.mutations:
            return None
        binds = owner.bindings.get(name, ())
        if len(binds) != 1 or binds[0].kind != "assign" or binds[0].order is None or binds[0].value is None:
            return None
        return binds[0].value, owner

    def module(self) -> "Scope":
        s = self
        while s.parent is not None:
            s = s.parent
        return s

    def resolve_import(self, name: str) -> Optional[str]:
        s: Optional[Scope] = self
        while s is not None:
            q = s.imports.get(name)
            if q is not None:
                return q
            if name in s.bindings or name in s.defs:
                # A local variable shadows an import of the same name further out.
                if s.kind != "class":
                    return None
            s = s.parent
        return None

    def lookup_def(self, name: str) -> Optional["FuncInfo"]:
        s: Optional[Scope] = self
        first = True
        while s is not None:
            if s.kind != "class" or first:
                f = s.defs.get(name)
                if f is not None:
                    return f
                if name in s.bindings or name in s.imports or name in s.classes:
                    return None  # a parameter or variable shadows any def further out
            first = False
            s = s.parent
        return None

    def enclosing_class(self) -> Optional["ClassInfo"]:
        """The class whose method body this scope is (for ``self.method`` calls)."""
        s: Optional[Scope] = self
        while s is not None and s.kind == "function":
            if s.parent is not None and s.parent.kind == "class":
                return s.parent.node_info
            s = s.parent
        return None


class ClassInfo:
    __slots__ = ("node", "name", "scope", "body_scope", "bases")

    def __init__(self, node: cst.ClassDef, scope: Scope, body_scope: Scope):
        self.node = node
        self.name = node.name.value
        self.scope = scope
        self.body_scope = body_scope
        self.bases = [a.value for a in node.bases]


class FuncInfo:
    """A function definition or lambda, with the scope it is defined in."""

    __slots__ = ("node", "name", "scope", "body_scope", "cls", "params", "is_lambda", "qualname")

    def __init__(self, node, name: str, scope: Scope, body_scope: Optional[Scope], cls=None):
        self.node = node
        self.name = name
        self.scope = scope  # where the def statement is
        self.body_scope = body_scope  # the function's own scope (None for lambdas)
        self.cls = cls  # ClassInfo when defined directly in a class body
        self.is_lambda = isinstance(node, cst.Lambda)
        self.params = node.params
        prefix = []
        s = scope
        while s is not None and s.parent is not None:
            prefix.append(s.name)
            s = s.parent
        self.qualname = ".".join(list(reversed(prefix)) + [name])

    @property
    def is_method(self) -> bool:
        if self.cls is None:
            return False
        for d in self.node.decorators if not self.is_lambda else ():
            if isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod":
                return False
        return True

    def positional_params(self) -> List[cst.Param]:
        p = self.params
        return list(p.posonly_params) + list(p.params)

    def all_param_names(self) -> List[str]:
        p = self.params
        names = [x.name.value for x in list(p.posonly_params) + list(p.params) + list(p.kwonly_params)]
        if isinstance(p.star_arg, cst.Param):
            names.append(p.star_arg.name.value)
        if p.star_kwarg is not None:
            names.append(p.star_kwarg.name.value)
        return names


def dotted_name(expr) -> Optional[str]:
    """``a.b.c`` -> "a.b.c"; None for anything that is not a plain dotted name."""
    # Exact type tests: LibCST's node classes are abstract base classes, for which a failed
    # ``isinstance`` goes through ``ABCMeta.__instancecheck__`` (one of the analysis' most
    # frequent calls); Attribute and Name have no subclasses.
    if type(expr) is _NAME:
        return expr.value
    parts = []
    while type(expr) is _ATTRIBUTE:
        parts.append(expr.attr.value)
        expr = expr.value
    if type(expr) is _NAME:
        parts.append(expr.value)
        return ".".join(reversed(parts))
    return None


def head_name(expr) -> Optional[str]:
    """The first name of a plain dotted name (``a`` of ``a.b.c``); None for anything else."""
    while type(expr) is _ATTRIBUTE:
        expr = expr.value
    return expr.value if type(expr) is _NAME else None


_NAME = cst.Name
_ATTRIBUTE = cst.Attribute


def _import_module_name(node) -> str:
    if node is None:
        return ""
    return dotted_name(node) or ""


def target_names(target) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in target.elements:
            out.extend(target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def base_name(expr) -> Optional[str]:
    """The variable a subscript/attribute chain starts from: ``a.b[0].c`` -> "a"."""
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        expr = expr.value
    if isinstance(expr, cst.Name):
        return expr.value
    return None


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


MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "update",
        "setdefault",
        "popitem",
        "add",
        "discard",
        "appendleft",
        "extendleft",
        "popleft",
        "sort",
        "reverse",
    }
)


# -- a cheap walk -------------------------------------------------------------------------
#
# ``CSTNode.visit`` rebuilds every node of the tree on the way back up (about 0.7x the parse
# time for a visitor that does nothing).  The index only reads the tree, so it walks the
# children itself: same order as LibCST (the order of ``_visit_and_replace_children``), same
# ``visit_X``/``leave_X`` semantics (``visit_X`` returning False skips the children, ``leave_X``
# still runs), but no node is rebuilt and whitespace, tokens and leaves are never entered.

# Fields that only ever hold whitespace or punctuation.
_SKIP_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "comma",
        "semicolon",
        "dot",
        "colon",
        "equal",
        "operator",
        "trailing_whitespace",
        "newline",
        "asynchronous",
        "whitespace",
        "whitespace_before",
        "whitespace_after",
    }
)


def _leaf_types() -> frozenset:
    """Node types whose subtrees hold no statement, call or binding: never entered."""
    from libcst._nodes import op as _op, whitespace as _ws

    out = set()
    for mod in (_op, _ws):
        for v in vars(mod).values():
            if isinstance(v, type) and issubclass(v, cst.CSTNode):
                out.add(v)
    out.update(
        {
            cst.Name,
            cst.Integer,
            cst.Float,
            cst.Imaginary,
            cst.SimpleString,
            cst.Ellipsis,
            cst.LeftParen,
            cst.RightParen,
            cst.LeftSquareBracket,
            cst.RightSquareBracket,
            cst.LeftCurlyBrace,
            cst.RightCurlyBrace,
            cst.Asynchronous,
            cst.FormattedStringText,
        }
    )
    return frozenset(out)


class _FieldRecorder(cst.CSTVisitor):
    """Records the order in which LibCST visits a node's child fields (one level only)."""

    def __init__(self):
        super().__init__()
        self.fields: List[str] = []

    def on_visit(self, node) -> bool:
        return False

    def on_leave(self, original_node) -> None:
        pass

    def on_visit_attribute(self, node, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node, attribute: str) -> None:
        pass


_FIELD_ORDER: Dict[type, Tuple[str, ...]] = {}


def child_fields(node: cst.CSTNode) -> Tuple[str, ...]:
    """The child fields of ``node``'s type in LibCST's visiting order, punctuation left out."""
    t = type(node)
    fields = _FIELD_ORDER.get(t)
    if fields is None:
        rec = _FieldRecorder()
        node._visit_and_replace_children(rec)
        seen: List[str] = []
        for f in rec.fields:
            if f not in seen and f not in _SKIP_FIELDS and not f.startswith("whitespace"):
                seen.append(f)
        # An optional child that is None in this instance is not visited, so not recorded
        # (f"{x}" has no format_spec): keep every other field too, or later instances of the
        # type that have it would not be walked there.  Non-node values are skipped by walk().
        for f in dataclasses.fields(t):
            name = f.name
            if name not in seen and name not in _SKIP_FIELDS and not name.startswith("whitespace"):
                seen.append(name)
        fields = _FIELD_ORDER[t] = tuple(seen)
    return fields


def node_children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The child nodes of ``node`` in source order, whitespace and punctuation left out:
    ``node.children`` without the cost of LibCST visiting the node to collect them."""
    out: List[cst.CSTNode] = []
    for name in child_fields(node):
        v = getattr(node, name)
        tv = type(v)
        if tv is tuple or tv is list:
            out.extend(c for c in v if isinstance(c, cst.CSTNode))
        elif isinstance(v, cst.CSTNode):
            out.append(v)
    return out


class FastVisitor:
    """A read-only visitor with ``CSTVisitor``'s hooks and order, minus the tree rebuild.

    Subclasses define ``visit_<Type>(node)`` (return False to skip the children) and
    ``leave_<Type>(node)``; ``self.walk(node)`` visits a subtree.  Types with a hook are always
    entered, even when they are normally skipped as leaves.
    """

    _plans: Dict[type, tuple]
    _skip: frozenset

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        cls._plans = {}
        hooked = {n.split("_", 1)[1] for n in dir(cls) if n.startswith(("visit_", "leave_"))}
        leaves = {t for t in _LEAF_TYPES if t.__name__ not in hooked}
        cls._skip = frozenset(leaves | {type(None), str, bool, int, float, type(cst.MaybeSentinel.DEFAULT)})

    def _plan(self, node) -> tuple:
        t = type(node)
        cls = type(self)
        plan = (
            getattr(cls, "visit_" + t.__name__, None),
            getattr(cls, "leave_" + t.__name__, None),
            child_fields(node),
        )
        cls._plans[t] = plan
        return plan

    def walk(self, node) -> None:
        plan = self._plans.get(type(node))
        if plan is None:
            plan = self._plan(node)
        visit, leave, fields = plan
        if visit is None or visit(self, node) is not False:
            skip = self._skip
            for name in fields:
                v = getattr(node, name)
                tv = type(v)
                if tv is tuple or tv is list:
                    for c in v:
                        if type(c) not in skip:
                            self.walk(c)
                elif tv not in skip:
                    self.walk(v)
        if leave is not None:
            leave(self, node)


_LEAF_TYPES = _leaf_types()


def _record_dotted(out: Set[str], node: cst.Attribute) -> bool:
    """Add the plain dotted name ``node`` writes (``a.b.c``) to ``out``; whether to visit below
    it: nothing is there but its names, unless it is another attribute (``f(x).y``)."""
    name = dotted_name(node)
    if name is None:
        return True
    out.add(name)
    return False


class DottedAttributes(FastVisitor):
    """The outermost plain dotted names written as attributes in a subtree, added to ``out``."""

    def __init__(self, out: Set[str]):
        self.out = out

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return _record_dotted(self.out, node)


class AttributeWrite(NamedTuple):
    name: str  # the variable: ``obj``
    attr: str  # its attribute that changes: ``a`` of ``obj.a.b = v``
    node: cst.CSTNode  # the assignment target, or the mutating call
    value: Optional[cst.BaseExpression]  # the assigned value (None for ``+=`` and calls)
    in_place: bool  # the object ``obj.a`` is changed (``obj.a.b = v``), not rebound
    scope: "Scope"
    order: int


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
        info = FuncInfo(node, node.name.value, parent, body_scope, cls)
        body_scope.func = info
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
        for p in list(params.posonly_params) + list(params.params) + list(params.kwonly_params):
            if p.default is not None:
                self.walk(p.default)
            if p.annotation is not None:
                self.walk(p.annotation)

    def visit_Lambda(self, node: cst.Lambda) -> Optional[bool]:
        info = FuncInfo(node, "<lambda>", self.scope, None)
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
        self.order += 1

    def visit_With(self, node: cst.With) -> None:
        self.order += 1
        if any(self._disables_jit(item.item) for item in node.items):
            self._eager_depth += 1
        for item in node.items:
            if item.asname is not None:
                for n in target_names(item.asname.name):
                    self.scope.bind(n, self.order, "with")
                    self.scope.writes.setdefault(n, []).append((item.asname.name, self.scope, self.order, "with"))

    def leave_With(self, node: cst.With) -> None:
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

    def leave_While(self, node) -> None:
        scope, start = self._loop_starts.pop()
        scope.loops.append((start, self.order))

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

    def _bind_target(self, target, kind: str, value) -> None:
        scope = self.scope
        if isinstance(target, cst.Name):
            self._bind_name(target.value, kind, value, target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind_target(el.value, kind, None)
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

    def _bind_name(self, name: str, kind: str, value, node: Optional[cst.CSTNode] = None) -> None:
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
            scope.bind(name, self.order, kind, value)
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
        return _record_dotted(self.dotted_attributes, node)

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
