# source: https://github.com/patrick-kidger/equinox/issues/125
# category: B
# expect: raises
# via: equinox, jit-call, class-attribute
# sink: static-unhashable
"""The reporter wrapped an Equinox module that holds another module with an array field in
`jax.jit(second_module)`, the way PyTorch compiles a module.  `jax.jit` treats the callable it is
given as static and hashes it for its cache; a Module hashes its fields, and the inner module's
array cannot be hashed, so the first call fails."""
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
    second_module = jax.jit(second_module)
    for x in (2.0, 3.0):
        print(second_module(x))  # <-- bug
