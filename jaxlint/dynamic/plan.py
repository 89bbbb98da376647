"""What to run to confirm each finding of one file, worked out statically.

Everything here reads the source with LibCST; nothing imports JAX or the user's module.  The
result is a JSON-able plan that the worker process (``jaxlint.dynamic.worker``) carries out;
``jaxlint.dynamic.protocol`` says what its keys are.

Example arguments are built in this order: an explicit ``# jaxlint: example(x=f32[3,4], n=3)``
spec; calls of the function in the same file whose arguments are literals or simple
``jnp.*``/``np.*`` calls (read, never run, including under ``if __name__ == "__main__":``);
annotations; defaults (left unpassed); guesses.
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.scopes import FuncInfo, Scope, dotted_name
from jaxlint.analysis.transforms import Application, resolve
from jaxlint.config import Config
from jaxlint.dynamic.protocol import Check, Driver, Value
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint.analysis.classes import LEAF, STATIC_FIELD, ClassModel
from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE

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
SAFE_ROOTS = ("jax.numpy.", "numpy.", "jax.random.", "math.", "jax.nn.")
UNSAFE_CALLS = frozenset(
    {"save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "fromfile", "genfromtxt", "memmap", "tofile", "fromregex", "DataSource"}
)
SAFE_METHODS = frozenset({"reshape", "astype", "T", "sum", "mean"})
SPEC_RE = re.compile(r"jaxlint:\s*example\((?P<body>.*)\)\s*$")
MAX_ARGSETS = 8
SIZE = 3

# Value specs shipped to the worker:
#   {"k": "array", "shape": [...], "dtype": "float32"}   an abstract (or ones-filled) array
#   {"k": "expr", "src": "jax.numpy.ones((3,))"}          a vetted jax/numpy expression
#   {"k": "py", "src": "3"}                               a Python literal (ast.literal_eval)
#   {"k": "ctor", "cls": "State", "pos": [...]}           a pytree class of the module, by field


def _arr(shape, dtype="float32") -> Value:
    return {"k": "array", "shape": list(shape), "dtype": dtype}


def _py(value_src: str) -> Value:
    return {"k": "py", "src": value_src}


GUESSES = [
    ("scalar", _arr(())),
    ("vector", _arr((SIZE,))),
    ("matrix", _arr((SIZE, SIZE))),
    ("integer", _arr((), "int32")),
]


class FileFacts:
    """The parsed module and the analysis facts the planner needs."""

    def __init__(self, text: str, config: Config):
        self.text = text
        self.lines = text.splitlines()
        # The engine's analysis of the module, with the run's configuration.
        self.analysis = ModuleAnalysis.of_text(text, config)
        self.module = self.analysis.module
        self.pos = self.analysis.positions
        self.index = self.analysis.index
        self.finder = self.analysis.finder
        self.analyzer = self.analysis.analyzer

    def line_of(self, node) -> Optional[int]:
        p = self.pos.get(node)
        return p.start.line if p is not None else None

    def span(self, node) -> Tuple[int, int]:
        p = self.pos[node]
        return p.start.line, p.end.line

    def func_at_def_line(self, line: int) -> List[FuncInfo]:
        return [f for f in self.index.functions if not f.is_lambda and self.line_of(f.node.name) == line] + [
            f for f in self.index.func_by_node.values() if f.is_lambda and self.line_of(f.node) == line
        ]

    def innermost_func(self, line: int) -> Optional[FuncInfo]:
        best = None
        for f in self.index.functions:
            if f.is_lambda or f.node not in self.pos:
                continue
            a, b = self.span(f.node)
            if a <= line <= b and (best is None or a >= self.span(best.node)[0]):
                best = f
        return best


def top_level(f: FuncInfo) -> Optional[FuncInfo]:
    """The module-level function (or method of a module-level class) that contains ``f``."""
    cur = f
    while cur is not None:
        s = cur.scope
        if s.kind == "module":
            return cur
        if s.kind == "class" and s.parent is not None and s.parent.kind == "module":
            return cur
        if s.kind == "function":
            cur = s.func
        else:
            return None
    return None


def target_of(f: FuncInfo, facts: FileFacts) -> Optional[dict]:
    """How the worker finds the function object: a qualname reachable from the module."""
    if f.is_lambda:
        return None
    s = f.scope
    if s.kind == "module":
        return {"qualname": f.name, "cls": None, "def_line": facts.line_of(f.node.name), "method": False}
    if s.kind == "class" and s.parent is not None and s.parent.kind == "module":
        static = any(
            isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod") for d in f.node.decorators
        )
        return {
            "qualname": f.name,
            "cls": s.name,
            "def_line": facts.line_of(f.node.name),
            "method": not static,
            "ctors": constructor_calls(s.name, facts),
        }
    return None


def constructor_calls(cls_name: str, facts: FileFacts) -> List[dict]:
    """Arguments of ``Cls(...)`` calls in the file (simple values only); the empty call last."""
    out = []
    for call, scope, _ in facts.index.calls:
        if not (isinstance(call.func, cst.Name) and call.func.value == cls_name):
            continue
        if scope.lookup_scope(cls_name) is not facts.index.module_scope:
            continue
        pos, kw, ok = [], {}, True
        for a in call.args:
            src = render(a.value, scope) if not a.star else None
            if src is None:
                ok = False
                break
            if a.keyword is None:
                pos.append(value_of_src(src))
            else:
                kw[a.keyword.value] = value_of_src(src)
        if ok and {"pos": pos, "kw": kw} not in out:
            out.append({"pos": pos, "kw": kw})
    if {"pos": [], "kw": {}} not in out:
        out.append({"pos": [], "kw": {}})
    return out[:4]


def lambda_target(f: FuncInfo, facts: FileFacts) -> Optional[dict]:
    """A lambda reachable through a module-level name: ``g = jax.jit(lambda x: ...)``."""
    for (sid, name), app in facts.finder.aliases.items():
        if app.func is f and sid == id(facts.index.module_scope):
            return {"qualname": name, "cls": None, "def_line": facts.line_of(f.node), "method": False, "lambda": True}
    return None


# -- simple expressions --------------------------------------------------------------------------


def render(expr, scope: Scope, depth: int = 0) -> Optional[str]:
    """Canonical source for a literal or a simple jax/numpy expression; None otherwise."""
    if depth > 4:
        return None
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return expr.value
    if isinstance(expr, cst.ConcatenatedString):
        try:
            v = expr.evaluated_value
        except Exception:  # noqa: BLE001
            return None
        return repr(v) if isinstance(v, (str, bytes)) else None
    if isinstance(expr, cst.Name):
        if expr.value in ("True", "False", "None"):
            return expr.value
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return None
        binds = owner.bindings.get(expr.value, ())
        if len(binds) == 1 and binds[0].kind == "assign" and binds[0].value is not None:
            return render(binds[0].value, owner, depth + 1)
        q = resolve(expr, scope)
        return q if q is not None and q.startswith(SAFE_ROOTS) else None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus, cst.BitInvert)):
        inner = render(expr.expression, scope, depth)
        op = {cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~"}[type(expr.operator)]
        return f"({op}{inner})" if inner is not None else None
    if isinstance(expr, cst.BinaryOperation):
        left = render(expr.left, scope, depth)
        right = render(expr.right, scope, depth)
        if left is None or right is None:
            return None
        op = cst.Module([]).code_for_node(expr.operator).strip()
        return f"({left} {op} {right})"
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        parts = []
        for el in expr.elements:
            if isinstance(el, cst.StarredElement):
                return None
            r = render(el.value, scope, depth)
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
            k = render(el.key, scope, depth)
            v = render(el.value, scope, depth)
            if k is None or v is None:
                return None
            parts.append(f"{k}: {v}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(expr, cst.Attribute):
        q = resolve(expr, scope)
        if q is not None:
            return q if q.startswith(SAFE_ROOTS) and q.rsplit(".", 1)[-1] not in UNSAFE_CALLS else None
        if expr.attr.value == "T":
            base = render(expr.value, scope, depth)
            return f"{base}.T" if base is not None else None
        return None
    if isinstance(expr, cst.Call):
        func = expr.func
        q = resolve(func, scope)
        if q is not None:
            if not q.startswith(SAFE_ROOTS) or q.rsplit(".", 1)[-1] in UNSAFE_CALLS:
                return None
            head = q
        elif isinstance(func, cst.Attribute) and func.attr.value in SAFE_METHODS:
            base = render(func.value, scope, depth)
            if base is None:
                return None
            head = f"{base}.{func.attr.value}"
        else:
            return None
        args = []
        for a in expr.args:
            if a.star:
                return None
            r = render(a.value, scope, depth)
            if r is None:
                return None
            args.append(f"{a.keyword.value}={r}" if a.keyword is not None else r)
        return f"{head}({', '.join(args)})"
    return None


def value_of_src(src: str) -> dict:
    try:
        ast.literal_eval(src)
        return _py(src)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return {"k": "expr", "src": src}


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
        return _arr(shape, DTYPES[node.value.id])
    if isinstance(node, ast.Name) and node.id in DTYPES:
        return _arr((), DTYPES[node.id])
    if isinstance(node, ast.Name) and node.id == "key":
        return {"k": "expr", "src": "jax.random.PRNGKey(0)"}
    try:
        ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    return _py(ast.unparse(node))


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


def explicit_specs(f: FuncInfo, facts: FileFacts) -> List[Tuple[List[dict], Dict[str, dict]]]:
    node = f.node
    if f.is_lambda or node not in facts.pos:
        return []
    start = facts.line_of(node.decorators[0]) if node.decorators else facts.line_of(node)
    body_start = None
    body = node.body
    if isinstance(body, cst.IndentedBlock) and body.body:
        body_start = facts.line_of(body.body[0])
    if start is None:
        return []
    end = body_start or start
    lines = facts.lines
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


# -- parameters and argument sets -----------------------------------------------------------------


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
                v = _arr((SIZE,)) if field_kind == LEAF or v is not None else _py("3") if field_kind == STATIC_FIELD else None
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
            v = _arr(()) if v is not None else None
        if v is None:
            return None
        fields.append(v)
    return {"k": "ctor", "cls": info.name, "pos": fields} if fields else None


def from_annotation(param: Param, scope: Scope, depth: int = 0) -> Optional[dict]:
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
                    dims = dims_node.value.evaluated_value
                except Exception:  # noqa: BLE001
                    return None
                if not isinstance(dims, str):
                    return None
                shape = []
                for d in dims.split():
                    if d in ("...",) or d.startswith("*") or d.startswith("#") and d[1:] == "...":
                        continue
                    d = d.lstrip("#_")
                    shape.append(int(d) if d.isdigit() else SIZE)
                return _arr(shape, JAXTYPING_DTYPES[last])
        return None
    name = dotted_name(expr)
    if name is None:
        return None
    last = name.rsplit(".", 1)[-1]
    if last in ("int", "float", "bool") and "." not in name:
        if param.static:
            return _py({"int": "3", "float": "1.5", "bool": "True"}[last])
        return _arr((), {"int": "int32", "float": "float32", "bool": "bool"}[last])
    if last == "str" and param.static:
        return _py("'a'")
    if last == "tuple" and param.static:
        return _py("()")
    if last in ARRAY_TYPES:
        return {"k": "array?"}  # an array of unknown rank: the guesses decide
    if last in ("PRNGKey", "KeyArray"):
        return {"k": "expr", "src": "jax.random.PRNGKey(0)"}
    return None


def call_args(call: cst.Call, params: List[Param], scope: Scope) -> Optional[Dict[str, Optional[dict]]]:
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
        src = render(a.value, scope)
        out[name] = value_of_src(src) if src is not None else None
    return out


def call_sites(f: FuncInfo, facts: FileFacts, apps: Sequence[Application]) -> List[Tuple[cst.Call, Scope]]:
    out = []
    seen = set()
    for app in apps:
        for c in facts.analyzer.call_sites(app):
            if id(c) not in seen:
                seen.add(id(c))
                out.append(c)
    for call, scope, _ in facts.index.calls:
        if id(call) in seen:
            continue
        func = call.func
        hit = False
        if isinstance(func, cst.Name):
            if scope.lookup_def(func.value) is f:
                hit = True
            else:
                owner = scope.lookup_scope(func.value)
                alias = facts.finder.aliases.get((id(owner), func.value)) if owner is not None else None
                hit = alias is not None and alias.func is f
        elif isinstance(func, cst.Call) and func.args and func.args[0].keyword is None:
            inner = func.args[0].value
            hit = isinstance(inner, cst.Name) and scope.lookup_def(inner.value) is f
        if hit:
            seen.add(id(call))
            out.append(call)
    scope_of = {id(c): s for c, s, _ in facts.index.calls}
    return [(c, scope_of[id(c)]) for c in out if id(c) in scope_of]


def argsets_for(
    f: FuncInfo,
    facts: FileFacts,
    params: List[Param],
    apps: Sequence[Application],
    fill: Optional[Callable[[cst.Call, Scope, Dict[str, Optional[dict]]], None]] = None,
) -> Tuple[List[dict], List[str]]:
    """Candidate argument sets, best first; and the parameters only guesses could fill.

    ``fill`` may complete the values a call site passes (``None``: not a simple value) in place."""
    base: Dict[str, Optional[dict]] = {}
    for p in params:
        v = from_annotation(p, f.scope)
        if v is not None:
            base[p.name] = v
        elif p.has_default:
            base[p.name] = {"k": "omit"}
    sources: List[Tuple[str, Dict[str, Optional[dict]]]] = []
    for pos, kw in explicit_specs(f, facts):
        vals: Dict[str, Optional[dict]] = {}
        positional = [p for p in params if p.kind != "kw"]
        for i, v in enumerate(pos):
            if i < len(positional):
                vals[positional[i].name] = v
        vals.update(kw)
        sources.append(("example spec", vals))
    for call, scope in call_sites(f, facts, apps):
        vals = call_args(call, params, scope)
        if vals is None:
            continue
        if fill is not None:
            fill(call, scope, vals)
        # an unpassed parameter keeps its default
        for p in params:
            if p.name not in vals and p.has_default:
                vals[p.name] = {"k": "omit"}
        sources.append((f"call at line {facts.line_of(call)}", vals))
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
                    if p.static:
                        v = _py("3")
                    else:
                        v = g
                    if label == "annotations and defaults" and p.name not in guessed and (p.name not in base):
                        guessed.append(p.name)
                args.append({"name": p.name, "kind": p.kind, "static": p.static, "value": v})
            key = repr(args)
            if key not in seen:
                seen.add(key)
                out.append({"source": label + (f", {gname} guesses" if used_guess else ""), "args": args})
            if not used_guess:
                break
    return out[:MAX_ARGSETS], guessed


# -- per finding ----------------------------------------------------------------------------------


def _apps_of(f: FuncInfo, facts: FileFacts) -> List[Application]:
    return facts.finder.by_func.get(id(f.node), [])


def _entry_app(finding: Finding, facts: FileFacts) -> Optional[Application]:
    ctx = finding.context or {}
    line = ctx.get("entry_line")
    if line is None:
        return None
    cands = []
    for f in facts.func_at_def_line(line):
        cands.extend(_apps_of(f, facts))
    for a in cands:
        if a.transform.label == ctx.get("transform"):
            return a
    return cands[0] if cands else None


def _statics(app: Application, facts: FileFacts) -> Tuple[set, bool]:
    names, opaque = facts.analyzer.static_names(app)
    names = set(names)
    f = app.func
    pos = [p.name.value for p in f.positional_params()]
    skip = app.skipped
    for i in app.unbatched:
        if 0 <= i < len(pos) - skip:
            names.add(pos[skip + i])
    names |= set(app.bound_kw)
    if app.transform.differentiated and app.argnums is not None:
        # jax.grad differentiates only its argnums: the others stay concrete values
        callable_pos = pos[skip:]
        names |= {n for i, n in enumerate(callable_pos) if i not in app.argnums}
    return names, opaque


def entry_driver(app: Application, facts: FileFacts, how: str) -> Optional[Driver]:
    f = app.func
    target = lambda_target(f, facts) if f.is_lambda else target_of(f, facts)
    if target is None:
        return None
    statics, opaque = _statics(app, facts)
    skip = app.bound_pos + (1 if target["method"] else 0)
    params = params_of(f, statics, skip)
    if app.bound_kw:
        params = [p for p in params if p.name not in app.bound_kw]
    argsets, guessed = argsets_for(f, facts, params, _apps_of(f, facts))
    return {
        "how": how,
        "target": target,
        "label": f"{app.transform.label} {f.qualname}()",
        "filtered": app.transform.filtered,
        "self_static": bool(target["method"] and (app.bound_self or (f.positional_params() and f.positional_params()[0].name.value in statics))),
        "opaque": opaque,
        "argsets": argsets,
        "guessed": guessed,
    }


def plain_driver(f: FuncInfo, facts: FileFacts) -> Optional[Driver]:
    target = target_of(f, facts)
    if target is None:
        return None
    params = params_of(f, set(), 1 if target["method"] else 0)
    argsets, guessed = argsets_for(f, facts, params, _apps_of(f, facts))
    return {
        "how": "call",
        "target": target,
        "label": f"{f.qualname}()",
        "filtered": False,
        "self_static": True,
        "opaque": False,
        "argsets": argsets,
        "guessed": guessed,
    }


def _site_driver(app: Application, facts: FileFacts) -> Optional[Driver]:
    """The module-level function whose body applies the transform (``lax.scan(body, ...)``)."""
    if isinstance(app.site, cst.Decorator):
        holder = app.func.scope.func if app.func.scope.kind == "function" else None
    else:
        holder = app.site_scope.func if app.site_scope.kind == "function" else None
    if holder is None:
        return None
    top = top_level(holder)
    d = plain_driver(top, facts) if top is not None else None
    if d is not None and isinstance(app.site, cst.Decorator) and app.func.scope.func is top:
        # a factory that returns the jitted function: call what it returns
        statics, _ = _statics(app, facts)
        params = params_of(app.func, statics, app.bound_pos)
        d["then"], _ = argsets_for(app.func, facts, params, _apps_of(app.func, facts))
    return d


class _Returns(cst.CSTVisitor):
    """Whether a function's own body returns a value (nested defs, classes and lambdas left out)."""

    def __init__(self):
        self.found = False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.found = True

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False


