"""Code that runs only when a lookup found a memo without its entry, and fills that entry.

``if self._fn is None: self._fn = build()``, ``if key not in cache: cache[key] = jax.jit(f)``,
``if not _built: _built.append(make())``, ``if k in table: return table[k]`` before the code
that stores ``table[k]``: the guarded code runs once per entry, however often the function
around it runs, because what it does makes its own test fail the next time.  That is why a jit
built there is not rebuilt on every call, and why such a write, made while tracing, leaves the
state as a run on every call would: the second run would find the entry and do nothing.

Only a memo that outlives the function's run counts: an attribute, a name of an enclosing
scope, a parameter's object, or a local that holds one of those (``cache = getattr(self,
"_cache", None)``); a local ``cache = {}`` is made again on every call.
"""

from __future__ import annotations

from typing import Optional, Sequence, Set, Tuple

import libcst as cst

from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.nodes import is_none_literal
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS, Scope
from jaxlint.analysis.syntax.statement_paths import guards, scope_body, statement_path

# A place is a variable, or one attribute of it: ("self", "_fn"), ("cache", None).
Place = Tuple[str, Optional[str]]

# Methods that read an entry of a memo: ``cache.get(key)``.
_LOOKUPS = frozenset({"get", "setdefault"})


def memoised(m, node, scope: Scope, order: Optional[int] = None) -> bool:
    """Does ``node``, in the body of ``scope``, run only when a lookup of a lasting memo
    missed, with code on the same path that fills that memo with what ``node`` makes?
    ``order``: the place of ``node`` in ``scope`` when the question is about the iterations
    of the loop around it; a variable of the scope lasts from one iteration to the next
    (``if model is None: model = build()``) unless the loop binds it elsewhere too."""
    kept = _kept_across_iterations(scope, order)
    if not (kept or scope.kind == "function" and isinstance(scope.node, cst.FunctionDef)):
        return False
    body = scope_body(m.module, scope)
    found = guards(body, node, m.spans)
    if not found:
        return False
    carried = _results(body, node, m.spans)
    for test, runs_when, region in found:
        filled = {p for p in _stored_places(region, scope, node, carried, kept) if p[0] in kept or _lasting(p, scope)}
        if filled and (_tests_memo(test, runs_when, filled, scope) or _converts(test, runs_when, region, filled, scope)):
            return True
    return False


def _converts(test, runs_when: bool, region, filled: Set[Place], scope: Scope) -> bool:
    """``if isinstance(self._key, int): self._key = PRNGKey(self._key)``: a lazy conversion.
    The code replaces the value it tested with one made from it, of another type (else it would
    convert on every call), so the test that let it run fails from then on."""
    if not runs_when or not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance" and test.args):
        return False
    place = _place_of(test.args[0].value)
    return place is not None and place in filled and place in _stored_places(region, scope, test, {place})


