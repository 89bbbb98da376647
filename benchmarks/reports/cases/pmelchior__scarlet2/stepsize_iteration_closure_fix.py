# source: https://github.com/pmelchior/scarlet2/pull/27
# category: C
# expect: ok
# via: equinox, optax, host-loop
# sink: closure-global
"""The iteration number is passed to `_make_step` as an array and handed to the step-size
transform with the parameters, so every step uses the current point of the schedule."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def schedule(it):
    return 1.0 / (1.0 + it)


def relative_step(x, it, factor=0.5):
    return factor * jnp.linalg.norm(x) * schedule(it)


def loss_fn(x, target):
    return jnp.sum((x - target) ** 2)


@eqx.filter_jit
def _make_step(x, target, optim, opt_state, it):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(x, target)
    updates, opt_state = optim.update(grads, opt_state, [x, it])
    return optax.apply_updates(x, updates), loss, opt_state


def fit(x, target, max_iter=5):
    def scale_by_stepsize():
        def init_fn(params):
            return optax.EmptyState()

        def update_fn(updates, state, params=None):
            params, it = params
            return jax.tree.map(lambda u, p: -relative_step(p, it) * u, updates, params), state

        return optax.GradientTransformation(init_fn, update_fn)

    optim = optax.chain(optax.scale_by_adam(), scale_by_stepsize())
    opt_state = optim.init(x)
    for step in range(max_iter):
        x, loss, opt_state = _make_step(x, target, optim, opt_state, jnp.asarray(step))
        print(step, loss)
    return x


if __name__ == "__main__":
    print(fit(jnp.ones(3), jnp.array([2.0, 3.0, 4.0])))
