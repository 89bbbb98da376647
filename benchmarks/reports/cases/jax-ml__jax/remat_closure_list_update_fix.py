# source: https://github.com/jax-ml/jax/pull/4663
# category: C
# expect: ok
# via: jit-call, checkpoint
# sink: in-place-update
"""The helper takes the running value as an argument and returns the new one, so each remat's
result flows out as an output and nothing is written into the closed-over list."""
import jax
import jax.numpy as jnp


def f():
    x = jnp.zeros([])

    def g(x):
        return x + 1

    x = jax.remat(g)(x)
    return jax.remat(g)(x)


if __name__ == "__main__":
    print(jax.jit(f)())
