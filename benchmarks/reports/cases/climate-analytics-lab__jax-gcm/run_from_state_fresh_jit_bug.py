# source: https://github.com/climate-analytics-lab/jax-gcm/commit/0709a423d2712bf0d4ba187416df3be39d879d5d
# category: R
# expect: recompiles
# via: jit-call, method, factory-closure, checkpoint, lax-scan, host-loop
# sink: fresh-callable
"""jax-gcm's `Model.run_from_state` built the step function and wrapped a new
`trajectory_from_step(...)` closure in `jax.jit` on every call, so each `run`/`resume` of the
model traced and compiled the whole integration again, although nothing but the state changed;
the commit moves the integration into a method jitted once with `self` and the step counts
static.  (The dynamical core's time-integration helpers are reduced here.)"""
import jax
import jax.numpy as jnp


def trajectory_from_step(step_fn, outer_steps, inner_steps, post_process_fn):
    def integrate(x):
        def inner(x, _):
            return step_fn(x), None

        def outer(x, _):
            x, _ = jax.lax.scan(inner, x, None, length=inner_steps)
            return x, post_process_fn(x)

        return jax.lax.scan(outer, x, None, length=outer_steps)

    return integrate


class Model:
    def __init__(self, dt_days=0.5, damping=0.05):
        self.dt = dt_days
        self.damping = damping
        self._final_modal_state = None

    def _create_step_fn(self, boundaries):
        def step(state):
            forcing = boundaries["sst"] - state["temperature"]
            temperature = state["temperature"] + self.dt * self.damping * forcing
            return {"temperature": temperature, "sim_time": state["sim_time"] + self.dt}

        return step

    def _post_process(self, state, boundaries):
        return jnp.mean(state["temperature"] - boundaries["sst"])

    def run_from_state(self, initial_state, boundaries, save_interval=10.0, total_time=40.0):
        step_fn = self._create_step_fn(boundaries)
        inner_steps = int(save_interval / self.dt)
        outer_steps = int(total_time / save_interval)
        integrate_fn = jax.jit(trajectory_from_step(
            jax.checkpoint(step_fn),
            outer_steps=outer_steps,
            inner_steps=inner_steps,
            post_process_fn=lambda state: self._post_process(state, boundaries),
        ))
        return integrate_fn(initial_state)  # <-- bug

    def resume(self, boundaries, save_interval=10.0, total_time=40.0):
        final, predictions = self.run_from_state(self._final_modal_state, boundaries, save_interval, total_time)
        self._final_modal_state = final
        return predictions


if __name__ == "__main__":
    model = Model()
    boundaries = {"sst": jnp.linspace(270.0, 300.0, 8)}
    model._final_modal_state = {"temperature": jnp.full((8,), 250.0, jnp.float32), "sim_time": jnp.float32(0.0)}
    for _ in range(3):
        predictions = model.resume(boundaries)
        print(jnp.round(predictions, 2), model._final_modal_state["sim_time"])
