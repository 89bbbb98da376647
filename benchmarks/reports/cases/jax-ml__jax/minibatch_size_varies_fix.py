# source: https://github.com/jax-ml/jax/issues/803
# category: R
# expect: ok
# via: jit-decorator, host-loop, grad
# sink: changing-shape
"""The same jitted loss is applied to mini-batches of different sizes; jit specialises on shapes, so
each new batch size compiles the function again (the maintainers suggest padding to bucket sizes)."""
import jax
import jax.numpy as jnp
import numpy as np

BUCKET = 32


@jax.jit
def loss_and_grad(w, xb, yb, mask):
    def loss(w):
        return jnp.sum(mask * (xb @ w - yb) ** 2) / jnp.sum(mask)

    return jax.value_and_grad(loss)(w)


def pad(a, n):
    return np.concatenate([a, np.zeros((n - a.shape[0],) + a.shape[1:], a.dtype)])


if __name__ == "__main__":
    rs = np.random.RandomState(0)
    X = rs.randn(100, 3).astype(np.float32)
    Y = X @ np.array([1.0, -2.0, 0.5], np.float32)
    w = jnp.zeros(3)
    for batch_size in (16, 32, 24, 32, 16):
        idx = rs.choice(100, batch_size, replace=False)
        mask = pad(np.ones(batch_size, np.float32), BUCKET)
        value, g = loss_and_grad(w, pad(X[idx], BUCKET), pad(Y[idx], BUCKET), mask)
        w = w - 0.1 * g
    print(np.round(np.asarray(w), 3))
