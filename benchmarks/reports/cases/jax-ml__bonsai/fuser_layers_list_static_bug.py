# source: https://github.com/jax-ml/bonsai/issues/47
# category: B
# expect: raises
# via: flax-nnx, method
# sink: static-metadata
"""SAM2's memory-encoder `Fuser` keeps its blocks in a plain Python list attribute.  Since Flax
0.12 an nnx Module is a pytree whose plain-list attributes are static metadata, and a list of
modules holding arrays is refused as a static attribute when the model is built."""
import jax
import jax.numpy as jnp
from flax import nnx


class CXBlock(nnx.Module):
    def __init__(self, dim, *, rngs):
        self.dwconv = nnx.Conv(dim, dim, kernel_size=(7, 7), feature_group_count=dim, rngs=rngs)
        self.norm = nnx.LayerNorm(dim, rngs=rngs)
        self.pwconv = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, x):
        return x + self.pwconv(jax.nn.gelu(self.norm(self.dwconv(x))))


class Fuser(nnx.Module):
    def __init__(self, dim, num_layers, *, rngs):
        self.layers = [CXBlock(dim, rngs=rngs) for _ in range(num_layers)]  # <-- bug

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


if __name__ == "__main__":
    fuser = Fuser(8, 2, rngs=nnx.Rngs(0))
    y = nnx.jit(lambda m, x: m(x))(fuser, jnp.ones((1, 16, 16, 8)))
    print(y.shape, float(jnp.mean(y)))
