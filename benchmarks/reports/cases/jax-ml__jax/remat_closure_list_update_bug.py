# source: https://github.com/jax-ml/jax/pull/4663
# category: C
# expect: leaks
# via: jit-call, checkpoint, factory-closure
# sink: in-place-update
"""Inside a jitted function a helper under `jax.remat` bumps a value kept in a closed-over list;
the value written back belongs to the first remat's trace, so the second remat reads an escaped
tracer and the result is not the eager one."""
import jax
import jax.numpy as jnp


def f():
    seq = [jnp.zeros([])]

    def g():
        seq[0] += 1  # <-- bug
        return seq[0]

    jax.remat(g)()
    return jax.remat(g)()


if __name__ == "__main__":
    print(jax.jit(f)())
