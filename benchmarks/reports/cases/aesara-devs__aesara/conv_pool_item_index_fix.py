# source: https://github.com/aesara-devs/aesara/issues/1158
# category: A
# expect: ok
# via: flax-linen, method, jit-call
# sink: item
"""Every conv in the pool is applied and the result is picked with the traced index on a stacked
array, so no Python integer is needed under jit."""
import jax
import jax.numpy as jnp
import flax.linen as nn


class PromptPool(nn.Module):
    size: int = 3

    def setup(self):
        self.pool_conv = [nn.Conv(features=3, kernel_size=(3, 3), strides=(2, 2), padding="SAME")
                          for _ in range(self.size)]
        self.keys = self.param("keys", nn.initializers.normal(1.0), (self.size, 4))

    def __call__(self, x, query):
        scores = self.keys @ query
        conv_idx = jnp.argmax(scores)
        outs = jnp.stack([conv(x) for conv in self.pool_conv])
        return outs[conv_idx]


if __name__ == "__main__":
    model = PromptPool()
    x = jnp.ones((1, 8, 8, 3))
    query = jnp.array([1.0, 0.0, -1.0, 0.5])
    variables = jax.jit(model.init)(jax.random.PRNGKey(0), x, query)
    out = jax.jit(model.apply)(variables, x, query)
    print(out.shape, float(out.sum()))
