# source: https://github.com/pyro-ppl/numpyro/issues/1210
# category: B
# expect: raises
# via: numpyro, wrapper, static-argnums, factory-closure
# sink: static-array
"""The user's `gnool_jit` wraps array arguments in a HashableArrayWrapper (hashed by the integer
sum of the array) so they can be static arguments of jax.jit.  Called from a NumPyro model under
NUTS, the wrapped array depends on a sample site and is a tracer, so hashing it needs a concrete
value and fails."""
from functools import partial

import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax import jit, random
from numpyro.infer import MCMC, NUTS


class HashableArrayWrapper:
    def __init__(self, val):
        self.val = val

    def __hash__(self):
        return int(jnp.sum(self.val))

    def __eq__(self, other):
        return isinstance(other, HashableArrayWrapper) and bool(jnp.all(jnp.equal(self.val, other.val)))


def gnool_jit(fun, static_array_argnums=()):
    @partial(jit, static_argnums=static_array_argnums)
    def callee(*args):
        args = list(args)
        for i in static_array_argnums:
            args[i] = args[i].val
        return fun(*args)

    def caller(*args):
        args = list(args)
        for i in static_array_argnums:
            args[i] = HashableArrayWrapper(args[i])
        return callee(*args)

    return caller


def forward(coeffs, x):
    return jnp.polyval(coeffs, x)


forward_jit = gnool_jit(forward, static_array_argnums=(0,))


def model(x, y=None):
    c = numpyro.sample("c", dist.Normal(jnp.zeros(3), 1.0))
    mu = forward_jit(c, x)  # <-- bug
    numpyro.sample("y", dist.Normal(mu, 0.1), obs=y)


if __name__ == "__main__":
    x = jnp.linspace(-1, 1, 20)
    y = 1.0 + 2.0 * x - x ** 2
    mcmc = MCMC(NUTS(model, max_tree_depth=2), num_warmup=5, num_samples=5, progress_bar=False)
    mcmc.run(random.PRNGKey(0), x, y=y)
    print(jnp.round(mcmc.get_samples()["c"].mean(0), 1))