def _tests_memo(test, runs_when: bool, filled: Set[Place], scope: Scope) -> bool:
    """Does the guarded code run only when the memo misses?  ``runs_when``: the outcome of
    ``test`` that lets it run.  Of ``A and B`` that must be true, one lookup of the memo is
    enough (the other only narrows it down); of ``A or B``, each must be one (``x is None or
    not x.fits(k)``), else the code also runs for the other's sake, on every call."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, runs_when = test.expression, not runs_when
    if isinstance(test, cst.BooleanOperation):
        parts = (_tests_memo(test.left, runs_when, filled, scope), _tests_memo(test.right, runs_when, filled, scope))
        narrows = isinstance(test.operator, cst.And) == runs_when
        return any(parts) if narrows else all(parts)
    if _missing_when(test) is not runs_when:
        return False
    return _meets(_tested_places(test, scope), filled)


def _missing_when(test) -> Optional[bool]:
    """The outcome of a lookup test that says the entry is missing: true for ``x is None`` and
    ``k not in cache``, false for ``x is not None``, ``k in cache``, ``key == cached_key``,
    ``built`` and ``x.fits(k)``; None for a test that is no lookup."""
    if isinstance(test, cst.Comparison):
        if len(test.comparisons) != 1:
            return None
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        none = is_none_literal(right)
        if isinstance(op, (cst.Is, cst.Equal)):
            return none
        if isinstance(op, (cst.IsNot, cst.NotEqual)):
            return not none
        if isinstance(op, (cst.In, cst.NotIn)):
            return isinstance(op, cst.NotIn)
        return None
    return False if isinstance(test, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else None


def _meets(read: Set[Place], written: Set[Place]) -> bool:
    """Does a read see a write: the same place, or an attribute of a variable written whole?"""
    return any(name == n and (attr == a or a is None) for name, attr in read for n, a in written)


def _tested_places(test, scope: Scope) -> Set[Place]:
    """The places a test reads, and those a local it reads was computed from
    (``hit = cache.get(k)``, then ``if hit is None``)."""
    places = _read_places(test)
    for name, attr in list(places):
        if attr is not None or name not in scope.bindings or name in scope.globals or name in scope.nonlocals:
            continue
        for b in scope.bindings[name]:
            if b.kind == "assign" and b.value is not None:
                places |= _read_places(b.value)
    return places


def _kept_across_iterations(scope: Scope, order: Optional[int]) -> Set[str]:
    """The variables the innermost loop around ``order`` binds once: what one iteration
    stores there, the next finds."""
    spans = [(a, b) for a, b in scope.loops if order is not None and a <= order <= b]
    if not spans:
        return set()
    start, end = max(spans)
    return {name for name, binds in scope.bindings.items() if sum(1 for b in binds if b.order is not None and start <= b.order <= end) == 1}


def _lasting(place: Place, scope: Scope) -> bool:
    name, _attr = place
    if name in scope.globals or name in scope.nonlocals or name not in scope.bindings:
        return True  # a name of an enclosing scope
    binds = scope.bindings[name]
    if any(b.kind == "param" for b in binds):
        return True  # the caller's object
    return any(b.kind == "assign" and _reads_stored(b.value) for b in binds)


def _reads_stored(value) -> bool:
    """``self._cache``, ``TABLES[k]``, ``getattr(self, "_cache", None)``, ``memo.get(k)``."""
    if isinstance(value, (cst.Attribute, cst.Subscript)):
        return True
    if isinstance(value, cst.Call):
        f = value.func
        return isinstance(f, cst.Name) and f.value == "getattr" or isinstance(f, cst.Attribute) and f.attr.value in _LOOKUPS
    return False


def _place_of(expr) -> Optional[Place]:
    """``x`` -> (x, None); ``x.a``, ``x.a.b``, ``x.a[k]`` -> (x, a); ``x[k]`` -> (x, None)."""
    attr = None
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        if isinstance(expr, cst.Attribute):
            attr = expr.attr.value
        else:
            attr = None if isinstance(expr.value, cst.Name) else attr
        expr = expr.value
    return (expr.value, attr) if isinstance(expr, cst.Name) else None


def _read_places(expr) -> Set[Place]:
    reader = _PlaceReads()
    reader.walk(expr)
    return reader.places


class _PlaceReads(FastVisitor):
    def __init__(self):
        self.places: Set[Place] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        place = _place_of(node)
        if place is not None:
            self.places.add(place)
            return False
        return True

    def visit_Name(self, node: cst.Name) -> None:
        self.places.add((node.value, None))

    def visit_Call(self, node: cst.Call) -> None:
        f = node.func
        args = node.args
        if isinstance(f, cst.Name) and f.value in ("getattr", "hasattr") and len(args) >= 2 and isinstance(args[1].value, cst.SimpleString):
            base = _place_of(args[0].value)
            if base is not None and base[1] is None:
                self.places.add((base[0], args[1].value.evaluated_value))


def _results(body, node, spans) -> Set[Place]:
    """The places that hold what ``node`` makes: a def's name, or what its statement assigns
    (``jit_step = jax.jit(step)``, ``self.palette, key = build()``)."""
    if isinstance(node, cst.FunctionDef):
        return {(node.name.value, None)}
    path = statement_path(body, node, spans)
    out: Set[Place] = set()
    if path is not None and isinstance(path[-1][0], cst.SimpleStatementLine):
        for small in path[-1][0].body:
            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                for t in targets:
                    out |= _target_places(t)
    return out


def _target_places(target) -> Set[Place]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return {p for el in target.elements for p in _target_places(el.value)}
    if isinstance(target, cst.StarredElement):
        return _target_places(target.value)
    place = _place_of(target)
    return {place} if place is not None else set()


def _stored_places(region: Sequence[cst.CSTNode], scope: Scope, node, carried: Set[Place], kept: Set[str] = frozenset()) -> Set[Place]:
    """The places the region fills with what ``node`` makes (the value holds ``node`` or reads
    a place in ``carried``): a flag set or a counter bumped is no entry of a memo.  ``kept``:
    variables of the scope that outlive the run asked about, as its globals do."""
    stores = _PlaceStores(scope.globals | scope.nonlocals | kept, node, carried)
    for st in region:
        stores.walk(st)
    return stores.places


class _PlaceStores(FastVisitor):
    """The places a block stores into: an attribute or item assigned, a mutating method called,
    a ``global``/``nonlocal`` name rebound (a local's rebinding dies with the call)."""

    def __init__(self, declared: Set[str], node, carried: Set[Place]):
        self.places: Set[Place] = set()
        self._declared = declared
        self._node = node
        self._carried = carried
        self._line = None

    def visit_SimpleStatementLine(self, node) -> None:
        self._line = node

    def _carries(self, value) -> bool:
        finder = _Carrier(self._node)
        finder.walk(value)
        return finder.found or _meets(_read_places(value), self._carried)

    def visit_FunctionDef(self, node) -> bool:
        return False  # runs when called, not here

    def visit_Lambda(self, node) -> bool:
        return False

    def _target(self, target) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._target(el.value)
            return
        if isinstance(target, cst.Name):
            if target.value in self._declared:
                self.places.add((target.value, None))
            return
        place = _place_of(target)
        if place is not None:
            self.places.add(place)

    def visit_Assign(self, node: cst.Assign) -> None:
        if self._node in (node, self._line) or self._carries(node.value):  # (the guarded statement is the store)
            for t in node.targets:
                self._target(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None and self._carries(node.value):
            self._target(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        f = node.func
        if isinstance(f, cst.Attribute) and f.attr.value in MUTATING_METHODS and any(self._carries(a.value) for a in node.args):
            place = _place_of(f.value)
            if place is not None:
                self.places.add(place)


class _Carrier(FastVisitor):
    def __init__(self, node):
        self.node = node
        self.found = False

    def visit_Call(self, node: cst.Call) -> bool:
        if node is self.node:
            self.found = True
        return not self.found
