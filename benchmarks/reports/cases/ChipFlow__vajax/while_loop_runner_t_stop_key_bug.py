# source: https://github.com/ChipFlow/vajax/commit/6f83a797917bfb71e39509a159c35137dc528a8f
# category: R
# expect: recompiles
# via: method, factory-closure, jit-decorator, lax-while, namedtuple, host-loop
# sink: changing-static
"""The adaptive while-loop transient strategy baked `t_stop` into the loop's `cond_fn`/`body_fn`
closures and into the key of its cache of jitted runners, so every simulation with a new stop
time built and compiled a fresh `run_while`.  The commit carries `t_stop` in the loop state
instead and drops it from the cache key.
(The circuit is reduced to an RC node driven by a step source.)"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class WhileLoopState(NamedTuple):
    t: jax.Array
    dt: jax.Array
    V: jax.Array
    step_idx: jax.Array


def _make_while_loop_fns(tau, max_steps, t_stop):
    def cond_fn(state):
        return (state.t < t_stop) & (state.step_idx < max_steps)

    def body_fn(state):
        new_dt = jnp.minimum(state.dt * 1.2, t_stop - state.t)
        V = state.V + new_dt * (1.0 - state.V) / tau
        return WhileLoopState(t=state.t + new_dt, dt=new_dt, V=V, step_idx=state.step_idx + 1)

    return cond_fn, body_fn


class AdaptiveWhileLoopStrategy:
    def __init__(self, tau):
        self.tau = tau
        self._jit_run_while_cache = {}

    def run(self, t_stop, dt, max_steps=1000):
        init_state = WhileLoopState(
            t=jnp.array(0.0, dtype=jnp.float32),
            dt=jnp.array(dt, dtype=jnp.float32),
            V=jnp.array(0.0, dtype=jnp.float32),
            step_idx=jnp.array(0, dtype=jnp.int32),
        )
        cache_key = (t_stop, max_steps)
        if cache_key not in self._jit_run_while_cache:
            cond_fn, body_fn = _make_while_loop_fns(self.tau, max_steps, t_stop)

            @jax.jit
            def run_while(state):
                return lax.while_loop(cond_fn, body_fn, state)

            self._jit_run_while_cache[cache_key] = run_while
        run_while = self._jit_run_while_cache[cache_key]
        final_state = run_while(init_state)  # <-- bug
        return float(final_state.t), float(final_state.V), int(final_state.step_idx)


if __name__ == "__main__":
    strategy = AdaptiveWhileLoopStrategy(tau=1e-3)
    for t_stop in (1e-3, 2e-3, 5e-3, 1e-2):
        print(t_stop, strategy.run(t_stop, dt=1e-5))
