"""Watching a run of the user's code through what JAX itself offers.

* **Recompilation.**  With ``jax_explain_cache_misses`` on, JAX logs an explanation of every
  miss of its tracing cache for a function of the user's: "never seen function", or the
  closest earlier cache key and how it differs (an input type, a static value, the pytree of
  the arguments).  The observer reads those records as they are logged, while the call that
  missed is still on the stack, and takes the user's call site from that stack.  A call site
  that traces one function more than once within a scope (a test, a script) recompiles.
* **Errors of tracing.**  JAX's tracer errors (``jax.errors``) are seen as they are built, so
  an error the user's code catches is seen too; any other error is seen when it ends a test
  or the script.  The error's class and message name the rules that prevent it.
* **Escaped tracers.**  When a scope ends, a tracer held by a module global of the user's
  code, or by a container or an object such a global holds, outlived its trace.

Nothing here changes what the user's code computes.  JAX's explanations go to its log only
when the user had turned them on themselves.
"""

from __future__ import annotations

import builtins
import difflib
import logging
import os
import re
import sys
import types
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

import jax
import jaxlib

from jaxlint.rules import ALL_RULES
from jaxlint.runtime import effects, sites
from jaxlint.runtime.sites import Site, UserCode, frame_site
from jaxlint.runtime.stale import StaleCheck

TRACER = getattr(jax.core, "Tracer", None)  # the class of every tracer, None in a JAX without it

# JAX's internals the observer reads: what is traced now, where JAX logs its explanations,
# and which files it takes for the user's.  A JAX without one of them observes less.
try:
    from jax._src import core
except ImportError:
    core = None
try:
    from jax._src import source_info_util
    from jax._src.interpreters import partial_eval
except ImportError:
    source_info_util = partial_eval = None
try:
    from jax._src import traceback_util
except ImportError:
    traceback_util = None

# The tracer errors JAX raises by class (jax.errors); ``__init__`` of each is wrapped.
TRACER_ERRORS = (
    "ConcretizationTypeError",
    "NonConcreteBooleanIndexError",
    "TracerArrayConversionError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "UnexpectedTracerError",
)
MISS_HEADER = "TRACING CACHE MISS at "
# Where a call of a jitted function (jax.jit and everything built on it, Flax's and Equinox's
# jits included) misses its cache and compiles: the function of JAX's ``pjit.py`` that such a
# call goes through.  ``jax.eval_shape``, ``jax.make_jaxpr`` and ``.trace()`` trace through
# ``jit`` too, but compile nothing.
JIT_CALL = ("pjit.py", "cache_miss")
TRACE_DONE_EVENT = "/jax/core/compile/jaxpr_trace_duration"


@dataclass
class Seen:
    """One finding's worth of observations: a rule's code at a site."""

    code: str
    site: Site
    message: str
    count: int = 0  # times seen, less those a test expected
    expected: int = 0  # times a test expected it (pytest.raises): intentional, not a finding
    scopes: List[str] = field(default_factory=list)  # the tests (or the script) it was seen in

    def add(self, scope: str, count: int = 1, expected: bool = False) -> None:
        if expected:
            self.expected += count
            return
        self.count += count
        if scope not in self.scopes:
            self.scopes.append(scope)


@dataclass
class _Scope:
    name: str
    # JAX's explanation of each miss ("" for a function's first trace) by site, call path and
    # function ("name defined at path:line", JAX's words without the object's id)
    misses: Dict[Tuple[Site, Tuple[Tuple[str, int], ...], str], List[str]] = field(default_factory=dict)
    raised: Dict[int, Tuple[BaseException, Site]] = field(default_factory=dict)
    intentional: Set[int] = field(default_factory=set)
    # Writes seen while a function was traced: (function, site, message, expected), reported
    # when the scope ends unless each trace was of a new function object made at the same place
    # (made for each use, so the write ran on each use).
    effects: List[Tuple[str, Site, str, bool]] = field(default_factory=list)
    traced_objects: Dict[str, List[object]] = field(default_factory=dict)  # function -> the objects traced


