"""Static metadata fields of the module's pytree classes that hold arrays.

JAX keeps a pytree's metadata (``eqx.field(static=True)``, ``flax.struct.field(pytree_node=
False)``, ``meta_fields``, the aux data of a custom flatten) in the treedef, and compares it with
``==`` when it looks up a compiled function.  An array there makes that comparison an array,
whose truth value is ambiguous, so the second call with another instance fails.

A field holds an array when its annotation says so (``jax.Array``, ``np.ndarray``, jaxtyping),
or when a value that is certainly an array with more than one element is put into it: assigned
in ``__init__`` / ``__post_init__``, or passed at a construction of the class in the module.  A
0-d array compares to a plain bool, so scalar constructors (``jnp.float32(1.0)``,
``jnp.array(0.5)``) are no evidence.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.traced.annotations import is_array_annotation
from jaxlint.analysis.host.host_value import JAX_ARRAY, NUMPY_ARRAY, HostValue
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.model.classes import STATIC_ANNOTATIONS, ClassModel, class_named, qualified
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import arguments_by_parameter
from jaxlint.analysis.syntax.statement_paths import block_key, conditional, scope_body, statement_path
from jaxlint.analysis.syntax.nodes import simple_statements

_MODULES = ("jax.numpy.", "numpy.")


class ArrayInMetadata(NamedTuple):
    cls: ClassInfo
    field: str
    node: cst.CSTNode  # where to report: the declaration, or the value put into the field
    # the rest of the story: the declaration, and every write or construction that puts an
    # array into the field, each with what it is
    related: Tuple[Tuple[cst.CSTNode, str], ...] = ()


def arrays_in_metadata(hv: HostValues) -> List[ArrayInMetadata]:
    index, classes = hv.index, hv.classes
    out: List[ArrayInMetadata] = []
    for cls in index.classes:
        fields = classes.metadata_declarations(cls)
        if not fields:
            continue
        init = classes.member(cls, "__init__")
        for name, decl in fields.items():
            writes = _array_writes(hv, cls, name)
            found = _annotated_array(classes, cls, name, decl, init)
            if found is not None:
                node, related = found, []
            elif writes:
                node, related = writes[0][0], [(decl, f"`{name}` is declared static metadata here")]
            else:
                continue
            related += [(value, what) for value, what in writes if value is not node]
            out.append(ArrayInMetadata(cls, name, node, tuple(related)))
    return out


def _array_writes(hv: HostValues, cls: ClassInfo, name: str) -> List[Tuple[cst.CSTNode, str]]:
    """(value, what it is) for each assignment in ``__init__``/``__post_init__`` and each
    construction of the class that puts a shaped array into the field ``name``."""
    out: List[Tuple[cst.CSTNode, str]] = []
    for value in _assigned_arrays(hv, cls, name):
        out.append((value, f"an array is stored in `{name}` here"))
    for call, scope in hv.index.calls_of(cls.name):
        if class_named(scope, call.func.value) is not cls:
            continue
        arg = argument_for(hv.classes, cls, call, name)
        if arg is not None and is_shaped_array(hv, arg, scope):
            out.append((arg, f"an array is passed for `{name}` here"))
    return out


def _annotated_array(classes: ClassModel, cls: ClassInfo, name: str, decl, init: Optional[FuncInfo]):
    """The declaration to report when the field's annotation says array."""
    c, ann = classes.field_declaration(cls, name)
    if ann is not None:
        e = ann.annotation.annotation
        if isinstance(e, cst.Subscript) and qualified(e.value, c.scope) in STATIC_ANNOTATIONS and e.slice:
            inner = e.slice[0].slice
            e = inner.value if isinstance(inner, cst.Index) else e
        if is_array_annotation(e, c.scope):
            return ann.target if decl is ann else decl
        return None  # annotated otherwise: the annotation decides
    # An attribute set in __init__ from a parameter annotated as an array.
    if init is not None and init.body_scope is not None:
        for target, value in self_assignments(init):
            if target == name and isinstance(value, cst.Name):
                p = init.param(value.value)
                if p is not None and p.annotation is not None and is_array_annotation(p.annotation, init.scope):
                    return decl
    return None


