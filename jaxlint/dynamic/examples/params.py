"""The parameters of a function as the dynamic worker calls it, and the example values their
annotations (``jax.Array``, jaxtyping's ``Float[Array, "b n"]``, a class of the module) and
``ShapeDtypeStruct`` defaults give.

Separate from ``arguments`` because these values come from the function's signature alone,
without looking at any call of it.
"""

from __future__ import annotations

import ast
import operator
import re
from typing import Dict, List, Optional

import libcst as cst

from jaxlint.dynamic.examples.render import nearest_binding
from jaxlint.dynamic.examples.values import DTYPES, JAXTYPING_DTYPES, SIZE, arr, py
from jaxlint.analysis.model.classes import LEAF, STATIC_FIELD, ClassModel, annotated_names
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.names import resolve

ARRAY_TYPES = frozenset({"Array", "ndarray", "ArrayLike", "ArrayImpl", "Tracer", "DeviceArray"})


class Param:
    __slots__ = ("name", "kind", "node", "static", "annotation", "has_default")

    def __init__(self, name, kind, node, static, annotation, has_default):
        self.name = name
        self.kind = kind  # "pos" | "posonly" | "kw"
        self.node = node
        self.static = static
        self.annotation = annotation
        self.has_default = has_default


def params_of(f: FuncInfo, statics: set, skip: int) -> List[Param]:
    p = f.params
    out = []
    for i, x in enumerate(list(p.posonly_params) + list(p.params)):
        if i < skip:
            continue
        kind = "posonly" if i < len(p.posonly_params) else "pos"
        out.append(Param(x.name.value, kind, x, x.name.value in statics, x.annotation, x.default is not None))
    for x in p.kwonly_params:
        out.append(Param(x.name.value, "kw", x, x.name.value in statics, x.annotation, x.default is not None))
    return out


def bound_names(call: cst.Call, params: List[Param]) -> Optional[List[Optional[str]]]:
    """The parameter each argument of ``call`` binds (None past the positional parameters);
    None for a call with ``*args`` or ``**kwargs``, whose arguments cannot be mapped."""
    if any(a.star for a in call.args):
        return None
    positional = [p.name for p in params if p.kind != "kw"]
    return [a.keyword.value if a.keyword is not None else positional[i] if i < len(positional) else None for i, a in enumerate(call.args)]


def _has_default(value) -> bool:
    """``x: int = 3`` / ``field(default=...)`` give a default; ``field(static=True)`` does not."""
    if value is None:
        return False
    if isinstance(value, cst.Call) and (dotted_name(value.func) or "").rsplit(".", 1)[-1] in ("field", "static_field"):
        return any(a.keyword is not None and a.keyword.value in ("default", "default_factory") for a in value.args)
    return True


def _instance_value(expr, scope: Scope, depth: int) -> Optional[dict]:
    """An instance of a module-level pytree class of the same file: built field by field from
    the annotations (NamedTuple, dataclass pytrees, Equinox modules), or from ``__init__``'s
    parameters, where the class model says which are leaves (arrays) and which static."""
    if depth > 3 or not isinstance(expr, cst.Name):
        return None
    owner = scope.lookup_scope(expr.value)
    info = owner.classes.get(expr.value) if owner is not None and owner.parent is None else None
    if info is None:
        return None
    model = ClassModel(None)
    kind = model.pytree_kind(info)
    if kind is None or kind == "static":
        return None
    init = model.member(info, "__init__")
    if init is not None and kind != "namedtuple":
        values = []
        for x in init.positional_params()[1:]:
            if x.default is not None:
                break
            field_kind = model.field_kind(info, x.name.value)
            param = Param(x.name.value, "pos", x, field_kind == STATIC_FIELD, x.annotation, False)
            v = from_annotation(param, owner, depth + 1)
            if v is None or v.get("k") == "array?":
                v = arr((SIZE,)) if field_kind == LEAF or v is not None else py("3") if field_kind == STATIC_FIELD else None
            if v is None:
                return None
            values.append(v)
        return {"k": "ctor", "cls": info.name, "pos": values}
    fields = []
    declared = {}
    for c in model.mro(info):
        for small in annotated_names(c):
            declared.setdefault(small.target.value, small)
    for name in model.field_names(info):
        small = declared[name]
        if _has_default(small.value):
            break  # the rest keep their defaults
        static = model.field_kind(info, name) == STATIC_FIELD
        v = from_annotation(Param(name, "pos", None, static, small.annotation, False), owner, depth + 1)
        if v is None or v.get("k") == "array?":
            v = arr(()) if v is not None else None
        if v is None:
            return None
        fields.append(v)
    return {"k": "ctor", "cls": info.name, "pos": fields} if fields else None


