# source: https://crackedaicode.com/problems/jax-while-loop-vs-python-while
# category: A
# expect: ok
# via: jit-decorator
# sink: python-while
"""The halving loop becomes `lax.while_loop` with the threshold test as its condition and the
multiplication as its body, so the number of steps is decided at run time inside the jitted code."""
from jax import jit, lax


@jit
def good(x):
    cond = lambda s: s > 1.0
    body = lambda s: s * 0.5
    return lax.while_loop(cond, body, x)


if __name__ == "__main__":
    print(good(4.0))
