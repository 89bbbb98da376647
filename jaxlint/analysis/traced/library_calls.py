"""Calls of functions the module imports, resolved to their qualified names: JAX transforms
(which return a function, or trace the functions they are given right here), ``partial``,
tree maps, callbacks, ``jax.numpy``/``lax`` operations, NumPy and the Python standard library.

Separate from calls of the module's own names and attributes (``call_expressions.py``): these
are answered from the tables of JAX knowledge (``jaxlint.analysis.jax.jax_api``), not by
following a function of the module.
"""

from __future__ import annotations

from typing import List, Optional

import libcst as cst

from jaxlint.analysis.host.host_value import NUMPY_ARRAY_MAKERS
from jaxlint.analysis.jax.jax_api import (
    AXIS_DEPENDENT,
    CALLBACKS,
    CLASS_NAMESPACES,
    NUMPY_SAFE,
    NUMPY_STATIC,
    PALLAS_TRACED,
    REF_MAKERS,
    STATIC_FUNCS,
    STATIC_PREFIXES,
    TRACE_STATE_TESTS,
    TRACED_PREFIXES,
    TREE_MAPS,
)
from jaxlint.analysis.model.library_callables import RUN_AT_CALL
from jaxlint.analysis.model.names import PARTIAL
from jaxlint.analysis.model.transform_arguments import StaticSpec, parse_statics
from jaxlint.analysis.model.weak_types import BOOL, dtype_kind
from jaxlint.analysis.model.transform_table import PASS_THROUGH, TRANSFORMS, Transform
from jaxlint.analysis.syntax.nodes import function_arguments, is_none_literal, keyword_value
from jaxlint.analysis.traced.lax_operands import lax_operands
from jaxlint.analysis.traced.shapes import result_dims
from jaxlint.analysis.traced import values as lattice


