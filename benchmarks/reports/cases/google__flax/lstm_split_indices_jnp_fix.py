# source: https://github.com/google/flax/commit/331bdc2c444e6dfdcce391e43b2d686e1bfdf8fd
# category: A
# expect: ok
# via: flax-linen, method, helper, jit-call
# sink: numpy-call
"""The OptimizedLSTMCell as the commit left it: the split indices come from np.cumsum of the
static gate sizes, so jnp.split gets concrete indices under jit."""
import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn


class OptimizedLSTMCell(nn.Module):
    features: int

    def _concat_dense(self, inputs, params):
        kernels = [kernel for kernel, _ in params.values()]
        biases = [bias for _, bias in params.values()]
        y = jnp.dot(inputs, jnp.concatenate(kernels, axis=-1)) + jnp.concatenate(biases)
        split_indices = np.cumsum([b.shape[0] for b in biases[:-1]])
        ys = jnp.split(y, split_indices, axis=-1)
        return dict(zip(params.keys(), ys))

    @nn.compact
    def __call__(self, carry, inputs):
        c, h = carry
        params = {}
        for gate in ("i", "f", "g", "o"):
            k = self.param(f"k{gate}", nn.initializers.lecun_normal(), (inputs.shape[-1], self.features))
            b = self.param(f"b{gate}", nn.initializers.zeros, (self.features,))
            params[gate] = (k, b)
        y = self._concat_dense(inputs, params)
        i, f, g, o = (nn.sigmoid(y["i"]), nn.sigmoid(y["f"]), jnp.tanh(y["g"]), nn.sigmoid(y["o"]))
        new_c = f * c + i * g
        new_h = o * jnp.tanh(new_c)
        return (new_c, new_h), new_h


if __name__ == "__main__":
    cell = OptimizedLSTMCell(features=4)
    carry = (jnp.zeros((2, 4)), jnp.zeros((2, 4)))
    x = jnp.ones((2, 3))
    variables = jax.jit(cell.init)(jax.random.PRNGKey(0), carry, x)
    (c, h), out = jax.jit(cell.apply)(variables, carry, x)
    print(out.shape, float(h.sum()))
