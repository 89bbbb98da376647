# source: https://openillumi.com/en/en-jax-jit-dynamic-loop-error-fix
# category: A
# expect: ok
# via: jit-decorator
# sink: range
"""The iteration count is drawn outside the jitted function, turned into a Python int and passed as
a static argument, so `range` sees a plain integer while tracing."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def do_stuff(start, num_iters):
    x = start
    for _ in range(num_iters):
        x = x + jnp.sin(x)
    return x


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    num_iters = int(jax.random.randint(key, (), 1, 10))
    print(do_stuff(jnp.float32(0.5), num_iters))