def _returns_value(f: FuncInfo) -> bool:
    v = _Returns()
    body = f.node.body
    if isinstance(body, cst.BaseSuite):
        body.visit(v)
    return v.found


def _factory_argsets(factory: FuncInfo, facts: FileFacts) -> Tuple[List[dict], List[str]]:
    """Arguments for calling a factory: Python numbers where nothing better is known, then arrays."""
    out: List[dict] = []
    seen = set()
    guessed: List[str] = []
    for static in (True, False):
        params = params_of(factory, set(), 0)
        for p in params:
            p.static = static
        sets, g = argsets_for(factory, facts, params, _apps_of(factory, facts))
        if static:
            guessed = g
        for s in sets:
            key = repr([(a["name"], a["value"]) for a in s["args"]])
            if key not in seen:
                seen.add(key)
                out.append(s)
    return out[:MAX_ARGSETS], guessed


def factory_driver(app: Application, facts: FileFacts, how: str) -> Tuple[Optional[Driver], str]:
    """A transformed function nested in a module-level factory (a def that returns something):
    the worker calls the factory and looks for the function in what it returns and its closures."""
    f = app.func
    factory = top_level(f)
    if factory is None or factory is f or factory.scope.kind != "module" or factory.is_lambda:
        return None, "no entry point reachable from the module (nested function or lambda)"
    shown = "the lambda" if f.is_lambda else f"{f.name}()"
    if _apps_of(factory, facts):
        return None, f"{shown} is nested in {factory.name}(), which is itself transformed"
    if not _returns_value(factory):
        return None, f"{shown} is nested in {factory.name}(), which returns nothing: it cannot be reached from outside"
    if f.is_lambda:
        lines = [facts.line_of(f.node)]
    else:
        lines = [facts.line_of(f.node.name)]
        if f.node.decorators:
            lines.insert(0, facts.line_of(f.node.decorators[0]))  # co_firstlineno of a decorated def
    fac_argsets, fac_guessed = _factory_argsets(factory, facts)
    statics, opaque = _statics(app, facts)
    params = params_of(f, statics, app.bound_pos)
    if app.bound_kw:
        params = [p for p in params if p.name not in app.bound_kw]
    argsets, guessed = argsets_for(f, facts, params, _apps_of(f, facts))
    target = {
        "qualname": f.name,
        "cls": None,
        "def_line": lines[-1],
        "method": False,
        "lambda": f.is_lambda,
        "factory": {"qualname": factory.name, "argsets": fac_argsets, "guessed": fac_guessed, "lines": lines},
    }
    return {
        "how": how,
        "target": target,
        "label": f"{app.transform.label} {f.qualname}()",
        "filtered": app.transform.filtered,
        "self_static": True,
        "opaque": opaque,
        "argsets": argsets,
        "guessed": guessed,
    }, ""


