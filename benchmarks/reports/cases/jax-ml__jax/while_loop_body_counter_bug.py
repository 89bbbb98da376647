# source: https://github.com/jax-ml/jax/issues/1708
# category: C
# expect: stale
# via: lax-while
# sink: in-place-update
"""body_fun bumps a counter in a closed-over list on every iteration; lax.while_loop traces body_fun
once, so after ten iterations the counter reads 1 instead of 10."""
from jax import lax


def body_fun(val):
    u[0] += 1  # <-- bug
    return val + 1


cond_fun = lambda j: j < 10

if __name__ == "__main__":
    u = [0]
    out = lax.while_loop(cond_fun, body_fun, 0)
    print("xla", out, u)
