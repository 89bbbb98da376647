"""Calls a module's traced code makes, with traced arguments, into imported functions and
methods of imported classes; and calls its host code makes into imported functions with
values JAX cannot hash (the callee may be a wrapper or a factory of a jitted function).

Each is a plain record, a pure function of the file's source, so it is cached with the file's
findings; the cross-module phase (jaxlint.engine.cross_module) reads them into the types of
jaxlint.analysis.xmod.records and follows the records whose target is a module of the same run.
"""

from __future__ import annotations

from typing import Dict, List

from jaxlint.analysis.traced.values import ARRAY, BOOL, DICT, NONE, NOTNONE, PYSEQ, RAW, REF

# The value flags that survive into a record: what the callee needs to know of an argument
# (whether it is None too: ``if dim_size is None:`` in the callee is then decided).
_KEEP_FLAGS = ARRAY | BOOL | PYSEQ | DICT | RAW | REF | NOTNONE | NONE


def call_recorder(path: str, calls: list) -> "CallRecorder":
    return CallRecorder(path, calls)


class CallRecorder:
    """The Analyzer's hook for imported callees: remember the call, know nothing of the result."""

    def __init__(self, path: str, calls: list):
        self.path = path
        self.calls = calls
        self._hosts: set = set()

    def __call__(self, interp, call_node, q: str, argvals, member=None, self_val=None, attribute=False):
        """``member``: the call is ``obj.member(...)`` (or, with ``attribute``, the read
        ``obj.member``) on an instance (``self_val``) of the imported class ``q``; the
        cross-module phase looks the member up in that class and its bases."""
        fr = interp.frame
        args: List[list] = []
        kwargs: Dict[str, list] = {}
        for a, v in argvals:
            if a.star:
                return None  # *args / **kwargs: we cannot map arguments to parameters
            kv = [v.kind, v.flags & _KEEP_FLAGS]
            if a.keyword is not None:
                kwargs[a.keyword.value] = kv
            else:
                args.append(kv)
        t = fr.entry.transform
        origin = getattr(fr.entry, "origin", None)  # (entry, file) when the entry is in another file
        rec = {}
        if member is not None:
            rec = {"member": member, "self": [self_val.kind, self_val.flags & _KEEP_FLAGS], "attribute": attribute}
        self.calls.append(
            {
                **rec,
                "target": q,
                "args": args,
                "kwargs": kwargs,
                "entry": origin[0] if origin else fr.entry_name,
                "entry_path": origin[1] if origin else self.path,
                "cached": bool(fr.cached),
                "effects": bool(t.effects),
                "differentiated": bool(t.differentiated),
                "staged": bool(fr.staged),
                "label": t.label,
            }
        )
        return None

    def provides(self, rec: dict) -> None:
        """A wrapper or factory of the module, for host calls in other modules."""
        self.calls.append(rec)

    def uses_class(self, q: str) -> None:
        """A traced parameter is an instance of the imported ``q``: if that is a class of the
        run, the cross-module phase interprets the module again knowing it (its fields, what
        its methods return)."""
        key = "class " + q
        if key not in self._hosts:
            self._hosts.add(key)
            self.calls.append({"uses": q})

    def host_call(self, q: str) -> None:
        """Host code calls the imported function ``q`` (or what it returns) with a value JAX
        cannot hash: if ``q`` forwards it to a static parameter, or returns a jitted function
        with one there, the cross-module phase reports the call."""
        if q not in self._hosts:
            self._hosts.add(q)
            self.calls.append({"host": q})
