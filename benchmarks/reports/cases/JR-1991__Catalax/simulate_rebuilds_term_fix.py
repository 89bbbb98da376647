# source: https://github.com/JR-1991/Catalax/issues/1
# category: R
# expect: ok
# via: method, equinox, helper, factory-closure, lax-fori, host-loop
# sink: fresh-callable
"""`Model.simulate` converts the model's symbolic equations into a new Equinox `Stack` of
modules and a new `ODETerm` on every call; the term's callables are static parts of the pytree
given to the filter-jitted `diffeqsolve`, so each simulation traces and compiles the solver
again.  The fix builds the term once and stores it on the model.  (sympy2jax and diffrax are
not installed: the symbolic module and the solver are reduced here under their names.)"""
from typing import Callable, Dict, List

import equinox as eqx
import jax
import jax.numpy as jnp


class SymbolicModule(eqx.Module):
    fn: Callable

    def __init__(self, expression):
        self.fn = eval("lambda s, p, k_cat, K_m, e: " + expression)

    def __call__(self, **kwargs):
        return self.fn(**kwargs)


class Stack(eqx.Module):
    modules: List[eqx.Module]

    def __call__(self, t, y, args):
        maps, parameters = args
        ys = {symbol: y[..., i] for i, symbol in enumerate(maps)}
        return jnp.stack([m(**ys, **parameters) for m in self.modules], axis=-1)


class ODETerm(eqx.Module):
    vector_field: Callable


@eqx.filter_jit
def diffeqsolve(term, t0, t1, dt0, y0, args, ts):
    n = int((t1 - t0) / dt0)

    def body(i, y):
        return y + dt0 * term.vector_field(t0 + i * dt0, y, args)

    y1 = jax.lax.fori_loop(0, n, body, y0)
    return ts, y1


class Model:
    def __init__(self, odes: Dict[str, str], parameters: Dict[str, jax.Array]):
        self.odes, self.parameters = odes, parameters
        self.term = None

    def simulate(self, initial_conditions, t0, t1, dt0, nsteps):
        species_order = sorted(self.odes)
        if self.term is None:
            # Setup the jitted system if not done yet
            self._setup_system(species_order)
        term = self.term
        y0 = jnp.array([initial_conditions[s] for s in species_order])
        ts = jnp.linspace(t0, t1, nsteps)
        return diffeqsolve(term, t0, t1, dt0, y0, (species_order, self.parameters), ts)

    def _setup_system(self, species_order):
        system = Stack(modules=[SymbolicModule(self.odes[s]) for s in species_order])
        self.term = ODETerm(system)


if __name__ == "__main__":
    model = Model({"s": "-k_cat * e * s / (K_m + s)", "p": "k_cat * e * s / (K_m + s)"},
                  {"k_cat": jnp.float32(2.0), "K_m": jnp.float32(5.0), "e": jnp.float32(0.1)})
    for s0 in [10.0, 20.0, 40.0]:
        ts, y = model.simulate({"s": s0, "p": 0.0}, t0=0, t1=10, dt0=0.1, nsteps=20)
        print(s0, y)