class LibraryCalls:
    """The interpreter's calls of imported functions (combined into ``Interp``)."""

    __slots__ = ()

    def call_qualified(self, e: cst.Call, q: str) -> lattice.Val:
        fr = self.frame
        argvals = self.args(e)
        self.emit("call", fr, e, q, argvals)
        t = TRANSFORMS.get(q)
        if t is not None:
            return self.call_transform(e, q, t, argvals)
        if q in PASS_THROUGH:
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    return lattice.Val(lattice.STATIC, None, 0, None, fn)
            return lattice.STATIC_VAL
        if q in PARTIAL:
            return self._partial(e, argvals)
        if q in TREE_MAPS:
            return self._tree_map(e, q, argvals)
        if q in CALLBACKS:
            return lattice.Val(lattice.TRACED, None) if any(v.kind == lattice.TRACED for _, v in argvals) else lattice.STATIC_VAL
        if q in STATIC_FUNCS:
            return lattice.STATIC_VAL
        if q in REF_MAKERS:
            return lattice.Val(lattice.TRACED, None, lattice.ARRAY | lattice.REF)  # mutable by design
        if q in ("jax.tree_util.tree_leaves", "jax.tree.leaves", "jax.tree_util.tree_flatten", "jax.tree.flatten"):
            k = max((v.kind for _, v in argvals), default=lattice.STATIC)
            leaves = lattice.Val(k, lattice.first_traced_name([v for _, v in argvals]), lattice.PYSEQ)
            if q.endswith("flatten"):
                return lattice.Val(k, leaves.name, lattice.PYSEQ, (leaves, lattice.STATIC_VAL))
            return leaves
        if q.startswith(("jax.tree_util.", "jax.tree.")):
            return self.generic(argvals)
        if q in TRACE_STATE_TESTS:
            return lattice.KNOWN_CONSTANTS["False"]
        if q.startswith(STATIC_PREFIXES):
            return lattice.STATIC_VAL
        if q.startswith("jax.experimental.pallas."):
            if q.rsplit(".", 1)[-1] not in PALLAS_TRACED:
                return self.generic(argvals)
            return lattice.Val(lattice.TRACED, lattice.first_traced_name([v for _, v in argvals]), lattice.ARRAY)
        if q in ("jax.lax.psum", "jax.lax.axis_size") and argvals and argvals[0][1].kind == lattice.STATIC:
            return lattice.STATIC_VAL  # psum(1, axis) is the axis size, a Python int
        if q.startswith(CLASS_NAMESPACES) and q.rsplit(".", 1)[-1][:1].isupper():
            return self.generic(argvals)  # a class (lax.ConvDimensionNumbers, lax.Precision): a Python object
        if q == "jax.numpy.asarray" and len(argvals) == 1 and e.args[0].keyword is None and not e.args[0].star:
            v = argvals[0][1]
            if v.kind == lattice.STATIC and v.flags & lattice.JAXARR:
                # ``jnp.asarray`` of a JAX array (no dtype) returns that array itself: a concrete
                # array stays concrete even where the frame stages (``.item()`` of it works)
                return v
            if v.kind == lattice.UNKNOWN:
                return lattice.UNKNOWN_VAL  # it may be such an array
        if q.startswith(TRACED_PREFIXES):
            return self._jax_function(q, argvals)
        if q.startswith("numpy."):
            return self._numpy_function(q, argvals)
        if q.startswith(("math.", "random.", "time.", "operator.", "builtins.")):
            return lattice.STATIC_VAL if all(v.kind == lattice.STATIC for _, v in argvals) else lattice.UNKNOWN_VAL
        if q in RUN_AT_CALL:
            self._run_at_call(e, RUN_AT_CALL[q], argvals)
        ext = self.analyzer.external
        if ext is not None and not fr.unsure and any(v.kind == lattice.TRACED for _, v in argvals):
            # (unsure: the tracers may never get there, see ``Frame.unsure``)
            r = ext(self, e, q, argvals)
            if r is not None:
                return r
        return self.generic(argvals)

    def _run_at_call(self, e: cst.Call, params, argvals) -> None:
        """A library call that runs the function it is given right here on the tuple and the
        dict of arguments it is given (``RUN_AT_CALL``): the function's body runs in this
        frame's trace.  Left alone where the arguments cannot be lined up."""
        given = {}
        for i, (a, v) in enumerate(argvals):
            if a.star:
                return
            name = a.keyword.value if a.keyword is not None else params[i] if i < len(params) else None
            given[name] = (a, v)
        fn_param, args_param, kwargs_param = params
        if fn_param not in given:
            return
        fn = self.fn_from(given[fn_param][0].value)
        args = given[args_param][1] if args_param in given else lattice.Val(lattice.STATIC, None, lattice.PYSEQ, ())
        kwargs = given[kwargs_param][1] if kwargs_param in given else lattice.keyed_dict((), (), None)
        if fn is None or args.items is None or kwargs.keys is None or kwargs.elem is not None:
            return
        inputs = [(cst.Arg(value=cst.Name("_")), v) for v in args.items]
        inputs += [(cst.Arg(value=cst.Name("_"), keyword=cst.Name(k)), v) for k, v in zip(kwargs.keys, kwargs.items)]
        self.analyzer.call_function(self.frame, e, fn, inputs)

    def _partial(self, e: cst.Call, argvals) -> lattice.Val:
        """``functools.partial(f, ...)``: ``f`` with the arguments bound ahead of its calls."""
        if argvals and e.args[0].keyword is None:
            fn = self.fn_from(e.args[0].value)
            if fn is not None:
                ref, closure, bargs, bkw = fn
                bargs = list(bargs) + [v for a, v in argvals[1:] if a.keyword is None and not a.star]
                bkw = dict(bkw)
                bkw.update(
                    {
                        a.keyword.value: v if is_none_literal(a.value) else lattice.Val(v.kind, v.name, v.flags | lattice.NOTNONE, v.items, v.fn)
                        for a, v in argvals[1:]
                        if a.keyword is not None
                    }
                )
                return lattice.Val(lattice.STATIC, None, 0, None, (ref, closure, bargs, bkw))
        return lattice.STATIC_VAL

    def _tree_map(self, e: cst.Call, q: str, argvals) -> lattice.Val:
        """``jax.tree.map(f, tree, ...)``: traced when a leaf is.  ``f`` runs on the leaves
        whatever they are: what it reads and does happens under the trace."""
        fr = self.frame
        if argvals and e.args[0].keyword is None:
            trees = [v for a, v in argvals[1:] if a.keyword is None]
            leaf = lattice.joinall(trees) if trees else lattice.STATIC_VAL
            fn = self.fn_from(e.args[0].value)
            if fn is not None:
                # a leaf, not the tree: a traced tree's leaves are arrays, an untraced tree's
                # are whatever it holds (a list of arrays has arrays for leaves)
                vals = [
                    (cst.Arg(value=cst.Name("_")), lattice.Val(t.kind, t.name) if t.kind == lattice.TRACED or leaf.kind != lattice.TRACED else t)
                    for t in trees
                ]
                if q.endswith("with_path"):
                    vals = [(cst.Arg(value=cst.Name("_")), lattice.STATIC_VAL)] + vals
                r = self.analyzer.call_function(fr, e, fn, vals)
                if leaf.kind == lattice.TRACED:
                    return lattice.Val(r.kind, leaf.name, leaf.flags & (lattice.DICT | lattice.PYSEQ)) if r.kind != lattice.STATIC else lattice.STATIC_VAL
            elif leaf.kind == lattice.TRACED:
                return lattice.UNKNOWN_VAL
            return lattice.Val(leaf.kind, leaf.name, leaf.flags & (lattice.DICT | lattice.PYSEQ)) if leaf.kind != lattice.STATIC else lattice.STATIC_VAL
        return lattice.UNKNOWN_VAL

    def _jax_function(self, q: str, argvals) -> lattice.Val:
        """A function of ``jax.numpy``, ``jax.lax`` and the like: an array, traced where the
        frame stages or an input is traced."""
        if q.rsplit(".", 1)[-1].startswith("_"):
            return self.generic(argvals)  # private helpers: often Python-level utilities
        flags = 0
        last = q.rsplit(".", 1)[-1]
        if last.startswith(("is", "logical_", "equal", "not_equal", "greater", "less")) or last in (
            "any",
            "all",
            "signbit",
        ):
            flags |= lattice.BOOL
        dtype = keyword_value([a for a, _ in argvals], "dtype")
        if dtype is not None:
            # ``jnp.ones(shape, dtype=bool)``: the dtype asked for, whatever the function's own
            flags = lattice.BOOL if dtype_kind(dtype, self.frame.scope) == BOOL else 0
        if q in AXIS_DEPENDENT and not self.frame.concrete:
            return lattice.Val(lattice.TRACED, None, lattice.ARRAY)
        # Traced where the frame stages (even ``jnp.ones(3)``), else traced only when an
        # input is: under vmap or grad alone JAX computes on concrete values eagerly.
        out = self.array_op([v for _, v in argvals], flags)
        dims = result_dims(q, argvals) if q.startswith("jax.numpy.") else None
        if dims is not None and (out.kind == lattice.TRACED or out.flags & lattice.JAXARR):
            return lattice.Val(out.kind, out.name, out.flags, dims=dims)
        return out

    def _numpy_function(self, q: str, argvals) -> lattice.Val:
        """A NumPy function: a NumPy array when made from Python values; on a traced input, a
        traced array for the functions that hand it on to JAX, else unknown."""
        if q[6:] in NUMPY_ARRAY_MAKERS and all(v.kind == lattice.STATIC for _, v in argvals):
            return lattice.Val(lattice.STATIC, None, lattice.NPARR)
        if q.startswith("numpy.random.") or q[6:] in NUMPY_STATIC:
            return lattice.STATIC_VAL
        if any(v.kind == lattice.TRACED for _, v in argvals):
            return lattice.Val(lattice.TRACED, lattice.first_traced_name([v for _, v in argvals]), lattice.ARRAY) if q[6:] in NUMPY_SAFE else lattice.UNKNOWN_VAL
        return self.generic(argvals)

    def call_transform(self, e, q: str, t: Transform, argvals) -> lattice.Val:
        fr = self.frame
        # Transforms that return a function: jit, vmap, checkpoint, ...  (vjp and linearize
        # differentiate the function right here, with the primals that follow it)
        returns_function = not (t.calls_at_site and t.differentiated)
        if returns_function and (t.fn_args and t.fn_args[0][0] == 0 and t.fn_args[0][1] in ("fun",) or q in ("jax.make_jaxpr",)):
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    ref, closure, bargs, bkw = fn
                    spec_nodes = [a for a in e.args if a.keyword is not None]
                    if spec_nodes and t.statics:
                        sp = StaticSpec()
                        parse_statics(spec_nodes, sp)
                        if sp.opaque or sp.nums or sp.names:
                            return lattice.STATIC_VAL  # static parameters by call: not followed further
                    if t.stages and not ref.stages or not ref.own_trace:
                        ref = ref.copy()
                        # ``jax.jit(g)(x)`` inside a vmapped function: g's body is staged
                        ref.stages = ref.stages or t.stages
                        ref.own_trace = True
                        fn = (ref, closure, bargs, bkw)
                    return lattice.Val(lattice.STATIC, None, 0, None, fn)
            return lattice.STATIC_VAL
        if q == "jax.eval_shape" or q == "equinox.filter_eval_shape":
            return lattice.STATIC_VAL
        # Control flow primitives: they trace the functions they are given, right here.
        operands = self.lax_operands(q, t, argvals)
        for expr in function_arguments([a for a, _v in argvals], t.fn_args):
            fn = self.fn_from(expr)
            if fn is not None:
                self.analyzer.trace_inline(fr, fn, t.label, frozenset(), operands, t.stages, t.refs, t.loops)
        if fr.concrete or not fr.staged and all(v.kind == lattice.STATIC for _, v in argvals):
            return lattice.STATIC_VAL  # run eagerly on concrete operands
        return lattice.Val(lattice.TRACED, lattice.first_traced_name([v for _, v in argvals]), 0)

    def lax_operands(self, q: str, t: Transform, argvals) -> Optional[List[lattice.Val]]:
        if t.arity is None:
            return None
        return lax_operands(q, argvals)
