# source: https://github.com/stanford-crfm/levanter/pull/115
# category: C
# expect: ok
# via: jit-decorator, host-loop, helper
# sink: leaked-tracer
"""Logging metrics to wandb from inside Levanter's jitted train step runs the logging call only
while the step is traced, so a single record is written, and it holds
the step's tracer rather than a loss value.  The PR adds
`jittable_wandb_log`, which sends the data to wandb.log through a `jax.debug.callback` so it runs
on the host at every step."""
import jax
import jax.numpy as jnp


class _Run:
    def __init__(self):
        self.history = []


class wandb:
    run = _Run()

    @staticmethod
    def log(data, step=None):
        wandb.run.history.append((step, data))


def jittable_wandb_log(data, *, step=None):
    jax.debug.callback(wandb.log, data, step=step)


@jax.jit
def train_step(params, batch, step):
    loss, grad = jax.value_and_grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    jittable_wandb_log({"train/loss": loss}, step=step)
    return params - 0.1 * grad


if __name__ == "__main__":
    params = jnp.ones(3)
    batch = jnp.ones((4, 3))
    for step in range(3):
        params = train_step(params, batch, step)
    print("logged records:", len(wandb.run.history))
