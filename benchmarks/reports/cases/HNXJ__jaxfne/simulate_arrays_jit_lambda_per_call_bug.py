# source: https://github.com/HNXJ/jaxfne/commit/a2596ca3e1546610975acf55be0547ea69654f8c
# category: R
# expect: recompiles
# via: method, factory-closure, jit-call, dataclass, lax-scan, host-loop
# sink: fresh-callable
"""`Model._simulate_arrays` wrapped a new lambda around `simulate_eig_izhikevich` in `jax.jit`
every time a simulation ran, so repeated runs of the same network (new seeds, new drive
schedules, same shapes) traced and compiled the whole Izhikevich scan again.  The commit keeps
the jitted runner in a per-model `_compiled_cache` keyed by the (B, Z, C, T) signature.
(The network is reduced to a small dense Izhikevich population.)"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax


@dataclass(frozen=True)
class RuntimeConfig:
    jit: bool = True
    actual_dtype: str = "float32"


@dataclass(frozen=True)
class Simulation:
    n_steps: int
    dt_ms: float


@dataclass(frozen=True, eq=False)
class IzhikevichParams:
    a: jax.Array
    b: jax.Array
    W: jax.Array
    v0: jax.Array


def simulate_eig_izhikevich(emitter, n_steps, dt_ms, key, dtype="float32", drive_schedule=None, silence_mask=None):
    noise = jax.random.normal(key, (n_steps, emitter.v0.shape[0])) * 2.0

    def step(carry, inputs):
        v, u, s = carry
        drive, eps = inputs
        I = drive + eps + emitter.W @ s
        v = v + dt_ms * (0.04 * v ** 2 + 5 * v + 140 - u + I)
        u = u + dt_ms * emitter.a * (emitter.b * v - u)
        spiked = (v >= 30.0).astype(v.dtype) * silence_mask
        v = jnp.where(spiked > 0, -65.0, v)
        return (v, u + 8.0 * spiked, spiked), (v, spiked)

    init = (emitter.v0, emitter.b * emitter.v0, jnp.zeros_like(emitter.v0))
    _, (voltages, spikes) = lax.scan(step, init, (drive_schedule, noise))
    return voltages, spikes


class Model:
    def __init__(self, emitter, n_contacts=16):
        self.params = {"emitter": emitter}
        self.static = {"n_contacts": n_contacts}

    def _simulate_arrays(self, sim, key, runtime_cfg, drive_schedule=None):
        emitter = self.params["emitter"]
        silence_mask = jnp.ones(emitter.v0.shape[0])
        if runtime_cfg.jit:
            run = jax.jit(
                lambda k, s: simulate_eig_izhikevich(
                    emitter, sim.n_steps, sim.dt_ms, k,
                    dtype=runtime_cfg.actual_dtype, drive_schedule=s, silence_mask=silence_mask,
                )
            )
            return run(key, drive_schedule)  # <-- bug
        return simulate_eig_izhikevich(emitter, sim.n_steps, sim.dt_ms, key,
                                       drive_schedule=drive_schedule, silence_mask=silence_mask)


if __name__ == "__main__":
    n = 8
    emitter = IzhikevichParams(a=jnp.full(n, 0.02), b=jnp.full(n, 0.2),
                               W=jnp.full((n, n), 0.5), v0=jnp.full(n, -65.0))
    model = Model(emitter)
    sim = Simulation(n_steps=200, dt_ms=0.5)
    for trial, amp in enumerate((4.0, 6.0, 8.0)):
        sched = jnp.full((sim.n_steps, n), amp)
        voltages, spikes = model._simulate_arrays(sim, jax.random.PRNGKey(trial), RuntimeConfig(), sched)
        print(trial, amp, int(spikes.sum()))
