# source: https://github.com/jax-ml/jax/issues/19433
# category: A
# expect: ok
# via: jit-decorator
# sink: shape-from-value
"""The two-element window is built as `np.arange(-1, 1) + x[0]`: the arange has concrete bounds
and the traced offset is added afterwards, so the jitted function compiles."""
import jax.numpy as np
from jax import jit


@jit
def f(x: np.ndarray) -> np.ndarray:
    return np.arange(-1, 1) + x[0]


if __name__ == "__main__":
    print(f(np.zeros(1).astype(int)))
    print(f(np.array([5])))
