"""Example values as the dynamic worker receives them (JSON-able specs: an array of a shape and
dtype, a Python value's source), the dtype names of specs and of jaxtyping annotations, the
guesses tried last, and the explicit ``# jaxlint: example(x=f32[3,4], n=3)`` spec.

Separate from ``arguments`` (which finds the values for a function) because these are the plain
forms every source of examples builds, read also where findings are described.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple

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
SPEC_RE = re.compile(r"jaxlint:\s*example\((?P<body>.*)\)\s*$")
SIZE = 3


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
