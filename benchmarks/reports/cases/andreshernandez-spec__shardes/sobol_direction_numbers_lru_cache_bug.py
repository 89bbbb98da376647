# source: https://github.com/andreshernandez-spec/shardes/blob/02295332f11c3b64dc383ec4f009be38753b2003/src/shardes/coupling.py
# category: C
# expect: raises
# via: jit-call, vmap, method, helper
# sink: global-write
"""_direction_numbers is an lru_cache'd table that returned a jnp array; the first call happened
inside whichever jitted sampler traced first, so the cache kept a tracer and the next, separate
trace of a ScrambledSobol coupling got the leaked one."""
import functools

import numpy as np
import jax
import jax.numpy as jnp

_SOBOL_BITS = 30
_UNIFORM_BITS = 22


@functools.lru_cache(maxsize=None)
def _direction_numbers(d):
    v = np.zeros((d, _SOBOL_BITS), dtype=np.uint32)
    for j in range(d):
        for k in range(_SOBOL_BITS):
            v[j, k] = (1 << (_SOBOL_BITS - 1 - k)) ^ ((j * 2654435761 >> k) & ((1 << (_SOBOL_BITS - 1 - k)) - 1))
    return jnp.asarray(v.T.copy())  # <-- bug


def sobol_point(v, member_id, shift):
    i = member_id.astype(jnp.uint32)
    gray = i ^ (i >> 1)
    x = shift
    for k in range(_SOBOL_BITS):
        x = jnp.where((gray >> k) & 1 == 1, x ^ v[k], x)  # <-- bug
    return x


class ScrambledSobol:
    def __init__(self, scramble=True):
        self.scramble = bool(scramble)

    def __call__(self, stream, member_id, d, dtype):
        shift = (jax.random.bits(stream, (d,), jnp.uint32) >> (32 - _SOBOL_BITS)
                 if self.scramble else jnp.zeros((d,), jnp.uint32))
        x = sobol_point(self.directions(d), member_id, shift)
        u = (x >> (_SOBOL_BITS - _UNIFORM_BITS)).astype(jnp.float32)
        return jax.scipy.special.ndtri((u + 0.5) * 2.0 ** -_UNIFORM_BITS).astype(dtype)

    def directions(self, d):
        return jnp.asarray(_direction_numbers(d))


if __name__ == "__main__":
    coupling = ScrambledSobol()
    k1, k2 = jax.random.key(31), jax.random.key(32)
    rows_a = jax.jit(jax.vmap(lambda i: coupling(k1, i, 8, jnp.float32)))
    rows_b = jax.jit(jax.vmap(lambda i: coupling(k2, i, 8, jnp.float32)))
    a = rows_a(jnp.arange(4))
    b = rows_b(jnp.arange(4))  # <-- bug
    print(a.shape, b.shape, float(jnp.mean(a)), float(jnp.mean(b)))
