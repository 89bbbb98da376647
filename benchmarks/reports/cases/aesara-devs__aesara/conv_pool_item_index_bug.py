# source: https://github.com/aesara-devs/aesara/issues/1158
# category: A
# expect: raises
# via: flax-linen, method, jit-call
# sink: item
"""A Flax module keeps a pool of conv layers and picks one per sample by an index computed from
the input; the index is pulled out with jax.device_get(...).item() to use it on the Python list,
which under jit (and init) is a tracer and cannot be made concrete."""
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
        if self.is_mutable_collection("params"):
            for j in range(self.size):
                self.pool_conv[j](x)
        scores = self.keys @ query
        conv_idx = jnp.argmax(scores)
        conv_idx = jax.device_get(conv_idx).item()  # <-- bug
        return self.pool_conv[conv_idx](x)


if __name__ == "__main__":
    model = PromptPool()
    x = jnp.ones((1, 8, 8, 3))
    query = jnp.array([1.0, 0.0, -1.0, 0.5])
    variables = jax.jit(model.init)(jax.random.PRNGKey(0), x, query)
    out = jax.jit(model.apply)(variables, x, query)
    print(out.shape, float(out.sum()))
