# source: https://github.com/uwplasma/vmex/commit/694be6fd42e5ef92c7b21fbd75b4aeb929fcc8cf
# category: R
# expect: ok
# via: jit-call, factory-closure, helper, lax-while, lax-scan, dataclass, namedtuple, host-loop
# sink: fresh-callable
"""`_compiled_lanes` builds the jitted `lax.while_loop` and `lax.scan` lanes once per
`SolverRuntime` (cached by identity), so hot restarts that keep the runtime reuse the same
executables instead of retracing on every solve."""
import functools
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

BLOCK_SIZE = 25


@dataclass(frozen=True, eq=False)
class SolverRuntime:
    pressure: jax.Array
    ns: int
    ftol: float
    max_iterations: int
    time_step: float


class _LoopCarry(NamedTuple):
    x: jax.Array
    it: jax.Array
    fsq: jax.Array
    done: jax.Array


def _make_body(rt: SolverRuntime):
    def body(c: _LoopCarry) -> _LoopCarry:
        f = jnp.diff(c.x, prepend=0.0, append=0.0)[:-1] * rt.ns - rt.pressure + c.x ** 3
        fsq = jnp.sum(f ** 2)
        it = c.it + 1
        done = (fsq < rt.ftol) | (it >= rt.max_iterations)
        return _LoopCarry(c.x - rt.time_step * f, it, fsq, done)
    return body


def _initial_carry(state0, rt: SolverRuntime) -> _LoopCarry:
    return _LoopCarry(state0, jnp.int32(0), jnp.float32(jnp.inf), jnp.bool_(False))


@functools.lru_cache(maxsize=64)
def _compiled_lanes(rt: SolverRuntime):
    body = _make_body(rt)

    def cond(c: _LoopCarry):
        return jnp.logical_not(c.done)

    while_lane = jax.jit(lambda c: lax.while_loop(cond, body, c))
    block_lane = jax.jit(lambda c: lax.scan(lambda cc, _: (body(cc), None), c, None, length=BLOCK_SIZE)[0])
    return while_lane, block_lane


def _run_loop(state0, rt: SolverRuntime, *, mode: str) -> _LoopCarry:
    carry = _initial_carry(state0, rt)
    loop, block = _compiled_lanes(rt)

    if mode == "jit":
        return loop(carry)

    while not bool(carry.done):
        carry = block(carry)
    return carry


if __name__ == "__main__":
    rt = SolverRuntime(pressure=jnp.linspace(0.1, 0.0, 8), ns=8, ftol=1e-8,
                       max_iterations=400, time_step=0.05)
    state = jnp.zeros(8)
    for restart in range(3):
        out = _run_loop(state, rt, mode="jit")
        print(restart, int(out.it), float(out.fsq))
        state = out.x + 0.01 * (restart + 1)
