# source: https://github.com/google/flax/issues/5025
# category: C
# expect: raises
# via: flax-nnx, lax-scan, method, factory-closure
# sink: closure-global
"""The reporter ran a model over a large batch in chunks with `jax.lax.map(..., batch_size=...)`,
capturing the NNX module in the mapped lambda.  The model applies its stacked layers with
`nnx.scan`, which must extract the captured module's Variables from inside the map's trace; NNX
refuses graph nodes that belong to an outer trace level."""
import jax
import jax.numpy as jnp
from flax import nnx


class ScanModel(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        @nnx.split_rngs(splits=3)
        @nnx.vmap(in_axes=(0,), out_axes=0)
        def make_layer(rngs):
            return nnx.Linear(2, 2, rngs=rngs)

        self.layers = make_layer(rngs)

    def __call__(self, x):
        @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry)
        def step(x, layer):
            return layer(x)

        return step(x, self.layers)  # <-- bug


if __name__ == "__main__":
    model = ScanModel(rngs=nnx.Rngs(0))
    xs = jnp.ones((10, 2))
    print(model(xs[0]))  # a single example works
    out = jax.lax.map(lambda x: model(x), xs, batch_size=5)  # <-- bug
    print(out.shape)
