# source: https://github.com/secretflow/secretflow/blob/8373458a5925bb566c31c77f8a6bdd7288456989/tests/device/test_ppu_kernel.py#L98
# category: A
# expect: raises
# via: jit-call, wrapper, class-attribute
# sink: int-float-bool
"""A function run on secretflow's PPU device is traced like a jitted function; passing the split
axis positionally without declaring it static made it a tracer, and jnp.split needed it as a
Python int.  The device's own test pins the ConcretizationTypeError."""
import jax
import jax.numpy as jnp
import numpy as np


class PPU:
    """The PPU device, reduced: functions sent to it are compiled with jax.jit."""

    def __call__(self, fn, static_argnames=None):
        compiled = jax.jit(fn, static_argnames=static_argnames)

        def wrapper(*args, **kwargs):
            return compiled(*args, **kwargs)

        return wrapper


def to(device, x):
    return jnp.asarray(x)


def reveal(obj):
    return jax.tree_util.tree_map(np.asarray, obj)


def func(x, axis):
    return jnp.split(x, 2, axis)  # <-- bug


if __name__ == "__main__":
    ppu = PPU()
    x = np.arange(10)
    x_ = to(ppu, x)
    y = func(x, 0)
    y_ = ppu(func)(x_, 0)
    np.testing.assert_almost_equal(y, reveal(y_), decimal=6)
    print(reveal(y_))
