# source: https://crackedaicode.com/problems/jax-while-loop-bounded-search
# category: A
# expect: ok
# via: lax-while, helper
# sink: bool-ops
"""The two tests in the loop condition are combined with `&`, which builds a traced boolean
instead of asking Python for the truth of the first one."""
import jax.numpy as jnp
from jax import lax


def find_negative(x):
    n = x.shape[0]
    cond = lambda idx: (idx < n) & (x[idx] >= 0.0)
    body = lambda idx: idx + 1
    return lax.while_loop(cond, body, jnp.int32(0))


if __name__ == "__main__":
    print(find_negative(jnp.array([1.0, 2.0, -3.0, 4.0])))