def _assigned_arrays(hv: HostValues, cls: ClassInfo, name: str) -> List[cst.CSTNode]:
    out: List[cst.CSTNode] = []
    for method in ("__init__", "__post_init__"):
        f = hv.classes.member(cls, method)
        if f is None or f.body_scope is None:
            continue
        for target, value in self_assignments(f):
            if target == name and not isinstance(value, cst.Name) and is_shaped_array(hv, value, f.body_scope):
                out.append(value)
    return out


def self_assignments(f: FuncInfo):
    """``self.attr = value`` statements at the top level of a method's body."""
    params = f.positional_params()
    if not params:
        return
    me = params[0].name.value
    for small in simple_statements(f.node.body):
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            t = small.targets[0].target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == me:
                yield t.attr.value, small.value
        # eqx/frozen dataclasses in __post_init__: object.__setattr__(self, "name", value)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "__setattr__"
                and len(call.args) == 3
                and isinstance(call.args[0].value, cst.Name)
                and call.args[0].value.value == me
                and isinstance(call.args[1].value, cst.SimpleString)
            ):
                yield call.args[1].value.evaluated_value, call.args[2].value


def argument_for(classes: ClassModel, cls: ClassInfo, call: cst.Call, field: str):
    """The argument of ``Cls(...)`` that becomes ``field``, when it can be told: the one the
    constructor stores there, or (an own ``__init__``) converts to an array of its shape."""
    c = classes.constructor(cls)
    args = classes.parameter_arguments(cls, call.args) if c is not None and not any(a.star for a in call.args) else None
    if not args:
        return None
    if c.init is None:
        return args[c.stores[field]].value if c.stores.get(field) in args else None
    return next((args[p].value for target, value in self_assignments(c.init) if target == field for p in [_converted_parameter(value, c.init.body_scope)] if p in args), None)


def _converted_parameter(value, scope: Scope) -> Optional[str]:
    """The name ``value`` stores as it is, or converted to an array of the same shape
    (``self.loc = jnp.asarray(loc)``): an array passed for it is what the field holds."""
    if isinstance(value, cst.Name):
        return value.value
    if isinstance(value, cst.Call) and value.args and value.args[0].keyword is None and not value.args[0].star and isinstance(value.args[0].value, cst.Name):
        q = resolve(value.func, scope)
        if q is not None and any(q == prefix + name for prefix in _MODULES for name in ("array", "asarray")):
            return value.args[0].value.value
    return None


def is_shaped_array(hv: HostValues, expr, scope: Scope) -> bool:
    """Is ``expr`` certainly a JAX or NumPy array of more than one element?  A parameter
    annotated as an array is taken at its word (either kind: both compare element-wise)."""
    v = hv.bound_value(expr, scope, lambda ann, s: HostValue(NUMPY_ARRAY, ann, shaped=True) if is_array_annotation(ann, s) else None)
    return v is not None and v.kind in (JAX_ARRAY, NUMPY_ARRAY) and v.shaped


class FreshMetadataArray(NamedTuple):
    """A call of a jitted function that hands it a pytree whose metadata holds an array made
    anew for this call, while another call of it already keyed the cache with another one."""

    arg: cst.CSTNode  # the argument at the call: where the treedefs are compared
    cls: ClassInfo
    field: str
    func: FuncInfo  # the jitted function
    value: cst.CSTNode  # the array put into the field
    earlier: Optional[cst.CSTNode]  # the argument of the earlier call, outside a loop


