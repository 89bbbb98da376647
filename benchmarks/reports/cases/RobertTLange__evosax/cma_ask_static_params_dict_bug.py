# source: https://github.com/RobertTLange/evosax/commit/a869dda50ff910378192aab47de2d250396995e6
# category: B
# expect: raises
# via: jit-call, static-argnums, helper, dict-of-arrays
# sink: static-unhashable
"""CMA-ES's ask was jitted with the strategy's `params` dict marked static (to get a concrete
population size); a dict is not hashable, so the first call fails."""
import jax
import jax.numpy as jnp
from jax import jit


def init_strategy(mean_init, sigma, population_size, mu):
    n_dim = mean_init.shape[0]
    weights = jnp.zeros(population_size).at[:mu].set(1 / mu)
    params = {"pop_size": population_size, "n_dim": n_dim, "mu": mu, "weights": weights}
    memory = {"mean": mean_init, "sigma": sigma, "C": jnp.eye(n_dim), "generation": 0}
    return params, memory


def eigen_decomposition(C):
    C = (C + C.T) / 2
    D2, B = jnp.linalg.eigh(C)
    D = jnp.sqrt(jnp.where(D2 < 0, 1e-20, D2))
    return C, B, D


def ask_cma_strategy(rng, memory, params):
    """Propose parameters to evaluate next."""
    C, B, D = eigen_decomposition(memory["C"])
    z = jax.random.normal(rng, (memory["mean"].shape[0], int(params["pop_size"])))
    y = jnp.swapaxes(B.dot(jnp.diag(D)).dot(z), 1, 0)
    x = memory["mean"] + memory["sigma"] * y
    memory["C"] = C
    return x, memory


ask = jit(ask_cma_strategy, static_argnums=(2))


if __name__ == "__main__":
    params, memory = init_strategy(jnp.zeros(3), 1.0, population_size=6, mu=3)
    x, memory = ask(jax.random.PRNGKey(0), memory, params)  # <-- bug
    print(x.shape)
