# source: https://openillumi.com/en/en-jax-jit-recompile-dynamic-shape-fix
# category: R
# expect: recompiles
# via: jit-decorator, host-loop
# sink: changing-shape
"""A user's jitted function is called in a loop on arrays whose length along one axis changes from
call to call; each new length is a new shape, so jit traces and compiles the function again."""
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jnp.sum(x ** 2)


if __name__ == "__main__":
    for n in range(1, 6):
        x = jnp.arange(n, dtype=jnp.float32)
        print(n, f(x))  # <-- bug
