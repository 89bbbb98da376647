"""The JAX APIs that trace a function, as data: what each does to the function it is given
(``Transform``: cached and replayed, static parameters, ``in_axes``, equinox's filtering...), the
table from qualified name to transform, and the wrappers that hand their arguments on unchanged.

Separate from ``transforms`` (which finds where a module applies them) because the table is pure
data that the traced interpreter and the facts read on their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Optional, Tuple


@dataclass(eq=False)
class Transform:
    """What a JAX API does to the function it is given."""

    label: str  # "jitted", "vmapped", "lax.scan body", ...
    fn_args: Tuple[Tuple[int, str], ...] = ((0, "fun"),)  # (position, keyword) of the function arguments
    cached: bool = False  # the trace is cached and replayed: values read are frozen
    statics: bool = False  # accepts static_argnums / static_argnames
    in_axes: bool = False  # in_axes=None leaves an argument a plain Python value
    filtered: bool = False  # equinox filter_*: only array arguments are traced
    opaque_attrs: bool = False  # attributes of arguments may be static (nnx modules)
    # Side effects are a bug only where the function is meant to run per call; eval_shape
    # and make_jaxpr are asked for exactly one trace.
    effects: bool = True
    refs: bool = False  # arguments are mutable Refs (Pallas kernels)
    # How many positional arguments the primitive passes to the function, from the number
    # of positional arguments of the primitive's call (None: the caller decides).  Further
    # parameters keep their defaults: Python values.
    arity: Optional[Callable[[int], int]] = None
    # jax.grad and friends alone: the differentiated arguments are JVP tracers with concrete
    # primal values.  Python control flow, int() and bool() work on them; float(), NumPy's
    # __array__ conversion and the rest each rule's ``under_grad`` names fail.
    differentiated: bool = False
    # The function is traced to a jaxpr ("staged out"): every JAX operation in it gives a
    # tracer, even on concrete inputs (``jnp.sum(GLOBAL)``).  vmap and grad alone evaluate
    # operations on concrete values eagerly, and so does associative_scan (plain Python
    # over slices of its operands).
    stages: bool = True
    # lax.cond / lax.switch: the function runs once per call of the primitive, not per
    # iteration of a loop
    branch: bool = False
    # The trace is kept and reused by later calls of the same function, with nothing
    # compiled: jax.checkpoint keys its trace by the function (also with jit disabled), so
    # a global it reads keeps the value of the first call.
    reuses_trace: bool = False
    # jax.custom_jvp / custom_vjp called outside any transform: the function runs at once,
    # on its arguments converted to arrays (a JAX array stays one, a NumPy array or scalar
    # becomes a NumPy array, a Python number a Python number): concrete values, no tracers.
    # The positions converted are the application's ``argnums`` (all but nondiff_argnums).
    converts: bool = False
    # jax.eval_shape calls the function once, right where it is applied, with the arguments
    # that follow it there: the parameters left to their defaults keep them (Python values).
    calls_at_site: bool = False
    # A lax loop's body (scan, fori_loop, while_loop, map): traced once, run once per
    # iteration, so what it does as Python happens once for all the iterations.
    loops: bool = False

    @property
    def replays(self) -> bool:
        """Later calls replay the first trace: what the function read while tracing is frozen."""
        return self.cached or self.reuses_trace

    @property
    def runs_per_call(self) -> bool:
        """The function runs as Python on every call: the trace is neither cached nor staged
        (``vmap``, ``grad`` alone), so an effect in it happens once per call, as written."""
        return not self.cached and not self.stages


JIT = Transform("jitted", cached=True, statics=True)
_PMAP = Transform("pmapped", cached=True, statics=True, in_axes=True)
_VMAP = Transform("vmapped", in_axes=True, stages=False)
_REMAT = Transform("checkpointed", statics=True)
_JAX_REMAT = Transform("checkpointed", statics=True, reuses_trace=True)
_SHAPE = Transform("eval_shape-traced", effects=False, calls_at_site=True)
_FILTER_SHAPE = Transform("eval_shape-traced", effects=False, filtered=True, calls_at_site=True)
_JAXPR = Transform("make_jaxpr-traced", statics=True, effects=False)
_SCAN = Transform("lax.scan body", ((0, "f"),), arity=lambda n: 2, loops=True)
_FORI = Transform("lax.fori_loop body", ((2, "body_fun"),), arity=lambda n: 2, loops=True)
_WHILE = Transform("lax.while_loop function", ((0, "cond_fun"), (1, "body_fun")), arity=lambda n: 1, loops=True)
_COND = Transform("lax.cond branch", ((1, "true_fun"), (2, "false_fun")), arity=lambda n: max(n - 3, 0), branch=True)
SWITCH = Transform("lax.switch branch", ((1, "branches"),), arity=lambda n: max(n - 2, 0), branch=True)
_MAP = Transform("lax.map function", ((0, "f"),), arity=lambda n: 1, loops=True)
# Primitives that run the function they are given at most once per call (a loop body runs
# once per iteration).
BRANCHES = (_COND, SWITCH)
_ASSOC = Transform("lax.associative_scan function", ((0, "fn"),), arity=lambda n: 2, stages=False)
PALLAS = Transform("Pallas kernel", ((0, "kernel"),), refs=True)
_FILTER_JIT = Transform("filter-jitted", cached=True, filtered=True)
# filter_vmap(in_axes=...): an array given the axis None is handed through untouched, a
# concrete array inside (checked with equinox 0.13.8)
_FILTER_VMAP = Transform("filter-vmapped", filtered=True, in_axes=True, stages=False)
_NNX_JIT = Transform("nnx-jitted", cached=True, statics=True, opaque_attrs=True)
_GRAD = Transform("differentiated", effects=False, differentiated=True, stages=False)
# Under jit or grad a custom derivative is what the outer transform makes it: the names are
# also pass-through wrappers.  effects=False: called on its own it runs per call, as written.
_CUSTOM_DERIVATIVE = Transform("custom-derivative function", effects=False, stages=False, converts=True)
_NNX_VMAP = Transform("nnx-vmapped", in_axes=True, opaque_attrs=True, stages=False)
# jax.vjp(f, *primals) and jax.linearize(f, *primals) differentiate f right where they are
# called, with the primals that follow it there.
_GRAD_AT_SITE = Transform("differentiated", effects=False, differentiated=True, stages=False, calls_at_site=True, arity=lambda n: n - 1)

TRANSFORMS: Dict[str, Transform] = {
    "jax.jit": JIT,
    "jax.pjit": JIT,
    "jax.experimental.pjit.pjit": JIT,
    "flax.linen.jit": JIT,
    "flax.linen.remat": _REMAT,
    "flax.linen.checkpoint": _REMAT,
    "jax.pmap": _PMAP,
    "jax.vmap": _VMAP,
    "jax.checkpoint": _JAX_REMAT,
    "jax.remat": _JAX_REMAT,
    "jax.ad_checkpoint.checkpoint": _JAX_REMAT,
    "jax.ad_checkpoint.remat": _JAX_REMAT,
    "jax.eval_shape": _SHAPE,
    "jax.make_jaxpr": _JAXPR,
    "jax.lax.scan": _SCAN,
    "jax.lax.fori_loop": _FORI,
    "jax.lax.while_loop": _WHILE,
    "jax.lax.cond": _COND,
    "jax.lax.switch": SWITCH,
    "jax.lax.map": _MAP,
    "jax.lax.associative_scan": _ASSOC,
    "jax.experimental.pallas.pallas_call": PALLAS,
    "equinox.filter_jit": _FILTER_JIT,
    "equinox.filter_pmap": _FILTER_JIT,
    "equinox.filter_vmap": _FILTER_VMAP,
    "equinox.filter_eval_shape": _FILTER_SHAPE,
    "equinox.filter_checkpoint": _REMAT,
    "flax.nnx.jit": _NNX_JIT,
    "flax.nnx.vmap": _NNX_VMAP,
    "flax.nnx.remat": _REMAT,
    "flax.nnx.scan": _SCAN,
    "flax.nnx.cond": _COND,
    "flax.nnx.switch": SWITCH,
    "flax.nnx.fori_loop": _FORI,
    "flax.nnx.while_loop": _WHILE,
    "haiku.scan": _SCAN,
    "haiku.fori_loop": _FORI,
    "haiku.while_loop": _WHILE,
    "haiku.cond": _COND,
    "haiku.switch": SWITCH,
    "haiku.map": _MAP,
    "haiku.vmap": _VMAP,
    "haiku.remat": _REMAT,
    "jax.grad": _GRAD,
    "jax.value_and_grad": _GRAD,
    "jax.jacfwd": _GRAD,
    "jax.jacrev": _GRAD,
    "jax.jacobian": _GRAD,
    "jax.hessian": _GRAD,
    "jax.vjp": _GRAD_AT_SITE,
    "jax.linearize": _GRAD_AT_SITE,
    "jax.custom_jvp": _CUSTOM_DERIVATIVE,
    "jax.custom_vjp": _CUSTOM_DERIVATIVE,
}

# Wrappers that hand their arguments on unchanged.  ``jax.grad`` and friends evaluate with
# concrete primal values, so Python control flow in the wrapped function works *unless*
# something around them traces (``jax.jit(jax.grad(f))``).
PASS_THROUGH: FrozenSet[str] = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "jax.custom_jvp",
        "jax.custom_vjp",
        "jax.custom_gradient",
        "jax.named_call",
        "jax.closure_convert",
        # shard_map called eagerly runs its body on concrete per-shard values (ShardMapTracer);
        # under jit it is traced like everything else.
        "jax.shard_map",
        "jax.experimental.shard_map.shard_map",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "equinox.filter_custom_jvp",
        "equinox.filter_custom_vjp",
        "functools.wraps",
        "functools.lru_cache",
        "functools.cache",
    }
)
