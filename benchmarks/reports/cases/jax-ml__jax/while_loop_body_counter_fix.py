# source: https://github.com/jax-ml/jax/issues/1708
# category: C
# expect: ok
# via: lax-while
# sink: in-place-update
"""body_fun bumps a counter in a closed-over list on every iteration; lax.while_loop traces body_fun
once, so after ten iterations the counter reads 1 instead of 10."""
from jax import lax


def body_fun(state):
    val, count = state
    return val + 1, count + 1


cond_fun = lambda state: state[0] < 10

if __name__ == "__main__":
    u = [0]
    out, count = lax.while_loop(cond_fun, body_fun, (0, u[0]))
    u[0] = int(count)
    print("xla", out, u)
