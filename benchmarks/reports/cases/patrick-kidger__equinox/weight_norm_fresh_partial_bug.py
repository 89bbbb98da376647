# source: https://github.com/patrick-kidger/equinox/pull/1240
# category: R
# expect: recompiles
# via: equinox, pytree-class, jit-decorator, host-loop
# sink: fresh-callable
"""WeightNorm stored a functools.partial built afresh in every __init__ as a static field.  A
partial compares by identity, so two WeightNorms wrapping the same layer are unequal static
data to filter_jit and each new instance traces again; the fix builds the partial once per
axis with a cached module-level factory.  (WeightNorm reduced here under its name.)"""
import functools as ft

import equinox as eqx
import jax
import jax.numpy as jnp


def _norm_except_axis(v, norm, axis):
    if axis is None:
        return norm(v)
    return jax.vmap(norm, in_axes=axis, out_axes=axis)(v)


class WeightNorm(eqx.Module):
    layer: eqx.nn.Linear
    g: jax.Array
    _norm: object

    def __init__(self, layer, axis=0):
        self.layer = layer
        self._norm = ft.partial(_norm_except_axis, norm=ft.partial(jnp.linalg.norm, keepdims=True), axis=axis)
        self.g = self._norm(layer.weight)

    def __call__(self, x):
        v = self.layer.weight
        weight = v * self.g / self._norm(v)
        return weight @ x + self.layer.bias


@eqx.filter_jit
def f(model, x):
    return model(x)


if __name__ == "__main__":
    linear = eqx.nn.Linear(4, 4, key=jax.random.PRNGKey(0))
    x = jax.random.normal(jax.random.PRNGKey(1), (4,))
    for step in range(3):
        model = WeightNorm(layer=linear)
        print(step, f(model, x))  # <-- bug
