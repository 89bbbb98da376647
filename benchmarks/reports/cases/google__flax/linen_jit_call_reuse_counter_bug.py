# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_transforms_test.py#L1914
# category: C
# expect: stale
# via: flax-linen, jit-decorator, method
# sink: closure-global
"""A Linen module whose `__call__` is decorated with `nn.jit` counts its applications in a
`nonlocal`; the count moves only when the method is traced, so two `apply` calls count one."""
import jax.numpy as jnp
from flax import linen as nn


def main():
    n = 0

    class Foo(nn.Module):
        @nn.jit
        def __call__(self, x):
            nonlocal n
            n += 1  # <-- bug
            return x * 2.0

    x = jnp.array(1.0)
    m = Foo()
    for _ in range(2):
        y = m.apply({}, x)
        print(n, y)


if __name__ == "__main__":
    main()
