# source: https://github.com/google/flax/issues/4695
# category: C
# expect: ok
# via: flax-nnx, jit-decorator, method, optax
# sink: attribute-write
"""As the maintainers advised, the update is an `nnx.jit` function that takes the model and the
optimizer as arguments, so NNX carries their new state out of the trace."""
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def update(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    grads = nnx.grad(loss_fn)(model)
    optimizer.update(model, grads)


class Algorithm:
    def __init__(self, model, lr):
        self.model = model
        self.tx = optax.adamw(lr)
        self.optimizer = nnx.Optimizer(model, self.tx, wrt=nnx.Param)

    def update(self, x, y):
        update(self.model, self.optimizer, x, y)


if __name__ == "__main__":
    algo = Algorithm(nnx.Linear(3, 1, rngs=nnx.Rngs(0)), 1e-2)
    x, y = jnp.ones((8, 3)), jnp.zeros((8, 1))
    algo.update(x, y)
    print(nnx.state(algo.model, nnx.Param))
