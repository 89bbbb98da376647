# source: https://github.com/patrick-kidger/equinox/issues/125
# category: B
# expect: ok
# via: equinox, jit-call, class-attribute
# sink: static-unhashable
"""The reporter wrapped an Equinox module that holds another module with an array field in
a jit, the way PyTorch compiles a module.  As the maintainer answered, `eqx.filter_jit` treats the
module itself as an argument: its arrays are traced and only the rest is hashed, so the inner
module's array no longer has to be hashable."""
import equinox as eqx
import jax


class FirstModule(eqx.Module):
    params: float
    array: jax.Array

    def __init__(self, param: float):
        self.params = param
        self.array = jax.numpy.array([param])

    def __call__(self, x):
        return self.array + x


class SecondModule(eqx.Module):
    first_module: FirstModule

    def __init__(self, first_module: FirstModule):
        self.first_module = first_module

    def __call__(self, x):
        return self.first_module(x)


if __name__ == "__main__":
    first_module = FirstModule(1.0)
    second_module = SecondModule(first_module)
    second_module = eqx.filter_jit(second_module)
    for x in (2.0, 3.0):
        print(second_module(x))
