"""The plan the planner (jaxlint.dynamic.plan) hands to the worker (jaxlint.dynamic.worker), and
the events the worker sends back.  Both sides are plain JSON; these types say what the keys are.

The worker reads the plan from a JSON file and writes one JSON event per line to its standard
output.  It imports nothing else of jaxlint's engine: this module uses only ``typing``.
"""

from __future__ import annotations

from typing import Dict, List, Literal, TypedDict


class Value(TypedDict, total=False):
    """How to build one argument.  ``k`` says which keys apply:

    ``array`` (``shape``, ``dtype``): an array of ones; ``py`` (``src``): a Python literal;
    ``expr`` (``src``): a ``jnp.*``/``np.*`` expression read from a call site; ``ctor``
    (``cls``, ``pos``): a NamedTuple of the module built from field values; ``omit``: leave
    a parameter with a default unpassed."""

    k: Literal["array", "py", "expr", "ctor", "omit"]
    shape: List[int]
    dtype: str
    src: str
    cls: str
    pos: List["Value"]


ArgSet = Dict[str, Value]  # parameter name -> value


class Target(TypedDict, total=False):
    """Where to find the function object in the imported module."""

    qualname: str
    method: bool  # a method: called on an instance built for it


class Factory(TypedDict, total=False):
    """The enclosing function to call first; it returns (or refers to) the traced one."""

    qualname: str
    argsets: List[ArgSet]
    guessed: List[str]
    lines: List[int]


class Driver(TypedDict, total=False):
    """One way to run the traced function."""

    how: Literal["jaxpr", "jit", "call"]  # make_jaxpr, jax.jit and call twice, or a plain call
    target: Target
    label: str  # "jitted step()", for messages
    filtered: bool  # eqx.filter_jit: non-array arguments are static
    self_static: bool
    opaque: bool  # the static spec could not be read
    argsets: List[ArgSet]  # candidates, best first
    guessed: List[str]  # parameters only guesses could fill
    then: List[ArgSet]  # a factory: call what it returns with these
    factory: Factory
    cached: bool  # effect checks: the function is cached (jitted)
    statics: Dict[str, list]  # {"nums": [...], "names": [...]}
    aliases: List[str]  # module-level names bound to the jitted object


ErrorPatternPair = List[str]  # [exception class name, message regex ("" for any)]


# What to run for one finding.  ``kind`` says which keys apply:
#
# * ``trace``: run a driver; confirmed when an ``expect`` error is raised on the finding's
# lines (``module_level``: when importing the module already raises it);
# * ``capture`` (JAX301): trace with the captured ``var`` changed; confirmed when the trace
# changes (``in_entry``: the read is in the entry function itself);
# * ``effect`` (JAX302/303/306): confirmed when the lines run while tracing and not on the
# cached second call;
# * ``static`` (JAX201-203): apply ``jax.jit`` with ``spec`` to a ``stub`` of the signature,
# call it with ``args``; confirmed on an ``expect`` error;
# * ``retrace`` / ``fresh_jit`` (JAX204/JAX401): count traces and compilations;
# * ``none``: nothing to run (``reason`` says why).
Check = TypedDict(
    "Check",
    {
        "code": str,
        "line": int,
        "end_line": int,
        "kind": str,
        "reason": str,
        "expect": List[ErrorPatternPair],  # from the rule's ``prevents`` declaration
        "drivers": List[Driver],
        "module_level": bool,
        "var": str,
        "in_entry": bool,
        "stub": str,
        "spec": Dict[str, list],
        "args": List[dict],  # [{"name", "kind", "static", "value"}], or None: applying jax.jit is enough
        "argsets": List[ArgSet],
        "guessed": List[str],
        "mode": str,
        "src": str,
        "src_line": int,
        "what": str,
        "values": list,
        "values_from": str,
        "param": str,
        "name": str,
        "jit_kw": Dict[str, str],
        "global": bool,  # the capture is a module global (a Python keyword: hence this form)
    },
    total=False,
)


class Plan(TypedDict):
    path: str
    checks: List[Check]


class Event(TypedDict, total=False):
    """One line of the worker's output: ``event`` is ``importing``, ``imported``, ``import_failed``
    (``reason``),
    ``check`` (``id``, ``label``), ``result`` (``id``, ``status``, ``detail``) or ``done``."""

    event: str
    id: int
    label: str
    status: Literal["confirmed", "refuted", "unverified"]
    detail: str
    reason: str

