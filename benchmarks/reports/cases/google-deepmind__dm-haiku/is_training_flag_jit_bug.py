# source: https://github.com/google-deepmind/dm-haiku/issues/187
# category: A
# expect: raises
# via: haiku, method, jit-decorator
# sink: python-if
"""A Haiku Net applies dropout only when `is_training` is true, with a Python `if`; the loss
that calls the transformed apply is jitted without marking `is_training` static, so the flag is
a tracer and the `if` fails.  The thread's version marks it with static_argnums=(4,)."""
import functools

import haiku as hk
import jax
import jax.numpy as jnp


class Net(hk.Module):
    def __init__(self, output_size: int = 1):
        super().__init__()
        self._network1 = hk.Sequential([hk.Linear(16), jax.nn.relu])
        self.output = hk.Linear(output_size)

    def __call__(self, x, is_training):
        x = self._network1(x)
        if is_training:  # <-- bug
            x = hk.dropout(hk.next_rng_key(), 0.1, x)
        return self.output(x)


def f(x, is_training=True):
    net = Net(1)
    return net(x, is_training)


model = hk.transform(f)


@jax.jit
def model_loss(params, rng, target, x, is_training):
    pred = model.apply(params, rng, x, is_training)
    return jnp.mean((pred - target) ** 2)


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    x = jnp.ones((8, 4))
    target = jnp.zeros((8, 1))
    params = model.init(rng, x, True)
    for step in range(3):
        rng, step_rng = jax.random.split(rng)
        print(step, float(model_loss(params, step_rng, target, x, True)))
