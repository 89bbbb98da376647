# source: https://github.com/chaobrain/brainstate/pull/217
# category: A
# expect: ok
# via: jit-decorator, method, wrapper, class-attribute
# sink: python-if
"""ConfusionMatrix.update validates its inputs with `if jnp.any(... out of range ...)`; when the
update runs inside a jitted function the predictions are traced and the `if` fails with a tracer
boolean conversion error. The fix skips the range check when the inputs are tracers."""
import jax
import jax.numpy as jnp
from jax.core import Tracer


class MetricState:
    def __init__(self, value):
        self.value = value


def jit(fn):
    """Reduced brainstate.transform.jit: threads the metric states through jax.jit."""
    def run(states, *args):
        old = [s.value for s in states]

        def pure(values, *args):
            for s, v in zip(states, values):
                s.value = v
            try:
                fn(*args)
                return [s.value for s in states]
            finally:
                for s, v in zip(states, old):
                    s.value = v

        new = jax.jit(pure)(old, *args)
        for s, v in zip(states, new):
            s.value = v
    return run


class ConfusionMatrix:
    def __init__(self, num_classes: int):
        self.num_classes = num_classes
        self.matrix = MetricState(jnp.zeros((num_classes, num_classes), dtype=jnp.int32))

    def update(self, *, predictions, labels, **_):
        predictions = jnp.asarray(predictions, dtype=jnp.int32).flatten()
        labels = jnp.asarray(labels, dtype=jnp.int32).flatten()
        if not (isinstance(predictions, Tracer) or isinstance(labels, Tracer)):
            if jnp.any((predictions < 0) | (predictions >= self.num_classes)):
                raise ValueError(f"Predictions contain values outside [0, {self.num_classes})")
        for true_label in range(self.num_classes):
            for pred_label in range(self.num_classes):
                count = jnp.sum((labels == true_label) & (predictions == pred_label))
                self.matrix.value = self.matrix.value.at[true_label, pred_label].add(count)

    def compute(self):
        return self.matrix.value


if __name__ == "__main__":
    metric = ConfusionMatrix(num_classes=3)

    @jit
    def do_update(preds, lbls):
        metric.update(predictions=preds, labels=lbls)

    do_update([metric.matrix], jnp.array([0, 1, 2, 1, 0]), jnp.array([0, 1, 1, 1, 2]))
    print(metric.compute())
