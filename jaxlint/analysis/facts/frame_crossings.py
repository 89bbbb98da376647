"""Writes to a library's frame from inside a plain JAX trace (see
jaxlint/analysis/jax/library_frames.py for the libraries and what they do).

Each function a plain, staging JAX transform traces (``jax.jit``, ``jax.checkpoint``, a lax
body or branch, ``odeint``'s ``func``; not the libraries' lifted transforms, nor ``vmap`` or
``grad`` alone) is followed through the calls it makes: to the module's functions and methods,
to what a parameter receives from every call of its function, what an attribute is assigned
(``self._fn = fn`` in ``__init__``, a dataclass field given to the constructor), what a
factory returns, and the elements of a list it loops over.  Where the followed code calls a
frame writer (``hk.next_rng_key()``, ``hk.set_state``, ``self.sow``), or calls an instance of a
library module that creates parameters (``hk.Linear``, ``nn.Dense``), that call is a crossing.

Creating parameters is a write only at ``init``: a trace that runs only where the frame is not
initialising (after ``if hk.running_init(): ... return``, or in a Linen method that no ``init``
of the module runs) reads them, and so does a call of a
module instance that the function owning it has already called outside the trace (the
parameters exist by then).  Functions handed to other callables are not followed: a library
function may build its own frame inside the trace (``hk.transform(f).apply`` under ``jax.jit``).
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.jax.library_frames import (
    HAIKU_WRITERS,
    HAIKU_WRITING_MODULES,
    LIFTED_PREFIXES,
    LINEN_RUNNING_INIT,
    LINEN_SELF_WRITERS,
    LINEN_WRITING_MODULES,
    RUNNING_INIT,
    TRACING_CALLS,
)
from jaxlint.analysis.model.names import PARTIAL, decorator_name, resolve
from jaxlint.analysis.model.transform_table import TRANSFORMS
from jaxlint.analysis.syntax.fast_walk import holds
from jaxlint.analysis.syntax.functions import OwnCodeVisitor, return_values
from jaxlint.analysis.syntax.nodes import argument_for, block_exits, function_arguments, head_name, keyword_value
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.syntax.statement_paths import statement_blocks

_MAX_DEPTH = 8


class Crossing(NamedTuple):
    """One write: ``node`` the call that writes, ``library`` "haiku" or "linen", ``kind``
    "rng", "state" or "param", ``site`` the transform's call or decorator, ``transform`` its
    qualified name."""

    node: cst.CSTNode  # a call, or the assignment of a Linen variable's value
    library: str
    kind: str
    site: cst.CSTNode
    transform: str
    writer: cst.BaseExpression  # what is called: the callee of ``node``, or the traced function


class _Hit(NamedTuple):
    node: cst.CSTNode
    library: str
    kind: str
    owner: Optional[Tuple[Scope, str]]  # the variable holding the module instance called
    writer: Optional[cst.BaseExpression] = None  # the traced function, when it is the writer


class _DirectCalls(OwnCodeVisitor):
    """The calls a function's own body makes, outside the functions and lambdas it defines, and
    the ``x.value`` it assigns (a Linen variable's write)."""

    def __init__(self):
        self.calls: List[cst.Call] = []
        self.value_writes: List[cst.CSTNode] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Attribute) and t.target.attr.value == "value":
                self.value_writes.append(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Attribute) and node.target.attr.value == "value":
            self.value_writes.append(node)


