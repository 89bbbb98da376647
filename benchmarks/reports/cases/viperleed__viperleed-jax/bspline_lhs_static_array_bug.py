# source: https://github.com/viperleed/viperleed-jax/commit/db51de31bf5daa0db9284ac49a50855109fceb6b
# category: B
# expect: raises
# via: partial-jit, static-argnums, helper
# sink: static-array
"""viperleed-jax jitted its B-spline interpolation with the collocation matrix `lhs` (and the
De Boor coefficients and intervals) as static arguments to avoid recomputing them, but they are
NumPy arrays, which JAX cannot hash; the fix wraps them in a hashable array class."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from scipy import interpolate


def find_interval(knots, x_val, intpol_deg):
    """Return index of interval in knots that contains x_val"""
    if not jnp.all(knots[:-1] <= knots[1:]):
        raise ValueError('knots must be sorted')
    return jnp.clip(jnp.searchsorted(knots, x_val, side='left'),
                    min=intpol_deg + 1, max=knots.size - intpol_deg - 1) - 1


@partial(jax.jit, static_argnames=('lhs',))
def get_bspline_coeffs(lhs, rhs):
    """Solves the linear system lhs * coeffs = rhs for coeffs."""
    return jnp.linalg.inv(lhs) @ rhs


@jax.jit
def not_a_knot_rhs(values):
    return values.reshape(-1, 1)


def calc_de_boor(knots, target_grid, deriv_order, intpol_deg):
    """The De Boor coefficients (nonzero B-spline values) at each target point."""
    basis = interpolate.BSpline.design_matrix(target_grid, knots, intpol_deg).toarray()
    intervals = np.asarray(find_interval(knots, target_grid, intpol_deg))
    de_boor_matrix = np.zeros((intpol_deg + 1, target_grid.size))
    for i, interval in enumerate(intervals):
        de_boor_matrix[:, i] = basis[i, interval - intpol_deg:interval + 1]
    return de_boor_matrix, intervals


@partial(jax.jit, static_argnames=('de_boor_coeffs', 'intervals', 'intpol_deg',))
def evaluate_spline(spline_coeffs, de_boor_coeffs, intervals, intpol_deg):
    lower_indices = intervals - intpol_deg
    coeff_indices = lower_indices.reshape(-1, 1) + np.arange(intpol_deg + 1)
    coeff_subarrays = spline_coeffs[coeff_indices].reshape(-1, intpol_deg + 1)
    return jnp.einsum('ij,ji->i', coeff_subarrays, de_boor_coeffs)


def set_up_knots_and_lhs(original_grid, intpol_deg):
    knots = interpolate.make_interp_spline(original_grid, np.zeros_like(original_grid), k=intpol_deg).t
    full_colloc_matrix = interpolate.BSpline.design_matrix(original_grid, knots, intpol_deg).toarray()
    return knots, full_colloc_matrix


if __name__ == "__main__":
    intpol_deg = 3
    energies = np.linspace(20.0, 200.0, 19)
    target = np.linspace(21.5, 198.5, 40)
    knots, lhs = set_up_knots_and_lhs(energies, intpol_deg)
    de_boor, intervals = calc_de_boor(knots, target, 0, intpol_deg)
    results = []
    for phase in (0.0, 0.5):  # e.g. one interpolation per beam
        values = jnp.asarray(np.sin(energies / 25.0 + phase))
        coeffs = get_bspline_coeffs(lhs, not_a_knot_rhs(values))  # <-- bug
        results.append(evaluate_spline(coeffs, de_boor, intervals, intpol_deg))
    ref = interpolate.make_interp_spline(energies, np.sin(energies / 25.0), k=intpol_deg)(target)
    print(float(jnp.abs(results[0] - ref).max()) < 1e-3, [round(float(r[5]), 4) for r in results])
