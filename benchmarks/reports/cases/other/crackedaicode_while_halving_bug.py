# source: https://crackedaicode.com/problems/jax-while-loop-vs-python-while
# category: A
# expect: raises
# via: jit-decorator
# sink: python-while
"""A halving loop left as a Python `while` whose exit test compares the traced argument with a
threshold; under `@jit` the comparison has no concrete truth value to stop the loop on."""
from jax import jit


@jit
def bad(x):
    while x > 1.0:  # <-- bug
        x = x * 0.5
    return x


if __name__ == "__main__":
    print(bad(4.0))
