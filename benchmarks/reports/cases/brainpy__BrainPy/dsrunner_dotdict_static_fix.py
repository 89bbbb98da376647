# source: https://github.com/brainpy/BrainPy/commit/520d828ef9b4f49714a1b9b1817f7fb6199f0c64
# category: B
# expect: ok
# via: method, jit-call, static-argnums
# sink: static-unhashable
"""BrainPy's DSRunner jitted its predict step with `shared_args` as a static argument, but wrapped
the user's shared arguments in `DotDict`, a dict subclass with no hash, so every run failed on a
non-hashable static argument.  The commit gives DotDict a `__hash__` over its sorted items."""
import jax
import jax.numpy as jnp


class DotDict(dict):
    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key)

    def __hash__(self):
        return hash(tuple(sorted(self.items())))


class DSRunner:
    def __init__(self, weight):
        self.weight = weight
        self._jit_step_func_predict = jax.jit(self._step_func_predict, static_argnames=['shared_args'])

    def _step_func_predict(self, x, shared_args=None):
        y = x @ self.weight
        return jnp.where(shared_args.fit, y, jnp.tanh(y))

    def predict(self, inputs, shared_args=None):
        shared_args = DotDict(shared_args or {'fit': False})
        return [self._jit_step_func_predict(x, shared_args=shared_args) for x in inputs]


if __name__ == "__main__":
    runner = DSRunner(jnp.eye(3))
    outs = runner.predict(jnp.ones((4, 3)), shared_args={'fit': False})
    print(jnp.stack(outs).sum())
