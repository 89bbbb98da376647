# source: https://github.com/jax-ml/jax/issues/3761
# category: A
# expect: raises
# via: jit-decorator, lax-cond
# sink: bool-ops
"""The predicate of `lax.cond` was written `x < 0 and y < 0` inside a jitted function; Python's
`and` asks for the truth value of the traced comparison and fails."""
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
    return jax.lax.cond(x < 0 and y < 0, true_fn, false_fn, x)  # <-- bug


if __name__ == "__main__":
    print(cond_test_2(0.3, 0.1))
    print(cond_test_2(-0.3, -0.1))
