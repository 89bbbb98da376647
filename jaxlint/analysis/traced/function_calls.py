"""Calls from traced code into functions of the module: the arguments bound to the parameters,
the body interpreted in a new frame and its value memoised per abstract signature; a function
handed to a transform inside traced code traced inline.

Separate from the entry points (``entry_points.py``): a call here starts inside a trace, from
the abstract values of its arguments, not at a transform's site.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transform_arguments import literal_binding
from jaxlint.analysis.syntax.nodes import argument_for, received_arguments
from jaxlint.analysis.syntax.scopes import FuncInfo
from jaxlint.analysis.traced.annotations import annotation_container, is_ref_name, structure_uses
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis import traced
from jaxlint.analysis.traced import values as lattice


class FunctionCalls:
    """The Analyzer's calls of functions of the module (combined into ``Analyzer``)."""

    MAX_DEPTH = 5

    def call_function(
        self,
        frame: Frame,
        call: Optional[cst.Call],
        fnval: tuple,
        argvals: List[Tuple[cst.Arg, lattice.Val]],
        self_val: Optional[lattice.Val] = None,
    ) -> lattice.Val:
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        # The body is interpreted even when no argument is traced: what it returns (a jnp
        # result is a tracer) and what it does (a print, an append) both happen under the trace.
        with_traced = (
            any(v.kind == lattice.TRACED for _, v in argvals)
            or any(v.kind == lattice.TRACED for v in bound_args)
            or (self_val is not None and self_val.kind == lattice.TRACED)
        )
        if frame.depth >= self.MAX_DEPTH:
            return lattice.UNKNOWN_VAL
        env = _bind_parameters(ref, bound_args, bound_kw, argvals, self_val)
        self._check_static_parameters(frame, call, ref, len(bound_args), env)
        _name_traced_parameters(f, env, self.annotated_class, structure_uses(f.node, self.structure_cache))
        result = self._run_called_frame(frame, ref, closure, env, with_traced)
        if frame.staged and not frame.concrete and self._stages_itself(ref):
            # Omnistaging: a jitted function called under a trace that stages is bound as one
            # operation of that trace, so what it returns is tracers, whatever its body computes
            # from (a static argument handed back, a Python constant).
            return lattice.jit_output(result)
        return result

    def _stages_itself(self, ref) -> bool:
        """The function is wrapped by a staging transform of its own (``@jax.jit``,
        ``g = jax.jit(f)``, ``jax.jit(f)(x)``), wherever it is called from."""
        return (
            ref.stages
            or ref.jit is not None and ref.jit.stages
            or any(a.stages for a in self.finder.by_func.get(id(ref.func.node), ()) if isinstance(a.site, cst.Decorator))
        )

    def _check_static_parameters(self, frame: Frame, call: Optional[cst.Call], ref, n_bound: int, env: lattice.Env) -> None:
        """Report a tracer or an array passed for a parameter the callee keeps static (its own
        jit's static parameters, custom_vjp's ``nondiff_argnums``); those parameters are Python
        values inside it."""
        f: FuncInfo = ref.func
        positional = f.positional_params()
        for app in self.finder.by_func.get(id(f.node), ()):
            # Calling a function that is itself jitted with static parameters: those stay Python
            # values inside it (a tracer passed there is a different error, at the call).
            if isinstance(app.site, cst.Decorator) and app.transform.statics:
                statics, opaque = self.static_names(app)
                for n in statics:
                    if n in env:
                        v = env[n]
                        traced = v.kind == lattice.TRACED and not v.flags & (lattice.RAW | lattice.OPAQUE | lattice.REF | lattice.PYSEQ | lattice.DICT)
                        if call is not None and (traced or v.kind == lattice.STATIC and v.flags & (lattice.JAXARR | lattice.NPARR)):
                            # a tracer, or a concrete array: neither is hashable
                            skip = (1 if ref.bound_self and f.is_method else 0) + n_bound
                            arg = argument_for(call, [q.name.value for q in positional][skip:], n)
                            if isinstance(arg, cst.Arg):
                                self.emit("traced_static_arg", frame, arg, n, f, v)
                        env[n] = lattice.STATIC_VAL
        if call is not None and not f.is_lambda and f.node.decorators:
            for n in custom_vjp_nondiff(f):
                v = env.get(n)
                if v is not None and v.kind == lattice.TRACED and not v.flags & (lattice.RAW | lattice.OPAQUE | lattice.REF | lattice.PYSEQ | lattice.DICT):
                    arg = argument_for(call, [q.name.value for q in positional][n_bound:], n)
                    if isinstance(arg, cst.Arg):
                        self.emit("traced_static_arg", frame, arg, n, f, v, ": custom_vjp's nondiff_argnums take no tracers")

    def _run_called_frame(self, frame: Frame, ref, closure, env: lattice.Env, with_traced: bool) -> lattice.Val:
        """The value of the callee's body run in a new frame on ``env``, memoised per abstract
        signature of its parameters and of the calling frame; UNKNOWN for a recursive call."""
        f: FuncInfo = ref.func
        # A jitted function (``@jax.jit``, ``g = jax.jit(f)``, ``jax.jit(f)(x)``) is staged
        # wherever it is called from, a vmapped-only frame too.
        staged = frame.staged or self._stages_itself(ref)
        key = (
            id(f.node),
            tuple(sorted((n, lattice.signature(v)) for n, v in env.items())),
            frame.cached,
            frame.fresh,
            staged,
            frame.catches_tracer_errors > 0,
            frame.unsure > 0,
            id(closure) if closure else 0,
            frame.outer.key if frame.outer is not None else None,
            ref.own_trace,
            # an object the trace built is one object: what the call stores on it, it stores on
            # that object, not on another one of the same abstract value
            tuple(id(v.attrs) for v in env.values() if v.attrs is not None),
        )
        effects = self.effects
        if key in self.memo:
            frame.refusals += key in self.refusing
            effects.replay(self.effect_memo.get(key, ()))
            return self.memo[key]
        if key in self.active:
            return lattice.UNKNOWN_VAL
        self.active.add(key)
        start, base = len(effects.log), effects.path
        where = f"{f.name}(), called {'with traced values ' if with_traced else ''}from {frame.entry_name}"
        sub = Frame(f, f.body_scope or f.scope, where, frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.env = env
        sub.closure = closure
        sub.depth = frame.depth + 1
        sub.catches_tracer_errors = frame.catches_tracer_errors
        sub.unsure = frame.unsure
        sub.staged = staged
        sub.fresh = frame.fresh
        sub.outer = frame.outer
        sub.own_trace = ref.own_trace
        try:
            result = self.run_frame(sub)
        finally:
            self.active.discard(key)
        if sub.keeps is not None and traced.escapes.holds_tracer(result, self):
            result = result.with_flags(result.flags | lattice.KEPT)
        self.memo[key] = result
        self.effect_memo[key] = effects.since(start, base)
        if sub.refusals:
            self.refusing.add(key)
            frame.refusals += 1
        return result

    def trace_inline(
        self,
        frame: Frame,
        fnval: tuple,
        label: str,
        statics: set = frozenset(),
        operands: Optional[List[lattice.Val]] = None,
        stages: bool = True,
        refs: bool = False,
        loops: bool = False,
    ) -> None:
        """A function handed to a tracing transform inside traced code.  ``operands``: what a lax
        primitive passes positionally (the carry keeps its pytree structure); further parameters
        keep their defaults.  Without ``operands`` every parameter is traced.  ``stages``: the
        transform stages the function (it is staged anyway inside a staged frame).  ``refs``:
        it passes mutable Refs (a Pallas kernel's inputs and outputs), whatever their names.
        ``loops``: a lax loop runs the function once per iteration."""
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        if frame.depth >= self.MAX_DEPTH:
            return
        staged = frame.staged or stages
        outer = frame.outer.key if frame.outer is not None else None
        key = (id(f.node), "inline", frame.cached, frame.fresh, staged, id(closure) if closure else 0, outer, loops, frame.unsure > 0)
        if key in self.memo:
            self.effects.replay(self.effect_memo.get(key, ()))
            return
        if key in self.active:
            return
        self.active.add(key)
        start, base = len(self.effects.log), self.effects.path
        sub = Frame(f, f.body_scope or f.scope, f"{label} {f.name}() inside {frame.entry_name}", frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.closure = closure
        sub.depth = frame.depth + 1
        sub.staged = staged
        sub.fresh = frame.fresh
        sub.outer = frame.outer
        sub.loop_body = loops
        sub.unsure = frame.unsure
        sub.own_trace = True
        positional = f.positional_params()
        p = f.params
        skip = 1 if (ref.bound_self and f.is_method) else 0
        nb = len(bound_args)
        for i, param in enumerate(positional):
            name = param.name.value
            j = i - skip - nb  # index among the operands the primitive passes
            if i < skip or i - skip < nb or name in statics or name in bound_kw:
                if i < skip:
                    sub.env[name] = lattice.STATIC_VAL
                elif i - skip < nb:
                    sub.env[name] = bound_args[i - skip]
                else:
                    # what functools.partial bound reaches the body: ``partial(f, k=None)`` makes
                    # ``if k is None:`` the branch taken, ``k=expr`` the branch not taken
                    sub.env[name] = bound_kw.get(name, lattice.STATIC_VAL)
            elif operands is not None and j < len(operands):
                v = operands[j]
                sub.env[name] = lattice.Val(v.kind, name, v.flags | (lattice.REF if is_ref_name(name) else 0), v.items, None, v.cls) if v.kind == lattice.TRACED else v
            elif operands is not None and param.default is not None:
                sub.env[name] = lattice.STATIC_VAL
            else:
                sub.env[name] = lattice.Val(lattice.TRACED, name, lattice.REF if refs or is_ref_name(name) else self.param_shape_flags(f, param, name))
        for param in p.kwonly_params:
            name = param.name.value
            if name in bound_kw:
                sub.env[name] = bound_kw[name]
            else:
                sub.env[name] = lattice.STATIC_VAL if (name in statics or param.default is not None) else lattice.Val(lattice.TRACED, name)
        if isinstance(p.star_arg, cst.Param):
            sname = p.star_arg.name.value
            sub.env[sname] = lattice.Val(lattice.TRACED, sname, lattice.PYSEQ | (lattice.REF if refs or is_ref_name(sname) else 0))
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = lattice.UNKNOWN if set(bound_kw) - known or ref.bound_kw - known else lattice.TRACED
            sub.env[p.star_kwarg.name.value] = lattice.Val(k, p.star_kwarg.name.value, lattice.DICT)
        try:
            self.run_frame(sub)
        finally:
            self.active.discard(key)
        self.memo[key] = lattice.STATIC_VAL
        self.effect_memo[key] = self.effects.since(start, base)

    def run_frame(self, frame: Frame) -> lattice.Val:
        node = frame.func.node
        if isinstance(node, cst.Lambda):
            return traced.interpreter.Interp(self, frame).eval(node.body)
        traced.interpreter.Interp(self, frame).block(node.body)
        if not frame.returns:
            return lattice.STATIC_VAL
        return lattice.joinall(frame.returns)


def custom_vjp_nondiff(f: FuncInfo) -> List[str]:
    """Parameters of ``@partial(jax.custom_vjp, nondiff_argnums=...)`` (or
    ``@jax.custom_vjp(nondiff_argnums=...)``): a tracer there fails (UnexpectedTracerError);
    ``custom_jvp`` takes one."""
    for d in f.node.decorators:
        dec = d.decorator
        if not isinstance(dec, cst.Call):
            continue
        q = resolve(dec.func, f.scope)
        args = dec.args
        if q == "functools.partial" and args and args[0].keyword is None:
            q, args = resolve(args[0].value, f.scope), args[1:]
        if q != "jax.custom_vjp":
            continue
        names = [p.name.value for p in f.positional_params()]
        out = []
        for a in args:
            if a.keyword is not None and a.keyword.value == "nondiff_argnums":
                value = literal_binding(a.value, f.scope)
                items = [el.value for el in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
                for it in items:
                    if isinstance(it, cst.Integer) and int(it.value) < len(names):
                        out.append(names[int(it.value)])
        return out
    return []


def _spread(argvals):
    """The arguments of a call with ``*args`` / ``**kwargs`` opened where their structure is
    known (a helper forwarding what it was given): positional items as plain arguments, known
    keywords as (None, (key, value)) pairs."""
    out = []
    for a, v in argvals:
        if a.star == "*" and v.items is not None and v.keys is None:
            out.extend((cst.Arg(value=a.value), item) for item in v.items)
        elif a.star == "**" and v.keys is not None and v.items is not None and len(v.keys) == len(v.items):
            out.extend((None, (k, item)) for k, item in zip(v.keys, v.items))
            if v.elem is not None:
                # and entries under other keys, which the analysis does not know
                out.append((a, lattice.Val(v.kind, v.name, lattice.DICT, elem=v.elem)))
        else:
            out.append((a, v))
    return out


def _entry_of(mapping: lattice.Val) -> lattice.Val:
    """What ``**mapping`` passes under a key the analysis does not see: an entry of a pytree
    of tracers (a leaf, a subtree, or a Python value kept beside the arrays), as unpacking it
    gives; unknown for a mapping whose entries the analysis cannot tell."""
    if mapping.elem is not None:
        return mapping.elem
    if mapping.kind == lattice.TRACED and mapping.keys is None:
        return lattice.Val(lattice.TRACED, mapping.name, lattice.RAW)
    return lattice.UNKNOWN_VAL


def _bind_parameters(ref, bound_args, bound_kw, argvals: List[Tuple[cst.Arg, lattice.Val]], self_val: Optional[lattice.Val]) -> lattice.Env:
    """The callee's parameters bound to what the call passes: the receiver, the values bound
    ahead of the call (a partial's), the arguments, defaults, and ``*args``/``**kwargs``
    holding the rest.  A parameter the call may fill through ``*xs`` is unknown."""
    f: FuncInfo = ref.func
    env: lattice.Env = {}
    positional = f.positional_params()
    p = f.params
    idx = 0
    if ref.bound_self and f.is_method and positional:
        env[positional[0].name.value] = self_val if self_val is not None else lattice.Val(lattice.STATIC, None, 0, cls=f.cls)
        idx = 1
    # a partial's arguments as the callee receives them, ahead of the call's
    ahead = [(cst.Arg(cst.Name("_")), v) for v in bound_args] + [(cst.Arg(cst.Name("_"), keyword=cst.Name(k)), v) for k, v in bound_kw.items()]
    vals = {id(a): v for a, v in ahead + list(argvals)}
    argvals = [(a, vals[id(a)]) for a in received_arguments([a for a, _ in ahead], [a for a, _ in argvals])]
    star_seen = False
    kwargs_seen = False
    entries: List[lattice.Val] = []  # what a ``**mapping`` of the call holds under a key it does not show
    extra_pos: List[lattice.Val] = []
    extra_kw: Dict[str, lattice.Val] = {}
    named = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
    for a, v in _spread(argvals):
        if a is None:  # ``**kwargs`` forwarded with keys the analysis knows
            k, v = v
            if k in named or p.star_kwarg is None:
                env[k] = v
            else:
                extra_kw[k] = v
            continue
        if a.keyword is not None:
            # (a key a ``**mapping`` of the call gives replaces the partial's keyword)
            (env if a.keyword.value in named or p.star_kwarg is None else extra_kw).setdefault(a.keyword.value, v)
            continue
        if a.star == "**":
            kwargs_seen = True
            entries.append(_entry_of(v))
            continue
        if a.star:
            star_seen = True
            continue
        if star_seen:
            continue
        if idx < len(positional):
            env[positional[idx].name.value] = v
        else:
            extra_pos.append(v)
        idx += 1
    for param in positional + list(p.kwonly_params):
        name = param.name.value
        if name not in env:
            if star_seen:
                env[name] = lattice.UNKNOWN_VAL
            elif kwargs_seen and param.default is None:
                # no default: the call gives it through ``**mapping`` (else it raises TypeError)
                env[name] = entries[0] if len(entries) == 1 else lattice.UNKNOWN_VAL
            elif param.default is not None:
                env[name] = traced.expressions.parameter_default(param.default, f.scope)
            else:
                env[name] = lattice.UNKNOWN_VAL
    if isinstance(p.star_arg, cst.Param):
        sname = p.star_arg.name.value
        if star_seen:
            env[sname] = lattice.Val(lattice.joinall(extra_pos).kind if extra_pos else lattice.STATIC, sname, lattice.PYSEQ)
        else:
            # the exact positional arguments: ``f(*args)`` in the helper hands them on as they are
            env[sname] = lattice.Val(lattice.joinall(extra_pos).kind if extra_pos else lattice.STATIC, sname, lattice.PYSEQ, tuple(extra_pos))
    if p.star_kwarg is not None:
        kname = p.star_kwarg.name.value
        if kwargs_seen or star_seen:
            env[kname] = lattice.Val(lattice.UNKNOWN, None, lattice.DICT)
        else:
            vals = tuple(extra_kw.values())
            env[kname] = lattice.Val(lattice.joinall(vals).kind if vals else lattice.STATIC, kname, lattice.DICT, vals, None, None, tuple(extra_kw))
    return env


def _name_traced_parameters(f: FuncInfo, env: lattice.Env, annotated_class, used_as_containers: frozenset) -> None:
    """Traced parameters as the callee sees them: the container its annotation declares, the
    class it names where the argument's structure is unknown (as for an entry's parameter),
    its own names, and a Pallas Ref for a ``*_ref`` parameter.  Where nothing shows the
    structure of what the caller passes, the callee's own uses of the parameter (unpacked,
    its dict views, indexed by its keys, ``p or {}``) say it may be a pytree container: its
    bare truth value is then no bool conversion of an array."""
    for param in f.positional_params() + list(f.params.kwonly_params):
        name = param.name.value
        v = env.get(name)
        if v is not None and v.kind == lattice.TRACED and not v.container:
            cf = annotation_container(param.annotation)
            if cf:
                env[name] = lattice.Val(lattice.TRACED, v.name, cf)
            elif _unknown_structure(v):
                cls, ext = annotated_class(param, f) if param.annotation is not None else (None, None)
                if cls is not None or ext is not None:
                    env[name] = lattice.Val(lattice.TRACED, v.name, v.flags, cls=cls, ext=ext)
                elif name in used_as_containers:
                    env[name] = lattice.Val(lattice.TRACED, v.name, v.flags | lattice.RAW)
    for n, v in list(env.items()):
        if v.kind == lattice.TRACED and v.fn is None and (v.name != n or is_ref_name(n)):
            # name parameters as the helper does; ``*_ref`` parameters are Pallas Refs
            env[n] = v.renamed(n, lattice.REF if is_ref_name(n) else 0)


def _unknown_structure(v: lattice.Val) -> bool:
    """A traced value that may be one array or a pytree of them: nothing says which."""
    shown = lattice.ARRAY | lattice.BOOL | lattice.RAW | lattice.OPAQUE | lattice.REF | lattice.PYSEQ | lattice.DICT
    return not v.flags & shown and v.items is None and v.cls is None and v.ext is None and v.fn is None