class FrameCrossings:
    """The crossings of one module (``crossings()``)."""

    def __init__(self, index, finder):
        self.index = index
        self.finder = finder
        self.classes = finder.classes
        self.targets = finder.call_targets
        self.receivers = finder.receivers
        self._own: Dict[int, _DirectCalls] = {}
        self._walked: Dict[int, List[_Hit]] = {}

    # -- entries -------------------------------------------------------------------------
    def crossings(self) -> List[Crossing]:
        out: List[Crossing] = []
        seen = set()
        for site, q, fns, scope, host in self._entries():
            guarded = host is not None and (self._runs_only_after_init(host, site) or self._never_initialises(host))
            for fn in fns:
                # a function the host also runs as plain Python creates its parameters there
                created = guarded or self._runs_plainly(host, fn)
                for h in self._hits_of(fn, site):
                    if h.kind == "param" and (created or self._called_before(h.owner)):
                        continue
                    if id(h.node) not in seen:
                        seen.add(id(h.node))
                        out.append(Crossing(h.node, h.library, h.kind, site, q, h.writer or h.node.func))
        return out

    def _entries(self):
        """(site, transform name, traced function expressions or FuncInfos, scope, host
        function) of every plain staging transform applied in the module."""
        for call, scope, _ in self.index.calls:
            q = resolve(call.func, scope)
            if q is None or q.startswith(LIFTED_PREFIXES):
                continue
            t = TRANSFORMS.get(q)
            if t is not None and t.stages:
                positions = t.fn_args
            elif q in TRACING_CALLS:
                positions = (TRACING_CALLS[q],)
            else:
                continue
            yield call, q, [(e, scope) for e in function_arguments(call.args, positions)], scope, scope.func
        for app in self.finder.applications:
            if not isinstance(app.site, cst.Decorator) or not app.transform.stages:
                continue
            q = decorator_name(app.site.decorator, app.site_scope)
            if q is None or q.startswith(LIFTED_PREFIXES):
                continue
            yield app.site, q, [app.func], app.site_scope, None

    def _hits_of(self, fn, site) -> List[_Hit]:
        if isinstance(fn, FuncInfo):
            return self._walk(fn, 0)
        expr, where = fn
        q = resolve(expr, where)
        if q in HAIKU_WRITERS:
            return [_Hit(site, "haiku", HAIKU_WRITERS[q], None, expr)]  # ``jax.jit(hk.next_rng_key)``
        hits: List[_Hit] = []
        for v in self._values(expr, where, 0):
            hits.extend(self._calling(v, site, 0))
        return hits

    # -- following the traced code ---------------------------------------------------------
    def _walk(self, f: FuncInfo, depth: int) -> List[_Hit]:
        key = id(f.node)
        known = self._walked.get(key)
        if known is not None:
            return known
        self._walked[key] = []  # a recursive call adds nothing new
        if depth > _MAX_DEPTH:
            return []
        scope = f.body_scope or f.scope
        hits: List[_Hit] = []
        own = self._own_code(f)
        for call in own.calls:
            hits.extend(self._call_hits(call, f, scope, depth))
        for write in own.value_writes:
            target = write.targets[0].target if isinstance(write, cst.Assign) else write.target
            if any(v[0] == "linenvar" for v in self._values(target.value, scope, 0)):
                hits.append(_Hit(write, "linen", "state", None, target))
        self._walked[key] = hits
        return hits

    def _call_hits(self, call: cst.Call, f: FuncInfo, scope: Scope, depth: int) -> List[_Hit]:
        func = call.func
        q = resolve(func, scope)
        if q is not None:
            if q in HAIKU_WRITERS:
                return [_Hit(call, "haiku", HAIKU_WRITERS[q], None)]
            return []  # another library's function, or a transform traced on its own
        if isinstance(func, cst.Attribute) and func.attr.value in LINEN_SELF_WRITERS and isinstance(func.value, cst.Name):
            cls = self._self_class(func.value.value, scope)
            if cls is not None and self.classes.is_linen_module(cls):
                return [_Hit(call, "linen", LINEN_SELF_WRITERS[func.attr.value], None)]
        if f.is_lambda and head_name(func) in f.all_param_names():
            return []  # the lambda's own parameter: what it is given is not followed
        hits: List[_Hit] = []
        for v in self._values(func, scope, 0):
            hits.extend(self._calling(v, call, depth))
        return hits

    def _calling(self, v, call: cst.Call, depth: int) -> List[_Hit]:
        """What calling the value ``v`` at ``call`` writes."""
        kind = v[0]
        if kind == "func":
            return self._walk(v[1], depth + 1)
        if kind == "extinst":
            if v[1] in HAIKU_WRITING_MODULES:
                return [_Hit(call, "haiku", "param", v[2])]
            if v[1] in LINEN_WRITING_MODULES:
                return [_Hit(call, "linen", "param", v[2])]
            return []
        if kind == "inst":
            method = self.classes.member(v[1], "__call__")
            return self._walk(method, depth + 1) if method is not None else []
        return []

    def _own_code(self, f: FuncInfo) -> _DirectCalls:
        key = id(f.node)
        own = self._own.get(key)
        if own is None:
            own = self._own[key] = _DirectCalls()
            own.walk(f.node.body)
        return own

    def _calls_name(self, f: FuncInfo, name: str) -> bool:
        return any(isinstance(c.func, cst.Name) and c.func.value == name for c in self._own_code(f).calls)

    # -- values of expressions -------------------------------------------------------------
    def _values(self, expr, scope: Scope, depth: int) -> list:
        """What ``expr`` may hold: ("func", FuncInfo), ("class", ClassInfo), ("inst", ClassInfo),
        ("extinst", qualified class, owner variable), ("ext", qualified name) or ("linenvar",)."""
        if depth > _MAX_DEPTH or scope is None:
            return []
        if isinstance(expr, cst.Lambda):
            f = self.index.func_by_node.get(id(expr))
            return [("func", f)] if f is not None else []
        if isinstance(expr, (cst.List, cst.Tuple)):
            return [v for el in expr.elements for v in self._values(el.value, scope, depth + 1)]
        if isinstance(expr, cst.Call):
            return self._made_by(expr, scope, depth)
        q = resolve(expr, scope)
        if q is not None:
            return [("ext", q)]
        if isinstance(expr, cst.Name):
            return self._name_values(expr.value, scope, depth)
        if isinstance(expr, cst.Attribute):
            out = []
            for base in self._values(expr.value, scope, depth + 1):
                if base[0] == "inst":
                    out.extend(self._attribute_values(base[1], expr.attr.value, depth))
            return out
        return []

    def _made_by(self, call: cst.Call, scope: Scope, depth: int) -> list:
        """What a call returns: an instance of the class it builds, a factory's return values,
        a Linen variable (``self.variable(...)`` in a Linen module)."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "variable" and isinstance(func.value, cst.Name):
            cls = self._self_class(func.value.value, scope)
            if cls is not None and self.classes.is_linen_module(cls):
                return [("linenvar",)]
        out = []
        for v in self._values(call.func, scope, depth + 1):
            if v[0] == "class":
                out.append(("inst", v[1]))
            elif v[0] == "ext" and v[1] in PARTIAL and call.args:
                out.extend(self._values(call.args[0].value, scope, depth + 1))
            elif v[0] == "ext":
                out.append(("extinst", v[1], None))
            elif v[0] == "func" and not v[1].is_lambda and v[1].body_scope is not None:
                for r in return_values(v[1].node):
                    if r is not None:
                        out.extend(self._values(r, v[1].body_scope, depth + 1))
        return out

    def _name_values(self, name: str, scope: Scope, depth: int) -> list:
        owner = scope.lookup_scope(name)
        if owner is None:
            return []
        if name in owner.defs:
            return [("func", owner.defs[name])]
        if name in owner.classes:
            return [("class", owner.classes[name])]
        func = owner.func if owner.kind == "function" else None
        out = []
        for b in owner.bindings.get(name, ()):
            if b.kind == "param" and func is not None:
                out.extend(self._parameter_values(func, name, depth))
            elif b.kind == "assign" and b.value is not None:
                for v in self._values(b.value, owner, depth + 1):
                    out.append(("extinst", v[1], (owner, name)) if v[0] == "extinst" else v)
            elif b.kind == "for" and isinstance(b.value, cst.For):
                out.extend(self._values(b.value.iter, owner, depth + 1))
        return out

    def _parameter_values(self, func: FuncInfo, name: str, depth: int) -> list:
        cls = _receiver_class(func, name)
        if cls is not None:
            return [("inst", cls)]
        out = []
        callers = list(self.targets.callers(func))
        for app in self.finder.by_func.get(id(func.node), ()):
            callers.extend(self.targets.app_callers(app))  # calls of the function through its jit
        for call, scope, target in callers:
            bound = self.targets.bind(target, call, scope)
            passed = bound.get(name) if bound else None
            if passed is not None and passed.expr is not None:
                out.extend(self._values(passed.expr, passed.scope, depth + 1))
        return out

    def _attribute_values(self, cls: ClassInfo, attr: str, depth: int) -> list:
        method = self.classes.member(cls, attr)
        if method is not None:
            return [("func", method)]
        out = []
        for value, scope in self.receivers.attribute_values(cls, attr):
            if value is not None:
                out.extend(self._values(value, scope, depth + 1))
        fields = self.classes.field_names(cls)
        if attr in fields:
            # a dataclass field: what each construction of the class passes for it
            for call, scope in self.index.calls_of(cls.name):
                passed = argument_for(call, fields, attr) if scope.lookup_scope(cls.name) is cls.scope else None
                if isinstance(passed, cst.Arg):
                    out.extend(self._values(passed.value, scope, depth + 1))
        return out

    def _self_class(self, name: str, scope: Scope) -> Optional[ClassInfo]:
        """The class of a method's receiver ``name`` (also read from a function nested in it)."""
        owner = scope.lookup_scope(name)
        return _receiver_class(owner.func, name) if owner is not None and owner.kind == "function" else None

    # -- parameters that exist before the trace --------------------------------------------
    def _called_before(self, owner: Optional[Tuple[Scope, str]]) -> bool:
        """The function that owns the module instance calls it as plain Python (itself, or
        through a function it defines and calls): its parameters are created there, outside
        any trace, and a traced call only reads them."""
        if owner is None:
            return False
        scope, name = owner
        f = scope.func
        if f is None:
            return False
        if self._calls_name(f, name):
            return True
        inner = [scope.defs.get(c.func.value) for c in self._own_code(f).calls if isinstance(c.func, cst.Name)]
        return any(g is not None and self._calls_name(g, name) for g in inner)

    def _runs_plainly(self, host: Optional[FuncInfo], fn) -> bool:
        """The traced function, a name, is also called by the host function's own body (the
        init-safe idiom: run the body once eagerly while initialising, then hand it to the loop)."""
        if host is None or isinstance(fn, FuncInfo) or not isinstance(fn[0], cst.Name):
            return False
        return self._calls_name(host, fn[0].value)

    def _runs_only_after_init(self, host: FuncInfo, site) -> bool:
        """``site`` runs only where the frame is not initialising: after ``if hk.running_init():``
        whose block always returns, in the ``else`` of such a test, or under ``if not ...``."""
        body = host.node.body
        if not isinstance(body, cst.IndentedBlock):
            return False
        return _guarded(body.body, site, host.body_scope or host.scope)


    def _never_initialises(self, host: FuncInfo) -> bool:
        """A method of a Linen module that no ``init`` of the module runs.  ``init(...,
        method=M)`` runs ``M`` (``__call__`` by default), ``setup`` and what they call on
        ``self``, and only that creates parameters; ``apply(..., method=M)`` finds them made.
        Known when every ``init`` of the module is called with its method shown, and the
        method is named only where it is called on ``self`` or handed to ``method=``."""
        cls = host.cls
        if cls is None or not self.classes.is_linen_module(cls) or host.name in ("__call__", "setup"):
            return False
        roots = {"setup"}
        for attr in ("init", "init_with_output"):
            calls = self.index.calls_of("." + attr)
            if self.targets.attribute_mentions(attr) != len(calls):
                return False  # ``jax.jit(model.init)``: its calls are not read here
            for call, _scope in calls:
                method = keyword_value(call.args, "method")
                name = "__call__" if method is None else method.attr.value if isinstance(method, cst.Attribute) else None
                if name is None:
                    return False
                roots.add(name)
        if roots == {"setup"}:
            return False  # not initialised in this module: where it is, is not known
        named = sum(1 for c, _s, _o in self.index.calls if _names_method(keyword_value(c.args, "method"), host.name))
        on_self = [c for c, s in self.index.calls_of("." + host.name) if isinstance(c.func.value, cst.Name) and self._self_class(c.func.value.value, s) is cls]
        if self.targets.attribute_mentions(host.name) != named + len(on_self):
            return False
        reached, todo = set(), list(roots)
        while todo:
            method = self.classes.member(cls, todo.pop())
            if method is None or id(method.node) in reached:
                continue
            reached.add(id(method.node))
            for c in self._own_code(method).calls:
                if isinstance(c.func, cst.Attribute) and isinstance(c.func.value, cst.Name) and c.func.value.value == method.receiver:
                    todo.append(c.func.attr.value)
        return id(host.node) not in reached


