# source: https://github.com/jax-ml/jax/issues/3740
# category: A
# expect: ok
# via: jit-call, static-argnums
# sink: python-if
"""A tensor-train rounding step zeroes the singular values below `delta` with a broadcast
`jnp.where` instead of a Python loop with `if`, so the jitted function traces."""
import math

import jax.numpy as jnp
from jax import jit


def tt_round_model(cores, delta):
    rounded = []
    for core in cores:
        u, s, vt = jnp.linalg.svd(core, full_matrices=False)
        kept = jnp.where(s < delta, 0.0, s)
        rounded.append((u * kept) @ vt)
    return rounded


if __name__ == "__main__":
    cores = [jnp.outer(jnp.arange(1.0, 5.0), jnp.arange(1.0, 4.0)) + 1e-3 * jnp.eye(4, 3) for _ in range(2)]
    eps = 1e-2
    fast_tt_round = jit(tt_round_model, static_argnums=(1))
    ttr = fast_tt_round(cores, eps / math.sqrt(len(cores) - 1))
    print([jnp.round(c, 3) for c in ttr])
