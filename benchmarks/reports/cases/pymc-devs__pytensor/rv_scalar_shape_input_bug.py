# source: https://github.com/pymc-devs/pytensor/commit/92eef5ed014ba39ab7f3b73df7270979f3f9bb5d
# category: A
# expect: raises
# via: method, jit-call, helper
# sink: shape-from-value
"""PyTensor's JAX linker jitted the funcified graph with plain jax.jit, so a scalar graph input
used as the `size` of a random variable arrived as a tracer and the normal draw could not build
its shape.  The commit marks such inputs static and converts them to Python ints."""
import numpy as np
import jax
import jax.numpy as jnp


def jax_funcify_normal(loc, scale):
    def normal_rv(rng_key, dim0):
        size = (dim0,)
        return loc + scale * jax.random.normal(rng_key, shape=size)  # <-- bug

    return normal_rv


class JAXLinker:
    def __init__(self):
        self.scalar_shape_inputs = ()

    def fgraph_convert(self):
        self.scalar_shape_inputs = (1,)
        return jax_funcify_normal(0.0, 1.0)

    def jit_compile(self, fn):
        return jax.jit(fn)


if __name__ == "__main__":
    linker = JAXLinker()
    jax_fn = linker.jit_compile(linker.fgraph_convert())
    key = jax.random.PRNGKey(123)
    for key in jax.random.split(key, 2):
        print(jax_fn(key, np.array(2)).shape)
