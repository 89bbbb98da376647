# source: https://github.com/jax-ml/jax/issues/803
# category: R
# expect: recompiles
# via: jit-decorator, host-loop, grad
# sink: changing-shape
"""The same jitted loss is applied to mini-batches of different sizes; jit specialises on shapes, so
each new batch size compiles the function again (the maintainers suggest padding to bucket sizes)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss_and_grad(w, xb, yb):
    def loss(w):
        return jnp.mean((xb @ w - yb) ** 2)

    return jax.value_and_grad(loss)(w)


if __name__ == "__main__":
    rs = np.random.RandomState(0)
    X = rs.randn(100, 3).astype(np.float32)
    Y = X @ np.array([1.0, -2.0, 0.5], np.float32)
    w = jnp.zeros(3)
    for batch_size in (16, 32, 24, 32, 16):
        idx = rs.choice(100, batch_size, replace=False)
        value, g = loss_and_grad(w, X[idx], Y[idx])  # <-- bug
        w = w - 0.1 * g
    print(np.round(np.asarray(w), 3))
