# source: https://github.com/climate-analytics-lab/jax-gcm/commit/6897a9ad4b6eb083dcb25b2ed7e202acc36ca8ce
# category: B
# expect: raises
# via: method, partial-jit, static-argnums, pytree-class, dataclass, lax-scan
# sink: static-metadata
"""jax-gcm's `Predictions` was a `tree_math.struct`, so every field was a pytree leaf, including
the two conversion callables `_data_to_xarray` and `_data_struct_to_dict`.  Returning it from the
jitted `Model.unroll` fails: a function is not a valid JAX type.  The commit registered
`Predictions` by hand with the callables as static aux data.  (tree_math's `struct` is reduced to a
dataclass registered with every field as data; xarray output to a dict.)"""
import dataclasses
import types
from functools import partial
from typing import Any, Callable

import jax
import jax.numpy as jnp


def _struct(cls):
    return jax.tree_util.register_dataclass(dataclasses.dataclass(frozen=True)(cls))


tree_math = types.SimpleNamespace(struct=_struct)


def data_to_xarray(data):
    return {name: value.tolist() for name, value in data.items()}


@tree_math.struct
class Predictions:
    dynamics: Any
    physics: Any
    _data_to_xarray: Callable
    _data_struct_to_dict: Callable

    def to_xarray(self):
        return self._data_to_xarray({"temperature": self.dynamics} | self._data_struct_to_dict(self.physics))


class Model:
    def __init__(self, relaxation=0.2):
        self.relaxation = relaxation

    @partial(jax.jit, static_argnums=(0, 2))
    def unroll(self, temperature, outer_steps):
        def step(t, _):
            t = t + self.relaxation * (280.0 - t)
            return t, (t, {"heating": self.relaxation * (280.0 - t)})

        _, (dynamics, physics) = jax.lax.scan(step, temperature, None, length=outer_steps)
        return Predictions(dynamics, physics, data_to_xarray, lambda p: dict(p))


if __name__ == "__main__":
    model = Model()
    predictions = model.unroll(jnp.array([250.0, 300.0]), 3)  # <-- bug
    print(predictions.to_xarray())
