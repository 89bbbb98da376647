"""Entry points: each traced function of the module (a function under a transform, at its
site) interpreted once, with what the transform makes of each parameter: traced, static, a
Python default the caller did not pass, a carried structure, an instance of a class.

Separate from the call sites (``passed_arguments.py``), which this asks what callers pass, and from
calls made inside traced code (``function_calls.py``), which do not start at a transform.
"""

from __future__ import annotations

from typing import Iterator, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import annotation_class
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transform_table import BRANCHES, Transform
from jaxlint.analysis.model.transform_arguments import false_keywords, not_none_keywords
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.syntax.fast_walk import node_children
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.traced.annotations import (
    annotation_container,
    container_uses,
    is_array_annotation,
    is_not_none_annotation,
    is_ref_name,
    is_scalar_annotation,
    not_none_annotation,
)
from jaxlint.analysis.traced.factory_contexts import OuterCallables, factory_contexts
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.traced.tree_partials import passed_tree_partial
from jaxlint.analysis.traced.from_host import guarded_not_none, structure_of
from jaxlint.analysis.traced.lax_operands import lax_operands
from jaxlint.analysis import traced
from jaxlint.analysis.traced import values as lattice


def _entry_label(t: Transform, func: FuncInfo) -> str:
    return f"{t.label} {func.name}()"


def _made_in(f: FuncInfo, scope: Scope) -> bool:
    """``f`` is a lambda or def written inside the function ``scope`` is the body of: each
    run of that function makes a new one."""
    s = f.scope
    while s is not None:
        if s is scope:
            return True
        s = s.parent
    return False