def fresh_arrays_at_calls(hv: HostValues, analyzer, module: cst.Module, spans_of) -> List[FreshMetadataArray]:
    """Calls of a cached jitted function, from host code, that pass an instance of a pytree
    class built there with a new shaped array in a static metadata field, and that run again
    with another such instance: in every iteration of the loop around the call, or at a later
    call of the same block.  JAX looks the call up by its treedef and compares the metadata
    with ``==``; for two distinct arrays that is an array, whose truth value is ambiguous, and
    the second call raises.  (The same array object passes: Python compares it by identity
    first.)"""
    out: List[FreshMetadataArray] = []
    if not any(hv.classes.metadata_declarations(c) for c in hv.index.classes):
        return out  # no class of the module has a static metadata field to fill
    for app, statics in analyzer.cached_applications():
        pos = app.jit_positional()
        once: Dict[tuple, List[tuple]] = {}  # outside loops: by block, to pair two calls
        for call, scope in analyzer.call_sites_with_scopes(app):
            order = analyzer.module_ctx.call_sites.order(call)
            if order is None or hv.finder.in_traced_code(scope):
                continue
            spans = spans_of()  # asked only here: they cost a walk of the module
            path = statement_path(scope_body(module, scope), call, spans)
            loops = [span for span in scope.loops if span[0] <= order <= span[1]]
            loop = max(loops) if loops else None
            if path is None or loop is not None and conditional(path):
                continue  # a call that may run once in the loop
            for a, pname in arguments_by_parameter(app, call, pos):
                if pname is None or pname in statics or a.star:
                    continue  # a static parameter hashes the whole object (JAX202)
                built = _construction(a.value, scope, order, loop, path, module, spans)
                if built is None:
                    continue
                for field, value in _fresh_metadata_arrays(hv, built, scope, loop):
                    cls = class_named(scope, built.func.value)
                    if loop is not None:
                        out.append(FreshMetadataArray(a.value, cls, field, app.func, value, None))
                    else:
                        once.setdefault((id(scope), block_key(path), id(cls), field), []).append((order, a.value, value, cls))
        for (_s, _b, _c, field), members in once.items():
            members.sort(key=lambda m: m[0])
            for (_o, first, v1, _cls), (_o2, arg, value, cls) in zip(members, members[1:]):
                if value is not v1:  # two constructions; one instance passed twice is compared by identity
                    out.append(FreshMetadataArray(arg, cls, field, app.func, value, first))
    return out


def _construction(expr, scope: Scope, order: int, loop, path, module, spans) -> Optional[cst.Call]:
    """``Cls(...)`` of a class of the module, evaluated for the call at ``order`` (whose
    statement ``path`` is given): written at the call, or bound to a name by the last
    assignment of the name before the call, unconditionally inside ``loop`` when there is
    one, else in the call's block."""
    if isinstance(expr, cst.Name):
        owner = scope.lookup_scope(expr.value)
        if owner is not scope or expr.value in scope.globals or expr.value in scope.nonlocals:
            return None
        binds = [b for b in scope.bindings.get(expr.value, ()) if b.order is not None and b.order <= order]
        if loop is not None:
            if any(b.order is not None and loop[0] <= b.order <= loop[1] and b.order > order for b in scope.bindings[expr.value]):
                return None  # rebound later in the loop: the next iteration's value is not known
            binds = [b for b in binds if b.order >= loop[0]]
        if not binds:
            return None
        last = max(binds, key=lambda b: b.order)
        if last.kind != "assign" or not isinstance(last.value, cst.Call):
            return None
        bpath = statement_path(scope_body(module, scope), last.value, spans)
        if bpath is None or (conditional(bpath) if loop is not None else block_key(bpath) != block_key(path)):
            return None
        expr = last.value
    if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Name):
        return None
    return expr if class_named(scope, expr.func.value) is not None else None


def _fresh_metadata_arrays(hv: HostValues, call: cst.Call, scope: Scope, loop):
    """(field, value) for each static metadata field that the construction ``call`` fills with
    a shaped array made by the construction itself (a call written there, or a name bound
    in the same loop iteration)."""
    classes = hv.classes
    cls = class_named(scope, call.func.value)
    fields = classes.metadata_declarations(cls)
    if not fields:
        return
    for name in fields:
        value = argument_for(classes, cls, call, name)
        if value is None or not is_shaped_array(hv, value, scope):
            continue
        if isinstance(value, cst.Name):
            binds = scope.bindings.get(value.value, ())
            if loop is None or not binds or not all(b.order is not None and loop[0] <= b.order <= loop[1] for b in binds):
                continue  # one array object, bound once: every instance holds the same
        elif not isinstance(value, cst.Call):
            continue
        yield name, value
