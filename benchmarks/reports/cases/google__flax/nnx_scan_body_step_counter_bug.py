# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/transforms_test.py#L4648
# category: C
# expect: stale
# via: flax-nnx, lax-scan, host-loop
# sink: closure-global
"""The body of an `nnx.scan` counts its steps in a `nonlocal` integer; the body runs once while
it is traced and the cached scan is reused, so after two scans over five elements the Python
count reads 1 while the carried count reads 10."""
import jax.numpy as jnp
from flax import nnx


def main():
    n = 0
    x = jnp.arange(5)
    count = jnp.array(0)

    @nnx.scan
    def f(count, x):
        nonlocal n
        n += 1  # <-- bug
        return count + 1, x**2

    for _ in range(2):
        count, y = f(count, x)
        print(n, int(count), y)


if __name__ == "__main__":
    main()
