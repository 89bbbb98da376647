# source: https://github.com/google-deepmind/optax/pull/721
# category: A
# expect: raises
# via: optax, factory-closure, namedtuple, jit-decorator, host-loop
# sink: python-if
"""The MoMo optimizer's update initialised its running averages with a Python
`if count == jnp.zeros([], jnp.int32):` on the step counter kept in its state; once the training
step was wrapped in jax.jit the counter was traced and the branch could not be decided."""
from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp
import jax.tree_util as tu
import optax


class MomoState(NamedTuple):
    exp_avg: optax.Updates
    barf: jax.Array
    gamma: jax.Array
    count: jax.Array


def momo(learning_rate=1.0, beta=0.9, lb=0.0, weight_decay=0.0, delta=1e-10):
    def init_fn(params):
        exp_avg = tu.tree_map(lambda p: jnp.zeros(p.shape), params)
        return MomoState(exp_avg, jnp.zeros([]), jnp.zeros([]), jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params, loss: Optional[jax.Array] = None):
        count = state.count
        # initialize at first gradient, and loss
        if count == jnp.zeros([], jnp.int32):  # <-- bug
            barf = loss
            exp_avg = tu.tree_map(lambda g: g, updates)
            gamma = optax.tree.vdot(updates, params)
        else:
            barf = beta * state.barf + (1 - beta) * loss
            exp_avg = tu.tree_map(lambda ea, g: beta * ea + (1 - beta) * g, state.exp_avg, updates)
            gamma = beta * state.gamma + (1 - beta) * optax.tree.vdot(updates, params)
        exp_avg_norm = optax.tree.norm(exp_avg, squared=True)
        iprod = optax.tree.vdot(exp_avg, params)
        alpha = learning_rate
        t1 = jnp.maximum((1 + alpha * weight_decay) * (barf - lb - gamma) + iprod, 0) / (exp_avg_norm + delta)
        tau = jnp.minimum(alpha, t1)
        p_update = tu.tree_map(lambda ea, p: -(alpha * weight_decay) / (1 + alpha * weight_decay) * p - tau * ea, exp_avg, params)
        new_state = MomoState(exp_avg=exp_avg, barf=barf, gamma=gamma, count=optax.safe_int32_increment(count))
        return p_update, new_state

    return optax.GradientTransformationExtraArgs(init_fn, update_fn)


def get_updates(params):
    return jax.value_and_grad(lambda p: jnp.sum((p - 1.0) ** 2))(params)


opt = momo()


@jax.jit
def step(params, state):
    loss, updates = get_updates(params)
    updates, state = opt.update(updates, state, params, loss)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    params = jnp.array([3.0, -2.0])
    state = opt.init(params)
    for _ in range(20):
        params, state = step(params, state)
    print(params)
