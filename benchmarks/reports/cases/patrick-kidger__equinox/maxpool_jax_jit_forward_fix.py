# source: https://github.com/patrick-kidger/equinox/issues/149
# category: B
# expect: ok
# via: equinox, jit-decorator, vmap, pytree-class
# sink: static-spec
"""A network holding an `eqx.nn.MaxPool2d` is handed to a forward function decorated with plain
`jax.jit`; the pool keeps its reduction function (`operation`) as a pytree leaf, so jax.jit tries
to treat a Python function as an array argument; `eqx.filter_jit` traces only the arrays and
keeps the function static."""
import equinox as eqx
import equinox.nn as nn
import jax
import jax.random as jrandom


class Net(eqx.Module):
    maxp: eqx.Module

    def __init__(self):
        super().__init__()
        self.maxp = nn.MaxPool2d(kernel_size=3, stride=2)

    def __call__(self, x):
        return self.maxp(x)


@eqx.filter_jit
def forward(model, x):
    return jax.vmap(model)(x)


if __name__ == "__main__":
    model = Net()
    random_image = jrandom.uniform(key=jrandom.PRNGKey(0), shape=(1, 3, 32, 32))
    output = forward(model, random_image)
    print(output.shape)
