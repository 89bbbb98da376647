# source: https://github.com/google-deepmind/optax/pull/1175
# category: R
# expect: recompiles
# via: optax, factory-closure, namedtuple, lax-while, jit-decorator, host-loop
# sink: weak-type
"""The backtracking line search's `init` built its state with `jnp.array(jnp.inf)` (a weakly typed
float) while `update` returned float32 values, so the jitted training step compiled again on its
second call, when it first received a state made by `update`."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class BacktrackingLinesearchInfo(NamedTuple):
    num_linesearch_steps: jax.Array
    decrease_error: jax.Array


class ScaleByBacktrackingLinesearchState(NamedTuple):
    learning_rate: jax.Array
    value: jax.Array
    info: BacktrackingLinesearchInfo


def scale_by_backtracking_linesearch(max_backtracking_steps, decrease_factor=0.8, slope_rtol=1e-4):
    def init_fn(params):
        return ScaleByBacktrackingLinesearchState(
            learning_rate=jnp.array(1.0),
            value=jnp.array(jnp.inf),
            info=BacktrackingLinesearchInfo(
                num_linesearch_steps=jnp.array(0),
                decrease_error=jnp.array(jnp.inf),
            ),
        )

    def update_fn(updates, state, params, *, value, grad, value_fn, **extra_args):
        slope = optax.tree.vdot(updates, grad)

        def cond_fn(carry):
            lr, step, err = carry
            return (step < max_backtracking_steps) & (err > 0)

        def body_fn(carry):
            lr, step, err = carry
            lr = lr * decrease_factor
            new_value = value_fn(optax.apply_updates(params, optax.tree.scale(lr, updates)))
            return lr, step + 1, new_value - value - slope_rtol * lr * slope

        init_err = value_fn(optax.apply_updates(params, updates)) - value - slope_rtol * slope
        lr, steps, err = jax.lax.while_loop(cond_fn, body_fn, (state.learning_rate, jnp.array(0), init_err))
        new_state = ScaleByBacktrackingLinesearchState(
            learning_rate=lr, value=value, info=BacktrackingLinesearchInfo(steps, jnp.maximum(err, 0.0))
        )
        return optax.tree.scale(lr, updates), new_state

    return optax.GradientTransformationExtraArgs(init_fn, update_fn)


def fn(params):
    return jnp.sum((params - 3.0) ** 2)


opt = optax.chain(optax.sgd(learning_rate=1.0), scale_by_backtracking_linesearch(max_backtracking_steps=15))


@jax.jit
def step(params, state):
    value, grad = jax.value_and_grad(fn)(params)
    updates, state = opt.update(grad, state, params, value=value, grad=grad, value_fn=fn)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    params = jnp.array([1.0, 2.0, -1.0])
    state = opt.init(params)
    for _ in range(5):
        params, state = step(params, state)  # <-- bug
    print(params, fn(params))
