# source: https://github.com/google/flax/issues/4695
# category: C
# expect: raises
# via: flax-nnx, jit-call, factory-closure, method, optax
# sink: attribute-write
"""The reporter's algorithm class builds a `jax.jit`-ted `update` closure in `__init__` that takes
NNX gradients of `self.model` and calls `self.optimizer.update(...)`; the model and optimizer live
outside the trace, so NNX refuses to take the captured model into the gradient's trace."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Algorithm:
    def __init__(self, model, lr):
        self.model = model
        self.tx = optax.adamw(lr)
        self.optimizer = nnx.Optimizer(model, self.tx, wrt=nnx.Param)

        @jax.jit
        def update(x, y):
            def loss_fn(model):
                return jnp.mean((model(x) - y) ** 2)

            grads = nnx.grad(loss_fn)(self.model)  # <-- bug
            self.optimizer.update(self.model, grads)

        self.update = update


if __name__ == "__main__":
    algo = Algorithm(nnx.Linear(3, 1, rngs=nnx.Rngs(0)), 1e-2)
    x, y = jnp.ones((8, 3)), jnp.zeros((8, 1))
    algo.update(x, y)
    print(nnx.state(algo.model, nnx.Param))
