"""Is a global or closure variable rebound or mutated after a jitted function could have read it?

A jitted function reads its globals once, at trace time; a later write is never seen by the
compiled function.  The answer depends on where the module calls its traced functions, so it
is computed per module and memoised per (scope, name, attribute).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.facts.call_sites import CallSites
from jaxlint.analysis.facts.fresh_callables import runs_repeatedly
from jaxlint.analysis.syntax.fast_walk import node_children
from jaxlint.analysis.syntax.scopes import VALUE_KINDS, Scope
from jaxlint.analysis.model.transform_table import PASS_THROUGH, TRANSFORMS
from jaxlint.analysis.model.transforms import TransformFinder
from jaxlint.analysis.model.names import PARTIAL, resolve


class TracedCallables:
    """Which calls, made in a scope, run a cached (jitted) traced function."""

    def __init__(self, finder: TransformFinder, call_sites: CallSites):
        self.finder = finder
        self.reach: Dict[int, bool] = {}
        self._orders: Dict[int, list] = {}
        self.call_sites = call_sites

    def cached_def(self, f) -> bool:
        return any(a.transform.replays for a in self.finder.by_func.get(id(f.node), ()))

    def runs_traced(self, func_expr, scope: Scope, depth: int = 0) -> bool:
        """Does the call whose callee is ``func_expr`` run a cached traced function, or a
        function that calls one (to a bounded depth)?  Whatever the call-target resolver
        reaches counts: a name, a method through ``self`` or an instance, an instance's
        ``__call__``, a bound method kept in a name, a closure a factory returned, a partial,
        an attribute set to a jitted function in ``__init__``."""
        call = self.call_sites.call_of(func_expr)
        t = self.finder.call_targets.target(call, scope) if call is not None else None
        if t is None:
            return False
        if t.app is not None:
            return t.app.transform.replays
        return self.cached_def(t.func) or (depth < 4 and self.reaches(t.func, depth + 1))

    def reaches(self, f, depth: int) -> bool:
        key = id(f.node)
        if key in self.reach:
            return self.reach[key]
        self.reach[key] = False  # recursion guard
        body = f.body_scope
        r = body is not None and any(self.runs_traced(fx, body, depth) for fx, _ in body.calls)
        self.reach[key] = r
        return r

    def call_orders(self, scope: Scope):
        orders = self._orders.get(id(scope))
        if orders is None:
            orders = self._orders[id(scope)] = [o for fx, o in scope.calls if self.runs_traced(fx, scope)]
        return orders


class Rebinding:
    """The module's answers, memoised.

    A write made by the body of another function W happens when W runs, so it can make a
    compiled function stale only if W can run after a traced (cached) callable was first
    called: a point of host code "can follow a trace" when, in its own scope, a call that runs
    a traced callable comes before it or shares a loop with it; when its scope is a function
    that runs a traced callable itself and runs more than once (its second run follows the
    first one's trace); or when some call of that function, found in the module, is such a
    point (followed through callers to a bounded depth).  A call made in the body of a jitted
    function runs only while that function is traced, so it is no such point: module state
    written only by code that runs while tracing is not changed "elsewhere".  A function that
    nothing in the module calls is an entry point whose callers are not visible: whether its
    writes follow a trace is unknown, and an unknown answer is no finding.
    """

    MAX_CALLER_DEPTH = 4

    def __init__(self, module):
        """``module``: the module's analysis (its index, transform finder and call sites)."""
        self.module = module
        self.traced_callables = TracedCallables(module.finder, module.call_sites)
        self._answers: Dict[Tuple[int, str, Optional[str], int], bool] = {}
        self._parent_maps: Dict[int, Dict[int, cst.CSTNode]] = {}
        self._name_maps: Dict[int, Dict[str, List[cst.Name]]] = {}
        self._local_uses: Dict[Tuple[int, int], Optional[Tuple[int, List[int]]]] = {}
        # Keyed with the depth too: an answer cut short at the depth bound is no answer for a
        # shallower question.
        self._follows: Dict[Tuple[int, int, int], bool] = {}

    # -- where functions are called -------------------------------------------------------
    def call_sites(self, func) -> List[Tuple[Scope, int]]:
        """(scope, order) of every call of ``func`` the call-target resolver finds in the module
        (by name, through a method, an instance, a closure or a partial)."""
        sites = self.traced_callables.call_sites.sites
        found = {id(call): sites[id(call)] for call, _scope, _t in self.traced_callables.finder.call_targets.callers(func) if id(call) in sites}
        return list(found.values())

    def runs_repeatedly(self, scope: Scope) -> bool:
        """Can the body of function ``scope`` run more than once?  True when nothing in the
        module calls it (its callers are outside), when it is called from two places, or when
        its one call runs repeatedly (``fresh_callables.runs_repeatedly``)."""
        if scope.kind != "function" or scope.func is None:
            return False
        sites = self.call_sites(scope.func)
        return len(sites) != 1 or runs_repeatedly(self.module, scope.func) is not None

    def can_follow_trace(self, scope: Scope, order: int, depth: int = 0) -> bool:
        """Can the host statement at ``order`` of ``scope`` run after a traced callable ran?"""
        key = (id(scope), order, depth)
        if key in self._follows:
            return self._follows[key]
        self._follows[key] = False  # recursion guard
        if scope.kind == "function" and scope.func is not None and self.traced_callables.cached_def(scope.func):
            # The body of a jitted function runs only while it is traced: a write there, or in a
            # helper only it calls, happens inside a trace, not on the host between two calls.
            return False
        calls = self.traced_callables.call_orders(scope)
        result = any(c < order for c in calls) or any(
            start <= order <= end and any(start <= c <= end for c in calls) for start, end in scope.loops
        )
        # A class body runs once, when the class is defined: only its own statements count.
        if not result and scope.kind == "function" and scope.func is not None:
            result = bool(calls) and self.runs_repeatedly(scope)
            if not result and depth < self.MAX_CALLER_DEPTH:
                result = any(self.can_follow_trace(s, o, depth + 1) for s, o in self.call_sites(scope.func))
        self._follows[key] = result
        return result

    # -- the uses of a local jitted function ----------------------------------------------
    def local_uses(self, reader, owner: Scope) -> Optional[Tuple[int, List[int]]]:
        """(creation order, call orders) of a jitted function that ``owner`` creates afresh each
        time it runs and that is only ever called there; None when it may be called from
        anywhere else.

        ``reader`` qualifies when it is a nested ``def`` or lambda of the function ``owner``:
        every run of ``owner`` makes a new function object, and JAX keys its trace cache on that
        object, so nothing compiled in one run is replayed in the next.  Its compiled form must
        not escape either: the name is only called (``@jax.jit def step``; or a method of it
        called, ``step.lower(x)``), or handed straight
        to a transform whose result is called on the spot (``jax.jit(jax.vmap(step))(x)``) or
        bound to a local name that is only called.  Returned, stored, passed on or called from
        a nested function, it may be called after anything.

        A module-level jitted function never qualifies: an importer can call it after the
        module has rebound what it reads."""
        key = (id(reader), id(owner))
        if key not in self._local_uses:
            self._local_uses[key] = self._find_local_uses(reader, owner)
        return self._local_uses[key]

    def _find_local_uses(self, reader, owner: Scope) -> Optional[Tuple[int, List[int]]]:
        # (An entry point of another file, in the cross-module phase, has no scope here.)
        if reader is None or owner.kind != "function" or getattr(reader, "scope", None) is not owner:
            return None
        if not self.traced_callables.cached_def(reader):
            return None
        sites = self.traced_callables.call_sites.sites
        parents = self._parents(owner)
        if reader.is_lambda:
            outer = self._transform_chain(reader.node, parents, owner)
            if outer is None:
                return None
            site = sites.get(id(outer))
            return (site[1], self._chain_calls(outer, parents, owner, sites)) if site is not None else None
        if owner.sole_def(reader.name) is None:
            return None  # the name is rebound: which function a use reaches is not clear
        orders: List[int] = []
        for node in self._names(owner).get(reader.name, ()):
            if node is reader.node.name:
                continue
            parent = parents.get(id(node))
            if isinstance(parent, cst.Attribute) and parent.value is node:
                # a method of the compiled function (``step.lower(x)``, ``step._cache_size()``):
                # it traces at most, with what is there at that point; the function stays here
                parent = parents.get(id(parent))
                if not (isinstance(parent, cst.Call) and isinstance(parent.func, cst.Attribute) and parent.func.value is node):
                    return None
            if isinstance(parent, cst.Call) and (parent.func is node or isinstance(parent.func, cst.Attribute)):
                site = sites.get(id(parent))
                if site is None or site[0] is not owner:
                    return None
                orders.append(site[1])
                continue
            outer = self._transform_chain(node, parents, owner)
            calls = self._chain_calls(outer, parents, owner, sites) if outer is not None else None
            if calls is None:
                return None
            orders.extend(calls)
        return owner.bindings[reader.name][0].order, orders

    def _parents(self, owner: Scope) -> Dict[int, cst.CSTNode]:
        """Each node's parent in ``owner``'s body (one walk, which also indexes its names)."""
        parents = self._parent_maps.get(id(owner))
        if parents is None:
            parents = self._parent_maps[id(owner)] = {}
            names: Dict[str, List[cst.Name]] = {}
            self._name_maps[id(owner)] = names
            stack = [owner.node.body]
            while stack:
                node = stack.pop()
                if isinstance(node, cst.Name):
                    names.setdefault(node.value, []).append(node)
                    continue
                for c in node_children(node):
                    parents[id(c)] = node
                    stack.append(c)
        return parents

    def _names(self, owner: Scope) -> Dict[str, List[cst.Name]]:
        """Every Name node in ``owner``'s body, by its identifier."""
        self._parents(owner)
        return self._name_maps[id(owner)]

    def _transform_chain(self, node, parents, owner: Scope) -> Optional[cst.Call]:
        """The outermost call of ``jax.jit(jax.vmap(node), ...)``-like wrapping of ``node`` (the
        function as the first positional argument of each transform), or None when ``node`` is
        used any other way."""
        outer = None
        while True:
            arg = parents.get(id(node))
            call = parents.get(id(arg)) if isinstance(arg, cst.Arg) else None
            if not isinstance(call, cst.Call) or not call.args or call.args[0] is not arg or arg.keyword is not None or arg.star:
                return outer
            q = resolve(call.func, owner)
            if q not in TRANSFORMS and q not in PASS_THROUGH and q not in PARTIAL:
                return outer
            outer = node = call

    def _chain_calls(self, outer: cst.Call, parents, owner: Scope, sites) -> Optional[List[int]]:
        """The orders at which the callable built by ``outer`` is called: on the spot, or through
        a local name that is only called in ``owner``; None when it escapes."""
        parent = parents.get(id(outer))
        if isinstance(parent, cst.Call) and parent.func is outer:
            site = sites.get(id(parent))
            return [site[1]] if site is not None and site[0] is owner else None
        if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
            return None
        name = parent.targets[0].target.value
        if owner.only_binding(name) is None or name in owner.nonlocals or name in owner.globals:
            return None
        orders: List[int] = []
        stack = node_children(owner.node.body)
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Name):
                if node.value == name and node is not parent.targets[0].target:
                    call = parents.get(id(node))
                    site = sites.get(id(call)) if isinstance(call, cst.Call) and call.func is node else None
                    if site is None or site[0] is not owner:
                        return None
                    orders.append(site[1])
                continue
            stack.extend(node_children(node))
        return orders

    # -- the question the rule asks ---------------------------------------------------------
    def is_rebound(self, owner: Scope, name: str, attr: Optional[str] = None, reader=None) -> bool:
        """Is ``name`` (bound in ``owner``) rebound or mutated after a traced function could have run?

        ``attr``: the read is ``name.attr``; then setting another attribute (``FLAGS.verbose = 1``)
        does not change what was read.  ``reader``: the traced function that reads it; a
        rebinding after its last use cannot change what it computes."""
        key = (id(owner), name, attr, id(reader))
        if key in self._answers:
            return self._answers[key]
        host_change = self._host_change(owner, name, attr)
        settled = self.settled_before(reader, owner)
        every = [b.order for b in owner.value_bindings(name) if b.order is not None]
        binds = [o for o in every if not settled(o)]
        muts = [
            o for o, kind, where in owner.mutations.get(name, [])
            if o is not None and host_change(kind, where) and not settled(o)
        ]
        remote = [
            (where, o)
            for where, o, kind in owner.remote_writes.get(name, [])
            if kind in ("global", "nonlocal") or host_change(kind, where)
        ]
        result = any(self.can_follow_trace(where, o) for where, o in remote)
        if not result:
            writes = sorted(binds + muts)
            # A parameter's value comes with the call, and a value settled before the function
            # exists is its initial value: every later assignment is a rebinding.
            created = self.created_at(reader, owner)
            initial = created is not None and any(settled(o) and owner.can_follow(o, created) for o in every)
            rebinds_all = bool(writes) and (
                bool(muts) or initial or any(b.kind == "param" for b in owner.bindings.get(name, ()))
            )
            uses = self.local_uses(reader, owner) if writes else None
            if uses is not None:
                result = _stale_between_uses(owner, writes, *uses)
            elif len(writes) > 1 or rebinds_all and writes:
                result = self._written_after_a_call(owner, writes, rebinds_all)
        self._answers[key] = result
        return result

    def _host_change(self, owner: Scope, name: str, attr: Optional[str]):
        """A test of a mutation of ``name`` (bound in ``owner``) by its kind and the scope that
        makes it: does it change what a read of ``name`` (of ``name.attr``, given ``attr``)
        sees, made on the host?"""
        containers = self.module.host_values.only_containers(owner, name)
        finder = self.traced_callables.finder

        def changes_read(kind: str, where: Scope) -> bool:
            if not (kind == "store" or kind.startswith("attr:") and attr in (None, kind[5:]) or kind == "method" and containers):
                return False
            # Mutations made inside traced functions are JAX303's business, not a rebinding
            # between calls; unless the function also runs as plain Python on the host.
            return not (where.func is not None and finder.is_traced_def(where.func) and not self.runs_eagerly(where.func))

        return changes_read

    def settled_before(self, reader, owner: Scope):
        """A test of a write's order in ``owner``: can it not run after ``reader``'s compiled
        function exists?  Then it cannot make that function stale: JAX traces a function when
        it is called, so every trace reads what was written before.  Each run of ``owner``
        makes the function anew (its ``def``, or the ``def`` of the function around it that
        ``owner`` defines) and JAX caches by function object; a jit applied by call
        (``jax.jit(hess)``) has no cache before that call runs.  A write that cannot follow
        that point in the body's flow (it comes before, outside any loop that also makes the
        function, or in another branch, or after a ``return`` that every path takes) is
        settled: a default filled in, a setup loop, a branch that returned its own closure."""
        created = self.created_at(reader, owner)
        if created is None:
            return _never
        return lambda order: order is not None and not owner.can_follow(created, order)

    def created_at(self, reader, owner: Scope) -> Optional[int]:
        """The order in ``owner`` from which ``reader``'s compiled function can exist: where
        ``owner`` makes it (or the function of ``owner`` that holds it), or the earliest of its
        jits by call there when all of them are; None when ``owner`` is not where it is made."""
        # (An entry point of another file, in the cross-module phase, has no scope here.)
        if getattr(reader, "scope", None) is None:
            return None
        outer = reader
        while outer.scope is not owner:
            outer = outer.scope.func if outer.scope.kind == "function" else None
            if outer is None or outer.scope is None:
                return None
        created = outer.order
        if outer is reader:
            sites = self.traced_callables.call_sites.sites
            apps = [a for a in self.traced_callables.finder.by_func.get(id(reader.node), ()) if a.transform.replays]
            jits = [sites.get(id(a.site)) for a in apps if isinstance(a.site, cst.Call)]
            if apps and len(jits) == len(apps) and all(j is not None and j[0] is owner for j in jits):
                created = max(created, min(j[1] for j in jits))
        return created

    def runs_eagerly(self, func) -> bool:
        """Is the traced function ``func`` also called as the plain function, from host code?
        Applied by call (``jax.eval_shape(init, ...)``) and never rebound, its name still
        names the plain function: ``init(key)`` in a function that is not itself traced (or at
        module level) runs it eagerly, and what it writes there is a host write."""
        if func.is_lambda or func.scope is None:
            return False
        apps = self.traced_callables.finder.by_func.get(id(func.node), ())
        if any(isinstance(a.site, cst.Decorator) for a in apps):
            return False
        if func.scope.sole_def(func.name) is None:
            return False  # ``f = jax.jit(f)``: the name may be the transformed function
        finder = self.traced_callables.finder
        return any(
            site.func is None or not finder.is_traced_def(site.func) for site, _order in self.call_sites(func)
        )

    def changes(self, owner: Scope, name: str, attr: Optional[str] = None, reader=None) -> List[Tuple[cst.CSTNode, str]]:
        """The writes that make ``is_rebound`` true, in source order: (the node that writes,
        its kind: a binding kind of VALUE_KINDS, or the mutation kind "method", "store",
        "attr:NAME").  Each is judged
        as ``is_rebound`` judges them all together: the initial value is no change, and a write
        counts only when it can follow a trace of ``reader``."""
        tc = self.traced_callables
        host_change = self._host_change(owner, name, attr)
        settled = self.settled_before(reader, owner)
        binds = [b.order for b in owner.value_bindings(name) if b.order is not None]
        mutated = any(
            o is not None and host_change(kind, where) and not settled(o)
            for o, kind, where in owner.mutations.get(name, [])
        )
        rebinds_all = mutated or any(b.kind == "param" for b in owner.bindings.get(name, ()))
        initial = min(binds) if binds else None
        uses = self.local_uses(reader, owner) if binds or mutated else None
        calls = tc.call_orders(owner)
        out: List[Tuple[cst.CSTNode, str]] = []
        for node, where, order, kind in owner.writes.get(name, ()):
            rebinds = kind in VALUE_KINDS
            if where is not owner:
                if (kind in ("global", "nonlocal") or host_change(kind, where)) and self.can_follow_trace(where, order):
                    out.append((node, kind))
                continue
            if not rebinds and not host_change(kind, where):
                continue
            if settled(order):
                continue
            if uses is not None:
                counts = _stale_between_uses(owner, [order], *uses)
            else:
                counts = any(owner.can_follow(c, order) for c in calls) and (
                    rebinds_all or order != initial or _share_loop(owner, order, calls)
                )
            if counts:
                out.append((node, kind))
        return out

    def _written_after_a_call(self, owner: Scope, writes: List[int], mutated: bool) -> bool:
        """Can a write of ``owner`` come after a traced call made there?  (The first binding is
        the initial value, unless the name is also mutated in place.)"""
        calls = self.traced_callables.call_orders(owner)
        first_write = writes[0]
        return any(
            any(owner.can_follow(c, w) for c in calls) and (mutated or w != first_write or _share_loop(owner, w, calls))
            for w in writes
        )

    def witness(self, owner: Scope, name: str):
        """The value of a rebinding that is not the first assignment (the place a reader should
        look at), when the scope facts hold one; None when only mutations change the name."""
        binds = owner.value_bindings(name)
        ordered = sorted(binds, key=lambda b: (b.order is None, b.order if b.order is not None else 0))
        for b in ordered[1:] if len(ordered) > 1 else [b for b in ordered if b.order is None]:
            if b.value is not None:
                return b.value
        return None


