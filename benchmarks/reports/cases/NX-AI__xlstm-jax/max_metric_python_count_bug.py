# source: https://github.com/NX-AI/xlstm-jax/pull/235
# category: R
# expect: recompiles
# via: jit-call, method, dict-of-arrays, eval-shape, host-loop
# sink: weak-type
"""The trainer starts its metrics as `zeros_like` of what `jax.eval_shape` says the train step
returns, which gives strongly typed int32 counts; but a metric logged in "max" mode sets its
count to the Python int 1 inside the step, so the step returns a weakly typed count and the
second training step is compiled again.  (The trainer and its metrics helpers are reduced.)"""
from typing import Any

import jax
import jax.numpy as jnp


def _empty_val(value: Any) -> Any:
    if isinstance(value, int):
        return 0
    if isinstance(value, jax.Array):
        return jnp.zeros_like(value)
    return value


def _update_single_metric(global_metrics, key, value, count, log_modes=None):
    if log_modes is None:
        log_modes = ["mean_nopostfix"]
    if key not in global_metrics:
        global_metrics[key] = {mode: {"value": _empty_val(value), "count": 0} for mode in log_modes}
    metrics_dict = global_metrics[key]
    for log_mode in log_modes:
        mode_dict = metrics_dict[log_mode]
        if log_mode == "mean_nopostfix":
            mode_dict["count"] += count
            mode_dict["value"] += value
        elif log_mode == "max":
            mode_dict["count"] = 1
            mode_dict["value"] = jnp.maximum(mode_dict["value"], value / count)


def update_metrics(global_metrics, step_metrics):
    global_metrics = jax.tree.map(lambda x: x, global_metrics) if global_metrics is not None else {}
    for key, (value, count, log_modes) in step_metrics.items():
        _update_single_metric(global_metrics, key, value, count, log_modes)
    return global_metrics


class TrainerModule:
    def __init__(self):
        self.params = jnp.ones((4,))
        self.exmp_batch = jnp.ones((8, 4))
        self.train_step = jax.jit(self._train_step)

    def _train_step(self, params, batch, metrics):
        loss, grads = jax.value_and_grad(lambda p: jnp.mean((batch @ p - 1.0) ** 2))(params)
        params = params - 0.1 * grads
        step_metrics = {
            "loss": (loss * batch.shape[0], batch.shape[0], ["mean_nopostfix"]),
            "grad_norm": (jnp.linalg.norm(grads), 1, ["max"]),
        }
        return params, update_metrics(metrics, step_metrics)

    def init_train_metrics(self):
        _, shapes = jax.eval_shape(self._train_step, self.params, self.exmp_batch, None)
        return jax.tree.map(lambda x: jnp.zeros_like(x), shapes)

    def train_epoch(self, num_steps=4):
        metrics = self.init_train_metrics()
        for step in range(num_steps):
            batch = self.exmp_batch * (1.0 + 0.1 * step)
            self.params, metrics = self.train_step(self.params, batch, metrics)  # <-- bug
        return metrics


if __name__ == "__main__":
    metrics = TrainerModule().train_epoch()
    print(float(metrics["loss"]["mean_nopostfix"]["value"]), float(metrics["grad_norm"]["max"]["value"]))
