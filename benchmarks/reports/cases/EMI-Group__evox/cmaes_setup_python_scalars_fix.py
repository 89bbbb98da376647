# source: https://github.com/EMI-Group/evox/commit/f1a71cd4796771870aed52dc7603f00c26e86b9a
# category: R
# expect: ok
# via: method, jit-call, dataclass, host-loop
# sink: weak-type
"""EvoX's CMA-ES `setup` stores the initial step size `init_stdev` (a Python float) and the
counters as Python numbers in its state; after the first jitted workflow step `tell` hands back
`sigma` as a strongly typed float32, so the state has new types and the step compiles again
("avoid rejit in CMAES due to type promotion").  The fix builds those fields as float32/int32
arrays in `setup`.  (EvoX is not installed: its State, workflow and CMA-ES are reduced.)"""
import math

import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class State:
    mean: jax.Array
    sigma: jax.Array
    ps: jax.Array
    count_iter: jax.Array
    key: jax.Array
    population: jax.Array


class CMAES:
    def __init__(self, center_init, init_stdev, pop_size=8):
        self.center_init, self.init_stdev = center_init, init_stdev
        self.dim, self.pop_size, self.mu = center_init.shape[0], pop_size, pop_size // 2
        w = jnp.log(self.mu + 0.5) - jnp.log(jnp.arange(1, self.mu + 1))
        self.weights = w / jnp.sum(w)
        self.mueff = float(jnp.sum(self.weights) ** 2 / jnp.sum(self.weights ** 2))
        self.cs = (2 + self.mueff) / (self.dim + self.mueff + 5)
        self.damps = 1 + self.cs
        self.chiN = self.dim ** 0.5 * (1 - 1 / (4 * self.dim) + 1 / (21 * self.dim ** 2))

    def setup(self, key):
        return State(mean=jnp.asarray(self.center_init, dtype=jnp.float32),
                     sigma=jnp.asarray(self.init_stdev, dtype=jnp.float32), ps=jnp.zeros((self.dim,)),
                     count_iter=jnp.zeros((), dtype=jnp.int32), key=key, population=jnp.empty((self.pop_size, self.dim)))

    def ask(self, state):
        key, sample_key = jax.random.split(state.key)
        population = state.mean + state.sigma * jax.random.normal(sample_key, (self.pop_size, self.dim))
        return population, state.replace(population=population, count_iter=state.count_iter + 1, key=key)

    def tell(self, state, fitness):
        population = state.population[jnp.argsort(fitness)]
        mean = state.mean + self.weights @ (population[: self.mu] - state.mean)
        ps = (1 - self.cs) * state.ps + math.sqrt(self.cs * (2 - self.cs) * self.mueff) * (mean - state.mean) / state.sigma
        sigma = state.sigma * jnp.exp((self.cs / self.damps) * (jnp.linalg.norm(ps) / self.chiN - 1))
        return state.replace(mean=mean, ps=ps, sigma=sigma)


class StdWorkflow:
    def __init__(self, algorithm, problem):
        self.algorithm, self.problem = algorithm, problem

    def step(self, state):
        population, state = self.algorithm.ask(state)
        return self.algorithm.tell(state, jax.vmap(self.problem)(population))


if __name__ == "__main__":
    algorithm = CMAES(center_init=jnp.full((4,), 3.0), init_stdev=1.0)
    workflow = StdWorkflow(algorithm, lambda x: jnp.sum(x ** 2))
    step = jax.jit(workflow.step)
    state = algorithm.setup(jax.random.PRNGKey(42))
    for i in range(4):
        state = step(state)
        print(i, float(jnp.sum(state.mean ** 2)), float(state.sigma))
