"""The records a file's lint makes of what it asks of other modules, one type per kind.

The per-file pass builds them as JSON objects (they cross process boundaries and the result
cache stores them); the cross-module phase reads each into its type with :func:`record_from_json`
and writes it back with ``to_json`` where it caches or hashes records.  ``to_json`` gives the
object the per-file pass made, so a cache key computed from either is the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple, Union

# (kind, flags) of an argument's abstract value: what the callee needs to know of it
ArgValue = Tuple[int, int]


def _values(items) -> Tuple[ArgValue, ...]:
    return tuple((kind, flags) for kind, flags in items)


@dataclass(frozen=True)
class CallRecord:
    """A call the module's traced code makes, with these arguments, into an imported callee."""

    target: str  # the callee's qualified name, as imported (maybe relative)
    args: Tuple[ArgValue, ...]
    kwargs: Tuple[Tuple[str, ArgValue], ...]  # in the call's order
    entry: str  # the traced entry point the call is made under
    entry_path: Optional[str]  # the entry point's file; None: the importer's
    cached: bool
    effects: bool
    differentiated: bool
    staged: bool
    label: str  # the entry point's transform

    def _call_json(self) -> dict:
        return {
            "target": self.target,
            "args": [list(v) for v in self.args],
            "kwargs": {name: list(v) for name, v in self.kwargs},
            "entry": self.entry,
            "entry_path": self.entry_path,
            "cached": self.cached,
            "effects": self.effects,
            "differentiated": self.differentiated,
            "staged": self.staged,
            "label": self.label,
        }

    @staticmethod
    def _call_fields(d: dict) -> dict:
        return dict(
            target=d["target"],
            args=_values(d["args"]),
            kwargs=tuple((name, (v[0], v[1])) for name, v in d["kwargs"].items()),
            entry=d["entry"],
            entry_path=d.get("entry_path"),
            cached=d["cached"],
            effects=d["effects"],
            differentiated=d.get("differentiated", False),
            staged=d.get("staged", True),
            label=d["label"],
        )


@dataclass(frozen=True)
class FunctionCall(CallRecord):
    """``helper(x)`` of an imported function."""

    def to_json(self) -> dict:
        return self._call_json()

    @classmethod
    def from_json(cls, d: dict) -> "FunctionCall":
        return cls(**cls._call_fields(d))


@dataclass(frozen=True)
class MemberCall(CallRecord):
    """``obj.member(...)`` (or, with ``attribute``, the read ``obj.member``) on an instance of
    the imported class ``target``, whose receiver has the abstract value ``receiver``."""

    member: str
    receiver: ArgValue
    attribute: bool

    def to_json(self) -> dict:
        return {"member": self.member, "self": list(self.receiver), "attribute": self.attribute, **self._call_json()}

    @classmethod
    def from_json(cls, d: dict) -> "MemberCall":
        kind, flags = d["self"]
        return cls(member=d["member"], receiver=(kind, flags), attribute=d.get("attribute", False), **cls._call_fields(d))


@dataclass(frozen=True)
class UsesClass:
    """A traced parameter of the module is an instance of the imported class ``qual``."""

    qual: str

    def to_json(self) -> dict:
        return {"uses": self.qual}


@dataclass(frozen=True)
class HostCall:
    """Host code calls the imported ``qual`` (or what it returns) with a value JAX cannot hash."""

    qual: str

    def to_json(self) -> dict:
        return {"host": self.qual}


@dataclass(frozen=True)
class Export:
    """A wrapper or a factory of a jitted function with static parameters that the module
    provides to host code elsewhere.  ``fields``: the rest of the record (what the wrapper
    forwards, or the factory's jitted function and its static parameters), as the per-file
    pass wrote it: the host paths fact reads it as it is."""

    provides: str  # "wrapper" or "factory"
    name: str
    fields: Tuple[Tuple[str, object], ...]

    def to_json(self) -> dict:
        return {"provides": self.provides, "name": self.name, **dict(self.fields)}

    @classmethod
    def from_json(cls, d: dict) -> "Export":
        return cls(d["provides"], d["name"], tuple((k, v) for k, v in d.items() if k not in ("provides", "name")))


Record = Union[FunctionCall, MemberCall, UsesClass, HostCall, Export]


def record_from_json(d: dict) -> Record:
    """The typed record of a JSON object a file's lint made (a malformed one raises)."""
    if "uses" in d:
        return UsesClass(d["uses"])
    if "host" in d:
        return HostCall(d["host"])
    if "provides" in d:
        return Export.from_json(d)
    if "member" in d:
        return MemberCall.from_json(d)
    return FunctionCall.from_json(d)
