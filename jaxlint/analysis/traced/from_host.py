"""What traced code receives from the host code around it: the names a host function's
``if x is None: return`` guards make non-None before a transform's site, the pytree structure
an operand's literals show, and a host value as traced code sees it.

Separate from the interpreter because these read host code (eager, outside any trace), which
the interpreter of traced code never walks; the Analyzer's entry points and the interpreter
both ask them.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.host.host_value import DICT, FUNCTION, INSTANCE, JAX_ARRAY, LIST, NUMPY_ARRAY, NUMPY_SCALAR, SCALAR, TUPLE
from jaxlint.analysis.model.classes import class_named
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.syntax.nodes import block_exits, is_none_literal
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.traced.values import ARRAY, DICT as DICT_FLAG, JAXARR, NPARR, PYSEQ, STATIC, STATIC_VAL, TRACED, UNKNOWN, UNKNOWN_VAL, Val, first_traced_name


class _ContainsCall(FastVisitor):
    def __init__(self, target: cst.Call):
        self.target = target
        self.found = False

    def visit_Call(self, node) -> None:
        if node is self.target:
            self.found = True


def guarded_not_none(func_node, site) -> frozenset:
    """Names that ``if name is None: ... return`` guards make non-None before ``site``, among
    the top-level statements of ``func_node``."""
    body = func_node.body.body
    last = max((i for i, st in enumerate(body) if _none_guard(st) is not None), default=None)
    if last is None:
        return frozenset()  # no guard: which statement holds the site does not matter
    out = set()
    alias = {}  # ``nbrs = neighbors``: a guard on one is a guard on the other
    for st in body[: last + 1]:
        v = _ContainsCall(site)
        v.walk(st)
        if v.found:
            break
        if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and isinstance(st.body[0], cst.Assign):
            a = st.body[0]
            if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name) and isinstance(a.value, cst.Name):
                alias[a.targets[0].target.value] = a.value.value
        name = _none_guard(st)
        if name is not None:
            out.add(name)
            if name in alias:
                out.add(alias[name])
    return frozenset(out)


def _none_guard(st) -> Optional[str]:
    """``x`` of ``if x is None: ... return`` (no ``else``, the body leaves); None otherwise."""
    if isinstance(st, cst.If) and st.orelse is None:
        t = st.test
        if (
            isinstance(t, cst.Comparison)
            and isinstance(t.left, cst.Name)
            and len(t.comparisons) == 1
            and isinstance(t.comparisons[0].operator, cst.Is)
            and is_none_literal(t.comparisons[0].comparator)
            and block_exits(st.body)
        ):
            return t.left.value
    return None


def structure_of(expr, scope: Scope, depth: int = 0) -> Val:
    """The pytree structure of an expression outside traced code, as far as literals show it."""
    if isinstance(expr, (cst.Tuple, cst.List)) and not any(isinstance(el, cst.StarredElement) for el in expr.elements):
        items = tuple(structure_of(el.value, scope, depth + 1) for el in expr.elements)
        return Val(STATIC, None, PYSEQ, items)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return Val(STATIC, None, PYSEQ)
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return Val(STATIC, None, DICT_FLAG)
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


# The host kinds of the leaves a transform traces, where it decides by what each leaf holds:
# equinox's filters trace what ``eqx.is_array`` accepts (NumPy scalars too); an NNX module's
# attributes are traced when they hold arrays (a NumPy scalar there stays a Python value).
FILTERED = frozenset({JAX_ARRAY, NUMPY_ARRAY, NUMPY_SCALAR})
NNX_ARRAYS = frozenset({JAX_ARRAY, NUMPY_ARRAY})


def host_val(h, classes=None, traced=frozenset(), name=None, instance=None, depth: int = 0) -> Val:
    """A value host code hands over, as traced code sees it.  ``traced``: the host kinds of the
    leaves the transform traces (under ``name``), each other leaf handed over as the Python
    value it is; by default none (before any JAX operation an array stays concrete).  With the
    class model, an instance of a class of the module whose constructor fields are known
    (``Options(jnp.float32(0.75))``) keeps them, each converted the same way;
    ``instance(cls, name, fields)`` decides one where the transform reads its class (equinox's
    filters)."""
    if h is None or depth > 3:
        return UNKNOWN_VAL
    if h.kind in traced:
        return Val(TRACED, name, ARRAY)
    if h.kind in (JAX_ARRAY, NUMPY_ARRAY):
        return Val(STATIC, None, JAXARR if h.kind == JAX_ARRAY else NPARR)
    if h.kind in (SCALAR, NUMPY_SCALAR):
        return STATIC_VAL  # a number as Python holds it (``np.float32(0.5)`` hashes, compares)
    if h.kind == TUPLE and h.items is not None and traced:
        items = tuple(host_val(it, classes, traced, name, instance, depth + 1) for it in h.items)
        if all(v.kind != UNKNOWN for v in items):
            return Val(max((v.kind for v in items), default=STATIC), first_traced_name(items), PYSEQ, items)
    if h.kind in (LIST, TUPLE, DICT):
        # a Python container; what it holds is not known
        return Val(UNKNOWN, None, DICT_FLAG if h.kind == DICT else PYSEQ)
    if traced:
        return (instance(h.cls, name, h.fields) if h.kind == INSTANCE and instance is not None else None) or UNKNOWN_VAL
    if h.kind == FUNCTION and h.func is not None and not h.func.is_lambda:
        # a def of the module held as a value (an optimiser's update rule in a field): calling
        # it traces its body with the arguments of the call
        return Val(STATIC, h.func.name, 0, None, (FnRef(h.func), None, [], {}))
    if h.kind == INSTANCE and h.cls is not None:
        names = classes.field_names(h.cls) if h.fields is not None and classes is not None else None
        if names:
            held = dict(h.meta or {}, **h.fields)
            items = tuple(host_val(held.get(n), classes, depth=depth + 1) for n in names)
            return Val(STATIC, None, 0, items, None, h.cls)
        # built by its own ``__init__``: a Python object of its class, whose attributes the
        # class model reads (a JAX array stored there is concrete)
        return Val(STATIC, None, 0, cls=h.cls)
    return UNKNOWN_VAL