def _stub(app: Application) -> str:
    """A def with the same signature (defaults replaced by None): enough for jax.jit's checks."""
    f = app.func
    p = f.params
    skip = app.skipped
    parts = []
    posonly = list(p.posonly_params)
    regular = list(p.params)
    allpos = posonly + regular
    for i, x in enumerate(allpos):
        if i < skip:
            continue
        parts.append(x.name.value + ("=None" if x.default is not None else ""))
        if i == len(posonly) - 1 and i >= skip:
            parts.append("/")
    if isinstance(p.star_arg, cst.Param):
        parts.append("*" + p.star_arg.name.value)
    elif p.kwonly_params:
        parts.append("*")
    for x in p.kwonly_params:
        if x.name.value in app.bound_kw:
            continue
        parts.append(x.name.value + ("=None" if x.default is not None else ""))
    if p.star_kwarg is not None:
        parts.append("**" + p.star_kwarg.name.value)
    return f"def {f.name if not f.is_lambda else '_lambda'}({', '.join(parts)}):\n    return None\n"


def _spec_of(app: Application) -> dict:
    return {"nums": [i for i, _ in app.statics.nums], "names": [n for n, _ in app.statics.names]}


def _app_for_static_finding(finding: Finding, facts: FileFacts) -> Optional[Application]:
    """JAX2xx findings carry no context: find the application whose spec or parameters they point at."""
    for app in facts.finder.applications:
        if not app.transform.statics:
            continue
        nodes = [n for _, n in app.statics.nums] + [n for _, n in app.statics.names]
        nodes += list(app.func.positional_params()) + list(app.func.params.kwonly_params)
        for n in nodes:
            p = facts.pos.get(n)
            if p is not None and p.start.line == finding.line and p.start.column + 1 == finding.column:
                return app
    return None


