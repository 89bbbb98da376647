# source: https://github.com/google/flax/issues/4819
# category: C
# expect: raises
# via: flax-nnx, lax-while, lax-scan, method, factory-closure
# sink: closure-global
"""Auto-regressive decoding ran the model inside `nnx.while_loop`, with the Transformer captured by
the loop body's closure.  Once the blocks are applied with `nnx.scan` ("scan over layers"), the
scan has to extract the captured blocks' Variables from inside the while-loop trace, which NNX
rejects as a graph node of a different trace level."""
import jax.numpy as jnp
from flax import nnx


class Transformer(nnx.Module):
    def __init__(self, num_blocks=10, use_scan=True, rngs=nnx.Rngs(1)):
        self.use_scan = use_scan

        @nnx.split_rngs(splits=num_blocks)
        @nnx.vmap(in_axes=(0,), out_axes=0)
        def create_block(rngs: nnx.Rngs):
            return nnx.Linear(20, 20, rngs=rngs)

        self.blocks = create_block(rngs)

    def __call__(self, x):
        return self._call_scan(x)

    def _call_scan(self, x):
        @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
        def step(x, block):
            return block(x)

        return step(x, self.blocks)  # <-- bug


def decode(model, x, num_steps=3):
    def cond_fn(carry):
        return carry[1] < num_steps

    def body_fn(carry):
        x, i = carry
        return model(x), i + 1

    x, _ = nnx.while_loop(cond_fn, body_fn, (x, 0))  # <-- bug
    return x


if __name__ == "__main__":
    model = Transformer()
    out = decode(model, jnp.ones((1, 20)))  # <-- bug
    print(out.sum())
