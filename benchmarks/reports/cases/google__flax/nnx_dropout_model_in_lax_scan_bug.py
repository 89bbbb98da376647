# source: https://github.com/google/flax/issues/4151
# category: C
# expect: raises
# via: flax-nnx, lax-scan, method
# sink: attribute-write
"""An MLP with `nnx.Dropout` works eagerly, but calling it from the body of a plain
`jax.lax.scan` that closes over the model fails: dropout draws a key from the model's RngStream,
which advances a counter of the outer trace level, and NNX raises TraceContextError."""
import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.linear1 = nnx.Linear(10, 256, rngs=rngs)
        self.linear2 = nnx.Linear(256, 10, rngs=rngs)
        self.dropout = nnx.Dropout(rate=0.5, rngs=rngs)

    def __call__(self, x):
        x = nnx.relu(self.dropout(self.linear1(x)))  # <-- bug
        return self.linear2(x)


if __name__ == "__main__":
    model = MLP(rngs=nnx.Rngs(0))
    print(model(jnp.ones((1, 10))).shape)

    def scan(carry, x):
        return carry + model(x).sum(), None

    total, _ = jax.lax.scan(scan, 0.0, jnp.ones((10, 10)))
    print(total)
