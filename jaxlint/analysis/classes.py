"""The class model: which fields of a pytree class are leaves and which are static metadata."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.scopes import dotted_name


_STATIC_FIELD_FUNCS = frozenset({"static_field", "field", "dataclass_field"})

def field_kind(cls, attr: str) -> Optional[str]:
    """'leaf' / 'static' for a field of a pytree class defined in the module; None if unknown."""
    base_names = {(dotted_name(b) or "").rsplit(".", 1)[-1] for b in cls.bases}
    named_tuple = "NamedTuple" in base_names
    for d in cls.node.decorators:
        # register_dataclass(..., meta_fields=["topology"]) / partial(register_dataclass, ...)
        dec = d.decorator
        if isinstance(dec, cst.Call):
            for a in dec.args:
                if a.keyword is not None and a.keyword.value == "meta_fields" and isinstance(a.value, (cst.List, cst.Tuple)):
                    if any(isinstance(el.value, cst.SimpleString) and el.value.value[1:-1] == attr for el in a.value.elements):
                        return "static"
    for st in cls.node.body.body:
        if not isinstance(st, cst.SimpleStatementLine):
            continue
        for small in st.body:
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                continue
            if small.target.value != attr:
                continue
            if named_tuple:
                return "leaf"
            v = small.value
            if isinstance(v, cst.Call):
                fname = (dotted_name(v.func) or "").rsplit(".", 1)[-1]
                if fname == "static_field":
                    return "static"
                if fname in _STATIC_FIELD_FUNCS:
                    for a in v.args:
                        if a.keyword is None:
                            continue
                        k, val = a.keyword.value, a.value
                        if k == "pytree_node" and isinstance(val, cst.Name) and val.value == "False":
                            return "static"
                        if k == "static" and isinstance(val, cst.Name) and val.value == "True":
                            return "static"
                        if k == "metadata" and isinstance(val, cst.Dict):
                            for el in val.elements:
                                if (
                                    isinstance(el, cst.DictElement)
                                    and isinstance(el.key, cst.SimpleString)
                                    and el.key.value[1:-1] == "static"
                                ):
                                    return "static"
            return "leaf" if cls.node.decorators or named_tuple else None
    return None
