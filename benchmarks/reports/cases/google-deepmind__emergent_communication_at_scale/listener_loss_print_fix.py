# source: https://github.com/google-deepmind/emergent_communication_at_scale/issues/2
# category: C
# expect: ok
# via: grad, method, namedtuple, host-loop
# sink: print
"""As the maintainers advise, the experiment is run with jit disabled while debugging, so the
print inside the loss runs at every step and shows the loss values."""
import collections

import jax
import jax.numpy as jnp

ListenerLossOutputs = collections.namedtuple("ListenerLossOutputs", ["loss", "accuracy"])


def listener_loss(params, message, target):
    logits = message @ params
    loss = jnp.mean((logits - target) ** 2)
    accuracy = jnp.mean(jnp.abs(logits - target) < 0.5)
    outputs = ListenerLossOutputs(loss=loss, accuracy=accuracy)
    print(outputs)
    return outputs.loss


class Experiment:
    def __init__(self, disable_jit=False):
        update = self._update_func
        self._update_fn = update if disable_jit else jax.jit(update)

    def _update_func(self, params, message, target):
        grads = jax.grad(listener_loss)(params, message, target)
        return params - 0.1 * grads

    def step(self, params, message, target):
        return self._update_fn(params, message, target)


if __name__ == "__main__":
    message = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    target = jnp.array([1.0, 0.0, 1.0, 0.0])
    params = jnp.zeros(3)
    experiment = Experiment(disable_jit=True)
    for _ in range(3):
        params = experiment.step(params, message, target)
    print(params)
