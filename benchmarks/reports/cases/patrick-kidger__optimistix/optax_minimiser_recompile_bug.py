# source: https://github.com/patrick-kidger/optimistix/blob/6415ab15480ebdb7386e17850105ce0dba6786ec/tests/test_minimise.py#L176
# category: R
# expect: recompiles
# via: equinox, optax, pytree-class, jit-call, lax-fori, host-loop
# sink: fresh-callable
"""Optimistix's OptaxMinimiser recompilation test: two solvers wrapping Optax optimisers that
differ only in their (array) learning rate must not trace the objective twice.  Stored raw, the
optimiser is a tuple of closures, i.e. static data compared by identity, so every new solver
compiles minimise again; the solver converts it with closure_to_pytree so the learning rate is
a traced leaf.  (optimistix is not installed: OptaxMinimiser and minimise are reduced here.)"""
import equinox as eqx
import equinox.internal as eqxi
import jax
import jax.numpy as jnp
import optax


class OptaxMinimiser(eqx.Module):
    optim: optax.GradientTransformation
    rtol: float
    atol: float

    def __init__(self, optim, rtol, atol):
        self.optim = optim
        self.rtol = rtol
        self.atol = atol


@eqx.filter_jit
def minimise(fn, solver, y0, max_steps=32):
    state = solver.optim.init(y0)

    def body(i, carry):
        y, state = carry
        grads = jax.grad(fn)(y, None)
        updates, state = solver.optim.update(grads, state)
        return optax.apply_updates(y, updates), state

    y, _ = jax.lax.fori_loop(0, max_steps, body, (y0, state))
    return y


def f(x, _):
    return x**2


if __name__ == "__main__":
    y0 = jnp.ones((), jnp.float32)
    for lr in [1e-3, 1e-2, 1e-1]:
        optim = optax.chain(
            optax.adam(jnp.array(lr, jnp.float32)),
            optax.scale_by_schedule(optax.piecewise_constant_schedule(1, {200: 0.1})),
        )
        solver = OptaxMinimiser(optim, rtol=1e-3, atol=1e-3)
        print(lr, round(float(minimise(f, solver, y0)), 3))  # <-- bug
