# source: https://github.com/google/CommonLoopUtils/commit/84b777c42dfd3fb6685537138433bfeb5241a006
# category: A
# expect: raises
# via: dataclass, method, jit-call, host-loop
# sink: numpy-call
"""CLU's CollectingMetric gathers model outputs on the host by turning them into NumPy arrays
when merged; merging it inside a jitted eval step hands tracers to np.asarray.  The commit
documents (and tests) that it must be merged in the Python evaluation loop that calls the
compiled step instead."""
from typing import Any, Dict

import flax
import jax
import jax.numpy as jnp
import numpy as np


@flax.struct.dataclass
class CollectingMetric:
    values: Dict[str, Any]

    @classmethod
    def from_model_output(cls, **model_output):
        return cls(values={k: (v,) for k, v in model_output.items()})

    def merge(self, other):
        values = {name: (*value, *other.values[name]) for name, value in self.values.items()}
        return type(self)(jax.tree_util.tree_map(np.asarray, values))  # <-- bug

    def compute(self):
        return {k: np.concatenate(v) for k, v in self.values.items()}


def eval_step(metric, logits):
    update = CollectingMetric.from_model_output(logits=logits)
    return metric.merge(update)


if __name__ == "__main__":
    metric = CollectingMetric.from_model_output(logits=jnp.zeros((2, 3)))
    jit_eval_step = jax.jit(eval_step)
    for i in range(3):
        metric = jit_eval_step(metric, jnp.full((2, 3), float(i)))
    print(metric.compute()["logits"].shape)
