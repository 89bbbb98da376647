"""A module's scopes and what each records: imports, definitions, bindings, mutations, loops
and calls; the functions and classes defined in them.  ``ModuleIndex``
(jaxlint.analysis.syntax.module_index) fills them in one walk.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import named_params, parameter_names

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
    __slots__ = ("order", "kind", "value", "unpacked")

    def __init__(self, order: Optional[int], kind: str, value: Optional[cst.BaseExpression], unpacked=None):
        self.order = order  # None: written from another function, at an unknown time
        self.kind = kind
        self.value = value
        # ``a, b = f(x)``: (the value unpacked, this name's position, how many names); the value
        # is such a triple itself for a name of a nested target (``(a, b), c = f(x)``)
        self.unpacked: Optional[Tuple[cst.BaseExpression, int, int]] = unpacked


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
        "alternatives",
        "exits",
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
        # The order spans of the two branches of each ``if``/``else`` (``elif`` included): one
        # run of the body takes one branch or the other, never both.
        self.alternatives: List[Tuple[Tuple[int, int], Tuple[int, int]]] = []
        # (order, start) of each ``return`` or ``raise`` that ends the run for sure, with the order
        # where the block that holds it starts: nothing after it runs once that block began.  One
        # inside a loop (a ``break`` may leave it another way) or a ``try``/``with`` of this body
        # (a handler, a ``finally`` or a context manager may carry on) is not recorded.
        self.exits: List[Tuple[int, int]] = []

    def bind(self, name: str, order: Optional[int], kind: str, value=None, unpacked=None) -> None:
        lst = self.bindings.get(name)
        if lst is None:
            self.bindings[name] = [Binding(order, kind, value, unpacked)]
        else:
            lst.append(Binding(order, kind, value, unpacked))

    def only_binding(self, name: str) -> Optional[Binding]:
        """The binding of ``name`` when this scope binds it exactly once, by whatever statement
        (a def, a class, an assignment, a parameter, an import of a value): every read sees
        that one object.  None otherwise."""
        binds = self.bindings.get(name, ())
        return binds[0] if len(binds) == 1 else None

    def value_bindings(self, name: str) -> List[Binding]:
        """The bindings of ``name`` that make it a variable (``VALUE_KINDS``)."""
        return [b for b in self.bindings.get(name, ()) if b.kind in VALUE_KINDS]

    def loop_bindings(self, name: str) -> List[Binding]:
        """The bindings of ``name`` as a loop's variable: a ``for`` statement's target, or a
        comprehension's (each at the start of its loop's span in ``loops``)."""
        out = [b for b in self.bindings.get(name, ()) if b.kind == "for" and b.order is not None and isinstance(b.value, cst.For)]
        return out + self.comprehension_bindings.get(name, [])

    def can_follow(self, first: int, then: int) -> bool:
        """Can the statement at order ``then`` run after the one at ``first`` in one run of this
        body?  Yes when a loop holds both; otherwise only a later statement can, and not one in
        the other branch of an ``if`` that holds ``first``, nor one past a ``return`` or
        ``raise`` that every path from ``first`` reaches."""
        if any(start <= first <= end and start <= then <= end for start, end in self.loops):
            return True
        if then <= first:
            return False
        for (a, b), (c, d) in self.alternatives:
            if a <= first <= b and c <= then <= d:
                return False
        return not any(start <= first <= exit < then for exit, start in self.exits)

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

    def sole_binding(self, name: str, mutable: bool = False) -> Optional[Tuple[cst.BaseExpression, "Scope"]]:
        """``sole_value``, with the scope the expression is in (the one that owns ``name``).
        ``mutable``: also when the object is changed in place (asking what it was made as)."""
        owner = self.lookup_scope(name)
        b = owner.assigned_once(name) if owner is not None and (mutable or name not in owner.mutations) else None
        return (b.value, owner) if b is not None else None

    def unrebound_param(self, name: str) -> bool:
        """``name`` is a parameter of this function that its body never rebinds: it holds what
        the caller passed, wherever it is read."""
        b = self.only_binding(name)
        return b is not None and b.kind == "param"

    def sole_def(self, name: str) -> Optional["FuncInfo"]:
        """The def of this scope that ``name`` stands for wherever it is read: its only
        binding (``f = jax.jit(f)`` or a second def rebinds it)."""
        f = self.defs.get(name)
        return f if f is not None and self.only_binding(name) is not None else None

    def assigned_once(self, name: str) -> Optional[Binding]:
        """The binding of ``name`` when this scope binds it exactly once, by a plain assignment
        of a value, at a known point of its body (not from another function).  The object it
        holds may still be mutated: ``sole_binding`` also rules that out."""
        b = self.only_binding(name)
        return b if b is not None and b.kind == "assign" and b.order is not None and b.value is not None else None

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
        """The def ``name`` means here (a parameter or variable shadows any def further out)."""
        owner = self.lookup_scope(name)
        return owner.defs.get(name) if owner is not None else None

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

    __slots__ = ("node", "name", "scope", "body_scope", "cls", "params", "is_lambda", "qualname", "order")

    def __init__(self, node, name: str, scope: Scope, body_scope: Optional[Scope], cls=None, order: int = 0):
        self.node = node
        self.order = order  # where in ``scope`` the function object is made: its def, or the lambda's statement
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

    @property
    def receiver(self) -> Optional[str]:
        """The name a method's receiver is bound to (its first positional parameter: ``self``,
        or ``cls`` of a classmethod); None for a function, a staticmethod or no parameter."""
        positional = self.positional_params() if self.is_method else None
        return positional[0].name.value if positional else None

    def positional_params(self) -> List[cst.Param]:
        p = self.params
        return list(p.posonly_params) + list(p.params)

    def all_param_names(self) -> List[str]:
        return parameter_names(self.params)

    def param(self, name: str) -> Optional[cst.Param]:
        """The parameter that binds ``name`` by name (positional or keyword-only), or None."""
        return next((p for p in named_params(self.params) if p.name.value == name), None)


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
