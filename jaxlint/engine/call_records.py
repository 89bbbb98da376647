"""Calls a module's traced code makes, with traced arguments, into imported functions.

Each is a plain record, a pure function of the file's source, so it is cached with the file's
findings; the cross-module phase (jaxlint.engine.project) follows the records whose target is
a module of the same run.
"""

from __future__ import annotations

from typing import Dict, List

from jaxlint.analysis.values import ARRAY, BOOL, DICT, PYSEQ, RAW, REF

# The value flags that survive into a record: what the callee needs to know of an argument.
_KEEP_FLAGS = ARRAY | BOOL | PYSEQ | DICT | RAW | REF


def call_recorder(path: str, calls: list):
    """The Analyzer's hook for imported callees: remember the call, know nothing of the result.

    ``member``: the call is ``obj.member(...)`` (or, with ``attribute``, the read ``obj.member``)
    on an instance (``self_val``) of the imported class ``q``; the cross-module phase looks the
    member up in that class and its bases."""

    def record(interp, call_node, q: str, argvals, member=None, self_val=None, attribute=False):
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
        calls.append(
            {
                **rec,
                "target": q,
                "args": args,
                "kwargs": kwargs,
                "entry": origin[0] if origin else fr.entry_name,
                "entry_path": origin[1] if origin else path,
                "cached": bool(fr.cached),
                "effects": bool(t.effects),
                "differentiated": bool(t.differentiated),
                "label": t.label,
            }
        )
        return None

    return record
