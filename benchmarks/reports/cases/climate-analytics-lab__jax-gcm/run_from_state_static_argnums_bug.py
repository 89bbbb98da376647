# source: https://github.com/climate-analytics-lab/jax-gcm/commit/6e6ff4e062bac0b492298007281239c19003f901
# category: B
# expect: raises
# via: method, partial-jit, static-argnums, dataclass, lax-scan, lax-fori
# sink: static-spec
"""jax-gcm's `Model.run_from_state` was jitted with `static_argnums=(0, 1, 2)`, which names `self`,
`initial_state` and `boundaries`: the two pytrees of arrays were made static, and jit refuses them
as unhashable before tracing.  The commit changed the indices to `(0, 3, 4)`, the save interval and
total time that size the loops.  (The dynamical core is reduced to a relaxation step.)"""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    temperature: jax.Array
    sim_time: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class BoundaryData:
    surface_temperature: jax.Array


class Model:
    def __init__(self, time_step_days=0.5, relaxation=0.1):
        self.dt_days = time_step_days
        self.relaxation = relaxation

    def _step(self, state, boundaries):
        tendency = self.relaxation * (boundaries.surface_temperature - state.temperature)
        return State(state.temperature + self.dt_days * tendency, state.sim_time + self.dt_days)

    @partial(jax.jit, static_argnums=(0, 1, 2))  # Note: will not recompile if model fields change
    def run_from_state(self, initial_state, boundaries, save_interval=10.0, total_time=120.0):
        inner_steps = int(save_interval / self.dt_days)
        outer_steps = int(total_time / save_interval)

        def save_point(state, _):
            state = jax.lax.fori_loop(0, inner_steps, lambda i, s: self._step(s, boundaries), state)
            return state, state.temperature.mean()

        return jax.lax.scan(save_point, initial_state, None, length=outer_steps)


if __name__ == "__main__":
    model = Model()
    initial_state = State(jnp.full(8, 250.0), jnp.array(0.0))
    boundaries = BoundaryData(jnp.linspace(240.0, 300.0, 8))
    final_state, mean_temperature = model.run_from_state(  # <-- bug
        initial_state=initial_state, boundaries=boundaries, save_interval=5.0, total_time=20.0
    )
    print(final_state.sim_time, mean_temperature)
