# source: https://github.com/google-deepmind/optax/blob/2edbcbe2390da13983b92cbef94ac0460ecde1c5/optax/schedules/_inject_test.py#L259
# category: B
# expect: ok
# via: optax, jit-call, factory-closure
# sink: static-spec
"""Optax's tests check that `inject_hyperparams` rejects a `static_args` spec naming a parameter
the wrapped factory does not have: `optax.scale` takes `step_size`, so `static_args='lr'` matches
nothing and the wrapper refuses it when it is built.  Naming the real parameter keeps the step
size static."""
import jax
import jax.numpy as jnp
import optax


def loss(params, x):
    return jnp.sum((params["w"] * x - 1.0) ** 2)


if __name__ == "__main__":
    params = {"w": jnp.ones(3)}
    x = jnp.arange(3.0)
    opt = optax.inject_hyperparams(optax.scale, static_args=("step_size",))(-0.1)
    state = jax.jit(opt.init)(params)
    update = jax.jit(opt.update)
    for step in range(3):
        grads = jax.grad(loss)(params, x)
        updates, state = update(grads, state)
        params = optax.apply_updates(params, updates)
        print(step, float(loss(params, x)))
