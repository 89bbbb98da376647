# source: https://crackedaicode.com/problems/jax-while-loop-bounded-search
# category: A
# expect: raises
# via: lax-while, helper
# sink: bool-ops
"""A first-negative search written with `lax.while_loop` joins the bound check and the value
check with Python `and`; the loop condition is traced, so `and` asks for the truth of a tracer."""
import jax.numpy as jnp
from jax import lax


def find_negative(x):
    n = x.shape[0]
    cond = lambda idx: (idx < n) and (x[idx] >= 0.0)  # <-- bug
    body = lambda idx: idx + 1
    return lax.while_loop(cond, body, jnp.int32(0))


if __name__ == "__main__":
    print(find_negative(jnp.array([1.0, 2.0, -3.0, 4.0])))
