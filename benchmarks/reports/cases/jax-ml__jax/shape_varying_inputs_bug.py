# source: https://github.com/jax-ml/jax/issues/15412
# category: R
# expect: recompiles
# via: jit-decorator, host-loop
# sink: changing-shape
"""A jitted matrix computation is run repeatedly with Lmat and Cs whose sizes change from one run to
the next, so nearly every call compiles again; padding to one fixed size keeps a single compilation."""
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(170)
Bmat = jax.random.uniform(key, shape=(16, 40), minval=0.0, maxval=1.0)
Cd_inv = jax.random.uniform(key, shape=(16, 16), minval=0.0, maxval=1.0)
dvec = jax.random.uniform(key, shape=(16,), minval=0.0, maxval=2.0)


@jax.jit
def model_update(Lmat, Cs):
    G = Bmat @ Lmat
    return Cs @ (G.T @ (Cd_inv @ dvec))


if __name__ == "__main__":
    shape_array = [9, 7, 11, 9, 8]
    for n in shape_array:
        Lmat = jax.random.uniform(jax.random.PRNGKey(n), shape=(40, n))
        Cs = jnp.eye(n) * 0.5
        out = model_update(Lmat, Cs)  # <-- bug
        print(n, float(out.sum()))