def _names_method(expr, name: str) -> bool:
    """``method=Cls.name``: the method handed to ``init`` or ``apply``."""
    return isinstance(expr, cst.Attribute) and expr.attr.value == name


def _receiver_class(f: Optional[FuncInfo], name: str) -> Optional[ClassInfo]:
    """The class of a method whose receiver (first parameter) is ``name``."""
    return f.cls if f is not None and f.receiver == name else None


def _guarded(statements, site, scope: Scope) -> bool:
    after_init = False
    for st in statements:
        here = holds(st, site)
        negated = _is_init_test(st.test, scope) if isinstance(st, cst.If) else None
        if negated is not None:
            if here:
                inside_body = holds(st.body, site)
                return after_init or (inside_body and negated) or (not inside_body and not negated)
            if not negated and block_exits(st.body):
                after_init = True
        elif here:
            if after_init:
                return True
            inner = next((b for b, _kind in statement_blocks(st) if any(holds(x, site) for x in b)), None)
            return inner is not None and _guarded(inner, site, scope)
    return False


def _is_init_test(test, scope: Scope) -> Optional[bool]:
    """None when ``test`` is not an initialisation test; True when it is negated."""
    negated = False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, True
    if not isinstance(test, cst.Call):
        return None
    if resolve(test.func, scope) in RUNNING_INIT:
        return negated
    if isinstance(test.func, cst.Attribute) and test.func.attr.value == LINEN_RUNNING_INIT:
        return negated
    return None
