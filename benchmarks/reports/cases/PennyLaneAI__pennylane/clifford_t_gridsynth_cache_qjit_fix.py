# source: https://github.com/PennyLaneAI/pennylane/pull/8535
# category: C
# expect: ok
# via: jit-call, method, class-attribute, helper, wrapper
# sink: leaked-tracer
"""The Clifford+T transform keeps a module-wide cache of gridsynth decompositions, but no longer
wraps the decomposition in an `lru_cache` when compiling, so each compiled circuit builds its own
gate sequence from its own trace."""
import math
from dataclasses import dataclass
from functools import lru_cache, partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class RZ:
    angle: float
    wire: int = 0

    def matrix(self):
        return jnp.diag(jnp.exp(jnp.array([-0.5j, 0.5j]) * self.angle))


def rs_decomposition(op, epsilon, is_qjit=False):
    """Approximate RZ(angle) by a power of T (a stand-in for the Ross-Selinger search)."""
    n = jnp.round(op.angle / (math.pi / 4)) if is_qjit else round(op.angle / (math.pi / 4))
    phase = jnp.exp(1j * math.pi / 4 * n)
    return [jnp.diag(jnp.array([1.0 + 0j, phase]))]


class _CachedCallable:
    def __init__(self, method, epsilon, cache_size, is_qjit=False):
        rs_decomp = partial(rs_decomposition, epsilon=epsilon, is_qjit=is_qjit)
        self.decompose_fn = rs_decomp if is_qjit else lru_cache(maxsize=cache_size)(rs_decomp)
        self.method, self.epsilon, self.cache_size, self.is_qjit = method, epsilon, cache_size, is_qjit
        self.query = (self.cached_decompose if is_qjit
                      else lru_cache(maxsize=cache_size)(self.cached_decompose))

    def compatible(self, method, epsilon, cache_size, is_qjit):
        return (self.method == method and self.epsilon <= epsilon
                and self.cache_size <= cache_size and self.is_qjit == is_qjit)

    def cached_decompose(self, op):
        return self.decompose_fn(op)


_CLIFFORD_T_CACHE = None


def clifford_t_decomposition(ops, epsilon=1e-4, method="gridsynth", cache_size=1000, is_qjit=True):
    global _CLIFFORD_T_CACHE
    if _CLIFFORD_T_CACHE is None or not _CLIFFORD_T_CACHE.compatible(method, epsilon, cache_size, is_qjit):
        _CLIFFORD_T_CACHE = _CachedCallable(method, epsilon, cache_size, is_qjit)
    new_ops = []
    for op in ops:
        new_ops.extend(_CLIFFORD_T_CACHE.query(op) if isinstance(op, RZ) else [op])
    return new_ops


def circuit_10():
    """Two RZs with the same parameter that are not merged."""
    T = jnp.diag(jnp.array([1.0 + 0j, jnp.exp(1j * math.pi / 4)]))
    return [RZ(0.5), T, RZ(0.5)]


def expval_z(mats):
    state = jnp.array([1.0 + 0j, 1.0 + 0j]) / jnp.sqrt(2.0)
    for m in mats:
        state = m @ state
    return jnp.real(state[0] * jnp.conj(state[1]))


if __name__ == "__main__":
    qjit_cir = jax.jit(lambda: expval_z(clifford_t_decomposition(circuit_10())))
    qjit_cir_copy = jax.jit(lambda: expval_z(clifford_t_decomposition(circuit_10())))
    print(qjit_cir(), qjit_cir_copy())
