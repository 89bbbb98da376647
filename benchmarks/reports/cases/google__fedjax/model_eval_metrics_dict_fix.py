# source: https://github.com/google/fedjax/commit/34f1643c8edf4e3fa601d7b38f9eb04b8c4570f4
# category: B
# expect: ok
# via: dataclass, partial-jit, static-argnums, host-loop
# sink: static-unhashable
"""FedJAX's Model is a frozen dataclass passed as the static argument of its jitted evaluation
step, so its dataclass hash covers every field; a model built directly with a plain dict of
`eval_metrics` cannot be hashed.  The commit makes Model hashed and compared by identity, so a
standard dict is allowed."""
import dataclasses
import functools
from typing import Callable, Mapping

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Accuracy:
    target_key: str = 'y'

    def evaluate_example(self, example, prediction):
        return (jnp.argmax(prediction, axis=-1) == example[self.target_key]).astype(jnp.float32).mean()


@dataclasses.dataclass(frozen=True)
class Model:
    apply_for_eval: Callable
    eval_metrics: Mapping[str, Accuracy]

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other) -> bool:
        return self is other


@functools.partial(jax.jit, static_argnums=0)
def _evaluate_model_step(model, params, batch):
    prediction = model.apply_for_eval(params, batch)
    return {name: metric.evaluate_example(batch, prediction) for name, metric in model.eval_metrics.items()}


def evaluate_model(model, params, batches):
    return [_evaluate_model_step(model, params, batch) for batch in batches]


if __name__ == "__main__":
    model = Model(apply_for_eval=lambda p, b: b['x'] @ p, eval_metrics={'accuracy': Accuracy()})
    params = jnp.eye(3)
    batches = [{'x': np.eye(3), 'y': np.array([0, 1, 2])}] * 2
    print(evaluate_model(model, params, batches))
