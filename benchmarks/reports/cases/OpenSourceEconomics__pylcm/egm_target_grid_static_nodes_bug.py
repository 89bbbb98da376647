# source: https://github.com/OpenSourceEconomics/pylcm/blob/88ce51dc7c7526ba7d5eaee788d2ccd95d9df2af/tests/solution/test_egm_continuation_grid_compilation.py#L25
# category: R
# expect: recompiles
# via: jit-call, static-argnums, helper, host-loop
# sink: changing-static
"""pylcm's EGM step reads next period's value off that period's liquid grid.  Its test jits the
reader with the grid's nodes as an ordinary array argument and asserts one compiled program for
five grids of the same shape but different nodes: baking the nodes into the program instead
(here as a static tuple) compiles the reader once per grid, i.e. once per period of an
age-specialized model.  (pylcm is not installed: `egm_one_asset_step` and the CRRA preferences
are reduced here.)"""
import jax
import jax.numpy as jnp


def crra_marginal(c, gamma=2.0):
    return c ** (-gamma)


def crra_inverse_marginal(m, gamma=2.0):
    return m ** (-1.0 / gamma)


def egm_one_asset_step(next_value, next_marginal, liquid_grid, next_liquid_grid, savings_grid,
                       discount_factor, next_liquid, marginal_return):
    next_grid = jnp.asarray(next_liquid_grid)
    cont_marginal = jnp.interp(next_liquid, next_grid, next_marginal)
    cont_value = jnp.interp(next_liquid, next_grid, next_value)
    consumption = crra_inverse_marginal(discount_factor * marginal_return * cont_marginal)
    endogenous_liquid = savings_grid + consumption
    value = -1.0 / consumption + discount_factor * cont_value
    return jnp.interp(liquid_grid, endogenous_liquid, value)


def _reader_cache_entries(next_m_grids):
    liquid_grid = jnp.linspace(0.5, 3.0, 5)
    savings_grid = jnp.linspace(0.0, 2.0, 6)
    gross_return, income = 1.02, 1.0

    def read(next_value, next_marginal, next_liquid_grid):
        return egm_one_asset_step(
            next_value, next_marginal, liquid_grid, next_liquid_grid, savings_grid, 0.98,
            next_liquid=gross_return * savings_grid + income,
            marginal_return=jnp.full_like(savings_grid, gross_return),
        )

    read = jax.jit(read, static_argnums=(2,))
    for next_liquid_grid in next_m_grids:
        next_value = 2.0 * next_liquid_grid
        next_marginal = crra_marginal(next_liquid_grid)
        nodes = tuple(float(x) for x in next_liquid_grid)
        print(jnp.round(read(next_value, next_marginal, nodes), 4))  # <-- bug


if __name__ == "__main__":
    _reader_cache_entries([jnp.linspace(0.5, stop, 5) for stop in (3.0, 3.5, 4.0, 4.5, 5.0)])
