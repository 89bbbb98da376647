# source: https://github.com/jax-ml/jax/issues/3761
# category: A
# expect: ok
# via: jit-decorator, lax-cond
# sink: bool-ops
"""The predicate of `lax.cond` is written `(x < 0) & (y < 0)`, an elementwise and of the traced
comparisons, so the jitted function traces."""
import jax
from jax import jit


@jit
def true_fn(x):
    return x - 5000.0


@jit
def false_fn(x):
    return x + 100.0


@jit
def cond_test_2(x, y):
    return jax.lax.cond((x < 0) & (y < 0), true_fn, false_fn, x)


if __name__ == "__main__":
    print(cond_test_2(0.3, 0.1))
    print(cond_test_2(-0.3, -0.1))
