# source: https://github.com/google/fedjax/commit/e2e689670dd3db9d2375a41360e62d444850fb66
# category: B
# expect: ok
# via: partial-jit, static-argnums, dataclass, host-loop
# sink: static-array
"""FedJAX's `_evaluate_model_step` was jitted with `static_argnums=(0, 1)`, making the model
parameters static as well as the model; the test passed `params=None`, but real parameters are
arrays and cannot be hashed as a static argument.  The fix keeps only the model static."""
import dataclasses
import functools
from typing import Callable, Dict

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Model:
    apply_for_eval: Callable
    num_classes: int


def evaluate_batch(model, params, batch):
    logits = model.apply_for_eval(params, batch['x'])
    correct = (jnp.argmax(logits, axis=-1) == batch['y']).astype(jnp.float32)
    return jnp.stack([correct.sum(), correct.size])


@functools.partial(jax.jit, static_argnums=0)
def _evaluate_model_step(model: Model, params, batch: Dict, stat):
    return stat + evaluate_batch(model, params, batch)


def evaluate_model(model, params, batches):
    stat = jnp.zeros(2)
    for batch in batches:
        stat = _evaluate_model_step(model, params, batch, stat)
    return stat[0] / stat[1]


if __name__ == "__main__":
    model = Model(apply_for_eval=lambda p, x: x @ p, num_classes=2)
    params = jnp.array([[1.0, -1.0], [-1.0, 1.0]])
    batches = [{'x': np.eye(2)[[0, 1, 0]], 'y': np.array([0, 1, 1])} for _ in range(2)]
    print(evaluate_model(model, params, batches))
