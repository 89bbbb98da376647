"""The one record every face of jaxlint speaks: a finding."""

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional


class FindingFacts(NamedTuple):
    """What the analysis knew when it reported, in plain JSON-able values, for the dynamic mode
    (not part of the output).  Derived for every finding by jaxlint.engine.finding_facts from
    the node, the traced frame and the fields its rule reported; the shapes of the callable
    descriptions are jaxlint.dynamic.protocol's ``Callee``, ``CallFacts``, ``Signature`` and
    ``Rebuild``."""

    value_kind: Optional[str] = None  # what was passed or used: "list", "dict", "set", "array", "tracer"
    entry: Optional[str] = None  # qualified name of the traced (or jitted) function involved
    parameter: Optional[str] = None  # the parameter the value is passed for
    variable: Optional[str] = None  # the variable the finding is about (a capture, an array)
    in_entry: Optional[bool] = None  # the finding is in the traced entry function itself
    traced: Optional[Dict[str, Any]] = None  # the traced entry point, as the worker reaches it
    site: Optional[Dict[str, Any]] = None  # the module-level function that applies the transform
    host: Optional[Dict[str, Any]] = None  # outside traced code: the enclosing module-level function
    # A value that reaches a static slot along a path (a wrapper, a factory, a partial): the
    # module-level function with no required parameters where it is built, run as it is.
    builder: Optional[Dict[str, Any]] = None
    unreachable: Optional[str] = None  # why the traced entry point cannot be reached
    module_level: Optional[bool] = None  # outside traced code and outside any function
    call: Optional[Dict[str, Any]] = None  # the call of a jitted callable the finding points at
    jitted: Optional[Dict[str, Any]] = None  # that callable's signature and static spec
    rebuild: Optional[Dict[str, Any]] = None  # jax.jit(...) of a fresh function: how to build it twice
    api: Optional[Dict[str, Any]] = None  # a JAX API the finding names (old_api, deprecated_in, removed_in)
    # The finding's node as a dotted name, when it is an attribute (``self.gain`` of ``self.gain = g``).
    attribute: Optional[str] = None
    # The class of the module the finding names (``cls``), one of its attributes and the
    # module's constructions of it (protocol ``InstanceFacts``).
    instance: Optional[Dict[str, Any]] = None
    # The first related location, when it is a call of a jitted callable in host code: the
    # callable and the module-level function around the call (protocol ``RelatedCall``).
    related_call: Optional[Dict[str, Any]] = None
    # A traced function nested in a module-level function that returns nothing: the function
    # and the outer one, which makes and calls it (protocol ``Nested``).
    nested: Optional[Dict[str, Any]] = None
    # A traced entry point that lives in another file of the run (the cross-module phase):
    # {"label": how the analysis names it ("jitted walk()"), "path": that file as the run shows it}.
    remote_entry: Optional[Dict[str, Any]] = None
    # Two calls of one jitted callable that pass a parameter the two ways, position and keyword
    # (protocol ``ConventionFacts``).
    convention: Optional[Dict[str, Any]] = None
    # The module-level function around the loop that runs the finding's function again and
    # again (a jitted object made on each of its calls), as the worker calls it (``Callee``).
    repeater: Optional[Dict[str, Any]] = None
    # A finding at the call that compiles, about a jitted object made elsewhere: the lines of
    # the ``jax.jit(...)`` (or decorator) that makes it, {"line": l, "end_line": e}.
    made: Optional[Dict[str, int]] = None


@dataclass(frozen=True)
class Finding:
    """A place in a file (lines and columns from 1, the end exclusive), the rule that flags it
    and what it says.  (A dataclass without a docstring gets one made from its signature, at
    import.)"""

    path: str
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int  # 1-based, exclusive
    code: str
    name: str
    message: str
    fix: str = ""
    # An exact replacement, when the rule knows one: {"text": ..., span as above}.
    suggestion: Optional[Dict[str, Any]] = field(default=None, compare=False)
    # The rule's fix, when it has one: {"title", "safety": "safe"|"unsafe", "edits": [spans as
    # above, with "text"]} (see jaxlint.fixes).  Not part of the JSON output.
    autofix: Optional[Dict[str, Any]] = field(default=None, compare=False)
    # Set by the dynamic mode: {"status": "confirmed|refuted|unverified", "detail": ...}.
    dynamic: Optional[Dict[str, Any]] = field(default=None, compare=False)
    # Set when a run of the user's code showed it (jaxlint.runtime): {"count": times seen,
    # "test": the first test (or script) it was seen in, "tests": how many}.
    observed: Optional[Dict[str, Any]] = field(default=None, compare=False)
    # Extra facts the dynamic mode and formats may use (entry function, traced name...).
    context: Optional[Dict[str, Any]] = field(default=None, compare=False)
    # Other places that explain the finding (where a frozen capture is changed), each
    # {"path", "line", "column", "end_line", "end_column", "message"}.
    related: Optional[List[Dict[str, Any]]] = field(default=None, compare=False)
    facts: Optional[FindingFacts] = field(default=None, compare=False)

    def fixable(self, unsafe: bool = False) -> bool:
        """Whether ``--fix`` has an edit for this finding (``unsafe``: with ``--unsafe-fixes``)."""
        fix = self.autofix
        return bool(fix and fix.get("edits")) and (unsafe or fix.get("safety") == "safe")

    def sort_key(self):
        return (self.path, self.line, self.column, self.code, self.message)

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        del d["facts"]  # for the engine's own use; the reports stay as they are
        if d["suggestion"] is None:
            del d["suggestion"]
        del d["autofix"]
        if d["dynamic"] is None:
            del d["dynamic"]
        if d["observed"] is None:
            del d["observed"]
        if d["context"] is None:
            del d["context"]
        if d["related"] is None:
            del d["related"]
        return d
