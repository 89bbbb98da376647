# source: https://github.com/jax-ml/jax/issues/3163
# category: R
# expect: ok
# via: jit-decorator, host-loop
# sink: weak-type
"""A jitted `my_fn(x, y)` is called in a host loop as `x = my_fn(x, i)` starting from `x = 0`:
the first call sees a weakly typed int, every later call the strongly typed int32 array it
returned, so the function is traced twice.  Starting the loop from a strongly typed int32
array keeps one trace."""
import jax
import jax.numpy as np


@jax.jit
def my_fn(x, y):
    return x + y


if __name__ == "__main__":
    x = np.array(0, dtype=np.int32)
    for i in range(10):
        x = my_fn(x, i)
    print(int(x))
