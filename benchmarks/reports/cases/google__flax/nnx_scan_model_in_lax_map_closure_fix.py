# source: https://github.com/google/flax/issues/5025
# category: C
# expect: ok
# via: flax-nnx, lax-scan, method, factory-closure
# sink: closure-global
"""The model is split into its graph definition and state outside the map, and each mapped call
merges a fresh copy of it, so `nnx.scan` only sees Variables created inside the map's trace."""
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

        return step(x, self.layers)


if __name__ == "__main__":
    model = ScanModel(rngs=nnx.Rngs(0))
    xs = jnp.ones((10, 2))
    print(model(xs[0]))  # a single example works
    graphdef, state = nnx.split(model)

    def apply_one(x):
        return nnx.merge(graphdef, state, copy=True)(x)

    out = jax.lax.map(apply_one, xs, batch_size=5)
    print(out.shape)
