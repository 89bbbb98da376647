"""The state of one function being interpreted."""

from __future__ import annotations

from typing import List, Optional

from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.traced.values import Env, Val


class Frame:
    """The state of one function being interpreted."""

    __slots__ = (
        "func",
        "scope",
        "env",
        "closure",
        "where",
        "entry",
        "cached",
        "declared",
        "returns",
        "concrete",
        "depth",
        "entry_name",
        "notnone",
        "catches_tracer_errors",
        "unsure",
        "refusals",
        "staged",
        "fresh",
        "outer",
        "loop_body",
        "own_trace",
        "keeps",
    )

    def __init__(self, func: FuncInfo, scope: Scope, where: str, entry: Application, cached: bool):
        self.func = func
        self.scope = scope
        self.env: Env = {}
        self.closure: Optional[List[Env]] = None  # enclosing traced environments, innermost first
        self.where = where
        self.entry = entry
        self.cached = cached
        self.declared: set = set()  # global / nonlocal names
        self.returns: List[Val] = []
        self.concrete = 0  # inside ``with jax.ensure_compile_time_eval()``
        self.depth = 0
        self.entry_name = ""
        # Enclosing-scope names known not to be None where the function is handed to JAX
        # (``if prev is None: return ...`` earlier in the enclosing function).
        self.notnone: frozenset = frozenset()
        # Inside ``try: ... except TypeError:`` (or a handler that catches JAX's tracer errors,
        # which are TypeErrors): a conversion there is the deliberate "only when concrete" check.
        self.catches_tracer_errors = 0
        # Inside code that runs at trace time only where a test the interpreter cannot decide
        # says the values it tested hold no tracer (``if not traced:`` after ``traced =
        # any(isinstance(v, Tracer) for v in leaves)``): what happens there is not certain.
        self.unsure = 0
        # How many times the code run so far refused a tracer (a conversion, a Python branch on
        # one: a JAX error raised while tracing), in this function or those it called: a
        # ``try`` whose body refuses one runs its handler with the tracers.
        self.refusals = 0
        # Some transform around this function stages it (jit, a lax loop body...): JAX
        # operations on concrete values give tracers here.  Under vmap or grad alone, False.
        self.staged = True
        # The traced function is made anew each time its host function runs (a lambda or a
        # nested def handed to ``lax.cond`` there) and runs once per call: every run traces it
        # afresh, so what it does at trace time happens on every call of the host function.
        self.fresh = False
        # The callables the parameters of the factory around the function hold in the signature
        # it is interpreted under (jaxlint.analysis.traced.factory_contexts), or None.
        self.outer = None
        # The body of a lax loop (scan, fori_loop, while_loop, map): traced once and run once
        # per iteration, so Python state of the enclosing trace it consumes is taken only once.
        self.loop_body = False
        # Traced by a transform applied inside the trace around it (a lax body, ``jax.remat(g)``
        # called in a jitted function): its tracers belong to its own trace, which ends first.
        self.own_trace = False
        # (the memo's code, the tracer stored) where it filled a memo that outlives the trace
        # with a tracer (jaxlint.analysis.traced.escapes): what it returns, later runs of it
        # read back from that memo.
        self.keeps = None

    @property
    def runs_per_call(self) -> bool:
        """What the function does as Python happens on every call, as written."""
        # ``fresh_per_call``: the entry itself is such a function (a branch made anew by an eager
        # host function, found where the transform is applied)
        return bool(self.entry.transform.runs_per_call or self.fresh or getattr(self.entry, "fresh_per_call", False))

    def lookup(self, name: str) -> Optional[Val]:
        v = self.env.get(name)
        if v is not None:
            return v
        if self.closure:
            for e in self.closure:
                v = e.get(name)
                if v is not None:
                    return v
        return None

    def is_local(self, name: str) -> bool:
        return self.lookup(name) is not None and name not in self.declared
