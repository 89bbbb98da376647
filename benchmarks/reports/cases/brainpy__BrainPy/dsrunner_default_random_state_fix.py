# source: https://github.com/brainpy/BrainPy/issues/706
# category: C
# expect: ok
# via: jit-call, lax-scan, method, class-attribute, host-loop
# sink: global-write
"""The noise key is carried through the runner explicitly: each scan step splits the key it is
given and returns the new one, so the jitted run leaves no traced key in module-level state."""
import jax
import jax.numpy as jnp


class RandomState:
    def __init__(self, seed):
        self.value = jax.random.PRNGKey(seed)

    def split_key(self):
        self.value, key = jax.random.split(self.value)
        return key

    def normal(self, shape):
        return jax.random.normal(self.split_key(), shape)


DEFAULT = RandomState(42)


class HH:
    def __init__(self, num):
        self.num = num

    def update(self, V, inp, key):
        key, sub = jax.random.split(key)
        noise = jax.random.normal(sub, (self.num,))
        return V + 0.01 * (-(V + 65.0) + inp) + 0.1 * noise, key


class DSRunner:
    def __init__(self, model):
        self.model = model
        self._run = jax.jit(self._scan)

    def _scan(self, V0, inputs, key):
        def step(carry, inp):
            V, key = carry
            V, key = self.model.update(V, inp, key)
            return (V, key), V

        (V, key), trace = jax.lax.scan(step, (V0, key), inputs)
        return V, trace, key

    def run(self, V0, inputs):
        V, trace, DEFAULT.value = self._run(V0, inputs, DEFAULT.value)
        return V, trace


if __name__ == "__main__":
    model = HH(3)
    runner = DSRunner(model)
    inputs = jnp.ones(100) * 6.0
    V, trace = runner.run(jnp.full(3, -65.0), inputs)
    print(trace.shape, V.shape)
