# source: https://github.com/jax-ml/jax/issues/19433
# category: A
# expect: raises
# via: jit-decorator
# sink: shape-from-value
"""The reporter built a two-element window `np.arange(x[0] - 1, x[0] + 1)` in a jitted function;
the length is always 2, but the bounds are tracers and jnp.arange needs concrete start/stop."""
import jax.numpy as np
from jax import jit


@jit
def f(x: np.ndarray) -> np.ndarray:
    return np.arange(x[0] - 1, x[0] + 1)  # <-- bug


if __name__ == "__main__":
    print(f(np.zeros(1).astype(int)))
    print(f(np.array([5])))
