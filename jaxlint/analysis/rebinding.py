"""Is a global or closure variable rebound or mutated after a jitted function could have read it?

A jitted function reads its globals once, at trace time; a later write is never seen by the
compiled function.  The answer depends on where the module calls its traced functions, so it
is computed per module and memoised per (scope, name, attribute).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from jaxlint.analysis.expression_kinds import all_container_bindings
from jaxlint.analysis.scopes import VALUE_KINDS, ModuleIndex, Scope
from jaxlint.analysis.transforms import TransformFinder


class TracedCallables:
    """Which calls, made in a scope, run a cached (jitted) traced function."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder):
        self.finder = finder
        self.index = index
        self.reach: Dict[int, bool] = {}

    def cached_def(self, f) -> bool:
        return any(a.transform.cached for a in self.finder.by_func.get(id(f.node), ()))

    def runs_traced(self, func_expr, scope: Scope, depth: int = 0) -> bool:
        if isinstance(func_expr, cst.Call):
            # jax.jit(f)(x)
            return any(a.site is func_expr and a.transform.cached for a in self.finder.applications)
        if not isinstance(func_expr, cst.Name):
            return False
        name = func_expr.value
        owner = scope.lookup_scope(name)
        if owner is None:
            return False
        app = self.finder.aliases.get((id(owner), name))
        if app is not None and app.transform.cached:
            return True
        f = owner.defs.get(name)
        if f is None:
            return False
        if self.cached_def(f):
            return True
        return depth < 4 and self.reaches(f, depth + 1)

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
        return [o for fx, o in scope.calls if self.runs_traced(fx, scope)]


class Rebinding:
    """The module's answers, memoised."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder):
        self.traced_callables = TracedCallables(index, finder)
        self._answers: Dict[Tuple[int, str, Optional[str]], bool] = {}

    def is_rebound(self, owner: Scope, name: str, attr: Optional[str] = None) -> bool:
        """Is ``name`` (bound in ``owner``) rebound or mutated after a traced function could have run?

        ``attr``: the read is ``name.attr``; then setting another attribute (``FLAGS.verbose = 1``)
        does not change what was read."""
        key = (id(owner), name, attr)
        if key in self._answers:
            return self._answers[key]
        tc = self.traced_callables
        binds = [b for b in owner.bindings.get(name, ()) if b.kind in VALUE_KINDS]
        muts = owner.mutations.get(name, [])
        containers = all_container_bindings(owner, name)
        # Mutations made inside traced functions are JAX303's business, not a rebinding between calls.
        muts = [
            o
            for o, kind, where in muts
            if (kind == "store" or kind.startswith("attr:") and attr in (None, kind[5:]) or kind == "method" and containers)
            and not (where.func is not None and tc.finder.is_traced_def(where.func))
        ]
        result = False
        if any(b.order is None for b in binds) or any(o is None for o in muts):
            result = True  # written from another function, at any time
        else:
            writes = sorted([b.order for b in binds] + muts)
            if len(writes) > 1 or muts:
                calls = tc.call_orders(owner)
                if calls:
                    first = min(calls)
                    first_write = writes[0]
                    later = [w for w in writes if w > first and (muts or w != first_write)]
                    if later:
                        result = True
                    else:
                        for start, end in owner.loops:
                            if any(start <= w <= end for w in writes) and any(start <= c <= end for c in calls):
                                result = True
                                break
        self._answers[key] = result
        return result

    def witness(self, owner: Scope, name: str):
        """The value of a rebinding that is not the first assignment (the place a reader should
        look at), when the scope facts hold one; None when only mutations change the name."""
        binds = [b for b in owner.bindings.get(name, ()) if b.kind in VALUE_KINDS]
        ordered = sorted(binds, key=lambda b: (b.order is None, b.order if b.order is not None else 0))
        for b in ordered[1:] if len(ordered) > 1 else [b for b in ordered if b.order is None]:
            if b.value is not None:
                return b.value
        return None
