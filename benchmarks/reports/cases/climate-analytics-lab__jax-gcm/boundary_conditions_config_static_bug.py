# source: https://github.com/climate-analytics-lab/jax-gcm/commit/b9c944caced40baf6bc476e9ddacaee114730424
# category: B
# expect: raises
# via: jit-call, static-argnums, dataclass, helper
# sink: static-unhashable
"""jax-gcm's JIT test compiled `simple_boundary_conditions` with `static_argnums=(6,)` so that the
`BoundaryConditionParameters` config would be static, but that config is a struct whose fields are
`jnp.array`s: hashing it fails, and jit refuses the static argument.  The commit dropped
`static_argnums` and lets the config be traced.  (tree_math's `struct` is reduced to a frozen
dataclass registered as a pytree, and the physics to a few lines.)"""
import dataclasses
import types

import jax
import jax.numpy as jnp


def _struct(cls):
    return jax.tree_util.register_dataclass(dataclasses.dataclass(frozen=True)(cls))


tree_math = types.SimpleNamespace(struct=_struct)


@tree_math.struct
class BoundaryConditionParameters:
    solar_constant: float
    co2_reference: float
    land_albedo_vis: float
    ocean_albedo_vis: float

    @classmethod
    def default(cls):
        return cls(
            solar_constant=jnp.array(1365.0),
            co2_reference=jnp.array(420.0),
            land_albedo_vis=jnp.array(0.15),
            ocean_albedo_vis=jnp.array(0.05),
        )


def simple_boundary_conditions(latitude, longitude, land_fraction, day_of_year, time_of_day, year, config=None):
    if config is None:
        config = BoundaryConditionParameters.default()
    hour_angle = (time_of_day / 24.0 - 0.5) * 2.0 * jnp.pi + longitude
    declination = 0.409 * jnp.sin(2.0 * jnp.pi * (day_of_year - 81.0) / 365.0)
    cos_zenith = jnp.sin(latitude) * jnp.sin(declination) + jnp.cos(latitude) * jnp.cos(declination) * jnp.cos(hour_angle)
    solar_irradiance = config.solar_constant * jnp.maximum(cos_zenith, 0.0)
    albedo = land_fraction * config.land_albedo_vis + (1.0 - land_fraction) * config.ocean_albedo_vis
    co2 = jnp.ones_like(latitude) * config.co2_reference
    return solar_irradiance, albedo, co2


def test_jax_jit_compilation():
    config = BoundaryConditionParameters.default()
    ncols = 5
    latitude = jnp.linspace(-jnp.pi / 2, jnp.pi / 2, ncols)
    longitude = jnp.zeros(ncols)
    land_fraction = jnp.ones(ncols) * 0.3
    jitted_bc = jax.jit(simple_boundary_conditions, static_argnums=(6,))
    solar_irradiance, albedo, co2 = jitted_bc(latitude, longitude, land_fraction, 180.0, 12.0, 2020.0, config)  # <-- bug
    assert solar_irradiance.shape == (ncols,)
    return solar_irradiance, albedo, co2


if __name__ == "__main__":
    print(test_jax_jit_compilation())