def _app_of_arg(finding: Finding, facts: FileFacts):
    """((call, scope, argument), application) for a finding that points at a call's argument:
    the jitted function that call reaches, or None."""
    hit = _call_of_arg(finding, facts)
    if hit is not None:
        for a in facts.finder.applications:
            if hit[0] in facts.analyzer.call_sites(a):
                return hit, a
    return hit, None


def _call_of_arg(finding: Finding, facts: FileFacts):
    for call, scope, _ in facts.index.calls:
        for a in call.args:
            p = facts.pos.get(a.value)
            if p is not None and p.start.line == finding.line and p.start.column + 1 == finding.column:
                return call, scope, a
    return None


# A value of the kind the engine saw passed for the static parameter.
_UNHASHABLE_EXAMPLES = {"dict": "{'a': 1}", "set": "{1, 2}", "list": "[1, 2]"}


def _unhashable_value(finding: Finding) -> Value:
    kind = finding.facts.value_kind if finding.facts is not None else None
    if kind == "array":
        return {"k": "expr", "src": "jax.numpy.ones((3,))"}
    return _py(_UNHASHABLE_EXAMPLES.get(kind or "", "[1, 2]"))


def expected_errors(prevents) -> List[List[str]]:
    """The worker's form of a rule's declared errors: [class name, message regex] pairs."""
    return [[e.exception, e.message] for e in prevents.errors]


