"""Repetitions of a function that would hit the cache of one jit made outside them.

A callable jitted anew on every run of a function compiles on every run.  That is a needless
compilation only when a jit made once, outside the repetition, would hit its cache: when the
runs trace the same program.  JAX keys that cache on the function object, the static values and
the shapes and dtypes of the arguments; what a closure captures is baked into the program it
traces.  So a run that hands the function a new value for what the jitted callable captures
(a new configuration, a new data set with its own shapes) traces a new program whatever is
hoisted, and is not counted here.

``same_program_repetition(m, func, nodes)`` answers the call that makes ``func`` run again and
again (as ``fresh_callables.runs_repeatedly``) along a path whose calls pass, for the
parameters the callable ``nodes`` depend on, the same values on every run: a loop whose
variables none of them read (the element of a JAX array a loop walks is data, which a hoisted
jit takes as an argument), or two calls in one block (what they pass is not compared: text
does not tell data of one shape from a new configuration).  A parameter the
callable does not depend on may change freely: it does not reach the traced program.  Where a
star argument hides which parameter gets what, every argument is taken to reach it."""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Set

import libcst as cst

from jaxlint.analysis.facts.fresh_callables import reads_loop_variables, second_call_in_a_block, walks_data
from jaxlint.analysis.syntax.memo_guards import memoised
from jaxlint.analysis.host.host_shapes import may_follow
from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in
from jaxlint.analysis.syntax.functions import free_names
from jaxlint.analysis.syntax.nodes import literal_value, parameter_names, target_names
from jaxlint.analysis.syntax.statement_paths import guards, scope_body, statement_path

# How many callers up a dependence is followed before the answer is "unknown" (no finding).
MAX_CALLER_DEPTH = 6


def same_program_repetition(m, func, nodes, stored_in: FrozenSet[str] = frozenset()) -> Optional[cst.Call]:
    """The call that makes ``func`` run again and again with the same values for what the
    callable ``nodes`` (written in ``func``'s body) capture, or None.  ``stored_in``: the
    attributes the callable is stored in; a call made only when a test reads one of them
    (``if self.step is None or ...: self.initialize()``) runs when that test asks for a new
    one, which is not known to be every time."""
    params = dependent_parameters(m, func, nodes)
    memo = m.__dict__.setdefault("_same_program_repetitions", {})
    return _search(m, func, params, memo, 0, stored_in)


def dependent_parameters(m, func, nodes) -> FrozenSet[str]:
    """The parameters of ``func`` whose values reach what ``nodes`` read: directly, or through
    the local variables and nested functions of ``func`` that are built from them."""
    sources = _local_sources(m, func)
    own = set(parameter_names(func.params))
    todo = set()
    for node in nodes:
        todo |= free_names(m.index, node)
    seen: Set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo |= sources.get(name, set()) - seen
    return frozenset(seen & own)


def _search(m, func, params: FrozenSet[str], memo: Dict, depth: int, stored_in: FrozenSet[str]) -> Optional[cst.Call]:
    key = (id(func.node), params, stored_in)
    if key in memo:
        return memo[key]
    memo[key] = None  # a cycle of calls answers "no" (until shown otherwise)
    if depth > MAX_CALLER_DEPTH:
        return None
    sites = []
    seen = set()
    for call, scope, target in m.finder.call_targets.callers(func):
        order = m.call_sites.order(call)
        if id(call) in seen or order is None or memoised(m, call, scope, order) or _tests_stored(m, call, scope, stored_in):
            continue  # a call that fills a memo runs once per entry of the memo
        seen.add(id(call))
        sites.append((call, scope, order, _passed(m, target, call, scope, params)))
    out = None
    for call, scope, order, passed in sites:
        loops = [(a, b) for a, b in scope.loops if a <= order <= b]
        if loops:
            # every iteration passes the same program, or it traces a new program each time
            if not _changes_program(m, passed, call, scope, order, loops):
                out = call
                break
            continue
        caller = scope.func if scope.kind == "function" else None
        if caller is not None and caller is not func:
            out = _search(m, caller, dependent_parameters(m, caller, passed), memo, depth + 1, stored_in)
            if out is not None:
                break
    if out is None:
        # Two calls in one block: both run when the block does.  What they pass is not
        # compared (two expressions may differ as data of one shape, or as configuration, and
        # text does not tell which); a loop's variables are what this module can follow.
        out = second_call_in_a_block(m, [(call, scope, order) for call, scope, order, _passed in sites])
    memo[key] = out
    return out


