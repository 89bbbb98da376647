# source: https://github.com/brentyi/jaxls/commit/7ded98049adc166fce5dbb1d0a18af2457d7e1aa
# category: C
# expect: raises
# via: jit-decorator, class-attribute, factory-closure, helper
# sink: leaked-tracer
"""jaxls kept a module-level cache so that factors whose residual functions have the same
bytecode and closure reuse the first function seen.  A closure over a traced weight prints the
same in every trace, so a second trace of the solver is handed the function from the first one,
whose closed-over tracer has escaped, and JAX refuses it."""
import dis

import jax
import jax.numpy as jnp

_function_cache = {}


def _get_function_signature(func):
    closure = func.__closure__
    if closure:
        closure_vars = tuple(sorted(str(cell.cell_contents) for cell in closure))
    else:
        closure_vars = ()
    bytecode_tuple = tuple((instr.opname, instr.argrepr) for instr in dis.Bytecode(func))
    return bytecode_tuple, closure_vars


class Factor:
    def __init__(self, compute_residual, args):
        self.compute_residual = compute_residual
        self.args = args

    @staticmethod
    def make(compute_residual, args):
        # Two functions with the same signature: always use the first one (helps vectorization).
        compute_residual = _function_cache.setdefault(  # <-- bug
            _get_function_signature(compute_residual), compute_residual
        )
        return Factor(compute_residual, args)


class FactorGraph:
    def __init__(self, factors):
        self.factors = tuple(factors)

    def cost(self, vals):
        return sum(jnp.sum(f.compute_residual(vals, *f.args) ** 2) for f in self.factors)

    def solve(self, init, steps=20, lr=0.1):
        vals = init
        for _ in range(steps):
            vals = vals - lr * jax.grad(self.cost)(vals)
        return vals


@jax.jit
def fit(prior_weight, observations):
    factors = [
        Factor.make(lambda vals, obs: vals - obs, (observations,)),
        Factor.make(lambda vals, ref: prior_weight * (vals - ref), (jnp.zeros_like(observations),)),
    ]
    return FactorGraph(factors).solve(jnp.zeros_like(observations))


if __name__ == "__main__":
    print(fit(0.5, jnp.array([1.0, 2.0, 3.0])))
    print(fit(0.5, jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])))  # <-- bug
