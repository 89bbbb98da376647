# source: https://github.com/quantumlib/OpenFermion/pull/1396
# category: A
# expect: raises
# via: jit-decorator, list-of-arrays
# sink: int-float-bool
"""The batched THC objective is a jax.jit-decorated function whose result was wrapped in float()
to match its `-> float` annotation; inside the trace the result is a tracer, so the cast raises
ConcretizationTypeError the first time the objective is evaluated."""
from typing import Tuple

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def compute_objective_batched(
    chis: Tuple[jax.Array, jax.Array, jax.Array, jax.Array],
    zetas: jax.Array,
    chols: Tuple[jax.Array, jax.Array],
    penalty_param: float = 0.0,
) -> float:
    eri_thc = jnp.einsum("Jpm,Jqm,Jmn,Jrn,Jsn->Jpqrs", chis[0].conj(), chis[1], zetas,
                         chis[2].conj(), chis[3], optimize=True)
    eri_ref = jnp.einsum("Jnpq,Jnrs->Jpqrs", chols[0], chols[1], optimize=True)
    deri = eri_thc - eri_ref
    lambda_z = jnp.sum(jnp.einsum("JPQ->J", 0.5 * jnp.abs(zetas)) ** 2.0)
    res = 0.5 * jnp.sum(jnp.abs(deri) ** 2) + penalty_param * lambda_z
    return float(res)  # <-- bug


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    batch, norb, nthc, naux = 2, 3, 4, 5
    chi = rng.standard_normal((batch, norb, nthc)) + 1j * rng.standard_normal((batch, norb, nthc))
    chis = tuple(jnp.asarray(chi) for _ in range(4))
    zetas = jnp.asarray(rng.standard_normal((batch, nthc, nthc)))
    chol = jnp.asarray(rng.standard_normal((batch, naux, norb, norb)))
    print(compute_objective_batched(chis, zetas, (chol, chol), penalty_param=0.1))
