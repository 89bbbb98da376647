# source: https://openillumi.com/en/en-jax-jit-cache-size-recompile-debug
# category: R
# expect: ok
# via: jit-decorator, grad, host-loop
# sink: dtype-change
"""The author's training loop unifies the dtype of every batch the loader returns (float32), so the
jitted step sees one signature and compiles once."""
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x):
    return jnp.mean((x * w - 1.0) ** 2)


@jax.jit
def train_step(w, x):
    return w - 0.1 * jax.grad(loss)(w, x)


def load_batch(i):
    rows = [[1, 2, 3, 4], [0.5, 1.5, 2.5, 3.5]][i % 2]
    return jnp.asarray(np.array(rows), dtype=jnp.float32)


if __name__ == "__main__":
    w = jnp.float32(0.0)
    for i in range(4):
        w = train_step(w, load_batch(i))
    print(w)
