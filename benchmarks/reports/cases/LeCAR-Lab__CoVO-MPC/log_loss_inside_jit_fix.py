# source: https://github.com/LeCAR-Lab/CoVO-MPC/issues/2
# category: C
# expect: ok
# via: jit-decorator, lax-scan, helper, host-loop
# sink: print
"""The loss is printed with `jax.debug.print`, which is staged into the jitted update and writes
the concrete mean loss at every call."""
import logging
import sys

import jax
import jax.numpy as jnp


def _log_loss(total_loss):
    total_loss_mean = jnp.mean(total_loss[0])
    jax.debug.print("[INFO]: {}", total_loss_mean)


def loss_fn(params, batch):
    pred = batch["obs"] @ params
    return jnp.mean((pred - batch["target"]) ** 2)


@jax.jit
def update(params, batches):
    def _update_minibatch(params, batch):
        loss, grad = jax.value_and_grad(loss_fn)(params, batch)
        return params - 0.05 * grad, loss

    params, losses = jax.lax.scan(_update_minibatch, params, batches)
    total_loss = (losses,)
    _log_loss(total_loss)
    return params


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="[%(levelname)s]: %(message)s", force=True)
    obs = jnp.linspace(-1.0, 1.0, 4 * 8 * 3).reshape(4, 8, 3)
    batches = {"obs": obs, "target": obs.sum(-1)}
    params = jnp.zeros(3)
    for _ in range(3):
        params = update(params, batches)
    print(params)