def parse_miss(text: str) -> Optional[Tuple[str, str]]:
    """(function, reason) of one of JAX's cache-miss explanations; reason is "" for a function
    never seen before, and "fresh" for one never seen that JAX says is defined on the same
    line as one it has seen."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith(MISS_HEADER):
        return None
    body = [line.strip() for line in lines[1:]]
    if body and body[0].startswith("never seen function"):
        function = re.sub(r" id=\d+", "", body[1]) if len(body) > 1 else ""
        fresh = any("re-defined" in line or "same line" in line for line in body)
        return function, ("fresh" if fresh else "")
    if body and body[0].startswith("for "):
        reason = "\n".join(line for line in body[1:] if not line.startswith("all previously seen"))
        return body[0][4:], reason
    return None


def recompile_rule(reasons: Sequence[str]) -> Optional[str]:
    """The rule a recompilation belongs to, from JAX's explanations of its misses."""
    text = "\n".join(reasons)
    if "fresh" in reasons:
        return "JAX401"
    if "different input pytree" in text:
        changed = _changed_metadata(text)
        if changed:
            callable_ = r"<function |<bound method |functools\.partial\("
            return "JAX404" if any(re.match(callable_, now) or re.match(callable_, before) for _, now, before in changed) else "JAX204"
        # Positional one call, keyword the next: the top of (args, kwargs) changed, at input
        # path [0] (the positional tuple) or [1] (the keyword dict).  A tree that differs
        # inside an argument is a new input, which no rule describes.
        paths = re.findall(r"at input path (\[[^ ]*\]),", text)
        return "JAX403" if paths and all(p in ("[0]", "[1]") for p in paths) else None
    if "different input types" in text:
        changed = [line for line in text.splitlines() if line.startswith("* at ")]
        weak_only = changed and all("weak_type" in line and _same_type(line) for line in changed)
        return "JAX402" if weak_only else "JAX205"
    return None


def _changed_metadata(text: str) -> List[Tuple[str, str, str]]:
    """(input path, now, before) for each piece of static pytree metadata that differs between
    the two calls JAX compared, as repr tokens (``<function f at 0x..>``, ``3``, ``'relu'``).  A
    static value that holds a function (Equinox puts the jitted function itself in its static
    part) changed as a callable only when the function is among the pieces that differ."""
    changed = []
    pattern = r"at input path (\S+), now .*? with pytree metadata (.*) and before .*? with pytree metadata (.*), so the pytree node metadata"
    for path, now, before in re.findall(pattern, text):
        a, b = _repr_tokens(now), _repr_tokens(before)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
            if tag != "equal":
                changed.append((path, "".join(a[i1:i2]), "".join(b[j1:j2])))
    return changed


def _repr_tokens(text: str) -> List[str]:
    number = r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?"  # 0.025 is one value, not three tokens
    return re.findall(r"<(?:function|bound method) .*? at 0x[0-9a-f]+>|<[^<>]*>|functools\.partial\(|'[^']*'|" + number + r"|\w+|[^\w\s]", text)


def _same_type(line: str) -> bool:
    m = re.search(r"now (\S+?)\{weak_type=\w+\} and before (\S+?)\{weak_type", line)
    return bool(m) and m.group(1) == m.group(2)


