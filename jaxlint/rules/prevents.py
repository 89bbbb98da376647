"""What a rule prevents, in a form the dynamic mode and the JAX oracle test can check.

Four kinds:

* ``raises``: JAX raises one of ``errors`` (an exception class, named as in JAX, and a regular
  expression its message must match; a subclass of the class counts too).  ``stage`` says when:
  ``"trace"`` while the function is traced, ``"call"`` when ``jax.jit`` is applied or the
  jitted function is called (static-argument checks).  ``at`` says where, relative to the
  flagged line: ``"mark"`` (JAX raises there) or ``"use"`` (the flagged line declares something
  that fails where it is used: a static array parameter fails at the calls of the function, an
  array in a pytree's static metadata where an instance reaches a jitted function).
* ``frozen``: the code runs once, at trace time, and the compiled function replays its effect
  or value.
* ``stale``: host code changes an object a compiled function was traced with, and the next
  call reuses the compiled function: it returns what the old value gave.
* ``recompiles``: each call traces and compiles again.
* ``warns``: JAX warns (``errors`` holds the warning class): a deprecated API.
* ``wrong-result``: the code runs without an error and computes something else than meant
  (a discarded update); ``errors`` lists the errors it may raise instead, if any.
* ``none``: not a JAX behaviour (the linter's own JAX0xx codes); ``errors`` lists what Python
  itself raises instead, if anything (a file that does not parse).

Three facts about a ``raises`` error decide where the analysis reports it and how serious it
is (unset unless the rule says so):

* ``under_grad``: JAX raises it under ``jax.grad`` and friends alone too, where values are JVP
  tracers that carry a concrete primal (Python control flow and ``int()`` work there; NumPy's
  ``__array__`` conversion and ``x[i] = v`` do not).  Other findings in code that is only
  differentiated stay silent.
* ``depends_on``: what besides the code decides whether JAX raises (the JAX release the code
  targets; whether some other import loaded a submodule).  Where the code runs today it may
  well work: the finding is a migration to plan, not an error (jaxlint/rules/severity.py).
* ``tracer_type_error``: every error is one of JAX's tracer conversion errors, which derive
  from ``TypeError`` and are raised only because the value is a tracer.  Code that catches
  ``TypeError`` around such a line checks on purpose whether the value is concrete, and the
  finding stays silent there.

``observe`` says how the dynamic mode (and a reader) sees a ``frozen`` or ``wrong-result``
behaviour happen: for ``frozen``, ``"effect"`` (the line runs while tracing and not on the
cached call, the default) or ``"capture"`` (the trace changes when the captured variable
does); for ``wrong-result``, ``"unchanged"`` (the variable is the same array after the
line) or ``"formatted-tracer"`` (a string formatted at trace time shows a tracer).
"""

import re
from typing import NamedTuple, Sequence, Tuple


class ErrorPattern(NamedTuple):
    exception: str  # the class name; a subclass matches too
    message: str = ""  # a regular expression searched in str(exception); "" matches any

    def matches(self, class_names: Sequence[str], text: str) -> bool:
        """``class_names``: the names of the exception's classes, its MRO."""
        return self.exception in class_names and (not self.message or re.search(self.message, text) is not None)


class Prevents(NamedTuple):
    kind: str  # one of KINDS
    description: str  # for people: the --explain text and the README table
    errors: Tuple[ErrorPattern, ...] = ()
    stage: str = ""  # for "raises": "trace", "call", or "after" (when what the trace leaked is used)
    at: str = "mark"  # for "raises": "mark" (JAX raises at the flagged line) or "use"
    # For "raises": the error comes from inside the flagged call, possibly from a line of the
    # user's own code that the call runs (a module's ``__call__``), not from the flagged line.
    within_call: bool = False
    under_grad: bool = False  # for "raises": see the module's docstring
    tracer_type_error: bool = False  # for "raises": see the module's docstring
    depends_on: str = ""  # for "raises": see the module's docstring
    observe: str = ""  # for "frozen" and "wrong-result": one of OBSERVE[kind]

    def matches(self, exc: BaseException) -> bool:
        names = [c.__name__ for c in type(exc).__mro__]
        return any(p.matches(names, str(exc)) for p in self.errors)


KINDS = ("raises", "frozen", "stale", "recompiles", "warns", "wrong-result", "none")
OBSERVE = {"frozen": ("effect", "capture"), "wrong-result": ("unchanged", "formatted-tracer")}


def raises(
    *errors: ErrorPattern,
    stage: str = "trace",
    description: str = "",
    at: str = "mark",
    within_call: bool = False,
    under_grad: bool = False,
    tracer_type_error: bool = False,
    depends_on: str = "",
) -> Prevents:
    if not errors:
        raise ValueError("raises() needs at least one error")
    if stage not in ("trace", "call", "after"):
        raise ValueError(f"unknown stage {stage!r}")
    if at not in ("mark", "use"):
        raise ValueError(f"unknown place {at!r}")
    text = description or " / ".join(e.exception for e in errors)
    return Prevents(
        "raises",
        text,
        tuple(errors),
        stage,
        at=at,
        within_call=within_call,
        under_grad=under_grad,
        tracer_type_error=tracer_type_error,
        depends_on=depends_on,
    )


def frozen(description: str, observe: str = "effect") -> Prevents:
    if observe not in OBSERVE["frozen"]:
        raise ValueError(f"unknown observation {observe!r}")
    return Prevents("frozen", description, observe=observe)


def stale(description: str) -> Prevents:
    return Prevents("stale", description)


def recompiles(description: str = "recompilation on every call") -> Prevents:
    return Prevents("recompiles", description)


def warns(warning: ErrorPattern, description: str = "") -> Prevents:
    return Prevents("warns", description or warning.exception, (warning,))


def wrong_result(description: str, *tolerated: ErrorPattern, observe: str = "") -> Prevents:
    if observe and observe not in OBSERVE["wrong-result"]:
        raise ValueError(f"unknown observation {observe!r}")
    return Prevents("wrong-result", description, tuple(tolerated), observe=observe)


def nothing(description: str, *raised: ErrorPattern) -> Prevents:
    """``raised``: what Python itself raises on the code, if anything (not JAX)."""
    return Prevents("none", description, tuple(raised))
