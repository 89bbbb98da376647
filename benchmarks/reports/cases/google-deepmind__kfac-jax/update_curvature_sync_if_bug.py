# source: https://github.com/google-deepmind/kfac-jax/commit/c275017f3457d0ce4e91cd3ac22a9d9a48c98661
# category: A
# expect: raises
# via: jit-call, method, lax-cond, dataclass
# sink: python-if
"""The optimizer syncs its curvature estimate only on steps where the inverse is refreshed;
`sync` is computed from the traced step counter, and the curvature update tested it with a
Python `if`, which fails inside the jitted step."""
import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax import lax


class Estimator:
  def update_curvature_matrix_estimate(self, state, ema_old, ema_new, batch):
    return ema_old * state + ema_new * jnp.mean(batch ** 2)

  def sync(self, state, pmap_axis_name=None):
    return state * 1.0


@dataclasses.dataclass
class State:
  step_counter: jnp.ndarray
  estimator_state: jnp.ndarray


jax.tree_util.register_dataclass(State, data_fields=["step_counter", "estimator_state"], meta_fields=[])


class Optimizer:
  def __init__(self, inverse_update_period=5, curvature_ema=0.95):
    self.estimator = Estimator()
    self._inverse_update_period = inverse_update_period
    self._curvature_ema = curvature_ema
    self.pmap_axis_name = None

  def should_update_inverse_cache(self, state):
    if self._inverse_update_period == 1:
      return True
    return state.step_counter % self._inverse_update_period == 0

  def _update_estimator_curvature(self, estimator_state, batch, ema_old, ema_new, sync=True):
    state = self.estimator.update_curvature_matrix_estimate(estimator_state, ema_old, ema_new, batch)
    if sync:  # <-- bug
      state = self.estimator.sync(state, pmap_axis_name=self.pmap_axis_name)
    return state

  def _maybe_update_estimator_curvature(self, state, batch, ema_old, ema_new, sync=True):
    estimator_state = lax.cond(
        state.step_counter % 2 == 0,
        functools.partial(self._update_estimator_curvature, batch=batch, ema_old=ema_old,
                          ema_new=ema_new, sync=sync),
        lambda state_: state_,
        state.estimator_state)
    return State(state.step_counter, estimator_state)

  def step(self, state, batch):
    state = self._maybe_update_estimator_curvature(
        state, batch, self._curvature_ema, 1.0,
        sync=self.should_update_inverse_cache(state))
    return State(state.step_counter + 1, state.estimator_state)


if __name__ == "__main__":
  opt = Optimizer()
  step = jax.jit(opt.step)
  state = State(jnp.asarray(0), jnp.asarray(0.0))
  for i in range(4):
    state = step(state, jnp.arange(4.0) + i)
  print(state.step_counter, state.estimator_state)