class Observer:
    """Observes JAX while the user's code runs.  ``start`` installs the hooks, ``stop`` removes
    them; ``begin``/``end`` bracket a scope (a test, the script)."""

    def __init__(self, roots: Sequence[str], check_leaks: bool = False, check_stale: bool = False):
        self.user = UserCode(roots)
        self.check_leaks = check_leaks
        self.check_stale = check_stale
        self.seen: Dict[Tuple[str, Site], Seen] = {}
        self._scope: Optional[_Scope] = None
        self._undo: List = []
        self._leaks_reported: Set[Tuple[str, str]] = set()
        self._explained: Dict[str, str] = {}  # function name -> "name defined at FILE:LINE", as JAX last explained it
        # The function being traced, the user's state before, and the user's call that traces it
        # (its frame, and the instruction it runs).
        self._before_trace: Optional[Tuple[str, effects.Snapshot, object, int]] = None
        self._jax_dirs: Tuple[str, ...] = ()

    # -- hooks ----------------------------------------------------------------------------

    def start(self) -> None:
        self._jax_dirs = tuple(os.path.realpath(os.path.dirname(m.__file__)) + os.sep for m in (jax, jaxlib))
        user_asked = bool(jax.config.jax_explain_cache_misses)
        jax.config.update("jax_explain_cache_misses", True)
        self._undo.append(lambda: jax.config.update("jax_explain_cache_misses", user_asked))
        self._explain_library_wrappers()

        observer = self

        class MissFilter(logging.Filter):
            def filter(self, record):
                text = record.getMessage()
                if not text.startswith(MISS_HEADER):
                    return True
                observer._on_miss(text, sys._getframe(1))
                return user_asked

        miss_filter = MissFilter()
        logger = _miss_logger()
        logger.addFilter(miss_filter)
        self._undo.append(lambda: logger.removeFilter(miss_filter))
        self._watch_print()
        jax.monitoring.register_event_duration_secs_listener(self._on_event)
        self._undo.append(lambda: jax.monitoring.unregister_event_duration_listener(self._on_event))
        for name in TRACER_ERRORS:
            cls = getattr(jax.errors, name, None)
            if cls is not None and "__init__" in vars(cls):
                self._wrap_init(cls)
        self._watch_api_boundary()
        if self.check_stale:
            StaleCheck(self.user, self._on_stale).install(self._undo.append)
        if self.check_leaks:
            previous = bool(jax.config.jax_check_tracer_leaks)
            jax.config.update("jax_check_tracer_leaks", True)
            self._undo.append(lambda: jax.config.update("jax_check_tracer_leaks", previous))

    def _replace(self, owner, name: str, new) -> None:
        """``owner.name`` is ``new`` until the observer stops."""
        original = getattr(owner, name)
        setattr(owner, name, new)
        self._undo.append(lambda: setattr(owner, name, original))

    def stop(self) -> None:
        while self._undo:
            self._undo.pop()()

    def _watch_print(self) -> None:
        """A ``print`` of a tracer runs while tracing: once per compilation, showing the tracer
        rather than the value (JAX302)."""
        tracer = TRACER
        original = builtins.print
        observer = self

        def print(*args, **kwargs):
            if observer._scope is not None and tracer is not None and any(effects.staged(a, tracer) for a in args):
                site = sites.stack_site(sys._getframe(1), observer.user)
                if site is not None:
                    shown = next(a for a in args if effects.staged(a, tracer))
                    message = f"print() ran while tracing and printed a tracer ({type(shown).__name__}): it prints once per compilation, never the values"
                    observer._add("JAX302", site, message, observer._scope.name)
            return original(*args, **kwargs)

        self._replace(builtins, "print", print)

    def _wrap_init(self, cls) -> None:
        original = cls.__init__
        observer = self

        def __init__(self, *args, **kwargs):
            original(self, *args, **kwargs)
            observer._on_error_built(self, sys._getframe(1))

        __init__.__wrapped__ = original
        self._replace(cls, "__init__", __init__)

    def _watch_api_boundary(self) -> None:
        """An error that JAX raises in Python leaves through one of its API boundaries
        (``jax.jit``'s tracing, the transformations, ``lax``), which asks for the traceback
        filtering mode as the error passes.  Seen there, an error the user's code catches (the
        ``TypeError`` of a shape built from a traced value) is seen too.  (An unhashable static
        argument is refused by jit's compiled dispatch, which no Python hook sees: its
        ``ValueError`` is seen when it ends a test or the script.)"""
        if traceback_util is None or not callable(getattr(traceback_util, "_filtering_mode", None)):
            return  # a JAX without it: such errors are seen when they end a test or the script
        original = traceback_util._filtering_mode
        observer = self

        def _filtering_mode():
            exc = sys.exc_info()[1]
            if exc is not None and observer._scope is not None and id(exc) not in observer._scope.raised:
                # Where it was raised, when that is in the user's code below the boundary (a
                # line of a traced function); else the user's call of the boundary.
                site = sites.traceback_site(exc.__traceback__, observer.user)
                if site is None:
                    site = sites.raise_site(sys._getframe(1), observer.user, observer._jax_dirs)
                if site is not None:
                    observer._scope.raised[id(exc)] = (exc, site)
            return original()

        self._replace(traceback_util, "_filtering_mode", _filtering_mode)

    def _explain_library_wrappers(self) -> None:
        """JAX explains a miss only for a function defined in a file it takes for the user's,
        and a library's jit wrapper (Equinox's ``filter_jit`` jits a function of its own) is
        defined in the library, often under the directory of the standard library that JAX
        excludes.  For that one check, and not for JAX's tracebacks, a file outside JAX counts
        as the user's; the call site is still taken from the user's own frames."""
        if source_info_util is None or partial_eval is None:
            return  # a JAX without them: such misses stay unexplained
        explain = getattr(getattr(partial_eval, "explain", None), "__code__", None)
        original, jax_dirs = source_info_util.is_user_filename, self._jax_dirs

        def is_user_filename(filename: str) -> bool:
            if original(filename):
                return True
            return sys._getframe(1).f_code is explain and not os.path.realpath(filename).startswith(jax_dirs)

        is_user_filename.cache_clear = original.cache_clear  # JAX clears it on each registration
        self._replace(source_info_util, "is_user_filename", is_user_filename)

    # -- scopes ---------------------------------------------------------------------------

    def begin(self, name: str) -> None:
        self._scope = _Scope(name)

    def expected(self, exc: BaseException) -> None:
        """``exc`` was expected by the test (``pytest.raises`` caught it)."""
        if self._scope is not None:
            self.failed(exc)
            self._scope.intentional.add(id(exc))

    def undo_on_stop(self, undo) -> None:
        """Call ``undo`` when the observer stops (a hook installed beside the observer's own)."""
        self._undo.append(undo)

    def failed(self, exc: BaseException) -> None:
        """``exc`` ended the scope (a failing test, the script's uncaught error)."""
        if self._scope is None or id(exc) in self._scope.raised:
            return
        site = sites.traceback_site(exc.__traceback__, self.user)
        if site is not None:
            self._scope.raised[id(exc)] = (exc, site)

    def end(self) -> None:
        scope, self._scope = self._scope, None
        if scope is None:
            return
        traces: Dict[str, int] = {}  # function -> its traces in this scope, at every call path
        at_site: Dict[Tuple[Site, str], int] = {}  # (site, function) -> its traces there, by any path
        for (site, _path, function), misses in scope.misses.items():
            traces[function] = traces.get(function, 0) + len(misses)
            at_site[(site, function)] = at_site.get((site, function), 0) + len(misses)
        for (site, _path, function), misses in scope.misses.items():
            reasons = misses[1:]
            if len(misses) < 2:
                # A call path that traces once, after another path traced the function, recompiled
                # it for a difference no data explains: the same values once keyword and once
                # positional (JAX403), or once weakly typed (JAX402); or, at the same call reached
                # from elsewhere, a new function object made at the same place (JAX401).
                rule = recompile_rule(misses[:1])
                avoidable = (rule in ("JAX402", "JAX403") and traces[function] > 1) or (rule == "JAX401" and at_site[(site, function)] > 1)
                if not avoidable:
                    continue
                reasons = misses[:1]
            code = recompile_rule(reasons)
            if code is None:  # JAX explained it in words no rule answers
                continue
            name = function.split(" defined at ")[0]
            last = next((r for r in reversed(reasons) if r and r != "fresh"), "")
            why = _reason_text(last) if last else "a new function object each time"
            times = f"{len(misses)} times at this call" if len(misses) > 1 else "again at this call"
            message = f"`{name}` was traced {times}: {why}"
            self._add(code, site, message, scope.name, count=len(reasons))
        for key, (exc, site) in scope.raised.items():
            if sites.traceback_site(exc.__traceback__, self.user) is None:
                continue  # built and caught inside a library (JAX tries ``__index__`` and falls back)
            code = error_rule(exc, site)
            if code is not None:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                message = f"JAX raised {type(exc).__name__} here" + (f": {first}" if first else "")
                on_purpose = sites.caught_on_purpose(site, [c.__name__ for c in type(exc).__mro__])
                self._add(code, site, message, scope.name, expected=key in scope.intentional or on_purpose)
        for function, site, message, expected in scope.effects:
            objects = scope.traced_objects.get(function, [])
            made_for_each_use = len(objects) > 1 and len({id(o) for o in objects}) == len(objects)
            if not made_for_each_use:
                self._add("JAX303", site, message, scope.name, expected=expected)
        self._scan_leaks(scope.name)

    def _add(self, code: str, site: Site, message: str, scope: str, count: int = 1, expected: bool = False) -> None:
        seen = self.seen.get((code, site))
        if seen is None:
            seen = self.seen[(code, site)] = Seen(code, site, message)
        seen.add(scope, count, expected)

    # -- what the hooks see -----------------------------------------------------------------

    def _on_miss(self, text: str, frame) -> None:
        if self._scope is None or not _top_level():
            return  # a function traced inside another's trace is traced again with it: not a call that recompiles
        parsed = parse_miss(text)
        site = sites.stack_site(frame, self.user)
        if parsed is None or site is None:
            return
        function, reason = parsed
        self._explained[function.split(" defined at ")[0]] = function
        if self._in_jit(frame):
            # (The body of a lax loop or a checkpoint run eagerly is traced at each call: that
            # is how eager control flow works, not a cache that misses.)
            key = (site, sites.call_path(frame, self.user), function)
            self._scope.misses.setdefault(key, []).append(reason)
        # (A lax loop run eagerly keeps its body's trace too, by the body's identity: an effect
        # in it runs once per trace as well.)
        call = sites.user_frame(frame, self.user)
        if call is not None:
            traced = effects.traced_function(frame, function)
            if traced is not None:
                self._scope.traced_objects.setdefault(function, []).append(traced)
            snapshot = effects.Snapshot(self.user, frame, traced)
            self._before_trace = (function, snapshot, call, call.f_lasti)

    def _on_stale(self, code: str, site: Site, message: str) -> None:
        if self._scope is not None:
            self._add(code, site, message, self._scope.name)

    def _on_event(self, event: str, duration: float, **kwargs) -> None:
        """After each trace of a jitted function called from host code (JAX explains the miss
        before tracing, and records this event when the trace is done): a tracer that the
        user's frames on the stack can reach now has escaped the trace."""
        if event != TRACE_DONE_EVENT or self._scope is None or not _top_level():
            return
        if self._before_trace is not None:
            (function, before, call, lasti), self._before_trace = self._before_trace, None
            # The trace that ends is the one that began at the user's call only while that call
            # is still running: a trace that failed left its state behind.
            if sites.running(call, lasti, sys._getframe(1)):
                self._report_effects(before, function)
        name = kwargs.get("fun_name", "")
        if name not in self._explained:
            # JAX traces its own primitives for eager dispatch, also while an eager transform
            # (vmap, grad) runs with live tracers in the user's frames: only a trace of the
            # user's own function, whose miss JAX explained, ends with the trace over.
            return
        self._scan_frames(sys._getframe(1), self._explained[name])

    def _scan_frames(self, frame, function: str) -> None:
        tracer = TRACER
        if tracer is None:
            return
        while frame is not None:
            code = frame.f_code
            if self.user.owns(code.co_filename) and code.co_name != "<module>":
                for name, value in list(frame.f_locals.items()):
                    path = effects.tracer_path(value, tracer)
                    if path is None or not self._new_leak(code.co_filename, name + path):
                        continue
                    site = effects.writer_site(name, path, [], effects.defined_at(function)) or frame_site(code, frame.f_lasti, frame.f_lineno)
                    if site is not None:
                        self._add("JAX303", site, _leak_message(name + path, f"`{function.split(' defined at ')[0]}` was traced"), self._scope.name)
            frame = frame.f_back

    def _report_effects(self, before: effects.Snapshot, function: str) -> None:
        """The user's state the trace of ``function`` changed: a tracer stored where it outlives
        the trace, or a write that runs once per compilation (both JAX303)."""
        tracer = TRACER
        name = function.split(" defined at ")[0]
        defined = effects.defined_at(function)
        callers = [f.f_code.co_filename for f in before.frames]
        reported: Set[Site] = set()
        for change, value in before.changes():
            inside = effects.tracer_path(value, tracer) if tracer is not None else None
            if inside is None and change.kind == "initialised":
                continue  # a cache filled, or a value set up lazily: a later trace makes the same
            files = ([defined[0]] if defined else []) + [change.filename] + callers
            site = effects.writer_site(change.root, change.path, files, defined, rebinding=change.kind in ("rebound", "initialised"), removed=change.kind == "record" and inside is None)
            if site is None:
                if not change.is_global:
                    continue  # a caller's variable written from code jaxlint cannot place
                site = effects.binding_site(change.filename, change.root)
            if site in reported:
                continue  # one write seen through two names (a cell and the frame that owns it)
            reported.add(site)
            if inside is not None:
                if self._new_leak(change.filename, change.shown + inside):
                    self._add("JAX303", site, _leak_message(change.shown + inside, f"`{name}` was traced"), self._scope.name)
                continue
            if change.kind == "rebound":
                message = (
                    f"`{change.shown}` was changed while `{name}` was traced: the write runs once per "
                    "compilation, and the calls that reuse the compiled program skip it"
                )
            else:
                message = f"`{change.shown}` was written while `{name}` was traced: the record is made once per compilation, not on each call"
            counted = change.path.lstrip(".").split("[", 1)[0].split(".", 1)[0] or change.root
            self._scope.effects.append((function, site, message, effects.asserted(counted, callers + [change.filename])))

    def _in_jit(self, frame) -> bool:
        """Whether the miss is a call of a jitted function, which compiles: JAX's call path of
        ``jit`` is on the stack between the miss and the user's call."""
        while frame is not None:
            filename = frame.f_code.co_filename
            if not os.path.realpath(filename).startswith(self._jax_dirs):
                if self.user.owns(filename):
                    return False
            elif (os.path.basename(filename), frame.f_code.co_name) == JIT_CALL:
                return True
            frame = frame.f_back
        return False

    def _on_error_built(self, exc: BaseException, frame) -> None:
        if self._scope is None:
            return
        site = sites.raise_site(frame, self.user, self._jax_dirs)
        if site is not None:
            self._scope.raised.setdefault(id(exc), (exc, site))

    def _scan_leaks(self, scope: str) -> None:
        """Tracers still held by the user's modules once the scope's traces are over."""
        tracer = TRACER
        if tracer is None:
            return
        for module in list(sys.modules.values()):
            filename = getattr(module, "__file__", None)
            if not isinstance(module, types.ModuleType) or not filename or not self.user.owns(filename):
                continue
            for name, value in list(vars(module).items()):
                path = None if name.startswith("__") else effects.tracer_path(value, tracer, all_over=True)
                if path is not None and self._new_leak(filename, name + path):
                    site = effects.writer_site(name, path, [filename], rebinding=not path) or effects.binding_site(filename, name)
                    self._add("JAX303", site, _leak_message(name + path, "its trace ended", "a traced function"), scope)

    def _new_leak(self, filename: str, shown: str) -> bool:
        """Whether the tracer held at ``shown`` in ``filename`` is not reported yet (now it is)."""
        if (filename, shown) in self._leaks_reported:
            return False
        self._leaks_reported.add((filename, shown))
        return True


