# source: https://github.com/google/flax/issues/5489
# category: B
# expect: raises
# via: flax-nnx, optax, partial-jit, static-argnums, class-attribute
# sink: static-unhashable
"""The training step is jitted with the nnx GraphDef of (model, optimizer, metrics) as a static
argument.  MultiMetric kept its metric names in a Python list, which is static graph metadata,
so hashing the GraphDef fails and jit refuses it.  (MultiMetric is reduced here as it was.)"""
from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MultiMetric(nnx.Metric):
    def __init__(self, **metrics):
        self._metric_names = []
        for name, metric in metrics.items():
            self._metric_names.append(name)
            setattr(self, name, metric)

    def reset(self):
        for name in self._metric_names:
            getattr(self, name).reset()

    def update(self, **updates):
        for name in self._metric_names:
            getattr(self, name).update(**updates)

    def compute(self):
        return {name: getattr(self, name).compute() for name in self._metric_names}


class TrivialModel(nnx.Module):
    def __init__(self, in_features, out_features, rngs):
        self.linear = nnx.Linear(in_features, out_features, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


@partial(jax.jit, static_argnames=["graphdef"])
def run_step(graphdef, state, x, y):
    model, optimizer, metrics = nnx.merge(graphdef, state)
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(grads)
    metrics.update(loss=loss)
    return loss, nnx.state((model, optimizer, metrics))


if __name__ == "__main__":
    model = TrivialModel(4, 2, nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(learning_rate=0.01))
    metrics = MultiMetric(loss=nnx.metrics.Average("loss"))
    graphdef, state = nnx.split((model, optimizer, metrics))
    x, y = jnp.ones((8, 4)), jnp.zeros((8, 2))
    for step in range(3):
        loss, state = run_step(graphdef, state, x, y)  # <-- bug
        print(step, float(loss))