def no_entry_reason(finding: Finding) -> str:
    """Why no traced entry point could be called: it lives in another file (a cross-module
    finding), or it is not reachable from the module's top level."""
    entry = (finding.context or {}).get("entry") or ""
    if " in " in entry:
        return f"its traced entry point, {entry}, is in another file (dynamic mode imports one file at a time)"
    return "no entry point reachable from the module (nested function or lambda)"


def plan_finding(finding: Finding, facts: FileFacts) -> Check:
    code = finding.code
    check = {"code": code, "line": finding.line, "end_line": finding.end_line}
    rule = RULES_BY_CODE.get(code)
    prevents = rule.prevents if rule is not None else None
    if code in ("JAX601", "JAX602"):
        # The claim is about JAX, not about the module: look the old name up in the installed JAX.
        ctx = finding.context or {}
        check["kind"] = "jax_api"
        check["name"] = ctx.get("old_api")
        check["deprecated_in"] = ctx.get("deprecated_in")
        check["removed_in"] = ctx.get("removed_in")
        return check
    if prevents is not None and prevents.kind == "raises":
        check["expect"] = expected_errors(prevents)
    if prevents is not None and prevents.kind == "raises" and prevents.stage == "trace":
        check["kind"] = "trace"
        drivers = []
        app = _entry_app(finding, facts)
        if app is not None:
            # Under jax.grad and friends alone the values are JVP tracers over concrete ones.
            d = entry_driver(app, facts, "jvp" if app.transform.differentiated else "jaxpr")
            if d is not None:
                drivers.append(d)
            d = _site_driver(app, facts)
            if d is not None:
                drivers.append(d)
        elif code == "JAX304":
            f = facts.innermost_func(finding.line)
            top = top_level(f) if f is not None else None
            if top is not None:
                d = plain_driver(top, facts)
                if d is not None:
                    drivers.append(d)
            else:
                check["module_level"] = True
        check["drivers"] = drivers
        if not drivers and not check.get("module_level"):
            check["reason"] = no_entry_reason(finding)
        return check
    if code == "JAX301":
        check["kind"] = "capture"
        src = facts.lines[finding.line - 1] if finding.line <= len(facts.lines) else ""
        var = src[finding.column - 1 : finding.end_column - 1] if finding.line == finding.end_line else ""
        check["var"] = var
        app = _entry_app(finding, facts)
        d = entry_driver(app, facts, "jaxpr") if app is not None else None
        reason = no_entry_reason(finding)
        if d is None and app is not None:
            d, reason = factory_driver(app, facts, "jaxpr")
        check["drivers"] = [d] if d is not None else []
        if d is None:
            check["reason"] = reason
        ctx = finding.context or {}
        check["in_entry"] = ctx.get("function") == (app.func.name if app is not None else None)
        return check
    if prevents is not None and prevents.kind == "frozen":
        check["kind"] = "effect"
        app = _entry_app(finding, facts)
        drivers = []
        if app is not None:
            d = entry_driver(app, facts, "jit")
            if d is not None:
                d["cached"] = app.transform.cached
                d["statics"] = _spec_of(app)
                d["aliases"] = [name for (sid, name), a in facts.finder.aliases.items() if a is app and sid == id(facts.index.module_scope)]
                drivers.append(d)
        check["drivers"] = drivers
        if not drivers:
            check["reason"] = no_entry_reason(finding)
        return check
    if code in ("JAX201", "JAX203"):
        check["kind"] = "static"
        app = _app_for_static_finding(finding, facts)
        if app is None:
            check["kind"] = "none"
            check["reason"] = "could not find the jitted function behind this finding"
            return check
        check["stub"] = _stub(app)
        check["spec"] = _spec_of(app)
        if code == "JAX201":
            statics, _ = _statics(app, facts)
            params = params_of(app.func, statics, app.skipped)
            check["args"] = [
                {"name": p.name, "kind": p.kind, "static": p.static, "value": _arr((SIZE,)) if p.static else _arr(())}
                for p in params
                if not p.has_default or p.static
            ]
        else:
            check["args"] = None  # applying jax.jit is enough
        return check
    if code == "JAX202":
        check["kind"] = "static"
        hit, app = _app_of_arg(finding, facts)
        kind = finding.facts.value_kind if finding.facts is not None else None
        if app is None or app.transform.filtered or kind in ("instance", "tuple", "optimiser state"):
            # no stand-in value shows that kind (or equinox's own hashing): run the real code
            return _host_path_check(finding, facts, check)
        call, scope, arg = hit
        statics, _ = _statics(app, facts)
        skip = app.skipped
        params = params_of(app.func, statics, skip)
        vals = call_args(call, params, scope) or {}
        by_kw = {a.keyword.value for a in call.args if a.keyword is not None}
        args = []
        for p in params:
            v = vals.get(p.name)
            if p.name not in vals:
                if p.has_default:
                    continue
                v = None
            if v is None:
                node_arg = arg if p.name == _param_for_arg(call, arg, params) else None
                v = _unhashable_value(finding) if node_arg is not None else (_py("3") if p.static else _arr(()))
            kind = "kw" if p.name in by_kw and p.kind != "posonly" else p.kind
            args.append({"name": p.name, "kind": kind, "static": p.static, "value": v})
        check["stub"] = _stub(app)
        check["spec"] = _spec_of(app)
        check["args"] = args
        return check
    if code == "JAX204":
        return _plan_retrace(finding, facts, check)
    if code == "JAX401":
        return _plan_fresh_jit(finding, facts, check)
    check["kind"] = "none"
    check["reason"] = f"no dynamic check for {code}"
    return check


