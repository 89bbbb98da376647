"""The plan the planner (jaxlint.dynamic.plan) hands to the worker (jaxlint.dynamic.worker), the
events the worker sends back, and the callable descriptions the engine puts in a finding's
facts (jaxlint.findings.FindingFacts, derived by jaxlint.engine.finding_facts), which the plan
passes on.  Everything is plain JSON; these types say what the keys are.

The worker reads the plan from a JSON file and appends one JSON event per line to an output
file.  Both sides of the process boundary may import this module (jaxlint's own process, which
plans, and the worker, which runs the user's code): it uses only ``typing``.
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict


class Value(TypedDict, total=False):
    """How to build one argument.  ``k`` says which keys apply:

    ``array`` (``shape``, ``dtype``): an array of ones; ``py`` (``src``): a Python literal;
    ``expr`` (``src``): an expression of literals, ``jnp.*``/``np.*``/``math.*`` calls and the
    module's own globals and class constructors, evaluated after the import; ``ctor``
    (``cls``, ``pos``): an instance of a class of the module built from field values;
    ``omit``: leave a parameter with a default unpassed; ``captured`` (``i``): a value the
    module's driver code passed, kept by the worker (jaxlint.dynamic.worker.drivers).
    (``array?``, an array of unknown rank, only exists while the engine picks examples.)"""

    k: Literal["array", "py", "expr", "ctor", "omit", "captured"]
    shape: List[int]
    dtype: str
    src: str
    cls: str
    pos: List["Value"]
    # an array read from an annotation: "`x: Float[Array, 'b n']`", "the ShapeDtypeStruct
    # default of `x`" (the argument set then names it in ``annotated``)
    origin: str


class Arg(TypedDict):
    """One parameter of an example call, with its value."""

    name: str
    kind: Literal["pos", "posonly", "kw"]
    static: bool  # built as a Python value, never traced
    value: Value


class _ArgSet(TypedDict):
    source: str  # where the values come from: "call at line 12", "example spec", "... guesses"
    args: List[Arg]


class ArgSet(_ArgSet, total=False):
    """One candidate set of example arguments."""

    # which arguments are arrays read from annotations, as a finding's detail names them
    # ("`x: Float[Array, 'b n']` as float32[3,4]"); such a set is tried after the module's
    # driver code
    annotated: str


class Constructor(TypedDict):
    """Arguments of a ``Cls(...)`` call of the module, to build an instance for a method."""

    pos: List[Value]
    kw: Dict[str, Value]


class Construction(Constructor):
    """A ``Cls(...)`` call of the module, with the line it is on."""

    line: int


class Factory(TypedDict, total=False):
    """The enclosing module-level function to call first; what it returns (or its closures)
    holds the traced function."""

    qualname: str
    argsets: List[ArgSet]
    guessed: List[str]
    lines: List[int]  # the lines the nested def (or its first decorator) starts on


# Where to find the function object in the imported module ("lambda" is a Python keyword: hence
# this form).
Target = TypedDict(
    "Target",
    {
        "qualname": str,  # the name in the module (or class, or the factory's result)
        "cls": Optional[str],  # the module-level class that holds it, for a method
        "def_line": Optional[int],
        "method": bool,  # a method: called on an instance built for it
        "lambda": bool,  # a lambda bound to a module-level name
        "ctors": List[Constructor],  # for a method: ways to build the instance, best first
        # a method bound to an object of this subclass of ``cls`` (its overrides apply)
        "instance_cls": str,
        "factory": Factory,
        # a function made inside this module-level function (or method of ``cls``), found by
        # its code there: watched, never called
        "made_in": Dict[str, Optional[str]],
    },
    total=False,
)


class Callee(TypedDict, total=False):
    """A callable of the module as the worker reaches and calls it (in a finding's facts:
    ``traced``, ``site``, ``host``, ``call.callee``)."""

    target: Target
    label: str  # "jitted step()", for messages
    differentiated: bool  # under jax.grad and friends alone: JVP tracers over concrete values
    cached: bool  # jitted: a second call with the same arguments replays the compiled code
    filtered: bool  # eqx.filter_jit: non-array arguments are static
    self_static: bool
    opaque: bool  # the static spec could not be read
    argsets: List[ArgSet]  # candidates, best first
    guessed: List[str]  # parameters only guesses could fill
    then: List[ArgSet]  # a factory: call what it returns with these
    statics: Dict[str, list]  # {"nums": [...], "names": [...]}
    aliases: List[str]  # module-level names bound to the jitted object


class Driver(Callee, total=False):
    """One way to run the function of a check: a Callee and how to run it."""

    how: Literal["jaxpr", "jvp", "jit", "call"]  # make_jaxpr, jax.jvp, jax.jit (called twice), a plain call
    # run only with arguments the module passes: its driver code's (captured, value kind
    # ``captured``) or a set that holds no guess; else unverified
    module_arguments_only: bool


class ParamFacts(TypedDict):
    name: str
    kind: Literal["pos", "posonly", "kw"]
    static: bool
    has_default: bool


class Signature(TypedDict):
    """A jitted callable's signature (facts ``jitted``)."""

    stub: str  # a def with the same parameters (defaults replaced by None)
    filtered: bool  # eqx.filter_jit: it hashes the non-array leaves itself
    spec: Dict[str, list]  # {"nums": [...], "names": [...]} as written
    params: List[ParamFacts]


