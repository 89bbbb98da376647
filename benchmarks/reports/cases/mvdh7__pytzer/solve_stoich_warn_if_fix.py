# source: https://github.com/mvdh7/pytzer/pull/55
# category: A
# expect: ok
# via: jit-call, helper, dict-of-arrays
# sink: python-if
"""The equilibrium solver raises its convergence warning through `jax.lax.cond` on the traced
adjustment, with the message sent by a debug callback, so the user can jit the whole solver."""
import warnings
from collections import namedtuple
from functools import partial

import jax
from jax import numpy as np

SolveStoichResultRaw = namedtuple("SolveStoichResultRaw", ["stoich", "stoich_adjust"])


def get_stoich_error(stoich, totals, thermo, stoich_targets):
    h = np.exp(stoich)
    return h + totals["CO2"] * h / (h + np.exp(thermo[0])) - stoich_targets


def get_stoich_adjust(stoich, totals, thermo, stoich_targets):
    err = get_stoich_error(stoich, totals, thermo, stoich_targets)
    jac = jax.jacfwd(get_stoich_error)(stoich, totals, thermo, stoich_targets)
    return -err / jac


def _warn_not_converged():
    warnings.warn(
        "Solver did not converge below `warn_cutoff` - try increasing `iter_stoich`."
    )


def solve_stoich(totals, temperature, pressure, thermo, stoich=None, iter_stoich=10,
                 verbose=False, warn_cutoff=1e-8):
    totals = totals.copy()
    stoich_targets = totals["H"] + totals["CO2"]
    if stoich is None:
        stoich = np.log(stoich_targets)
    for _s in range(iter_stoich):
        stoich_adjust = get_stoich_adjust(stoich, totals, thermo, stoich_targets)
        if verbose:
            print("STOICH", _s + 1)
        stoich = stoich + stoich_adjust
    jax.lax.cond(
        np.any(np.abs(stoich_adjust) > warn_cutoff),
        lambda: jax.debug.callback(_warn_not_converged),
        lambda: None,
    )
    return SolveStoichResultRaw(stoich, stoich_adjust)


if __name__ == "__main__":
    totals = {"H": np.array(1e-3), "CO2": np.array(2e-3)}
    thermo = np.array([np.log(1e-6)])
    solve_jit = jax.jit(partial(solve_stoich, iter_stoich=12))
    print(solve_jit(totals, 298.15, 10.0, thermo))
