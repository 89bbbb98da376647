# source: https://github.com/alexisiddiqui/JAX-ENT/commit/2f6f2c018f979f06650790b0a77f0723595a31ae
# category: B
# expect: raises
# via: pytree-class, dataclass, jit-decorator, method
# sink: static-metadata
"""JAX-ENT's `Simulation.tree_flatten` put the input features (dataclasses of contact arrays) in
the aux data; a jitted function called on a second simulation with other features makes JAX
compare the two treedefs' metadata, and comparing the arrays fails."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


@dataclass(slots=True, frozen=True)
class BV_input_features:
    heavy_contacts: jax.Array
    acceptor_contacts: jax.Array
    k_ints: jax.Array

    @property
    def features_shape(self):
        return self.heavy_contacts.shape

    def cast_to_jax(self):
        return BV_input_features(
            jnp.asarray(self.heavy_contacts), jnp.asarray(self.acceptor_contacts), jnp.asarray(self.k_ints)
        )


register_pytree_node(
    BV_input_features,
    lambda f: ((f.heavy_contacts, f.acceptor_contacts, f.k_ints), None),
    lambda _, leaves: BV_input_features(*leaves),
)


class BV_model:
    def forwardpass(self, features, params):
        return params["bh"] * features.heavy_contacts + params["be"] * features.acceptor_contacts


class Simulation:
    def __init__(self, input_features, forward_models, params):
        self.input_features = input_features
        self.forward_models = forward_models
        self.params = params
        self.forwardpass = tuple([model.forwardpass for model in self.forward_models])
        self.outputs = tuple()

    def initialise(self):
        self.length = self.input_features[0].features_shape[-1]
        self._input_features = tuple([feature.cast_to_jax() for feature in self.input_features])
        return True

    def tree_flatten(self):
        dynamic_values = (self.params, self.outputs)
        aux_data = (
            self.input_features,
            self.forward_models,
            self.forwardpass,
            self.length,
            self._input_features,
        )
        return dynamic_values, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, dynamic_values):
        input_features, forward_models, forwardpass, length, _input_features = aux_data
        params, outputs = dynamic_values
        instance = cls(input_features, forward_models, params)
        instance.forwardpass = forwardpass
        instance.length = length
        instance.outputs = tuple(outputs)
        instance._input_features = _input_features
        return instance


register_pytree_node(Simulation, Simulation.tree_flatten, Simulation.tree_unflatten)

MODELS = [BV_model()]


def create_bv_simulation(heavy_contacts, acceptor_contacts, k_ints):
    features = [BV_input_features(heavy_contacts, acceptor_contacts, k_ints)]
    params = {"bh": jnp.float32(0.35), "be": jnp.float32(2.0)}
    simulation = Simulation(input_features=features, forward_models=MODELS, params=params)
    simulation.initialise()
    return simulation


@jax.jit
def contact_total(simulation):
    features = simulation._input_features[0]
    return jnp.sum(features.heavy_contacts) + jnp.sum(features.acceptor_contacts) + jnp.sum(features.k_ints)


if __name__ == "__main__":
    heavy_1 = jnp.asarray([[0.2, 0.4, 0.6], [0.8, 1.0, 1.2]], dtype=jnp.float32)
    acceptor_1 = jnp.asarray([[1.1, 1.0, 0.9], [0.7, 0.5, 0.3]], dtype=jnp.float32)
    k_ints_1 = jnp.asarray([0.05, 0.15], dtype=jnp.float32)

    simulation_1 = create_bv_simulation(heavy_1, acceptor_1, k_ints_1)
    simulation_2 = create_bv_simulation(heavy_1 + 2.0, acceptor_1 + 3.0, k_ints_1 + 0.4)

    total_1 = contact_total(simulation_1)
    total_2 = contact_total(simulation_2)  # <-- bug
    print(float(total_1), float(total_2))