def error_rule(exc: BaseException, site: Site) -> Optional[str]:
    """The rule that prevents ``exc`` raised at ``site``: among the rules whose ``prevents``
    record matches it, the one the syntax at the site names."""
    # A migration's error (an API that a JAX release removed) depends on the release, not on
    # how the code traces: the static analysis answers it.
    matching = [r for r in ALL_RULES if r.prevents.kind == "raises" and not r.prevents.depends_on and r.prevents.matches(exc)]
    # A rule that flags the line JAX raises at, before one that flags a declaration the error
    # comes from (a parameter annotated as an array fails where the function is called).
    at_mark = [r for r in matching if r.prevents.at == "mark"]
    candidates = [r.code for r in (at_mark or matching)]
    if not candidates:
        if type(exc).__name__ == "Exception" and "Leaked trace" in str(exc):
            return "JAX303"  # jax.checking_leaks's own error
        if type(exc).__name__ == "TraceContextError":
            return "JAX303"
        return None
    return sites.choose(candidates, sites.site_kinds(site))


def _leak_message(shown: str, after: str, inside: str = "the traced function") -> str:
    return f"`{shown}` holds a tracer after {after}: a value computed inside {inside} was stored outside it (UnexpectedTracerError when it is used)"


def _reason_text(reason: str) -> str:
    changed = _changed_metadata(reason)
    if changed:
        path, now, before = (re.sub(r" at 0x[0-9a-f]+", "", piece) for piece in changed[0])  # an address differs per run
        return f"a static value changed (at input path {path}: now {now}, before {before})"
    lines = [line.lstrip("* ").strip() for line in reason.splitlines() if line.strip()]
    lines = [re.sub(r"https?://\S+", "", line) for line in lines]
    head, detail = lines[0].rstrip(":"), "; ".join(lines[1:3])
    return f"{head} ({detail})" if detail else head


def _top_level() -> bool:
    """Whether no trace and no transformation is under way (JAX evaluates eagerly): a miss
    then is a call from host code that compiles, and a tracer the user's code holds has
    escaped its trace (an eager ``jax.grad`` has live tracers while it runs)."""
    if core is None:
        return True
    clean = getattr(core, "trace_state_clean", None)
    if clean is not None and not clean():
        return False
    context, eval_trace = getattr(core, "trace_ctx", None), getattr(core, "EvalTrace", None)
    if context is None or eval_trace is None:
        return True
    return isinstance(context.trace, eval_trace)


def _miss_logger() -> logging.Logger:
    return getattr(partial_eval, "logger", None) or logging.getLogger("jax")
