# source: https://github.com/mvdh7/pytzer/pull/55
# category: A
# expect: raises
# via: jit-call, helper, dict-of-arrays
# sink: python-if
"""The equilibrium solver says it can be jitted by the user, but after its Newton iterations it
decided whether to warn about convergence with `if np.any(np.abs(stoich_adjust) > warn_cutoff)`;
under `jax.jit` the adjustment is traced and the `if` needs a concrete bool."""
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
    if np.any(np.abs(stoich_adjust) > warn_cutoff):  # <-- bug
        warnings.warn(
            "Solver did not converge below `warn_cutoff` - try increasing `iter_stoich`."
        )
    return SolveStoichResultRaw(stoich, stoich_adjust)


if __name__ == "__main__":
    totals = {"H": np.array(1e-3), "CO2": np.array(2e-3)}
    thermo = np.array([np.log(1e-6)])
    solve_jit = jax.jit(partial(solve_stoich, iter_stoich=12))
    print(solve_jit(totals, 298.15, 10.0, thermo))
