# source: https://github.com/JaxGaussianProcesses/GPJax/pull/554
# category: B
# expect: raises
# via: flax-nnx, method, class-attribute
# sink: static-metadata
"""GPJax's `CombinationKernel` (behind `k1 + k2`) gathers its kernels in a plain Python list and
stores it on the module.  From Flax 0.12 an nnx Module is a pytree whose plain-list attributes are
static, and a list of kernels holding `nnx.Param` arrays is refused when the sum kernel is built."""
import functools

import jax.numpy as jnp
from flax import nnx


class AbstractKernel(nnx.Module):
    def __add__(self, other):
        return SumKernel([self, other])


class RBF(AbstractKernel):
    def __init__(self, lengthscale=1.0, variance=1.0):
        self.lengthscale = nnx.Param(jnp.asarray(lengthscale))
        self.variance = nnx.Param(jnp.asarray(variance))

    def __call__(self, x, y):
        sq = jnp.sum(((x - y) / self.lengthscale.value) ** 2)
        return self.variance.value * jnp.exp(-0.5 * sq)


class CombinationKernel(AbstractKernel):
    def __init__(self, kernels, operator):
        kernels_list = []
        for kernel in kernels:
            if isinstance(kernel, self.__class__):
                kernels_list.extend(kernel.kernels)
            else:
                kernels_list.append(kernel)
        self.kernels = kernels_list  # <-- bug
        self.operator = operator

    def __call__(self, x, y):
        return self.operator(jnp.stack([k(x, y) for k in self.kernels]))


class SumKernel(CombinationKernel):
    def __init__(self, kernels):
        super().__init__(kernels, functools.partial(jnp.sum, axis=0))


@nnx.jit
def gram(kernel, x):
    return nnx.vmap(lambda a: nnx.vmap(lambda b: kernel(a, b))(x))(x)


if __name__ == "__main__":
    kernel = RBF() + RBF(lengthscale=2.0, variance=0.5)
    x = jnp.linspace(0.0, 1.0, 4)[:, None]
    K = gram(kernel, x)
    print(K.shape, float(K.sum()))
