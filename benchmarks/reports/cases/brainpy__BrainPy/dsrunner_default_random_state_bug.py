# source: https://github.com/brainpy/BrainPy/issues/706
# category: C
# expect: leaks
# via: jit-call, lax-scan, method, class-attribute, host-loop
# sink: global-write
"""Running an HH model with `DSRunner` draws noise from BrainPy's module-level `DEFAULT`
`RandomState`, which splits its key and writes the new key back on itself; the runner's jitted
scan leaves a traced key in that global state, and `jax.checking_leaks()` reports it."""
import jax
import jax.numpy as jnp


class RandomState:
    def __init__(self, seed):
        self.value = jax.random.PRNGKey(seed)

    def split_key(self):
        self.value, key = jax.random.split(self.value)  # <-- bug
        return key

    def normal(self, shape):
        return jax.random.normal(self.split_key(), shape)


DEFAULT = RandomState(42)


class HH:
    def __init__(self, num):
        self.num = num

    def update(self, V, inp):
        noise = DEFAULT.normal((self.num,))
        return V + 0.01 * (-(V + 65.0) + inp) + 0.1 * noise


class DSRunner:
    def __init__(self, model):
        self.model = model
        self._run = jax.jit(self._scan)

    def _scan(self, V0, inputs):
        def step(V, inp):
            V = self.model.update(V, inp)
            return V, V

        return jax.lax.scan(step, V0, inputs)

    def run(self, V0, inputs):
        return self._run(V0, inputs)


if __name__ == "__main__":
    model = HH(3)
    runner = DSRunner(model)
    inputs = jnp.ones(100) * 6.0
    V, trace = runner.run(jnp.full(3, -65.0), inputs)
    print(trace.shape, V.shape)