def _host_path_check(finding: Finding, facts: FileFacts, check: dict) -> dict:
    """A JAX202 value that reaches the static slot along a path (a wrapper, a factory,
    ``functools.partial``, a transform over the jitted function, a static ``self``) or a tracer
    in a traced function: run what builds the value and expect JAX's error on the finding's
    line.  In traced code that is the traced entry point; in host code the module-level
    function where the value is built, when it takes no arguments (guessed arguments could
    take another path and refute a real finding)."""
    drivers = []
    if (finding.context or {}).get("entry"):
        app = _entry_app(finding, facts)
        d = entry_driver(app, facts, "jaxpr") if app is not None else None
        if d is not None:
            drivers.append(d)
    else:
        line = finding.related[0]["line"] if finding.related else finding.line
        f = facts.innermost_func(line)
        top = top_level(f) if f is not None else None
        if top is not None and top is f and not f.is_method and not _required_params(f):
            d = plain_driver(f, facts)
            if d is not None:
                drivers.append(d)
    if not drivers:
        return _none(check, "could not find the jitted function behind this call")
    check["kind"] = "trace"
    check["drivers"] = drivers
    return check


def _required_params(f: FuncInfo) -> list:
    p = f.params
    return [x for x in list(p.posonly_params) + list(p.params) + list(p.kwonly_params) if x.default is None]


def _none(check: dict, reason: str) -> dict:
    check["kind"] = "none"
    check["reason"] = reason
    return check


# -- JAX204: a changing static argument -------------------------------------------------------------

RETRACE_VALUES = 3


class _Fors(cst.CSTVisitor):
    def __init__(self):
        self.fors: List[cst.For] = []

    def visit_For(self, node: cst.For) -> None:
        self.fors.append(node)


def _enclosing_for(var: str, line: int, facts: FileFacts) -> Optional[cst.For]:
    """The innermost ``for var in ...`` loop around ``line``."""
    fors = getattr(facts, "_fors", None)
    if fors is None:
        v = _Fors()
        facts.module.visit(v)
        fors = facts._fors = v.fors
    best = None
    for node in fors:
        if not (isinstance(node.target, cst.Name) and node.target.value == var) or node not in facts.pos:
            continue
        a, b = facts.span(node)
        if a <= line <= b and (best is None or a >= facts.span(best)[0]):
            best = node
    return best