def from_annotation(param: Param, scope: Scope, depth: int = 0, dims: Optional[Dict[str, int]] = None) -> Optional[dict]:
    """A value of the annotated type; ``dims`` gives the named dimensions of jaxtyping shapes
    one size each across the parameters of one function (filled as they first appear)."""
    ann = param.annotation
    if ann is None:
        return None
    expr = ann.annotation
    instance = _instance_value(expr, scope, depth)
    if instance is not None:
        return instance
    if isinstance(expr, cst.SimpleString):
        return None
    if isinstance(expr, cst.Subscript):
        head = dotted_name(expr.value)
        last = head.rsplit(".", 1)[-1] if head else None
        if last in JAXTYPING_DTYPES and len(expr.slice) == 2:
            dims_node = expr.slice[1].slice
            if isinstance(dims_node, cst.Index) and isinstance(dims_node.value, cst.SimpleString):
                try:
                    text = dims_node.value.evaluated_value
                except Exception:  # noqa: BLE001
                    return None
                if not isinstance(text, str):
                    return None
                shape = jaxtyping_shape(text, {} if dims is None else dims)
                if shape is None:
                    return None
                v = arr(shape, JAXTYPING_DTYPES[last])
                v["origin"] = f"`{param.name}: {cst.Module([]).code_for_node(expr)}`"
                return v
        return None
    name = dotted_name(expr)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    if last in ("int", "float", "bool") and "." not in name:
        if param.static:
            return py({"int": "3", "float": "1.5", "bool": "True"}[last])
        return arr((), {"int": "int32", "float": "float32", "bool": "bool"}[last])
    if last == "str" and param.static:
        return py("'a'")
    if last == "tuple" and param.static:
        return py("()")
    if last in ARRAY_TYPES:
        return {"k": "array?"}  # an array of unknown rank: the guesses decide
    if last in ("PRNGKey", "KeyArray"):
        return {"k": "expr", "src": "jax.random.PRNGKey(0)"}
    return None


_DIM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIM_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}


def jaxtyping_shape(text: str, dims: Dict[str, int]) -> Optional[List[int]]:
    """The shape a jaxtyping dimension string describes (``"b n"``, ``"2 8"``, ``"n+1"``,
    ``"#b n"``, ``"*batch c"``): a named dimension takes the size ``dims`` holds for it, else
    the next free one (3, 4, 5, ...), so that one name is one size across the parameters and
    two names are two sizes; a variadic dimension (``...``, ``*batch``) is none; an expression
    of names and integers is computed.  None for what cannot be read."""
    shape: List[int] = []
    for d in text.split():
        if d == "..." or d.startswith("*") or d.startswith("#*"):
            continue
        d = d.lstrip("#")
        if d.isdigit():
            shape.append(int(d))
            continue
        if d == "_" or d.startswith("_") and _DIM_NAME.fullmatch(d):
            shape.append(SIZE)  # anonymous or unchecked: any size
            continue
        if "=" in d:
            d = d.split("=", 1)[0]
        for name in _DIM_NAME.findall(d):
            if name not in dims:
                dims[name] = SIZE + len(dims)
        if _DIM_NAME.fullmatch(d):
            shape.append(dims[d])
            continue
        size = _dim_expression(d, dims)
        if size is None or size < 0:
            return None
        shape.append(size)
    return shape


def _dim_expression(src: str, dims: Dict[str, int]) -> Optional[int]:
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None

    def ev(n) -> Optional[int]:
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return n.value
        if isinstance(n, ast.Name):
            return dims.get(n.id)
        if isinstance(n, ast.BinOp) and type(n.op) in _DIM_OPERATORS:
            a, b = ev(n.left), ev(n.right)
            if a is None or b is None or (isinstance(n.op, ast.FloorDiv) and not b):
                return None
            return _DIM_OPERATORS[type(n.op)](a, b)
        return None

    return ev(node)


def shape_dtype_default(param: Param, scope: Scope) -> Optional[dict]:
    """``x=jax.ShapeDtypeStruct((8, 4), jnp.float32)`` (or ``x=SPEC``, a module constant bound
    once to one): an array of that shape and dtype."""
    node = param.node
    default = getattr(node, "default", None) if node is not None else None
    if isinstance(default, cst.Name):
        # a module constant: ``SPEC = jax.ShapeDtypeStruct(...)``, bound once
        owner = scope.lookup_scope(default.value)
        b = nearest_binding(owner, default.value, None) if owner is not None and owner.parent is None else None
        default = b.value if b is not None and b.kind == "assign" else None
    if not isinstance(default, cst.Call) or resolve(default.func, scope) != "jax.ShapeDtypeStruct":
        return None
    args = {i: a.value for i, a in enumerate(a for a in default.args if a.keyword is None)}
    for a in default.args:
        if a.keyword is not None:
            args[{"shape": 0, "dtype": 1}.get(a.keyword.value, a.keyword.value)] = a.value
    if 0 not in args or 1 not in args:
        return None
    try:
        shape = ast.literal_eval(cst.Module([]).code_for_node(args[0]))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(shape, int):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        return None
    dt = args[1]
    if isinstance(dt, cst.SimpleString):
        name = dt.evaluated_value
    else:
        q = resolve(dt, scope)
        name = q.rsplit(".", 1)[-1] if q is not None and q.startswith(("jax.numpy.", "numpy.")) else None
    if not isinstance(name, str) or name not in DTYPES.values():
        return None
    v = arr(shape, name)
    v["origin"] = f"the ShapeDtypeStruct default of `{param.name}`"
    return v


def described(v: dict) -> str:
    """``float32[2,8]``: how a source's array value is named in a finding's detail."""
    return f"{v['dtype']}[{','.join(str(d) for d in v['shape'])}]"


def as_protocol(p: Param) -> dict:
    return {"name": p.name, "kind": p.kind, "static": p.static}