# The values an argument takes over the innermost loop around its call.
Loop = TypedDict(
    "Loop",
    {
        "var": str,  # the loop variable
        "values": List[Value],  # the argument for the loop's first values (empty: could not build it)
        "direct": bool,  # the argument is the loop variable itself
        "guessed": List[str],  # names in the argument replaced by a guessed array
        "from": str,  # "the loop's values 1, 2, 3"
        # the values are the loop's own (a literal range or list), not distinct ints in their place
        "values_known": bool,
    },
    total=False,
)


class CallFacts(TypedDict, total=False):
    """The call of a jitted callable a finding points at (facts ``call``)."""

    line: int
    callee: Optional[Callee]
    values: Dict[str, Optional[Value]]  # by parameter; None: passed, but not a simple value
    keywords: List[str]  # parameters passed by keyword
    loop: Loop
    # the value the argument starts as, when a loop passes the call's result back in its place
    start: Value
    result_part: Optional[int]  # which element of the returned tuple is passed back (None: all)
    # the result is passed back, from a start the facts could not write as a value (a method's result)
    fed_back: bool
    first_values: Dict[str, Value]  # other arguments on the loop's first pass, built without guesses


# ``jax.jit(f)`` of a function built anew (facts ``rebuild``); ``reason`` alone when the
# function cannot be rebuilt on its own.
Rebuild = TypedDict(
    "Rebuild",
    {
        "reason": str,
        "jit_kw": Dict[str, str],  # literal keyword arguments of jax.jit, as source
        "what": str,  # "lambda" or "name()"
        "global": str,  # a module-level function: the same object each time
        "src": str,  # the function's source, compiled in the module's globals
        "mode": Literal["eval", "exec"],
        "name": str,
        "src_line": int,
        "argsets": List[ArgSet],
        "guessed": List[str],
    },
    total=False,
)


class InstanceFacts(TypedDict):
    """The module's class a finding names and one of its attributes (facts ``instance``), with
    the module's own constructions of it: the finding's own ``Cls(...)`` call alone when the
    finding is an argument of one."""

    cls: str
    attr: str
    ctors: List[Construction]


class RelatedCall(TypedDict, total=False):
    """The first related location of a finding in host code, when it is a call of a jitted
    callable (facts ``related_call``): the callable, and the module-level function (or method
    of a module-level class) around the call, which runs it."""

    line: int
    callee: Callee
    runner: Callee
    # or, for calls the script's ``if __name__ == "__main__":`` block makes: ``main`` True and
    # the block's lines that make the change besides the finding's (a setter's call)
    main: bool
    lines: List[int]
    # or, for a callable no name of the module reaches (a lambda made in a method): ``callee``
    # None and why it cannot be watched
    why: str


class Nested(TypedDict):
    """A traced function defined in a module-level function that returns nothing (facts
    ``nested``): its name, the lines its def (or first decorator) starts on, and the outer
    function, which makes the jitted function and calls it."""

    name: str
    lines: List[int]
    runner: Callee


class _ConventionFacts(TypedDict):
    callee: Callee
    param: str
    by_keyword: bool


class ConventionFacts(_ConventionFacts, total=False):
    """Two calls of one jitted callable, one passing ``param`` by position and the other by
    keyword (facts ``convention``): the callable, and how the finding's call passes it."""

    # the other convention's calls are in this function (or the module's top level), not in
    # the one the check runs: the jitted callable is one object for the whole module
    elsewhere: str


ErrorPatternPair = List[str]  # [exception class name, message regex ("" for any)]