def _loop_values(expr, scope: Scope, line: int, facts: FileFacts) -> Tuple[List[dict], str]:
    """Values the loop gives the variable (a literal range or list), else three distinct ints."""
    loop = _enclosing_for(expr.value, line, facts) if isinstance(expr, cst.Name) else None
    it = loop.iter if loop is not None else None
    if (
        isinstance(it, cst.Call)
        and isinstance(it.func, cst.Name)
        and it.func.value == "range"
        and scope.lookup_scope("range") is None
        and 1 <= len(it.args) <= 3
        and not any(a.keyword is not None or a.star for a in it.args)
    ):
        nums = []
        for a in it.args:
            r = render(a.value, scope)
            try:
                n = ast.literal_eval(r) if r is not None else None
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                n = None
            if not isinstance(n, int) or isinstance(n, bool):
                nums = None
                break
            nums.append(n)
        if nums is not None and (len(nums) < 3 or nums[2] != 0):
            vals = list(range(*nums)[:RETRACE_VALUES])
            return [_py(repr(v)) for v in vals], "the loop's values " + ", ".join(map(repr, vals))
    if isinstance(it, (cst.List, cst.Tuple)):
        srcs: Optional[List[str]] = []
        for el in it.elements:
            r = render(el.value, scope) if not isinstance(el, cst.StarredElement) else None
            if r is None:
                srcs = None
                break
            if r not in srcs:
                srcs.append(r)
        if srcs is not None:
            srcs = srcs[:RETRACE_VALUES]
            return [value_of_src(x) for x in srcs], "the loop's values " + ", ".join(srcs)
    return [_py("0"), _py("1"), _py("2")], "the values 0, 1, 2"


def _plan_retrace(finding: Finding, facts: FileFacts, check: dict) -> dict:
    """Call the jitted function with the loop's values for the static parameter, counting traces."""
    check["kind"] = "retrace"
    hit, app = _app_of_arg(finding, facts)
    if app is None:
        return _none(check, "could not find the jitted function behind this call")
    call, scope, arg = hit
    statics, _ = _statics(app, facts)
    skip = app.skipped
    params = params_of(app.func, statics, skip)
    if app.bound_kw:
        params = [p for p in params if p.name not in app.bound_kw]
    pname = _param_for_arg(call, arg, params)
    if pname is None:
        return _none(check, "could not tell which parameter the loop variable is passed for")
    values, where = _loop_values(arg.value, scope, finding.line, facts)
    if len(values) < 2:
        return _none(check, "the loop runs fewer than two times")
    d = entry_driver(app, facts, "jit")
    if d is None:
        return _none(check, "no entry point reachable from the module (nested function or lambda)")
    d["cached"] = True  # prefer the user's own jitted object
    d["statics"] = _spec_of(app)
    d["aliases"] = [name for (sid, name), a in facts.finder.aliases.items() if a is app and sid == id(facts.index.module_scope)]
    d["guessed"] = [g for g in d["guessed"] if g != pname]  # its values are the loop's
    check["drivers"] = [d]
    check["param"] = pname
    check["values"] = values
    check["values_from"] = where
    return check


# -- JAX401: jax.jit of a fresh function --------------------------------------------------------------


class _Names(cst.CSTVisitor):
    """Names a function reads (attribute names and keywords left out) and the parameters it binds."""

    def __init__(self):
        self.names: set = set()
        self.params: set = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        self.params.add(node.name.value)
        if node.annotation is not None:
            node.annotation.visit(self)
        if node.default is not None:
            node.default.visit(self)
        return False


def _enclosing_local(f: FuncInfo, site_scope: Scope) -> Optional[str]:
    """A variable of an enclosing function the fresh function reads (it cannot be rebuilt alone)."""
    v = _Names()
    f.node.visit(v)
    if not f.is_lambda:
        v.names.discard(f.name)
    for n in sorted(v.names - v.params):
        owner = (f.body_scope or site_scope).lookup_scope(n)
        if owner is None or owner.kind == "module":
            continue
        s: Optional[Scope] = owner
        inside = False
        while s is not None and f.body_scope is not None:
            if s is f.body_scope:
                inside = True
                break
            s = s.parent
        if not inside:
            return n
    return None


def _static_positions(jit_kw: Dict[str, str], params: List[Param]) -> set:
    out = set()
    nums = ast.literal_eval(jit_kw["static_argnums"]) if "static_argnums" in jit_kw else ()
    names = ast.literal_eval(jit_kw["static_argnames"]) if "static_argnames" in jit_kw else ()
    nums = (nums,) if isinstance(nums, int) else tuple(nums or ())
    names = (names,) if isinstance(names, str) else tuple(names or ())
    positional = [p.name for p in params if p.kind != "kw"]
    for i in nums:
        if isinstance(i, int) and -len(positional) <= i < len(positional):
            out.add(positional[i])
    out.update(n for n in names if isinstance(n, str))
    return out


def _enclosing_values(encl: FuncInfo, facts: FileFacts) -> Dict[str, dict]:
    """Simple values a call site in the file passes to the enclosing function, by parameter."""
    params = params_of(encl, set(), 1 if encl.is_method else 0)
    best: Dict[str, dict] = {}
    for c, s in call_sites(encl, facts, _apps_of(encl, facts)):
        vals = call_args(c, params, s) or {}
        known = {k: v for k, v in vals.items() if v is not None}
        if len(known) > len(best):
            best = known
    return best


