# source: https://github.com/google/flax/issues/4847
# category: C
# expect: raises
# via: flax-nnx, custom-vjp, method, grad
# sink: attribute-write
"""A quantization model records activation statistics by assigning an `nnx.Variable` inside the
forward rule of a `jax.custom_vjp` defined in `__call__`; the eager call works, but under
`nnx.grad` the forward rule runs in an inner trace and NNX refuses the write to a Variable
created outside it (TraceContextError)."""
import jax
import jax.numpy as jnp
from flax import nnx


class QuantStats(nnx.Variable):
    pass


class Model(nnx.Module):
    def __init__(self):
        self.stats = QuantStats({"absmax": jnp.zeros(())})
        self.linear = nnx.Linear(12, 10, rngs=nnx.Rngs(0))

    def __call__(self, x):
        @jax.custom_vjp
        def f(x):
            return fwd(x)[0]

        def fwd(x):
            self.stats.value = {"absmax": jnp.max(jnp.abs(x))}  # <-- bug
            return x, ()

        def bwd(_, g):
            return (g,)

        f.defvjp(fwd, bwd)
        return self.linear(f(x))


def loss_fn(model, x):
    out = model(x)
    return jnp.sum(jnp.abs(out))


if __name__ == "__main__":
    model = Model()
    loss_fn(model, jnp.full((1, 12), 42.0))
    print(model.stats.value["absmax"])
    grads = nnx.grad(loss_fn)(model, jnp.full((1, 12), 43.0))
    print(model.stats.value["absmax"])
    print(jnp.round(grads.linear.bias.value, 3))
