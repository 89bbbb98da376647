# source: https://github.com/jax-ml/jax/pull/5905
# category: C
# expect: ok
# via: jit-call, host-loop
# sink: append
"""The inputs are recorded by the caller, outside the jitted `log2`, so the list gets one
concrete value per call."""
import jax
import jax.numpy as jnp

global_list = []


def log2(x):
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


if __name__ == "__main__":
    log2_jit = jax.jit(log2)
    for x in (3.0, 8.0, 10.0):
        global_list.append(x)
        print(log2_jit(x))
    print(len(global_list), global_list)