def _arg_exprs(call: cst.Call, params: List[Param]) -> Dict[str, cst.BaseExpression]:
    out = {}
    positional = [p for p in params if p.kind != "kw"]
    i = 0
    for a in call.args:
        if a.star:
            break
        if a.keyword is None:
            if i < len(positional):
                out[positional[i].name] = a.value
            i += 1
        else:
            out[a.keyword.value] = a.value
    return out


def _plan_fresh_jit(finding: Finding, facts: FileFacts, check: dict) -> dict:
    """Build the function twice from its source (in the module's globals), jit and call each."""
    check["kind"] = "fresh_jit"
    hit = None
    for call, scope, _ in facts.index.calls:
        p = facts.pos.get(call)
        # `jax.jit(f)(x)` starts where `jax.jit(f)` does: take the call that applies the transform
        if p is not None and p.start.line == finding.line and p.start.column + 1 == finding.column:
            if facts.finder.transform_of(call.func, scope) is not None:
                hit = (call, scope)
                break
    if hit is None or not hit[0].args or hit[0].args[0].keyword is not None:
        return _none(check, "could not find the jax.jit call behind this finding")
    call, scope = hit
    api = resolve(call.func, scope)
    if api != "jax.jit":
        shown = api or cst.Module([]).code_for_node(call.func)
        return _none(check, f"only jax.jit is rebuilt, not {shown}")
    jit_kw: Dict[str, str] = {}
    for a in call.args[1:]:
        r = render(a.value, scope) if a.keyword is not None and not a.star else None
        try:
            ast.literal_eval(r) if r is not None else None
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            r = None
        if r is None:
            return _none(check, "an argument of jax.jit(...) is not a literal")
        jit_kw[a.keyword.value] = r
    fn_expr = call.args[0].value
    empty = cst.Module([])
    if isinstance(fn_expr, cst.Lambda):
        f = facts.index.func_by_node.get(id(fn_expr))
        what = "lambda"
    elif isinstance(fn_expr, cst.Name):
        f = scope.lookup_def(fn_expr.value)
        what = f"{fn_expr.value}()"
    else:
        f = None
    if f is None:
        return _none(check, "could not find the function passed to jax.jit")
    check["jit_kw"] = jit_kw
    check["what"] = what
    if not f.is_lambda and f.scope.kind == "module":
        # the same function object every time: jax.jit(f) twice should reuse the trace
        check["global"] = f.name
    else:
        if not f.is_lambda and f.node.decorators:
            return _none(check, f"{f.name}() is decorated: rebuilding it would run the decorators")
        local = _enclosing_local(f, scope)
        if local is not None:
            encl = scope.func.qualname + "()" if scope.kind == "function" and scope.func is not None else "the enclosing code"
            return _none(check, f"the {what} reads `{local}`, a local variable of {encl}: it cannot be rebuilt on its own")
        node = f.node
        for prm in list(node.params.params) + list(node.params.posonly_params) + list(node.params.kwonly_params):
            if prm.default is not None and render(prm.default, scope) is None:
                return _none(check, f"the default of `{prm.name.value}` is not a literal")
        if f.is_lambda:
            check["src"] = empty.code_for_node(node)
            check["mode"] = "eval"
        else:
            check["src"] = empty.code_for_node(node.with_changes(leading_lines=()))
            check["mode"] = "exec"
            check["name"] = f.name
        check["src_line"] = facts.line_of(node)
    params = params_of(f, set(), 0)
    statics = _static_positions(jit_kw, params)
    for p in params:
        p.static = p.name in statics
    encl = scope.func if scope.kind == "function" else None
    enclosing: Optional[Dict[str, dict]] = None

    def fill(c: cst.Call, s: Scope, vals: Dict[str, Optional[dict]]) -> None:
        # `jax.jit(lambda p, v: ...)(params, x)` inside `def predict(params, x)`: what callers pass
        nonlocal enclosing
        if encl is None or encl.body_scope is None:
            return
        for name, expr in _arg_exprs(c, params).items():
            if vals.get(name) is None and isinstance(expr, cst.Name) and expr.value in encl.all_param_names():
                if s.lookup_scope(expr.value) is encl.body_scope:
                    if enclosing is None:
                        enclosing = _enclosing_values(encl, facts)
                    if expr.value in enclosing:
                        vals[name] = enclosing[expr.value]

    app = next((a for a in facts.finder.applications if a.site is call), None)
    apps = [app] if app is not None else []
    if not f.is_lambda:
        apps += [a for a in _apps_of(f, facts) if a is not app]
    check["argsets"], check["guessed"] = argsets_for(f, facts, params, apps, fill)
    return check


def _param_for_arg(call: cst.Call, arg: cst.Arg, params: List[Param]) -> Optional[str]:
    if arg.keyword is not None:
        return arg.keyword.value
    positional = [p for p in params if p.kind != "kw"]
    i = 0
    for a in call.args:
        if a.keyword is not None or a.star:
            break
        if a is arg:
            return positional[i].name if i < len(positional) else None
        i += 1
    return None


def plan_file(text: str, findings: Sequence[Finding], config: Optional[Config] = None) -> List[Check]:
    facts = FileFacts(text, config or Config())
    out = []
    for f in findings:
        try:
            out.append(plan_finding(f, facts))
        except Exception as e:  # noqa: BLE001 - planning one finding must not stop the others
            out.append({"code": f.code, "line": f.line, "end_line": f.end_line, "kind": "none", "reason": f"could not plan a check: {type(e).__name__}: {e}"})
    return out
