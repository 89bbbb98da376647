# source: https://github.com/google/trax/commit/b8acc0e8f5c52a5ac25fd98a7a196f13b5fc1f69
# category: R
# expect: recompiles
# via: jit-call, method, class-attribute, host-loop
# sink: fresh-callable
"""Trax's ReversibleSerialTrainer jitted `layer.pure_fn` separately for every block of the
model, so a stack of identical blocks compiled the same layer function once per block.  The fix
memoizes the jitted function by the layer's `repr`, so blocks that are the same layer share one
compilation."""
import jax
import jax.numpy as jnp


class Dense:
    def __init__(self, n_units, key):
        self.n_units = n_units
        self.weights = (0.1 * jax.random.normal(key, (n_units, n_units)), jnp.zeros(n_units))
        self.state = ()

    def __repr__(self):
        return f"Dense_{self.n_units}"

    def pure_fn(self, x, weights, state, rng):
        w, b = weights
        return jnp.tanh(x @ w + b), state


class ReversibleSerialTrainer:
    def __init__(self, blocks):
        self._blocks = blocks
        self._accelerated_layer_fns = [self._pjit(layer.pure_fn) for layer in self._blocks]

    def _pjit(self, f):
        return jax.jit(f)

    def _run_forward_standard(self, stack, layer, accelerated_fn, rng):
        outputs, new_state = accelerated_fn(stack, layer.weights, layer.state, rng)  # <-- bug
        return outputs, new_state

    def one_step(self, batch, rng):
        rngs = jax.random.split(rng, len(self._blocks))
        stack = batch
        for i, layer in enumerate(self._blocks):
            stack, _ = self._run_forward_standard(stack, layer, self._accelerated_layer_fns[i], rngs[i])
        return jnp.mean(stack**2)


if __name__ == "__main__":
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    blocks = [Dense(8, k) for k in keys]
    trainer = ReversibleSerialTrainer(blocks)
    batch = jnp.ones((2, 8))
    for step in range(2):
        print(step, float(trainer.one_step(batch, jax.random.PRNGKey(step))))
