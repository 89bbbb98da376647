# source: https://github.com/pyro-ppl/numpyro/pull/754
# category: A
# expect: ok
# via: numpyro, jit-call, grad, helper
# sink: int-float-bool
"""The annotation example's model computes the number of classes as `int(np.max(annotations)) + 1`:
NumPy works on the concrete data, so the count stays a Python int inside the jitted log density."""
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from jax.scipy.special import logsumexp
from numpyro.infer.util import log_density


def multinomial(annotations):
    num_classes = int(np.max(annotations)) + 1
    num_items, num_positions = annotations.shape

    with numpyro.plate("class", num_classes):
        zeta = numpyro.sample("zeta", dist.Dirichlet(jnp.ones(num_classes)))

    pi = numpyro.sample("pi", dist.Dirichlet(jnp.ones(num_classes)))

    # the item class c is summed out by hand: p(y_i) = sum_c pi_c prod_j zeta[c, y_ij]
    log_zeta = jnp.log(zeta)[:, annotations]  # (class, item, position)
    log_lik = jnp.log(pi)[:, None] + log_zeta.sum(-1)
    with numpyro.plate("item", num_items):
        numpyro.factor("y", logsumexp(log_lik, axis=0))


def get_data():
    rng = np.random.RandomState(0)
    return rng.randint(0, 3, size=(10, 4))


if __name__ == "__main__":
    annotations = get_data()

    @jax.jit
    def log_joint(params):
        return log_density(multinomial, (annotations,), {}, params)[0]

    params = {"zeta": jnp.full((3, 3), 1 / 3), "pi": jnp.array([0.5, 0.3, 0.2])}
    print(log_joint(params), jax.grad(log_joint)(params)["pi"])