# What to run for one finding.  ``kind`` says which keys apply:
#
# * ``trace``: run the drivers; confirmed when an ``expect`` error is raised on the finding's
#   lines (``module_level``: when importing the module already raises it);
# * ``capture`` (frozen, observed by capture): trace with the captured ``var`` changed;
#   confirmed when the trace changes (``in_entry``: the read is in the entry function itself).
#   With ``nested``, the driver (the outer function) runs as it is instead, its jitted calls of
#   the nested function recorded: confirmed when a call after ``var`` was rebound reuses the
#   compiled function and returns another result than the function run eagerly, refuted when
#   it traces again;
# * ``effect`` (frozen): confirmed when the lines run while tracing and not on the cached
#   second call;
# * ``static`` (raises when jax.jit is applied or called): apply ``jax.jit`` with ``spec`` to a
#   ``stub`` of the signature, call it with ``args``; confirmed on an ``expect`` error;
# * ``retrace`` (recompiles): call the driver with each of ``values`` for ``param`` (taken
#   from ``values_from``; ``changes``: what differs, the value or the shape), counting traces
#   and compilations; ``fed_back``: call it with the single value, then with the first call's
#   result (its element ``result_part``) in its place;
# * ``fresh_jit`` (recompiles, a fresh function): build the function twice (the Rebuild keys),
#   jit each and count;
# * ``unchanged`` (wrong-result): run the drivers; confirmed when ``var`` is the same object
#   after the lines ran;
# * ``formatted-tracer`` (wrong-result): run the drivers; confirmed when a string handed to
#   jax.debug on the lines shows a tracer (or an ``expect`` error is raised);
# * ``pytree_arg`` (raises where an instance is used): build two instances of ``cls`` by each
#   of ``ctors`` and pass them to one jitted function; confirmed on an ``expect`` error whose
#   cause is ``attr`` (its two values have no truth value when compared), refuted when the
#   second call is accepted;
# * ``stale`` (host code changes a static object): run the drivers (the code around the first
#   call; a method twice on one instance) with the calls of ``watched`` recorded; confirmed
#   when, after the lines changed ``attribute``, a call with that object reuses the compiled
#   function and returns another result than the function run eagerly; refuted when such a
#   call traces again.  With ``main_lines`` the script's ``__main__`` block is the driver
#   (jaxlint.dynamic.worker.checks.main_block);
# * ``host_calls`` (recompiles, the loop's values not the loop variable's): run the drivers as
#   they are, counting the traces and compilations of each call of ``watched`` made while the
#   lines (from ``call_line``) run; confirmed when a call after the first compiles again
#   (``every``: each of them does) and the last call repeated does not, refuted when no later
#   call traces;
# * ``jit_calls`` (recompiles, ``jax.jit`` of an object that cannot be rebuilt): run the
#   drivers as they are, recording the first call of each object ``jax.jit`` returns on the
#   lines; confirmed when each object after the first traces its function again, with
#   arguments of the same shapes and dtypes, into the same program, refuted when none of
#   them traces or compiles;
# * ``convention`` (recompiles, a parameter passed by position at one call and by keyword at
#   another): the finding's call made again passing ``param`` the other way
#   (jaxlint.dynamic.worker.checks.conventions);
# * ``construct`` (raises while a module's class is built): ``cls`` built as the module builds
#   it, then with ``ctors`` (jaxlint.dynamic.worker.checks.constructions);
# * ``jax_api``: look ``name`` up in the installed JAX (``deprecated_in``, ``removed_in``);
# * ``none``: nothing to run (``reason`` says why).
Check = TypedDict(
    "Check",
    {
        "code": str,
        "line": int,
        "end_line": int,
        "kind": Literal[
            "trace",
            "capture",
            "effect",
            "static",
            "retrace",
            "fresh_jit",
            "unchanged",
            "formatted-tracer",
            "pytree_arg",
            "stale",
            "host_calls",
            "jit_calls",
            "convention",
            "construct",
            "jax_api",
            "none",
        ],
        "reason": str,
        "expect": List[ErrorPatternPair],  # from the rule's ``prevents`` declaration
        "drivers": List[Driver],
        "module_level": bool,
        "var": str,
        "in_entry": bool,
        "stub": str,
        "spec": Dict[str, list],
        "args": Optional[List[Arg]],  # None: applying jax.jit is enough
        "argsets": List[ArgSet],
        "guessed": List[str],
        "mode": str,
        "src": str,
        "src_line": int,
        "what": str,
        "values": List[Value],
        "values_from": str,
        "values_known": bool,  # see Loop
        "changes": Literal["value", "shape"],
        "param": str,
        "fed_back": bool,
        "call_line": int,  # the call a fed_back check reproduces
        "result_part": Optional[int],
        "name": Optional[str],
        "deprecated_in": Optional[str],
        "removed_in": Optional[str],
        "jit_kw": Dict[str, str],
        "global": str,  # the rebuilt function is a module global (a Python keyword: hence this form)
        "cls": str,  # pytree_arg, construct
        "attr": str,
        "ctors": List[Construction],
        "watched": Callee,  # stale, host_calls: the jitted callable whose calls are recorded
        "attribute": str,  # stale: the attribute the lines change, as the code there names it
        "repeat": bool,  # stale: the driver is a method, run twice on one instance
        # stale: no drivers; the script's __main__ block runs past the change (these lines too)
        "main_lines": List[int],
        "every": bool,  # host_calls: each call after the first must compile again
        "nested": Nested,  # capture: the traced function is made inside the driver
        "by_keyword": bool,  # convention: the finding's call passes ``param`` by keyword
        "elsewhere": str,  # convention: where the other convention's calls are, when not in the run
        "at_use": bool,  # construct: the error comes when the constructor returns
    },
    total=False,
)


class Event(TypedDict, total=False):
    """One line of the worker's output: ``event`` is ``importing``, ``imported``, ``import_failed``
    (``reason``), ``check`` (``id``, ``label``), ``result`` (``id``, ``status``, ``detail``) or
    ``done``."""

    event: Literal["importing", "imported", "import_failed", "check", "result", "done"]
    id: int
    label: str
    status: Literal["confirmed", "refuted", "unverified"]
    detail: str
    reason: str
