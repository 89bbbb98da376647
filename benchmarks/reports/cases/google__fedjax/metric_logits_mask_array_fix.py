# source: https://github.com/google/fedjax/commit/5d73ed6ce263bacb042c9d2a929e0a9ae3cf61e3
# category: B
# expect: ok
# via: dataclass, partial-jit, static-argnums, host-loop
# sink: static-unhashable
"""FedJAX metrics are frozen dataclasses held by the model, and the model is a static argument
of the jitted evaluation step, so every metric field is hashed; SequenceTokenAccuracy took its
`logits_mask` as a jnp array, which cannot be hashed.  The commit stores the mask as a tuple of
floats and turns it into an array inside `evaluate_example`."""
import dataclasses
import functools
from typing import Optional, Tuple

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class SequenceTokenAccuracy:
    target_key: str = 'y'
    masked_target_values: Tuple[int, ...] = (0,)
    logits_mask: Optional[Tuple[float, ...]] = None

    def evaluate_example(self, example, prediction):
        target = example[self.target_key]
        pred = prediction
        if self.logits_mask is not None:
            logits_mask = jnp.array(self.logits_mask)
            pred += logits_mask
        target_weight = jnp.ones_like(target, dtype=jnp.float32)
        for mv in self.masked_target_values:
            target_weight *= (target != mv)
        correct = (target == jnp.argmax(pred, axis=-1)).astype(jnp.float32)
        return jnp.stack([jnp.sum(correct * target_weight), jnp.sum(target_weight)])


@dataclasses.dataclass(frozen=True)
class Model:
    vocab_size: int
    eval_metrics: Tuple[Tuple[str, SequenceTokenAccuracy], ...]


@functools.partial(jax.jit, static_argnums=0)
def _evaluate_model_step(model, params, batch):
    prediction = jax.nn.one_hot(batch['x'], model.vocab_size) @ params
    return {name: metric.evaluate_example(batch, prediction) for name, metric in model.eval_metrics}


if __name__ == "__main__":
    vocab_size = 4
    metric = SequenceTokenAccuracy(logits_mask=(-1e9, 0.0, 0.0, 0.0))
    model = Model(vocab_size=vocab_size, eval_metrics=(('accuracy', metric),))
    params = jnp.eye(vocab_size)
    batch = {'x': np.array([[1, 2, 3, 0]]), 'y': np.array([[1, 2, 2, 0]])}
    print(_evaluate_model_step(model, params, batch))
