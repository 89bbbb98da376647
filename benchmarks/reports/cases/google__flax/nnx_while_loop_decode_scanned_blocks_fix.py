# source: https://github.com/google/flax/issues/4819
# category: C
# expect: ok
# via: flax-nnx, lax-while, lax-scan, method
# sink: closure-global
"""The model is passed through the loop carry of `nnx.while_loop` instead of being captured, so
NNX threads its state into the loop and the scanned blocks belong to the loop's trace."""
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

        return step(x, self.blocks)


def decode(model, x, num_steps=3):
    def cond_fn(carry):
        return carry[2] < num_steps

    def body_fn(carry):
        model, x, i = carry
        return model, model(x), i + 1

    _, x, _ = nnx.while_loop(cond_fn, body_fn, (model, x, 0))
    return x


if __name__ == "__main__":
    model = Transformer()
    out = decode(model, jnp.ones((1, 20)))
    print(out.sum())
