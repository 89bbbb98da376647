# source: https://github.com/google/flax/issues/4847
# category: C
# expect: ok
# via: flax-nnx, custom-vjp, method, grad
# sink: attribute-write
"""The statistic leaves the `jax.custom_vjp` as a second, non-differentiated output and the
Variable is assigned in `__call__`, in the same trace as the model, so `nnx.grad` can update it."""
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
            absmax = jnp.max(jnp.abs(x))
            return (x, absmax), ()

        def bwd(_, g):
            g_x, _ = g
            return (g_x,)

        f.defvjp(fwd, bwd)
        y, absmax = f(x)
        self.stats.value = {"absmax": jax.lax.stop_gradient(absmax)}
        return self.linear(y)


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
