# source: https://github.com/pmelchior/scarlet2/pull/27
# category: C
# expect: stale
# via: equinox, optax, factory-closure, host-loop
# sink: closure-global
"""`Scene.fit` counts iterations in a local `it` that the optax step-size transform reads from its
closure; `_make_step` is filter-jitted with the optimizer as a static argument, so the step size is
computed with the `it` seen at the first trace and never follows the schedule."""
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
def _make_step(x, target, optim, opt_state):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(x, target)
    updates, opt_state = optim.update(grads, opt_state, x)
    return optax.apply_updates(x, updates), loss, opt_state


def fit(x, target, max_iter=5):
    it = 0

    def scale_by_stepsize():
        def init_fn(params):
            return optax.EmptyState()

        def update_fn(updates, state, params=None):
            return jax.tree.map(lambda u, p: -relative_step(p, it) * u, updates, params), state  # <-- bug

        return optax.GradientTransformation(init_fn, update_fn)

    optim = optax.chain(optax.scale_by_adam(), scale_by_stepsize())
    opt_state = optim.init(x)
    for step in range(max_iter):
        x, loss, opt_state = _make_step(x, target, optim, opt_state)
        print(step, loss)
        it += 1
    return x


if __name__ == "__main__":
    print(fit(jnp.ones(3), jnp.array([2.0, 3.0, 4.0])))
