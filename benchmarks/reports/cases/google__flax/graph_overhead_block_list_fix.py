# source: https://github.com/google/flax/pull/5183
# category: B
# expect: ok
# via: flax-nnx, method, jit-decorator
# sink: static-metadata
"""The benchmark MLP after the PR: the hidden Blocks are held in an nnx.List, which is data, so
the model builds and the jitted step runs."""
import jax
import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable):
    pass


class Block(nnx.Module):
    def __init__(self, din, dout, *, rngs):
        self.linear = nnx.Linear(din, dout, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.linear(x))


class MLP(nnx.Module):
    def __init__(self, din, dhidden, dout, depth, *, rngs: nnx.Rngs):
        self.count = Count(jnp.array(0))
        self.linear_in = Block(din, dhidden, rngs=rngs)
        self.intermediates = nnx.List([
            Block(dhidden, dhidden, rngs=rngs) for _ in range(depth - 2)
        ])
        self.linear_out = Block(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        self.count.value += 1
        x = self.linear_in(x)
        for layer in self.intermediates:
            x = layer(x)
        return self.linear_out(x)


@nnx.jit
def step(model, x):
    return model(x).sum()


if __name__ == "__main__":
    model = MLP(4, 8, 2, depth=4, rngs=nnx.Rngs(0))
    x = jnp.ones((3, 4))
    for _ in range(3):
        print(float(step(model, x)))
    print(int(model.count.value))
