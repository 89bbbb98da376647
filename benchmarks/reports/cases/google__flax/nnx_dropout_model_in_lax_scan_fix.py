# source: https://github.com/google/flax/issues/4151
# category: C
# expect: ok
# via: flax-nnx, lax-scan, method
# sink: attribute-write
"""The loop uses `nnx.scan` with the model as part of the carry, so NNX threads the dropout
RngStream through the scan and updates the outer model afterwards."""
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.linear1 = nnx.Linear(10, 256, rngs=rngs)
        self.linear2 = nnx.Linear(256, 10, rngs=rngs)
        self.dropout = nnx.Dropout(rate=0.5, rngs=rngs)

    def __call__(self, x):
        x = nnx.relu(self.dropout(self.linear1(x)))
        return self.linear2(x)


if __name__ == "__main__":
    model = MLP(rngs=nnx.Rngs(0))
    print(model(jnp.ones((1, 10))).shape)

    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
    def scan(carry, x):
        model, total = carry
        return model, total + model(x).sum()

    model, total = scan((model, jnp.array(0.0)), jnp.ones((10, 10)))
    print(total)
