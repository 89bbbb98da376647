"""Interpreting a function of one module with the arguments a call record of another describes.

The traced entry point the call was made under lives in the other file: it is stood for by a
remote entry that carries what the record knows of its transform, and its name and file, which
the findings in the callee name.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.model.classes import decorator_names, is_classmethod, is_property
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced.values import OPAQUE, STATIC, TRACED, Val
from jaxlint.analysis.xmod.records import CallRecord, MemberCall


class _RemoteTransform:
    statics = in_axes = filtered = opaque_attrs = refs = False
    runs_per_call = False  # not known across files: effects keep their findings

    def __init__(self, label: str, cached: bool, effects: bool, differentiated: bool):
        self.label = label
        self.cached = cached
        self.effects = effects
        self.differentiated = differentiated


class _RemoteFunc:
    def __init__(self, qualname: str):
        self.node = None
        self.qualname = qualname
        self.name = qualname


class _RemoteEntry:
    """Stands for the traced entry point that lives in another file."""

    def __init__(self, rec: CallRecord, where: str, path: str):
        self.transform = _RemoteTransform(rec.label, rec.cached, rec.effects, rec.differentiated)
        self.func = _RemoteFunc(where)
        self.bound_self = False
        self.origin = (rec.entry, path)


def member_call(rec: MemberCall, cls, f, pytree: bool):
    """(FnRef of ``f``, the receiver to bind) for ``obj.member(...)`` of a record, on an
    instance of ``cls`` (a class whose MRO has ``f``); None when nothing runs there or what the
    receiver is inside the trace is not known.  ``pytree``: the receiver's class is a pytree
    the class model can place."""
    decorators = decorator_names(f.node, f.scope) if not f.is_lambda else set()
    if rec.attribute and not is_property(f):
        return None  # a method read, not called, or a field: nothing runs here
    if not f.is_method and "staticmethod" not in decorators:
        return None
    kind, flags = rec.receiver
    if is_classmethod(f):
        self_val = Val(STATIC, None, 0, cls=cls)
    elif kind == TRACED:
        if not pytree:
            # A traced instance of a class the model cannot place as a pytree: what it is
            # inside the trace (its fields, whether a write to it persists) is not known.
            return None
        # A traced receiver is a pytree of its class: the class model says which fields are
        # leaves; where it cannot tell, the fields stay unknown.
        self_val = Val(TRACED, None, flags | OPAQUE, cls=cls)
    elif kind == STATIC:
        self_val = Val(STATIC, None, 0, cls=cls)
    else:
        return None
    ref = FnRef(f, "staticmethod" not in decorators)
    return ref, self_val if ref.bound_self else None


def interpret_call(analyzer, rec: CallRecord, ref: FnRef, importer: str, self_val: Optional[Val] = None) -> None:
    """Interpret ``ref`` as the record's call makes it, under a stand-in of its entry point
    (``importer``: the display of the file that made the record)."""
    path = rec.entry_path if rec.entry_path is not None else importer
    where = f"{rec.entry} in {path}"
    entry = _RemoteEntry(rec, where, path)
    frame = Frame(ref.func, ref.func.scope, where, entry, rec.cached)
    frame.entry_name = where
    frame.staged = rec.staged
    argvals = []
    for k, f in rec.args:
        argvals.append((cst.Arg(value=cst.Name("_")), Val(k, None, f)))
    for kw, (k, f) in sorted(rec.kwargs):
        argvals.append((cst.Arg(value=cst.Name("_"), keyword=cst.Name(kw)), Val(k, None, f)))
    analyzer.call_function(frame, None, (ref, None, [], {}), argvals, self_val)
