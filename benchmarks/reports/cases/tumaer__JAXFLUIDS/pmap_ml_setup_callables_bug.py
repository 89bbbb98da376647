# source: https://github.com/tumaer/JAXFLUIDS/commit/9ffb5244bbfd4fc86f4ae879de0dc594985bef17
# category: B
# expect: raises
# via: pmap, method, namedtuple
# sink: static-spec
"""JAX-Fluids' InitializationManager pmapped its `extension_and_interface_quantities` method and
passed the whole `MachineLearningSetup` (a NamedTuple of learned callables and their parameters)
with `in_axes=None`.  pmap treats it as data, and the callables inside are not valid JAX types,
so initialisation fails as soon as a machine-learned flux function is supplied."""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class ConvectiveFluxesSetup(NamedTuple):
    flux_function: Any = None


class BaseSetup(NamedTuple):
    convective_fluxes: ConvectiveFluxesSetup = None


class ParametersSetup(BaseSetup):
    pass


class CallablesSetup(BaseSetup):
    pass


class MachineLearningSetup(NamedTuple):
    callables: CallablesSetup = None
    parameters: ParametersSetup = None


def learned_flux(params, u):
    return jnp.tanh(params["w"] * u) + params["b"]


class InitializationManager:
    def extension_and_interface_quantities(self, primitives, levelset, physical_time, ml_setup):
        flux_fn = ml_setup.callables.convective_fluxes.flux_function
        flux_params = ml_setup.parameters.convective_fluxes.flux_function
        flux = flux_fn(flux_params, primitives)
        primitives = primitives + physical_time * flux * (levelset > 0.0)
        residual = jnp.max(jnp.abs(flux))
        return primitives, levelset, residual

    def initialization(self, primitives, levelset, physical_time, ml_setup):
        extension_and_interface_quantities_fn = jax.pmap(
            self.extension_and_interface_quantities,
            axis_name="i",
            in_axes=(0, 0, None, None),
            out_axes=(0, 0, None),
        )
        return extension_and_interface_quantities_fn(  # <-- bug
            primitives, levelset, physical_time, ml_setup)


if __name__ == "__main__":
    n = jax.local_device_count()
    primitives = jnp.ones((n, 8))
    levelset = jnp.linspace(-1.0, 1.0, 8)[None].repeat(n, axis=0)
    ml_setup = MachineLearningSetup(
        callables=CallablesSetup(ConvectiveFluxesSetup(flux_function=learned_flux)),
        parameters=ParametersSetup(ConvectiveFluxesSetup(flux_function={"w": 0.5, "b": 0.1})),
    )
    primitives, levelset, residual = InitializationManager().initialization(
        primitives, levelset, 0.1, ml_setup)
    print(primitives, residual)
