# source: https://github.com/climate-analytics-lab/jax-gcm/commit/6897a9ad4b6eb083dcb25b2ed7e202acc36ca8ce
# category: B
# expect: ok
# via: method, partial-jit, static-argnums, pytree-class, dataclass, lax-scan
# sink: static-metadata
"""jax-gcm's `Predictions` had been a `tree_math.struct` whose conversion callables were pytree
leaves.  The commit registered `Predictions` by hand: the dynamics and physics outputs are the
children and the two callables are static aux data, so it can be returned from the jitted
`Model.unroll`.  (xarray output is reduced to a dict.)"""
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


@dataclasses.dataclass
class Predictions:
    dynamics: Any
    physics: Any
    _data_to_xarray: Callable
    _data_struct_to_dict: Callable

    def to_xarray(self):
        return self._data_to_xarray({"temperature": self.dynamics} | self._data_struct_to_dict(self.physics))

    def tree_flatten(self):
        return (self.dynamics, self.physics), (self._data_to_xarray, self._data_struct_to_dict)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children, *aux_data)


jax.tree_util.register_pytree_node(Predictions, Predictions.tree_flatten, Predictions.tree_unflatten)


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
    predictions = model.unroll(jnp.array([250.0, 300.0]), 3)
    print(predictions.to_xarray())
