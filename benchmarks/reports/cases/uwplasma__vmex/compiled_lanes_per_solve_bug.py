# source: https://github.com/uwplasma/vmex/commit/694be6fd42e5ef92c7b21fbd75b4aeb929fcc8cf
# category: R
# expect: recompiles
# via: jit-call, factory-closure, helper, lax-while, lax-scan, dataclass, namedtuple, host-loop
# sink: fresh-callable
"""`_run_loop` wrapped a new lambda around `lax.while_loop` (or `lax.scan` in the block lane) in
`jax.jit` on every solve, so a hot restart that keeps the same `SolverRuntime` traced and compiled
the whole force iteration again each time.  The commit builds the two lanes once per runtime in an
`lru_cache`d `_compiled_lanes`.  (The VMEC force balance is reduced to a damped relaxation.)"""
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


def _run_loop(state0, rt: SolverRuntime, *, mode: str) -> _LoopCarry:
    body = _make_body(rt)
    carry = _initial_carry(state0, rt)

    if mode == "jit":
        def cond(c: _LoopCarry):
            return jnp.logical_not(c.done)

        loop = jax.jit(lambda c: lax.while_loop(cond, body, c))
        return loop(carry)  # <-- bug

    block = jax.jit(lambda c: lax.scan(lambda cc, _: (body(cc), None), c, None, length=BLOCK_SIZE)[0])
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