def _tests_stored(m, call, scope, stored_in) -> bool:
    """Is ``call`` made only when an ``if`` test reads one of the attributes ``stored_in``?"""
    if not stored_in:
        return False
    for test, _runs_when, _region in guards(scope_body(m.module, scope), call, m.spans):
        if _reads_attribute(test, stored_in):
            return True
    return False


def _reads_attribute(node, attributes) -> bool:
    walk = _AttributeReads(attributes)
    walk.walk(node)
    return walk.found


class _AttributeReads(FastVisitor):
    def __init__(self, attributes):
        self.attributes = attributes
        self.found = False

    def visit_Attribute(self, node) -> None:
        if node.attr.value in self.attributes:
            self.found = True


def _changes_program(m, passed, call, scope, order, loops) -> bool:
    """Does every loop around ``call`` pass, in ``passed``, a new configuration from one of its
    iterations to the next?  A loop whose iterations pass the same one, or only new data (a
    JAX array of a shape the loop does not change, a float: what a hoisted jit takes as an
    argument), repeats one program; so does an outer loop around an inner one that walks the
    same configurations on each of its iterations."""
    path = statement_path(scope_body(m.module, scope), call, m.spans)
    statement_loops = [st for st, _part in path or () if isinstance(st, (cst.For, cst.While))]
    if path is None or len(statement_loops) != len(loops):
        # a comprehension around the call: what changes is what it binds
        return reads_loop_variables(m, passed, scope, loops[-1])
    for loop in reversed(statement_loops):
        config = _configuration_names(m, loop, scope, order)
        if not any(_reads_configuration(m, p, config, scope, order) for p in passed):
            return False
    return True


def _configuration_names(m, loop, scope, order) -> Set[str]:
    """The names bound in ``loop`` whose values change from one of its iterations to the next
    as a Python configuration (anything but data: a JAX array of a fixed shape, a float)."""
    walk = _Sources(m, entries=True)
    walk.walk(loop.body)
    entries = walk.entries
    if isinstance(loop, cst.For):
        changing = set(target_names(loop.target))
        for name in changing:
            entries.setdefault(name, []).append(("for", loop.iter, frozenset()))
    else:
        changing = set(entries)  # a while loop: what its body rebinds
    grown = True
    while grown:
        grown = False
        for name, values in entries.items():
            if name not in changing and any(value is None or (names_in(value) | control) & changing for _kind, value, control in values):
                changing.add(name)
                grown = True
    config = set(changing)
    shrunk = True
    while shrunk:
        shrunk = False
        for name in sorted(config):
            if all(not control & config and _data_valued(m, kind, value, config, scope, order) for kind, value, control in entries.get(name, [("unknown", None, frozenset())])):
                config.discard(name)
                shrunk = True
    return config


def _data_valued(m, kind, value, config, scope, order) -> bool:
    """Is what ``value`` gives a name (its elements, for a ``for`` target) data rather than
    configuration, given the names ``config`` that are configuration?"""
    if value is None:
        return False
    if kind == "for":
        # the elements of a JAX array (rows of one shape), or of a literal sequence of floats
        return walks_data(m, value, scope) and not may_follow(value, config, scope, order, 0)
    if m.host_values.is_array(value, scope) and not may_follow(value, config, scope, order, 0):
        return True  # also its parts (``key_a, key_b = jax.random.split(key)``)
    if kind == "part":
        return not (names_in(value) & config)
    return type(literal_value(value)) is float or not (names_in(value) & config)


