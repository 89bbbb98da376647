# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/nnx/transforms_test.py#L4648
# category: C
# expect: ok
# via: flax-nnx, lax-scan, host-loop
# sink: closure-global
"""The steps of the `nnx.scan` are counted only in the carry, which the scan returns; the body
has no Python side effect."""
import jax.numpy as jnp
from flax import nnx


def main():
    x = jnp.arange(5)
    count = jnp.array(0)

    @nnx.scan
    def f(count, x):
        return count + 1, x**2

    for _ in range(2):
        count, y = f(count, x)
        print(int(count), int(count), y)


if __name__ == "__main__":
    main()
