# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_transforms_test.py#L1914
# category: C
# expect: ok
# via: flax-linen, jit-decorator, method
# sink: closure-global
"""The applications of the `nn.jit`-decorated Linen module are counted by the loop that calls
`apply`, outside the traced method."""
import jax.numpy as jnp
from flax import linen as nn


def main():
    n = 0

    class Foo(nn.Module):
        @nn.jit
        def __call__(self, x):
            return x * 2.0

    x = jnp.array(1.0)
    m = Foo()
    for _ in range(2):
        y = m.apply({}, x)
        n += 1
        print(n, y)


if __name__ == "__main__":
    main()
