# source: https://github.com/uwplasma/vmex/pull/231
# category: R
# expect: ok
# via: pytree-class, dataclass, jit-decorator, lax-while, helper, host-loop
# sink: changing-static
"""`SolverRuntime` is passed to the module-level jitted `_while_lane` as a pytree, and `ftol` was
one of its static meta fields although the loop only compares against it; solving the same
equilibrium at a second tolerance therefore compiled the whole lane again.  The pull request
makes `ftol` a traced data scalar, so runs at different tolerances share one executable.
(The VMEC force iteration is reduced to a damped relaxation here.)"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax


@dataclass(frozen=True, eq=False)
class SolverRuntime:
    x0: jax.Array
    pressure: jax.Array
    ftol: jax.Array
    ns: int
    max_iterations: int
    time_step0: float


jax.tree_util.register_dataclass(
    SolverRuntime, data_fields=["x0", "pressure", "ftol"],
    meta_fields=["ns", "max_iterations", "time_step0"])


def _force(x, rt):
    return jnp.diff(x, prepend=0.0, append=0.0)[:-1] * rt.ns - rt.pressure + x ** 3


@jax.jit
def _while_lane(carry, rt):
    def body(c):
        x, it, _ = c
        f = _force(x, rt)
        return x - rt.time_step0 * f, it + 1, jnp.sum(f ** 2)

    def cond(c):
        _, it, fsq = c
        return (fsq > rt.ftol) & (it < rt.max_iterations)

    return lax.while_loop(cond, body, carry)


def solve(pressure, ftol, ns=8, max_iterations=500, time_step0=0.05):
    rt = SolverRuntime(x0=jnp.zeros(ns), pressure=pressure, ftol=jnp.float32(ftol), ns=ns,
                       max_iterations=max_iterations, time_step0=time_step0)
    carry = (rt.x0, jnp.int32(0), jnp.float32(jnp.inf))
    x, iterations, fsq = _while_lane(carry, rt)
    return x, int(iterations), float(fsq)


if __name__ == "__main__":
    pressure = jnp.linspace(0.1, 0.0, 8)
    for ftol in [1e-6, 1e-8, 1e-10]:
        x, iterations, fsq = solve(pressure, ftol)
        print(ftol, iterations, float(x[0]))
