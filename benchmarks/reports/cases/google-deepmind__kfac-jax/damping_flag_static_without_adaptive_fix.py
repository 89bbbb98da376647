# source: https://github.com/google-deepmind/kfac-jax/commit/320d0257e56d52163a50e116053a4981b99aec5b
# category: R
# expect: ok
# via: method, static-argnums, wrapper, host-loop
# sink: changing-static
"""K-FAC's `Optimizer.step` passes `should_update_damping` to its staged `_step` as a static
argument.  It was `(step_counter + 1) % damping_adaptation_interval == 0` even when adaptive
damping is off, so the flag flips every few steps and `_step` is compiled for both values
although the body ignores it; the commit folds `use_adaptive_damping` into the flag.  (The
optimizer and `utils.staged` are reduced here; the update is plain gradient descent.)"""
import functools

import jax
import jax.numpy as jnp


def staged(method=None, static_argnums=()):
    if method is None:
        return functools.partial(staged, static_argnums=static_argnums)

    @functools.wraps(method)
    def wrapped(self, *args):
        name = "_staged_" + method.__name__
        if name not in self.__dict__:
            self.__dict__[name] = jax.jit(functools.partial(method, self), static_argnums=static_argnums)
        return self.__dict__[name](*args)

    return wrapped


class Optimizer:
    def __init__(self, value_and_grad_func, use_adaptive_damping=False, damping_adaptation_interval=5,
                 curvature_update_period=1, learning_rate=0.1):
        self._value_and_grad_func = value_and_grad_func
        self._use_adaptive_damping = use_adaptive_damping
        self._damping_adaptation_interval = damping_adaptation_interval
        self._curvature_update_period = curvature_update_period
        self._learning_rate = learning_rate

    def should_update_damping(self, step_counter: int) -> bool:
        return ((step_counter + 1) % self._damping_adaptation_interval == 0) and (
            self._use_adaptive_damping
        )

    def should_update_estimate_curvature(self, step_counter: int) -> bool:
        return step_counter % self._curvature_update_period == 0

    @staged(static_argnums=(4, 5))
    def _step(self, params, state, batch, damping, should_update_estimate_curvature, should_update_damping):
        loss, grads = self._value_and_grad_func(params, batch)
        if should_update_estimate_curvature:
            state = {**state, "curvature": 0.95 * state["curvature"] + 0.05 * grads**2}
        delta = -self._learning_rate * grads / (state["curvature"] + damping)
        new_params = params + delta
        if should_update_damping:
            new_loss, _ = self._value_and_grad_func(new_params, batch)
            damping = jnp.where(new_loss < loss, damping * 0.9, damping * 1.1)
        state = {**state, "step_counter": state["step_counter"] + 1}
        return new_params, state, damping, loss

    def step(self, params, state, batch, damping):
        step_counter_int = int(state["step_counter"])
        should_update_estimate_curvature = self.should_update_estimate_curvature(step_counter_int)
        should_update_damping = self.should_update_damping(step_counter_int)
        return self._step(params, state, batch, damping,
                          should_update_estimate_curvature, should_update_damping)


if __name__ == "__main__":
    def loss_fn(params, batch):
        return jnp.mean((batch @ params - 1.0) ** 2)

    optimizer = Optimizer(jax.value_and_grad(loss_fn), use_adaptive_damping=False)
    params = jnp.zeros(3)
    state = {"curvature": jnp.ones(3), "step_counter": jnp.asarray(0)}
    damping = jnp.asarray(1.0)
    batch = jnp.arange(12.0).reshape(4, 3) / 10.0
    for i in range(8):
        params, state, damping, loss = optimizer.step(params, state, batch, damping)
    print(params, float(loss))
