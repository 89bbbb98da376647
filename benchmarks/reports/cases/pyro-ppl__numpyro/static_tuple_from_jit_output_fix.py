# source: https://github.com/pyro-ppl/numpyro/issues/1212
# category: B
# expect: ok
# via: numpyro, partial-jit, static-argnums, namedtuple
# sink: static-unhashable
"""Inside the NumPyro model, the outputs of a jitted helper are turned into tuples and passed as
static arguments to a second jitted function.  When NUTS traces the model, the helper's outputs
are tracers, so the "hashable" tuples hold tracers and the static argument cannot be hashed.
The static tuples are built once, outside the model, from concrete values."""
from collections import namedtuple
from functools import partial

import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from jax import jit, random
from numpyro.infer import MCMC, NUTS

GVARS_ = namedtuple("GVARS", ["a", "b"])
GVARS = GVARS_(np.arange(6.0).reshape(3, 2), np.arange(3.0))


@jit
def func2_w_staticargs(a, b):
    return a * 2.0, b + 1.0


@partial(jit, static_argnums=(1,))
def func3(theta, gvars):
    a = jnp.array(gvars.a)
    b = jnp.array(gvars.b)
    return a @ theta + b


a_static, b_static = func2_w_staticargs(GVARS.a, GVARS.b)
GVARS_new = GVARS_(tuple(map(tuple, np.asarray(a_static).tolist())), tuple(np.asarray(b_static).tolist()))


def model(y=None):
    theta = numpyro.sample("theta", dist.Normal(jnp.zeros(2), 1.0))
    mu = func3(theta, GVARS_new)
    numpyro.sample("y", dist.Normal(mu, 0.5), obs=y)


if __name__ == "__main__":
    y = jnp.array([2.0, 5.0, 9.0])
    mcmc = MCMC(NUTS(model, max_tree_depth=2), num_warmup=5, num_samples=5, progress_bar=False)
    mcmc.run(random.PRNGKey(0), y=y)
    print(jnp.round(mcmc.get_samples()["theta"].mean(0), 1))