def _reads_configuration(m, expr, config, scope, order) -> bool:
    if m.host_values.is_array(expr, scope) and not may_follow(expr, config, scope, order, 0):
        return False  # data: a hoisted jit takes it as an argument
    return bool(names_in(expr) & config)


def _passed(m, target, call, scope, params):
    """The expressions ``call`` passes for ``params`` (every argument, and the receiver, when a
    star argument hides which parameter gets what)."""
    bound = m.finder.call_targets.bind(target, call, scope) if target is not None else None
    if bound is None:
        out = [a.value for a in call.args]
        if isinstance(call.func, cst.Attribute):
            out.append(call.func.value)
        return tuple(out)
    # a value bound ahead of the call (a partial's argument) is not the call's to vary
    out = [bound[p].expr for p in sorted(params) if p in bound and bound[p].expr is not None and bound[p].scope is scope]
    if "self" in params and isinstance(call.func, cst.Attribute):
        out.append(call.func.value)  # the receiver lands on ``self``
    return tuple(out)


def _local_sources(m, func) -> Dict[str, Set[str]]:
    """{local name: the names its values are computed from} over the body of ``func``: each
    assignment, ``for`` target, ``with`` target and nested ``def`` (which reads its free
    names when it is called).  Memoised per function."""
    memo = m.__dict__.setdefault("_local_sources", {})
    key = id(func.node)
    if key not in memo:
        walk = _Sources(m)
        walk.walk(func.node.body)
        memo[key] = walk.sources
    return memo[key]


class _Sources(FastVisitor):
    """Each name a body binds, with the names its values read (``sources``) and, asked for,
    the values themselves, as (kind, expression): ``("for", iterable)`` for a loop target,
    ``("assign", None)`` where the value is not one expression."""

    def __init__(self, m, entries: bool = False):
        self.m = m
        self.sources: Dict[str, Set[str]] = {}
        self.entries: Dict[str, list] = {} if entries else None
        # the names the tests of the ``if`` / ``while`` statements around read: which value
        # a name gets depends on them too
        self._tests: list = []

    def _add(self, target, value, kind="assign") -> None:
        control = set().union(*self._tests) if self._tests else set()
        read = (names_in(value) if value is not None else set()) | control
        names = target_names(target)
        for name in names:
            self.sources.setdefault(name, set()).update(read)
            if self.entries is not None:
                # ``a, b = f()``: each name gets a part of the value
                self.entries.setdefault(name, []).append((kind if len(names) == 1 or kind == "for" else "part", value, frozenset(control)))

    def visit_If(self, node) -> None:
        self._tests.append(names_in(node.test))

    def leave_If(self, node) -> None:
        self._tests.pop()

    def visit_While(self, node) -> None:
        self._tests.append(names_in(node.test))

    def leave_While(self, node) -> None:
        self._tests.pop()

    def visit_Assign(self, node) -> None:
        for t in node.targets:
            self._add(t.target, node.value)

    def visit_AnnAssign(self, node) -> None:
        if node.value is not None:
            self._add(node.target, node.value)

    def visit_AugAssign(self, node) -> None:
        self._add(node.target, cst.BinaryOperation(node.target, cst.Add(), node.value) if isinstance(node.target, cst.Name) else node.value)

    def visit_NamedExpr(self, node) -> None:
        self._add(node.target, node.value)

    def visit_For(self, node) -> None:
        self._add(node.target, node.iter, "for")

    def visit_WithItem(self, node) -> None:
        if node.asname is not None:
            self._add(node.asname.name, node.item)

    def visit_FunctionDef(self, node) -> bool:
        # a nested def reads, when called, what its body and its defaults read
        self.sources.setdefault(node.name.value, set()).update(free_names(self.m.index, node))
        if self.entries is not None:
            self.entries.setdefault(node.name.value, []).append(("def", node, frozenset()))
        return False

    def visit_ClassDef(self, node) -> bool:
        self.sources.setdefault(node.name.value, set()).update(names_in(node))
        return False