def _never(order) -> bool:
    return False


def _stale_between_uses(owner: Scope, writes: List[int], created: int, uses: List[int]) -> bool:
    """Does a write fall between two calls of one compiled function, created at ``created``?
    Either after a call it can follow and before one it can reach, in the order of the code, or
    in a loop that also calls it but does not create it anew (a loop that does gives each
    iteration its own trace)."""
    if not uses:
        return False
    for w in writes:
        if any(u < w and owner.can_follow(u, w) for u in uses) and any(w < u and owner.can_follow(w, u) for u in uses):
            return True
        for start, end in owner.loops:
            if start <= w <= end and not start <= created <= end and any(start <= u <= end for u in uses):
                return True
    return False


def _share_loop(scope: Scope, order: int, others: List[int]) -> bool:
    return any(start <= order <= end and any(start <= o <= end for o in others) for start, end in scope.loops)


def use_before_stale_use(scope: Scope, uses: List[int], change: int, resets: List[int]) -> Optional[int]:
    """For a value used at ``uses`` (orders in ``scope``) and changed in place at ``change``: the
    order of a use that precedes the change and is followed by another use of the same value,
    so that the change happens between two uses; None when there is none.

    ``resets``: orders where the variable is bound to a new value, which ends the old one's
    uses.  In a loop, a change and a use in the same body meet again on the next iteration,
    unless the body rebinds the variable."""
    def clear(lo: int, hi: int) -> bool:
        return not any(lo < r < hi for r in resets)

    before = [u for u in uses if u < change and clear(u, change)]
    if before and any(u > change and clear(change, u) for u in uses):
        return min(before)
    for start, end in scope.loops:
        if start <= change <= end and not any(start <= r <= end for r in resets):
            inside = [u for u in uses if start <= u <= end]
            if inside:
                return min(inside)
    return None
