# source: https://openillumi.com/en/en-jax-jit-cache-size-recompile-debug
# category: R
# expect: recompiles
# via: jit-decorator, grad, host-loop
# sink: dtype-change
"""The author's training loop recompiled its jitted step on many iterations because the batches came
out of the loader with subtly different dtypes (integer-valued batches as int32, others as float32);
each new dtype is a new signature, so jit traced and compiled the step again."""
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
    return jnp.asarray(np.array(rows))


if __name__ == "__main__":
    w = jnp.float32(0.0)
    for i in range(4):
        w = train_step(w, load_batch(i))  # <-- bug
    print(w)
