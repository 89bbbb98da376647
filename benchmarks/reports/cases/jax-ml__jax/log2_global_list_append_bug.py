# source: https://github.com/jax-ml/jax/pull/5905
# category: C
# expect: leaks
# via: jit-call, host-loop
# sink: append
"""The jitting tutorial's `log2` records each input in a module-level list; under `jax.jit` the
append runs only while the function is traced, so the list holds one tracer instead of one value
per call."""
import jax
import jax.numpy as jnp

global_list = []


def log2(x):
    global_list.append(x)  # <-- bug
    ln_x = jnp.log(x)
    ln_2 = jnp.log(2.0)
    return ln_x / ln_2


if __name__ == "__main__":
    log2_jit = jax.jit(log2)
    for x in (3.0, 8.0, 10.0):
        print(log2_jit(x))
    print(len(global_list), global_list)
