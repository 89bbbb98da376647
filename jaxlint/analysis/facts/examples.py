"""Example arguments for a function of the module, read from the source (never run).

The dynamic mode traces the functions behind findings, and needs values to call them with.
They come, best first, from: an explicit ``# jaxlint: example(x=f32[3,4], n=3)`` spec; the
calls of the function in the module, with arguments that are literals, ``jnp.*``/``np.*``
calls, constructor calls of the module's classes, or names bound to such values earlier in the
same scope (also when the call is nested in another expression, ``print(step(1.55))``, and
when the argument is a parameter of the enclosing function, through that function's callers);
annotations; defaults (left unpassed); guesses.

A value is a JSON-able spec the dynamic worker builds (``jaxlint.dynamic.protocol.Value``).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import LEAF, STATIC_FIELD, ClassModel
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope, dotted_name
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.model.names import resolve

DTYPES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u32": "uint32",
    "c64": "complex64",
    "bool": "bool",
}
JAXTYPING_DTYPES = {
    "Float": "float32",
    "Float32": "float32",
    "Float64": "float64",
    "Float16": "float16",
    "BFloat16": "bfloat16",
    "Inexact": "float32",
    "Real": "float32",
    "Num": "float32",
    "Shaped": "float32",
    "Int": "int32",
    "Int32": "int32",
    "Int64": "int64",
    "Integer": "int32",
    "UInt": "uint32",
    "UInt8": "uint8",
    "UInt32": "uint32",
    "Bool": "bool",
    "Complex": "complex64",
    "Complex64": "complex64",
}
ARRAY_TYPES = frozenset({"Array", "ndarray", "ArrayLike", "ArrayImpl", "Tracer", "DeviceArray"})
# Calls an example may make: pure array constructors and math.  File and memory-map I/O is out.
SAFE_ROOTS = ("jax.numpy.", "numpy.", "jax.random.", "math.", "jax.nn.")
UNSAFE_CALLS = frozenset(
    {"save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "fromfile", "genfromtxt", "memmap", "tofile", "fromregex", "DataSource"}
)
SAFE_METHODS = frozenset({"reshape", "astype", "T", "sum", "mean"})
SPEC_RE = re.compile(r"jaxlint:\s*example\((?P<body>.*)\)\s*$")
MAX_ARGSETS = 8
SIZE = 3
MAX_DEPTH = 6


def arr(shape, dtype="float32") -> dict:
    return {"k": "array", "shape": list(shape), "dtype": dtype}


def py(value_src: str) -> dict:
    return {"k": "py", "src": value_src}


GUESSES = [
    ("scalar", arr(())),
    ("vector", arr((SIZE,))),
    ("matrix", arr((SIZE, SIZE))),
    ("integer", arr((), "int32")),
]


def value_of_src(src: str) -> dict:
    try:
        ast.literal_eval(src)
        return py(src)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return {"k": "expr", "src": src}


# -- simple expressions --------------------------------------------------------------------------


def _nearest_binding(owner: Scope, name: str, before: Optional[int]):
    """The assignment of ``name`` that a read at statement ``before`` of ``owner`` sees: the last
    one earlier in the scope; without an order, the only one."""
    binds = owner.bindings.get(name, ())
    if before is not None:
        earlier = [b for b in binds if b.order is not None and b.order < before]
        if earlier and all(b.order is not None for b in binds):
            return max(earlier, key=lambda b: b.order)
        return None
    return binds[0] if len(binds) == 1 else None


def render(
    expr,
    scope: Scope,
    before: Optional[int] = None,
    subst: Optional[Dict[str, str]] = None,
    depth: int = 0,
    fallback: Optional[Callable[[str, Scope], Optional[str]]] = None,
) -> Optional[str]:
    """Source for a literal or a simple expression the worker may evaluate; None otherwise.

    ``before``: the order of the statement that reads ``expr`` in ``scope`` (names then take
    the value of their last assignment before it).  ``subst``: names replaced by a source
    text (a loop variable by one of its values).  The result may name JAX, NumPy, ``math``
    and the module's own classes and globals; nothing else.  ``fallback(name, scope)`` may
    give the source of a name read in ``scope`` that has no such value."""
    if depth > MAX_DEPTH:
        return None

    def sub(e):
        return render(e, scope, before, subst, depth + 1, fallback)

    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return expr.value
    if isinstance(expr, cst.ConcatenatedString):
        try:
            v = expr.evaluated_value
        except Exception:  # noqa: BLE001
            return None
        return repr(v) if isinstance(v, (str, bytes)) else None
    if isinstance(expr, cst.Name):
        if subst and expr.value in subst:
            return subst[expr.value]
        if expr.value in ("True", "False", "None"):
            return expr.value
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return None
        if owner.kind != "class":
            b = _nearest_binding(owner, expr.value, before if owner is scope else None)
            if b is not None and b.kind == "assign" and b.value is not None:
                # a parameter in that value is still what the callers pass (the fallback)
                r = render(b.value, owner, b.order if owner is scope else None, None, depth + 1, fallback if owner is scope else None)
                if r is not None:
                    return r
        q = resolve(expr, scope)
        if q is not None and q.startswith(SAFE_ROOTS):
            return q
        if owner.parent is None and (expr.value in owner.classes or expr.value in owner.defs or _bound_by_assignment(owner, expr.value)):
            # A class, function or global of the module: the worker reads it from the imported
            # module (a name bound only under ``if __name__ == "__main__":`` is not there, and
            # that example fails to build).
            return expr.value
        return fallback(expr.value, scope) if fallback is not None else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus, cst.BitInvert)):
        inner = sub(expr.expression)
        op = {cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~"}[type(expr.operator)]
        return f"({op}{inner})" if inner is not None else None
    if isinstance(expr, cst.BinaryOperation):
        left, right = sub(expr.left), sub(expr.right)
        if left is None or right is None:
            return None
        op = cst.Module([]).code_for_node(expr.operator).strip()
        return f"({left} {op} {right})"
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        parts = []
        for el in expr.elements:
            if isinstance(el, cst.StarredElement):
                return None
            r = sub(el.value)
            if r is None:
                return None
            parts.append(r)
        if isinstance(expr, cst.Tuple):
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if isinstance(expr, cst.Set):
            return "{" + ", ".join(parts) + "}" if parts else None
        return "[" + ", ".join(parts) + "]"
    if isinstance(expr, cst.Dict):
        parts = []
        for el in expr.elements:
            if not isinstance(el, cst.DictElement):
                return None
            k, v = sub(el.key), sub(el.value)
            if k is None or v is None:
                return None
            parts.append(f"{k}: {v}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(expr, cst.Subscript):
        base = sub(expr.value)
        if base is None:
            return None
        parts = []
        for el in expr.slice:
            s = el.slice
            if isinstance(s, cst.Index):
                r = sub(s.value)
                if r is None:
                    return None
                parts.append(r)
            else:
                bounds = []
                for b in (s.lower, s.upper, s.step):
                    r = sub(b) if b is not None else ""
                    if r is None:
                        return None
                    bounds.append(r)
                parts.append(":".join(bounds).rstrip(":") or ":")
        return f"{base}[{', '.join(parts)}]"
    if isinstance(expr, cst.Attribute):
        q = resolve(expr, scope)
        if q is not None:
            return q if q.startswith(SAFE_ROOTS) and q.rsplit(".", 1)[-1] not in UNSAFE_CALLS else None
        if expr.attr.value in ("T", "shape", "ndim", "dtype", "size"):
            base = sub(expr.value)
            return f"{base}.{expr.attr.value}" if base is not None else None
        return None
    if isinstance(expr, cst.Call):
        func = expr.func
        q = resolve(func, scope)
        if q is not None:
            if not q.startswith(SAFE_ROOTS) or q.rsplit(".", 1)[-1] in UNSAFE_CALLS:
                return None
            head = q
        elif isinstance(func, cst.Attribute) and func.attr.value in SAFE_METHODS:
            base = sub(func.value)
            if base is None:
                return None
            head = f"{base}.{func.attr.value}"
        elif isinstance(func, cst.Name) and _module_class(func.value, scope) is not None:
            # A constructor of the module's own class (a pytree, a config object): the worker
            # runs it, as the code under test would.
            head = func.value
        else:
            return None
        args = []
        for a in expr.args:
            if a.star:
                return None
            r = sub(a.value)
            if r is None:
                return None
            args.append(f"{a.keyword.value}={r}" if a.keyword is not None else r)
        return f"{head}({', '.join(args)})"
    return None


def _bound_by_assignment(owner: Scope, name: str) -> bool:
    return any(b.kind in ("assign", "aug", "for", "with") for b in owner.bindings.get(name, ()))


def _module_class(name: str, scope: Scope):
    owner = scope.lookup_scope(name)
    if owner is None or owner.parent is not None:
        return None
    return owner.classes.get(name)


# -- explicit example specs ---------------------------------------------------------------------


def _spec_value(node: ast.AST) -> Optional[dict]:
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in DTYPES:
        sl = node.slice
        dims = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        shape = []
        for d in dims:
            if isinstance(d, ast.Constant) and isinstance(d.value, int) and not isinstance(d.value, bool):
                shape.append(d.value)
            else:
                return None
        return arr(shape, DTYPES[node.value.id])
    if isinstance(node, ast.Name) and node.id in DTYPES:
        return arr((), DTYPES[node.id])
    if isinstance(node, ast.Name) and node.id == "key":
        return {"k": "expr", "src": "jax.random.PRNGKey(0)"}
    try:
        ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    return py(ast.unparse(node))


def parse_spec(body: str) -> Optional[Tuple[List[dict], Dict[str, dict]]]:
    try:
        call = ast.parse(f"_example({body})", mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call):
        return None
    pos = []
    for a in call.args:
        v = _spec_value(a)
        if v is None:
            return None
        pos.append(v)
    kw = {}
    for k in call.keywords:
        if k.arg is None:
            return None
        v = _spec_value(k.value)
        if v is None:
            return None
        kw[k.arg] = v
    return pos, kw


# -- parameters ---------------------------------------------------------------------------------


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
        for stmt in c.node.body.body if isinstance(c.node.body, cst.IndentedBlock) else ():
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
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
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            a, b = ev(n.left), ev(n.right)
            if a is None or b is None:
                return None
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            return a // b if b else None
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
        b = _nearest_binding(owner, default.value, None) if owner is not None and owner.parent is None else None
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


# -- call sites and argument sets -----------------------------------------------------------------


class Examples:
    """Example values for the functions of one module (memoised per function)."""

    def __init__(self, analysis):
        self.analysis = analysis
        self.index = analysis.index
        self.finder = analysis.finder
        self.analyzer = analysis.analyzer
        self._where = None
        self._param_values: Dict[int, Dict[str, dict]] = {}
        self._in_progress: set = set()

    def where(self, call) -> Optional[Tuple[Scope, int]]:
        """(scope, statement order) of a call of the module."""
        if self._where is None:
            self._where = {id(c): (s, o) for c, s, o in self.index.calls}
        return self._where.get(id(call))

    def line_of(self, node) -> Optional[int]:
        p = self.analysis.positions.get(node)
        return p.start.line if p is not None else None

    def apps_of(self, f: FuncInfo) -> List[Application]:
        return self.finder.by_func.get(id(f.node), [])

    def render_at(self, expr, call, subst=None) -> Optional[str]:
        so = self.where(call)
        if so is None:
            return None
        scope, order = so
        return render(expr, scope, order, subst, fallback=lambda name, s: self._through_callers(name, s, order) if s is scope else None)

    def _through_callers(self, name: str, scope: Scope, order: int) -> Optional[str]:
        """A parameter of the enclosing plain function, not rebound before ``order``: the value
        its callers pass for it."""
        func = scope.func if scope.kind == "function" else None
        if func is None or func.is_lambda or scope.lookup_scope(name) is not scope or name not in func.all_param_names():
            return None
        if self.apps_of(func):
            return None  # a traced function: its parameters are tracers, not what callers pass
        if any(b.kind != "param" and (b.order is None or b.order < order) for b in scope.bindings.get(name, ())):
            return None
        v = self.param_values(func).get(name)
        if v is None or v["k"] not in ("py", "expr"):
            return None
        return v["src"]

    def param_values(self, func: FuncInfo) -> Dict[str, dict]:
        """The most complete set of simple values a call in the module passes to ``func``."""
        key = id(func.node)
        hit = self._param_values.get(key)
        if hit is not None:
            return hit
        if key in self._in_progress:
            return {}
        self._in_progress.add(key)
        try:
            params = params_of(func, set(), 1 if func.is_method else 0)
            best: Dict[str, dict] = {}
            for c, _s in self.call_sites(func, self.apps_of(func)):
                vals = self.call_args(c, params) or {}
                known = {k: v for k, v in vals.items() if v is not None}
                if len(known) > len(best):
                    best = known
        finally:
            self._in_progress.discard(key)
        self._param_values[key] = best
        return best

    def call_args(self, call: cst.Call, params: List[Param]) -> Optional[Dict[str, Optional[dict]]]:
        """Values a call passes, by parameter name (None: passed but not a simple value)."""
        out: Dict[str, Optional[dict]] = {}
        positional = [p for p in params if p.kind != "kw"]
        i = 0
        by_name = {p.name: p for p in params}
        for a in call.args:
            if a.star:
                return None
            if a.keyword is None:
                if i >= len(positional):
                    return None
                name = positional[i].name
                i += 1
            else:
                name = a.keyword.value
                if name not in by_name:
                    return None
            src = self.render_at(a.value, call)
            out[name] = value_of_src(src) if src is not None else None
        return out

    def call_sites(self, f: FuncInfo, apps: Sequence[Application]) -> List[Tuple[cst.Call, Scope]]:
        """Calls of ``f`` in the module: of its transformed forms, by name, through module
        aliases and ``jax.jit(f)(...)``; nested in other expressions too."""
        out = []
        seen = set()
        for app in apps:
            for c in self.analyzer.call_sites(app):
                if id(c) not in seen:
                    seen.add(id(c))
                    out.append(c)
        for call, scope, _ in self.index.calls:
            if id(call) in seen:
                continue
            func = call.func
            hit = False
            if isinstance(func, cst.Name):
                if scope.lookup_def(func.value) is f:
                    hit = True
                elif f.cls is not None and f.name == "__call__":
                    # ``model(x)`` on an instance runs its class's ``__call__``
                    hit = self._instance_of(func, scope, call, f.cls)
                else:
                    owner = scope.lookup_scope(func.value)
                    alias = self.finder.aliases.get((id(owner), func.value)) if owner is not None else None
                    hit = alias is not None and alias.func is f
            elif isinstance(func, cst.Call) and func.args and func.args[0].keyword is None:
                inner = func.args[0].value
                hit = isinstance(inner, cst.Name) and scope.lookup_def(inner.value) is f
            elif isinstance(func, cst.Attribute) and f.cls is not None and func.attr.value == f.name:
                hit = self._instance_of(func.value, scope, call, f.cls)
            if hit:
                seen.add(id(call))
                out.append(call)
        return [(c, self.where(c)[0]) for c in out if self.where(c) is not None]

    def _instance_of(self, expr, scope: Scope, call: cst.Call, cls) -> bool:
        """``expr`` is ``Cls(...)`` of the module, or a name last assigned one before ``call``."""
        if isinstance(expr, cst.Call):
            return isinstance(expr.func, cst.Name) and _module_class(expr.func.value, scope) is cls
        if not isinstance(expr, cst.Name):
            return False
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return False
        where = self.where(call)
        b = _nearest_binding(owner, expr.value, where[1] if where is not None and owner is scope else None)
        value = b.value if b is not None and b.kind == "assign" else None
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and _module_class(value.func.value, owner) is cls
        )

    def explicit_specs(self, f: FuncInfo) -> List[Tuple[List[dict], Dict[str, dict]]]:
        node = f.node
        pos = self.analysis.positions
        if f.is_lambda or node not in pos:
            return []
        start = self.line_of(node.decorators[0]) if node.decorators else self.line_of(node)
        body_start = None
        body = node.body
        if isinstance(body, cst.IndentedBlock) and body.body:
            body_start = self.line_of(body.body[0])
        if start is None:
            return []
        end = body_start or start
        lines = self.analysis.text.splitlines()
        first = start
        while first - 2 >= 0 and lines[first - 2].lstrip().startswith("#"):
            first -= 1
        texts = [lines[i - 1] for i in range(first, min(end, len(lines)) + 1)]
        doc = node.get_docstring() if isinstance(node, cst.FunctionDef) else None
        if doc:
            texts.extend(doc.splitlines())
        out = []
        for t in texts:
            m = SPEC_RE.search(t.strip())
            if m:
                spec = parse_spec(m.group("body"))
                if spec is not None:
                    out.append(spec)
        return out

    def argsets(
        self,
        f: FuncInfo,
        params: List[Param],
        apps: Sequence[Application],
        fill: Optional[Callable[[cst.Call, Dict[str, Optional[dict]]], None]] = None,
    ) -> Tuple[List[dict], List[str]]:
        """Candidate argument sets ``{"source", "args"}``, best first; and the parameters only
        guesses could fill.  ``fill`` may complete a call site's values in place."""
        base: Dict[str, Optional[dict]] = {}
        dims: Dict[str, int] = {}  # jaxtyping's named dimensions: one size across the parameters
        for p in params:
            v = from_annotation(p, f.scope, dims=dims) or shape_dtype_default(p, f.scope)
            if v is not None:
                base[p.name] = v
            elif p.has_default:
                base[p.name] = {"k": "omit"}
        sources: List[Tuple[str, Dict[str, Optional[dict]]]] = []
        for pos, kw in self.explicit_specs(f):
            vals: Dict[str, Optional[dict]] = {}
            positional = [p for p in params if p.kind != "kw"]
            for i, v in enumerate(pos):
                if i < len(positional):
                    vals[positional[i].name] = v
            vals.update(kw)
            sources.append(("example spec", vals))
        for call, _scope in self.call_sites(f, apps):
            vals = self.call_args(call, params)
            if vals is None:
                continue
            if fill is not None:
                fill(call, vals)
            for p in params:
                if p.name not in vals and p.has_default:
                    vals[p.name] = {"k": "omit"}  # an unpassed parameter keeps its default
            sources.append((f"call at line {self.line_of(call)}", vals))
        sources.append(("annotations and defaults", {}))
        out = []
        seen = set()
        guessed: List[str] = []
        for label, vals in sources:
            for gname, g in GUESSES:
                args = []
                used_guess = False
                for p in params:
                    v = vals.get(p.name)
                    if v is None:
                        v = base.get(p.name)
                    if v is None or v.get("k") == "array?":
                        used_guess = True
                        v = py("3") if p.static else g
                        if label == "annotations and defaults" and p.name not in guessed and p.name not in base:
                            guessed.append(p.name)
                    args.append(dict(as_protocol(p), value=v))
                key = repr(args)
                if key not in seen:
                    seen.add(key)
                    argset = {"source": label + (f", {gname} guesses" if used_guess else ""), "args": args}
                    shown = [a for a in args if "origin" in a["value"]]
                    if shown and not used_guess:
                        # built from the annotations (jaxtyping shapes, ShapeDtypeStruct
                        # defaults): the finding's detail says so
                        argset["annotated"] = "; ".join(f"{a['value']['origin']} as {described(a['value'])}" for a in shown)
                    out.append(argset)
                if not used_guess:
                    break
        return out[:MAX_ARGSETS], guessed
