# source: https://github.com/climate-analytics-lab/jax-gcm/commit/a803d7e6131c73def774490e8de8d1ab3efcad2b
# category: B
# expect: raises
# via: flax-nnx, lax-scan, factory-closure, method
# sink: static-metadata
"""jax-gcm's `DiagnosticsCollector` (an `nnx.Module`) set `self.data = None` in `__init__`, so Flax
NNX recorded `data` as a static attribute; the integrator then assigns the stacked diagnostics as
an `nnx.Variable` to that attribute, and NNX refuses data on a static attribute.  The commit stopped
initialising `data` to None in the constructor.  (The integrator is reduced to one `nnx.scan`.)"""
import jax
import jax.numpy as jnp
from flax import nnx


class DiagnosticsCollector(nnx.Module):
    data: nnx.Variable
    i: nnx.Variable
    steps_to_average: int

    def __init__(self, steps_to_average):
        self.data = None
        self.i = nnx.Variable(0)
        self.steps_to_average = steps_to_average

    def accumulate(self, new_data):
        slot = self.i.value // self.steps_to_average
        self.data.value = self.data.value.at[slot].add(new_data / self.steps_to_average)


def averaged_trajectory_from_step(step_fn, outer_steps, inner_steps):
    def integrate(x_initial):
        collector = DiagnosticsCollector(steps_to_average=inner_steps)
        collector.data = nnx.Variable(jnp.zeros((outer_steps,) + x_initial.shape))  # <-- bug

        @nnx.scan(in_axes=(nnx.Carry,), out_axes=nnx.Carry, length=outer_steps * inner_steps)
        def step(carry):
            x, collector = carry
            x = step_fn(x)
            collector.accumulate(x)
            collector.i.value = collector.i.value + 1
            return x, collector

        x_final, collector = step((x_initial, collector))
        return x_final, collector.data.value

    return integrate


if __name__ == "__main__":
    integrate = averaged_trajectory_from_step(lambda x: 0.9 * x + 1.0, outer_steps=2, inner_steps=3)
    x_final, averages = integrate(jnp.zeros(2))
    print(x_final, averages)