class EntryPoints:
    """The Analyzer's entry points (combined into ``Analyzer``)."""

    def run(self) -> None:
        for app in self.finder.applications:
            if self.finder.in_traced_code(app.func.scope):
                continue  # interpreted inline, with the enclosing tracers in scope
            if app.nargs is not None and self.finder.in_traced_code(app.site_scope):
                continue  # a lax body handed over inside traced code: interpreted there, with its operands
            if app.leading and self._runs_other_method(app):
                continue
            if self._never_applied(app):
                continue
            for outer in factory_contexts(self, app):
                self.analyze_entry(app, outer)

    def _runs_other_method(self, app: Application) -> bool:
        """A jitted ``model.apply`` some call of which may name another method (``method=``,
        or keywords it cannot read): ``__call__`` is not surely what is traced."""
        for call in self.call_sites(app):
            if any(a.star == "**" or a.keyword is not None and a.keyword.value == "method" for a in call.args):
                return True
        return False

    def _never_applied(self, app: Application) -> bool:
        """The transform is applied on a branch of its host function that no call takes:
        ``fn = f if disable_jit else jax.jit(f)`` (or ``if not disable_jit: ...``) where every
        call of the function passes ``disable_jit=True``.  Nothing traces the function there."""
        scope = app.site_scope
        f = scope.func if scope is not None and scope.kind == "function" else None
        if f is None or f.body_scope is None:
            return False
        spans = self.module_ctx.spans
        at = spans.get(app.site) if isinstance(app.site, cst.Call) else None
        if at is None:
            return False
        params = {p.name.value for p in f.positional_params()} | {p.name.value for p in f.params.kwonly_params}
        for test, taken in branch_tests(f.node.body, spans, at):
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            name = test.expression if negated else test
            if not isinstance(name, cst.Name) or name.value not in params or not f.body_scope.unrebound_param(name.value):
                continue
            origins = self.finder.call_targets.param_origins(f, name.value, only_called=True)
            truths = {_literal_truth(p.expr) for p in origins or ()}
            if origins and truths == {not taken if not negated else taken}:
                return True
        return False

    def static_names(self, app: Application) -> Tuple[set, bool]:
        """Names of parameters made static; and whether the spec could not be read."""
        spec = app.statics
        pos = app.jit_positional()
        names = {n for n, _ in spec.names}
        for i, _node in spec.nums:
            j = i + len(pos) if i < 0 else i
            if 0 <= j < len(pos):
                names.add(pos[j])
        return names, spec.opaque

    def static_applications(self) -> Iterator[Tuple[Application, set]]:
        """Each application of a transform with static parameters whose spec can be read and
        names at least one, with the names of those parameters."""
        for app in self.finder.applications:
            if not app.transform.statics:
                continue
            statics, opaque = self.static_names(app)
            if opaque or not statics:
                continue
            yield app, statics

    def cached_applications(self) -> Iterator[Tuple[Application, set]]:
        """Each application of a transform that caches its compiled program whose static
        parameters can be read, with their names (maybe none)."""
        for app in self.finder.applications:
            if app.transform.cached:
                statics, opaque = self.static_names(app)
                if not opaque:
                    yield app, statics

    def analyze_entry(self, app: Application, outer: Optional[OuterCallables] = None) -> None:
        """Interprets ``app``'s function from its transform's site; ``outer``: the callables
        the factory around it holds in one signature of its calls."""
        f = app.func
        t = app.transform
        where = _entry_label(t, f)
        frame = Frame(f, f.body_scope or f.scope, where, app, t.replays)
        frame.entry_name = where
        frame.outer = outer
        # ``jax.vmap(f)`` of a function that is itself decorated with ``@jax.jit`` is staged too.
        # A cond/switch branch defined in the eager host function that hands it over is a new
        # function object on each call: JAX traces it on each call (no cache hit).
        app.fresh_per_call = bool(
            t.branch and isinstance(app.site, cst.Call) and f.scope.kind == "function" and f.scope is app.site_scope
        )
        frame.staged = app.stages or any(a.stages for a in self.finder.by_func.get(id(f.node), ()) if isinstance(a.site, cst.Decorator))
        statics, opaque = self.static_names(app)
        if isinstance(app.site, cst.Call):
            # A transform over a function that is itself jitted with static parameters: the
            # inner jit hashes those first (a tracer there fails, JAX202), so its body only
            # ever sees Python values for them.
            for inner in self.finder.by_func.get(id(f.node), ()):
                if isinstance(inner.site, cst.Decorator) and inner.transform.statics and inner.transform.cached:
                    inner_statics, inner_opaque = self.static_names(inner)
                    if not inner_opaque:
                        statics = statics | inner_statics
        passed = self.passed_params(app)
        p = f.params
        positional = f.positional_params()
        skip = 0
        if app.bound_self and f.is_method and positional:
            # A bound method: ``self`` is the Python object it is bound to, its attributes
            # Python values, its methods those of the receiver's class.
            frame.env[positional[0].name.value] = lattice.Val(lattice.STATIC, None, 0, cls=app.receiver_cls or f.cls)
            skip = 1
        nargs = app.nargs
        operands = None
        if nargs is not None and isinstance(app.site, cst.Call):
            site_args = [(a, self.carried_structure(a.value, app.site_scope)) for a in app.site.args]
            operands = lax_operands(resolve(app.site.func, app.site_scope) or "", site_args)
        for i, param in enumerate(positional[skip:]):
            name = param.name.value
            if i < app.bound_pos:
                frame.env[name] = lattice.STATIC_VAL
                continue
            j = i - app.bound_pos
            if nargs is not None and j >= nargs and param.default is not None and name not in app.bound_kw:
                frame.env[name] = lattice.STATIC_VAL  # the primitive does not pass it: its default stays
                continue
            if operands is not None and j < len(operands) and operands[j].cls is not None:
                frame.env[name] = lattice.to_traced(operands[j]).renamed(name)  # a carried instance of a class of the module
                continue
            if operands is not None and j < len(operands) and operands[j].container:
                o = operands[j]
                frame.env[name] = lattice.Val(lattice.TRACED, name, o.flags, o.items)  # a carried Python list/tuple/dict
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, i, f)
        for param in p.kwonly_params:
            name = param.name.value
            if nargs is not None and param.default is not None:
                frame.env[name] = lattice.STATIC_VAL
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, -1, f)
        if isinstance(p.star_arg, cst.Param):
            k = lattice.UNKNOWN if (opaque or t.filtered or app.opaque_axes) else lattice.TRACED
            sname = p.star_arg.name.value
            ref = lattice.REF if t.refs or is_ref_name(sname) else 0
            npos = len(app.jit_positional())
            beyond = any(not -npos <= i < npos for i, _node in app.statics.nums) or any(i >= len(positional) for i in app.unbatched)
            # each argument ``*args`` takes is traced as a named parameter is, unless a static
            # or unbatched position reaches past the named ones into it
            elem = lattice.Val(k, sname, ref) if k == lattice.TRACED and not beyond else None
            frame.env[sname] = lattice.Val(k, sname, lattice.PYSEQ | ref, elem=elem)
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = lattice.UNKNOWN if (opaque or t.filtered or app.opaque_axes or app.bound_kw - known) else lattice.TRACED
            kname = p.star_kwarg.name.value
            through = sorted(statics - known)
            if k == lattice.TRACED and through:
                # static names that are no parameter arrive through ``**kwargs``: those entries
                # are the Python values passed, the others leaves or subtrees of tracers
                frame.env[kname] = lattice.keyed_dict(through, [lattice.STATIC_VAL] * len(through), lattice.Val(k, kname, lattice.RAW))
            else:
                frame.env[kname] = lattice.Val(k, kname, lattice.DICT)
        if isinstance(app.site, cst.Call) and app.site_scope.kind == "function":
            frame.notnone = guarded_not_none(app.site_scope.node, app.site)
            # a branch made anew in the host function: its trace-time effects happen on each call
            frame.fresh = any(t is b for b in BRANCHES) and _made_in(f, app.site_scope)
        self.analyzed_entries.append((app, frame))
        self.effects.end()
        self.run_frame(frame)
        for finding in self.effects.end():
            self._report(*finding)  # what the trace wrote and left there

    def carried_structure(self, expr, scope) -> lattice.Val:
        """What host code hands a lax primitive: the structure its literals show, or an
        instance of a class of the module (a name bound to ``State(...)``, or a parameter every
        call passes one for)."""
        v = structure_of(expr, scope)
        if v.kind == lattice.UNKNOWN and isinstance(expr, cst.Name):
            r = self.receivers.receiver_of(expr, scope)
            if r is not None and r.cls is not None:
                return lattice.Val(lattice.STATIC, None, 0, cls=r.cls)
        return v

    def _param_val(self, app, param, name, statics, opaque, passed, i, f) -> lattice.Val:
        t = app.transform
        # a keyword ``functools.partial`` bound is the Python value it bound, whatever the
        # transform does with the arguments it is given
        if name in false_keywords(app.ahead):
            return lattice.KNOWN_CONSTANTS["False"]
        if name in not_none_keywords(app.ahead):
            return lattice.Val(lattice.STATIC, None, lattice.NOTNONE)
        if t.converts:
            # called on its own, a custom derivative runs on concrete values: no tracers
            converted = app.argnums is not None and i >= 0 and i - app.bound_pos in app.argnums
            return self.converted_passed(app, name, converted) or lattice.UNKNOWN_VAL
        if t.differentiated:
            if app.argnums is None:
                return lattice.UNKNOWN_VAL
            j = i - app.bound_pos
            if i < 0 or j not in app.argnums:
                # not differentiated: the caller's concrete value (a JAX array stays one)
                return self.concrete_passed(app, name) or lattice.STATIC_VAL
        if name in statics or name in app.bound_kw:
            if f.is_method and param is f.positional_params()[0]:
                return lattice.Val(lattice.STATIC, None, 0, cls=f.cls)  # a static ``self``: its methods still resolve
            # the object itself, hashed as a cache key: an instance of the class every call
            # site builds it with, whose methods the trace runs
            cls = self.passed_class(app, param, any_class=True) if name in statics else None
            if cls is not None:
                return lattice.Val(lattice.STATIC, None, 0, cls=cls)
            # ``dim_size: int``: the callers pass one, so ``if dim_size is None:`` further down
            # (in a helper it is handed to) is a branch this trace does not take
            return lattice.Val(lattice.STATIC, None, lattice.NOTNONE) if is_not_none_annotation(param.annotation) else lattice.STATIC_VAL
        if opaque:
            return lattice.UNKNOWN_VAL
        if param.default is not None and passed is not None and name not in passed:
            # JAX does not bind defaults the caller did not pass: they stay Python values.
            return traced.expressions.parameter_default(param.default, f.scope)
        if i >= 0 and i in app.unbatched and not app.opaque_axes:
            # vmap(in_axes=None) hands the value through untouched: an array every caller passes
            return self.concrete_passed(app, name) or lattice.UNKNOWN_VAL
        if i >= 0 and app.opaque_axes:
            return lattice.UNKNOWN_VAL
        if t.filtered:
            if is_array_annotation(param.annotation, f.scope):
                return lattice.Val(lattice.TRACED, name, lattice.ARRAY)
            if f.is_method and not app.bound_self and param is f.positional_params()[0]:
                # ``@eqx.filter_jit`` on a method of an eqx.Module: ``self`` is filtered too
                if self.classes.pytree_kind(f.cls) == "equinox":
                    return lattice.Val(lattice.TRACED, name, lattice.OPAQUE | lattice.ARRAYS_ONLY, cls=f.cls)
                return lattice.UNKNOWN_VAL
            return self.filtered_argument(app, name)
        if i >= 0:
            partial = passed_tree_partial(self, app, name)
            if partial is not None:
                return partial  # a ``jax.tree_util.Partial``: its bound values are the leaves traced
        if f.is_method and not app.bound_self and param is f.positional_params()[0]:
            # A traced ``self`` is a pytree of its class: the class model says which fields are
            # leaves; where it cannot tell, the fields stay unknown.
            return lattice.Val(lattice.TRACED, name, lattice.OPAQUE, cls=f.cls)
        flags = lattice.OPAQUE if t.opaque_attrs else 0
        if flags and self.arrays_or_numbers_passed(app, name):
            # every call passes a number or an array (``step(x, 0.75)``), not a module whose
            # attributes the transform carries: a plain traced array
            flags = lattice.ARRAY
        if is_not_none_annotation(param.annotation):
            # ``neighbors: NeighborList``: the caller passes one, so ``if neighbors is None:``
            # further down (in a helper it is handed to) is a branch this trace does not take.
            flags |= lattice.NOTNONE
        if t.refs or is_ref_name(name):
            return lattice.Val(lattice.TRACED, name, flags | lattice.REF)
        flags |= self.param_shape_flags(f, param, name)
        if param.annotation is not None:
            cls, ext = self.annotated_class(param, f)
            ext = None if flags & lattice.ARRAY else ext
        else:
            cls, ext = self.passed_class(app, param), None
            if cls is None and not flags & lattice.ARRAY:
                cls, ext = self.class_of_import(self.built_at_call_sites(app, name))
        return lattice.Val(lattice.TRACED, name, flags, cls=cls, ext=ext)

    def annotated_class(self, param, f: FuncInfo) -> Tuple[object, Optional[str]]:
        """(the class of the module, or the name of the imported class) a parameter's
        annotation names, ``None`` allowed beside it (``terms: TermConfig | None``)."""
        e = not_none_annotation(param.annotation)
        if e is None or is_array_annotation(e, f.scope) or is_scalar_annotation(e):
            return None, None
        cls = annotation_class(e, f.scope)
        if cls is not None:
            return cls, None
        return self.class_of_import(resolve(e, f.scope))

    def class_of_import(self, ext: Optional[str]) -> Tuple[object, Optional[str]]:
        """An imported class name as the analysis holds it: the class itself where the
        cross-module phase knows it, else its name, recorded for that phase."""
        if ext is None:
            return None, None
        cls = self.foreign.get(ext)
        if cls is not None:
            return cls, None
        uses = getattr(self.external, "uses_class", None)
        if uses is not None:
            uses(ext)
        return None, ext

    def param_shape_flags(self, f: FuncInfo, param, name: str) -> int:
        """ARRAY when the parameter is surely an array or scalar; RAW when it may be a pytree
        container (it is indexed, iterated, unpacked, compared with None...): then its bare
        truthiness (``if p:``) is a container or None check, not a bool conversion."""
        if is_array_annotation(param.annotation, f.scope) or is_scalar_annotation(param.annotation):
            return lattice.ARRAY
        cf = annotation_container(param.annotation)
        if cf:
            return cf
        d = param.default
        if isinstance(d, (cst.Integer, cst.Float)) or isinstance(d, cst.Name) and d.value in ("True", "False"):
            return lattice.ARRAY
        if name in container_uses(f.node, self.container_cache):
            return lattice.RAW
        return 0


def _literal_truth(e) -> Optional[bool]:
    """The truth of ``True``, ``False`` or ``None`` written out; None for anything else."""
    v = lattice.KNOWN_CONSTANTS.get(e.value) if isinstance(e, cst.Name) else None
    return bool(v.flags & lattice.TRUE) if v is not None else None


def branch_tests(body, spans, at) -> Iterator[Tuple[cst.BaseExpression, bool]]:
    """(test, whether the branch holding the node numbered ``at`` runs when the test is true)
    for each ``if`` statement and conditional expression of ``body`` one of whose branches
    holds that node."""
    stack = [body]
    while stack:
        node = stack.pop()
        span = spans.get(node)
        if span is not None and not span[0] <= at[0] <= span[1]:
            continue
        if isinstance(node, (cst.If, cst.IfExp)):
            for branch, taken in ((node.body, True), (node.orelse, False)):
                inner = spans.get(branch) if branch is not None else None
                if inner is not None and inner[0] <= at[0] <= inner[1]:
                    yield node.test, taken
        stack.extend(node_children(node))
